//! A confirmation as a component: its keys (focus, scroll, the name typed, Cancel and
//! Confirm, copying its kubectl command), the answers to its dry runs (from its own hub only),
//! and sending the real requests once the dry run passed and the text is typed.

use super::Effect;
use super::commands::{Command, Scope};
use super::component::{After, Ask, Component, Ctx};
use super::confirm::{Confirm, Focus, Stage};
use super::requests::Awaiting;
use crate::domain::fixes::Fix;
use crate::domain::{Outcome, Request};

impl Component for Confirm {
    fn scopes(&self) -> Vec<Scope> {
        if self.focus == Focus::Field {
            vec![Scope::ConfirmField]
        } else {
            vec![Scope::Confirm]
        }
    }

    fn handle(&mut self, command: Command, ctx: &mut Ctx) -> After {
        match command {
            Command::Close => {
                ctx.say("cancelled: nothing was sent");
                // A cancelled edit stays in its file, and says so.
                if self.plan.fix == Fix::Edit
                    && let Some(path) = end_edit(ctx)
                {
                    ctx.say(format!(
                        "cancelled: nothing was sent; the edit is kept at {} (E on the pool \
                         reopens it while the pool is unchanged)",
                        path.display()
                    ));
                }
                return After::Close;
            }
            // No further than the text's last line on screen.
            Command::Down => {
                self.scroll = self.scroll.saturating_add(1).min(self.last_scroll.get())
            }
            // From the end as now drawn (a larger screen has less to scroll).
            Command::Up => {
                self.scroll = self.scroll.min(self.last_scroll.get()).saturating_sub(1);
            }
            Command::PageDown => {
                self.scroll = self
                    .scroll
                    .saturating_add(ctx.page_lines())
                    .min(self.last_scroll.get());
            }
            Command::PageUp => {
                let from = self.scroll.min(self.last_scroll.get());
                self.scroll = from.saturating_sub(ctx.page_lines());
            }
            Command::FocusNext | Command::FocusPrevious => {
                self.step(command == Command::FocusNext);
            }
            Command::Erase if self.focus == Focus::Field => {
                self.typed.pop();
            }
            // A plan that cannot run here is no command to hand on (the unblock of a pool that
            // is not being deleted would delete a healthy pool's workloads).
            Command::Copy => match &self.plan.blocked {
                Some(why) => {
                    ctx.say(format!("nothing copied: this cannot run ({why})"));
                }
                None if !crate::domain::shell::shown_faithfully(&self.hub) => {
                    ctx.say(format!(
                        "nothing copied: {}",
                        crate::domain::shell::NOT_SHOWN_FAITHFULLY
                    ));
                }
                None => ctx.effect(Effect::Copy {
                    text: self.plan.kubectl_on(&self.hub),
                    what: "the kubectl command".to_owned(),
                }),
            },
            Command::Activate => return self.activate(ctx),
            // Not bound in a dialog's scopes.
            _ => {}
        }
        After::Stay
    }

    /// A dry run's answer, for this dialog only when it came from the hub it was opened on.
    fn answer(&mut self, request: &Request, outcome: Outcome, ctx: &mut Ctx) {
        if self.hub != request.hub {
            return;
        }
        let Stage::DryRun { left, answers } = &mut self.stage else {
            return;
        };
        match outcome {
            Outcome::Failed(error) => {
                let changed = match &error {
                    crate::domain::ClusterError::Conflict { .. }
                    | crate::domain::ClusterError::NotFound { .. } => {
                        super::requests::what_changed(&ctx.hub.inventory, &request.operation)
                    }
                    _ => None,
                };
                self.stage = Stage::DryRunFailed { error, changed };
            }
            Outcome::Done { message } => {
                answers.push(message);
                *left = left.saturating_sub(1);
                if *left == 0 {
                    self.stage = Stage::Ready(std::mem::take(answers));
                }
            }
            Outcome::Allowed(_) => {}
        }
    }

    fn typed(&mut self) -> Option<&mut String> {
        (self.focus == Focus::Field).then_some(&mut self.typed)
    }
}

impl Confirm {
    /// Why Confirm does not work yet, in words for the footer.
    fn why_not_ready(&self) -> String {
        match &self.stage {
            Stage::Blocked(why) => format!("cannot run: {why}"),
            Stage::Checking => "Confirm works once the permissions are checked".to_owned(),
            Stage::DryRun { .. } => "Confirm works once the dry run has passed".to_owned(),
            Stage::DryRunFailed { .. } => {
                "the dry run was refused: nothing can be sent (Esc closes)".to_owned()
            }
            Stage::Ready(_) => match self.needs_typing() {
                Some(text) => format!(
                    "type {} exactly first (Esc cancels)",
                    crate::domain::inert::line(text)
                ),
                None => "read-only mode: nothing is sent".to_owned(),
            },
        }
    }

    /// Enter: presses the focused control.
    fn activate(&mut self, ctx: &mut Ctx) -> After {
        match self.focus {
            Focus::Cancel => {
                ctx.say("cancelled: nothing was sent");
                After::Close
            }
            Focus::Field => {
                // Enter moves on only once the text matches: a name half typed is not a
                // choice of the Confirm button.
                match self.needs_typing() {
                    Some(text) if self.typed != text => {
                        ctx.say(format!(
                            "type {} exactly first (Esc cancels)",
                            crate::domain::inert::line(text)
                        ));
                    }
                    _ => self.focus = Focus::Confirm,
                }
                After::Stay
            }
            Focus::Confirm => self.send(ctx),
        }
    }

    /// Why an unblock's plan no longer holds, if it does not: worked out again from what the
    /// console watches now, it would send other requests, or none.
    fn changed_since(&self, ctx: &Ctx) -> Option<String> {
        let about = self.about.as_ref()?;
        let Some(pool) = ctx
            .hub
            .inventory
            .get(crate::domain::Kind::Pool, &about.namespace, &about.name)
            .and_then(|o| o.pool())
        else {
            return Some("the pool is no longer there".into());
        };
        let now = super::unblock::plan(ctx.hub, pool, ctx.now);
        let same = now.fix == self.plan.fix
            && now.operations == self.plan.operations
            && now.type_to_confirm == self.plan.type_to_confirm
            && now.blocked.is_none();
        (!same).then(|| {
            "the hub changed since this dialog opened (an AIWorkload came, went or changed)"
                .to_owned()
        })
    }

    /// Enter on Confirm: sends the real requests and closes the dialog.
    fn send(&mut self, ctx: &mut Ctx) -> After {
        if !self.ready() || ctx.read_only() {
            ctx.say(self.why_not_ready());
            return After::Stay;
        }
        // The dialog's dry runs and reviews were answered by its hub; nothing goes to another.
        if self.hub != ctx.hub.id() {
            ctx.say(format!(
                "cancelled {}: it was previewed on another hub; nothing was sent",
                self.plan.title
            ));
            return After::Close;
        }
        if let Some(why) = self.changed_since(ctx) {
            ctx.say(format!(
                "{}: nothing was sent: {why}; press u again to see what it would do now",
                self.plan.title
            ));
            return After::Close;
        }
        let plan = self.plan.clone();
        // An edit's answer is routed with the file it is kept in (another edit may be under
        // way by the time it comes).
        let kept = if plan.fix == Fix::Edit {
            end_edit(ctx)
        } else {
            None
        };
        let mut sent = Vec::new();
        let batch = (plan.operations.len() > 1).then_some(self.id);
        for operation in &plan.operations {
            let awaiting = Awaiting::Real {
                fix: plan.fix,
                kept: kept.clone(),
                batch,
            };
            sent.push(ctx.send(operation.clone(), awaiting));
        }
        if plan.fix == Fix::Recreate {
            ctx.ask(Ask::Recreating(sent.first().copied()));
        }
        if matches!(plan.fix, Fix::Pause | Fix::Resume) {
            ctx.ask(Ask::ClearMarks);
        }
        ctx.say(format!(
            "{}: sent to context {}; the list changes when the hub reports it",
            plan.title, ctx.hub.connection.context
        ));
        After::Close
    }
}

/// The edit under way ends; where its file is kept, if the runtime said.
fn end_edit(ctx: &mut Ctx) -> Option<std::path::PathBuf> {
    let path = ctx.editing.and_then(|editing| editing.path.clone());
    ctx.ask(Ask::EndEdit);
    path
}
