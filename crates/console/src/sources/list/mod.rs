//! Lists read in pages (`limit`/`continue`) with the next page asked for while the caller
//! works on this one, so reading the server's answer and making sense of it overlap instead of
//! taking turns; or, where the server offers them, as a watch-list (`streamed`). Used by the
//! console's sources and by `get -o json`.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use kube::Client;
use tokio::task::JoinHandle;

use crate::domain::Kind;

mod incoming;
mod parse;
pub mod streamed;

pub use incoming::Incoming;
use parse::{Head, Items, parse_items};
pub use streamed::{Item, Listing, Shape, Way, Ways};

/// The path of a kind's list, in a namespace or across all.
pub fn path(kind: Kind, namespace: Option<&str>) -> String {
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

/// The `apiVersion` a kind's objects carry.
pub fn api_version(kind: Kind) -> String {
    let api = kind.api();
    if api.group.is_empty() {
        api.version.to_owned()
    } else {
        format!("{}/{}", api.group, api.version)
    }
}

/// One page of a list, as the server sent it.
pub struct Page<T> {
    /// The objects, each made into what the reader asked for from the object with its
    /// `apiVersion` and `kind` (which a list's items may leave out).
    pub items: Vec<T>,
    /// The version of the list this page belongs to: where a watch starts once the last
    /// page is read.
    pub resource_version: String,
    /// How many objects the server says follow this page, when it says.
    pub remaining: Option<u64>,
    /// Whether another page follows.
    pub more: bool,
    /// The next page, already asked for.
    next: Option<Pending<T>>,
    /// Its place among the pages read ahead, given back when it is handed out.
    permit: Option<tokio::sync::OwnedSemaphorePermit>,
}

impl<T> Page<T> {
    /// A page gathered from a watch-list's initial events (the version is the end bookmark's,
    /// on the last page).
    fn streamed(items: Vec<T>, resource_version: String, more: bool) -> Page<T> {
        Page {
            items,
            resource_version,
            remaining: None,
            more,
            next: None,
            permit: None,
        }
    }
}

/// What every page of one list is asked with.
struct Ask<T> {
    client: Client,
    kind: Kind,
    base: String,
    /// Query parameters every page carries (a field selector), already encoded.
    query: String,
    /// Objects asked for per page after the first.
    limit: usize,
    /// Pages asked for or read but not yet handed out: at most [`AHEAD`], so a reader slower
    /// than the server (a pipe, a slow terminal) holds two pages, not the whole list.
    ahead: Arc<tokio::sync::Semaphore>,
    item: std::marker::PhantomData<fn() -> T>,
}

/// How many pages may be on their way or waiting while the reader works on one.
const AHEAD: usize = 2;

/// A page on its way; dropped, it is no longer asked for (nor are the pages after it).
struct Pending<T>(JoinHandle<Result<Page<T>, kube::Error>>);

impl<T> Drop for Pending<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Reads a list page by page; the page after the one handed out is already on its way.
pub struct Pager<T> {
    next: Option<Pending<T>>,
}

impl<T: Item> Pager<T> {
    /// Starts reading `kind` in `namespace` (all when `None`); the first page asks for
    /// `first` objects (a small page shows something soon), the rest for `limit` each; each
    /// object is made into `T` as it is read ([`Item`]).
    pub fn start(
        client: Client,
        kind: Kind,
        namespace: Option<&str>,
        field_selector: Option<&str>,
        first: usize,
        limit: usize,
    ) -> Self {
        let query = field_selector
            .map(|selector| {
                let mut q = String::from("&fieldSelector=");
                q.extend(form_urlencoded::byte_serialize(selector.as_bytes()));
                q
            })
            .unwrap_or_default();
        let ask = Arc::new(Ask {
            client,
            kind,
            base: path(kind, namespace),
            query,
            limit,
            ahead: Arc::new(tokio::sync::Semaphore::new(AHEAD)),
            item: std::marker::PhantomData,
        });
        Pager {
            next: Some(ask_for(ask, first, None)),
        }
    }

    /// The next page; `None` after the last. An error ends the list (the caller starts over).
    pub async fn next(&mut self) -> Option<Result<Page<T>, kube::Error>> {
        let mut pending = self.next.take()?;
        let answer = match (&mut pending.0).await {
            Ok(answer) => answer,
            Err(e) => Err(kube::Error::Service(Box::new(e))),
        };
        Some(answer.map(|mut page| {
            self.next = page.next.take();
            // Handed out: the page after the next may be asked for.
            page.permit = None;
            page
        }))
    }
}

/// Starts asking for one page.
fn ask_for<T: Item>(ask: Arc<Ask<T>>, limit: usize, token: Option<String>) -> Pending<T> {
    let mut url = format!("{}?limit={limit}{}", ask.base, ask.query);
    if let Some(token) = &token {
        url.push_str("&continue=");
        url.extend(form_urlencoded::byte_serialize(token.as_bytes()));
    }
    let future: Pin<Box<dyn Future<Output = Result<Page<T>, kube::Error>> + Send>> =
        Box::pin(fetch(ask, url));
    Pending(tokio::spawn(future))
}

/// One page, read and parsed on a worker; the page after it is asked for as soon as this
/// one's metadata is read, so the server prepares it while this one is parsed.
async fn fetch<T: Item>(ask: Arc<Ask<T>>, url: String) -> Result<Page<T>, kube::Error> {
    let request = http::Request::get(&url)
        .body(Vec::new())
        .map_err(kube::Error::HttpError)?;
    let permit = ask
        .ahead
        .clone()
        .acquire_owned()
        .await
        .map_err(|e| kube::Error::Service(Box::new(e)))?;
    let text = ask.client.request_text(request).await?;
    let head: Head = serde_json::from_str(&text).map_err(kube::Error::SerdeError)?;
    let token = head.metadata.continue_.filter(|t| !t.is_empty());
    let more = token.is_some();
    let next = token.map(|token| ask_for(ask.clone(), ask.limit, Some(token)));
    let read = Items::<T>::new(ask.kind);
    // The parse is a stretch of CPU on this worker: let the request for the next page go out
    // first (parsing on the blocking pool instead spread the model over short-lived threads'
    // memory and held more of it).
    tokio::task::yield_now().await;
    let items = parse_items(&text, read)?;
    Ok(Page {
        items,
        resource_version: head.metadata.resource_version.unwrap_or_default(),
        remaining: head
            .metadata
            .remaining_item_count
            .and_then(|n| u64::try_from(n).ok()),
        more,
        next,
        permit: Some(permit),
    })
}
