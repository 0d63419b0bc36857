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

/// What the base rows depend on: the inventory generation, the view, and what they show of
/// the doctor (the pools list its markers, `:problems` every finding).
type BaseKey = (u64, View, u64);
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
    /// Each base row's words, lower case, for the filter: made when rows are built, so a
    /// keystroke only searches them.
    words: Vec<String>,
    view_key: Option<ViewKey>,
    /// The current view's rows, filtered and sorted, as positions in `base`: a keystroke in
    /// the filter copies no row.
    order: Vec<usize>,
    /// The widest cell of each column (with its header), as drawn in the console.
    pub widths: Vec<u16>,
    /// Per pool: the version and fleet it was checked against, and whether it breaks a rule.
    lint: HashMap<ObjectRef, (usize, u64, bool)>,
    detail_key: Option<(ObjectRef, u64)>,
    /// The open pool's derived data.
    pub detail: Option<DetailData>,
    /// How many times rows were built, for tests that prove a tick builds none.
    pub builds: u64,
    /// The footer's key hints for the scopes in force.
    pub hints: String,
    /// Why the filter cannot be used as typed (a `-l` that is no label selector).
    pub filter_problem: Option<String>,
    /// Every pool's findings, kept up to date incrementally.
    pub doctor: super::doctor::Doctor,
}

impl Shown {
    /// The current view's column headers.
    pub fn headers(&self) -> &[&'static str] {
        &self.base.headers
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
        self.base.rows.get(*self.order.get(index)?)
    }

    /// The shown rows, in order.
    pub fn rows(&self) -> impl Iterator<Item = &Row> + '_ {
        self.order.iter().filter_map(|i| self.base.rows.get(*i))
    }
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
        self.shown.doctor.update(&self.inventory, self.now);
        let doctor = match self.view {
            View::Pools => self.shown.doctor.marks,
            View::Problems => self.shown.doctor.epoch,
            _ => 0,
        };
        let base_key = (self.inventory.generation(), self.view, doctor);
        if self.shown.base_key != Some(base_key) {
            self.shown.base = self.base_table();
            self.shown.words = self.shown.base.rows.iter().map(words).collect();
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
            self.shown.order = self.narrow(&self.shown.base, &self.shown.words);
            self.shown.filter_problem = Filter::parse(self.filter.trim()).err();
            self.shown.widths = widths(&self.shown.base, &self.shown.order);
            self.shown.view_key = Some(view_key);
            // The selection stays on its row when rows move.
            if let Some(index) = self.selected_id.as_ref().and_then(|(id, part)| {
                self.shown
                    .rows()
                    .position(|r| r.id == *id && r.part == *part)
            }) {
                self.selected = index;
            }
        }
        self.selected = self.selected.min(self.shown.len().saturating_sub(1));
        self.selected_id = self
            .shown
            .row(self.selected)
            .map(|r| (r.id.clone(), r.part.clone()));
        self.refresh_detail();
        self.shown.hints = super::commands::footer(&self.scopes(), |c| self.enabled(c));
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
            View::Problems => rows::problems(&self.shown.doctor),
        }
    }

    /// Marks the pools whose spec breaks a rule of the reference, worked out once per version
    /// of the pool and of the fleet's names and VIPs.
    fn mark_pools(&mut self, table: &mut Table) {
        let fleet = self.inventory.fleet_generation();
        for row in &mut table.rows {
            let rows::Source::Object(object) = &row.object else {
                continue;
            };
            row.worst = self.shown.doctor.worst(&row.id);
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

    /// The positions of the rows that pass the warnings toggle and the filter, sorted.
    fn narrow(&self, base: &Table, words: &[String]) -> Vec<usize> {
        let warnings = (self.view == View::Events && self.warnings_only)
            .then(|| base.headers.iter().position(|h| *h == "TYPE"))
            .flatten();
        let filter = match Filter::parse(self.filter.trim()) {
            Ok(filter) => filter,
            // Nothing is shown for a filter that cannot match; the title says why.
            Err(_) => return Vec::new(),
        };
        let mut order: Vec<usize> = base
            .rows
            .iter()
            .zip(words)
            .enumerate()
            .filter(|(_, (row, _))| {
                warnings.is_none_or(|column| {
                    matches!(
                        row.cells.get(column),
                        Some(Cell::Status(Status::Event { warning: true, .. }))
                    )
                })
            })
            .filter(|(_, (row, words))| filter.keeps(row, words))
            .map(|(i, _)| i)
            .collect();
        if self.sort_column > 0 && self.sort_column <= base.headers.len() {
            rows::sort_positions(
                &base.rows,
                &mut order,
                self.sort_column - 1,
                self.sort_descending,
            );
        }
        order
    }
}

/// A row's words for the filter, lower case.
fn words(row: &Row) -> String {
    let mut text = String::new();
    for cell in &row.cells {
        cell.search_text(&mut text);
        text.push('\u{1f}');
    }
    text.to_lowercase()
}

/// The live filter: nothing, `-l key[=value]` on a pool's labels, `!text` to invert, or a
/// substring of the row's words (without regard to case).
enum Filter<'f> {
    All,
    Label { key: &'f str, value: &'f str },
    Words { needle: String, invert: bool },
}

impl<'f> Filter<'f> {
    /// The filter as typed, or why `-l` is not a label selector it can use.
    fn parse(filter: &'f str) -> Result<Filter<'f>, String> {
        if filter.is_empty() {
            return Ok(Filter::All);
        }
        if let Some(selector) = filter.strip_prefix("-l").map(str::trim) {
            let (key, value) = selector.split_once('=').unwrap_or((selector, ""));
            if key.is_empty() {
                return Err(format!(
                    "-l {selector}: give a label key, as in -l team or -l team=retail-edge"
                ));
            }
            if let Some(why) = crate::domain::rules::names::qualified_key(key) {
                return Err(format!("-l {selector}: the label key \"{key}\" {why}"));
            }
            if let Some(why) = crate::domain::rules::names::label_value(value) {
                return Err(format!("-l {selector}: the value \"{value}\" {why}"));
            }
            return Ok(Filter::Label { key, value });
        }
        Ok(match filter.strip_prefix('!') {
            Some(rest) => Filter::Words {
                needle: rest.to_lowercase(),
                invert: true,
            },
            None => Filter::Words {
                needle: filter.to_lowercase(),
                invert: false,
            },
        })
    }

    fn keeps(&self, row: &Row, words: &str) -> bool {
        match self {
            Filter::All => true,
            Filter::Label { key, value } => {
                let label = match &row.object {
                    rows::Source::Object(object) => object
                        .pool()
                        .and_then(|p| p.meta())
                        .and_then(|m| m.label(key)),
                    rows::Source::Value(_) => None,
                };
                label.is_some_and(|actual| value.is_empty() || actual == *value)
            }
            Filter::Words { needle, invert } => words.contains(needle.as_str()) != *invert,
        }
    }
}

/// The widest cell of each shown column, with its header and the rule marker after a pool's
/// name.
fn widths(table: &Table, order: &[usize]) -> Vec<u16> {
    let name = table.headers.iter().position(|h| *h == "NAME");
    let mut widths: Vec<usize> = table.headers.iter().map(|h| h.chars().count()).collect();
    for row in order.iter().filter_map(|i| table.rows.get(*i)) {
        for (i, cell) in row.cells.iter().enumerate() {
            let marker = if (row.broken || row.worst.is_some()) && Some(i) == name {
                2
            } else {
                0
            };
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
