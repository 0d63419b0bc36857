//! Watch sources: one kube-rs watcher per kind and namespace scope, turned into
//! [`SourceEvent`]s. Lists are buffered until complete (the initial list and every relist after
//! a 410 arrive as one `Listed`), errors become a visible state with the next retry time and
//! never end the loop, a forbidden or absent resource is said and retried slowly while the
//! others carry on.

use std::time::Duration;

use chrono::Utc;
use futures::StreamExt;
use kube::Client;
use kube::api::{Api, DynamicObject, ListParams};
use kube::core::{ApiResource, GroupVersionKind};
use kube::runtime::watcher::{self, DefaultBackoff};
use serde_json::Value;
use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinHandle;

use super::errors::classify;
use crate::domain::ClusterError;
use crate::inventory::{Kind, Object, Scope, SourceEvent, SourceState};

/// How long to wait before asking again about a forbidden or absent resource.
const SLOW_RETRY: Duration = Duration::from_secs(60);

pub use crate::app::ports::Namespaces;

pub fn api_resource(kind: Kind) -> ApiResource {
    let api = kind.api();
    ApiResource::from_gvk_with_plural(
        &GroupVersionKind::gvk(api.group, api.version, api.kind),
        api.plural,
    )
}

/// Starts a watcher for every kind in every scope; events go to `sender` until it closes.
pub fn spawn(
    client: &Client,
    kinds: &[Kind],
    namespaces: &Namespaces,
    sender: &UnboundedSender<SourceEvent>,
) -> Vec<JoinHandle<()>> {
    let mut tasks = Vec::new();
    for kind in kinds {
        for scope in namespaces.scopes(*kind) {
            tasks.push(tokio::spawn(run(
                client.clone(),
                *kind,
                scope,
                sender.clone(),
            )));
        }
    }
    tasks
}

/// The object as the API sent it: apiVersion and kind (which a list's items may leave out),
/// metadata, then the rest moved over as it was read, not copied.
fn to_value(kind: Kind, object: DynamicObject) -> Value {
    let api = kind.api();
    let mut map = serde_json::Map::new();
    map.insert(
        "apiVersion".into(),
        Value::from(if api.group.is_empty() {
            api.version.to_owned()
        } else {
            format!("{}/{}", api.group, api.version)
        }),
    );
    map.insert("kind".into(), Value::from(api.kind));
    map.insert(
        "metadata".into(),
        serde_json::to_value(&object.metadata).unwrap_or(Value::Null),
    );
    match object.data {
        Value::Object(rest) => map.extend(rest),
        Value::Null => {}
        other => {
            map.insert("data".into(), other);
        }
    }
    Value::Object(map)
}

/// A watcher error, typed.
fn classify_watch(error: &watcher::Error) -> ClusterError {
    match error {
        watcher::Error::InitialListFailed(e)
        | watcher::Error::WatchStartFailed(e)
        | watcher::Error::WatchFailed(e) => classify(e),
        watcher::Error::WatchError(status) if status.code == 410 => ClusterError::Gone,
        watcher::Error::WatchError(status) => classify(&kube::Error::Api(status.clone())),
        other => ClusterError::Other {
            message: other.to_string(),
        },
    }
}

fn status_code(error: &watcher::Error) -> Option<u16> {
    match error {
        watcher::Error::InitialListFailed(kube::Error::Api(s))
        | watcher::Error::WatchStartFailed(kube::Error::Api(s))
        | watcher::Error::WatchFailed(kube::Error::Api(s)) => Some(s.code),
        watcher::Error::WatchError(s) => Some(s.code),
        _ => None,
    }
}

/// How many objects of a list in progress are handed on at a time: the first rows show
/// after the first page, not after the whole list.
const PAGE: usize = 500;

async fn run(client: Client, kind: Kind, scope: Scope, sender: UnboundedSender<SourceEvent>) {
    let resource = api_resource(kind);
    let api: Api<DynamicObject> = match &scope {
        Some(ns) => Api::namespaced_with(client, ns, &resource),
        None => Api::all_with(client, &resource),
    };
    let send = |event: SourceEvent| sender.send(event).is_ok();
    let state = |state: SourceState| SourceEvent::State {
        kind,
        scope: scope.clone(),
        state,
    };
    let mut backoff = DefaultBackoff::default();
    loop {
        if !send(state(SourceState::Syncing)) {
            return;
        }
        // Ask once whether the resource exists and may be listed, so RBAC and a missing CRD
        // read as what they are rather than as a connection problem.
        match api.list(&ListParams::default().limit(1)).await {
            Err(kube::Error::Api(status)) if status.code == 403 => {
                let message = format!(
                    "cannot list or watch {} {}: {}",
                    kind.resource_name(),
                    scope
                        .as_deref()
                        .map_or("at cluster scope".to_owned(), |ns| format!(
                            "in namespace {ns}"
                        )),
                    status.message
                );
                if !send(state(SourceState::Forbidden { message })) {
                    return;
                }
                tokio::time::sleep(SLOW_RETRY).await;
                continue;
            }
            Err(kube::Error::Api(status)) if status.code == 404 => {
                if !send(state(SourceState::NotInstalled)) {
                    return;
                }
                tokio::time::sleep(SLOW_RETRY).await;
                continue;
            }
            Err(error) => {
                let delay = backoff.next().unwrap_or(SLOW_RETRY);
                let retry_at = Utc::now() + chrono::Duration::from_std(delay).unwrap_or_default();
                if !send(state(SourceState::Reconnecting {
                    error: classify(&error),
                    retry_at,
                })) {
                    return;
                }
                tokio::time::sleep(delay).await;
                continue;
            }
            Ok(_) => {}
        }
        let mut config = watcher::Config::default();
        if kind == Kind::Event {
            config = config.fields("involvedObject.apiVersion=spectrocloud.com/v1alpha1");
        }
        let mut stream = watcher::watcher(api.clone(), config).boxed();
        let mut buffer: Vec<Object> = Vec::new();
        let mut failing = false;
        while let Some(event) = stream.next().await {
            let ok = match event {
                Ok(watcher::Event::Init) => {
                    // A list starts again (after 410): pages of one cut short do not count.
                    buffer.clear();
                    send(state(SourceState::Syncing))
                }
                Ok(watcher::Event::InitApply(object)) => {
                    buffer.push(Object::new(kind, to_value(kind, object)));
                    // The first rows go to the screen while the rest of the list streams.
                    if buffer.len() >= PAGE {
                        send(SourceEvent::Page {
                            kind,
                            scope: scope.clone(),
                            objects: std::mem::take(&mut buffer),
                        })
                    } else {
                        true
                    }
                }
                Ok(watcher::Event::InitDone) => {
                    backoff = DefaultBackoff::default();
                    failing = false;
                    send(SourceEvent::Listed {
                        kind,
                        scope: scope.clone(),
                        objects: std::mem::take(&mut buffer),
                    })
                }
                Ok(watcher::Event::Apply(object)) => {
                    let back = !failing || send(state(SourceState::Live));
                    failing = false;
                    back && send(SourceEvent::Applied {
                        kind,
                        object: to_value(kind, object),
                    })
                }
                Ok(watcher::Event::Delete(object)) => {
                    let back = !failing || send(state(SourceState::Live));
                    failing = false;
                    send(SourceEvent::Deleted {
                        kind,
                        object: to_value(kind, object),
                    }) && back
                }
                Err(error) => {
                    if matches!(status_code(&error), Some(403 | 404)) {
                        // Permissions or the CRD changed under us: start over with the probe.
                        break;
                    }
                    failing = true;
                    let delay = backoff.next().unwrap_or(SLOW_RETRY);
                    let retry_at =
                        Utc::now() + chrono::Duration::from_std(delay).unwrap_or_default();
                    let sent = send(state(SourceState::Reconnecting {
                        error: classify_watch(&error),
                        retry_at,
                    }));
                    tokio::time::sleep(delay).await;
                    sent
                }
            };
            if !ok {
                return;
            }
        }
    }
}
