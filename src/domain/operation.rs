//! Operations on the hub as values: built by the console or a CLI verb, held by a confirmation
//! before anything runs, carried out by the runtime through the cluster port, recorded by the
//! audit log. Each knows its kubectl equivalent, the preconditions the request carries and
//! whether it destroys something.

use serde_json::Value;

use super::error::ClusterError;
use super::kind::Kind;
use super::object::{ObjectRef, Preconditions};

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
    SetLabel {
        target: ObjectRef,
        key: String,
        value: String,
        run: Run,
    },
    /// Removes one label (resume).
    RemoveLabel {
        target: ObjectRef,
        key: String,
        run: Run,
    },
    /// Deletes the incarnation named by the preconditions, and no other.
    Delete {
        target: ObjectRef,
        preconditions: Preconditions,
        run: Run,
    },
    /// Removes one finalizer by value: the patch tests that `index` still holds `finalizer`.
    RemoveFinalizer {
        target: ObjectRef,
        finalizer: String,
        index: usize,
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

/// The JSON patch that removes a finalizer by value: it tests that `index` still holds it, so
/// a list that changed since it was read is refused instead of losing another finalizer.
pub fn finalizer_patch(finalizer: &str, index: usize) -> Value {
    let path = format!("/metadata/finalizers/{index}");
    serde_json::json!([
        {"op": "test", "path": path, "value": finalizer},
        {"op": "remove", "path": path},
    ])
}

/// A label key or value quoted for a shell only when it needs it.
fn shell(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=@".contains(c));
    if plain {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
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
            Operation::Delete { preconditions, .. } => preconditions.clone(),
            Operation::Update {
                resource_version, ..
            } => Preconditions {
                uid: None,
                resource_version: Some(resource_version.clone()),
            },
            _ => Preconditions::default(),
        }
    }

    /// The same request as a kubectl command line, for the dialog and the runbook.
    pub fn kubectl(&self) -> String {
        let dry = |run: &Run| match run {
            Run::Real => "",
            Run::DryRun => " --dry-run=server",
        };
        match self {
            Operation::SetLabel {
                target,
                key,
                value,
                run,
            } => format!(
                "kubectl label {} {}{} {}={} --overwrite{}",
                target.kind.api().plural,
                target.name,
                target.namespace_flag(),
                shell(key),
                shell(value),
                dry(run)
            ),
            Operation::RemoveLabel { target, key, run } => format!(
                "kubectl label {} {}{} {}-{}",
                target.kind.api().plural,
                target.name,
                target.namespace_flag(),
                shell(key),
                dry(run)
            ),
            Operation::Delete { target, run, .. } => format!(
                "kubectl delete {} {}{}{}",
                target.kind.api().plural,
                target.name,
                target.namespace_flag(),
                dry(run)
            ),
            Operation::RemoveFinalizer {
                target,
                finalizer,
                index,
                run,
            } => {
                let patch = finalizer_patch(finalizer, *index);
                format!(
                    "kubectl patch {} {}{} --type=json -p {}{}",
                    target.kind.api().plural,
                    target.name,
                    target.namespace_flag(),
                    shell(&patch.to_string()),
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
                "kubectl auth can-i {verb} {}{}",
                kind.resource_name(),
                if namespace.is_empty() {
                    String::new()
                } else {
                    format!(" -n {namespace}")
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
mod tests {
    use super::*;

    fn pool() -> ObjectRef {
        ObjectRef::new(Kind::Pool, "retail-edge", "store-042")
    }

    #[test]
    fn each_operation_has_its_kubectl_equivalent() {
        let pause = Operation::SetLabel {
            target: pool(),
            key: "controller.spectrocloud.com/pause".into(),
            value: "true".into(),
            run: Run::Real,
        };
        assert_eq!(
            pause.kubectl(),
            "kubectl label computepools store-042 -n retail-edge controller.spectrocloud.com/pause=true --overwrite"
        );
        let resume = Operation::RemoveLabel {
            target: pool(),
            key: "controller.spectrocloud.com/pause".into(),
            run: Run::DryRun,
        };
        assert!(resume.kubectl().ends_with("pause- --dry-run=server"));
        let unblock = Operation::RemoveFinalizer {
            target: pool(),
            finalizer: "spectrocloud.com/computepool-finalizer".into(),
            index: 1,
            run: Run::Real,
        };
        let text = unblock.kubectl();
        assert!(
            text.contains(r#""op":"test","path":"/metadata/finalizers/1""#),
            "{text}"
        );
        assert!(unblock.is_destructive());
        assert!(!pause.is_destructive() && pause.is_mutating());
    }

    #[test]
    fn a_delete_carries_its_preconditions() {
        let delete = Operation::Delete {
            target: pool(),
            preconditions: Preconditions {
                uid: Some("u-1".into()),
                resource_version: Some("42".into()),
            },
            run: Run::Real,
        };
        assert_eq!(delete.preconditions().uid.as_deref(), Some("u-1"));
        assert_eq!(delete.target(), Some(pool()));
        let review = Operation::AccessReview {
            verb: "patch".into(),
            kind: Kind::Pool,
            namespace: "retail-edge".into(),
        };
        assert!(!review.is_mutating());
        assert_eq!(
            review.kubectl(),
            "kubectl auth can-i patch computepools.spectrocloud.com -n retail-edge"
        );
    }
}
