//! The store's history of changes and the watches that replay it: how much is kept (by count,
//! size and age, as a real API server compacts), what a watch that resumes gets (the changes
//! since its version, or 410 Gone past the history), and compaction that simulates a restart.

use std::sync::Arc;

use serde_json::Value;
use tokio::sync::broadcast;

use super::{ApiError, Change, ChangeKind, Inner, Store};
use crate::registry::Resource;

/// How much of its history of changes the server keeps for watches that resume: as a real API
/// server compacts, by count, by size and by age. Older versions answer 410 Gone, which
/// clients handle by listing again.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HistoryBounds {
    pub changes: usize,
    /// How many live changes a watch may fall behind before it is ended with 410 Gone (the
    /// channel keeps that many past changes until they are overwritten).
    pub live: usize,
    /// The JSON size of the objects the kept changes hold (their versions before, too).
    pub bytes: usize,
    pub age: std::time::Duration,
}

impl Default for HistoryBounds {
    fn default() -> Self {
        HistoryBounds {
            changes: 100_000,
            live: 1024,
            // Parsed objects take several times their JSON size in memory.
            bytes: 16 * 1024 * 1024,
            // etcd compacts every five minutes by default.
            age: std::time::Duration::from_secs(5 * 60),
        }
    }
}

/// A change in the history, with what it costs to keep and when it happened.
pub(super) struct Kept {
    change: Arc<Change>,
    bytes: usize,
    at: std::time::Instant,
}

impl Store {
    /// Drops the whole history: watches that resume from an older version get 410 Gone.
    /// With `disconnect`, open watches also end, as when an API server restarts.
    pub fn compact(&self, disconnect: bool) {
        {
            let mut inner = self.lock();
            inner.history.clear();
            inner.history_bytes = 0;
            inner.compacted_through = inner.rv;
        }
        if disconnect {
            self.end_watches();
        }
    }

    /// Ends every open watch; clients reconnect from their last resourceVersion.
    /// Ends every open watch; clients reconnect from their last resourceVersion.
    pub fn end_watches(&self) {
        self.epoch.send_modify(|e| *e += 1);
    }

    pub(super) fn record(
        &self,
        inner: &mut Inner,
        resource: &Resource,
        kind: ChangeKind,
        object: Arc<Value>,
        previous: Option<Arc<Value>>,
    ) {
        let change = Arc::new(Change {
            rv: inner.rv,
            resource: resource.qualified(),
            kind,
            object,
            previous,
        });
        let size = |v: &Value| serde_json::to_vec(v).map_or(0, |b| b.len());
        let bytes = size(&change.object) + change.previous.as_deref().map_or(0, size);
        inner.history.push_back(Kept {
            change: change.clone(),
            bytes,
            at: std::time::Instant::now(),
        });
        inner.history_bytes += bytes;
        Self::forget_old(inner);
        let _ = self.changes.send(change);
    }

    /// Forgets the oldest changes past any bound (the newest one always stays).
    fn forget_old(inner: &mut Inner) {
        let now = std::time::Instant::now();
        while inner.history.len() > 1 {
            let Some(oldest) = inner.history.front() else {
                break;
            };
            let over = inner.history.len() > inner.bounds.changes
                || inner.history_bytes > inner.bounds.bytes
                || now.duration_since(oldest.at) > inner.bounds.age;
            if !over {
                break;
            }
            if let Some(dropped) = inner.history.pop_front() {
                inner.history_bytes -= dropped.bytes;
                inner.compacted_through = dropped.change.rv;
            }
        }
    }

    /// What the history holds now: changes and their bytes.
    pub fn history_size(&self) -> (usize, usize) {
        let inner = self.lock();
        (inner.history.len(), inner.history_bytes)
    }

    /// Starts a watch: the changes to replay (everything current when `since` is `None`),
    /// and the live stream after them. 410 Gone when `since` is older than the history.
    pub fn watch(&self, resource: &Resource, since: Option<u64>) -> Result<WatchStart, ApiError> {
        let inner = self.lock();
        let qualified = resource.qualified();
        let replay: Vec<Arc<Change>> = match since {
            None | Some(0) => inner
                .objects
                .get(&qualified)
                .map(|bucket| {
                    bucket
                        .values()
                        .map(|object| {
                            Arc::new(Change {
                                rv: inner.rv,
                                resource: qualified.clone(),
                                kind: ChangeKind::Added,
                                object: object.clone(),
                                previous: None,
                            })
                        })
                        .collect()
                })
                .unwrap_or_default(),
            // A version this server never issued: it was restarted and its history is new.
            Some(rv) if rv > inner.rv => {
                return Err(ApiError::gone(format!(
                    "too large resource version: {rv} (the server is at {}; it was restarted)",
                    inner.rv
                )));
            }
            Some(rv) if rv < inner.compacted_through => {
                return Err(ApiError::gone(format!(
                    "too old resource version: {rv} ({})",
                    inner.compacted_through
                )));
            }
            Some(rv) => inner
                .history
                .iter()
                .map(|kept| &kept.change)
                .filter(|c| c.rv > rv && c.resource == qualified)
                .cloned()
                .collect(),
        };
        let start = match since {
            Some(rv) if rv > 0 => rv.max(inner.compacted_through),
            _ => inner.rv,
        };
        Ok(WatchStart {
            replay,
            live: self.changes.subscribe(),
            start,
        })
    }
}

/// The beginning of a watch: what to replay, the live stream after it, and the version the
/// watch starts at.
pub struct WatchStart {
    pub replay: Vec<Arc<Change>>,
    pub live: broadcast::Receiver<Arc<Change>>,
    pub start: u64,
}
