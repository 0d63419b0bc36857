//! Watch streams: replay from a resourceVersion (or the current state), then live changes,
//! filtered by namespace and selectors (entering a filter reads as ADDED, leaving it as
//! DELETED), with bookmarks, timeouts, Tables, and 410 Gone when the version is too old or the
//! watcher falls behind.
//!
//! A watch-list (`sendInitialEvents=true`, `resourceVersionMatch=NotOlderThan`,
//! `allowWatchBookmarks=true`) is served as a server with the WatchList feature serves it: the
//! current objects as ADDED events, paced as a list is, then a bookmark annotated
//! `k8s.io/initial-events-end`, then the live changes (those made meanwhile kept for it); a
//! server without the feature refuses it with 422 Invalid, as one with the WatchList gate off
//! (or older than 1.27) does.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{StatusCode, header};
use axum::response::Response;
use chrono::Utc;
use serde_json::{Value, json};
use tokio::sync::{broadcast, mpsc};
use tokio_stream::wrappers::ReceiverStream;

use super::api::{Filters, Server, error};
use super::registry::Resource;
use super::store::{ApiError, Change, ChangeKind};
use super::table;

fn event_line(kind: &str, object: &Value) -> Bytes {
    let mut line = serde_json::to_vec(&json!({"type": kind, "object": object})).unwrap_or_default();
    line.push(b'\n');
    Bytes::from(line)
}

/// What a watcher sees of a change, given its filters: entering the filter is ADDED, leaving
/// it is DELETED.
fn visible(change: &Change, resource: &Resource, filters: &Filters) -> Option<&'static str> {
    if change.resource != resource.qualified() {
        return None;
    }
    let now = filters.matches(&change.object);
    let before = change
        .previous
        .as_deref()
        .is_some_and(|p| filters.matches(p));
    match change.kind {
        ChangeKind::Added if now => Some("ADDED"),
        ChangeKind::Deleted if now || before => Some("DELETED"),
        ChangeKind::Modified if now && before => Some("MODIFIED"),
        ChangeKind::Modified if now => Some("ADDED"),
        ChangeKind::Modified if before => Some("DELETED"),
        _ => None,
    }
}

/// The annotation of the bookmark that ends a watch-list's initial events.
pub const INITIAL_EVENTS_END: &str = "k8s.io/initial-events-end";

/// What a watch asks of its start: its initial events (a watch-list), none (from the version
/// named, or from now), or the history after the version named (a plain watch).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Start {
    Initial,
    WithoutInitial,
    Plain,
}

/// How the watch starts, its options checked as the API server checks a watch's; the refusal
/// as it words it.
fn start_of(server: &Server, params: &HashMap<String, String>) -> Result<Start, ApiError> {
    let asked = params.get("sendInitialEvents").map(String::as_str);
    let version_match = params
        .get("resourceVersionMatch")
        .map(String::as_str)
        .filter(|m| !m.is_empty());
    if asked == Some("true") {
        server
            .watch_lists_asked
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }
    let invalid = |field: &str, why: &str| {
        ApiError::new(
            422,
            "Invalid",
            format!("ListOptions.meta.k8s.io \"\" is invalid: {field}: Forbidden: {why}"),
        )
    };
    let Some(asked) = asked else {
        return match version_match {
            Some(_) => Err(invalid(
                "resourceVersionMatch",
                "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
            )),
            None => Ok(Start::Plain),
        };
    };
    if !server.watch_list {
        return Err(invalid(
            "sendInitialEvents",
            "sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled",
        ));
    }
    if version_match != Some("NotOlderThan") {
        return Err(invalid(
            "resourceVersionMatch",
            "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
        ));
    }
    if params
        .get("allowWatchBookmarks")
        .is_none_or(|v| v != "true")
    {
        return Err(invalid(
            "allowWatchBookmarks",
            "sendInitialEvents requires setting allowWatchBookmarks to true",
        ));
    }
    match asked {
        "true" => Ok(Start::Initial),
        "false" => Ok(Start::WithoutInitial),
        other => Err(ApiError::bad_request(format!(
            "invalid sendInitialEvents {other:?}: true or false"
        ))),
    }
}

/// The initial events of a watch-list, gathered into chunks of about this many bytes, each
/// sent when the server's pace allows (as a list's body is).
const CHUNK: usize = 64 * 1024;

/// Sends a change as the watcher sees it through its filters (nothing when it does not);
/// false when the watcher is gone.
async fn deliver(
    sender: &mpsc::Sender<Result<Bytes, std::convert::Infallible>>,
    change: &Change,
    resource: &Resource,
    filters: &Filters,
    render: &(impl Fn(&Value, &Resource) -> Value + Sync),
) -> bool {
    match visible(change, resource, filters) {
        Some(kind) => sender
            .send(Ok(event_line(kind, &render(&change.object, resource))))
            .await
            .is_ok(),
        None => true,
    }
}

/// Sends a chunk of initial events once the pace allows its objects and bytes; false when
/// the watcher is gone.
async fn send_paced(
    sender: &mpsc::Sender<Result<Bytes, std::convert::Infallible>>,
    pace: Option<crate::pace::Pace>,
    chunk: &mut Vec<u8>,
    objects: &mut usize,
) -> bool {
    if chunk.is_empty() {
        return true;
    }
    if let Some(pace) = pace {
        tokio::time::sleep(pace.time_for(*objects, chunk.len())).await;
    }
    *objects = 0;
    let bytes = Bytes::from(std::mem::replace(chunk, Vec::with_capacity(CHUNK + 8192)));
    sender.send(Ok(bytes)).await.is_ok()
}

pub(crate) fn watch(
    server: &Arc<Server>,
    resource: Resource,
    namespace: Option<String>,
    params: &HashMap<String, String>,
    as_table: bool,
) -> Response {
    let filters = match Filters::parse(&resource, namespace.filter(|_| resource.namespaced), params)
    {
        Ok(f) => f,
        Err(e) => return error(&e),
    };
    let begins = match start_of(server, params) {
        Ok(begins) => begins,
        Err(e) => return error(&e),
    };
    let initial = begins == Start::Initial;
    let since = match params.get("resourceVersion").filter(|v| !v.is_empty()) {
        None => None,
        Some(v) => match v.parse::<u64>() {
            Ok(rv) => Some(rv),
            Err(_) => {
                return error(&ApiError::bad_request(format!(
                    "invalid resourceVersion {v:?}"
                )));
            }
        },
    };
    let bookmarks = params
        .get("allowWatchBookmarks")
        .is_some_and(|v| v == "true");
    let timeout = params
        .get("timeoutSeconds")
        .and_then(|t| t.parse::<u64>().ok())
        .map(Duration::from_secs)
        .unwrap_or(Duration::from_secs(1800));
    let (sender, receiver) = mpsc::channel::<Result<Bytes, std::convert::Infallible>>(256);
    let render = move |object: &Value, resource: &Resource| -> Value {
        if as_table {
            let rv = object
                .pointer("/metadata/resourceVersion")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned();
            table::table(resource, &[object], &rv, Utc::now(), true)
        } else {
            object.clone()
        }
    };
    if server.store.is_closing() {
        return error(&ApiError::new(
            503,
            "ServiceUnavailable",
            "the server is shutting down",
        ));
    }
    // A watch-list starts from the current objects, whatever version it names (the demo's
    // store is always at least as new as any version it issued); a version it never issued is
    // refused as a watch from it would be.
    let from = match since {
        Some(rv) if begins != Start::Plain && rv > server.store.resource_version() => {
            return error(&ApiError::new(
                504,
                "Timeout",
                format!(
                    "Too large resource version: {rv}, current: {}",
                    server.store.resource_version()
                ),
            ));
        }
        _ if initial => None,
        // No initial events: from the version named, or from now.
        Some(rv) if begins == Start::WithoutInitial => Some(rv),
        _ if begins == Start::WithoutInitial => Some(server.store.resource_version()),
        since => since,
    };
    let pace = server.pace;
    match server.store.watch(&resource, from) {
        Err(gone) => {
            // As the API server does: the watch opens, says 410 Gone, and ends.
            let _ = sender.try_send(Ok(event_line("ERROR", &gone.status())));
        }
        Ok(super::store::WatchStart {
            replay,
            mut live,
            start,
        }) => {
            let count = |counter: &std::sync::atomic::AtomicU64| {
                counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            };
            count(&server.watches_opened);
            if initial {
                count(&server.watch_lists_served);
            }
            let mut epoch = server.store.subscribe_epoch();
            let interval = server.bookmark_interval;
            tokio::spawn(async move {
                let mut last_rv = start;
                // Changes made while the initial events go out (paced, they take a while),
                // kept so the watcher does not fall behind the broadcast meanwhile.
                let mut meanwhile = Vec::new();
                if initial {
                    let mut chunk = Vec::with_capacity(CHUNK + 8192);
                    let mut objects = 0;
                    for change in replay {
                        if visible(&change, &resource, &filters).is_some() {
                            chunk.extend_from_slice(&event_line(
                                "ADDED",
                                &render(&change.object, &resource),
                            ));
                            objects += 1;
                        }
                        if chunk.len() >= CHUNK {
                            if !send_paced(&sender, pace, &mut chunk, &mut objects).await {
                                return;
                            }
                            while let Ok(change) = live.try_recv() {
                                meanwhile.push(change);
                            }
                        }
                    }
                    let end = json!({
                        "kind": resource.kind,
                        "apiVersion": resource.api_version(),
                        "metadata": {
                            "resourceVersion": last_rv.to_string(),
                            "annotations": {INITIAL_EVENTS_END: "true"},
                        },
                    });
                    chunk.extend_from_slice(&event_line("BOOKMARK", &end));
                    if !send_paced(&sender, pace, &mut chunk, &mut objects).await {
                        return;
                    }
                    for change in meanwhile {
                        if change.rv <= last_rv {
                            continue;
                        }
                        last_rv = change.rv;
                        if !deliver(&sender, &change, &resource, &filters, &render).await {
                            return;
                        }
                    }
                } else {
                    for change in replay {
                        if !deliver(&sender, &change, &resource, &filters, &render).await {
                            return;
                        }
                        last_rv = last_rv.max(change.rv);
                    }
                }
                let deadline = tokio::time::sleep(timeout);
                tokio::pin!(deadline);
                let mut ticker = tokio::time::interval(interval);
                ticker.tick().await;
                loop {
                    tokio::select! {
                        received = live.recv() => match received {
                            Ok(change) => {
                                // A change made after the watches were ended (a simulated
                                // restart) is not this watch's to deliver.
                                if epoch.has_changed().unwrap_or(true) {
                                    return;
                                }
                                if change.rv <= last_rv {
                                    continue;
                                }
                                last_rv = change.rv;
                                if !deliver(&sender, &change, &resource, &filters, &render).await {
                                    return;
                                }
                            }
                            Err(broadcast::error::RecvError::Lagged(_)) => {
                                let gone = ApiError::gone(format!("too old resource version: {last_rv}; the watcher fell behind"));
                                let _ = sender.send(Ok(event_line("ERROR", &gone.status()))).await;
                                return;
                            }
                            Err(broadcast::error::RecvError::Closed) => return,
                        },
                        _ = ticker.tick(), if bookmarks => {
                            let bookmark = json!({
                                "kind": resource.kind,
                                "apiVersion": resource.api_version(),
                                "metadata": {"resourceVersion": last_rv.to_string()},
                            });
                            if sender.send(Ok(event_line("BOOKMARK", &bookmark))).await.is_err() {
                                return;
                            }
                        }
                        _ = &mut deadline => return,
                        _ = epoch.changed() => return,
                        _ = sender.closed() => return,
                    }
                }
            });
        }
    }
    Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::CACHE_CONTROL, "no-cache, private")
        .body(Body::from_stream(ReceiverStream::new(receiver)))
        .unwrap_or_default()
}
