//! A deletion that does not complete, and a Longhorn replica count the pool's nodes cannot hold.

use serde_json::Value;

use super::*;
use crate::domain::fixes::Fix;

pub(super) fn deletion(pool: &Pool, picture: &Picture, out: &mut Vec<Diagnosis>) {
    let Some(since) = pool.value.at("/metadata/deletionTimestamp").and_then(time) else {
        return;
    };
    let minutes = (picture.now - since).num_minutes();
    let workloads: Vec<String> = pool
        .value
        .at("/status/aiWorkloadRefs")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|w| {
            Some(format!(
                "{}/{}",
                w["namespace"].as_str().unwrap_or(pool.namespace),
                w["name"].as_str()?
            ))
        })
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
        next.extend(workloads.iter().map(|w| {
            let (ns, name) = w.split_once('/').unwrap_or((pool.namespace, w));
            format!("kubectl delete aiworkload {name} --namespace {ns}")
        }));
        next.push(format!(
            "in pooldeck: u on {} deletes them behind a confirmation",
            pool.name
        ));
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
                    crate::domain::words::counted(workloads.len(), "AIWorkload"),
                    crate::domain::words::agrees(workloads.len(), "references", "reference")
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
    let nodes = control + workers;
    if replicas > nodes {
        out.push(Diagnosis {
            id: "longhorn.replicas",
            fix: None,
            severity: Severity::Error,
            symptom: LONGHORN,
            summary: format!(
                "longhornDefaultReplicaCount {replicas} exceeds the pool's {}",
                crate::domain::words::counted(nodes, "node")
            ),
            evidence: vec![("longhornDefaultReplicaCount".into(), replicas.to_string())],
            cause: "Longhorn cannot satisfy replica anti-affinity: PersistentVolumeClaims stay Pending. The variable is immutable: recreate the pool with 1 (single node), 2 (two nodes) or 3.".into(),
            next: vec!["back up persistent data, then recreate the pool with a lower replica count".into()],
        });
    }
}

pub(super) fn find_key<'v>(value: &'v Value, key: &str, depth: usize) -> Option<&'v Value> {
    if depth > 12 {
        return None;
    }
    match value {
        Value::Object(map) => map
            .get(key)
            .or_else(|| map.values().find_map(|v| find_key(v, key, depth + 1))),
        Value::Array(items) => items.iter().find_map(|v| find_key(v, key, depth + 1)),
        _ => None,
    }
}
