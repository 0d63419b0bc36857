//! A deletion that does not complete, and a Longhorn replica count the pool's nodes cannot hold.

use super::*;
use crate::fixes::{Fix, STUCK_AFTER_MINUTES, Standing, Workload};
use crate::shell::quote;

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
    let next = deletion_steps(pool, picture);
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

/// What to do about a blocked deletion: a step per AIWorkload, then pooldeck's unblock (its
/// AIWorkloads, or the finalizer once they are gone long enough), then the controller's log.
fn deletion_steps(pool: &Pool, picture: &Picture) -> Vec<String> {
    let workloads = picture.workloads;
    let present = workloads.present();
    let mut next: Vec<String> = workloads
        .all
        .iter()
        .filter_map(|w| workload_step(pool, w))
        .collect();
    // The same look at the pool's status once, however many references cannot be names.
    next.dedup();
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
    next
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
    let Some(replicas) = pool.model.longhorn_replicas().and_then(|r| r.count()) else {
        return;
    };
    let (nodes, single) = pool.model.node_total();
    let fits = crate::model::longhorn::replicas_for(nodes);
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
