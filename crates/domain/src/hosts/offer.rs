//! What the Computes of a namespace offer: their lists of alike machines, read as Compute
//! writes them, with how many of each are available.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::json::At;
use crate::quantity::Memory;

/// One entry of a Compute's lists: alike machines and how many of them are available.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Machines {
    pub architecture: Option<String>,
    pub cpu: Option<i64>,
    pub memory: Option<Memory>,
    /// The GPU variant's name (`<model> | <memory>`) and GPUs per machine.
    pub gpu: Option<(String, i64)>,
    pub available: i64,
    pub groups: BTreeMap<String, String>,
}

/// What the Computes of a namespace offer, by role.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Offer {
    /// How many Compute objects were read; none means nothing can be said.
    pub computes: usize,
    pub control_plane: Vec<Machines>,
    pub workers: Vec<Machines>,
}

impl Machines {
    /// One entry as Compute writes it; what cannot be read is left unknown (and then meets no
    /// requirement that asks about it).
    pub fn read(entry: &Value) -> Machines {
        let available = match entry.get("machines").and_then(Value::as_object) {
            Some(machines) => machines
                .values()
                .filter(|state| state.as_str() == Some("available"))
                .count() as i64,
            None => count(entry.get("instances")).unwrap_or(0),
        };
        let gpu = entry.get("gpuVariant").and_then(|g| {
            let name = g.get("name").and_then(Value::as_str)?;
            Some((name.to_owned(), count(g.get("gpuCount")).unwrap_or(0)))
        });
        Machines {
            architecture: entry
                .get("architecture")
                .and_then(Value::as_str)
                .map(str::to_owned),
            cpu: count(entry.get("cpuCount")),
            memory: entry
                .get("memory")
                .and_then(Value::as_str)
                .and_then(|m| Memory::parse(m).ok()),
            gpu,
            available,
            groups: groups(entry.get("resourceGroups")),
        }
    }
}

impl Offer {
    /// The hosts the Compute objects of one namespace list.
    pub fn of<'a>(computes: impl IntoIterator<Item = &'a Value>) -> Offer {
        let mut offer = Offer::default();
        for compute in computes {
            offer.computes = offer.computes.saturating_add(1);
            let list = |key: &str| -> Vec<Machines> {
                compute
                    .at(&format!("/status/{key}"))
                    .and_then(Value::as_array)
                    .map(|entries| entries.iter().map(Machines::read).collect())
                    .unwrap_or_default()
            };
            offer.control_plane.extend(list("controlPlaneCompute"));
            offer.workers.extend(list("workerCompute"));
        }
        offer
    }
}

pub(super) fn text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

pub(super) fn count(value: Option<&Value>) -> Option<i64> {
    let value = value?;
    value
        .as_i64()
        .or_else(|| value.as_str().and_then(|s| s.trim().parse().ok()))
}

pub(super) fn groups(value: Option<&Value>) -> BTreeMap<String, String> {
    value
        .and_then(Value::as_object)
        .map(|map| {
            map.iter()
                .filter_map(|(k, v)| {
                    let key = k
                        .strip_prefix(crate::model::pool::RESOURCE_GROUP_PREFIX)
                        .unwrap_or(k);
                    Some((key.to_owned(), text(v)?))
                })
                .collect()
        })
        .unwrap_or_default()
}
