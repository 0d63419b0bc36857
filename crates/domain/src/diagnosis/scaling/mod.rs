//! Scaling decisions, row by row of the guide's ComputePoolEvaluation table: no evaluation
//! and why, decisions (target against count), the execution state, stale metrics per host.

use crate::shell::quote;

use super::*;
use decisions::decisions;
use state::{stale_metrics, state};
use worker_pool::WorkerPool;

mod decisions;
mod state;
mod worker_pool;

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
    let show_evaluation = format!(
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
            show_evaluation: &show_evaluation,
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
