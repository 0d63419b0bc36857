//! Components: each screen and overlay owns its state and its keys. It says which scopes it
//! reads now (the footer, the help and the dispatch take its bindings from those), carries
//! out a command of those scopes, and takes the answers to the requests it sent. While it acts
//! it holds a [`Ctx`]: what it may read of the console (the hub in focus, the clock, what the
//! screen shows) and a queue of [`Ask`]s for everything beyond itself, carried out in order
//! by the top level once it is back in its place. The lists and a pool's detail (`screens`),
//! the help, a confirmation, the wizard, the controller's log and the drafts chooser are
//! components; the text fields typed into on the screens are carried out by `keys::fields`.

use super::Overlay;
pub use super::ask::{Ask, Ctx, Start};
use super::commands::{Command, Scope};
use crate::domain::{Outcome, Request};

/// What becomes of a component once it has acted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum After {
    /// It stays where it was.
    Stay,
    /// It closes.
    Close,
}

/// An overlay of the console.
pub trait Component {
    /// The scopes whose bindings it reads now, most specific first.
    fn scopes(&self) -> Vec<Scope>;

    /// Carries out a command bound in one of its scopes.
    fn handle(&mut self, command: Command, ctx: &mut Ctx) -> After;

    /// An answer to a request it sent (routed by the request's id, bound to its hub).
    fn answer(&mut self, _request: &Request, _outcome: Outcome, _ctx: &mut Ctx) {}

    /// The text field a typed character goes into, if one is being typed.
    fn typed(&mut self) -> Option<&mut String> {
        None
    }
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

    fn handle(&mut self, command: Command, ctx: &mut Ctx) -> After {
        match self {
            Overlay::Help { scroll } => match command {
                Command::Close => After::Close,
                Command::Down | Command::Up | Command::PageDown | Command::PageUp => {
                    // No further than the help's last line.
                    let lines: usize = super::commands::help(&ctx.behind)
                        .iter()
                        .map(|(_, bindings)| bindings.len().saturating_add(2))
                        .sum();
                    let last = u16::try_from(lines.saturating_sub(1)).unwrap_or(u16::MAX);
                    *scroll = match command {
                        Command::Down => scroll.saturating_add(1),
                        Command::PageDown => scroll.saturating_add(ctx.page_lines()),
                        Command::PageUp => scroll.saturating_sub(ctx.page_lines()),
                        _ => scroll.saturating_sub(1),
                    }
                    .min(last);
                    After::Stay
                }
                _ => After::Stay,
            },
            Overlay::Confirm(confirm) => confirm.handle(command, ctx),
            Overlay::Logs(view) => view.handle(command, ctx),
            Overlay::Drafts(chooser) => chooser.handle(command, ctx),
            Overlay::Event(view) => view.handle(command, ctx),
            Overlay::Describe(view) => view.handle(command, ctx),
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
                    *scroll = scroll.saturating_add(ctx.page_lines());
                    After::Stay
                }
                Command::PageUp => {
                    *scroll = scroll.saturating_sub(ctx.page_lines());
                    After::Stay
                }
                _ => After::Stay,
            },
            Overlay::Wizard(wizard) => wizard.handle(command, ctx),
        }
    }

    fn answer(&mut self, request: &Request, outcome: Outcome, ctx: &mut Ctx) {
        match self {
            Overlay::Confirm(confirm) => confirm.answer(request, outcome, ctx),
            Overlay::Logs(view) => view.answer(request, outcome, ctx),
            Overlay::Drafts(chooser) => chooser.answer(request, outcome, ctx),
            Overlay::Event(_) | Overlay::Describe(_) | Overlay::Story { .. } => {}
            Overlay::Wizard(wizard) => wizard.answer(request, outcome, ctx),
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
