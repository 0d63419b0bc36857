//! A source event applied to the picture: objects inserted and removed, lists and pages taken in, health recorded.

use std::sync::Arc;

use chrono::{DateTime, Utc};

use std::collections::BTreeSet;

use super::{
    Health, Held, Inventory, Key, Kind, Listing, Object, Scope, SourceEvent, SourceState, key_of,
};

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
        SourceEvent::Heartbeat { .. }
        | SourceEvent::Lists { .. }
        | SourceEvent::PoolsElsewhere { .. } => false,
    }
}

impl Inventory {
    /// Applies one source event at time `now`.
    pub fn apply(&mut self, event: SourceEvent, now: DateTime<Utc>) {
        self.seen_at = now;
        // A heartbeat changes what the header says, not the objects: the rows stay.
        if let SourceEvent::Heartbeat { result } = event {
            self.heartbeat(result, now);
            return;
        }
        if let SourceEvent::Lists { way } = event {
            self.list_way = Some(way);
            return;
        }
        if let SourceEvent::PoolsElsewhere { namespaces } = event {
            self.pools_elsewhere = namespaces;
            self.generation += 1;
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
            } => self.paged(kind, scope, objects),
            SourceEvent::Applied { kind, object } => {
                self.take(Object::new(kind, object));
                self.touch_all(kind, now);
            }
            SourceEvent::Read { object } => {
                let kind = object.kind;
                self.take(object);
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
            SourceEvent::Heartbeat { .. }
            | SourceEvent::Lists { .. }
            | SourceEvent::PoolsElsewhere { .. } => {}
        }
    }

    /// A heartbeat's answer: when the server last answered, or since when it has not.
    pub(super) fn heartbeat(
        &mut self,
        result: Result<(), crate::domain::ClusterError>,
        now: DateTime<Utc>,
    ) {
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
    pub(super) fn listed(
        &mut self,
        kind: Kind,
        scope: Scope,
        objects: Vec<Object>,
        now: DateTime<Utc>,
    ) {
        let fresh: BTreeSet<Held> = objects
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
    pub(super) fn paged(&mut self, kind: Kind, scope: Scope, objects: Vec<Object>) {
        if !self.listing.contains_key(&(kind, scope.clone())) {
            // The list's first page: what is held now is what it must bring again.
            let unseen: BTreeSet<Key> = self.keys_in(kind, scope.as_deref()).cloned().collect();
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
        }
        for object in objects {
            self.take(object);
        }
    }

    /// The keys held of a kind in a source's scope (`None`: every namespace).
    pub(super) fn keys_in<'a>(
        &'a self,
        kind: Kind,
        scope: Option<&'a str>,
    ) -> impl Iterator<Item = &'a Key> {
        self.objects
            .get(&kind)
            .into_iter()
            .flat_map(|m| m.iter())
            .map(|held| &held.0.key)
            .filter(move |k| scope.is_none_or(|ns| k.0 == ns))
    }

    /// Records a source's state at `now` (keeping the current one when `state` is `None`);
    /// `event` says an object event or a list arrived, which is the time the header shows.
    pub(super) fn record_health(
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

    pub(super) fn touch_all(&mut self, kind: Kind, now: DateTime<Utc>) {
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

    /// An object a source read, held.
    pub(super) fn take(&mut self, object: Object) {
        self.insert(Arc::new(object));
    }

    pub(super) fn insert(&mut self, object: Arc<Object>) {
        let kind = object.kind;
        if kind == Kind::AIWorkload {
            self.workloads_gone.remove(&object.key);
        }
        let before = self.held(kind, &object.key).cloned();
        self.note(kind, &object.key, before.as_deref(), Some(&object));
        self.saw(kind, &object.key, before.as_deref(), Some(&object));
        if let Some(before) = &before {
            self.unindex(before);
        }
        if kind == Kind::Pool {
            self.reindex_pool(before.as_deref(), Some(&object));
        }
        self.index(&object);
        let set = self.objects.entry(kind).or_default();
        // `replace`, not `insert`: an equal entry (the old version) must give way.
        set.replace(Held(object));
    }

    pub(super) fn remove(&mut self, kind: Kind, key: &Key) {
        let before = self.held(kind, key).cloned();
        self.note(kind, key, before.as_deref(), None);
        self.saw(kind, key, before.as_deref(), None);
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
}
