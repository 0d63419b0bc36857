//! What the lists of the objects a pool refers to share: a condition's status as a coloured
//! word, and the pools that name an object.

use std::collections::HashMap;

use serde_json::Value;

use super::cell::Cell;
use super::status::Status;
pub use crate::domain::diagnosis::condition;
use crate::domain::model::ComputePool;
use crate::domain::model::vocabulary::HostStatus;
use crate::inventory::{Inventory, Kind, Object};

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
        Some(Value::Null) | None => Cell::Empty,
        Some(value) => Cell::text(crate::domain::jsonpath::shown(value)),
    }
}

/// Where a pool refers to an object of some kind: its namespace when written, and its name.
pub type Reference = fn(&ComputePool) -> Option<(Option<&str>, &str)>;

/// The pools that refer to each object, by its namespace and name (a reference without a
/// namespace is to the pool's own): read once per table, not once per row.
pub fn users(inventory: &Inventory, refers: Reference) -> HashMap<(String, String), Vec<String>> {
    let mut users: HashMap<(String, String), Vec<String>> = HashMap::new();
    for object in inventory.objects(Kind::Pool) {
        if let Some((namespace, name)) = object.pool().and_then(refers) {
            let namespace = namespace.unwrap_or(object.namespace());
            users
                .entry((namespace.to_owned(), name.to_owned()))
                .or_default()
                .push(object.name().to_owned());
        }
    }
    for names in users.values_mut() {
        names.sort();
    }
    users
}

/// The pools [`users`] found for `object`, as a cell (`-`: none).
pub fn users_cell(users: &HashMap<(String, String), Vec<String>>, object: &Object) -> Cell {
    let key = (object.namespace().to_owned(), object.name().to_owned());
    users
        .get(&key)
        .map_or(Cell::Empty, |names| Cell::text(names.join(", ")))
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
