//! A deletion that does not complete, and a Longhorn replica count the pool's nodes cannot hold.

use crate::shell::quote;
use serde_json::Value;

use super::*;
use crate::ObjectRef;
use crate::fixes::Fix;

pub(super) fn deletion(pool: &Pool, picture: &Picture, out: &mut Vec<Diagnosis>) {
    let Some(since) = pool.value.at("/metadata/deletionTimestamp").and_then(time) else {
        return;
    };
    let minutes = picture.now.signed_duration_since(since).num_minutes();
    let refs: Vec<ObjectRef> = crate::fixes::workload_refs(pool.value);
    let workloads: Vec<String> = refs
        .iter()
        .map(|w| format!("{}/{}", w.namespace, w.name))
        .collect();
    let finalizers: Vec<String> = pool
        .value
        .at("/metadata/finalizers")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|f| f.as_str().map(str::to_owned))
        .collect();
    let stuck = minutes >= STUCK_DELETION_MINUTES;
    let mut evidence = vec![
        (
            "metadata.deletionTimestamp".to_owned(),
            format!("{} ({} ago)", since.to_rfc3339(), age(picture.now, since)),
        ),
        ("metadata.finalizers".into(), format!("{finalizers:?}")),
    ];
    if !workloads.is_empty() {
        evidence.push(("status.aiWorkloadRefs".into(), workloads.join(", ")));
    }
    let mut next = Vec::new();
    if workloads.is_empty() {
        next.push(format!("in pooldeck: u on {} offers to release the finalizer (guarded: confirm with support first)", pool.name));
    } else {
        next.extend(refs.iter().map(|reference| match reference.problem() {
            // A name read from the status that is not a Kubernetes name is not acted on:
            // the step says so instead of handing the shell whatever it holds.
            Some(why) => format!(
                "status.aiWorkloadRefs holds a reference that cannot be an AIWorkload ({why}): \
                 look at it with kubectl get computepool {} --namespace {} --output yaml; \
                 pooldeck will not act on it",
                quote(pool.name),
                quote(pool.namespace)
            ),
            None => format!(
                "kubectl delete aiworkload {} --namespace {}",
                quote(&reference.name),
                quote(&reference.namespace)
            ),
        }));
        if refs.iter().any(|r| r.problem().is_none()) {
            next.push(format!(
                "in pooldeck: u on {} deletes them behind a confirmation",
                pool.name
            ));
        }
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
            if !workloads.is_empty() {
                format!(
                    "; {} still {} it",
                    crate::words::counted(workloads.len(), "AIWorkload"),
                    crate::words::agrees(workloads.len(), "references", "reference")
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

pub(super) fn longhorn(pool: &Pool, out: &mut Vec<Diagnosis>) {
    // Where the pool's data carries the Cluster Profile variable.
    let replicas = find_key(pool.value, "longhornDefaultReplicaCount", 0).and_then(|v| {
        v.as_i64()
            .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
    });
    let Some(replicas) = replicas else {
        return;
    };
    let requirements =
        "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/nodePoolRequirements";
    let control = pool
        .value
        .at(&format!("{requirements}/controlPlanePool/nodeCount"))
        .and_then(Value::as_i64)
        .unwrap_or(1);
    let workers: i64 = pool
        .value
        .at(&format!("{requirements}/workerPools"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|w| w["minWorkerNodes"].as_i64().unwrap_or(1).max(1))
        .sum();
    // A single-node pool is one host in both roles: its worker pool only selects that host.
    let single = pool
        .value
        .at(&format!(
            "{requirements}/controlPlanePool/singleNodeCluster"
        ))
        .and_then(Value::as_bool)
        .unwrap_or(false);
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

pub(super) fn find_key<'v>(value: &'v Value, key: &str, depth: usize) -> Option<&'v Value> {
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
