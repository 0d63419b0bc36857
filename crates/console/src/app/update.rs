//! The one place the App changes: a message handled by its owner, then what follows from it settled.

use super::{App, Effect, Msg, Overlay};

/// The one place the state changes; returns what the runtime is to do about it (each effect
/// that expects an answer comes back as a later `Msg`).
pub fn update(app: &mut App, msg: Msg) -> Vec<Effect> {
    // A footer message said before an overlay opened or closed is not about what is on top
    // now: it gives way to the new top's key hints (one said by this message stays).
    let top = app.overlays.len();
    let said_before = app.message.clone();
    // What this message reports copied: the tour may be waiting for it.
    let copied = match &msg {
        Msg::Copied {
            what,
            result: Ok(_),
        } => Some(what.clone()),
        _ => None,
    };
    app.handle(msg);
    if app.overlays.len() != top && app.message == said_before {
        app.message = None;
    }
    app.settle(copied.as_deref());
    std::mem::take(&mut app.outbox)
}

impl App {
    /// What the editor saved for the edit under way; what became of a kept edit (`said`) is
    /// said before what became of this one.
    fn edit_saved(
        &mut self,
        path: std::path::PathBuf,
        said: Option<String>,
        result: Result<String, super::failed::EditorError>,
    ) {
        let Some(editing) = self.editing.take() else {
            return;
        };
        let (editing, asks) =
            self.lend_deferred(|ctx| super::edit::saved(editing, ctx, path, result));
        self.editing = editing;
        self.carry_out(asks);
        if let Some(said) = said {
            self.message = Some(match self.message.take() {
                Some(now) => format!("{said}; {now}"),
                None => said,
            });
        }
    }

    /// A message routed to its owner.
    fn handle(&mut self, msg: Msg) {
        match msg {
            Msg::Tick(now) => self.now = now,
            Msg::Build => self.build_due(),
            Msg::Sources(batch) => {
                for (hub, event) in batch {
                    self.arrived(hub, event);
                    // A new watch asked for (the wizard's namespace): the rest of the batch is
                    // the old watch's, which it replaces.
                    if self.outbox.iter().any(|e| matches!(e, Effect::Watch(_))) {
                        break;
                    }
                }
            }
            Msg::Key(key) => self.on_key(key),
            Msg::Paste(text) => self.on_paste(&text),
            Msg::Logs(event) => super::logs::arrived(&mut self.overlays, event),
            Msg::Suspend => self.outbox.push(Effect::Suspend),
            Msg::Connected { context, result } => self.switched(&context, result),
            Msg::FleetConnected { contexts, result } => self.connected(contexts, result),
            Msg::Performed { request, outcome } => {
                self.performed(&request, outcome);
                // An action is in the audit log now: an open Timeline reads it again.
                self.read_history_again();
            }
            Msg::Resize { width, height } => self.resized(width, height),
            Msg::History { pool, kept } => {
                if let Some(detail) = self
                    .detail
                    .as_mut()
                    .filter(|d| d.namespace == pool.namespace && d.name == pool.name)
                {
                    detail.timeline.kept = Some(kept);
                }
            }
            Msg::Written { path, result } => {
                self.message = Some(super::said::written(&path, result))
            }
            Msg::DraftNotSaved(why) => self.draft_not_saved(&why),
            Msg::Copied { what, result } => self.message = Some(super::said::copied(&what, result)),
            Msg::Edited { path, said, result } => self.edit_saved(path, said, result),
            Msg::DemoReset(result) => {
                self.message = Some(match result {
                    Ok(()) => "the story starts again: every object as at the start".to_owned(),
                    Err(why) => format!("cannot start the story again: {why}"),
                })
            }
            Msg::Played { scenario, result } => {
                if let Some(tour) = &mut self.tour {
                    let asks = super::tour::moves::played(tour, &scenario, result);
                    self.carry_out(asks);
                }
            }
            Msg::TourNotSaved(why) => {
                self.message = Some(format!("the tour's progress cannot be kept: {why}"))
            }
        }
    }

    /// After every message: the wizard's namespaces given back, what is shown derived, the
    /// tour's steps checked, and the permissions the keys in view need asked.
    fn settle(&mut self, copied: Option<&str>) {
        self.restore_namespaces();
        self.refresh();
        // The tour reads the state as drawn (the doctor's findings included), so after refresh.
        if let Some((tour, asks)) = super::tour::steps::notice(self, copied) {
            self.tour = Some(tour);
            self.carry_out(asks);
            self.refresh();
        }
        // The permissions the fix keys need for the pool under the cursor are asked before a key
        // is pressed, so the footer leaves out what is not allowed (no 403 after typing a name).
        let wanted = super::confirm::permissions_in_view(self);
        if wanted.iter().any(|p| !self.fleet.access.contains_key(p))
            && self.fleet.inventory.count(crate::domain::Kind::Pool) > 0
        {
            self.lend(|ctx| super::confirm::ask(ctx, &wanted));
            self.refresh();
        }
    }

    /// The terminal's new size; what a key pressed on a screen too small said is not true any
    /// longer once it is large enough.
    fn resized(&mut self, width: u16, height: u16) {
        self.size = Some((width, height));
        if !self.too_small()
            && self
                .message
                .as_deref()
                .is_some_and(|m| m.starts_with(super::keys::fields::TOO_SMALL))
        {
            self.message = None;
        }
    }

    /// The wizard's draft could not be kept on disk: not offered as if it were, and said
    /// again when the wizard closes.
    fn draft_not_saved(&mut self, why: &crate::domain::draft::NotKept) {
        if let Some(Overlay::Wizard(w)) = self
            .overlays
            .iter_mut()
            .rev()
            .find(|o| matches!(o, Overlay::Wizard(_)))
        {
            w.unsaved = Some(why.to_string());
            if let Some(file) = &w.saved_as {
                self.drafts.retain(|k| &k.file != file);
            }
        }
        self.message = Some(super::said::not_kept(why));
    }
}
