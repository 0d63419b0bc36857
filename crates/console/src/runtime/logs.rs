//! The hue controller's log, followed through kube-rs: its pods found as the troubleshooting
//! guide finds them (in `mural-system` by `controller.spectrocloud.com/name=hue-controllers`,
//! else any deployment named like hue, by its selector), each pod's log streamed with follow,
//! lines handed on in the batches they arrive in. What cannot be read is said, not raised.

use std::sync::Arc;

use futures::{AsyncBufRead, AsyncBufReadExt, Stream, StreamExt};
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, ListParams, LogParams};

use crate::app::logs::{LogEnd, LogEvent, LogFailure, TAIL};
use crate::app::ports::LogSink;
use crate::domain::ClusterError;
use crate::sources::errors::classify;

pub use crate::app::logs::{NAMESPACE, SELECTOR};

/// Why the controller's log's end could not be read.
#[derive(Debug, thiserror::Error)]
pub enum Unread {
    #[error("{0}")]
    Failed(LogFailure),
    #[error("no answer within {}", crate::domain::duration::format(*.0))]
    NoAnswer(std::time::Duration),
}

/// [`tail`] within `limit`.
pub async fn tail_within(
    client: kube::Client,
    lines: u32,
    limit: std::time::Duration,
) -> Result<Vec<String>, Unread> {
    match tokio::time::timeout(limit, tail(client, lines)).await {
        Ok(read) => read.map_err(Unread::Failed),
        Err(_) => Err(Unread::NoAnswer(limit)),
    }
}

/// The most of a pod's log [`tail`] reads.
pub const TAIL_BYTES: i64 = 4 * 1024 * 1024;

/// Lines of one read handed on together at most.
const BATCH: usize = 512;

/// The most of one line kept: a longer one is cut, marked, and the rest of it skipped, so a
/// single 400 MB line never sits in memory.
pub const LINE_AT_MOST: usize = 16 * 1024;

/// A log's lines, each decoded leniently (an invalid byte becomes U+FFFD rather than ending
/// the stream) and at most [`LINE_AT_MOST`] bytes long.
fn bounded_lines<R: AsyncBufRead + Unpin>(
    reader: R,
) -> impl Stream<Item = std::io::Result<String>> {
    futures::stream::unfold((reader, false), |(mut reader, ended)| async move {
        if ended {
            return None;
        }
        let mut kept: Vec<u8> = Vec::new();
        let mut cut = false;
        loop {
            let available = match reader.fill_buf().await {
                Ok(bytes) => bytes,
                Err(e) => return Some((Err(e), (reader, true))),
            };
            if available.is_empty() {
                if kept.is_empty() && !cut {
                    return None;
                }
                return Some((Ok(line_of(&kept, cut)), (reader, true)));
            }
            let newline = available.iter().position(|b| *b == b'\n');
            let chunk = &available[..newline.unwrap_or(available.len())];
            let room = LINE_AT_MOST.saturating_sub(kept.len());
            if chunk.len() > room {
                cut = true;
            }
            kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
            let used = newline.map_or(available.len(), |at| at + 1);
            reader.consume_unpin(used);
            if newline.is_some() {
                return Some((Ok(line_of(&kept, cut)), (reader, false)));
            }
        }
    })
}

fn line_of(bytes: &[u8], cut: bool) -> String {
    let mut text = String::from_utf8_lossy(bytes).into_owned();
    if text.ends_with('\r') {
        text.pop();
    }
    if cut {
        text.push_str(" … (line cut at 16 KiB)");
    }
    text
}

/// A step of finding the pods refused, typed; `None` when what it looked for is just not
/// there (the next step may find it).
fn refused(error: &kube::Error, what: &str, needs: &str) -> Option<LogFailure> {
    match classify(error) {
        ClusterError::NotFound { .. } => None,
        error => Some(LogFailure::Refused {
            what: what.to_owned(),
            needs: needs.to_owned(),
            error,
        }),
    }
}

/// The controller's namespace, its pods and how they were found.
pub async fn find(client: &kube::Client) -> Result<(String, Vec<String>, String), LogFailure> {
    let names = |list: kube::core::ObjectList<Pod>| -> Vec<String> {
        list.items
            .into_iter()
            .filter_map(|p| p.metadata.name)
            .collect()
    };
    let pods: Api<Pod> = Api::namespaced(client.clone(), NAMESPACE);
    match pods.list(&ListParams::default().labels(SELECTOR)).await {
        Ok(list) if !list.items.is_empty() => {
            return Ok((
                NAMESPACE.to_owned(),
                names(list),
                format!("{NAMESPACE}, {SELECTOR}"),
            ));
        }
        Ok(_) => {}
        Err(e) => {
            if let Some(why) = refused(
                &e,
                &format!("list pods in {NAMESPACE}"),
                "list on pods and get on pods/log",
            ) {
                return Err(why);
            }
        }
    }
    // The guide's fallback: a deployment named like hue, anywhere.
    let deployments: Api<Deployment> = Api::all(client.clone());
    // Only those named like hue are kept (the list is read in pages).
    let mut named_hue = Vec::new();
    let every = ListParams::default();
    let read = crate::cluster::list_in_pages(&deployments, &every, |d| {
        let name = d.metadata.name.as_deref().unwrap_or_default();
        if name.to_lowercase().contains("hue") {
            named_hue.push(d);
        }
    });
    let listed = match read.await {
        Ok(()) => named_hue,
        Err(e) => match refused(
            &e,
            "list deployments",
            "list on deployments in every namespace",
        ) {
            Some(why) => {
                return Err(LogFailure::NoLabelledPods {
                    fallback: Box::new(why),
                });
            }
            None => Vec::new(),
        },
    };
    for deployment in listed {
        let name = deployment.metadata.name.clone().unwrap_or_default();
        let namespace = deployment.metadata.namespace.clone().unwrap_or_default();
        let labels = deployment.spec.selector.match_labels.unwrap_or_default();
        if labels.is_empty() {
            continue;
        }
        let selector: Vec<String> = labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let selector = selector.join(",");
        let pods: Api<Pod> = Api::namespaced(client.clone(), &namespace);
        if let Ok(list) = pods.list(&ListParams::default().labels(&selector)).await
            && !list.items.is_empty()
        {
            return Ok((
                namespace.clone(),
                names(list),
                format!("deployment {namespace}/{name}, {selector}"),
            ));
        }
    }
    Err(LogFailure::NoControllerPods)
}

/// Follows every controller pod's log until the task is stopped.
pub async fn follow(client: kube::Client, sink: LogSink) {
    let sink = Arc::new(sink);
    let (namespace, pods, found) = match find(&client).await {
        Ok(found) => found,
        Err(why) => {
            sink(LogEvent::Failed(why)).await;
            return;
        }
    };
    sink(LogEvent::Started {
        pods: pods.clone(),
        found,
    })
    .await;
    let api: Api<Pod> = Api::namespaced(client, &namespace);
    let mut streams = tokio::task::JoinSet::new();
    for pod in pods {
        let (api, sink) = (api.clone(), sink.clone());
        streams.spawn(async move { one(api, pod, sink).await });
    }
    while streams.join_next().await.is_some() {}
}

/// The last `lines` lines of each controller pod's log, read once and each dated by the
/// server (a pod whose log cannot be read is passed over); why none can be read at all. At
/// most `lines` lines and [`TAIL_BYTES`] of each pod, whatever the server sends.
pub async fn tail(client: kube::Client, lines: u32) -> Result<Vec<String>, LogFailure> {
    let (namespace, pods, _) = find(&client).await?;
    let api: Api<Pod> = Api::namespaced(client, &namespace);
    let params = LogParams {
        tail_lines: Some(i64::from(lines)),
        limit_bytes: Some(TAIL_BYTES),
        timestamps: true,
        ..LogParams::default()
    };
    let mut out = Vec::new();
    let mut failure = None;
    for pod in pods {
        match api.log_stream(&pod, &params).await {
            Ok(reader) => {
                let read = bounded_lines(reader).take(lines as usize);
                let read: Vec<std::io::Result<String>> = read.collect().await;
                out.extend(read.into_iter().map_while(Result::ok));
            }
            Err(e) => {
                failure = refused(&e, &format!("read the log of pod {pod}"), "get on pods/log");
            }
        }
    }
    match (out.is_empty(), failure) {
        (true, Some(why)) => Err(why),
        _ => Ok(out),
    }
}

/// The last `lines` lines of one pod's log as it wrote them, at most [`TAIL_BYTES`].
pub async fn tail_of_pod(
    client: kube::Client,
    namespace: &str,
    pod: &str,
    lines: u32,
) -> Result<Vec<String>, ClusterError> {
    let api: Api<Pod> = Api::namespaced(client, namespace);
    let params = LogParams {
        tail_lines: Some(i64::from(lines)),
        limit_bytes: Some(TAIL_BYTES),
        ..LogParams::default()
    };
    let reader = api
        .log_stream(pod, &params)
        .await
        .map_err(|e| classify(&e))?;
    let read: Vec<std::io::Result<String>> =
        bounded_lines(reader).take(lines as usize).collect().await;
    Ok(read.into_iter().map_while(Result::ok).collect())
}

async fn one(api: Api<Pod>, pod: String, sink: Arc<LogSink>) {
    let params = LogParams {
        follow: true,
        tail_lines: Some(i64::from(TAIL)),
        ..LogParams::default()
    };
    let reader = match api.log_stream(&pod, &params).await {
        Ok(reader) => reader,
        Err(e) => {
            sink(LogEvent::Ended {
                pod,
                reason: LogEnd::Error(classify(&e)),
            })
            .await;
            return;
        }
    };
    let mut batches = Box::pin(bounded_lines(reader)).ready_chunks(BATCH);
    while let Some(batch) = batches.next().await {
        let mut lines = Vec::with_capacity(batch.len());
        let mut failure = None;
        for line in batch {
            match line {
                Ok(line) => lines.push(line),
                Err(e) => failure = Some(e.to_string()),
            }
        }
        if !lines.is_empty() {
            sink(LogEvent::Lines {
                pod: pod.clone(),
                lines,
            })
            .await;
        }
        if let Some(reason) = failure {
            sink(LogEvent::Ended {
                pod,
                reason: LogEnd::Unreadable(reason),
            })
            .await;
            return;
        }
    }
    sink(LogEvent::Ended {
        pod,
        reason: LogEnd::Closed,
    })
    .await;
}

#[cfg(test)]
#[path = "logs_tests.rs"]
mod tests;
