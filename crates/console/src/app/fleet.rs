//! The hubs the console watches at once (`--context` repeated, `--all-contexts`): one list per
//! view across them, each hub's picture kept on its own and never compared with another's
//! (VIPs and quotas are per hub), and every action bound to one hub.
//!
//! The hub acted on, the one "in focus", keeps its state in the [`App`]'s own fields (its
//! inventory, connection, read-only reason, access reviews and doctor), so that every
//! screen, dialog and request works on it as on a console with one hub; the others are parked
//! here by index. On a list the focus follows the row under the cursor, so a key acts on the
//! row's own hub; it stays put while anything bound to the focused hub is open or under way
//! (an overlay, a pool's detail, marks, an edit, a recreate, a context switch). Part of
//! `update`: no I/O.

use super::confirm::AccessCache;
use super::doctor::Doctor;
use super::{App, Connection, Effect};
use crate::inventory::{Inventory, SourceEvent};

/// A hub out of focus: everything the console keeps of it.
#[derive(Clone, Debug, Default)]
pub struct Parked {
    pub connection: Connection,
    pub inventory: Inventory,
    pub read_only_why: Option<String>,
    pub access: AccessCache,
    pub doctor: Doctor,
    /// The context's own namespace (a new pool's last default).
    pub home_namespace: String,
}

impl Parked {
    /// Whether this is the hub a request is bound to (context, server, user, kubeconfig).
    pub fn is(&self, hub: &crate::domain::Hub) -> bool {
        let c = &self.connection;
        c.context == hub.context
            && c.server == hub.server
            && c.user == hub.user
            && c.kubeconfig == hub.kubeconfig
    }
}

/// The hubs watched: their names in order (a row's `hub` is an index into them), which one
/// is in focus, the others' state, and the hub `:hub NAME` narrowed the lists to.
#[derive(Clone, Debug, Default)]
pub struct Fleet {
    /// Every hub's context, in order. Empty or one: a console on one hub.
    pub names: Vec<String>,
    /// The hub whose state is in the App's own fields.
    pub focus: usize,
    /// The other hubs' state, by index (`None` at the focus).
    parked: Vec<Option<Box<Parked>>>,
    /// `:hub NAME`: the lists show this hub's rows only.
    pub only: Option<usize>,
}

impl Fleet {
    /// A fleet of these hubs, the first in focus; `others` are the state of the rest, in
    /// order.
    pub fn new(names: Vec<String>, others: Vec<Parked>) -> Fleet {
        let mut parked = vec![None];
        parked.extend(others.into_iter().map(|p| Some(Box::new(p))));
        Fleet {
            names,
            focus: 0,
            parked,
            only: None,
        }
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

    /// A parked hub's state (none for the focus: that is the App's own).
    pub fn parked(&self, hub: usize) -> Option<&Parked> {
        self.parked.get(hub)?.as_deref()
    }

    /// Every parked hub's state, with its index.
    pub fn parked_hubs(&self) -> impl Iterator<Item = (usize, &Parked)> {
        self.parked
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.as_deref().map(|p| (i, p)))
    }

    /// The parked hub a request's hub is, if any.
    pub fn parked_for(&mut self, hub: &crate::domain::Hub) -> Option<&mut Parked> {
        self.parked
            .iter_mut()
            .flatten()
            .map(|p| &mut **p)
            .find(|p| p.is(hub))
    }

    pub fn parked_mut(&mut self) -> impl Iterator<Item = &mut Parked> {
        self.parked.iter_mut().filter_map(|p| p.as_deref_mut())
    }
}

impl App {
    /// A hub's picture: the focused hub's is the App's own.
    pub fn inventory_of(&self, hub: usize) -> Option<&Inventory> {
        if hub == self.fleet.focus {
            Some(&self.inventory)
        } else {
            self.fleet.parked(hub).map(|p| &p.inventory)
        }
    }

    /// Which of the hubs watched a request's hub is, if any.
    pub fn hub_index(&self, hub: &crate::domain::Hub) -> Option<usize> {
        if *hub == self.hub() {
            return Some(self.fleet.focus);
        }
        self.fleet
            .parked_hubs()
            .find_map(|(index, parked)| parked.is(hub).then_some(index))
    }

    /// A hub's doctor (the focused hub's is the App's own).
    pub fn doctor_of(&self, hub: usize) -> Option<&Doctor> {
        if hub == self.fleet.focus {
            Some(&self.shown.doctor)
        } else {
            self.fleet.parked(hub).map(|p| &p.doctor)
        }
    }

    /// Every hub's picture starts over (other namespaces are watched): the focused hub's and
    /// the parked ones' (the rule markers worked out from them go with their objects).
    pub fn start_over(&mut self) {
        self.inventory = Inventory::new();
        for parked in self.fleet.parked_mut() {
            parked.inventory = Inventory::new();
        }
        self.shown.forget_rows();
        // The events' shared texts and the hosts' hardware held for the old picture only go
        // now (nothing of it is held any more: not its objects, not the rows made from them).
        crate::domain::model::event::sweep_shared();
        crate::domain::model::status::sweep_hardware();
    }

    /// The namespaces the watched objects of every hub name.
    pub fn namespaces_seen(&self) -> std::collections::BTreeSet<&str> {
        let mut seen = self.inventory.namespaces_seen();
        for (_, parked) in self.fleet.parked_hubs() {
            seen.extend(parked.inventory.namespaces_seen());
        }
        seen
    }

    /// Whether a namespace is a watched hub's context's own.
    pub fn is_home_namespace(&self, name: &str) -> bool {
        self.home_namespace == name
            || self
                .fleet
                .parked_hubs()
                .any(|(_, parked)| parked.home_namespace == name)
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
        if hub == self.fleet.focus || self.detail.is_some() {
            return None;
        }
        let held = self.focus_held().unwrap_or("it is held");
        Some(format!(
            "this row is on hub {}, and the console acts on hub {} now ({held} there): \
             finish that first (Esc closes what is open; space on a marked row unmarks it)",
            crate::domain::inert::line(self.fleet.name(hub)),
            crate::domain::inert::line(self.fleet.name(self.fleet.focus)),
        ))
    }

    /// Moves the focus to the row under the cursor's hub, when nothing holds it.
    pub(super) fn follow_selection(&mut self) {
        if !self.fleet.several() || self.focus_held().is_some() {
            return;
        }
        if let Some(hub) = self.selected_hub() {
            focus(self, hub);
        }
    }
}

/// Puts `hub` in focus: its state into the App's fields, the focused one's parked. An access
/// review still unanswered goes on: its answer is kept in the permissions of the hub it was
/// asked of, by the hub the request names (`requests::performed`).
pub fn focus(app: &mut App, hub: usize) {
    if hub == app.fleet.focus {
        return;
    }
    let Some(mut other) = app.fleet.parked.get_mut(hub).and_then(Option::take) else {
        return;
    };
    std::mem::swap(&mut app.inventory, &mut other.inventory);
    std::mem::swap(&mut app.connection, &mut other.connection);
    std::mem::swap(&mut app.read_only_why, &mut other.read_only_why);
    std::mem::swap(&mut app.access, &mut other.access);
    std::mem::swap(&mut app.shown.doctor, &mut other.doctor);
    std::mem::swap(&mut app.home_namespace, &mut other.home_namespace);
    // The scope is the console's, not a hub's.
    app.connection.scope.clone_from(&other.connection.scope);
    app.read_only = app.read_only_why.is_some();
    let left = app.fleet.focus;
    if let Some(slot) = app.fleet.parked.get_mut(left) {
        *slot = Some(other);
    }
    app.fleet.focus = hub;
    app.outbox.push(Effect::Focus(hub));
}

/// A source event of one hub: the focused hub's goes through what the console does with its
/// own; a parked hub's is applied to its picture.
pub fn arrived(app: &mut App, hub: usize, event: SourceEvent) {
    if hub == app.fleet.focus {
        if !super::wizard::narrow(app, &event) {
            app.inventory.apply(event, app.now);
            super::wizard::recreate::when_gone(app);
            super::wizard::recheck(app);
            super::drafts::open_pending(app);
        }
    } else if let Some(Some(parked)) = app.fleet.parked.get_mut(hub) {
        parked.inventory.apply(event, app.now);
    }
}

/// `:hub NAME` narrows the lists to one hub (and puts it in focus); `:hub` or `:hub *` shows
/// every hub again.
pub fn narrow_to(app: &mut App, name: &str) {
    if !app.fleet.several() {
        app.message = Some(format!(
            "the console watches one hub ({}); name several with --context a --context b, or \
             --all-contexts",
            crate::domain::inert::line(&app.connection.context)
        ));
        return;
    }
    let name = name.trim();
    if name.is_empty() || name == "*" {
        let before = app.fleet.mixed();
        app.fleet.only = None;
        keep_sort(app, before);
        app.message = Some(format!(
            "every hub: {}",
            crate::domain::inert::line(&app.fleet.names.join(", "))
        ));
        return;
    }
    let Some(hub) = app.fleet.index(name) else {
        app.message = Some(format!(
            "no hub {} here (watched: {})",
            crate::domain::inert::line(name),
            crate::domain::inert::line(&app.fleet.names.join(", "))
        ));
        return;
    };
    if hub != app.fleet.focus
        && let Some(held) = app.focus_held()
    {
        app.message = Some(format!(
            "cannot narrow to hub {}: {held} on hub {}",
            crate::domain::inert::line(name),
            crate::domain::inert::line(app.fleet.name(app.fleet.focus))
        ));
        return;
    }
    focus(app, hub);
    let before = app.fleet.mixed();
    app.fleet.only = Some(hub);
    keep_sort(app, before);
    app.list.selected = 0;
    app.list.selected_id = None;
    app.message = Some(format!(
        "hub {} only (:hub * shows every hub)",
        crate::domain::inert::line(name)
    ));
}

/// The list stays sorted by the same column when the HUB column comes or goes (it is the
/// first); sorted by HUB, the list goes back to its natural order (by hub first).
pub(super) fn keep_sort(app: &mut App, mixed_before: bool) {
    let sort = &mut app.list.sort_column;
    match (mixed_before, app.fleet.mixed()) {
        (true, false) => *sort = sort.saturating_sub(1),
        (false, true) if *sort > 0 => *sort += 1,
        _ => {}
    }
}

/// `:ctx a,b` or `:ctx *`: connects with these contexts at once (the watch starts over on all
/// of them once each is connected).
pub fn connect(app: &mut App, contexts: Vec<String>) {
    let joined = contexts.join(",");
    app.message = Some(format!(
        "connecting to {} hubs: {}…",
        contexts.len(),
        crate::domain::inert::line(&joined)
    ));
    app.connecting = Some(joined);
    app.outbox.push(Effect::ConnectFleet(contexts));
}

/// The answer to [`connect`]: what was bound to the hubs watched before closes (said), and
/// the console watches the new ones, the first in focus.
pub fn connected(
    app: &mut App,
    contexts: Vec<String>,
    result: Result<Vec<super::ports::Connected>, crate::domain::ClusterError>,
) {
    let joined = contexts.join(",");
    // Only the latest request counts.
    if app.connecting.as_deref() != Some(joined.as_str()) {
        return;
    }
    app.connecting = None;
    let mut hubs = match result {
        Ok(hubs) if !hubs.is_empty() => hubs.into_iter(),
        Ok(_) => return,
        Err(error) => {
            app.message = Some(format!("cannot watch {joined}: {error}"));
            return;
        }
    };
    let cancelled = super::requests::leave(app);
    let Some(first) = hubs.next() else {
        return;
    };
    let mixed_before = app.fleet.mixed();
    let scope = app.connection.scope.clone();
    let kubeconfig = app.connection.kubeconfig.clone();
    let parked: Vec<Parked> = hubs
        .map(|hub| Parked {
            connection: Connection {
                context: hub.context,
                server: hub.server,
                user: hub.user,
                scope: scope.clone(),
                kubeconfig: kubeconfig.clone(),
            },
            read_only_why: hub.read_only,
            home_namespace: hub.namespace,
            ..Parked::default()
        })
        .collect();
    app.connection.context = first.context;
    app.connection.server = first.server;
    app.connection.user = first.user;
    app.home_namespace = first.namespace;
    app.read_only_why = first.read_only;
    app.read_only = app.read_only_why.is_some();
    app.demo = false;
    app.access.clear();
    app.shown.doctor = Doctor::default();
    app.fleet = Fleet::new(contexts.clone(), parked);
    app.outbox.push(Effect::UseFleet(contexts));
    let namespaces = if app.namespaces_asked {
        app.namespaces.clone()
    } else {
        super::ports::Namespaces::All
    };
    keep_sort(app, mixed_before);
    app.watch(namespaces);
    app.message = Some(super::requests::with_cancelled(
        format!(
            "watching {} hubs: {}",
            app.fleet.count(),
            crate::domain::inert::line(&joined)
        ),
        &cancelled,
    ));
}
