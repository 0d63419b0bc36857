//! What a Compute Pool is: the typed, leniently read model of ComputePool and
//! ComputePoolEvaluation, and the vocabulary of their status values.
//!
//! Must not import tokio, ratatui, kube or anything with I/O.

pub mod evaluation;
pub mod event;
mod host;
pub mod longhorn;
pub mod meta;
pub mod pool;
pub mod status;
pub mod vocabulary;

pub use evaluation::ComputePoolEvaluation;
pub use event::Event;
pub use meta::ObjectMeta;
pub use pool::ComputePool;

use serde_json::Value;

use super::field::{FromJson, Issue, Lenient, Mismatch};
use super::path::At;

/// Reads any model object from a JSON value. Reading never fails on a field: wrong types and
/// unknown fields come back as issues. Only a document that is not a mapping at all is refused.
pub fn read<T: FromJson + Lenient>(value: &Value) -> Result<(T, Vec<Issue>), Mismatch> {
    read_owned(value.clone())
}

/// [`read`], taking the value to avoid a copy.
pub fn read_owned<T: FromJson + Lenient>(value: Value) -> Result<(T, Vec<Issue>), Mismatch> {
    let object = crate::field::from_value::<T>(value)?;
    let mut issues = Vec::new();
    object.collect_issues(&At::Root, &mut issues);
    Ok((object, issues))
}

/// An object read from JSON for a test (one that is not a mapping reads as the default).
#[cfg(test)]
pub(crate) fn typed<T: FromJson + Lenient + Default>(value: &Value) -> T {
    read(value).map(|(object, _)| object).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unknown_fields_and_wrong_types_survive_a_round_trip() {
        let value = json!({
            "apiVersion": "spectrocloud.com/v1alpha1",
            "kind": "ComputePool",
            "metadata": {"name": "p", "namespace": "ns", "managedFields": [{"x": 1}]},
            "spec": {
                "futureField": {"a": [1, 2]},
                "clusterVariant": {"dedicated": {"paletteClusterDeploymentConfig": {
                    "nodePoolRequirements": {"controlPlanePool": {"nodeCount": "three"}}
                }}}
            },
            "status": {"status": "Running", "somethingNew": true}
        });
        let (pool, issues): (ComputePool, _) = read(&value).unwrap();
        assert_eq!(serde_json::to_value(&pool).unwrap(), value);
        assert_eq!(pool.name(), "p");
        let paths: Vec<String> = issues.iter().map(|i| i.path().to_string()).collect();
        assert!(paths.contains(&"spec.futureField".to_string()), "{paths:?}");
        assert!(paths.contains(&"spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.controlPlanePool.nodeCount".to_string()));
        // status and metadata are open: unknown fields there are not issues.
        assert_eq!(issues.len(), 2, "{issues:?}");
    }

    #[test]
    fn a_document_that_is_not_a_mapping_is_refused() {
        assert!(read::<ComputePool>(&json!([1, 2])).is_err());
    }
}

#[cfg(test)]
mod fixture_tests {
    use super::evaluation::{Decision, split_pool_key};
    use super::vocabulary::{HostStatus, PoolPhase, ScalingStateKind};
    use super::*;
    use crate::field::Field;

    fn load(text: &str) -> Value {
        crate::manifest::parse(text).expect("fixture parses")[0]
            .root
            .to_json()
    }

    #[test]
    fn the_guides_scale_up_evaluation_reads_completely() {
        let value = load(include_str!(
            "../../../../demo/fixtures/evaluation-scale-up.yaml"
        ));
        let (evaluation, issues): (ComputePoolEvaluation, _) = read(&value).expect("mapping");
        assert!(issues.is_empty(), "{issues:?}");
        assert_eq!(
            serde_json::to_value(&evaluation).expect("serializes"),
            value
        );
        let spec = evaluation.spec.get().expect("spec");
        let (key, pool) = spec
            .pool_evaluations
            .get()
            .and_then(|m| m.iter().next())
            .expect("one pool evaluation");
        assert_eq!(
            split_pool_key(key),
            ("ml-cluster", "worker-pool-nvidia-amd64-0")
        );
        let pool = pool.get().expect("valid");
        let gpu = pool
            .gpu
            .get()
            .and_then(|m| m.get("NVIDIA H100 PCIe | 80 GB"))
            .expect("the variant")
            .get()
            .expect("variant");
        assert_eq!(gpu.decision(), Decision::ScaleUp(4));
        assert_eq!(pool.cpu.get().expect("cpu").decision(), Decision::Hold);
        let highest = pool
            .node_wastes
            .get()
            .expect("wastes")
            .iter()
            .filter_map(Field::get)
            .max_by(|a, b| {
                a.waste_score
                    .or_default()
                    .value()
                    .total_cmp(&b.waste_score.or_default().value())
            })
            .expect("a host");
        assert_eq!(highest.host.as_deref(), Some("host-uid-4"));
        assert_eq!(
            crate::duration::parse(spec.cooldown_duration.as_deref().expect("cooldown"))
                .expect("duration")
                .as_secs(),
            900
        );
        let status = evaluation.status.get().expect("status");
        let state = status
            .pool_scaling_states
            .get()
            .and_then(|m| m.get(key))
            .expect("the worker pool's state")
            .get()
            .expect("state");
        assert_eq!(
            ScalingStateKind::parse(state.state.as_deref().expect("state")),
            ScalingStateKind::Scaling
        );
    }

    #[test]
    fn a_running_pools_status_reads_completely() {
        let value = load(include_str!(
            "../../../../demo/fixtures/pool-running-mig.yaml"
        ));
        let (pool, issues): (ComputePool, _) = read(&value).expect("mapping");
        assert!(issues.is_empty(), "{issues:?}");
        assert_eq!(serde_json::to_value(&pool).expect("serializes"), value);
        let status = pool.status.get().expect("status");
        assert_eq!(
            PoolPhase::parse(status.status.as_deref().expect("phase")),
            PoolPhase::Running
        );
        let mig = status.hardware_capacity.get().expect("capacity")[0]
            .get()
            .and_then(|h| h.gpu.get())
            .and_then(|g| g[0].get())
            .and_then(|g| g.mig.get())
            .expect("mig");
        assert_eq!(mig.config.as_deref(), Some("all-1g.10gb"));
        let hosts: Vec<(&str, &status::Host)> = status
            .clusters()
            .flat_map(|c| c.machine_pools())
            .flat_map(|m| m.hosts())
            .collect();
        assert_eq!(hosts.len(), 4);
        let provisioning = hosts
            .iter()
            .filter(|(_, h)| {
                HostStatus::parse(h.status.as_deref().unwrap_or("")) == HostStatus::Provisioning
            })
            .count();
        assert_eq!(provisioning, 1);
        assert_eq!(hosts.iter().map(|(_, h)| h.gpu_count()).sum::<i64>(), 8);
        assert_eq!(status.ai_workloads().count(), 1);
        assert!(
            pool.meta()
                .expect("meta")
                .finalizers()
                .any(|f| f == pool::FINALIZER)
        );
        assert!(!pool.is_paused());
    }
}
