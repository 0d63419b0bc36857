//! The Tenants list (cluster-wide): each Tenant's GPU limits and usage, the quota section's
//! aggregate caps.

use super::cell::Cell;
use super::column;
use super::projects::variant_map;
use super::row::{Row, Source, Table, id_of};
use crate::app::view::{Rows, ViewSpec};
use crate::inventory::{Inventory, Kind};

pub fn tenants(inventory: &Inventory, name: Option<&str>, _wide: bool) -> Table {
    let rows = inventory
        .objects(Kind::Tenant)
        .filter(|o| name.is_none_or(|n| o.name() == n))
        .filter_map(|tenant| {
            let raw = tenant.raw()?;
            let cells = vec![
                Cell::text(tenant.name()),
                variant_map(raw.pointer("/spec/gpuResources/limits")),
                variant_map(raw.pointer("/status/gpuUsage")),
                Cell::Since(tenant.created()),
            ];
            Some(Row::new(
                id_of(tenant),
                None,
                cells,
                Source::Object(tenant.clone()),
            ))
        })
        .collect();
    Table {
        columns: vec![
            column::NAME,
            column::GPU_LIMITS,
            column::GPU_USAGE,
            column::AGE,
        ],
        rows,
    }
}

pub static VIEW: ViewSpec = ViewSpec {
    title: "Tenants",
    aliases: super::names::TENANTS,
    source: Kind::Tenant,
    rows: Rows::Whole(tenants),
    opens: None,
    pools: false,
    logs: false,
    warnings: None,
    all_clear: None,
};
