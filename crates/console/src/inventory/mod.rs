//! The cluster picture: every watched object (raw and leniently parsed), the joins views need
//! (pool to evaluation, hosts flattened from pools, events by involved object), per-resource
//! connection health, and utilization history.
//!
//! Changed only by [`Inventory::apply`] with a [`SourceEvent`]; cloning is cheap (persistent
//! maps), so a reader takes a consistent snapshot and the generation tells it whether anything
//! changed. Time is passed in, never read. Must not import tokio, kube, the console or I/O.

mod derive;
mod doctor;
mod fleet;
mod journal;
mod object;
mod source;
mod workloads;

use std::sync::Arc;

use chrono::{DateTime, Utc};
use imbl::{OrdMap, OrdSet, Vector};

use crate::domain::field::Text;
use crate::domain::model::ComputePoolEvaluation;

pub use crate::domain::kind::Kind;
pub use derive::{HostRow, Sample, Series, SeriesKey};
pub use journal::{Change, JOURNAL};
pub use object::{Object, Parsed, key_of, parse_time};
pub use source::{Health, ListWay, Progress, STALE_AFTER, SourceEvent, SourceState, Stale};

/// Namespace and name; the namespace is empty for cluster-scoped objects.
pub type Key = (Text, Text);

/// Which namespace a source watches: `None` for all.
pub type Scope = Option<String>;

/// A list arriving in pages: the keys held when it started that it has not brought yet
/// (those left when it ends are gone from the hub), how many objects it has brought and how
/// many the server said were still to come. Not the keys it brought: a hub's first list
/// starts with nothing held, so it keeps no key at all.
/// Only the list's own pages change a source's objects while it lists (a source watches
/// after its list ends, and no two sources share a kind and namespace); a key that went
/// meanwhile all the same is not removed twice.
#[derive(Clone, Debug, Default)]
struct Listing {
    unseen: OrdSet<Key>,
    received: usize,
    remaining: Option<u64>,
}

/// An object filed under its own key: a set of these is a map from key to object that holds
/// each key once (a map would hold a second copy of it). Equal and ordered by key alone.
///
/// A limit: imbl's inner nodes keep copies of some entries as dividers, and replacing or
/// removing an entry does not replace its copy, which keeps that version of the object alive
/// until the tree reshapes there: bounded, and a divider's key never changes.
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

/// The whole picture. Clone it to take a snapshot.
#[derive(Clone, Debug, Default)]
pub struct Inventory {
    generation: u64,
    objects: OrdMap<Kind, OrdSet<Held>>,
    /// Events by what they are about ([`derive::about`]): one flat set read by range, each
    /// entry the event itself (not its key, a third copy of it).
    events_by_object: OrdSet<derive::Filed>,
    /// Per pool, its series: one entry per pool (a pool has a few), shared between snapshots
    /// until one of them records a sample.
    history: OrdMap<Key, Arc<Vec<Series>>>,
    health: OrdMap<(Kind, Scope), Health>,
    /// Pools by effective VIP (lower case) and by name, for the rules across pools: one flat
    /// ordered set each, read by range (a set per VIP would cost a node each).
    pools_by_vip: OrdSet<(String, Key)>,
    pools_by_name: OrdSet<(Text, Text)>,
    /// The VIPs (lower case) and names more than one pool has (usually none): whether a pool
    /// shares either is then one lookup in a set that is mostly empty, not a walk of the
    /// indexes.
    shared_vips: OrdSet<String>,
    shared_names: OrdSet<Text>,
    /// Bumped when a pool joins or leaves either index, or starts or stops running on its
    /// VIP: what the rules across pools and the doctor's findings about the fleet read.
    fleet_generation: u64,
    /// Bumped when anything around the pools changes (Projects, Tenants, Compute, the objects
    /// pools name, AIWorkloads) or a source's state does: what a diagnosis reads beside the
    /// pool, its evaluation and its events.
    context_generation: u64,
    /// Per source with a list in progress (pages): the keys held at its first page that it
    /// has not brought again, and how many objects it has brought.
    listing: OrdMap<(Kind, Scope), Listing>,
    /// Which pool, evaluation or event each recent generation changed, oldest first, for
    /// readers that keep work per object (rows, findings): at most [`JOURNAL`] entries.
    journal: Vector<(u64, Change)>,
    /// A reader at an older generation than this cannot be told what changed since (something
    /// around the pools changed, or the journal moved past it): it starts over.
    journal_floor: u64,
    /// When the server last answered a heartbeat, and the failure since then, if any.
    last_heartbeat: Option<DateTime<Utc>>,
    heartbeat_failure: Option<(DateTime<Utc>, String)>,
    /// How the hub's lists are read, once a source has said.
    list_way: Option<ListWay>,
    /// When pooldeck saw each AIWorkload that went go (a deleting pool's finalizer is offered
    /// a while after its last one went): at most [`workloads::GONE_KEPT`], the oldest let go.
    workloads_gone: OrdMap<Key, DateTime<Utc>>,
}

impl Inventory {
    pub fn new() -> Inventory {
        Inventory::default()
    }

    /// How far a source's list in progress has come (none: not listing in pages now).
    pub fn listing_progress(&self, kind: Kind) -> Option<Progress> {
        let mut progress: Option<Progress> = None;
        for ((k, _), listing) in &self.listing {
            if *k != kind {
                continue;
            }
            let received = listing.received;
            let total = listing
                .remaining
                .and_then(|r| usize::try_from(r).ok())
                .map(|r| received + r);
            progress = Some(match progress {
                None => Progress { received, total },
                Some(p) => Progress {
                    received: p.received + received,
                    total: p.total.zip(total).map(|(a, b)| a + b),
                },
            });
        }
        progress
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

    /// Applies one source event at time `now`.
    pub fn apply(&mut self, event: SourceEvent, now: DateTime<Utc>) {
        // A heartbeat changes what the header says, not the objects: the rows stay.
        if let SourceEvent::Heartbeat { result } = event {
            self.heartbeat(result, now);
            return;
        }
        if let SourceEvent::Lists { way } = event {
            self.list_way = Some(way);
            return;
        }
        self.generation += 1;
        if around_the_pools(&event) {
            self.context_generation += 1;
        }
        match event {
            SourceEvent::Listed {
                kind,
                scope,
                objects,
            } => self.listed(kind, scope, objects, now),
            SourceEvent::Page {
                kind,
                scope,
                objects,
                remaining,
            } => self.paged(kind, scope, objects, remaining),
            SourceEvent::Applied { kind, object } => {
                self.insert(Arc::new(Object::new(kind, object)));
                self.touch_all(kind, now);
            }
            SourceEvent::Read { object } => {
                let kind = object.kind;
                self.insert(Arc::new(object));
                self.touch_all(kind, now);
            }
            SourceEvent::Deleted { kind, object } => {
                let key = key_of(&object);
                self.remove(kind, &key);
                self.saw_go(kind, key, now);
                self.touch_all(kind, now);
            }
            SourceEvent::State { kind, scope, state } => {
                if state == SourceState::Syncing {
                    // A list starting (again): what a cut-short one paged in is not kept by it.
                    self.listing.remove(&(kind, scope.clone()));
                }
                self.record_health(kind, scope, Some(state), now, false)
            }
            SourceEvent::Heartbeat { .. } | SourceEvent::Lists { .. } => {}
        }
    }

    /// A heartbeat's answer: when the server last answered, or since when it has not.
    fn heartbeat(&mut self, result: Result<(), crate::domain::ClusterError>, now: DateTime<Utc>) {
        match result {
            Ok(()) => {
                self.last_heartbeat = Some(now);
                self.heartbeat_failure = None;
            }
            Err(error) => {
                let since = self.last_heartbeat.unwrap_or(now);
                let first = self.heartbeat_failure.as_ref().map_or(since, |(t, _)| *t);
                self.heartbeat_failure = Some((first, error.to_string()));
            }
        }
    }

    /// A whole list of a source's scope: what it lacks of what is held goes (a list in pages
    /// under way: what its pages did not bring again), what it brings is held.
    fn listed(&mut self, kind: Kind, scope: Scope, objects: Vec<Object>, now: DateTime<Utc>) {
        let fresh: OrdSet<Held> = objects
            .into_iter()
            .map(|object| Held(Arc::new(object)))
            .collect();
        let stale: Vec<Key> = match self.listing.remove(&(kind, scope.clone())) {
            Some(listing) => {
                let held = self.objects.get(&kind);
                listing
                    .unseen
                    .into_iter()
                    .filter(|k| !fresh.contains(k) && held.is_some_and(|m| m.contains(k)))
                    .collect()
            }
            None => self
                .keys_in(kind, scope.as_deref())
                .filter(|k| !fresh.contains(*k))
                .cloned()
                .collect(),
        };
        for key in stale {
            self.remove(kind, &key);
            self.saw_go(kind, key, now);
        }
        for Held(object) in fresh {
            self.insert(object);
        }
        self.record_health(kind, scope, Some(SourceState::Live), now, true);
    }

    /// A page of a list: held as it comes; its first page notes what the list must bring
    /// again.
    fn paged(&mut self, kind: Kind, scope: Scope, objects: Vec<Object>, remaining: Option<u64>) {
        if !self.listing.contains_key(&(kind, scope.clone())) {
            // The list's first page: what is held now is what it must bring again.
            let unseen: OrdSet<Key> = self.keys_in(kind, scope.as_deref()).cloned().collect();
            self.listing.insert(
                (kind, scope.clone()),
                Listing {
                    unseen,
                    ..Listing::default()
                },
            );
        }
        if let Some(listing) = self.listing.get_mut(&(kind, scope)) {
            for object in &objects {
                listing.unseen.remove(&object.key);
            }
            listing.received += objects.len();
            listing.remaining = remaining;
        }
        for object in objects {
            self.insert(Arc::new(object));
        }
    }

    /// The keys held of a kind in a source's scope (`None`: every namespace).
    fn keys_in<'a>(&'a self, kind: Kind, scope: Option<&'a str>) -> impl Iterator<Item = &'a Key> {
        self.objects
            .get(&kind)
            .into_iter()
            .flat_map(|m| m.iter())
            .map(|held| &held.0.key)
            .filter(move |k| scope.is_none_or(|ns| k.0 == ns))
    }

    /// Records a source's state at `now` (keeping the current one when `state` is `None`);
    /// `event` says an object event or a list arrived, which is the time the header shows.
    fn record_health(
        &mut self,
        kind: Kind,
        scope: Scope,
        state: Option<SourceState>,
        now: DateTime<Utc>,
        event: bool,
    ) {
        let previous = self.health.get(&(kind, scope.clone())).cloned();
        let state = state
            .or_else(|| previous.as_ref().map(|h| h.state.clone()))
            .unwrap_or(SourceState::Live);
        let since = match &previous {
            Some(h) if h.state == state => h.since,
            _ => now,
        };
        let last_event = if event {
            Some(now)
        } else {
            previous.and_then(|h| h.last_event)
        };
        self.health.insert(
            (kind, scope),
            Health {
                state,
                since,
                last_event,
            },
        );
    }

    fn touch_all(&mut self, kind: Kind, now: DateTime<Utc>) {
        let scopes: Vec<Scope> = self
            .health
            .keys()
            .filter(|(k, _)| *k == kind)
            .map(|(_, s)| s.clone())
            .collect();
        for scope in scopes {
            self.record_health(kind, scope, None, now, true);
        }
    }

    fn insert(&mut self, object: Arc<Object>) {
        let kind = object.kind;
        if kind == Kind::AIWorkload {
            self.workloads_gone.remove(&object.key);
        }
        let before = self.held(kind, &object.key).cloned();
        self.note(kind, &object.key, before.as_deref(), Some(&object));
        if let Some(before) = &before {
            self.unindex(before);
        }
        if kind == Kind::Pool {
            self.reindex_pool(before.as_deref(), Some(&object));
        }
        self.index(&object);
        let set = self.objects.entry(kind).or_default();
        set.insert(Held(object.clone()));
        // imbl's set replaces an equal entry (std's keeps the old one): the new version is
        // what is held.
        debug_assert!(
            set.get(&object.key)
                .is_some_and(|h| Arc::ptr_eq(&h.0, &object))
        );
    }

    fn remove(&mut self, kind: Kind, key: &Key) {
        let before = self.held(kind, key).cloned();
        self.note(kind, key, before.as_deref(), None);
        if let Some(before) = &before {
            if kind == Kind::Pool {
                self.reindex_pool(Some(before), None);
            }
            self.unindex(before);
        }
        if kind == Kind::Evaluation {
            self.forget_history(key);
        }
        if let Some(map) = self.objects.get_mut(&kind) {
            map.remove(key);
        }
    }

    /// Every namespace the watched objects name (the namespaces the command line knows).
    pub fn namespaces_seen(&self) -> std::collections::BTreeSet<&str> {
        Kind::ALL
            .into_iter()
            .flat_map(|kind| self.objects(kind))
            .map(|o| o.namespace())
            .filter(|ns| !ns.is_empty())
            .collect()
    }

    pub fn objects(&self, kind: Kind) -> impl Iterator<Item = &Arc<Object>> {
        self.objects
            .get(&kind)
            .into_iter()
            .flat_map(|m| m.iter())
            .map(|held| &held.0)
    }

    /// The object of a kind held under `key`.
    fn held(&self, kind: Kind, key: &Key) -> Option<&Arc<Object>> {
        self.objects.get(&kind)?.get(key).map(|held| &held.0)
    }

    /// The objects of a kind after `after` in key order (all of them after `None`).
    pub fn objects_after(
        &self,
        kind: Kind,
        after: Option<&Key>,
    ) -> impl Iterator<Item = &Arc<Object>> {
        use std::ops::Bound;
        let from: Bound<&Key> = after.map_or(Bound::Unbounded, Bound::Excluded);
        self.objects.get(&kind).into_iter().flat_map(move |m| {
            m.range::<_, Key>((from, Bound::Unbounded))
                .map(|held| &held.0)
        })
    }

    pub fn get(&self, kind: Kind, namespace: &str, name: &str) -> Option<&Arc<Object>> {
        self.held(kind, &(Text::from(namespace), Text::from(name)))
    }

    pub fn count(&self, kind: Kind) -> usize {
        self.objects.get(&kind).map_or(0, OrdSet::len)
    }

    /// The evaluation that belongs to a pool: same namespace and name.
    pub fn evaluation_for(&self, pool: &Object) -> Option<&ComputePoolEvaluation> {
        self.get(Kind::Evaluation, pool.namespace(), pool.name())?
            .evaluation()
    }

    /// Every host of every pool, flattened from the pools' status as it is read (holding the
    /// rows as well would double the memory of a large fleet), in pool order.
    pub fn hosts(&self) -> impl Iterator<Item = HostRow> + '_ {
        self.objects(Kind::Pool)
            .flat_map(|pool| derive::host_rows(pool))
    }

    /// The hosts of one pool, flattened from its status.
    pub fn hosts_of(pool: &Object) -> Vec<HostRow> {
        derive::host_rows(pool)
    }

    /// Events about one object, newest last.
    pub fn events_for(&self, kind: &str, namespace: &str, name: &str) -> Vec<&Arc<Object>> {
        let about = derive::about(kind, namespace, name);
        let mut events: Vec<&Arc<Object>> = self
            .events_by_object
            .range(derive::FirstAbout(about)..)
            .take_while(|filed| filed.about == about)
            .map(|filed| &filed.event.0)
            .filter(|e| derive::involved(e) == Some((kind, namespace, name)))
            .collect();
        events.sort_by_cached_key(|e| e.happened());
        events
    }

    /// Utilization samples of one series, oldest first.
    pub fn history(&self, series: &SeriesKey) -> Option<&Vector<Sample>> {
        self.series_of(&series.namespace, &series.pool)
            .find(|s| s.worker_pool == series.worker_pool && s.resource == series.resource)
            .map(|s| &s.samples)
    }

    /// Every series of one pool.
    pub fn series_of(&self, namespace: &str, name: &str) -> impl Iterator<Item = &Series> {
        self.history
            .get(&(Text::from(namespace), Text::from(name)))
            .into_iter()
            .flat_map(|series| series.iter())
    }

    pub fn health(&self) -> impl Iterator<Item = (&(Kind, Scope), &Health)> {
        self.health.iter()
    }

    /// The state of the source that lists `kind` in `namespace` (the one across every
    /// namespace, or the namespace's own), if one does.
    pub fn state_in(&self, kind: Kind, namespace: &str) -> Option<&SourceState> {
        self.health
            .iter()
            .find(|((k, scope), _)| *k == kind && scope.as_deref().is_none_or(|s| s == namespace))
            .map(|(_, health)| &health.state)
    }

    /// Whether the picture of `kind` in `namespace` is complete and live: what it lacks, the
    /// hub lacks.
    pub fn listed_in(&self, kind: Kind, namespace: &str) -> bool {
        self.state_in(kind, namespace) == Some(&SourceState::Live)
    }

    pub fn health_of(&self, kind: Kind) -> impl Iterator<Item = &Health> {
        self.health
            .iter()
            .filter(move |((k, _), _)| *k == kind)
            .map(|(_, h)| h)
    }
}

/// Whether an event changes what a diagnosis reads beside the pool, its evaluation and its
/// events: another kind's objects, or whether ScalingPolicies, ProfileBundles and Settings
/// are read at all (one not found is then really missing) and whether AIWorkloads are read
/// live (a deleting pool's are verified gone only then); no other source's state.
fn around_the_pools(event: &SourceEvent) -> bool {
    match event {
        SourceEvent::Listed { kind, .. }
        | SourceEvent::Page { kind, .. }
        | SourceEvent::Applied { kind, .. }
        | SourceEvent::Deleted { kind, .. } => {
            !matches!(kind, Kind::Pool | Kind::Evaluation | Kind::Event)
        }
        SourceEvent::Read { object } => {
            !matches!(object.kind, Kind::Pool | Kind::Evaluation | Kind::Event)
        }
        SourceEvent::State { kind, .. } => matches!(
            kind,
            Kind::ScalingPolicy | Kind::ProfileBundle | Kind::Settings | Kind::AIWorkload
        ),
        SourceEvent::Heartbeat { .. } | SourceEvent::Lists { .. } => false,
    }
}

#[cfg(test)]
mod tests;
