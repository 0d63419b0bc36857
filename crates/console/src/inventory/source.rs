//! What a source (one watched kind, in one scope) reports to the inventory, and how it is
//! doing: lists in pages, single changes, its state, and the server's heartbeat.

use chrono::{DateTime, Utc};
use serde_json::Value;

use super::object::Object;
use crate::domain::kind::Kind;

/// Which namespace a source watches: `None` for all.
pub type Scope = Option<String>;

/// How a source is doing.
#[derive(Clone, Debug, PartialEq)]
pub enum SourceState {
    /// Listing for the first time (or again after losing its place).
    Syncing,
    Live,
    /// The watch failed; it retries at `retry_at`.
    Reconnecting {
        error: crate::domain::ClusterError,
        retry_at: DateTime<Utc>,
    },
    /// RBAC refuses list or watch; the other sources carry on.
    Forbidden {
        message: String,
    },
    /// The CRD is not installed on this cluster.
    NotInstalled,
}

impl SourceState {
    /// Whether the source has settled: it has a picture, or knows it cannot have one.
    pub fn settled(&self) -> bool {
        matches!(
            self,
            SourceState::Live | SourceState::Forbidden { .. } | SourceState::NotInstalled
        )
    }

    pub fn word(&self) -> &'static str {
        match self {
            SourceState::Syncing => "syncing",
            SourceState::Live => "live",
            SourceState::Reconnecting { .. } => "reconnecting",
            SourceState::Forbidden { .. } => "forbidden",
            SourceState::NotInstalled => "not installed",
        }
    }
}

/// A source's state with its times.
#[derive(Clone, Debug, PartialEq)]
pub struct Health {
    pub state: SourceState,
    pub since: DateTime<Utc>,
    /// When the last object event (or list) arrived.
    pub last_event: Option<DateTime<Utc>>,
}

/// What a source reports. Lists arrive whole (the watcher's initial list or relist after 410),
/// so a relist replaces the picture in one step and never flashes an empty table.
#[derive(Clone, Debug)]
pub enum SourceEvent {
    /// Objects are read into their model as they arrive, so a large list is held compactly
    /// while it is gathered.
    Listed {
        kind: Kind,
        scope: Scope,
        objects: Vec<Object>,
    },
    /// Part of a list still arriving: shown at once (the first rows before the list is
    /// complete), kept when the `Listed` that ends the list comes; only what neither holds is
    /// removed then, so a relist never empties the screen.
    Page {
        kind: Kind,
        scope: Scope,
        objects: Vec<Object>,
    },
    Applied {
        kind: Kind,
        object: Value,
    },
    /// An object added or changed, read into what pooldeck holds on the source's task (from
    /// the watch event's text: no JSON value is built for a pool or an evaluation).
    Read {
        object: Object,
    },
    Deleted {
        kind: Kind,
        object: Value,
    },
    State {
        kind: Kind,
        scope: Scope,
        state: SourceState,
    },
    /// Namespaces beyond those watched that hold pools (read once when a watch is narrowed to
    /// some namespaces): what an empty list suggests.
    PoolsElsewhere {
        namespaces: Vec<String>,
    },
    /// How the hub's lists are read (said by each source as its list starts): the header says
    /// when the server has no watch-lists and lists come in pages.
    Lists {
        way: ListWay,
    },
    /// The answer to a periodic probe of the server: whether it answers at all. A watch on a
    /// stopped server stays open and silent; this is how the picture is known to be stale.
    Heartbeat {
        result: Result<(), crate::domain::ClusterError>,
    },
}

/// How a hub's lists are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListWay {
    /// As watch-lists: the current objects streamed, then the changes on the same watch.
    Streamed,
    /// In pages: the server refused a watch-list (older than 1.27, or the feature off).
    Paged,
}

/// How long without a good heartbeat before the picture is called stale, even while the
/// probe itself has not failed (it may hang on a stopped server).
pub const STALE_AFTER: chrono::TimeDelta = chrono::TimeDelta::seconds(30);

/// The picture may no longer be current: since when, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Stale {
    pub since: DateTime<Utc>,
    pub reason: String,
}

impl SourceEvent {
    /// A list of raw objects, read into the model.
    pub fn listed(kind: Kind, scope: Scope, objects: Vec<Value>) -> SourceEvent {
        SourceEvent::Listed {
            kind,
            scope,
            objects: objects
                .into_iter()
                .map(|raw| Object::new(kind, raw))
                .collect(),
        }
    }
}
