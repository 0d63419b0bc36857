//! Operations on the hub as values: built by the console or a CLI verb, held by a confirmation
//! before anything runs, carried out by the runtime through the cluster port, recorded by the
//! audit log. Each knows its kubectl equivalent, the preconditions the request carries and
//! whether it destroys something.

use serde_json::Value;

use super::error::ClusterError;
use super::kind::Kind;
use super::object::{ObjectRef, Preconditions};
use super::shell::quote;

/// Whether a write is real or a server-side dry run (`?dryRun=All`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Run {
    Real,
    DryRun,
}

/// One request pooldeck may make that changes (or asks about) the hub.
#[derive(Clone, Debug, PartialEq)]
pub enum Operation {
    /// Sets one label (pause: `controller.spectrocloud.com/pause: "true"`).
    /// The patch names the uid and resourceVersion looked at: a pool recreated or changed
    /// since is refused, not paused.
    SetLabel {
        target: ObjectRef,
        key: String,
        value: String,
        preconditions: Preconditions,
        run: Run,
    },
    /// Removes one label (resume), with the same preconditions as [`Operation::SetLabel`].
    RemoveLabel {
        target: ObjectRef,
        key: String,
        preconditions: Preconditions,
        run: Run,
    },
    /// Deletes the incarnation named by the preconditions, and no other.
    Delete {
        target: ObjectRef,
        preconditions: Preconditions,
        run: Run,
    },
    /// Removes one finalizer by value: the patch tests that `index` still holds `finalizer`
    /// and that the object is the incarnation looked at (its uid).
    RemoveFinalizer {
        target: ObjectRef,
        finalizer: String,
        index: usize,
        preconditions: Preconditions,
        run: Run,
    },
    /// Creates an object.
    Create { object: Value, run: Run },
    /// Replaces an object, refused if it changed since `resource_version`.
    Update {
        target: ObjectRef,
        object: Value,
        resource_version: String,
        run: Run,
    },
    /// Asks whether the current user may `verb` the kind in a namespace.
    AccessReview {
        verb: String,
        kind: Kind,
        namespace: String,
    },
}

/// The JSON patch that removes a finalizer by value: it tests that the object is still the
/// incarnation looked at (its uid, when known) and that `index` still holds the finalizer, so
/// a recreated pool or a list that changed since it was read is refused instead of losing
/// another finalizer.
pub fn finalizer_patch(finalizer: &str, index: usize, preconditions: &Preconditions) -> Value {
    let path = format!("/metadata/finalizers/{index}");
    let mut operations = Vec::new();
    if let Some(uid) = &preconditions.uid {
        operations.push(serde_json::json!({"op": "test", "path": "/metadata/uid", "value": uid}));
    }
    operations.push(serde_json::json!({"op": "test", "path": path, "value": finalizer}));
    operations.push(serde_json::json!({"op": "remove", "path": path}));
    Value::Array(operations)
}

/// The merge patch that sets a label (`Some`) or removes it (`None`), naming the uid and
/// resourceVersion looked at: the API refuses it (409) for another incarnation or version.
pub fn label_patch(key: &str, value: Option<&str>, preconditions: &Preconditions) -> Value {
    let mut metadata = serde_json::Map::new();
    if let Some(uid) = &preconditions.uid {
        metadata.insert("uid".into(), Value::from(uid.as_str()));
    }
    if let Some(version) = &preconditions.resource_version {
        metadata.insert("resourceVersion".into(), Value::from(version.as_str()));
    }
    metadata.insert(
        "labels".into(),
        serde_json::json!({ key: value.map_or(Value::Null, Value::from) }),
    );
    serde_json::json!({ "metadata": metadata })
}

/// ` --resource-version=RV` for kubectl label, when the version is known.
fn version_flag(preconditions: &Preconditions) -> String {
    preconditions
        .resource_version
        .as_deref()
        .map(|v| format!(" --resource-version={}", quote(v)))
        .unwrap_or_default()
}

impl Operation {
    /// The object it acts on (`None` for an access review or a create without a name).
    pub fn target(&self) -> Option<ObjectRef> {
        match self {
            Operation::SetLabel { target, .. }
            | Operation::RemoveLabel { target, .. }
            | Operation::Delete { target, .. }
            | Operation::RemoveFinalizer { target, .. }
            | Operation::Update { target, .. } => Some(target.clone()),
            Operation::Create { object, .. } => {
                let kind = object
                    .get("kind")
                    .and_then(Value::as_str)
                    .and_then(Kind::from_kind)?;
                let text = |p: &str| object.pointer(p).and_then(Value::as_str).unwrap_or("");
                Some(ObjectRef::new(
                    kind,
                    text("/metadata/namespace"),
                    text("/metadata/name"),
                ))
            }
            Operation::AccessReview { .. } => None,
        }
    }

    pub fn run(&self) -> Option<Run> {
        match self {
            Operation::SetLabel { run, .. }
            | Operation::RemoveLabel { run, .. }
            | Operation::Delete { run, .. }
            | Operation::RemoveFinalizer { run, .. }
            | Operation::Create { run, .. }
            | Operation::Update { run, .. } => Some(*run),
            Operation::AccessReview { .. } => None,
        }
    }

    /// The same request, real or a dry run (an access review is left as it is).
    pub fn with_run(&self, to: Run) -> Operation {
        let mut copy = self.clone();
        match &mut copy {
            Operation::SetLabel { run, .. }
            | Operation::RemoveLabel { run, .. }
            | Operation::Delete { run, .. }
            | Operation::RemoveFinalizer { run, .. }
            | Operation::Create { run, .. }
            | Operation::Update { run, .. } => *run = to,
            Operation::AccessReview { .. } => {}
        }
        copy
    }

    /// Whether it sends a request that changes something (a dry run changes nothing, but is
    /// still a write request: read-only mode sends neither).
    pub fn is_mutating(&self) -> bool {
        !matches!(self, Operation::AccessReview { .. })
    }

    /// Whether it destroys something that cannot be had back by undoing it.
    pub fn is_destructive(&self) -> bool {
        matches!(
            self,
            Operation::Delete { .. } | Operation::RemoveFinalizer { .. }
        )
    }

    /// What the request carries so it only applies to the object as it was looked at.
    pub fn preconditions(&self) -> Preconditions {
        match self {
            Operation::Delete { preconditions, .. }
            | Operation::SetLabel { preconditions, .. }
            | Operation::RemoveLabel { preconditions, .. }
            | Operation::RemoveFinalizer { preconditions, .. } => preconditions.clone(),
            Operation::Update {
                resource_version, ..
            } => Preconditions {
                uid: None,
                resource_version: Some(resource_version.clone()),
            },
            Operation::Create { .. } | Operation::AccessReview { .. } => Preconditions::default(),
        }
    }

    /// The same request as a kubectl command line, for the dialog and the runbook.
    pub fn kubectl(&self) -> String {
        let dry = |run: &Run| match run {
            Run::Real => "",
            Run::DryRun => " --dry-run=server",
        };
        let object = |target: &ObjectRef| {
            format!(
                "{} {}{}",
                target.kind.api().plural,
                quote(&target.name),
                target.namespace_flag()
            )
        };
        match self {
            Operation::SetLabel {
                target,
                key,
                value,
                preconditions,
                run,
            } => format!(
                "kubectl label {} {}={} --overwrite{}{}",
                object(target),
                quote(key),
                quote(value),
                version_flag(preconditions),
                dry(run)
            ),
            Operation::RemoveLabel {
                target,
                key,
                preconditions,
                run,
            } => format!(
                "kubectl label {} {}-{}{}",
                object(target),
                quote(key),
                version_flag(preconditions),
                dry(run)
            ),
            Operation::Delete { target, run, .. } => {
                format!("kubectl delete {}{}", object(target), dry(run))
            }
            Operation::RemoveFinalizer {
                target,
                finalizer,
                index,
                preconditions,
                run,
            } => {
                let patch = finalizer_patch(finalizer, *index, preconditions);
                format!(
                    "kubectl patch {} --type=json -p {}{}",
                    object(target),
                    quote(&patch.to_string()),
                    dry(run)
                )
            }
            Operation::Create { run, .. } => format!("kubectl create -f -{}", dry(run)),
            Operation::Update { run, .. } => format!("kubectl replace -f -{}", dry(run)),
            Operation::AccessReview {
                verb,
                kind,
                namespace,
            } => format!(
                "kubectl auth can-i {} {}{}",
                quote(verb),
                kind.resource_name(),
                if namespace.is_empty() {
                    String::new()
                } else {
                    format!(" -n {}", quote(namespace))
                }
            ),
        }
    }
}

/// What came of an operation.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The server did it (or, for a dry run, would do it); its answer in a sentence.
    Done { message: String },
    /// The access review's answer.
    Allowed(bool),
    /// It was refused or could not be sent.
    Failed(ClusterError),
}

#[cfg(test)]
#[path = "operation_tests.rs"]
mod tests;
