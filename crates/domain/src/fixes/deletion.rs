//! Deleting a pool safely, and unblocking a deletion that does not complete: the impact the
//! configuration reference's "Affected Resources" describes, the uid and resourceVersion
//! preconditions, the referencing AIWorkloads deleted first, and only then, acknowledged, the
//! finalizer removed by value.

use chrono::{DateTime, Utc};

use super::workloads::{Standing, Workload, Workloads};
use super::*;

/// The uid and resourceVersion of a pool as it was looked at.
pub(super) fn preconditions(pool: &ComputePool) -> Preconditions {
    let meta = pool.meta();
    Preconditions::of(
        meta.and_then(|m| m.uid.as_deref()),
        meta.and_then(|m| m.resource_version.as_deref()),
    )
}

/// Safe deletion of one pool, with its impact: the AIWorkloads as `workloads` finds them.
pub fn delete(pool: &ComputePool, workloads: &Workloads) -> Plan {
    let target = pool_ref(pool);
    let spec = pool.spec();
    let policy = spec
        .and_then(|s| s.deletion_policy.as_deref())
        .unwrap_or("delete");
    let shared = spec
        .and_then(|s| s.cluster_variant.get())
        .is_some_and(|v| !v.shared.is_absent());
    let mut impact = vec!["Always deleted:".to_owned()];
    let referencing: Vec<&Workload> = workloads
        .standing(|s| matches!(s, Standing::Target(_) | Standing::ListedOnly(_)))
        .collect();
    if referencing.is_empty() {
        impact.push("  AIWorkloads: none reference this pool".to_owned());
    } else {
        impact.push(format!(
            "  {} force-deleted first:",
            counted(referencing.len(), "AIWorkload")
        ));
        impact.extend(referencing.iter().map(|w| match w.standing {
            Standing::Target(_) if w.listed => {
                format!("    {}/{}", w.reference.namespace, w.reference.name)
            }
            _ => format!("    {}", w.said()),
        }));
    }
    let others: Vec<&Workload> = workloads
        .standing(|s| !matches!(s, Standing::Target(_) | Standing::ListedOnly(_)))
        .collect();
    if !others.is_empty() {
        impact.push("  Also listed by the pool's status, not counted above:".to_owned());
        impact.extend(others.iter().map(|w| format!("    {}", w.said())));
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

/// Step 1 of unblocking: delete the AIWorkloads in the pool's namespace that name it; when
/// none does, the first that is listed only by the pool's status, with its name to type.
/// Every other reference is said, never acted on.
pub fn delete_workloads(pool: &ComputePool, workloads: &Workloads) -> Plan {
    let target = pool_ref(pool);
    let targets: Vec<&Workload> = workloads
        .standing(|s| matches!(s, Standing::Target(_)))
        .collect();
    let (chosen, typed): (Vec<&Workload>, Option<String>) = if targets.is_empty() {
        let first = workloads
            .standing(|s| matches!(s, Standing::ListedOnly(_)))
            .next();
        (
            first.into_iter().collect(),
            first.map(|w| w.reference.name.to_string()),
        )
    } else {
        (targets, None)
    };
    let mut explanation = vec![
        "AIWorkloads still reference this pool; its deletion waits for them.".to_owned(),
        "Each is deleted (the pool's deletion would force-delete them anyway).".to_owned(),
        format!("If the pool still does not go, read the controller logs: {CONTROLLER_LOG_HINT}"),
    ];
    if typed.is_some() {
        explanation.push(
            "Nothing names this pool as its own: this one is listed only by the pool's status. \
             Check it is this pool's before you type its name."
                .to_owned(),
        );
    }
    explanation.extend(
        workloads
            .all
            .iter()
            .filter(|w| !chosen.iter().any(|c| c.reference == w.reference))
            .map(|w| format!("{}.", w.said())),
    );
    let operations: Vec<Operation> = chosen
        .iter()
        .filter_map(|w| match &w.standing {
            Standing::Target(p) | Standing::ListedOnly(p) => Some(Operation::Delete {
                target: w.reference.clone(),
                preconditions: p.clone(),
                run: Run::Real,
            }),
            _ => None,
        })
        .collect();
    Plan {
        fix: Fix::DeleteWorkloads,
        title: format!(
            "Unblock {}: step 1, delete {}",
            target.name,
            counted(operations.len(), "AIWorkload")
        ),
        explanation,
        targets: chosen
            .iter()
            .map(|w| format!("AIWorkload {}/{}", w.reference.namespace, w.reference.name))
            .collect(),
        impact: Vec::new(),
        permissions: unique(
            chosen
                .iter()
                .map(|w| Permission {
                    verb: "delete",
                    kind: Kind::AIWorkload,
                    namespace: w.reference.namespace.to_string(),
                })
                .collect(),
        ),
        operations,
        type_to_confirm: typed,
        acknowledge: None,
        blocked: None,
    }
}

/// The guide's three conditions for removing the finalizer, the first as pooldeck verified
/// it (`clear_for`: minutes since none has been left).
fn conditions(clear_for: Option<i64>) -> Vec<String> {
    vec![
        "The guide's three conditions, all of which must hold:".to_owned(),
        match clear_for {
            Some(minutes) => format!(
                "  1. All AIWorkloads are deleted: verified by pooldeck, none left for {}.",
                minutes_words(minutes)
            ),
            None => "  1. All AIWorkloads are deleted: not verified yet.".to_owned(),
        },
        format!(
            "  2. The controller logs show the finalizer is stuck due to a known issue: \
             {CONTROLLER_LOG_HINT}"
        ),
        "  3. You have consulted your PaletteAI administrator or support team.".to_owned(),
    ]
}

fn minutes_words(minutes: i64) -> String {
    if minutes < 1 {
        "under a minute".to_owned()
    } else {
        counted(usize::try_from(minutes).unwrap_or(usize::MAX), "minute")
    }
}

/// Step 2 of unblocking: remove the Compute Pool finalizer by value, offered only once every
/// AIWorkload is verified gone, [`STUCK_AFTER_MINUTES`] after pooldeck saw the last one go
/// (or first verified none is left), at `now`.
pub fn remove_finalizer(pool: &ComputePool, workloads: &Workloads, now: DateTime<Utc>) -> Plan {
    let target = pool_ref(pool);
    let index = pool
        .meta()
        .and_then(|m| m.finalizers.get())
        .and_then(|f| f.iter().position(|v| v.as_deref() == Some(POOL_FINALIZER)));
    let clear_since = workloads.clear_since();
    let clear_for = clear_since.map(|since| now.signed_duration_since(since).num_minutes());
    let present = workloads.present();
    let first_other = workloads
        .standing(|s| matches!(s, Standing::Evidence(_) | Standing::Unverified))
        .next();
    let blocked = if index.is_none() {
        Some(format!("the pool does not hold {POOL_FINALIZER}"))
    } else if !pool.meta().is_some_and(|m| m.is_deleting()) {
        Some("the pool is not being deleted".to_owned())
    } else if present > 0 {
        Some(format!(
            "{} still {} the pool: delete {} first (step 1)",
            counted(present, "AIWorkload"),
            agrees(present, "references", "reference"),
            if present == 1 { "it" } else { "them" }
        ))
    } else if let Some(other) = first_other {
        Some(format!(
            "{}; the finalizer stays until every AIWorkload is verified gone",
            other.said()
        ))
    } else {
        match clear_for {
            None => Some("whether any AIWorkload is left is not verified yet".to_owned()),
            Some(minutes) if minutes < STUCK_AFTER_MINUTES => Some(format!(
                "the last AIWorkload went {} ago; the finalizer is offered {STUCK_AFTER_MINUTES} \
                 minutes after that, in {}: read the controller logs meanwhile",
                minutes_words(minutes),
                minutes_words(STUCK_AFTER_MINUTES.saturating_sub(minutes))
            )),
            Some(_) => None,
        }
    };
    let mut explanation = vec![FINALIZER_WARNING.to_owned()];
    explanation.extend(conditions(clear_for));
    Plan {
        fix: Fix::RemoveFinalizer,
        title: format!("Unblock {}: step 2, remove its finalizer", target.name),
        explanation,
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
