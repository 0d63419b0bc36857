//! A view's rows made over turns of the loop, and one hub's rows made again whole.

use std::sync::Arc;

use super::base::{Base, Kept};
use super::filter::Filter;
use super::marks;
use super::placed::{on_hub, time_of};
use crate::app::App;
use crate::app::rows::{self, Table};
use crate::app::view::Rows;
use crate::inventory::Key;

/// How many objects a view's rows are made from before the store makes room for the rest.
pub(super) const ROWS_SAMPLE: usize = 256;

/// How many rows a turn of the loop makes of a view being built (a few tens of milliseconds
/// at fleet scale); of the pools view, [`POOL_ROWS_PER_TURN`].
pub(super) const ROWS_PER_TURN: usize = 16_384;

/// How many rows a turn makes of the pools view: a pool's row is the costliest to make (its
/// GPUs, hosts, scaling and findings; about four hosts' or events'), so its turns make fewer
/// to take about as long, and 10,000 pools open with their first rows at once.
pub(super) const POOL_ROWS_PER_TURN: usize = ROWS_PER_TURN / 4;

/// A view made over several turns of the loop ([`ROWS_PER_TURN`] rows a turn, fewer of
/// pools), so that a view of a hundred thousand rows shows its first rows at once and keys are
/// read between turns: the hubs whose rows are still to be made, in order, the first under way, and the
/// last of its objects made.
#[derive(Clone, Debug, Default)]
pub(super) struct Building {
    hubs: std::collections::VecDeque<usize>,
    after: Option<Key>,
}

impl Building {
    /// Whether an object's rows are yet to be made (a change to it waits for its turn).
    pub(super) fn waits(&self, hub: usize, key: &Key) -> bool {
        match self.hubs.iter().position(|h| *h == hub) {
            Some(0) => self.after.as_ref().is_none_or(|after| key > after),
            Some(_) => true,
            None => false,
        }
    }
}

impl App {
    /// The rows of these hubs made again whole (what changed in them could not be told);
    /// the slots they left and took added to `patch`.
    pub(super) fn make_hubs_again(
        &mut self,
        rebuild: &[usize],
        patch: &mut Option<(Vec<usize>, Vec<usize>)>,
    ) {
        for hub in rebuild {
            let removed = self.shown.base.remove_hub(*hub);
            // Made whole now: its turn (if it still had one) is done.
            if let Some(building) = self.shown.building.as_mut()
                && let Some(at) = building.hubs.iter().position(|h| h == hub)
            {
                building.hubs.remove(at);
                if at == 0 {
                    building.after = None;
                }
            }
            let (added, _) = self.add_hub_rows(*hub, None, usize::MAX);
            #[cfg(test)]
            {
                self.shown.rows_built += added.len() as u64;
            }
            let (all_removed, all_added) = patch.get_or_insert_default();
            all_removed.extend(removed);
            all_added.extend(added);
        }
    }

    /// Makes the current view's rows from scratch: every hub in view's, one after another,
    /// the first turn's now and the rest in the next turns of the loop ([`Building`]).
    pub(super) fn build_base(&mut self) {
        let whole = !matches!(self.list.view.rows, Rows::PerObject { .. });
        // The old rows go first: switching views never holds both.
        self.shown.base = Base::new(whole);
        // The filter's words and the sorted column's values are kept as the rows are made
        // (not made again after).
        self.keep_derived();
        self.shown.building = Some(Building {
            hubs: self.fleet.in_view().into_iter().collect(),
            after: None,
        });
        self.build_turn(self.turn_budget());
        #[cfg(test)]
        {
            self.shown.builds += 1;
        }
    }

    /// How many rows the next turn makes: a turn's worth, or all that are left when the row a
    /// key chose is among them (it is found before anything is drawn or acted on).
    pub(super) fn turn_budget(&self) -> usize {
        let waits = self.list.chosen
            && self
                .list
                .selected_id
                .as_ref()
                .zip(self.shown.building.as_ref())
                .is_some_and(|((hub, id, _), building)| {
                    building.waits(*hub, &(id.namespace.clone(), id.name.clone()))
                });
        if waits {
            usize::MAX
        } else {
            let usual = if self.list.view.pools {
                POOL_ROWS_PER_TURN
            } else {
                ROWS_PER_TURN
            };
            self.shown.rows_per_turn.unwrap_or(usual).max(1)
        }
    }

    /// A turn of the loop for the view being made (see [`Msg::Build`](super::Msg::Build)).
    pub fn build_due(&mut self) {
        self.shown.turn_due = true;
    }

    /// Puts a turn's new slots in the shown order: those the filter keeps, sorted, merged
    /// with the order (not the whole order sorted again each turn).
    pub(super) fn merge_in(&mut self, added: &[usize]) {
        let Ok(filter) = Filter::parse(self.list.filter.trim()) else {
            return;
        };
        let column = self.sorted_column();
        let mut new: Vec<usize> = added
            .iter()
            .copied()
            .filter(|slot| self.keeps(&filter, *slot))
            .collect();
        let base = &self.shown.base;
        new.sort_by(|a, b| base.compare(*a, *b, column));
        let old = &self.shown.order;
        let mut merged = Vec::with_capacity(old.len() + new.len());
        let (mut i, mut j) = (0, 0);
        while let (Some(o), Some(n)) = (old.get(i), new.get(j)) {
            if base.compare(*n, *o, column).is_lt() {
                merged.push(*n);
                j += 1;
            } else {
                merged.push(*o);
                i += 1;
            }
        }
        merged.extend_from_slice(old.get(i..).unwrap_or_default());
        merged.extend_from_slice(new.get(j..).unwrap_or_default());
        self.shown.order = merged;
    }

    /// Whether the current view is still being made, or its filter words worked out (the
    /// loop turns again at once).
    pub fn building(&self) -> bool {
        self.shown.building.is_some() || self.shown.filling.is_some()
    }

    /// Makes up to `budget` more rows of the view being built; the slots they took.
    pub(super) fn build_turn(&mut self, mut budget: usize) -> Vec<usize> {
        let mut made = Vec::new();
        while let Some(building) = self.shown.building.as_ref() {
            let Some(hub) = building.hubs.front().copied() else {
                self.shown.building = None;
                break;
            };
            let after = building.after.clone();
            let (added, last) = self.add_hub_rows(hub, after.as_ref(), budget);
            #[cfg(test)]
            {
                self.shown.rows_built += added.len() as u64;
            }
            budget = budget.saturating_sub(added.len());
            made.extend(added);
            let Some(building) = self.shown.building.as_mut() else {
                break;
            };
            match last {
                // More of this hub's objects wait for the next turn.
                Some(last) => {
                    building.after = Some(last);
                    break;
                }
                None => {
                    building.hubs.pop_front();
                    building.after = None;
                }
            }
            if budget == 0 {
                break;
            }
        }
        if self
            .shown
            .building
            .as_ref()
            .is_some_and(|b| b.hubs.is_empty())
        {
            self.shown.building = None;
        }
        made
    }

    /// Makes one hub's rows of the current view and puts them in the base (its columns, with
    /// HUB first across hubs, set by the first); returns their slots. A view made per object
    /// is made one object at a time and keeps what each row needs to be ordered and laid out
    /// (the window's rows are built again when the window moves, by the refresh): making it
    /// never holds the whole table.
    ///
    /// Made from the object after `after` (the first without), until `budget` rows are made:
    /// the slots, and the last object made when objects are left for another turn.
    pub(super) fn add_hub_rows(
        &mut self,
        hub: usize,
        after: Option<&Key>,
        budget: usize,
    ) -> (Vec<usize>, Option<Key>) {
        let mixed = self.fleet.mixed();
        let name = mixed.then(|| self.fleet.name(hub).to_owned());
        let view = self.list.view;
        let (owner_kind, make, columns) = match view.rows {
            Rows::PerObject {
                owner,
                rows: make,
                columns,
                ..
            } => (owner, make, columns),
            Rows::Whole(_) | Rows::Findings(_) => {
                let Some(table) = self.base_table(hub) else {
                    return (Vec::new(), None);
                };
                self.set_columns(table.columns);
                let base = &mut self.shown.base;
                base.reserve(table.rows.len(), 1);
                let added = table
                    .rows
                    .into_iter()
                    .enumerate()
                    .map(|(index, row)| {
                        let kept = Kept {
                            hub,
                            object: None,
                            index,
                            time: None,
                        };
                        base.add(on_hub(row, hub, name.as_deref()), kept, true)
                    })
                    .collect();
                return (added, None);
            }
        };
        self.set_columns(columns(false));
        let shown = &mut self.shown;
        let Some((inventory, doctor)) = marks::hub_parts(&self.fleet, hub) else {
            return (Vec::new(), None);
        };
        let owners = inventory.count(owner_kind);
        let mut added = Vec::new();
        // Room for every object's first row at once, though this turn makes only `budget`:
        // growing by doubling through the later turns would hold the old and the new store
        // at once.
        if after.is_none() {
            shown.base.reserve(owners, owners);
            added.reserve(owners.min(budget));
        }
        let mut last: Option<&Key> = None;
        for (done, object) in inventory.objects_after(owner_kind, after).enumerate() {
            if added.len() >= budget
                && let Some(last) = last
            {
                return (added, Some(last.clone()));
            }
            // A view may make several rows an object (a pool's hosts): once a sample of
            // objects shows how many, room for the rest's at once (with an eighth more), so
            // the store does not grow by doubling through the fleet (each doubling holds the
            // old and the new at once).
            if after.is_none() && done == ROWS_SAMPLE && owners > ROWS_SAMPLE && added.len() > done
            {
                let expected = added.len().saturating_mul(owners) / done / 8 * 9;
                let more = expected.saturating_sub(added.len());
                shown.base.reserve(more, 0);
                added.reserve(more.min(budget.saturating_sub(added.len())));
            }
            let mut made = make(inventory, object, false);
            if view.pools {
                marks::mark_rows(inventory, doctor, &mut made);
            }
            let time = time_of(object);
            for (index, row) in made.into_iter().enumerate() {
                let kept = Kept {
                    hub,
                    object: Some(Arc::clone(object)),
                    index,
                    time,
                };
                added.push(
                    shown
                        .base
                        .add(on_hub(row, hub, name.as_deref()), kept, false),
                );
            }
            last = Some(&object.key);
        }
        (added, None)
    }

    /// Sets the base's columns (with HUB first across hubs) if no hub has yet.
    pub(super) fn set_columns(&mut self, columns: Vec<rows::Column>) {
        let base = &mut self.shown.base;
        if !base.columns.is_empty() {
            return;
        }
        base.columns = columns;
        if self.fleet.mixed() {
            base.columns.insert(0, rows::column::HUB);
        }
        base.warning_column = self
            .list
            .view
            .warnings
            .and_then(|column| base.columns.iter().position(|c| *c == column));
    }

    /// One hub's rows of a view made whole.
    pub(super) fn base_table(&self, hub: usize) -> Option<Table> {
        match self.list.view.rows {
            Rows::Whole(table) => Some(table(self.inventory_of(hub)?, None, false)),
            Rows::Findings(table) => Some(table(self.doctor_of(hub)?)),
            // Made one object at a time (`add_hub_rows`), never whole.
            Rows::PerObject { .. } => None,
        }
    }
}
