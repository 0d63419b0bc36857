//! The wizard's fields, step by step in the product's order ("UI Field to YAML Mapping" of the
//! configuration reference): where each lives in the draft and how it is entered. Worker pool
//! fields repeat per worker pool; the fields of a ScalingPolicy written with the pool live under
//! `policy.` and its GPU entries repeat per variant.

use crate::kind::Kind;
use crate::path::YamlPath;

/// The wizard's steps, in the product's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Step {
    General,
    Mode,
    ProfileBundle,
    NodeConfig,
    Deployment,
    Autoscaling,
    Review,
}

impl Step {
    pub const ALL: [Step; 7] = [
        Step::General,
        Step::Mode,
        Step::ProfileBundle,
        Step::NodeConfig,
        Step::Deployment,
        Step::Autoscaling,
        Step::Review,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Step::General => "General",
            Step::Mode => "Mode",
            Step::ProfileBundle => "Profile Bundle",
            Step::NodeConfig => "Node Config",
            Step::Deployment => "Deployment",
            Step::Autoscaling => "Autoscaling",
            Step::Review => "Review",
        }
    }
}

/// How a field is entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    Text,
    /// A whole number.
    Count,
    /// One of these values.
    Choice(&'static [&'static str]),
    Toggle,
    /// One item per line (SSH keys).
    Lines,
    /// A mapping, `key=value` per line (labels, annotations, resource groups); `hidden` are
    /// keys other fields show, kept as they are.
    Pairs {
        hidden: &'static [&'static str],
    },
    /// Taints, `key=value:Effect` per line.
    Taints,
    /// The name of an object of this kind in the pool's namespace (a choice from the cluster,
    /// or typed); for `Compute`, a GPU variant the namespace's Computes have.
    Named(Kind),
    /// The pool's namespace: a choice among those pooldeck can see (Projects first), or typed.
    Namespace,
}

impl Entry {
    /// Typed over several lines (Enter makes a new line).
    pub fn multi_line(self) -> bool {
        matches!(self, Entry::Lines | Entry::Pairs { .. } | Entry::Taints)
    }
}

/// Fields that repeat: once per worker pool, or once per GPU variant of the ScalingPolicy
/// the wizard writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    Once,
    WorkerPool,
    PolicyGpu,
}

/// One field of the wizard: where it lives in the object and how it is entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldSpec {
    pub step: Step,
    pub label: &'static str,
    /// Dotted keys from the document root (`policy.` for the ScalingPolicy document); for a
    /// repeating field, from its entry.
    pub path: &'static str,
    pub entry: Entry,
    pub group: Group,
}

impl FieldSpec {
    pub fn repeats(&self) -> bool {
        self.group != Group::Once
    }
}

const DEPLOYMENT: &str = "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig";

const fn field(step: Step, label: &'static str, path: &'static str, entry: Entry) -> FieldSpec {
    FieldSpec {
        step,
        label,
        path,
        entry,
        group: Group::Once,
    }
}

const fn worker(label: &'static str, path: &'static str, entry: Entry) -> FieldSpec {
    FieldSpec {
        step: Step::NodeConfig,
        label,
        path,
        entry,
        group: Group::WorkerPool,
    }
}

const fn policy_gpu(label: &'static str, path: &'static str, entry: Entry) -> FieldSpec {
    FieldSpec {
        step: Step::Autoscaling,
        label,
        path,
        entry,
        group: Group::PolicyGpu,
    }
}

/// The ScalingPolicy document's root in a field's path.
pub const POLICY: &str = "policy";

/// Every field, in the order the wizard shows them.
pub const FIELDS: &[FieldSpec] = &[
    field(
        Step::General,
        "Compute pool name",
        "metadata.name",
        Entry::Text,
    ),
    field(
        Step::General,
        "Namespace",
        "metadata.namespace",
        Entry::Namespace,
    ),
    field(
        Step::General,
        "Description",
        "metadata.annotations",
        Entry::Text,
    ),
    field(
        Step::General,
        "Labels",
        "metadata.labels",
        Entry::Pairs { hidden: &[] },
    ),
    field(
        Step::General,
        "Annotations",
        "metadata.annotations",
        Entry::Pairs {
            hidden: &[DESCRIPTION, crate::model::longhorn::REPLICAS_KEY],
        },
    ),
    field(
        Step::Mode,
        "Mode",
        "spec.clusterVariant",
        Entry::Choice(&["dedicated", "shared"]),
    ),
    field(
        Step::ProfileBundle,
        "Profile Bundle",
        "spec.profileBundleRef.name",
        Entry::Named(Kind::ProfileBundle),
    ),
    field(
        Step::ProfileBundle,
        "Cloud type",
        "spec.profileBundleRef.cloudType",
        Entry::Choice(&["edge-native"]),
    ),
    field(
        Step::NodeConfig,
        "Single-node cluster",
        "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.controlPlanePool.singleNodeCluster",
        Entry::Toggle,
    ),
    field(
        Step::NodeConfig,
        "Control plane nodes",
        "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.controlPlanePool.nodeCount",
        Entry::Choice(&["1", "3", "5"]),
    ),
    field(
        Step::NodeConfig,
        "Workload eligible",
        "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.controlPlanePool.workerNodeEligible",
        Entry::Toggle,
    ),
    field(
        Step::NodeConfig,
        "Architecture",
        "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.controlPlanePool.architecture",
        Entry::Choice(&["AMD64", "ARM64"]),
    ),
    field(
        Step::NodeConfig,
        "CPU count",
        "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.controlPlanePool.cpu.cpuCount",
        Entry::Count,
    ),
    field(
        Step::NodeConfig,
        "Memory",
        "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.controlPlanePool.memory.memory",
        Entry::Text,
    ),
    field(
        Step::NodeConfig,
        "Control plane groups",
        "spec.clusterVariant.controlPlaneResourceGroups",
        Entry::Pairs { hidden: &[] },
    ),
    field(
        Step::NodeConfig,
        "Worker groups",
        "spec.clusterVariant.workerResourceGroups",
        Entry::Pairs { hidden: &[] },
    ),
    field(
        Step::NodeConfig,
        "Longhorn replicas",
        "metadata.annotations.longhornDefaultReplicaCount",
        Entry::Choice(&["1", "2", "3"]),
    ),
    worker("Worker pool name", "name", Entry::Text),
    worker(
        "Architecture",
        "architecture",
        Entry::Choice(&["AMD64", "ARM64"]),
    ),
    worker("CPU count", "cpu.cpuCount", Entry::Count),
    worker("Memory", "memory.memory", Entry::Text),
    worker("Min worker nodes", "minWorkerNodes", Entry::Count),
    worker("GPU variant", "gpu.variant", Entry::Named(Kind::Compute)),
    worker("GPU count", "gpu.gpuCount", Entry::Count),
    worker("GPU memory", "gpu.gpuMemory", Entry::Text),
    worker("Labels", "labels", Entry::Pairs { hidden: &[] }),
    worker("Taints", "taints", Entry::Taints),
    field(
        Step::Deployment,
        "Deletion policy",
        "spec.deletionPolicy",
        Entry::Choice(&["delete", "orphan"]),
    ),
    field(
        Step::Deployment,
        "Settings",
        "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.settingsRef.name",
        Entry::Named(Kind::Settings),
    ),
    field(
        Step::Deployment,
        "SSH keys",
        "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.sshKeys",
        Entry::Lines,
    ),
    field(
        Step::Deployment,
        "VIP",
        "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.edge.vip",
        Entry::Text,
    ),
    field(
        Step::Deployment,
        "Network overlay",
        "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.edge.networkOverlayConfig.enabled",
        Entry::Toggle,
    ),
    field(
        Step::Deployment,
        "Overlay CIDR",
        "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.edge.networkOverlayConfig.cidr",
        Entry::Text,
    ),
    field(
        Step::Autoscaling,
        "Scaling policy",
        "spec.clusterVariant.dedicated.scalingPolicyRef.name",
        Entry::Named(Kind::ScalingPolicy),
    ),
    field(
        Step::Autoscaling,
        "Write a new policy",
        "policy",
        Entry::Toggle,
    ),
    field(
        Step::Autoscaling,
        "CPU scale-up at %",
        "policy.spec.cpu.scaleUpThreshold",
        Entry::Count,
    ),
    field(
        Step::Autoscaling,
        "CPU scale-down at %",
        "policy.spec.cpu.scaleDownThreshold",
        Entry::Count,
    ),
    field(
        Step::Autoscaling,
        "CPU scale-up after",
        "policy.spec.cpu.scaleUpDuration",
        Entry::Text,
    ),
    field(
        Step::Autoscaling,
        "CPU scale-down after",
        "policy.spec.cpu.scaleDownDuration",
        Entry::Text,
    ),
    field(
        Step::Autoscaling,
        "Min CPUs",
        "policy.spec.cpuResourceBounds.minCPUCount",
        Entry::Count,
    ),
    field(
        Step::Autoscaling,
        "Max CPUs",
        "policy.spec.cpuResourceBounds.maxCPUCount",
        Entry::Count,
    ),
    field(
        Step::Autoscaling,
        "Cooldown",
        "policy.spec.cooldownDuration",
        Entry::Text,
    ),
    field(
        Step::Autoscaling,
        "Abort after",
        "policy.spec.abortDuration",
        Entry::Text,
    ),
    policy_gpu("GPU variant", "variant", Entry::Named(Kind::Compute)),
    policy_gpu("Scale-up at %", "scaleUpThreshold", Entry::Count),
    policy_gpu("Scale-down at %", "scaleDownThreshold", Entry::Count),
    policy_gpu("Scale-up after", "scaleUpDuration", Entry::Text),
    policy_gpu("Scale-down after", "scaleDownDuration", Entry::Text),
    policy_gpu("Min GPUs", "bounds.minGPUCount", Entry::Count),
    policy_gpu("Max GPUs", "bounds.maxGPUCount", Entry::Count),
];

/// The annotation the product keeps a pool's description in.
pub const DESCRIPTION: &str = "spectrocloud.com/description";

/// Where the worker pools are.
pub fn worker_pools_path() -> YamlPath {
    YamlPath::keys(DEPLOYMENT).join("nodePoolRequirements.workerPools")
}

/// Where the policy's per-variant thresholds are (`policy.spec.gpu`).
pub fn policy_gpu_path() -> YamlPath {
    YamlPath::keys(POLICY).join("spec.gpu")
}

/// Where the policy's per-variant bounds are (`policy.spec.gpuResourceBounds`), kept in the
/// same order as the thresholds by the wizard.
pub fn policy_bounds_path() -> YamlPath {
    YamlPath::keys(POLICY).join("spec.gpuResourceBounds")
}

impl FieldSpec {
    /// The field's path in the draft (`index` picks the worker pool or policy GPU entry).
    pub fn at(&self, index: usize) -> YamlPath {
        match self.group {
            Group::WorkerPool => worker_pools_path().index(index).join(self.path),
            Group::PolicyGpu => match self.path.strip_prefix("bounds.") {
                Some(rest) => policy_bounds_path().index(index).join(rest),
                None => policy_gpu_path().index(index).join(self.path),
            },
            Group::Once if self.label == "Description" => {
                YamlPath::keys("metadata.annotations").key(DESCRIPTION)
            }
            Group::Once => YamlPath::keys(self.path),
        }
    }
}
