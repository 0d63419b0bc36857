//! What the inventory derives from objects as they arrive: hosts flattened from pools, events
//! indexed by the object they concern, and utilization history from evaluations.

use std::collections::VecDeque;
use std::sync::Arc;

use super::derived::{HISTORY_LIMIT, HostRow, Sample, Series};
use super::{Held, Inventory, Key, Kind, Object};

/// Where the events index files what an event is about (its involved object's kind,
/// namespace and name): a number, so the index holds a word and the event per event instead
/// of three texts; readers check each event found against the object they asked about.
pub(super) fn about(kind: &str, namespace: &str, name: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::hash::DefaultHasher::new();
    (kind, namespace, name).hash(&mut hasher);
    hasher.finish()
}

/// The object an event is about: kind, namespace and name (empty when not said).
pub(super) fn involved(event: &Object) -> Option<(&str, &str, &str)> {
    let event = event.event()?;
    let text = |field: &str| event.involved(field).unwrap_or("");
    Some((text("kind"), text("namespace"), text("name")))
}

/// The ComputePool an event is about, as the events index files it.
pub(super) fn involved_pool(event: &Object) -> Option<Key> {
    let (kind, namespace, name) = involved(event)?;
    (kind == "ComputePool").then(|| (namespace.into(), name.into()))
}

/// The hosts of one pool as rows.
pub(super) fn host_rows(object: &Object) -> Vec<HostRow> {
    let Some(pool) = object.pool() else {
        return Vec::new();
    };
    let Some(status) = pool.status.get() else {
        return Vec::new();
    };
    let mut rows = Vec::new();
    for cluster in status.clusters() {
        let cluster_name = cluster.name.as_deref().unwrap_or("").to_owned();
        for machine_pool in cluster.machine_pools() {
            let machine_name = machine_pool.name.as_deref().unwrap_or("").to_owned();
            for (uid, host) in machine_pool.hosts() {
                let gpus = host
                    .gpu_count_by_variant
                    .get()
                    .into_iter()
                    .flatten()
                    .filter_map(|(variant, count)| count.get().map(|c| (variant.to_string(), *c)))
                    .collect();
                let row = HostRow {
                    namespace: object.key.0.to_string(),
                    pool: object.key.1.to_string(),
                    cluster: cluster_name.clone(),
                    machine_pool: machine_name.clone(),
                    node_type: machine_pool.node_type.as_deref().unwrap_or("").to_owned(),
                    uid: uid.to_owned(),
                    status: host.status.as_deref().unwrap_or("").to_owned(),
                    status_updated_at: host
                        .status_updated_at
                        .as_deref()
                        .and_then(crate::domain::time::parse),
                    architecture: host.architecture.as_deref().unwrap_or("").to_owned(),
                    cpu_count: host.cpu_count.get().copied().unwrap_or(0),
                    memory_gb: host.memory_gb.get().map_or(0.0, |m| m.value()),
                    gpus,
                };
                rows.push(row);
            }
        }
    }
    rows
}

impl Inventory {
    /// Adds what an object contributes to the derived indices.
    pub(super) fn index(&mut self, object: &Arc<Object>) {
        match object.kind {
            Kind::Event => {
                let Some((kind, namespace, name)) = involved(object) else {
                    return;
                };
                let about = about(kind, namespace, name);
                // Kept in key order: events at the same time are listed by key.
                let filed = self.events_by_object.entry(about).or_default();
                match filed.binary_search_by(|held| held.0.key.cmp(&object.key)) {
                    Ok(at) => filed[at] = Held(object.clone()),
                    Err(at) => filed.insert(at, Held(object.clone())),
                }
            }
            Kind::Evaluation => self.record_samples(object),
            _ => {}
        }
    }

    /// Removes what the stored version of an object contributed (history is kept: a new
    /// version of an evaluation adds to it).
    pub(super) fn unindex(&mut self, old: &Arc<Object>) {
        if old.kind != Kind::Event {
            return;
        }
        let Some((kind, namespace, name)) = involved(old) else {
            return;
        };
        let about = about(kind, namespace, name);
        if let Some(filed) = self.events_by_object.get_mut(&about) {
            filed.retain(|held| held.0.key != old.key);
            if filed.is_empty() {
                self.events_by_object.remove(&about);
            }
        }
    }

    /// Drops the history of an evaluation that is gone.
    pub(super) fn forget_history(&mut self, key: &Key) {
        self.history.remove(key);
    }

    /// One sample per worker pool and resource, timestamped by evaluatedAt; an evaluation
    /// seen again with the same evaluatedAt adds nothing.
    fn record_samples(&mut self, object: &Object) {
        let Some(spec) = object.evaluation().and_then(|e| e.spec.get()) else {
            return;
        };
        for (pool_key, evaluation) in spec.pool_evaluations.get().into_iter().flatten() {
            let Some(evaluation) = evaluation.get() else {
                continue;
            };
            let Some(at) = evaluation
                .evaluated_at
                .as_deref()
                .and_then(crate::domain::time::parse)
            else {
                continue;
            };
            let mut resources: Vec<(String, f64)> = Vec::new();
            if let Some(u) = evaluation.cpu.get().and_then(|c| c.utilization.get()) {
                resources.push(("cpu".into(), u.value()));
            }
            for (variant, gpu) in evaluation.gpu.get().into_iter().flatten() {
                if let Some(u) = gpu.get().and_then(|g| g.utilization.get()) {
                    resources.push((variant.to_string(), u.value()));
                }
            }
            for (resource, utilization) in resources {
                let pool = self.history.entry(object.key.clone()).or_default();
                let index = match pool
                    .iter()
                    .position(|s| s.worker_pool == *pool_key && s.resource == resource)
                {
                    Some(index) => index,
                    None => {
                        // A pool has a series or two: no room held for more.
                        pool.reserve_exact(1);
                        pool.push(Series {
                            worker_pool: pool_key.clone(),
                            resource: resource.into(),
                            samples: VecDeque::new(),
                        });
                        pool.len() - 1
                    }
                };
                let samples = &mut pool[index].samples;
                if samples.back().is_some_and(|last| last.at >= at) {
                    continue;
                }
                samples.push_back(Sample { at, utilization });
                while samples.len() > HISTORY_LIMIT {
                    samples.pop_front();
                }
            }
        }
    }
}
