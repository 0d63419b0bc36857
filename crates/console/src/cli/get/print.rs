//! How `get` prints: tables a person reads, Lists and templates a machine reads, made inert for a terminal.

use chrono::Utc;
use serde_json::{Value, json};

use super::args::{GetArgs, Output, PrintError, Resource};
use super::resource::Selectors;
use super::resource::name_prefix;
use super::watch;
use crate::app::rows::{self, Row, Table};
use crate::inventory::Inventory;
use crate::ui::cells::{self, Form};

/// Whether standard output is a terminal: a person reads it, so the machine formats that
/// have no escapes of their own (`-o name`, `-o jsonpath`) are made inert there; to a pipe or
/// a file they carry the data exactly.
pub(super) fn to_a_person() -> bool {
    use std::io::IsTerminal;
    // Asked once: it is the same for every row.
    static PERSON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *PERSON.get_or_init(|| std::io::stdout().is_terminal())
}

/// What a template rendered, as [`to_a_person`] decides.
pub(super) fn rendered(text: &str) -> std::borrow::Cow<'_, str> {
    if to_a_person() {
        crate::domain::inert::text(text)
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// The line `-o name` prints for a row (a name kept on one line where a person reads it).
pub(super) fn name_line(resource: Resource, row: &Row) -> String {
    let name = match resource {
        // A host is named by its UID, the part of its pool's status it is.
        Resource::Hosts => row.part.clone().unwrap_or_else(|| row.id.name.to_string()),
        _ => row.id.name.to_string(),
    };
    let name = if to_a_person() {
        crate::domain::inert::line(&name)
    } else {
        std::borrow::Cow::Borrowed(name.as_str())
    };
    format!("{}/{name}", name_prefix(resource))
}

/// The objects as a kubectl List, written straight from the model (no copy of the fleet).
#[derive(serde::Serialize)]
pub struct ListDocument<'t> {
    #[serde(rename = "apiVersion")]
    api_version: &'static str,
    items: Vec<&'t rows::Source>,
    kind: &'static str,
    metadata: Value,
}

pub fn list_document(table: &Table) -> ListDocument<'_> {
    ListDocument {
        api_version: "v1",
        items: table.rows.iter().map(|r| &r.object).collect(),
        kind: "List",
        metadata: json!({"resourceVersion": ""}),
    }
}

/// The rows as plain text cells at `now`.
pub(super) fn texts(rows: &[Row], now: chrono::DateTime<Utc>) -> Vec<Vec<String>> {
    rows.iter()
        .map(|row| {
            row.cells
                .iter()
                .map(|c| cells::text(c, now, Form::Plain))
                .collect()
        })
        .collect()
}

/// `--watch -o json|yaml`: each object bare from the start, as the changes that follow are
/// printed (kubectl's `-w -o json` prints no List either).
pub(super) fn print_added(resource: Resource, args: &GetArgs, rows: &[Row], widths: &[usize]) {
    let changed: Vec<(Row, watch::Change)> = rows
        .iter()
        .map(|r| (r.clone(), watch::Change::Added))
        .collect();
    watch::print_changes(
        resource,
        args.output.as_ref(),
        &changed,
        true,
        widths,
        args.output_watch_events,
        None,
    );
}

/// Prints the first picture; returns how many rows it printed and the table's column widths
/// (which `--watch` keeps, as kubectl does).
pub(super) fn print(
    resource: Resource,
    args: &GetArgs,
    selectors: &Selectors,
    inventory: &Inventory,
    all_namespaces: bool,
) -> Result<(usize, Vec<usize>), PrintError> {
    let mut table = resource.selected(inventory, args, selectors);
    if let Some(path) = &args.sort_by
        && !Resource::sortable(&table, path)
    {
        return Err(PrintError::NotSortable);
    }
    if !all_namespaces && resource != Resource::Hosts {
        // Like kubectl: the namespace column only when reading every namespace.
        strip_namespace(&mut table);
    }
    let texts = texts(&table.rows, Utc::now());
    let headers = if args.no_headers {
        Vec::new()
    } else {
        table.headers()
    };
    let widths = cells::plain_widths(&headers, &texts);
    // `get KIND NAME -o json|yaml|jsonpath` is the object itself, as kubectl prints it; a
    // list otherwise (and for a name that is more than one row: a pool's hosts).
    let alone = args.name.is_some() && table.rows.len() == 1;
    let document = || -> std::io::Result<Value> {
        match (alone, table.rows.first()) {
            (true, Some(row)) => serde_json::to_value(&row.object),
            _ => serde_json::to_value(list_document(&table)),
        }
        .map_err(std::io::Error::other)
    };
    if args.watch && matches!(args.output, Some(Output::Json | Output::Yaml)) {
        print_added(resource, args, &table.rows, &widths);
        return Ok((table.rows.len(), widths));
    }
    // The objects are written out as they are serialised, not gathered into one text first.
    let written = match &args.output {
        // Faithful, and inert: what JSON and YAML would leave raw for a terminal to act on
        // (bidi controls, C1) is written as the format's own escape.
        Some(Output::Json) => write_out(|out| {
            let text = if alone {
                serde_json::to_string_pretty(&document()?)
            } else {
                serde_json::to_string_pretty(&list_document(&table))
            }
            .map_err(std::io::Error::other)?;
            std::io::Write::write_all(out, crate::domain::inert::json(&text).as_bytes())?;
            std::io::Write::write_all(out, b"\n")
        }),
        Some(Output::Yaml) => write_out(|out| {
            let text = crate::domain::inert::yaml(&document()?).map_err(std::io::Error::other)?;
            std::io::Write::write_all(out, text.as_bytes())
        }),
        Some(Output::Name) => write_out(|out| {
            for row in &table.rows {
                std::io::Write::write_all(out, name_line(resource, row).as_bytes())?;
                std::io::Write::write_all(out, b"\n")?;
            }
            Ok(())
        }),
        // What a template prints is the operator's to shape: the data exactly to a pipe or a
        // file, inert on a terminal.
        Some(Output::JsonPath(template)) => write_out(|out| {
            let text = template
                .render(&document()?)
                .map_err(std::io::Error::other)?;
            std::io::Write::write_all(out, rendered(&text).as_bytes())
        }),
        _ if table.rows.is_empty() => Ok(()),
        _ => {
            print_out(&cells::plain_table(&headers, &texts, Some(&widths)));
            Ok(())
        }
    };
    if let Err(e) = written
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        return Err(e.into());
    }
    Ok((table.rows.len(), widths))
}

pub(super) fn strip_namespace(table: &mut Table) {
    if table.columns.first() == Some(&crate::app::rows::column::NAMESPACE) {
        table.columns.remove(0);
        for row in &mut table.rows {
            row.cells.remove(0);
        }
    }
}

/// Writes to standard output through a buffer (a closed pipe ends it quietly: the caller
/// ignores `BrokenPipe`).
pub(super) fn write_out(
    write: impl FnOnce(&mut std::io::BufWriter<std::io::StdoutLock<'static>>) -> std::io::Result<()>,
) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    write(&mut out)?;
    out.flush()
}

pub(crate) fn print_out(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    // A closed pipe (`| head`) is not an error worth reporting.
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}
