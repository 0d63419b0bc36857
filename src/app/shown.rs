//! What the screen shows, derived from the state when its inputs change: the current view's
//! rows (filtered, sorted, their column widths), the rule marker of each pool, and the open
//! pool's YAML, findings, summary row and hosts. `render` only reads these; a tick changes
//! none of them (time cells are formatted while drawing, for the rows on screen only).

use std::collections::HashMap;
use std::sync::Arc;

use super::rows::{self, Cell, Row, Status, Table};
use super::{App, View};
use crate::domain::ObjectRef;
use crate::domain::rules::{self, Context, Finding, Severity};
use crate::inventory::{Inventory, Kind, Object};

/// What the base rows depend on: the inventory generation and the view.
type BaseKey = (u64, View);
/// What the shown rows depend on besides: filter, sort column and direction, warnings only.
type ViewKey = (BaseKey, String, usize, bool, bool);

/// The open pool, derived once per change of the inventory.
#[derive(Clone, Debug, Default)]
pub struct DetailData {
    /// The pool as YAML, a line each.
    pub yaml: Vec<String>,
    /// The reference's rules, checked against the watched fleet.
    pub findings: Vec<Finding>,
    /// The pool's row of the pools list.
    pub summary: Option<Row>,
    /// The pool's hosts.
    pub hosts: Table,
}

#[derive(Clone, Debug, Default)]
pub struct Shown {
    base_key: Option<BaseKey>,
    base: Table,
    view_key: Option<ViewKey>,
    /// The current view's rows, filtered and sorted.
    pub table: Table,
    /// The widest cell of each column (with its header), as drawn in the console.
    pub widths: Vec<u16>,
    /// Per pool: the version and fleet it was checked against, and whether it breaks a rule.
    lint: HashMap<ObjectRef, (usize, u64, bool)>,
    detail_key: Option<(ObjectRef, u64)>,
    /// The open pool's derived data.
    pub detail: Option<DetailData>,
    /// How many times rows were built, for tests that prove a tick builds none.
    pub builds: u64,
}

/// Whether a pool breaks an error-level rule, checked against the fleet the inventory holds
/// (a VIP another pool uses shows here as it does in `validate --existing`).
fn breaks_a_rule(inventory: &Inventory, object: &Arc<Object>) -> Option<bool> {
    let pool = object.pool()?;
    let context = Context {
        old: None,
        fleet: inventory,
        self_index: Some(Inventory::identity(object)),
    };
    Some(
        rules::validate(pool, &object.issues, &context)
            .iter()
            .any(|f| f.severity() == Severity::Error),
    )
}

impl App {
    /// Brings the derived rows up to date; cheap when nothing they depend on changed.
    pub fn refresh(&mut self) {
        let base_key = (self.inventory.generation(), self.view);
        if self.shown.base_key != Some(base_key) {
            self.shown.base = self.base_table();
            self.shown.base_key = Some(base_key);
            self.shown.builds += 1;
        }
        let view_key = (
            base_key,
            self.filter.clone(),
            self.sort_column,
            self.sort_descending,
            self.warnings_only,
        );
        if self.shown.view_key.as_ref() != Some(&view_key) {
            let mut table = self.shown.base.clone();
            self.narrow(&mut table);
            self.shown.widths = widths(&table);
            self.shown.table = table;
            self.shown.view_key = Some(view_key);
            // The selection stays on its row when rows move.
            if let Some(index) = self.selected_id.as_ref().and_then(|(id, part)| {
                self.shown
                    .table
                    .rows
                    .iter()
                    .position(|r| r.id == *id && r.part == *part)
            }) {
                self.selected = index;
            }
        }
        self.selected = self
            .selected
            .min(self.shown.table.rows.len().saturating_sub(1));
        self.selected_id = self
            .shown
            .table
            .rows
            .get(self.selected)
            .map(|r| (r.id.clone(), r.part.clone()));
        self.refresh_detail();
    }

    fn refresh_detail(&mut self) {
        let Some(open) = &self.detail else {
            self.shown.detail = None;
            self.shown.detail_key = None;
            return;
        };
        let id = ObjectRef::new(Kind::Pool, open.namespace.clone(), open.name.clone());
        let key = (id, self.inventory.generation());
        if self.shown.detail_key.as_ref() == Some(&key) {
            return;
        }
        let inventory = &self.inventory;
        self.shown.detail = inventory
            .get(Kind::Pool, &open.namespace, &open.name)
            .map(|object| {
                let yaml = serde_saphyr::to_string(&*object.value()).unwrap_or_default();
                DetailData {
                    yaml: yaml.lines().map(str::to_owned).collect(),
                    findings: object
                        .pool()
                        .map(|pool| {
                            rules::validate(
                                pool,
                                &object.issues,
                                &Context {
                                    old: None,
                                    fleet: inventory,
                                    self_index: Some(Inventory::identity(object)),
                                },
                            )
                        })
                        .unwrap_or_default(),
                    summary: rows::pools(inventory, Some(object.name()), false)
                        .rows
                        .into_iter()
                        .find(|r| r.id.namespace == object.namespace()),
                    hosts: {
                        let mut hosts = rows::hosts_table(inventory, Some(object.name()), false);
                        hosts.rows.retain(|r| r.id.namespace == object.namespace());
                        hosts
                    },
                }
            });
        self.shown.detail_key = Some(key);
    }

    fn base_table(&mut self) -> Table {
        match self.view {
            View::Pools => {
                let mut table = rows::pools(&self.inventory, None, false);
                self.mark_pools(&mut table);
                table
            }
            View::Evaluations => rows::evaluations(&self.inventory, None, false),
            View::Hosts => rows::hosts_table(&self.inventory, None, false),
            View::Events => rows::events(&self.inventory, None, false),
            View::Projects => rows::projects(&self.inventory, None, false),
        }
    }

    /// The rows of the current view, filtered and sorted, computed afresh (the screen reads
    /// the same rows from [`App::shown`], kept up to date by `update`).
    pub fn table(&mut self) -> Table {
        let mut table = self.base_table();
        self.narrow(&mut table);
        table
    }

    /// Marks the pools whose spec breaks a rule of the reference, worked out once per version
    /// of the pool and of the fleet's names and VIPs.
    fn mark_pools(&mut self, table: &mut Table) {
        let fleet = self.inventory.fleet_generation();
        for row in &mut table.rows {
            let rows::Source::Object(object) = &row.object else {
                continue;
            };
            let identity = Inventory::identity(object);
            row.broken = match self.shown.lint.get(&row.id) {
                Some((seen, generation, broken)) if *seen == identity && *generation == fleet => {
                    *broken
                }
                _ => {
                    let broken = breaks_a_rule(&self.inventory, object).unwrap_or(false);
                    self.shown
                        .lint
                        .insert(row.id.clone(), (identity, fleet, broken));
                    broken
                }
            };
        }
    }

    /// Applies the warnings toggle, the filter and the sort.
    fn narrow(&self, table: &mut Table) {
        if self.view == View::Events
            && self.warnings_only
            && let Some(column) = table.headers.iter().position(|h| *h == "TYPE")
        {
            table.rows.retain(|row| {
                matches!(
                    row.cells.get(column),
                    Some(Cell::Status(Status::Event { warning: true, .. }))
                )
            });
        }
        let filter = self.filter.trim();
        if !filter.is_empty() {
            let mut text = String::new();
            table.rows.retain(|row| keeps(row, filter, &mut text));
        }
        if self.sort_column > 0 && self.sort_column <= table.headers.len() {
            rows::sort(&mut table.rows, self.sort_column - 1, self.sort_descending);
        }
    }
}

/// The widest cell of each column, with its header and the rule marker after a pool's name.
fn widths(table: &Table) -> Vec<u16> {
    let name = table.headers.iter().position(|h| *h == "NAME");
    let mut widths: Vec<usize> = table.headers.iter().map(|h| h.chars().count()).collect();
    for row in &table.rows {
        for (i, cell) in row.cells.iter().enumerate() {
            let marker = if row.broken && Some(i) == name { 2 } else { 0 };
            if let Some(w) = widths.get_mut(i) {
                *w = (*w).max(cell.width().saturating_add(marker));
            }
        }
    }
    widths
        .into_iter()
        .map(|w| u16::try_from(w).unwrap_or(u16::MAX))
        .collect()
}

/// Whether a row passes the filter: `-l key[=value]` on a pool's labels, `!text` to invert,
/// otherwise a substring of the row's words (without regard to case).
fn keeps(row: &Row, filter: &str, text: &mut String) -> bool {
    if let Some(selector) = filter.strip_prefix("-l").map(str::trim) {
        let (key, value) = selector.split_once('=').unwrap_or((selector, ""));
        let label = match &row.object {
            rows::Source::Object(object) => object
                .pool()
                .and_then(|p| p.meta())
                .and_then(|m| m.label(key)),
            rows::Source::Value(_) => None,
        };
        return match label {
            Some(actual) => value.is_empty() || actual == value,
            None => false,
        };
    }
    let (invert, needle) = match filter.strip_prefix('!') {
        Some(rest) => (true, rest.to_lowercase()),
        None => (false, filter.to_lowercase()),
    };
    text.clear();
    for cell in &row.cells {
        cell.search_text(text);
        text.push('\u{1f}');
    }
    let found = text.to_lowercase().contains(&needle);
    found != invert
}
