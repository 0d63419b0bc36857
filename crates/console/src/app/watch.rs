//! The namespaces the console watches: asked for (`:ns`, `0`-`9`), and widened for the
//! wizard (its draft's as well as the console's own, one at a time, back to the console's own
//! once it closes; for the wizard alone, its own when the hub refuses every namespace). The
//! top level's: part of `update`.

use crate::app::Overlay;
use crate::app::ports::Namespaces;
use crate::app::{App, Effect};
use crate::domain::Kind;
use crate::inventory::SourceState;

impl App {
    /// Watches other namespaces: the picture starts over, and what was bound to the old one
    /// (dialogs, the wizard, a recreate, marks) is cancelled, said in the footer.
    pub(super) fn watch(&mut self, namespaces: Namespaces) {
        let cancelled = self.leave();
        self.before_wizard = None;
        self.fleet.connection.scope = namespaces.words();
        self.message = Some(super::requests::with_cancelled(
            format!("watching {}", self.fleet.connection.scope),
            &cancelled,
        ));
        self.namespaces = namespaces.clone();
        self.start_over();
        self.detail = None;
        self.list.selected = 0;
        self.list.selected_id = None;
        self.list.chosen = false;
        self.outbox.push(Effect::Watch(namespaces));
    }

    /// Watches `namespace` as well when the console watches a list of namespaces without it:
    /// the wizard's choices and checks then see what is there. One namespace at a time: the
    /// console's own list plus the draft's, back to its own once the wizard closes
    /// ([`App::restore_namespaces`]).
    pub(in crate::app) fn watch_also(&mut self, namespace: &str) {
        let own = self
            .before_wizard
            .clone()
            .unwrap_or_else(|| self.namespaces.clone());
        let Namespaces::Only(list) = &own else {
            return;
        };
        let wanted = if self.offline.is_some()
            || list.iter().any(|n| n == namespace)
            || crate::domain::rules::names::namespace_problem(namespace).is_some()
        {
            own.clone()
        } else {
            let mut list = list.clone();
            list.push(namespace.to_owned());
            Namespaces::Only(list)
        };
        if wanted == self.namespaces {
            return;
        }
        self.before_wizard = (wanted != own).then_some(own);
        self.rewatch(
            wanted,
            format!("watching {namespace} too, for the wizard's choices and checks"),
        );
    }

    /// Once no wizard is open (nor a recreate waiting), the console watches its own namespaces
    /// again if a wizard widened them.
    pub(in crate::app) fn restore_namespaces(&mut self) {
        if self.before_wizard.is_none()
            || self.recreating.is_some()
            || self
                .overlays
                .iter()
                .any(|o| matches!(o, Overlay::Wizard(_)))
        {
            return;
        }
        if let Some(own) = self.before_wizard.take() {
            let said = format!("watching {} again", own.words());
            let message = match self.message.take() {
                Some(before) => format!("{before}; {said}"),
                None => said,
            };
            self.rewatch(own, message);
        }
    }

    /// Watches other namespaces for the wizard, without leaving it: the picture starts over,
    /// and the checks run again as it arrives.
    fn rewatch(&mut self, namespaces: Namespaces, message: String) {
        self.fleet.connection.scope = namespaces.words();
        self.namespaces = namespaces.clone();
        // Every hub's: the watch starts over on each.
        self.start_over();
        for overlay in &mut self.overlays {
            if let Overlay::Wizard(w) = overlay {
                w.checked = (u64::MAX, u64::MAX);
            }
        }
        self.outbox.push(Effect::Watch(namespaces));
        self.message = Some(message);
    }

    /// `pooldeck new` watches every namespace; when the hub refuses pools across namespaces, the
    /// draft's own namespace is watched instead (once), and the footer says so. Whether it did:
    /// the refusal then belongs to the old watch and is not applied.
    pub(in crate::app) fn narrow_for_wizard(
        &mut self,
        event: &crate::inventory::SourceEvent,
    ) -> bool {
        let crate::inventory::SourceEvent::State {
            kind: Kind::Pool,
            scope: None,
            state: SourceState::Forbidden { .. },
        } = event
        else {
            return false;
        };
        if !self.wizard_only || self.namespaces != Namespaces::All {
            return false;
        }
        // The wizard's draft, or the one `--resume` waits to open.
        let namespace = self
            .overlays
            .iter()
            .rev()
            .find_map(|o| match o {
                Overlay::Wizard(w) => Some(w.draft.namespace().to_owned()),
                _ => None,
            })
            .or_else(|| {
                self.resuming
                    .as_ref()
                    .map(|k| k.saved.namespace().to_owned())
            });
        let Some(namespace) =
            namespace.filter(|n| crate::domain::rules::names::namespace_problem(n).is_none())
        else {
            return false;
        };
        self.rewatch(
            Namespaces::Only(vec![namespace.clone()]),
            format!("you may not list pools across namespaces: watching {namespace}, the draft's"),
        );
        true
    }
}
