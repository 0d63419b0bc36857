//! A deletion that does not complete, and a Longhorn replica count the pool's nodes cannot hold.

use crate::shell::quote;
use serde_json::Value;

use super::*;
use crate::field::Extra;
use crate::fixes::{Fix, STUCK_AFTER_MINUTES, Standing, Workload};
use crate::model::pool::PoolSpec;

pub(super) fn deletion(pool: &Pool, picture: &Picture, out: &mut Vec<Diagnosis>) {
    let Some(since) = deletion_time(pool.model) else {
        return;
    };
    let minutes = picture.now.signed_duration_since(since).num_minutes();
    let workloads = picture.workloads;
    let finalizers: Vec<String> = pool
        .model
        .meta()
        .into_iter()
        .flat_map(|m| m.finalizers())
        .map(str::to_owned)
        .collect();
    let stuck = minutes >= STUCK_DELETION_MINUTES;
    let mut evidence = vec![
        (
            "metadata.deletionTimestamp".to_owned(),
            format!("{} ({} ago)", since.to_rfc3339(), age(picture.now, since)),
        ),
        ("metadata.finalizers".into(), format!("{finalizers:?}")),
    ];
    let refs: Vec<String> = crate::fixes::workload_refs(pool.model)
        .iter()
        .map(|w| format!("{}/{}", w.namespace, w.name))
        .collect();
    if !refs.is_empty() {
        evidence.push(("status.aiWorkloadRefs".into(), refs.join(", ")));
    }
    for workload in &workloads.all {
        evidence.push((
            format!(
                "AIWorkload {}/{}",
                workload.reference.namespace, workload.reference.name
            ),
            workload.words(),
        ));
    }
    let present = workloads.present();
    let mut next: Vec<String> = workloads
        .all
        .iter()
        .filter_map(|w| workload_step(pool, w))
        .collect();
    if present > 0 {
        next.push(format!(
            "in pooldeck: u on {} deletes {} behind a confirmation",
            pool.name,
            if present == 1 { "it" } else { "them" }
        ));
    } else if let Some(clear) = workloads.clear_since() {
        let wait = later(clear, STUCK_AFTER_MINUTES);
        next.push(if wait > picture.now {
            format!(
                "in pooldeck: u on {} offers to release the finalizer {STUCK_AFTER_MINUTES} min \
                 after the last AIWorkload went, in {} (guarded: the guide's three conditions, \
                 confirm with support first)",
                pool.name,
                crate::words::age(wait.signed_duration_since(picture.now))
            )
        } else {
            format!(
                "in pooldeck: u on {} offers to release the finalizer (guarded: the guide's three \
                 conditions, confirm with support first)",
                pool.name
            )
        });
    }
    next.push("kubectl logs --namespace mural-system --selector controller.spectrocloud.com/name=hue-controllers --tail=100 --follow".into());
    out.push(Diagnosis {
        id: "deletion.blocked",
        // The unblock: its AIWorkloads first, then (guarded) the finalizer.
        fix: stuck.then_some(Fix::DeleteWorkloads),
        severity: if stuck { Severity::Error } else { Severity::Info },
        symptom: DELETION,
        summary: format!(
            "deletion pending for {}{}",
            age(picture.now, since),
            if present > 0 {
                format!(
                    "; {} still {} it",
                    crate::words::counted(present, "AIWorkload"),
                    crate::words::agrees(present, "references", "reference")
                )
            } else if !finalizers.is_empty() {
                "; the finalizer is still set".to_owned()
            } else {
                String::new()
            }
        ),
        evidence,
        cause: "AIWorkloads still run on the cluster, a finalizer prevents deletion, or the Palette cluster deletion fails.".into(),
        next,
    });
}

/// The next step for one AIWorkload: the guide's delete only for one that names this pool;
/// a look for the rest. A name read from the status that is not a Kubernetes name never
/// reaches the shell.
fn workload_step(pool: &Pool, workload: &Workload) -> Option<String> {
    let (name, namespace) = (
        quote(&workload.reference.name),
        quote(&workload.reference.namespace),
    );
    match &workload.standing {
        Standing::Target(_) => Some(format!(
            "kubectl delete aiworkload {name} --namespace {namespace}"
        )),
        Standing::ListedOnly(_) => Some(format!(
            "check that AIWorkload {namespace}/{name} (it names no pool) is this pool's before \
             deleting it: kubectl get aiworkload {name} --namespace {namespace} --output yaml"
        )),
        Standing::Evidence(_) if workload.reference.problem().is_some() => Some(format!(
            "status.aiWorkloadRefs holds a reference that cannot be an AIWorkload: look at it \
             with kubectl get computepool {} --namespace {} --output yaml; pooldeck will not act \
             on it",
            quote(pool.name),
            quote(pool.namespace)
        )),
        Standing::Evidence(_) => Some(format!(
            "AIWorkload {namespace}/{name} is not this pool's: look at it (never delete it for \
             this pool) with kubectl get aiworkload {name} --namespace {namespace} --output yaml"
        )),
        Standing::Gone(_) | Standing::Unverified => None,
    }
}

pub(super) fn longhorn(pool: &Pool, out: &mut Vec<Diagnosis>) {
    // Where the pool's data carries the Cluster Profile variable.
    let replicas = replica_variable(pool.model).and_then(|v| {
        v.as_i64()
            .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
    });
    let Some(replicas) = replicas else {
        return;
    };
    let control_plane = pool.model.control_plane();
    let control = control_plane
        .and_then(|c| c.node_count.get())
        .copied()
        .unwrap_or(1);
    let workers: i64 = pool
        .model
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
    // A single-node pool is one host in both roles: its worker pool only selects that host.
    let single = pool.model.is_single_node();
    let nodes = if single {
        1
    } else {
        control.saturating_add(workers)
    };
    // The guide: 1 for a single node, 2 for two, 3 for three or more.
    let fits = nodes.clamp(1, 3);
    if replicas > nodes {
        out.push(Diagnosis {
            id: "longhorn.replicas",
            fix: None,
            severity: Severity::Error,
            symptom: LONGHORN,
            summary: format!(
                "longhornDefaultReplicaCount {replicas} exceeds the pool's {}{}",
                crate::words::counted(nodes, "node"),
                if single { " (a single-node pool)" } else { "" }
            ),
            evidence: vec![("longhornDefaultReplicaCount".into(), replicas.to_string())],
            cause: format!(
                "Longhorn cannot satisfy replica anti-affinity: PersistentVolumeClaims stay Pending. The guide's count for {} is {fits} (1 for a single node, 2 for two nodes, 3 for three or more); the variable is immutable, so the pool is recreated with it.",
                if single {
                    "a single-node pool".to_owned()
                } else {
                    crate::words::counted(nodes, "node")
                }
            )
            .into(),
            next: vec![format!(
                "back up persistent data (every PersistentVolumeClaim is lost), then recreate the pool with longhornDefaultReplicaCount {fits}"
            )],
        });
    }
}

/// Where a pool carries the Cluster Profile variable `longhornDefaultReplicaCount`: not a
/// field of the reference, so in an annotation or a label, or wherever the model kept fields
/// it does not know, anywhere in the metadata and the spec (searched in the order they are
/// written: the metadata first).
fn replica_variable(pool: &ComputePool) -> Option<Value> {
    const KEY: &str = "longhornDefaultReplicaCount";
    let meta = pool.meta();
    if let Some(written) = meta.and_then(|m| m.annotation(KEY).or_else(|| m.label(KEY))) {
        return Some(Value::String(written.to_owned()));
    }
    let mut unknown: Vec<&Extra> = Vec::new();
    if let Some(meta) = meta {
        unknown.push(&meta.extra);
    }
    if let Some(spec) = pool.spec() {
        spec_unknowns(spec, &mut unknown);
    }
    unknown
        .into_iter()
        .flat_map(Extra::iter)
        .find_map(|(k, v)| {
            if k == KEY {
                Some(v)
            } else {
                find_key(v, KEY, 0)
            }
        })
        .cloned()
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
