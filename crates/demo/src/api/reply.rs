//! What every handler shares: answers as the API server words them, the query and body read, the filters of a list or watch.

use std::collections::HashMap;

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::Response;
use serde_json::Value;

use super::User;
use crate::registry::Resource;
use crate::selector::{FieldSelector, LabelSelector};
use crate::store::ApiError;

pub(crate) fn respond(code: u16, body: &Value) -> Response {
    let bytes = serde_json::to_vec(body).unwrap_or_default();
    Response::builder()
        .status(StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR))
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(bytes))
        .unwrap_or_default()
}

/// A store result as the API server answers it: the object with `code`, or
/// the error as a Status.
pub(crate) fn reply(code: u16, result: Result<Value, ApiError>) -> Response {
    match result {
        Ok(object) => respond(code, &object),
        Err(e) => error(&e),
    }
}

pub(crate) fn error(e: &ApiError) -> Response {
    respond(e.code, &e.status())
}

pub(crate) fn query(uri: &Uri) -> HashMap<String, String> {
    form_urlencoded::parse(uri.query().unwrap_or("").as_bytes())
        .into_owned()
        .collect()
}

pub(crate) fn wants_table(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| {
            v.split(',')
                .next()
                .is_some_and(|first| first.contains("as=Table"))
        })
}

pub(crate) fn forbidden(
    user: User,
    verb: &str,
    resource: &Resource,
    name: Option<&str>,
    namespace: Option<&str>,
) -> Response {
    let subject = match name {
        Some(name) => format!("{} \"{name}\" is forbidden", resource.qualified()),
        None => format!("{} is forbidden", resource.qualified()),
    };
    let scope = match namespace.filter(|n| !n.is_empty()) {
        Some(ns) => format!(" in the namespace \"{ns}\""),
        None => " at the cluster scope".to_owned(),
    };
    let error = ApiError::new(
        403,
        "Forbidden",
        format!(
            "{subject}: User \"{}\" cannot {verb} resource \"{}\" in API group \"{}\"{scope}",
            user.name(),
            resource.plural,
            resource.group
        ),
    );
    respond(403, &error.status())
}

pub(crate) fn parse_body(headers: &HeaderMap, body: &Bytes) -> Result<Value, ApiError> {
    if body.is_empty() {
        return Ok(Value::Null);
    }
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if content_type.contains("yaml") {
        let text = std::str::from_utf8(body)
            .map_err(|_| ApiError::bad_request("the body is not UTF-8"))?;
        return serde_saphyr::from_str::<Value>(text)
            .map_err(|e| ApiError::bad_request(format!("the YAML body could not be read: {e}")));
    }
    serde_json::from_slice(body)
        .map_err(|e| ApiError::bad_request(format!("the JSON body could not be read: {e}")))
}

pub(crate) struct Filters {
    pub(crate) namespace: Option<String>,
    labels: LabelSelector,
    fields: FieldSelector,
}

impl Filters {
    pub(crate) fn parse(
        resource: &Resource,
        namespace: Option<String>,
        params: &HashMap<String, String>,
    ) -> Result<Filters, ApiError> {
        let labels = LabelSelector::parse(params.get("labelSelector").map_or("", String::as_str))
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        let fields = FieldSelector::parse(
            params.get("fieldSelector").map_or("", String::as_str),
            resource.plural == "events",
        )
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
        Ok(Filters {
            namespace,
            labels,
            fields,
        })
    }

    pub(crate) fn matches(&self, object: &Value) -> bool {
        let in_namespace = self.namespace.as_deref().is_none_or(|ns| {
            object
                .pointer("/metadata/namespace")
                .and_then(Value::as_str)
                .unwrap_or("")
                == ns
        });
        in_namespace && self.labels.matches(object) && self.fields.matches(object)
    }
}
