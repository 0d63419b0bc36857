//! What a write must be before the store takes it: a name for a create, an update of the version held, the server's own fields kept.

use serde_json::Value;

use super::{ApiError, meta_str};
use crate::registry::Resource;

/// The name a created object gets: its own, or its `generateName` with five characters
/// after it; refused as the API server refuses it when it is not a DNS subdomain.
pub(super) fn created_name(resource: &Resource, object: &Value) -> Result<String, ApiError> {
    let mut name = meta_str(object, "name").unwrap_or("").to_owned();
    if name.is_empty() {
        match meta_str(object, "generateName") {
            Some(prefix) if !prefix.is_empty() => {
                let suffix: String = (0..5)
                    .map(|_| fastrand::alphanumeric().to_ascii_lowercase())
                    .collect();
                name = format!("{prefix}{suffix}");
            }
            _ => {
                return Err(ApiError::new(
                    422,
                    "Invalid",
                    format!(
                        "{} \"\" is invalid: metadata.name: Required value: name or generateName is required",
                        resource.kind
                    ),
                ));
            }
        }
    }
    if let Some(why) = pooldeck_domain::rules::names::dns_subdomain(&name) {
        return Err(ApiError::new(
            422,
            "Invalid",
            format!(
                "{} \"{name}\" is invalid: metadata.name: {why}",
                resource.kind
            ),
        ));
    }
    Ok(name)
}

/// An update the API server refuses: a body that is no object or whose metadata is none, a
/// name other than the URL's, a resourceVersion that is not the object's now.
pub(super) fn check_update(
    resource: &Resource,
    name: &str,
    object: &Value,
    current: &Value,
    check_version: bool,
) -> Result<(), ApiError> {
    if !object.is_object() {
        return Err(ApiError::bad_request("the body is not an object"));
    }
    // A patch may have turned metadata into something else; writing fields into it
    // below would then fail. Refuse it as the API server does.
    if object
        .get("metadata")
        .is_some_and(|m| !m.is_object() && !m.is_null())
    {
        return Err(ApiError::new(
            422,
            "Invalid",
            "metadata: Invalid value: the object's metadata must be an object".to_owned(),
        ));
    }
    if let Some(body_name) = meta_str(object, "name")
        && body_name != name
    {
        return Err(ApiError::bad_request(format!(
            "the name of the object ({body_name}) does not match the name on the URL ({name})"
        )));
    }
    if check_version
        && let Some(version) = meta_str(object, "resourceVersion").filter(|v| !v.is_empty())
        && Some(version) != meta_str(current, "resourceVersion")
    {
        return Err(ApiError::conflict(
            resource,
            name,
            "the object has been modified; please apply your changes to the latest version and try again",
        ));
    }
    Ok(())
}

/// What the server owns stays as it is: the status (written through its own subresource)
/// and the metadata it sets.
pub(super) fn keep_server_fields(resource: &Resource, object: &mut Value, current: &Value) {
    if resource.has_status && resource.plural != "namespaces" {
        match current.get("status") {
            Some(status) => object["status"] = status.clone(),
            None => {
                if let Some(map) = object.as_object_mut() {
                    map.shift_remove("status");
                }
            }
        }
    }
    // Fields the server owns.
    for field in [
        "uid",
        "creationTimestamp",
        "deletionTimestamp",
        "generation",
    ] {
        match current["metadata"].get(field) {
            Some(value) => object["metadata"][field] = value.clone(),
            None => {
                if let Some(m) = object["metadata"].as_object_mut() {
                    m.shift_remove(field);
                }
            }
        }
    }
}
