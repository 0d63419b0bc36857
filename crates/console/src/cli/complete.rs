//! Shell completion that knows the hub, as kubectl's does: `-n` offers the hub's namespaces,
//! `--context` the kubeconfig's contexts, a verb's NAME the objects of its kind. The shell
//! calls pooldeck back (`COMPLETE=bash pooldeck -- WORDS`, clap's dynamic completion); the
//! hub is only read (lists), within [`DEADLINE`], and says nothing when it cannot answer.

use std::ffi::OsStr;
use std::time::Duration;

use clap::CommandFactory;
use clap_complete::engine::{ArgValueCompleter, CompletionCandidate};

use crate::domain::Kind;
use crate::sources::connection::{Target, connect, contexts_of};

/// How long a completion may wait for the hub: past it, nothing is offered.
const DEADLINE: Duration = Duration::from_secs(2);

/// The most names one completion offers (a shell lists them all).
const MOST: u32 = 500;

/// The command line, its arguments taught to complete from the kubeconfig and the hub.
pub fn completable() -> clap::Command {
    teach(super::Cli::command())
}

fn teach(command: clap::Command) -> clap::Command {
    command
        .mut_args(|arg| match arg.get_id().as_str() {
            "namespace" => arg.add(ArgValueCompleter::new(namespaces)),
            "context" => arg.add(ArgValueCompleter::new(contexts)),
            "name" | "names" => arg.add(ArgValueCompleter::new(names)),
            _ => arg,
        })
        .mut_subcommands(teach)
}

/// The words typed, as the shell hands them over after `--`.
fn words() -> Vec<String> {
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    match args.iter().position(|a| a == "--") {
        Some(at) => args[at + 1..].to_vec(),
        None => Vec::new(),
    }
}

/// The value of a flag among the words (`--flag V`, `--flag=V`, `-nV` for a short one).
fn flag(words: &[String], long: &str, short: Option<&str>) -> Option<String> {
    let mut found = None;
    for (i, word) in words.iter().enumerate() {
        let next = || words.get(i + 1).cloned();
        if word == long || short.is_some_and(|s| word == s) {
            found = next();
        } else if let Some(value) = word.strip_prefix(&format!("{long}=")) {
            found = Some(value.to_owned());
        } else if let Some(s) = short
            && let Some(value) = word.strip_prefix(s).filter(|v| !v.is_empty())
        {
            found = Some(value.trim_start_matches('=').to_owned());
        }
    }
    found.filter(|v| !v.is_empty())
}

fn target(words: &[String]) -> Target {
    Target {
        kubeconfig: flag(words, "--kubeconfig", None).map(Into::into),
        context: flag(words, "--context", None),
        inline: None,
    }
}

/// The candidates among `names` that start with what is typed, and hold nothing a shell
/// would read as syntax (a hub's text never becomes a command; an EKS context's `arn:…/name`
/// is offered).
fn offered(names: impl IntoIterator<Item = String>, current: &OsStr) -> Vec<CompletionCandidate> {
    let typed = current.to_string_lossy();
    let plain = |c: char| c.is_ascii_alphanumeric() || "-._@:/+=,%".contains(c);
    let mut names: Vec<String> = names
        .into_iter()
        .filter(|n| n.starts_with(typed.as_ref()))
        .filter(|n| n.chars().all(plain))
        .collect();
    names.sort();
    names.dedup();
    names.into_iter().map(CompletionCandidate::new).collect()
}

fn contexts(current: &OsStr) -> Vec<CompletionCandidate> {
    offered(contexts_of(&target(&words())).unwrap_or_default(), current)
}

fn namespaces(current: &OsStr) -> Vec<CompletionCandidate> {
    let words = words();
    offered(read_hub(&words, None).unwrap_or_default(), current)
}

fn names(current: &OsStr) -> Vec<CompletionCandidate> {
    let words = words();
    let Some(kind) = kind_named(&words) else {
        return Vec::new();
    };
    offered(read_hub(&words, Some(kind)).unwrap_or_default(), current)
}

/// The kind a verb's NAME is of: a pool for the verbs that act on pools, the kind named after
/// `get` and `describe` (flags and their values before the verb are passed over).
fn kind_named(words: &[String]) -> Option<Kind> {
    use clap::ValueEnum;
    const ON_POOLS: [&str; 6] = ["pause", "resume", "delete", "edit", "unblock", "doctor"];
    let verb = words
        .iter()
        .skip(1)
        .position(|w| ON_POOLS.contains(&w.as_str()) || w == "get" || w == "describe")?
        + 1;
    if ON_POOLS.contains(&words[verb].as_str()) {
        return Some(Kind::Pool);
    }
    let word = words.get(verb + 1)?;
    super::get::Resource::from_str(word, false).ok()?.kind()
}

/// A list of objects' metadata, as `list_metadata` answers.
type Listed = kube::core::ObjectList<kube::core::PartialObjectMeta<kube::core::DynamicObject>>;

/// Names read from the hub: its namespaces (`kind` none), or the objects of `kind` in the
/// namespace typed (else the context's). `None` when it cannot answer within the deadline.
fn read_hub(words: &[String], kind: Option<Kind>) -> Option<Vec<String>> {
    // The read on a worker of its own: a credential plugin that blocks holds up only it, and
    // the deadline still ends the wait.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .ok()?;
    let target = target(words);
    let namespace = flag(words, "--namespace", Some("-n"));
    let read = async move {
        let connection = connect(&target).await.ok()?;
        let params = kube::api::ListParams::default().limit(MOST);
        let names_of = |list: Listed| -> Vec<String> {
            list.items
                .into_iter()
                .filter_map(|o| o.metadata.name)
                .collect()
        };
        match kind {
            Some(kind) => {
                let namespace = namespace.unwrap_or(connection.default_namespace.clone());
                let target = crate::domain::ObjectRef::new(kind, namespace, "");
                let api = crate::cluster::api_for(&connection.client, &target);
                api.list_metadata(&params).await.ok().map(names_of)
            }
            None => {
                let namespaces = kube::api::ApiResource::from_gvk_with_plural(
                    &kube::api::GroupVersionKind::gvk("", "v1", "Namespace"),
                    "namespaces",
                );
                let api: kube::Api<kube::core::DynamicObject> =
                    kube::Api::all_with(connection.client.clone(), &namespaces);
                if let Ok(list) = api.list_metadata(&params).await {
                    return Some(names_of(list));
                }
                // Not allowed to list namespaces: those that hold pools, where that is allowed.
                let pooled = crate::cluster::namespaces_with_pools(&connection.client).await;
                pooled.ok().map(|n| n.into_iter().collect())
            }
        }
    };
    let task = runtime.spawn(read);
    let names = runtime.block_on(async { tokio::time::timeout(DEADLINE, task).await });
    runtime.shutdown_background();
    names.ok()?.ok()?
}
