//! `pooldeck bundle`: one file that carries a hub's pools to someone who cannot reach it (a
//! support team, an air-gapped site): the objects around the pools, the hue controller and
//! its log, the pools' timelines, the doctor's findings and a manifest of what each source
//! gave or why not; secrets redacted unless `--no-redact` is asked for by name. Read back by
//! `demo serve --bundle`, `pooldeck --bundle` and `doctor --bundle`.

mod archive;
mod around;
mod collect;
pub mod console;
pub mod open;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use chrono::Utc;
use clap::Args;

use self::archive::{HubEntry, Manifest, PLACES_LISTED, Staging};
use crate::domain::redact::Redactor;

#[derive(Debug, Args)]
#[command(after_help = "Example:\n  pooldeck bundle -A -o hub.tgz\n  \
    pooldeck bundle -n ml-team pool-a pool-b -o ticket-4411.tgz --redact 'cust-[0-9]+'\n  \
    pooldeck demo serve --bundle hub.tgz      # kubectl get cp -A, offline\n  \
    pooldeck doctor --bundle hub.tgz          # the findings as they were then\n\n\
    Exit status: 0 every source collected, 1 partial (the manifest says what is missing and \
    why), 2 usage, 3 nothing collected (no bundle written).")]
pub struct BundleArgs {
    /// Only these pools (with their evaluations and events); the hub's other objects still
    /// come along (projects, policies, the controller).
    #[arg(value_name = "POOL")]
    pub pools: Vec<String>,
    /// Where to write the bundle (a tar.gz, mode 0600).
    #[arg(long, short, value_name = "FILE")]
    pub output: PathBuf,
    /// Namespace to collect (repeatable); default: the context's namespace.
    #[arg(long, short, value_name = "NS", conflicts_with = "all_namespaces")]
    pub namespace: Vec<String>,
    /// Every namespace.
    #[arg(long, short = 'A')]
    pub all_namespaces: bool,
    /// The kubeconfig context (default: the current one); repeated, each hub goes into the
    /// one bundle.
    #[arg(long, value_name = "NAME", conflicts_with = "all_contexts")]
    pub context: Vec<String>,
    /// Every context of the kubeconfig, each a hub of the bundle.
    #[arg(long)]
    pub all_contexts: bool,
    /// The kubeconfig (default: KUBECONFIG, then ~/.kube/config, then in-cluster).
    #[arg(long, value_name = "PATH")]
    pub kubeconfig: Option<PathBuf>,
    /// How many of the last lines of each controller pod's log to carry.
    #[arg(long, value_name = "N", default_value_t = 2000)]
    pub log_lines: u32,
    /// Also redact what matches this regular expression (repeatable), wherever it appears.
    #[arg(long, value_name = "PATTERN", allow_hyphen_values = true)]
    pub redact: Vec<String>,
    /// Carry secrets as they are: tokens, passwords, keys, certificates (Secrets themselves
    /// are never collected).
    #[arg(long, conflicts_with = "redact")]
    pub no_redact: bool,
    /// How long each source may take to answer.
    #[arg(long, default_value = "60s", allow_hyphen_values = true, value_parser = super::parse_duration)]
    pub timeout: Duration,
}

pub fn run(args: &BundleArgs) -> ExitCode {
    // Everything that can be wrong with the command is found before the hub is asked.
    let redactor = match Redactor::new(&args.redact) {
        Ok(redactor) => redactor,
        Err(e) => {
            crate::say::complain!("pooldeck: {e}");
            return ExitCode::from(2);
        }
    };
    if let Err(e) = crate::files::writable(&args.output) {
        crate::say::complain!(
            "pooldeck: cannot write the bundle to {}: {e}",
            crate::domain::inert::line(&args.output.to_string_lossy())
        );
        return ExitCode::from(2);
    }
    if let Err(code) = super::check_namespaces(&args.namespace, 2) {
        return code;
    }
    let hubs = match super::hubs_named(&args.kubeconfig, &args.context, args.all_contexts, 2) {
        Ok(hubs) => hubs,
        Err(code) => return code,
    };
    let staging = match Staging::new() {
        Ok(staging) => staging,
        Err(why) => {
            crate::say::complain!("pooldeck: cannot make a private directory to work in: {why}");
            return ExitCode::from(3);
        }
    };
    let several = super::several_hubs(&args.context, args.all_contexts);
    let redactor = (!args.no_redact).then_some(&redactor);
    super::block_on(async {
        // A stop (Ctrl-C, SIGTERM, a hangup) ends it at once; the staging directory goes with
        // it when `run` returns.
        let mut stops = super::demo::signals::StopSignals::listen();
        tokio::select! {
            code = bundle(args, hubs, several, redactor, &staging) => code,
            () = stops.wait() => {
                crate::say::complain!("pooldeck: stopped: no bundle written");
                ExitCode::from(130)
            }
        }
    })
}

async fn bundle(
    args: &BundleArgs,
    hubs: Vec<String>,
    several: bool,
    redactor: Option<&Redactor>,
    staging: &Staging,
) -> ExitCode {
    let taken_at = Utc::now();
    let contexts: Vec<Option<String>> = if hubs.is_empty() {
        vec![None]
    } else {
        hubs.into_iter().map(Some).collect()
    };
    let mut entries: Vec<HubEntry> = Vec::new();
    let mut found = Vec::new();
    let mut unreached = Vec::new();
    for context in &contexts {
        match job_of(args, context, &entries, several, redactor, taken_at).await {
            Some(job) => entries.push(job.collect(staging, &mut found).await),
            // Said (by connect) and left out; the other hubs go on.
            None => unreached.push(context.clone().unwrap_or_default()),
        }
    }
    if entries.is_empty() {
        crate::say::complain!("pooldeck: no hub could be read: no bundle written");
        return ExitCode::from(3);
    }
    // Nothing collected: no source of any hub answered.
    let collected = entries
        .iter()
        .flat_map(|h| &h.sources)
        .any(|s| s.error.is_none() && s.file.is_some());
    if let Some(redactor) = redactor {
        scrub(&mut entries, &mut found, redactor);
    }
    let failures = failures_of(&entries, &unreached, several);
    let manifest = Manifest {
        bundle: archive::FORMAT,
        pooldeck: env!("CARGO_PKG_VERSION").to_owned(),
        taken_at,
        complete: failures.is_empty(),
        redacted: redactor.is_some(),
        hubs: entries,
        redaction_count: found.len(),
        redactions: found.into_iter().take(PLACES_LISTED).collect(),
    };
    if !collected {
        crate::say::complain!("pooldeck: nothing could be collected: no bundle written");
        for failure in &failures {
            crate::say::complain!("  {}", crate::domain::inert::line(failure));
        }
        return ExitCode::from(3);
    }
    let size = match archive::write(&args.output, staging, &manifest) {
        Ok(size) => size,
        Err(e) => {
            crate::say::complain!("pooldeck: {e}; no bundle written");
            return ExitCode::from(3);
        }
    };
    summary(args, &manifest, size, &failures)
}

/// What to collect of the hub `context` names (`None`: the current one); `None` when it
/// cannot be reached (said).
async fn job_of<'a>(
    args: &'a BundleArgs,
    context: &Option<String>,
    entries: &[HubEntry],
    several: bool,
    redactor: Option<&'a Redactor>,
    taken_at: chrono::DateTime<Utc>,
) -> Option<collect::Job<'a>> {
    let read = super::connect_to_read(
        &args.kubeconfig,
        context,
        &args.namespace,
        args.all_namespaces,
        2,
    );
    let (connection, namespaces) = read.await.ok()?;
    let target = crate::sources::connection::Target {
        kubeconfig: args.kubeconfig.clone(),
        context: Some(connection.context.clone()),
        inline: None,
    };
    let mut hub = crate::sources::connection::hub_of(&target, &connection.context);
    // The findings' next steps name the hub's context, not a file on this machine: whoever
    // reads the bundle has their own.
    hub.kubeconfig = None;
    let taken: Vec<String> = entries.iter().map(|e| e.dir.clone()).collect();
    Some(collect::Job {
        client: connection.client.clone(),
        dir: archive::dir_of(&hub.context, &taken),
        hub,
        namespaces,
        pools: &args.pools,
        log_lines: args.log_lines,
        timeout: args.timeout,
        redactor,
        taken_at,
        several,
    })
}

/// The manifest's own texts read as the objects are: a place can hold a map's key or a name
/// a `--redact` pattern names, an error can quote a message, `/version` is the hub's text.
fn scrub(
    entries: &mut [HubEntry],
    found: &mut [crate::domain::redact::Found],
    redactor: &Redactor,
) {
    let safe = |text: &mut String| {
        if let Some((clean, _)) = redactor.text(text) {
            *text = clean;
        }
    };
    for place in found.iter_mut() {
        safe(&mut place.place);
    }
    for hub in entries.iter_mut() {
        for text in [&mut hub.hub, &mut hub.server, &mut hub.namespaces] {
            safe(text);
        }
        redactor.object(&mut hub.version, "", &mut Vec::new());
        for source in &mut hub.sources {
            safe(&mut source.source);
            if let Some(error) = &mut source.error {
                safe(error);
            }
        }
    }
}

/// Every source that gave nothing or not all, and every hub not reached, in words.
fn failures_of(entries: &[HubEntry], unreached: &[String], several: bool) -> Vec<String> {
    entries
        .iter()
        .flat_map(|h| {
            h.sources.iter().filter_map(move |s| {
                s.error.as_ref().map(|e| {
                    let on = if several {
                        format!("{}: ", h.hub)
                    } else {
                        String::new()
                    };
                    format!("{on}{}: {e}", s.source)
                })
            })
        })
        .chain(unreached.iter().map(|hub| format!("{hub}: not reached")))
        .collect()
}

/// What was written, said on stderr; the exit status: 0 complete, 1 partial.
fn summary(args: &BundleArgs, manifest: &Manifest, size: u64, failures: &[String]) -> ExitCode {
    let objects: usize = manifest
        .hubs
        .iter()
        .flat_map(|h| &h.sources)
        .filter(|s| s.unit == "object")
        .map(|s| s.count)
        .sum();
    let redacted = if !manifest.redacted {
        "NOT redacted (--no-redact): treat the file as a secret".to_owned()
    } else if manifest.redaction_count == 0 {
        "nothing to redact found".to_owned()
    } else {
        format!(
            "{} redacted, listed by place in its manifest.json",
            crate::domain::words::counted(manifest.redaction_count, "secret")
        )
    };
    crate::say::complain!(
        "pooldeck: wrote {} ({} bytes; {} of {}; {redacted})",
        crate::domain::inert::line(&args.output.to_string_lossy()),
        size,
        crate::domain::words::counted(objects, "object"),
        crate::domain::words::counted(manifest.hubs.len(), "hub"),
    );
    crate::say::complain!(
        "  serve it: pooldeck demo serve --bundle {}",
        crate::domain::shell::quote(&args.output.to_string_lossy())
    );
    if failures.is_empty() {
        return ExitCode::SUCCESS;
    }
    crate::say::complain!(
        "pooldeck: the bundle is partial ({} not collected, said in its manifest):",
        crate::domain::words::counted(failures.len(), "source")
    );
    for failure in failures {
        crate::say::complain!("  {}", crate::domain::inert::line(failure));
    }
    ExitCode::from(1)
}
