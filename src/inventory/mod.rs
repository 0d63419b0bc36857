//! The cluster picture: every watched object (raw and leniently parsed), the joins views need
//! (pool to evaluation, hosts flattened from pools, events by involved object), per-resource
//! connection health, and utilization history.
//!
//! Changed only by [`Inventory::apply`] with a [`SourceEvent`]; cloning is cheap (persistent
//! maps), so a reader takes a consistent snapshot and the generation tells it whether anything
//! changed. Time is passed in, never read. Must not import tokio, kube, the console or I/O.

mod derive;
mod doctor;
mod journal;
mod object;

use std::sync::Arc;

use chrono::{DateTime, Utc};
use imbl::{OrdMap, OrdSet, Vector};
use serde_json::Value;

use crate::domain::field::Text;
use crate::domain::model::{ComputePool, ComputePoolEvaluation};

pub use crate::domain::kind::Kind;
pub use derive::{HostRow, Sample, SeriesKey, event_time};
pub use journal::{Change, JOURNAL};
pub use object::{Object, Parsed, key_of, parse_time};

/// Namespace and name; the namespace is empty for cluster-scoped objects.
pub type Key = (Text, Text);

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
        /// How many objects the server says are still to come, when it says.
        remaining: Option<u64>,
    },
    Applied {
        kind: Kind,
        object: Value,
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
    /// The answer to a periodic probe of the server: whether it answers at all. A watch on a
    /// stopped server stays open and silent; this is how the picture is known to be stale.
    Heartbeat {
        result: Result<(), crate::domain::ClusterError>,
    },
}

/// A list arriving in pages: the keys it has brought (kept when the list ends) and how many
/// the server said were still to come.
#[derive(Clone, Debug, Default)]
struct Listing {
    seen: OrdSet<Key>,
    remaining: Option<u64>,
}

/// How far a list in progress has come: objects received, and the whole count when the
/// server says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    pub received: usize,
    pub total: Option<usize>,
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

/// The whole picture. Clone it to take a snapshot.
#[derive(Clone, Debug, Default)]
pub struct Inventory {
    generation: u64,
    objects: OrdMap<Kind, OrdMap<Key, Arc<Object>>>,
    events_by_object: OrdMap<(String, String, String), OrdSet<Key>>,
    history: OrdMap<SeriesKey, Vector<Sample>>,
    health: OrdMap<(Kind, Scope), Health>,
    /// Pools by effective VIP (lower case) and by name, for the rules across pools: one flat
    /// ordered set each, read by range (a set per VIP would cost a node each).
    pools_by_vip: OrdSet<(String, Key)>,
    pools_by_name: OrdSet<(Text, Text)>,
    /// Bumped when a pool joins or leaves either index: what the rules across pools read.
    fleet_generation: u64,
    /// Bumped when anything around the pools changes (Projects, Tenants, Compute, the objects
    /// pools name, AIWorkloads) or a source's state does: what a diagnosis reads beside the
    /// pool, its evaluation and its events.
    context_generation: u64,
    /// Per source, the objects its list in progress has sent so far (pages), by key.
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
}

impl Inventory {
    pub fn new() -> Inventory {
        Inventory::default()
    }

    /// Bumped when a pool is added or removed or changes its VIP: findings of the rules across
    /// pools stay valid while it stays the same.
    pub fn fleet_generation(&self) -> u64 {
        self.fleet_generation
    }

    /// The identity the rules across pools give a pool of this inventory (its allocation:
    /// a new version of a pool is a new identity).
    pub fn identity(object: &Arc<Object>) -> usize {
        Arc::as_ptr(object) as usize
    }

    /// What the rules across pools read of the fleet for one pool, as a fingerprint: the
    /// keys of the pools with its name and of those with its VIP (itself among them). The
    /// rules compare names, namespaces and VIPs only, so a pool's findings that read the fleet
    /// stay valid while this stays the same, whatever else joins or leaves.
    pub fn neighbours(&self, object: &Object) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        let name = object.name();
        for (_, namespace) in self
            .pools_by_name
            .range((Text::from(name), Text::default())..)
            .take_while(|(n, _)| n == name)
        {
            namespace.hash(&mut hasher);
        }
        if let Some(vip) = Inventory::vip_of(object) {
            vip.hash(&mut hasher);
            for (_, key) in self
                .pools_by_vip
                .range((vip.clone(), Key::default())..)
                .take_while(|(v, _)| *v == vip)
            {
                key.hash(&mut hasher);
            }
        }
        hasher.finish()
    }

    fn pool_at(&self, key: &Key) -> Option<(usize, &ComputePool)> {
        let object = self.objects.get(&Kind::Pool)?.get(key)?;
        Some((Inventory::identity(object), object.pool()?))
    }

    /// The effective VIP of a pool object, as the index keys it.
    pub(super) fn vip_of(object: &Object) -> Option<String> {
        object.pool()?.effective_vip().map(str::to_ascii_lowercase)
    }

    /// Keeps the indexes by name and VIP in step when a pool is stored or removed; the fleet
    /// generation moves only when a pool joins, leaves or changes its VIP.
    fn reindex_pool(&mut self, before: Option<&Object>, after: Option<&Object>) {
        let (old_vip, new_vip) = (
            before.and_then(Inventory::vip_of),
            after.and_then(Inventory::vip_of),
        );
        let key = match (before, after) {
            (_, Some(object)) | (Some(object), None) => object.key.clone(),
            (None, None) => return,
        };
        let joined_or_left = before.is_some() != after.is_some();
        if !joined_or_left && old_vip == new_vip {
            return;
        }
        if let Some(vip) = old_vip {
            self.pools_by_vip.remove(&(vip, key.clone()));
        }
        if let Some(vip) = new_vip {
            self.pools_by_vip.insert((vip, key.clone()));
        }
        let name = (key.1.clone(), key.0.clone());
        if after.is_some() {
            self.pools_by_name.insert(name);
        } else {
            self.pools_by_name.remove(&name);
        }
        self.fleet_generation += 1;
    }

    /// How far a source's list in progress has come (none: not listing in pages now).
    pub fn listing_progress(&self, kind: Kind) -> Option<Progress> {
        let mut progress: Option<Progress> = None;
        for ((k, _), listing) in &self.listing {
            if *k != kind {
                continue;
            }
            let received = listing.seen.len();
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
            return;
        }
        self.generation += 1;
        let context = match &event {
            SourceEvent::Listed { kind, .. }
            | SourceEvent::Page { kind, .. }
            | SourceEvent::Applied { kind, .. }
            | SourceEvent::Deleted { kind, .. } => {
                !matches!(kind, Kind::Pool | Kind::Evaluation | Kind::Event)
            }
            // A diagnosis reads whether ScalingPolicies, ProfileBundles and Settings are read
            // at all (one not found is then really missing); no other source's state.
            SourceEvent::State { kind, .. } => matches!(
                kind,
                Kind::ScalingPolicy | Kind::ProfileBundle | Kind::Settings
            ),
            SourceEvent::Heartbeat { .. } => false,
        };
        if context {
            self.context_generation += 1;
        }
        match event {
            SourceEvent::Listed {
                kind,
                scope,
                objects,
            } => {
                let in_scope = |key: &Key| scope.as_deref().is_none_or(|ns| key.0 == ns);
                let fresh: OrdMap<Key, Arc<Object>> = objects
                    .into_iter()
                    .map(|object| (object.key.clone(), Arc::new(object)))
                    .collect();
                let paged = self
                    .listing
                    .remove(&(kind, scope.clone()))
                    .unwrap_or_default()
                    .seen;
                let stale: Vec<Key> = self
                    .objects
                    .get(&kind)
                    .map(|m| {
                        m.keys()
                            .filter(|k| {
                                in_scope(k) && !fresh.contains_key(*k) && !paged.contains(*k)
                            })
                            .cloned()
                            .collect()
                    })
                    .unwrap_or_default();
                for key in stale {
                    self.remove(kind, &key);
                }
                for (_, object) in fresh {
                    self.insert(object);
                }
                self.record_health(kind, scope, Some(SourceState::Live), now, true);
            }
            SourceEvent::Page {
                kind,
                scope,
                objects,
                remaining,
            } => {
                let listing = self.listing.entry((kind, scope)).or_default();
                for object in &objects {
                    listing.seen.insert(object.key.clone());
                }
                listing.remaining = remaining;
                for object in objects {
                    self.insert(Arc::new(object));
                }
            }
            SourceEvent::Applied { kind, object } => {
                self.insert(Arc::new(Object::new(kind, object)));
                self.touch_all(kind, now);
            }
            SourceEvent::Deleted { kind, object } => {
                self.remove(kind, &key_of(&object));
                self.touch_all(kind, now);
            }
            SourceEvent::State { kind, scope, state } => {
                if state == SourceState::Syncing {
                    // A list starting (again): what a cut-short one paged in is not kept by it.
                    self.listing.remove(&(kind, scope.clone()));
                }
                self.record_health(kind, scope, Some(state), now, false)
            }
            SourceEvent::Heartbeat { .. } => {}
        }
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
        let key = object.key.clone();
        let before = self.objects.get(&kind).and_then(|m| m.get(&key)).cloned();
        self.note(kind, &key, before.as_deref(), Some(&object));
        if before.is_some() {
            self.unindex(kind, &key);
        }
        if kind == Kind::Pool {
            self.reindex_pool(before.as_deref(), Some(&object));
        }
        self.index(&object);
        self.objects.entry(kind).or_default().insert(key, object);
    }

    fn remove(&mut self, kind: Kind, key: &Key) {
        let before = self.objects.get(&kind).and_then(|m| m.get(key)).cloned();
        self.note(kind, key, before.as_deref(), None);
        if kind == Kind::Pool
            && let Some(before) = &before
        {
            self.reindex_pool(Some(before), None);
        }
        self.unindex(kind, key);
        if kind == Kind::Evaluation {
            self.forget_history(key);
        }
        if let Some(map) = self.objects.get_mut(&kind) {
            map.remove(key);
        }
    }

    pub fn objects(&self, kind: Kind) -> impl Iterator<Item = &Arc<Object>> {
        self.objects.get(&kind).into_iter().flat_map(|m| m.values())
    }

    pub fn get(&self, kind: Kind, namespace: &str, name: &str) -> Option<&Arc<Object>> {
        self.objects
            .get(&kind)?
            .get(&(Text::from(namespace), Text::from(name)))
    }

    pub fn count(&self, kind: Kind) -> usize {
        self.objects.get(&kind).map_or(0, OrdMap::len)
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
        let Some(keys) =
            self.events_by_object
                .get(&(kind.to_owned(), namespace.to_owned(), name.to_owned()))
        else {
            return Vec::new();
        };
        let mut events: Vec<&Arc<Object>> = keys
            .iter()
            .filter_map(|k| self.objects.get(&Kind::Event)?.get(k))
            .collect();
        events.sort_by_key(|e| e.happened());
        events
    }

    /// Utilization samples of one series, oldest first.
    pub fn history(&self, series: &SeriesKey) -> Option<&Vector<Sample>> {
        self.history.get(series)
    }

    /// Every series of one pool.
    pub fn series_of<'a>(
        &'a self,
        namespace: &'a str,
        name: &'a str,
    ) -> impl Iterator<Item = (&'a SeriesKey, &'a Vector<Sample>)> + 'a {
        // Series are ordered by namespace and pool first: one range, not a scan of the fleet.
        let first = SeriesKey {
            namespace: namespace.into(),
            pool: name.into(),
            worker_pool: Default::default(),
            resource: Default::default(),
        };
        self.history
            .range(first..)
            .take_while(move |(k, _)| k.namespace == namespace && k.pool == name)
    }

    pub fn health(&self) -> impl Iterator<Item = (&(Kind, Scope), &Health)> {
        self.health.iter()
    }

    pub fn health_of(&self, kind: Kind) -> impl Iterator<Item = &Health> {
        self.health
            .iter()
            .filter(move |((k, _), _)| *k == kind)
            .map(|(_, h)| h)
    }
}

/// The inventory answers the rules' questions across pools from its own indexes, so the
/// console checks a pool against the real fleet without copying it.
impl crate::domain::rules::Pools for Inventory {
    fn named<'s>(&'s self, name: &str) -> Box<dyn Iterator<Item = (usize, &'s ComputePool)> + 's> {
        let name = Text::from(name);
        let first = (name.clone(), Text::default());
        Box::new(
            self.pools_by_name
                .range(first..)
                .take_while(move |(n, _)| *n == name)
                .filter_map(move |(n, namespace)| self.pool_at(&(namespace.clone(), n.clone()))),
        )
    }

    fn with_vip<'s>(
        &'s self,
        vip: &str,
    ) -> Box<dyn Iterator<Item = (usize, &'s ComputePool)> + 's> {
        let vip = vip.to_ascii_lowercase();
        let first = (vip.clone(), Key::default());
        Box::new(
            self.pools_by_vip
                .range(first..)
                .take_while(move |(v, _)| *v == vip)
                .filter_map(move |(_, key)| self.pool_at(key)),
        )
    }
}

#[cfg(test)]
mod tests;
