//! The window of rows held whole around the selection, and the selection kept on its row.

use std::collections::{BTreeSet, HashSet};

use super::base::Owner;
use super::placed::on_hub;
use crate::app::App;
use crate::app::rows::Row;
use crate::app::view::Rows;
use crate::domain::ObjectRef;

/// How far the window of rows held whole reaches on each side of the selection, at least: a
/// screen taller than this widens it to its height, so that the rows drawn (the selection's
/// and up to a screen on either side of it) are always in it.
pub const WINDOW_MARGIN: usize = 512;

impl App {
    /// The selection stays on its row when rows move (once a key chose it), within the list.
    pub(super) fn keep_selection(&mut self, moved: bool) {
        if moved
            && self.list.chosen
            && let Some((hub, id, part)) = self.list.selected_id.clone()
            && let Some(index) = self.position_of(hub, &id, part.as_deref())
        {
            self.list.selected = index;
        }
        self.list.selected = self.list.selected.min(self.shown.len().saturating_sub(1));
        self.fill_window(moved);
        self.list.selected_id = self
            .shown
            .row(self.list.selected)
            .map(|r| (r.hub, r.id.clone(), r.part.clone()));
    }

    /// One object's rows of the current view, built again from the inventory as the store
    /// built them (the markers its slots keep; the HUB cell across hubs).
    pub(super) fn owner_rows(&mut self, owner: &Owner) -> Vec<Row> {
        let Rows::PerObject {
            owner: kind,
            rows: make,
            ..
        } = self.list.view.rows
        else {
            return Vec::new();
        };
        let (hub, (namespace, name)) = owner;
        let Some(object) = self
            .inventory_of(*hub)
            .and_then(|i| i.get(kind, namespace, name))
            .cloned()
        else {
            return Vec::new();
        };
        let Some(inventory) = self.inventory_of(*hub) else {
            return Vec::new();
        };
        let made = make(inventory, &object, false);
        let label = self.fleet.mixed().then(|| self.fleet.name(*hub).to_owned());
        let base = &self.shown.base;
        let slots = base.slots_of(owner);
        let made: Vec<Row> = made
            .into_iter()
            .enumerate()
            .map(|(i, row)| {
                let mut row = on_hub(row, *hub, label.as_deref());
                if let Some((broken, worst)) = slots.get(i).and_then(|s| base.marks(*s)) {
                    row.broken = broken;
                    row.worst = worst;
                }
                row
            })
            .collect();
        #[cfg(test)]
        {
            self.shown.rows_rebuilt += made.len() as u64;
        }
        made
    }

    /// Where a row stands in the shown order, by its hub, object and part.
    pub(super) fn position_of(
        &mut self,
        hub: usize,
        id: &ObjectRef,
        part: Option<&str>,
    ) -> Option<usize> {
        let same = |row: &Row| row.hub == hub && row.id == *id && row.part.as_deref() == part;
        let base = &self.shown.base;
        let slot = if base.whole {
            self.shown
                .order
                .iter()
                .copied()
                .find(|slot| base.row(*slot).is_some_and(same))?
        } else {
            let owner: Owner = (hub, (id.namespace.clone(), id.name.clone()));
            let slots = base.slots_of(&owner);
            match slots
                .iter()
                .copied()
                .find(|slot| base.row(*slot).is_some_and(same))
            {
                Some(slot) => slot,
                None if slots.iter().all(|slot| base.row(*slot).is_some()) => return None,
                None => {
                    let made = self.owner_rows(&owner);
                    let index = made.iter().position(same)?;
                    *slots.get(index)?
                }
            }
        };
        self.shown.order.iter().position(|s| *s == slot)
    }

    /// Holds whole the rows of the window around the selection, building those it lacks
    /// from their objects, and lets go of the others (a view made whole holds all).
    pub(super) fn fill_window(&mut self, moved: bool) {
        let len = self.shown.order.len();
        let tall = self.size.map_or(0, |(_, height)| usize::from(height));
        let margin = self.shown.margin.unwrap_or(WINDOW_MARGIN.max(tall));
        let selected = self.list.selected;
        // A view made whole holds every row: its window is the list.
        let window = if self.shown.base.whole {
            (0, len)
        } else {
            (
                selected.saturating_sub(margin).min(len),
                selected.saturating_add(margin).saturating_add(1).min(len),
            )
        };
        if !moved && window == self.shown.window {
            return;
        }
        self.shown.window = window;
        if self.shown.base.whole {
            return;
        }
        let wanted: Vec<usize> = self.shown.order[window.0..window.1].to_vec();
        let keep: HashSet<usize> = wanted.iter().copied().collect();
        self.shown.base.let_go(&keep);
        let base = &self.shown.base;
        let missing: BTreeSet<Owner> = wanted
            .iter()
            .filter(|slot| base.row(**slot).is_none())
            .filter_map(|slot| base.owner(*slot).map(|(h, key)| (h, key.clone())))
            .collect();
        for owner in missing {
            let made = self.owner_rows(&owner);
            let slots = self.shown.base.slots_of(&owner);
            for (slot, row) in slots.into_iter().zip(made) {
                if keep.contains(&slot) {
                    self.shown.base.hold(slot, row);
                }
            }
        }
    }
}
