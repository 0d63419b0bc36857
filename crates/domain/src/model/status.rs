//! ComputePool status as the controller writes it: phase, conditions, hardware capacity and
//! allocation (with MIG), and per Palette cluster the allocated machine pools and their hosts.

use crate::field::{Field, Map, Scalar, Text, model};
use crate::shared::Table;

use super::host::shareable;
pub use super::host::{Host, HostHardware};
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

impl PoolStatus {
    /// Its hosts' hardware shared with every host in `hardware` with the same: the hosts of
    /// a fleet are a handful of kinds of machine, so 100,000 hosts hold a handful of these.
    pub fn share(&mut self, hardware: &mut Table<HostHardware>) {
        let clusters = self
            .palette_cluster_statuses
            .get_mut()
            .into_iter()
            .flatten();
        let pools = clusters
            .filter_map(Field::get_mut)
            .flat_map(|c| c.allocated_machine_pools.get_mut().into_iter().flatten())
            .filter_map(Field::get_mut);
        for pool in pools {
            let hosts = pool
                .hosts
                .get_mut()
                .into_iter()
                .flat_map(|m| m.0.iter_mut());
            for host in hosts.filter_map(|(_, host)| host.get_mut()) {
                if shareable(&host.hardware) {
                    host.hardware = hardware.share(host.hardware.clone());
                }
            }
        }
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::{Value, json};

    use super::*;
    use crate::model::{ComputePool, read};

    fn pool_with_hosts(hosts: Value) -> Value {
        json!({
            "apiVersion": "spectrocloud.com/v1alpha1",
            "kind": "ComputePool",
            "metadata": {"name": "p", "namespace": "ns"},
            "status": {"paletteClusterStatuses": [{"name": "p", "allocatedMachinePools": [
                {"name": "workers", "hosts": hosts}
            ]}]}
        })
    }

    /// A pool read from `value`, its hosts' hardware shared through `shares`.
    fn read_shared(
        value: &Value,
        shares: &mut Table<HostHardware>,
    ) -> (ComputePool, Vec<crate::field::Issue>) {
        let (mut pool, issues): (ComputePool, _) = read(value).unwrap();
        if let Some(status) = pool.status.get_mut() {
            status.share(shares);
        }
        (pool, issues)
    }

    fn hosts_of(pool: &ComputePool) -> Vec<(String, Host)> {
        pool.status
            .get()
            .into_iter()
            .flat_map(|s| s.clusters())
            .flat_map(|c| c.machine_pools())
            .flat_map(|m| m.hosts())
            .map(|(uid, host)| (uid.to_owned(), host.clone()))
            .collect()
    }

    #[test]
    fn hosts_of_the_same_hardware_share_it_and_each_keeps_its_own_status() {
        let gpu = "NVIDIA A100-SXM4-80GB | 80 GB";
        let hardware = json!({"architecture": "AMD64", "cpuCount": 32, "memoryGB": 256,
            "gpuCountByVariant": {gpu: 4}, "gpuMemoryGBByVariant": {gpu: 320}});
        let host = |status: &str, at: &str| {
            let mut host = hardware.clone();
            host["status"] = json!(status);
            host["statusUpdatedAt"] = json!(at);
            host
        };
        let mut other = host("Healthy", "2026-12-01T10:00:00Z");
        other["cpuCount"] = json!(64);
        let value = pool_with_hosts(json!({
            "uid-1": host("Healthy", "2026-12-01T10:00:00Z"),
            "uid-2": host("Provisioning", "2026-12-01T11:30:00Z"),
            "uid-3": other,
        }));
        let mut shares = Table::default();
        let (pool, issues) = read_shared(&value, &mut shares);
        assert!(issues.is_empty(), "{issues:?}");
        let hosts = hosts_of(&pool);
        assert_eq!(hosts.len(), 3);
        let (a, b, c) = (&hosts[0].1, &hosts[1].1, &hosts[2].1);
        assert!(
            Arc::ptr_eq(&a.hardware, &b.hardware),
            "same hardware, one copy"
        );
        assert!(
            !Arc::ptr_eq(&a.hardware, &c.hardware),
            "other hardware, its own"
        );
        assert_eq!(a.status.as_deref(), Some("Healthy"));
        assert_eq!(b.status.as_deref(), Some("Provisioning"));
        assert_eq!(b.status_updated_at.as_deref(), Some("2026-12-01T11:30:00Z"));
        assert_eq!(
            (b.cpu_count.get(), c.cpu_count.get()),
            (Some(&32), Some(&64))
        );
        assert_eq!(b.gpu_count(), 4);
        // Another pool read later shares the same hardware too.
        let (again, _) = read_shared(&value, &mut shares);
        assert!(Arc::ptr_eq(&hosts_of(&again)[0].1.hardware, &a.hardware));
        // Read alone, a pool's hosts hold their own.
        let (alone, _): (ComputePool, _) = read(&value).unwrap();
        assert!(!Arc::ptr_eq(&hosts_of(&alone)[0].1.hardware, &a.hardware));
        assert_eq!(serde_json::to_value(&pool).unwrap(), value);
    }

    #[test]
    fn a_host_is_written_back_as_read_with_its_odd_fields_and_their_issues() {
        // Fields in the reference's order, one null, one of the wrong type, one unknown.
        let value = pool_with_hosts(json!({
            "uid-1": {"architecture": "ARM64", "cpuCount": "many", "memoryGB": 64.5,
                      "status": null, "statusUpdatedAt": 7, "heartbeat": {"at": "now"}},
            "uid-2": {"status": "Healthy"},
        }));
        let (pool, issues): (ComputePool, _) = read(&value).unwrap();
        // Compared as text: values compare mappings whatever their order.
        assert_eq!(
            serde_json::to_string(&pool).unwrap(),
            serde_json::to_string(&value).unwrap()
        );
        let paths: Vec<String> = issues.iter().map(|i| i.path().to_string()).collect();
        let host = "status.paletteClusterStatuses[0].allocatedMachinePools[0].hosts.uid-1";
        assert_eq!(
            paths,
            [
                format!("{host}.cpuCount"),
                format!("{host}.statusUpdatedAt")
            ],
            "a host is open: its unknown field is no issue"
        );
        let hosts = hosts_of(&pool);
        assert_eq!(
            hosts[0].1.extra.get("heartbeat"),
            Some(&json!({"at": "now"}))
        );
        assert!(
            hosts[0].1.hardware.extra.is_empty(),
            "a host's own field is not hardware"
        );
        assert!(matches!(hosts[0].1.status, Field::Null), "null stays null");
        assert_eq!(hosts[1].1.status.as_deref(), Some("Healthy"));
        assert!(hosts[1].1.architecture.is_absent());
        let hardware: Host = serde_json::from_value(json!({"cpuCount": 8})).unwrap();
        assert_eq!(hardware.cpu_count.get(), Some(&8));
        assert!(serde_json::from_value::<Host>(json!("a host")).is_err());
    }

    #[test]
    fn what_differs_from_host_to_host_is_never_shared_and_is_written_back_as_read() {
        // The same hardware; unknown fields of their own, in different orders; a negative
        // zero (equal to zero, written otherwise); a field of the wrong shape.
        let value = pool_with_hosts(json!({
            "uid-1": {"architecture": "AMD64", "memoryGB": 0, "status": "Healthy",
                      "ip": "10.0.0.1", "rack": "r1"},
            "uid-2": {"architecture": "AMD64", "memoryGB": 0, "status": "Healthy",
                      "rack": "r1", "ip": "10.0.0.1"},
            "uid-3": {"architecture": "AMD64", "memoryGB": -0.0, "status": "Healthy"},
            "uid-4": {"architecture": "AMD64", "memoryGB": "0", "status": "Healthy"},
            "uid-5": {"architecture": "AMD64", "memoryGB": 0.0, "status": "Healthy"},
        }));
        let (pool, _) = read_shared(&value, &mut Table::default());
        assert_eq!(
            serde_json::to_string(&pool).unwrap(),
            serde_json::to_string(&value).unwrap(),
            "every host as written, in its own order"
        );
        let hosts = hosts_of(&pool);
        let hardware = |i: usize| &hosts[i].1.hardware;
        assert!(
            Arc::ptr_eq(hardware(0), hardware(1)),
            "the unknown fields are the hosts'"
        );
        assert!(!Arc::ptr_eq(hardware(0), hardware(2)), "-0.0 is not 0");
        assert!(!Arc::ptr_eq(hardware(4), hardware(2)), "-0.0 is not 0.0");
        assert!(!Arc::ptr_eq(hardware(0), hardware(3)), "\"0\" is not 0");
        assert!(hosts[3].1.memory_gb.is_invalid());
    }

    #[test]
    fn a_field_of_its_own_on_every_host_still_shares_the_hardware() {
        // A newer controller writing a field pooldeck does not know, different on each host:
        // the hardware is still one shared value (the table is not searched through 10,000
        // entries of the same hash), and each host keeps its own field.
        let hosts: serde_json::Map<String, Value> = (0..10_000)
            .map(|i| {
                let host = json!({"architecture": "ARM64-own-field-test", "cpuCount": 64,
                    "status": "Healthy", "lastHeartbeat": format!("2026-12-01T10:{:02}:{:02}Z", i / 60 % 60, i % 60),
                    "serial": i});
                (format!("uid-{i}"), host)
            })
            .collect();
        let (pool, _) = read_shared(
            &pool_with_hosts(Value::Object(hosts)),
            &mut Table::default(),
        );
        let hosts = hosts_of(&pool);
        assert_eq!(hosts.len(), 10_000);
        let first = &hosts[0].1.hardware;
        assert!(hosts.iter().all(|(_, h)| Arc::ptr_eq(&h.hardware, first)));
        assert_eq!(hosts[42].1.extra.get("serial"), Some(&json!(42)));
    }

    #[test]
    fn the_hardware_table_lets_go_of_what_no_host_holds() {
        let value = pool_with_hosts(json!({"uid-1": {"architecture": "RISCV64", "cpuCount": 3}}));
        let mut shares = Table::default();
        let (pool, _) = read_shared(&value, &mut shares);
        let weak = Arc::downgrade(&hosts_of(&pool)[0].1.hardware);
        drop(pool);
        shares.sweep();
        assert!(weak.upgrade().is_none(), "swept once no host holds it");
        assert!(shares.is_empty());
    }
}
