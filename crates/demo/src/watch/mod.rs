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

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{StatusCode, header};
use axum::response::Response;
use chrono::Utc;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

use super::api::{Filters, Server, error};
use super::registry::Resource;
use super::store::{ApiError, Change, ChangeKind};
use super::table;

mod stream;
use stream::Watching;

/// Writes one watch event, `{"type":…,"object":…}` and a newline, at the end of `line`: by
/// hand, as a list's items are, so the object is serialized where it lies instead of cloned
/// into a wrapping value first (a watch-list of 10,000 pools would clone every one).
fn write_event(line: &mut Vec<u8>, kind: &str, object: &Value) {
    line.extend_from_slice(br#"{"type":"#);
    let _ = serde_json::to_writer(&mut *line, kind);
    line.extend_from_slice(br#","object":"#);
    let _ = serde_json::to_writer(&mut *line, object);
    line.extend_from_slice(b"}\n");
}

/// An object as a watcher asked for it: itself (borrowed, not copied), or as a Table.
fn render<'a>(object: &'a Value, resource: &Resource, as_table: bool) -> Cow<'a, Value> {
    if !as_table {
        return Cow::Borrowed(object);
    }
    let rv = object
        .pointer("/metadata/resourceVersion")
        .and_then(Value::as_str)
        .unwrap_or("");
    Cow::Owned(table::table(resource, &[object], rv, Utc::now(), true))
}

fn event_line(kind: &str, object: &Value) -> Bytes {
    let mut line = Vec::new();
    write_event(&mut line, kind, object);
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
    as_table: bool,
) -> bool {
    match visible(change, resource, filters) {
        Some(kind) => sender
            .send(Ok(event_line(
                kind,
                &render(&change.object, resource, as_table),
            )))
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
    let since = match since_of(params) {
        Ok(since) => since,
        Err(e) => return error(&e),
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
    if server.store.is_closing() {
        return error(&ApiError::new(
            503,
            "ServiceUnavailable",
            "the server is shutting down",
        ));
    }
    let from = match from_of(server, since, begins) {
        Ok(from) => from,
        Err(e) => return error(&e),
    };
    let pace = server.pace;
    match server.store.watch(&resource, from) {
        Err(gone) => {
            // As the API server does: the watch opens, says 410 Gone, and ends.
            let _ = sender.try_send(Ok(event_line("ERROR", &gone.status())));
        }
        Ok(super::store::WatchStart {
            replay,
            live,
            start,
        }) => {
            let count = |counter: &std::sync::atomic::AtomicU64| {
                counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            };
            count(&server.watches_opened);
            if initial {
                count(&server.watch_lists_served);
            }
            let watching = Watching {
                sender,
                resource,
                filters,
                as_table,
                pace,
                bookmarks,
                timeout,
                interval: server.bookmark_interval,
            };
            let epoch = server.store.subscribe_epoch();
            tokio::spawn(watching.stream(initial, replay, live, start, epoch));
        }
    }
    Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::CACHE_CONTROL, "no-cache, private")
        .body(Body::from_stream(ReceiverStream::new(receiver)))
        .unwrap_or_default()
}

/// The resourceVersion a watch names, if any; one that is no number is refused.
fn since_of(params: &HashMap<String, String>) -> Result<Option<u64>, ApiError> {
    match params.get("resourceVersion").filter(|v| !v.is_empty()) {
        None => Ok(None),
        Some(v) => v
            .parse::<u64>()
            .map(Some)
            .map_err(|_| ApiError::bad_request(format!("invalid resourceVersion {v:?}"))),
    }
}

/// Where the watch starts: a watch-list from the current objects, whatever version it names
/// (the demo's store is always at least as new as any version it issued); a version it
/// never issued is refused as a watch from it would be.
fn from_of(server: &Server, since: Option<u64>, begins: Start) -> Result<Option<u64>, ApiError> {
    match since {
        Some(rv) if begins != Start::Plain && rv > server.store.resource_version() => {
            Err(ApiError::new(
                504,
                "Timeout",
                format!(
                    "Too large resource version: {rv}, current: {}",
                    server.store.resource_version()
                ),
            ))
        }
        _ if begins == Start::Initial => Ok(None),
        // No initial events: from the version named, or from now.
        Some(rv) if begins == Start::WithoutInitial => Ok(Some(rv)),
        _ if begins == Start::WithoutInitial => Ok(Some(server.store.resource_version())),
        since => Ok(since),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    /// Any JSON value, nested a few levels, with text that needs escaping.
    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(Value::from),
            any::<String>().prop_map(Value::from),
            Just(Value::from("\"\\\n\u{1b}[31m\u{202e}")),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
                prop::collection::vec((any::<String>(), inner), 0..4)
                    .prop_map(|entries| Value::Object(entries.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// An event written by hand is, byte for byte, the event serialized from a value
        /// wrapping the object: what watchers read is unchanged, only the copy is gone.
        #[test]
        fn an_event_written_by_hand_is_the_wrapped_events_json(
            object in value(),
            kind in prop_oneof![
                Just("ADDED"), Just("MODIFIED"), Just("DELETED"), Just("BOOKMARK"), Just("ERROR")
            ],
        ) {
            let mut wrapped = serde_json::to_vec(&json!({"type": kind, "object": &object}))
                .expect("a value serializes");
            wrapped.push(b'\n');
            let mut line = b"earlier events\n".to_vec();
            write_event(&mut line, kind, &object);
            prop_assert_eq!(&line[b"earlier events\n".len()..], &wrapped[..]);
            prop_assert_eq!(&event_line(kind, &object)[..], &wrapped[..]);
        }
    }
}
