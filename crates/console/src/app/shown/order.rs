//! The shown rows' order: filtered by the filter and the warnings toggle, sorted, measured.

use super::base::Owner;
use super::filter::Filter;
use crate::app::App;
use crate::app::ListState;
use crate::app::rows;
use crate::app::view::Rows;

/// What the order of the shown rows depends on besides the rows, each input by name; made
/// in one place ([`App::order_key`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct OrderKey {
    filter: String,
    sort_column: usize,
    sort_descending: bool,
    warnings_only: bool,
}

/// Whether the rows moved, and whether their widths must be measured again.
#[derive(Default)]
pub(super) struct Moved {
    pub(super) rows: bool,
    pub(super) widths: bool,
}

impl App {
    /// The rows put in order: sorted and filtered again when the list was made again or its
    /// order changed; else the patched rows and the turn's new ones moved into place.
    pub(super) fn order_rows(
        &mut self,
        again: bool,
        patch: Option<(Vec<usize>, Vec<usize>)>,
        turn: Option<Vec<usize>>,
    ) -> Moved {
        let order_key = self.order_key();
        if again || self.shown.order_key.as_ref() != Some(&order_key) {
            self.keep_derived();
            self.shown.order = self.narrow();
            self.shown.filter_problem = Filter::parse(self.list.filter.trim())
                .err()
                .map(|why| why.to_string());
            self.shown.order_key = Some(order_key);
            return Moved {
                rows: true,
                widths: true,
            };
        }
        let mut moved = Moved::default();
        if let Some((removed, added)) = patch {
            self.reorder(&removed, &added);
            moved.rows = true;
        }
        if let Some(added) = turn {
            self.merge_in(&added);
            moved = Moved {
                rows: true,
                widths: true,
            };
        }
        moved
    }

    /// Takes the removed slots out of the shown order and puts each added row that passes
    /// the filter in its place.
    pub(super) fn reorder(&mut self, removed: &[usize], added: &[usize]) {
        if !removed.is_empty() {
            let gone: std::collections::HashSet<usize> = removed.iter().copied().collect();
            self.shown.order.retain(|i| !gone.contains(i));
        }
        let Ok(filter) = Filter::parse(self.list.filter.trim()) else {
            return;
        };
        let column = self.sorted_column();
        for slot in added {
            if !self.keeps(&filter, *slot) {
                continue;
            }
            let base = &self.shown.base;
            let at = self
                .shown
                .order
                .partition_point(|j| base.compare(*j, *slot, column).is_lt());
            self.shown.order.insert(at, *slot);
        }
    }

    /// What the shown order depends on besides the rows, read by name.
    pub(super) fn order_key(&self) -> OrderKey {
        let ListState {
            filter,
            sort_column,
            sort_descending,
            warnings_only,
            ..
        } = &self.list;
        OrderKey {
            filter: filter.clone(),
            sort_column: *sort_column,
            sort_descending: *sort_descending,
            warnings_only: *warnings_only,
        }
    }

    /// Whether a slot's row passes the warnings toggle (`w` on the events list) and the
    /// filter: by its words (kept while a filter reads them) or its object's labels.
    pub(super) fn keeps(&self, filter: &Filter, slot: usize) -> bool {
        let base = &self.shown.base;
        if self.list.warnings_only && base.warning_column.is_some() && !base.is_warning(slot) {
            return false;
        }
        filter.keeps(base.words(slot), |key| self.label_of(slot, key))
    }

    /// A label of the object a slot's row shows (a host's: its pool's).
    pub(super) fn label_of(&self, slot: usize, key: &str) -> Option<&str> {
        if let Some(row) = self.shown.base.row(slot) {
            return row.object.label(key);
        }
        let Rows::PerObject { owner, .. } = self.list.view.rows else {
            return None;
        };
        let (hub, (namespace, name)) = self.shown.base.owner(slot)?;
        self.inventory_of(hub)?
            .get(owner, namespace, name)?
            .label(key)
    }

    /// The sorted column's index and whether descending, if one is sorted.
    pub(super) fn sorted_column(&self) -> Option<(usize, bool)> {
        (self.list.sort_column > 0 && self.list.sort_column <= self.shown.base.columns.len())
            .then(|| (self.list.sort_column - 1, self.list.sort_descending))
    }

    /// The slots of the rows that pass the warnings toggle and the filter, sorted.
    pub(super) fn narrow(&self) -> Vec<usize> {
        let base = &self.shown.base;
        let filter = match Filter::parse(self.list.filter.trim()) {
            Ok(filter) => filter,
            // Nothing is shown for a filter that cannot match; the title says why.
            Err(_) => return Vec::new(),
        };
        let mut order: Vec<usize> = base
            .slots()
            .filter(|slot| self.keeps(&filter, *slot))
            .collect();
        let column = self.sorted_column();
        order.sort_by(|a, b| base.compare(*a, *b, column));
        order
    }

    /// The widest cell of each shown column, with its header and the rule marker after a
    /// pool's name, in the console's form and in its compact form.
    pub(super) fn widths(&self) -> (Vec<u16>, Vec<u16>) {
        let base = &self.shown.base;
        let name = base.columns.iter().position(|c| *c == rows::column::NAME);
        let header = |text: &str| u16::try_from(text.chars().count()).unwrap_or(u16::MAX);
        let mut widths: Vec<u16> = base.columns.iter().map(|c| header(c.header)).collect();
        let mut compact: Vec<u16> = base.columns.iter().map(|c| header(c.compact)).collect();
        for slot in &self.shown.order {
            let Some((cells, marked)) = base.widths(*slot) else {
                continue;
            };
            for (i, (width, small)) in cells.enumerate() {
                // Room for the rule marker after a marked pool's name.
                let more = if marked && Some(i) == name { 2 } else { 0 };
                if let Some(w) = widths.get_mut(i) {
                    *w = (*w).max(width.saturating_add(more));
                }
                if let Some(w) = compact.get_mut(i) {
                    *w = (*w).max(small.saturating_add(more));
                }
            }
        }
        (widths, compact)
    }

    /// Keeps what the filter and the sort in force read of every row, working it out where
    /// it is not kept yet (each object's rows built again, once), and lets go of what they
    /// no longer read. A sort needs every row's value now; a filter's words are worked out a
    /// turn's worth now and the rest over the next turns of the loop ([`App::fill_turn`]).
    pub(super) fn keep_derived(&mut self) {
        let words = Filter::parse(self.list.filter.trim()).is_ok_and(|f| f.reads_words());
        let sort = self.sorted_column().map(|(column, _)| column);
        let base = &mut self.shown.base;
        let fill_words = words && !base.has_words();
        let fill_sort = sort.is_some() && base.sorted_by() != sort;
        if !words && base.has_words() {
            base.keep_words(false);
            self.shown.filling = None;
        }
        if fill_words {
            base.keep_words(true);
        }
        if sort != base.sorted_by() {
            base.keep_sort(sort);
        }
        if !(fill_words || fill_sort) {
            return;
        }
        if base.whole {
            let slots: Vec<usize> = base.slots().collect();
            for slot in slots {
                if let Some(row) = base.row(slot).cloned() {
                    base.set_derived(slot, &row);
                }
            }
            return;
        }
        let mut owners: Vec<Owner> = base.owners().map(|(h, key)| (h, key.clone())).collect();
        if !fill_sort {
            // Taken from the end: the first objects first.
            owners.reverse();
            self.shown.filling = Some(owners);
            self.fill_turn();
            return;
        }
        self.shown.filling = None;
        for owner in owners {
            let made = self.owner_rows(&owner);
            let base = &mut self.shown.base;
            let slots = base.slots_of(&owner);
            for (slot, row) in slots.into_iter().zip(&made) {
                base.set_derived(slot, row);
            }
        }
    }

    /// Works out the filter words of the next rows still without them, about a frame's work;
    /// the slots it filled (an object gone meanwhile, or whose rows were made again with
    /// their words, is passed over).
    pub(super) fn fill_turn(&mut self) -> Vec<usize> {
        let mut filled = Vec::new();
        while filled.len() < FILL_PER_TURN {
            let Some(owner) = self.shown.filling.as_mut().and_then(Vec::pop) else {
                self.shown.filling = None;
                break;
            };
            let slots = self.shown.base.slots_of(&owner);
            if slots
                .first()
                .is_none_or(|slot| self.shown.base.words(*slot).is_some())
            {
                continue;
            }
            let made = self.owner_rows(&owner);
            for (slot, row) in slots.into_iter().zip(&made) {
                self.shown.base.set_derived(slot, row);
                filled.push(slot);
            }
        }
        filled
    }
}

/// How many rows' filter words a turn works out: few enough that a key waiting for the turn
/// is still drawn within a frame at fleet scale (`cargo bench --bench console`).
pub(super) const FILL_PER_TURN: usize = 512;
