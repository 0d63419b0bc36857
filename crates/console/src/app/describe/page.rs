//! The describe page's text: who the pool is, its spec, its status and conditions, and what
//! the hub shows around it.

use chrono::{DateTime, Utc};

use crate::app::rows;
use crate::app::rows::text::{self as cells, Form};
use crate::domain::inert;
use crate::domain::model::ComputePool;
use crate::inventory::{Inventory, Object};

/// A label and its value, aligned as kubectl describe aligns them.
pub(super) fn field(out: &mut String, indent: usize, label: &str, value: &str) {
    let pad = 18usize.saturating_sub(label.len().saturating_add(1));
    out.push_str(&format!(
        "{:indent$}{}:{:pad$} {}\n",
        "",
        inert::line(label),
        "",
        inert::line(value)
    ));
}

pub(super) fn ago(now: DateTime<Utc>, then: Option<DateTime<Utc>>) -> String {
    then.map_or_else(
        || "-".to_owned(),
        |t| crate::domain::words::age(now.signed_duration_since(t)),
    )
}

/// A table under a section, in kubectl's plain form, indented.
pub(super) fn table(out: &mut String, table: &rows::Table, now: DateTime<Utc>) {
    if table.rows.is_empty() {
        out.push_str("  <none>\n");
        return;
    }
    let texts: Vec<Vec<String>> = table
        .rows
        .iter()
        .map(|row| {
            row.cells
                .iter()
                .map(|c| cells::text(c, now, Form::Plain))
                .collect()
        })
        .collect();
    let headers = table.headers();
    for line in cells::plain_table(&headers, &texts, None).lines() {
        out.push_str("  ");
        out.push_str(line);
        out.push('\n');
    }
}

/// The page for one pool.
pub fn page(inventory: &Inventory, object: &std::sync::Arc<Object>, now: DateTime<Utc>) -> String {
    let mut out = String::new();
    field(&mut out, 0, "Name", object.name());
    field(&mut out, 0, "Namespace", object.namespace());
    let Some(pool) = object.pool() else {
        field(
            &mut out,
            0,
            "Problem",
            &object.problem().unwrap_or_default(),
        );
        return out;
    };
    metadata(&mut out, pool, now);
    spec(&mut out, pool);
    status(&mut out, pool, now);
    picture(&mut out, inventory, object, now);
    out
}

/// The pool's labels, description, age, deletion and pause.
fn metadata(out: &mut String, pool: &ComputePool, now: DateTime<Utc>) {
    let meta = pool.meta();
    let pairs = |map: Option<&crate::domain::model::meta::StringMap>| -> String {
        let listed: Vec<String> = map
            .into_iter()
            .flat_map(|m| m.iter())
            .map(|(k, v)| format!("{k}={}", v.as_deref().unwrap_or("?")))
            .collect();
        if listed.is_empty() {
            "<none>".to_owned()
        } else {
            listed.join(", ")
        }
    };
    field(out, 0, "Labels", &pairs(meta.and_then(|m| m.labels.get())));
    field(
        out,
        0,
        "Description",
        pool.description().unwrap_or("<none>"),
    );
    let created = meta
        .and_then(|m| m.creation_timestamp.as_deref())
        .and_then(crate::domain::time::parse);
    field(
        out,
        0,
        "Created",
        &format!(
            "{} ({} ago)",
            created.map_or_else(|| "-".to_owned(), |t| t.to_rfc3339()),
            ago(now, created)
        ),
    );
    if let Some(since) = meta
        .filter(|m| m.is_deleting())
        .and_then(|m| m.deletion_timestamp.as_deref())
    {
        field(out, 0, "Deleting since", since);
    }
    field(
        out,
        0,
        "Paused",
        if pool.is_paused() {
            "yes (controller.spectrocloud.com/pause: the controller skips it)"
        } else {
            "no"
        },
    );
}

/// What the pool asks for: its mode, policies, VIP, control plane and worker pools.
fn spec(out: &mut String, pool: &ComputePool) {
    out.push_str("Spec:\n");
    let mode = if pool.dedicated().is_some() {
        "dedicated"
    } else {
        "shared"
    };
    field(out, 2, "Mode", mode);
    field(out, 2, "Deletion policy", pool.deletion_policy());
    field(
        out,
        2,
        "Profile bundle",
        pool.spec()
            .and_then(|s| s.profile_bundle_ref.get())
            .and_then(|r| r.name.as_deref())
            .unwrap_or("<none>"),
    );
    field(
        out,
        2,
        "Scaling policy",
        pool.scaling_policy_name()
            .unwrap_or("<none: not autoscaled>"),
    );
    if let Some(vip) = pool.vip() {
        field(out, 2, "VIP", vip);
    }
    if let Some(cp) = pool.control_plane() {
        field(
            out,
            2,
            "Control plane",
            &format!(
                "{} node(s){}, {}",
                cp.node_count.get().copied().unwrap_or(1),
                if pool.is_single_node() {
                    " (single-node)"
                } else {
                    ""
                },
                cp.architecture.as_deref().unwrap_or("AMD64")
            ),
        );
    }
    for (_, worker) in pool.worker_pools() {
        let gpu = worker
            .gpu
            .get()
            .map(|g| {
                format!(
                    ", {} GPU(s) {}",
                    g.gpu_count.get().copied().unwrap_or(0),
                    g.variant.as_deref().unwrap_or("?")
                )
            })
            .unwrap_or_default();
        field(
            out,
            2,
            &format!("Worker pool {}", worker.name().unwrap_or("(unnamed)")),
            &format!(
                "at least {} node(s){gpu}",
                worker.min_worker_nodes.get().copied().unwrap_or(1)
            ),
        );
    }
}

/// Its phase, clusters and conditions (a false one with what it means).
fn status(out: &mut String, pool: &ComputePool, now: DateTime<Utc>) {
    out.push_str("Status:\n");
    let status = pool.status.get();
    field(
        out,
        2,
        "Phase",
        status.and_then(|s| s.status.as_deref()).unwrap_or("<none>"),
    );
    for cluster in status.into_iter().flat_map(|s| s.clusters()) {
        field(
            out,
            2,
            &format!("Cluster {}", cluster.name.as_deref().unwrap_or("?")),
            &format!(
                "{}, health {}",
                cluster.status.as_deref().unwrap_or("?"),
                cluster.health.as_deref().unwrap_or("?")
            ),
        );
    }
    out.push_str("Conditions:\n");
    let conditions: Vec<_> = status.into_iter().flat_map(|s| s.conditions()).collect();
    if conditions.is_empty() {
        out.push_str("  <none>\n");
    }
    for condition in conditions {
        let when = condition
            .last_transition_time
            .as_deref()
            .and_then(crate::domain::time::parse);
        out.push_str(&format!(
            "  {:<28} {:<7} {:<26} {}\n",
            inert::line(condition.kind()),
            inert::line(condition.status.as_deref().unwrap_or("?")),
            inert::line(condition.reason.as_deref().unwrap_or("")),
            ago(now, when)
        ));
        if let Some(message) = condition.message.as_deref().filter(|m| !m.is_empty()) {
            out.push_str(&format!("    {}\n", inert::line(message)));
        }
        if condition.is_false() {
            out.push_str(&format!(
                "    means: {}\n",
                crate::domain::diagnosis::condition_meaning_of(condition.kind())
            ));
        }
    }
}

/// What the hub shows around it: hosts, evaluation, findings and its last ten events.
fn picture(
    out: &mut String,
    inventory: &Inventory,
    object: &std::sync::Arc<Object>,
    now: DateTime<Utc>,
) {
    out.push_str("Hosts:\n");
    let hosts = rows::Table {
        columns: rows::host_headers(false),
        rows: rows::pool_host_rows(inventory, object, false),
    };
    table(out, &hosts, now);
    out.push_str("Evaluation:\n");
    let mut evaluation = rows::evaluations(inventory, Some(object.name()), false);
    evaluation
        .rows
        .retain(|row| row.id.namespace.as_str() == object.namespace());
    table(out, &evaluation, now);
    out.push_str("Findings:\n");
    let findings = inventory.diagnose(object, now);
    if findings.is_empty() {
        out.push_str("  nothing wrong\n");
    }
    for finding in findings {
        out.push_str(&format!(
            "  {:?}: {} [{}]\n",
            finding.severity,
            inert::line(&finding.summary),
            finding.id
        ));
    }
    out.push_str("AIWorkloads:\n");
    let workloads =
        rows::aiworkloads::workloads_of_pool(inventory, object.namespace(), object.name());
    table(out, &workloads, now);
    events(
        out,
        inventory,
        ("ComputePool", object.namespace(), object.name()),
        now,
    );
}

/// The last ten events about an object (kind, namespace, name), newest first.
pub(super) fn events(
    out: &mut String,
    inventory: &Inventory,
    (kind, namespace, name): (&str, &str, &str),
    now: DateTime<Utc>,
) {
    out.push_str("Events:\n");
    let events = inventory.events_for(kind, namespace, name);
    if events.is_empty() {
        out.push_str("  <none>\n");
    }
    for event in events.iter().rev().take(10) {
        let Some(e) = event.event() else { continue };
        out.push_str(&format!(
            "  {:<8} {:<24} {:<6} {}\n",
            inert::line(e.event_type().unwrap_or("")),
            inert::line(e.reason().unwrap_or("")),
            ago(now, event.happened()),
            inert::line(e.message().unwrap_or(""))
        ));
    }
}
