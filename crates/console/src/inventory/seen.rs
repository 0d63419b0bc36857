//! The changes pooldeck sees of pools and evaluations, noted for their timelines as they are
//! applied (from the version held and the one arriving: nothing is kept per pool meanwhile).

use crate::domain::timeline::{self, Entry};

use super::{Inventory, Key, Kind, Object};

/// Entries noted at most between two readings; past it the oldest go.
pub const SEEN_AT_MOST: usize = 10_000;

impl Inventory {
    /// Notes, from now on, the changes seen of pools and evaluations ([`Inventory::take_seen`]).
    pub fn note_changes(&mut self) {
        self.seen.get_or_insert_with(Vec::new);
    }

    /// The changes seen since the last call, each with its pool (namespace, name).
    pub fn take_seen(&mut self) -> Vec<(Key, Entry)> {
        self.seen.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// A pool or evaluation stored or removed: what changed, when changes are noted. A pool
    /// gone also keeps what the hub held of its past, which can no longer be read there.
    pub(super) fn saw(
        &mut self,
        kind: Kind,
        key: &Key,
        before: Option<&Object>,
        after: Option<&Object>,
    ) {
        if self.seen.is_none() || !matches!(kind, Kind::Pool | Kind::Evaluation | Kind::AIWorkload)
        {
            return;
        }
        if kind == Kind::AIWorkload {
            self.saw_workload_go(key, before, after);
            return;
        }
        // A version that cannot be read says nothing of what changed (it is no pool gone).
        if after.is_some_and(|a| a.pool().is_none() && a.evaluation().is_none()) {
            return;
        }
        let at = self.seen_at;
        let mut entries = if kind == Kind::Pool {
            timeline::seen_pool(
                before.and_then(Object::pool),
                after.and_then(Object::pool),
                at,
            )
        } else {
            let pool = self.get(Kind::Pool, &key.0, &key.1).and_then(|p| p.pool());
            let policy = pool
                .and_then(|p| p.scaling_policy_ref())
                .and_then(|r| {
                    let namespace = r.namespace.as_deref().unwrap_or(&key.0);
                    self.get(Kind::ScalingPolicy, namespace, r.name.as_deref()?)
                })
                .and_then(|p| p.raw());
            let (old, new) = (
                before.and_then(Object::evaluation),
                after.and_then(Object::evaluation),
            );
            timeline::seen_evaluation(old, new, policy, at)
        };
        if let (Kind::Pool, Some(gone), None) = (kind, before.and_then(Object::pool), after) {
            entries.extend(timeline::from_pool(gone));
            let events = self.events_for("ComputePool", &key.0, &key.1);
            entries.extend(timeline::from_events(
                events.iter().filter_map(|e| e.event()),
            ));
            if let Some(evaluation) = self
                .get(Kind::Evaluation, &key.0, &key.1)
                .and_then(|e| e.evaluation())
            {
                entries.extend(timeline::from_evaluation(evaluation));
            }
        }
        self.note_seen(entries.into_iter().map(|e| (key.clone(), e)));
    }

    /// Adds to what was seen, the oldest let go past [`SEEN_AT_MOST`].
    fn note_seen(&mut self, entries: impl IntoIterator<Item = (Key, Entry)>) {
        let Some(seen) = self.seen.as_mut() else {
            return;
        };
        seen.extend(entries);
        if seen.len() > SEEN_AT_MOST {
            let over = seen.len().saturating_sub(SEEN_AT_MOST);
            seen.drain(..over);
        }
    }

    /// An AIWorkload gone: on the timeline of the pool it named (a deletion waits for these).
    fn saw_workload_go(&mut self, key: &Key, before: Option<&Object>, after: Option<&Object>) {
        let (Some(gone), None) = (before.and_then(Object::raw), after) else {
            return;
        };
        let Some((namespace, pool)) = crate::domain::fixes::claimed(gone) else {
            return;
        };
        let subject = format!("aiworkload {}/{}", key.0, key.1);
        let text = format!("AIWorkload {}/{} deleted", key.0, key.1);
        let entry = Entry::new(
            self.seen_at,
            timeline::Clock::Pooldeck,
            timeline::Source::Pool,
            &subject,
        )
        .says("deleted", text);
        let pool_key: Key = (namespace.into(), pool.into());
        self.note_seen([(pool_key, entry)]);
    }
}
