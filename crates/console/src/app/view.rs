//! Where the console is: which list it shows, and which pool is open on which tab.

use std::sync::Arc;

use super::doctor::Doctor;
use super::rows::column::Column;
use super::rows::row::{Row, Table};
use crate::inventory::{Inventory, Kind, Object};

/// Which list the console shows: one of the views in [`super::rows::VIEWS`].
#[derive(Clone, Copy)]
pub struct View(&'static ViewSpec);

/// A list view, as data: everything the console needs to know to show one. Adding a view is
/// a file in `app/rows/` holding its rows and a `pub static VIEW: ViewSpec`, and its name in
/// the `views!` registry of `app/rows/mod.rs`; the command line, the help and the cache of
/// derived rows take it from here.
pub struct ViewSpec {
    /// What the title bar says.
    pub title: &'static str,
    /// The names the command line takes (`:NAME`), the first the view's own.
    pub aliases: &'static [&'static str],
    /// The kind whose source's health explains an empty list (refused, not installed…).
    pub source: Kind,
    /// How its rows are made.
    pub rows: Rows,
    /// Enter (and d, y) open the row's pool on this tab; `None`: rows are not pools'.
    pub opens: Option<Tab>,
    /// Its rows are pools themselves: marks, fixes, the wizard and the rule markers apply.
    pub pools: bool,
    /// `l` opens the controller's log about the row's pool.
    pub logs: bool,
    /// `w` keeps only warnings by this column (the events' type).
    pub warnings: Option<Column>,
    /// What an empty, live list means when that is good news (the problems: none).
    pub all_clear: Option<&'static str>,
}

/// How a view's rows are made.
pub enum Rows {
    /// One object at a time, so a change rebuilds only its object's rows (and the console
    /// holds whole only the rows in its window, building them again from their object): the
    /// kind whose objects own the rows (hosts: their pool), the kinds whose change touches an
    /// owner of the same key, the columns, the rows of one owner, and the whole table (its
    /// natural order; `get` prints it). The owner's own kind is always among the kinds that
    /// touch it: its rows are made again when it changes, so the row store never keeps an
    /// outdated version of it alive (a slot holds the object its rows were made from).
    PerObject {
        owner: Kind,
        touched_by: &'static [Kind],
        columns: fn(bool) -> Vec<Column>,
        rows: fn(&Inventory, &Arc<Object>, bool) -> Vec<Row>,
        table: fn(&Inventory, Option<&str>, bool) -> Table,
    },
    /// Made whole whenever the picture changes.
    Whole(fn(&Inventory, Option<&str>, bool) -> Table),
    /// Made from the doctor's findings whenever they change.
    Findings(fn(&Doctor) -> Table),
}

impl View {
    /// The list the console opens on.
    pub const POOLS: View = View(&super::rows::pools::VIEW);
    // The others by name, for tests (the console reaches them through the registry).
    #[cfg(test)]
    pub const EVALUATIONS: View = View(&super::rows::evaluations::VIEW);
    #[cfg(test)]
    pub const HOSTS: View = View(&super::rows::hosts::VIEW);
    #[cfg(test)]
    pub const EVENTS: View = View(&super::rows::events::VIEW);
    #[cfg(test)]
    pub const PROJECTS: View = View(&super::rows::projects::VIEW);
    #[cfg(test)]
    pub const PROBLEMS: View = View(&super::rows::problems::VIEW);

    /// Every view, in the registry's order.
    pub fn all() -> impl Iterator<Item = View> {
        super::rows::VIEWS.iter().map(|spec| View(spec))
    }

    /// The view a command-line word names (a name or an alias).
    pub fn named(word: &str) -> Option<View> {
        View::all().find(|v| v.aliases.contains(&word))
    }

    /// The first view listing a kind's objects.
    pub fn of_kind(kind: Kind) -> Option<View> {
        View::all().find(|v| v.source == kind)
    }

    /// What `d` (and Enter, where rows open no pool) describes a row as: its pool, or the
    /// object a pool refers to that the row is (`None`: events, whose Enter reads the event).
    pub fn described(self) -> Option<Kind> {
        if self.opens.is_some() {
            return Some(Kind::Pool);
        }
        matches!(
            self.source,
            Kind::Project
                | Kind::Tenant
                | Kind::ScalingPolicy
                | Kind::AIWorkload
                | Kind::ProfileBundle
                | Kind::Compute
        )
        .then_some(self.source)
    }

    /// Its whole table, as `pooldeck get` prints it (the doctor's findings: none here).
    pub fn table(self, inventory: &Inventory, name: Option<&str>, wide: bool) -> Table {
        match &self.0.rows {
            Rows::PerObject { table, .. } | Rows::Whole(table) => table(inventory, name, wide),
            Rows::Findings(_) => Table {
                columns: Vec::new(),
                rows: Vec::new(),
            },
        }
    }

    /// The view's own name (`:pools`).
    pub fn name(self) -> &'static str {
        self.0.aliases.first().copied().unwrap_or(self.0.title)
    }

    pub fn title(self) -> &'static str {
        self.0.title
    }

    /// Names and aliases the command line takes for this view.
    pub fn aliases(self) -> &'static [&'static str] {
        self.0.aliases
    }
}

impl std::ops::Deref for View {
    type Target = ViewSpec;
    fn deref(&self) -> &ViewSpec {
        self.0
    }
}

/// Views are the same when they have the same name (the registry holds each once).
impl PartialEq for View {
    fn eq(&self, other: &View) -> bool {
        self.name() == other.name()
    }
}

impl Eq for View {}

impl std::fmt::Debug for View {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "View({})", self.name())
    }
}

/// The tabs of a pool's detail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Overview,
    Conditions,
    Hosts,
    Scaling,
    Events,
    Yaml,
    /// The doctor's findings about the pool, then their evidence.
    Diagnose,
    /// What happened to the pool and what pooldeck did, on one time axis.
    Timeline,
}

impl Tab {
    pub const ALL: [Tab; 8] = [
        Tab::Overview,
        Tab::Conditions,
        Tab::Hosts,
        Tab::Scaling,
        Tab::Events,
        Tab::Yaml,
        Tab::Diagnose,
        Tab::Timeline,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Tab::Overview => "Overview",
            Tab::Conditions => "Conditions",
            Tab::Hosts => "Hosts",
            Tab::Scaling => "Scaling",
            Tab::Events => "Events",
            Tab::Yaml => "YAML",
            Tab::Diagnose => "Diagnose",
            Tab::Timeline => "Timeline",
        }
    }

    pub fn step(self, forward: bool) -> Tab {
        let i = Tab::ALL.iter().position(|t| *t == self).unwrap_or(0);
        let n = Tab::ALL.len();
        Tab::ALL[if forward {
            (i + 1) % n
        } else {
            (i + n - 1) % n
        }]
    }
}

/// One pool opened from a list: which, which tab, how far scrolled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Detail {
    pub namespace: String,
    pub name: String,
    pub tab: Tab,
    pub scroll: u16,
    pub timeline: super::timeline::TimelineView,
}

#[cfg(test)]
#[path = "view_tests.rs"]
mod view_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_view_of_objects_makes_an_owners_rows_again_when_it_changes() {
        let mut per_object = 0;
        for view in View::all() {
            if let Rows::PerObject {
                owner, touched_by, ..
            } = view.rows
            {
                per_object += 1;
                assert!(
                    touched_by.contains(&owner),
                    "{}: a change to its {owner:?} must make its rows again",
                    view.name()
                );
            }
        }
        assert!(per_object >= 4, "pools, evaluations, hosts and events");
    }
}
