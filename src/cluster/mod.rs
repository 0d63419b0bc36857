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
use serde_json::json;

use crate::domain::operation::Run;
use crate::domain::{ClusterError, Kind, ObjectRef, Operation, Outcome};
use crate::sources::errors::classify;

pub mod audit;

/// The field manager pooldeck's writes carry, so `managedFields` say who changed what.
pub const FIELD_MANAGER: &str = "pooldeck";

/// Whether mutating requests may leave the process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    ReadWrite,
    ReadOnly,
}

fn resource(kind: Kind) -> ApiResource {
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

/// Carries out one operation and says what came of it. Never panics; every refusal is a
/// typed [`ClusterError`].
pub async fn perform(client: &Client, mode: Mode, operation: &Operation) -> Outcome {
    if mode == Mode::ReadOnly && operation.is_mutating() {
        return Outcome::Failed(ClusterError::ReadOnly);
    }
    let patch_params = |run: Run| PatchParams {
        dry_run: run == Run::DryRun,
        field_manager: Some(FIELD_MANAGER.to_owned()),
        ..PatchParams::default()
    };
    let result = match operation {
        Operation::SetLabel {
            target,
            key,
            value,
            run,
        } => api_for(client, target)
            .patch(
                &target.name,
                &patch_params(*run),
                &Patch::Merge(json!({"metadata": {"labels": {key: value}}})),
            )
            .await
            .map(|_| done(*run, format!("{target}: label {key}={value} set"))),
        Operation::RemoveLabel { target, key, run } => api_for(client, target)
            .patch(
                &target.name,
                &patch_params(*run),
                &Patch::Merge(json!({"metadata": {"labels": {key: null}}})),
            )
            .await
            .map(|_| done(*run, format!("{target}: label {key} removed"))),
        Operation::Delete {
            target,
            preconditions,
            run,
        } => {
            let params = DeleteParams {
                dry_run: *run == Run::DryRun,
                preconditions: Some(kube::api::Preconditions {
                    uid: preconditions.uid.clone(),
                    resource_version: preconditions.resource_version.clone(),
                }),
                ..DeleteParams::default()
            };
            api_for(client, target)
                .delete(&target.name, &params)
                .await
                .map(|answer| {
                    // An object whose finalizers are still held is only marked for deletion.
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
                    done(*run, what)
                })
        }
        Operation::RemoveFinalizer {
            target,
            finalizer,
            index,
            run,
        } => {
            let patch: json_patch::Patch = match serde_json::from_value(
                crate::domain::operation::finalizer_patch(finalizer, *index),
            ) {
                Ok(patch) => patch,
                Err(e) => {
                    return Outcome::Failed(ClusterError::Other {
                        message: format!("cannot build the patch: {e}"),
                    });
                }
            };
            api_for(client, target)
                .patch(&target.name, &patch_params(*run), &Patch::Json::<()>(patch))
                .await
                .map(|_| done(*run, format!("{target}: finalizer {finalizer} removed")))
        }
        Operation::Create { object, run } => {
            let Some(target) = operation.target() else {
                return Outcome::Failed(ClusterError::Other {
                    message: "the object names no kind pooldeck knows".into(),
                });
            };
            let object: DynamicObject = match serde_json::from_value(object.clone()) {
                Ok(object) => object,
                Err(e) => {
                    return Outcome::Failed(ClusterError::Other {
                        message: format!("the object cannot be sent: {e}"),
                    });
                }
            };
            let params = PostParams {
                dry_run: *run == Run::DryRun,
                field_manager: Some(FIELD_MANAGER.to_owned()),
            };
            api_for(client, &target)
                .create(&params, &object)
                .await
                .map(|_| done(*run, format!("{target}: created")))
        }
        Operation::Update {
            target,
            object,
            resource_version,
            run,
        } => {
            let mut object: DynamicObject = match serde_json::from_value(object.clone()) {
                Ok(object) => object,
                Err(e) => {
                    return Outcome::Failed(ClusterError::Other {
                        message: format!("the object cannot be sent: {e}"),
                    });
                }
            };
            object.metadata.resource_version = Some(resource_version.clone());
            let params = PostParams {
                dry_run: *run == Run::DryRun,
                field_manager: Some(FIELD_MANAGER.to_owned()),
            };
            api_for(client, target)
                .replace(&target.name, &params, &object)
                .await
                .map(|_| done(*run, format!("{target}: replaced")))
        }
        Operation::AccessReview {
            verb,
            kind,
            namespace,
        } => {
            let api = kind.api();
            let review = SelfSubjectAccessReview {
                spec: SelfSubjectAccessReviewSpec {
                    resource_attributes: Some(ResourceAttributes {
                        group: Some(api.group.to_owned()),
                        resource: Some(api.plural.to_owned()),
                        verb: Some(verb.clone()),
                        namespace: (!namespace.is_empty()).then(|| namespace.clone()),
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
    };
    result.unwrap_or_else(|e| Outcome::Failed(classify(&e)))
}

/// A connection that carries out operations and records each in the audit log: the one way
/// the console and the CLI verbs act on a hub.
pub struct Session {
    pub client: Client,
    pub mode: Mode,
    pub at: audit::Where,
    /// `None`: no audit log (it could not be placed; said once where the session began).
    pub audit: Option<std::path::PathBuf>,
    /// The answer of each dry run, by the kubectl line of its real request, for the log.
    dry_runs: std::sync::Mutex<std::collections::HashMap<String, Outcome>>,
}

impl Session {
    pub fn new(
        client: Client,
        mode: Mode,
        at: audit::Where,
        audit: Option<std::path::PathBuf>,
    ) -> Session {
        Session {
            client,
            mode,
            at,
            audit,
            dry_runs: std::sync::Mutex::new(std::collections::HashMap::new()),
        }
    }

    /// Carries out the operation and appends it to the audit log (access reviews, which
    /// change nothing, are not recorded). A log that cannot be written is said in the
    /// outcome's message; the operation's own result is never hidden by it.
    pub async fn run(&self, operation: &Operation) -> Outcome {
        let outcome = perform(&self.client, self.mode, operation).await;
        if matches!(operation, Operation::AccessReview { .. }) {
            return outcome;
        }
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
        let Some(path) = &self.audit else {
            return outcome;
        };
        let line = audit::line(
            chrono::Utc::now(),
            &self.at,
            operation,
            dry_run_answer.as_ref(),
            &outcome,
        );
        match (audit::append(path, &line), outcome) {
            (Ok(()), outcome) => outcome,
            (Err(e), Outcome::Done { message }) => Outcome::Done {
                message: format!("{message} (not recorded: {e})"),
            },
            (Err(_), outcome) => outcome,
        }
    }
}
