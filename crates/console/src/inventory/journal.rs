//! The journal: which pool, evaluation or event each recent generation of the inventory
//! stored or removed, so that readers keeping work per object (the console's rows, the
//! doctor's findings) redo only what a change touched.

use super::{Change, Inventory, JOURNAL, Key, Kind, Object, derive};
use crate::domain::field::Text;

impl Inventory {
    /// The pools, evaluations and events changed after `generation` (each as often as it
    /// changed, whether by an event, a page or a list), or `None` when that cannot be told
    /// and a reader must look at everything: an object around the pools (a Project, Compute,
    /// ...) was stored or removed, or more than [`JOURNAL`] changes happened since.
    pub fn changes_since(&self, generation: u64) -> Option<Vec<&Change>> {
        if generation < self.journal_floor || generation > self.generation {
            return None;
        }
        let mut changes: Vec<&Change> = self
            .journal
            .iter()
            .rev()
            .take_while(|(g, _)| *g > generation)
            .map(|(_, change)| change)
            .collect();
        changes.reverse();
        Some(changes)
    }

    /// Notes an object stored or removed, for [`Inventory::changes_since`]: a pool,
    /// evaluation or event by its key (an event with the pools it was and is about); anything
    /// else starts the journal over.
    pub(super) fn note(
        &mut self,
        kind: Kind,
        key: &Key,
        before: Option<&Object>,
        after: Option<&Object>,
    ) {
        if !matches!(kind, Kind::Pool | Kind::Evaluation | Kind::Event) {
            self.journal.clear();
            self.journal_floor = self.generation;
            return;
        }
        let pools = if kind == Kind::Event {
            let about = |o: Option<&Object>| o.and_then(derive::involved_pool);
            let mut pools: Vec<Key> = about(after).into_iter().collect();
            pools.extend(about(before).filter(|b| !pools.contains(b)));
            pools
        } else {
            vec![key.clone()]
        };
        let fleet = (kind == Kind::Pool)
            .then(|| {
                let (old, new) = (
                    before.and_then(Inventory::vip_of),
                    after.and_then(Inventory::vip_of),
                );
                let moved = before.is_some() != after.is_some() || old != new;
                // A pool starting or stopping to run on its VIP changes who holds it.
                let holder =
                    new.is_some() && before.map(Inventory::runs) != after.map(Inventory::runs);
                (moved || holder).then(|| old.into_iter().chain(new).collect())
            })
            .flatten();
        let change = Change {
            kind,
            key: key.clone(),
            pools,
            fleet,
        };
        self.journal.push_back((self.generation, change));
        if self.journal.len() > JOURNAL
            && let Some((gone, _)) = self.journal.pop_front()
        {
            self.journal_floor = self.journal_floor.max(gone);
        }
    }

    /// The pools whose neighbours (the pools sharing their name or VIP) these changes may
    /// have changed: those now named like, or with a VIP of, a pool that joined, left or
    /// changed its VIP. A name or VIP no two pools have, held by the changed pool itself,
    /// has only that pool (the usual case of a pool joining): it is said without a walk of
    /// the index.
    pub fn fleet_touched(&self, changes: &[&Change]) -> Vec<Key> {
        let mut touched = Vec::new();
        for change in changes {
            let Some(vips) = &change.fleet else { continue };
            let held = self.held(Kind::Pool, &change.key);
            let name = &change.key.1;
            if held.is_some() && !self.shared_names.contains(name) {
                touched.push(change.key.clone());
            } else {
                touched.extend(
                    self.pools_by_name
                        .range((name.clone(), Text::default())..)
                        .take_while(|(n, _)| n == name)
                        .map(|(n, namespace)| (namespace.clone(), n.clone())),
                );
            }
            let own_vip = held.and_then(|o| o.pool()).and_then(|p| p.effective_vip());
            for vip in vips {
                let own = own_vip.is_some_and(|v| v.eq_ignore_ascii_case(vip));
                if own && !self.shared_vips.contains(vip) {
                    touched.push(change.key.clone());
                    continue;
                }
                touched.extend(
                    self.pools_by_vip
                        .range((vip.clone(), Key::default())..)
                        .take_while(|(v, _)| v == vip)
                        .map(|(_, key)| key.clone()),
                );
            }
        }
        touched
    }
}
