//! Connecting to other contexts (`:ctx`): one, which the console switches to, or several at
//! once, which it then watches together. The connection is made on a task; only the latest
//! request's answer counts. The top level's: part of `update`.

use super::fleet::Fleet;
use super::hub::{Connection, HubState};
use super::{App, Effect};

impl App {
    /// `:ctx NAME` connects with one context (the console switches to it once connected);
    /// `:ctx a,b` or `:ctx *` with several at once (the watch starts over on all of them once
    /// each is connected). The connection is made on a task; keys are answered meanwhile.
    pub(super) fn connect(&mut self, mut contexts: Vec<String>) {
        if contexts.len() == 1
            && let Some(context) = contexts.pop()
        {
            self.message = Some(format!("connecting to context {context}…"));
            self.connecting = Some(context.clone());
            self.outbox.push(Effect::Connect(context));
            return;
        }
        let joined = contexts.join(",");
        self.message = Some(format!(
            "connecting to {} hubs: {}…",
            contexts.len(),
            crate::domain::inert::line(&joined)
        ));
        self.connecting = Some(joined);
        self.outbox.push(Effect::ConnectFleet(contexts));
    }

    /// The answer to [`App::connect`] with several contexts: what was bound to the hubs
    /// watched before closes (said), and the console watches the new ones, the first in
    /// focus. One context is answered by [`App::switched`].
    pub(super) fn connected(
        &mut self,
        contexts: Vec<String>,
        result: Result<Vec<super::ports::Connected>, crate::domain::ClusterError>,
    ) {
        let joined = contexts.join(",");
        // Only the latest request counts.
        if self.connecting.as_deref() != Some(joined.as_str()) {
            return;
        }
        self.connecting = None;
        let mut hubs = match result {
            Ok(hubs) if !hubs.is_empty() => hubs.into_iter(),
            Ok(_) => return,
            Err(error) => {
                self.message = Some(format!("cannot watch {joined}: {error}"));
                return;
            }
        };
        let cancelled = self.leave();
        let Some(first) = hubs.next() else {
            return;
        };
        let mixed_before = self.fleet.mixed();
        let scope = self.fleet.connection.scope.clone();
        let kubeconfig = self.fleet.connection.kubeconfig.clone();
        let state = |hub: super::ports::Connected| HubState {
            connection: Connection {
                context: hub.context,
                server: hub.server,
                user: hub.user,
                scope: scope.clone(),
                kubeconfig: kubeconfig.clone(),
            },
            read_only_why: hub.read_only,
            home_namespace: hub.namespace,
            ..HubState::default()
        };
        let first = state(first);
        let others = hubs.map(state).collect();
        self.demo = false;
        self.fleet = Fleet::new(contexts.clone(), first, others);
        self.outbox.push(Effect::UseFleet(contexts));
        let namespaces = if self.namespaces_asked {
            self.namespaces.clone()
        } else {
            super::ports::Namespaces::All
        };
        self.keep_sort(mixed_before);
        self.watch(namespaces);
        self.message = Some(super::requests::with_cancelled(
            format!(
                "watching {} hubs: {}",
                self.fleet.count(),
                crate::domain::inert::line(&joined)
            ),
            &cancelled,
        ));
    }

    /// The answer to `:ctx NAME`: the console switches to that context, one hub from now on;
    /// what was bound to the old hub closes first (said). Only the latest request counts; an
    /// older answer arriving late is dropped.
    pub(super) fn switched(
        &mut self,
        context: &str,
        result: Result<super::ports::Connected, crate::domain::ClusterError>,
    ) {
        if self.connecting.as_deref() != Some(context) {
            return;
        }
        self.connecting = None;
        let connected = match result {
            Ok(connected) => connected,
            Err(error) => {
                self.message = Some(format!("cannot switch to context {context}: {error}"));
                return;
            }
        };
        // Dialogs, marks, permissions and answers awaited belong to the old hub: closed and
        // said before anything is bound to the new one.
        let cancelled = self.leave();
        // Another context is a hub, not the embedded demo.
        self.demo = false;
        let mixed_before = self.fleet.mixed();
        let hub = HubState {
            connection: Connection {
                context: connected.context,
                server: connected.server,
                user: connected.user,
                ..self.fleet.connection.clone()
            },
            home_namespace: connected.namespace,
            read_only_why: connected.read_only,
            ..HubState::default()
        };
        self.fleet = Fleet::new(Vec::new(), hub, Vec::new());
        self.keep_sort(mixed_before);
        self.outbox.push(Effect::UseContext(context.to_owned()));
        let namespaces = self.namespaces.clone();
        self.watch(namespaces);
        self.message = Some(super::requests::with_cancelled(
            format!("switched to context {context}"),
            &cancelled,
        ));
    }
}
