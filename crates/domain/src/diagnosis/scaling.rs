//! Scaling decisions, row by row of the guide's ComputePoolEvaluation table: no evaluation
//! and why, decisions (target against count), the execution state, stale metrics per host.

use crate::shell::quote;
use chrono::{DateTime, Utc};

use super::*;
use crate::field::Num;
use crate::model::evaluation::ResourceEvaluation;

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
    let reference = pool.model.scaling_policy_name();
    let Some(policy_name) = reference else {
        return;
    };
    let describe = pool.describe();
    let Some(evaluation) = picture.evaluation else {
        let available = conditions(pool.model)
            .map(|(_, c)| c)
            .find(|c| c.kind() == "ComputePoolEvaluationAvailable");
        let reason = available.and_then(|c| c.reason.as_deref()).unwrap_or("");
        let (summary, cause) = if reason == "ScalingPolicyNotFound"
            || (picture.policy.is_none() && picture.policies_known)
        {
            (
                format!("no ComputePoolEvaluation: ScalingPolicy {policy_name} does not exist"),
                Cow::Borrowed("The scalingPolicyRef points to a policy that does not exist."),
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
                Cow::Borrowed(
                    "Without metrics the Scaling Policy controller cannot evaluate the pool.",
                ),
            )
        } else {
            (
                "no ComputePoolEvaluation yet (waiting for the first metrics)".to_owned(),
                Cow::Borrowed(
                    "The evaluation is created once utilization metrics for the pool's hosts arrive from Prometheus.",
                ),
            )
        };
        out.push(Diagnosis {
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
            cause,
            next: vec![
                describe,
                format!(
                    "kubectl get scalingpolicy {} --namespace {}",
                    quote(policy_name),
                    quote(pool.namespace)
                ),
            ],
        });
        return;
    };
    let cpe = format!(
        "kubectl get computepoolevaluation {} --namespace {} --output yaml",
        quote(pool.name),
        quote(pool.namespace)
    );
    let spec = evaluation.spec.get();
    let evaluations = spec.and_then(|s| s.pool_evaluations.get());
    let states = evaluation
        .status
        .get()
        .and_then(|s| s.pool_scaling_states.get());
    let abort_duration = spec.map_or(&Field::Missing, |s| &s.abort_duration);
    for (key, entry) in evaluations.into_iter().flatten() {
        let key = key.as_str();
        // The key as a path writes it (a key from the cluster cannot break the path).
        let keyed = crate::path::bracketed(key);
        // An entry that is not a mapping holds no decision; its state and metrics still count.
        let entry = entry.get();
        let state = states.and_then(|s| s.get(key)).and_then(Field::get);
        let state_name = state.and_then(|s| s.state.as_deref()).unwrap_or("");
        let details = state.and_then(|s| s.details.as_deref()).unwrap_or("");
        // Decisions: target against count, per resource: its name in words, and where it is
        // in the evaluation (the CRD's keys: `cpu`, `gpu['<variant>']`).
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
        // Whether a scale-up was decided for this worker pool (a scale-down is never aborted).
        let mut up = false;
        for (resource, at, numbers) in resources {
            let count = numbers.count.get().copied();
            let target = numbers.target.get().copied();
            let (Some(count), Some(target)) = (count, target) else {
                continue;
            };
            up |= target > count;
            // Cooldown pauses decisions and Blocked holds them: "not yet" would be beside the point.
            if target == count
                && !matches!(state_name, "Cooldown" | "Blocked")
                && let Some(held) = super::held::held_back(
                    resource,
                    numbers.utilization.get().map(Num::value),
                    count,
                    picture.policy,
                    evaluation,
                )
            {
                out.push(Diagnosis {
                    id: held.id,
                    fix: None,
                    severity: held.severity,
                    symptom: SCALING,
                    summary: format!("{key}: {resource} {}", held.summary),
                    evidence: vec![
                        (format!("{at}.utilization"), written(&numbers.utilization)),
                        (format!("{at}.count"), count.to_string()),
                        (format!("{at}.target"), target.to_string()),
                    ],
                    cause: held.cause,
                    next: vec![cpe.clone()],
                });
            }
            if target > count && state_name == "Idle" {
                out.push(Diagnosis {
                    id: "scaling.scale-up-decided",
                    fix: None,
                    severity: Severity::Info,
                    symptom: SCALING,
                    summary: format!("{key}: {resource} target {target} above count {count}: a scale-up is decided"),
                    evidence: vec![
                        (format!("{at}.count"), count.to_string()),
                        (format!("{at}.target"), target.to_string()),
                    ],
                    cause: "Utilization crossed the scale-up threshold for the full duration.".into(),
                    next: vec![cpe.clone()],
                });
            }
            if target < count {
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
                out.push(Diagnosis {
                    id: "scaling.scale-down",
                    fix: None,
                    severity: Severity::Info,
                    symptom: SCALING,
                    summary: format!(
                        "{key}: {resource} target {target} below count {count}: a scale-down{}",
                        first
                            .map(|(host, score)| format!("; {host} goes first (highest wasteScore {score})"))
                            .unwrap_or_default()
                    ),
                    evidence: wastes
                        .iter()
                        .map(|(host, score)| (format!("spec.poolEvaluations{keyed}.nodeWastes{}.wasteScore", crate::path::bracketed(host)), score.to_string()))
                        .collect(),
                    cause: "The host with the highest wasteScore — the most idle capacity, unused GPUs weighed most — is removed first.".into(),
                    next: vec![cpe.clone()],
                });
            }
        }
        match state_name {
            "Aborting" => out.push(Diagnosis {
                id: "scaling.aborting",
                fix: None,
                severity: Severity::Warning,
                symptom: SCALING,
                summary: format!("{key}: a scale-up is being aborted: {details}"),
                evidence: vec![(format!("status.poolScalingStates{keyed}.state"), "Aborting".into())],
                cause: "A scale-up exceeded abortDuration: pending hosts that never reached Healthy are removed, hosts that provisioned are kept.".into(),
                next: vec![cpe.clone()],
            }),
            "Scaling" => {
                let started = state.and_then(|s| text_time(&s.scaling_started_at));
                let abort = abort_duration
                    .as_deref()
                    .or_else(|| picture.policy.and_then(|p| p["spec"]["abortDuration"].as_str()))
                    .and_then(|d| crate::duration::parse(d).ok())
                    .and_then(|d| chrono::TimeDelta::from_std(d).ok());
                if let (Some(started), Some(abort)) = (started, abort)
                    && up
                    && picture.now.signed_duration_since(started) > abort
                {
                    out.push(Diagnosis {
                        id: "scaling.stuck",
                        fix: None,
                        severity: Severity::Warning,
                        symptom: SCALING,
                        summary: format!(
                            "{key}: a scale-up has run for {}, past its abortDuration: it should have been aborted: {details}",
                            age(picture.now, started)
                        ),
                        evidence: vec![
                            (format!("status.poolScalingStates{keyed}.scalingStartedAt"), started.to_rfc3339()),
                            ("spec.abortDuration".into(), written(abort_duration)),
                        ],
                        cause: "A scale-up is aborted after abortDuration (pending hosts that never reached Healthy removed, the others kept); one running past it means the controller is not acting.".into(),
                        next: vec![
                            cpe.clone(),
                            "kubectl logs --namespace mural-system --selector controller.spectrocloud.com/name=hue-controllers --tail=100".into(),
                        ],
                    });
                }
                out.push(Diagnosis {
                    id: "scaling.in-progress",
                    fix: None,
                    severity: Severity::Info,
                    symptom: SCALING,
                    summary: format!(
                        "{key}: scaling{}: {details}",
                        started.map(|t| format!(" for {}", age(picture.now, t))).unwrap_or_default()
                    ),
                    evidence: vec![(format!("status.poolScalingStates{keyed}.details"), details.to_owned())],
                    cause: "A scale-up is aborted after abortDuration, keeping the hosts that provisioned; a scale-down is never aborted and continues until all removals complete.".into(),
                    next: vec![cpe.clone()],
                });
            }
            "Blocked" => {
                let since = state.and_then(|s| text_time(&s.state_changed_at));
                // The guide calls it temporary: blocked for longer than an operation takes is
                // a problem to look at, not a state to wait out.
                let long = since.is_some_and(|t| {
                    picture.now.signed_duration_since(t).num_minutes() >= BLOCKED_TOO_LONG_MINUTES
                });
                out.push(Diagnosis {
                    id: "scaling.blocked",
                    fix: None,
                    severity: if long { Severity::Warning } else { Severity::Info },
                    symptom: SCALING,
                    summary: format!(
                        "{key}: autoscaling blocked{}: {details}",
                        since.map(|t| format!(" for {}", age(picture.now, t))).unwrap_or_default()
                    ),
                    evidence: vec![
                        (format!("status.poolScalingStates{keyed}.state"), "Blocked".into()),
                        (format!("status.poolScalingStates{keyed}.details"), details.to_owned()),
                    ],
                    cause: if long {
                        format!("Autoscaling is blocked by another operation in progress on the Compute Pool, which the guide calls temporary; {BLOCKED_TOO_LONG_MINUTES} minutes and more is longer than one should take: find what is still running on the pool.").into()
                    } else {
                        "Autoscaling is temporarily blocked by another operation in progress on the Compute Pool.".into()
                    },
                    next: vec![cpe.clone()],
                });
            }
            "Cooldown" => out.push(Diagnosis {
                id: "scaling.cooldown",
                fix: None,
                severity: Severity::Info,
                symptom: SCALING,
                summary: format!("{key}: in cooldown, no scaling decision until it ends: {details}"),
                evidence: vec![(format!("status.poolScalingStates{keyed}.details"), details.to_owned())],
                cause: "Cooldown pauses decisions after a scaling operation, an abort, a manual change, or the first evaluation.".into(),
                next: vec![cpe.clone()],
            }),
            _ => {}
        }
        // Stale metrics, host by host.
        let observed = evaluation
            .status
            .get()
            .and_then(|s| s.metrics_last_observed_at.get())
            .and_then(|m| m.get(key))
            .and_then(Field::get);
        let stale: Vec<(String, DateTime<Utc>)> = observed
            .into_iter()
            .flatten()
            .filter_map(|(host, at)| Some((host.as_str().to_owned(), text_time(at)?)))
            .filter(|(_, at)| {
                picture.now.signed_duration_since(*at).num_minutes() >= STALE_METRICS_MINUTES
            })
            .collect();
        if !stale.is_empty() {
            out.push(Diagnosis {
                id: "scaling.stale-metrics",
                fix: None,
                severity: Severity::Warning,
                symptom: SCALING,
                summary: format!(
                    "{key}: no metrics from {}",
                    stale
                        .iter()
                        .map(|(host, at)| format!("{host} for {}", age(picture.now, *at)))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                evidence: stale
                    .iter()
                    .map(|(host, at)| (format!("status.metricsLastObservedAt{keyed}{}", crate::path::bracketed(host)), at.to_rfc3339()))
                    .collect(),
                cause: "Stale timestamps mean those hosts are not reporting metrics: scaling reacts slowly or not at all.".into(),
                next: vec!["verify the Prometheus agent on those hosts (Configure Prometheus Agent Monitoring)".into()],
            });
        }
    }
}
