//! The journal: which pool, evaluation or event each recent generation of the inventory
//! stored or removed, so that readers keeping work per object (the console's rows, the
//! doctor's findings) redo only what a change touched.

use super::{Inventory, Key, Kind, Object, derive};

/// One change the journal remembers: a pool, evaluation or event applied or deleted.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub kind: Kind,
    pub key: Key,
    /// The pools whose picture it touches (namespace, name): a pool or evaluation its own,
    /// an event the ComputePool it is about now and the one it was about before.
    pub pools: Vec<Key>,
}

/// How many changes the journal remembers: a reader further behind starts over.
pub const JOURNAL: usize = 4096;

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
            let about =
                |o: Option<&Object>| o.and_then(Object::raw).and_then(derive::involved_pool);
            let mut pools: Vec<Key> = about(after).into_iter().collect();
            pools.extend(about(before).filter(|b| !pools.contains(b)));
            pools
        } else {
            vec![key.clone()]
        };
        let change = Change {
            kind,
            key: key.clone(),
            pools,
        };
        self.journal.push_back((self.generation, change));
        if self.journal.len() > JOURNAL
            && let Some((gone, _)) = self.journal.pop_front()
        {
            self.journal_floor = self.journal_floor.max(gone);
        }
    }
}
