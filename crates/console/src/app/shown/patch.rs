//! What changed in the hubs in view since the rows were made, and the changed objects' rows made again.

use std::collections::BTreeSet;
use std::sync::Arc;

use super::base::Kept;
use super::marks;
use super::placed::{on_hub, time_of};
use crate::app::App;
use crate::app::view::Rows;
use crate::inventory::{Key, Kind};

/// What changed in the hubs in view since the rows were made ([`App::what_changed`]).
#[derive(Default)]
pub(super) struct Changed {
    /// The rows removed and added, by slot.
    pub(super) patch: Option<(Vec<usize>, Vec<usize>)>,
    /// Per hub, the pools whose rule markers may read differently: their name or VIP is
    /// shared with a pool that joined, left or changed its VIP.
    pub(super) relint: Vec<(usize, Vec<Key>)>,
    /// The doctor's worst markers moved.
    pub(super) remark: bool,
    /// Hubs whose rows are made again whole.
    pub(super) rebuild: Vec<usize>,
}

impl App {
    /// What changed in each hub in view since the rows were made: the rows to patch, the
    /// pools whose markers may read differently, whether the worst markers moved, the hubs
    /// to make again whole. `None`: what changed cannot be told, and the list is made again.
    pub(super) fn what_changed(&mut self, in_view: &[usize]) -> Option<Changed> {
        let mut changed = Changed::default();
        for hub in in_view.iter().copied() {
            let Some(inventory) = self.inventory_of(hub) else {
                continue;
            };
            let seen = self.shown.seen.get(hub).copied().unwrap_or_default();
            if self.doctor_of(hub).is_some_and(|d| d.marks != seen.marks) {
                changed.remark = true;
            }
            if seen.generation == inventory.generation() {
                continue;
            }
            // Owned, so that the rows can be patched while the inventory is read.
            let Some(changes) = inventory.changes_since(seen.generation) else {
                // What changed cannot be told: this hub's rows are made again (across
                // hubs, the others' stay); with one hub in view, the whole list is.
                if in_view.len() > 1 {
                    changed.rebuild.push(hub);
                    continue;
                }
                return None;
            };
            if inventory.fleet_generation() != seen.fleet {
                changed
                    .relint
                    .push((hub, inventory.fleet_touched(&changes)));
            }
            let keys: Vec<(Kind, Key)> = changes.iter().map(|c| (c.kind, c.key.clone())).collect();
            if let Some((removed, added)) = self.patch_owners(hub, &keys) {
                let (all_removed, all_added) = changed.patch.get_or_insert_default();
                all_removed.extend(removed);
                all_added.extend(added);
            }
        }
        Some(changed)
    }

    /// Makes again the rows of the objects of one hub these changes touch; returns the
    /// slots taken out and those put in (`None` when the view has none of them).
    pub(super) fn patch_owners(
        &mut self,
        hub: usize,
        changes: &[(Kind, Key)],
    ) -> Option<(Vec<usize>, Vec<usize>)> {
        let Rows::PerObject {
            owner,
            touched_by,
            rows: make,
            ..
        } = self.list.view.rows
        else {
            return None;
        };
        let building = self.shown.building.as_ref();
        let owners: BTreeSet<&Key> = changes
            .iter()
            .filter(|(kind, _)| touched_by.contains(kind))
            .map(|(_, key)| key)
            // Made in its turn, as it is then.
            .filter(|key| !building.is_some_and(|b| b.waits(hub, key)))
            .collect();
        if owners.is_empty() {
            return None;
        }
        let name = self.fleet.mixed().then(|| self.fleet.name(hub).to_owned());
        let (mut removed, mut added) = (Vec::new(), Vec::new());
        for key in owners {
            removed.extend(self.shown.base.remove_owner(&(hub, key.clone())));
            let Some(inventory) = self.inventory_of(hub) else {
                continue;
            };
            let Some(object) = inventory.get(owner, &key.0, &key.1).cloned() else {
                continue;
            };
            let mut made = make(inventory, &object, false);
            if self.list.view.pools
                && let Some((inventory, doctor)) = marks::hub_parts(&self.fleet, hub)
            {
                marks::mark_rows(inventory, doctor, &mut made);
            }
            #[cfg(test)]
            {
                self.shown.rows_built += made.len() as u64;
            }
            let time = time_of(&object);
            for (index, row) in made.into_iter().enumerate() {
                let row = on_hub(row, hub, name.as_deref());
                let kept = Kept {
                    hub,
                    object: Some(Arc::clone(&object)),
                    index,
                    time,
                };
                // Held: the window may show it (what it does not show is let go).
                added.push(self.shown.base.add(row, kept, true));
            }
        }
        Some((removed, added))
    }
}
