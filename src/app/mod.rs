//! The console's state machine: [`App`] holds everything the screen shows, [`update`] is the
//! only place it changes, one [`Msg`] at a time. No I/O, no terminal, no awaiting: the runtime
//! feeds messages in and draws what `ui::render` makes of the state.

use chrono::{DateTime, Utc};
use crossterm::event::KeyEvent;

mod keys;
pub mod rows;

use self::rows::{Row, Table};
use crate::inventory::{Inventory, SourceEvent};

/// Something that happened: a key, a change from a source, the clock.
#[derive(Debug)]
pub enum Msg {
    Key(KeyEvent),
    Source(SourceEvent),
    Tick(DateTime<Utc>),
}

/// What `update` asks the runtime to do: the I/O it may not do itself.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Watch these namespaces instead (`:ns NAME`, `:ns all`).
    Watch(crate::sources::watch::Namespaces),
    /// Connect with another kubeconfig context (`:ctx NAME`).
    SwitchContext(String),
}

/// Which list the console shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Pools,
    Evaluations,
    Hosts,
    Events,
    Projects,
}

impl View {
    pub fn title(self) -> &'static str {
        match self {
            View::Pools => "Compute Pools",
            View::Evaluations => "Evaluations",
            View::Hosts => "Hosts",
            View::Events => "Events",
            View::Projects => "Projects",
        }
    }

    /// Names and aliases the command line takes for this view.
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            View::Pools => &["pools", "pool", "cp", "computepools"],
            View::Evaluations => &["evaluations", "cpe", "evaluation"],
            View::Hosts => &["hosts", "host"],
            View::Events => &["events", "ev", "event"],
            View::Projects => &["projects", "project", "proj"],
        }
    }

    pub const ALL: [View; 5] = [
        View::Pools,
        View::Evaluations,
        View::Hosts,
        View::Events,
        View::Projects,
    ];
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
}

impl Tab {
    pub const ALL: [Tab; 6] = [
        Tab::Overview,
        Tab::Conditions,
        Tab::Hosts,
        Tab::Scaling,
        Tab::Events,
        Tab::Yaml,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Tab::Overview => "Overview",
            Tab::Conditions => "Conditions",
            Tab::Hosts => "Hosts",
            Tab::Scaling => "Scaling",
            Tab::Events => "Events",
            Tab::Yaml => "YAML",
        }
    }

    fn step(self, forward: bool) -> Tab {
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
}

/// What the keyboard is editing, if anything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    None,
    Filter(String),
    Command(String),
    /// Searching a pool's YAML.
    Search(String),
}

/// Where the console is connected, for the header.
#[derive(Clone, Debug, Default)]
pub struct Connection {
    pub context: String,
    pub server: String,
    pub scope: String,
}

/// Everything the screen shows.
pub struct App {
    pub inventory: Inventory,
    pub connection: Connection,
    pub view: View,
    pub selected: usize,
    /// The live filter: a substring, `!text` to invert, `-l key=value` on labels.
    pub filter: String,
    pub input: Input,
    /// Sort by this column of the current view (0 = none: the natural order).
    pub sort_column: usize,
    pub sort_descending: bool,
    pub help: bool,
    pub message: Option<String>,
    pub now: DateTime<Utc>,
    pub quit: bool,
    /// The pool opened with Enter; Esc goes back to the list.
    pub detail: Option<Detail>,
    /// The events view shows only warnings.
    pub warnings_only: bool,
    /// Text searched for in a pool's YAML.
    pub search: String,
    /// The rows the screen shows: derived in `update`, read by `render`.
    pub shown: Shown,
    /// What the runtime should do after this update; it takes them.
    pub effects: Vec<Effect>,
}

/// What base rows depend on: the inventory generation, the second, the view.
type BaseKey = (u64, i64, View);
/// What the shown rows depend on besides: filter, sort column and direction, warnings only.
type ViewKey = (BaseKey, String, usize, bool, bool);

/// Rows derived from the state, kept between messages so a frame costs only what is visible.
#[derive(Clone, Debug, Default)]
pub struct Shown {
    /// What the base rows were computed from: inventory generation, second, view.
    base_key: Option<BaseKey>,
    base: Table,
    /// What the filtered rows were computed from: the base key, filter, sort, warnings.
    view_key: Option<ViewKey>,
    /// The current view's rows, filtered and sorted.
    pub table: Table,
    /// The widest cell of each column.
    pub widths: Vec<u16>,
    /// Per pool: which version of it was checked against the rules, and whether it breaks one.
    lint: std::collections::HashMap<String, (usize, bool)>,
}

impl App {
    pub fn new(connection: Connection, now: DateTime<Utc>) -> App {
        App {
            inventory: Inventory::new(),
            connection,
            view: View::Pools,
            selected: 0,
            filter: String::new(),
            input: Input::None,
            sort_column: 0,
            sort_descending: false,
            help: false,
            message: None,
            now,
            quit: false,
            detail: None,
            warnings_only: false,
            search: String::new(),
            shown: Shown::default(),
            effects: Vec::new(),
        }
    }

    /// Brings the derived rows up to date; cheap when nothing they depend on changed. The
    /// base rows follow the inventory and the clock (countdowns, ages) once a second; the
    /// filtered rows follow the filter and the sort.
    pub fn refresh(&mut self) {
        let base_key = (self.inventory.generation(), self.now.timestamp(), self.view);
        if self.shown.base_key != Some(base_key) {
            self.shown.base = self.base_table();
            self.shown.base_key = Some(base_key);
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
            let mut widths: Vec<u16> = table
                .headers
                .iter()
                .map(|h| h.chars().count() as u16)
                .collect();
            for row in &table.rows {
                for (i, cell) in row.cells.iter().enumerate() {
                    if let Some(w) = widths.get_mut(i) {
                        *w = (*w).max(cell.chars().count() as u16);
                    }
                }
            }
            self.shown.table = table;
            self.shown.widths = widths;
            self.shown.view_key = Some(view_key);
        }
        self.selected = self
            .selected
            .min(self.shown.table.rows.len().saturating_sub(1));
    }

    fn base_table(&mut self) -> Table {
        match self.view {
            View::Pools => {
                let mut table = rows::pools(&self.inventory, None, false, self.now);
                self.mark_pools(&mut table);
                table
            }
            View::Evaluations => rows::evaluations(&self.inventory, None, false, self.now),
            View::Hosts => rows::hosts_table(&self.inventory, None, false, self.now),
            View::Events => rows::events(&self.inventory, None, false, self.now),
            View::Projects => rows::projects(&self.inventory, None, false, self.now),
        }
    }

    /// The rows of the current view, filtered and sorted, computed afresh (the screen reads
    /// the same rows from [`App::shown`], kept up to date by `update`).
    pub fn table(&mut self) -> Table {
        let mut table = self.base_table();
        self.narrow(&mut table);
        table
    }

    /// The console's extras on the pools list: a `!` after the name of a pool whose spec breaks
    /// a rule of the reference (worked out once per version of the pool), and the recent GPU
    /// utilization as a sparkline.
    fn mark_pools(&mut self, table: &mut Table) {
        let name = table.headers.iter().position(|h| *h == "NAME");
        let utilization = table.headers.iter().position(|h| *h == "GPU UTIL");
        let gpus = table.headers.iter().position(|h| h.starts_with("GPUS"));
        for row in &mut table.rows {
            let rows::Source::Object(object) = &row.object else {
                continue;
            };
            let Some(pool) = object.pool() else { continue };
            let identity = std::sync::Arc::as_ptr(object) as usize;
            let broken = match self.shown.lint.get(&row.id) {
                Some((seen, broken)) if *seen == identity => *broken,
                _ => {
                    let findings = crate::domain::rules::validate(
                        pool,
                        &object.issues,
                        &crate::domain::rules::Context::default(),
                    );
                    let broken = findings
                        .iter()
                        .any(|f| f.severity() == crate::domain::rules::Severity::Error);
                    self.shown.lint.insert(row.id.clone(), (identity, broken));
                    broken
                }
            };
            if let (true, Some(column)) = (broken, name) {
                row.cells[column].push_str(" !");
            }
            // GPUs used/capacity with a five-cell bar of the whole pool's use.
            if let Some(column) = gpus {
                let (used, capacity) = row.cells[column]
                    .split(", ")
                    .filter_map(|part| part.rsplit_once(' ')?.1.split_once('/'))
                    .filter_map(|(u, c)| Some((u.parse::<f64>().ok()?, c.parse::<f64>().ok()?)))
                    .fold((0.0, 0.0), |(u, c), (x, y)| (u + x, c + y));
                if capacity > 0.0 {
                    let filled = ((used / capacity) * 5.0).round() as usize;
                    let bar = format!(
                        "{}{}",
                        "█".repeat(filled.min(5)),
                        "░".repeat(5 - filled.min(5))
                    );
                    // The console names a GPU by its model's first word (A100, H100, L40S);
                    // the pool's tabs show the full variant.
                    let compact: Vec<String> = row.cells[column]
                        .split(", ")
                        .map(|part| match part.rsplit_once(' ') {
                            Some((model, counts)) => {
                                let first = model.split(['-', ' ']).next().unwrap_or(model);
                                format!("{first} {counts}")
                            }
                            None => part.to_owned(),
                        })
                        .collect();
                    row.cells[column] = format!("{} {bar}", compact.join(", "));
                }
            }
            if let Some(column) = utilization {
                let samples: Vec<f64> = self
                    .inventory
                    .series_of(object.namespace(), object.name())
                    .find(|(key, _)| key.resource != "cpu")
                    .map(|(_, samples)| {
                        samples
                            .iter()
                            .rev()
                            .take(8)
                            .map(|s| s.utilization)
                            .collect::<Vec<_>>()
                    })
                    .unwrap_or_default()
                    .into_iter()
                    .rev()
                    .collect();
                if samples.len() > 1 {
                    let line = crate::ui::sparkline(&samples);
                    row.cells[column] = format!("{} {line}", row.cells[column]);
                }
            }
        }
    }

    /// Applies the warnings toggle, the filter and the sort.
    fn narrow(&self, table: &mut Table) {
        if self.view == View::Events
            && self.warnings_only
            && let Some(column) = table.headers.iter().position(|h| *h == "TYPE")
        {
            table.rows.retain(|row| row.cells[column] == "Warning");
        }
        let filter = self.filter.trim();
        if !filter.is_empty() {
            table.rows.retain(|row| self.keeps(row, filter));
        }
        if self.sort_column > 0 && self.sort_column <= table.headers.len() {
            let column = self.sort_column - 1;
            table.rows.sort_by(|a, b| {
                let order = natural(&a.cells[column], &b.cells[column]);
                if self.sort_descending {
                    order.reverse()
                } else {
                    order
                }
            });
        }
    }

    fn keeps(&self, row: &Row, filter: &str) -> bool {
        if let Some(selector) = filter.strip_prefix("-l").map(str::trim) {
            let (key, value) = selector.split_once('=').unwrap_or((selector, ""));
            let labels = match &row.object {
                rows::Source::Object(object) => object
                    .pool()
                    .and_then(|p| p.meta())
                    .and_then(|m| m.label(key))
                    .map(str::to_owned),
                rows::Source::Value(_) => None,
            };
            return match labels {
                Some(actual) => value.is_empty() || actual == value,
                None => false,
            };
        }
        let (invert, needle) = match filter.strip_prefix('!') {
            Some(rest) => (true, rest.to_lowercase()),
            None => (false, filter.to_lowercase()),
        };
        let found = row
            .cells
            .iter()
            .any(|cell| cell.to_lowercase().contains(&needle));
        found != invert
    }

    /// The key hints the footer shows for the current state.
    pub fn hints(&self) -> &'static str {
        if self.detail.is_some() && self.input == Input::None {
            return "←→ Tab tabs  1-6 jump  ↑↓ scroll  / search (YAML)  Esc back  ? help  q quit";
        }
        match self.input {
            Input::Filter(_) => {
                "type to filter  !text invert  -l key=value labels  Enter keep  Esc clear"
            }
            Input::Search(_) => "type to search the YAML  Enter keep  Esc clear",
            Input::Command(_) => {
                ":pools :cpe :hosts :events :projects :ns NAME :ctx NAME :q   Tab  Enter  Esc"
            }
            Input::None => match self.view {
                View::Pools | View::Evaluations | View::Hosts => {
                    "↑↓ move  Enter open  d describe  y yaml  / filter  s sort  : cmd  ? help  q quit"
                }
                View::Events => {
                    "↑↓ move  w warnings only  / filter  s sort  : command  ? help  q quit"
                }
                View::Projects => "↑↓ move  / filter  s sort  : command  ? help  q quit",
            },
        }
    }
}

/// The first line of an object's YAML that holds `search` (case-insensitive), to scroll to.
pub fn yaml_match(object: &crate::inventory::Object, search: &str) -> Option<u16> {
    let needle = search.trim().to_lowercase();
    if needle.is_empty() {
        return None;
    }
    let text = serde_saphyr::to_string(&*object.value()).ok()?;
    text.lines()
        .position(|l| l.to_lowercase().contains(&needle))
        .and_then(|i| u16::try_from(i).ok())
}

/// Orders cells as people expect: numbers by value, text by letters.
fn natural(a: &str, b: &str) -> std::cmp::Ordering {
    let number = |s: &str| {
        s.split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .find(|p| !p.is_empty())
            .and_then(|p| p.parse::<f64>().ok())
    };
    match (number(a), number(b)) {
        (Some(x), Some(y)) if x != y => x.partial_cmp(&y).unwrap_or(std::cmp::Ordering::Equal),
        _ => a.to_lowercase().cmp(&b.to_lowercase()),
    }
}

/// Every key of the console, for `?`.
pub const KEYS: &[(&str, &str)] = &[
    ("↑ ↓  j k", "move the selection"),
    ("PgUp PgDn  g G", "page, first, last"),
    ("Enter", "open the pool (from pools, evaluations or hosts)"),
    (
        "d  y",
        "open the pool on its Overview (describe) or its YAML",
    ),
    (
        "Tab ← →  1-6",
        "in a pool: switch tabs; Esc goes back to the list",
    ),
    (
        "/",
        "filter: a substring, !text to invert, -l key=value on labels",
    ),
    ("s  S", "sort by the next column, reverse the order"),
    ("w", "events: warnings only, or all"),
    (
        ":",
        "command line: :pools (:cp) :cpe :hosts :events :projects :q",
    ),
    ("Esc", "clear the filter, close help, leave a pool"),
    ("?", "this help"),
    ("q  Ctrl-C", "quit"),
];

/// The one place the state changes.
pub fn update(app: &mut App, msg: Msg) {
    match msg {
        Msg::Tick(now) => app.now = now,
        Msg::Source(event) => app.inventory.apply(event, app.now),
        Msg::Key(key) => {
            app.refresh();
            keys::on_key(app, key);
        }
    }
    app.refresh();
}

#[cfg(test)]
pub(crate) mod tests;
