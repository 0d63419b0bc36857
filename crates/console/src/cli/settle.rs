//! Waiting for a first complete picture, as `get` and `doctor` do: watchers for the kinds a
//! command needs, until each has its picture or knows it cannot have one.

use std::process::ExitCode;

use chrono::Utc;

use crate::app::ports::Namespaces;
use crate::inventory::{Inventory, Kind, SourceEvent, SourceState};
use crate::sources::watch::spawn;

/// Lists `required` and `optional` kinds once and waits until every source has settled (each
/// has its picture, or knows it cannot have one). A required kind that cannot be read ends it
/// with exit status 1, said on stderr; an optional one is warned about. The watch tasks are
/// handed back to be stopped when done.
pub(crate) async fn settle(
    connection: &crate::sources::connection::Connection,
    required: &[Kind],
    optional: &[Kind],
    namespaces: &Namespaces,
    timeout: std::time::Duration,
) -> Result<Settled, ExitCode> {
    settle_on(connection, required, optional, namespaces, timeout, None).await
}

/// [`settle`], its messages naming the hub (`hub NAME: …`) when several are read at once.
pub(crate) async fn settle_on(
    connection: &crate::sources::connection::Connection,
    required: &[Kind],
    optional: &[Kind],
    namespaces: &Namespaces,
    timeout: std::time::Duration,
    hub: Option<&str>,
) -> Result<Settled, ExitCode> {
    let at = hub
        .map(|h| format!("hub {}: ", crate::domain::inert::line(h)))
        .unwrap_or_default();
    let kinds: Vec<Kind> = required.iter().chain(optional.iter()).copied().collect();
    let (sender, mut receiver) = tokio::sync::mpsc::channel(crate::sources::watch::QUEUE);
    let tasks = spawn(
        &connection.client,
        &crate::sources::ways::Ways::default(),
        &kinds,
        namespaces,
        crate::sources::watch::Tag::default(),
        crate::sources::watch::Marks::WhenAsked,
        &sender,
    );
    drop(sender);
    let expected: usize = kinds.iter().map(|k| namespaces.scopes(*k).len()).sum();
    let mut inventory = Inventory::new();
    let deadline = tokio::time::Instant::now() + timeout;
    let mut warned = std::collections::HashSet::new();
    // Phase one: until every source has settled.
    loop {
        let settled: Vec<_> = inventory
            .health()
            .filter(|(_, h)| h.state.settled())
            .collect();
        if settled.len() >= expected && inventory.health().count() >= expected {
            break;
        }
        let event = match tokio::time::timeout_at(deadline, receiver.recv()).await {
            Ok(Some((_, event))) => event,
            Ok(None) => break,
            Err(_) => {
                crate::say::complain!(
                    "pooldeck: {at}no complete answer from the server within {}",
                    crate::domain::duration::format(timeout)
                );
                return Err(finish(tasks, 1));
            }
        };
        if let SourceEvent::State {
            kind,
            state: SourceState::Reconnecting { error, .. },
            ..
        } = &event
            && (required.contains(kind) || !warned.contains(kind))
        {
            crate::say::complain!("pooldeck: {at}{}: {error}", kind.resource_name());
            if required.contains(kind) {
                return Err(finish(tasks, 1));
            }
            warned.insert(*kind);
        }
        inventory.apply(event, Utc::now());
    }
    if said_refused(&inventory, required, &at) {
        return Err(finish(tasks, 1));
    }
    Ok(Settled {
        inventory,
        tasks,
        receiver,
    })
}

/// Sources refused or not installed, said: a required one ends the command (`true`); an
/// optional one leaves its columns empty.
fn said_refused(inventory: &Inventory, required: &[Kind], at: &str) -> bool {
    for ((kind, scope), health) in inventory.health() {
        let required_kind = required.contains(kind);
        let text = match &health.state {
            SourceState::Forbidden { message } => Some(format!(
                "{message} (ask for get, list and watch on {})",
                kind.resource_name()
            )),
            SourceState::NotInstalled => Some(format!(
                "{} is not installed on this cluster (no CRD)",
                kind.resource_name()
            )),
            _ => None,
        };
        if let Some(text) = text {
            let where_ = scope
                .as_deref()
                .map(|ns| format!(" [{ns}]"))
                .unwrap_or_default();
            if required_kind {
                crate::say::complain!("pooldeck: {at}{text}{where_}");
                return true;
            }
            crate::say::complain!(
                "pooldeck: {at}warning: {text}{where_}; columns from it are left empty"
            );
        }
    }
    false
}

/// What [`settle`] gathered: the picture, the watches still running, and their events.
/// [`settle`] for the pools and everything a diagnosis reads beside them (what cannot be
/// read is warned about): the doctor's and describe's picture.
pub(crate) async fn settle_pools(
    connection: &crate::sources::connection::Connection,
    namespaces: &Namespaces,
    timeout: std::time::Duration,
    hub: Option<&str>,
) -> Result<Settled, ExitCode> {
    let optional: Vec<Kind> = Kind::ALL.into_iter().filter(|k| *k != Kind::Pool).collect();
    settle_on(
        connection,
        &[Kind::Pool],
        &optional,
        namespaces,
        timeout,
        hub,
    )
    .await
}

pub(crate) struct Settled {
    pub inventory: Inventory,
    pub tasks: Vec<tokio::task::JoinHandle<()>>,
    /// The sources' events, tagged with watch 0 (the only one).
    pub receiver: tokio::sync::mpsc::Receiver<crate::sources::watch::Tagged>,
}

pub(crate) fn finish(tasks: Vec<tokio::task::JoinHandle<()>>, code: u8) -> ExitCode {
    for task in tasks {
        task.abort();
    }
    ExitCode::from(code)
}
