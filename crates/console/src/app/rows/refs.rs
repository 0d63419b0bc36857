//! What the lists of the objects a pool refers to share: a condition's status as a coloured
//! word, and the pools that name an object.

use std::sync::Arc;

use serde_json::Value;

use super::cell::Cell;
use super::status::Status;
use crate::domain::model::ComputePool;
use crate::domain::model::vocabulary::HostStatus;
use crate::inventory::{Inventory, Kind, Object};

/// The condition of this type in an object's status.
pub fn condition<'v>(object: &'v Value, kind: &str) -> Option<&'v Value> {
    object
        .pointer("/status/conditions")?
        .as_array()?
        .iter()
        .find(|c| c.get("type").and_then(Value::as_str) == Some(kind))
}

/// A condition's status as the guide reads it (`True` good, `False` bad), blank without one.
pub fn condition_cell(object: &Value, kind: &str) -> Cell {
    let Some(word) = condition(object, kind)
        .and_then(|c| c.get("status"))
        .and_then(Value::as_str)
    else {
        return Cell::Empty;
    };
    let status = match word {
        "True" => HostStatus::Healthy,
        "False" => HostStatus::Unhealthy,
        _ => HostStatus::Unknown,
    };
    Cell::Status(Status::Health {
        status,
        word: word.into(),
    })
}

/// A text at `path` in an object, blank without one.
pub fn text_at(object: &Value, path: &str) -> Cell {
    match object.pointer(path) {
        Some(Value::String(text)) => Cell::text(text.as_str()),
        Some(Value::Null) | None => Cell::Empty,
        Some(other) => Cell::text(other.to_string()),
    }
}

/// Where a pool refers to an object of some kind: its namespace when written, and its name.
pub type Reference = fn(&ComputePool) -> Option<(Option<&str>, &str)>;

/// The pools whose reference (`refers`: a name and, when written, a namespace) names the
/// object `namespace/name`; a reference without a namespace is to the pool's own.
pub fn pools_naming<'i>(
    inventory: &'i Inventory,
    namespace: &str,
    name: &str,
    refers: Reference,
) -> Vec<&'i Arc<Object>> {
    inventory
        .objects(Kind::Pool)
        .filter(|object| {
            object
                .pool()
                .and_then(refers)
                .is_some_and(|(ns, n)| n == name && ns.unwrap_or(object.namespace()) == namespace)
        })
        .collect()
}

/// A pool's ScalingPolicy reference.
pub fn policy_of(pool: &ComputePool) -> Option<(Option<&str>, &str)> {
    let reference = pool.scaling_policy_ref()?;
    Some((reference.namespace.as_deref(), reference.name.as_deref()?))
}

/// A pool's ProfileBundle reference.
pub fn bundle_of(pool: &ComputePool) -> Option<(Option<&str>, &str)> {
    let reference = pool.spec()?.profile_bundle_ref.get()?;
    Some((reference.namespace.as_deref(), reference.name.as_deref()?))
}

/// The names of the pools, as a cell (`-`: none).
pub fn names_cell(pools: &[&Arc<Object>]) -> Cell {
    Cell::text(
        pools
            .iter()
            .map(|p| p.name())
            .collect::<Vec<_>>()
            .join(", "),
    )
}
