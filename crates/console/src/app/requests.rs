//! Requests the console sends and the answers it waits for. Every operation leaves bound to
//! the hub the console shows ([`App::hub`]) under a new id, and what its answer is for is
//! written down here by that id ([`Awaiting`]): an access review, a dialog's dry run, the
//! wizard's dry run, a confirmed request. An answer is routed by its id alone; one whose id is
//! no longer awaited (its dialog closed, the console moved to another hub or namespace) changes
//! nothing. Moving to another hub or namespace ([`App::leave`]) closes what was bound to the old
//! one and says what was cancelled. Part of `update`: no I/O.

use super::component::{After, Component};
use super::{App, Effect, Overlay};
use crate::domain::fixes::Fix;
use crate::domain::{Hub, Operation, Outcome, Request, RequestId};

pub use super::ask::Awaiting;

impl App {
    /// The hub the console shows now: every request it sends is bound to it.
    pub fn hub(&self) -> Hub {
        self.fleet.id()
    }

    /// Sends an operation bound to the hub shown now; its answer is routed by the id
    /// returned.
    pub fn send(&mut self, operation: Operation, awaiting: Awaiting) -> RequestId {
        let id = self.ids.fresh();
        self.pending.insert(id, awaiting);
        self.outbox.push(Effect::Perform(Request {
            id,
            hub: self.hub(),
            operation,
        }));
        id
    }

    /// The console moves to another hub or other namespaces: dialogs, the wizard and the log view
    /// (all bound to what was on screen) close, answers awaited for them will be dropped, a
    /// recreate waiting to create its pool stops, marks are cleared. Requests already confirmed
    /// keep going to the hub they were confirmed on. Returns what was cancelled, in words.
    pub(super) fn leave(&mut self) -> Vec<String> {
        let mut cancelled = Vec::new();
        // An edit read on the old hub is not sent to the new one (its file stays).
        self.editing = None;
        for overlay in std::mem::take(&mut self.overlays) {
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
                    // The draft stays: `n` offers a new pool's, `e` on the pool an edit's.
                    let new = matches!(wizard.purpose, super::wizard::Purpose::Create);
                    cancelled.push(format!(
                        "the wizard for {name} (its draft is kept: {} resumes it)",
                        if new { "n" } else { "e on the pool" }
                    ));
                }
                Overlay::Logs(_) => {
                    self.outbox.push(Effect::StopLogs);
                    cancelled.push("the controller's log".to_owned());
                }
                Overlay::Drafts(_) => cancelled.push("the drafts offered".to_owned()),
                Overlay::Event(_) | Overlay::Describe(_) | Overlay::Story { .. } => {}
                Overlay::Help { .. } => {}
            }
        }
        // Answers awaited for what closed are dropped; a permission still being asked is
        // forgotten with its review, so the next dialog asks again rather than wait for ever.
        self.pending.retain(|_, awaiting| match awaiting {
            Awaiting::Access(permission) => {
                self.fleet.access.remove(permission);
                false
            }
            Awaiting::Real { .. } => true,
            Awaiting::DryRun { .. } | Awaiting::WizardDryRun => false,
        });
        if let Some(recreating) = self.recreating.take() {
            // Its delete went to its own hub already; only the create that would follow stops.
            cancelled.push(format!(
                "the recreate of {target}: its delete was sent to context {context}, where the \
                 pool goes, and it will not be created again (its manifest is kept as a draft on \
                 disk)",
                target = recreating.target,
                context = recreating.hub.context
            ));
        }
        if !self.list.marked.is_empty() {
            cancelled.push(crate::domain::words::counted(
                self.list.marked.len(),
                "mark",
            ));
            self.list.marked.clear();
        }
        cancelled
    }
}

/// `message`, then what [`App::leave`] cancelled.
pub fn with_cancelled(message: String, cancelled: &[String]) -> String {
    if cancelled.is_empty() {
        message
    } else {
        format!("{message}; cancelled: {}", cancelled.join(", "))
    }
}

/// How the object a refused request named differs now from what it was looked at, as the
/// watch shows it.
pub(super) fn what_changed(
    inventory: &crate::inventory::Inventory,
    operation: &crate::domain::Operation,
) -> Option<String> {
    let target = operation.target()?;
    let preconditions = operation.preconditions();
    match inventory.get(target.kind, &target.namespace, &target.name) {
        None => Some("it is no longer there".to_owned()),
        Some(object) => preconditions.changed(
            object.uid().as_deref(),
            object.resource_version().as_deref(),
        ),
    }
}

impl App {
    /// An answer from a hub, routed by its request's id: an access review, a dialog's or the
    /// wizard's dry run, a real request's outcome. An answer no longer awaited (its dialog
    /// closed, the console moved to another hub) changes nothing.
    pub fn performed(&mut self, request: &Request, outcome: Outcome) {
        let Some(awaiting) = self.pending.remove(&request.id) else {
            self.drop_answer();
            return;
        };
        match awaiting {
            Awaiting::Access(permission) => {
                let known = match outcome {
                    Outcome::Allowed(true) => super::confirm::Access::Allowed,
                    Outcome::Allowed(false) => super::confirm::Access::Denied,
                    _ => super::confirm::Access::Unknown,
                };
                if request.hub != self.hub() {
                    // Asked of a hub the console watches out of focus now: kept in that hub's
                    // permissions; of no hub watched now, dropped.
                    match self.fleet.hub_for(&request.hub) {
                        Some(state) => {
                            state.access.insert(permission, known);
                        }
                        None => self.drop_answer(),
                    }
                    return;
                }
                self.fleet.access.insert(permission, known);
                // A dialog waiting for it moves on; whatever else is on top is left alone.
                if matches!(self.overlays.last(), Some(Overlay::Confirm(_)))
                    && let Some(Overlay::Confirm(mut confirm)) = self.overlays.pop()
                {
                    self.lend(|ctx| super::confirm::advance(ctx, &mut confirm));
                    self.overlays.push(Overlay::Confirm(confirm));
                }
            }
            // The dialog that asked takes its answer; gone, the answer is dropped.
            Awaiting::DryRun { dialog } => {
                let Some(index) = self
                    .overlays
                    .iter()
                    .rposition(|o| matches!(o, Overlay::Confirm(c) if c.id == dialog))
                else {
                    self.drop_answer();
                    return;
                };
                self.with_overlay(index, |overlay, ctx| {
                    overlay.answer(request, outcome, ctx);
                    (After::Stay, ())
                });
            }
            // The wizard that asked takes its answer (one of an earlier draft it drops).
            Awaiting::WizardDryRun => self.wizard_answered(request, outcome),
            Awaiting::Real { fix, kept, batch } => {
                self.real_answered(request, fix, kept, batch, outcome);
            }
        }
    }

    /// A confirmed request's outcome: the recreate under way moves on, the wizard's pool written
    /// closes the wizard, and the footer says what came of it (naming the hub when the console
    /// has moved to another since).
    fn real_answered(
        &mut self,
        request: &Request,
        fix: Fix,
        kept: Option<std::path::PathBuf>,
        batch: Option<RequestId>,
        outcome: Outcome,
    ) {
        let operation = &request.operation;
        if let Some(asks) =
            super::wizard::recreate::performed(&mut self.recreating, request, &outcome)
        {
            self.carry_out(asks);
            self.recreate_when_gone();
            return;
        }
        // The wizard's pool was created or updated: that wizard closes and its draft goes (not on
        // the ScalingPolicy created before it: the pool may still be refused). A wizard open on
        // another pool by now is left as it is.
        let pool_written = match operation {
            crate::domain::Operation::Create { object, .. } => object["kind"] == "ComputePool",
            crate::domain::Operation::Update { .. } => true,
            _ => false,
        };
        if pool_written
            && fix == Fix::Apply
            && matches!(outcome, Outcome::Done { .. })
            && let Some(Overlay::Wizard(wizard)) = self.overlays.last()
            && operation.target() == wizard.draft.target()
        {
            let file = wizard.saved_as.clone();
            self.overlays.pop();
            if let Some(file) = file {
                let effect = super::drafts::forget(&mut self.drafts, &file);
                self.outbox.push(effect);
            }
            // `pooldeck new` ends here, saying what it made as `kubectl create` says it.
            if self.wizard_only
                && let Some(target) = operation.target()
            {
                let verb = match operation {
                    crate::domain::Operation::Create { .. } => "created",
                    _ => "configured",
                };
                let object = format!("computepool.spectrocloud.com/{} {verb}", target.name);
                let namespace = crate::domain::inert::line(&target.namespace).into_owned();
                self.parting = Some(format!(
                    "{} (namespace {namespace}, context {})",
                    crate::domain::inert::line(&object),
                    crate::domain::inert::line(&request.hub.context)
                ));
                self.quit = true;
            }
        }
        let done = matches!(outcome, Outcome::Done { .. });
        let text = match outcome {
            Outcome::Done { message } => message,
            Outcome::Allowed(_) => operation.kubectl(),
            Outcome::Failed(error) => {
                let what = operation
                    .target()
                    .map_or_else(|| operation.kubectl(), |t| t.to_string());
                // Read from the picture of the hub it was sent to (the console may act on
                // another by now).
                let changed = matches!(error, crate::domain::ClusterError::Conflict { .. })
                    .then(|| {
                        self.hub_index(&request.hub)
                            .and_then(|hub| self.inventory_of(hub))
                            .and_then(|inventory| what_changed(inventory, operation))
                    })
                    .flatten()
                    .map(|c| format!(" ({c})"))
                    .unwrap_or_default();
                format!("{what}: {error}{changed}")
            }
        };
        let text = match batch {
            Some(batch) => match self.batched(batch, text) {
                Some(all) => all,
                None => return,
            },
            None => text,
        };
        self.message = Some(if request.hub == self.hub() {
            text
        } else {
            format!("on context {}: {text}", request.hub.context)
        });
        if let Some(kept) = kept
            && let Some(effect) = super::edit::answered(kept, done, &mut self.message)
        {
            self.outbox.push(effect);
        }
    }

    /// One answer of a confirmation's several requests: kept until the last is in, then all of
    /// them in one sentence (each on its own would leave the footer naming only the last).
    fn batched(&mut self, batch: RequestId, text: String) -> Option<String> {
        let answers = self.batches.entry(batch).or_default();
        answers.push(text);
        let waiting = self
            .pending
            .values()
            .filter(|a| matches!(a, Awaiting::Real { batch: Some(b), .. } if *b == batch))
            .count();
        if waiting > 0 {
            let so_far = answers.len();
            self.message = Some(format!(
                "{so_far} of {} answered…",
                so_far.saturating_add(waiting)
            ));
            return None;
        }
        let answers = self.batches.remove(&batch).unwrap_or_default();
        Some(answers.join("; "))
    }
}

#[cfg(test)]
#[path = "requests_tests.rs"]
pub(crate) mod tests;
