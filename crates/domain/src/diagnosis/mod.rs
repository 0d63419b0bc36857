//! The troubleshooting guide as code: for one pool and what the hub says around it (its
//! evaluation, policy, ProfileBundle, Settings, the namespace's Compute, Project and Tenant,
//! the pools sharing its VIP, its events), what is wrong, the evidence (paths and values), the
//! likely cause as the guide gives it, and the next steps with names filled in.
//!
//! Pure, over JSON values: a field that is missing or of the wrong type is read as absent and,
//! where the guide needs it, said ("could not read …"). Never panics on what the API sends.

use crate::shell::quote;
use std::borrow::Cow;

use super::json::At;
use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;

use super::fixes::Fix;
use super::rules::Severity;
use conditions::{condition_finding, condition_meaning, false_condition};

mod conditions;
mod health;
mod held;
mod lifecycle;
mod nodes;
mod provisioning;
mod quota;
mod scaling;

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
    pub pool: &'a Value,
    pub evaluation: Option<&'a Value>,
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
    pub events: &'a [&'a Value],
    pub now: DateTime<Utc>,
}

const PROVISIONING: &str = "Compute Pool Stuck in Provisioning";
const VIP: &str = "VIP Already in Use";
const GPU: &str = "Insufficient GPU Resources";
const SCALING: &str = "Debug Scaling Decisions with ComputePoolEvaluation";
const DELETION: &str = "Compute Pool Cannot Be Deleted";
const LONGHORN: &str = "Changing Longhorn Replica Count";
const AIR_GAPPED: &str = "Node Stuck in Provisioning (Air-Gapped)";
const NVIDIA: &str = "GPU Pods Stuck with No NVIDIA Runtime Configured";
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

fn text<'v>(value: &'v Value, pointer: &str) -> Option<&'v str> {
    value.at(pointer).and_then(Value::as_str)
}

fn time(value: &Value) -> Option<DateTime<Utc>> {
    value.as_str().and_then(crate::time::parse)
}

/// How long ago, to the minute: a finding's words then stay true for a minute, which is how
/// often the console works time-dependent findings out again ([`changes_at`]).
fn age(now: DateTime<Utc>, then: DateTime<Utc>) -> String {
    crate::words::age(now.signed_duration_since(then))
}

/// `minutes` after `at`; a time the calendar cannot hold (a timestamp from the API near the
/// end of time) stays the latest one.
fn later(at: DateTime<Utc>, minutes: i64) -> DateTime<Utc> {
    at.checked_add_signed(chrono::TimeDelta::minutes(minutes))
        .unwrap_or(DateTime::<Utc>::MAX_UTC)
}

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
    if let Some(since) = picture
        .pool
        .at("/metadata/deletionTimestamp")
        .and_then(time)
    {
        consider(since, STUCK_DELETION_MINUTES);
    }
    if let Some(evaluation) = picture.evaluation {
        let observed = evaluation
            .at("/status/metricsLastObservedAt")
            .and_then(Value::as_object);
        for hosts in observed
            .into_iter()
            .flatten()
            .filter_map(|(_, h)| h.as_object())
        {
            for at in hosts.values().filter_map(time) {
                consider(at, STALE_METRICS_MINUTES);
            }
        }
        let scaling = evaluation
            .at("/status/poolScalingStates")
            .and_then(Value::as_object);
        for state in scaling.into_iter().flatten().map(|(_, s)| s) {
            if state["state"] == "Scaling"
                && let Some(started) = time(&state["scalingStartedAt"])
            {
                consider(started, 0);
            }
            // "blocked for 3h" says an age (worked out each minute, so it turns a warning
            // at the threshold too).
            if state["state"] == "Blocked"
                && let Some(since) = time(&state["stateChangedAt"])
            {
                consider(since, 0);
            }
        }
    }
    // Every host Provisioning now: measured from `now` plus the threshold, each is "stuck".
    let mut stuck = Vec::new();
    let far = later(now, STUCK_HOST_MINUTES);
    nodes::collect_stuck_hosts(picture.pool, far, &mut stuck, 0);
    for (_, since) in stuck {
        consider(since, STUCK_HOST_MINUTES);
    }
    soonest
}

/// A pool's Palette clusters, as its status lists them.
fn clusters(pool: &Value) -> impl Iterator<Item = &Value> {
    pool.at("/status/paletteClusterStatuses")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

fn conditions(object: &Value) -> Vec<&Value> {
    object
        .at("/status/conditions")
        .and_then(Value::as_array)
        .map(|c| c.iter().collect())
        .unwrap_or_default()
}

fn condition<'v>(object: &'v Value, kind: &str) -> Option<&'v Value> {
    conditions(object).into_iter().find(|c| c["type"] == kind)
}

struct Pool<'a> {
    value: &'a Value,
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
        value: picture.pool,
        namespace: text(picture.pool, "/metadata/namespace").unwrap_or(""),
        name: text(picture.pool, "/metadata/name").unwrap_or(""),
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
    text(pool.value, "/status/status").unwrap_or("")
}

/// What the doctor could not read: a field the findings need that is there but not of the
/// shape the reference documents. The findings that read it are missing; this says so.
fn unreadable(pool: &Pool, picture: &Picture, out: &mut Vec<Diagnosis>) {
    let kind = |value: &Value| match value {
        Value::Null => "nothing",
        Value::Bool(_) => "a true/false",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    };
    let mut problems: Vec<(String, String)> = Vec::new();
    let mut expect = |object: &Value, what: &str, path: &str, list: bool| {
        let Some(found) = object.at(path) else {
            return;
        };
        let fits = if list {
            found.is_array()
        } else {
            found.is_object()
        };
        if !fits && !found.is_null() {
            problems.push((
                format!("{what}{}", path.trim_start_matches('/').replace('/', ".")),
                format!(
                    "{} was expected, found {}",
                    if list { "a list" } else { "a mapping" },
                    kind(found)
                ),
            ));
        }
    };
    expect(pool.value, "", "/status", false);
    expect(pool.value, "", "/status/conditions", true);
    expect(pool.value, "", "/status/paletteClusterStatuses", true);
    expect(pool.value, "", "/status/aiWorkloadRefs", true);
    expect(pool.value, "", "/spec/clusterVariant", false);
    if let Some(evaluation) = picture.evaluation {
        expect(evaluation, "evaluation ", "/spec/poolEvaluations", false);
        expect(
            evaluation,
            "evaluation ",
            "/status/poolScalingStates",
            false,
        );
        expect(
            evaluation,
            "evaluation ",
            "/status/metricsLastObservedAt",
            false,
        );
    }
    if let Some(at) = pool.value.at("/metadata/deletionTimestamp")
        && time(at).is_none()
    {
        problems.push((
            "metadata.deletionTimestamp".into(),
            format!("a time was expected, found {at}"),
        ));
    }
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

#[cfg(test)]
mod tests;
