//! A pool's conditions as the troubleshooting guide reads them: each type's meaning when it
//! fails, the reasons the guide names as failures, and the finding for a False one.

use std::borrow::Cow;

use super::Diagnosis;
use crate::model::ComputePool;
use crate::model::status::Condition;
use crate::rules::Severity;

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
#[allow(clippy::too_many_arguments)]
pub(super) fn condition_finding(
    id: &'static str,
    symptom: &'static str,
    pool: &ComputePool,
    i: usize,
    condition: &Condition,
    gave_up: bool,
    prefix: &str,
    next: Vec<String>,
) -> Diagnosis {
    let kind = condition.type_.as_deref().unwrap_or("?");
    let reason = condition.reason.as_deref().unwrap_or("");
    let message = condition.message.as_deref().unwrap_or("");
    let (mut severity, mut cause) = false_condition(kind, reason, gave_up);
    if let Some(here) = specific_cause(message) {
        cause = format!("{}. Here {here}.", cause.trim_end_matches('.')).into();
    }
    let mut summary = format!("{prefix}{kind} is False ({reason}): {message}");
    // Evidence is checked against the spec now: a message about an earlier spec is not
    // believed (nor acted on) until the controller has looked again.
    if let Some(why) = stale(pool, condition) {
        severity = Severity::Info;
        summary = format!("stale: {summary}");
        cause = format!(
            "This message was written before the spec changed ({why}): wait for the next \
             reconcile before acting on it."
        )
        .into();
    }
    Diagnosis {
        id,
        fix: None,
        severity,
        symptom,
        summary,
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

/// What a failure message itself names as the cause, in words that point at the guide's
/// section for it, when it names one.
fn specific_cause(message: &str) -> Option<String> {
    let lower = message.to_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| lower.contains(w));
    let addresses = super::quota::addresses_in(message);
    if has(&["vip"]) || (has(&["in use"]) && !addresses.is_empty()) {
        return Some(match addresses.first() {
            Some(address) => format!(
                "the message names the VIP {address}: another cluster or device answers for it (VIP Already in Use)"
            ),
            None => "the message names the VIP: another cluster or device answers for it (VIP Already in Use)".to_owned(),
        });
    }
    if has(&[
        "quota",
        "gpu limit",
        "exceeds the project",
        "exceeds the tenant",
        "insufficient gpu",
    ]) {
        return Some(
            "the message names a GPU cap: the request would pass a Project or Tenant limit (Insufficient GPU Resources)"
                .to_owned(),
        );
    }
    if has(&[
        "no available",
        "no machines",
        "no edge host",
        "not enough hosts",
    ]) {
        return Some(
            "Compute has no available edge host that meets a requirement (the hosts findings name which)"
                .to_owned(),
        );
    }
    if has(&["profilebundle", "profile bundle"]) {
        return Some("the ProfileBundle is missing or not Ready".to_owned());
    }
    if has(&[
        "credential",
        "unauthorized",
        "api key",
        "settingsref",
        "settings not found",
    ]) {
        return Some("the Settings' Palette credentials are missing or refused".to_owned());
    }
    None
}

/// Why a condition's message no longer describes the pool, if it does not: written for an
/// earlier generation of the spec (`observedGeneration`), or naming a VIP the spec no longer
/// has.
pub(super) fn stale(pool: &ComputePool, condition: &Condition) -> Option<String> {
    let generation = pool.meta().and_then(|m| m.generation.get()).copied();
    if let (Some(now), Some(&then)) = (generation, condition.observed_generation.get())
        && then < now
    {
        return Some(format!(
            "it is for generation {then}, and the spec is at generation {now}"
        ));
    }
    let message = condition.message.as_deref()?;
    let vip = pool.vip()?;
    let named = super::quota::addresses_in(message);
    let lower = message.to_lowercase();
    let about_vip = lower.contains("vip") || lower.contains("in use");
    let ours: Option<std::net::IpAddr> = vip.parse().ok();
    match (named.first(), ours) {
        (Some(address), Some(ours)) if about_vip && !named.contains(&ours) => {
            Some(format!("it names {address}, and the VIP is now {vip}"))
        }
        _ => None,
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
