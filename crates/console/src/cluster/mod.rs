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
use crate::domain::{ClusterError, Kind, ObjectRef, Operation, Outcome};
use crate::sources::errors::{classify, classify_sent};

pub mod audit;
mod session;

pub use self::session::{REQUEST_DEADLINE, Session};

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

/// The namespaces that hold pools, from one page of every namespace's pools (metadata only,
/// at most 500): for a hint or a completion, not a census.
pub async fn namespaces_with_pools(
    client: &Client,
) -> Result<std::collections::BTreeSet<String>, kube::Error> {
    let api: Api<DynamicObject> = Api::all_with(client.clone(), &resource(Kind::Pool));
    let params = kube::api::ListParams::default().limit(500);
    let list = api.list_metadata(&params).await?;
    Ok(list
        .items
        .into_iter()
        .filter_map(|pool| pool.metadata.namespace)
        .collect())
}

/// Every object `api` lists with `params`, read in pages (`params.limit` objects each, else
/// the sources' page; a large list is never one answer held at once), handed to `each` as
/// it comes. A server that gives the same page's token again is refused rather than
/// followed round for ever.
pub async fn list_in_pages<K>(
    api: &Api<K>,
    params: &kube::api::ListParams,
    mut each: impl FnMut(K),
) -> Result<(), kube::Error>
where
    K: Clone + serde::de::DeserializeOwned + std::fmt::Debug,
{
    // The page the caller asked for, else the sources' own.
    let page_size = params
        .limit
        .unwrap_or_else(|| u32::try_from(crate::sources::ways::PAGE).unwrap_or(500));
    let mut params = params.clone().limit(page_size);
    loop {
        let page = api.list(&params).await?;
        page.items.into_iter().for_each(&mut each);
        match page.metadata.continue_ {
            Some(token) if params.continue_token.as_deref() == Some(token.as_str()) => {
                let status = kube::core::Status::failure(
                    "the server gave the same page's continue token again",
                    "InternalError",
                );
                return Err(kube::Error::Api(Box::new(status.with_code(500))));
            }
            Some(token) if !token.is_empty() => params = params.continue_token(&token),
            _ => return Ok(()),
        }
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
