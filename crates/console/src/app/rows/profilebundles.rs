//! The ProfileBundles list: whether each is Ready (the provisioning section's check), why not,
//! and the pools that use it.

use serde_json::Value;

use super::cell::Cell;
use super::column::{self, Column};
use super::refs::{bundle_of, condition, condition_cell, text_at, users, users_cell};
use super::row::{Row, Source, Table, id_of};
use crate::app::view::{Rows, ViewSpec};
use crate::inventory::{Inventory, Kind};

const READY: Column = Column::new("READY", 1);
const TYPE: Column = Column::new("TYPE", 4);
const USED_BY: Column = Column::new("POOLS", 3);
/// The condition's message: long, it gives way first.
const MESSAGE: Column = Column::new("MESSAGE", 5);

pub fn profile_bundles(inventory: &Inventory, name: Option<&str>, _wide: bool) -> Table {
    let users = users(inventory, bundle_of);
    let rows = inventory
        .objects(Kind::ProfileBundle)
        .filter(|o| name.is_none_or(|n| o.name() == n))
        .filter_map(|bundle| {
            let raw = bundle.raw()?;
            let ready = condition(raw, "Ready");
            let said = |key: &str| {
                ready
                    .and_then(|c| c.get(key))
                    .and_then(Value::as_str)
                    .map_or(Cell::Empty, Cell::text)
            };
            let cells = vec![
                Cell::text(bundle.namespace()),
                Cell::text(bundle.name()),
                condition_cell(raw, "Ready"),
                said("reason"),
                text_at(raw, "/spec/type"),
                users_cell(&users, bundle),
                Cell::Since(bundle.created()),
                said("message"),
            ];
            Some(Row::new(
                id_of(bundle),
                None,
                cells,
                Source::Object(bundle.clone()),
            ))
        })
        .collect();
    Table {
        columns: vec![
            column::NAMESPACE,
            column::NAME,
            READY,
            column::REASON,
            TYPE,
            USED_BY,
            column::AGE,
            MESSAGE,
        ],
        rows,
    }
}

/// Made whole: a pool's change can change which pools use a bundle.
pub static VIEW: ViewSpec = ViewSpec {
    title: "ProfileBundles",
    aliases: super::names::PROFILE_BUNDLES,
    source: Kind::ProfileBundle,
    rows: Rows::Whole(profile_bundles),
    opens: None,
    pools: false,
    logs: false,
    warnings: None,
    all_clear: None,
};
