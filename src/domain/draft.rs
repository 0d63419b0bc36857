//! The wizard's draft: a ComputePool (and, when the wizard creates one, a ScalingPolicy) held
//! as the JSON object it will be sent as, edited field by field through paths. Because the
//! draft is the object itself, not a bag of strings, a loaded manifest's unknown fields stay
//! where they are and are written back unchanged, and the rules `pooldeck validate` runs read
//! the draft directly; each finding lands on the field its path points at.
//!
//! The fields follow the product's UI wizard, step by step, in its order ("UI Field to YAML
//! Mapping" of the configuration reference): General, Mode, Profile Bundle, Node Config,
//! Deployment, Autoscaling, then Review. Worker pool fields repeat per worker pool.

use serde_json::{Map, Value, json};

use super::model::{ComputePool, read_owned};
use super::path::{Segment, YamlPath};
use super::rules::{self, Context, Finding, Fleet, Pools};

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
    /// A mapping, `key=value` per line (labels, annotations, resource groups); `hidden` is a
    /// key another field shows, kept as it is.
    Pairs {
        hidden: Option<&'static str>,
    },
    /// Taints, `key=value:Effect` per line.
    Taints,
    /// The name of an object of this kind in the pool's namespace (a choice from the cluster,
    /// or typed).
    Named(super::kind::Kind),
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
        "Description",
        "metadata.annotations",
        Entry::Text,
    ),
    field(
        Step::General,
        "Labels",
        "metadata.labels",
        Entry::Pairs { hidden: None },
    ),
    field(
        Step::General,
        "Annotations",
        "metadata.annotations",
        Entry::Pairs {
            hidden: Some(DESCRIPTION),
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
        Entry::Named(super::kind::Kind::ProfileBundle),
    ),
    field(
        Step::ProfileBundle,
        "Cloud type",
        "spec.profileBundleRef.cloudType",
        Entry::Choice(&["edge-native"]),
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
        Entry::Pairs { hidden: None },
    ),
    field(
        Step::NodeConfig,
        "Worker groups",
        "spec.clusterVariant.workerResourceGroups",
        Entry::Pairs { hidden: None },
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
    worker("GPU variant", "gpu.variant", Entry::Text),
    worker("GPU count", "gpu.gpuCount", Entry::Count),
    worker("GPU memory", "gpu.gpuMemory", Entry::Text),
    worker("Labels", "labels", Entry::Pairs { hidden: None }),
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
        Entry::Named(super::kind::Kind::Settings),
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
        Entry::Named(super::kind::Kind::ScalingPolicy),
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
    policy_gpu("GPU variant", "variant", Entry::Text),
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

/// A ComputePool being written, and the ScalingPolicy written with it, if any.
#[derive(Clone, Debug, PartialEq)]
pub struct Draft {
    pub pool: Value,
    pub policy: Option<Value>,
}

impl Draft {
    /// A new pool in a namespace: what every pool has, and the reference's defaults (an HA
    /// control plane of three, as in its complete example).
    pub fn new(namespace: &str) -> Draft {
        Draft {
            pool: json!({
                "apiVersion": "spectrocloud.com/v1alpha1",
                "kind": "ComputePool",
                "metadata": {"name": "", "namespace": namespace},
                "spec": {
                    "deletionPolicy": "delete",
                    "profileBundleRef": {"name": "", "namespace": namespace, "cloudType": "edge-native"},
                    "clusterVariant": {"dedicated": {"paletteClusterDeploymentConfig": {
                        "cloudType": "edge-native",
                        "nodePoolRequirements": {
                            "controlPlanePool": {"nodeCount": 3, "workerNodeEligible": false, "architecture": "AMD64"},
                            "workerPools": []
                        },
                        "edge": {"vip": ""}
                    }}}
                }
            }),
            policy: None,
        }
    }

    /// A draft of an existing object, kept whole.
    pub fn from_object(pool: Value, policy: Option<Value>) -> Draft {
        Draft { pool, policy }
    }

    /// The draft a manifest's objects make: its first ComputePool and first ScalingPolicy.
    /// `None` when it holds no ComputePool.
    pub fn from_objects(objects: &[Value]) -> Option<Draft> {
        let first = |kind: &str| objects.iter().find(|o| o["kind"] == kind).cloned();
        Some(Draft::from_object(
            first("ComputePool")?,
            first("ScalingPolicy"),
        ))
    }

    /// The value at a path, if it is there (`policy.…` reads the ScalingPolicy).
    pub fn get(&self, path: &YamlPath) -> Option<&Value> {
        let (mut at, segments) = match policy_part(path) {
            Some(rest) => (self.policy.as_ref()?, rest),
            None => (&self.pool, path.segments()),
        };
        for segment in segments {
            at = match segment {
                Segment::Key(key) => at.get(key)?,
                Segment::Index(index) => at.get(index)?,
            };
        }
        Some(at)
    }

    /// Sets (or with `None` removes) the value at a path, making the mappings on the way.
    /// A list index past the end adds entries. Nothing else in the object changes. `policy`
    /// alone sets or removes the ScalingPolicy document.
    pub fn set(&mut self, path: &YamlPath, value: Option<Value>) {
        match policy_part(path) {
            Some([]) => self.policy = value,
            Some(rest) => {
                let document = match (&mut self.policy, &value) {
                    (Some(policy), _) => policy,
                    (None, Some(_)) => self.policy.insert(json!({})),
                    (None, None) => return,
                };
                set_in(document, rest, value);
            }
            None => set_in(&mut self.pool, path.segments(), value),
        }
    }

    /// A ScalingPolicy written with the pool, with the values of the reference's examples,
    /// one threshold and bounds entry per GPU variant the worker pools ask for; the pool's
    /// reference is pointed at it.
    pub fn start_policy(&mut self) {
        let namespace = self.pool["metadata"]["namespace"].clone();
        let reference = YamlPath::keys("spec.clusterVariant.dedicated.scalingPolicyRef");
        let name = match self.get(&reference.key("name")).and_then(Value::as_str) {
            Some(name) if !name.trim().is_empty() => name.to_owned(),
            _ => match self.pool["metadata"]["name"].as_str() {
                Some(pool) if !pool.trim().is_empty() => format!("{pool}-scaling"),
                _ => "scaling-policy".to_owned(),
            },
        };
        let mut variants: Vec<String> = Vec::new();
        for index in 0..self.worker_pools() {
            let at = worker_pools_path().index(index).join("gpu.variant");
            if let Some(variant) = self.get(&at).and_then(Value::as_str)
                && !variant.trim().is_empty()
                && !variants.iter().any(|v| v == variant)
            {
                variants.push(variant.to_owned());
            }
        }
        self.policy = Some(json!({
            "apiVersion": "spectrocloud.com/v1alpha1",
            "kind": "ScalingPolicy",
            "metadata": {"name": name, "namespace": namespace},
            "spec": {
                "cpu": {"scaleUpThreshold": 80, "scaleDownThreshold": 20,
                        "scaleUpDuration": "5m", "scaleDownDuration": "10m"},
                "gpu": variants.iter().map(|v| json!({"variant": v, "scaleUpThreshold": 80,
                        "scaleDownThreshold": 20, "scaleUpDuration": "5m", "scaleDownDuration": "10m"}))
                    .collect::<Vec<_>>(),
                "gpuResourceBounds": variants.iter().map(|v| json!({"variant": v,
                        "minGPUCount": 0, "maxGPUCount": 16})).collect::<Vec<_>>(),
                "cooldownDuration": "15m",
                "abortDuration": "30m"
            }
        }));
        self.set(&reference.key("name"), Some(json!(name)));
        self.set(&reference.key("namespace"), Some(namespace));
    }

    /// How many GPU entries the policy written with the pool has.
    pub fn policy_gpus(&self) -> usize {
        self.get(&policy_gpu_path())
            .and_then(Value::as_array)
            .map_or(0, Vec::len)
    }

    /// A GPU entry more in the policy (thresholds and bounds, side by side).
    pub fn add_policy_gpu(&mut self, variant: &str) -> usize {
        let index = self.policy_gpus();
        self.set(
            &policy_gpu_path().index(index),
            Some(
                json!({"variant": variant, "scaleUpThreshold": 80, "scaleDownThreshold": 20,
                        "scaleUpDuration": "5m", "scaleDownDuration": "10m"}),
            ),
        );
        self.set(
            &policy_bounds_path().index(index),
            Some(json!({"variant": variant, "minGPUCount": 0, "maxGPUCount": 16})),
        );
        index
    }

    /// Removes a GPU entry of the policy, its bounds with it.
    pub fn remove_policy_gpu(&mut self, index: usize) {
        self.set(&policy_gpu_path().index(index), None);
        self.set(&policy_bounds_path().index(index), None);
    }

    /// The policy written with the pool keeps the pool's reference: its name is the one the
    /// pool names, its namespace the pool's; a bounds entry carries its threshold's variant.
    pub fn keep_policy_in_step(&mut self) {
        if self.policy.is_none() {
            return;
        }
        let reference = YamlPath::keys("spec.clusterVariant.dedicated.scalingPolicyRef");
        if let Some(name) = self.get(&reference.key("name")).cloned() {
            self.set(&YamlPath::keys("policy.metadata.name"), Some(name));
        }
        let namespace = self.pool["metadata"]["namespace"].clone();
        self.set(
            &YamlPath::keys("policy.metadata.namespace"),
            Some(namespace),
        );
        for index in 0..self.policy_gpus() {
            let variant = self
                .get(&policy_gpu_path().index(index).key("variant"))
                .cloned();
            let bounds = policy_bounds_path().index(index);
            if variant.is_some() && self.get(&bounds).is_some() {
                self.set(&bounds.key("variant"), variant);
            }
        }
    }
}

/// The rest of a path into the ScalingPolicy document, when it is one.
fn policy_part(path: &YamlPath) -> Option<&[Segment]> {
    match path.segments().split_first() {
        Some((Segment::Key(root), rest)) if root == POLICY => Some(rest),
        _ => None,
    }
}

/// [`Draft::set`] within one document.
fn set_in(document: &mut Value, segments: &[Segment], value: Option<Value>) {
    {
        let Some((last, parents)) = segments.split_last() else {
            return;
        };
        let mut at = document;
        for (i, segment) in parents.iter().enumerate() {
            let next_is_index = matches!(segments.get(i + 1), Some(Segment::Index(_)));
            let empty = || if next_is_index { json!([]) } else { json!({}) };
            at = match segment {
                Segment::Key(key) => {
                    if !at.is_object() {
                        if value.is_none() {
                            return;
                        }
                        *at = Value::Object(Map::new());
                    }
                    let Some(map) = at.as_object_mut() else {
                        return;
                    };
                    if value.is_none() && !map.contains_key(key) {
                        return;
                    }
                    map.entry(key.clone()).or_insert_with(empty)
                }
                Segment::Index(index) => {
                    let Some(list) = at.as_array_mut() else {
                        return;
                    };
                    while list.len() <= *index {
                        list.push(empty());
                    }
                    &mut list[*index]
                }
            };
        }
        match (last, value) {
            (Segment::Key(key), Some(value)) => {
                if !at.is_object() {
                    *at = Value::Object(Map::new());
                }
                if let Some(map) = at.as_object_mut() {
                    map.insert(key.clone(), value);
                }
            }
            (Segment::Key(key), None) => {
                if let Some(map) = at.as_object_mut() {
                    map.shift_remove(key);
                }
            }
            (Segment::Index(index), Some(value)) => {
                if let Some(list) = at.as_array_mut() {
                    while list.len() <= *index {
                        list.push(Value::Null);
                    }
                    list[*index] = value;
                }
            }
            (Segment::Index(index), None) => {
                if let Some(list) = at.as_array_mut()
                    && *index < list.len()
                {
                    list.remove(*index);
                }
            }
        }
    }
}

impl Draft {
    /// How many worker pools the draft has.
    pub fn worker_pools(&self) -> usize {
        self.get(&worker_pools_path())
            .and_then(Value::as_array)
            .map_or(0, Vec::len)
    }

    /// Adds a worker pool with the reference's shape and returns its index.
    pub fn add_worker_pool(&mut self, name: &str) -> usize {
        let index = self.worker_pools();
        self.set(
            &worker_pools_path().index(index),
            Some(json!({"name": name, "architecture": "AMD64", "minWorkerNodes": 1})),
        );
        index
    }

    /// The pool as the rules read it.
    pub fn model(&self) -> Option<(ComputePool, Vec<crate::domain::field::Issue>)> {
        read_owned::<ComputePool>(self.pool.clone()).ok()
    }

    /// Every finding of the shared rules on the draft: `old` for an edit (the update rules),
    /// `others` for the pools that exist (VIP and name uniqueness).
    pub fn findings(&self, old: Option<&ComputePool>, others: &dyn Pools) -> Vec<Finding> {
        let Some((pool, issues)) = self.model() else {
            return Vec::new();
        };
        let context = Context {
            old,
            fleet: others,
            self_index: None,
        };
        let mut findings = rules::validate(&pool, &issues, &context);
        if let Some(policy) = &self.policy {
            // The policy's findings are placed in its document: `policy.spec.…`.
            let root = YamlPath::keys(POLICY);
            findings.extend(
                rules::scaling_policy::validate(policy)
                    .into_iter()
                    .map(|f| Finding {
                        path: root.append(&f.path),
                        ..f
                    }),
            );
        }
        findings
    }

    /// [`Draft::findings`] with no other pool known (a wizard without a cluster).
    pub fn findings_alone(&self) -> Vec<Finding> {
        self.findings(None, &Fleet::new(Vec::new()))
    }

    /// The manifest: the pool, then the policy, as YAML documents.
    pub fn to_yaml(&self) -> String {
        let mut out = serde_saphyr::to_string(&self.pool).unwrap_or_default();
        if let Some(policy) = &self.policy {
            out.push_str("---\n");
            out.push_str(&serde_saphyr::to_string(policy).unwrap_or_default());
        }
        out
    }
}

/// The findings that belong to a field: those whose path is the field's path or lies under it.
pub fn findings_at<'f>(findings: &'f [Finding], path: &YamlPath) -> Vec<&'f Finding> {
    findings
        .iter()
        .filter(|f| f.path.starts_with(path))
        .collect()
}

#[cfg(test)]
#[path = "draft_tests.rs"]
mod tests;
