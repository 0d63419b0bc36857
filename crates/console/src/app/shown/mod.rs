//! What the screen shows, derived from the state when its inputs change: the current view's
//! rows (filtered, sorted, their column widths), the rule marker of each pool, and the open
//! pool's YAML, findings, summary row and hosts. `render` only reads these; a tick changes
//! none of them (time cells are formatted while drawing, for the rows on screen only).

mod base;
mod detail;
mod filter;
mod marks;

use std::collections::{BTreeSet, HashMap};

use self::base::{Base, Natural};
pub use self::detail::DetailData;
use self::filter::{Filter, keeps};
use super::rows::{self, Row, Table};
use super::view::Rows;
use super::{App, View};
use crate::domain::ObjectRef;
use crate::inventory::{Key, Kind, Object};

/// What makes the base rows over from scratch when it changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    view: View,
    /// The doctor's findings the rows were made from (`:problems`; 0 for the other views):
    /// every hub's in view, summed.
    findings: u64,
    /// How many hubs are watched, and the one `:hub` narrowed the lists to.
    hubs: usize,
    only: Option<usize>,
}

/// What the rows of one hub were last brought up to date with: its inventory's generation,
/// the generation of its pools' names and VIPs (the rule markers), and its doctor's marks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Seen {
    generation: u64,
    fleet: u64,
    marks: u64,
}

/// What the order of the shown rows depends on besides the rows, each input by name; made
/// in one place ([`App::order_key`]).
#[derive(Clone, Debug, PartialEq, Eq)]
struct OrderKey {
    filter: String,
    sort_column: usize,
    sort_descending: bool,
    warnings_only: bool,
}

#[derive(Clone, Debug, Default)]
pub struct Shown {
    shape: Option<Shape>,
    /// Per hub, what the base rows are up to date with.
    seen: Vec<Seen>,
    base: Base,
    order_key: Option<OrderKey>,
    /// The current view's rows, filtered and sorted, as slots of `base`: a keystroke in the
    /// filter copies no row, and a changed object moves only its own rows.
    order: Vec<usize>,
    /// The widest cell of each column (with its header), as drawn in the console.
    pub widths: Vec<u16>,
    /// The same for each column's compact form (a narrow screen: no bars, no sparklines, a
    /// shorter header).
    pub compact_widths: Vec<u16>,
    /// Per pool (by hub): the version and the pools sharing its name or VIP it was checked
    /// against, and whether it breaks a rule.
    lint: HashMap<(usize, ObjectRef), (usize, u64, bool)>,
    detail_key: Option<(ObjectRef, usize, u64)>,
    /// The open pool's derived data.
    pub detail: Option<DetailData>,
    /// What the described page was worked out from: the pool, its evaluation and its events
    /// (by identity and count), the second (its ages) and the width.
    describe_key: Option<(ObjectRef, [usize; 3], i64, u16)>,
    /// The described pool's page (`d`), a line each: worked out when the pool changes or a
    /// second passes (its ages), not per frame.
    pub describe: Vec<String>,
    /// The same lines wrapped to the screen's width, as the overlay shows them (its scrolling
    /// counts these).
    pub describe_rows: Vec<String>,
    /// How many times the rows were built from scratch.
    pub builds: u64,
    /// How many rows were built, from scratch or for a changed object: tests prove that a
    /// tick builds none and a changed pool only its own.
    pub rows_built: u64,
    /// The footer's key hints for the scopes in force.
    pub hints: String,
    /// Why the filter cannot be used as typed (a `-l` that is no label selector).
    pub filter_problem: Option<String>,
    /// Every pool's findings, kept up to date incrementally.
    pub doctor: super::doctor::Doctor,
}

impl Shown {
    /// Forgets the pools' rule markers worked out so far (the pictures start over).
    pub fn forget_markers(&mut self) {
        self.lint.clear();
    }

    /// The current view's columns.
    pub fn columns(&self) -> &[rows::Column] {
        &self.base.columns
    }

    /// How many rows the current view shows.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// The shown row at a position.
    pub fn row(&self, index: usize) -> Option<&Row> {
        self.base.row(*self.order.get(index)?)
    }

    /// The shown rows, in order.
    pub fn rows(&self) -> impl Iterator<Item = &Row> + '_ {
        self.order.iter().filter_map(|i| self.base.row(*i))
    }
}

/// Where one object's `index`th row stands in its view's natural order.
fn natural(hub: usize, owner: &Object, index: usize) -> Natural {
    let time = (owner.kind == Kind::Event)
        .then(|| owner.happened())
        .flatten();
    (time, hub, owner.key.clone(), index)
}

/// A row as the lists show it: its hub set, and named in a HUB column first when rows of
/// several hubs are shown together.
fn on_hub(mut row: Row, hub: usize, name: Option<&str>) -> Row {
    row.hub = hub;
    if let Some(name) = name {
        row.cells.insert(0, rows::Cell::Text(name.into()));
    }
    row
}

impl App {
    /// Brings the derived rows up to date; cheap when nothing they depend on changed, and
    /// proportional to the changed objects' rows when a few objects changed (per hub: one
    /// hub's change touches its own rows only).
    pub fn refresh(&mut self) {
        self.shown.doctor.update(&self.inventory, self.now);
        let now = self.now;
        for parked in self.fleet.parked_mut() {
            parked.doctor.update(&parked.inventory, now);
        }
        let in_view = self.fleet.in_view();
        let findings = match self.list.view.rows {
            Rows::Findings(_) => in_view
                .iter()
                .filter_map(|h| self.doctor_of(*h))
                .fold(0u64, |sum, d| sum.wrapping_add(d.epoch)),
            _ => 0,
        };
        let shape = Shape {
            view: self.list.view,
            findings,
            hubs: self.fleet.count(),
            only: self.fleet.only,
        };
        let mut whole =
            self.shown.shape != Some(shape) || self.shown.seen.len() != self.fleet.count();
        let mut patch: Option<(Vec<usize>, Vec<usize>)> = None;
        // The pools whose rule markers may read differently, per hub: their name or VIP is
        // shared with a pool that joined, left or changed its VIP.
        let mut relint: Vec<(usize, Vec<Key>)> = Vec::new();
        let mut remark = false;
        // Hubs whose rows are made again whole.
        let mut rebuild: Vec<usize> = Vec::new();
        if !whole {
            for hub in in_view.iter().copied() {
                let Some(inventory) = self.inventory_of(hub) else {
                    continue;
                };
                let seen = self.shown.seen.get(hub).copied().unwrap_or_default();
                if self.doctor_of(hub).is_some_and(|d| d.marks != seen.marks) {
                    remark = true;
                }
                if seen.generation == inventory.generation() {
                    continue;
                }
                // Owned, so that the rows can be patched while the inventory is read.
                let Some(changes) = inventory.changes_since(seen.generation) else {
                    // What changed cannot be told: this hub's rows are made again (across
                    // hubs, the others' stay); with one hub in view, the whole list is.
                    if in_view.len() > 1 {
                        rebuild.push(hub);
                        continue;
                    }
                    whole = true;
                    break;
                };
                if inventory.fleet_generation() != seen.fleet {
                    relint.push((hub, inventory.fleet_touched(&changes)));
                }
                let changed: Vec<(Kind, Key)> =
                    changes.iter().map(|c| (c.kind, c.key.clone())).collect();
                if let Some((removed, added)) = self.patch_owners(hub, &changed) {
                    let (all_removed, all_added) = patch.get_or_insert_default();
                    all_removed.extend(removed);
                    all_added.extend(added);
                }
            }
        }
        if whole {
            patch = None;
            self.build_base();
            self.shown.shape = Some(shape);
        } else {
            for hub in &rebuild {
                let removed = self.shown.base.remove_hub(*hub);
                let added = self.add_hub_rows(*hub);
                self.shown.rows_built += added.len() as u64;
                let (all_removed, all_added) = patch.get_or_insert_default();
                all_removed.extend(removed);
                all_added.extend(added);
            }
        }
        let mut widths = whole || patch.is_some();
        if self.list.view.pools && !whole {
            if remark {
                self.remark_worst();
                widths = true;
            }
            for (hub, pools) in &relint {
                if !pools.is_empty() {
                    self.relint(*hub, pools);
                    widths = true;
                }
            }
        }
        self.shown.seen = (0..self.fleet.count())
            .map(|hub| Seen {
                generation: self.inventory_of(hub).map_or(0, |i| i.generation()),
                fleet: self.inventory_of(hub).map_or(0, |i| i.fleet_generation()),
                marks: self.doctor_of(hub).map_or(0, |d| d.marks),
            })
            .collect();

        let order_key = self.order_key();
        let moved =
            if whole || !rebuild.is_empty() || self.shown.order_key.as_ref() != Some(&order_key) {
                self.shown.order = self.narrow();
                self.shown.filter_problem = Filter::parse(self.list.filter.trim()).err();
                self.shown.order_key = Some(order_key);
                widths = true;
                true
            } else if let Some((removed, added)) = patch {
                self.reorder(&removed, &added);
                true
            } else {
                false
            };
        if widths {
            (self.shown.widths, self.shown.compact_widths) = self.widths();
        }
        // The selection stays on its row when rows move (once a key chose it).
        if moved
            && self.list.chosen
            && let Some(index) = self.list.selected_id.as_ref().and_then(|(hub, id, part)| {
                self.shown
                    .rows()
                    .position(|r| r.hub == *hub && r.id == *id && r.part == *part)
            })
        {
            self.list.selected = index;
        }
        self.list.selected = self.list.selected.min(self.shown.len().saturating_sub(1));
        self.list.selected_id = self
            .shown
            .row(self.list.selected)
            .map(|r| (r.hub, r.id.clone(), r.part.clone()));
        // A key on a list acts on its row's hub.
        self.follow_selection();
        self.refresh_detail();
        self.refresh_describe();
        self.shown.hints = super::commands::footer(&self.scopes(), |c| self.enabled(c));
    }

    /// Makes the current view's rows from scratch: every hub in view's, one after another.
    fn build_base(&mut self) {
        self.shown.base = Base::default();
        let mut count = 0u64;
        for hub in self.fleet.in_view() {
            count += self.add_hub_rows(hub).len() as u64;
        }
        self.shown.builds += 1;
        self.shown.rows_built += count;
    }

    /// Makes one hub's rows of the current view and puts them in the base (its columns, with
    /// HUB first across hubs, set by the first); returns their slots.
    fn add_hub_rows(&mut self, hub: usize) -> Vec<usize> {
        let Some(mut table) = self.base_table(hub) else {
            return Vec::new();
        };
        if self.list.view.pools {
            self.mark_pools(hub, &mut table.rows);
        }
        let mixed = self.fleet.mixed();
        let name = mixed.then(|| self.fleet.name(hub).to_owned());
        let base = &mut self.shown.base;
        if base.columns.is_empty() {
            base.columns = table.columns;
            if mixed {
                base.columns.insert(0, rows::column::HUB);
            }
        }
        base.reserve(table.rows.len());
        let incremental = matches!(self.list.view.rows, Rows::PerObject { .. });
        let mut previous: Option<(Key, usize)> = None;
        let mut added = Vec::with_capacity(table.rows.len());
        for (i, row) in table.rows.into_iter().enumerate() {
            let natural = if incremental {
                let owner = (row.id.namespace.clone(), row.id.name.clone());
                let index = match &previous {
                    Some((key, n)) if *key == owner => n + 1,
                    _ => 0,
                };
                previous = Some((owner.clone(), index));
                let time = match &row.object {
                    rows::Source::Object(o) if o.kind == Kind::Event => o.happened(),
                    _ => None,
                };
                (time, hub, owner, index)
            } else {
                (None, hub, Key::default(), i)
            };
            added.push(base.add(on_hub(row, hub, name.as_deref()), natural));
        }
        added
    }

    /// Makes again the rows of the objects of one hub these changes touch; returns the
    /// slots taken out and those put in (`None` when the view has none of them).
    fn patch_owners(
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
        let owners: BTreeSet<&Key> = changes
            .iter()
            .filter(|(kind, _)| touched_by.contains(kind))
            .map(|(_, key)| key)
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
            if self.list.view.pools {
                self.mark_pools(hub, &mut made);
            }
            self.shown.rows_built += made.len() as u64;
            for (index, row) in made.into_iter().enumerate() {
                let row = on_hub(row, hub, name.as_deref());
                added.push(self.shown.base.add(row, natural(hub, &object, index)));
            }
        }
        Some((removed, added))
    }

    /// Takes the removed slots out of the shown order and puts each added row that passes
    /// the filter in its place.
    fn reorder(&mut self, removed: &[usize], added: &[usize]) {
        if !removed.is_empty() {
            let gone: std::collections::HashSet<usize> = removed.iter().copied().collect();
            self.shown.order.retain(|i| !gone.contains(i));
        }
        let Ok(filter) = Filter::parse(self.list.filter.trim()) else {
            return;
        };
        let warnings = self.warnings_column();
        let column = self.sorted_column();
        for slot in added {
            let base = &self.shown.base;
            let Some(row) = base.row(*slot) else { continue };
            if !keeps(&filter, warnings, row, base.words(*slot)) {
                continue;
            }
            let at = self
                .shown
                .order
                .partition_point(|j| base.compare(*j, *slot, column).is_lt());
            self.shown.order.insert(at, *slot);
        }
    }

    /// One hub's rows of the current view, made whole.
    fn base_table(&self, hub: usize) -> Option<Table> {
        Some(match self.list.view.rows {
            Rows::PerObject { table, .. } | Rows::Whole(table) => {
                table(self.inventory_of(hub)?, None, false)
            }
            Rows::Findings(table) => table(self.doctor_of(hub)?),
        })
    }

    /// What the shown order depends on besides the rows, read by name.
    fn order_key(&self) -> OrderKey {
        let super::ListState {
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

    /// The events list's TYPE column, when only warnings are shown.
    fn warnings_column(&self) -> Option<usize> {
        let column = self
            .list
            .view
            .warnings
            .filter(|_| self.list.warnings_only)?;
        self.shown.base.columns.iter().position(|c| *c == column)
    }

    /// The sorted column's index and whether descending, if one is sorted.
    fn sorted_column(&self) -> Option<(usize, bool)> {
        (self.list.sort_column > 0 && self.list.sort_column <= self.shown.base.columns.len())
            .then(|| (self.list.sort_column - 1, self.list.sort_descending))
    }

    /// The slots of the rows that pass the warnings toggle and the filter, sorted.
    fn narrow(&self) -> Vec<usize> {
        let base = &self.shown.base;
        let warnings = self.warnings_column();
        let filter = match Filter::parse(self.list.filter.trim()) {
            Ok(filter) => filter,
            // Nothing is shown for a filter that cannot match; the title says why.
            Err(_) => return Vec::new(),
        };
        let mut order: Vec<usize> = base
            .slots()
            .filter(|slot| {
                base.row(*slot)
                    .is_some_and(|row| keeps(&filter, warnings, row, base.words(*slot)))
            })
            .collect();
        let column = self.sorted_column();
        order.sort_by(|a, b| base.compare(*a, *b, column));
        order
    }

    /// The widest cell of each shown column, with its header and the rule marker after a
    /// pool's name, in the console's form and in its compact form.
    fn widths(&self) -> (Vec<u16>, Vec<u16>) {
        let base = &self.shown.base;
        let name = base.columns.iter().position(|c| *c == rows::column::NAME);
        let header = |text: &str| u16::try_from(text.chars().count()).unwrap_or(u16::MAX);
        let mut widths: Vec<u16> = base.columns.iter().map(|c| header(c.header)).collect();
        let mut compact: Vec<u16> = base.columns.iter().map(|c| header(c.compact)).collect();
        for slot in &self.shown.order {
            let Some(row) = base.row(*slot) else { continue };
            let marked = row.broken || row.worst.is_some();
            for (i, width) in base.widths(*slot).iter().enumerate() {
                let width = if marked && Some(i) == name {
                    width.saturating_add(2)
                } else {
                    *width
                };
                if let Some(w) = widths.get_mut(i) {
                    *w = (*w).max(width);
                }
                // Only bars and sparklines shrink: every other cell keeps its width.
                let small = match row.cells.get(i) {
                    Some(cell) if cell.has_compact_form() => {
                        u16::try_from(cell.compact_width()).unwrap_or(u16::MAX)
                    }
                    _ => width,
                };
                if let Some(w) = compact.get_mut(i) {
                    *w = (*w).max(small);
                }
            }
        }
        (widths, compact)
    }
}

#[cfg(test)]
pub(crate) mod tests;
