//! The fixes an operator runs on Compute Pools, as plans a confirmation holds: pause and
//! resume (the `controller.spectrocloud.com/pause` label), safe deletion with the impact the
//! configuration reference's "Affected Resources" describes, and the troubleshooting guide's
//! unblocking of a stuck deletion (delete the referencing AIWorkloads; only then, and only
//! when acknowledged, remove the Compute Pool finalizer by value). A plan says what it does,
//! what it does not do, what it needs typed and which permissions, and the operations it will
//! send; the console and the CLI verbs build the same plans.

use serde_json::Value;

use super::kind::Kind;
use super::object::{ObjectRef, Preconditions};
use super::operation::{Operation, Run};
use super::words::counted;

/// The label that pauses reconciliation when its value is the string `"true"`, and the
/// finalizer the Compute Pool controller holds while it cleans up.
pub use super::model::pool::{FINALIZER as POOL_FINALIZER, PAUSE_LABEL};
/// How long a deletion must have been pending before removing the finalizer is offered.
pub const STUCK_AFTER_MINUTES: i64 = 10;

/// The guide's warning, shown before the finalizer may be removed.
pub const FINALIZER_WARNING: &str = "Finalizers protect resources from premature deletion while cleanup occurs. \
Do not remove one unless all AIWorkloads are deleted, the controller logs show the finalizer is stuck \
due to a known issue, and you have consulted your PaletteAI administrator or support team. Removing it \
can leave orphaned resources in Palette or cause state inconsistencies.";

/// Where the guide says to look when a deletion does not complete.
pub const CONTROLLER_LOG_HINT: &str = "kubectl logs --namespace mural-system --selector controller.spectrocloud.com/name=hue-controllers --tail=100 --follow";

/// What has to be typed before the plan may run.
pub const ACKNOWLEDGEMENT: &str = "remove finalizer";

/// One permission a plan needs: a verb on a kind in a namespace.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Permission {
    pub verb: &'static str,
    pub kind: Kind,
    pub namespace: String,
}

impl Permission {
    /// "patch on computepools in retail-edge", as the dialog says what is missing.
    pub fn words(&self) -> String {
        format!(
            "{} on {} in {}",
            self.verb,
            self.kind.api().plural,
            self.namespace
        )
    }

    /// The access review that asks for it.
    pub fn review(&self) -> Operation {
        Operation::AccessReview {
            verb: self.verb.to_owned(),
            kind: self.kind,
            namespace: self.namespace.clone(),
        }
    }
}

/// Which fix a plan is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fix {
    Pause,
    Resume,
    Delete,
    DeleteWorkloads,
    RemoveFinalizer,
    /// The wizard's create or update.
    Apply,
    /// The wizard's way past an immutable field: the pool deleted, then created again once
    /// the API says it is gone.
    Recreate,
}

/// A fix ready to confirm.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub fix: Fix,
    pub title: String,
    /// What it does and does not do, in sentences.
    pub explanation: Vec<String>,
    /// The objects it acts on, one line each.
    pub targets: Vec<String>,
    /// What else goes (or stays) with it, for a delete.
    pub impact: Vec<String>,
    /// The real requests it sends on confirmation (each preceded by its dry run).
    pub operations: Vec<Operation>,
    /// A name that must be typed to confirm (a delete).
    pub type_to_confirm: Option<String>,
    /// What must be typed to acknowledge a warning (the finalizer).
    pub acknowledge: Option<&'static str>,
    pub permissions: Vec<Permission>,
    /// A plan that cannot run as things are, and why (shown instead of a confirm button).
    pub blocked: Option<String>,
}

impl Plan {
    /// The same requests as dry runs, sent before anything real.
    pub fn dry_runs(&self) -> Vec<Operation> {
        self.operations
            .iter()
            .map(|o| o.with_run(Run::DryRun))
            .collect()
    }

    /// The kubectl equivalent, one command per line.
    pub fn kubectl(&self) -> String {
        self.operations
            .iter()
            .map(Operation::kubectl)
            .collect::<Vec<_>>()
            .join("\n")
    }

    pub fn destructive(&self) -> bool {
        self.operations.iter().any(Operation::is_destructive)
    }
}

fn text<'v>(object: &'v Value, pointer: &str) -> Option<&'v str> {
    object.pointer(pointer).and_then(Value::as_str)
}

/// The object reference of a pool, from its JSON.
pub fn pool_ref(pool: &Value) -> ObjectRef {
    ObjectRef::new(
        Kind::Pool,
        text(pool, "/metadata/namespace").unwrap_or(""),
        text(pool, "/metadata/name").unwrap_or(""),
    )
}

/// The pause label's value, if the label is there.
pub fn pause_value(pool: &Value) -> Option<&str> {
    pool.pointer("/metadata/labels")
        .and_then(|l| l.get(PAUSE_LABEL))
        .and_then(Value::as_str)
}

/// Whether the controller skips this pool: the label holds exactly the string "true".
pub fn is_paused(pool: &Value) -> bool {
    pause_value(pool) == Some("true")
}

fn patch(namespace: &str) -> Permission {
    Permission {
        verb: "patch",
        kind: Kind::Pool,
        namespace: namespace.to_owned(),
    }
}

fn unique(mut permissions: Vec<Permission>) -> Vec<Permission> {
    permissions.sort();
    permissions.dedup();
    permissions
}

/// Pause or resume: resume when every pool given is paused, otherwise pause the ones that are
/// not (a pool whose label holds another value, such as "True", is not paused: its label is
/// corrected to "true").
pub fn pause_or_resume(pools: &[&Value]) -> Plan {
    let resume = !pools.is_empty() && pools.iter().all(|p| is_paused(p));
    pause_label(pools, resume)
}

/// Pause the pools that are not paused (`resume: false`), or resume the ones that are.
pub fn pause_label(pools: &[&Value], resume: bool) -> Plan {
    let chosen: Vec<&&Value> = pools.iter().filter(|p| is_paused(p) == resume).collect();
    let operations = chosen
        .iter()
        .map(|pool| {
            let target = pool_ref(pool);
            if resume {
                Operation::RemoveLabel {
                    target,
                    key: PAUSE_LABEL.into(),
                    run: Run::Real,
                }
            } else {
                Operation::SetLabel {
                    target,
                    key: PAUSE_LABEL.into(),
                    value: "true".into(),
                    run: Run::Real,
                }
            }
        })
        .collect();
    let targets = chosen
        .iter()
        .map(|pool| {
            let target = pool_ref(pool);
            match pause_value(pool) {
                Some(value) if !resume => format!(
                    "{}/{}   (label is \"{value}\", which does not pause: corrected to \"true\")",
                    target.namespace, target.name
                ),
                _ => format!("{}/{}", target.namespace, target.name),
            }
        })
        .collect();
    let mut explanation = if resume {
        vec![
            format!("Removes the label {PAUSE_LABEL}: the controller reconciles the pool again."),
            "Changes the controller made wait for will now be applied.".to_owned(),
        ]
    } else {
        vec![
            format!(
                "Sets {PAUSE_LABEL}: \"true\" (the string): the controller skips reconciliation."
            ),
            "It does not stop deletion: a pool being deleted is still torn down.".to_owned(),
            "Resume (p again) removes the label.".to_owned(),
        ]
    };
    let skipped = pools.len() - chosen.len();
    if skipped > 0 {
        explanation.push(format!(
            "{} already paused: left as is.",
            counted(skipped, "pool")
        ));
    }
    let verb = if resume { "Resume" } else { "Pause" };
    Plan {
        fix: if resume { Fix::Resume } else { Fix::Pause },
        title: format!("{verb} {}", counted(chosen.len(), "Compute Pool")),
        explanation,
        targets,
        impact: Vec::new(),
        operations,
        type_to_confirm: None,
        acknowledge: None,
        permissions: unique(
            chosen
                .iter()
                .map(|p| patch(&pool_ref(p).namespace))
                .collect(),
        ),
        blocked: chosen.is_empty().then(|| {
            if resume {
                "no pool given is paused".to_owned()
            } else {
                "every pool given is already paused".to_owned()
            }
        }),
    }
}

/// The AIWorkloads a pool's status says reference it.
pub fn workload_refs(pool: &Value) -> Vec<ObjectRef> {
    let own = text(pool, "/metadata/namespace").unwrap_or("");
    pool.pointer("/status/aiWorkloadRefs")
        .and_then(Value::as_array)
        .map(|refs| {
            refs.iter()
                .filter_map(|r| {
                    let name = r.get("name").and_then(Value::as_str)?;
                    let namespace = r.get("namespace").and_then(Value::as_str).unwrap_or(own);
                    Some(ObjectRef::new(Kind::AIWorkload, namespace, name))
                })
                .collect()
        })
        .unwrap_or_default()
}

fn preconditions(object: &Value) -> Preconditions {
    Preconditions {
        uid: text(object, "/metadata/uid").map(str::to_owned),
        resource_version: text(object, "/metadata/resourceVersion").map(str::to_owned),
    }
}

/// Safe deletion of one pool, with its impact.
pub fn delete(pool: &Value) -> Plan {
    let target = pool_ref(pool);
    let workloads = workload_refs(pool);
    let policy = text(pool, "/spec/deletionPolicy").unwrap_or("delete");
    let shared = pool.pointer("/spec/clusterVariant/shared").is_some();
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
    let deleting = pool.pointer("/metadata/deletionTimestamp").is_some();
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
            "its deletion is already under way: use u (unblock) if it is stuck".to_owned()
        }),
    }
}

/// Step 1 of unblocking: delete the AIWorkloads that still reference a deleting pool.
pub fn delete_workloads(
    pool: &Value,
    existing: &dyn Fn(&ObjectRef) -> Option<Preconditions>,
) -> Plan {
    let target = pool_ref(pool);
    let workloads: Vec<(ObjectRef, Preconditions)> = workload_refs(pool)
        .into_iter()
        .filter_map(|w| existing(&w).map(|p| (w, p)))
        .collect();
    Plan {
        fix: Fix::DeleteWorkloads,
        title: format!(
            "Unblock {}: step 1, delete {}",
            target.name,
            counted(workloads.len(), "AIWorkload")
        ),
        explanation: vec![
            "AIWorkloads still reference this pool; its deletion waits for them.".to_owned(),
            "Each is deleted (the pool's deletion would force-delete them anyway).".to_owned(),
            format!(
                "If the pool still does not go, read the controller logs: {CONTROLLER_LOG_HINT}"
            ),
        ],
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
pub fn remove_finalizer(pool: &Value, workloads_left: usize, pending_minutes: Option<i64>) -> Plan {
    let target = pool_ref(pool);
    let index = pool
        .pointer("/metadata/finalizers")
        .and_then(Value::as_array)
        .and_then(|f| f.iter().position(|v| v.as_str() == Some(POOL_FINALIZER)));
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

#[cfg(test)]
#[path = "fixes_tests.rs"]
mod tests;
