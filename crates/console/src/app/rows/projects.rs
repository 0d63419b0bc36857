//! The projects list: each Project's GPU limits and usage, and its Tenant's cap for it.

use serde_json::Value;

use crate::inventory::{Inventory, Kind};

use super::cell::Cell;
use super::column;
use super::pools::short;
use super::row::{Row, Source, Table, id_of};
use crate::app::view::{Rows, ViewSpec};

pub(super) fn variant_map(value: Option<&Value>) -> Cell {
    let Some(map) = value.and_then(Value::as_object) else {
        return Cell::Empty;
    };
    let cells: Vec<String> = map
        .iter()
        .map(|(v, n)| match n {
            Value::String(text) => format!("{} {text}", short(v)),
            other => format!("{} {other}", short(v)),
        })
        .collect();
    Cell::text(cells.join(", "))
}

pub fn projects(inventory: &Inventory, name: Option<&str>, _wide: bool) -> Table {
    let headers = vec![
        column::NAMESPACE,
        column::NAME,
        column::GPU_LIMITS,
        column::GPU_USAGE,
        column::TENANT_CAP,
        column::AGE,
    ];
    let mut rows = Vec::new();
    for project in inventory
        .objects(Kind::Project)
        .filter(|o| name.is_none_or(|n| o.name() == n))
    {
        let raw = project.value();
        let tenant_cap = raw
            .pointer("/spec/tenantRef/name")
            .and_then(Value::as_str)
            .and_then(|tenant| inventory.get(Kind::Tenant, "", tenant))
            .and_then(|t| {
                t.value()
                    .pointer("/spec/gpuResources/projectLimits")
                    .and_then(|limits| limits.get(project.name()))
                    .cloned()
            });
        let cells = vec![
            Cell::text(project.namespace()),
            Cell::text(project.name()),
            variant_map(raw.pointer("/spec/gpuResources/limits")),
            variant_map(raw.pointer("/status/gpuUsage")),
            variant_map(tenant_cap.as_ref()),
            Cell::Since(project.created()),
        ];
        rows.push(Row::new(
            id_of(project),
            None,
            cells,
            Source::Object(project.clone()),
        ));
    }
    Table {
        columns: headers,
        rows,
    }
}

/// The projects list, made whole (a Tenant's change reaches every Project's cap).
pub static VIEW: ViewSpec = ViewSpec {
    title: "Projects",
    aliases: super::names::PROJECTS,
    source: Kind::Project,
    rows: Rows::Whole(projects),
    opens: None,
    pools: false,
    logs: false,
    warnings: None,
    all_clear: None,
};
