//! Requests the console sends and the answers it waits for. Every operation leaves bound to
//! the hub the console shows ([`App::hub`]) under a new id, and what its answer is for is
//! written down here by that id ([`Awaiting`]): an access review, a dialog's dry run, the
//! wizard's dry run, a confirmed request. An answer is routed by its id alone; one whose id is
//! no longer awaited (its dialog closed, the console moved to another hub or namespace) changes
//! nothing. Moving to another hub or namespace ([`leave`]) closes what was bound to the old
//! one and says what was cancelled. Part of `update`: no I/O.

use super::{App, Effect, Overlay};
use crate::domain::fixes::{Fix, Permission};
use crate::domain::{Hub, Operation, Request, RequestId};

/// What an answer is awaited for.
#[derive(Clone, Debug, PartialEq)]
pub enum Awaiting {
    /// An access review, for the cache of the hub it was asked on.
    Access(Permission),
    /// A dry run of the confirmation dialog with this id.
    DryRun { dialog: RequestId },
    /// A dry run the wizard's Review asked for (`d`).
    WizardDryRun,
    /// A real request, confirmed in a dialog for this fix.
    Real { fix: Fix },
}

impl App {
    /// The hub the console shows now: every request it sends is bound to it.
    pub fn hub(&self) -> Hub {
        Hub {
            context: self.connection.context.clone(),
            server: self.connection.server.clone(),
            user: self.connection.user.clone(),
        }
    }

    /// Sends an operation bound to the hub shown now; its answer is routed by the id
    /// returned.
    pub fn send(&mut self, operation: Operation, awaiting: Awaiting) -> RequestId {
        let id = self.ids.fresh();
        self.pending.insert(id, awaiting);
        self.effects.push(Effect::Perform(Request {
            id,
            hub: self.hub(),
            operation,
        }));
        id
    }

    /// Real requests sent and not answered yet.
    pub fn in_flight(&self) -> usize {
        self.pending
            .values()
            .filter(|a| matches!(a, Awaiting::Real { .. }))
            .count()
    }
}

/// The console moves to another hub or other namespaces: dialogs, the wizard and the log view
/// (all bound to what was on screen) close, answers awaited for them will be dropped, a
/// recreate waiting to create its pool stops, marks are cleared. Requests already confirmed
/// keep going to the hub they were confirmed on. Returns what was cancelled, in words.
pub fn leave(app: &mut App) -> Vec<String> {
    let mut cancelled = Vec::new();
    for overlay in std::mem::take(&mut app.overlays) {
        match overlay {
            Overlay::Confirm(confirm) => {
                cancelled.push(format!("{} (nothing was sent)", confirm.plan.title));
            }
            Overlay::Wizard(wizard) => {
                let name = wizard.draft.pool["metadata"]["name"]
                    .as_str()
                    .filter(|n| !n.is_empty())
                    .unwrap_or("a new pool")
                    .to_owned();
                cancelled.push(format!(
                    "the wizard for {name} (its draft is kept: n or e resumes it)"
                ));
            }
            Overlay::Logs(_) => {
                app.effects.push(Effect::StopLogs);
                cancelled.push("the controller's log".to_owned());
            }
            Overlay::Help { .. } => {}
        }
    }
    app.pending
        .retain(|_, awaiting| matches!(awaiting, Awaiting::Real { .. }));
    if let Some(recreating) = app.recreating.take() {
        cancelled.push(format!(
            "the recreate of {} before its create was sent (the manifest is kept as a draft: n \
             resumes it)",
            recreating.target
        ));
    }
    if !app.marked.is_empty() {
        cancelled.push(crate::domain::words::counted(app.marked.len(), "mark"));
        app.marked.clear();
    }
    cancelled
}

/// `message`, then what [`leave`] cancelled.
pub fn with_cancelled(message: String, cancelled: &[String]) -> String {
    if cancelled.is_empty() {
        message
    } else {
        format!("{message}; cancelled: {}", cancelled.join(", "))
    }
}

#[cfg(test)]
#[path = "requests_tests.rs"]
mod tests;
