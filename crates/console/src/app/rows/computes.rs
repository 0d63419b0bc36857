//! The Compute resources: for each role (control plane, workers) the machines available by
//! kind of machine and GPU variant, as the provisioning section reads them ("if
//! controlPlaneCompute or workerCompute is empty, no hosts are available").

use serde_json::Value;

use super::cell::Cell;
use super::column::{self, Column};
use super::pools::short;
use super::row::{Row, Source, Table, id_of};
use crate::app::view::{Rows, ViewSpec};
use crate::inventory::{Inventory, Kind};

const CONTROL_PLANE: Column = Column::new("CONTROL PLANE", 2);
const WORKERS: Column = Column::new("WORKERS", 1);

/// One kind of machine of a role: what it is and how many of its machines are available.
pub fn machine_kind(entry: &Value) -> String {
    let machines = entry.get("machines").and_then(Value::as_object);
    let available = machines.map_or(0, |m| {
        m.values()
            .filter(|state| state.as_str() == Some("available"))
            .count()
    });
    let total = machines.map_or(0, serde_json::Map::len);
    let text = |value: Option<&Value>| {
        value.map_or_else(
            || "?".to_owned(),
            |n| n.as_str().map_or_else(|| n.to_string(), str::to_owned),
        )
    };
    let cpus = text(entry.get("cpuCount"));
    let what = match entry.pointer("/gpuVariant/name").and_then(Value::as_str) {
        Some(variant) => {
            let count = text(entry.pointer("/gpuVariant/gpuCount"));
            format!("{} ×{count} {cpus} CPU", short(variant))
        }
        None => format!("{} {cpus} CPU", text(entry.get("architecture"))),
    };
    format!("{what} {available}/{total} free")
}

/// A role's kinds of machine, or that none is available.
fn role(compute: &Value, key: &str) -> Cell {
    let entries = compute
        .pointer(&format!("/status/{key}"))
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    if entries.is_empty() {
        return Cell::text("none available");
    }
    let kinds: Vec<String> = entries.iter().map(machine_kind).collect();
    Cell::text(kinds.join(", "))
}

pub fn computes(inventory: &Inventory, name: Option<&str>, _wide: bool) -> Table {
    let rows = inventory
        .objects(Kind::Compute)
        .filter(|o| name.is_none_or(|n| o.name() == n))
        .filter_map(|compute| {
            let raw = compute.raw()?;
            let cells = vec![
                Cell::text(compute.namespace()),
                Cell::text(compute.name()),
                role(raw, "controlPlaneCompute"),
                role(raw, "workerCompute"),
                Cell::Since(compute.created()),
            ];
            Some(Row::new(
                id_of(compute),
                None,
                cells,
                Source::Object(compute.clone()),
            ))
        })
        .collect();
    Table {
        columns: vec![
            column::NAMESPACE,
            column::NAME,
            CONTROL_PLANE,
            WORKERS,
            column::AGE,
        ],
        rows,
    }
}

pub static VIEW: ViewSpec = ViewSpec {
    title: "Computes",
    aliases: super::names::COMPUTES,
    source: Kind::Compute,
    rows: Rows::Whole(computes),
    opens: None,
    pools: false,
    logs: false,
    warnings: None,
    all_clear: None,
};
