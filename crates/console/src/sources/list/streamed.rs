//! Lists read as a watch-list: one watch that starts with the current objects as ADDED events,
//! ends them with a bookmark annotated `k8s.io/initial-events-end`, and carries on with the
//! changes. A real server sends the first object in milliseconds and the whole list from its
//! watch cache, where a paged list may leave the cache for a slower path. A server without
//! watch-lists refuses them (422); the hub's lists are then read in pages, learned once per hub
//! ([`Ways`]).

use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use futures::{Stream, StreamExt};
use kube::Client;
use kube::api::{WatchEvent, WatchParams};
use serde::Deserialize;
use serde_json::Value;

use super::parse::{MANAGED_FIELDS, Without, with_type};
use super::{Convert, Page, Pager, api_version, path};
use crate::domain::Kind;
pub use crate::inventory::ListWay as Way;

/// The annotation of the bookmark that ends a watch-list's initial events.
pub const INITIAL_EVENTS_END: &str = "k8s.io/initial-events-end";

/// How long a watch may stay open before the server is asked to end it (it is opened again
/// from where it was); the same as kubectl's and kube-rs's.
pub const WATCH_TIMEOUT: u32 = 290;

/// An object of a watch event, read without its `metadata.managedFields` (never built).
#[derive(Clone, Debug)]
pub struct Raw(pub Value);

impl<'de> Deserialize<'de> for Raw {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Raw, D::Error> {
        serde::de::DeserializeSeed::deserialize(Without(MANAGED_FIELDS), deserializer).map(Raw)
    }
}

impl Raw {
    /// The object's resourceVersion, where it has one.
    pub fn version(&self) -> Option<&str> {
        self.0
            .pointer("/metadata/resourceVersion")
            .and_then(Value::as_str)
    }

    /// The object with its apiVersion and kind first (the kind's when it leaves them out).
    pub fn typed(self, kind: Kind) -> Value {
        with_type(self.0, &api_version(kind), kind.api().kind)
    }
}

/// A watch's events, as they are read.
pub type Events = Pin<Box<dyn Stream<Item = Result<WatchEvent<Raw>, kube::Error>> + Send>>;

/// Opens a watch of `kind` in `namespace` (all when `None`) from `version`; with `initial`, a
/// watch-list (its initial events first, from the current state).
pub async fn open(
    client: &Client,
    kind: Kind,
    namespace: Option<&str>,
    field_selector: Option<&str>,
    version: &str,
    initial: bool,
) -> Result<Events, kube::Error> {
    let mut params = if initial {
        WatchParams::streaming_lists()
    } else {
        WatchParams::default()
    }
    .timeout(WATCH_TIMEOUT);
    if let Some(selector) = field_selector {
        params = params.fields(selector);
    }
    let mut request = kube::core::Request::new(path(kind, namespace))
        .watch(&params, version)
        .map_err(kube::Error::BuildRequest)?;
    request.extensions_mut().insert("watch");
    let events = client.request_events::<Raw>(request).await?;
    Ok(Box::pin(events))
}

/// Whether a refusal is the server's of watch-lists as such (not of the resource or the
/// user): an invalid request (422, "forbidden for watch unless the WatchList feature gate is
/// enabled", or "resourceVersionMatch is forbidden for watch" before 1.27) or a bad one (400).
pub fn refuses_watch_lists(error: &kube::Error) -> bool {
    matches!(error, kube::Error::Api(status) if matches!(status.code, 400 | 422))
}

/// How one hub's lists are read, learned from the first list asked of it and kept for the
/// hub: a watch-list unless the server refused one. Sources starting at once wait for the
/// first one's answer rather than each asking.
#[derive(Clone, Default)]
pub struct Ways(Arc<tokio::sync::Mutex<Option<Way>>>);

/// What every page of a list is made of: the kind, each item's conversion, the sizes.
pub struct Shape<T> {
    pub kind: Kind,
    pub convert: Convert<T>,
    /// Objects in the first page (a small one shows something soon), then in each after it.
    pub first: usize,
    pub limit: usize,
}

// By hand: a derive would ask the same of `T`, which only the conversion's type names.
impl<T> Clone for Shape<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Shape<T> {}

/// A list under way, read either way; [`Listing::next`] hands out its pages.
pub enum Listing<T> {
    Paged(Pager<T>),
    Streamed(Streamed<T>),
}

impl Ways {
    /// The way learned, if any list has been asked yet.
    pub fn known(&self) -> Option<Way> {
        self.0.try_lock().ok().and_then(|way| *way)
    }

    /// Starts a list of `shape.kind` in `namespace`: a watch-list while the hub serves them,
    /// else pages. An error that is not a refusal of watch-lists is the caller's (a 403 or
    /// 404 is the resource's, a dropped connection is retried), and nothing is learned from it.
    pub async fn start<T: Send + 'static>(
        &self,
        client: &Client,
        shape: Shape<T>,
        namespace: Option<&str>,
        field_selector: Option<&str>,
    ) -> Result<(Listing<T>, Way), kube::Error> {
        let paged = || {
            Listing::Paged(Pager::start(
                client.clone(),
                shape.kind,
                shape.convert,
                namespace,
                field_selector,
                shape.first,
                shape.limit,
            ))
        };
        let mut learned = self.0.lock().await;
        if *learned == Some(Way::Paged) {
            return Ok((paged(), Way::Paged));
        }
        if learned.is_some() {
            // Known to stream: the others need not wait for this one's answer.
            drop(learned);
            let events = open(client, shape.kind, namespace, field_selector, "", true).await?;
            return Ok((
                Listing::Streamed(Streamed::new(events, shape)),
                Way::Streamed,
            ));
        }
        match open(client, shape.kind, namespace, field_selector, "", true).await {
            Ok(events) => {
                *learned = Some(Way::Streamed);
                Ok((
                    Listing::Streamed(Streamed::new(events, shape)),
                    Way::Streamed,
                ))
            }
            Err(error) if refuses_watch_lists(&error) => {
                *learned = Some(Way::Paged);
                Ok((paged(), Way::Paged))
            }
            Err(error) => Err(error),
        }
    }
}

impl<T: Send + 'static> Listing<T> {
    /// The next page; `None` after the last. An error ends the list (the caller starts over).
    pub async fn next(&mut self) -> Option<Result<Page<T>, kube::Error>> {
        match self {
            Listing::Paged(pager) => pager.next().await,
            Listing::Streamed(streamed) => streamed.next().await,
        }
    }

    /// Once the last page is handed out: the watch-list's stream, which carries on with the
    /// changes after the list's version (a paged list has none: the caller opens a watch).
    pub fn into_events(self) -> Option<Events> {
        match self {
            Listing::Paged(_) => None,
            Listing::Streamed(streamed) => streamed.done.then_some(streamed.events),
        }
    }
}

/// How long objects gather before they go out as a page, at most: rows show as they come,
/// not only once a page is full.
const GATHER: Duration = Duration::from_millis(100);

/// A watch-list's initial events, handed out as pages.
pub struct Streamed<T> {
    events: Events,
    shape: Shape<T>,
    /// Pages handed out so far.
    pages: usize,
    /// The end bookmark was read: the list is complete.
    done: bool,
}

/// A watch-list's stream that ended, or said something else, before its last object.
fn cut(why: &str) -> kube::Error {
    kube::Error::Service(Box::new(std::io::Error::new(
        std::io::ErrorKind::UnexpectedEof,
        format!("the watch-list {why} before its last object"),
    )))
}

impl<T: Send + 'static> Streamed<T> {
    fn new(events: Events, shape: Shape<T>) -> Self {
        Streamed {
            events,
            shape,
            pages: 0,
            done: false,
        }
    }

    async fn next(&mut self) -> Option<Result<Page<T>, kube::Error>> {
        if self.done {
            return None;
        }
        let size = if self.pages == 0 {
            self.shape.first
        } else {
            self.shape.limit
        }
        .max(1);
        let mut items = Vec::with_capacity(size.min(4096));
        let mut until = None;
        loop {
            let event = match until {
                // Something gathered: it goes out when the page is full or has waited long
                // enough.
                Some(deadline) => match tokio::time::timeout_at(deadline, self.events.next()).await
                {
                    Ok(event) => event,
                    Err(_) => break,
                },
                None => self.events.next().await,
            };
            match event {
                Some(Ok(WatchEvent::Added(raw) | WatchEvent::Modified(raw))) => {
                    let kind = self.shape.kind;
                    items.push((self.shape.convert)(kind, raw.typed(kind)));
                    until.get_or_insert_with(|| tokio::time::Instant::now() + GATHER);
                    if items.len() >= size {
                        break;
                    }
                }
                Some(Ok(WatchEvent::Bookmark(mark))) => {
                    if mark
                        .metadata
                        .annotations
                        .get(INITIAL_EVENTS_END)
                        .is_some_and(|v| v == "true")
                    {
                        self.done = true;
                        self.pages += 1;
                        return Some(Ok(Page::streamed(
                            items,
                            mark.metadata.resource_version,
                            false,
                        )));
                    }
                    // A plain bookmark before the end: the server did not send the initial
                    // events it was asked for.
                    return Some(Err(cut("had a bookmark without the end of its objects")));
                }
                Some(Ok(WatchEvent::Deleted(_))) => {
                    return Some(Err(cut("said an object was deleted")));
                }
                Some(Ok(WatchEvent::Error(status))) => {
                    return Some(Err(kube::Error::Api(status)));
                }
                Some(Err(error)) => return Some(Err(error)),
                None => return Some(Err(cut("ended"))),
            }
        }
        self.pages += 1;
        Some(Ok(Page::streamed(items, String::new(), true)))
    }
}
