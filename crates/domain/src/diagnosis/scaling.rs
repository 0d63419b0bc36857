//! Scaling decisions, row by row of the guide's ComputePoolEvaluation table: no evaluation
//! and why, decisions (target against count), the execution state, stale metrics per host.

use crate::shell::quote;
use chrono::{DateTime, Utc};

use super::*;
use crate::field::Num;
use crate::model::evaluation::{Deadline, ResourceEvaluation, Scaling};
use crate::model::vocabulary::ScalingStateKind;

/// Where the pool names its ScalingPolicy: the dedicated variant's reference, else the
/// shared one's (as `scaling_policy_name` reads them).
fn policy_path(pool: &ComputePool) -> &'static str {
    let dedicated = pool
        .spec()
        .and_then(|s| s.cluster_variant.get())
        .and_then(|v| v.dedicated.get())
        .and_then(|d| d.scaling_policy_ref.get())
        .is_some_and(|r| r.name.get().is_some());
    if dedicated {
        "spec.clusterVariant.dedicated.scalingPolicyRef.name"
    } else {
        "spec.clusterVariant.shared.scalingPolicyRef.name"
    }
}

pub(super) fn scaling(pool: &Pool, picture: &Picture, out: &mut Vec<Diagnosis>) {
    let Some(policy_name) = pool.model.scaling_policy_name() else {
        return;
    };
    let Some(evaluation) = picture.evaluation else {
        out.push(no_evaluation(pool, picture, policy_name));
        return;
    };
    let cpe = format!(
        "kubectl get computepoolevaluation {} --namespace {} --output yaml",
        quote(pool.name),
        quote(pool.namespace)
    );
    let evaluations = evaluation.spec.get().and_then(|s| s.pool_evaluations.get());
    for (key, entry) in evaluations.into_iter().flatten() {
        let key = key.as_str();
        let scaling = evaluation.scaling_of(key);
        let worker_pool = WorkerPool {
            key,
            // The key as a path writes it (a key from the cluster cannot break the path).
            keyed: crate::path::bracketed(key),
            cpe: &cpe,
            details: scaling
                .as_ref()
                .and_then(|s| s.state.details.as_deref())
                .unwrap_or(""),
        };
        let kind = scaling.as_ref().map(|s| &s.kind);
        // An entry that is not a mapping holds no decision; its state and metrics still count.
        let up = decisions(&worker_pool, entry.get(), kind, picture, evaluation, out);
        if let Some(scaling) = &scaling {
            state(&worker_pool, scaling, up, picture, evaluation, out);
        }
        stale_metrics(&worker_pool, picture, evaluation, out);
    }
}

/// One worker pool's entry of the evaluation, as its findings name it.
struct WorkerPool<'a> {
    key: &'a str,
    keyed: String,
    /// The command that shows the evaluation.
    cpe: &'a str,
    /// The state's details, as the controller wrote them.
    details: &'a str,
}

impl WorkerPool<'_> {
    fn finding(
        &self,
        id: &'static str,
        severity: Severity,
        summary: String,
        evidence: Vec<(String, String)>,
        cause: Cow<'static, str>,
    ) -> Diagnosis {
        Diagnosis {
            id,
            fix: None,
            severity,
            symptom: SCALING,
            summary: format!("{}: {summary}", self.key),
            evidence,
            cause,
            next: vec![self.cpe.to_owned()],
        }
    }
}

/// No evaluation for a pool that names a policy: the policy missing, Prometheus not available
/// to it, or the first metrics not in yet.
fn no_evaluation(pool: &Pool, picture: &Picture, policy_name: &str) -> Diagnosis {
    let available = conditions(pool.model)
        .map(|(_, c)| c)
        .find(|c| c.kind() == "ComputePoolEvaluationAvailable");
    let reason = available.and_then(|c| c.reason.as_deref()).unwrap_or("");
    let (summary, cause) = if reason == "ScalingPolicyNotFound"
        || (picture.policy.is_none() && picture.policies_known)
    {
        (
            format!("no ComputePoolEvaluation: ScalingPolicy {policy_name} does not exist"),
            "The scalingPolicyRef points to a policy that does not exist.",
        )
    } else if picture
        .policy
        .and_then(|p| condition(p, "PrometheusAvailable"))
        .is_some_and(|c| c["status"] != "True")
    {
        (
            format!(
                "no ComputePoolEvaluation: Prometheus is not available to ScalingPolicy {policy_name}"
            ),
            "Without metrics the Scaling Policy controller cannot evaluate the pool.",
        )
    } else {
        (
            "no ComputePoolEvaluation yet (waiting for the first metrics)".to_owned(),
            "The evaluation is created once utilization metrics for the pool's hosts arrive from Prometheus.",
        )
    };
    Diagnosis {
        id: "scaling.no-evaluation",
        fix: None,
        severity: Severity::Warning,
        symptom: SCALING,
        summary,
        evidence: vec![
            (policy_path(pool.model).to_owned(), policy_name.to_owned()),
            (
                "status.conditions[ComputePoolEvaluationAvailable].reason".into(),
                if reason.is_empty() {
                    "absent".into()
                } else {
                    reason.to_owned()
                },
            ),
        ],
        cause: Cow::Borrowed(cause),
        next: vec![
            pool.describe(),
            format!(
                "kubectl get scalingpolicy {} --namespace {}",
                quote(policy_name),
                quote(pool.namespace)
            ),
        ],
    }
}

/// The decisions, target against count per resource: held back at its count, a scale-up
/// decided, a scale-down. Whether a scale-up was decided (a scale-down is never aborted).
fn decisions(
    worker_pool: &WorkerPool,
    entry: Option<&crate::model::evaluation::PoolEvaluation>,
    state: Option<&ScalingStateKind>,
    picture: &Picture,
    evaluation: &ComputePoolEvaluation,
    out: &mut Vec<Diagnosis>,
) -> bool {
    let keyed = &worker_pool.keyed;
    // Each resource: its name in words, and where it is in the evaluation (the CRD's keys:
    // `cpu`, `gpu['<variant>']`).
    let mut resources: Vec<(&str, String, &ResourceEvaluation)> = Vec::new();
    if let Some(cpu) = entry.and_then(|e| e.cpu.get()) {
        resources.push(("CPU", format!("spec.poolEvaluations{keyed}.cpu"), cpu));
    }
    for (variant, gpu) in entry.and_then(|e| e.gpu.get()).into_iter().flatten() {
        if let Some(gpu) = gpu.get() {
            let at = format!(
                "spec.poolEvaluations{keyed}.gpu{}",
                crate::path::bracketed(variant)
            );
            resources.push((variant.as_str(), at, gpu));
        }
    }
    let mut up = false;
    for (resource, at, numbers) in resources {
        let (Some(count), Some(target)) =
            (numbers.count.get().copied(), numbers.target.get().copied())
        else {
            continue;
        };
        up |= target > count;
        // Cooldown pauses decisions and Blocked holds them: "not yet" would be beside the point.
        let decides = !matches!(
            state,
            Some(ScalingStateKind::Cooldown | ScalingStateKind::Blocked)
        );
        if target == count
            && decides
            && let Some(held) = super::held::held_back(
                resource,
                numbers.utilization.get().map(Num::value),
                count,
                picture.policy,
                evaluation,
            )
        {
            out.push(worker_pool.finding(
                held.id,
                held.severity,
                format!("{resource} {}", held.summary),
                vec![
                    (format!("{at}.utilization"), written(&numbers.utilization)),
                    (format!("{at}.count"), count.to_string()),
                    (format!("{at}.target"), target.to_string()),
                ],
                held.cause,
            ));
        }
        if target > count && state == Some(&ScalingStateKind::Idle) {
            out.push(worker_pool.finding(
                "scaling.scale-up-decided",
                Severity::Info,
                format!("{resource} target {target} above count {count}: a scale-up is decided"),
                vec![
                    (format!("{at}.count"), count.to_string()),
                    (format!("{at}.target"), target.to_string()),
                ],
                "Utilization crossed the scale-up threshold for the full duration.".into(),
            ));
        }
        if target < count {
            out.push(scale_down(worker_pool, entry, resource, count, target));
        }
    }
    up
}

/// A scale-down decided: which host goes first (the highest wasteScore).
fn scale_down(
    worker_pool: &WorkerPool,
    entry: Option<&crate::model::evaluation::PoolEvaluation>,
    resource: &str,
    count: i64,
    target: i64,
) -> Diagnosis {
    let wastes: Vec<(String, i64)> = entry
        .and_then(|e| e.node_wastes.get())
        .into_iter()
        .flatten()
        .filter_map(Field::get)
        .filter_map(|w| {
            Some((
                w.host.as_deref()?.to_owned(),
                w.waste_score.get()?.0.as_i64()?,
            ))
        })
        .collect();
    let first = wastes.iter().max_by_key(|(_, score)| *score);
    let keyed = &worker_pool.keyed;
    worker_pool.finding(
        "scaling.scale-down",
        Severity::Info,
        format!(
            "{resource} target {target} below count {count}: a scale-down{}",
            first
                .map(|(host, score)| format!("; {host} goes first (highest wasteScore {score})"))
                .unwrap_or_default()
        ),
        wastes
            .iter()
            .map(|(host, score)| {
                (
                    format!(
                        "spec.poolEvaluations{keyed}.nodeWastes{}.wasteScore",
                        crate::path::bracketed(host)
                    ),
                    score.to_string(),
                )
            })
            .collect(),
        "The host with the highest wasteScore — the most idle capacity, unused GPUs weighed most — is removed first.".into(),
    )
}

/// What the worker pool's scaling state says: aborting, scaling (and past its abort
/// deadline, the same deadline the Scaling tab shows), blocked, in cooldown.
fn state(
    worker_pool: &WorkerPool,
    scaling: &Scaling,
    up: bool,
    picture: &Picture,
    evaluation: &ComputePoolEvaluation,
    out: &mut Vec<Diagnosis>,
) {
    let (keyed, details) = (&worker_pool.keyed, worker_pool.details);
    let details_at = || {
        (
            format!("status.poolScalingStates{keyed}.details"),
            details.to_owned(),
        )
    };
    match scaling.kind {
        ScalingStateKind::Aborting => out.push(worker_pool.finding(
            "scaling.aborting",
            Severity::Warning,
            format!("a scale-up is being aborted: {details}"),
            vec![(format!("status.poolScalingStates{keyed}.state"), "Aborting".into())],
            "A scale-up exceeded abortDuration: pending hosts that never reached Healthy are removed, hosts that provisioned are kept.".into(),
        )),
        ScalingStateKind::Scaling => {
            let started = text_time(&scaling.state.scaling_started_at);
            if let (Some(started), Some(Deadline::AbortAt(abort_at))) =
                (started, evaluation.deadline_of(scaling))
                && up
                && picture.now > abort_at
            {
                out.push(stuck(worker_pool, started, picture, evaluation));
            }
            out.push(worker_pool.finding(
                "scaling.in-progress",
                Severity::Info,
                format!(
                    "scaling{}: {details}",
                    started.map(|t| format!(" for {}", age(picture.now, t))).unwrap_or_default()
                ),
                vec![details_at()],
                "A scale-up is aborted after abortDuration, keeping the hosts that provisioned; a scale-down is never aborted and continues until all removals complete.".into(),
            ));
        }
        ScalingStateKind::Blocked => {
            let since = text_time(&scaling.state.state_changed_at);
            // The guide calls it temporary: blocked for longer than an operation takes is a
            // problem to look at, not a state to wait out.
            let long = since.is_some_and(|t| {
                picture.now.signed_duration_since(t).num_minutes() >= BLOCKED_TOO_LONG_MINUTES
            });
            let mut blocked = worker_pool.finding(
                "scaling.blocked",
                if long { Severity::Warning } else { Severity::Info },
                format!(
                    "autoscaling blocked{}: {details}",
                    since.map(|t| format!(" for {}", age(picture.now, t))).unwrap_or_default()
                ),
                vec![
                    (format!("status.poolScalingStates{keyed}.state"), "Blocked".into()),
                    details_at(),
                ],
                "Autoscaling is temporarily blocked by another operation in progress on the Compute Pool.".into(),
            );
            if long {
                blocked.cause = format!("Autoscaling is blocked by another operation in progress on the Compute Pool, which the guide calls temporary; {BLOCKED_TOO_LONG_MINUTES} minutes and more is longer than one should take: find what is still running on the pool.").into();
            }
            out.push(blocked);
        }
        ScalingStateKind::Cooldown => out.push(worker_pool.finding(
            "scaling.cooldown",
            Severity::Info,
            format!("in cooldown, no scaling decision until it ends: {details}"),
            vec![details_at()],
            "Cooldown pauses decisions after a scaling operation, an abort, a manual change, or the first evaluation.".into(),
        )),
        ScalingStateKind::Idle | ScalingStateKind::Other(_) => {}
    }
}

/// A scale-up running past its abort deadline: the controller is not acting.
fn stuck(
    worker_pool: &WorkerPool,
    started: DateTime<Utc>,
    picture: &Picture,
    evaluation: &ComputePoolEvaluation,
) -> Diagnosis {
    let abort_duration = evaluation
        .spec
        .get()
        .map_or(&Field::Missing, |s| &s.abort_duration);
    let mut stuck = worker_pool.finding(
        "scaling.stuck",
        Severity::Warning,
        format!(
            "a scale-up has run for {}, past its abortDuration: it should have been aborted: {}",
            age(picture.now, started),
            worker_pool.details
        ),
        vec![
            (
                format!("status.poolScalingStates{}.scalingStartedAt", worker_pool.keyed),
                started.to_rfc3339(),
            ),
            ("spec.abortDuration".into(), written(abort_duration)),
        ],
        "A scale-up is aborted after abortDuration (pending hosts that never reached Healthy removed, the others kept); one running past it means the controller is not acting.".into(),
    );
    stuck.next.push(
        "kubectl logs --namespace mural-system --selector controller.spectrocloud.com/name=hue-controllers --tail=100".into(),
    );
    stuck
}

/// Hosts whose metrics stopped arriving.
fn stale_metrics(
    worker_pool: &WorkerPool,
    picture: &Picture,
    evaluation: &ComputePoolEvaluation,
    out: &mut Vec<Diagnosis>,
) {
    let observed = evaluation
        .status
        .get()
        .and_then(|s| s.metrics_last_observed_at.get())
        .and_then(|m| m.get(worker_pool.key))
        .and_then(Field::get);
    let stale: Vec<(String, DateTime<Utc>)> = observed
        .into_iter()
        .flatten()
        .filter_map(|(host, at)| Some((host.as_str().to_owned(), text_time(at)?)))
        .filter(|(_, at)| {
            picture.now.signed_duration_since(*at).num_minutes() >= STALE_METRICS_MINUTES
        })
        .collect();
    if stale.is_empty() {
        return;
    }
    let mut finding = worker_pool.finding(
        "scaling.stale-metrics",
        Severity::Warning,
        format!(
            "no metrics from {}",
            stale
                .iter()
                .map(|(host, at)| format!("{host} for {}", age(picture.now, *at)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        stale
            .iter()
            .map(|(host, at)| {
                (
                    format!(
                        "status.metricsLastObservedAt{}{}",
                        worker_pool.keyed,
                        crate::path::bracketed(host)
                    ),
                    at.to_rfc3339(),
                )
            })
            .collect(),
        "Stale timestamps mean those hosts are not reporting metrics: scaling reacts slowly or not at all.".into(),
    );
    finding.next = vec![
        "verify the Prometheus agent on those hosts (Configure Prometheus Agent Monitoring)".into(),
    ];
    out.push(finding);
}
