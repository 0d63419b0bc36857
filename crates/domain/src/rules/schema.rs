//! Shape rules: the document is a ComputePool, fields have the documented types, and every
//! field sits where the reference puts it ("pay special attention to the nesting hierarchy").

use crate::field::Issue;
use crate::model::ComputePool;
use crate::model::pool::{API_VERSION, KIND};
use crate::path::YamlPath;

use super::names::edit_distance;
use super::{Basis, Finding, Rule, Severity};

pub const WRONG_TYPE: Rule = Rule {
    id: "schema.type",
    severity: Severity::Error,
    basis: Basis::Refused,
    section: "Complete ComputePool Example",
    summary: "a field holds a value of the wrong type (the API would refuse the object)",
};
pub const UNKNOWN_FIELD: Rule = Rule {
    id: "schema.unknown-field",
    severity: Severity::Warning,
    basis: Basis::Suspect,
    section: "YAML Structure",
    summary: "a field the reference does not document here; often a typo or a field at the wrong level",
};
pub const API_VERSION_RULE: Rule = Rule {
    id: "document.api-version",
    severity: Severity::Error,
    basis: Basis::Refused,
    section: "Complete ComputePool Example",
    summary: "a ComputePool's apiVersion must be spectrocloud.com/v1alpha1",
};
pub const STATUS_IGNORED: Rule = Rule {
    id: "document.status-ignored",
    severity: Severity::Info,
    basis: Basis::Note,
    section: "Status Reference",
    summary: "status in a manifest is written by the controller and ignored on apply",
};

pub const RULES: &[&Rule] = &[
    &WRONG_TYPE,
    &UNKNOWN_FIELD,
    &API_VERSION_RULE,
    &STATUS_IGNORED,
];

/// Where a known field belongs, for hints on fields written at the wrong level.
const HOMES: &[(&str, &str)] = &[
    (
        "sshKeys",
        "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.sshKeys (a sibling of edge, not inside it)",
    ),
    ("vip", "…paletteClusterDeploymentConfig.edge.vip"),
    (
        "ntpServers",
        "…paletteClusterDeploymentConfig.edge.ntpServers",
    ),
    (
        "networkOverlayConfig",
        "…paletteClusterDeploymentConfig.edge.networkOverlayConfig",
    ),
    (
        "isTwoNode",
        "…paletteClusterDeploymentConfig.edge.isTwoNode",
    ),
    ("enabled", "…edge.networkOverlayConfig.enabled"),
    ("staticIp", "…edge.networkOverlayConfig.staticIp"),
    ("cidr", "…edge.networkOverlayConfig.cidr"),
    (
        "overlayNetworkType",
        "…edge.networkOverlayConfig.overlayNetworkType",
    ),
    (
        "nodeCount",
        "…nodePoolRequirements.controlPlanePool.nodeCount",
    ),
    (
        "singleNodeCluster",
        "…nodePoolRequirements.controlPlanePool.singleNodeCluster",
    ),
    (
        "workerNodeEligible",
        "…nodePoolRequirements.controlPlanePool.workerNodeEligible",
    ),
    (
        "minWorkerNodes",
        "…nodePoolRequirements.workerPools[].minWorkerNodes",
    ),
    ("taints", "…nodePoolRequirements.workerPools[].taints"),
    ("gpu", "…nodePoolRequirements.workerPools[].gpu"),
    ("variant", "…workerPools[].gpu.variant"),
    ("gpuCount", "…workerPools[].gpu.gpuCount"),
    ("gpuMemory", "…workerPools[].gpu.gpuMemory"),
    ("cpuCount", "cpu.cpuCount of a control plane or worker pool"),
    (
        "controlPlanePool",
        "…paletteClusterDeploymentConfig.nodePoolRequirements.controlPlanePool",
    ),
    (
        "workerPools",
        "…paletteClusterDeploymentConfig.nodePoolRequirements.workerPools",
    ),
    (
        "nodePoolRequirements",
        "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements",
    ),
    (
        "edge",
        "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.edge",
    ),
    (
        "settingsRef",
        "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.settingsRef",
    ),
    (
        "paletteClusterDeploymentConfig",
        "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig",
    ),
    (
        "scalingPolicyRef",
        "spec.clusterVariant.dedicated.scalingPolicyRef or spec.clusterVariant.shared.scalingPolicyRef",
    ),
    ("dedicated", "spec.clusterVariant.dedicated"),
    ("shared", "spec.clusterVariant.shared"),
    (
        "controlPlaneResourceGroups",
        "spec.clusterVariant.controlPlaneResourceGroups",
    ),
    (
        "workerResourceGroups",
        "spec.clusterVariant.workerResourceGroups",
    ),
    ("clusterVariant", "spec.clusterVariant"),
    ("profileBundleRef", "spec.profileBundleRef"),
    ("deletionPolicy", "spec.deletionPolicy"),
    ("sharedWith", "spec.sharedWith"),
];

pub fn check(pool: &ComputePool, issues: &[Issue], out: &mut Vec<Finding>) {
    if let Some(kind) = pool.kind.as_deref().filter(|k| *k != KIND) {
        out.push(Finding::new(
            &API_VERSION_RULE,
            YamlPath::keys("kind"),
            format!("kind is \"{kind}\", not {KIND}"),
        ));
    }
    if let Some(version) = pool.api_version.as_deref()
        && version != API_VERSION
    {
        out.push(Finding::new(
            &API_VERSION_RULE,
            YamlPath::keys("apiVersion"),
            format!("apiVersion is \"{version}\"; ComputePools are served as {API_VERSION}"),
        ));
    }
    if pool.status.is_present() {
        out.push(Finding::new(
            &STATUS_IGNORED,
            YamlPath::keys("status"),
            "status is written by the controller; applying this manifest does not change it",
        ));
    }
    for issue in issues {
        out.push(match issue {
            Issue::WrongType { path, message } => {
                Finding::new(&WRONG_TYPE, path.clone(), message.clone())
            }
            Issue::UnknownField { path, known } => Finding::new(
                &UNKNOWN_FIELD,
                path.clone(),
                unknown_field_message(path, known),
            ),
        });
    }
}

fn unknown_field_message(path: &YamlPath, known: &[&str]) -> String {
    let field = path.last_key().unwrap_or("");
    let base = format!(
        "`{field}` is not a field here; kubectl's strict validation may refuse it, or it is ignored"
    );
    let close = known
        .iter()
        .map(|k| (edit_distance(&k.to_lowercase(), &field.to_lowercase()), k))
        .filter(|(d, _)| *d <= 2)
        .min();
    if let Some((_, suggestion)) = close {
        return format!("{base}. Did you mean `{suggestion}`?");
    }
    if let Some((_, home)) = HOMES.iter().find(|(name, _)| *name == field) {
        return format!("{base}. It belongs at {home}");
    }
    base
}
