//! The events list, read from the events as the inventory holds them.

use crate::domain::model::Event;
use crate::inventory::{Inventory, Kind, Object};

use super::cell::{Cell, Status};
use super::column::{self, Column};
use super::row::{Row, Source, Table, id_of};
use crate::app::view::{Rows, ViewSpec};

pub fn events(inventory: &Inventory, name: Option<&str>, wide: bool) -> Table {
    let mut objects: Vec<&std::sync::Arc<Object>> = inventory
        .objects(Kind::Event)
        .filter(|e| {
            name.is_none_or(|n| {
                e.name() == n || e.event().and_then(|e| e.involved("name")) == Some(n)
            })
        })
        .collect();
    objects.sort_by_cached_key(|e| e.happened());
    let rows = objects
        .into_iter()
        .flat_map(|event| event_rows(inventory, event, wide))
        .collect();
    Table {
        columns: event_headers(wide),
        rows,
    }
}

pub fn event_headers(wide: bool) -> Vec<Column> {
    let mut headers = vec![
        column::NAMESPACE,
        column::LAST_SEEN,
        column::EVENT_TYPE,
        column::REASON,
        column::OBJECT,
        column::MESSAGE,
    ];
    if wide {
        headers.extend([column::SOURCE, column::COUNT]);
    }
    headers
}

/// The row of one event.
pub fn event_rows(_inventory: &Inventory, event: &std::sync::Arc<Object>, wide: bool) -> Vec<Row> {
    // An event that is not a mapping still has its row (its cells empty).
    let e = event.event();
    let field = |read: fn(&Event) -> Option<&str>| e.and_then(read).unwrap_or("");
    let involved = |f: &str| e.and_then(|e| e.involved(f)).unwrap_or("");
    let kind = field(Event::event_type);
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
        Cell::text(field(Event::reason)),
        Cell::Text(format!("{}/{}", involved("kind").to_lowercase(), involved("name")).into()),
        Cell::text(field(Event::message)),
    ];
    if wide {
        cells.push(Cell::text(
            e.and_then(|e| e.source("component")).unwrap_or(""),
        ));
        cells.push(Cell::Count(e.and_then(Event::count).unwrap_or(1)));
    }
    vec![Row::new(
        id_of(event),
        None,
        cells,
        Source::Object(event.clone()),
    )]
}

/// The events list, oldest first; `w` keeps the warnings.
pub static VIEW: ViewSpec = ViewSpec {
    title: "Events",
    aliases: super::names::EVENTS,
    source: Kind::Event,
    rows: Rows::PerObject {
        owner: Kind::Event,
        touched_by: &[Kind::Event],
        columns: event_headers,
        rows: event_rows,
        table: events,
    },
    opens: None,
    pools: false,
    logs: false,
    warnings: Some(column::EVENT_TYPE),
    all_clear: None,
};
