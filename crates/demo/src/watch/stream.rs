//! One watch's stream of events: a watch-list's initial events (paced, ended by their
//! bookmark) or those replayed from a version, then the live ones and bookmarks.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use serde_json::json;
use tokio::sync::{broadcast, mpsc};

use super::{
    CHUNK, INITIAL_EVENTS_END, deliver, event_line, render, send_paced, visible, write_event,
};
use crate::api::Filters;
use crate::registry::Resource;
use crate::store::{ApiError, Change};

/// One watch's stream: where its events go, what it shows and how.
pub(super) struct Watching {
    pub(super) sender: mpsc::Sender<Result<Bytes, std::convert::Infallible>>,
    pub(super) resource: Resource,
    pub(super) filters: Filters,
    pub(super) as_table: bool,
    pub(super) pace: Option<crate::pace::Pace>,
    pub(super) bookmarks: bool,
    pub(super) timeout: Duration,
    pub(super) interval: Duration,
}

impl Watching {
    /// The watch's events: the initial ones (a watch-list's, paced and ended by its
    /// bookmark) or those replayed from the version named, then the live ones.
    pub(super) async fn stream(
        self,
        initial: bool,
        replay: Vec<Arc<Change>>,
        mut live: broadcast::Receiver<Arc<Change>>,
        start: u64,
        epoch: tokio::sync::watch::Receiver<u64>,
    ) {
        let last_rv = if initial {
            self.initial_events(replay, &mut live, start).await
        } else {
            self.replayed(replay, start).await
        };
        if let Some(last_rv) = last_rv {
            self.follow(live, epoch, last_rv).await;
        }
    }

    /// A watch-list's initial events, in paced chunks, then the bookmark that ends them and
    /// the changes made meanwhile (kept so the watcher does not fall behind the broadcast).
    /// The version reached; `None` once the watcher is gone.
    async fn initial_events(
        &self,
        replay: Vec<Arc<Change>>,
        live: &mut broadcast::Receiver<Arc<Change>>,
        mut last_rv: u64,
    ) -> Option<u64> {
        let mut meanwhile = Vec::new();
        let mut chunk = Vec::with_capacity(CHUNK + 8192);
        let mut objects = 0;
        for change in replay {
            if visible(&change, &self.resource, &self.filters).is_some() {
                write_event(
                    &mut chunk,
                    "ADDED",
                    &render(&change.object, &self.resource, self.as_table),
                );
                objects += 1;
            }
            if chunk.len() >= CHUNK {
                if !send_paced(&self.sender, self.pace, &mut chunk, &mut objects).await {
                    return None;
                }
                while let Ok(change) = live.try_recv() {
                    meanwhile.push(change);
                }
            }
        }
        let end = json!({
            "kind": self.resource.kind,
            "apiVersion": self.resource.api_version(),
            "metadata": {
                "resourceVersion": last_rv.to_string(),
                "annotations": {INITIAL_EVENTS_END: "true"},
            },
        });
        write_event(&mut chunk, "BOOKMARK", &end);
        if !send_paced(&self.sender, self.pace, &mut chunk, &mut objects).await {
            return None;
        }
        for change in meanwhile {
            if change.rv <= last_rv {
                continue;
            }
            last_rv = change.rv;
            if !self.deliver(&change).await {
                return None;
            }
        }
        Some(last_rv)
    }

    /// The changes since the version named, replayed; the version reached, or `None` once
    /// the watcher is gone.
    async fn replayed(&self, replay: Vec<Arc<Change>>, mut last_rv: u64) -> Option<u64> {
        for change in replay {
            if !self.deliver(&change).await {
                return None;
            }
            last_rv = last_rv.max(change.rv);
        }
        Some(last_rv)
    }

    /// Live changes (and bookmarks, when asked) until the watch's time is up, the watches
    /// are ended (a simulated restart), it falls behind (410) or the watcher goes.
    async fn follow(
        &self,
        mut live: broadcast::Receiver<Arc<Change>>,
        mut epoch: tokio::sync::watch::Receiver<u64>,
        mut last_rv: u64,
    ) {
        let deadline = tokio::time::sleep(self.timeout);
        tokio::pin!(deadline);
        let mut ticker = tokio::time::interval(self.interval);
        ticker.tick().await;
        loop {
            tokio::select! {
                received = live.recv() => match received {
                    Ok(change) => {
                        // A change made after the watches were ended (a simulated restart) is
                        // not this watch's to deliver.
                        if epoch.has_changed().unwrap_or(true) {
                            return;
                        }
                        if change.rv <= last_rv {
                            continue;
                        }
                        last_rv = change.rv;
                        if !self.deliver(&change).await {
                            return;
                        }
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        let gone = ApiError::gone(format!("too old resource version: {last_rv}; the watcher fell behind"));
                        let _ = self.sender.send(Ok(event_line("ERROR", &gone.status()))).await;
                        return;
                    }
                    Err(broadcast::error::RecvError::Closed) => return,
                },
                _ = ticker.tick(), if self.bookmarks => {
                    let bookmark = json!({
                        "kind": self.resource.kind,
                        "apiVersion": self.resource.api_version(),
                        "metadata": {"resourceVersion": last_rv.to_string()},
                    });
                    if self.sender.send(Ok(event_line("BOOKMARK", &bookmark))).await.is_err() {
                        return;
                    }
                }
                _ = &mut deadline => return,
                _ = epoch.changed() => return,
                _ = self.sender.closed() => return,
            }
        }
    }

    /// One change, if this watch shows it; false when the watcher is gone.
    async fn deliver(&self, change: &Change) -> bool {
        deliver(
            &self.sender,
            change,
            &self.resource,
            &self.filters,
            self.as_table,
        )
        .await
    }
}
