//! The changes pooldeck saw between two versions of a pool or its evaluation, dated by its own
//! clock: what the hub does not keep (only each thing's latest change is written in it).

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde_json::Value;

use super::entry::{Clock, Entry, Source, condition_text};
use crate::model::evaluation::{ComputePoolEvaluation, PoolEvaluation, ResourceEvaluation};
use crate::model::pool::ComputePool;

/// How many changed paths a spec change lists.
const PATHS: usize = 6;

fn entry(at: DateTime<Utc>, source: Source, subject: &str) -> Entry {
    Entry::new(at, Clock::Pooldeck, source, subject)
}

/// The changes from `before` to `after` seen at `at`: a pool gone, its spec, pause, deletion,
/// finalizers, status, conditions, hosts and AIWorkloads. A first sight is no change.
pub fn seen_pool(
    before: Option<&ComputePool>,
    after: Option<&ComputePool>,
    at: DateTime<Utc>,
) -> Vec<Entry> {
    let (Some(before), after) = (before, after) else {
        return Vec::new();
    };
    let Some(after) = after else {
        return vec![entry(at, Source::Pool, "pool").says("gone", "gone from the hub".into())];
    };
    let mut out = lifecycle(before, after, at);
    let (old, new) = (conditions(before), conditions(after));
    for (kind, (state, reason, text)) in &new {
        let before = old.get(kind);
        let was = before.map(|(s, _, _)| s.as_str());
        if before.map(|(s, r, _)| (s, r)) != Some((state, reason)) {
            let now = text
                .strip_prefix(kind.as_str())
                .unwrap_or(text)
                .trim_start();
            let text = format!("{kind} {} → {now}", was.unwrap_or("(none)"));
            out.push(entry(at, Source::Condition, kind).says(state, text));
        }
    }
    for kind in old.keys().filter(|k| !new.contains_key(*k)) {
        out.push(entry(at, Source::Condition, kind).says("removed", format!("{kind} removed")));
    }
    out.extend(hosts(before, after, at));
    out.extend(workloads(before, after, at));
    out
}

/// The pool's conditions and its clusters' (`cluster NAME: TYPE`), each with its status and
/// its line.
fn conditions(pool: &ComputePool) -> BTreeMap<String, (String, String, String)> {
    let Some(status) = pool.status.get() else {
        return BTreeMap::new();
    };
    let own = status.conditions().map(|c| (String::new(), c));
    let clusters = status.clusters().flat_map(|cluster| {
        let prefix = format!("cluster {}: ", cluster.name.as_deref().unwrap_or("?"));
        let conditions = cluster
            .conditions
            .get()
            .into_iter()
            .flatten()
            .filter_map(|c| c.get());
        conditions.map(move |c| (prefix.clone(), c))
    });
    own.chain(clusters)
        .map(|(prefix, c)| {
            // Its status and reason: a new reason is a change too (a message alone is not).
            let state = c.status.as_deref().unwrap_or("?").to_owned();
            let reason = c.reason.as_deref().unwrap_or_default().to_owned();
            let text = format!("{prefix}{}", condition_text(c));
            (format!("{prefix}{}", c.kind()), (state, reason, text))
        })
        .collect()
}

/// Spec, pause, finalizers and the pool's status word (a deletion's start the hub keeps
/// itself, exactly: [`super::from_pool`]).
fn lifecycle(before: &ComputePool, after: &ComputePool, at: DateTime<Utc>) -> Vec<Entry> {
    let mut out = Vec::new();
    let generation = |p: &ComputePool| p.meta().and_then(|m| m.generation.get().copied());
    if generation(before) != generation(after) {
        let spec = |p: &ComputePool| serde_json::to_value(&p.spec).unwrap_or(Value::Null);
        let text = format!(
            "spec changed (generation {} → {})",
            generation(before).map_or("?".into(), |g| g.to_string()),
            generation(after).map_or("?".into(), |g| g.to_string())
        );
        let paths = changed_paths(&spec(before), &spec(after));
        out.push(entry(at, Source::Pool, "spec").says("", text).with(paths));
    }
    if before.is_paused() != after.is_paused() {
        let (state, text) = match after.is_paused() {
            true => ("paused", "reconciliation paused"),
            false => ("resumed", "reconciliation resumed"),
        };
        out.push(entry(at, Source::Pool, "pause").says(state, text.into()));
    }
    let finalizers = |p: &ComputePool| -> Vec<String> {
        p.meta()
            .map(|m| m.finalizers().map(str::to_owned).collect())
            .unwrap_or_default()
    };
    let (old, new) = (finalizers(before), finalizers(after));
    for gone in old.iter().filter(|f| !new.contains(f)) {
        out.push(
            entry(at, Source::Pool, gone).says("removed", format!("finalizer {gone} removed")),
        );
    }
    for added in new.iter().filter(|f| !old.contains(f)) {
        out.push(entry(at, Source::Pool, added).says("added", format!("finalizer {added} added")));
    }
    let word = |p: &ComputePool| {
        p.status
            .get()
            .and_then(|s| s.status.as_deref())
            .unwrap_or("-")
            .to_owned()
    };
    if word(before) != word(after) {
        let text = format!("status {} → {}", word(before), word(after));
        out.push(entry(at, Source::Pool, "status").says(&word(after), text));
    }
    out
}

/// The spec's paths that changed, each with its values before and after (at most [`PATHS`]).
fn changed_paths(before: &Value, after: &Value) -> Vec<String> {
    let mut paths = Vec::new();
    differences(String::new(), before, after, &mut paths);
    let show = |v: Option<&Value>| {
        v.map_or("(none)".to_owned(), |v| {
            crate::inert::cut(&v.to_string(), 80).into_owned()
        })
    };
    let mut out: Vec<String> = paths
        .iter()
        .take(PATHS)
        .map(|p| match secret_like(p) {
            true => format!("{p}: changed (its value is not kept)"),
            false => format!(
                "{p}: {} → {}",
                show(before.pointer(p)),
                show(after.pointer(p))
            ),
        })
        .collect();
    if paths.len() > PATHS {
        out.push(format!("… and {} more", paths.len().saturating_sub(PATHS)));
    }
    out
}

/// Whether a path may hold a credential or key (SSH keys, tokens, passwords): its values are
/// never written into a timeline, which is kept on disk and carried into recordings.
fn secret_like(path: &str) -> bool {
    path.split('/').any(|segment| {
        crate::json::credential_like(segment) || segment.to_ascii_lowercase().contains("ssh")
    })
}

/// The JSON pointers where two values differ, as deep as both have the same shape.
fn differences(at: String, before: &Value, after: &Value, out: &mut Vec<String>) {
    match (before, after) {
        (Value::Object(a), Value::Object(b)) => {
            let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            for key in keys {
                let path = format!("{at}/{}", key.replace('~', "~0").replace('/', "~1"));
                let (x, y) = (
                    a.get(key).unwrap_or(&Value::Null),
                    b.get(key).unwrap_or(&Value::Null),
                );
                differences(path, x, y, out);
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                differences(format!("{at}/{i}"), x, y, out);
            }
        }
        (a, b) if a != b => out.push(at),
        _ => {}
    }
}

fn host_states(pool: &ComputePool) -> BTreeMap<String, String> {
    let status = pool.status.get().into_iter();
    status
        .flat_map(|s| s.clusters())
        .flat_map(|c| c.machine_pools())
        .flat_map(|m| m.hosts())
        .map(|(uid, h)| {
            (
                uid.to_owned(),
                h.status.as_deref().unwrap_or("?").to_owned(),
            )
        })
        .collect()
}

/// Hosts that joined, left or changed their status.
fn hosts(before: &ComputePool, after: &ComputePool, at: DateTime<Utc>) -> Vec<Entry> {
    let (old, new) = (host_states(before), host_states(after));
    let mut out = Vec::new();
    for (uid, state) in &new {
        let text = match old.get(uid) {
            None => format!("host {uid} joined ({state})"),
            Some(was) if was != state => format!("host {uid} {was} → {state}"),
            Some(_) => continue,
        };
        out.push(entry(at, Source::Host, uid).says(state, text));
    }
    for uid in old.keys().filter(|uid| !new.contains_key(*uid)) {
        out.push(entry(at, Source::Host, uid).says("left", format!("host {uid} left the pool")));
    }
    out
}

/// AIWorkloads the pool started or stopped listing as its own.
fn workloads(before: &ComputePool, after: &ComputePool, at: DateTime<Utc>) -> Vec<Entry> {
    let refs = |p: &ComputePool| -> Vec<String> {
        let status = p.status.get().into_iter().flat_map(|s| s.ai_workloads());
        status
            .map(|r| {
                format!(
                    "{}/{}",
                    r.namespace.as_deref().unwrap_or("?"),
                    r.name.as_deref().unwrap_or("?")
                )
            })
            .collect()
    };
    let (old, new) = (refs(before), refs(after));
    let subject = |name: &str| format!("aiworkload {name}");
    let gone = old
        .iter()
        .filter(|r| !new.contains(r))
        .map(|r| (r, "released", "no longer uses the pool"));
    let added = new
        .iter()
        .filter(|r| !old.contains(r))
        .map(|r| (r, "using", "uses the pool"));
    gone.chain(added)
        .map(|(r, state, what)| {
            entry(at, Source::Pool, &subject(r)).says(state, format!("AIWorkload {r} {what}"))
        })
        .collect()
}

/// The changes from one version of an evaluation to the next seen at `at`: each worker
/// pool's state, and each target the controller moved, with why in the policy's terms
/// (`policy`: the ScalingPolicy as written, when pooldeck holds it).
pub fn seen_evaluation(
    before: Option<&ComputePoolEvaluation>,
    after: Option<&ComputePoolEvaluation>,
    policy: Option<&Value>,
    at: DateTime<Utc>,
) -> Vec<Entry> {
    let (Some(before), Some(after)) = (before, after) else {
        return Vec::new();
    };
    let mut out = targets(before, after, policy, at);
    let states = |e: &ComputePoolEvaluation| -> BTreeMap<String, (String, String)> {
        let all = e
            .status
            .get()
            .and_then(|s| s.pool_scaling_states.get())
            .into_iter()
            .flatten();
        all.filter_map(|(key, s)| {
            let s = s.get()?;
            let word = s.state.as_deref().unwrap_or("?").to_owned();
            Some((
                key.as_str().to_owned(),
                (word, s.details.as_deref().unwrap_or_default().to_owned()),
            ))
        })
        .collect()
    };
    let old = states(before);
    for (key, (word, details)) in states(after) {
        let was = old.get(&key).map(|(w, _)| w.as_str());
        if was == Some(word.as_str()) {
            continue;
        }
        let mut text = format!("{key}: {} → {word}", was.unwrap_or("(none)"));
        if !details.is_empty() {
            text.push_str(&format!(": {details}"));
        }
        out.push(entry(at, Source::Scaling, &key).says(&word, text));
    }
    out
}

fn worker_pools(e: &ComputePoolEvaluation) -> impl Iterator<Item = (&str, &PoolEvaluation)> {
    let all = e
        .spec
        .get()
        .and_then(|s| s.pool_evaluations.get())
        .into_iter()
        .flatten();
    all.filter_map(|(key, p)| Some((key.as_str(), p.get()?)))
}

fn resources(p: &PoolEvaluation) -> Vec<(String, &ResourceEvaluation)> {
    let gpus = p.gpu.get().into_iter().flatten();
    let gpus = gpus.filter_map(|(variant, r)| Some((variant.as_str().to_owned(), r.get()?)));
    p.cpu
        .get()
        .map(|c| ("CPU".to_owned(), c))
        .into_iter()
        .chain(gpus)
        .collect()
}

/// Targets the controller moved: the scaling decisions, each with why.
fn targets(
    before: &ComputePoolEvaluation,
    after: &ComputePoolEvaluation,
    policy: Option<&Value>,
    at: DateTime<Utc>,
) -> Vec<Entry> {
    let old: BTreeMap<(String, String), i64> = worker_pools(before)
        .flat_map(|(key, p)| {
            resources(p)
                .into_iter()
                .filter_map(move |(r, e)| Some(((key.to_owned(), r), *e.target.get()?)))
        })
        .collect();
    let mut out = Vec::new();
    for (key, p) in worker_pools(after) {
        for (resource, e) in resources(p) {
            let (Some(target), Some(was)) =
                (e.target.get(), old.get(&(key.to_owned(), resource.clone())))
            else {
                continue;
            };
            // A target that moves to the count is the count catching up, not a decision.
            if target == was || e.count.get() == Some(target) {
                continue;
            }
            let unit = if resource == "CPU" { "CPUs" } else { "GPUs" };
            let mut text = format!("{key}: decided {was} → {target} {unit}");
            if resource != "CPU" {
                text.push_str(&format!(" ({resource})"));
            }
            if let Some(u) = e.utilization.get() {
                text.push_str(&format!(": utilization {} %", u.value()));
                text.push_str(&why(policy, &resource, target > was, u.value()));
            }
            let subject = format!("{key} {resource} target");
            out.push(entry(at, Source::Scaling, &subject).says(&target.to_string(), text));
        }
    }
    out
}

/// " above 85 % for 5m" (or below the scale-down threshold) when the policy says.
fn why(policy: Option<&Value>, resource: &str, up: bool, utilization: f64) -> String {
    let Some(block) = crate::diagnosis::policy_block(policy, resource) else {
        return String::new();
    };
    let (threshold, duration, side) = match up {
        true => ("scaleUpThreshold", "scaleUpDuration", "above"),
        false => ("scaleDownThreshold", "scaleDownDuration", "below"),
    };
    let Some(limit) = block[threshold].as_f64() else {
        return String::new();
    };
    let beyond = if up {
        utilization > limit
    } else {
        utilization < limit
    };
    let side = if beyond { side } else { "against" };
    match block[duration].as_str() {
        Some(d) => format!(" {side} {limit} % for {d}"),
        None => format!(" {side} {limit} %"),
    }
}
