//! What the screen shows, derived from the state when its inputs change: the current view's
//! rows (filtered, sorted, their column widths), the rule marker of each pool, and the open
//! pool's YAML, findings, summary row and hosts. `render` only reads these; a tick changes
//! none of them (time cells are formatted while drawing, for the rows on screen only).
//!
//! Every row is ordered and laid out, but only the rows of the window around the selection
//! are held whole ([`base`]): a view of 100,000 hosts holds a thousand.

mod base;
mod build;
mod detail;
mod filter;
mod marks;
mod order;
mod patch;
mod placed;
mod window;

use std::collections::HashSet;

use self::base::{Base, Owner};
use self::build::Building;
pub use self::detail::{DetailData, WorkerScaling};
use self::order::OrderKey;
use self::patch::Changed;
pub use self::window::WINDOW_MARGIN;
use super::rows::{self, Row};
use super::view::Rows;
use super::{App, View};
use crate::domain::ObjectRef;

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
    /// The pool, its hub, the picture's generation, and what the Timeline tab reads (its
    /// kept entries, while the tab is open).
    detail_key: Option<(ObjectRef, usize, u64, Option<usize>)>,
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
    /// The objects whose rows' filter words are still to be worked out, a turn's worth at a
    /// time ([`order::FILL_PER_TURN`]): a filter's first key is drawn within a frame.
    filling: Option<Vec<base::Owner>>,
}

impl Shown {
    /// Lets go of the rows with the picture they were made from (their slots hold its
    /// objects): the next refresh makes the view again from the new one.
    pub fn forget_rows(&mut self) {
        self.base = Base::new(self.base.whole);
        self.order.clear();
        self.window = (0, 0);
        self.building = None;
        self.filling = None;
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
            if std::mem::take(&mut self.shown.turn_due) {
                if self.shown.building.is_some() {
                    turn = Some(self.build_turn(self.turn_budget()));
                } else if self.shown.filling.is_some() {
                    turn = Some(self.fill_turn());
                }
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
}

#[cfg(test)]
pub(crate) mod tests;

impl App {
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
}
