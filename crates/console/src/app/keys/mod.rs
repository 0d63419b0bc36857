//! Keys: a key is looked up in the command registry for the scopes in force (the top overlay,
//! a text field, the detail, the list) and the command it names is carried out. Characters
//! typed into a text field that no binding claims go into the text. Part of `update`: it
//! changes the state and nothing else.

use crossterm::event::{KeyCode, KeyEvent};

use super::commands::{self, Command, Scope};
use super::confirm::Focus;
use super::{App, Detail, Effect, Input, Overlay, Tab};
use crate::domain::fixes::Fix;

mod command_line;
mod fields;
mod overlays;

use command_line::{complete, run_command};
pub(super) use fields::on_paste;
use fields::{on_key_too_small, text_field, typed};
use overlays::{in_logs, in_wizard};

/// Opens the selected pool: from the pools list on its overview, from the evaluations list on
/// its scaling tab, from the hosts list on its hosts.
fn open_selected(app: &mut App, on: Option<Tab>) {
    let Some(natural) = app.view.opens else {
        return;
    };
    let Some(row) = app.shown.row(app.selected) else {
        return;
    };
    app.detail = Some(Detail {
        namespace: row.id.namespace.to_string(),
        name: row.id.name.to_string(),
        tab: on.unwrap_or(natural),
        scroll: 0,
    });
}

/// Why a fix key does nothing here: the permission it needs.
fn missing_for(app: &App, command: Command) -> Option<String> {
    if let (Command::DryRun | Command::Apply, Some(why)) = (command, &app.offline) {
        return Some(format!(
            "no cluster ({why}): the dry run and apply need one; w writes the manifest, c copies it"
        ));
    }
    if command == Command::Write {
        return Some(
            "no file to write to (pooldeck new -o FILE names one); c copies the manifest".into(),
        );
    }
    if let (
        Command::PauseResume
        | Command::Delete
        | Command::Unblock
        | Command::RunFix
        | Command::NewPool
        | Command::EditPool,
        Some(context),
    ) = (command, &app.connecting)
    {
        return Some(format!(
            "switching to context {context}: try again once it is connected"
        ));
    }
    let verb = match command {
        Command::Delete => "delete",
        Command::PauseResume | Command::Unblock => "patch",
        _ => return None,
    };
    super::confirm::denied(app, verb).map(|p| {
        format!(
            "not permitted in context {}: needs {}",
            app.connection.context,
            p.words()
        )
    })
}

/// `c`: what is in view goes to the clipboard: a dialog's kubectl equivalent, a pool's YAML,
/// or the selected name.
fn copy(app: &mut App) {
    let (text, what) = match (app.overlays.last(), &app.detail) {
        (Some(Overlay::Confirm(confirm)), _) => (
            confirm.plan.kubectl_on(&confirm.hub.context),
            "the kubectl command".to_owned(),
        ),
        (Some(Overlay::Wizard(wizard)), _) => (wizard.yaml.clone(), "the manifest".to_owned()),
        (_, Some(detail)) if detail.tab == Tab::Yaml => match &app.shown.detail {
            Some(data) => (
                data.yaml.join("\n") + "\n",
                format!("the YAML of {}", detail.name),
            ),
            None => return,
        },
        (_, Some(detail)) => (detail.name.clone(), detail.name.clone()),
        (_, None) => match app.shown.row(app.selected) {
            Some(row) => (row.id.name.to_string(), row.id.name.to_string()),
            None => return,
        },
    };
    app.effects.push(Effect::Copy { text, what });
}

/// The fix of the open pool's first finding that has one, on its Diagnose tab.
pub(super) fn fix_in_view(app: &App) -> Option<Fix> {
    let detail = app.detail.as_ref().filter(|d| d.tab == Tab::Diagnose)?;
    let id = crate::domain::ObjectRef::new(
        crate::domain::Kind::Pool,
        detail.namespace.clone(),
        detail.name.clone(),
    );
    app.shown.doctor.findings(&id).iter().find_map(|d| d.fix)
}

pub(super) fn on_key(app: &mut App, key: KeyEvent) {
    if app.too_small() {
        on_key_too_small(app, key);
        return;
    }
    let scopes = app.scopes();
    match commands::lookup(&scopes, &key) {
        Some(binding) => {
            if app.enabled(binding.command) {
                apply(app, binding.command, &key);
            } else if let Some(missing) = missing_for(app, binding.command) {
                app.message = Some(missing);
            }
        }
        // A key no binding claims goes into the wizard's editor, or a character into the
        // text being typed.
        None => {
            if super::wizard::edit_key(app, key) {
                return;
            }
            if let (KeyCode::Char(c), Some(text)) = (key.code, text_field(app)) {
                text.push(c);
                typed(app);
            }
        }
    }
}

fn apply(app: &mut App, command: Command, key: &KeyEvent) {
    if matches!(app.overlays.last(), Some(Overlay::Logs(_))) {
        in_logs(app, command);
        return;
    }
    if matches!(app.overlays.last(), Some(Overlay::Wizard(_))) {
        in_wizard(app, command);
        return;
    }
    if matches!(app.overlays.last(), Some(Overlay::Drafts(_))) {
        overlays::in_drafts(app, command);
        return;
    }
    let scopes = app.scopes();
    let in_help = scopes.contains(&Scope::Help);
    let in_dialog = scopes.contains(&Scope::Confirm) || scopes.contains(&Scope::ConfirmField);
    let rows = app.shown.len();
    let last = rows.saturating_sub(1);
    match command {
        Command::Quit => app.quit = true,
        Command::Suspend => app.effects.push(Effect::Suspend),
        Command::Help => app.overlays.push(Overlay::Help { scroll: 0 }),
        Command::Close => {
            if let Some(Overlay::Confirm(_)) = app.overlays.pop() {
                app.message = Some("cancelled: nothing was sent".into());
            }
        }
        Command::Accept => {
            if let Input::Command(text) = &app.input {
                let command = text.clone();
                app.input = Input::None;
                run_command(app, &command);
            } else {
                app.input = Input::None;
            }
        }
        Command::Cancel => {
            match app.input {
                Input::Filter(_) => {
                    app.filter.clear();
                    app.selected = 0;
                    app.selected_id = None;
                }
                Input::Search(_) => app.search.clear(),
                _ => {}
            }
            app.input = Input::None;
        }
        Command::Complete => {
            if let Input::Command(text) = &mut app.input
                && let Some(full) = complete(text)
            {
                *text = full.to_owned();
            }
        }
        Command::Erase => {
            if let Some(text) = text_field(app) {
                text.pop();
                typed(app);
            }
        }
        Command::Down | Command::Up if in_dialog => {
            if let Some(Overlay::Confirm(confirm)) = app.overlays.last_mut() {
                confirm.scroll = match command {
                    Command::Down => confirm.scroll.saturating_add(1),
                    _ => confirm.scroll.saturating_sub(1),
                };
            }
        }
        Command::FocusNext | Command::FocusPrevious => {
            if let Some(Overlay::Confirm(confirm)) = app.overlays.last_mut() {
                confirm.step(command == Command::FocusNext);
            }
        }
        Command::Activate => {
            let focus = match app.overlays.last() {
                Some(Overlay::Confirm(confirm)) => confirm.focus,
                _ => return,
            };
            match focus {
                Focus::Cancel => {
                    app.overlays.pop();
                    app.message = Some("cancelled: nothing was sent".into());
                }
                Focus::Field => {
                    // Enter moves on only once the text matches: a name half typed is not
                    // a choice of the Confirm button.
                    if let Some(Overlay::Confirm(confirm)) = app.overlays.last_mut() {
                        match confirm.needs_typing() {
                            Some(text) if confirm.typed != text => {
                                app.message = Some(format!(
                                    "type {} exactly first (Esc cancels)",
                                    crate::domain::inert::line(text)
                                ));
                            }
                            _ => confirm.focus = Focus::Confirm,
                        }
                    }
                }
                Focus::Confirm => super::confirm::confirm(app),
            }
        }
        Command::Mark => {
            if let Some(row) = app.shown.row(app.selected) {
                let id = row.id.clone();
                if !app.marked.remove(&id) {
                    app.marked.insert(id);
                }
                app.selected = app.selected.saturating_add(1).min(last);
            }
        }
        Command::PauseResume | Command::Delete | Command::Unblock => {
            let fix = match command {
                Command::PauseResume => Fix::Pause,
                Command::Delete => Fix::Delete,
                _ => Fix::DeleteWorkloads,
            };
            super::confirm::open(app, fix);
        }
        Command::ControllerLogs => super::logs::open(app),
        Command::RunFix => {
            if let Some(fix) = fix_in_view(app) {
                super::confirm::open(app, fix);
            }
        }
        Command::Copy => copy(app),
        Command::NewPool => super::wizard::open(app, false),
        Command::EditPool => super::wizard::open(app, true),
        // The wizard's own commands come through `in_wizard`, the chooser's `in_drafts`.
        Command::DiscardDraft
        | Command::NextStep
        | Command::PreviousStep
        | Command::Cycle
        | Command::AddEntry
        | Command::RemoveEntry
        | Command::PauseLogs
        | Command::AllLines
        | Command::NextMatch
        | Command::Recreate
        | Command::DryRun
        | Command::Apply
        | Command::Write => {}
        Command::Down | Command::Up | Command::PageDown | Command::PageUp if in_help => {
            if let Some(Overlay::Help { scroll }) = app.overlays.last_mut() {
                *scroll = match command {
                    Command::Down => scroll.saturating_add(1),
                    _ => scroll.saturating_sub(1),
                };
            }
        }
        Command::Down | Command::Up | Command::PageDown | Command::PageUp
            if app.detail.is_some() =>
        {
            if let Some(detail) = app.detail.as_mut() {
                detail.scroll = match command {
                    Command::Down => detail.scroll.saturating_add(1),
                    Command::Up => detail.scroll.saturating_sub(1),
                    Command::PageDown => detail.scroll.saturating_add(10),
                    _ => detail.scroll.saturating_sub(10),
                };
            }
        }
        Command::Down => app.selected = app.selected.saturating_add(1).min(last),
        Command::Up => app.selected = app.selected.saturating_sub(1),
        Command::PageDown => app.selected = app.selected.saturating_add(10).min(last),
        Command::PageUp => app.selected = app.selected.saturating_sub(10),
        Command::First => app.selected = 0,
        Command::Last => app.selected = last,
        Command::Open => open_selected(app, None),
        Command::Describe => open_selected(app, Some(Tab::Overview)),
        Command::Yaml => open_selected(app, Some(Tab::Yaml)),
        Command::Filter => app.input = Input::Filter(app.filter.clone()),
        Command::Search => app.input = Input::Search(app.search.clone()),
        Command::CommandLine => app.input = Input::Command(String::new()),
        Command::SortNext => {
            let columns = app.shown.columns().len();
            app.sort_column = if columns == 0 {
                0
            } else {
                app.sort_column % columns + 1
            };
        }
        Command::SortReverse => app.sort_descending = !app.sort_descending,
        Command::WarningsOnly => {
            app.warnings_only = !app.warnings_only;
            app.selected = 0;
            app.selected_id = None;
        }
        Command::Back => app.detail = None,
        Command::Clear => {
            app.filter.clear();
            app.message = None;
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
    }
}
