//! Keys: a key is looked up in the command registry for the scopes in force (the top overlay,
//! a text field, the detail, the list) and the command it names is carried out. Characters
//! typed into a text field that no binding claims go into the text. Part of `update`: it
//! changes the state and nothing else.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::commands::{self, Command, Scope};
use super::component::Component;
use super::{App, Effect, Tab};

mod command_line;
pub(super) use command_line::run_command;
pub(super) mod fields;

pub(super) use fields::{after_typing, complete, on_paste};
use fields::{on_key_too_small, text_field, typed};

pub(super) fn on_key(app: &mut App, key: KeyEvent) {
    if app.too_small() {
        on_key_too_small(app, key);
        return;
    }
    let scopes = app.scopes();
    match commands::lookup(&scopes, &key) {
        Some(binding) => match app.availability(binding.command) {
            super::scopes::Availability::Enabled => {
                apply(app, binding.scope, binding.command, &key)
            }
            super::scopes::Availability::Disabled(why) => app.message = Some(why),
            super::scopes::Availability::Hidden => {}
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
        | Scope::Event
        | Scope::Describe
        | Scope::Wizard
        | Scope::WizardField
        | Scope::WizardLines
        | Scope::WizardReview => super::component::handle_top(app, command),
        Scope::Filter | Scope::Search | Scope::CommandLine => fields::in_field(app, command),
        // `1`-`7` name the tab by the key itself.
        Scope::Detail if command == Command::JumpTab => {
            if let KeyCode::Char(c @ '1'..='7') = key.code
                && let Some(&tab) = Tab::ALL.get(usize::from(c as u8 - b'1'))
            {
                app.on_detail(|detail, _| {
                    detail.jump(tab);
                    super::component::After::Stay
                });
            }
        }
        Scope::Detail | Scope::Yaml => app.on_detail(|detail, ctx| detail.handle(command, ctx)),
        Scope::List if command == Command::FavouriteNamespace => {
            if let KeyCode::Char(c @ '1'..='9') = key.code {
                let asks = super::screens::favourite(app, usize::from(c as u8 - b'1'));
                app.carry_out(asks);
            }
        }
        Scope::List | Scope::Events => app.on_list(command),
        Scope::Tour => {
            let read_only = app.read_only();
            let Some(tour) = &mut app.tour else {
                return;
            };
            match command {
                Command::TourAnswer => {
                    if let Some(why) = super::tour::toggle_answer(tour) {
                        app.message = Some(why);
                    }
                }
                Command::NextChapter => {
                    let asks = super::tour::next_chapter(tour, read_only);
                    app.carry_out(asks);
                }
                // Not bound in the tour's scope.
                _ => {}
            }
        }
    }
}
