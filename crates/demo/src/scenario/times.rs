//! Times in a scenario: offsets (`30s`, `3d`), relative timestamps (`now-3d`) made current, and an evaluation owned by its pool.

use std::time::Duration;

use chrono::{SecondsFormat, Utc};
use serde_json::{Value, json};

use crate::error::ScenarioError;
use crate::store::Store;

/// Parses `15m`, `3d`, `1h30m`.
pub(super) fn parse_offset(text: &str) -> Result<Duration, ScenarioError> {
    if let Some(days) = text.strip_suffix('d') {
        let days: f64 = days
            .parse()
            .map_err(|_| ScenarioError::NotADuration(text.to_owned()))?;
        return Ok(Duration::from_secs_f64(days * 86_400.0));
    }
    Ok(pooldeck_domain::duration::parse(text)?)
}

/// A ComputePoolEvaluation is owned by the pool of the same name and namespace, as the
/// Scaling Policy controller creates it; the owner reference carries the pool's uid, which is
/// only known once the pool exists, so it is filled in here.
pub(crate) fn owned_by_pool(store: &Store, mut object: Value) -> Value {
    if object.get("kind").and_then(Value::as_str) != Some("ComputePoolEvaluation") {
        return object;
    }
    let Some(pools) = store.registry.by_kind("ComputePool").cloned() else {
        return object;
    };
    let namespace = object
        .pointer("/metadata/namespace")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let name = object
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let Ok(pool) = store.get(&pools, &namespace, &name) else {
        return object;
    };
    let uid = pool
        .pointer("/metadata/uid")
        .cloned()
        .unwrap_or(Value::Null);
    match object
        .pointer_mut("/metadata/ownerReferences")
        .and_then(Value::as_array_mut)
    {
        // A recording carries the recorded pool's uid; point it at this pool.
        Some(references) => {
            for reference in references.iter_mut() {
                if reference.get("kind").and_then(Value::as_str) == Some("ComputePool")
                    && reference.get("name").and_then(Value::as_str) == Some(name.as_str())
                {
                    reference["uid"] = uid.clone();
                }
            }
        }
        None => {
            object["metadata"]["ownerReferences"] = json!([{
                "apiVersion": "spectrocloud.com/v1alpha1", "kind": "ComputePool", "name": name,
                "uid": uid, "controller": true, "blockOwnerDeletion": true
            }]);
        }
    }
    object
}

/// Replaces relative timestamps (`now`, `now-3d`, `now+30s`) in every string of a value.
pub fn resolve_times(value: &Value) -> Value {
    resolve_times_at(value, Utc::now())
}

/// [`resolve_times`] against a given moment (for stable tests and snapshots).
pub fn resolve_times_at(value: &Value, now: chrono::DateTime<Utc>) -> Value {
    match value {
        Value::String(s) if s == "now" || s.starts_with("now-") || s.starts_with("now+") => {
            let offset = s
                .get(4..)
                .and_then(|d| parse_offset(d).ok())
                .map(|d| chrono::Duration::from_std(d).unwrap_or_default());
            let at = match (s.as_bytes().get(3), offset) {
                (Some(b'-'), Some(d)) => now - d,
                (Some(b'+'), Some(d)) => now + d,
                _ => now,
            };
            Value::String(at.to_rfc3339_opts(SecondsFormat::Secs, true))
        }
        Value::Array(items) => {
            Value::Array(items.iter().map(|v| resolve_times_at(v, now)).collect())
        }
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), resolve_times_at(v, now)))
                .collect(),
        ),
        other => other.clone(),
    }
}
