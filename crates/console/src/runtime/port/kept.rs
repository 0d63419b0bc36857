//! The port's part in the timelines: what is seen kept off the loop, and what was kept of a
//! pool read back (its files, the audit log, the controller's log's end) when its tab opens.

use std::sync::Arc;
use std::time::Duration;

use crate::cluster::Session;
use crate::domain::timeline::{Entry, Span};
use crate::timeline::{Kept, Store, StoreError};

/// How long the controller's log may take before the tab shows what else was kept.
const LOG_WITHIN: Duration = Duration::from_secs(5);

/// Keeps changes on a blocking thread (the store's writer orders the batches of one pool). A
/// change that cannot be kept is still on the screen; reading the tab says why.
pub(super) fn remember(store: Store, seen: Vec<(crate::inventory::Key, Entry)>) {
    tokio::task::spawn_blocking(move || store.keep_all(seen));
}

/// What reading back needs of one hub.
pub(super) struct Reader {
    client: kube::Client,
    session: Arc<Session>,
    store: Result<Store, Arc<StoreError>>,
    own: Span,
}

impl Reader {
    pub(super) fn of(member: &super::Member) -> Reader {
        let now = chrono::Utc::now();
        let own = member.watching.as_ref().map_or(
            Span {
                from: now,
                to: Some(now),
                namespaces: Vec::new(),
            },
            |w| w.span(Vec::new()),
        );
        Reader {
            client: member.client.clone(),
            session: member.session.clone(),
            store: member.store.clone(),
            own,
        }
    }
}

/// A pool's past as kept: the controller's log's end (within [`LOG_WITHIN`]), then the files.
pub(super) async fn history(
    reader: Option<Reader>,
    pool: crate::domain::ObjectRef,
    objects: Vec<String>,
) -> Kept {
    let Some(Reader {
        client,
        session,
        store,
        own,
    }) = reader
    else {
        return Kept::default();
    };
    let log = crate::runtime::logs::tail_within(client, crate::app::logs::TAIL, LOG_WITHIN).await;
    let read = tokio::task::spawn_blocking(move || {
        let audit = session.audit.as_ref().ok();
        let at = (
            session.hub.server.as_str(),
            pool.namespace.as_str(),
            pool.name.as_str(),
        );
        let store = store.as_ref().map_err(|e| &**e);
        let log = log.as_deref().map_err(|e| e as &dyn std::fmt::Display);
        crate::timeline::read(store, audit.map(|p| p.as_path()), at, objects, log, own)
    });
    read.await.unwrap_or_default()
}
