//! Text typed or pasted: the field it goes into (a filter, a search, the command line, a
//! dialog's name, the log's search), what the field does as it changes, and the keys read on a
//! screen too small to show the console.

use crossterm::event::{KeyCode, KeyEvent};

use super::super::commands::{Command, Scope};
use super::super::component::{After, Ask, Component, Ctx};
use super::super::{App, Effect, Input, Overlay};

/// How the footer starts when a key was pressed on a screen too small for the console: a
/// screen made large enough again takes the message away.
pub(in crate::app) const TOO_SMALL: &str = "the terminal is too small to show the console";

/// The text field typed on the screens (a filter, a YAML search, the command line) as a
/// component: Enter accepts it, Esc cancels it, Tab completes a command, Backspace erases.
impl Component for Input {
    fn scopes(&self) -> Vec<Scope> {
        match self {
            Input::Filter(_) => vec![Scope::Filter],
            Input::Search(_) => vec![Scope::Search],
            Input::Command(..) => vec![Scope::CommandLine],
            Input::None => Vec::new(),
        }
    }

    /// `Close` leaves nothing being typed.
    fn handle(&mut self, command: Command, ctx: &mut Ctx) -> After {
        match command {
            Command::Accept => {
                if let Input::Command(text, _) = self {
                    ctx.ask(Ask::Run(std::mem::take(text)));
                }
                return After::Close;
            }
            Command::Cancel => {
                match self {
                    Input::Filter(_) => ctx.ask(Ask::Typed(Input::Filter(String::new()))),
                    Input::Search(_) => ctx.ask(Ask::Typed(Input::Search(String::new()))),
                    Input::Command(..) | Input::None => {}
                }
                return After::Close;
            }
            // Tab: the first completion of what was typed, then the next one each time.
            Command::Complete => ctx.ask(Ask::Complete),
            Command::Erase => {
                if let Some(text) = self.typed() {
                    text.pop();
                    ctx.ask(Ask::Typed(self.clone()));
                }
            }
            // Not bound in a text field's scopes.
            _ => {}
        }
        After::Stay
    }

    /// What is typed into: the text; typing ends a Tab cycle (the next Tab completes what is
    /// there then).
    fn typed(&mut self) -> Option<&mut String> {
        match self {
            Input::Filter(text) | Input::Search(text) => Some(text),
            Input::Command(text, stem) => {
                *stem = None;
                Some(text)
            }
            Input::None => None,
        }
    }
}

impl App {
    /// The text field being typed in, if any.
    pub(super) fn text_field(&mut self) -> Option<&mut String> {
        // The top overlay's own field (a dialog's name, the log's search), if it is typing one.
        if let Some(top) = self.overlays.last_mut() {
            return crate::app::component::Component::typed(top);
        }
        self.input.typed()
    }

    /// After a text field changed: the filter applies live; a search scrolls to its first match.
    pub(super) fn field_changed(&mut self) {
        let input = std::mem::take(&mut self.input);
        self.after_typing(&input);
        self.input = input;
    }

    /// What a field's new text does (the field itself is out of the console meanwhile).
    pub(in crate::app) fn after_typing(&mut self, input: &Input) {
        match input {
            Input::Filter(text) => {
                self.list.filter = text.clone();
                self.list.selected = 0;
                self.list.selected_id = None;
            }
            Input::Search(text) => {
                self.search = text.clone();
                let needle = self.search.trim().to_lowercase();
                let found = self.shown.detail.as_ref().and_then(|d| {
                    if needle.is_empty() {
                        return None;
                    }
                    d.yaml
                        .iter()
                        .position(|l| l.to_lowercase().contains(&needle))
                });
                if let (Some(line), Some(detail)) = (found, self.detail.as_mut()) {
                    detail.scroll = u16::try_from(line).unwrap_or(u16::MAX);
                }
            }
            Input::Command(..) | Input::None => {}
        }
    }

    /// Pasted text: into the wizard's editor, or (on one line) into the text field being typed;
    /// with no field open it is not taken as keys (a pasted `d` must not act).
    pub(in crate::app) fn on_paste(&mut self, text: &str) {
        // Nothing typed reaches a field that cannot be seen (a dialog's name, say).
        if self.too_small() {
            self.message = Some(format!("{TOO_SMALL}: the paste was not taken"));
            return;
        }
        if self.wizard_paste(text) {
            return;
        }
        match self.text_field() {
            Some(field) => {
                let line = text.replace(['\r', '\n'], " ");
                let room = 4096usize.saturating_sub(field.chars().count());
                field.extend(line.chars().take(room));
                self.field_changed();
            }
            None => {
                self.message = Some(
                    "a paste goes into a field: open one first (Enter in the wizard, / to filter)"
                        .into(),
                )
            }
        }
    }

    /// Below the smallest size the console draws nothing but a request to make the terminal
    /// larger: only quit and Esc (which closes what is on top, sending nothing) are read, so no
    /// key acts on a dialog or a row that cannot be seen.
    pub(super) fn on_key_too_small(&mut self, key: KeyEvent) {
        use crossterm::event::KeyModifiers;
        let control = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Char('c') if control => self.quit = true,
            KeyCode::Char('q') if !control => self.quit = true,
            KeyCode::Esc => match self.overlays.pop() {
                Some(Overlay::Confirm(confirm)) => {
                    self.message = Some(format!(
                        "cancelled {}: nothing was sent",
                        confirm.plan.title
                    ));
                }
                // The wizard keeps its draft; closing it is what its own Esc does.
                Some(overlay @ Overlay::Wizard(_)) => {
                    self.overlays.push(overlay);
                    self.wizard_escape();
                }
                Some(Overlay::Logs(_)) => self.outbox.push(Effect::StopLogs),
                Some(
                    Overlay::Help { .. }
                    | Overlay::Drafts(_)
                    | Overlay::Event(_)
                    | Overlay::Describe(_)
                    | Overlay::Story { .. },
                )
                | None => self.input = Input::None,
            },
            _ => {
                self.message = Some(format!(
                    "{TOO_SMALL}: make it at least {}×{} (until then only Esc and q are read)",
                    crate::app::MIN_WIDTH,
                    crate::app::MIN_HEIGHT
                ));
            }
        }
    }

    /// A command for the text field being typed on the screens: taken out of the console while
    /// it acts, back unless it closed; then what it asked for is carried out.
    pub(super) fn in_field(&mut self, command: Command) {
        let mut input = std::mem::take(&mut self.input);
        let (after, asks) = self.lend_deferred(|ctx| input.handle(command, ctx));
        if after != After::Close {
            self.input = input;
        }
        self.carry_out(asks);
    }

    /// Tab on the command line: the first completion of what was typed, then the next one each
    /// time.
    pub(in crate::app) fn complete(&mut self) {
        let mut input = std::mem::take(&mut self.input);
        if let Input::Command(text, stem) = &mut input {
            let typed = stem.get_or_insert_with(|| text.clone()).clone();
            let choices = super::command_line::completions(self, &typed);
            let next = match choices.iter().position(|c| c == text) {
                Some(at) => choices.get(at.saturating_add(1)).or(choices.first()),
                None => choices.first(),
            };
            match next {
                Some(choice) => *text = choice.clone(),
                None => {
                    self.message = Some(format!("nothing completes \"{typed}\""));
                    *stem = None;
                }
            }
        }
        self.input = input;
    }
}
