//! The wizard's keys: carried out where it lies on the stack (its functions find it there);
//! the other overlays are components (`app::component`).

use super::super::commands::Command;
use super::super::{App, Effect};
use super::copy;

/// A command while the wizard is on top.
pub(super) fn in_wizard(app: &mut App, command: Command) {
    use super::super::wizard;
    match command {
        Command::Accept | Command::Activate => wizard::activate(app),
        Command::Cancel | Command::Close => wizard::escape(app),
        Command::Down | Command::Up => wizard::move_cursor(app, command == Command::Down),
        Command::NextStep | Command::PreviousStep => {
            wizard::step(app, command == Command::NextStep)
        }
        Command::Cycle => wizard::cycle(app),
        Command::AddEntry => wizard::add_entry(app),
        Command::Recreate => wizard::recreate::start(app),
        Command::RemoveEntry => wizard::remove_entry(app),
        Command::DryRun => wizard::dry_run(app),
        Command::Apply => wizard::apply(app),
        Command::Write => wizard::write(app),
        Command::Copy => copy(app),
        Command::Quit => app.quit = true,
        Command::Suspend => app.outbox.push(Effect::Suspend),
        _ => {}
    }
}
