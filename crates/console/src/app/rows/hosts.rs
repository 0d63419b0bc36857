//! The hosts list: every edge host of every pool, flattened from the pools' status.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::domain::ObjectRef;
use crate::domain::model::vocabulary::HostStatus;
use crate::inventory::{HostRow, Inventory, Kind, Object};

use super::cell::{Cell, Status};
use super::column::{self, Column};
use super::pools::short;
use super::row::{Row, Source, Table};
use crate::app::view::{Rows, Tab, ViewSpec};

pub fn hosts_table(inventory: &Inventory, name: Option<&str>, wide: bool) -> Table {
    let rows = inventory
        .objects(Kind::Pool)
        .flat_map(|pool| {
            Inventory::hosts_of(pool)
                .into_iter()
                .enumerate()
                .filter(|(_, h)| name.is_none_or(|n| h.uid == n || h.pool == n))
                .map(|(index, host)| host_row(pool, index, host, wide))
        })
        .collect();
    Table {
        columns: host_headers(wide),
        rows,
    }
}

pub fn host_headers(wide: bool) -> Vec<Column> {
    let mut headers = vec![
        column::NAMESPACE,
        column::POOL,
        column::MACHINE_POOL,
        column::HOST,
        column::STATUS,
        column::SINCE,
        column::CPU,
        column::MEMORY,
        column::GPUS,
    ];
    if wide {
        headers.extend([column::CLUSTER, column::NODE_TYPE, column::ARCH]);
    }
    headers
}

/// The rows of one pool's hosts.
pub fn pool_host_rows(_inventory: &Inventory, pool: &Arc<Object>, wide: bool) -> Vec<Row> {
    Inventory::hosts_of(pool)
        .into_iter()
        .enumerate()
        .map(|(index, host)| host_row(pool, index, host, wide))
        .collect()
}

/// The row of a pool's `index`th host; what it prints is read from the pool when asked.
fn host_row(pool: &Arc<Object>, index: usize, host: HostRow, wide: bool) -> Row {
    let gpus: Vec<String> = host
        .gpus
        .iter()
        .map(|(v, n)| format!("{n}x {}", short(v)))
        .collect();
    let mut cells = vec![
        Cell::text(host.namespace.clone()),
        Cell::text(host.pool.clone()),
        Cell::text(host.machine_pool.clone()),
        Cell::text(host.uid.clone()),
        if host.status.is_empty() {
            Cell::Empty
        } else {
            Cell::Status(Status::Host(HostStatus::parse(&host.status)))
        },
        Cell::Since(host.status_updated_at),
        Cell::Count(host.cpu_count),
        Cell::Gigabytes(host.memory_gb),
        Cell::text(gpus.join(", ")),
    ];
    if wide {
        cells.extend([
            Cell::text(host.cluster.clone()),
            Cell::text(host.node_type.clone()),
            Cell::text(host.architecture.clone()),
        ]);
    }
    Row::new(
        ObjectRef::new(Kind::Pool, host.namespace.clone(), host.pool.clone()),
        Some(format!("{}/{}", host.machine_pool, host.uid)),
        cells,
        Source::Host {
            pool: pool.clone(),
            index,
        },
    )
}

/// What `-o json|yaml` prints for a host: written out when asked, not held per row.
pub(super) fn host_value(pool: &Object, index: usize) -> Value {
    let Some(host) = Inventory::hosts_of(pool).into_iter().nth(index) else {
        return Value::Null;
    };
    json!({
        "namespace": host.namespace, "pool": host.pool, "cluster": host.cluster,
        "machinePool": host.machine_pool, "nodeType": host.node_type, "host": host.uid,
        "status": host.status, "statusUpdatedAt": host.status_updated_at.map(|t| t.to_rfc3339()),
        "architecture": host.architecture, "cpuCount": host.cpu_count, "memoryGB": host.memory_gb,
        "gpuCountByVariant": host.gpus.iter().map(|(v, n)| (v.clone(), json!(n))).collect::<serde_json::Map<_, _>>(),
    })
}

/// The hosts list: every edge host of every pool, made per pool; Enter opens the pool on its
/// Hosts tab.
pub static VIEW: ViewSpec = ViewSpec {
    title: "Hosts",
    aliases: super::names::HOSTS,
    source: Kind::Pool,
    rows: Rows::PerObject {
        owner: Kind::Pool,
        touched_by: &[Kind::Pool],
        columns: host_headers,
        rows: pool_host_rows,
        table: hosts_table,
    },
    opens: Some(Tab::Hosts),
    pools: false,
    logs: false,
    warnings: None,
    all_clear: None,
};
