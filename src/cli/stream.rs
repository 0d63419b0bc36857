//! `get pools|evaluations|projects -o json` without a name: the objects go out as the server
//! sends them, page by page (`limit`/`continue`), each written as soon as its page is read,
//! never the whole list held. The objects are the server's own, as kubectl prints them.

use std::io::Write;
use std::process::ExitCode;

use serde_json::Value;

use crate::app::ports::Namespaces;
use crate::domain::Kind;
use crate::sources::connection::Connection;

/// Objects asked for at a time.
const PAGE: usize = 500;

/// The path of a kind's list, in a namespace or across all.
fn path(kind: Kind, namespace: Option<&str>) -> String {
    let api = kind.api();
    let base = if api.group.is_empty() {
        format!("/api/{}", api.version)
    } else {
        format!("/apis/{}/{}", api.group, api.version)
    };
    match namespace.filter(|_| api.namespaced) {
        Some(ns) => format!("{base}/namespaces/{ns}/{}", api.plural),
        None => format!("{base}/{}", api.plural),
    }
}

/// One item of the List, indented as `to_writer_pretty` nests it.
fn write_item(out: &mut impl Write, item: &Value, first: bool) -> std::io::Result<()> {
    let text = serde_json::to_string_pretty(item).map_err(std::io::Error::other)?;
    out.write_all(if first { b"\n" } else { b",\n" })?;
    for (i, line) in text.lines().enumerate() {
        if i > 0 {
            out.write_all(b"\n")?;
        }
        out.write_all(b"    ")?;
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}

fn page_url(base: &str, token: Option<&str>) -> String {
    let mut url = format!("{base}?limit={PAGE}");
    if let Some(token) = token {
        url.push_str("&continue=");
        url.extend(form_urlencoded::byte_serialize(token.as_bytes()));
    }
    url
}

/// One page, read as JSON; the error in the operator's words.
async fn fetch(client: kube::Client, url: String) -> Result<Value, String> {
    let request = axum::http::Request::get(&url)
        .body(Vec::new())
        .map_err(|e| format!("cannot ask for {url}: {e}"))?;
    let text = client
        .request_text(request)
        .await
        .map_err(|e| crate::sources::errors::classify(&e).to_string())?;
    serde_json::from_str(&text).map_err(|e| format!("the server's answer is not JSON: {e}"))
}

/// Lists `kind` in pages and writes the List as the pages come. Exit 1 when the cluster
/// cannot be read (said on stderr, as `get` says it).
pub async fn list_json(connection: &Connection, kind: Kind, namespaces: &Namespaces) -> ExitCode {
    let scopes: Vec<Option<String>> = match namespaces {
        Namespaces::All => vec![None],
        Namespaces::Only(list) => list.iter().map(|ns| Some(ns.clone())).collect(),
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut first = true;
    let written = (|| -> std::io::Result<()> {
        out.write_all(b"{\n  \"apiVersion\": \"v1\",\n  \"items\": [")?;
        Ok(())
    })();
    if let Err(e) = written {
        return closed_or_failed(e);
    }
    let api = kind.api();
    let api_version = if api.group.is_empty() {
        api.version.to_owned()
    } else {
        format!("{}/{}", api.group, api.version)
    };
    for scope in scopes {
        let base = path(kind, scope.as_deref());
        // The next page is asked for while this one is written.
        let mut next = Some(tokio::spawn(fetch(
            connection.client.clone(),
            page_url(&base, None),
        )));
        while let Some(pending) = next.take() {
            let page = match pending.await {
                Ok(Ok(page)) => page,
                Ok(Err(why)) => {
                    eprintln!("pooldeck: {}: {why}", kind.resource_name());
                    return ExitCode::from(1);
                }
                Err(e) => {
                    eprintln!("pooldeck: {}: {e}", kind.resource_name());
                    return ExitCode::from(1);
                }
            };
            if let Some(token) = page["metadata"]["continue"]
                .as_str()
                .filter(|t| !t.is_empty())
            {
                next = Some(tokio::spawn(fetch(
                    connection.client.clone(),
                    page_url(&base, Some(token)),
                )));
            }
            for item in page["items"].as_array().into_iter().flatten() {
                // Items of a list may come without their kind; kubectl writes it back.
                let mut item = item.clone();
                if let Some(map) = item.as_object_mut() {
                    map.entry("apiVersion")
                        .or_insert_with(|| Value::from(api_version.clone()));
                    map.entry("kind").or_insert_with(|| Value::from(api.kind));
                }
                if let Err(e) = write_item(&mut out, &item, first) {
                    return closed_or_failed(e);
                }
                first = false;
            }
        }
    }
    let end: &[u8] = if first {
        b"],\n  \"kind\": \"List\",\n  \"metadata\": {\n    \"resourceVersion\": \"\"\n  }\n}\n"
    } else {
        b"\n  ],\n  \"kind\": \"List\",\n  \"metadata\": {\n    \"resourceVersion\": \"\"\n  }\n}\n"
    };
    if let Err(e) = out.write_all(end).and_then(|()| out.flush()) {
        return closed_or_failed(e);
    }
    ExitCode::SUCCESS
}

/// A closed pipe (`| head`) ends quietly; another write error is said.
fn closed_or_failed(e: std::io::Error) -> ExitCode {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return ExitCode::SUCCESS;
    }
    eprintln!("pooldeck: cannot write: {e}");
    ExitCode::from(1)
}
