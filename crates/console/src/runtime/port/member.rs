//! One hub of the port: its client, session, watch-list way and timeline store.

use std::sync::Arc;

use crate::cluster::Session;
use crate::sources::connection::Target;

/// One hub the console watches: its client, where it was read from, and the session that
/// carries out the requests bound to it.
pub(super) struct Member {
    pub(super) client: kube::Client,
    pub(super) target: Target,
    pub(super) session: Arc<Session>,
    /// Whether the hub serves watch-lists, learned from its first list.
    pub(super) ways: crate::sources::ways::Ways,
    /// Where this hub's timelines are kept (or why they cannot be), and the session watching
    /// it (dropped: the end of the watch is noted).
    pub(super) store: Result<crate::timeline::Store, Arc<crate::timeline::StoreError>>,
    pub(super) watching: Option<crate::timeline::Watching>,
}

impl Member {
    pub(super) fn new(client: kube::Client, target: Target, session: Arc<Session>) -> Member {
        let store = crate::timeline::Store::open(&session.hub.server).map_err(Arc::new);
        Member {
            client,
            target,
            session,
            ways: crate::sources::ways::Ways::default(),
            store,
            watching: None,
        }
    }
}
