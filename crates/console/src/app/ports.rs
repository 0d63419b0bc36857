//! The ports: what `update` needs from the world, as small traits and plain values. The
//! runtime implements them with kube-rs (the demo goes through the same code); tests
//! implement them with fakes, so `update` and the effect executor are tested without a
//! server. Nothing here awaits on the key path: each call returns a future the runtime runs
//! on a task, and its answer comes back as a `Msg`.

use std::future::Future;
use std::pin::Pin;

use crate::domain::{ClusterError, Kind, Outcome, Request};
use crate::inventory::Scope;

/// Which namespaces to watch.
#[derive(Clone, Debug, PartialEq)]
pub enum Namespaces {
    All,
    Only(Vec<String>),
}

impl Namespaces {
    /// The scopes a kind is watched in: cluster-scoped kinds always cluster-wide.
    pub fn scopes(&self, kind: Kind) -> Vec<Scope> {
        match self {
            _ if !kind.api().namespaced => vec![None],
            Namespaces::All => vec![None],
            Namespaces::Only(list) => list.iter().map(|ns| Some(ns.clone())).collect(),
        }
    }

    /// How the header says it.
    pub fn words(&self) -> String {
        match self {
            Namespaces::All => "all namespaces".to_owned(),
            Namespaces::Only(list) => list.join(", "),
        }
    }
}

/// What a successful context switch reports for the header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Connected {
    pub context: String,
    pub server: String,
    /// The context's own namespace.
    pub namespace: String,
    /// The kubeconfig user's name.
    pub user: String,
    /// Read-only by `--readonly` or the settings file for this context: why.
    pub read_only: Option<String>,
}

/// Where a log stream's reports go (the runtime hands them back as `Msg::Logs`). The future
/// it returns is done once the report is queued: a stream that awaits it reads no faster
/// than the console takes its lines (the queue is bounded). Dropped unawaited, a report is
/// still queued when there is room.
pub type LogSink = Box<dyn Fn(crate::app::logs::LogEvent) -> Pending<()> + Send + Sync>;

/// A future the runtime runs on a task.
pub type Pending<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// Cluster access, as `update`'s effects use it.
pub trait ClusterPort: Send + Sync {
    /// Connects with another kubeconfig context and keeps the connection aside; the current
    /// one keeps serving until [`ClusterPort::use_context`] names it.
    fn connect(&self, context: String) -> Pending<Result<Connected, ClusterError>>;

    /// Uses the connection [`ClusterPort::connect`] made for this context from now on.
    fn use_context(&self, context: &str);

    /// Connects with several contexts at once (`:ctx a,b`, `:ctx *`), kept aside as
    /// [`ClusterPort::connect`] keeps one, until [`ClusterPort::use_fleet`] names them; all or
    /// none (a hub that cannot be connected, or two contexts reaching one hub as one user,
    /// refuses the whole).
    fn connect_fleet(&self, contexts: Vec<String>)
    -> Pending<Result<Vec<Connected>, ClusterError>>;

    /// Uses the connections [`ClusterPort::connect_fleet`] made, in this order, from now on.
    fn use_fleet(&self, contexts: &[String]);

    /// Follows the controller's log of this hub (by the console's index of it) from now on:
    /// the hub the console acts on.
    fn focus(&self, hub: usize);

    /// (Re)starts the watch sources on these namespaces with the current connection. Events
    /// of the sources it replaces never arrive after it returns.
    fn watch(&self, namespaces: Namespaces);

    /// Carries out one request, on the hub it is bound to or not at all.
    fn perform(&self, request: Request) -> Pending<Outcome>;

    /// The watch whose events count now (events of a replaced watch are dropped).
    fn epoch(&self) -> u64;

    /// Follows the controller's log (one stream at a time: a new one replaces the last).
    fn follow_logs(&self, sink: LogSink);

    /// Stops the log stream, if one runs.
    fn stop_logs(&self);

    /// Keeps the changes seen of a hub's pools for their timelines (written off the loop).
    fn remember(
        &self,
        hub: usize,
        seen: Vec<(crate::inventory::Key, crate::domain::timeline::Entry)>,
    );

    /// What was kept of a pool beyond what the hub holds: pooldeck's record, its audit log,
    /// the controller's log (`objects`: the pool and AIWorkloads the audit log may name).
    fn history(
        &self,
        hub: usize,
        pool: crate::domain::ObjectRef,
        objects: Vec<String>,
    ) -> Pending<crate::inventory::timeline::Kept>;
}
