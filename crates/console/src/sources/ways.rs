//! kube's watcher for one kind in one scope, its initial list read the hub's way: as a
//! watch-list (`sendInitialEvents`) where the hub serves them, else in pages. kube's watcher
//! does not fall back from one to the other by itself, so the way is learned once per hub
//! ([`Ways`]) from the first watch-list asked of it.

use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use futures::{Stream, StreamExt};
use kube::Client;
use kube::api::Api;
use kube::core::{ApiResource, GroupVersionKind};
use kube::runtime::watcher::{self, Event};

use super::objects::{Incoming, Watched};
use crate::domain::Kind;
pub use crate::inventory::ListWay as Way;

/// How long a watch may stay open before the server is asked to end it (it is opened again
/// from where it was); the same as kubectl's.
const WATCH_TIMEOUT: u32 = 290;

/// Objects asked for per page of a paged list.
pub const PAGE: usize = 500;

/// How long a source waits for the first list asked of its hub to say whether the hub
/// serves watch-lists, before asking for one itself (a hub that never answers holds up no
/// source longer than this).
const PATIENCE: Duration = Duration::from_secs(2);

/// A watcher's events, each object as the source holds it.
pub type Events = Pin<Box<dyn Stream<Item = Result<Event<Incoming>, watcher::Error>> + Send>>;

/// The API of `kind`'s objects in `namespace` (all when `None`), read as `Watched<K>`.
pub fn api<const K: u8>(client: &Client, kind: Kind, namespace: Option<&str>) -> Api<Watched<K>> {
    let api = kind.api();
    let resource = ApiResource::from_gvk_with_plural(
        &GroupVersionKind::gvk(api.group, api.version, api.kind),
        api.plural,
    );
    match namespace.filter(|_| api.namespaced) {
        Some(ns) => Api::namespaced_with(client.clone(), ns, &resource),
        None => Api::all_with(client.clone(), &resource),
    }
}

/// kube's watcher on `kind` in `namespace` (all when `None`), narrowed by a field selector,
/// its initial list read `way`; objects read as `Watched<K>` reads them.
pub fn watch<const K: u8>(
    client: &Client,
    kind: Kind,
    namespace: Option<&str>,
    field_selector: Option<&str>,
    way: Way,
) -> Events {
    let objects = api::<K>(client, kind, namespace);
    let mut config = watcher::Config::default()
        .timeout(WATCH_TIMEOUT)
        .page_size(PAGE as u32);
    if let Some(selector) = field_selector {
        config = config.fields(selector);
    }
    if way == Way::Streamed {
        config = config.streaming_lists();
    }
    Box::pin(watcher::watcher(objects, config).map(|event| {
        event.map(|event| match event {
            Event::Init => Event::Init,
            Event::InitApply(object) => Event::InitApply(object.object),
            Event::InitDone => Event::InitDone,
            Event::Apply(object) => Event::Apply(object.object),
            Event::Delete(object) => Event::Delete(object.object),
        })
    }))
}

/// What a watcher's error is, as kube's client said it.
pub fn cause(error: watcher::Error) -> kube::Error {
    match error {
        watcher::Error::InitialListFailed(e)
        | watcher::Error::WatchStartFailed(e)
        | watcher::Error::WatchFailed(e) => e,
        watcher::Error::WatchError(status) => kube::Error::Api(status),
        watcher::Error::NoResourceVersion => kube::Error::ReadEvents(std::io::Error::other(
            "the server sent an object without a resourceVersion",
        )),
    }
}

/// Whether a refusal is the server's of watch-lists as such (not of the resource, the user or
/// a selector): 422 Invalid naming the options a watch-list sets ("sendInitialEvents is
/// forbidden for watch unless the WatchList feature gate is enabled"; before 1.27
/// "resourceVersionMatch is forbidden for watch").
pub fn refuses_watch_lists(error: &kube::Error) -> bool {
    let kube::Error::Api(status) = error else {
        return false;
    };
    let names_an_option = |text: &str| {
        [
            "sendInitialEvents",
            "resourceVersionMatch",
            "allowWatchBookmarks",
        ]
        .iter()
        .any(|option| text.contains(option))
    };
    status.code == 422
        && (status.message.is_empty()
            || names_an_option(&status.message)
            || status
                .details
                .as_ref()
                .is_some_and(|d| d.causes.iter().any(|c| names_an_option(&c.field))))
}

/// How one hub's lists are read, learned from the first watch-list asked of it and kept for
/// the hub: a watch-list unless the server refused one (or answered one as it should not).
/// Sources starting at once wait briefly for the first one's answer rather than each asking.
#[derive(Clone, Default)]
pub struct Ways(Arc<Learned>);

#[derive(Default)]
struct Learned {
    /// 0: not known yet; else a [`Way`] (1 streamed, 2 paged).
    way: std::sync::atomic::AtomicU8,
    /// Held by the source asking first while the way is not known.
    asking: tokio::sync::Mutex<()>,
}

/// The way a list is to be read, and whether this source asks on the hub's behalf (it holds
/// the others back until it has learned the answer, or let go of the guard).
pub struct Choice<'a> {
    pub way: Way,
    pub asking: Option<tokio::sync::MutexGuard<'a, ()>>,
}

impl Ways {
    /// The way learned, if any.
    pub fn known(&self) -> Option<Way> {
        match self.0.way.load(std::sync::atomic::Ordering::SeqCst) {
            1 => Some(Way::Streamed),
            2 => Some(Way::Paged),
            _ => None,
        }
    }

    /// Keeps `way` for the hub.
    pub fn learn(&self, way: Way) {
        let code = match way {
            Way::Streamed => 1,
            Way::Paged => 2,
        };
        self.0.way.store(code, std::sync::atomic::Ordering::SeqCst);
    }

    /// The way to read the next list: the hub's once known; while not, a watch-list, the
    /// first source asking while the others wait for its answer (a while).
    pub async fn choose(&self) -> Choice<'_> {
        let asking = match self.known() {
            None => tokio::time::timeout(PATIENCE, self.0.asking.lock())
                .await
                .ok(),
            Some(_) => None,
        };
        let asking = asking.filter(|_| self.known().is_none());
        Choice {
            way: self.known().unwrap_or(Way::Streamed),
            asking,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_refusal_naming_the_watch_lists_options_is_one() {
        let status = |code: u16, message: &str| {
            kube::Error::Api(Box::new(kube::core::Status {
                code,
                message: message.into(),
                ..Default::default()
            }))
        };
        assert!(refuses_watch_lists(&status(
            422,
            "ListOptions.meta.k8s.io \"\" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled"
        )));
        assert!(refuses_watch_lists(&status(
            422,
            "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch"
        )));
        assert!(!refuses_watch_lists(&status(
            400,
            "unable to parse requirement"
        )));
        assert!(!refuses_watch_lists(&status(
            422,
            "spec.vip: Invalid value"
        )));
        assert!(!refuses_watch_lists(&status(403, "forbidden")));
    }
}
