//! The `large` scenario's synthetic fleet: pools shaped like the configuration reference's
//! examples, each with its evaluation, ten hosts and the `managedFields` a real API server
//! keeps on every object (who wrote the spec, who wrote the status), so that lists weigh what
//! a real hub's lists weigh.

use chrono::Utc;
use serde_json::{Value, json};

use super::scenario::resolve_times_at;
use pooldeck_domain::model::pool::FINALIZER;

/// The field manager the status (and an evaluation's spec) are written by in the demo.
const CONTROLLER: &str = "hue-controller";

/// Pool `i` of the `large` scenario and its evaluation: one of three projects and variants, ten
/// hosts, a status that cycles through the documented values.
pub fn large_pool(i: usize) -> (Value, Value) {
    let variants = [
        "NVIDIA A100-SXM4-80GB | 80 GB",
        "NVIDIA H100 PCIe | 80 GB",
        "NVIDIA L40S | 48 GB",
    ];
    let statuses = [
        "Running",
        "Running",
        "Running",
        "Provisioning",
        "Updating",
        "Unhealthy",
        "Failed",
        "Unknown",
    ];
    let namespace = format!("project-{}", i % 3 + 1);
    let name = format!("pool-{i:05}");
    let variant = variants[i % variants.len()];
    let hosts: serde_json::Map<String, Value> = (0..10)
                .map(|h| {
                    (
                        format!("host-{i:05}-{h:02}"),
                        json!({"architecture": "AMD64", "cpuCount": 32, "memoryGB": 256,
                               "gpuCountByVariant": {variant: 4}, "gpuMemoryGBByVariant": {variant: 320},
                               "status": if h == 9 && i.is_multiple_of(7) { "Provisioning" } else { "Healthy" },
                               "statusUpdatedAt": "now-2h"}),
                    )
                })
                .collect();
    let pool = json!({
        "apiVersion": "spectrocloud.com/v1alpha1", "kind": "ComputePool",
        "metadata": {"name": name, "namespace": namespace, "creationTimestamp": "now-3d",
                     "finalizers": [FINALIZER], "labels": {"fleet": "large"}},
        "spec": {"profileBundleRef": {"name": "edge-profilebundle", "namespace": namespace, "cloudType": "edge-native"},
                 "clusterVariant": {"dedicated": {
                    "scalingPolicyRef": {"name": "gpu-scaling", "namespace": namespace},
                    "paletteClusterDeploymentConfig": {"nodePoolRequirements": {
                        "controlPlanePool": {"nodeCount": 3, "workerNodeEligible": false, "architecture": "AMD64", "cpu": {"cpuCount": 8}},
                        "workerPools": [{"name": "gpu-workers", "architecture": "AMD64", "gpu": {"variant": variant, "gpuCount": 40}}]},
                      "edge": {"vip": format!("10.{}.{}.{}", 100 + i / 65_536 % 100, i / 256 % 256, i % 256)}}}}},
        "status": {"status": statuses[i % statuses.len()],
                   "hardwareCapacity": [{"architecture": "AMD64", "totalCPU": 320, "totalMemory": "2560Gi", "gpu": [{"variant": variant, "gpuCount": 40}]}],
                   "hardwareAllocation": [{"architecture": "AMD64", "gpu": [{"variant": variant, "gpuCount": (i * 7) % 41}]}],
                   "paletteClusterStatuses": [{"name": name, "health": "Healthy", "status": "Running",
                       "allocatedMachinePools": [{"name": "worker-pool-0", "nodeType": "WorkerOnly",
                           "workerPoolRequirementsName": "gpu-workers", "hosts": hosts}]}]}
    });
    let evaluation = json!({
        "apiVersion": "spectrocloud.com/v1alpha1", "kind": "ComputePoolEvaluation",
        "metadata": {"name": name, "namespace": namespace, "creationTimestamp": "now-3d"},
        "spec": {"poolEvaluations": {format!("{name}/worker-pool-0"): {
                    "cpu": {"count": 320, "target": 320, "utilization": (i * 13) % 100},
                    "gpu": {variant: {"count": 40, "target": 40, "utilization": (i * 31) % 100}},
                    "evaluatedAt": "now-30s"}},
                 "cooldownDuration": "15m", "abortDuration": "30m"},
        "status": {"poolScalingStates": {format!("{name}/worker-pool-0"): {"state": "Idle", "stateChangedAt": "now-1h"}}}
    });
    (
        with_managed_fields(pool, "kubectl-create"),
        with_managed_fields(evaluation, CONTROLLER),
    )
}

/// Event `i` of a `large` fleet of `pools` pools: about pool `i % pools`, one in five a
/// warning, happened up to a day ago; as the controller records them (one reason each).
pub fn large_event(i: usize, pools: usize) -> Value {
    let pool = i % pools.max(1);
    let namespace = format!("project-{}", pool % 3 + 1);
    let name = format!("pool-{pool:05}");
    let (kind, reason, message) = if i.is_multiple_of(5) {
        (
            "Warning",
            "ScaleUpPending",
            "not enough Healthy edge hosts to add the requested worker nodes",
        )
    } else {
        ("Normal", "Reconciled", "the pool's clusters match its spec")
    };
    let at = format!("now-{}s", (i * 37) % 86_400);
    json!({
        "apiVersion": "v1", "kind": "Event",
        "metadata": {"name": format!("{name}.{i:07x}"), "namespace": namespace, "creationTimestamp": at},
        "involvedObject": {"apiVersion": "spectrocloud.com/v1alpha1", "kind": "ComputePool",
                           "namespace": namespace, "name": name},
        "reason": reason, "message": message, "type": kind, "count": 1,
        "firstTimestamp": at, "lastTimestamp": at,
        "source": {"component": CONTROLLER}, "reportingComponent": CONTROLLER
    })
}

/// The first `count` synthetic pools and their evaluations, their times resolved at `now`:
/// a fleet for tests and benchmarks.
pub fn large_fleet_at(count: usize, now: chrono::DateTime<Utc>) -> (Vec<Value>, Vec<Value>) {
    (0..count)
        .map(|i| {
            let (pool, evaluation) = large_pool(i);
            (
                resolve_times_at(&pool, now),
                resolve_times_at(&evaluation, now),
            )
        })
        .unzip()
}

/// An object with the two `managedFields` entries a server records for it: the spec and
/// metadata as written by `spec_manager` three days ago, the status as the controller last
/// wrote it (both as `FieldsV1`, the set of fields each owns).
fn with_managed_fields(mut object: Value, spec_manager: &str) -> Value {
    let api_version = object["apiVersion"].clone();
    let mut spec_fields = serde_json::Map::new();
    let mut metadata = serde_json::Map::new();
    for key in ["labels", "annotations", "finalizers"] {
        if let Some(value) = object["metadata"].get(key) {
            metadata.insert(format!("f:{key}"), fields_v1(value));
        }
    }
    if !metadata.is_empty() {
        spec_fields.insert("f:metadata".into(), Value::Object(metadata));
    }
    if let Some(spec) = object.get("spec") {
        spec_fields.insert("f:spec".into(), fields_v1(spec));
    }
    let mut entries = vec![json!({
        "apiVersion": api_version, "fieldsType": "FieldsV1", "fieldsV1": spec_fields,
        "manager": spec_manager, "operation": "Update", "time": "now-3d",
    })];
    if let Some(status) = object.get("status") {
        entries.push(json!({
            "apiVersion": api_version, "fieldsType": "FieldsV1",
            "fieldsV1": {"f:status": fields_v1(status)},
            "manager": CONTROLLER, "operation": "Update", "subresource": "status", "time": "now-2h",
        }));
    }
    object["metadata"]["managedFields"] = Value::Array(entries);
    object
}

/// The fields a value sets, as `FieldsV1` writes them: each key of a mapping as `f:KEY` (and
/// `.` for the mapping itself), a list or a plain value as a leaf (lists in these resources
/// are replaced whole).
fn fields_v1(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut fields = serde_json::Map::with_capacity(map.len() + 1);
            fields.insert(".".into(), json!({}));
            for (key, value) in map {
                fields.insert(format!("f:{key}"), fields_v1(value));
            }
            Value::Object(fields)
        }
        _ => json!({}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_objects_carry_what_a_server_records_about_their_writers() {
        let (pool, evaluation) = large_pool(3);
        let managed = pool["metadata"]["managedFields"]
            .as_array()
            .expect("managedFields");
        assert_eq!(managed.len(), 2);
        assert_eq!(managed[0]["manager"], "kubectl-create");
        assert_eq!(
            managed[0]["fieldsV1"]["f:metadata"]["f:labels"]["f:fleet"],
            json!({})
        );
        assert_eq!(
            managed[0]["fieldsV1"]["f:spec"]["f:clusterVariant"]["f:dedicated"]["."],
            json!({})
        );
        assert_eq!(managed[1]["subresource"], "status");
        let hosts = &managed[1]["fieldsV1"]["f:status"]["f:paletteClusterStatuses"];
        assert_eq!(hosts, &json!({}), "a list is a leaf");
        assert!(managed[1]["fieldsV1"]["f:status"]["f:status"].is_object());
        assert_eq!(
            evaluation["metadata"]["managedFields"][0]["manager"],
            CONTROLLER
        );
        let resolved = resolve_times_at(&pool, Utc::now());
        assert!(
            resolved["metadata"]["managedFields"][1]["time"]
                .as_str()
                .is_some_and(|t| t.ends_with('Z')),
            "times resolved like every other"
        );
    }
}
