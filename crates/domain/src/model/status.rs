//! ComputePool status as the controller writes it: phase, conditions, hardware capacity and
//! allocation (with MIG), and per Palette cluster the allocated machine pools and their hosts.

use crate::field::{Field, Map, Num, Scalar, SmallMap, Text, model};

use super::pool::ObjectRef;

model! {
    open struct PoolStatus {
        status: Text = "status",
        conditions: Vec<Field<Condition>> = "conditions",
        hardware_capacity: Vec<Field<Hardware>> = "hardwareCapacity",
        hardware_allocation: Vec<Field<Hardware>> = "hardwareAllocation",
        total_hardware_allocated: Vec<Field<Hardware>> = "totalHardwareAllocated",
        hardware_allocated_by_node_pool: Vec<Field<NodePoolHardware>> = "hardwareAllocatedByNodePool",
        palette_cluster_statuses: Vec<Field<ClusterStatus>> = "paletteClusterStatuses",
        ai_workload_refs: Vec<Field<ObjectRef>> = "aiWorkloadRefs",
        /// WorkloadDeployment names; kept as raw values since the reference shows no example.
        workload_deployments: Vec<serde_json::Value> = "workloadDeployments",
    }
}

model! {
    /// A Kubernetes condition, on the pool or on one Palette cluster.
    open struct Condition {
        type_: Text = "type",
        status: Text = "status",
        reason: Text = "reason",
        message: Text = "message",
        last_transition_time: Text = "lastTransitionTime",
        observed_generation: i64 = "observedGeneration",
    }
}

model! {
    /// Hardware per architecture: capacity, allocation, or what is allocated.
    open struct Hardware {
        architecture: Text = "architecture",
        total_cpu: i64 = "totalCPU",
        total_memory: Scalar = "totalMemory",
        cpu_count: i64 = "cpuCount",
        memory: Scalar = "memory",
        gpu: Vec<Field<GpuHardware>> = "gpu",
    }
}

model! {
    open struct GpuHardware {
        variant: Text = "variant",
        gpu_count: i64 = "gpuCount",
        gpu_memory: Scalar = "gpuMemory",
        /// Boxed: most GPUs report no MIG, and a fleet holds several of these per pool.
        mig: Box<Mig> = "mig",
    }
}

model! {
    /// NVIDIA Multi-Instance GPU configuration, reported when SpokeNodes report it.
    open struct Mig {
        config: Text = "config",
        strategy: Text = "strategy",
        configuration_state: MigConfigurationState = "configurationState",
        layouts: Vec<Field<MigLayout>> = "layouts",
    }
}

model! {
    open struct MigConfigurationState {
        pending: i64 = "pending",
        rebooting: i64 = "rebooting",
        success: i64 = "success",
        failed: i64 = "failed",
    }
}

model! {
    open struct MigLayout {
        layout_gpu_count: i64 = "layoutGpuCount",
        devices: Vec<Field<MigDevice>> = "devices",
    }
}

model! {
    open struct MigDevice {
        profile: Text = "profile",
        device_count_per_gpu: i64 = "deviceCountPerGPU",
        gpu_slices_per_device: i64 = "gpuSlicesPerDevice",
        gpu_memory_per_device: Scalar = "gpuMemoryPerDevice",
    }
}

model! {
    open struct NodePoolHardware {
        cluster_name: Text = "clusterName",
        pool_name: Text = "poolName",
        hardware: Hardware = "hardware",
    }
}

model! {
    /// One Palette cluster of the pool (a shared pool may have several).
    open struct ClusterStatus {
        name: Text = "name",
        uid: Text = "uid",
        status: Text = "status",
        health: Text = "health",
        cloud_config_uuid: Text = "cloudConfigUUID",
        kubeconfig_secret_name: Text = "kubeconfigSecretName",
        conditions: Vec<Field<Condition>> = "conditions",
        allocated_machine_pools: Vec<Field<MachinePool>> = "allocatedMachinePools",
    }
}

model! {
    open struct MachinePool {
        name: Text = "name",
        node_type: Text = "nodeType",
        worker_pool_requirements_name: Text = "workerPoolRequirementsName",
        hosts: Map<Field<Host>> = "hosts",
        labels: Vec<Field<Text>> = "labels",
    }
}

model! {
    /// An edge host allocated to a machine pool, keyed by its UID in `hosts`.
    open struct Host {
        architecture: Text = "architecture",
        cpu_count: i64 = "cpuCount",
        memory_gb: Num = "memoryGB",
        /// One entry on almost every host: held in place.
        gpu_count_by_variant: SmallMap<Field<i64>> = "gpuCountByVariant",
        gpu_memory_gb_by_variant: SmallMap<Field<Num>> = "gpuMemoryGBByVariant",
        status: Text = "status",
        status_updated_at: Text = "statusUpdatedAt",
    }
}

impl Condition {
    pub fn kind(&self) -> &str {
        self.type_.as_deref().unwrap_or("")
    }

    pub fn is_true(&self) -> bool {
        self.status.as_deref() == Some("True")
    }

    pub fn is_false(&self) -> bool {
        self.status.as_deref() == Some("False")
    }
}

impl PoolStatus {
    pub fn conditions(&self) -> impl Iterator<Item = &Condition> {
        self.conditions
            .get()
            .into_iter()
            .flatten()
            .filter_map(Field::get)
    }

    pub fn clusters(&self) -> impl Iterator<Item = &ClusterStatus> {
        self.palette_cluster_statuses
            .get()
            .into_iter()
            .flatten()
            .filter_map(Field::get)
    }

    pub fn ai_workloads(&self) -> impl Iterator<Item = &ObjectRef> {
        self.ai_workload_refs
            .get()
            .into_iter()
            .flatten()
            .filter_map(Field::get)
    }
}

impl ClusterStatus {
    pub fn machine_pools(&self) -> impl Iterator<Item = &MachinePool> {
        self.allocated_machine_pools
            .get()
            .into_iter()
            .flatten()
            .filter_map(Field::get)
    }
}

impl MachinePool {
    pub fn hosts(&self) -> impl Iterator<Item = (&str, &Host)> {
        self.hosts
            .get()
            .into_iter()
            .flatten()
            .filter_map(|(uid, host)| host.get().map(|h| (uid.as_str(), h)))
    }
}

impl Host {
    pub fn gpu_count(&self) -> i64 {
        self.gpu_count_by_variant
            .get()
            .into_iter()
            .flatten()
            .filter_map(|(_, n)| n.get())
            .sum()
    }
}
