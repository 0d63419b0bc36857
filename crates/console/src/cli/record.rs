//! `pooldeck record`: watch a cluster's Compute Pool resources and write a timeline that
//! `pooldeck demo serve --replay` plays back, with secrets redacted.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use crate::sources::recorder::{Scope, record};

#[derive(Debug, Args)]
#[command(
    after_help = "Example:\n  pooldeck record --context hub -A --duration 10m --output hub.yaml\n  \
    pooldeck demo serve --replay hub.yaml"
)]
pub struct RecordArgs {
    /// Where to write the recording (YAML).
    #[arg(long, short, value_name = "FILE")]
    pub output: PathBuf,
    /// The kubeconfig to use (default: KUBECONFIG, then ~/.kube/config).
    #[arg(long, value_name = "PATH")]
    pub kubeconfig: Option<PathBuf>,
    /// The kubeconfig context (default: the current one).
    #[arg(long, value_name = "NAME")]
    pub context: Option<String>,
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
    super::block_on(async {
        let connection = match super::connect_or_exit(&args.kubeconfig, &args.context, 2).await {
            Ok(c) => c,
            Err(code) => return code,
        };
        let namespaces: Vec<String> = if args.all_namespaces {
            Vec::new()
        } else if args.namespace.is_empty() {
            vec![connection.default_namespace.clone()]
        } else {
            let mut named: Vec<String> = Vec::new();
            for ns in &args.namespace {
                if !named.contains(ns) {
                    named.push(ns.clone());
                }
            }
            named
        };
        crate::say::complain!(
            "pooldeck: recording {} of context \"{}\" for {} (Ctrl-C stops early)",
            match namespaces.as_slice() {
                [] => "all namespaces".to_owned(),
                [one] => format!("namespace {one}"),
                many => format!("namespaces {}", many.join(", ")),
            },
            connection.context,
            crate::domain::duration::format(args.duration)
        );
        let (stop, stopped) = tokio::sync::watch::channel(false);
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                let _ = stop.send(true);
            }
        });
        let scope = Scope {
            namespaces,
            duration: args.duration,
        };
        let (recording, skipped) =
            record(&connection.client, &scope, &connection.context, stopped).await;
        for reason in &skipped {
            crate::say::complain!("pooldeck: skipped {reason}");
        }
        // A resource that was refused or failed makes the recording incomplete: say so in the
        // exit status too. One that is not installed is only a note.
        let incomplete = skipped.iter().any(|s| !s.is_absent());
        let text = match serde_saphyr::to_string(&recording) {
            Ok(t) => t,
            Err(e) => {
                crate::say::complain!("pooldeck: cannot write the recording: {e}");
                return ExitCode::from(1);
            }
        };
        // A regular file or a new path only: never into a device or FIFO, never through a
        // link (checked at the start too, so nothing was recorded for nothing).
        if let Err(e) = crate::files::write_output(&args.output, text.as_bytes()) {
            crate::say::complain!("pooldeck: {e}");
            return ExitCode::from(1);
        }
        let count = |field: &str| {
            recording
                .get(field)
                .and_then(|v| v.as_array())
                .map_or(0, Vec::len)
        };
        crate::say::complain!(
            "pooldeck: wrote {} ({}, {}); play it with `pooldeck demo serve --replay {}`",
            args.output.display(),
            crate::domain::words::counted(count("objects"), "object"),
            crate::domain::words::counted(count("steps"), "change"),
            crate::domain::shell::quote(&args.output.to_string_lossy())
        );
        if incomplete {
            crate::say::complain!(
                "pooldeck: the recording is incomplete: the resources above could not be read"
            );
            return ExitCode::from(1);
        }
        ExitCode::SUCCESS
    })
}
