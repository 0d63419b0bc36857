//! A view that exists only in tests, to hold the registry to its promise: a list view is this
//! one file and its name in `views!`. It lists the Tenants' caps for their Projects
//! (`:tenantcaps`), made whole.

use crate::app::view::{Rows, ViewSpec};
use crate::inventory::{Inventory, Kind};

use super::cell::Cell;
use super::column::{self, Column};
use super::row::{Row, Source, Table, id_of};

/// A Tenant's own column: declared beside the view that shows it.
const PROJECTS: Column = Column::new("PROJECT LIMITS", 3);

fn tenants(inventory: &Inventory, name: Option<&str>, _wide: bool) -> Table {
    let rows = inventory
        .objects(Kind::Tenant)
        .filter(|o| name.is_none_or(|n| o.name() == n))
        .map(|tenant| {
            let limits = tenant
                .value()
                .pointer("/spec/gpuResources/projectLimits")
                .and_then(serde_json::Value::as_object)
                .map_or(0, serde_json::Map::len);
            Row::new(
                id_of(tenant),
                None,
                vec![
                    Cell::text(tenant.name()),
                    Cell::text(limits.to_string()),
                    Cell::Since(tenant.created()),
                ],
                Source::Object(tenant.clone()),
            )
        })
        .collect();
    Table {
        columns: vec![column::NAME, PROJECTS, column::AGE],
        rows,
    }
}

pub static VIEW: ViewSpec = ViewSpec {
    title: "Tenant caps",
    aliases: &["tenantcaps", "tenantcap"],
    source: Kind::Tenant,
    rows: Rows::Whole(tenants),
    opens: None,
    pools: false,
    logs: false,
    warnings: None,
    all_clear: None,
};
