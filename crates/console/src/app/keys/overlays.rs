//! The keys of the overlays that take every key: the wizard and the controller's log.

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

/// A command while the drafts offered are on top.
pub(super) fn in_drafts(app: &mut App, command: Command) {
    use super::super::drafts;
    match command {
        Command::Down | Command::Up => drafts::move_cursor(app, command == Command::Down),
        Command::Activate => drafts::choose(app),
        Command::DiscardDraft => drafts::discard(app),
        Command::Close | Command::Cancel => drafts::close(app),
        Command::Quit => app.quit = true,
        Command::Suspend => app.outbox.push(Effect::Suspend),
        _ => {}
    }
}

/// A command while the controller's log is on top.
pub(super) fn in_logs(app: &mut App, command: Command) {
    use super::super::logs;
    let page = 20;
    match command {
        Command::Close | Command::Cancel => logs::close(app),
        Command::PauseLogs => logs::toggle_pause(app),
        Command::AllLines => logs::toggle_all(app),
        Command::Search => logs::start_search(app),
        Command::NextMatch => logs::next_match(app),
        Command::Erase => {
            if let Some(text) = logs::search_field(app) {
                text.pop();
            }
        }
        Command::Up => logs::scroll(app, -1),
        Command::Down => logs::scroll(app, 1),
        Command::PageUp => logs::scroll(app, -page),
        Command::PageDown => logs::scroll(app, page),
        Command::Last => logs::scroll(app, isize::MAX),
        Command::Quit => app.quit = true,
        Command::Suspend => app.outbox.push(Effect::Suspend),
        _ => {}
    }
}
