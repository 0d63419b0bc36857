//! Deleting a pool safely, and unblocking a deletion that does not complete: the impact the
//! configuration reference's "Affected Resources" describes, the uid and resourceVersion
//! preconditions, the referencing AIWorkloads deleted first, and only then, acknowledged, the
//! finalizer removed by value.

use serde_json::Value;

use super::*;

/// The AIWorkloads a pool's status says reference it (a reference without a namespace is in
/// the pool's own).
pub fn workload_refs(pool: &ComputePool) -> Vec<ObjectRef> {
    let own = pool.namespace().unwrap_or("");
    pool.status
        .get()
        .into_iter()
        .flat_map(|s| s.ai_workloads())
        .filter_map(|r| {
            let name = r.name.as_deref()?;
            let namespace = r.namespace.as_deref().unwrap_or(own);
            Some(ObjectRef::new(Kind::AIWorkload, namespace, name))
        })
        .collect()
}

/// The uid and resourceVersion of a pool as it was looked at.
pub(super) fn preconditions(pool: &ComputePool) -> Preconditions {
    let meta = pool.meta();
    Preconditions::of(
        meta.and_then(|m| m.uid.as_deref()),
        meta.and_then(|m| m.resource_version.as_deref()),
    )
}

/// Safe deletion of one pool, with its impact.
pub fn delete(pool: &ComputePool) -> Plan {
    let target = pool_ref(pool);
    let workloads = workload_refs(pool);
    let spec = pool.spec();
    let policy = spec
        .and_then(|s| s.deletion_policy.as_deref())
        .unwrap_or("delete");
    let shared = spec
        .and_then(|s| s.cluster_variant.get())
        .is_some_and(|v| !v.shared.is_absent());
    let mut impact = vec!["Always deleted:".to_owned()];
    if workloads.is_empty() {
        impact.push("  AIWorkloads: none reference this pool".to_owned());
    } else {
        impact.push(format!(
            "  {} force-deleted first:",
            counted(workloads.len(), "AIWorkload")
        ));
        impact.extend(
            workloads
                .iter()
                .map(|w| format!("    {}/{}", w.namespace, w.name)),
        );
    }
    impact.push("  WorkloadDeployments of the pool (if its Profile Bundle has infrastructure WorkloadProfiles)".to_owned());
    if policy == "orphan" {
        impact.push("deletionPolicy: orphan — left running, unmanaged by PaletteAI:".to_owned());
        impact.push("  the Palette cluster and the Environment".to_owned());
        impact.push("  afterwards, by hand: delete the cluster in Palette if it is no longer needed; workloads keep running unmanaged; edge hosts stay allocated until then".to_owned());
    } else {
        impact.push(format!("deletionPolicy: {policy} — also deleted:"));
        impact.push("  the Palette cluster".to_owned());
        impact.push(if shared {
            "  the Environment, only if every cluster of the shared pool has deletionPolicy: delete"
                .to_owned()
        } else {
            "  the Environment".to_owned()
        });
    }
    // A deletionTimestamp written as null is not set (as the doctor reads it).
    let deleting = pool.meta().is_some_and(|m| m.is_deleting());
    Plan {
        fix: Fix::Delete,
        title: format!("Delete Compute Pool {}", target.name),
        explanation: vec![
            "Deletes the pool; the controller then tears down what it made (below).".to_owned(),
            "The request names this pool's uid and resourceVersion: a pool recreated or changed since is not deleted.".to_owned(),
        ],
        targets: vec![format!("{}/{}", target.namespace, target.name)],
        impact,
        operations: vec![Operation::Delete {
            target: target.clone(),
            preconditions: preconditions(pool),
            run: Run::Real,
        }],
        type_to_confirm: Some(target.name.to_string()),
        acknowledge: None,
        permissions: vec![Permission {
            verb: "delete",
            kind: Kind::Pool,
            namespace: target.namespace.to_string(),
        }],
        blocked: deleting.then(|| {
            "its deletion is already under way: if it is stuck, unblock it (u in the console)"
                .to_owned()
        }),
    }
}

/// What step 1 of unblocking does with one AIWorkload the pool's status names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Workload {
    /// Delete it, as it was looked at.
    Delete(Preconditions),
    /// It is not there any more.
    Gone,
    /// Not acted on, and why (a name that cannot be an object's, a workload that says it
    /// belongs to another pool): the finalizer's step waits while any is left.
    LeftAlone(String),
}

/// A reference's verdict before anything else is known of it: a name read from the status
/// that is not a Kubernetes name is never a target.
pub fn unreadable(reference: &ObjectRef) -> Option<Workload> {
    reference.problem().map(Workload::LeftAlone)
}

/// Why an AIWorkload read from the hub is not this pool's to delete: it names another pool
/// as its own (`spec.computePoolRef`); `None` when it names this pool or none.
pub fn belongs_elsewhere(pool: &ComputePool, workload: &Value) -> Option<String> {
    let own = pool_ref(pool);
    let named = workload.pointer("/spec/computePoolRef")?;
    let name = named.get("name").and_then(Value::as_str)?;
    let namespace = named
        .get("namespace")
        .and_then(Value::as_str)
        .or_else(|| text(workload, "/metadata/namespace"))
        .unwrap_or("");
    (name != own.name.as_str() || namespace != own.namespace.as_str()).then(|| {
        format!(
            "AIWorkload {}/{} belongs to ComputePool {namespace}/{name}, not to this pool (the \
             status is stale or wrong)",
            text(workload, "/metadata/namespace").unwrap_or(""),
            text(workload, "/metadata/name").unwrap_or("")
        )
    })
}

/// The reasons step 1 leaves some AIWorkloads alone: while any stands, the finalizer stays.
pub fn left_alone(pool: &ComputePool, judge: &dyn Fn(&ObjectRef) -> Workload) -> Vec<String> {
    workload_refs(pool)
        .iter()
        .filter_map(|w| match judge(w) {
            Workload::LeftAlone(why) => Some(why),
            Workload::Delete(_) | Workload::Gone => None,
        })
        .collect()
}

/// Step 1 of unblocking: delete the AIWorkloads that still reference a deleting pool, as
/// `judge` finds each (one not to be acted on is named with the reason).
pub fn delete_workloads(pool: &ComputePool, judge: &dyn Fn(&ObjectRef) -> Workload) -> Plan {
    let target = pool_ref(pool);
    let mut workloads: Vec<(ObjectRef, Preconditions)> = Vec::new();
    let mut explanation = vec![
        "AIWorkloads still reference this pool; its deletion waits for them.".to_owned(),
        "Each is deleted (the pool's deletion would force-delete them anyway).".to_owned(),
        format!("If the pool still does not go, read the controller logs: {CONTROLLER_LOG_HINT}"),
    ];
    for reference in workload_refs(pool) {
        match judge(&reference) {
            Workload::Delete(preconditions) => workloads.push((reference, preconditions)),
            Workload::Gone => {}
            Workload::LeftAlone(why) => explanation.push(format!(
                "Left alone, a reference in status.aiWorkloadRefs: {why}."
            )),
        }
    }
    Plan {
        fix: Fix::DeleteWorkloads,
        title: format!(
            "Unblock {}: step 1, delete {}",
            target.name,
            counted(workloads.len(), "AIWorkload")
        ),
        explanation,
        targets: workloads
            .iter()
            .map(|(w, _)| format!("AIWorkload {}/{}", w.namespace, w.name))
            .collect(),
        impact: Vec::new(),
        permissions: unique(
            workloads
                .iter()
                .map(|(w, _)| Permission {
                    verb: "delete",
                    kind: Kind::AIWorkload,
                    namespace: w.namespace.to_string(),
                })
                .collect(),
        ),
        operations: workloads
            .into_iter()
            .map(|(target, preconditions)| Operation::Delete {
                target,
                preconditions,
                run: Run::Real,
            })
            .collect(),
        type_to_confirm: None,
        acknowledge: None,
        blocked: None,
    }
}

/// Step 2 of unblocking: remove the Compute Pool finalizer by value, offered only when no
/// AIWorkload is left and the deletion has been pending for a while.
pub fn remove_finalizer(
    pool: &ComputePool,
    workloads_left: usize,
    pending_minutes: Option<i64>,
) -> Plan {
    let target = pool_ref(pool);
    let index = pool
        .meta()
        .and_then(|m| m.finalizers.get())
        .and_then(|f| f.iter().position(|v| v.as_deref() == Some(POOL_FINALIZER)));
    let blocked = if index.is_none() {
        Some(format!("the pool does not hold {POOL_FINALIZER}"))
    } else if workloads_left > 0 {
        Some(format!(
            "{} still reference the pool: delete them first (step 1)",
            counted(workloads_left, "AIWorkload")
        ))
    } else {
        match pending_minutes {
            None => Some("the pool is not being deleted".to_owned()),
            Some(m) if m < STUCK_AFTER_MINUTES => Some(format!(
                "the deletion has been pending {m} min; wait until {STUCK_AFTER_MINUTES} min and read the controller logs first"
            )),
            Some(_) => None,
        }
    };
    Plan {
        fix: Fix::RemoveFinalizer,
        title: format!("Unblock {}: step 2, remove its finalizer", target.name),
        explanation: vec![
            FINALIZER_WARNING.to_owned(),
            format!("Controller logs: {CONTROLLER_LOG_HINT}"),
        ],
        targets: vec![format!(
            "{}/{}  finalizer {POOL_FINALIZER}",
            target.namespace, target.name
        )],
        impact: Vec::new(),
        operations: index
            .map(|index| Operation::RemoveFinalizer {
                target: target.clone(),
                finalizer: POOL_FINALIZER.into(),
                index,
                // The incarnation looked at: a pool recreated under the same name keeps its
                // finalizer. Not the resourceVersion: the controller's status updates would
                // refuse it for no reason.
                preconditions: Preconditions::of(pool.meta().and_then(|m| m.uid.as_deref()), None),
                run: Run::Real,
            })
            .into_iter()
            .collect(),
        type_to_confirm: None,
        acknowledge: Some(ACKNOWLEDGEMENT),
        permissions: vec![patch(&target.namespace)],
        blocked,
    }
}
