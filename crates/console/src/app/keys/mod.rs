//! Keys: a key is looked up in the command registry for the scopes in force (the top overlay,
//! a text field, the detail, the list) and the command it names is carried out. Characters
//! typed into a text field that no binding claims go into the text. Part of `update`: it
//! changes the state and nothing else.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::commands::{self, Command, Scope};
use super::{App, Detail, Effect, Tab};
use crate::domain::fixes::Fix;

mod command_line;
mod fields;
mod screens;

pub(super) use fields::on_paste;
use fields::{on_key_too_small, text_field, typed};

/// Opens the selected pool: from the pools list on its overview, from the evaluations list on
/// its scaling tab, from the hosts list on its hosts.
fn open_selected(app: &mut App, on: Option<Tab>) {
    let Some(natural) = app.list.view.opens else {
        return;
    };
    let Some(row) = app.shown.row(app.list.selected) else {
        return;
    };
    app.detail = Some(Detail {
        namespace: row.id.namespace.to_string(),
        name: row.id.name.to_string(),
        tab: on.unwrap_or(natural),
        scroll: 0,
    });
}

/// `c` on a list or a pool's detail: the pool's YAML on its YAML tab, else the name in view.
/// (A dialog copies its kubectl command, the wizard its manifest: each is its own.)
fn copy(app: &mut App) {
    let (text, what) = match &app.detail {
        Some(detail) if detail.tab == Tab::Yaml => match &app.shown.detail {
            Some(data) => (
                data.yaml.join("\n") + "\n",
                format!("the YAML of {}", detail.name),
            ),
            None => return,
        },
        Some(detail) => (detail.name.clone(), detail.name.clone()),
        None => match app.shown.row(app.list.selected) {
            Some(row) => (row.id.name.to_string(), row.id.name.to_string()),
            None => return,
        },
    };
    app.outbox.push(Effect::Copy { text, what });
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
        Some(binding) => match app.availability(binding.command) {
            super::Availability::Enabled => apply(app, binding.scope, binding.command, &key),
            super::Availability::Disabled(why) => app.message = Some(why),
            super::Availability::Hidden => {}
        },
        // A key no binding claims goes into the wizard's editor, or a character into the
        // text being typed.
        None => {
            if super::wizard::edit_key(app, key) {
                return;
            }
            if let Some(text) = text_field(app) {
                // AltGr characters come as Ctrl+Alt on some systems: they are text too.
                let altgr = key
                    .modifiers
                    .contains(KeyModifiers::CONTROL | KeyModifiers::ALT);
                let plain = (key.modifiers - KeyModifiers::SHIFT).is_empty() || altgr;
                let control = key.modifiers == KeyModifiers::CONTROL;
                match key.code {
                    KeyCode::Char(c) if plain => text.push(c),
                    // A terminal whose Backspace sends ^H; the shell's line keys.
                    KeyCode::Char('h') if control => {
                        text.pop();
                    }
                    KeyCode::Char('u') if control => text.clear(),
                    KeyCode::Char('w') if control => {
                        let kept = text.trim_end().rfind(' ').map_or(0, |at| at + 1);
                        text.truncate(kept);
                    }
                    // Any other chord (Ctrl-D, Alt-x) is no character of the text.
                    _ => return,
                }
                typed(app);
            }
        }
    }
}

/// Carries out a command by the owner of the scope its binding is in: each screen and
/// overlay its own commands. The match is over every scope, so a new one must name its owner.
fn apply(app: &mut App, scope: Scope, command: Command, key: &KeyEvent) {
    match scope {
        Scope::Global => match command {
            Command::Suspend => app.outbox.push(Effect::Suspend),
            Command::Quit => app.quit = true,
            // Not bound in the global scope.
            _ => {}
        },
        // The overlays are components: each carries out its own commands.
        Scope::Help
        | Scope::Confirm
        | Scope::ConfirmField
        | Scope::Logs
        | Scope::LogSearch
        | Scope::Drafts
        | Scope::Wizard
        | Scope::WizardField
        | Scope::WizardLines
        | Scope::WizardReview => super::component::handle_top(app, command),
        Scope::Filter | Scope::Search | Scope::CommandLine => fields::in_field(app, command),
        Scope::Detail | Scope::Yaml => screens::in_detail(app, command, key),
        Scope::List | Scope::Events => screens::in_list(app, command),
    }
}
