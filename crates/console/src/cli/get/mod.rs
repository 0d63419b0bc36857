//! `pooldeck get`: the live data path without the console. It connects, starts the watchers
//! the resource needs, waits until they have a picture (or know they cannot have one), prints
//! a kubectl-like table or List, and with `--watch` prints rows as they change.

use std::collections::HashMap;
use std::process::ExitCode;

use chrono::Utc;

use crate::app::ports::Namespaces;
use crate::domain::ObjectRef;
use crate::inventory::{Inventory, Kind, Object, SourceEvent, SourceState};
use crate::sources::connection::Connection;

use self::watch::{changed_rows, print_changes};
use super::settle::{Settled, finish, settle};

mod args;
mod follow;
mod hubs;
mod print;
mod resource;
mod watch;

pub use self::args::{GetArgs, Output, PrintError, Resource};
use self::print::print;
pub(crate) use self::print::print_out;
pub use self::print::{ListDocument, list_document};
use self::resource::{Selectors, field_selector_arg, streamed};

pub fn run(args: &GetArgs) -> ExitCode {
    super::block_on(get(args))
}

async fn get(args: &GetArgs) -> ExitCode {
    // A selector is read before anything is asked of the hub, with the API server's words.
    let selector = match super::selector_arg(args.selector.as_deref(), 1, false) {
        Ok(selector) => selector,
        Err(code) => return code,
    };
    let fields = match field_selector_arg(args) {
        Ok(fields) => fields,
        Err(code) => return code,
    };
    let selectors = Selectors {
        labels: selector,
        fields,
    };
    // Asked for several hubs, every row names its hub, however many there turn out to be.
    let context = match super::hubs_named(&args.kubeconfig, &args.context, args.all_contexts, 1) {
        Ok(hubs) if super::several_hubs(&args.context, args.all_contexts) => {
            return hubs::get_across(args, &selectors, &hubs).await;
        }
        Ok(hubs) => hubs.into_iter().next(),
        Err(code) => return code,
    };
    let (connection, namespaces) = match super::connect_to_read(
        &args.kubeconfig,
        &context,
        &args.namespace,
        args.all_namespaces,
        1,
    )
    .await
    {
        Ok(opened) => opened,
        Err(code) => return code,
    };
    // A whole list as JSON goes out page by page as the server sends it.
    if let Some(kind) = streamed(args, &selectors) {
        return super::stream::list_json(&connection, kind, &namespaces, args.timeout).await;
    }
    let (required, mut optional) = args.resource.kinds();
    // The objects alone are printed: what only the table's columns read is not listed.
    if matches!(args.output, Some(Output::Json | Output::Yaml)) && !args.watch {
        optional.clear();
    }
    let Settled {
        mut inventory,
        tasks,
        receiver,
    } = match settle(&connection, &required, &optional, &namespaces, args.timeout).await {
        Ok(settled) => settled,
        Err(code) => return code,
    };
    if let (Resource::Events, Some(name)) = (args.resource, &args.name) {
        read_named_event(&connection, &namespaces, name, &mut inventory).await;
    }
    let all_namespaces = args.all_namespaces || args.namespace.len() > 1;
    let (printed, widths) = match print(args.resource, args, &selectors, &inventory, all_namespaces)
    {
        Ok(n) => n,
        Err(e) => {
            crate::say::complain!("pooldeck: cannot print: {e}");
            return finish(tasks, 1);
        }
    };
    if printed == 0 && !args.watch && !none_found_succeeds(args, all_namespaces, &namespaces) {
        return finish(tasks, 1);
    }
    if !args.watch {
        return finish(tasks, 0);
    }
    let settled = Settled {
        inventory,
        tasks,
        receiver,
    };
    follow(args, &selectors, settled, all_namespaces, &widths).await
}

/// `get events NAME`: an event of that name the picture does not hold (about something else
/// than a PaletteAI object) is read by its name, as kubectl reads it.
async fn read_named_event(
    connection: &Connection,
    namespaces: &Namespaces,
    name: &str,
    inventory: &mut Inventory,
) {
    let Namespaces::Only(namespaces) = namespaces else {
        return; // kubectl reads no name across every namespace either
    };
    if inventory
        .objects(Kind::Event)
        .any(|event| event.name() == name)
    {
        return;
    }
    for namespace in namespaces {
        let target = ObjectRef::new(Kind::Event, namespace.as_str(), name);
        let read = crate::cluster::api_for(&connection.client, &target)
            .get_opt(name)
            .await;
        match read.map(|found| found.map(serde_json::to_value)) {
            Ok(Some(Ok(value))) => {
                let object = Object::new(Kind::Event, value);
                inventory.apply(SourceEvent::Read { object }, Utc::now());
            }
            Ok(None | Some(Err(_))) => {}
            Err(error) => {
                let error = crate::sources::errors::classify(&error);
                crate::say::complain!(
                    "pooldeck: cannot read event \"{name}\" in {namespace}: {error}"
                );
            }
        }
    }
}

/// Nothing printed, said: a name asked for is not found (a failure: `false`); a
/// table says there are no resources, as kubectl says it.
fn none_found_succeeds(args: &GetArgs, all_namespaces: bool, namespaces: &Namespaces) -> bool {
    match &args.name {
        Some(name) => {
            crate::say::complain!(
                "Error from server (NotFound): {} \"{name}\" not found",
                args.resource.noun()
            );
            false
        }
        None if args.output.is_none() || args.output == Some(Output::Wide) => {
            let cluster_wide =
                matches!(args.resource, Resource::Of(kind) if !kind.api().namespaced);
            let scope = if all_namespaces || cluster_wide {
                String::new()
            } else {
                format!(
                    " in {} namespace",
                    match &namespaces {
                        Namespaces::Only(n) => n.join(", "),
                        Namespaces::All => String::new(),
                    }
                )
            };
            // As kubectl: a sentence for a namespace, no stop after every namespace.
            if scope.is_empty() {
                crate::say::complain!("No resources found");
            } else {
                crate::say::complain!("No resources found{scope}.");
            }
            true
        }
        None => true,
    }
}

/// `--watch` on one hub: the rows whose object or values changed, under the first table's
/// columns, until Ctrl-C (or the watch ends).
async fn follow(
    args: &GetArgs,
    selectors: &Selectors,
    settled: Settled,
    all_namespaces: bool,
    widths: &[usize],
) -> ExitCode {
    let Settled {
        mut inventory,
        tasks,
        mut receiver,
    } = settled;
    // Phase two: print rows whose object or values changed, under the first table's columns.
    let mut previous = HashMap::new();
    // A table prints a line when it would read differently; the objects' formats print each
    // new version once.
    let lines = matches!(args.output, None | Some(Output::Wide));
    changed_rows(
        &mut previous,
        args.resource.selected(&inventory, args, selectors).rows,
        lines,
    );
    let namespace_shown = all_namespaces || args.resource == Resource::Hosts;
    loop {
        tokio::select! {
            event = receiver.recv() => {
                let Some((_, event)) = event else { return finish(tasks, 0) };
                if let SourceEvent::State { kind, state: SourceState::Reconnecting { error, retry_at }, .. } = &event {
                    crate::say::complain!("pooldeck: {}: {error}; retrying at {}", kind.resource_name(), retry_at.format("%H:%M:%S"));
                }
                inventory.apply(event, Utc::now());
                let current = args.resource.selected(&inventory, args, selectors).rows;
                let changed = changed_rows(&mut previous, current, lines);
                if changed.is_empty() {
                    continue;
                }
                print_changes(args.resource, args.output.as_ref(), &changed, namespace_shown, widths, args.output_watch_events, None);
            }
            _ = tokio::signal::ctrl_c() => return finish(tasks, 0),
        }
    }
}
