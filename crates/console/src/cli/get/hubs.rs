//! `get` across several hubs (`--context` repeated, `--all-contexts`): each hub is read as
//! `get` reads one, all at once; the rows are printed together with the hub first. A hub
//! that cannot be read is said and the others are printed; the exit status is then 1. JSON
//! and YAML wrap each object with its hub: `{"hub": CONTEXT, "object": {…}}`, so nothing is
//! added to the object itself. `--watch` then prints each hub's changed rows as they come,
//! under the first table's columns, each with its hub.

use std::process::ExitCode;

use chrono::Utc;
use serde_json::{Value, json};

use super::{GetArgs, Output, Resource, Selectors, sort_by, strip_namespace, texts};
use crate::app::rows::{Row, column};
use crate::cli::settle::{finish, settle_on};
use crate::inventory::Inventory;
use crate::ui::cells;

/// One hub read: its picture, its watch tasks, and (for --watch) their changes.
async fn read_hub(args: &GetArgs, hub: &str) -> Option<crate::cli::settle::Settled> {
    let (required, mut optional) = args.resource.kinds();
    if matches!(args.output, Some(Output::Json | Output::Yaml)) && !args.watch {
        optional.clear();
    }
    let (connection, namespaces) = crate::cli::connect_to_read(
        &args.kubeconfig,
        &Some(hub.to_owned()),
        &args.namespace,
        args.all_namespaces,
        1,
    )
    .await
    .ok()?;
    let settled = settle_on(
        &connection,
        &required,
        &optional,
        &namespaces,
        args.timeout,
        Some(hub),
    )
    .await
    .ok()?;
    Some(settled)
}

#[expect(clippy::too_many_lines, reason = "to be split: issue 48")]
pub(super) async fn get_across(args: &GetArgs, selectors: &Selectors, hubs: &[String]) -> ExitCode {
    if args.output == Some(Output::Name) {
        crate::say::complain!(
            "pooldeck: -o name cannot say which hub a name is on: use -o jsonpath='{{range \
             .items[*]}}{{.hub}} {{.object.metadata.name}}{{\"\\n\"}}{{end}}'"
        );
        return ExitCode::from(2);
    }
    // A namespace the API server would refuse is said once, not once per hub.
    if let Err(code) = crate::cli::check_namespaces(&args.namespace, 1) {
        return code;
    }
    // A whole list as JSON goes out page by page, hub after hub, as on one hub.
    if let Some(kind) = super::streamed(args, selectors) {
        let mut opened = Vec::new();
        for hub in hubs {
            match crate::cli::connect_to_read(
                &args.kubeconfig,
                &Some(hub.clone()),
                &args.namespace,
                args.all_namespaces,
                1,
            )
            .await
            {
                Ok((connection, namespaces)) => opened.push((hub.as_str(), connection, namespaces)),
                Err(code) => return code,
            }
        }
        let hubs: Vec<(Option<&str>, &crate::sources::connection::Connection, _)> = opened
            .iter()
            .map(|(hub, connection, namespaces)| (Some(*hub), connection, namespaces.clone()))
            .collect();
        return crate::cli::stream::list_json_of(&hubs, kind, args.timeout).await;
    }
    let reads = futures::future::join_all(hubs.iter().map(|hub| read_hub(args, hub))).await;
    let mut rows: Vec<(String, Row)> = Vec::new();
    let mut columns = Vec::new();
    let mut unread = Vec::new();
    // The hubs a named object is not on.
    let mut lacking = Vec::new();
    // What --watch goes on with: each hub read, its picture and its changes.
    let mut watched = Vec::new();
    for (hub, read) in hubs.iter().zip(reads) {
        let Some(settled) = read else {
            unread.push(hub.clone());
            continue;
        };
        let table = args.resource.selected(&settled.inventory, args, selectors);
        if columns.is_empty() {
            columns = table.columns.clone();
        }
        if args.name.is_some() && table.rows.is_empty() {
            lacking.push(crate::domain::inert::line(hub).into_owned());
        }
        rows.extend(table.rows.into_iter().map(|row| (hub.clone(), row)));
        if args.watch {
            watched.push((hub.clone(), settled));
        } else {
            let _ = finish(settled.tasks, 0);
        }
    }
    if let Some(path) = &args.sort_by {
        // A path that names nothing in any hub's objects is refused, as on one hub.
        let merged = crate::app::rows::Table {
            columns: Vec::new(),
            rows: rows.iter().map(|(_, row)| row.clone()).collect(),
        };
        if !Resource::sortable(&merged, path) {
            crate::say::complain!(
                "pooldeck: couldn't find any field with the --sort-by path in the list of objects"
            );
            return ExitCode::from(1);
        }
        sort_by(&mut rows, path, |(_, row)| row);
    }
    if let Some(name) = &args.name
        && rows.is_empty()
        && unread.is_empty()
    {
        crate::say::complain!(
            "Error from server (NotFound): {} \"{}\" not found on any hub read",
            args.resource.noun(),
            crate::domain::inert::line(name)
        );
        return ExitCode::from(1);
    }
    // The namespace column goes only when one namespace was named: without -n each hub reads
    // its own context's namespace, and those may differ.
    let one_namespace = !args.all_namespaces && args.namespace.len() == 1;
    // The table's column widths, which the rows printed by --watch keep.
    let mut widths = Vec::new();
    // The namespace is shown unless one was named (a host's always, as on one hub).
    let namespace_shown = !one_namespace || args.resource == Resource::Hosts;
    let watching_others = || {
        if !unread.is_empty() {
            crate::say::complain!(
                "pooldeck: not read (said above): {}; watching the others",
                crate::cli::hub_list(&unread)
            );
        }
    };
    // Watching objects: each one wrapped with its hub from the start, as the changes that
    // follow are printed (no List, as on one hub).
    if args.watch && matches!(args.output, Some(Output::Json | Output::Yaml)) {
        for (hub, row) in &rows {
            super::watch::print_changes(
                args.resource,
                args.output.as_ref(),
                &[(row.clone(), super::watch::Change::Added)],
                true,
                &[],
                args.output_watch_events,
                Some(hub),
            );
        }
        watching_others();
        return follow(args, selectors, watched, namespace_shown, &widths).await;
    }
    let written = match &args.output {
        // JSON is written from the objects as held, each wrapped as it is serialised (no
        // tree of values for the whole fleet, which held several times its size).
        Some(Output::Json) => {
            let document = HubList {
                api_version: "v1",
                kind: "List",
                items: rows
                    .iter()
                    .map(|(hub, row)| Wrapped {
                        hub,
                        object: &row.object,
                    })
                    .collect(),
                metadata: json!({"resourceVersion": ""}),
            };
            serde_json::to_string_pretty(&document)
                .map_err(super::PrintError::from)
                .map(|text| {
                    super::print_out(&(crate::domain::inert::json(&text).into_owned() + "\n"))
                })
        }
        Some(Output::Yaml | Output::JsonPath(_)) => {
            let document = json!({
                "apiVersion": "v1",
                "kind": "List",
                "items": rows
                    .iter()
                    .map(|(hub, row)| json!({"hub": hub, "object": row.object}))
                    .collect::<Vec<Value>>(),
                "metadata": {"resourceVersion": ""},
            });
            render(args.output.as_ref(), &document)
        }
        _ => {
            let mut table = crate::app::rows::Table {
                columns,
                rows: rows.iter().map(|(_, row)| row.clone()).collect(),
            };
            if one_namespace && args.resource != Resource::Hosts {
                strip_namespace(&mut table);
            }
            let mut headers: Vec<&str> = Vec::new();
            if !args.no_headers {
                headers.push(column::HUB.header);
                headers.extend(table.headers());
            }
            let mut lines = texts(&table.rows, Utc::now());
            for ((hub, _), line) in rows.iter().zip(lines.iter_mut()) {
                line.insert(0, crate::domain::inert::line(hub).into_owned());
            }
            widths = cells::plain_widths(&headers, &lines);
            if !lines.is_empty() {
                super::print_out(&cells::plain_table(&headers, &lines, Some(&widths)));
            } else if unread.len() < hubs.len() {
                crate::say::complain!("No resources found");
            }
            Ok(())
        }
    };
    if let Err(e) = written {
        crate::say::complain!("pooldeck: cannot print: {e}");
        return ExitCode::from(1);
    }
    if args.watch {
        watching_others();
        return follow(args, selectors, watched, namespace_shown, &widths).await;
    }
    // Found on some hubs, not on others: printed where found, said where not (as one hub
    // says NotFound).
    if let Some(name) = &args.name
        && !rows.is_empty()
        && !lacking.is_empty()
    {
        crate::say::complain!(
            "Error from server (NotFound): {} \"{}\" not found on {}",
            args.resource.noun(),
            crate::domain::inert::line(name),
            lacking.join(", ")
        );
        return ExitCode::from(1);
    }
    if unread.is_empty() {
        ExitCode::SUCCESS
    } else {
        crate::say::complain!(
            "pooldeck: not read (said above): {}; the rows printed are the other hubs'",
            crate::cli::hub_list(&unread)
        );
        ExitCode::from(1)
    }
}

/// The List of several hubs' objects, each item an object with its hub.
#[derive(serde::Serialize)]
struct HubList<'r> {
    #[serde(rename = "apiVersion")]
    api_version: &'static str,
    kind: &'static str,
    items: Vec<Wrapped<'r>>,
    metadata: Value,
}

#[derive(serde::Serialize)]
struct Wrapped<'r> {
    hub: &'r str,
    object: &'r crate::app::rows::Source,
}

/// The List as YAML, or through the JSONPath template asked, inert.
fn render(output: Option<&Output>, document: &Value) -> Result<(), super::PrintError> {
    let text = match output {
        Some(Output::JsonPath(template)) => {
            super::rendered(&template.render(document)?).into_owned()
        }
        _ => crate::domain::inert::yaml(document)?,
    };
    super::print_out(&text);
    Ok(())
}

/// `--watch` across hubs: every hub's changes as they come, each hub's rows compared with
/// its own last picture, printed with the hub; until Ctrl-C (or every hub's watch ends).
async fn follow(
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
