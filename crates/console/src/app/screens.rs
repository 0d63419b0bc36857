//! The screens under the overlays as components: a list (the view, the selection, the filter,
//! the order, the marks: [`ListState`]) and a pool's detail (which pool, its tab, how far
//! scrolled: [`Detail`]). Each carries out its own commands on its own state; what reaches
//! beyond it (a fix's confirmation, the controller's log, the wizard, which all read the
//! selection) it asks for with an [`Ask`], carried out once it is back in its place.

use std::collections::BTreeSet;

use super::commands::{Command, Scope};
use super::component::{After, Ask, Component, Ctx};
use super::confirm::Chosen;
use super::hub::HubState;
use super::ports::Namespaces;
use super::{App, Detail, Effect, Input, ListState, Overlay, Tab, View};
use crate::domain::ObjectRef;
use crate::domain::fixes::Fix;

/// What a list and a pool's detail both do: fixes (on `pool`, or a pause on the `marks`),
/// the log, the command line, the help, quitting. `None`: not one of them.
fn shared(
    command: Command,
    ctx: &mut Ctx,
    pool: Option<ObjectRef>,
    marks: &BTreeSet<ObjectRef>,
) -> Option<After> {
    let fix = match command {
        Command::PauseResume => Fix::Pause,
        Command::Delete => Fix::Delete,
        Command::Unblock => Fix::DeleteWorkloads,
        Command::ControllerLogs => {
            super::logs::open(ctx, pool);
            return Some(After::Stay);
        }
        _ => {
            let ask = match command {
                Command::Quit => Ask::Quit,
                Command::Help => Ask::Open(Overlay::Help { scroll: 0 }),
                Command::CommandLine => Ask::Input(Input::Command(String::new(), None)),
                _ => return None,
            };
            ctx.ask(ask);
            return Some(After::Stay);
        }
    };
    super::confirm::open(ctx, fix, &Chosen::of(fix, pool, marks));
    Some(After::Stay)
}

impl ListState {
    /// A view by name, from its first row, filtered to `filter`.
    pub fn switch_to(&mut self, view: View, filter: String) {
        self.view = view;
        self.selected = 0;
        self.selected_id = None;
        // Nothing chosen yet: the selection stays on the first row while the view is made.
        self.chosen = false;
        self.sort_column = 0;
        self.filter = filter;
    }

    /// Opens the selected row's pool: from the pools list on its overview, from the
    /// evaluations list on its scaling tab, from the hosts list on its hosts.
    fn open_selected(&self, on: Option<Tab>, ctx: &mut Ctx) {
        let Some(natural) = self.view.opens else {
            // Rows that are not pools' open on their page.
            if on.is_none() {
                super::describe::of_row(self.view, self.selected, ctx);
            }
            return;
        };
        let Some(row) = ctx.shown.row(self.selected) else {
            return;
        };
        let detail = Detail {
            namespace: row.id.namespace.to_string(),
            name: row.id.name.to_string(),
            tab: on.unwrap_or(natural),
            scroll: 0,
            timeline: Default::default(),
        };
        ctx.ask(Ask::Detail(detail));
    }
}

impl ListState {
    /// A command on the selected row: described, marked, its name copied, edited in the
    /// editor; a fix on it (or on the marks) or its pool's log. `Some` when the list is done
    /// with the command (a fix or the log opened, or refused).
    fn on_row(&mut self, command: Command, ctx: &mut Ctx, last: usize) -> Option<After> {
        match command {
            Command::Describe => super::describe::of_row(self.view, self.selected, ctx),
            Command::Mark => {
                if let Some(row) = ctx.shown.row(self.selected) {
                    let id = row.id.clone();
                    if !self.marked.remove(&id) {
                        self.marked.insert(id);
                    }
                    self.selected = self.selected.saturating_add(1).min(last);
                }
            }
            // `c`: the name of the selected row.
            Command::Copy => {
                if let Some(row) = ctx.shown.row(self.selected) {
                    let name = row.id.name.to_string();
                    ctx.effect(Effect::Copy {
                        text: name.clone(),
                        what: name,
                    });
                }
            }
            Command::RawEdit => {
                if let Some(row) = ctx.shown.row(self.selected) {
                    let (namespace, name) = (row.id.namespace.to_string(), row.id.name.to_string());
                    ctx.ask(Ask::RawEdit { namespace, name });
                }
            }
            other => {
                // Fixes take the pools list's row (or its marks); the log any pool's row.
                let row = ctx.shown.row(self.selected).map(|row| row.id.clone());
                let none = BTreeSet::new();
                let (pool, marks) = if self.view.pools {
                    (row, &self.marked)
                } else {
                    let pool = row.filter(|id| {
                        other == Command::ControllerLogs && id.kind == crate::domain::Kind::Pool
                    });
                    (pool, &none)
                };
                return Some(shared(other, ctx, pool, marks).unwrap_or(After::Stay));
            }
        }
        None
    }
}

impl Component for ListState {
    fn scopes(&self) -> Vec<Scope> {
        if self.view.warnings.is_some() {
            vec![Scope::Events, Scope::List]
        } else {
            vec![Scope::List]
        }
    }

    /// A command on a list (the events list's `w` too).
    fn handle(&mut self, command: Command, ctx: &mut Ctx) -> After {
        let last = ctx.shown.len().saturating_sub(1);
        let page = ctx.page;
        let moves = matches!(
            command,
            Command::Down
                | Command::Up
                | Command::PageDown
                | Command::PageUp
                | Command::First
                | Command::Last
                | Command::Mark
        );
        if moves {
            self.chosen = true;
            // The first row as the screen shows it now (data or a filter may have moved the
            // selection since a key last did).
            self.offset = on_screen(self.offset, self.selected, page, ctx.shown.len());
        }
        match command {
            Command::Down => self.selected = self.selected.saturating_add(1).min(last),
            Command::Up => self.selected = self.selected.saturating_sub(1),
            // A page: the rows and the selection move together, the highlight staying on
            // its line (until an end of the list).
            Command::PageDown => {
                self.selected = self.selected.saturating_add(page).min(last);
                self.offset = self.offset.saturating_add(page);
            }
            Command::PageUp => {
                self.selected = self.selected.saturating_sub(page);
                self.offset = self.offset.saturating_sub(page);
            }
            Command::First => self.selected = 0,
            Command::Last => self.selected = last,
            // On the events list: the event read whole.
            Command::Open if self.view.warnings.is_some() => {
                super::event_view::open(ctx, self.selected);
            }
            Command::Open => self.open_selected(None, ctx),
            Command::Yaml => self.open_selected(Some(Tab::Yaml), ctx),
            Command::Filter => ctx.ask(Ask::Input(Input::Filter(self.filter.clone()))),
            Command::SortNext => {
                let columns = ctx.shown.columns().len();
                self.sort_column = if columns == 0 {
                    0
                } else {
                    self.sort_column % columns + 1
                };
            }
            Command::SortReverse => self.sort_descending = !self.sort_descending,
            Command::WarningsOnly => {
                self.warnings_only = !self.warnings_only;
                self.selected = 0;
                self.selected_id = None;
            }
            Command::Clear => {
                // The row selected in the filtered list stays selected in the whole one (an
                // operator who found a pool by filter acts on it next).
                if !self.filter.is_empty() {
                    self.chosen = true;
                }
                self.filter.clear();
                ctx.ask(Ask::Say(None));
            }
            Command::AllNamespaces => ctx.ask(Ask::WatchAsked(Namespaces::All)),
            Command::NewPool => ctx.ask(Ask::Wizard { edit: false }),
            Command::EditPool => ctx.ask(Ask::Wizard { edit: true }),
            other => {
                if let Some(after) = self.on_row(other, ctx, last) {
                    return after;
                }
            }
        }
        if moves {
            // The rows move only when the selection leaves the screen.
            self.offset = on_screen(self.offset, self.selected, page, ctx.shown.len());
        }
        After::Stay
    }
}

/// The first row of a screen of `page` rows that shows `selected` of a list of `len`:
/// `offset` if it does, else the nearest that does (the selection on the top or the bottom
/// line), and never so far down that the screen has room left below the last row.
pub fn on_screen(offset: usize, selected: usize, page: usize, len: usize) -> usize {
    offset
        .clamp(selected.saturating_sub(page.saturating_sub(1)), selected)
        .min(len.saturating_sub(page))
}

impl Detail {
    /// The pool shown.
    pub fn pool(&self) -> ObjectRef {
        ObjectRef::new(
            crate::domain::Kind::Pool,
            self.namespace.clone(),
            self.name.clone(),
        )
    }

    /// `1`-`7`: the tab of that number.
    pub fn jump(&mut self, tab: Tab) {
        self.tab = tab;
        self.scroll = 0;
    }

    /// The doctor's next steps for this pool, in order, as a runbook to paste into a ticket:
    /// each finding, then its steps numbered, every line a comment (pasted into a shell by
    /// mistake, nothing runs: a step is read and typed, not pasted).
    fn runbook(&self, hub: &HubState) -> String {
        let id = crate::domain::ObjectRef::new(
            crate::domain::Kind::Pool,
            self.namespace.clone(),
            self.name.clone(),
        );
        let mut out = format!(
            "# ComputePool {}/{} on context {}: what the doctor finds, and the steps\n",
            self.namespace, self.name, hub.connection.context
        );
        let findings = hub.doctor.findings(&id);
        if findings.is_empty() {
            out.push_str("# the doctor finds nothing (or has not looked yet)\n");
        }
        // Each line inert and on one line: the cluster's text cannot add a step.
        let line = |text: &str| crate::domain::inert::line(text).into_owned();
        for finding in findings {
            out.push_str(&format!("#\n# {}\n", line(&finding.summary)));
            for (i, step) in finding.next.iter().enumerate() {
                out.push_str(&format!("#   {}. {}\n", i + 1, line(step)));
            }
        }
        out
    }

    /// The fix of this pool's first finding that has one, on its Diagnose tab.
    pub fn fix_in_view(&self, hub: &HubState) -> Option<Fix> {
        if self.tab != Tab::Diagnose {
            return None;
        }
        let id = crate::domain::ObjectRef::new(
            crate::domain::Kind::Pool,
            self.namespace.clone(),
            self.name.clone(),
        );
        hub.doctor.findings(&id).iter().find_map(|d| d.fix)
    }
}

impl Component for Detail {
    fn scopes(&self) -> Vec<Scope> {
        if self.tab == Tab::Yaml {
            vec![Scope::Yaml, Scope::Detail]
        } else if self.tab == Tab::Timeline {
            vec![Scope::Timeline, Scope::Detail]
        } else {
            vec![Scope::Detail]
        }
    }

    /// A command in a pool's detail (its YAML tab's `/` and `c` too). `Close` here is going
    /// back to the list.
    fn handle(&mut self, command: Command, ctx: &mut Ctx) -> After {
        match command {
            Command::Down => self.scroll = self.scroll.saturating_add(1),
            Command::Up => self.scroll = self.scroll.saturating_sub(1),
            Command::PageDown => self.scroll = self.scroll.saturating_add(ctx.page_lines()),
            Command::PageUp => self.scroll = self.scroll.saturating_sub(ctx.page_lines()),
            Command::NextTab => self.jump(self.tab.step(true)),
            Command::PreviousTab => self.jump(self.tab.step(false)),
            Command::Back => return After::Close,
            Command::Search => ctx.ask(Ask::Input(Input::Search(ctx.search.to_owned()))),
            Command::Describe => {
                let view = super::describe::DescribeView::new(
                    crate::domain::Kind::Pool,
                    &self.namespace,
                    &self.name,
                );
                ctx.ask(Ask::Open(Overlay::Describe(Box::new(view))));
            }
            Command::Related => super::describe::related(self, ctx),
            Command::RawEdit => ctx.ask(Ask::RawEdit {
                namespace: self.namespace.clone(),
                name: self.name.clone(),
            }),
            Command::RunFix => {
                if let Some(fix) = self.fix_in_view(ctx.hub) {
                    let chosen = Chosen::of(fix, Some(self.pool()), &BTreeSet::new());
                    super::confirm::open(ctx, fix, &chosen);
                }
            }
            // `c`: the pool's YAML on its YAML tab, the doctor's steps as a runbook on its
            // Diagnose tab, else its name.
            Command::Copy => {
                let (text, what) = if self.tab == Tab::Diagnose {
                    (
                        self.runbook(ctx.hub),
                        format!("the runbook for {}", self.name),
                    )
                } else if self.tab == Tab::Yaml {
                    match &ctx.shown.detail {
                        Some(data) => (
                            data.yaml.join("\n") + "\n",
                            format!("the YAML of {}", self.name),
                        ),
                        None => return After::Stay,
                    }
                } else {
                    (self.name.clone(), self.name.clone())
                };
                ctx.effect(Effect::Copy { text, what });
            }
            other => {
                return shared(other, ctx, Some(self.pool()), &BTreeSet::new())
                    .unwrap_or(After::Stay);
            }
        }
        After::Stay
    }
}

/// `1`-`9` on a list: the favourite namespace of that number watched (as `:ns NAME`).
pub fn favourite(app: &App, index: usize) -> Vec<Ask> {
    let say = |text: String| vec![Ask::Say(Some(text))];
    match app.favourites.get(index) {
        // As `:ns NAME`: one nothing here is in is said, with the nearest names.
        Some(namespace) if app.namespaces != Namespaces::Only(vec![namespace.clone()]) => {
            super::keys::run_command(app, &format!("ns {namespace}"))
        }
        Some(_) => Vec::new(),
        None if app.favourites.is_empty() => say(
            "no favourite namespaces: list them under favourites: in the settings file (1-9 \
             then watch them, 0 all)"
                .to_owned(),
        ),
        None => {
            let listed: Vec<String> = app
                .favourites
                .iter()
                .enumerate()
                .map(|(i, ns)| format!("{} {ns}", i + 1))
                .collect();
            say(format!(
                "no favourite namespace {}: {}",
                index + 1,
                listed.join(", ")
            ))
        }
    }
}
