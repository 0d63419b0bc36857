//! The Longhorn replica count a pool asks for: the Cluster Profile variable
//! `longhornDefaultReplicaCount`, set at creation and immutable after (it renders into the
//! longhorn StorageClass's `numberOfReplicas`, which Kubernetes never changes), and the
//! number of nodes it must not exceed.

use serde_json::Value;

use super::ComputePool;
use super::pool::PoolSpec;
use crate::field::Extra;
use crate::path::YamlPath;

/// The variable's name.
pub const REPLICAS_KEY: &str = "longhornDefaultReplicaCount";

/// The count a pool asks for, as written and where.
#[derive(Clone, Debug, PartialEq)]
pub struct Replicas {
    /// As written (a number or a string).
    pub written: Value,
    /// Where it is written: an annotation, a label, or `None` among fields the model does not
    /// know.
    pub path: Option<YamlPath>,
}

impl Replicas {
    /// The count, when the text is a whole number.
    pub fn count(&self) -> Option<i64> {
        self.written
            .as_i64()
            .or_else(|| self.written.as_str().and_then(|s| s.trim().parse().ok()))
    }

    /// As written, for a message.
    pub fn shown(&self) -> String {
        match &self.written {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        }
    }
}

impl ComputePool {
    /// The Longhorn replica count the pool asks for: in an annotation or a label, or wherever
    /// the model kept fields it does not know, anywhere in the metadata and the spec
    /// (searched in the order they are written: the metadata first).
    pub fn longhorn_replicas(&self) -> Option<Replicas> {
        let meta = self.meta();
        if let Some(meta) = meta {
            for (place, written) in [
                ("annotations", meta.annotation(REPLICAS_KEY)),
                ("labels", meta.label(REPLICAS_KEY)),
            ] {
                if let Some(written) = written {
                    return Some(Replicas {
                        written: Value::String(written.to_owned()),
                        path: Some(YamlPath::keys("metadata").key(place).key(REPLICAS_KEY)),
                    });
                }
            }
        }
        let mut unknown: Vec<&Extra> = Vec::new();
        if let Some(meta) = meta {
            unknown.push(&meta.extra);
        }
        if let Some(spec) = self.spec() {
            spec_unknowns(spec, &mut unknown);
        }
        unknown
            .into_iter()
            .flat_map(Extra::iter)
            .find_map(|(k, v)| {
                if k == REPLICAS_KEY {
                    Some(v)
                } else {
                    find_key(v, REPLICAS_KEY, 0)
                }
            })
            .map(|written| Replicas {
                written: written.clone(),
                path: None,
            })
    }

    /// How many nodes the pool has (its control plane and each worker pool's minimum, at
    /// least one each; a single-node pool is one host in both roles), and whether it is a
    /// single-node pool.
    pub fn node_total(&self) -> (i64, bool) {
        if self.is_single_node() {
            return (1, true);
        }
        let control = self
            .control_plane()
            .and_then(|c| c.node_count.get())
            .copied()
            .unwrap_or(1);
        let workers: i64 = self
            .node_pool_requirements()
            .and_then(|n| n.worker_pools.get())
            .into_iter()
            .flatten()
            .map(|w| {
                w.get()
                    .and_then(|w| w.min_worker_nodes.get())
                    .copied()
                    .unwrap_or(1)
                    .max(1)
            })
            .fold(0, i64::saturating_add);
        (control.saturating_add(workers), false)
    }
}

/// The guide's replica count for a number of nodes: 1 for one, 2 for two, 3 for three or more.
pub fn replicas_for(nodes: i64) -> i64 {
    nodes.clamp(1, 3)
}

/// The fields the model did not know, in every part of a pool's spec, in document order.
fn spec_unknowns<'p>(spec: &'p PoolSpec, out: &mut Vec<&'p Extra>) {
    out.push(&spec.extra);
    if let Some(bundle) = spec.profile_bundle_ref.get() {
        out.push(&bundle.extra);
    }
    let Some(variant) = spec.cluster_variant.get() else {
        return;
    };
    out.push(&variant.extra);
    if let Some(dedicated) = variant.dedicated.get() {
        out.push(&dedicated.extra);
        if let Some(config) = dedicated.palette_cluster_deployment_config.get() {
            out.push(&config.extra);
            if let Some(requirements) = config.node_pool_requirements.get() {
                out.push(&requirements.extra);
                if let Some(cp) = requirements.control_plane_pool.get() {
                    out.push(&cp.extra);
                    out.extend(cp.cpu.get().map(|c| &c.extra));
                    out.extend(cp.memory.get().map(|m| &m.extra));
                }
                for worker in requirements
                    .worker_pools
                    .get()
                    .into_iter()
                    .flatten()
                    .filter_map(|w| w.get())
                {
                    out.push(&worker.extra);
                    out.extend(worker.cpu.get().map(|c| &c.extra));
                    out.extend(worker.memory.get().map(|m| &m.extra));
                    out.extend(worker.gpu.get().map(|g| &g.extra));
                }
            }
            if let Some(edge) = config.edge.get() {
                out.push(&edge.extra);
                out.extend(edge.network_overlay_config.get().map(|o| &o.extra));
            }
            out.extend(config.settings_ref.get().map(|r| &r.extra));
        }
        out.extend(dedicated.scaling_policy_ref.get().map(|r| &r.extra));
    }
    if let Some(shared) = variant.shared.get() {
        out.push(&shared.extra);
        out.extend(shared.scaling_policy_ref.get().map(|r| &r.extra));
    }
}

fn find_key<'v>(value: &'v Value, key: &str, depth: usize) -> Option<&'v Value> {
    if depth > 12 {
        return None;
    }
    match value {
        Value::Object(map) => map.get(key).or_else(|| {
            map.values()
                .find_map(|v| find_key(v, key, depth.saturating_add(1)))
        }),
        Value::Array(items) => items
            .iter()
            .find_map(|v| find_key(v, key, depth.saturating_add(1))),
        _ => None,
    }
}
