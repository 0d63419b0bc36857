//! Errors as the API server answers them: a `Status` object with a code, a reason and a
//! message in the API server's words, so kubectl and kube-rs print what they print for a real
//! cluster.

use serde_json::{Value, json};

use super::registry::Resource;

/// An error the API answers with a `Status` object.
#[derive(Clone, Debug, PartialEq)]
pub struct ApiError {
    pub code: u16,
    pub reason: &'static str,
    pub message: String,
    pub details: Option<Value>,
}

/// The message, as kubectl prints a Status's.
impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ApiError {}

impl ApiError {
    pub fn new(code: u16, reason: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            code,
            reason,
            message: message.into(),
            details: None,
        }
    }

    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(400, "BadRequest", message)
    }

    pub fn with_details(mut self, resource: &Resource, name: &str) -> ApiError {
        self.details =
            Some(json!({"name": name, "group": resource.group, "kind": resource.plural}));
        self
    }

    pub fn not_found(resource: &Resource, name: &str) -> ApiError {
        ApiError::new(
            404,
            "NotFound",
            format!("{} \"{name}\" not found", resource.qualified()),
        )
        .with_details(resource, name)
    }

    pub fn conflict(resource: &Resource, name: &str, why: &str) -> ApiError {
        ApiError::new(
            409,
            "Conflict",
            format!(
                "Operation cannot be fulfilled on {} \"{name}\": {why}",
                resource.qualified()
            ),
        )
        .with_details(resource, name)
    }

    pub fn gone(message: impl Into<String>) -> ApiError {
        ApiError::new(410, "Expired", message)
    }

    pub fn status(&self) -> Value {
        let mut status = json!({
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": self.message,
            "reason": self.reason,
            "code": self.code,
        });
        if let Some(details) = &self.details {
            status["details"] = details.clone();
        }
        status
    }
}
