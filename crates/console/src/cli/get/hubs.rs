//! `get` across several hubs (`--context` repeated, `--all-contexts`): each hub is read as
//! `get` reads one, all at once; the rows are printed together with the hub first. A hub
//! that cannot be read is said and the others are printed; the exit status is then 1. JSON
//! and YAML wrap each object with its hub: `{"hub": CONTEXT, "object": {…}}`, so nothing is
//! added to the object itself. `--watch` then prints each hub's changed rows as they come,
//! under the first table's columns, each with its hub.

use std::process::ExitCode;

use chrono::Utc;
use serde_json::{Value, json};

use super::args::{GetArgs, Output, Resource};
use super::print::{strip_namespace, texts};
use super::resource::{Selectors, sort_by};
use crate::app::rows::{Row, column};
use crate::cli::settle::{finish, settle_on};
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

/// The hubs read for `get` across hubs: the rows with their hub, the first hub's columns,
/// the hubs that could not be read, those a named object is not on, and what `--watch`
/// goes on with (each hub read, its picture and its changes).
struct Gathered {
    rows: Vec<(String, Row)>,
    columns: Vec<column::Column>,
    unread: Vec<String>,
    lacking: Vec<String>,
    watched: Vec<(String, crate::cli::settle::Settled)>,
}

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
        return stream_across(args, kind, hubs).await;
    }
    let mut gathered = gather(args, selectors, hubs).await;
    if let Some(path) = &args.sort_by {
        // A path that names nothing in any hub's objects is refused, as on one hub.
        let merged = crate::app::rows::Table {
            columns: Vec::new(),
            rows: gathered.rows.iter().map(|(_, row)| row.clone()).collect(),
        };
        if !Resource::sortable(&merged, path) {
            crate::say::complain!(
                "pooldeck: couldn't find any field with the --sort-by path in the list of objects"
            );
            return ExitCode::from(1);
        }
        sort_by(&mut gathered.rows, path, |(_, row)| row);
    }
    if let Some(name) = &args.name
        && gathered.rows.is_empty()
        && gathered.unread.is_empty()
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
    // The namespace is shown unless one was named (a host's always, as on one hub).
    let namespace_shown = !one_namespace || args.resource == Resource::Hosts;
    // Watching objects: each one wrapped with its hub from the start, as the changes that
    // follow are printed (no List, as on one hub).
    let widths = if args.watch && matches!(args.output, Some(Output::Json | Output::Yaml)) {
        for (hub, row) in &gathered.rows {
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
        Vec::new()
    } else {
        let printed = write_across(args, &gathered, one_namespace, hubs.len());
        match printed {
            Ok(widths) => widths,
            Err(e) => {
                crate::say::complain!("pooldeck: cannot print: {e}");
                return ExitCode::from(1);
            }
        }
    };
    if args.watch {
        if !gathered.unread.is_empty() {
            crate::say::complain!(
                "pooldeck: not read (said above): {}; watching the others",
                crate::cli::hub_list(&gathered.unread)
            );
        }
        return super::follow::follow(args, selectors, gathered.watched, namespace_shown, &widths)
            .await;
    }
    ending(args, &gathered)
}

/// `get -o json` of a whole list across hubs: page by page, hub after hub.
async fn stream_across(args: &GetArgs, kind: crate::domain::Kind, hubs: &[String]) -> ExitCode {
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
    crate::cli::stream::list_json_of(&hubs, kind, args.timeout).await
}

/// Every hub read at once, its rows selected; a hub's watch tasks end unless `--watch`
/// goes on with them.
async fn gather(args: &GetArgs, selectors: &Selectors, hubs: &[String]) -> Gathered {
    let reads = futures::future::join_all(hubs.iter().map(|hub| read_hub(args, hub))).await;
    let mut gathered = Gathered {
        rows: Vec::new(),
        columns: Vec::new(),
        unread: Vec::new(),
        lacking: Vec::new(),
        watched: Vec::new(),
    };
    for (hub, read) in hubs.iter().zip(reads) {
        let Some(settled) = read else {
            gathered.unread.push(hub.clone());
            continue;
        };
        let table = args.resource.selected(&settled.inventory, args, selectors);
        if gathered.columns.is_empty() {
            gathered.columns = table.columns.clone();
        }
        if args.name.is_some() && table.rows.is_empty() {
            gathered
                .lacking
                .push(crate::domain::inert::line(hub).into_owned());
        }
        gathered
            .rows
            .extend(table.rows.into_iter().map(|row| (hub.clone(), row)));
        if args.watch {
            gathered.watched.push((hub.clone(), settled));
        } else {
            let _ = finish(settled.tasks, 0);
        }
    }
    gathered
}

/// The rows of every hub, as the output asked; returns the table's column widths (which the
/// rows printed by `--watch` keep).
fn write_across(
    args: &GetArgs,
    gathered: &Gathered,
    one_namespace: bool,
    hubs: usize,
) -> Result<Vec<usize>, super::PrintError> {
    let rows = &gathered.rows;
    match &args.output {
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
            let text = serde_json::to_string_pretty(&document)?;
            super::print_out(&(crate::domain::inert::json(&text).into_owned() + "\n"));
            Ok(Vec::new())
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
            render(args.output.as_ref(), &document)?;
            Ok(Vec::new())
        }
        _ => {
            let mut table = crate::app::rows::Table {
                columns: gathered.columns.clone(),
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
            let widths = cells::plain_widths(&headers, &lines);
            if !lines.is_empty() {
                super::print_out(&cells::plain_table(&headers, &lines, Some(&widths)));
            } else if gathered.unread.len() < hubs {
                crate::say::complain!("No resources found");
            }
            Ok(widths)
        }
    }
}

/// The exit status once the rows are printed: a named object found on some hubs and not on
/// others is said where not (as one hub says NotFound); a hub not read is said again.
fn ending(args: &GetArgs, gathered: &Gathered) -> ExitCode {
    if let Some(name) = &args.name
        && !gathered.rows.is_empty()
        && !gathered.lacking.is_empty()
    {
        crate::say::complain!(
            "Error from server (NotFound): {} \"{}\" not found on {}",
            args.resource.noun(),
            crate::domain::inert::line(name),
            gathered.lacking.join(", ")
        );
        return ExitCode::from(1);
    }
    if gathered.unread.is_empty() {
        ExitCode::SUCCESS
    } else {
        crate::say::complain!(
            "pooldeck: not read (said above): {}; the rows printed are the other hubs'",
            crate::cli::hub_list(&gathered.unread)
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
            super::print::rendered(&template.render(document)?).into_owned()
        }
        _ => crate::domain::inert::yaml(document)?,
    };
    super::print_out(&text);
    Ok(())
}
