//! `get` across several hubs (`--context` repeated, `--all-contexts`): each hub is read as
//! `get` reads one, all at once; the rows are printed together with the hub first. A hub
//! that cannot be read is said and the others are printed; the exit status is then 1. JSON
//! and YAML wrap each object with its hub: `{"hub": CONTEXT, "object": {…}}`, so nothing is
//! added to the object itself.

use std::process::ExitCode;

use chrono::Utc;
use serde_json::{Value, json};

use super::{GetArgs, Output, Resource, Selectors, sort_by, strip_namespace, texts};
use crate::app::rows::{Row, column};
use crate::cli::settle::{finish, settle_on};
use crate::inventory::Inventory;
use crate::ui::cells;

/// One hub read: its picture, and the watch tasks to stop.
async fn read_hub(
    args: &GetArgs,
    hub: &str,
) -> Option<(Inventory, Vec<tokio::task::JoinHandle<()>>)> {
    let (required, mut optional) = args.resource.kinds();
    if matches!(args.output, Some(Output::Json | Output::Yaml)) {
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
    Some((settled.inventory, settled.tasks))
}

pub(super) async fn get_across(args: &GetArgs, selectors: &Selectors, hubs: &[String]) -> ExitCode {
    if args.watch {
        crate::say::complain!(
            "pooldeck: --watch follows one hub: name one --context (several hubs are printed once)"
        );
        return ExitCode::from(2);
    }
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
    let reads = futures::future::join_all(hubs.iter().map(|hub| read_hub(args, hub))).await;
    let mut rows: Vec<(String, Row)> = Vec::new();
    let mut columns = Vec::new();
    let mut unread = Vec::new();
    // The hubs a named object is not on.
    let mut lacking = Vec::new();
    for (hub, read) in hubs.iter().zip(reads) {
        let Some((inventory, tasks)) = read else {
            unread.push(hub.clone());
            continue;
        };
        let _ = finish(tasks, 0);
        let table = args.resource.selected(&inventory, args, selectors);
        if columns.is_empty() {
            columns = table.columns.clone();
        }
        if args.name.is_some() && table.rows.is_empty() {
            lacking.push(crate::domain::inert::line(hub).into_owned());
        }
        rows.extend(table.rows.into_iter().map(|row| (hub.clone(), row)));
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
                .map_err(|e| e.to_string())
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
            if !lines.is_empty() {
                super::print_out(&cells::plain_table(&headers, &lines, None));
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
            unread
                .iter()
                .map(|h| crate::domain::inert::line(h).into_owned())
                .collect::<Vec<_>>()
                .join(", ")
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
fn render(output: Option<&Output>, document: &Value) -> Result<(), String> {
    let text = match output {
        Some(Output::JsonPath(template)) => {
            crate::domain::inert::text(&template.render(document).map_err(|e| e.to_string())?)
                .into_owned()
        }
        _ => crate::domain::inert::yaml(document).map_err(|e| e.to_string())?,
    };
    super::print_out(&text);
    Ok(())
}
