//! The decisions, target against count per resource: held back, a scale-up, a scale-down.

use super::super::*;
use super::worker_pool::WorkerPool;
use crate::field::Num;
use crate::model::evaluation::ResourceEvaluation;
use crate::model::vocabulary::ScalingStateKind;

/// The decisions, target against count per resource: held back at its count, a scale-up
/// decided, a scale-down. Whether a scale-up was decided (a scale-down is never aborted).
pub(super) fn decisions(
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
            && let Some(held) = super::super::held::held_back(
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
