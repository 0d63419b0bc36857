//! Operations carried out on the hub through the kube API: set or remove a label, delete with
//! preconditions, remove a finalizer by value, create, replace, and ask for an access review.
//! The console (through the runtime's cluster port) and the CLI verbs both come here, with the
//! same [`Operation`] values; the demo cluster is reached the same way as a real hub. Read-only
//! mode is enforced here too: a mutating operation, dry run or not, never leaves the process.
//!
//! Must not import the console (`app`, `ui`) or the runtime.

use k8s_openapi::api::authorization::v1::{
    ResourceAttributes, SelfSubjectAccessReview, SelfSubjectAccessReviewSpec,
};
use kube::api::{DeleteParams, DynamicObject, Patch, PatchParams, PostParams};
use kube::core::{ApiResource, GroupVersionKind};
use kube::{Api, Client};

use crate::domain::operation::{Run, label_patch};
use crate::domain::{ClusterError, Hub, Kind, ObjectRef, Operation, Outcome, Request};
use crate::sources::errors::{classify, classify_sent};

pub mod audit;

/// The field manager pooldeck's writes carry, so `managedFields` say who changed what.
pub const FIELD_MANAGER: &str = "pooldeck";

/// Whether mutating requests may leave the process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    ReadWrite,
    ReadOnly,
}

pub fn resource(kind: Kind) -> ApiResource {
    let api = kind.api();
    ApiResource::from_gvk_with_plural(
        &GroupVersionKind::gvk(api.group, api.version, api.kind),
        api.plural,
    )
}

/// The API of the target's kind, in its namespace (the name is not used).
pub fn api_for(client: &Client, target: &ObjectRef) -> Api<DynamicObject> {
    let resource = resource(target.kind);
    if target.kind.api().namespaced {
        Api::namespaced_with(client.clone(), &target.namespace, &resource)
    } else {
        Api::all_with(client.clone(), &resource)
    }
}

/// What the server said, in a sentence: done, or (for a dry run) that it would be done.
fn done(run: Run, what: String) -> Outcome {
    Outcome::Done {
        message: match run {
            Run::Real => what,
            Run::DryRun => format!("dry run: the server accepts this ({what})"),
        },
    }
}

/// A precondition a patch carries, refused by the API as invalid (422) rather than as a
/// conflict: the uid of a merge patch (immutable), or any `test` of a JSON patch that only
/// tests and removes. It is the same refusal as a stale resourceVersion's, and is read as one
/// (409), so it says "changed since you looked".
fn refused_precondition(error: kube::Error, json_patch: bool) -> kube::Error {
    match error {
        kube::Error::Api(mut status)
            if status.code == 422 && (json_patch || status.message.contains("metadata.uid")) =>
        {
            status.code = 409;
            status.reason = "Conflict".into();
            status.message = format!("it is not as it was looked at: {}", status.message);
            kube::Error::Api(status)
        }
        other => other,
    }
}

/// Carries out one operation and says what came of it. Never panics; every refusal is a
/// typed [`ClusterError`].
pub async fn perform(client: &Client, mode: Mode, operation: &Operation) -> Outcome {
    if let Some(refused) = not_sent(mode, operation) {
        return Outcome::Failed(refused);
    }
    match operation {
        Operation::SetLabel {
            target,
            key,
            value,
            preconditions,
            run,
        } => {
            let patch = label_patch(key, Some(value), preconditions);
            let said = format!("{target}: label {key}={value} set");
            merge(client, target, patch, *run, said).await
        }
        Operation::RemoveLabel {
            target,
            key,
            preconditions,
            run,
        } => {
            let patch = label_patch(key, None, preconditions);
            let said = format!("{target}: label {key} removed");
            merge(client, target, patch, *run, said).await
        }
        Operation::Delete {
            target,
            preconditions,
            run,
        } => delete(client, target, preconditions, *run).await,
        Operation::RemoveFinalizer {
            target,
            finalizer,
            index,
            preconditions,
            run,
        } => remove_finalizer(client, target, finalizer, *index, preconditions, *run).await,
        Operation::Create { object, run } => create(client, operation, object, *run).await,
        Operation::Update {
            target,
            object,
            resource_version,
            run,
        } => update(client, target, object, resource_version, *run).await,
        Operation::AccessReview {
            verb,
            kind,
            namespace,
        } => access_review(client, verb, *kind, namespace)
            .await
            .unwrap_or_else(|e| Outcome::Failed(classify(&e))),
    }
}

/// Why an operation is not sent at all: read-only mode and a change, or a name (or an
/// access review's namespace) that is not a Kubernetes name and could name another path.
fn not_sent(mode: Mode, operation: &Operation) -> Option<ClusterError> {
    if mode == Mode::ReadOnly && operation.is_mutating() {
        return Some(ClusterError::ReadOnly);
    }
    if let Some(why) = operation.target().as_ref().and_then(ObjectRef::problem) {
        return Some(ClusterError::NotSent { why });
    }
    if let Operation::AccessReview { namespace, .. } = operation
        && !namespace.is_empty()
        && let Some(why) = crate::domain::rules::names::namespace_problem(namespace)
    {
        return Some(ClusterError::NotSent { why });
    }
    None
}

/// A change's answer: its outcome, or its error as a change sent (an unreachable server
/// may have applied it).
fn sent(result: kube::Result<Outcome>) -> Outcome {
    result.unwrap_or_else(|e| Outcome::Failed(classify_sent(&e)))
}

fn patch_params(run: Run) -> PatchParams {
    PatchParams {
        dry_run: run == Run::DryRun,
        field_manager: Some(FIELD_MANAGER.to_owned()),
        ..PatchParams::default()
    }
}

fn post_params(run: Run) -> PostParams {
    PostParams {
        dry_run: run == Run::DryRun,
        field_manager: Some(FIELD_MANAGER.to_owned()),
    }
}

/// A merge patch (a label set or removed, its preconditions inside).
async fn merge(
    client: &Client,
    target: &ObjectRef,
    patch: serde_json::Value,
    run: Run,
    said: String,
) -> Outcome {
    sent(
        api_for(client, target)
            .patch(&target.name, &patch_params(run), &Patch::Merge(patch))
            .await
            .map_err(|e| refused_precondition(e, false))
            .map(|_| done(run, said)),
    )
}

/// A delete naming the uid and resourceVersion looked at; an object whose finalizers are
/// still held is only marked for deletion, and said so.
async fn delete(
    client: &Client,
    target: &ObjectRef,
    preconditions: &crate::domain::Preconditions,
    run: Run,
) -> Outcome {
    let params = DeleteParams {
        dry_run: run == Run::DryRun,
        preconditions: Some(kube::api::Preconditions {
            uid: preconditions.uid.clone(),
            resource_version: preconditions.resource_version.clone(),
        }),
        ..DeleteParams::default()
    };
    sent(
        api_for(client, target)
            .delete(&target.name, &params)
            .await
            .map(|answer| {
                let held = answer
                    .left()
                    .map(|object| object.metadata.finalizers.unwrap_or_default())
                    .unwrap_or_default();
                let what = if held.is_empty() {
                    format!("{target}: deleted")
                } else {
                    format!(
                        "{target}: deletion requested; it waits for {}",
                        held.join(", ")
                    )
                };
                done(run, what)
            }),
    )
}

/// One finalizer removed by a JSON patch that only tests and removes: a 422 is a test that
/// failed (another uid, or the finalizers moved since they were looked at).
async fn remove_finalizer(
    client: &Client,
    target: &ObjectRef,
    finalizer: &str,
    index: usize,
    preconditions: &crate::domain::Preconditions,
    run: Run,
) -> Outcome {
    let patch: json_patch::Patch = match serde_json::from_value(
        crate::domain::operation::finalizer_patch(finalizer, index, preconditions),
    ) {
        Ok(patch) => patch,
        Err(e) => {
            return Outcome::Failed(ClusterError::Other {
                message: format!("cannot build the patch: {e}"),
            });
        }
    };
    sent(
        api_for(client, target)
            .patch(&target.name, &patch_params(run), &Patch::Json::<()>(patch))
            .await
            .map_err(|e| refused_precondition(e, true))
            .map(|_| done(run, format!("{target}: finalizer {finalizer} removed"))),
    )
}

/// The object as the API client sends it, or why it cannot be.
fn dynamic(object: &serde_json::Value) -> Result<DynamicObject, Outcome> {
    serde_json::from_value(object.clone()).map_err(|e| {
        Outcome::Failed(ClusterError::Other {
            message: format!("the object cannot be sent: {e}"),
        })
    })
}

/// An object created (its kind one pooldeck knows).
async fn create(
    client: &Client,
    operation: &Operation,
    object: &serde_json::Value,
    run: Run,
) -> Outcome {
    let Some(target) = operation.target() else {
        return Outcome::Failed(ClusterError::Other {
            message: "the object names no kind pooldeck knows".into(),
        });
    };
    let object = match dynamic(object) {
        Ok(object) => object,
        Err(refused) => return refused,
    };
    sent(
        api_for(client, &target)
            .create(&post_params(run), &object)
            .await
            .map(|_| done(run, format!("{target}: created"))),
    )
}

/// An object replaced, naming the resourceVersion it was read at.
async fn update(
    client: &Client,
    target: &ObjectRef,
    object: &serde_json::Value,
    resource_version: &str,
    run: Run,
) -> Outcome {
    let mut object = match dynamic(object) {
        Ok(object) => object,
        Err(refused) => return refused,
    };
    object.metadata.resource_version = Some(resource_version.to_owned());
    sent(
        api_for(client, target)
            .replace(&target.name, &post_params(run), &object)
            .await
            .map(|_| done(run, format!("{target}: replaced"))),
    )
}

/// Whether the user may `verb` the kind in `namespace` (empty: every namespace).
async fn access_review(
    client: &Client,
    verb: &str,
    kind: Kind,
    namespace: &str,
) -> kube::Result<Outcome> {
    let api = kind.api();
    let review = SelfSubjectAccessReview {
        spec: SelfSubjectAccessReviewSpec {
            resource_attributes: Some(ResourceAttributes {
                group: Some(api.group.to_owned()),
                resource: Some(api.plural.to_owned()),
                verb: Some(verb.to_owned()),
                namespace: (!namespace.is_empty()).then(|| namespace.to_owned()),
                ..ResourceAttributes::default()
            }),
            ..SelfSubjectAccessReviewSpec::default()
        },
        ..SelfSubjectAccessReview::default()
    };
    Api::<SelfSubjectAccessReview>::all(client.clone())
        .create(&PostParams::default(), &review)
        .await
        .map(|answer| Outcome::Allowed(answer.status.is_some_and(|s| s.allowed)))
}

/// A connection to one hub that carries out requests bound to it and records each in the
/// audit log: the one way the console and the CLI verbs act on a hub.
pub struct Session {
    pub client: Client,
    pub mode: Mode,
    /// The hub this connection reaches: a request bound to another is refused unsent.
    pub hub: Hub,
    /// The audit log, or why none could be placed: then nothing that changes anything is
    /// sent (an audit record that cannot be written holds the action back).
    pub audit: Result<std::path::PathBuf, audit::AuditError>,
    /// Tells this session's request ids from another process's in a shared log.
    tag: String,
    /// The answer of each dry run, by the kubectl line of its real request, for the log.
    dry_runs: std::sync::Mutex<std::collections::HashMap<String, Outcome>>,
    /// Hands out this session's request ids: one sequence for every request it sends, so the
    /// audit log pairs each intent with its outcome unambiguously.
    ids: std::sync::Mutex<crate::domain::request::Ids>,
}

impl Session {
    pub fn new(
        client: Client,
        mode: Mode,
        hub: Hub,
        audit: Result<std::path::PathBuf, audit::AuditError>,
    ) -> Session {
        Session {
            client,
            mode,
            hub,
            audit,
            tag: format!("{:08x}", fastrand::u32(..)),
            dry_runs: std::sync::Mutex::new(std::collections::HashMap::new()),
            ids: std::sync::Mutex::new(crate::domain::request::Ids::default()),
        }
    }

    /// A request bound to this session's hub under the next id of its sequence.
    pub fn bind(&self, operation: Operation) -> Request {
        let id = self
            .ids
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .fresh();
        Request {
            id,
            hub: self.hub.clone(),
            operation,
        }
    }

    /// Carries out one request. It is sent only to the hub it is bound to, only after its
    /// intent is in the audit log (access reviews, which change nothing, are not recorded),
    /// and its outcome is appended after. An outcome that cannot be recorded is said in the
    /// outcome's message; the operation's own result is never hidden by it.
    pub async fn run(&self, request: &Request) -> Outcome {
        let operation = &request.operation;
        if request.hub != self.hub {
            return Outcome::Failed(ClusterError::NotSent {
                why: format!(
                    "it was previewed on {}, and this connection is to {}",
                    request.hub, self.hub
                ),
            });
        }
        if !operation.is_mutating() {
            return answered(perform(&self.client, self.mode, operation)).await;
        }
        if self.mode == Mode::ReadOnly {
            return Outcome::Failed(ClusterError::ReadOnly);
        }
        let id = format!("{}-{}", self.tag, request.id);
        let path = match &self.audit {
            Ok(path) => path,
            Err(why) => return Outcome::Failed(not_recorded(why)),
        };
        let intent = audit::Record {
            request: &id,
            at: &self.hub,
            operation,
            dry_run_answer: None,
            outcome: None,
        };
        if let Err(why) = audit::append(path, &intent.line(chrono::Utc::now())) {
            return Outcome::Failed(not_recorded(&why));
        }
        // Bounded: a hub that stops answering gives an outcome (unknown, and said so) that is
        // recorded, never a wait without end with the intent left open in the log.
        let outcome = answered(perform(&self.client, self.mode, operation)).await;
        let real = operation.with_run(Run::Real).kubectl();
        let mut dry_runs = self
            .dry_runs
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let dry_run_answer = match operation.run() {
            Some(Run::DryRun) => {
                dry_runs.insert(real, outcome.clone());
                None
            }
            _ => dry_runs.remove(&real),
        };
        drop(dry_runs);
        let record = audit::Record {
            request: &id,
            at: &self.hub,
            operation,
            dry_run_answer: dry_run_answer.as_ref(),
            outcome: Some(&outcome),
        };
        match (
            audit::append(path, &record.line(chrono::Utc::now())),
            outcome,
        ) {
            (Ok(()), outcome) => outcome,
            (Err(e), Outcome::Done { message }) => Outcome::Done {
                message: format!("{message} (its outcome was not recorded: {e})"),
            },
            (Err(_), outcome) => outcome,
        }
    }
}

/// How long one request may wait for its answer.
pub const REQUEST_DEADLINE: std::time::Duration = std::time::Duration::from_secs(30);

/// The request's outcome, or after [`REQUEST_DEADLINE`] without an answer an outcome that
/// says the server may have acted on it.
async fn answered(request: impl std::future::Future<Output = Outcome>) -> Outcome {
    match tokio::time::timeout(REQUEST_DEADLINE, request).await {
        Ok(outcome) => outcome,
        Err(_) => Outcome::Failed(ClusterError::Unanswered {
            detail: format!(
                "no answer within {} s (the hub may have stopped answering); it may have been \
                 carried out: look before trying again",
                REQUEST_DEADLINE.as_secs()
            ),
        }),
    }
}

/// Why a request was held back: its audit record could not be written.
fn not_recorded(why: &audit::AuditError) -> ClusterError {
    ClusterError::NotSent {
        why: format!(
            "its audit record could not be written ({why}); point the audit log elsewhere with \
             --audit-log PATH or audit-log: in the settings file"
        ),
    }
}

#[cfg(test)]
mod deadline_tests {
    use super::*;

    /// A request whose answer never comes ends after the deadline, said as possibly carried
    /// out (the clock is paused and moved on, not waited out).
    #[tokio::test(start_paused = true)]
    async fn a_request_without_an_answer_ends_at_the_deadline() {
        let started = tokio::time::Instant::now();
        let outcome = answered(std::future::pending()).await;
        assert_eq!(started.elapsed(), REQUEST_DEADLINE);
        match outcome {
            Outcome::Failed(ClusterError::Unanswered { detail }) => {
                assert!(detail.contains("may have been carried out"), "{detail}")
            }
            other => panic!("{other:?}"),
        }
        // An answer in time is the answer.
        let done = Outcome::Allowed(true);
        assert_eq!(answered(async { Outcome::Allowed(true) }).await, done);
    }
}
