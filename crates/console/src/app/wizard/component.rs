//! The wizard as a component: its scopes, its commands carried out on its own state (taken
//! off the modal stack meanwhile, the rest of the console lent to it), its dry run's answers;
//! and the ways in from outside a bound key (a key left to the editor, a paste, Esc on a
//! screen too small, an answer), each through [`with_wizard`].

use super::state::Wizard;
use crate::app::commands::{Command, Scope};
use crate::app::component::{After, Ask, Component, Ctx};
use crate::app::{App, Effect, Overlay};
use crate::domain::draft::Step;
use crate::domain::{Outcome, Request};

impl Component for Wizard {
    /// A field being typed (one line or several), Review over the wizard's own, or the
    /// wizard's.
    fn scopes(&self) -> Vec<Scope> {
        match &self.editing {
            Some(editing) if editing.multi_line() => vec![Scope::WizardLines],
            Some(_) => vec![Scope::WizardField],
            None if self.step == Step::Review => vec![Scope::WizardReview, Scope::Wizard],
            None => vec![Scope::Wizard],
        }
    }

    fn handle(&mut self, command: Command, ctx: &mut Ctx) -> After {
        match command {
            Command::Accept | Command::Activate => self.activate(ctx),
            Command::Cancel | Command::Close => return self.escape(ctx),
            Command::Down | Command::Up => self.move_cursor(command == Command::Down),
            Command::NextStep | Command::PreviousStep => self.step(command == Command::NextStep),
            Command::Cycle => self.cycle(ctx),
            Command::AddEntry => self.add_entry(ctx),
            Command::Recreate => self.recreate(ctx),
            Command::RemoveEntry => self.remove_entry(ctx),
            Command::DryRun => self.send_dry_run(ctx),
            Command::Apply => self.apply(ctx),
            Command::Write => self.write(ctx),
            Command::Copy => ctx.effect(Effect::Copy {
                text: self.yaml.clone(),
                what: "the manifest".to_owned(),
            }),
            // Not bound in the wizard's scopes.
            _ => {}
        }
        After::Stay
    }

    /// An answer to the wizard's dry run; one for an earlier draft's is dropped and counted.
    fn answer(&mut self, request: &Request, outcome: Outcome, ctx: &mut Ctx) {
        if !self.dry_run_answered(request, said(&outcome)) {
            ctx.ask(Ask::Dropped);
        }
    }
}

/// Where the wizard lies on the stack (the topmost, if ever two).
fn index(app: &App) -> Option<usize> {
    app.overlays
        .iter()
        .rposition(|o| matches!(o, Overlay::Wizard(_)))
}

/// Runs `act` on the open wizard, taken off the stack meanwhile (see
/// [`crate::app::component::with_overlay`]); `None` when no wizard is open.
pub(super) fn with_wizard<T>(
    app: &mut App,
    act: impl FnOnce(&mut Wizard, &mut Ctx) -> (After, T),
) -> Option<T> {
    let at = index(app)?;
    crate::app::component::with_overlay(app, at, |overlay, ctx| match overlay {
        Overlay::Wizard(w) => {
            let (after, out) = act(w, ctx);
            (after, Some(out))
        }
        _ => (After::Stay, None),
    })
    .flatten()
}

/// A key the bindings left to the field being edited in the wizard on top: whether it was
/// taken.
pub fn edit_key(app: &mut App, key: crossterm::event::KeyEvent) -> bool {
    if !matches!(app.overlays.last(), Some(Overlay::Wizard(_))) {
        return false;
    }
    with_wizard(app, |w, ctx| (After::Stay, w.edit_key(key, ctx))).unwrap_or(false)
}

/// Pasted text into the field being edited in the wizard on top: whether it was taken.
pub fn paste(app: &mut App, text: &str) -> bool {
    if !matches!(app.overlays.last(), Some(Overlay::Wizard(_))) {
        return false;
    }
    with_wizard(app, |w, ctx| (After::Stay, w.paste(text, ctx))).unwrap_or(false)
}

/// Esc on the wizard on top, from a screen too small to show it.
pub fn escape(app: &mut App) {
    if matches!(app.overlays.last(), Some(Overlay::Wizard(_))) {
        with_wizard(app, |w, ctx| (w.escape(ctx), ()));
    }
}

/// What a dry run's answer says on Review, after its "Dry run:" label (not said twice).
fn said(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Done { message } => message
            .strip_prefix("dry run: ")
            .unwrap_or(message)
            .to_owned(),
        Outcome::Allowed(_) => String::new(),
        Outcome::Failed(error) => error.to_string(),
    }
}

/// An answer to the wizard's dry run, for the open wizard; with none open it is dropped and
/// counted.
pub fn performed(app: &mut App, request: &Request, outcome: Outcome) {
    let taken = with_wizard(app, |w, ctx| {
        w.answer(request, outcome, ctx);
        (After::Stay, ())
    });
    if taken.is_none() {
        app.drop_answer();
    }
}
