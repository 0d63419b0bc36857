//! What a Compute Pool is: the typed, leniently read model of ComputePool and
//! ComputePoolEvaluation, and the vocabulary of their status values.
//!
//! Must not import tokio, ratatui, kube or anything with I/O.

pub mod evaluation;
pub mod meta;
pub mod pool;
pub mod status;
pub mod vocabulary;

pub use evaluation::ComputePoolEvaluation;
pub use meta::ObjectMeta;
pub use pool::ComputePool;

use serde_json::Value;

use super::field::{FromJson, Issue, Lenient};
use super::path::YamlPath;

/// Reads any model object from a JSON value. Reading never fails on a field: wrong types and
/// unknown fields come back as issues. Only a document that is not a mapping at all is refused.
pub fn read<T: FromJson + Lenient>(value: &Value) -> Result<(T, Vec<Issue>), String> {
    read_owned(value.clone())
}

/// [`read`], taking the value to avoid a copy.
pub fn read_owned<T: FromJson + Lenient>(value: Value) -> Result<(T, Vec<Issue>), String> {
    let object = T::from_json(value).map_err(|m| {
        format!(
            "expected {}, found {}",
            m.expected,
            super::field::describe_value(&m.raw)
        )
    })?;
    let mut issues = Vec::new();
    object.collect_issues(&YamlPath::root(), &mut issues);
    Ok((object, issues))
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
