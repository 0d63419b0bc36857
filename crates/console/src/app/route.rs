//! How the top level routes a command or an answer to its owner: the overlay on top (or at
//! its place on the stack), the open wizard, the list, the pool's detail. The owner is taken
//! out while it acts with a [`Ctx`], put back unless it closed, and what it asked for is then
//! carried out.

use super::commands::Command;
use super::component::{After, Component, Ctx};
use super::wizard::Wizard;
use super::{App, Detail, Overlay};
use crate::domain::{Outcome, Request};

impl App {
    /// Runs `act` on the overlay at `index`, taken off the stack meanwhile, and puts it back
    /// at its place unless it closed (what it asked to open goes above it); then carries out
    /// what it asked for. Returns `None` when there is no overlay there.
    pub(super) fn with_overlay<T>(
        &mut self,
        index: usize,
        act: impl FnOnce(&mut Overlay, &mut Ctx) -> (After, T),
    ) -> Option<T> {
        if index >= self.overlays.len() {
            return None;
        }
        let mut overlay = self.overlays.remove(index);
        let ((after, out), asks) = self.lend_deferred(|ctx| act(&mut overlay, ctx));
        if after != After::Close {
            let at = index.min(self.overlays.len());
            self.overlays.insert(at, overlay);
        }
        self.carry_out(asks);
        Some(out)
    }

    /// A command for the top overlay.
    pub(super) fn handle_top(&mut self, command: Command) {
        let Some(top) = self.overlays.len().checked_sub(1) else {
            return;
        };
        self.with_overlay(top, |overlay, ctx| (overlay.handle(command, ctx), ()));
    }

    /// Runs a command on the list, taken out of the console meanwhile, and what it asks for
    /// once it is back.
    pub(super) fn on_list(&mut self, command: Command) {
        let mut list = std::mem::take(&mut self.list);
        let (_, asks) = self.lend_deferred(|ctx| list.handle(command, ctx));
        self.list = list;
        self.carry_out(asks);
    }

    /// Runs `act` on the open pool's detail, taken out of the console meanwhile; it goes back
    /// unless it closed (Esc: back to the list), then what it asked for is carried out.
    pub(super) fn on_detail(&mut self, act: impl FnOnce(&mut Detail, &mut Ctx) -> After) {
        let Some(mut detail) = self.detail.take() else {
            return;
        };
        let (after, asks) = self.lend_deferred(|ctx| act(&mut detail, ctx));
        if after != After::Close {
            self.detail = Some(detail);
        }
        self.carry_out(asks);
    }

    /// Runs `act` on the open wizard (the topmost, if ever two), as [`App::with_overlay`];
    /// `None` when no wizard is open.
    fn with_wizard<T>(
        &mut self,
        act: impl FnOnce(&mut Wizard, &mut Ctx) -> (After, T),
    ) -> Option<T> {
        let at = self
            .overlays
            .iter()
            .rposition(|o| matches!(o, Overlay::Wizard(_)))?;
        self.with_overlay(at, |overlay, ctx| match overlay {
            Overlay::Wizard(w) => {
                let (after, out) = act(w, ctx);
                (after, Some(out))
            }
            _ => (After::Stay, None),
        })
        .flatten()
    }

    /// Whether the wizard is on top.
    pub(super) fn wizard_on_top(&self) -> bool {
        matches!(self.overlays.last(), Some(Overlay::Wizard(_)))
    }

    /// A key the bindings left to the field being edited in the wizard on top: whether it
    /// was taken.
    pub(super) fn wizard_key(&mut self, key: crossterm::event::KeyEvent) -> bool {
        self.wizard_on_top()
            && self
                .with_wizard(|w, ctx| (After::Stay, w.edit_key(key, ctx)))
                .unwrap_or(false)
    }

    /// Pasted text into the field being edited in the wizard on top: whether it was taken.
    pub(super) fn wizard_paste(&mut self, text: &str) -> bool {
        self.wizard_on_top()
            && self
                .with_wizard(|w, ctx| (After::Stay, w.paste(text, ctx)))
                .unwrap_or(false)
    }

    /// Esc on the wizard on top, from a screen too small to show it.
    pub(super) fn wizard_escape(&mut self) {
        if self.wizard_on_top() {
            self.with_wizard(|w, ctx| (w.escape(ctx), ()));
        }
    }

    /// An answer to the wizard's dry run, for the open wizard; with none open it is dropped
    /// and counted.
    pub(super) fn wizard_answered(&mut self, request: &Request, outcome: Outcome) {
        let taken = self.with_wizard(|w, ctx| {
            w.answer(request, outcome, ctx);
            (After::Stay, ())
        });
        if taken.is_none() {
            self.drop_answer();
        }
    }
}
