//! What the screen shows, derived from the state when its inputs change: the current view's
//! rows (filtered, sorted, their column widths), the rule marker of each pool, and the open
//! pool's YAML, findings, summary row and hosts. `render` only reads these; a tick changes
//! none of them (time cells are formatted while drawing, for the rows on screen only).
//!
//! Every row is ordered and laid out, but only the rows of the window around the selection
//! are held whole ([`base`]): a view of 100,000 hosts holds a thousand.

mod base;
mod detail;
mod filter;
mod marks;

use std::collections::{BTreeSet, HashSet};
use std::sync::Arc;

use self::base::{Base, Kept, Owner};
pub use self::detail::{DetailData, WorkerScaling};
use self::filter::Filter;
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
    /// The positions in `order` whose rows are held whole: the selection's, and up to the
    /// margin on either side (every position of a view made whole).
    window: (usize, usize),
    /// How far the window reaches on each side of the selection ([`WINDOW_MARGIN`], or the
    /// screen's height if taller, unless a test narrows it).
    pub(crate) margin: Option<usize>,
    /// How many rows a turn makes of a view being built ([`ROWS_PER_TURN`], or
    /// [`POOL_ROWS_PER_TURN`] of pools, unless a test makes it a few).
    pub(crate) rows_per_turn: Option<usize>,
    /// The widest cell of each column (with its header), as drawn in the console.
    pub widths: Vec<u16>,
    /// The same for each column's compact form (a narrow screen: no bars, no sparklines, a
    /// shorter header).
    pub compact_widths: Vec<u16>,
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
    /// Tests count the work done (how many times the rows were built from scratch, rows built
    /// into the store, rows built again from their objects) to prove that a tick builds none
    /// and a changed pool only its own.
    #[cfg(test)]
    pub builds: u64,
    #[cfg(test)]
    pub rows_built: u64,
    #[cfg(test)]
    pub rows_rebuilt: u64,
    /// The footer's key hints for the scopes in force.
    pub hints: String,
    /// Why the filter cannot be used as typed (a `-l` that is no label selector).
    pub filter_problem: Option<String>,
    /// A view being made over several turns of the loop, while it is.
    building: Option<Building>,
    /// A turn of the loop came for it ([`Msg::Build`](super::Msg::Build)): the next refresh
    /// makes a turn's rows (the others, however many a message makes, make none).
    turn_due: bool,
}

/// A view made over several turns of the loop ([`ROWS_PER_TURN`] rows a turn, fewer of
/// pools), so that a view of a hundred thousand rows shows its first rows at once and keys are
/// read between turns: the hubs whose rows are still to be made, in order, the first under way, and the
/// last of its objects made.
#[derive(Clone, Debug, Default)]
struct Building {
    hubs: std::collections::VecDeque<usize>,
    after: Option<Key>,
}

impl Building {
    /// Whether an object's rows are yet to be made (a change to it waits for its turn).
    fn waits(&self, hub: usize, key: &Key) -> bool {
        match self.hubs.iter().position(|h| *h == hub) {
            Some(0) => self.after.as_ref().is_none_or(|after| key > after),
            Some(_) => true,
            None => false,
        }
    }
}

impl Shown {
    /// Lets go of the rows with the picture they were made from (their slots hold its
    /// objects): the next refresh makes the view again from the new one.
    pub fn forget_rows(&mut self) {
        self.base = Base::new(self.base.whole);
        self.order.clear();
        self.window = (0, 0);
        self.building = None;
        self.shape = None;
        self.seen.clear();
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

    /// The shown row at a position, if it is held whole: every row in the window around the
    /// selection (the selection's own, and what the screen shows) is.
    pub fn row(&self, index: usize) -> Option<&Row> {
        self.base.row(*self.order.get(index)?)
    }

    /// The positions whose rows are held whole (every position of a view made whole).
    pub fn window(&self) -> std::ops::Range<usize> {
        self.window.0..self.window.1
    }

    /// The rows of the window, in order: every row of a view made whole, or of a list no
    /// longer than the margin and one.
    pub fn window_rows(&self) -> impl Iterator<Item = &Row> + '_ {
        self.window().filter_map(|i| self.row(i))
    }

    /// Of these objects on this hub, those the list shows no row of (a filter may hide
    /// them), the window's or not. An object of a kind that owns no rows of the view counts
    /// as shown only if a row held whole names it.
    pub fn not_shown<'a>(
        &self,
        hub: usize,
        ids: impl IntoIterator<Item = &'a ObjectRef>,
    ) -> Vec<&'a ObjectRef> {
        let base = &self.base;
        let order: HashSet<usize> = self.order.iter().copied().collect();
        let owner_kind = match self.shape.as_ref().map(|s| &s.view.rows) {
            Some(Rows::PerObject { owner, .. }) if !base.whole => Some(*owner),
            _ => None,
        };
        let held_names = |id: &ObjectRef| {
            order
                .iter()
                .any(|slot| base.row(*slot).is_some_and(|r| r.hub == hub && r.id == *id))
        };
        ids.into_iter()
            .filter(|id| {
                let shown = match owner_kind {
                    Some(kind) if kind == id.kind => {
                        let owner: Owner = (hub, (id.namespace.clone(), id.name.clone()));
                        base.slots_of(&owner)
                            .iter()
                            .any(|slot| order.contains(slot))
                    }
                    _ => held_names(id),
                };
                !shown
            })
            .collect()
    }

    /// How many rows the store holds whole.
    pub fn held(&self) -> usize {
        self.base.held()
    }
}

/// How far the window of rows held whole reaches on each side of the selection, at least: a
/// screen taller than this widens it to its height, so that the rows drawn (the selection's
/// and up to a screen on either side of it) are always in it.
pub const WINDOW_MARGIN: usize = 512;

/// How many objects a view's rows are made from before the store makes room for the rest.
const ROWS_SAMPLE: usize = 256;

/// How many rows a turn of the loop makes of a view being built (a few tens of milliseconds
/// at fleet scale); of the pools view, [`POOL_ROWS_PER_TURN`].
const ROWS_PER_TURN: usize = 16_384;

/// How many rows a turn makes of the pools view: a pool's row is the costliest to make (its
/// GPUs, hosts, scaling and findings; about four hosts' or events'), so its turns make fewer
/// to take about as long, and 10,000 pools open with their first rows at once.
const POOL_ROWS_PER_TURN: usize = ROWS_PER_TURN / 4;

/// A row as the lists show it: its hub set, and named in a HUB column first when rows of
/// several hubs are shown together.
fn on_hub(mut row: Row, hub: usize, name: Option<&str>) -> Row {
    row.hub = hub;
    if let Some(name) = name {
        row.cells.insert(0, rows::Cell::Text(name.into()));
    }
    row
}

/// Where an object's rows stand in the natural order: events by when they happened.
fn time_of(object: &Object) -> Option<chrono::DateTime<chrono::Utc>> {
    (object.kind == Kind::Event)
        .then(|| object.happened())
        .flatten()
}

impl App {
    /// Brings the derived rows up to date; cheap when nothing they depend on changed, and
    /// proportional to the changed objects' rows when a few objects changed (per hub: one
    /// hub's change touches its own rows only).
    pub fn refresh(&mut self) {
        let now = self.now;
        for state in self.fleet.hubs_mut() {
            state.doctor.update(&state.inventory, now);
        }
        let in_view = self.fleet.in_view();
        let shape = self.shape(&in_view);
        let mut whole =
            self.shown.shape != Some(shape) || self.shown.seen.len() != self.fleet.count();
        let Changed {
            mut patch,
            relint,
            remark,
            rebuild,
        } = if whole {
            Changed::default()
        } else {
            match self.what_changed(&in_view) {
                Some(changed) => changed,
                None => {
                    whole = true;
                    Changed::default()
                }
            }
        };
        // A view being made goes on with its next turn's rows: the slots they took.
        let mut turn: Option<Vec<usize>> = None;
        if whole {
            patch = None;
            self.make_whole(shape);
        } else {
            self.make_hubs_again(&rebuild, &mut patch);
            if self.shown.building.is_some() && std::mem::take(&mut self.shown.turn_due) {
                turn = Some(self.build_turn(self.turn_budget()));
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

        let moved = self.order_rows(whole || !rebuild.is_empty(), patch, turn);
        widths |= moved.widths;
        let moved = moved.rows;
        if widths {
            (self.shown.widths, self.shown.compact_widths) = self.widths();
        }
        self.keep_selection(moved);
        // A key on a list acts on its row's hub.
        self.follow_selection();
        self.refresh_detail();
        self.refresh_describe();
        self.shown.hints = super::commands::footer(&self.scopes(), |c| self.enabled(c));
    }

    /// The rows put in order: sorted and filtered again when the list was made again or its
    /// order changed; else the patched rows and the turn's new ones moved into place.
    fn order_rows(
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

    /// What the list is made of: its view, the doctor's findings (on the problems view), the
    /// hubs and the one narrowed to.
    fn shape(&self, in_view: &[usize]) -> Shape {
        let findings = match self.list.view.rows {
            Rows::Findings(_) => in_view
                .iter()
                .filter_map(|h| self.doctor_of(*h))
                .fold(0u64, |sum, d| sum.wrapping_add(d.epoch)),
            _ => 0,
        };
        Shape {
            view: self.list.view,
            findings,
            hubs: self.fleet.count(),
            only: self.fleet.only,
        }
    }

    /// The list made again whole: at once when it is the same view made again (what changed
    /// could not be told), so that its rows and the chosen one are never missing while it
    /// is; a view newly opened is made a turn at a time.
    fn make_whole(&mut self, shape: Shape) {
        let again = self.shown.shape == Some(shape);
        self.build_base();
        if again {
            self.build_turn(usize::MAX);
        }
        self.shown.shape = Some(shape);
    }

    /// The rows of these hubs made again whole (what changed in them could not be told);
    /// the slots they left and took added to `patch`.
    fn make_hubs_again(&mut self, rebuild: &[usize], patch: &mut Option<(Vec<usize>, Vec<usize>)>) {
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

    /// What changed in each hub in view since the rows were made: the rows to patch, the
    /// pools whose markers may read differently, whether the worst markers moved, the hubs
    /// to make again whole. `None`: what changed cannot be told, and the list is made again.
    fn what_changed(&mut self, in_view: &[usize]) -> Option<Changed> {
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

    /// The selection stays on its row when rows move (once a key chose it), within the list.
    fn keep_selection(&mut self, moved: bool) {
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

    /// Makes the current view's rows from scratch: every hub in view's, one after another,
    /// the first turn's now and the rest in the next turns of the loop ([`Building`]).
    fn build_base(&mut self) {
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
    fn turn_budget(&self) -> usize {
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
    fn merge_in(&mut self, added: &[usize]) {
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

    /// Whether the current view is still being made (the loop turns again at once).
    pub fn building(&self) -> bool {
        self.shown.building.is_some()
    }

    /// Makes up to `budget` more rows of the view being built; the slots they took.
    fn build_turn(&mut self, mut budget: usize) -> Vec<usize> {
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
    fn add_hub_rows(
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
    fn set_columns(&mut self, columns: Vec<rows::Column>) {
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

    /// One hub's rows of a view made whole.
    fn base_table(&self, hub: usize) -> Option<Table> {
        match self.list.view.rows {
            Rows::Whole(table) => Some(table(self.inventory_of(hub)?, None, false)),
            Rows::Findings(table) => Some(table(self.doctor_of(hub)?)),
            // Made one object at a time (`add_hub_rows`), never whole.
            Rows::PerObject { .. } => None,
        }
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

    /// Whether a slot's row passes the warnings toggle (`w` on the events list) and the
    /// filter: by its words (kept while a filter reads them) or its object's labels.
    fn keeps(&self, filter: &Filter, slot: usize) -> bool {
        let base = &self.shown.base;
        if self.list.warnings_only && base.warning_column.is_some() && !base.is_warning(slot) {
            return false;
        }
        filter.keeps(base.words(slot), |key| self.label_of(slot, key))
    }

    /// A label of the object a slot's row shows (a host's: its pool's).
    fn label_of(&self, slot: usize, key: &str) -> Option<&str> {
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
    fn sorted_column(&self) -> Option<(usize, bool)> {
        (self.list.sort_column > 0 && self.list.sort_column <= self.shown.base.columns.len())
            .then(|| (self.list.sort_column - 1, self.list.sort_descending))
    }

    /// The slots of the rows that pass the warnings toggle and the filter, sorted.
    fn narrow(&self) -> Vec<usize> {
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
    fn widths(&self) -> (Vec<u16>, Vec<u16>) {
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
    /// no longer read.
    fn keep_derived(&mut self) {
        let words = Filter::parse(self.list.filter.trim()).is_ok_and(|f| f.reads_words());
        let sort = self.sorted_column().map(|(column, _)| column);
        let base = &mut self.shown.base;
        let fill_words = words && !base.has_words();
        let fill_sort = sort.is_some() && base.sorted_by() != sort;
        if !words && base.has_words() {
            base.keep_words(false);
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
        let owners: Vec<Owner> = base.owners().map(|(h, key)| (h, key.clone())).collect();
        for owner in owners {
            let made = self.owner_rows(&owner);
            let base = &mut self.shown.base;
            let slots = base.slots_of(&owner);
            for (slot, row) in slots.into_iter().zip(&made) {
                base.set_derived(slot, row);
            }
        }
    }

    /// One object's rows of the current view, built again from the inventory as the store
    /// built them (the markers its slots keep; the HUB cell across hubs).
    fn owner_rows(&mut self, owner: &Owner) -> Vec<Row> {
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
    fn position_of(&mut self, hub: usize, id: &ObjectRef, part: Option<&str>) -> Option<usize> {
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
    fn fill_window(&mut self, moved: bool) {
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

/// What changed in the hubs in view since the rows were made ([`App::what_changed`]).
#[derive(Default)]
struct Changed {
    /// The rows removed and added, by slot.
    patch: Option<(Vec<usize>, Vec<usize>)>,
    /// Per hub, the pools whose rule markers may read differently: their name or VIP is
    /// shared with a pool that joined, left or changed its VIP.
    relint: Vec<(usize, Vec<Key>)>,
    /// The doctor's worst markers moved.
    remark: bool,
    /// Hubs whose rows are made again whole.
    rebuild: Vec<usize>,
}

/// Whether the rows moved, and whether their widths must be measured again.
#[derive(Default)]
struct Moved {
    rows: bool,
    widths: bool,
}

#[cfg(test)]
pub(crate) mod tests;
