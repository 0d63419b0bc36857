//! `pooldeck record`: watch a cluster's Compute Pool resources and write a timeline that
//! `pooldeck demo serve --replay` plays back, with secrets redacted.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use crate::sources::connection::Connection;
use crate::sources::recorder::{Scope, Skipped, record};

#[derive(Debug, Args)]
#[command(
    after_help = "Example:\n  pooldeck record --context hub -A --duration 10m --output hub.yaml\n  \
    pooldeck demo serve --replay hub.yaml\n  \
    pooldeck record --all-contexts -A --duration 10m --output fleet.yaml   # every hub, one file"
)]
pub struct RecordArgs {
    /// Where to write the recording (YAML).
    #[arg(long, short, value_name = "FILE")]
    pub output: PathBuf,
    /// The kubeconfig to use (default: KUBECONFIG, then ~/.kube/config).
    #[arg(long, value_name = "PATH")]
    pub kubeconfig: Option<PathBuf>,
    /// The kubeconfig context (default: the current one); repeated, each hub is recorded at
    /// once into one file, a YAML document per hub (`hub: CONTEXT`), which `demo serve
    /// --replay` serves as that many hubs.
    #[arg(long, value_name = "NAME", conflicts_with = "all_contexts")]
    pub context: Vec<String>,
    /// Every context of the kubeconfig, each a hub (as --context repeated).
    #[arg(long)]
    pub all_contexts: bool,
    /// Record a namespace (repeatable, as for get and the console; default: the context's).
    #[arg(long, short, value_name = "NS", conflicts_with = "all_namespaces")]
    pub namespace: Vec<String>,
    /// Record every namespace.
    #[arg(long, short = 'A')]
    pub all_namespaces: bool,
    /// How long to record, e.g. 90s, 10m (Ctrl-C stops early and keeps what was recorded).
    #[arg(long, default_value = "60s", allow_hyphen_values = true, value_parser = super::parse_duration)]
    pub duration: Duration,
}

pub fn run(args: &RecordArgs) -> ExitCode {
    // The output is checked before anything is recorded: minutes of recording are not lost
    // to a path that cannot be written.
    if let Err(e) = crate::files::writable(&args.output) {
        crate::say::complain!(
            "pooldeck: cannot write the recording to {}: {e}",
            args.output.display()
        );
        return ExitCode::from(2);
    }
    // Checked as the API server would, before any becomes part of a URL.
    if let Err(code) = super::check_namespaces(&args.namespace, 2) {
        return code;
    }
    let hubs = match super::hubs_named(&args.kubeconfig, &args.context, args.all_contexts, 2) {
        Ok(hubs) => hubs,
        Err(code) => return code,
    };
    let several = super::several_hubs(&args.context, args.all_contexts);
    super::block_on(async {
        let contexts: Vec<Option<String>> = if hubs.is_empty() {
            vec![None]
        } else {
            hubs.iter().cloned().map(Some).collect()
        };
        let mut connections = Vec::new();
        for context in &contexts {
            match super::connect_or_exit(&args.kubeconfig, context, 2).await {
                Ok(c) => connections.push(c),
                Err(code) => return code,
            }
        }
        let (stop, stopped) = tokio::sync::watch::channel(false);
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                let _ = stop.send(true);
            }
        });
        // Each hub's namespaces: as named, or its context's own.
        let scopes: Vec<Scope> = connections
            .iter()
            .map(|connection| Scope {
                namespaces: namespaces_of(args, &connection.default_namespace),
                duration: args.duration,
            })
            .collect();
        say_recording(&connections, &scopes, args.duration);
        // Every hub at once, over the same stretch of time.
        let recorded = futures::future::join_all(connections.iter().zip(&scopes).map(
            |(connection, scope)| {
                record(
                    &connection.client,
                    scope,
                    &connection.context,
                    stopped.clone(),
                )
            },
        ))
        .await;
        let servers: Vec<String> = connections
            .iter()
            .map(|c| {
                let target = crate::sources::connection::Target {
                    kubeconfig: args.kubeconfig.clone(),
                    context: Some(c.context.clone()),
                    inline: None,
                };
                crate::sources::connection::hub_of(&target, &c.context).server
            })
            .collect();
        match documents_of(&connections, &servers, recorded, several) {
            Ok(recorded) => written(args, &recorded, several),
            Err(code) => code,
        }
    })
}

/// The recording written to its file, and said; exit 1 when it could not be, or when it is
/// incomplete.
fn written(args: &RecordArgs, recorded: &Recorded, several: bool) -> ExitCode {
    let Recorded {
        documents,
        incomplete,
        counts,
    } = recorded;
    let text = documents.join("---\n");
    // A regular file or a new path only: never into a device or FIFO, never through a
    // link (checked at the start too, so nothing was recorded for nothing).
    if let Err(e) = crate::files::write_output(&args.output, text.as_bytes()) {
        crate::say::complain!("pooldeck: {e}");
        return ExitCode::from(1);
    }
    crate::say::complain!(
        "pooldeck: wrote {} ({}{}, {}); play it with `pooldeck demo serve --replay {}`",
        args.output.display(),
        if several {
            format!("{} hubs, ", documents.len())
        } else {
            String::new()
        },
        crate::domain::words::counted(counts.0, "object"),
        crate::domain::words::counted(counts.1, "change"),
        crate::domain::shell::quote(&args.output.to_string_lossy())
    );
    if *incomplete {
        crate::say::complain!(
            "pooldeck: the recording is incomplete: the resources above could not be read"
        );
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

/// What each hub's recording came to: its YAML documents, whether a resource was refused or
/// failed, and how many objects and changes in all.
struct Recorded {
    documents: Vec<String>,
    incomplete: bool,
    counts: (usize, usize),
}

/// Says what is recorded, hub by hub.
fn say_recording(connections: &[Connection], scopes: &[Scope], duration: Duration) {
    for (connection, scope) in connections.iter().zip(scopes) {
        crate::say::complain!(
            "pooldeck: recording {} of context \"{}\" for {} (Ctrl-C stops early)",
            match scope.namespaces.as_slice() {
                [] => "all namespaces".to_owned(),
                [one] => format!("namespace {one}"),
                many => format!("namespaces {}", many.join(", ")),
            },
            crate::domain::inert::line(&connection.context),
            crate::domain::duration::format(duration)
        );
    }
}

/// Each hub's recording as a YAML document (naming its hub when there are several); what
/// it skipped said.
fn documents_of(
    connections: &[Connection],
    servers: &[String],
    recorded: Vec<(serde_json::Value, Vec<Skipped>)>,
    several: bool,
) -> Result<Recorded, ExitCode> {
    let mut documents = Vec::new();
    let mut incomplete = false;
    let mut counts = (0, 0);
    for ((connection, server), (mut recording, skipped)) in
        connections.iter().zip(servers).zip(recorded)
    {
        let on = if several {
            format!("hub {}: ", crate::domain::inert::line(&connection.context))
        } else {
            String::new()
        };
        for reason in &skipped {
            crate::say::complain!("pooldeck: {on}skipped {reason}");
        }
        // A resource that was refused or failed makes the recording incomplete: say so in
        // the exit status too. One that is not installed is only a note.
        incomplete |= skipped.iter().any(|s| !s.is_absent());
        let count = |field: &str| {
            recording
                .get(field)
                .and_then(|v| v.as_array())
                .map_or(0, Vec::len)
        };
        counts.0 += count("objects");
        counts.1 += count("steps");
        // What pooldeck kept of these pools' timelines goes with them.
        let pools = recording["objects"].as_array().into_iter().flatten();
        let pools = pools.filter(|o| o["kind"] == "ComputePool").map(|pool| {
            let text = |field: &str| pool["metadata"][field].as_str().unwrap_or_default();
            (text("namespace").to_owned(), text("name").to_owned())
        });
        let timeline = crate::timeline::carry::carried(server, pools);
        if !timeline.is_null()
            && let Some(map) = recording.as_object_mut()
        {
            map.insert("timeline".to_owned(), timeline);
        }
        // Each hub's document names its hub: the replay serves it as that hub.
        if several && let Some(map) = recording.as_object_mut() {
            map.insert("hub".to_owned(), connection.context.clone().into());
        }
        match serde_saphyr::to_string(&recording) {
            Ok(text) => documents.push(text),
            Err(e) => {
                crate::say::complain!("pooldeck: cannot write the recording: {e}");
                return Err(ExitCode::from(1));
            }
        }
    }
    Ok(Recorded {
        documents,
        incomplete,
        counts,
    })
}

/// The namespaces recorded on a hub: every one (empty), the ones named (each once), or the
/// context's own.
fn namespaces_of(args: &RecordArgs, own: &str) -> Vec<String> {
    if args.all_namespaces {
        return Vec::new();
    }
    if args.namespace.is_empty() {
        return vec![own.to_owned()];
    }
    let mut named: Vec<String> = Vec::new();
    for ns in &args.namespace {
        if !named.contains(ns) {
            named.push(ns.clone());
        }
    }
    named
}
