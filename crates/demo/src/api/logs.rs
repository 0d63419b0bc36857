//! `GET /api/v1/namespaces/{namespace}/pods/{name}/log`: a pod's log as text, as the API
//! server answers it (`tailLines`, `sinceSeconds`, `limitBytes`, `follow`). Only the demo's
//! hue controller pod has a log (see `demo::logs`); other pods answer with an empty one.

use std::sync::Arc;

use axum::Extension;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{Uri, header};
use axum::response::Response;
use chrono::Utc;

use super::{Server, User, error, query};
use crate::logs;
use crate::status::ApiError;

/// What a log request asks: its last lines, its age, its size, and whether it follows.
struct LogQuery {
    tail: Option<u64>,
    since: Option<u64>,
    limit: Option<u64>,
    follow: bool,
}

impl LogQuery {
    /// Read from the request's query, as the API server reads it: a number that is not one
    /// is refused.
    fn read(uri: &Uri) -> Result<LogQuery, ApiError> {
        let params = query(uri);
        let number = |key: &str| -> Result<Option<u64>, ApiError> {
            match params.get(key) {
                None => Ok(None),
                Some(text) => text.parse::<u64>().map(Some).map_err(|_| {
                    ApiError::bad_request(format!(
                        "{key}: \"{text}\" is not a whole number of 0 or more"
                    ))
                }),
            }
        };
        Ok(LogQuery {
            tail: number("tailLines")?,
            since: number("sinceSeconds")?,
            limit: number("limitBytes")?,
            follow: params
                .get("follow")
                .is_some_and(|v| v == "true" || v == "1"),
        })
    }
}

/// The log's lines since `since` seconds ago, the last `tail` of them, cut to `limit` bytes
/// (on a character's boundary).
fn trimmed(
    mut lines: Vec<String>,
    since: Option<u64>,
    tail: Option<u64>,
    limit: Option<u64>,
    now: chrono::DateTime<Utc>,
) -> String {
    if let Some(seconds) = since {
        let from = now - chrono::TimeDelta::seconds(seconds.min(i64::MAX as u64) as i64);
        lines.retain(|l| {
            l.split('\t')
                .next()
                .and_then(|t| chrono::DateTime::parse_from_rfc3339(t).ok())
                .is_none_or(|t| t >= from)
        });
    }
    if let Some(tail) = tail {
        let keep = usize::try_from(tail).unwrap_or(usize::MAX);
        let skip = lines.len().saturating_sub(keep);
        lines.drain(..skip);
    }
    let mut text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    if let Some(limit) = limit {
        let limit = usize::try_from(limit).unwrap_or(usize::MAX);
        if text.len() > limit {
            let mut cut = limit;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            text.truncate(cut);
        }
    }
    text
}

pub(super) async fn pod_log(
    State(server): State<Arc<Server>>,
    Extension(user): Extension<User>,
    Path((_version, namespace, name)): Path<(String, String, String)>,
    uri: Uri,
) -> Response {
    let Some(pods) = server.store.registry.by_kind("Pod").cloned() else {
        return error(&ApiError::new(
            404,
            "NotFound",
            "the server could not find the requested resource",
        ));
    };
    if !user.may("get", "pods/log", Some(&namespace)) {
        // Refused as the API server refuses it: the subresource named.
        return error(&ApiError::new(
            403,
            "Forbidden",
            format!(
                "pods \"{name}\" is forbidden: User \"{}\" cannot get resource \"pods/log\" \
                 in API group \"\" in the namespace \"{namespace}\"",
                user.name()
            ),
        ));
    }
    if let Err(e) = server.store.get(&pods, &namespace, &name) {
        return error(&e);
    }
    let LogQuery {
        tail,
        since,
        limit,
        follow,
    } = match LogQuery::read(&uri) {
        Ok(asked) => asked,
        Err(e) => return error(&e),
    };
    let now = Utc::now();
    // A served bundle: the lines it carries, as they were taken; nothing follows.
    if let Some(frozen) = &server.frozen {
        let lines = frozen
            .logs
            .get(&(namespace, name))
            .cloned()
            .unwrap_or_default();
        return text_reply(Body::from(trimmed(lines, since, tail, limit, now)));
    }
    let ours = namespace == logs::NAMESPACE && name == logs::POD;
    let lines = if ours {
        let scripted = server
            .controller_logs
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone();
        logs::history(&scripted, &pools(&server), now)
    } else {
        Vec::new()
    };
    let text = trimmed(lines, since, tail, limit, now);
    let body = if follow && ours && limit.is_none() {
        Body::from_stream(followed(server.clone(), text))
    } else {
        Body::from(text)
    };
    text_reply(body)
}

fn text_reply(body: Body) -> Response {
    Response::builder()
        .status(200)
        .header(header::CONTENT_TYPE, "text/plain")
        .body(body)
        .unwrap_or_default()
}

/// Every pool the store holds now.
fn pools(server: &Server) -> Vec<Arc<serde_json::Value>> {
    server
        .store
        .registry
        .by_kind("ComputePool")
        .map(|r| server.store.objects(r))
        .unwrap_or_default()
}

/// The log so far, then a reconcile line every few seconds for the next pool, until the
/// server stops (or the client goes, which drops the stream).
fn followed(
    server: Arc<Server>,
    first: String,
) -> impl futures::Stream<Item = Result<String, std::convert::Infallible>> {
    futures::stream::unfold(
        (server, Some(first), 0usize),
        |(server, first, next)| async move {
            if let Some(first) = first {
                return Some((Ok(first), (server, None, next)));
            }
            tokio::time::sleep(logs::EVERY).await;
            if server.store.is_closing() {
                return None;
            }
            let pools = pools(&server);
            let text = match pools.get(next % pools.len().max(1)) {
                Some(pool) => logs::reconcile(pool, Utc::now()) + "\n",
                None => {
                    logs::line(Utc::now(), "DEBUG", "No ComputePools to reconcile", None) + "\n"
                }
            };
            Some((Ok(text), (server, None, next + 1)))
        },
    )
}
