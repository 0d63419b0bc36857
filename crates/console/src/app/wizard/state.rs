//! The wizard's state: the draft, the step and field under the cursor, what the checks found,
//! the names the hub offers, the dry run; and what it reads of itself (its lines, what a
//! field shows, the requests Review would send).

use serde_json::Value;

use super::editor::Editor;
use super::recreate;
use crate::domain::draft::{self, Draft, FIELDS, FieldSpec, Group, Step};
use crate::domain::model::ComputePool;
use crate::domain::path::YamlPath;
use crate::domain::rules::{Finding, Severity};
use crate::domain::{Kind, Operation, RequestId, Run};

/// A name the cluster offers for a field, and (for a ProfileBundle) whether it is Ready.
pub type Offered = (String, Option<bool>);

/// What the wizard is for.
#[derive(Clone, Debug, PartialEq)]
pub enum Purpose {
    Create,
    /// An update of this object as it was when the wizard opened.
    Edit {
        old: Box<ComputePool>,
    },
    /// An edit that changes an immutable field: the object is deleted, then created again
    /// from the draft once it is gone.
    Recreate {
        old: Box<ComputePool>,
    },
}

impl Purpose {
    /// An edit of the pool as the hub sent it (read through the model, as everything the
    /// wizard reads of it is).
    pub fn edit(live: Value) -> Purpose {
        let old = crate::domain::model::read_owned::<ComputePool>(live)
            .map(|(pool, _)| pool)
            .unwrap_or_default();
        Purpose::Edit { old: Box::new(old) }
    }
}

/// One line of a step: a field, with its worker pool where it repeats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    pub spec: &'static FieldSpec,
    pub worker: usize,
}

impl Line {
    pub fn path(&self) -> YamlPath {
        self.spec.at(self.worker)
    }
}

/// The wizard on the modal stack.
#[derive(Clone, Debug, PartialEq)]
pub struct Wizard {
    pub draft: Draft,
    pub purpose: Purpose,
    pub step: Step,
    pub cursor: usize,
    /// The text being typed into the field under the cursor.
    pub editing: Option<Editor>,
    pub findings: Vec<Finding>,
    /// The field each finding belongs to (same order as `findings`), placed once per change.
    pub owners: Vec<Option<(&'static FieldSpec, usize)>>,
    /// The manifest as Review shows it, written once per change (never while drawing).
    pub yaml: String,
    /// The dry run's answers, verbatim, once asked.
    pub dry_run: Option<DryRun>,
    /// Review's host-availability and quota lines, made once per change.
    pub picture: Vec<String>,
    /// What the cluster has in the pool's namespace for the fields that name an object:
    /// names, and for ProfileBundles whether each is Ready.
    pub names: Vec<(Kind, Vec<Offered>)>,
    /// The GPU variants of the namespace's Computes and how many machines of each are free
    /// (what a GPU variant's choices say beside each).
    pub free: Vec<(String, i64)>,
    /// The resource groups the namespace's Computes give the control plane's machines and
    /// the workers', `key=value`.
    pub groups: [Vec<String>; 2],
    /// The paths of the pool no field shows: written back exactly as they are, and named.
    pub kept: Vec<String>,
    /// The namespaces a new pool may go to (Projects first: `Some(true)` has a Project).
    pub namespaces: Vec<Offered>,
    /// The text being typed that cannot be read as its field's value: where, and why.
    pub unreadable: Option<(YamlPath, String)>,
    /// The value of the field being typed into as it was before (Esc puts it back: what is
    /// typed goes into the draft at once, so the rules check it on every keystroke).
    pub before: Option<Option<Value>>,
    /// The inventory's fleet and context generations the checks were made at.
    pub checked: (u64, u64),
    /// When a new pool's draft was started (keeps drafts with no name yet apart).
    pub started: String,
    /// The file the draft was last saved as (a rename moves it).
    pub saved_as: Option<String>,
    /// The draft as the wizard opened on it: until it changes, nothing is saved (opening and
    /// closing the wizard leaves no draft behind).
    pub origin: Draft,
    /// The hub (kubeconfig context) the wizard works on: its draft is offered there only.
    pub context: String,
    /// For an edit: the resourceVersion the draft started from (the live one's, or the
    /// resumed draft's: a pool that moved on since is said on Review).
    pub base_version: Option<String>,
    /// The pool's scalingPolicyRef before "Write a new policy" was turned on: turned off, it
    /// is put back as it was.
    pub ref_before_policy: Option<Option<Value>>,
    /// Opened on a kept draft (closing it unchanged keeps it).
    pub resumed: bool,
    /// The draft could not be kept on disk: why (said when the wizard closes).
    pub unsaved: Option<String>,
}

impl Wizard {
    /// A wizard at its first step.
    pub fn new(draft: Draft, purpose: Purpose) -> Wizard {
        let base_version = match &purpose {
            Purpose::Edit { old } | Purpose::Recreate { old } => old
                .meta()
                .and_then(|m| m.resource_version.as_deref())
                .map(str::to_owned),
            Purpose::Create => None,
        };
        Wizard {
            origin: draft.clone(),
            context: String::new(),
            base_version,
            ref_before_policy: None,
            resumed: false,
            unsaved: None,
            draft,
            purpose,
            step: Step::General,
            cursor: 0,
            editing: None,
            findings: Vec::new(),
            owners: Vec::new(),
            yaml: String::new(),
            dry_run: None,
            picture: Vec::new(),
            names: Vec::new(),
            free: Vec::new(),
            groups: [Vec::new(), Vec::new()],
            kept: Vec::new(),
            namespaces: Vec::new(),
            unreadable: None,
            before: None,
            checked: (u64::MAX, u64::MAX),
            started: String::new(),
            saved_as: None,
        }
    }

    /// The lines of the current step: its fields, then the repeating ones once per entry
    /// (worker pools; the GPU entries of a policy written here). A policy's fields show only
    /// while the wizard writes one.
    pub fn lines(&self) -> Vec<Line> {
        let writes_policy = self.draft.policy.is_some();
        let mut lines: Vec<Line> = FIELDS
            .iter()
            .filter(|f| f.step == self.step && f.group == Group::Once)
            .filter(|f| writes_policy || !f.path.starts_with(&format!("{}.", draft::POLICY)))
            .map(|spec| Line { spec, worker: 0 })
            .collect();
        let entries = match self.step {
            Step::NodeConfig => Some((Group::WorkerPool, self.draft.worker_pools())),
            Step::Autoscaling if writes_policy => {
                Some((Group::PolicyGpu, self.draft.policy_gpus()))
            }
            _ => None,
        };
        if let Some((group, count)) = entries {
            for worker in 0..count {
                lines.extend(
                    FIELDS
                        .iter()
                        .filter(|f| f.group == group)
                        .map(|spec| Line { spec, worker }),
                );
            }
        }
        lines
    }

    /// A field's value as the wizard shows it.
    pub fn shown(&self, line: &Line) -> String {
        if line.spec.path == "spec.clusterVariant" {
            return if self
                .draft
                .pool
                .pointer("/spec/clusterVariant/shared")
                .is_some()
            {
                "shared".into()
            } else {
                "dedicated".into()
            };
        }
        if line.spec.path == draft::POLICY {
            return if self.draft.policy.is_some() {
                "true".into()
            } else {
                "false".into()
            };
        }
        crate::domain::entry::summary(line.spec.entry, self.draft.get(&line.path()))
    }

    /// Why a field cannot change here, with the way out.
    pub fn locked(&self, line: &Line) -> Option<&'static str> {
        match (&self.purpose, line.spec.label) {
            (Purpose::Edit { .. }, "VIP") => Some(
                "the VIP is immutable after creation: R recreates the pool to change it (manifest kept as a draft, safe delete, wait until it is gone, create)",
            ),
            (Purpose::Edit { .. }, "Longhorn replicas") => Some(
                "the Longhorn replica count is immutable after creation: to use another, recreate \
                 the pool with the new value (R); every PersistentVolumeClaim is lost, so back up \
                 persistent data first",
            ),
            (Purpose::Edit { .. }, "Compute pool name") => {
                Some("a pool's name cannot change: create a new pool instead")
            }
            (Purpose::Recreate { .. }, "Compute pool name") => {
                Some("the pool is recreated under its own name")
            }
            (Purpose::Edit { .. } | Purpose::Recreate { .. }, "Namespace") => Some(
                "a pool stays in its namespace: to have one in another, write a new pool there (n)",
            ),
            _ => None,
        }
    }

    /// The findings on a line's field: those whose nearest field is this one.
    pub fn findings_at(&self, line: &Line) -> Vec<&Finding> {
        self.findings
            .iter()
            .zip(&self.owners)
            .filter(|(_, owner)| **owner == Some((line.spec, line.worker)))
            .map(|(finding, _)| finding)
            .collect()
    }

    /// The findings of the current step that no line shows (about the worker pools when
    /// there are none, say): shown under the step's fields.
    pub fn unplaced(&self) -> Vec<&Finding> {
        let lines = self.lines();
        self.findings
            .iter()
            .zip(&self.owners)
            .filter(|(_, owner)| {
                owner.is_some_and(|(spec, worker)| {
                    spec.step == self.step
                        && !lines.iter().any(|l| l.spec == spec && l.worker == worker)
                })
            })
            .map(|(finding, _)| finding)
            .collect()
    }

    /// Errors (or warnings) of a step, for the step list; Review counts them all.
    pub fn count(&self, step: Step, severity: Severity) -> usize {
        self.findings
            .iter()
            .zip(&self.owners)
            .filter(|(f, _)| f.rule.severity == severity)
            .filter(|(_, owner)| {
                step == Step::Review || owner.map(|(spec, _)| spec.step) == Some(step)
            })
            .count()
    }

    pub fn errors(&self) -> usize {
        self.findings
            .iter()
            .filter(|f| f.rule.severity == Severity::Error)
            .count()
    }

    /// The draft as it is kept on disk: what it is for, and the field being typed with its
    /// text (kept with Enter or not).
    pub fn saved(&self) -> crate::domain::draft::Saved {
        use crate::domain::draft::{Aim, Saved, Typing};
        let aim = match &self.purpose {
            Purpose::Create => Aim::New,
            Purpose::Edit { .. } | Purpose::Recreate { .. } => Aim::Edit,
        };
        let typing = self.editing.as_ref().and_then(|editor| {
            self.lines().get(self.cursor).map(|line| Typing {
                path: line.path().to_string(),
                text: editor.text(),
                before: self.before.clone().flatten(),
            })
        });
        let resource_version = self.base_version.clone();
        Saved {
            aim,
            context: self.context.clone(),
            resource_version,
            started: self.started.clone(),
            typing,
            draft: self.draft.clone(),
        }
    }

    /// Whether closing leaves nothing worth a draft: not resumed, and unchanged since it
    /// opened (a new pool: nothing but its namespace chosen).
    pub fn blank(&self) -> bool {
        !self.resumed
            && self.editing.is_none()
            && (self.draft == self.origin
                || (self.purpose == Purpose::Create
                    && self.draft == Draft::new(self.draft.namespace())))
    }

    pub(super) fn old_pool(&self) -> Option<&ComputePool> {
        match &self.purpose {
            Purpose::Edit { old } => Some(old),
            Purpose::Create | Purpose::Recreate { .. } => None,
        }
    }

    /// The requests Review applies: the ScalingPolicy written here first (a create), then the
    /// pool.
    pub fn operations(&self, run: Run) -> Vec<Operation> {
        if let Purpose::Recreate { old } = &self.purpose {
            // What is sent first is the delete; the create waits for the pool to be gone.
            return recreate::plan(old, &self.draft.pool, &Default::default())
                .operations
                .into_iter()
                .map(|o| o.with_run(run))
                .collect();
        }
        let mut out = Vec::new();
        if let Some(policy) = &self.draft.policy {
            out.push(Operation::Create {
                object: policy.clone(),
                run,
            });
        }
        out.push(self.operation(run));
        out
    }

    /// The pool's request: a create, or a replace of the version looked at.
    pub fn operation(&self, run: Run) -> Operation {
        match &self.purpose {
            Purpose::Create => Operation::Create {
                object: self.draft.pool.clone(),
                run,
            },
            Purpose::Recreate { .. } => Operation::Create {
                object: recreate::fresh(&self.draft.pool),
                run,
            },
            Purpose::Edit { old } => Operation::Update {
                target: crate::domain::fixes::pool_ref(old),
                object: self.draft.pool.clone(),
                resource_version: old
                    .meta()
                    .and_then(|m| m.resource_version.as_deref())
                    .unwrap_or("")
                    .to_owned(),
                run,
            },
        }
    }
}

/// The server's dry run of what Review would send: the requests still awaited (by id) and the
/// answers so far, one per object.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DryRun {
    pub waiting: Vec<RequestId>,
    pub answers: Vec<String>,
}

impl DryRun {
    /// What Review shows.
    pub fn text(&self) -> String {
        match (self.answers.is_empty(), self.waiting.is_empty()) {
            (true, _) => "sent, waiting for the server's answer…".to_owned(),
            (false, true) => self.answers.join("; "),
            (false, false) => format!("{}; more to come…", self.answers.join("; ")),
        }
    }
}
