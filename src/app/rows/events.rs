//! The events and projects lists, read from the raw objects.

use serde_json::Value;

use crate::inventory::{Inventory, Kind, Object};

use super::pools::short;
use super::{Cell, Row, Source, Status, Table, id_of};

pub fn events(inventory: &Inventory, name: Option<&str>, wide: bool) -> Table {
    let mut objects: Vec<&std::sync::Arc<Object>> = inventory
        .objects(Kind::Event)
        .filter(|e| {
            name.is_none_or(|n| {
                e.name() == n
                    || e.raw()
                        .and_then(|r| r.pointer("/involvedObject/name"))
                        .and_then(Value::as_str)
                        == Some(n)
            })
        })
        .collect();
    objects.sort_by_key(|e| e.happened());
    let rows = objects
        .into_iter()
        .flat_map(|event| event_rows(inventory, event, wide))
        .collect();
    Table {
        headers: event_headers(wide),
        rows,
    }
}

pub fn event_headers(wide: bool) -> Vec<&'static str> {
    let mut headers = vec![
        "NAMESPACE",
        "LAST SEEN",
        "TYPE",
        "REASON",
        "OBJECT",
        "MESSAGE",
    ];
    if wide {
        headers.extend(["SOURCE", "COUNT"]);
    }
    headers
}

/// The row of one event.
pub fn event_rows(_inventory: &Inventory, event: &std::sync::Arc<Object>, wide: bool) -> Vec<Row> {
    let raw = event.value();
    let text = |p: &str| raw.pointer(p).and_then(Value::as_str).unwrap_or("");
    let kind = text("/type");
    let mut cells = vec![
        Cell::text(event.namespace()),
        Cell::Since(event.happened()),
        if kind.is_empty() {
            Cell::Empty
        } else {
            Cell::Status(Status::Event {
                warning: kind == "Warning",
                word: kind.into(),
            })
        },
        Cell::text(text("/reason")),
        Cell::Text(
            format!(
                "{}/{}",
                text("/involvedObject/kind").to_lowercase(),
                text("/involvedObject/name")
            )
            .into(),
        ),
        Cell::text(text("/message")),
    ];
    if wide {
        cells.push(Cell::text(text("/source/component")));
        cells.push(Cell::Count(
            raw.get("count").and_then(Value::as_i64).unwrap_or(1),
        ));
    }
    vec![Row::new(
        id_of(event),
        None,
        cells,
        Source::Object(event.clone()),
    )]
}

fn variant_map(value: Option<&Value>) -> Cell {
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
        "NAMESPACE",
        "NAME",
        "GPU LIMITS",
        "GPU USAGE",
        "TENANT CAP",
        "AGE",
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
    Table { headers, rows }
}
