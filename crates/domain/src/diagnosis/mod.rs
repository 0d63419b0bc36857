//! The troubleshooting guide as code: for one pool and what the hub says around it (its
//! evaluation, policy, ProfileBundle, Settings, the namespace's Compute, Project and Tenant,
//! the pools sharing its VIP, its events), what is wrong, the evidence (paths and values), the
//! likely cause as the guide gives it, and the next steps with names filled in.
//!
//! Pure. The pool and its evaluation are read through the typed model (a field missing or of
//! the wrong type is read as absent and, where the guide needs it, said: "could not read …");
//! the other objects it looks at (policy, ProfileBundle, Settings, Compute, Project, Tenant,
//! events) are read as JSON the same way. Never panics on what the API sends.

use crate::shell::quote;
use std::borrow::Cow;

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;

use super::field::Field;
use super::fixes::Fix;
use super::model::status::{ClusterStatus, Host};
use super::model::{ComputePool, ComputePoolEvaluation};
use super::rules::Severity;
use conditions::{condition_finding, condition_meaning, false_condition};
use read::*;

mod conditions;
mod health;
mod held;
mod lifecycle;
mod nodes;
mod provisioning;
mod quota;
mod read;
pub use self::read::{condition, policy_block};
mod scaling;

/// What a failing condition of this type means, in the troubleshooting guide's words.
pub fn condition_meaning_of(kind: &str) -> &'static str {
    condition_meaning(kind)
}

/// One finding of the doctor about one pool.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diagnosis {
    /// Stable id, `provisioning.condition`, `vip.in-use`, …
    pub id: &'static str,
    pub severity: Severity,
    /// The guide's section.
    pub symptom: &'static str,
    /// One line: what is wrong.
    pub summary: String,
    /// Paths and the values found there.
    pub evidence: Vec<(String, String)>,
    /// The likely cause, in the guide's terms (mostly the guide's own fixed sentences: a pool
    /// with findings holds them without copying).
    pub cause: Cow<'static, str>,
    /// What to do next: commands with the names filled in, or console keys.
    pub next: Vec<String>,
    /// The fix the console can run for it (through the fixes' confirmations), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<Fix>,
}

/// Another pool with the same VIP: who it is, since when, and whether it runs (the owner of
/// the address, as far as the hub can tell).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VipPeer {
    /// `namespace/name`.
    pub name: String,
    pub created: Option<DateTime<Utc>>,
    pub running: bool,
}

/// Everything the doctor reads about one pool.
#[derive(Clone, Copy)]
pub struct Picture<'a> {
    pub pool: &'a ComputePool,
    pub evaluation: Option<&'a ComputePoolEvaluation>,
    /// The ScalingPolicy the pool names, if found; `policy_known`: whether policies are read
    /// at all (a missing one is then really missing).
    pub policy: Option<&'a Value>,
    pub policies_known: bool,
    pub profile_bundle: Option<&'a Value>,
    pub profile_bundles_known: bool,
    pub settings: Option<&'a Value>,
    pub settings_known: bool,
    pub computes: &'a [&'a Value],
    pub project: Option<&'a Value>,
    pub tenant: Option<&'a Value>,
    /// Other pools whose VIP is this pool's.
    pub same_vip: &'a [VipPeer],
    /// Events about the pool.
    pub events: &'a [&'a crate::model::Event],
    /// The pool's AIWorkloads, where each stands (read for a pool being deleted).
    pub workloads: &'a crate::fixes::Workloads,
    pub now: DateTime<Utc>,
}

/// The guide's sections, as findings name them (the console's tour has a chapter for each).
pub const PROVISIONING: &str = "Compute Pool Stuck in Provisioning";
pub const VIP: &str = "VIP Already in Use";
pub const GPU: &str = "Insufficient GPU Resources";
pub const SCALING: &str = "Debug Scaling Decisions with ComputePoolEvaluation";
pub const DELETION: &str = "Compute Pool Cannot Be Deleted";
pub const LONGHORN: &str = "Changing Longhorn Replica Count";
pub const AIR_GAPPED: &str = "Node Stuck in Provisioning (Air-Gapped)";
pub const NVIDIA: &str = "GPU Pods Stuck with No NVIDIA Runtime Configured";
/// Not a section of the guide: the reference's status vocabulary (Unhealthy, Unknown,
/// Maintenance Mode) and what explains it.
const HEALTH: &str = "Compute Pool Health";

/// Metrics older than this are stale (the guide: "old timestamps").
pub const STALE_METRICS_MINUTES: i64 = 5;
/// A host Provisioning longer than this is stuck.
pub const STUCK_HOST_MINUTES: i64 = 30;
/// Autoscaling blocked longer than this is a problem (a warning), not a pause to wait out.
pub const BLOCKED_TOO_LONG_MINUTES: i64 = 30;
/// A deletion pending longer than this does not complete (the unblock's threshold).
pub const STUCK_DELETION_MINUTES: i64 = 10;

/// The next instant the findings of this picture may read differently with nothing else
/// changing: a threshold crossed (metrics turning stale, a deletion or a host turning stuck) or,
/// while a finding says an age, the next minute. `None`: only a change of the objects does.
pub fn changes_at(picture: &Picture) -> Option<DateTime<Utc>> {
    let now = picture.now;
    let next_minute = later(now, 1);
    let mut soonest: Option<DateTime<Utc>> = None;
    let mut consider = |since: DateTime<Utc>, threshold_minutes: i64| {
        let crossing = later(since, threshold_minutes);
        let at = if crossing > now {
            crossing
        } else {
            next_minute
        };
        soonest = Some(soonest.map_or(at, |s| s.min(at)));
    };
    if let Some(since) = deletion_time(picture.pool) {
        consider(since, STUCK_DELETION_MINUTES);
        if let Some(clear) = picture.workloads.clear_since() {
            consider(clear, crate::fixes::STUCK_AFTER_MINUTES);
        }
    }
    if let Some(evaluation) = picture.evaluation {
        let status = evaluation.status.get();
        let observed = status.and_then(|s| s.metrics_last_observed_at.get());
        for hosts in observed.into_iter().flatten().filter_map(|(_, h)| h.get()) {
            for at in hosts.iter().filter_map(|(_, at)| text_time(at)) {
                consider(at, STALE_METRICS_MINUTES);
            }
        }
        let scaling = status.and_then(|s| s.pool_scaling_states.get());
        for state in scaling.into_iter().flatten().filter_map(|(_, s)| s.get()) {
            let word = state.state.as_deref();
            if word == Some("Scaling")
                && let Some(started) = text_time(&state.scaling_started_at)
            {
                consider(started, 0);
            }
            // "blocked for 3h" says an age (worked out each minute, so it turns a warning
            // at the threshold too).
            if word == Some("Blocked")
                && let Some(since) = text_time(&state.state_changed_at)
            {
                consider(since, 0);
            }
        }
    }
    // Every host Provisioning now: measured from `now` plus the threshold, each is "stuck".
    let far = later(now, STUCK_HOST_MINUTES);
    for (_, since) in status_of(picture.pool)
        .into_iter()
        .flat_map(|status| status.clusters())
        .flat_map(|cluster| nodes::stuck_hosts(cluster, far))
    {
        consider(since, STUCK_HOST_MINUTES);
    }
    soonest
}

struct Pool<'a> {
    model: &'a ComputePool,
    namespace: &'a str,
    name: &'a str,
}

impl Pool<'_> {
    fn describe(&self) -> String {
        format!(
            "kubectl describe computepool {} --namespace {}",
            quote(self.name),
            quote(self.namespace)
        )
    }

    /// The guide's "Check Palette cluster status" step for this pool.
    fn clusters_command(&self) -> String {
        format!(
            "kubectl get computepool {} --namespace {} --output jsonpath='{{.status.paletteClusterStatuses}}' | jq",
            quote(self.name),
            quote(self.namespace)
        )
    }
}

/// Every finding for one pool, worst first.
pub fn diagnose(picture: &Picture) -> Vec<Diagnosis> {
    let pool = Pool {
        model: picture.pool,
        namespace: picture.pool.namespace().unwrap_or(""),
        name: picture.pool.name(),
    };
    let mut out = Vec::new();
    provisioning::provisioning(&pool, picture, &mut out);
    health::health(&pool, &mut out);
    quota::vip(&pool, picture, &mut out);
    quota::gpu_quota(&pool, picture, &mut out);
    scaling::scaling(&pool, picture, &mut out);
    lifecycle::deletion(&pool, picture, &mut out);
    lifecycle::longhorn(&pool, &mut out);
    nodes::hosts_on_nodes(&pool, picture, &mut out);
    unreadable(&pool, picture, &mut out);
    out.sort_by_key(|d| std::cmp::Reverse(d.severity));
    out
}

fn status<'a>(pool: &Pool<'a>) -> &'a str {
    status_of(pool.model)
        .and_then(|s| s.status.as_deref())
        .unwrap_or("")
}

/// What the doctor could not read: a field the findings need that is there but not of the
/// shape the reference documents. The findings that read it are missing; this says so.
fn unreadable(pool: &Pool, picture: &Picture, out: &mut Vec<Diagnosis>) {
    let problems = unreadable_fields(pool, picture);
    if problems.is_empty() {
        return;
    }
    out.push(Diagnosis {
        id: "unreadable",
        fix: None,
        severity: Severity::Warning,
        symptom: "What the doctor could not read",
        summary: format!(
            "could not read {}: the findings that need it are missing",
            problems
                .iter()
                .map(|(path, _)| path.clone())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        evidence: problems,
        cause: "The object does not have the shape the configuration reference documents.".into(),
        next: vec![format!(
            "kubectl get computepool {} --namespace {} --output yaml",
            quote(pool.name),
            quote(pool.namespace)
        )],
    });
}

/// What a JSON value is, in words.
fn shape(value: &Value) -> &'static str {
    match value {
        Value::Null => "nothing",
        Value::Bool(_) => "a true/false",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}

/// The fields of the pool and its evaluation the findings read that are not the shape the
/// reference documents: each path, and what was found there.
fn unreadable_fields(pool: &Pool, picture: &Picture) -> Vec<(String, String)> {
    let mut problems: Vec<(String, String)> = Vec::new();
    // A field the model could not read as the shape it expects keeps what was written.
    let mut expect = |raw: Option<&Value>, path: &str, list: bool| {
        if let Some(found) = raw {
            problems.push((
                path.to_owned(),
                format!(
                    "{} was expected, found {}",
                    if list { "a list" } else { "a mapping" },
                    shape(found)
                ),
            ));
        }
    };
    let model = pool.model;
    expect(model.status.raw(), "status", false);
    if let Some(status) = status_of(model) {
        expect(status.conditions.raw(), "status.conditions", true);
        expect(
            status.palette_cluster_statuses.raw(),
            "status.paletteClusterStatuses",
            true,
        );
        expect(status.ai_workload_refs.raw(), "status.aiWorkloadRefs", true);
    }
    if let Some(spec) = model.spec() {
        expect(spec.cluster_variant.raw(), "spec.clusterVariant", false);
    }
    if let Some(evaluation) = picture.evaluation {
        if let Some(spec) = evaluation.spec.get() {
            expect(
                spec.pool_evaluations.raw(),
                "evaluation spec.poolEvaluations",
                false,
            );
        }
        if let Some(status) = evaluation.status.get() {
            expect(
                status.pool_scaling_states.raw(),
                "evaluation status.poolScalingStates",
                false,
            );
            expect(
                status.metrics_last_observed_at.raw(),
                "evaluation status.metricsLastObservedAt",
                false,
            );
        }
    }
    if let Some(meta) = model.meta() {
        let at = &meta.deletion_timestamp;
        let unreadable_time = match at {
            Field::Valid(text) => time_of(text.as_str()).is_none(),
            Field::Invalid(_) => true,
            Field::Missing | Field::Null => false,
        };
        if unreadable_time {
            problems.push((
                "metadata.deletionTimestamp".into(),
                format!("a time was expected, found {}", written(at)),
            ));
        }
    }
    problems
}

#[cfg(test)]
mod tests;
