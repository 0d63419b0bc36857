//! What `pooldeck get` is asked: the resource, the flags, the output format.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};

use crate::app::rows;
use crate::inventory::Kind;

/// What `get` lists; the words it is named by are the console's ([`rows::names`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resource {
    Pools,
    Evaluations,
    Hosts,
    Events,
    Projects,
    /// One of the objects a pool refers to (Tenants, ScalingPolicies, AIWorkloads,
    /// ProfileBundles, Computes): its list view's table, its kind's objects.
    Of(Kind),
}

impl ValueEnum for Resource {
    fn value_variants<'a>() -> &'a [Resource] {
        &[
            Resource::Pools,
            Resource::Evaluations,
            Resource::Hosts,
            Resource::Events,
            Resource::Projects,
            Resource::Of(Kind::Tenant),
            Resource::Of(Kind::ScalingPolicy),
            Resource::Of(Kind::AIWorkload),
            Resource::Of(Kind::ProfileBundle),
            Resource::Of(Kind::Compute),
        ]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(crate::cli::possible(match self {
            Resource::Pools => rows::names::POOLS,
            Resource::Evaluations => rows::names::EVALUATIONS,
            Resource::Hosts => rows::names::HOSTS,
            Resource::Events => rows::names::EVENTS,
            Resource::Projects => rows::names::PROJECTS,
            Resource::Of(kind) => crate::app::View::of_kind(*kind)?.aliases(),
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
pub(super) const FORMATS: &str = "wide, json, yaml, name, jsonpath=TEMPLATE";

pub(super) fn parse_output(text: &str) -> Result<Output, crate::cli::BadValue> {
    Ok(match text {
        "wide" => Output::Wide,
        "json" => Output::Json,
        "yaml" => Output::Yaml,
        "name" => Output::Name,
        _ => match text.strip_prefix("jsonpath=") {
            Some(template) => {
                Output::JsonPath(crate::domain::jsonpath::Template::parse(template).map_err(
                    |why| crate::cli::BadValue::JsonPath {
                        template: template.to_owned(),
                        why,
                    },
                )?)
            }
            None => {
                return Err(crate::cli::BadValue::Output {
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
    #[arg(long, default_value = "30s", allow_hyphen_values = true, value_parser = crate::cli::parse_duration)]
    pub timeout: Duration,
}
