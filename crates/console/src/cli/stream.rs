//! `get pools|evaluations|projects -o json` without a name: the objects go out as the server
//! sends them, as a watch-list where the hub serves them (closed at the bookmark that ends its
//! objects) or page by page (`limit`/`continue`), each written as soon as it is read, never
//! the whole list held. The objects are the server's own, as kubectl prints them
//! (without `metadata.managedFields`, as kubectl leaves them out by default).

use std::io::Write;
use std::process::ExitCode;

use futures::StreamExt;
use kube::api::ListParams;
use kube::runtime::watcher::Event;
use serde_json::Value;

use crate::app::ports::Namespaces;
use crate::domain::Kind;
use crate::sources::connection::Connection;
use crate::sources::errors::code;
use crate::sources::objects::{Incoming, VALUE, Watched};
use crate::sources::ways::{PAGE, Way, Ways, api, cause, refuses_watch_lists, watch};

/// One item of the List, indented as `to_writer_pretty` nests it, straight into `out`.
fn write_item(
    out: &mut impl Write,
    item: &impl serde::Serialize,
    first: bool,
) -> std::io::Result<()> {
    out.write_all(if first { b"\n    " } else { b",\n    " })?;
    crate::domain::inert::write_json(out, item, 2)
}

/// An item of a List over several hubs: its hub and the object.
#[derive(serde::Serialize)]
struct OnHub<'a> {
    hub: &'a str,
    object: &'a Value,
}

/// Lists `kind` and writes the List as the objects come. Exit 1 when the cluster cannot be
/// read, or has not answered whole within `timeout` (said on stderr, as `get` says it).
pub async fn list_json(
    connection: &Connection,
    kind: Kind,
    namespaces: &Namespaces,
    timeout: std::time::Duration,
) -> ExitCode {
    list_json_of(&[(None, connection, namespaces.clone())], kind, timeout).await
}

/// [`list_json`] over several hubs, one after another into one List, each item wrapped with
/// its hub (`{"hub", "object"}`) when a hub is named: memory stays one page's whatever the
/// fleet. A hub whose list fails is said and the others written (exit 1 at the end).
pub async fn list_json_of(
    hubs: &[(Option<&str>, &Connection, Namespaces)],
    kind: Kind,
    timeout: std::time::Duration,
) -> ExitCode {
    let deadline = tokio::time::Instant::now() + timeout;
    let stdout = std::io::stdout();
    let mut out = List {
        out: std::io::BufWriter::with_capacity(1 << 16, stdout.lock()),
        first: true,
    };
    if let Err(e) = out
        .out
        .write_all(b"{\n  \"apiVersion\": \"v1\",\n  \"items\": [")
    {
        return closed_or_failed(e);
    }
    let mut failed = false;
    for (hub, connection, namespaces) in hubs {
        // Whether the hub serves watch-lists is learned from its first scope.
        let ways = Ways::default();
        let scopes: Vec<Option<String>> = match namespaces {
            Namespaces::All => vec![None],
            Namespaces::Only(list) => list.iter().map(|ns| Some(ns.clone())).collect(),
        };
        for scope in scopes {
            let listed = list_scope(&mut out, *hub, connection, kind, scope.as_deref(), &ways);
            match tokio::time::timeout_at(deadline, listed).await {
                Err(_) => {
                    crate::say::complain!(
                        "pooldeck: no complete answer from the server within {}",
                        crate::domain::duration::format(timeout)
                    );
                    return ExitCode::from(1);
                }
                Ok(Ok(())) => {}
                Ok(Err(Failure::Write(e))) => return closed_or_failed(e),
                // Read in pages by `list_scope`: never here.
                Ok(Err(Failure::Refused { .. })) => {}
                Ok(Err(Failure::List(e))) => {
                    if let Some(code) = failed_on(hub, kind, &e) {
                        return code;
                    }
                    failed = true;
                    break;
                }
            }
        }
    }
    let end: &[u8] = if out.first {
        b"],\n  \"kind\": \"List\",\n  \"metadata\": {\n    \"resourceVersion\": \"\"\n  }\n}\n"
    } else {
        b"\n  ],\n  \"kind\": \"List\",\n  \"metadata\": {\n    \"resourceVersion\": \"\"\n  }\n}\n"
    };
    if let Err(e) = out.out.write_all(end).and_then(|()| out.out.flush()) {
        return closed_or_failed(e);
    }
    if failed {
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

/// The List being written: its items so far.
struct List<W> {
    out: W,
    first: bool,
}

impl<W: Write> List<W> {
    /// One object of `kind` as the server sent it, wrapped with its hub when one is named.
    fn write(&mut self, hub: Option<&str>, object: Incoming, kind: Kind) -> Result<(), Failure> {
        let item = object.into_value(kind);
        let written = match hub {
            Some(hub) => write_item(&mut self.out, &OnHub { hub, object: &item }, self.first),
            None => write_item(&mut self.out, &item, self.first),
        };
        self.first = false;
        written.map_err(Failure::Write)
    }
}

/// Why one scope's list stopped short.
enum Failure {
    /// The hub refused a watch-list before anything was written: read it in pages (learned
    /// for the hub unless only this role may not watch).
    Refused {
        learned: bool,
    },
    List(kube::Error),
    Write(std::io::Error),
}

/// Writes one scope's objects as they are read: as a watch-list where the hub serves them,
/// else in pages; done at the end of the list.
async fn list_scope<W: Write>(
    out: &mut List<W>,
    hub: Option<&str>,
    connection: &Connection,
    kind: Kind,
    scope: Option<&str>,
    ways: &Ways,
) -> Result<(), Failure> {
    if ways.known() != Some(Way::Paged) {
        match streamed(out, hub, connection, kind, scope).await {
            Err(Failure::Refused { learned }) => {
                if learned {
                    ways.learn(Way::Paged);
                }
            }
            done => return done,
        }
    }
    paged(out, hub, connection, kind, scope).await
}

/// The scope's watch-list, through kube's watcher, until the end of its objects.
async fn streamed<W: Write>(
    out: &mut List<W>,
    hub: Option<&str>,
    connection: &Connection,
    kind: Kind,
    scope: Option<&str>,
) -> Result<(), Failure> {
    // Each item as the server sent it, read without its managedFields.
    let mut events = watch::<VALUE>(&connection.client, kind, scope, None, Way::Streamed);
    let mut started = false;
    while let Some(event) = events.next().await {
        match event {
            // Started over (the watch-list ended before its objects' end): what was written
            // would be written again.
            Ok(Event::Init) if started => {
                return Err(Failure::List(kube::Error::ReadEvents(
                    std::io::Error::other("the watch-list ended before its last object"),
                )));
            }
            Ok(Event::Init) => started = true,
            Ok(Event::InitApply(object)) => out.write(hub, object, kind)?,
            Ok(Event::InitDone) => return Ok(()),
            Ok(Event::Apply(_) | Event::Delete(_)) => {}
            Err(error) => {
                let error = cause(error);
                if !started && refuses_watch_lists(&error) {
                    return Err(Failure::Refused { learned: true });
                }
                // May list but not watch: this list in pages.
                if !started && code(&error) == Some(403) {
                    return Err(Failure::Refused { learned: false });
                }
                return Err(Failure::List(error));
            }
        }
    }
    Ok(())
}

/// A page's text on its way; dropped, it is no longer asked for.
struct Pending(tokio::task::JoinHandle<Result<String, kube::Error>>);

/// What a page says of the list: whether more follows.
#[derive(serde::Deserialize)]
struct Head {
    #[serde(default)]
    metadata: ListMeta,
}

#[derive(Default, serde::Deserialize)]
struct ListMeta {
    #[serde(rename = "continue", default)]
    continue_: Option<String>,
}

/// A page's objects.
#[derive(serde::Deserialize)]
struct Items {
    #[serde(default)]
    items: Vec<Watched<VALUE>>,
}

impl Drop for Pending {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The scope's list in pages, the next page asked for as soon as this one's text is in, so the
/// server makes it while this one is read and written. Not kube's watcher, nor `Api::list`,
/// which read a page whole before asking for the next: 1.47× and 1.33× the server's own
/// unpaged list for 10,000 pools (`cargo bench --bench fleet -- 10000 paced pages`).
async fn paged<W: Write>(
    out: &mut List<W>,
    hub: Option<&str>,
    connection: &Connection,
    kind: Kind,
    scope: Option<&str>,
) -> Result<(), Failure> {
    let client = connection.client.clone();
    let url = api::<VALUE>(&client, kind, scope).resource_url().to_owned();
    let ask = |token: Option<String>| {
        let client = client.clone();
        let mut params = ListParams::default().limit(PAGE as u32);
        params.continue_token = token;
        let request = kube::core::Request::new(&url).list(&params);
        Pending(tokio::spawn(async move {
            client
                .request_text(request.map_err(kube::Error::BuildRequest)?)
                .await
        }))
    };
    let unreadable = |e| Failure::List(kube::Error::SerdeError(e));
    let mut next = Some(ask(None));
    while let Some(mut pending) = next.take() {
        let text = match (&mut pending.0).await {
            Ok(text) => text.map_err(Failure::List)?,
            Err(e) => return Err(Failure::List(kube::Error::Service(Box::new(e)))),
        };
        let head: Head = serde_json::from_str(&text).map_err(unreadable)?;
        next = head
            .metadata
            .continue_
            .filter(|t| !t.is_empty())
            .map(|t| ask(Some(t)));
        let page: Items = serde_json::from_str(&text).map_err(unreadable)?;
        for object in page.items {
            out.write(hub, object.object, kind)?;
        }
    }
    Ok(())
}

/// Says a hub's list failed; with one hub (none named) the exit code to end with at once.
fn failed_on(hub: &Option<&str>, kind: Kind, error: &kube::Error) -> Option<ExitCode> {
    let on = hub
        .map(|h| format!("hub {}: ", crate::domain::inert::line(h)))
        .unwrap_or_default();
    crate::say::complain!(
        "pooldeck: {on}{}: {}",
        kind.resource_name(),
        crate::sources::errors::classify(error)
    );
    hub.is_none().then(|| ExitCode::from(1))
}

/// A closed pipe (`| head`) ends quietly; another write error is said.
fn closed_or_failed(e: std::io::Error) -> ExitCode {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return ExitCode::SUCCESS;
    }
    crate::say::complain!("pooldeck: cannot write: {e}");
    ExitCode::from(1)
}
