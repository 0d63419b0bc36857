//! `get --watch` across hubs: every hub's changes as they come, each hub's rows compared
//! with its own last picture, printed with the hub.

use std::process::ExitCode;

use chrono::Utc;

use super::{GetArgs, Output, Selectors};
use crate::cli::settle::finish;
use crate::inventory::Inventory;

/// `--watch` across hubs: every hub's changes as they come, each hub's rows compared with
/// its own last picture, printed with the hub; until Ctrl-C (or every hub's watch ends).
pub(super) async fn follow(
    args: &GetArgs,
    selectors: &Selectors,
    watched: Vec<(String, crate::cli::settle::Settled)>,
    namespace_shown: bool,
    widths: &[usize],
) -> ExitCode {
    let lines = matches!(args.output, None | Some(Output::Wide));
    let (sender, mut merged) = tokio::sync::mpsc::channel(crate::sources::watch::QUEUE);
    let mut hubs = Vec::new();
    let mut forwarders = Vec::new();
    for (index, (hub, settled)) in watched.into_iter().enumerate() {
        let crate::cli::settle::Settled {
            inventory,
            tasks,
            mut receiver,
        } = settled;
        let mut previous = std::collections::HashMap::new();
        super::watch::changed_rows(
            &mut previous,
            args.resource.selected(&inventory, args, selectors).rows,
            lines,
        );
        // Each hub's changes into one queue, tagged with the hub.
        let sender = sender.clone();
        forwarders.push(tokio::spawn(async move {
            while let Some((_, event)) = receiver.recv().await {
                if sender.send((index, event)).await.is_err() {
                    break;
                }
            }
        }));
        hubs.push((hub, inventory, previous, tasks));
    }
    drop(sender);
    let stop = |hubs: Vec<(String, Inventory, _, Vec<tokio::task::JoinHandle<()>>)>| {
        for (_, _, _, tasks) in hubs {
            let _ = finish(tasks, 0);
        }
        for forwarder in &forwarders {
            forwarder.abort();
        }
        ExitCode::SUCCESS
    };
    loop {
        tokio::select! {
            event = merged.recv() => {
                let Some((index, event)) = event else { return stop(hubs) };
                let Some((hub, inventory, previous, _)) = hubs.get_mut(index) else { continue };
                if let crate::inventory::SourceEvent::State {
                    kind,
                    state: crate::inventory::SourceState::Reconnecting { error, retry_at },
                    ..
                } = &event
                {
                    crate::say::complain!(
                        "pooldeck: hub {}: {}: {error}; retrying at {}",
                        crate::domain::inert::line(hub),
                        kind.resource_name(),
                        retry_at.format("%H:%M:%S")
                    );
                }
                inventory.apply(event, Utc::now());
                let current = args.resource.selected(inventory, args, selectors).rows;
                let changed = super::watch::changed_rows(previous, current, lines);
                if !changed.is_empty() {
                    super::watch::print_changes(
                        args.resource,
                        args.output.as_ref(),
                        &changed,
                        namespace_shown,
                        widths,
                        args.output_watch_events,
                        Some(hub),
                    );
                }
            }
            _ = tokio::signal::ctrl_c() => return stop(hubs),
        }
    }
}
