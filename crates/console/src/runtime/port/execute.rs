//! The effect executor: each effect runs on a task and its answer comes back as a message, so nothing awaits on the key path.

use std::sync::Arc;

use tokio::sync::mpsc::UnboundedSender;
use tokio::sync::mpsc::error::TrySendError;

use crate::app::ports::ClusterPort;
use crate::app::{Effect, Msg};

/// Where the answers of effects go: one message per request (unbounded: each was asked for),
/// and the controller's log, whose lines come as fast as the server sends them (bounded: a
/// flood waits for the console instead of filling memory).
pub struct Outlets {
    pub answers: UnboundedSender<Msg>,
    pub logs: tokio::sync::mpsc::Sender<crate::app::logs::LogEvent>,
}

/// Log reports queued for the console at most (each a batch of lines).
pub const LOG_QUEUE: usize = 64;

/// Carries out one effect: at once when it is cheap and local, otherwise on a task whose
/// answer comes back through `answers`. Never waits.
pub fn execute(port: &Arc<dyn ClusterPort>, effect: Effect, outlets: &Outlets) {
    let answers = &outlets.answers;
    match effect {
        // The terminal is the event loop's: it suspends itself and copies through it; drafts
        // go to its writer thread (`runtime::turns`).
        Effect::Suspend
        | Effect::Copy { .. }
        | Effect::SaveDraft { .. }
        | Effect::DiscardDraft(_)
        | Effect::Edit { .. }
        | Effect::ResetDemo
        | Effect::PlayScenario(_)
        | Effect::SaveTour(_) => {}
        Effect::ForgetEdit(path) => {
            let _ = std::fs::remove_file(path);
        }
        // A file on a slow or network disk must not hold up the keys: written on a blocking
        // thread, answered when done.
        Effect::WriteManifest { path, text } => {
            let answers = answers.clone();
            tokio::task::spawn_blocking(move || {
                let result = crate::files::write_output(&path, text.as_bytes());
                let _ = answers.send(Msg::Written { path, result });
            });
        }
        Effect::Watch(namespaces) => port.watch(namespaces),
        Effect::UseContext(context) => port.use_context(&context),
        Effect::Focus(hub) => port.focus(hub),
        Effect::ConnectFleet(contexts) => {
            let pending = port.connect_fleet(contexts.clone());
            let answers = answers.clone();
            tokio::spawn(async move {
                let result = pending.await;
                let _ = answers.send(Msg::FleetConnected { contexts, result });
            });
        }
        Effect::UseFleet(contexts) => port.use_fleet(&contexts),
        Effect::Connect(context) => {
            let pending = port.connect(context.clone());
            let answers = answers.clone();
            tokio::spawn(async move {
                let result = pending.await;
                let _ = answers.send(Msg::Connected { context, result });
            });
        }
        Effect::FollowLogs => {
            let logs = outlets.logs.clone();
            port.follow_logs(Box::new(move |event| {
                // Queued at once when there is room; when the console is behind, the stream
                // waits here (and so reads no more from the server) until there is.
                match logs.try_send(event) {
                    Ok(()) | Err(TrySendError::Closed(_)) => Box::pin(std::future::ready(())),
                    Err(TrySendError::Full(event)) => {
                        let logs = logs.clone();
                        Box::pin(async move {
                            let _ = logs.send(event).await;
                        })
                    }
                }
            }));
        }
        Effect::StopLogs => port.stop_logs(),
        Effect::Remember { hub, seen } => port.remember(hub, seen),
        Effect::ReadHistory { hub, pool, objects } => {
            let pending = port.history(hub, pool.clone(), objects);
            let answers = answers.clone();
            tokio::spawn(async move {
                let kept = pending.await;
                let _ = answers.send(Msg::History { pool, kept });
            });
        }
        Effect::Perform(request) => {
            let pending = port.perform(request.clone());
            let answers = answers.clone();
            tokio::spawn(async move {
                let outcome = pending.await;
                let _ = answers.send(Msg::Performed { request, outcome });
            });
        }
    }
}
