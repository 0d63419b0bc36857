//! What a worker pool's scaling state says, and hosts whose metrics stopped.

use chrono::{DateTime, Utc};

use super::super::*;
use super::worker_pool::WorkerPool;
use crate::model::evaluation::{Deadline, Scaling};
use crate::model::vocabulary::ScalingStateKind;

/// What the worker pool's scaling state says: aborting, scaling (and past its abort
/// deadline, the same deadline the Scaling tab shows), blocked, in cooldown.
pub(super) fn state(
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
pub(super) fn stale_metrics(
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
