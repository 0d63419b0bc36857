//! Watch sources: one list-then-watch loop per kind and namespace scope, turned into
//! [`SourceEvent`]s. A list arrives as a watch-list where the hub serves them (its objects
//! gathered into pages as they stream, the same watch carrying on with the changes), else page
//! by page (the next page asked for while this one is read, then a watch from the list's
//! version); either way it ends with a `Listed`, so a relist after a 410 never empties the
//! screen. Errors become a visible state with the next retry time and never end the loop; a
//! forbidden or absent resource is said and retried slowly while the others carry on.

use std::time::Duration;

use chrono::Utc;
use futures::StreamExt;
use kube::Client;
use kube::api::WatchEvent;
use kube::runtime::watcher::DefaultBackoff;
use tokio::task::JoinHandle;

use super::errors::classify;
use super::list::streamed::{Events, Watch};
use super::list::{Incoming, Item, Shape, Ways};
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

/// Whether the sources work out, as they read each pool, whether it breaks a rule by itself
/// ([`Object::breaks_a_rule_alone`]): the console's pools list marks every pool, and its
/// sources' tasks do that work while the lists arrive instead of the console's loop after;
/// a command that prints no marker leaves it to whoever asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marks {
    Ahead,
    WhenAsked,
}

/// Starts a watcher for every kind in every scope; events go to `sink`, tagged with `tag`,
/// until it closes. `ways` is the hub's: whether it serves watch-lists is learned once.
pub fn spawn(
    client: &Client,
    ways: &Ways,
    kinds: &[Kind],
    namespaces: &Namespaces,
    tag: Tag,
    marks: Marks,
    sink: &Sink,
) -> Vec<JoinHandle<()>> {
    let mut tasks = Vec::new();
    for kind in kinds {
        for scope in namespaces.scopes(*kind) {
            let source = Source {
                kind: *kind,
                scope,
                tag,
                marks,
                sink: sink.clone(),
                backoff: DefaultBackoff::default(),
                listed_at: None,
            };
            tasks.push(tokio::spawn(run(client.clone(), ways.clone(), source)));
        }
    }
    tasks
}

/// Objects asked for in the first page of a list (the first rows show after it) and in each
/// page after it.
const FIRST_PAGE: usize = 500;
const PAGE: usize = 500;

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

async fn run(client: Client, ways: Ways, mut source: Source) {
    let selector = (source.kind == Kind::Event)
        .then_some("involvedObject.apiVersion=spectrocloud.com/v1alpha1");
    loop {
        if !source.send_state(SourceState::Syncing).await {
            return;
        }
        let next = match source.list(&client, &ways, selector).await {
            Ok((version, events)) => source.watch(&client, selector, version, events).await,
            Err(next) => next,
        };
        match next {
            Next::Relist => {}
            Next::RelistAfter(delay) => tokio::time::sleep(delay).await,
            Next::Stop => return,
        }
    }
}

/// One kind in one scope: lists it (a watch-list, or in pages), then watches from the list's
/// version.
struct Source {
    kind: Kind,
    scope: Scope,
    tag: Tag,
    marks: Marks,
    sink: Sink,
    backoff: DefaultBackoff,
    /// When the last list was complete.
    listed_at: Option<std::time::Instant>,
}

impl Source {
    /// The list again: at once, unless the last one was complete under a second ago (a server
    /// whose watch says 410 or 404 right after each list is not asked in a tight loop: each
    /// complete list resets the backoff, so the wait is its first delay).
    fn relist(&mut self) -> Next {
        match self.listed_at {
            Some(at) if at.elapsed() < Duration::from_secs(1) => {
                Next::RelistAfter(self.backoff.next().unwrap_or(SLOW_RETRY))
            }
            _ => Next::Relist,
        }
    }

    /// Waits for room in the queue; false when the console is gone. The pools it carries
    /// are checked against their own rules first when the marks are worked out ahead.
    async fn send(&self, event: SourceEvent) -> bool {
        if self.marks == Marks::Ahead && self.kind == Kind::Pool {
            match &event {
                SourceEvent::Read { object } => {
                    object.breaks_a_rule_alone();
                }
                SourceEvent::Page { objects, .. } | SourceEvent::Listed { objects, .. } => {
                    for object in objects {
                        object.breaks_a_rule_alone();
                    }
                }
                _ => {}
            }
        }
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
    /// show before the list is complete), the last ends it. The version to watch from and,
    /// for a watch-list, its stream (which carries on with the changes), or what to do
    /// instead.
    async fn list(
        &mut self,
        client: &Client,
        ways: &Ways,
        selector: Option<&str>,
    ) -> Result<(String, Option<Events<Incoming>>), Next> {
        let shape = Shape::<Object>::new(self.kind, FIRST_PAGE, PAGE);
        let mut listing = match ways
            .start(client, shape, self.scope.as_deref(), selector)
            .await
        {
            Ok((listing, way)) => {
                if let Some(way) = way
                    && !self.send(SourceEvent::Lists { way }).await
                {
                    return Err(Next::Stop);
                }
                listing
            }
            Err(error) => return Err(self.list_failed(&error).await),
        };
        while let Some(page) = listing.next().await {
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
                self.listed_at = Some(std::time::Instant::now());
                return Ok((page.resource_version, listing.into_events()));
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
            // A continue token expired, or the watch-list's version went: the list starts
            // again, after the backoff's next delay (a server that says so again and again is
            // not asked in a tight loop).
            return Next::RelistAfter(self.backoff.next().unwrap_or(SLOW_RETRY));
        }
        match self.failed(classify(error)).await {
            Some(delay) => Next::RelistAfter(delay),
            None => Next::Stop,
        }
    }

    /// Watches from `version` (on `carried`, a watch-list's stream, first) until the server
    /// no longer has it, the resource goes away or the receiver does; a dropped watch is
    /// opened again from the last version seen.
    #[expect(clippy::too_many_lines, reason = "to be split: issue 48")]
    async fn watch(
        &mut self,
        client: &Client,
        selector: Option<&str>,
        mut version: String,
        mut carried: Option<Events<Incoming>>,
    ) -> Next {
        let mut failing = false;
        loop {
            let opened = std::time::Instant::now();
            let carried = carried.take();
            let was_carried = carried.is_some();
            let stream = match carried {
                Some(stream) => Ok(stream),
                None => {
                    Object::open(Watch {
                        client,
                        kind: self.kind,
                        namespace: self.scope.as_deref(),
                        field_selector: selector,
                        version: &version,
                        initial: false,
                    })
                    .await
                }
            };
            let stream = match stream {
                Ok(stream) => stream,
                Err(error) => {
                    if code(&error) == Some(403) {
                        // May list but not watch (or no longer either): listed again in a
                        // minute, never in a tight loop; a list refused too is said then.
                        return Next::RelistAfter(SLOW_RETRY);
                    }
                    if matches!(code(&error), Some(404 | 410)) {
                        // The CRD changed, or the version is gone: list again.
                        return self.relist();
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
            let mut stream = stream;
            // A watch-list's stream was heard from already (its objects).
            let mut heard = was_carried;
            while let Some(event) = stream.next().await {
                heard = true;
                let sent = match event {
                    Ok(WatchEvent::Added(object) | WatchEvent::Modified(object)) => {
                        if let Some(at) = object.version() {
                            version = at;
                        }
                        self.send(SourceEvent::Read {
                            object: Object::from_event(self.kind, object),
                        })
                        .await
                    }
                    Ok(WatchEvent::Deleted(object)) => {
                        if let Some(at) = object.version() {
                            version = at;
                        }
                        self.send(SourceEvent::Deleted {
                            kind: self.kind,
                            object: object.into_value(self.kind),
                        })
                        .await
                    }
                    Ok(WatchEvent::Bookmark(mark)) => {
                        version = mark.metadata.resource_version;
                        true
                    }
                    Ok(WatchEvent::Error(status)) => {
                        if status.code == 403 {
                            // As when the watch is opened: listed again in a minute.
                            return Next::RelistAfter(SLOW_RETRY);
                        }
                        if matches!(status.code, 404 | 410) {
                            return self.relist();
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
