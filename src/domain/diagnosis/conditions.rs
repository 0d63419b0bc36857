//! A pool's conditions as the troubleshooting guide reads them: each type's meaning when it
//! fails, the reasons the guide names as failures, and the finding for a False one.

use std::borrow::Cow;

use serde_json::Value;

use super::Diagnosis;
use crate::domain::rules::Severity;

/// The reasons the troubleshooting guide gives for a condition that failed ("Validated /
/// ValidationFailed", ...). Another reason on a False condition is a phase still under way.
fn failure_reasons(kind: &str) -> &'static [&'static str] {
    match kind {
        "Validated" => &["ValidationFailed"],
        "ClusterDeployed" => &["ClusterDeploymentFailed"],
        "AdminKubeconfigAcquired" => &["KubeconfigFailed"],
        "SpokeCreated" => &["SpokeCreateFailed"],
        "ManagedClusterReady" => &["ManagedClusterNotReady"],
        "MachinePoolsReady" => &[
            "PoolProvisioningTimedOut",
            "PoolHostsUnhealthy",
            "PoolProvisioningFailed",
        ],
        "EnvironmentCreated" => &["EnvironmentFailed"],
        _ => &[],
    }
}

/// A False condition read as the guide reads it: failed (an error, with the guide's meaning)
/// when its reason is one the guide names as a failure, when the guide names none for it, or
/// when what it belongs to has already failed (`gave_up`); otherwise a phase still under way
/// (a warning whose cause says so, and what it means if it stays).
pub(super) fn false_condition(
    kind: &str,
    reason: &str,
    gave_up: bool,
) -> (Severity, Cow<'static, str>) {
    let known = failure_reasons(kind);
    if gave_up || known.is_empty() || known.contains(&reason) {
        return (Severity::Error, condition_meaning(kind).into());
    }
    (
        Severity::Warning,
        format!(
            "{kind} has not completed: {reason} is not among the failure reasons the \
             troubleshooting guide lists ({}). If it stays False: {}",
            known.join(", "),
            condition_meaning(kind)
        )
        .into(),
    )
}

/// The finding for a pool's False condition at `status.conditions[i]`: read as
/// [`false_condition`] reads it, its summary after `prefix`, its type, reason and message as
/// evidence.
pub(super) fn condition_finding(
    id: &'static str,
    symptom: &'static str,
    i: usize,
    condition: &Value,
    gave_up: bool,
    prefix: &str,
    next: Vec<String>,
) -> Diagnosis {
    let kind = condition["type"].as_str().unwrap_or("?");
    let reason = condition["reason"].as_str().unwrap_or("");
    let message = condition["message"].as_str().unwrap_or("");
    let (severity, cause) = false_condition(kind, reason, gave_up);
    Diagnosis {
        id,
        fix: None,
        severity,
        symptom,
        summary: format!("{prefix}{kind} is False ({reason}): {message}"),
        evidence: vec![
            (format!("status.conditions[{i}].type"), kind.to_owned()),
            (format!("status.conditions[{i}].reason"), reason.to_owned()),
            (
                format!("status.conditions[{i}].message"),
                message.to_owned(),
            ),
        ],
        cause,
        next,
    }
}

/// The guide's meaning of a failing condition type.
pub(super) fn condition_meaning(kind: &str) -> &'static str {
    match kind {
        "Validated" => {
            "ComputePool spec validation failed. Check that referenced resources (ProfileBundle, Settings) exist and are Ready."
        }
        "ClusterDeployed" => {
            "Palette cluster deployment failed. Check Settings credentials and available edge hosts."
        }
        "AdminKubeconfigAcquired" => {
            "Failed to retrieve the admin kubeconfig from the Palette cluster."
        }
        "SpokeCreated" => "Failed to create the Spoke resource for the cluster.",
        "ManagedClusterReady" => {
            "The OCM ManagedCluster representing the Palette cluster is not ready."
        }
        "HelmReleaseCreated" | "HelmReleaseReady" => {
            "The Helm release that installs PaletteAI services on the spoke cluster failed to be created or become ready."
        }
        "MachinePoolsReady" => {
            "One or more machine pool hosts failed to provision or become healthy."
        }
        "EnvironmentCreated" => "The Environment failed to be created or become ready.",
        _ => "A reconciliation phase of the Compute Pool failed.",
    }
}
