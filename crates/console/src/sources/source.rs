//! One source: a kind in one namespace scope (or all), followed by kube's watcher, its events
//! turned into [`SourceEvent`]s on the console's queue.

use std::time::Duration;

use chrono::Utc;
use futures::StreamExt;
use kube::Client;
use kube::runtime::watcher::{self, DefaultBackoff, Event};

use super::errors::{classify, code, refused};
use super::kept;
use super::objects::{EVALUATION, Incoming, POOL, VALUE};
use super::sink::{Marks, Sink, Tag};
use super::ways::{Events, PAGE, Way, Ways, cause, refuses_watch_lists, watch};
use super::without::of_kind;
use crate::domain::ClusterError;
use crate::inventory::{Kind, Object, Scope, Shares, SourceEvent, SourceState};

/// How long to wait before asking again about a forbidden or absent resource.
const SLOW_RETRY: Duration = Duration::from_secs(60);

/// How one watcher of a source ended: what to do next.
enum Next {
    /// A new watcher at once (the server no longer has the version watched from, or the
    /// hub's way of listing was learned).
    Relist,
    /// A new watcher after this long (an error, said already).
    RelistAfter(Duration),
    /// The receiver is gone: stop.
    Stop,
}
/// How long objects gather before they go out as a page, at most: rows show as they come,
/// not only once a page is full.
const GATHER: Duration = Duration::from_millis(100);

/// How long a watch-list may be silent before the bookmark that ends its objects: a server
/// sends its objects without pause, so one silent this long is taken not to serve watch-lists
/// (it may have ignored `sendInitialEvents` and be watching from now), and the hub's lists
/// are read in pages.
const SILENCE: Duration = Duration::from_secs(20);

/// One kind in one scope, followed by kube's watcher.
pub struct Source {
    kind: Kind,
    scope: Scope,
    tag: Tag,
    marks: Marks,
    sink: Sink,
    backoff: DefaultBackoff,
    /// When the last list was complete.
    listed_at: Option<std::time::Instant>,
    /// This source's lists are read in pages whatever the hub's way: it may list but not
    /// watch, and a watch-list is a watch.
    pages_here: bool,
    /// What the objects this source reads share of their repeated values
    /// ([`Object::new_shared`]).
    shares: Shares,
}

/// A list under way: its objects gathered into the next page.
struct Gathering {
    objects: Vec<Object>,
    /// When the objects gathered go out, full or not.
    until: Option<tokio::time::Instant>,
}

impl Source {
    pub fn new(kind: Kind, scope: Scope, tag: Tag, marks: Marks, sink: Sink) -> Source {
        Source {
            kind,
            scope,
            tag,
            marks,
            sink,
            backoff: DefaultBackoff::default(),
            listed_at: None,
            pages_here: false,
            shares: Shares::default(),
        }
    }

    /// An object read, as the console holds it: its repeated values shared.
    fn held(&mut self, object: Incoming) -> Object {
        let Incoming::Value(value) = object else {
            let mut object = object.into_object(self.kind);
            object.share(&mut self.shares);
            return object;
        };
        Object::new_shared(self.kind, of_kind(value, self.kind), &mut self.shares)
    }

    /// Follows the kind in its scope until the receiver is gone, a new watcher whenever one
    /// must be replaced.
    pub async fn run(mut self, client: Client, ways: Ways) {
        let selector = kept::selector(self.kind);
        loop {
            if !self.send_state(SourceState::Syncing).await {
                return;
            }
            match self.follow(&client, &ways, selector).await {
                Next::Relist => {}
                Next::RelistAfter(delay) => tokio::time::sleep(delay).await,
                Next::Stop => return,
            }
        }
    }

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

    /// A watcher of this source's kind, its list read `way`.
    fn watcher(&self, client: &Client, selector: Option<&str>, way: Way) -> Events {
        let scope = self.scope.as_deref();
        match self.kind {
            Kind::Pool => watch::<POOL>(client, self.kind, scope, selector, way),
            Kind::Evaluation => watch::<EVALUATION>(client, self.kind, scope, selector, way),
            _ => watch::<VALUE>(client, self.kind, scope, selector, way),
        }
    }

    /// Follows one watcher until it must be replaced: its list goes out page by page (the
    /// first rows show before the list is complete), then every change as it comes. An error
    /// during the list is said and the watcher, which starts the list over, polled again
    /// after the backoff; an error of the watch after it is said and the watcher replaced
    /// after the backoff (kube's would resume without a word, and the source would stay
    /// "reconnecting" until the next change: its fresh list says it is live).
    async fn follow(&mut self, client: &Client, ways: &Ways, selector: Option<&str>) -> Next {
        let choice = ways.choose().await;
        let way = if self.pages_here {
            Way::Paged
        } else {
            choice.way
        };
        let mut asking = choice.asking;
        let mut events = self.watcher(client, selector, way);
        let mut listing: Option<Gathering> = None;
        // A list of this watcher's is complete: an error now is the watch's after it.
        let mut listed = false;
        let mut failing = false;
        loop {
            let event = match self
                .next(&mut events, &mut listing, way, ways, failing)
                .await
            {
                Ok(Some(event)) => event,
                Ok(None) => continue,
                Err(next) => return next,
            };
            let event = match event {
                Ok(event) => event,
                Err(error) => {
                    let after_list = listed && listing.is_none();
                    let error = cause(error);
                    match self
                        .on_error(error, ways, way, after_list, &mut asking)
                        .await
                    {
                        Some(next) => return next,
                        None => {
                            failing = true;
                            continue;
                        }
                    }
                }
            };
            if asking.take().is_some() && way == Way::Streamed {
                ways.learn(Way::Streamed);
            }
            if matches!(event, Event::Init) && listing.is_some() && !failing {
                // A list started over without an error (a watch-list the server ended before
                // its objects' end): not again at once.
                tokio::time::sleep(self.backoff.next().unwrap_or(SLOW_RETRY)).await;
            }
            failing = false;
            listed |= matches!(event, Event::InitDone);
            if !self.apply(event, &mut listing, way).await {
                return Next::Stop;
            }
        }
    }

    /// The watcher's next event; `Ok(None)` when a page went out instead (gathered long
    /// enough); `Err` when the watcher is to be replaced.
    async fn next(
        &mut self,
        events: &mut Events,
        listing: &mut Option<Gathering>,
        way: Way,
        ways: &Ways,
        failing: bool,
    ) -> Result<Option<Result<Event<Incoming>, watcher::Error>>, Next> {
        let until = listing.as_ref().and_then(|g| g.until);
        // Not while the watcher retries after an error: a slow reconnection is not silence.
        let silence = listing.is_some() && way == Way::Streamed && !failing;
        let next = match (until, silence) {
            (Some(deadline), _) => tokio::time::timeout_at(deadline, events.next()).await,
            (None, true) => match tokio::time::timeout(SILENCE, events.next()).await {
                Ok(next) => Ok(next),
                Err(_) => {
                    // Silent before the end of its objects: not a watch-list as a hub
                    // serving them sends it.
                    ways.learn(Way::Paged);
                    return Err(Next::Relist);
                }
            },
            (None, false) => Ok(events.next().await),
        };
        match next {
            Ok(Some(event)) => Ok(Some(event)),
            // kube's watcher never ends; should it, a new one.
            Ok(None) => Err(self.relist()),
            Err(_) => {
                if let Some(gathering) = listing {
                    let objects = std::mem::take(&mut gathering.objects);
                    gathering.until = None;
                    if !self.send_page(objects).await {
                        return Err(Next::Stop);
                    }
                }
                Ok(None)
            }
        }
    }

    async fn send_page(&self, objects: Vec<Object>) -> bool {
        self.send(SourceEvent::Page {
            kind: self.kind,
            scope: self.scope.clone(),
            objects,
        })
        .await
    }

    /// Sends what a watcher's event says; false when the receiver is gone.
    async fn apply(
        &mut self,
        event: Event<Incoming>,
        listing: &mut Option<Gathering>,
        way: Way,
    ) -> bool {
        match event {
            Event::Init => {
                *listing = Some(Gathering {
                    objects: Vec::new(),
                    until: None,
                });
                // The hub's way, not this source's own (a role that may not watch).
                self.send_state(SourceState::Syncing).await
                    && (self.pages_here || self.send(SourceEvent::Lists { way }).await)
            }
            Event::InitApply(object) => {
                let Some(gathering) = listing else {
                    return true;
                };
                let object = self.held(object);
                if !kept::keeps(self.kind, &object) {
                    return true;
                }
                gathering.objects.push(object);
                gathering
                    .until
                    .get_or_insert_with(|| tokio::time::Instant::now() + GATHER);
                if gathering.objects.len() < PAGE {
                    return true;
                }
                let objects = std::mem::take(&mut gathering.objects);
                gathering.until = None;
                self.send_page(objects).await
            }
            Event::InitDone => {
                let objects = listing.take().map(|g| g.objects).unwrap_or_default();
                self.backoff = DefaultBackoff::default();
                self.listed_at = Some(std::time::Instant::now());
                self.send(SourceEvent::Listed {
                    kind: self.kind,
                    scope: self.scope.clone(),
                    objects,
                })
                .await
            }
            Event::Apply(object) => {
                let object = self.held(object);
                !kept::keeps(self.kind, &object) || self.send(SourceEvent::Read { object }).await
            }
            Event::Delete(object) => {
                let (kind, object) = (self.kind, object.into_value(self.kind));
                !kept::keeps_value(kind, &object)
                    || self.send(SourceEvent::Deleted { kind, object }).await
            }
        }
    }

    /// What an error means for the watcher: `None` to poll it again after the backoff (said
    /// as reconnecting, during a list), else what to do instead. `listed`: the error came
    /// after a complete list, on the watch that follows it.
    async fn on_error(
        &mut self,
        error: kube::Error,
        ways: &Ways,
        way: Way,
        listed: bool,
        asking: &mut Option<tokio::sync::MutexGuard<'_, ()>>,
    ) -> Option<Next> {
        // Whatever it was, nothing is learned from it: the next source asks.
        asking.take();
        if way == Way::Streamed && !listed {
            if refuses_watch_lists(&error) {
                // Refused, even after a watch-list was served (a server behind the same
                // address restarted without the feature): in pages from now on.
                ways.learn(Way::Paged);
                return Some(Next::Relist);
            }
            if code(&error) == Some(403) {
                // May list but not watch: this source's lists in pages (the role's, not the
                // server's: not learned); a watch after it is refused on its own.
                self.pages_here = true;
                return Some(Next::Relist);
            }
        }
        if listed && code(&error) == Some(403) {
            // May list but not watch (or no longer either): listed again in a minute, never
            // in a tight loop; a list refused too is said then.
            return Some(Next::RelistAfter(SLOW_RETRY));
        }
        if let Some(state) = refused(self.kind, &self.scope, &error) {
            // Said, and asked about again slowly while the other sources carry on.
            return Some(if self.send_state(state).await {
                Next::RelistAfter(SLOW_RETRY)
            } else {
                Next::Stop
            });
        }
        if code(&error) == Some(410) {
            // The watch's version is gone: the list again, not in a tight loop. A list's
            // (a continue token expired) waits the backoff's next delay.
            return Some(if listed {
                self.relist()
            } else {
                Next::RelistAfter(self.backoff.next().unwrap_or(SLOW_RETRY))
            });
        }
        match self.failed(classify(&error)).await {
            Some(delay) if listed => Some(Next::RelistAfter(delay)),
            Some(delay) => {
                tokio::time::sleep(delay).await;
                None
            }
            None => Some(Next::Stop),
        }
    }
}
