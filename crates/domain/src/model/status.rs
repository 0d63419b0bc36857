//! ComputePool status as the controller writes it: phase, conditions, hardware capacity and
//! allocation (with MIG), and per Palette cluster the allocated machine pools and their hosts.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::field::{
    Extra, Field, FromJson, Issue, Lenient, Map, Mismatch, Num, Scalar, SmallMap, Text, model,
};
use crate::path::At;
use crate::shared::Table;

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
    /// What an edge host is: its hardware. (Its `extra` stays empty: a host's fields that
    /// pooldeck does not know are the host's own, [`Host::extra`].)
    open struct HostHardware {
        architecture: Text = "architecture",
        cpu_count: i64 = "cpuCount",
        memory_gb: Num = "memoryGB",
        /// One entry on almost every host: held in place.
        gpu_count_by_variant: SmallMap<Field<i64>> = "gpuCountByVariant",
        gpu_memory_gb_by_variant: SmallMap<Field<Num>> = "gpuMemoryGBByVariant",
    }
}

impl Eq for HostHardware {}

/// Consistent with `==`: equal hardware hashes its architecture, counts and variants alike.
/// Only hardware whose every field reads as written is shared ([`shareable`]), so hashing the
/// values read is enough to tell apart what the table holds.
impl Hash for HostHardware {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.architecture.get().hash(state);
        self.cpu_count.get().hash(state);
        self.memory_gb.get().map(|n| &n.0).hash(state);
        for (variant, count) in self.gpu_count_by_variant.get().into_iter().flatten() {
            (variant, count.get()).hash(state);
        }
        for (variant, memory) in self.gpu_memory_gb_by_variant.get().into_iter().flatten() {
            (variant, memory.get().map(|n| &n.0)).hash(state);
        }
    }
}

/// Whether hardware can be shared: only when every field reads as a value (one of the wrong
/// shape keeps its raw value, which must be written back as it was) and no number is a
/// negative zero (equal to zero, but written differently).
fn shareable(hardware: &HostHardware) -> bool {
    fn number(n: &Num) -> bool {
        n.0.as_f64()
            .is_none_or(|f| !(f == 0.0 && f.is_sign_negative()))
    }
    fn field<T>(field: &Field<T>, ok: impl Fn(&T) -> bool) -> bool {
        !field.is_invalid() && field.get().is_none_or(ok)
    }
    fn variants<T>(map: &Field<SmallMap<Field<T>>>, ok: impl Fn(&T) -> bool) -> bool {
        field(map, |m| m.into_iter().all(|(_, v)| field(v, &ok)))
    }
    hardware.extra.is_empty()
        && field(&hardware.architecture, |_| true)
        && field(&hardware.cpu_count, |_| true)
        && field(&hardware.memory_gb, number)
        && variants(&hardware.gpu_count_by_variant, |_| true)
        && variants(&hardware.gpu_memory_gb_by_variant, number)
}

/// An edge host allocated to a machine pool, keyed by its UID in `hosts`: what it is (its
/// hardware, shared by every host read with the same) and how it is (its status). Reads as
/// one object: `host.architecture` is its hardware's, and it is written back as it was read.
/// Declared by hand, not with `model!`: its reading, writing and checking must stay those
/// the macro would make for the seven fields in this order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Host {
    pub hardware: Arc<HostHardware>,
    pub status: Field<Text>,
    pub status_updated_at: Field<Text>,
    /// Fields this version of pooldeck does not know, kept so nothing is lost: the host's
    /// own, never shared (a newer controller may write one that differs on every host).
    pub extra: Extra,
}

impl Host {
    /// The field names the reference documents for a host.
    pub const FIELDS: &'static [&'static str] = &[
        "architecture",
        "cpuCount",
        "memoryGB",
        "gpuCountByVariant",
        "gpuMemoryGBByVariant",
        "status",
        "statusUpdatedAt",
    ];
}

impl std::ops::Deref for Host {
    type Target = HostHardware;

    fn deref(&self) -> &HostHardware {
        &self.hardware
    }
}

impl FromJson for Host {
    fn read<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Result<Self, Mismatch>, D::Error> {
        crate::field::read_model(deserializer)
    }
}

impl crate::field::Entries for Host {
    fn read_entry<'de, A: serde::de::MapAccess<'de>>(
        &mut self,
        key: crate::field::Key<'de>,
        map: &mut A,
    ) -> Result<(), A::Error> {
        use crate::field::FieldSeed;
        match key.as_str() {
            "status" => self.status = map.next_value_seed(FieldSeed::new())?,
            "statusUpdatedAt" => self.status_updated_at = map.next_value_seed(FieldSeed::new())?,
            // Not shared yet: the host's own until it is finished.
            name if HostHardware::FIELDS.contains(&name) => {
                Arc::make_mut(&mut self.hardware).read_entry(key, map)?
            }
            _ => {
                let value = map.next_value::<Value>()?;
                self.extra.insert(key.into_string(), value);
            }
        }
        Ok(())
    }
}

impl<'de> Deserialize<'de> for Host {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        crate::field::deserialize_model(deserializer)
    }
}

/// Written as it was read: the fields in the reference's order, then those pooldeck does not
/// know.
impl Serialize for Host {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        fn entry<M: SerializeMap, T: Serialize>(
            map: &mut M,
            name: &str,
            field: &Field<T>,
        ) -> Result<(), M::Error> {
            if field.is_absent() {
                return Ok(());
            }
            map.serialize_entry(name, field)
        }
        let hardware = &*self.hardware;
        let mut map = serializer.serialize_map(None)?;
        entry(&mut map, "architecture", &hardware.architecture)?;
        entry(&mut map, "cpuCount", &hardware.cpu_count)?;
        entry(&mut map, "memoryGB", &hardware.memory_gb)?;
        entry(
            &mut map,
            "gpuCountByVariant",
            &hardware.gpu_count_by_variant,
        )?;
        entry(
            &mut map,
            "gpuMemoryGBByVariant",
            &hardware.gpu_memory_gb_by_variant,
        )?;
        entry(&mut map, "status", &self.status)?;
        entry(&mut map, "statusUpdatedAt", &self.status_updated_at)?;
        for (name, value) in self.extra.iter() {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

impl Lenient for Host {
    fn collect_issues(&self, at: &At<'_>, out: &mut Vec<Issue>) {
        self.hardware.collect_issues(at, out);
        self.status.collect_issues(&at.key("status"), out);
        self.status_updated_at
            .collect_issues(&at.key("statusUpdatedAt"), out);
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

#[cfg(test)]
mod tests {
    use serde_json::json;

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
