//! The rows of each list view, computed from an inventory snapshot at a given time: what an
//! operator asks first about pools, evaluations, hosts, events and projects. The console's
//! views and `pooldeck get` show the same rows.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use crate::domain::duration;
use crate::domain::model::ComputePool;
use crate::domain::model::evaluation::{ComputePoolEvaluation, Decision, split_pool_key};
use crate::domain::quantity::GpuVariant;
use crate::inventory::{Inventory, Kind, Object};

/// A table: headers, and rows with an identity (for `--watch` to tell what changed).
#[derive(Clone, Debug, Default)]
pub struct Table {
    pub headers: Vec<&'static str>,
    pub rows: Vec<Row>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub id: String,
    pub cells: Vec<String>,
    /// What `-o json|yaml` prints for the row.
    pub object: Source,
}

/// The object behind a row: an inventory object (written out from its model when asked), or a
/// value made for the row (hosts).
#[derive(Clone, Debug)]
pub enum Source {
    Object(Arc<Object>),
    Value(Value),
}

impl PartialEq for Source {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            // A changed object is a new allocation: identity is enough and costs nothing.
            (Source::Object(a), Source::Object(b)) => Arc::ptr_eq(a, b),
            (Source::Value(a), Source::Value(b)) => a == b,
            _ => false,
        }
    }
}

impl serde::Serialize for Source {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Source::Object(object) => match &object.parsed {
                crate::inventory::Parsed::Pool(pool) => pool.serialize(serializer),
                crate::inventory::Parsed::Evaluation(evaluation) => {
                    evaluation.serialize(serializer)
                }
                crate::inventory::Parsed::Other(value)
                | crate::inventory::Parsed::Unreadable(value, _) => value.serialize(serializer),
            },
            Source::Value(value) => value.serialize(serializer),
        }
    }
}

fn time(text: Option<&str>) -> Option<DateTime<Utc>> {
    text.and_then(|s| DateTime::parse_from_rfc3339(s).ok())
        .map(|t| t.with_timezone(&Utc))
}

fn age(object: &Object, now: DateTime<Utc>) -> String {
    object.created().map_or_else(
        || "<unknown>".into(),
        |t| duration::format_age((now - t).to_std().unwrap_or_default()),
    )
}

fn short(variant: &str) -> String {
    GpuVariant::parse(variant).short_name().to_owned()
}

fn dash(text: String) -> String {
    if text.is_empty() { "-".into() } else { text }
}

/// GPUs allocated/capacity per variant: `H100 PCIe 7/8`.
fn gpus(pool: &ComputePool) -> String {
    let Some(status) = pool.status.get() else {
        return "-".into();
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
                    Some((_, total)) => *total += n,
                    None => by_variant.push((variant, n)),
                }
            }
        }
        by_variant
    };
    let capacity = count(&status.hardware_capacity);
    let allocation = count(&status.hardware_allocation);
    let cells: Vec<String> = capacity
        .iter()
        .map(|(variant, cap)| {
            let used = allocation
                .iter()
                .find(|(v, _)| v == variant)
                .map_or(0, |(_, n)| *n);
            format!("{} {used}/{cap}", short(variant))
        })
        .collect();
    dash(cells.join(", "))
}

/// CPU cores the pool's clusters have, from its hardware capacity.
fn cpus(pool: &ComputePool) -> String {
    let total: i64 = pool
        .status
        .get()
        .and_then(|s| s.hardware_capacity.get())
        .into_iter()
        .flatten()
        .filter_map(|h| h.get())
        .filter_map(|h| h.total_cpu.get().copied())
        .sum();
    if total == 0 {
        "-".into()
    } else {
        total.to_string()
    }
}

/// Healthy hosts over all hosts.
fn hosts(pool: &ComputePool) -> String {
    let Some(status) = pool.status.get() else {
        return "-".into();
    };
    let all: Vec<_> = status
        .clusters()
        .flat_map(|c| c.machine_pools())
        .flat_map(|m| m.hosts())
        .collect();
    if all.is_empty() {
        return "0/0".into();
    }
    let healthy = all
        .iter()
        .filter(|(_, h)| h.status.as_deref() == Some("Healthy"))
        .count();
    format!("{healthy}/{}", all.len())
}

/// The state of one worker pool with its countdown: `Cooldown 8m30s`, `Scaling (abort in 22m)`.
fn state_with_time(evaluation: &ComputePoolEvaluation, key: &str, now: DateTime<Utc>) -> String {
    let Some(state) = evaluation
        .status
        .get()
        .and_then(|s| s.pool_scaling_states.get())
        .and_then(|m| m.get(key))
        .and_then(|s| s.get())
    else {
        return "-".into();
    };
    let word = state.state.as_deref().unwrap_or("-").to_owned();
    let spec = evaluation.spec.get();
    let remaining = |start: Option<&str>, length: Option<&str>| -> Option<String> {
        let start = time(start)?;
        let length = duration::parse(length?).ok()?;
        let end = start + chrono::Duration::from_std(length).ok()?;
        let left = (end - now).to_std().unwrap_or_default();
        Some(duration::format_short(left))
    };
    match word.as_str() {
        "Cooldown" => match remaining(
            state.state_changed_at.as_deref(),
            spec.and_then(|s| s.cooldown_duration.as_deref()),
        ) {
            Some(left) => format!("Cooldown {left}"),
            None => word,
        },
        "Scaling" => match remaining(
            state.scaling_started_at.as_deref(),
            spec.and_then(|s| s.abort_duration.as_deref()),
        ) {
            Some(left) => format!("Scaling (abort in {left})"),
            None => word,
        },
        _ => word,
    }
}

/// The pool-level scaling state: the busiest worker pool's.
fn scaling(inventory: &Inventory, pool: &Object, now: DateTime<Utc>) -> String {
    let Some(evaluation) = inventory.evaluation_for(pool) else {
        return "-".into();
    };
    let keys: Vec<String> = evaluation
        .status
        .get()
        .and_then(|s| s.pool_scaling_states.get())
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    let rank = |s: &str| match s.split_whitespace().next().unwrap_or("") {
        "Aborting" => 0,
        "Scaling" => 1,
        "Blocked" => 2,
        "Cooldown" => 3,
        _ => 4,
    };
    keys.iter()
        .map(|k| state_with_time(evaluation, k, now))
        .min_by_key(|s| rank(s))
        .unwrap_or_else(|| "-".into())
}

fn gpu_utilization(inventory: &Inventory, pool: &Object) -> String {
    let Some(spec) = inventory.evaluation_for(pool).and_then(|e| e.spec.get()) else {
        return "-".into();
    };
    let mut cells = Vec::new();
    for (_, evaluation) in spec.pool_evaluations.get().into_iter().flatten() {
        for (variant, gpu) in evaluation
            .get()
            .and_then(|e| e.gpu.get())
            .into_iter()
            .flatten()
        {
            if let Some(u) = gpu.get().and_then(|g| g.utilization.get()) {
                cells.push(format!("{}%", u.value().round()));
            }
            let _ = variant;
        }
    }
    dash(cells.join(","))
}

pub fn pools(inventory: &Inventory, name: Option<&str>, wide: bool, now: DateTime<Utc>) -> Table {
    let mut headers = vec![
        "NAMESPACE",
        "NAME",
        "STATUS",
        "HEALTH",
        "GPUS (USED/CAPACITY)",
        "GPU UTIL",
        "CPU",
        "HOSTS",
        "SCALING",
        "PAUSED",
        "AGE",
    ];
    if wide {
        headers.extend(["VIP", "PROFILE BUNDLE", "DELETION", "PROBLEM"]);
    }
    let mut rows = Vec::new();
    for object in inventory
        .objects(Kind::Pool)
        .filter(|o| name.is_none_or(|n| o.name() == n))
    {
        let Some(pool) = object.pool() else {
            let mut cells = vec![
                object.namespace().to_owned(),
                object.name().to_owned(),
                "Unreadable".into(),
            ];
            cells.resize(headers.len() - 1, "-".into());
            cells.push(object.problem().unwrap_or_default());
            rows.push(Row {
                id: format!("{}/{}", object.namespace(), object.name()),
                cells,
                object: Source::Object(object.clone()),
            });
            continue;
        };
        let status = if pool.meta().is_some_and(|m| m.is_deleting()) {
            "Deleting".to_owned()
        } else {
            pool.status
                .get()
                .and_then(|s| s.status.as_deref())
                .unwrap_or("-")
                .to_owned()
        };
        let health: Vec<&str> = pool
            .status
            .get()
            .into_iter()
            .flat_map(|s| s.clusters())
            .filter_map(|c| c.health.as_deref())
            .collect();
        let mut cells = vec![
            object.namespace().to_owned(),
            object.name().to_owned(),
            status,
            dash(health.join(",")),
            gpus(pool),
            gpu_utilization(inventory, object),
            cpus(pool),
            hosts(pool),
            scaling(inventory, object, now),
            if pool.is_paused() {
                "yes".into()
            } else {
                "-".into()
            },
            age(object, now),
        ];
        if wide {
            cells.push(dash(pool.vip().unwrap_or("").to_owned()));
            cells.push(dash(
                pool.spec()
                    .and_then(|s| s.profile_bundle_ref.get())
                    .and_then(|b| b.name.as_deref())
                    .unwrap_or("")
                    .to_owned(),
            ));
            cells.push(pool.deletion_policy().to_owned());
            cells.push(dash(object.problem().unwrap_or_default()));
        }
        rows.push(Row {
            id: format!("{}/{}", object.namespace(), object.name()),
            cells,
            object: Source::Object(object.clone()),
        });
    }
    Table { headers, rows }
}

fn decision_words(decision: Decision, unit: &str) -> String {
    match decision {
        Decision::ScaleUp(n) => format!("scale up +{n} {unit}"),
        Decision::ScaleDown(n) => format!("scale down -{n} {unit}"),
        Decision::Hold => "hold".into(),
        Decision::Unknown => "-".into(),
    }
}

pub fn evaluations(
    inventory: &Inventory,
    name: Option<&str>,
    wide: bool,
    now: DateTime<Utc>,
) -> Table {
    let mut headers = vec![
        "NAMESPACE",
        "NAME",
        "WORKER POOL",
        "CPU",
        "GPU",
        "DECISION",
        "STATE",
        "AGE",
    ];
    if wide {
        headers.extend(["EVALUATED", "DETAILS"]);
    }
    let mut rows = Vec::new();
    for object in inventory
        .objects(Kind::Evaluation)
        .filter(|o| name.is_none_or(|n| o.name() == n))
    {
        let Some(evaluation) = object.evaluation() else {
            continue;
        };
        for (key, entry) in evaluation
            .spec
            .get()
            .and_then(|s| s.pool_evaluations.get())
            .into_iter()
            .flatten()
        {
            let Some(entry) = entry.get() else { continue };
            let cpu = entry.cpu.get();
            let cpu_cell = cpu.map_or("-".into(), |c| {
                format!(
                    "{}% {}→{}",
                    c.utilization.get().map_or(0.0, |u| u.value()).round(),
                    c.count.or_default(),
                    c.target.or_default()
                )
            });
            let mut gpu_cells = Vec::new();
            let mut decision = cpu
                .map(|c| decision_words(c.decision(), "CPUs"))
                .filter(|d| d != "hold" && d != "-");
            for (variant, gpu) in entry.gpu.get().into_iter().flatten() {
                let Some(gpu) = gpu.get() else { continue };
                gpu_cells.push(format!(
                    "{} {}% {}→{}",
                    short(variant),
                    gpu.utilization.get().map_or(0.0, |u| u.value()).round(),
                    gpu.count.or_default(),
                    gpu.target.or_default()
                ));
                if matches!(
                    gpu.decision(),
                    Decision::ScaleUp(_) | Decision::ScaleDown(_)
                ) {
                    decision = Some(decision_words(gpu.decision(), "GPUs"));
                }
            }
            let (_, worker_pool) = split_pool_key(key);
            let mut cells = vec![
                object.namespace().to_owned(),
                object.name().to_owned(),
                worker_pool.to_owned(),
                cpu_cell,
                dash(gpu_cells.join(", ")),
                decision.unwrap_or_else(|| "hold".into()),
                state_with_time(evaluation, key, now),
                age(object, now),
            ];
            if wide {
                let evaluated = time(entry.evaluated_at.as_deref()).map_or("-".into(), |t| {
                    format!(
                        "{} ago",
                        duration::format_age((now - t).to_std().unwrap_or_default())
                    )
                });
                cells.push(evaluated);
                let details = evaluation
                    .status
                    .get()
                    .and_then(|s| s.pool_scaling_states.get())
                    .and_then(|m| m.get(key))
                    .and_then(|s| s.get())
                    .and_then(|s| s.details.as_deref())
                    .unwrap_or("")
                    .to_owned();
                cells.push(dash(details));
            }
            rows.push(Row {
                id: format!("{}/{}/{key}", object.namespace(), object.name()),
                cells,
                object: Source::Object(object.clone()),
            });
        }
    }
    Table { headers, rows }
}

pub fn hosts_table(
    inventory: &Inventory,
    name: Option<&str>,
    wide: bool,
    now: DateTime<Utc>,
) -> Table {
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
        let since = host.status_updated_at.map_or("-".into(), |t| {
            duration::format_age((now - t).to_std().unwrap_or_default())
        });
        let gpus: Vec<String> = host
            .gpus
            .iter()
            .map(|(v, n)| format!("{n}x {}", short(v)))
            .collect();
        let mut cells = vec![
            host.namespace.clone(),
            host.pool.clone(),
            host.machine_pool.clone(),
            host.uid.clone(),
            dash(host.status.clone()),
            since,
            host.cpu_count.to_string(),
            format!("{} GB", host.memory_gb),
            dash(gpus.join(", ")),
        ];
        if wide {
            cells.extend([
                dash(host.cluster.clone()),
                dash(host.node_type.clone()),
                dash(host.architecture.clone()),
            ]);
        }
        let object = json!({
            "namespace": host.namespace, "pool": host.pool, "cluster": host.cluster,
            "machinePool": host.machine_pool, "nodeType": host.node_type, "host": host.uid,
            "status": host.status, "statusUpdatedAt": host.status_updated_at.map(|t| t.to_rfc3339()),
            "architecture": host.architecture, "cpuCount": host.cpu_count, "memoryGB": host.memory_gb,
            "gpuCountByVariant": host.gpus.iter().map(|(v, n)| (v.clone(), json!(n))).collect::<serde_json::Map<_, _>>(),
        });
        rows.push(Row {
            id: format!(
                "{}/{}/{}/{}",
                host.namespace, host.pool, host.machine_pool, host.uid
            ),
            cells,
            object: Source::Value(object),
        });
    }
    Table { headers, rows }
}

pub fn events(inventory: &Inventory, name: Option<&str>, wide: bool, now: DateTime<Utc>) -> Table {
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
    let when = |e: &Object| e.raw().and_then(crate::inventory::event_time);
    objects.sort_by_key(|e| when(e));
    let mut rows = Vec::new();
    for event in objects {
        let raw = event.value();
        let text = |p: &str| {
            raw.pointer(p)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
        };
        let seen = when(event).map_or("-".into(), |t| {
            duration::format_age((now - t).to_std().unwrap_or_default())
        });
        let mut cells = vec![
            event.namespace().to_owned(),
            seen,
            dash(text("/type")),
            dash(text("/reason")),
            format!(
                "{}/{}",
                text("/involvedObject/kind").to_lowercase(),
                text("/involvedObject/name")
            ),
            text("/message"),
        ];
        if wide {
            cells.push(dash(text("/source/component")));
            cells.push(
                raw.get("count")
                    .and_then(Value::as_i64)
                    .unwrap_or(1)
                    .to_string(),
            );
        }
        rows.push(Row {
            id: format!("{}/{}", event.namespace(), event.name()),
            cells,
            object: Source::Object(event.clone()),
        });
    }
    Table { headers, rows }
}

fn variant_map(value: Option<&Value>) -> String {
    let Some(map) = value.and_then(Value::as_object) else {
        return "-".into();
    };
    let cells: Vec<String> = map
        .iter()
        .map(|(v, n)| format!("{} {n}", short(v)))
        .collect();
    dash(cells.join(", "))
}

pub fn projects(
    inventory: &Inventory,
    name: Option<&str>,
    _wide: bool,
    now: DateTime<Utc>,
) -> Table {
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
                    .pointer(&format!(
                        "/spec/gpuResources/projectLimits/{}",
                        project.name()
                    ))
                    .cloned()
            });
        let cells = vec![
            project.namespace().to_owned(),
            project.name().to_owned(),
            variant_map(raw.pointer("/spec/gpuResources/limits")),
            variant_map(raw.pointer("/status/gpuUsage")),
            variant_map(tenant_cap.as_ref()),
            age(project, now),
        ];
        rows.push(Row {
            id: format!("{}/{}", project.namespace(), project.name()),
            cells,
            object: Source::Object(project.clone()),
        });
    }
    Table { headers, rows }
}

/// Plain text, columns padded like kubectl's.
pub fn render(headers: &[&str], rows: &[&Row]) -> String {
    let columns = rows
        .iter()
        .map(|r| r.cells.len())
        .chain([headers.len()])
        .max()
        .unwrap_or(0);
    let mut widths: Vec<usize> = vec![0; columns];
    for (i, header) in headers.iter().enumerate() {
        widths[i] = header.chars().count();
    }
    for row in rows {
        for (i, cell) in row.cells.iter().enumerate() {
            widths[i] = widths[i].max(cell.chars().count());
        }
    }
    let line = |cells: Vec<&str>| -> String {
        let last = cells.len().saturating_sub(1);
        let mut out = String::new();
        for (i, cell) in cells.into_iter().enumerate() {
            out.push_str(cell);
            if i < last {
                let width = widths.get(i).copied().unwrap_or(0);
                out.push_str(&" ".repeat(width.saturating_sub(cell.chars().count()) + 3));
            }
        }
        out.trim_end().to_owned()
    };
    let mut out = String::new();
    if !headers.is_empty() {
        out.push_str(&line(headers.to_vec()));
        out.push('\n');
    }
    for row in rows {
        out.push_str(&line(row.cells.iter().map(String::as_str).collect()));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(cells: &[&str]) -> Row {
        Row {
            id: String::new(),
            cells: cells.iter().map(|c| c.to_string()).collect(),
            object: Source::Value(Value::Null),
        }
    }

    #[test]
    fn renders_aligned_columns_with_or_without_headers() {
        let rows = [row(&["a", "long-name", "x"]), row(&["bbb", "n", "y"])];
        let text = render(&["A", "NAME", "X"], &rows.iter().collect::<Vec<_>>());
        assert_eq!(
            text,
            "A     NAME        X\na     long-name   x\nbbb   n           y\n"
        );
        let bare = render(&[], &rows.iter().collect::<Vec<_>>());
        assert_eq!(bare.lines().count(), 2);
        assert_eq!(render(&["A"], &[]), "A\n");
    }
}
