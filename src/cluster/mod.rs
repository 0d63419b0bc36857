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

fn api_for(client: &Client, target: &ObjectRef) -> Api<DynamicObject> {
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
                    // An object with finalizers is only marked for deletion at first.
                    let what = if answer.is_left() {
                        format!("{target}: deletion requested (it waits for its finalizers)")
                    } else {
                        format!("{target}: deleted")
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
            let path = format!("/metadata/finalizers/{index}");
            let patch: json_patch::Patch = match serde_json::from_value(json!([
                {"op": "test", "path": path, "value": finalizer},
                {"op": "remove", "path": path},
            ])) {
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
