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

impl App {
    pub(super) fn on_key(&mut self, key: KeyEvent) {
        if self.too_small() {
            self.on_key_too_small(key);
            return;
        }
        // Ctrl-Z in a wizard field undoes what was typed; elsewhere it suspends.
        if key.code == KeyCode::Char('z')
            && key.modifiers == KeyModifiers::CONTROL
            && self.wizard_key(key)
        {
            return;
        }
        let scopes = self.scopes();
        match commands::lookup(&scopes, &key) {
            Some(binding) => match self.availability(binding.command) {
                super::scopes::Availability::Enabled => {
                    self.apply(binding.scope, binding.command, &key)
                }
                super::scopes::Availability::Disabled(why) => self.message = Some(why),
                // A wizard key that does not apply on this step says which keys do.
                super::scopes::Availability::Hidden => {
                    self.wizard_hint(&key);
                }
            },
            // A key no binding claims goes into the wizard's editor, or a character into the
            // text being typed.
            None => {
                if self.wizard_key(key) {
                    return;
                }
                // A letter on the wizard outside a field acts on nothing: the footer says
                // which keys do.
                if self.wizard_hint(&key) {
                    return;
                }
                if let Some(text) = self.text_field() {
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
                    self.field_changed();
                }
            }
        }
    }

    /// A letter on the wizard that acts on nothing: the footer says which keys do. Whether
    /// it was one.
    fn wizard_hint(&mut self, key: &KeyEvent) -> bool {
        let KeyCode::Char(c) = key.code else {
            return false;
        };
        if !self.wizard_on_top() || !(key.modifiers - KeyModifiers::SHIFT).is_empty() {
            return false;
        }
        self.message = Some(format!(
            "{c} does nothing here: Enter types into the field, Space changes a choice, ↑↓ \
             the field, Tab the step, Esc closes"
        ));
        true
    }

    /// Carries out a command by the owner of the scope its binding is in: each screen and
    /// overlay its own commands. The match is over every scope, so a new one must name its owner.
    fn apply(&mut self, scope: Scope, command: Command, key: &KeyEvent) {
        match scope {
            Scope::Global => match command {
                Command::Suspend => self.outbox.push(Effect::Suspend),
                Command::Quit => self.quit = true,
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
            | Scope::WizardReview => self.handle_top(command),
            Scope::Filter | Scope::Search | Scope::CommandLine => self.in_field(command),
            // `1`-`7` name the tab by the key itself.
            Scope::Detail if command == Command::JumpTab => {
                if let KeyCode::Char(c @ '1'..='8') = key.code
                    && let Some(&tab) = Tab::ALL.get(usize::from(c as u8 - b'1'))
                {
                    self.on_detail(|detail, _| {
                        detail.jump(tab);
                        super::component::After::Stay
                    });
                }
            }
            Scope::Timeline => {
                let letter = match key.code {
                    KeyCode::Char(c) => Some(c),
                    _ => None,
                };
                self.on_detail(|detail, _| {
                    detail.on_timeline(command, letter);
                    super::component::After::Stay
                });
            }
            Scope::Detail | Scope::Yaml => {
                self.on_detail(|detail, ctx| detail.handle(command, ctx))
            }
            Scope::List if command == Command::FavouriteNamespace => {
                if let KeyCode::Char(c @ '1'..='9') = key.code {
                    let asks = super::screens::favourite(self, usize::from(c as u8 - b'1'));
                    self.carry_out(asks);
                }
            }
            Scope::List | Scope::Events => self.on_list(command),
            Scope::Tour => {
                let read_only = self.read_only();
                let Some(tour) = &mut self.tour else {
                    return;
                };
                match command {
                    Command::TourAnswer => {
                        if let Some(why) = super::tour::moves::toggle_answer(tour) {
                            self.message = Some(why);
                        }
                    }
                    Command::NextChapter => {
                        let asks = super::tour::moves::next_chapter(tour, read_only);
                        self.carry_out(asks);
                    }
                    // Not bound in the tour's scope.
                    _ => {}
                }
            }
        }
    }
}
