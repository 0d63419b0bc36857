//! `pooldeck get`: the live data path without the console. It connects, starts the watchers
//! the resource needs, waits until they have a picture (or know they cannot have one), prints
//! a kubectl-like table or List, and with `--watch` prints rows as they change.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use chrono::Utc;
use clap::{Args, ValueEnum};
use serde_json::{Value, json};

use crate::app::ports::Namespaces;
use crate::app::rows::{self, Row, Table};
use crate::domain::field_selector::{self, FieldSelector};
use crate::domain::selector::LabelSelector;
use crate::inventory::{Inventory, Kind, SourceEvent, SourceState};

use self::watch::{changed_rows, print_changes};
use super::settle::{Settled, finish, settle};
use crate::ui::cells::{self, Form};

mod follow;
mod hubs;
mod watch;

/// What `get` lists; the words it is named by are the console's ([`rows::names`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resource {
    Pools,
    Evaluations,
    Hosts,
    Events,
    Projects,
}

impl ValueEnum for Resource {
    fn value_variants<'a>() -> &'a [Resource] {
        &[
            Resource::Pools,
            Resource::Evaluations,
            Resource::Hosts,
            Resource::Events,
            Resource::Projects,
        ]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(super::possible(match self {
            Resource::Pools => rows::names::POOLS,
            Resource::Evaluations => rows::names::EVALUATIONS,
            Resource::Hosts => rows::names::HOSTS,
            Resource::Events => rows::names::EVENTS,
            Resource::Projects => rows::names::PROJECTS,
        }))
    }
}

/// How `get` prints, as kubectl's `-o`.
#[derive(Clone, Debug, PartialEq)]
pub enum Output {
    Wide,
    Json,
    Yaml,
    /// `KIND.GROUP/NAME` a line each.
    Name,
    /// kubectl's JSONPath template, applied to the List (or the object named).
    JsonPath(crate::domain::jsonpath::Template),
}

/// Why the objects read could not be printed.
#[derive(Debug, thiserror::Error)]
pub enum PrintError {
    #[error("couldn't find any field with the --sort-by path in the list of objects")]
    NotSortable,
    #[error(transparent)]
    Template(#[from] crate::domain::jsonpath::Error),
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    #[error(transparent)]
    Yaml(#[from] serde_saphyr::SerializeError),
    #[error(transparent)]
    Written(#[from] std::io::Error),
}

/// The formats `-o` takes.
const FORMATS: &str = "wide, json, yaml, name, jsonpath=TEMPLATE";

fn parse_output(text: &str) -> Result<Output, super::BadValue> {
    Ok(match text {
        "wide" => Output::Wide,
        "json" => Output::Json,
        "yaml" => Output::Yaml,
        "name" => Output::Name,
        _ => match text.strip_prefix("jsonpath=") {
            Some(template) => {
                Output::JsonPath(crate::domain::jsonpath::Template::parse(template).map_err(
                    |why| super::BadValue::JsonPath {
                        template: template.to_owned(),
                        why,
                    },
                )?)
            }
            None => {
                return Err(super::BadValue::Output {
                    given: text.to_owned(),
                    allowed: FORMATS,
                });
            }
        },
    })
}

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  pooldeck get pools -A\n  pooldeck get evaluations -n ml-research -o wide\n  \
    pooldeck get hosts llm-train -n ml-research\n  pooldeck get pools -A -o json | jq '.items[].status.status'\n  \
    pooldeck get events -A --watch"
)]
pub struct GetArgs {
    /// What to list: pools (cp), evaluations (cpe), hosts, events, projects.
    #[arg(value_enum)]
    pub resource: Resource,
    /// Only this object (for hosts: a host UID or a pool name; for events: an event or the
    /// object it concerns). Not with -l, as kubectl.
    #[arg(conflicts_with = "selector")]
    pub name: Option<String>,
    /// Output format: wide (a wider table), json or yaml (the object named, else a kubectl
    /// List), name (`computepool.spectrocloud.com/NAME`), jsonpath=TEMPLATE (kubectl's).
    #[arg(long, short, value_parser = parse_output, value_name = "FORMAT", value_hint = clap::ValueHint::Other)]
    pub output: Option<Output>,
    /// Print the table without its header line.
    #[arg(long)]
    pub no_headers: bool,
    /// Order by the value at this JSONPath in each object (`.metadata.creationTimestamp`);
    /// objects without one come last.
    #[arg(long, value_name = "JSONPATH", value_parser = crate::domain::jsonpath::Path::parse)]
    pub sort_by: Option<crate::domain::jsonpath::Path>,
    /// After printing, print rows as they change until Ctrl-C.
    #[arg(long, short)]
    pub watch: bool,
    /// With --watch and -o json or yaml: each object wrapped in the watch event that
    /// brought it, `{"type": "ADDED"|"MODIFIED"|"DELETED", "object": ...}`, as kubectl's.
    #[arg(long, requires = "watch")]
    pub output_watch_events: bool,
    /// Only objects whose labels match, in kubectl's syntax: `team=retail`, `tier in (gpu,cpu)`,
    /// `!paused`, joined by commas (hosts: their pool's labels).
    #[arg(long, short = 'l', value_name = "SELECTOR", allow_hyphen_values = true)]
    pub selector: Option<String>,
    /// Only objects whose fields match, in kubectl's syntax (`metadata.name=x`,
    /// `type!=Normal`): metadata.name and metadata.namespace on every kind, and an event's
    /// involvedObject.*, reason, type, source and reportingComponent, as the API server allows.
    #[arg(long, value_name = "SELECTOR", allow_hyphen_values = true)]
    pub field_selector: Option<String>,
    /// Namespace to read (repeatable); default: the context's namespace.
    #[arg(long, short, value_name = "NS", conflicts_with = "all_namespaces")]
    pub namespace: Vec<String>,
    /// Read every namespace.
    #[arg(long, short = 'A')]
    pub all_namespaces: bool,
    /// The kubeconfig context (default: the current one); repeated, each is read as a hub of
    /// its own and the rows carry a HUB column (JSON: each item `{"hub", "object"}`).
    #[arg(long, value_name = "NAME", conflicts_with = "all_contexts")]
    pub context: Vec<String>,
    /// Every context of the kubeconfig, each a hub of its own (as --context repeated).
    #[arg(long)]
    pub all_contexts: bool,
    /// The kubeconfig (default: KUBECONFIG, then ~/.kube/config, then in-cluster).
    #[arg(long, value_name = "PATH")]
    pub kubeconfig: Option<PathBuf>,
    /// How long to wait for the first complete picture.
    #[arg(long, default_value = "30s", allow_hyphen_values = true, value_parser = super::parse_duration)]
    pub timeout: Duration,
}

impl Resource {
    /// The kinds this resource needs (must have), and the ones it uses when readable.
    fn kinds(self) -> (Vec<Kind>, Vec<Kind>) {
        match self {
            Resource::Pools => (vec![Kind::Pool], vec![Kind::Evaluation]),
            Resource::Evaluations => (vec![Kind::Evaluation], vec![]),
            Resource::Hosts => (vec![Kind::Pool], vec![]),
            Resource::Events => (vec![Kind::Event], vec![]),
            Resource::Projects => (vec![Kind::Project], vec![Kind::Tenant]),
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Resource::Pools => "computepools",
            Resource::Evaluations => "computepoolevaluations",
            Resource::Hosts => "hosts",
            Resource::Events => "events",
            Resource::Projects => "projects",
        }
    }

    pub fn table(self, inventory: &Inventory, name: Option<&str>, wide: bool) -> Table {
        match self {
            Resource::Pools => rows::pools(inventory, name, wide),
            Resource::Evaluations => rows::evaluations(inventory, name, wide),
            Resource::Hosts => rows::hosts_table(inventory, name, wide),
            Resource::Events => rows::events(inventory, name, wide),
            Resource::Projects => rows::projects(inventory, name, wide),
        }
    }

    /// The fields the API server selects this kind on (`None`: not an API object).
    fn fields(self) -> Option<&'static [&'static str]> {
        match self {
            Resource::Pools | Resource::Evaluations | Resource::Projects => {
                Some(field_selector::OBJECT_FIELDS)
            }
            Resource::Events => Some(field_selector::EVENT_FIELDS),
            Resource::Hosts => None,
        }
    }

    /// [`Resource::table`] with only the rows the selectors keep.
    fn selected(self, inventory: &Inventory, args: &GetArgs, selectors: &Selectors) -> Table {
        let wide = args.output == Some(Output::Wide);
        let mut table = self.table(inventory, args.name.as_deref(), wide);
        if let Some(selector) = &selectors.labels {
            table
                .rows
                .retain(|row| selector.matches(|key| row.object.label(key)));
        }
        if let Some(fields) = &selectors.fields {
            table.rows.retain(|row| {
                let object = serde_json::to_value(&row.object).unwrap_or(Value::Null);
                fields.matches(|field| field_selector::field_of(&object, field))
            });
        }
        if let Some(path) = &args.sort_by {
            sort_by(&mut table.rows, path, |row| row);
        }
        table
    }

    /// Whether `--sort-by`'s path names a value in any of the objects (kubectl refuses one
    /// that names nothing: a misspelt path would otherwise sort silently by nothing).
    fn sortable(table: &Table, path: &crate::domain::jsonpath::Path) -> bool {
        table.rows.is_empty()
            || table.rows.iter().any(|row| {
                let object = serde_json::to_value(&row.object).unwrap_or(Value::Null);
                !path.select(&object).is_empty()
            })
    }
}

/// Orders rows by the value at `path` in each one's object: numbers by value, text by its
/// characters, rows without a value last (stable: otherwise the table's order).
fn sort_by<T>(
    rows: &mut Vec<T>,
    path: &crate::domain::jsonpath::Path,
    row_of: impl Fn(&T) -> &Row,
) {
    let mut keyed: Vec<(Option<Value>, T)> = std::mem::take(rows)
        .into_iter()
        .map(|row| {
            let object = serde_json::to_value(&row_of(&row).object).unwrap_or(Value::Null);
            (path.select(&object).first().map(|v| (*v).clone()), row)
        })
        .collect();
    keyed.sort_by(|(a, _), (b, _)| match (a, b) {
        (Some(a), Some(b)) => match (a.as_f64(), b.as_f64()) {
            (Some(x), Some(y)) => x.total_cmp(&y),
            _ => crate::domain::jsonpath::shown(a).cmp(&crate::domain::jsonpath::shown(b)),
        },
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
    rows.extend(keyed.into_iter().map(|(_, row)| row));
}

/// `KIND.GROUP` as `-o name` prints it before the name.
fn name_prefix(resource: Resource) -> &'static str {
    match resource {
        Resource::Pools => "computepool.spectrocloud.com",
        Resource::Evaluations => "computepoolevaluation.spectrocloud.com",
        Resource::Projects => "project.spectrocloud.com",
        Resource::Events => "event",
        Resource::Hosts => "host",
    }
}

/// Whether standard output is a terminal: a person reads it, so the machine formats that
/// have no escapes of their own (`-o name`, `-o jsonpath`) are made inert there; to a pipe or
/// a file they carry the data exactly.
fn to_a_person() -> bool {
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
fn texts(rows: &[Row], now: chrono::DateTime<Utc>) -> Vec<Vec<String>> {
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
fn print_added(resource: Resource, args: &GetArgs, rows: &[Row], widths: &[usize]) {
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
fn print(
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

fn strip_namespace(table: &mut Table) {
    if table.columns.first() == Some(&crate::app::rows::column::NAMESPACE) {
        table.columns.remove(0);
        for row in &mut table.rows {
            row.cells.remove(0);
        }
    }
}

/// Writes to standard output through a buffer (a closed pipe ends it quietly: the caller
/// ignores `BrokenPipe`).
fn write_out(
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

/// What the rows must match: `-l` on labels, `--field-selector` on fields.
struct Selectors {
    labels: Option<LabelSelector>,
    fields: Option<FieldSelector>,
}

/// `--field-selector`, read before anything is asked of the hub: what a real server answers
/// 400 for exits 1 with its words.
fn field_selector_arg(args: &GetArgs) -> Result<Option<FieldSelector>, ExitCode> {
    let Some(text) = args.field_selector.as_deref() else {
        return Ok(None);
    };
    let refused = |why: String| {
        crate::say::complain!(
            "Error from server (BadRequest): {}",
            crate::domain::inert::line(&why)
        );
        ExitCode::from(1)
    };
    let parsed = FieldSelector::parse(text).map_err(|e| refused(e.to_string()))?;
    let Some(fields) = args.resource.fields() else {
        crate::say::complain!(
            "pooldeck: hosts are part of each pool's status, not API objects: --field-selector \
             selects pools, evaluations, events or projects"
        );
        return Err(ExitCode::from(1));
    };
    parsed
        .supported(fields)
        .map_err(|e| refused(e.to_string()))?;
    Ok((!parsed.is_empty()).then_some(parsed))
}

/// The kind whose whole list `-o json` writes page by page as the server sends it, when
/// nothing asked needs the whole list first (a name, selectors, an order, a watch).
fn streamed(args: &GetArgs, selectors: &Selectors) -> Option<Kind> {
    let kind = match args.resource {
        Resource::Pools => Kind::Pool,
        Resource::Evaluations => Kind::Evaluation,
        Resource::Projects => Kind::Project,
        Resource::Hosts | Resource::Events => return None,
    };
    (args.output == Some(Output::Json)
        && args.name.is_none()
        && args.sort_by.is_none()
        && selectors.labels.is_none()
        && selectors.fields.is_none()
        && !args.watch)
        .then_some(kind)
}

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
        inventory,
        tasks,
        receiver,
    } = match settle(&connection, &required, &optional, &namespaces, args.timeout).await {
        Ok(settled) => settled,
        Err(code) => return code,
    };
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
            let scope = if all_namespaces {
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
