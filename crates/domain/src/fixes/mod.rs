//! The fixes an operator runs on Compute Pools, as plans a confirmation holds: pause and
//! resume (the `controller.spectrocloud.com/pause` label), safe deletion with the impact the
//! configuration reference's "Affected Resources" describes, and the troubleshooting guide's
//! unblocking of a stuck deletion (delete the referencing AIWorkloads; only then, and only
//! when acknowledged, remove the Compute Pool finalizer by value). A plan says what it does,
//! what it does not do, what it needs typed and which permissions, and the operations it will
//! send; the console and the CLI verbs build the same plans. Deletion's plans are in
//! `deletion.rs`.

use super::kind::Kind;
use super::model::ComputePool;
use super::object::Preconditions;
use super::operation::{Operation, Run};
use super::words::{agrees, counted};

/// The label that pauses reconciliation when its value is the string `"true"`, and the
/// finalizer the Compute Pool controller holds while it cleans up.
pub use self::deletion::{delete, delete_workloads, remove_finalizer};
pub use self::workloads::{
    Standing, Workload, Workloads, WorkloadsRead, claimed, pool_ref, workload_refs,
};
pub use super::model::pool::{FINALIZER as POOL_FINALIZER, PAUSE_LABEL};

mod deletion;
mod workloads;
/// How long after the last AIWorkload went (as pooldeck saw it, or first verified it) removing
/// the finalizer is offered.
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
    /// A pool edited as YAML in the user's editor, replaced.
    Edit,
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

    /// The plan as shown for a hub: the commands its explanation hands on (the controller's
    /// log) name the hub's kubeconfig file and context, so that pasted they look there.
    pub fn bound_to(mut self, hub: &crate::Hub) -> Plan {
        let bound = super::shell::on_hub(CONTROLLER_LOG_HINT, hub);
        for line in &mut self.explanation {
            if line.contains(CONTROLLER_LOG_HINT) {
                *line = line.replace(CONTROLLER_LOG_HINT, &bound);
            }
        }
        self
    }

    /// The kubectl equivalent on a hub, one command per line, each naming its kubeconfig
    /// file (when one was named) and context.
    pub fn kubectl_on(&self, hub: &crate::Hub) -> String {
        self.operations
            .iter()
            .map(|o| super::shell::on_hub(&o.kubectl(), hub))
            .collect::<Vec<_>>()
            .join("\n")
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

/// The pause label's value, if the label is there (as text).
pub fn pause_value(pool: &ComputePool) -> Option<&str> {
    pool.meta()?.label(PAUSE_LABEL)
}

/// Whether the controller skips this pool: the label holds exactly the string "true".
pub fn is_paused(pool: &ComputePool) -> bool {
    pool.is_paused()
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
pub fn pause_or_resume(pools: &[&ComputePool]) -> Plan {
    let resume = !pools.is_empty() && pools.iter().all(|p| is_paused(p));
    pause_label(pools, resume)
}

/// Pause the pools that are not paused (`resume: false`), or resume the ones that are.
pub fn pause_label(pools: &[&ComputePool], resume: bool) -> Plan {
    let chosen: Vec<&&ComputePool> = pools.iter().filter(|p| is_paused(p) == resume).collect();
    let operations = chosen
        .iter()
        .map(|pool| pause_operation(pool, resume))
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
    let mut explanation = pause_explanation(resume);
    let skipped = pools.len().saturating_sub(chosen.len());
    if skipped > 0 {
        explanation.push(format!(
            "{} {}: left as is.",
            counted(skipped, "pool"),
            if resume {
                "not paused"
            } else {
                "already paused"
            }
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

/// The label set (pause) or removed (resume) on one pool, bound to the pool as looked at: a
/// pool recreated or changed since is refused.
fn pause_operation(pool: &ComputePool, resume: bool) -> Operation {
    let target = pool_ref(pool);
    let preconditions = deletion::preconditions(pool);
    if resume {
        Operation::RemoveLabel {
            target,
            key: PAUSE_LABEL.into(),
            preconditions,
            run: Run::Real,
        }
    } else {
        Operation::SetLabel {
            target,
            key: PAUSE_LABEL.into(),
            value: "true".into(),
            preconditions,
            run: Run::Real,
        }
    }
}

/// What a pause or a resume does, for its confirmation.
fn pause_explanation(resume: bool) -> Vec<String> {
    if resume {
        vec![
            format!("Removes the label {PAUSE_LABEL}: the controller reconciles the pool again."),
            "Changes the controller made wait for will now be applied.".to_owned(),
            "The request names each pool's uid and resourceVersion: a pool recreated or changed since is not resumed.".to_owned(),
        ]
    } else {
        vec![
            format!(
                "Sets {PAUSE_LABEL}: \"true\" (the string): the controller skips reconciliation."
            ),
            "It does not stop deletion: a pool being deleted is still torn down.".to_owned(),
            "Resuming removes the label (p again in the console, pooldeck resume).".to_owned(),
            "The request names each pool's uid and resourceVersion: a pool recreated or changed since is not paused.".to_owned(),
        ]
    }
}

#[cfg(test)]
mod tests;
