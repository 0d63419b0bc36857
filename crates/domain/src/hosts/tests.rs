//! Hosts against node pools on hand-made Compute objects: the guide's example shape, counts
//! short of what is asked, the requirement no host meets, GPUs in all, resource groups, a
//! single-node pool, and Compute status that cannot be read.

use serde_json::{Value, json};

use super::*;
use crate::model::typed;
use crate::rules::Finding;

/// A Compute shaped as the troubleshooting guide shows it, with `workers` available A100
/// hosts (2 GPUs each) and one more that is not available.
fn compute(workers: usize) -> Value {
    let mut machines = serde_json::Map::new();
    for i in 0..workers {
        machines.insert(format!("w{i}"), json!("available"));
    }
    machines.insert("busy".into(), json!("in-use"));
    json!({
        "kind": "Compute",
        "metadata": {"name": "factory", "namespace": "factory"},
        "status": {
            "controlPlaneCompute": [{
                "architecture": "AMD64", "cpuCount": 8, "memory": "32768 MiB", "instances": 3,
                "machines": {"cp1": "available", "cp2": "available", "cp3": "available"},
                "resourceGroups": {"palette.ai": "true"}
            }],
            "workerCompute": [{
                "architecture": "AMD64", "cpuCount": 16, "memory": "65536 MiB",
                "instances": workers + 1,
                "machines": machines,
                "gpuVariant": {"name": "NVIDIA A100-SXM4-80GB | 80 GB", "model": "NVIDIA A100-SXM4-80GB",
                               "gpuCount": 2, "perGPUMemory": "80 GB", "totalGPUMemory": "160 GB"},
                "resourceGroups": {"palette.ai": "true"}
            }]
        }
    })
}

fn pool(worker: Value) -> Value {
    json!({
        "kind": "ComputePool",
        "metadata": {"name": "p", "namespace": "factory"},
        "spec": {"clusterVariant": {
            "controlPlaneResourceGroups": {"palette.ai": "true"},
            "workerResourceGroups": {"palette.ai": "true"},
            "dedicated": {"paletteClusterDeploymentConfig": {"nodePoolRequirements": {
                "controlPlanePool": {"nodeCount": 3, "workerNodeEligible": false,
                                     "architecture": "AMD64", "cpu": {"cpuCount": 4},
                                     "memory": {"memory": "16 GB"}},
                "workerPools": [worker]
            }}}
        }}
    })
}

fn gpu_worker(min: i64, gpus: i64) -> Value {
    json!({"name": "gpu-pool", "architecture": "AMD64", "cpu": {"cpuCount": 16},
           "memory": {"memory": "64 GB"}, "minWorkerNodes": min,
           "gpu": {"variant": "NVIDIA A100-SXM4-80GB | 80 GB", "gpuCount": gpus, "gpuMemory": "160 GB"}})
}

fn messages(found: &[Finding]) -> Vec<String> {
    found
        .iter()
        .map(|f| format!("{} {} {}", f.rule.id, f.path, f.message))
        .collect()
}

#[test]
fn enough_matching_hosts_say_nothing() {
    let offer = Offer::of([&compute(2)]);
    assert_eq!(
        offer.workers[0].available, 2,
        "the in-use machine is not counted"
    );
    assert!(check(&typed(&pool(gpu_worker(2, 4))), &offer).is_empty());
}

#[test]
fn too_few_matching_workers_are_counted_against_what_is_asked() {
    let found = check(&typed(&pool(gpu_worker(3, 4))), &Offer::of([&compute(2)]));
    let said = messages(&found);
    assert_eq!(found.len(), 1, "{said:?}");
    assert_eq!(found[0].rule.id, "hosts.too-few");
    assert!(
        found[0]
            .message
            .starts_with("Compute lists 2 matching workers, worker pool gpu-pool asks for 3"),
        "{said:?}"
    );
    assert!(
        found[0]
            .path
            .to_string()
            .ends_with("workerPools[0].minWorkerNodes")
    );
}

#[test]
fn the_requirement_no_available_host_meets_is_named() {
    let mut worker = gpu_worker(1, 2);
    worker["gpu"]["variant"] = json!("NVIDIA L40S | 48 GB");
    worker["cpu"]["cpuCount"] = json!(64);
    let found = check(&typed(&pool(worker)), &Offer::of([&compute(2)]));
    let said = messages(&found);
    assert_eq!(found.len(), 1, "{said:?}");
    assert!(
        found[0]
            .message
            .contains("Compute lists 0 matching workers"),
        "{said:?}"
    );
    assert!(
        found[0]
            .message
            .contains("no available host has at least 64 CPUs, GPU variant NVIDIA L40S | 48 GB"),
        "{said:?}"
    );
    assert!(
        !found[0].message.contains("architecture"),
        "AMD64 is met: {said:?}"
    );
}

#[test]
fn gpus_in_all_are_compared_with_the_pools_gpu_count() {
    let found = check(&typed(&pool(gpu_worker(2, 8))), &Offer::of([&compute(2)]));
    let said = messages(&found);
    assert_eq!(found.len(), 1, "{said:?}");
    assert_eq!(found[0].rule.id, "hosts.gpus");
    assert!(
        found[0]
            .message
            .contains("have 4 NVIDIA A100-SXM4-80GB | 80 GB GPUs in all"),
        "{said:?}"
    );
    assert!(found[0].path.to_string().ends_with("gpu.gpuCount"));
}

#[test]
fn a_resource_group_no_host_carries_is_named_on_its_key() {
    let mut p = pool(gpu_worker(1, 2));
    p["spec"]["clusterVariant"]["workerResourceGroups"]["gpu-enabled"] = json!("true");
    let found = check(&typed(&p), &Offer::of([&compute(2)]));
    let said = messages(&found);
    let group = found
        .iter()
        .find(|f| f.rule.id == "hosts.resource-group")
        .unwrap_or_else(|| panic!("{said:?}"));
    assert!(
        group.message.contains("palette.ai.rg/gpu-enabled: 'true'"),
        "{said:?}"
    );
    assert!(
        group
            .path
            .to_string()
            .ends_with("workerResourceGroups.gpu-enabled")
    );
    // The worker pool then has no matching host, and says which requirement.
    assert!(
        said.iter()
            .any(|m| m.contains("no available host has resource group gpu-enabled: 'true'")),
        "{said:?}"
    );
}

#[test]
fn the_control_plane_is_matched_against_control_plane_hosts() {
    let mut p = pool(gpu_worker(1, 2));
    p["spec"]["clusterVariant"]["dedicated"]["paletteClusterDeploymentConfig"]["nodePoolRequirements"]
        ["controlPlanePool"]["nodeCount"] = json!(5);
    let found = check(&typed(&p), &Offer::of([&compute(2)]));
    let said = messages(&found);
    assert_eq!(found.len(), 1, "{said:?}");
    assert!(
        found[0].message.starts_with(
            "Compute lists 3 matching control-plane hosts, the control plane asks for 5"
        ),
        "{said:?}"
    );
}

#[test]
fn an_empty_worker_list_is_said_as_such() {
    let mut c = compute(0);
    c["status"]["workerCompute"] = json!([]);
    let found = check(&typed(&pool(gpu_worker(1, 2))), &Offer::of([&c]));
    let said = messages(&found);
    assert!(
        said.iter()
            .any(|m| m.contains("(no available workers at all)")),
        "{said:?}"
    );
}

#[test]
fn a_single_node_pool_picks_one_host_of_either_list_by_control_plane_groups() {
    let mut p = pool(gpu_worker(1, 2));
    let requirements = &mut p["spec"]["clusterVariant"]["dedicated"]["paletteClusterDeploymentConfig"]
        ["nodePoolRequirements"];
    requirements["controlPlanePool"] =
        json!({"nodeCount": 1, "singleNodeCluster": true, "workerNodeEligible": true});
    // A worker group the hosts lack does not matter: single-node uses the control plane's.
    p["spec"]["clusterVariant"]["workerResourceGroups"] = json!({});
    let needs = needs(&typed(&p));
    assert_eq!(needs.len(), 1);
    assert_eq!(needs[0].role, Role::Both);
    assert!(check(&typed(&p), &Offer::of([&compute(1)])).is_empty());
}

#[test]
fn no_compute_says_nothing_and_unreadable_status_meets_nothing() {
    assert!(check(&typed(&pool(gpu_worker(1, 2))), &Offer::default()).is_empty());
    let broken = json!({"status": {"controlPlaneCompute": "nonsense",
        "workerCompute": [{"architecture": 7, "cpuCount": "lots", "machines": ["x"]}, 12]}});
    let offer = Offer::of([&broken]);
    assert_eq!(offer.workers.len(), 2);
    assert!(offer.workers.iter().all(|m| m.available == 0));
    let found = check(&typed(&pool(gpu_worker(1, 2))), &offer);
    assert!(
        messages(&found)
            .iter()
            .any(|m| m.contains("Compute lists 0 matching workers")),
        "{:?}",
        messages(&found)
    );
}

#[test]
fn memory_in_mib_meets_the_same_size_in_gb() {
    let host = Memory::parse("65536 MiB").unwrap();
    assert!(enough_memory(&host, &Memory::parse("64 GB").unwrap()));
    assert!(enough_memory(&host, &Memory::parse("64 GiB").unwrap()));
    assert!(!enough_memory(&host, &Memory::parse("96 GB").unwrap()));
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// More available hosts never turn a pool's "too few hosts" finding on, and the count
        /// said is the count of available matching machines.
        #[test]
        fn more_hosts_never_make_it_worse(available in 0usize..6, asked in 1i64..6) {
            let p = pool(gpu_worker(asked, 0));
            let fewer = check(&typed(&p), &Offer::of([&compute(available)]));
            let more = check(&typed(&p), &Offer::of([&compute(available + 1)]));
            let short = |f: &[Finding]| f.iter().any(|f| f.rule.id == "hosts.too-few");
            prop_assert_eq!(short(&fewer), (available as i64) < asked);
            prop_assert!(!short(&more) || short(&fewer));
        }
    }
}

/// A count a person quoted ("3") is read as the number it says, as before the model read it.
#[test]
fn a_quoted_count_is_read_as_its_number() {
    let mut p = pool(gpu_worker(1, 2));
    p["spec"]["clusterVariant"]["dedicated"]["paletteClusterDeploymentConfig"]["nodePoolRequirements"]
        ["workerPools"][0]["minWorkerNodes"] = json!("3");
    let needs = needs(&typed(&p));
    let worker = needs
        .iter()
        .find(|n| n.role == Role::Worker)
        .expect("the worker pool");
    assert_eq!(worker.nodes, 3);
}

/// A worker entry that is not a mapping keeps its place: a single-node pool still asks for its
/// one host (the rules say what is wrong with the entry).
#[test]
fn an_unreadable_worker_entry_still_asks_for_its_hosts() {
    let mut p = pool(gpu_worker(1, 2));
    let requirements = &mut p["spec"]["clusterVariant"]["dedicated"]["paletteClusterDeploymentConfig"]
        ["nodePoolRequirements"];
    requirements["controlPlanePool"] =
        json!({"nodeCount": 1, "singleNodeCluster": true, "workerNodeEligible": true});
    requirements["workerPools"] = json!(["not a mapping", {"name": "second"}]);
    let needs = needs(&typed(&p));
    assert_eq!(needs.len(), 1, "{needs:?}");
    assert_eq!(needs[0].role, Role::Both);
    assert_eq!(needs[0].what, "worker pool (unnamed)");
}
