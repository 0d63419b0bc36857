//! A pool stuck in Provisioning: its failing conditions with the guide's meaning, the Palette
//! clusters' state, the ProfileBundle and Settings it names, and Compute's available hosts
//! requirement by requirement.

use crate::shell::quote;

use super::*;
use crate::hosts;

pub(super) fn provisioning(pool: &Pool, picture: &Picture, out: &mut Vec<Diagnosis>) {
    // A pool still coming up, or one whose deployment failed: the same conditions explain it.
    let phase = status(pool);
    if !matches!(phase, "Provisioning" | "Failed") {
        return;
    }
    // Whatever is found to explain it; the ProfileBundle and the Settings are said beside.
    let conditions = false_conditions(pool, phase, out);
    let clusters = palette_clusters(pool, out);
    profile_bundle(pool, picture, out);
    settings(pool, picture, out);
    let hosts = no_hosts(pool, picture, out);
    if !(conditions || clusters || hosts) && phase == "Provisioning" {
        out.push(Diagnosis {
            id: "provisioning.pending",
            fix: None,
            severity: Severity::Warning,
            symptom: PROVISIONING,
            summary: "Provisioning with no failing condition yet".into(),
            evidence: vec![("status.status".into(), "Provisioning".into())],
            cause: "The Palette cluster may still be deploying, or network issues may prevent cluster creation.".into(),
            next: vec![pool.describe(), compute_next(pool, "controlPlaneCompute")],
        });
    }
}

/// The pool's own conditions that are False, with the guide's meaning; whether any is.
fn false_conditions(pool: &Pool, phase: &str, out: &mut Vec<Diagnosis>) -> bool {
    let mut any = false;
    for (i, c) in conditions(pool.model) {
        if !c.is_false() {
            continue;
        }
        any = true;
        out.push(condition_finding(
            "provisioning.condition",
            PROVISIONING,
            pool.model,
            i,
            c,
            phase == "Failed",
            "",
            vec![pool.describe()],
        ));
    }
    any
}

/// The Palette clusters' own conditions that are False; whether any is.
fn palette_clusters(pool: &Pool, out: &mut Vec<Diagnosis>) -> bool {
    let mut any = false;
    for (i, cluster) in clusters(pool.model) {
        for (_, c) in indexed(cluster.conditions.get()).filter(|(_, c)| c.is_false()) {
            any = true;
            let state = cluster.status.as_deref().unwrap_or("");
            let reason = c.reason.as_deref().unwrap_or("");
            let (severity, cause) = false_condition(
                c.type_.as_deref().unwrap_or(""),
                reason,
                matches!(state, "Failed" | "Unhealthy"),
            );
            out.push(Diagnosis {
                id: "provisioning.palette-cluster",
                fix: None,
                severity,
                symptom: PROVISIONING,
                summary: format!(
                    "Palette cluster {} is {}: {reason} {}",
                    cluster.name.as_deref().unwrap_or("?"),
                    cluster.status.as_deref().unwrap_or("?"),
                    c.message.as_deref().unwrap_or("")
                ),
                evidence: vec![(
                    format!("status.paletteClusterStatuses[{i}].status"),
                    state.to_owned(),
                )],
                cause,
                next: vec![pool.clusters_command()],
            });
        }
    }
    any
}

/// The ProfileBundle the pool names: missing, or not Ready.
fn profile_bundle(pool: &Pool, picture: &Picture, out: &mut Vec<Diagnosis>) {
    let bundle = pool
        .model
        .spec()
        .and_then(|s| s.profile_bundle_ref.get())
        .and_then(|r| r.name.as_deref())
        .unwrap_or("");
    let bundle_name = bundle.split('@').next().unwrap_or(bundle);
    let bundle_next = vec![format!(
        "kubectl describe profilebundle {} --namespace {}",
        quote(bundle_name),
        quote(pool.namespace)
    )];
    match picture.profile_bundle {
        None if picture.profile_bundles_known && !bundle.is_empty() => out.push(Diagnosis {
            id: "provisioning.profile-bundle-missing",
            fix: None,
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
                fix: None,
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
}

/// The Settings the pool names, when the hub does not hold them.
fn settings(pool: &Pool, picture: &Picture, out: &mut Vec<Diagnosis>) {
    let settings = pool
        .model
        .deployment_config()
        .and_then(|d| d.settings_ref.get())
        .and_then(|r| r.name.as_deref());
    if let Some(settings) = settings
        && picture.settings.is_none()
        && picture.settings_known
    {
        out.push(Diagnosis {
            id: "provisioning.settings-missing",
            fix: None,
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
                quote(pool.namespace)
            )],
        });
    }
}

/// The guide's step 2, looking at the list that holds the hosts a requirement needs.
fn compute_next(pool: &Pool, list: &str) -> String {
    format!(
        "kubectl get compute --namespace {} --output yaml | grep --after-context=20 {list}",
        quote(pool.namespace)
    )
}

/// Available hosts in Compute, requirement by requirement; whether one falls short.
fn no_hosts(pool: &Pool, picture: &Picture, out: &mut Vec<Diagnosis>) -> bool {
    let offer = hosts::Offer::of(picture.computes.iter().copied());
    let mut any = false;
    if offer.computes > 0 {
        for need in hosts::needs(pool.model) {
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
                    "only {} of the {} asked {} available",
                    measure.matching,
                    need.nodes,
                    crate::words::agrees(measure.matching, "is", "are")
                )
            } else if measure.unmet.is_empty() {
                "no available host meets every requirement at once".to_owned()
            } else {
                format!("no available host has {}", measure.unmet.join(", "))
            };
            out.push(Diagnosis {
                id: "provisioning.no-hosts",
                fix: None,
                severity: Severity::Error,
                symptom: PROVISIONING,
                summary: format!(
                    "{} asks for {}; Compute lists {} available that {}: {detail}",
                    need.what,
                    crate::words::counted(need.nodes, "host"),
                    measure.matching,
                    crate::words::agrees(measure.matching, "matches", "match")
                ),
                evidence: vec![(need.count_path.to_string(), need.nodes.to_string())],
                cause: "No available edge hosts match the resource requirements.".into(),
                next: vec![compute_next(pool, list)],
            });
        }
    }
    any
}
