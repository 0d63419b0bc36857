//! Admission for ComputePools, as the product's validating webhook would: a create, or an
//! update that changes the spec, runs the same error rules as `pooldeck validate` (against the
//! pool as stored, for the update rules such as the immutable VIP, and against the other pools,
//! for the VIP uniqueness rule) and is refused with 422 Invalid naming each field and its
//! message. Updates that leave the spec alone (labels, finalizers, status) are not checked, so
//! a pause or an unblock works on a pool that breaks a rule; a change of the Longhorn replica
//! count, which is written in the metadata and immutable, is. The scenario player writes
//! around it, as controllers do.

use serde_json::{Value, json};

use crate::registry::Resource;
use crate::store::{ApiError, Store};
use pooldeck_domain::model::{ComputePool, read_owned};
use pooldeck_domain::rules::{self, Context, Fleet, Severity};

fn model(value: &Value) -> Option<(ComputePool, Vec<pooldeck_domain::field::Issue>)> {
    read_owned::<ComputePool>(value.clone()).ok()
}

/// Refuses `next` (the pool as it would be stored) when an error rule fires.
pub fn admit(
    store: &Store,
    resource: &Resource,
    current: Option<&Value>,
    next: &Value,
) -> Result<(), ApiError> {
    if resource.kind != "ComputePool" {
        return Ok(());
    }
    let unchanged = |key: &str| current.is_some_and(|c| c.get(key) == next.get(key));
    if unchanged("spec") && unchanged("metadata") {
        return Ok(());
    }
    let Some((pool, issues)) = model(next) else {
        return Ok(());
    };
    let old = current.and_then(model).map(|(pool, _)| pool);
    // The Longhorn replica count lives in the metadata (an annotation or a label) and is
    // immutable: a change of it is checked like a change of the spec.
    let same_replicas = old
        .as_ref()
        .is_some_and(|old| old.longhorn_replicas() == pool.longhorn_replicas());
    if unchanged("spec") && same_replicas {
        return Ok(());
    }
    let others: Vec<ComputePool> = store
        .objects(resource)
        .iter()
        .filter_map(|o| model(o).map(|(p, _)| p))
        .filter(|p| !rules::same_object(p, &pool))
        .collect();
    let fleet = Fleet::new(others);
    let context = Context {
        old: old.as_ref(),
        fleet: &fleet,
        self_index: None,
    };
    let errors: Vec<rules::Finding> = rules::validate(&pool, &issues, &context)
        .into_iter()
        .filter(|f| f.rule.severity == Severity::Error)
        .collect();
    if errors.is_empty() {
        return Ok(());
    }
    let name = next
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    let listed: Vec<String> = errors
        .iter()
        .map(|f| format!("{}: {}", f.path, f.message))
        .collect();
    let mut error = ApiError::new(
        422,
        "Invalid",
        format!(
            "{} \"{name}\" is invalid: {}",
            resource.qualified(),
            listed.join(", ")
        ),
    );
    error.details = Some(json!({
        "name": name,
        "group": resource.group,
        "kind": resource.kind,
        "causes": errors.iter().map(|f| json!({
            "reason": "FieldValueInvalid",
            "field": f.path.to_string(),
            "message": format!("{} [{}]", f.message, f.rule.id),
        })).collect::<Vec<_>>(),
    }));
    Err(error)
}
