//! The hubs the console watches at once (`--context` repeated, `--all-contexts`): one list per
//! view across them, each hub's picture kept on its own and never compared with another's
//! (VIPs and quotas are per hub), and every action bound to one hub.
//!
//! Each hub's state is a [`HubState`] of its own (inventory, connection, read-only reason,
//! access reviews, doctor, home namespace), in a list; the hub acted on, the one "in focus",
//! is an index into it, and the fleet reads as that hub (`app.fleet.inventory`), so every
//! screen, dialog and request works on it as on a console with one hub. Nothing is swapped.
//! On a list the focus follows the row under the cursor, so a key acts on the row's own hub;
//! it stays put while anything bound to the focused hub is open or under way (an overlay, a
//! pool's detail, marks, an edit, a recreate, a context switch). Part of `update`: no I/O.

use super::doctor::Doctor;
pub use super::hub::HubState;
use super::{App, Effect};
use crate::inventory::{Inventory, SourceEvent};

/// The hubs watched: their names in order (a row's `hub` is an index into them), each one's
/// state, which one is in focus, and the hub `:hub NAME` narrowed the lists to. It reads as
/// the hub in focus (`Deref`).
#[derive(Clone, Debug)]
pub struct Fleet {
    /// Every hub's context, in order. Empty or one: a console on one hub.
    pub names: Vec<String>,
    /// The hub acted on: an index into `hubs`, set only by `Fleet::focus_on` (always in range).
    focus: usize,
    /// Every hub's state, by index; never empty.
    hubs: Vec<HubState>,
    /// `:hub NAME`: the lists show this hub's rows only.
    pub only: Option<usize>,
}

impl Default for Fleet {
    fn default() -> Fleet {
        Fleet::new(Vec::new(), HubState::default(), Vec::new())
    }
}

impl std::ops::Deref for Fleet {
    type Target = HubState;
    fn deref(&self) -> &HubState {
        &self.hubs[self.focus]
    }
}

impl std::ops::DerefMut for Fleet {
    fn deref_mut(&mut self) -> &mut HubState {
        &mut self.hubs[self.focus]
    }
}

impl Fleet {
    /// A fleet of these hubs: `first` in focus, then `others`, in order.
    pub fn new(names: Vec<String>, first: HubState, others: Vec<HubState>) -> Fleet {
        let mut hubs = vec![first];
        hubs.extend(others);
        Fleet {
            names,
            focus: 0,
            hubs,
            only: None,
        }
    }

    /// The hub acted on.
    pub fn focus(&self) -> usize {
        self.focus
    }

    /// How many hubs are watched (at least one).
    pub fn count(&self) -> usize {
        self.names.len().max(1)
    }

    /// Whether the console watches several hubs.
    pub fn several(&self) -> bool {
        self.names.len() > 1
    }

    /// The hubs whose rows the lists show, in order.
    pub fn in_view(&self) -> Vec<usize> {
        match self.only {
            Some(hub) => vec![hub],
            None => (0..self.count()).collect(),
        }
    }

    /// Whether rows of several hubs are shown together (a HUB column then names each row's).
    pub fn mixed(&self) -> bool {
        self.several() && self.only.is_none()
    }

    /// A hub's context name.
    pub fn name(&self, hub: usize) -> &str {
        self.names.get(hub).map_or("", String::as_str)
    }

    /// Where a hub is, by its context name.
    pub fn index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// A hub's state, by index.
    pub fn hub(&self, hub: usize) -> Option<&HubState> {
        self.hubs.get(hub)
    }

    /// Every hub's state, with its index.
    pub fn hubs(&self) -> impl Iterator<Item = (usize, &HubState)> {
        self.hubs.iter().enumerate()
    }

    pub fn hubs_mut(&mut self) -> impl Iterator<Item = &mut HubState> {
        self.hubs.iter_mut()
    }

    /// The state of the hub a request is bound to, if it is watched.
    pub fn hub_for(&mut self, hub: &crate::domain::Hub) -> Option<&mut HubState> {
        self.hubs.iter_mut().find(|h| h.is(hub))
    }
}

impl Fleet {
    /// Puts `hub` in focus, if it is another in range; the runtime is told.
    fn focus_on(&mut self, hub: usize) -> Option<Effect> {
        if hub == self.focus || hub >= self.hubs.len() {
            return None;
        }
        // The scope is the console's, not a hub's: the new focus watches as the old one did.
        let scope = self.connection.scope.clone();
        self.focus = hub;
        self.connection.scope = scope;
        Some(Effect::Focus(hub))
    }
}

impl App {
    /// A hub's picture.
    pub fn inventory_of(&self, hub: usize) -> Option<&Inventory> {
        self.fleet.hub(hub).map(|h| &h.inventory)
    }

    /// Which of the hubs watched a request's hub is, if any.
    pub fn hub_index(&self, hub: &crate::domain::Hub) -> Option<usize> {
        if *hub == self.hub() {
            return Some(self.fleet.focus());
        }
        self.fleet
            .hubs()
            .find_map(|(index, state)| state.is(hub).then_some(index))
    }

    /// A hub's doctor.
    pub fn doctor_of(&self, hub: usize) -> Option<&Doctor> {
        self.fleet.hub(hub).map(|h| &h.doctor)
    }

    /// Every hub's picture starts over (other namespaces are watched; the rule markers
    /// worked out from them go with their objects).
    pub fn start_over(&mut self) {
        for state in self.fleet.hubs_mut() {
            state.inventory = Inventory::new();
        }
        self.shown.forget_rows();
    }

    /// The namespaces the watched objects of every hub name.
    pub fn namespaces_seen(&self) -> std::collections::BTreeSet<&str> {
        let mut seen = std::collections::BTreeSet::new();
        for (_, state) in self.fleet.hubs() {
            seen.extend(state.inventory.namespaces_seen());
        }
        seen
    }

    /// Whether a namespace is a watched hub's context's own.
    pub fn is_home_namespace(&self, name: &str) -> bool {
        self.fleet
            .hubs()
            .any(|(_, state)| state.home_namespace == name)
    }

    /// Whether the focus must stay where it is: something bound to the focused hub is open
    /// or under way.
    pub fn focus_held(&self) -> Option<&'static str> {
        if !self.overlays.is_empty() || self.detail.is_some() {
            Some("a dialog or a pool's detail is open")
        } else if !self.list.marked.is_empty() {
            Some("pools are marked")
        } else if self.editing.is_some() || self.recreating.is_some() || self.resuming.is_some() {
            Some("an edit or a recreate is under way")
        } else if self.connecting.is_some() {
            Some("a context switch is under way")
        } else {
            None
        }
    }

    /// The hub of the row under the cursor, if a row is there.
    pub fn selected_hub(&self) -> Option<usize> {
        self.shown.row(self.list.selected).map(|r| r.hub)
    }

    /// Why a key on the row under the cursor cannot act: the row is on another hub than the
    /// one in focus, which something holds there.
    pub fn other_hub_row(&self) -> Option<String> {
        let hub = self.selected_hub()?;
        if hub == self.fleet.focus() || self.detail.is_some() {
            return None;
        }
        let held = self.focus_held().unwrap_or("it is held");
        Some(format!(
            "this row is on hub {}, and the console acts on hub {} now ({held} there): \
             finish that first (Esc closes what is open; space on a marked row unmarks it)",
            crate::domain::inert::line(self.fleet.name(hub)),
            crate::domain::inert::line(self.fleet.name(self.fleet.focus())),
        ))
    }

    /// Moves the focus to the row under the cursor's hub, when nothing holds it.
    pub(super) fn follow_selection(&mut self) {
        if !self.fleet.several() || self.focus_held().is_some() {
            return;
        }
        if let Some(hub) = self.selected_hub() {
            self.focus(hub);
        }
    }

    /// Puts `hub` in focus. An access review still unanswered goes on: its answer is kept in the
    /// permissions of the hub it was asked of, by the hub the request names
    /// (`App::performed`).
    pub(super) fn focus(&mut self, hub: usize) {
        if let Some(effect) = self.fleet.focus_on(hub) {
            self.outbox.push(effect);
        }
    }

    /// A source event of one hub: the focused hub's goes through what the console does with its
    /// own; a parked hub's is applied to its picture.
    pub(super) fn arrived(&mut self, hub: usize, event: SourceEvent) {
        if hub == self.fleet.focus() {
            if !self.narrow_for_wizard(&event) {
                self.fleet.inventory.note_changes();
                self.fleet.inventory.apply(event, self.now);
                let seen = self.fleet.inventory.take_seen();
                self.seen(hub, seen);
                self.recreate_when_gone();
                super::wizard::recheck(
                    &mut self.overlays,
                    &self.fleet,
                    self.offline.as_deref(),
                    &self.namespaces,
                );
                self.open_pending();
            }
        } else if let Some(state) = self.fleet.hubs.get_mut(hub) {
            state.inventory.note_changes();
            state.inventory.apply(event, self.now);
            let seen = state.inventory.take_seen();
            self.seen(hub, seen);
        }
    }

    /// `:hub NAME` narrows the lists to one hub (and puts it in focus); `:hub` or `:hub *` shows
    /// every hub again.
    pub(super) fn narrow_to(&mut self, name: &str) {
        if !self.fleet.several() {
            self.message = Some(format!(
                "the console watches one hub ({}); name several with --context a --context b, or \
                 --all-contexts",
                crate::domain::inert::line(&self.fleet.connection.context)
            ));
            return;
        }
        let name = name.trim();
        if name.is_empty() || name == "*" {
            let before = self.fleet.mixed();
            self.fleet.only = None;
            self.keep_sort(before);
            self.message = Some(format!(
                "every hub: {}",
                crate::domain::inert::line(&self.fleet.names.join(", "))
            ));
            return;
        }
        let Some(hub) = self.fleet.index(name) else {
            self.message = Some(format!(
                "no hub {} here (watched: {})",
                crate::domain::inert::line(name),
                crate::domain::inert::line(&self.fleet.names.join(", "))
            ));
            return;
        };
        if hub != self.fleet.focus()
            && let Some(held) = self.focus_held()
        {
            self.message = Some(format!(
                "cannot narrow to hub {}: {held} on hub {}",
                crate::domain::inert::line(name),
                crate::domain::inert::line(self.fleet.name(self.fleet.focus()))
            ));
            return;
        }
        self.focus(hub);
        let before = self.fleet.mixed();
        self.fleet.only = Some(hub);
        self.keep_sort(before);
        self.list.selected = 0;
        self.list.selected_id = None;
        self.message = Some(format!(
            "hub {} only (:hub * shows every hub)",
            crate::domain::inert::line(name)
        ));
    }

    /// The list stays sorted by the same column when the HUB column comes or goes (it is the
    /// first); sorted by HUB, the list goes back to its natural order (by hub first).
    pub(super) fn keep_sort(&mut self, mixed_before: bool) {
        let sort = &mut self.list.sort_column;
        match (mixed_before, self.fleet.mixed()) {
            (true, false) => *sort = sort.saturating_sub(1),
            (false, true) if *sort > 0 => *sort += 1,
            _ => {}
        }
    }
}
