//! The AIWorkloads list: the pool each runs on and its state (the deletion section starts
//! here: a pool is not deleted while AIWorkloads run on it).

use super::cell::Cell;
use super::column::{self, Column};
use super::refs::text_at;
use super::row::{Row, Source, Table, id_of};
use crate::app::view::{Rows, ViewSpec};
use crate::inventory::{Inventory, Kind, Object};

const POOL_FOUND: Column = Column::new("POOL FOUND", 3);

pub fn aiworkloads(inventory: &Inventory, name: Option<&str>, _wide: bool) -> Table {
    table_of(inventory, |workload| {
        name.is_none_or(|n| workload.name() == n)
    })
}

/// The AIWorkloads that name the pool `namespace/name` (its describe page lists them).
pub fn workloads_of_pool(inventory: &Inventory, namespace: &str, name: &str) -> Table {
    table_of(inventory, |workload| {
        pool_named(workload) == Some((namespace, name))
    })
}

/// The pool an AIWorkload names: its namespace (the workload's own unless written) and name.
pub fn pool_named(workload: &Object) -> Option<(&str, &str)> {
    crate::domain::fixes::claimed(workload.raw()?)
}

fn table_of(inventory: &Inventory, keep: impl Fn(&Object) -> bool) -> Table {
    let rows = inventory
        .objects(Kind::AIWorkload)
        .filter(|o| keep(o))
        .filter_map(|workload| {
            let raw = workload.raw()?;
            let named = pool_named(workload);
            let pool = named.map(|(_, name)| name);
            let found = named.map(|(ns, name)| inventory.get(Kind::Pool, ns, name).is_some());
            // The state as the object says it; a deletion under way says so first.
            let state = if raw.pointer("/metadata/deletionTimestamp").is_some() {
                Cell::text("Deleting")
            } else {
                match text_at(raw, "/status/state") {
                    Cell::Empty => text_at(raw, "/status/phase"),
                    state => state,
                }
            };
            let cells = vec![
                Cell::text(workload.namespace()),
                Cell::text(workload.name()),
                pool.map_or(Cell::Empty, Cell::text),
                found.map_or(Cell::Empty, Cell::Flag),
                state,
                Cell::Since(workload.created()),
            ];
            Some(Row::new(
                id_of(workload),
                None,
                cells,
                Source::Object(workload.clone()),
            ))
        })
        .collect();
    Table {
        columns: vec![
            column::NAMESPACE,
            column::NAME,
            column::POOL,
            POOL_FOUND,
            column::STATE,
            column::AGE,
        ],
        rows,
    }
}

/// Made whole: a pool's coming and going changes whether it is found.
pub static VIEW: ViewSpec = ViewSpec {
    title: "AIWorkloads",
    aliases: super::names::AIWORKLOADS,
    source: Kind::AIWorkload,
    rows: Rows::Whole(aiworkloads),
    opens: None,
    pools: false,
    logs: false,
    warnings: None,
    all_clear: None,
};
