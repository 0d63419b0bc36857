//! The wizard as a component: its scopes, its commands carried out on its own state (taken
//! off the modal stack meanwhile, with a `Ctx` lent to it), its dry run's answers. The ways
//! in from outside a bound key (a key left to the editor, a paste, Esc on a screen too small,
//! an answer) are the top level's routing (`app/route.rs`).

use super::state::Wizard;
use crate::app::Effect;
use crate::app::commands::{Command, Scope};
use crate::app::component::{After, Ask, Component, Ctx};
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
