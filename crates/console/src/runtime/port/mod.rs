//! The cluster port as the runtime implements it, with kube-rs (the demo cluster goes through
//! the same code); the effect executor ([`execute`]) and the offline port beside it.

mod acting;
mod execute;
mod kept;
mod member;
mod offline;

pub use self::acting::Acting;
pub use self::execute::{LOG_QUEUE, Outlets, execute};
use self::member::Member;
pub use self::offline::OfflinePort;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use tokio::task::JoinHandle;

use crate::app::ports::{ClusterPort, Connected, Namespaces, Pending};
use crate::domain::{ClusterError, Kind, Outcome, Request};
use crate::inventory::SourceEvent;
use crate::sources::connection::{Target, connect, server_of, user_of};
use crate::sources::watch::{Marks, spawn};

/// The kinds the console watches.
pub const WATCHED: [Kind; 10] = [
    Kind::Pool,
    Kind::Evaluation,
    Kind::Event,
    Kind::Project,
    Kind::Tenant,
    // Which AIWorkloads still reference a deleting pool (unblocking a deletion).
    Kind::AIWorkload,
    // The wizard's choices in a namespace.
    Kind::ProfileBundle,
    Kind::ScalingPolicy,
    Kind::Settings,
    // The hosts a Project's Compute offers (the wizard's host warnings).
    Kind::Compute,
];

/// A source event tagged with the watch it came from: events of replaced watches are
/// dropped by the loop.
pub use crate::sources::watch::{Sink, Tag, Tagged};

struct Current {
    /// The hubs watched, in the console's order (one, unless several were named).
    members: Vec<Member>,
    /// The hub the console acts on now: the controller's log follows it.
    focus: usize,
    tasks: Vec<JoinHandle<()>>,
    /// Connections made by `connect`, waiting for `use_context`.
    pending: HashMap<String, Member>,
}

impl Current {
    fn focused(&self) -> Option<&Member> {
        self.members.get(self.focus).or(self.members.first())
    }
}

/// Cluster access through kube-rs.
pub struct KubePort {
    current: Mutex<Current>,
    acting: Acting,
    epoch: Arc<AtomicU64>,
    events: Sink,
    me: std::sync::Weak<KubePort>,
    /// The controller's log being followed.
    logs: Mutex<Option<JoinHandle<()>>>,
}

impl KubePort {
    pub fn new(
        client: kube::Client,
        target: Target,
        context: &str,
        acting: Acting,
        events: Sink,
    ) -> Arc<KubePort> {
        let session = acting.session(&client, &target, context);
        Arc::new_cyclic(|me| KubePort {
            current: Mutex::new(Current {
                members: vec![Member::new(client, target, session)],
                focus: 0,
                tasks: Vec::new(),
                pending: HashMap::new(),
            }),
            acting,
            epoch: Arc::new(AtomicU64::new(0)),
            events,
            me: me.clone(),
            logs: Mutex::new(None),
        })
    }

    /// The watch whose events count now.
    pub fn epoch(&self) -> u64 {
        self.epoch.load(Ordering::SeqCst)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Current> {
        self.current.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Watches another hub beside those already watched (the fleet view): its index is the
    /// number of hubs before it. Its watches start with the next [`ClusterPort::watch`].
    pub fn add_hub(&self, client: kube::Client, target: Target, context: &str) {
        let session = self.acting.session(&client, &target, context);
        self.lock()
            .members
            .push(Member::new(client, target, session));
    }

    /// Stops every watch source.
    pub fn stop(&self) {
        self.epoch.fetch_add(1, Ordering::SeqCst);
        let mut current = self.lock();
        for task in current.tasks.drain(..) {
            task.abort();
        }
        for member in &mut current.members {
            member.watching = None;
        }
    }
}

impl ClusterPort for KubePort {
    fn connect(&self, context: String) -> Pending<Result<Connected, ClusterError>> {
        let base = self.lock().focused().map(|m| m.target.clone());
        let target = Target {
            context: Some(context.clone()),
            ..base.unwrap_or(Target {
                kubeconfig: None,
                context: None,
                inline: None,
            })
        };
        let me = self.me.clone();
        Box::pin(async move {
            let connection = connect(&target).await?;
            let Some(port) = me.upgrade() else {
                return Err(ClusterError::Other {
                    message: "the console is closing".into(),
                });
            };
            let session = port
                .acting
                .session(&connection.client, &target, &connection.context);
            let connected = Connected {
                context: connection.context.clone(),
                server: server_of(&target).unwrap_or_default(),
                namespace: connection.default_namespace.clone(),
                user: user_of(&target).unwrap_or_default(),
                read_only: port.acting.why_read_only(&connection.context),
            };
            let member = Member::new(connection.client, target, session);
            port.lock().pending.insert(context, member);
            Ok(connected)
        })
    }

    fn connect_fleet(
        &self,
        contexts: Vec<String>,
    ) -> Pending<Result<Vec<Connected>, ClusterError>> {
        let each: Vec<_> = contexts.iter().map(|c| self.connect(c.clone())).collect();
        Box::pin(async move {
            // All at once, then checked in order.
            let answers = futures::future::join_all(each).await;
            let mut connected: Vec<Connected> = Vec::new();
            for (context, answer) in contexts.iter().zip(answers) {
                let one = answer.map_err(|e| ClusterError::Other {
                    message: format!("hub {}: {e}", crate::domain::inert::line(context)),
                })?;
                // Two contexts that reach one server as one user are one hub: watched twice
                // its pools would be listed twice.
                if let Some(first) = connected
                    .iter()
                    .find(|c| c.server == one.server && c.user == one.user)
                {
                    return Err(ClusterError::Other {
                        message: format!(
                            "the contexts {} and {} reach the same hub: name one of them",
                            crate::domain::inert::line(&first.context),
                            crate::domain::inert::line(&one.context)
                        ),
                    });
                }
                connected.push(one);
            }
            Ok(connected)
        })
    }

    fn use_fleet(&self, contexts: &[String]) {
        let mut current = self.lock();
        let members: Vec<Member> = contexts
            .iter()
            .filter_map(|c| current.pending.remove(c))
            .collect();
        // All of them, in the console's order; a connection missing (never made, or made
        // for another request) leaves no hub at all rather than hubs the console would name
        // wrongly: nothing is watched or sent until the next `:ctx`.
        current.members = if members.len() == contexts.len() {
            members
        } else {
            Vec::new()
        };
        current.focus = 0;
        current.pending.clear();
    }

    fn follow_logs(&self, sink: crate::app::ports::LogSink) {
        let Some(client) = self.lock().focused().map(|m| m.client.clone()) else {
            return;
        };
        let task = tokio::spawn(super::logs::follow(client, sink));
        let mut logs = self.logs.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(previous) = logs.replace(task) {
            previous.abort();
        }
    }

    fn stop_logs(&self) {
        let mut logs = self.logs.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(task) = logs.take() {
            task.abort();
        }
    }

    fn remember(
        &self,
        hub: usize,
        seen: Vec<(crate::inventory::Key, crate::domain::timeline::Entry)>,
    ) {
        if let Some(Ok(store)) = self.lock().members.get(hub).map(|m| m.store.clone()) {
            kept::remember(store, seen);
        }
    }

    fn history(
        &self,
        hub: usize,
        pool: crate::domain::ObjectRef,
        objects: Vec<String>,
    ) -> Pending<crate::timeline::Kept> {
        let member = self.lock().members.get(hub).map(kept::Reader::of);
        Box::pin(kept::history(member, pool, objects))
    }

    fn use_context(&self, context: &str) {
        let mut current = self.lock();
        // One hub from now on: the context switched to (the fleet's others are let go).
        if let Some(member) = current.pending.remove(context) {
            current.members = vec![member];
            current.focus = 0;
        }
        current.pending.clear();
    }

    fn focus(&self, hub: usize) {
        let mut current = self.lock();
        if hub < current.members.len() {
            current.focus = hub;
        }
    }

    fn watch(&self, namespaces: Namespaces) {
        let epoch = self.epoch.fetch_add(1, Ordering::SeqCst) + 1;
        let mut current = self.lock();
        for task in current.tasks.drain(..) {
            task.abort();
        }
        // The watchers tag their events with this watch's epoch and their hub and send them
        // straight to the loop's bounded queue (no relay task); each hub on its own tasks, so
        // one that is slow or gone holds up none of the others.
        let mut tasks = Vec::new();
        let watched = match &namespaces {
            Namespaces::All => Vec::new(),
            Namespaces::Only(list) => list.clone(),
        };
        for member in &mut current.members {
            // The last watch ends (noted) before this one is noted.
            member.watching = None;
            member.watching = member
                .store
                .as_ref()
                .ok()
                .map(|s| s.watching(&watched, chrono::Utc::now()));
            if let Ok(store) = member.store.clone() {
                tokio::task::spawn_blocking(move || store.bound());
            }
        }
        for (hub, member) in current.members.iter().enumerate() {
            let tag = Tag { epoch, hub };
            tasks.extend(spawn(
                &member.client,
                &member.ways,
                &WATCHED,
                &namespaces,
                tag,
                Marks::Ahead,
                &self.events,
            ));
            tasks.push(tokio::spawn(heartbeat(
                member.client.clone(),
                tag,
                self.events.clone(),
            )));
            if let Namespaces::Only(watched) = &namespaces {
                tasks.push(tokio::spawn(pools_elsewhere(
                    member.client.clone(),
                    watched.clone(),
                    tag,
                    self.events.clone(),
                )));
            }
        }
        current.tasks = tasks;
    }

    fn perform(&self, request: Request) -> Pending<Outcome> {
        // The session of the hub the request is bound to; none of them: the focused one's,
        // which refuses it unsent (a session sends only what is bound to its own hub).
        let session = {
            let current = self.lock();
            current
                .members
                .iter()
                .find(|m| m.session.hub == request.hub)
                .or(current.focused())
                .map(|m| m.session.clone())
        };
        Box::pin(async move {
            match session {
                Some(session) => session.run(&request).await,
                None => Outcome::Failed(ClusterError::Other {
                    message: "the console is connected to no hub".into(),
                }),
            }
        })
    }

    fn epoch(&self) -> u64 {
        KubePort::epoch(self)
    }
}

/// How often the server is asked whether it still answers, and how long it may take.
const HEARTBEAT_EVERY: std::time::Duration = std::time::Duration::from_secs(10);
const HEARTBEAT_WITHIN: std::time::Duration = std::time::Duration::from_secs(5);

/// Asks the server for its version every [`HEARTBEAT_EVERY`]: a watch on a server that
/// stopped (SIGSTOP, a dead link) stays open and silent, and only this tells the picture is
/// stale.
async fn heartbeat(client: kube::Client, tag: Tag, events: Sink) {
    loop {
        let result = match tokio::time::timeout(HEARTBEAT_WITHIN, client.apiserver_version()).await
        {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(e)) => Err(crate::sources::errors::classify(&e)),
            Err(_) => Err(ClusterError::Unreachable {
                server: String::new(),
                detail: format!("no answer within {} s", HEARTBEAT_WITHIN.as_secs()),
            }),
        };
        if events
            .send((tag, SourceEvent::Heartbeat { result }))
            .await
            .is_err()
        {
            return;
        }
        tokio::time::sleep(HEARTBEAT_EVERY).await;
    }
}

/// The namespaces outside `watched` that hold pools; a hub that refuses the list, or does
/// not answer within [`HEARTBEAT_WITHIN`], says nothing.
async fn pools_elsewhere(client: kube::Client, watched: Vec<String>, tag: Tag, events: Sink) {
    let read = crate::cluster::namespaces_with_pools(&client);
    let Ok(Ok(namespaces)) = tokio::time::timeout(HEARTBEAT_WITHIN, read).await else {
        return;
    };
    let namespaces = namespaces
        .into_iter()
        .filter(|namespace| !watched.contains(namespace))
        .collect();
    let _ = events
        .send((tag, SourceEvent::PoolsElsewhere { namespaces }))
        .await;
}
