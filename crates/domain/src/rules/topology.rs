//! Rules on the cluster's shape: dedicated or shared, the control plane (node count, single-node
//! and HA control-plane-only topologies), when worker pools may be empty; checked here with
//! the hardware asked for ([`super::hardware`]) and the resource groups ([`super::groups`]).

use crate::field::Field;
use crate::model::ComputePool;
use crate::model::pool::{ClusterVariant, ControlPlanePool, Dedicated};
use crate::path::YamlPath;

use super::groups::{GROUP_PREFIX, GROUP_SINGLE_NODE, GROUP_SYNTAX, check_resource_groups};
use super::hardware::{
    ARCHITECTURE, CPU_COUNT, CPU_MISSING, MEMORY_UNITS, check_architecture, check_cpu, check_memory,
};
use super::metadata::check_labels;
use super::paths::{self, at};
use super::{Basis, Context, Finding, Rule, Severity};

pub(super) const CONTROL_PLANE: &str = "Control Plane Configuration";
const EMPTY: &str = "Empty Worker Pools";
const SINGLE: &str = "Single-Node Clusters";
pub const VARIANT_REQUIRED: Rule = Rule {
    id: "variant.required",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: "UI Field to YAML Mapping",
    summary: "spec.clusterVariant needs dedicated or shared",
};
pub const VARIANT_EXCLUSIVE: Rule = Rule {
    id: "variant.exclusive",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: "UI Field to YAML Mapping",
    summary: "dedicated and shared are mutually exclusive",
};
pub const STRUCTURE_REQUIRED: Rule = Rule {
    id: "dedicated.structure",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: "YAML Structure",
    summary: "a dedicated pool needs paletteClusterDeploymentConfig.nodePoolRequirements.controlPlanePool",
};
pub const NODE_COUNT: Rule = Rule {
    id: "control-plane.node-count",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: CONTROL_PLANE,
    summary: "controlPlanePool.nodeCount is 1, 3 or 5",
};
pub const SINGLE_NODE: Rule = Rule {
    id: "single-node.settings",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: SINGLE,
    summary: "a single-node pool sets singleNodeCluster: true, nodeCount: 1, workerNodeEligible: true and has a worker pool",
};
pub const SINGLE_NODE_DAY2: Rule = Rule {
    id: "single-node.day2",
    severity: Severity::Warning,
    basis: Basis::Suspect,
    section: SINGLE,
    summary: "after provisioning, worker pool changes on a single-node pool are not applied",
};
pub const WORKER_POOLS_EMPTY: Rule = Rule {
    id: "worker-pools.empty",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: EMPTY,
    summary: "workerPools may be empty only for a 3- or 5-node worker-eligible control plane",
};
pub const RULES: &[&Rule] = &[
    &VARIANT_REQUIRED,
    &VARIANT_EXCLUSIVE,
    &STRUCTURE_REQUIRED,
    &NODE_COUNT,
    &SINGLE_NODE,
    &SINGLE_NODE_DAY2,
    &WORKER_POOLS_EMPTY,
    &ARCHITECTURE,
    &CPU_COUNT,
    &CPU_MISSING,
    &MEMORY_UNITS,
    &GROUP_PREFIX,
    &GROUP_SYNTAX,
    &GROUP_SINGLE_NODE,
];

pub fn check(pool: &ComputePool, context: &Context, out: &mut Vec<Finding>) {
    let Some(variant) = variant(pool, out) else {
        return;
    };
    check_resource_groups(
        pool,
        &variant.control_plane_resource_groups,
        "controlPlaneResourceGroups",
        out,
    );
    check_resource_groups(
        pool,
        &variant.worker_resource_groups,
        "workerResourceGroups",
        out,
    );
    if let Some(dedicated) = variant.dedicated.get() {
        check_dedicated(pool, context, dedicated, out);
    }
}

/// The cluster variant, said when it is missing or holds both kinds (or neither).
fn variant<'p>(pool: &'p ComputePool, out: &mut Vec<Finding>) -> Option<&'p ClusterVariant> {
    let Some(spec) = pool.spec() else {
        if !pool.spec.is_invalid() {
            out.push(Finding::new(
                &VARIANT_REQUIRED,
                YamlPath::keys("spec"),
                "spec is required",
            ));
        }
        return None;
    };
    let variant = match &spec.cluster_variant {
        Field::Valid(variant) => variant,
        Field::Invalid(_) => return None,
        Field::Missing | Field::Null => {
            out.push(Finding::new(
                &VARIANT_REQUIRED,
                at(paths::VARIANT),
                "spec.clusterVariant is required, with either dedicated or shared",
            ));
            return None;
        }
    };
    match (variant.dedicated.is_present(), variant.shared.is_present()) {
        (true, true) => out.push(Finding::new(
            &VARIANT_EXCLUSIVE,
            at(paths::VARIANT),
            "dedicated and shared are mutually exclusive: keep exactly one",
        )),
        (false, false) => out.push(Finding::new(
            &VARIANT_REQUIRED,
            at(paths::VARIANT),
            "clusterVariant needs either dedicated or shared",
        )),
        _ => {}
    }
    Some(variant)
}

/// A dedicated pool: the structure down to its control plane, and the control plane's
/// topology and host requirements.
fn check_dedicated(
    pool: &ComputePool,
    context: &Context,
    dedicated: &Dedicated,
    out: &mut Vec<Finding>,
) {
    let missing = |what: &str, path: &str| {
        Finding::new(
            &STRUCTURE_REQUIRED,
            at(path),
            format!("a dedicated pool needs {what}"),
        )
    };
    let Some(config) = dedicated.palette_cluster_deployment_config.get() else {
        if dedicated.palette_cluster_deployment_config.is_missing() {
            out.push(missing("paletteClusterDeploymentConfig", paths::DEDICATED));
        }
        return;
    };
    let Some(requirements) = config.node_pool_requirements.get() else {
        if config.node_pool_requirements.is_missing() {
            out.push(missing("nodePoolRequirements", paths::DEPLOYMENT));
        }
        return;
    };
    let Some(control) = requirements.control_plane_pool.get() else {
        if requirements.control_plane_pool.is_missing() {
            out.push(missing("controlPlanePool", paths::REQUIREMENTS));
        }
        return;
    };
    let worker_count = match &requirements.worker_pools {
        Field::Valid(list) => Some(list.len()),
        Field::Missing | Field::Null => Some(0),
        Field::Invalid(_) => None,
    };
    // Two-node mode (edge.isTwoNode, "exactly two nodes"): a control plane of one beside one
    // worker, not a single-node cluster missing its settings.
    let two_node = config
        .edge
        .get()
        .is_some_and(|e| e.is_two_node.get() == Some(&true));
    check_control_plane(control, worker_count, two_node, out);
    check_single_node_day2(pool, context, out);
    check_control_plane_host(control, out);
}

/// What a control-plane host must offer: architecture, CPU, memory, labels.
fn check_control_plane_host(control: &ControlPlanePool, out: &mut Vec<Finding>) {
    let cp = at(paths::CONTROL_PLANE);
    check_architecture(&control.architecture, &cp.key("architecture"), out);
    match control.cpu.get().map(|c| &c.cpu_count) {
        None | Some(Field::Missing | Field::Null) if !control.cpu.is_invalid() => {
            out.push(Finding::new(
                &CPU_MISSING,
                cp.key("cpu"),
                "the control plane sets no cpu.cpuCount; any host qualifies on CPU",
            ))
        }
        _ => {}
    }
    check_cpu(&control.cpu, &cp.key("cpu"), out);
    check_memory(&control.memory, &cp.key("memory"), out);
    check_labels(&control.labels, &cp.key("labels"), out);
}

/// A single-node cluster: one node, eligible for workloads, with a worker pool to select its
/// host.
fn check_single_node(
    node_count: Option<i64>,
    eligible: bool,
    worker_pools: Option<usize>,
    out: &mut Vec<Finding>,
) {
    let cp = at(paths::CONTROL_PLANE);
    if node_count.is_some_and(|n| n != 1) {
        out.push(Finding::new(
            &SINGLE_NODE,
            cp.key("nodeCount"),
            format!(
                "singleNodeCluster is true, so nodeCount must be 1 (it is {})",
                node_count.unwrap_or_default()
            ),
        ));
    }
    if !eligible {
        out.push(Finding::new(
            &SINGLE_NODE,
            cp.key("workerNodeEligible"),
            "singleNodeCluster is true, so workerNodeEligible must be true; otherwise the \
                 cluster cannot schedule workloads and never becomes Ready",
        ));
    }
    if worker_pools == Some(0) {
        out.push(Finding::new(
            &SINGLE_NODE,
            at(paths::WORKER_POOLS),
            "a single-node pool needs at least one worker pool: it is used to select the \
                 edge host",
        ));
    }
}

fn check_control_plane(
    control: &ControlPlanePool,
    worker_pools: Option<usize>,
    two_node: bool,
    out: &mut Vec<Finding>,
) {
    let cp = at(paths::CONTROL_PLANE);
    let node_count = control.node_count.get().copied();
    let single = control.single_node_cluster.get().copied().unwrap_or(false);
    let eligible = control.worker_node_eligible.get().copied().unwrap_or(false);
    match node_count {
        Some(1 | 3 | 5) => {}
        Some(n) => out.push(Finding::new(
            &NODE_COUNT,
            cp.key("nodeCount"),
            format!("nodeCount is {n}; a control plane has 1, 3 or 5 nodes"),
        )),
        None if control.node_count.is_missing() => out.push(Finding::new(
            &NODE_COUNT,
            cp.key("nodeCount"),
            "nodeCount is not set; write 1, 3 or 5 so the topology is explicit",
        )),
        None => {}
    }

    if single {
        check_single_node(node_count, eligible, worker_pools, out);
        return;
    }
    if node_count == Some(1) && !(two_node && worker_pools.is_some_and(|n| n > 0)) {
        let mut missing = vec!["singleNodeCluster: true"];
        if !eligible {
            missing.push("workerNodeEligible: true");
        }
        if worker_pools == Some(0) {
            missing.push("at least one worker pool");
        }
        out.push(Finding::new(
            &SINGLE_NODE,
            cp.key("nodeCount"),
            format!(
                "a one-node control plane is a single-node cluster and needs {}; without them it \
                 cannot schedule workloads and never becomes Ready",
                missing.join(", ")
            ),
        ));
        return;
    }
    if worker_pools == Some(0) {
        let why = match (node_count, eligible) {
            (Some(3 | 5), true) => return,
            (_, false) => {
                "the control plane is dedicated (workerNodeEligible is not true), so workloads \
                 need at least one worker pool"
            }
            _ => {
                "workerPools may be empty only when nodeCount is 3 or 5 and workerNodeEligible is true"
            }
        };
        out.push(Finding::new(
            &WORKER_POOLS_EMPTY,
            at(paths::WORKER_POOLS),
            why,
        ));
    }
}

fn check_single_node_day2(pool: &ComputePool, context: &Context, out: &mut Vec<Finding>) {
    let Some(old) = context.old else { return };
    if !old.is_single_node() {
        return;
    }
    let pools = |p: &ComputePool| {
        p.node_pool_requirements()
            .map(|n| serde_json::to_value(&n.worker_pools).unwrap_or_default())
    };
    if pools(old) != pools(pool) {
        out.push(Finding::new(
            &SINGLE_NODE_DAY2,
            at(paths::WORKER_POOLS),
            "this is a single-node pool: after provisioning only the control plane machine pool \
             is managed, so worker pool changes are not applied",
        ));
    }
}
