//! What the picture holds, read: objects by kind and name, hosts, events, series, and each source's health.

use std::sync::Arc;

use std::collections::{BTreeSet, VecDeque};

use super::derive;
use super::{Health, Key, SourceState};
use super::{HostRow, Inventory, Kind, Object, Sample, Scope, Series, SeriesKey};
use crate::domain::field::Text;
use crate::domain::model::ComputePoolEvaluation;

impl Inventory {
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
    pub(super) fn held(&self, kind: Kind, key: &Key) -> Option<&Arc<Object>> {
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
            m.range::<Key, _>((from, Bound::Unbounded))
                .map(|held| &held.0)
        })
    }

    pub fn get(&self, kind: Kind, namespace: &str, name: &str) -> Option<&Arc<Object>> {
        self.held(kind, &(Text::from(namespace), Text::from(name)))
    }

    pub fn count(&self, kind: Kind) -> usize {
        self.objects.get(&kind).map_or(0, BTreeSet::len)
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
            .get(&about)
            .into_iter()
            .flatten()
            .map(|held| &held.0)
            .filter(|e| derive::involved(e) == Some((kind, namespace, name)))
            .collect();
        events.sort_by_cached_key(|e| e.happened());
        events
    }

    /// Utilization samples of one series, oldest first.
    pub fn history(&self, series: &SeriesKey) -> Option<&VecDeque<Sample>> {
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
