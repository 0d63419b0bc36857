//! The troubleshooting guide as code: for one pool and what the hub says around it (its
//! evaluation, policy, ProfileBundle, Settings, the namespace's Compute, Project and Tenant,
//! the pools sharing its VIP, its events), what is wrong, the evidence (paths and values), the
//! likely cause as the guide gives it, and the next steps with names filled in.
//!
//! Pure, over JSON values: a field that is missing or of the wrong type is read as absent and,
//! where the guide needs it, said ("could not read …"). Never panics on what the API sends.

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;

use super::hosts;
use super::rules::Severity;

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
    /// The likely cause, in the guide's terms.
    pub cause: String,
    /// What to do next: commands with the names filled in, or console keys.
    pub next: Vec<String>,
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
    /// Other pools (namespace/name) whose VIP is this pool's.
    pub same_vip: &'a [String],
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

/// Metrics older than this are stale (the guide: "old timestamps").
pub const STALE_METRICS_MINUTES: i64 = 5;
/// A host Provisioning longer than this is stuck.
pub const STUCK_HOST_MINUTES: i64 = 30;
/// A deletion pending longer than this does not complete (the unblock's threshold).
pub const STUCK_DELETION_MINUTES: i64 = 10;

fn text<'v>(value: &'v Value, pointer: &str) -> Option<&'v str> {
    value.pointer(pointer).and_then(Value::as_str)
}

fn time(value: &Value) -> Option<DateTime<Utc>> {
    value
        .as_str()
        .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
        .map(|t| t.with_timezone(&Utc))
}

fn age(now: DateTime<Utc>, then: DateTime<Utc>) -> String {
    super::duration::format((now - then).to_std().unwrap_or(std::time::Duration::ZERO))
}

fn conditions(object: &Value) -> Vec<&Value> {
    object
        .pointer("/status/conditions")
        .and_then(Value::as_array)
        .map(|c| c.iter().collect())
        .unwrap_or_default()
}

fn condition<'v>(object: &'v Value, kind: &str) -> Option<&'v Value> {
    conditions(object).into_iter().find(|c| c["type"] == kind)
}

/// The guide's meaning of a failing condition type.
fn condition_meaning(kind: &str) -> &'static str {
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

struct Pool<'a> {
    value: &'a Value,
    namespace: &'a str,
    name: &'a str,
}

impl Pool<'_> {
    fn describe(&self) -> String {
        format!(
            "kubectl describe computepool {} --namespace {}",
            self.name, self.namespace
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
    provisioning(&pool, picture, &mut out);
    vip(&pool, picture, &mut out);
    gpu_quota(&pool, picture, &mut out);
    scaling(&pool, picture, &mut out);
    deletion(&pool, picture, &mut out);
    longhorn(&pool, &mut out);
    hosts_on_nodes(&pool, picture, &mut out);
    out.sort_by_key(|d| std::cmp::Reverse(d.severity));
    out
}

fn status<'a>(pool: &Pool<'a>) -> &'a str {
    text(pool.value, "/status/status").unwrap_or("")
}

fn provisioning(pool: &Pool, picture: &Picture, out: &mut Vec<Diagnosis>) {
    if status(pool) != "Provisioning" {
        return;
    }
    let mut any = false;
    for (i, c) in conditions(pool.value).into_iter().enumerate() {
        if c["status"] != "False" {
            continue;
        }
        any = true;
        let kind = c["type"].as_str().unwrap_or("?");
        let reason = c["reason"].as_str().unwrap_or("");
        let message = c["message"].as_str().unwrap_or("");
        out.push(Diagnosis {
            id: "provisioning.condition",
            severity: Severity::Error,
            symptom: PROVISIONING,
            summary: format!("{kind} is False ({reason}): {message}"),
            evidence: vec![
                (format!("status.conditions[{i}].type"), kind.to_owned()),
                (format!("status.conditions[{i}].reason"), reason.to_owned()),
                (
                    format!("status.conditions[{i}].message"),
                    message.to_owned(),
                ),
            ],
            cause: condition_meaning(kind).to_owned(),
            next: vec![pool.describe()],
        });
    }
    // The Palette clusters' own state.
    for (i, cluster) in pool
        .value
        .pointer("/status/paletteClusterStatuses")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        for c in cluster
            .get("conditions")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|c| c["status"] == "False")
        {
            any = true;
            out.push(Diagnosis {
                id: "provisioning.palette-cluster",
                severity: Severity::Error,
                symptom: PROVISIONING,
                summary: format!(
                    "Palette cluster {} is {}: {} {}",
                    cluster["name"].as_str().unwrap_or("?"),
                    cluster["status"].as_str().unwrap_or("?"),
                    c["reason"].as_str().unwrap_or(""),
                    c["message"].as_str().unwrap_or("")
                ),
                evidence: vec![(
                    format!("status.paletteClusterStatuses[{i}].status"),
                    cluster["status"].as_str().unwrap_or("").to_owned(),
                )],
                cause: condition_meaning(c["type"].as_str().unwrap_or("")).to_owned(),
                next: vec![format!(
                    "kubectl get computepool {} --namespace {} --output jsonpath='{{.status.paletteClusterStatuses}}' | jq",
                    pool.name, pool.namespace
                )],
            });
        }
    }
    // The ProfileBundle.
    let bundle = text(pool.value, "/spec/profileBundleRef/name").unwrap_or("");
    let bundle_name = bundle.split('@').next().unwrap_or(bundle);
    let bundle_next = vec![format!(
        "kubectl describe profilebundle {bundle_name} --namespace {}",
        pool.namespace
    )];
    match picture.profile_bundle {
        None if picture.profile_bundles_known && !bundle.is_empty() => out.push(Diagnosis {
            id: "provisioning.profile-bundle-missing",
            severity: Severity::Error,
            symptom: PROVISIONING,
            summary: format!(
                "ProfileBundle {bundle_name} does not exist in {}",
                pool.namespace
            ),
            evidence: vec![("spec.profileBundleRef.name".into(), bundle.to_owned())],
            cause: "The pool's Profile Bundle must exist in its namespace.".into(),
            next: bundle_next,
        }),
        Some(found) if condition(found, "Ready").is_none_or(|c| c["status"] != "True") => {
            let ready = condition(found, "Ready");
            out.push(Diagnosis {
                id: "provisioning.profile-bundle-not-ready",
                severity: Severity::Error,
                symptom: PROVISIONING,
                summary: format!(
                    "ProfileBundle {bundle_name} is not Ready{}",
                    ready
                        .and_then(|c| c["message"].as_str())
                        .map(|m| format!(": {m}"))
                        .unwrap_or_default()
                ),
                evidence: vec![(
                    format!("ProfileBundle {bundle_name} status.conditions[Ready]"),
                    ready
                        .and_then(|c| c["status"].as_str())
                        .unwrap_or("absent")
                        .to_owned(),
                )],
                cause: "Validation waits for the referenced ProfileBundle to be Ready.".into(),
                next: bundle_next,
            });
        }
        _ => {}
    }
    let settings = text(
        pool.value,
        "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/settingsRef/name",
    );
    if let Some(settings) = settings
        && picture.settings.is_none()
        && picture.settings_known
    {
        out.push(Diagnosis {
            id: "provisioning.settings-missing",
            severity: Severity::Error,
            symptom: PROVISIONING,
            summary: format!("Settings {settings} does not exist in {}", pool.namespace),
            evidence: vec![(
                "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.settingsRef.name"
                    .into(),
                settings.to_owned(),
            )],
            cause: "Validation needs the referenced Settings (Palette integration).".into(),
            next: vec![format!(
                "kubectl get settings --namespace {}",
                pool.namespace
            )],
        });
    }
    // Available hosts in Compute, requirement by requirement.
    let offer = hosts::Offer::of(picture.computes.iter().copied());
    let compute_next = format!(
        "kubectl get compute --namespace {} --output yaml | grep --after-context=20 controlPlaneCompute",
        pool.namespace
    );
    if offer.computes > 0 {
        for need in hosts::needs(pool.value) {
            let measure = need.measure(&offer);
            if measure.matching >= need.nodes {
                continue;
            }
            any = true;
            let list = match need.role {
                hosts::Role::ControlPlane => "controlPlaneCompute",
                _ => "workerCompute",
            };
            let detail = if measure.listed == 0 {
                format!("{list} is empty: no hosts are available with the required resources")
            } else if measure.matching > 0 {
                format!(
                    "only {} of the {} asked are available",
                    measure.matching, need.nodes
                )
            } else if measure.unmet.is_empty() {
                "no available host meets every requirement at once".to_owned()
            } else {
                format!("no available host has {}", measure.unmet.join(", "))
            };
            out.push(Diagnosis {
                id: "provisioning.no-hosts",
                severity: Severity::Error,
                symptom: PROVISIONING,
                summary: format!(
                    "{} asks for {} host(s); Compute lists {} available that match: {detail}",
                    need.what, need.nodes, measure.matching
                ),
                evidence: vec![(need.count_path.to_string(), need.nodes.to_string())],
                cause: "No available edge hosts match the resource requirements.".into(),
                next: vec![compute_next.clone()],
            });
        }
    }
    if !any {
        out.push(Diagnosis {
            id: "provisioning.pending",
            severity: Severity::Warning,
            symptom: PROVISIONING,
            summary: "Provisioning with no failing condition yet".into(),
            evidence: vec![("status.status".into(), "Provisioning".into())],
            cause: "The Palette cluster may still be deploying, or network issues may prevent cluster creation.".into(),
            next: vec![pool.describe(), compute_next],
        });
    }
}

fn vip(pool: &Pool, picture: &Picture, out: &mut Vec<Diagnosis>) {
    let vip = text(
        pool.value,
        "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/edge/vip",
    )
    .unwrap_or("");
    if vip.is_empty() {
        return;
    }
    let mentions = |message: &str| {
        message.contains(vip) && message.to_lowercase().contains("use")
            || message.to_lowercase().contains("vip")
    };
    let failed_message = conditions(pool.value)
        .into_iter()
        .filter(|c| c["status"] == "False")
        .filter_map(|c| c["message"].as_str())
        .chain(
            picture
                .events
                .iter()
                .filter(|e| e["type"] == "Warning")
                .filter_map(|e| e["message"].as_str()),
        )
        .find(|m| mentions(m));
    if picture.same_vip.is_empty() && failed_message.is_none() {
        return;
    }
    let mut evidence = vec![(
        "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.edge.vip".to_owned(),
        vip.to_owned(),
    )];
    if !picture.same_vip.is_empty() {
        evidence.push((
            "other pools with this VIP".into(),
            picture.same_vip.join(", "),
        ));
    }
    if let Some(message) = failed_message {
        evidence.push(("failure".into(), message.to_owned()));
    }
    out.push(Diagnosis {
        id: "vip.in-use",
        severity: Severity::Error,
        symptom: VIP,
        summary: if picture.same_vip.is_empty() {
            format!("VIP {vip} is in use elsewhere on the network")
        } else {
            format!("VIP {vip} is also used by {}", picture.same_vip.join(", "))
        },
        evidence,
        cause: "The VIP is assigned to another cluster or device. The VIP cannot be changed after creation: delete the pool and create it again with a free VIP.".into(),
        next: vec![
            format!(
                "kubectl get computepools --namespace {} --output yaml | grep --after-context=1 \"vip:\"",
                pool.namespace
            ),
            "sudo arping -c 3 <new-vip-address>   (no reply: the VIP is free)".into(),
            format!(
                "in pooldeck: e on {} then R recreates it with a new VIP (safe delete, wait for NotFound, create)",
                pool.name
            ),
        ],
    });
}

fn gpu_quota(pool: &Pool, picture: &Picture, out: &mut Vec<Diagnosis>) {
    let quota_message = conditions(pool.value)
        .into_iter()
        .filter(|c| c["status"] == "False")
        .filter_map(|c| c["message"].as_str())
        .chain(picture.events.iter().filter_map(|e| e["message"].as_str()))
        .find(|m| {
            let m = m.to_lowercase();
            m.contains("quota") || (m.contains("gpu") && m.contains("cap"))
        });
    let Some(message) = quota_message else {
        return;
    };
    let mut evidence = vec![("failure".to_owned(), message.to_owned())];
    let mut summary = "GPU quota exceeded".to_owned();
    if let Some(project) = picture.project {
        let mut variants: Vec<String> = Vec::new();
        for worker in pool
            .value
            .pointer("/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/nodePoolRequirements/workerPools")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(v) = text(worker, "/gpu/variant")
                && !variants.iter().any(|known| known == v)
            {
                variants.push(v.to_owned());
            }
        }
        for variant in variants {
            let caps = super::quota::caps(project, picture.tenant, &variant);
            if let Some((cap, limit, left)) = caps.iter().min_by_key(|(_, _, left)| *left) {
                summary = format!(
                    "GPU quota for {variant}: the lowest cap is {cap}: {left} of {limit} left"
                );
            }
            for (cap, limit, left) in caps {
                evidence.push((
                    format!("{cap} ({variant})"),
                    format!("{left} of {limit} left"),
                ));
            }
        }
    }
    let project = text(pool.value, "/metadata/namespace").unwrap_or("");
    let tenant = picture
        .project
        .and_then(|p| text(p, "/spec/tenantRef/name"))
        .unwrap_or("<tenant-name>");
    out.push(Diagnosis {
        id: "gpu.quota",
        severity: Severity::Error,
        symptom: GPU,
        summary,
        evidence,
        cause: "A new GPU request is blocked when it would exceed any cap that applies: the Project's limits, the Tenant's projectLimits for the Project (the lower of the two is the effective per-Project cap), and the Tenant's limits less its tenantReservations.".into(),
        next: vec![
            format!("kubectl get project {project} --namespace {project} --output jsonpath='{{.spec.gpuResources}}'"),
            format!("kubectl get tenant {tenant} --output jsonpath=\"{{.spec.gpuResources.projectLimits['{project}']}}\""),
            "reduce the pool's GPUs, raise the Project's limits within the Tenant's caps, or ask the Tenant admin to raise them".into(),
        ],
    });
}

fn scaling(pool: &Pool, picture: &Picture, out: &mut Vec<Diagnosis>) {
    let reference = pool
        .value
        .pointer("/spec/clusterVariant/dedicated/scalingPolicyRef/name")
        .or_else(|| {
            pool.value
                .pointer("/spec/clusterVariant/shared/scalingPolicyRef/name")
        })
        .and_then(Value::as_str);
    let Some(policy_name) = reference else {
        return;
    };
    let describe = pool.describe();
    let Some(evaluation) = picture.evaluation else {
        let available = condition(pool.value, "ComputePoolEvaluationAvailable");
        let reason = available.and_then(|c| c["reason"].as_str()).unwrap_or("");
        let (summary, cause) = if reason == "ScalingPolicyNotFound"
            || (picture.policy.is_none() && picture.policies_known)
        {
            (
                format!("no ComputePoolEvaluation: ScalingPolicy {policy_name} does not exist"),
                "The scalingPolicyRef points to a policy that does not exist.".to_owned(),
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
                "Without metrics the Scaling Policy controller cannot evaluate the pool."
                    .to_owned(),
            )
        } else {
            (
                "no ComputePoolEvaluation yet (waiting for the first metrics)".to_owned(),
                "The evaluation is created once utilization metrics for the pool's hosts arrive from Prometheus.".to_owned(),
            )
        };
        out.push(Diagnosis {
            id: "scaling.no-evaluation",
            severity: Severity::Warning,
            symptom: SCALING,
            summary,
            evidence: vec![
                ("scalingPolicyRef.name".into(), policy_name.to_owned()),
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
                    "kubectl get scalingpolicy {policy_name} --namespace {}",
                    pool.namespace
                ),
            ],
        });
        return;
    };
    let cpe = format!(
        "kubectl get computepoolevaluation {} --namespace {} --output yaml",
        pool.name, pool.namespace
    );
    let evaluations = evaluation
        .pointer("/spec/poolEvaluations")
        .and_then(Value::as_object);
    let states = evaluation
        .pointer("/status/poolScalingStates")
        .and_then(Value::as_object);
    for (key, entry) in evaluations.into_iter().flatten() {
        let state = states.and_then(|s| s.get(key));
        let state_name = state.and_then(|s| s["state"].as_str()).unwrap_or("");
        let details = state.and_then(|s| s["details"].as_str()).unwrap_or("");
        // Decisions: target against count, per resource.
        let mut resources: Vec<(String, &Value)> = Vec::new();
        if let Some(cpu) = entry.get("cpu") {
            resources.push(("CPU".into(), cpu));
        }
        for (variant, gpu) in entry
            .get("gpu")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            resources.push((variant.clone(), gpu));
        }
        for (resource, numbers) in resources {
            let count = numbers["count"].as_i64();
            let target = numbers["target"].as_i64();
            let (Some(count), Some(target)) = (count, target) else {
                continue;
            };
            if target > count && state_name == "Idle" {
                out.push(Diagnosis {
                    id: "scaling.scale-up-decided",
                    severity: Severity::Info,
                    symptom: SCALING,
                    summary: format!("{key}: {resource} target {target} above count {count}: a scale-up is decided"),
                    evidence: vec![
                        (format!("spec.poolEvaluations['{key}'].{resource}.count"), count.to_string()),
                        (format!("spec.poolEvaluations['{key}'].{resource}.target"), target.to_string()),
                    ],
                    cause: "Utilization crossed the scale-up threshold for the full duration.".into(),
                    next: vec![cpe.clone()],
                });
            }
            if target < count {
                let wastes: Vec<(String, i64)> = entry
                    .get("nodeWastes")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(|w| {
                        Some((w["host"].as_str()?.to_owned(), w["wasteScore"].as_i64()?))
                    })
                    .collect();
                let first = wastes.iter().max_by_key(|(_, score)| *score);
                out.push(Diagnosis {
                    id: "scaling.scale-down",
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
                        .map(|(host, score)| (format!("spec.poolEvaluations['{key}'].nodeWastes[{host}].wasteScore"), score.to_string()))
                        .collect(),
                    cause: "The host with the highest wasteScore — the most idle capacity, unused GPUs weighed most — is removed first.".into(),
                    next: vec![cpe.clone()],
                });
            }
        }
        match state_name {
            "Aborting" => out.push(Diagnosis {
                id: "scaling.aborting",
                severity: Severity::Warning,
                symptom: SCALING,
                summary: format!("{key}: a scale-up is being aborted: {details}"),
                evidence: vec![(format!("status.poolScalingStates['{key}'].state"), "Aborting".into())],
                cause: "A scale-up exceeded abortDuration: pending hosts that never reached Healthy are removed, hosts that provisioned are kept.".into(),
                next: vec![cpe.clone()],
            }),
            "Scaling" => {
                let started = state.and_then(|s| time(&s["scalingStartedAt"]));
                out.push(Diagnosis {
                    id: "scaling.in-progress",
                    severity: Severity::Info,
                    symptom: SCALING,
                    summary: format!(
                        "{key}: scaling{}: {details}",
                        started.map(|t| format!(" for {}", age(picture.now, t))).unwrap_or_default()
                    ),
                    evidence: vec![(format!("status.poolScalingStates['{key}'].details"), details.to_owned())],
                    cause: "A scale-up is aborted after abortDuration, keeping the hosts that provisioned; a scale-down is never aborted and continues until all removals complete.".into(),
                    next: vec![cpe.clone()],
                });
            }
            "Cooldown" => out.push(Diagnosis {
                id: "scaling.cooldown",
                severity: Severity::Info,
                symptom: SCALING,
                summary: format!("{key}: in cooldown, no scaling decision until it ends: {details}"),
                evidence: vec![(format!("status.poolScalingStates['{key}'].details"), details.to_owned())],
                cause: "Cooldown pauses decisions after a scaling operation, an abort, a manual change, or the first evaluation.".into(),
                next: vec![cpe.clone()],
            }),
            _ => {}
        }
        // Stale metrics, host by host.
        let observed = evaluation
            .pointer("/status/metricsLastObservedAt")
            .and_then(|m| m.get(key))
            .and_then(Value::as_object);
        let stale: Vec<(String, DateTime<Utc>)> = observed
            .into_iter()
            .flatten()
            .filter_map(|(host, at)| Some((host.clone(), time(at)?)))
            .filter(|(_, at)| (picture.now - *at).num_minutes() >= STALE_METRICS_MINUTES)
            .collect();
        if !stale.is_empty() {
            out.push(Diagnosis {
                id: "scaling.stale-metrics",
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
                    .map(|(host, at)| (format!("status.metricsLastObservedAt['{key}'].{host}"), at.to_rfc3339()))
                    .collect(),
                cause: "Stale timestamps mean those hosts are not reporting metrics: scaling reacts slowly or not at all.".into(),
                next: vec!["verify the Prometheus agent on those hosts (Configure Prometheus Agent Monitoring)".into()],
            });
        }
    }
}

fn deletion(pool: &Pool, picture: &Picture, out: &mut Vec<Diagnosis>) {
    let Some(since) = pool
        .value
        .pointer("/metadata/deletionTimestamp")
        .and_then(time)
    else {
        return;
    };
    let minutes = (picture.now - since).num_minutes();
    let workloads: Vec<String> = pool
        .value
        .pointer("/status/aiWorkloadRefs")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|w| {
            Some(format!(
                "{}/{}",
                w["namespace"].as_str().unwrap_or(pool.namespace),
                w["name"].as_str()?
            ))
        })
        .collect();
    let finalizers: Vec<String> = pool
        .value
        .pointer("/metadata/finalizers")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|f| f.as_str().map(str::to_owned))
        .collect();
    let stuck = minutes >= STUCK_DELETION_MINUTES;
    let mut evidence = vec![
        (
            "metadata.deletionTimestamp".to_owned(),
            format!("{} ({} ago)", since.to_rfc3339(), age(picture.now, since)),
        ),
        ("metadata.finalizers".into(), format!("{finalizers:?}")),
    ];
    if !workloads.is_empty() {
        evidence.push(("status.aiWorkloadRefs".into(), workloads.join(", ")));
    }
    let mut next = Vec::new();
    if workloads.is_empty() {
        next.push(format!("in pooldeck: u on {} offers to release the finalizer (guarded: confirm with support first)", pool.name));
    } else {
        next.extend(workloads.iter().map(|w| {
            let (ns, name) = w.split_once('/').unwrap_or((pool.namespace, w));
            format!("kubectl delete aiworkload {name} --namespace {ns}")
        }));
        next.push(format!(
            "in pooldeck: u on {} deletes them behind a confirmation",
            pool.name
        ));
    }
    next.push("kubectl logs --namespace mural-system --selector controller.spectrocloud.com/name=hue-controllers --tail=100 --follow".into());
    out.push(Diagnosis {
        id: "deletion.blocked",
        severity: if stuck { Severity::Error } else { Severity::Info },
        symptom: DELETION,
        summary: format!(
            "deletion pending for {}{}",
            age(picture.now, since),
            if !workloads.is_empty() {
                format!("; {} AIWorkload(s) still reference it", workloads.len())
            } else if !finalizers.is_empty() {
                "; the finalizer is still set".to_owned()
            } else {
                String::new()
            }
        ),
        evidence,
        cause: "AIWorkloads still run on the cluster, a finalizer prevents deletion, or the Palette cluster deletion fails.".into(),
        next,
    });
}

fn longhorn(pool: &Pool, out: &mut Vec<Diagnosis>) {
    // Where the pool's data carries the Cluster Profile variable.
    let replicas = find_key(pool.value, "longhornDefaultReplicaCount", 0).and_then(|v| {
        v.as_i64()
            .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
    });
    let Some(replicas) = replicas else {
        return;
    };
    let requirements =
        "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/nodePoolRequirements";
    let control = pool
        .value
        .pointer(&format!("{requirements}/controlPlanePool/nodeCount"))
        .and_then(Value::as_i64)
        .unwrap_or(1);
    let workers: i64 = pool
        .value
        .pointer(&format!("{requirements}/workerPools"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|w| w["minWorkerNodes"].as_i64().unwrap_or(1).max(1))
        .sum();
    let nodes = control + workers;
    if replicas > nodes {
        out.push(Diagnosis {
            id: "longhorn.replicas",
            severity: Severity::Error,
            symptom: LONGHORN,
            summary: format!("longhornDefaultReplicaCount {replicas} exceeds the pool's {nodes} node(s)"),
            evidence: vec![("longhornDefaultReplicaCount".into(), replicas.to_string())],
            cause: "Longhorn cannot satisfy replica anti-affinity: PersistentVolumeClaims stay Pending. The variable is immutable: recreate the pool with 1 (single node), 2 (two nodes) or 3.".into(),
            next: vec!["back up persistent data, then recreate the pool with a lower replica count".into()],
        });
    }
}

fn find_key<'v>(value: &'v Value, key: &str, depth: usize) -> Option<&'v Value> {
    if depth > 12 {
        return None;
    }
    match value {
        Value::Object(map) => map
            .get(key)
            .or_else(|| map.values().find_map(|v| find_key(v, key, depth + 1))),
        Value::Array(items) => items.iter().find_map(|v| find_key(v, key, depth + 1)),
        _ => None,
    }
}

fn hosts_on_nodes(pool: &Pool, picture: &Picture, out: &mut Vec<Diagnosis>) {
    // Events with the guide's NVIDIA runtime error name the host in their message or object.
    for event in picture.events {
        let message = event["message"].as_str().unwrap_or("");
        if message.contains("no runtime for \"nvidia\" is configured") {
            out.push(Diagnosis {
                id: "node.nvidia-runtime",
                severity: Severity::Error,
                symptom: NVIDIA,
                summary: format!("GPU Operator pods cannot start: {message}"),
                evidence: vec![("event".into(), message.to_owned())],
                cause: "The nvidia RuntimeClass exists but containerd registers no nvidia handler: a containerd configuration schema mismatch (version 2 main file, version 3 drop-in) or a duplicate containerd service holding the runtime lock.".into(),
                next: vec![
                    "on the host: sudo crictl --runtime-endpoint=unix:///run/spectro/containerd/containerd.sock info | jq '.config.containerd.runtimes | keys'".into(),
                    "on the host: systemctl is-active containerd spectro-containerd".into(),
                    "on the host: containerd --version (version = 3 only on containerd 2.x)".into(),
                    "on the host: back up /etc/containerd/config.toml, declare version = 3 with every runtime, then sudo containerd config dump | grep nvidia".into(),
                    "on the host: mask a duplicate containerd service; sudo systemctl restart spectro-containerd".into(),
                ],
            });
        }
    }
    // Hosts Provisioning for long (the air-gapped symptom when image pulls fail).
    for (cluster_index, cluster) in pool
        .value
        .pointer("/status/paletteClusterStatuses")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let _ = cluster_index;
        let mut stuck: Vec<(String, DateTime<Utc>)> = Vec::new();
        collect_stuck_hosts(cluster, picture.now, &mut stuck, 0);
        let pulls = picture
            .events
            .iter()
            .filter_map(|e| e["message"].as_str())
            .find(|m| {
                let m = m.to_lowercase();
                m.contains("pull")
                    || m.contains("registry")
                    || m.contains("x509")
                    || m.contains("unauthorized")
            });
        for (host, since) in stuck {
            let mut evidence = vec![(
                format!("host {host} status"),
                format!("Provisioning for {}", age(picture.now, since)),
            )];
            if let Some(message) = pulls {
                evidence.push(("event".into(), message.to_owned()));
            }
            out.push(Diagnosis {
                id: "node.stuck-provisioning",
                severity: Severity::Warning,
                symptom: AIR_GAPPED,
                summary: format!("host {host} has been Provisioning for {}", age(picture.now, since)),
                evidence,
                cause: "In an air-gapped site: packs reaching an unreachable endpoint, registry credentials missing from user-data, images missing from the internal Zot registry, or network policy blocking it.".into(),
                next: vec![
                    format!("on {host}: crictl images (compare with the internal Zot registry)"),
                    format!("on {host}: cat /etc/containerd/config.toml | grep --after-context=5 registry"),
                    format!("on {host}: curl --insecure https://<vertex-ip>:30003/v2/ (200 or 401: reachable)"),
                    format!("on {host}: journalctl --unit stylus-agent --follow"),
                ],
            });
        }
    }
}

/// Hosts with `status: Provisioning` whose `statusUpdatedAt` is older than the threshold,
/// wherever a cluster's status lists them.
fn collect_stuck_hosts(
    value: &Value,
    now: DateTime<Utc>,
    out: &mut Vec<(String, DateTime<Utc>)>,
    depth: usize,
) {
    if depth > 8 {
        return;
    }
    if let Value::Object(map) = value {
        for (key, child) in map {
            if child.get("status").and_then(Value::as_str) == Some("Provisioning")
                && let Some(since) = child.get("statusUpdatedAt").and_then(time)
                && (now - since).num_minutes() >= STUCK_HOST_MINUTES
                && child.get("architecture").is_some()
            {
                out.push((key.clone(), since));
            } else {
                collect_stuck_hosts(child, now, out, depth + 1);
            }
        }
    } else if let Value::Array(items) = value {
        for item in items {
            collect_stuck_hosts(item, now, out, depth + 1);
        }
    }
}

#[cfg(test)]
#[path = "diagnosis_tests.rs"]
mod tests;
