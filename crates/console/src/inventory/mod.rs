//! The cluster picture: every watched object (raw and leniently parsed), the joins views need
//! (pool to evaluation, hosts flattened from pools, events by involved object), per-resource
//! connection health, and utilization history.
//!
//! Changed only by [`Inventory::apply`] with a [`SourceEvent`]; the generation tells a reader
//! whether anything changed. Time is passed in, never read. Must not import tokio, kube, the console or I/O.

mod apply;
mod derive;
mod derived;
mod doctor;
mod fleet;
mod journal;
mod object;
mod read;
mod seen;
mod source;
pub mod timeline;
mod workloads;

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;

use chrono::{DateTime, Utc};

use crate::domain::field::Text;

pub use crate::domain::kind::Kind;
pub use derived::{HostRow, Sample, Series, SeriesKey};
pub use object::{Key, Object, Parsed, Shares, key_of, parse_time};
pub use seen::SEEN_AT_MOST;
pub use source::{Health, ListWay, STALE_AFTER, Scope, SourceEvent, SourceState, Stale};

/// A list arriving in pages: the keys held when it started that it has not brought yet
/// (those left when it ends are gone from the hub), how many objects it has brought and how
/// many the server said were still to come. Not the keys it brought: a hub's first list
/// starts with nothing held, so it keeps no key at all.
/// Only the list's own pages change a source's objects while it lists (a source watches
/// after its list ends, and no two sources share a kind and namespace); a key that went
/// meanwhile all the same is not removed twice.
#[derive(Clone, Debug, Default)]
struct Listing {
    unseen: BTreeSet<Key>,
    received: usize,
}

/// An object filed under its own key: a set of these is a map from key to object that holds
/// each key once (a map would hold a second copy of it). Equal and ordered by key alone.
#[derive(Clone, Debug)]
struct Held(Arc<Object>);

impl PartialEq for Held {
    fn eq(&self, other: &Held) -> bool {
        self.0.key == other.0.key
    }
}

impl Eq for Held {}

impl PartialOrd for Held {
    fn partial_cmp(&self, other: &Held) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Held {
    fn cmp(&self, other: &Held) -> std::cmp::Ordering {
        self.0.key.cmp(&other.0.key)
    }
}

impl std::borrow::Borrow<Key> for Held {
    fn borrow(&self) -> &Key {
        &self.0.key
    }
}

/// One change the journal remembers: a pool, evaluation or event applied or deleted.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub kind: Kind,
    pub key: Key,
    /// The pools whose picture it touches (namespace, name): a pool or evaluation its own,
    /// an event the ComputePool it is about now and the one it was about before.
    pub pools: Vec<Key>,
    /// For a pool that joined or left the fleet or changed its VIP: its VIPs before and
    /// after (lower case). The pools sharing its name or one of these VIPs may read the fleet
    /// differently now ([`Inventory::fleet_touched`]).
    pub fleet: Option<Vec<String>>,
}

/// How many changes the journal remembers: a reader further behind starts over.
pub const JOURNAL: usize = 4096;

/// The whole picture.
#[derive(Clone, Debug, Default)]
pub struct Inventory {
    generation: u64,
    objects: BTreeMap<Kind, BTreeSet<Held>>,
    /// Events by what they are about ([`derive::about`]), each the event itself (not its key,
    /// a third copy of it).
    events_by_object: BTreeMap<u64, Vec<Held>>,
    /// Per pool, its series: one entry per pool (a pool has a few).
    history: BTreeMap<Key, Vec<Series>>,
    health: BTreeMap<(Kind, Scope), Health>,
    /// Pools by effective VIP (lower case) and by name, for the rules across pools: one flat
    /// ordered set each, read by range (a set per VIP would cost a node each).
    pools_by_vip: BTreeSet<(String, Key)>,
    pools_by_name: BTreeSet<(Text, Text)>,
    /// The VIPs (lower case) and names more than one pool has (usually none): whether a pool
    /// shares either is then one lookup in a set that is mostly empty, not a walk of the
    /// indexes.
    shared_vips: BTreeSet<String>,
    shared_names: BTreeSet<Text>,
    /// Bumped when a pool joins or leaves either index, or starts or stops running on its
    /// VIP: what the rules across pools and the doctor's findings about the fleet read.
    fleet_generation: u64,
    /// Bumped when anything around the pools changes (Projects, Tenants, Compute, the objects
    /// pools name, AIWorkloads) or a source's state does: what a diagnosis reads beside the
    /// pool, its evaluation and its events.
    context_generation: u64,
    /// Per source with a list in progress (pages): the keys held at its first page that it
    /// has not brought again, and how many objects it has brought.
    listing: BTreeMap<(Kind, Scope), Listing>,
    /// Which pool, evaluation or event each recent generation changed, oldest first, for
    /// readers that keep work per object (rows, findings): at most [`JOURNAL`] entries.
    journal: VecDeque<(u64, Change)>,
    /// A reader at an older generation than this cannot be told what changed since (something
    /// around the pools changed, or the journal moved past it): it starts over.
    journal_floor: u64,
    /// When the server last answered a heartbeat, and the failure since then, if any.
    last_heartbeat: Option<DateTime<Utc>>,
    heartbeat_failure: Option<(DateTime<Utc>, String)>,
    /// How the hub's lists are read, once a source has said.
    list_way: Option<ListWay>,
    /// Namespaces outside the watched ones that hold pools, when the hub said.
    pools_elsewhere: Vec<String>,
    /// When pooldeck saw each AIWorkload that went go (a deleting pool's finalizer is offered
    /// a while after its last one went): at most [`workloads::GONE_KEPT`], the oldest let go.
    workloads_gone: BTreeMap<Key, DateTime<Utc>>,
    /// The changes seen of pools and evaluations not yet taken, when they are noted
    /// ([`Inventory::note_changes`]), and the time of the event being applied.
    seen: Option<Vec<(Key, crate::domain::timeline::Entry)>>,
    seen_at: DateTime<Utc>,
}

impl Inventory {
    pub fn new() -> Inventory {
        Inventory::default()
    }

    /// How many objects a kind's lists in progress have brought so far (none: not listing
    /// now).
    pub fn listing_progress(&self, kind: Kind) -> Option<usize> {
        self.listing
            .iter()
            .filter(|((k, _), _)| *k == kind)
            .map(|(_, listing)| listing.received)
            .reduce(|a, b| a + b)
    }

    /// See the field: a pool's diagnosis stays valid while this, the pool, its evaluation and
    /// its events stay the same.
    pub fn context_generation(&self) -> u64 {
        self.context_generation
    }

    /// Bumped by every applied event; a reader redraws when it changes.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Namespaces outside the watched ones that hold pools (none known: empty).
    pub fn pools_elsewhere(&self) -> &[String] {
        &self.pools_elsewhere
    }

    /// How the hub's lists are read, once a list has started.
    pub fn list_way(&self) -> Option<ListWay> {
        self.list_way
    }

    /// Whether the server has answered a heartbeat at all since the watch started.
    pub fn ever_answered(&self) -> bool {
        self.last_heartbeat.is_some()
    }

    /// Whether the picture may be out of date at `now`: the last heartbeat failed, or none
    /// has answered for [`STALE_AFTER`].
    pub fn stale(&self, now: DateTime<Utc>) -> Option<Stale> {
        if let Some((since, reason)) = &self.heartbeat_failure {
            return Some(Stale {
                since: *since,
                reason: reason.clone(),
            });
        }
        let last = self.last_heartbeat?;
        (now - last > STALE_AFTER).then(|| Stale {
            since: last,
            reason: format!(
                "the server has not answered for {}",
                crate::domain::duration::format_age((now - last).to_std().unwrap_or_default())
            ),
        })
    }
}

#[cfg(test)]
mod tests;
