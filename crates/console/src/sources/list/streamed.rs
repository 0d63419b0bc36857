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

use super::parse::{MANAGED_FIELDS, Without, of_kind};
use super::{Page, Pager, path};
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
    /// The object with its apiVersion and kind first (the kind's when it leaves them out).
    pub fn typed(self, kind: Kind) -> Value {
        of_kind(self.0, kind)
    }
}

/// What a list's items are made into, and what each object is read as for it, from a watch
/// event's text or a list page's.
pub trait Item: Send + Sized + 'static {
    /// An object of a list or a watch, as it is read from the text.
    type Object: Send + 'static;

    /// Reads one object of `kind` (an item of a list page).
    fn read<'de, D: serde::Deserializer<'de>>(
        kind: Kind,
        deserializer: D,
    ) -> Result<Self::Object, D::Error>;

    /// Opens the watch `watch` says, its objects read as [`Item::read`] reads them.
    fn open(
        watch: Watch<'_>,
    ) -> futures::future::BoxFuture<'_, Result<Events<Self::Object>, kube::Error>>;

    /// The item made of an object of `kind` read by [`Item::read`] or from a watch's event
    /// (its type is the kind's where it leaves it out).
    fn from_event(kind: Kind, object: Self::Object) -> Self;
}

/// Objects as the server sent them (`get -o json` writes them out).
impl Item for Value {
    type Object = Raw;

    fn read<'de, D: serde::Deserializer<'de>>(_: Kind, deserializer: D) -> Result<Raw, D::Error> {
        Raw::deserialize(deserializer)
    }

    fn open(watch: Watch<'_>) -> futures::future::BoxFuture<'_, Result<Events<Raw>, kube::Error>> {
        Box::pin(open(watch))
    }

    fn from_event(kind: Kind, object: Raw) -> Value {
        object.typed(kind)
    }
}

/// A watch's events, as they are read, each object read as `O`.
pub type Events<O = Raw> = Pin<Box<dyn Stream<Item = Result<WatchEvent<O>, kube::Error>> + Send>>;

/// A watch to open: of `kind` in `namespace` (all when `None`), narrowed by a field selector,
/// from `version`; with `initial`, a watch-list (its initial events first, from the current
/// state).
#[derive(Clone, Copy)]
pub struct Watch<'a> {
    pub client: &'a Client,
    pub kind: Kind,
    pub namespace: Option<&'a str>,
    pub field_selector: Option<&'a str>,
    pub version: &'a str,
    pub initial: bool,
}

/// Opens a watch, each object read as `O`.
pub async fn open<O: serde::de::DeserializeOwned + Clone + Send + 'static>(
    watch: Watch<'_>,
) -> Result<Events<O>, kube::Error> {
    let Watch {
        client,
        kind,
        namespace,
        field_selector,
        version,
        initial,
    } = watch;
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
    let events = client.request_events::<O>(request).await?;
    Ok(Box::pin(events))
}

/// Whether a refusal is the server's of watch-lists as such (not of the resource, the user or
/// a selector): 422 Invalid naming the options a watch-list sets ("sendInitialEvents is
/// forbidden for watch unless the WatchList feature gate is enabled"; before 1.27
/// "resourceVersionMatch is forbidden for watch").
pub fn refuses_watch_lists(error: &kube::Error) -> bool {
    let kube::Error::Api(status) = error else {
        return false;
    };
    let names_an_option = |text: &str| {
        [
            "sendInitialEvents",
            "resourceVersionMatch",
            "allowWatchBookmarks",
        ]
        .iter()
        .any(|option| text.contains(option))
    };
    status.code == 422
        && (status.message.is_empty()
            || names_an_option(&status.message)
            || status
                .details
                .as_ref()
                .is_some_and(|d| d.causes.iter().any(|c| names_an_option(&c.field))))
}

/// How long a source waits for the first list asked of its hub to say whether the hub
/// serves watch-lists, before asking for one itself (a hub that never answers holds up no
/// source longer than this).
const PATIENCE: Duration = Duration::from_secs(2);

/// How long a watch-list may be silent before the bookmark that ends its objects: a server
/// sends its objects without pause, so one silent this long is taken not to serve watch-lists
/// (it may have ignored `sendInitialEvents` and be watching from now), and the hub's lists
/// are read in pages.
const SILENCE: Duration = Duration::from_secs(20);

/// How one hub's lists are read, learned from the first list asked of it and kept for the
/// hub: a watch-list unless the server refused one (or answered one as it should not). Sources
/// starting at once wait briefly for the first one's answer rather than each asking.
#[derive(Clone, Default)]
pub struct Ways(Arc<Learned>);

#[derive(Default)]
struct Learned {
    /// 0: not known yet; else a [`Way`] (1 streamed, 2 paged).
    way: std::sync::atomic::AtomicU8,
    /// Held by the source asking first while the way is not known.
    asking: tokio::sync::Mutex<()>,
}

/// What every page of a list is made of: the kind, what each item is made into, the sizes.
pub struct Shape<T> {
    pub kind: Kind,
    /// Objects in the first page (a small one shows something soon), then in each after it.
    pub first: usize,
    pub limit: usize,
    item: std::marker::PhantomData<fn() -> T>,
}

impl<T> Shape<T> {
    pub fn new(kind: Kind, first: usize, limit: usize) -> Self {
        Shape {
            kind,
            first,
            limit,
            item: std::marker::PhantomData,
        }
    }
}

// By hand: a derive would ask the same of `T`, which only the item's type names.
impl<T> Clone for Shape<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Shape<T> {}

/// A list under way, read either way; [`Listing::next`] hands out its pages.
pub enum Listing<T: Item> {
    Paged(Pager<T>),
    Streamed(Streamed<T>),
}

impl Ways {
    /// The way learned, if any.
    pub fn known(&self) -> Option<Way> {
        match self.0.way.load(std::sync::atomic::Ordering::SeqCst) {
            1 => Some(Way::Streamed),
            2 => Some(Way::Paged),
            _ => None,
        }
    }

    fn learn(&self, way: Way) {
        let code = match way {
            Way::Streamed => 1,
            Way::Paged => 2,
        };
        self.0.way.store(code, std::sync::atomic::Ordering::SeqCst);
    }

    /// Starts a list of `shape.kind` in `namespace`: a watch-list while the hub serves them,
    /// else pages; with the hub's way, when this list tells it (not for a role that may list
    /// but not watch). An error that is not a refusal of watch-lists is the caller's (a 404 is
    /// the resource's, a dropped connection is retried), and nothing is learned from it.
    pub async fn start<T: Item>(
        &self,
        client: &Client,
        shape: Shape<T>,
        namespace: Option<&str>,
        field_selector: Option<&str>,
    ) -> Result<(Listing<T>, Option<Way>), kube::Error> {
        let pages = || {
            Listing::Paged(Pager::start(
                client.clone(),
                shape.kind,
                namespace,
                field_selector,
                shape.first,
                shape.limit,
            ))
        };
        let paged = || Ok((pages(), Some(Way::Paged)));
        // Not known yet: the first source asks, the others wait for its answer (a while); a
        // source that finds it known once it has waited holds up nobody while it asks.
        let asking = match self.known() {
            None => tokio::time::timeout(PATIENCE, self.0.asking.lock())
                .await
                .ok(),
            Some(_) => None,
        };
        let _asking = asking.filter(|_| self.known().is_none());
        if self.known() == Some(Way::Paged) {
            return paged();
        }
        let watch = Watch {
            client,
            kind: shape.kind,
            namespace,
            field_selector,
            version: "",
            initial: true,
        };
        match T::open(watch).await {
            Ok(events) => {
                self.learn(Way::Streamed);
                Ok((
                    Listing::Streamed(Streamed::new(events, shape, self.clone())),
                    Some(Way::Streamed),
                ))
            }
            // Refused, even after a watch-list was served (a server behind the same address
            // restarted without the feature): in pages from now on.
            Err(error) if refuses_watch_lists(&error) => {
                self.learn(Way::Paged);
                paged()
            }
            // May list but not watch: this list in pages (the role's, not the server's: not
            // learned); a watch after it is refused on its own.
            Err(kube::Error::Api(status)) if status.code == 403 => Ok((pages(), None)),
            Err(error) => Err(error),
        }
    }
}

impl<T: Item> Listing<T> {
    /// The next page; `None` after the last. An error ends the list (the caller starts over).
    pub async fn next(&mut self) -> Option<Result<Page<T>, kube::Error>> {
        match self {
            Listing::Paged(pager) => pager.next().await,
            Listing::Streamed(streamed) => streamed.next().await,
        }
    }

    /// Once the last page is handed out: the watch-list's stream, which carries on with the
    /// changes after the list's version (a paged list has none: the caller opens a watch).
    pub fn into_events(self) -> Option<Events<T::Object>> {
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
pub struct Streamed<T: Item> {
    events: Events<T::Object>,
    shape: Shape<T>,
    /// The hub's ways: a watch-list answered as a server that serves them would not
    /// teaches them that it does not.
    ways: Ways,
    /// Pages handed out so far.
    pages: usize,
    /// The end bookmark was read: the list is complete.
    done: bool,
}

/// A watch-list's stream that ended, or said something else, before its last object: said
/// as what it is (not as a server that cannot be reached).
fn cut(why: &str) -> kube::Error {
    kube::Error::ReadEvents(std::io::Error::new(
        std::io::ErrorKind::UnexpectedEof,
        format!("the watch-list {why} before its last object"),
    ))
}

impl<T: Item> Streamed<T> {
    fn new(events: Events<T::Object>, shape: Shape<T>, ways: Ways) -> Self {
        Streamed {
            events,
            shape,
            ways,
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
                None => match tokio::time::timeout(SILENCE, self.events.next()).await {
                    Ok(event) => event,
                    Err(_) => {
                        self.ways.learn(Way::Paged);
                        return Some(Err(cut("was silent for 20 s")));
                    }
                },
            };
            match event {
                Some(Ok(WatchEvent::Added(raw) | WatchEvent::Modified(raw))) => {
                    items.push(T::from_event(self.shape.kind, raw));
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
                    // events it was asked for. Its lists are read in pages from now on.
                    self.ways.learn(Way::Paged);
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    fn shape() -> Shape<Value> {
        Shape::new(Kind::Pool, 2, 3)
    }

    /// A watch's events from their JSON lines, as a server sends them.
    fn events(lines: &[&str], then_silent: bool) -> Events {
        let parsed: Vec<Result<WatchEvent<Raw>, kube::Error>> = lines
            .iter()
            .map(|line| Ok(serde_json::from_str(line).expect("a watch event")))
            .collect();
        let stream = futures::stream::iter(parsed);
        if then_silent {
            Box::pin(stream.chain(futures::stream::pending()))
        } else {
            Box::pin(stream)
        }
    }

    fn added(name: &str) -> String {
        format!(
            r#"{{"type":"ADDED","object":{{"metadata":{{"name":"{name}","namespace":"a","resourceVersion":"7","managedFields":[{{"manager":"x"}}]}}}}}}"#
        )
    }

    const END: &str = r#"{"type":"BOOKMARK","object":{"kind":"ComputePool","apiVersion":"spectrocloud.com/v1alpha1","metadata":{"resourceVersion":"9","annotations":{"k8s.io/initial-events-end":"true"}}}}"#;
    const PLAIN: &str = r#"{"type":"BOOKMARK","object":{"kind":"ComputePool","apiVersion":"spectrocloud.com/v1alpha1","metadata":{"resourceVersion":"9"}}}"#;

    /// Every page a watch-list hands out, until its end or an error.
    async fn pages(streamed: &mut Streamed<Value>) -> Vec<Result<Page<Value>, kube::Error>> {
        let mut out = Vec::new();
        while let Some(page) = streamed.next().await {
            let failed = page.is_err();
            out.push(page);
            if failed {
                break;
            }
        }
        out
    }

    fn names(page: &Page<Value>) -> Vec<&str> {
        page.items
            .iter()
            .map(|o| o["metadata"]["name"].as_str().unwrap())
            .collect()
    }

    #[tokio::test(start_paused = true)]
    async fn the_objects_come_in_pages_and_the_end_bookmark_ends_the_list() {
        let lines = [added("p1"), added("p2"), added("p3"), added("p4")];
        let mut all: Vec<&str> = lines.iter().map(String::as_str).collect();
        all.push(END);
        let mut streamed = Streamed::new(events(&all, true), shape(), Ways::default());
        let pages = pages(&mut streamed).await;
        let pages: Vec<Page<Value>> = pages.into_iter().map(Result::unwrap).collect();
        // The first page holds `first` objects, the next `limit` at most; the last the rest.
        assert_eq!(names(&pages[0]), ["p1", "p2"]);
        assert!(pages[0].more);
        assert_eq!(names(&pages[1]), ["p3", "p4"]);
        assert!(!pages[1].more, "the end bookmark ends the list");
        assert_eq!(pages[1].resource_version, "9", "the bookmark's version");
        // Read without managedFields, with the kind's type.
        assert!(pages[0].items[0]["metadata"].get("managedFields").is_none());
        assert_eq!(pages[0].items[0]["kind"], "ComputePool");
        assert!(streamed.done, "its stream carries on with the changes");
    }

    #[tokio::test(start_paused = true)]
    async fn an_empty_list_is_one_last_page() {
        let mut streamed = Streamed::new(events(&[END], true), shape(), Ways::default());
        let page = streamed.next().await.unwrap().unwrap();
        assert!(page.items.is_empty() && !page.more);
        assert!(streamed.next().await.is_none());
    }

    #[tokio::test(start_paused = true)]
    async fn objects_go_out_after_a_while_without_a_full_page() {
        let one = added("p1");
        let mut streamed = Streamed::new(events(&[&one], true), shape(), Ways::default());
        let started = tokio::time::Instant::now();
        let page = streamed.next().await.unwrap().unwrap();
        assert_eq!(names(&page), ["p1"]);
        assert!(page.more);
        assert_eq!(
            started.elapsed(),
            GATHER,
            "gathered for {GATHER:?}, not longer"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_watch_list_answered_as_a_plain_watch_teaches_the_hub_pages() {
        // A plain bookmark before the end: the server ignored sendInitialEvents.
        let ways = Ways::default();
        let one = added("p1");
        let mut streamed = Streamed::new(events(&[&one, PLAIN], false), shape(), ways.clone());
        let read = pages(&mut streamed).await;
        assert!(read.last().unwrap().is_err());
        assert_eq!(ways.known(), Some(Way::Paged));
        // Silent before its end: the same.
        let ways = Ways::default();
        let mut streamed = Streamed::new(events(&[&one], true), shape(), ways.clone());
        let read = pages(&mut streamed).await;
        match read.last().unwrap() {
            Err(error) => assert!(error.to_string().contains("silent"), "{error}"),
            Ok(_) => panic!("a silent watch-list ends in an error"),
        }
        assert_eq!(ways.known(), Some(Way::Paged));
    }

    #[tokio::test(start_paused = true)]
    async fn a_cut_or_a_deletion_before_the_end_is_an_error_and_teaches_nothing() {
        let ways = Ways::default();
        let one = added("p1");
        let deleted = one.replace("ADDED", "DELETED");
        for lines in [vec![one.as_str()], vec![one.as_str(), deleted.as_str()]] {
            let mut streamed = Streamed::new(events(&lines, false), shape(), ways.clone());
            let pages = pages(&mut streamed).await;
            let error = pages.into_iter().find_map(Result::err).expect("an error");
            assert!(
                matches!(error, kube::Error::ReadEvents(_)),
                "said as the stream's, not as an unreachable server: {error}"
            );
        }
        assert_eq!(
            ways.known(),
            None,
            "a cut connection says nothing of the server"
        );
    }

    #[test]
    fn only_a_refusal_naming_the_watch_lists_options_is_one() {
        let status = |code: u16, message: &str| {
            kube::Error::Api(Box::new(kube::core::Status {
                code,
                message: message.into(),
                ..Default::default()
            }))
        };
        assert!(refuses_watch_lists(&status(
            422,
            "ListOptions.meta.k8s.io \"\" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled"
        )));
        assert!(refuses_watch_lists(&status(
            422,
            "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch"
        )));
        assert!(!refuses_watch_lists(&status(
            400,
            "unable to parse requirement"
        )));
        assert!(!refuses_watch_lists(&status(
            422,
            "spec.vip: Invalid value"
        )));
        assert!(!refuses_watch_lists(&status(403, "forbidden")));
    }
}
