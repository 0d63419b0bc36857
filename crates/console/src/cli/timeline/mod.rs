//! `pooldeck timeline POOL`: what happened to a pool and what pooldeck did, oldest first, from
//! what the hub holds, what pooldeck kept of what it saw (also of a pool already gone), its
//! audit log and the controller's log. `--watch` goes on, printing and keeping what comes.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use chrono::Utc;
use clap::{Args, ValueEnum};

mod follow;

use super::settle::{Settled, finish, settle_pools};
use crate::domain::inert;
use crate::domain::timeline::{self, Entry, Span};
use crate::inventory::{Inventory, Kind};
use crate::timeline::Store;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Shape {
    Text,
    Json,
    Yaml,
}

#[derive(Debug, Args)]
#[command(
    after_help = "Entries marked ~ are dated by the last transition time the hub keeps, \
    not seen as they happened. Clocks: hub (times written on the hub) or pooldeck (when it saw \
    a change or acted).\n\nExamples:\n  pooldeck timeline llm-train -n ml-research --since 2h\n  \
    pooldeck timeline edge-store-042 -n retail-edge -o json\n  \
    pooldeck timeline llm-train -n ml-research --watch"
)]
pub struct TimelineArgs {
    /// The pool's name (a pool already gone is told from what pooldeck kept of it).
    pub name: String,
    /// The pool's namespace (default: the context's).
    #[arg(long, short, value_name = "NS")]
    pub namespace: Option<String>,
    /// Only entries this recent (e.g. 30m, 2h, 48h).
    #[arg(long, value_name = "AGE", value_parser = super::parse_duration)]
    pub since: Option<Duration>,
    /// How to print it: text (a line each), json or yaml (with --watch, a JSON line or a YAML
    /// document per entry).
    #[arg(long, short, value_enum, default_value = "text")]
    pub output: Shape,
    /// Go on: print each new entry as it comes, and keep it.
    #[arg(long, short)]
    pub watch: bool,
    /// Lines of the controller's log read (its end).
    #[arg(long, default_value = "500", value_name = "N")]
    pub log_lines: u32,
    /// The kubeconfig context (default: the current one).
    #[arg(long, value_name = "NAME")]
    pub context: Option<String>,
    /// The kubeconfig (default: KUBECONFIG, then ~/.kube/config, then in-cluster).
    #[arg(long, value_name = "PATH")]
    pub kubeconfig: Option<PathBuf>,
    /// The audit log whose records are shown (default: as the other commands place it).
    #[arg(long, value_name = "PATH")]
    pub audit_log: Option<PathBuf>,
    /// How long to wait for the complete picture.
    #[arg(long, default_value = "30s", allow_hyphen_values = true, value_parser = super::parse_duration)]
    pub timeout: Duration,
}

pub fn run(args: &TimelineArgs) -> ExitCode {
    super::block_on(timeline(args))
}

async fn timeline(args: &TimelineArgs) -> ExitCode {
    let at = (&args.kubeconfig, &args.context);
    let (connection, namespaces) = match super::reach_named(&args.name, &args.namespace, at).await {
        Ok(opened) => opened,
        Err(code) => return code,
    };
    let namespace = match &namespaces {
        crate::app::ports::Namespaces::Only(list) => list.first().cloned().unwrap_or_default(),
        crate::app::ports::Namespaces::All => connection.default_namespace.clone(),
    };
    let started = Utc::now();
    let Settled {
        mut inventory,
        tasks,
        mut receiver,
    } = match settle_pools(&connection, &namespaces, args.timeout, None).await {
        Ok(settled) => settled,
        Err(code) => return code,
    };
    let source = crate::sources::connection::Target {
        kubeconfig: args.kubeconfig.clone(),
        context: args.context.clone(),
        inline: None,
    };
    let hub = crate::sources::connection::hub_of(&source, &connection.context);
    let store = Store::open(&hub.server);
    let at = (&hub.server[..], &namespace[..], started);
    let audit = audit_of(args);
    let files = (store.as_ref(), audit.as_deref());
    let kept = past(args, &connection.client, &inventory, files, at).await;
    let entries = crate::timeline::entries(&inventory, &namespace, &args.name, &kept, Utc::now());
    // Not on the hub, and nothing kept of it: the controller's lines alone tell no pool.
    let here = inventory.get(Kind::Pool, &namespace, &args.name).is_some();
    let known = |e: &Entry| !matches!(e.source, timeline::Source::Watch | timeline::Source::Log);
    if !here && !entries.iter().any(known) {
        crate::say::complain!(
            "Error from server (NotFound): computepools.spectrocloud.com \"{}\" not found, and pooldeck kept nothing of it",
            inert::line(&args.name)
        );
        return finish(tasks, 1);
    }
    let since = args
        .since
        .and_then(|d| chrono::TimeDelta::from_std(d).ok())
        .map(|d| Utc::now() - d);
    let shown = timeline::since(entries, since);
    if !args.watch {
        print(&shown, args, &hub, &namespace);
        return finish(tasks, 0);
    }
    let watched = follow::Watched {
        args,
        hub: &hub,
        namespace: &namespace,
        started,
        shown: &shown,
        audit,
        client: connection.client.clone(),
    };
    let code = follow::watch(watched, &mut inventory, &mut receiver, store).await;
    finish(tasks, code)
}

/// The audit log whose records are shown: `--audit-log`, the settings file's, the default.
/// A settings file that cannot be read is warned about, as the other commands do.
fn audit_of(args: &TimelineArgs) -> Option<std::path::PathBuf> {
    let (settings, warnings) = crate::settings::Settings::load();
    for warning in &warnings {
        crate::say::complain!("pooldeck: {warning}");
    }
    super::audit_log(args.audit_log.clone(), &settings).ok()
}

/// What was kept of the pool (its entries in `store`, its audit records, the controller's
/// lines, when pooldeck watched), what could not be read warned about.
async fn past(
    args: &TimelineArgs,
    client: &kube::Client,
    inventory: &Inventory,
    (store, audit): (
        Result<&Store, &crate::timeline::StoreError>,
        Option<&std::path::Path>,
    ),
    (server, namespace, started): (&str, &str, chrono::DateTime<Utc>),
) -> crate::timeline::Kept {
    let log = crate::runtime::logs::tail_within(client.clone(), args.log_lines, args.timeout).await;
    let log = log.as_deref().map_err(|e| e as &dyn std::fmt::Display);
    let own = Span {
        from: started,
        to: Some(Utc::now()),
        namespaces: vec![namespace.to_owned()],
    };
    let objects = crate::timeline::related(inventory, namespace, &args.name);
    let at = (server, namespace, args.name.as_str());
    let kept = crate::timeline::read(store, audit, at, objects, log, own);
    for said in &kept.said {
        crate::say::complain!("pooldeck: warning: {said}");
    }
    kept
}

fn print(entries: &[Entry], args: &TimelineArgs, hub: &crate::domain::Hub, namespace: &str) {
    let text = match args.output {
        Shape::Text => entries
            .iter()
            .map(|e| format!("{}\n", timeline::line(e, false)))
            .collect(),
        Shape::Json | Shape::Yaml => {
            let document = serde_json::json!({
                "kind": "Timeline",
                "pool": {"namespace": namespace, "name": args.name},
                "hub": {"context": hub.context, "server": hub.server},
                "entries": entries,
            });
            if args.output == Shape::Json {
                let text = serde_json::to_string_pretty(&document).unwrap_or_default();
                format!("{}\n", inert::json(&text))
            } else {
                inert::yaml(&document).unwrap_or_default()
            }
        }
    };
    super::get::print_out(&text);
}

/// The last `count` entries of a pool's timeline, for `describe`: what the picture holds,
/// what pooldeck kept and its audit log (the controller's log is `timeline`'s to read).
pub fn last(
    inventory: &Inventory,
    hub: &crate::domain::Hub,
    pool: (&str, &str),
    count: usize,
) -> Vec<String> {
    let (namespace, name) = pool;
    let (settings, _) = crate::settings::Settings::load();
    let audit = super::audit_log(None, &settings).ok();
    let now = Utc::now();
    let own = Span {
        from: now,
        to: Some(now),
        namespaces: vec![namespace.to_owned()],
    };
    let objects = crate::timeline::related(inventory, namespace, name);
    let store = Store::open(&hub.server);
    let kept = crate::timeline::read(
        store.as_ref(),
        audit.as_deref(),
        (&hub.server, namespace, name),
        objects,
        Ok(&[]),
        own,
    );
    let entries = crate::timeline::entries(inventory, namespace, name, &kept, now);
    let entries: Vec<&Entry> = entries
        .iter()
        .filter(|e| e.source != timeline::Source::Watch)
        .collect();
    let from = entries.len().saturating_sub(count);
    entries[from..]
        .iter()
        .map(|e| timeline::line(e, false))
        .collect()
}
