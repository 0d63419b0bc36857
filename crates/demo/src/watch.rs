//! Watch streams: replay from a resourceVersion (or the current state), then live changes,
//! filtered by namespace and selectors (entering a filter reads as ADDED, leaving it as
//! DELETED), with bookmarks, timeouts, Tables, and 410 Gone when the version is too old or the
//! watcher falls behind.

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
    match server.store.watch(&resource, since) {
        Err(gone) => {
            // As the API server does: the watch opens, says 410 Gone, and ends.
            let _ = sender.try_send(Ok(event_line("ERROR", &gone.status())));
        }
        Ok(super::store::WatchStart {
            replay,
            mut live,
            start,
        }) => {
            let mut epoch = server.store.subscribe_epoch();
            let interval = server.bookmark_interval;
            tokio::spawn(async move {
                let mut last_rv = start;
                for change in replay {
                    if let Some(kind) = visible(&change, &resource, &filters)
                        && sender
                            .send(Ok(event_line(kind, &render(&change.object, &resource))))
                            .await
                            .is_err()
                    {
                        return;
                    }
                    last_rv = last_rv.max(change.rv);
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
                                if let Some(kind) = visible(&change, &resource, &filters)
                                    && sender.send(Ok(event_line(kind, &render(&change.object, &resource)))).await.is_err() {
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
