//! The pools list: what an operator asks first about each Compute Pool.

use crate::domain::model::ComputePool;
use crate::domain::model::evaluation::ComputePoolEvaluation;
use crate::domain::model::vocabulary::{HostStatus, PoolPhase};
use crate::domain::quantity::GpuVariant;
use crate::inventory::{Inventory, Kind, Object, Series};

use super::cell::{Cell, GpuUse, Status};
use super::cell::{SPARK_SAMPLES, scaling_rank};
use super::column::{self, Column};
use super::row::{Row, Source, Table, id_of};
use crate::app::view::{Rows, Tab, ViewSpec};

pub(super) fn short(variant: &str) -> String {
    GpuVariant::parse(variant).short_name().to_owned()
}

/// GPUs allocated/capacity per variant, in the order of the capacity list.
fn gpus(pool: &ComputePool) -> Cell {
    let Some(status) = pool.status.get() else {
        return Cell::Empty;
    };
    let count = |list: &crate::domain::field::Field<
        Vec<crate::domain::field::Field<crate::domain::model::status::Hardware>>,
    >| {
        let mut by_variant: Vec<(String, i64)> = Vec::new();
        for hardware in list.get().into_iter().flatten().filter_map(|h| h.get()) {
            for gpu in hardware
                .gpu
                .get()
                .into_iter()
                .flatten()
                .filter_map(|g| g.get())
            {
                let variant = gpu.variant.as_deref().unwrap_or("").to_owned();
                let n = gpu.gpu_count.get().copied().unwrap_or(0);
                match by_variant.iter_mut().find(|(v, _)| *v == variant) {
                    Some((_, total)) => *total = total.saturating_add(n),
                    None => by_variant.push((variant, n)),
                }
            }
        }
        by_variant
    };
    let capacity = count(&status.hardware_capacity);
    let allocation = count(&status.hardware_allocation);
    let cells: Vec<GpuUse> = capacity
        .iter()
        .map(|(variant, cap)| GpuUse {
            model: short(variant).into(),
            used: allocation
                .iter()
                .find(|(v, _)| v == variant)
                .map_or(0, |(_, n)| *n),
            capacity: *cap,
        })
        .collect();
    if cells.is_empty() {
        Cell::Empty
    } else {
        Cell::Gpus(cells)
    }
}

/// CPU cores the pool's clusters have, from its hardware capacity.
fn cpus(pool: &ComputePool) -> Cell {
    let total = pool
        .status
        .get()
        .and_then(|s| s.hardware_capacity.get())
        .into_iter()
        .flatten()
        .filter_map(|h| h.get())
        .filter_map(|h| h.total_cpu.get().copied())
        .fold(0i64, i64::saturating_add);
    if total == 0 {
        Cell::Empty
    } else {
        Cell::Count(total)
    }
}

/// Healthy hosts over all hosts.
fn hosts(pool: &ComputePool) -> Cell {
    let Some(status) = pool.status.get() else {
        return Cell::Empty;
    };
    let (mut healthy, mut all) = (0u64, 0u64);
    for (_, host) in status
        .clusters()
        .flat_map(|c| c.machine_pools())
        .flat_map(|m| m.hosts())
    {
        all += 1;
        if host.status.as_deref().map(HostStatus::parse) == Some(HostStatus::Healthy) {
            healthy += 1;
        }
    }
    Cell::Ratio {
        part: healthy,
        whole: all,
    }
}

/// The state of one worker pool of an evaluation, with when it ends by itself.
pub(super) fn scaling_state(evaluation: &ComputePoolEvaluation, key: &str) -> Cell {
    match evaluation.scaling_until(key) {
        Some((scaling, deadline)) if scaling.word.is_some() => Cell::Scaling {
            state: scaling.kind,
            deadline,
        },
        _ => Cell::Empty,
    }
}

/// The pool-level scaling state: the busiest worker pool's.
fn scaling(inventory: &Inventory, pool: &Object) -> Cell {
    let Some(evaluation) = inventory.evaluation_for(pool) else {
        return Cell::Empty;
    };
    evaluation
        .status
        .get()
        .and_then(|s| s.pool_scaling_states.get())
        .into_iter()
        .flat_map(|m| m.keys())
        .map(|k| scaling_state(evaluation, k))
        .min_by_key(|cell| match cell {
            Cell::Scaling { state, .. } => scaling_rank(state),
            _ => u8::MAX,
        })
        .unwrap_or(Cell::Empty)
}

/// GPU utilization of each worker pool and variant now, and the recent history of the first
/// GPU series.
fn gpu_utilization(inventory: &Inventory, pool: &Object) -> Cell {
    let Some(spec) = inventory.evaluation_for(pool).and_then(|e| e.spec.get()) else {
        return Cell::Empty;
    };
    let mut current = Vec::new();
    for (_, evaluation) in spec.pool_evaluations.get().into_iter().flatten() {
        for (_, gpu) in evaluation
            .get()
            .and_then(|e| e.gpu.get())
            .into_iter()
            .flatten()
        {
            if let Some(u) = gpu.get().and_then(|g| g.utilization.get()) {
                current.push(u.value());
            }
        }
    }
    if current.is_empty() {
        return Cell::Empty;
    }
    let history: Vec<f64> = inventory
        .series_of(pool.namespace(), pool.name())
        .find(|series| series.resource != "cpu")
        .map(|Series { samples, .. }| {
            let skip = samples.len().saturating_sub(SPARK_SAMPLES);
            samples.iter().skip(skip).map(|s| s.utilization).collect()
        })
        .unwrap_or_default();
    Cell::Utilization { current, history }
}

/// A cluster's health word (Healthy, UnHealthy, Unknown), read for its meaning.
fn health(word: &str) -> Status {
    let status = match HostStatus::parse(word) {
        HostStatus::Other(w) if w.eq_ignore_ascii_case("unhealthy") => HostStatus::Unhealthy,
        other => other,
    };
    Status::Health {
        status,
        word: word.into(),
    }
}

pub fn pools(inventory: &Inventory, name: Option<&str>, wide: bool) -> Table {
    let headers = pool_headers(wide);
    let rows = inventory
        .objects(Kind::Pool)
        .filter(|o| name.is_none_or(|n| o.name() == n))
        .map(|object| pool_row(inventory, object, headers.len(), wide))
        .collect();
    Table {
        columns: headers,
        rows,
    }
}

pub fn pool_headers(wide: bool) -> Vec<Column> {
    let mut headers = vec![
        column::NAMESPACE,
        column::NAME,
        column::STATUS,
        column::HEALTH,
        column::GPUS_USED,
        column::GPU_UTIL,
        column::CPU,
        column::HOSTS,
        column::SCALING,
        column::PAUSED,
        column::AGE,
    ];
    if wide {
        headers.extend([
            column::VIP,
            column::PROFILE_BUNDLE,
            column::DELETION,
            column::PROBLEM,
        ]);
    }
    headers
}

/// The row of one pool (a list, for the table builders' sake).
pub fn pool_rows(inventory: &Inventory, object: &std::sync::Arc<Object>, wide: bool) -> Vec<Row> {
    let columns = if wide { 15 } else { 11 };
    vec![pool_row(inventory, object, columns, wide)]
}

fn pool_row(
    inventory: &Inventory,
    object: &std::sync::Arc<Object>,
    columns: usize,
    wide: bool,
) -> Row {
    let source = Source::Object(object.clone());
    let Some(pool) = object.pool() else {
        let mut cells = vec![
            Cell::text(object.namespace()),
            Cell::text(object.name()),
            Cell::Status(Status::Unreadable),
        ];
        cells.resize(columns - 1, Cell::Empty);
        cells.push(Cell::text(object.problem().unwrap_or_default()));
        return Row::new(id_of(object), None, cells, source);
    };
    let phase = if pool.meta().is_some_and(|m| m.is_deleting()) {
        Cell::Status(Status::Pool(PoolPhase::Deleting))
    } else {
        pool.status
            .get()
            .and_then(|s| s.status.as_deref())
            .map_or(Cell::Empty, |word| {
                Cell::Status(Status::Pool(PoolPhase::parse(word)))
            })
    };
    let health: Vec<Status> = pool
        .status
        .get()
        .into_iter()
        .flat_map(|s| s.clusters())
        .filter_map(|c| c.health.as_deref())
        .map(health)
        .collect();
    let mut cells = vec![
        Cell::text(object.namespace()),
        Cell::text(object.name()),
        phase,
        if health.is_empty() {
            Cell::Empty
        } else {
            Cell::Statuses(health)
        },
        gpus(pool),
        gpu_utilization(inventory, object),
        cpus(pool),
        hosts(pool),
        scaling(inventory, object),
        Cell::Flag(pool.is_paused()),
        Cell::Since(object.created()),
    ];
    if wide {
        cells.push(Cell::text(pool.vip().unwrap_or("")));
        cells.push(Cell::text(
            pool.spec()
                .and_then(|s| s.profile_bundle_ref.get())
                .and_then(|b| b.name.as_deref())
                .unwrap_or(""),
        ));
        cells.push(Cell::text(pool.deletion_policy()));
        cells.push(Cell::text(object.problem().unwrap_or_default()));
    }
    Row::new(id_of(object), None, cells, source)
}

/// The pools list: what an operator asks first about each pool; the fixes, the marks and the
/// wizard act on its rows.
pub static VIEW: ViewSpec = ViewSpec {
    title: "Compute Pools",
    aliases: super::names::POOLS,
    source: Kind::Pool,
    rows: Rows::PerObject {
        owner: Kind::Pool,
        touched_by: &[Kind::Pool, Kind::Evaluation],
        columns: pool_headers,
        rows: pool_rows,
        table: pools,
    },
    opens: Some(Tab::Overview),
    pools: true,
    logs: true,
    warnings: None,
    all_clear: None,
};
