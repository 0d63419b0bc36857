//! The demo cluster's object store, with the API server's semantics: one cluster-wide
//! resourceVersion, creation and update rules (conflicts on stale versions, the status
//! subresource, generation), deletion with preconditions, finalizers and owner garbage
//! collection, dry runs, and a bounded history that watches replay from (410 Gone past it).
//!
//! All state sits behind one mutex held only for short, non-blocking sections; changes are
//! published on a broadcast channel while the lock is held, so a watch that subscribes under
//! the lock sees no gap between its replay and the live stream.
//!
//! Here: the state, reads and lists. Creation, updates and patches are in `write.rs`, deletion
//! and garbage collection in `delete.rs`, the history and watches in `history.rs`.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

use chrono::{SecondsFormat, Utc};
use serde_json::Value;
use tokio::sync::broadcast;

use self::history::Kept;
pub use self::history::{HistoryBounds, WatchStart};
use super::registry::{Registry, Resource};
pub use super::status::ApiError;

mod checks;
mod delete;
mod history;
mod write;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeKind {
    Added,
    Modified,
    Deleted,
}

impl ChangeKind {
    pub fn word(self) -> &'static str {
        match self {
            ChangeKind::Added => "ADDED",
            ChangeKind::Modified => "MODIFIED",
            ChangeKind::Deleted => "DELETED",
        }
    }
}

/// One change to one object, in resourceVersion order.
#[derive(Clone, Debug)]
pub struct Change {
    pub rv: u64,
    /// `Resource::qualified()` of the object's resource.
    pub resource: String,
    pub kind: ChangeKind,
    pub object: Arc<Value>,
    /// The object before a modification, so filtered watches can tell entering from leaving.
    pub previous: Option<Arc<Value>>,
}

impl Change {
    pub fn namespace(&self) -> &str {
        self.object
            .pointer("/metadata/namespace")
            .and_then(Value::as_str)
            .unwrap_or("")
    }
}

type Key = (String, String);

struct Inner {
    rv: u64,
    objects: HashMap<String, BTreeMap<Key, Arc<Value>>>,
    history: VecDeque<Kept>,
    history_bytes: usize,
    bounds: HistoryBounds,
    /// Watches asking to start before this version get 410 Gone.
    compacted_through: u64,
}

/// The store. Cheap to share: wrap it in an `Arc`.
pub struct Store {
    pub registry: Registry,
    inner: Mutex<Inner>,
    changes: broadcast::Sender<Arc<Change>>,
    /// Bumped to end every open watch (history compaction that simulates a restart, shutdown).
    epoch: tokio::sync::watch::Sender<u64>,
    /// Set when the server stops: no new watch may start, so shutting down never waits on one.
    closing: std::sync::atomic::AtomicBool,
    /// The objects (kind, namespace, name) a client changed through the API: the scenario's
    /// timeline leaves them as the operator left them (until the story is reset).
    by_hand: Mutex<std::collections::HashSet<(String, String, String)>>,
}

/// The objects clients changed by hand (kind, namespace, name), held locked.
pub struct ByHand<'a>(MutexGuard<'a, std::collections::HashSet<(String, String, String)>>);

impl ByHand<'_> {
    /// Notes that a client changed this object (created, replaced, patched or deleted it):
    /// the scenario no longer rewrites it.
    pub fn note(&mut self, kind: &str, namespace: &str, name: &str) {
        self.0
            .insert((kind.to_owned(), namespace.to_owned(), name.to_owned()));
    }

    /// Whether a client changed this object since the story began.
    pub fn contains(&self, kind: &str, namespace: &str, name: &str) -> bool {
        self.0
            .contains(&(kind.to_owned(), namespace.to_owned(), name.to_owned()))
    }
}

/// What a list returns.
pub struct Listing {
    pub items: Vec<Arc<Value>>,
    pub resource_version: u64,
    pub continue_token: Option<String>,
    pub remaining: usize,
}

/// Where a delete or update is allowed only if the object still is what the caller saw.
#[derive(Clone, Debug, Default)]
pub struct Preconditions {
    pub uid: Option<String>,
    pub resource_version: Option<String>,
}

pub fn now_rfc3339() -> String {
    Utc::now().to_rfc3339_opts(SecondsFormat::Secs, true)
}

fn new_uid() -> String {
    let hex = |n: usize| -> String {
        (0..n)
            .map(|_| char::from_digit(fastrand::u32(0..16), 16).unwrap_or('0'))
            .collect()
    };
    format!("{}-{}-4{}-a{}-{}", hex(8), hex(4), hex(3), hex(3), hex(12))
}

fn meta_str<'v>(object: &'v Value, field: &str) -> Option<&'v str> {
    object.get("metadata")?.get(field)?.as_str()
}

fn finalizers(object: &Value) -> usize {
    object
        .pointer("/metadata/finalizers")
        .and_then(Value::as_array)
        .map_or(0, Vec::len)
}

impl Store {
    pub fn new(registry: Registry, history_limit: usize) -> Store {
        Store::with_bounds(
            registry,
            HistoryBounds {
                changes: history_limit,
                ..HistoryBounds::default()
            },
        )
    }

    pub fn with_bounds(registry: Registry, bounds: HistoryBounds) -> Store {
        // Live changes for the open watches. The channel keeps its last changes until they are
        // overwritten, so it is kept small: a watch that falls this far behind gets 410 Gone
        // and lists again, as from a real API server's watch cache.
        let (changes, _) = broadcast::channel(bounds.live.max(1));
        let (epoch, _) = tokio::sync::watch::channel(0);
        Store {
            registry,
            inner: Mutex::new(Inner {
                rv: 1,
                objects: HashMap::new(),
                history: VecDeque::new(),
                history_bytes: 0,
                bounds: HistoryBounds {
                    changes: bounds.changes.max(1),
                    ..bounds
                },
                compacted_through: 0,
            }),
            changes,
            epoch,
            closing: std::sync::atomic::AtomicBool::new(false),
            by_hand: Mutex::new(std::collections::HashSet::new()),
        }
    }

    /// What clients changed since the story began, locked: a client holds it from its write
    /// to its note, a scenario step from its check to its write, so that no step writes over
    /// a change not yet noted. Taken before the objects' lock, never while holding it.
    pub fn by_hand(&self) -> ByHand<'_> {
        ByHand(
            self.by_hand
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner()),
        )
    }

    /// Forgets what clients changed (the story starts again).
    pub fn forget_by_hand(&self) {
        self.by_hand
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clear();
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while holding the lock cannot leave a half-applied change (every change is
        // assembled before it is inserted), so a poisoned lock is safe to keep using.
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub fn resource_version(&self) -> u64 {
        self.lock().rv
    }

    pub fn subscribe_epoch(&self) -> tokio::sync::watch::Receiver<u64> {
        self.epoch.subscribe()
    }

    /// Ends every open watch and refuses new ones: the server is stopping.
    pub fn close(&self) {
        self.closing
            .store(true, std::sync::atomic::Ordering::SeqCst);
        self.end_watches();
    }

    pub fn is_closing(&self) -> bool {
        self.closing.load(std::sync::atomic::Ordering::SeqCst)
    }

    fn bucket<'i>(inner: &'i mut Inner, resource: &Resource) -> &'i mut BTreeMap<Key, Arc<Value>> {
        inner.objects.entry(resource.qualified()).or_default()
    }

    pub fn get(
        &self,
        resource: &Resource,
        namespace: &str,
        name: &str,
    ) -> Result<Arc<Value>, ApiError> {
        let inner = self.lock();
        inner
            .objects
            .get(&resource.qualified())
            .and_then(|b| b.get(&(namespace.to_owned(), name.to_owned())))
            .cloned()
            .ok_or_else(|| ApiError::not_found(resource, name))
    }

    /// Lists objects of a resource, in namespace and name order, optionally in one namespace,
    /// filtered, and paged with `limit` and an opaque `continue` token.
    pub fn list(
        &self,
        resource: &Resource,
        namespace: Option<&str>,
        filter: &dyn Fn(&Value) -> bool,
        limit: Option<usize>,
        continue_token: Option<&str>,
    ) -> Result<Listing, ApiError> {
        let inner = self.lock();
        let (list_rv, after) = match continue_token.filter(|t| !t.is_empty()) {
            Some(token) => {
                let mut parts = token.splitn(3, '\u{1f}');
                let rv = parts.next().and_then(|r| r.parse::<u64>().ok());
                match (rv, parts.next(), parts.next()) {
                    (Some(rv), Some(ns), Some(name)) => {
                        (rv, Some((ns.to_owned(), name.to_owned())))
                    }
                    _ => return Err(ApiError::bad_request("invalid continue token")),
                }
            }
            None => (inner.rv, None),
        };
        let empty = BTreeMap::new();
        let bucket = inner.objects.get(&resource.qualified()).unwrap_or(&empty);
        let range = match &after {
            Some(key) => bucket.range((
                std::ops::Bound::Excluded(key.clone()),
                std::ops::Bound::Unbounded,
            )),
            None => bucket.range::<Key, _>(..),
        };
        let mut items = Vec::new();
        let mut remaining = 0;
        let mut last_key = None;
        for (key, object) in range {
            if namespace.is_some_and(|ns| ns != key.0) || !filter(object) {
                continue;
            }
            if limit.is_some_and(|l| items.len() >= l) {
                remaining += 1;
                continue;
            }
            last_key = Some(key.clone());
            items.push(object.clone());
        }
        let continue_token = if remaining > 0 {
            last_key.map(|(ns, name)| format!("{list_rv}\u{1f}{ns}\u{1f}{name}"))
        } else {
            None
        };
        Ok(Listing {
            items,
            resource_version: list_rv,
            continue_token,
            remaining,
        })
    }

    /// Every object of a resource, for the controllers of the scenario player.
    pub fn objects(&self, resource: &Resource) -> Vec<Arc<Value>> {
        self.lock()
            .objects
            .get(&resource.qualified())
            .map(|b| b.values().cloned().collect())
            .unwrap_or_default()
    }

    /// Every object of every resource.
    pub fn snapshot(&self) -> Vec<Arc<Value>> {
        let inner = self.lock();
        let mut all = Vec::new();
        for resource in &self.registry.resources {
            if let Some(bucket) = inner.objects.get(&resource.qualified()) {
                all.extend(bucket.values().cloned());
            }
        }
        all
    }
}

/// A patch body, by content type.
#[derive(Clone, Debug)]
pub enum Patch {
    /// JSON merge patch (RFC 7386); also used for apply and strategic merge on our kinds.
    Merge(Value),
    /// JSON patch (RFC 6902) operations.
    Json(Value),
}

#[cfg(test)]
mod tests;
