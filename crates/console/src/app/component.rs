//! Components: each screen and overlay owns its state and its keys. It says which scopes it
//! reads now (the footer, the help and the dispatch take its bindings from those), carries
//! out a command of those scopes, and takes the answers to the requests it sent. While it acts
//! it is out of the console and the rest is lent to it (the inventory, the clock, the hub, the
//! outbox); it goes back to its place unless it closed, and what it asked for beyond itself
//! ([`Follow`]) is carried out then. The lists and a pool's detail (`screens`), the help, a
//! confirmation, the wizard, the controller's log and the drafts chooser are components; the
//! text fields typed into on the screens are carried out by `keys::fields`.

use super::commands::{Command, Scope};
use super::{App, Overlay};
use crate::domain::{Outcome, Request};

/// What becomes of a component once it has acted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum After {
    /// It stays where it was.
    Stay,
    /// It closes.
    Close,
    /// It stays, and asks for something that reads the console with it back in place.
    Then(Follow),
}

/// What a component asks of the console beyond itself: each reads the selection (the list's,
/// the detail's pool), so it runs once the component is back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Follow {
    /// A fix's confirmation for the chosen pools.
    Fix(crate::domain::fixes::Fix),
    /// The controller's log.
    Logs,
    /// The wizard: a new pool, or the selected one edited.
    Wizard { edit: bool },
    /// Every namespace watched (the picture starts over, the list with it).
    AllNamespaces,
}

/// Carries out what a component asked for.
pub fn follow(app: &mut App, follow: Follow) {
    match follow {
        Follow::Fix(fix) => super::confirm::open(app, fix),
        Follow::Logs => super::logs::open(app),
        Follow::Wizard { edit } => super::wizard::open(app, edit),
        Follow::AllNamespaces => {
            app.namespaces_asked = true;
            app.watch(super::ports::Namespaces::All)
        }
    }
}

/// An overlay of the console.
pub trait Component {
    /// The scopes whose bindings it reads now, most specific first.
    fn scopes(&self) -> Vec<Scope>;

    /// Carries out a command bound in one of its scopes; `app` is the console without it.
    fn handle(&mut self, command: Command, app: &mut App) -> After;

    /// An answer to a request it sent (routed by the request's id, bound to its hub).
    fn answer(&mut self, _request: &Request, _outcome: Outcome, _app: &mut App) {}

    /// The text field a typed character goes into, if one is being typed.
    fn typed(&mut self) -> Option<&mut String> {
        None
    }
}

/// Runs `act` on the overlay at `index`, taken off the stack meanwhile, and puts it back at
/// its place unless it closed (what it opened meanwhile stays above it). Returns `None` when
/// there is no overlay there.
pub fn with_overlay<T>(
    app: &mut App,
    index: usize,
    act: impl FnOnce(&mut Overlay, &mut App) -> (After, T),
) -> Option<T> {
    if index >= app.overlays.len() {
        return None;
    }
    let mut overlay = app.overlays.remove(index);
    let (after, out) = act(&mut overlay, app);
    if after != After::Close {
        let at = index.min(app.overlays.len());
        app.overlays.insert(at, overlay);
    }
    if let After::Then(asked) = after {
        follow(app, asked);
    }
    Some(out)
}

/// A command for the top overlay.
pub fn handle_top(app: &mut App, command: Command) {
    let Some(top) = app.overlays.len().checked_sub(1) else {
        return;
    };
    with_overlay(app, top, |overlay, app| (overlay.handle(command, app), ()));
}

/// The overlays on the modal stack, each the component it holds (the help is small enough to
/// be carried out here).
impl Component for Overlay {
    fn scopes(&self) -> Vec<Scope> {
        match self {
            Overlay::Help { .. } => vec![Scope::Help],
            Overlay::Confirm(confirm) => confirm.scopes(),
            Overlay::Wizard(wizard) => wizard.scopes(),
            Overlay::Logs(view) => view.scopes(),
            Overlay::Drafts(chooser) => chooser.scopes(),
            Overlay::Event(view) => view.scopes(),
            Overlay::Describe(view) => view.scopes(),
            Overlay::Story { .. } => vec![Scope::Help],
        }
    }

    fn handle(&mut self, command: Command, app: &mut App) -> After {
        match self {
            Overlay::Help { scroll } => match command {
                Command::Close => After::Close,
                Command::Down | Command::Up | Command::PageDown | Command::PageUp => {
                    // No further than the help's last line.
                    let lines: usize = super::commands::help(&app.scopes_behind())
                        .iter()
                        .map(|(_, bindings)| bindings.len().saturating_add(2))
                        .sum();
                    let last = u16::try_from(lines.saturating_sub(1)).unwrap_or(u16::MAX);
                    *scroll = match command {
                        Command::Down => scroll.saturating_add(1),
                        Command::PageDown => scroll.saturating_add(app.page_lines()),
                        Command::PageUp => scroll.saturating_sub(app.page_lines()),
                        _ => scroll.saturating_sub(1),
                    }
                    .min(last);
                    After::Stay
                }
                _ => After::Stay,
            },
            Overlay::Confirm(confirm) => confirm.handle(command, app),
            Overlay::Logs(view) => view.handle(command, app),
            Overlay::Drafts(chooser) => chooser.handle(command, app),
            Overlay::Event(view) => view.handle(command, app),
            Overlay::Describe(view) => view.handle(command, app),
            // Read as the help is: scrolled, closed.
            Overlay::Story { scroll, .. } => match command {
                Command::Close => After::Close,
                Command::Down => {
                    *scroll = scroll.saturating_add(1);
                    After::Stay
                }
                Command::Up => {
                    *scroll = scroll.saturating_sub(1);
                    After::Stay
                }
                Command::PageDown => {
                    *scroll = scroll.saturating_add(app.page_lines());
                    After::Stay
                }
                Command::PageUp => {
                    *scroll = scroll.saturating_sub(app.page_lines());
                    After::Stay
                }
                _ => After::Stay,
            },
            Overlay::Wizard(wizard) => wizard.handle(command, app),
        }
    }

    fn answer(&mut self, request: &Request, outcome: Outcome, app: &mut App) {
        match self {
            Overlay::Confirm(confirm) => confirm.answer(request, outcome, app),
            Overlay::Logs(view) => view.answer(request, outcome, app),
            Overlay::Drafts(chooser) => chooser.answer(request, outcome, app),
            Overlay::Event(_) | Overlay::Describe(_) | Overlay::Story { .. } => {}
            Overlay::Wizard(wizard) => wizard.answer(request, outcome, app),
            Overlay::Help { .. } => {}
        }
    }

    fn typed(&mut self) -> Option<&mut String> {
        match self {
            Overlay::Confirm(confirm) => confirm.typed(),
            Overlay::Logs(view) => view.typed(),
            Overlay::Help { .. }
            | Overlay::Wizard(_)
            | Overlay::Drafts(_)
            | Overlay::Event(_)
            | Overlay::Describe(_)
            | Overlay::Story { .. } => None,
        }
    }
}
