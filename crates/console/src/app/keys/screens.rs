//! The keys of the screens under the overlays: the help, a list, and a pool's detail.

use crossterm::event::{KeyCode, KeyEvent};

use super::super::commands::Command;
use super::super::{App, Input, Overlay, Tab};
use super::{copy, fix_in_view, open_selected};
use crate::domain::fixes::Fix;

/// What a list and a pool's detail both do: fixes, the log, copying, the command line, the
/// help, quitting.
fn shared(app: &mut App, command: Command) {
    match command {
        Command::Quit => app.quit = true,
        Command::Help => app.overlays.push(Overlay::Help { scroll: 0 }),
        Command::CommandLine => app.input = Input::Command(String::new()),
        Command::PauseResume | Command::Delete | Command::Unblock => {
            let fix = match command {
                Command::PauseResume => Fix::Pause,
                Command::Delete => Fix::Delete,
                _ => Fix::DeleteWorkloads,
            };
            super::super::confirm::open(app, fix);
        }
        Command::ControllerLogs => super::super::logs::open(app),
        Command::Copy => copy(app),
        // Not bound in a list's or a detail's scopes.
        _ => {}
    }
}

/// A command on a list (the events list's `w` too).
pub(super) fn in_list(app: &mut App, command: Command) {
    let last = app.shown.len().saturating_sub(1);
    match command {
        Command::Down => app.list.selected = app.list.selected.saturating_add(1).min(last),
        Command::Up => app.list.selected = app.list.selected.saturating_sub(1),
        Command::PageDown => app.list.selected = app.list.selected.saturating_add(10).min(last),
        Command::PageUp => app.list.selected = app.list.selected.saturating_sub(10),
        Command::First => app.list.selected = 0,
        Command::Last => app.list.selected = last,
        Command::Open => open_selected(app, None),
        Command::Describe => open_selected(app, Some(Tab::Overview)),
        Command::Yaml => open_selected(app, Some(Tab::Yaml)),
        Command::Filter => app.input = Input::Filter(app.list.filter.clone()),
        Command::SortNext => {
            let columns = app.shown.columns().len();
            app.list.sort_column = if columns == 0 {
                0
            } else {
                app.list.sort_column % columns + 1
            };
        }
        Command::SortReverse => app.list.sort_descending = !app.list.sort_descending,
        Command::WarningsOnly => {
            app.list.warnings_only = !app.list.warnings_only;
            app.list.selected = 0;
            app.list.selected_id = None;
        }
        Command::Clear => {
            app.list.filter.clear();
            app.message = None;
        }
        Command::Mark => {
            if let Some(row) = app.shown.row(app.list.selected) {
                let id = row.id.clone();
                if !app.list.marked.remove(&id) {
                    app.list.marked.insert(id);
                }
                app.list.selected = app.list.selected.saturating_add(1).min(last);
            }
        }
        Command::NewPool => super::super::wizard::open(app, false),
        Command::EditPool => super::super::wizard::open(app, true),
        other => shared(app, other),
    }
}

/// A command in a pool's detail (its YAML tab's `/` and `c` too).
pub(super) fn in_detail(app: &mut App, command: Command, key: &KeyEvent) {
    match command {
        Command::Down | Command::Up | Command::PageDown | Command::PageUp => {
            if let Some(detail) = app.detail.as_mut() {
                detail.scroll = match command {
                    Command::Down => detail.scroll.saturating_add(1),
                    Command::Up => detail.scroll.saturating_sub(1),
                    Command::PageDown => detail.scroll.saturating_add(10),
                    _ => detail.scroll.saturating_sub(10),
                };
            }
        }
        Command::NextTab | Command::PreviousTab | Command::JumpTab => {
            if let Some(detail) = app.detail.as_mut() {
                detail.tab = match (command, key.code) {
                    (Command::JumpTab, KeyCode::Char(c @ '1'..='7')) => {
                        Tab::ALL[usize::from(c as u8 - b'1')]
                    }
                    (Command::PreviousTab, _) => detail.tab.step(false),
                    _ => detail.tab.step(true),
                };
                detail.scroll = 0;
            }
        }
        Command::Back => app.detail = None,
        Command::Search => app.input = Input::Search(app.search.clone()),
        Command::RunFix => {
            if let Some(fix) = fix_in_view(app) {
                super::super::confirm::open(app, fix);
            }
        }
        other => shared(app, other),
    }
}
