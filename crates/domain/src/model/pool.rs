//! The ComputePool spec, field for field as the configuration reference documents it.

use crate::field::{Field, Map, Scalar, Text, model};

use super::meta::{ObjectMeta, StringMap};
use super::status::PoolStatus;

pub const API_VERSION: &str = "spectrocloud.com/v1alpha1";
pub const GROUP: &str = "spectrocloud.com";
pub const KIND: &str = "ComputePool";

/// The label that pauses reconciliation when it is exactly `"true"`.
pub const PAUSE_LABEL: &str = "controller.spectrocloud.com/pause";
/// The canonical description annotation, and the legacy key read as a fallback.
pub const DESCRIPTION_ANNOTATION: &str = "spectrocloud.com/description";
pub const LEGACY_DESCRIPTION_ANNOTATION: &str = "palette-ai/description";
/// Machines in Palette carry resource-group labels with this prefix; the pool writes the key
/// without it.
pub const RESOURCE_GROUP_PREFIX: &str = "palette.ai.rg/";
/// The namespace whose pools are system-scoped and read `sharedWith`.
pub const SYSTEM_NAMESPACE: &str = "pai-system";
pub const FINALIZER: &str = "spectrocloud.com/computepool-finalizer";

model! {
    /// A ComputePool as read from a manifest or the API.
    strict struct ComputePool {
        api_version: Text = "apiVersion",
        kind: Text = "kind",
        metadata: ObjectMeta = "metadata",
        spec: PoolSpec = "spec",
        status: PoolStatus = "status",
    }
}

/// `spec.sharedWith`: Tenant selectors to Project selectors; `null` or `[]` means the Tenant
/// sees the pool but none of its Projects may use it.
pub type SharedWith = Map<Field<Vec<Field<Text>>>>;

model! {
    strict struct PoolSpec {
        deletion_policy: Text = "deletionPolicy",
        profile_bundle_ref: ProfileBundleRef = "profileBundleRef",
        cluster_variant: ClusterVariant = "clusterVariant",
        shared_with: SharedWith = "sharedWith",
    }
}

model! {
    strict struct ProfileBundleRef {
        name: Text = "name",
        namespace: Text = "namespace",
        cloud_type: Text = "cloudType",
    }
}

model! {
    strict struct ClusterVariant {
        control_plane_resource_groups: StringMap = "controlPlaneResourceGroups",
        worker_resource_groups: StringMap = "workerResourceGroups",
        dedicated: Dedicated = "dedicated",
        /// Boxed, as the sub-structs below that a pool usually leaves out: a missing one
        /// costs a pointer instead of its whole size, in every pool of a fleet.
        shared: Box<Shared> = "shared",
    }
}

model! {
    strict struct Dedicated {
        palette_cluster_deployment_config: DeploymentConfig = "paletteClusterDeploymentConfig",
        scaling_policy_ref: ObjectRef = "scalingPolicyRef",
    }
}

model! {
    /// The shared variant; the reference documents only its scaling policy reference.
    open struct Shared {
        scaling_policy_ref: ObjectRef = "scalingPolicyRef",
    }
}

model! {
    strict struct DeploymentConfig {
        cloud_type: Text = "cloudType",
        node_pool_requirements: NodePoolRequirements = "nodePoolRequirements",
        ssh_keys: Vec<Field<Text>> = "sshKeys",
        edge: Edge = "edge",
        settings_ref: Box<ObjectRef> = "settingsRef",
        /// Deprecated: the top-level `spec.deletionPolicy` replaces it.
        deletion_policy: Text = "deletionPolicy",
    }
}

model! {
    strict struct ObjectRef {
        name: Text = "name",
        namespace: Text = "namespace",
    }
}

model! {
    strict struct NodePoolRequirements {
        control_plane_pool: ControlPlanePool = "controlPlanePool",
        worker_pools: Vec<Field<WorkerPool>> = "workerPools",
    }
}

model! {
    strict struct ControlPlanePool {
        node_count: i64 = "nodeCount",
        single_node_cluster: bool = "singleNodeCluster",
        worker_node_eligible: bool = "workerNodeEligible",
        architecture: Text = "architecture",
        cpu: CpuRequirement = "cpu",
        memory: MemoryRequirement = "memory",
        labels: StringMap = "labels",
        annotations: StringMap = "annotations",
    }
}

model! {
    strict struct WorkerPool {
        name: Text = "name",
        architecture: Text = "architecture",
        cpu: CpuRequirement = "cpu",
        memory: MemoryRequirement = "memory",
        gpu: GpuRequirement = "gpu",
        min_worker_nodes: i64 = "minWorkerNodes",
        labels: StringMap = "labels",
        annotations: StringMap = "annotations",
        taints: Vec<Field<Taint>> = "taints",
    }
}

model! {
    strict struct CpuRequirement {
        cpu_count: i64 = "cpuCount",
    }
}

model! {
    strict struct MemoryRequirement {
        /// A string with units; a bare number is kept so the rules can say what is missing.
        memory: Scalar = "memory",
    }
}

model! {
    strict struct GpuRequirement {
        variant: Text = "variant",
        /// Deprecated; kept for compatibility and not read by controllers.
        family: Text = "family",
        gpu_count: i64 = "gpuCount",
        gpu_memory: Scalar = "gpuMemory",
    }
}

model! {
    strict struct Taint {
        key: Text = "key",
        value: Text = "value",
        effect: Text = "effect",
    }
}

model! {
    strict struct Edge {
        vip: Text = "vip",
        ntp_servers: Vec<Field<Text>> = "ntpServers",
        network_overlay_config: Box<NetworkOverlayConfig> = "networkOverlayConfig",
        is_two_node: bool = "isTwoNode",
    }
}

model! {
    strict struct NetworkOverlayConfig {
        enabled: bool = "enabled",
        static_ip: bool = "staticIp",
        cidr: Text = "cidr",
        /// Accepted by the schema, not read when deploying: VXLAN is the only overlay type.
        overlay_network_type: Text = "overlayNetworkType",
    }
}

impl ComputePool {
    pub fn name(&self) -> &str {
        self.metadata.get().map_or("", ObjectMeta::name)
    }

    pub fn namespace(&self) -> Option<&str> {
        self.metadata.get().and_then(ObjectMeta::namespace)
    }

    pub fn meta(&self) -> Option<&ObjectMeta> {
        self.metadata.get()
    }

    pub fn spec(&self) -> Option<&PoolSpec> {
        self.spec.get()
    }

    /// `namespace/name`, or the bare name when no namespace is written.
    pub fn key(&self) -> String {
        match self.namespace() {
            Some(ns) => format!("{ns}/{}", self.name()),
            None => self.name().to_owned(),
        }
    }

    /// Whether reconciliation is paused: only the exact string `"true"` pauses.
    pub fn is_paused(&self) -> bool {
        self.meta().and_then(|m| m.label(PAUSE_LABEL)) == Some("true")
    }

    /// The description, from the canonical annotation or the legacy fallback.
    pub fn description(&self) -> Option<&str> {
        let meta = self.meta()?;
        meta.annotation(DESCRIPTION_ANNOTATION)
            .or_else(|| meta.annotation(LEGACY_DESCRIPTION_ANNOTATION))
    }

    pub fn dedicated(&self) -> Option<&Dedicated> {
        self.spec()?.cluster_variant.get()?.dedicated.get()
    }

    pub fn deployment_config(&self) -> Option<&DeploymentConfig> {
        self.dedicated()?.palette_cluster_deployment_config.get()
    }

    pub fn node_pool_requirements(&self) -> Option<&NodePoolRequirements> {
        self.deployment_config()?.node_pool_requirements.get()
    }

    pub fn control_plane(&self) -> Option<&ControlPlanePool> {
        self.node_pool_requirements()?.control_plane_pool.get()
    }

    /// Worker pools that read as mappings, with their index in the list.
    pub fn worker_pools(&self) -> impl Iterator<Item = (usize, &WorkerPool)> {
        self.node_pool_requirements()
            .and_then(|n| n.worker_pools.get())
            .into_iter()
            .flatten()
            .enumerate()
            .filter_map(|(i, w)| w.get().map(|w| (i, w)))
    }

    pub fn edge(&self) -> Option<&Edge> {
        self.deployment_config()?.edge.get()
    }

    pub fn overlay_enabled(&self) -> bool {
        self.edge()
            .and_then(|e| e.network_overlay_config.get())
            .and_then(|o| o.enabled.get())
            .copied()
            .unwrap_or(false)
    }

    /// The VIP as written (also when the overlay makes it ignored).
    pub fn vip(&self) -> Option<&str> {
        self.edge()?.vip.as_deref()
    }

    /// The VIP that the cluster actually uses: none when the overlay is enabled.
    /// The address the pool's VIP is: none with the network overlay on; spaces around it are
    /// not part of it (a VIP written `'10.0.0.1 '` is 10.0.0.1, for uniqueness too).
    pub fn effective_vip(&self) -> Option<&str> {
        if self.overlay_enabled() {
            None
        } else {
            self.vip().map(str::trim).filter(|v| !v.is_empty())
        }
    }

    pub fn scaling_policy_ref(&self) -> Option<&ObjectRef> {
        let variant = self.spec()?.cluster_variant.get()?;
        variant
            .dedicated
            .get()
            .and_then(|d| d.scaling_policy_ref.get())
            .or_else(|| {
                variant
                    .shared
                    .get()
                    .and_then(|s| s.scaling_policy_ref.get())
            })
    }

    /// The deletion policy in force: the top-level field, then the deprecated nested one,
    /// then the documented default `delete`.
    /// The ScalingPolicy's name: the dedicated variant's, else the shared one's (a reference
    /// without a name does not hide the other's).
    pub fn scaling_policy_name(&self) -> Option<&str> {
        fn name(reference: Option<&ObjectRef>) -> Option<&str> {
            reference.and_then(|r| r.name.as_deref())
        }
        let variant = self.spec()?.cluster_variant.get()?;
        name(
            variant
                .dedicated
                .get()
                .and_then(|d| d.scaling_policy_ref.get()),
        )
        .or_else(|| {
            name(
                variant
                    .shared
                    .get()
                    .and_then(|s| s.scaling_policy_ref.get()),
            )
        })
    }

    pub fn deletion_policy(&self) -> &str {
        self.spec()
            .and_then(|s| s.deletion_policy.as_deref())
            .or_else(|| self.deployment_config()?.deletion_policy.as_deref())
            .unwrap_or("delete")
    }

    pub fn is_single_node(&self) -> bool {
        self.control_plane()
            .and_then(|c| c.single_node_cluster.get())
            .copied()
            .unwrap_or(false)
    }

    /// Whether the pool is Running: of pools sharing a VIP, the one that runs holds it.
    pub fn runs(&self) -> bool {
        self.status.get().and_then(|s| s.status.as_deref()) == Some("Running")
    }

    /// When the API created the pool (its `creationTimestamp`), when it reads as a time.
    pub fn created(&self) -> Option<chrono::DateTime<chrono::Utc>> {
        self.meta()
            .and_then(|m| m.creation_timestamp.as_deref())
            .and_then(crate::time::parse)
    }
}

impl WorkerPool {
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }
}
