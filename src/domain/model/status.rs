//! ComputePool status as the controller writes it: phase, conditions, hardware capacity and
//! allocation (with MIG), and per Palette cluster the allocated machine pools and their hosts.

use crate::domain::field::{Field, Map, Num, Scalar, model};

use super::pool::ObjectRef;

model! {
    open struct PoolStatus {
        status: String = "status",
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
        type_: String = "type",
        status: String = "status",
        reason: String = "reason",
        message: String = "message",
        last_transition_time: String = "lastTransitionTime",
        observed_generation: i64 = "observedGeneration",
    }
}

model! {
    /// Hardware per architecture: capacity, allocation, or what is allocated.
    open struct Hardware {
        architecture: String = "architecture",
        total_cpu: i64 = "totalCPU",
        total_memory: Scalar = "totalMemory",
        cpu_count: i64 = "cpuCount",
        memory: Scalar = "memory",
        gpu: Vec<Field<GpuHardware>> = "gpu",
    }
}

model! {
    open struct GpuHardware {
        variant: String = "variant",
        gpu_count: i64 = "gpuCount",
        gpu_memory: Scalar = "gpuMemory",
        mig: Mig = "mig",
    }
}

model! {
    /// NVIDIA Multi-Instance GPU configuration, reported when SpokeNodes report it.
    open struct Mig {
        config: String = "config",
        strategy: String = "strategy",
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
        profile: String = "profile",
        device_count_per_gpu: i64 = "deviceCountPerGPU",
        gpu_slices_per_device: i64 = "gpuSlicesPerDevice",
        gpu_memory_per_device: Scalar = "gpuMemoryPerDevice",
    }
}

model! {
    open struct NodePoolHardware {
        cluster_name: String = "clusterName",
        pool_name: String = "poolName",
        hardware: Hardware = "hardware",
    }
}

model! {
    /// One Palette cluster of the pool (a shared pool may have several).
    open struct ClusterStatus {
        name: String = "name",
        uid: String = "uid",
        status: String = "status",
        health: String = "health",
        cloud_config_uuid: String = "cloudConfigUUID",
        kubeconfig_secret_name: String = "kubeconfigSecretName",
        conditions: Vec<Field<Condition>> = "conditions",
        allocated_machine_pools: Vec<Field<MachinePool>> = "allocatedMachinePools",
    }
}

model! {
    open struct MachinePool {
        name: String = "name",
        node_type: String = "nodeType",
        worker_pool_requirements_name: String = "workerPoolRequirementsName",
        hosts: Map<Field<Host>> = "hosts",
        labels: Vec<Field<String>> = "labels",
    }
}

model! {
    /// An edge host allocated to a machine pool, keyed by its UID in `hosts`.
    open struct Host {
        architecture: String = "architecture",
        cpu_count: i64 = "cpuCount",
        memory_gb: Num = "memoryGB",
        gpu_count_by_variant: Map<Field<i64>> = "gpuCountByVariant",
        gpu_memory_gb_by_variant: Map<Field<Num>> = "gpuMemoryGBByVariant",
        status: String = "status",
        status_updated_at: String = "statusUpdatedAt",
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
