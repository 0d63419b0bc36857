//! Watch sources: one list-then-watch loop per kind and namespace scope, turned into
//! [`SourceEvent`]s. A list arrives page by page (the next page is asked for while this one is
//! read) and ends with a `Listed`, so a relist after a 410 never empties the screen; then the
//! source watches from the list's version. Errors become a visible state with the next retry
//! time and never end the loop; a forbidden or absent resource is said and retried slowly
//! while the others carry on.

use std::time::Duration;

use chrono::Utc;
use futures::StreamExt;
use kube::Client;
use kube::api::{Api, DynamicObject, WatchEvent, WatchParams};
use kube::core::{ApiResource, GroupVersionKind};
use kube::runtime::watcher::DefaultBackoff;
use serde_json::Value;
use tokio::task::JoinHandle;

use super::errors::classify;
use super::list::Pager;
use crate::domain::ClusterError;
use crate::inventory::{Kind, Object, Scope, SourceEvent, SourceState};

/// How long to wait before asking again about a forbidden or absent resource.
const SLOW_RETRY: Duration = Duration::from_secs(60);

pub use crate::app::ports::Namespaces;

/// Which watch a source event came from: its epoch (the console drops the events of a
/// replaced watch) and the hub it watches (the index of the console's hubs; 0 with one).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tag {
    pub epoch: u64,
    pub hub: usize,
}

/// A source event tagged with the watch it came from.
pub type Tagged = (Tag, SourceEvent);

/// Where the sources send their events: a bounded queue, so a flood of changes waits in the
/// server's stream (and the TCP window) instead of in memory while the console catches up.
pub type Sink = tokio::sync::mpsc::Sender<Tagged>;

/// How many events wait for the console at most (a list page is one event).
pub const QUEUE: usize = 1024;

pub fn api_resource(kind: Kind) -> ApiResource {
    let api = kind.api();
    ApiResource::from_gvk_with_plural(
        &GroupVersionKind::gvk(api.group, api.version, api.kind),
        api.plural,
    )
}

/// Starts a watcher for every kind in every scope; events go to `sink`, tagged with `tag`,
/// until it closes.
pub fn spawn(
    client: &Client,
    kinds: &[Kind],
    namespaces: &Namespaces,
    tag: Tag,
    sink: &Sink,
) -> Vec<JoinHandle<()>> {
    let mut tasks = Vec::new();
    for kind in kinds {
        for scope in namespaces.scopes(*kind) {
            tasks.push(tokio::spawn(run(
                client.clone(),
                *kind,
                scope,
                tag,
                sink.clone(),
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

/// Objects asked for in the first page of a list (the first rows show after it) and in each
/// page after it.
const FIRST_PAGE: usize = 500;
const PAGE: usize = 500;

/// How long a watch may stay open before the server is asked to end it (it is opened again
/// from where it was); the same as kubectl's and kube-rs's.
const WATCH_TIMEOUT: u32 = 290;

/// What a refused list says: the resource is not there or may not be read.
fn refused(kind: Kind, scope: &Scope, error: &kube::Error) -> Option<SourceState> {
    match error {
        kube::Error::Api(status) if status.code == 403 => Some(SourceState::Forbidden {
            message: format!(
                "cannot list or watch {} {}: {}",
                kind.resource_name(),
                scope
                    .as_deref()
                    .map_or("at cluster scope".to_owned(), |ns| format!(
                        "in namespace {ns}"
                    )),
                status.message
            ),
        }),
        kube::Error::Api(status) if status.code == 404 => Some(SourceState::NotInstalled),
        _ => None,
    }
}

fn code(error: &kube::Error) -> Option<u16> {
    match error {
        kube::Error::Api(status) => Some(status.code),
        _ => None,
    }
}

/// How one pass of a source ended: what to do next.
enum Next {
    /// List again at once (the server no longer has the version watched from).
    Relist,
    /// List again after this long (an error, said already).
    RelistAfter(Duration),
    /// The receiver is gone: stop.
    Stop,
}

async fn run(client: Client, kind: Kind, scope: Scope, tag: Tag, sink: Sink) {
    let resource = api_resource(kind);
    let api: Api<DynamicObject> = match &scope {
        Some(ns) => Api::namespaced_with(client.clone(), ns, &resource),
        None => Api::all_with(client.clone(), &resource),
    };
    let selector =
        (kind == Kind::Event).then_some("involvedObject.apiVersion=spectrocloud.com/v1alpha1");
    let mut source = Source {
        kind,
        scope,
        tag,
        sink,
        backoff: DefaultBackoff::default(),
    };
    loop {
        if !source.send_state(SourceState::Syncing).await {
            return;
        }
        let next = match source.list(&client, selector).await {
            Ok(version) => source.watch(&api, selector, version).await,
            Err(next) => next,
        };
        match next {
            Next::Relist => {}
            Next::RelistAfter(delay) => tokio::time::sleep(delay).await,
            Next::Stop => return,
        }
    }
}

/// One kind in one scope: lists it in pages, then watches from the list's version.
struct Source {
    kind: Kind,
    scope: Scope,
    tag: Tag,
    sink: Sink,
    backoff: DefaultBackoff,
}

impl Source {
    /// Waits for room in the queue; false when the console is gone.
    async fn send(&self, event: SourceEvent) -> bool {
        self.sink.send((self.tag, event)).await.is_ok()
    }

    async fn send_state(&self, state: SourceState) -> bool {
        self.send(SourceEvent::State {
            kind: self.kind,
            scope: self.scope.clone(),
            state,
        })
        .await
    }

    /// Says an error and how long until the next try.
    async fn failed(&mut self, error: ClusterError) -> Option<Duration> {
        let delay = self.backoff.next().unwrap_or(SLOW_RETRY);
        let retry_at = Utc::now() + chrono::Duration::from_std(delay).unwrap_or_default();
        self.send_state(SourceState::Reconnecting { error, retry_at })
            .await
            .then_some(delay)
    }

    /// Says an error and waits until the next try; false when the receiver is gone.
    async fn wait_after(&mut self, error: ClusterError) -> bool {
        match self.failed(error).await {
            Some(delay) => {
                tokio::time::sleep(delay).await;
                true
            }
            None => false,
        }
    }

    /// The list, page by page: every page but the last goes out as it is read (the first rows
    /// show before the list is complete), the last ends it. The version to watch from, or
    /// what to do instead.
    async fn list(&mut self, client: &Client, selector: Option<&str>) -> Result<String, Next> {
        let mut pager = Pager::start(
            client.clone(),
            self.kind,
            Object::new,
            self.scope.as_deref(),
            selector,
            FIRST_PAGE,
            PAGE,
        );
        while let Some(page) = pager.next().await {
            let page = match page {
                Ok(page) => page,
                Err(error) => return Err(self.list_failed(&error).await),
            };
            let objects = page.items;
            let event = if page.more {
                SourceEvent::Page {
                    kind: self.kind,
                    scope: self.scope.clone(),
                    objects,
                    remaining: page.remaining,
                }
            } else {
                SourceEvent::Listed {
                    kind: self.kind,
                    scope: self.scope.clone(),
                    objects,
                }
            };
            if !self.send(event).await {
                return Err(Next::Stop);
            }
            if !page.more {
                self.backoff = DefaultBackoff::default();
                return Ok(page.resource_version);
            }
        }
        Err(Next::Relist)
    }

    async fn list_failed(&mut self, error: &kube::Error) -> Next {
        if let Some(state) = refused(self.kind, &self.scope, error) {
            // Said, and asked about again slowly while the other sources carry on.
            return if self.send_state(state).await {
                Next::RelistAfter(SLOW_RETRY)
            } else {
                Next::Stop
            };
        }
        if code(error) == Some(410) {
            // A continue token expired: the list starts again.
            return Next::Relist;
        }
        match self.failed(classify(error)).await {
            Some(delay) => Next::RelistAfter(delay),
            None => Next::Stop,
        }
    }

    /// Watches from `version` until the server no longer has it, the resource goes away or
    /// the receiver does; a dropped watch is opened again from the last version seen.
    async fn watch(
        &mut self,
        api: &Api<DynamicObject>,
        selector: Option<&str>,
        mut version: String,
    ) -> Next {
        let mut params = WatchParams::default().timeout(WATCH_TIMEOUT);
        if let Some(selector) = selector {
            params = params.fields(selector);
        }
        let mut failing = false;
        loop {
            let opened = std::time::Instant::now();
            let stream = match api.watch(&params, &version).await {
                Ok(stream) => stream,
                Err(error) => {
                    if matches!(code(&error), Some(403 | 404 | 410)) {
                        // Permissions or the CRD changed, or the version is gone: list again.
                        return Next::Relist;
                    }
                    failing = true;
                    if !self.wait_after(classify(&error)).await {
                        return Next::Stop;
                    }
                    continue;
                }
            };
            if failing {
                failing = false;
                self.backoff = DefaultBackoff::default();
                if !self.send_state(SourceState::Live).await {
                    return Next::Stop;
                }
            }
            let mut stream = std::pin::pin!(stream);
            let mut heard = false;
            while let Some(event) = stream.next().await {
                heard = true;
                let sent = match event {
                    Ok(WatchEvent::Added(object) | WatchEvent::Modified(object)) => {
                        version = object.metadata.resource_version.clone().unwrap_or(version);
                        self.send(SourceEvent::Applied {
                            kind: self.kind,
                            object: to_value(self.kind, object),
                        })
                        .await
                    }
                    Ok(WatchEvent::Deleted(object)) => {
                        version = object.metadata.resource_version.clone().unwrap_or(version);
                        self.send(SourceEvent::Deleted {
                            kind: self.kind,
                            object: to_value(self.kind, object),
                        })
                        .await
                    }
                    Ok(WatchEvent::Bookmark(mark)) => {
                        version = mark.metadata.resource_version;
                        true
                    }
                    Ok(WatchEvent::Error(status)) => {
                        if matches!(status.code, 403 | 404 | 410) {
                            return Next::Relist;
                        }
                        failing = true;
                        if !self.wait_after(classify(&kube::Error::Api(status))).await {
                            return Next::Stop;
                        }
                        break;
                    }
                    Err(error) => {
                        failing = true;
                        if !self.wait_after(classify(&error)).await {
                            return Next::Stop;
                        }
                        break;
                    }
                };
                if !sent {
                    return Next::Stop;
                }
            }
            if !heard && opened.elapsed() < Duration::from_secs(1) {
                // A watch the server ends at once, again and again, is not asked for in a
                // tight loop.
                let delay = self.backoff.next().unwrap_or(SLOW_RETRY);
                tokio::time::sleep(delay).await;
            }
        }
    }
}
