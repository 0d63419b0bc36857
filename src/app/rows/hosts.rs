//! The hosts list: every edge host of every pool, flattened from the pools' status.

use serde_json::json;

use crate::domain::ObjectRef;
use crate::domain::model::vocabulary::HostStatus;
use crate::inventory::{Inventory, Kind};

use super::pools::short;
use super::{Cell, Row, Source, Status, Table};

pub fn hosts_table(inventory: &Inventory, name: Option<&str>, wide: bool) -> Table {
    let mut headers = vec![
        "NAMESPACE",
        "POOL",
        "MACHINE POOL",
        "HOST",
        "STATUS",
        "SINCE",
        "CPU",
        "MEMORY",
        "GPUS",
    ];
    if wide {
        headers.extend(["CLUSTER", "NODE TYPE", "ARCH"]);
    }
    let mut rows = Vec::new();
    for host in inventory
        .hosts()
        .filter(|h| name.is_none_or(|n| h.uid == n || h.pool == n))
    {
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
        let object = json!({
            "namespace": host.namespace, "pool": host.pool, "cluster": host.cluster,
            "machinePool": host.machine_pool, "nodeType": host.node_type, "host": host.uid,
            "status": host.status, "statusUpdatedAt": host.status_updated_at.map(|t| t.to_rfc3339()),
            "architecture": host.architecture, "cpuCount": host.cpu_count, "memoryGB": host.memory_gb,
            "gpuCountByVariant": host.gpus.iter().map(|(v, n)| (v.clone(), json!(n))).collect::<serde_json::Map<_, _>>(),
        });
        rows.push(Row::new(
            ObjectRef::new(Kind::Pool, host.namespace.clone(), host.pool.clone()),
            Some(format!("{}/{}", host.machine_pool, host.uid)),
            cells,
            Source::Value(object),
        ));
    }
    Table { headers, rows }
}
