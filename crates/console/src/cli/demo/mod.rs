//! `pooldeck demo serve`: the embedded demo cluster as a standalone server for kubectl and
//! for trying pooldeck without a hub.

mod kubeconfig;
pub(crate) mod signals;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};

use crate::demo::pace::Pace;
use crate::demo::scenario::{BUILTIN, Scenario};
use crate::demo::{DemoCluster, OPERATOR_CONTEXT, Options, VIEWER_CONTEXT};

use self::kubeconfig::Written;
use self::signals::{Resets, StopSignals};

#[derive(Debug, Args)]
pub struct DemoArgs {
    #[command(subcommand)]
    pub command: DemoCommand,
}

#[derive(Debug, Subcommand)]
pub enum DemoCommand {
    /// Serve a demo cluster on 127.0.0.1 until Ctrl-C or SIGTERM.
    Serve(ServeArgs),
}

/// What `demo serve --help` says after the flags: every built-in scenario with its story,
/// then how to use the server.
fn serve_after_help() -> String {
    format!(
        "Scenarios built in:\n{}\nPrints `export KUBECONFIG=<path>` on stdout; evaluate it and \
         use kubectl:\n  eval \"$(pooldeck demo serve --scenario scale-up &)\"   # or copy the \
         line it prints\n  kubectl get cp -A\n  kubectl --context pooldeck-demo-viewer auth can-i \
         patch computepools",
        crate::demo::scenario::listing()
    )
}

#[derive(Debug, Args)]
#[command(after_help = serve_after_help())]
pub struct ServeArgs {
    /// A built-in scenario (listed below), or `large`.
    #[arg(
        long,
        value_name = "NAME",
        default_value = "fleet",
        conflicts_with = "replay"
    )]
    pub scenario: String,
    /// Play a recording (or any scenario file) made by `pooldeck record`.
    #[arg(long, value_name = "FILE", conflicts_with = "bundle")]
    pub replay: Option<PathBuf>,
    /// Serve a support bundle (`pooldeck bundle`) read-only, as it was taken: kubectl get,
    /// describe and logs, and pooldeck's console, doctor and timeline work on it offline.
    /// A bundle of several hubs is served as that many hubs.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["scenario", "hubs"])]
    pub bundle: Option<PathBuf>,
    /// Port on 127.0.0.1 (default: a free one).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Time scale: 2 plays the scenario twice as fast.
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true, value_parser = super::parse_speed)]
    pub speed: f64,
    /// Number of pools for the `large` scenario.
    #[arg(long, default_value_t = 1000)]
    pub pools: usize,
    /// Number of events about the pools for the `large` scenario (a warning in five).
    #[arg(long, default_value_t = 0, value_parser = parse_events)]
    pub events: usize,
    /// Time a list spends per object, as a real API server does (default for `large`: 40us;
    /// otherwise none).
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true, value_parser = super::parse_duration)]
    pub object_cost: Option<std::time::Duration>,
    /// Megabytes per second lists go out at (default for `large`: 85, a 2-core hub sending
    /// 10,000 pools in about 1.2 s with the object cost; otherwise unlimited).
    #[arg(long, value_name = "MB_PER_S", value_parser = parse_bandwidth)]
    pub bandwidth: Option<f64>,
    /// Answer as fast as the demo can, even for `large`.
    #[arg(long, conflicts_with_all = ["object_cost", "bandwidth"])]
    pub unpaced: bool,
    /// Refuse watch-lists (`sendInitialEvents`), as a server older than 1.27 or with the
    /// WatchList feature off does: clients list in pages. By default they are served, as by a
    /// server with the feature on.
    #[arg(long)]
    pub no_watch_list: bool,
    /// Where to write the kubeconfig (default: pooldeck's private directory,
    /// $XDG_RUNTIME_DIR/pooldeck or ~/.local/state/pooldeck; written as a new file of mode 0600,
    /// never over a file that is not a demo kubeconfig; removed on exit unless another server
    /// has written its own there since).
    #[arg(long, value_name = "PATH")]
    pub kubeconfig: Option<PathBuf>,
    /// Serve this many demo clusters, each a hub of its own playing the scenario, under one
    /// kubeconfig with a context per hub (hub-a, hub-b, …; the first current): the fleet view
    /// across hubs without hubs.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=9), conflicts_with = "port")]
    pub hubs: u8,
}

/// The context names of `--hubs N`: hub-a, hub-b, …
pub fn hub_names(hubs: u8) -> Vec<String> {
    (0..hubs)
        .map(|i| format!("hub-{}", char::from(b'a'.saturating_add(i))))
        .collect()
}

/// The most events `--events` serves: a million is ten times the events benchmark.
const MOST_EVENTS: usize = 1_000_000;

fn parse_events(text: &str) -> Result<usize, super::BadValue> {
    match text.trim().parse::<usize>() {
        Ok(n) if n <= MOST_EVENTS => Ok(n),
        _ => Err(super::BadValue::Events { most: MOST_EVENTS }),
    }
}

fn parse_bandwidth(text: &str) -> Result<f64, super::BadValue> {
    match text.trim().parse::<f64>() {
        Ok(mb) if mb.is_finite() && mb > 0.0 => Ok(mb),
        _ => Err(super::BadValue::Bandwidth),
    }
}

/// The pace lists go out at: as asked, else the scenario's default (a real hub's for `large`).
fn pace_of(args: &ServeArgs, scenario: &str) -> Option<Pace> {
    if args.unpaced {
        return None;
    }
    let default = Pace::default_for(scenario);
    if args.object_cost.is_none() && args.bandwidth.is_none() {
        return default;
    }
    let base = default.unwrap_or(Pace {
        per_object: std::time::Duration::ZERO,
        bytes_per_second: 0,
    });
    Some(Pace {
        per_object: args.object_cost.unwrap_or(base.per_object),
        bytes_per_second: args
            .bandwidth
            .map_or(base.bytes_per_second, |mb| (mb * 1e6) as u64),
    })
}

pub fn run(args: &DemoArgs) -> ExitCode {
    match &args.command {
        DemoCommand::Serve(serve) => run_serve(serve),
    }
}

fn run_serve(args: &ServeArgs) -> ExitCode {
    let plays = match plays_of(args) {
        Ok(plays) => plays,
        Err(code) => return code,
    };
    super::block_on(async move {
        let clusters = match start_all(args, &plays).await {
            Ok(clusters) => clusters,
            Err(code) => return code,
        };
        let Some(cluster) = clusters.first() else {
            return ExitCode::from(1);
        };
        // A recording's timelines are kept again for the hub that serves it.
        for (served, (_, story)) in clusters.iter().zip(&plays) {
            crate::timeline::carry::carry_in(&served.url(), &story.timeline);
        }
        let names: Vec<String> = plays.iter().map(|(hub, _)| hub.clone()).collect();
        let description = plays
            .first()
            .map(|(_, s)| s.description.clone())
            .unwrap_or_default();
        let stops = StopSignals::listen();
        // Listened for before the PID is said: a USR1 before it would otherwise end the server
        // (its default action) and leave the kubeconfig behind.
        let mut resets = Resets::listen();
        // The kubeconfig holds the admin token: by default it goes to pooldeck's private
        // directory, never to a predictable name in a shared one.
        let path = match &args.kubeconfig {
            Some(path) => path.clone(),
            None => match crate::files::private_dir() {
                Ok(dir) => dir.join(format!("demo-{}.kubeconfig", cluster.address.port())),
                Err(e) => {
                    crate::say::complain!(
                        "pooldeck: cannot keep the demo's credentials privately: {e}"
                    );
                    return ExitCode::from(1);
                }
            },
        };
        let written = match Written::write(&path, kubeconfig::of(&names, &clusters)) {
            Ok(written) => written,
            Err(why) => {
                crate::say::complain!("pooldeck: {why}");
                return ExitCode::from(1);
            }
        };
        // A line meant for eval: the path absolute (it works from any directory) and one
        // shell word (a space or `$(…)` in it is never shell syntax).
        let absolute = std::path::absolute(&path).unwrap_or_else(|_| path.clone());
        crate::say::say!(
            "export KUBECONFIG={}",
            crate::domain::shell::quote(&absolute.to_string_lossy())
        );
        say_served(args, &names, &plays, &clusters, &description);
        if resets.listening() && args.bundle.is_none() {
            crate::say::complain!(
                "  kill -USR1 {} starts the story again (every object as at the start)",
                std::process::id()
            );
        }
        // Until a stop: SIGUSR1 starts the story again.
        let mut stops = stops;
        loop {
            tokio::select! {
                () = stops.wait() => break,
                () = resets.next() => {
                    for (hub, served) in names.iter().zip(clusters.iter()) {
                        // Each hub said by name when there are several.
                        let on = if clusters.len() > 1 { format!("{hub}: ") } else { String::new() };
                        match served.reset().await {
                            Ok(()) => crate::say::complain!("pooldeck: {on}the story starts again"),
                            Err(e) => crate::say::complain!("pooldeck: {on}cannot start the story again: {e}"),
                        }
                    }
                }
            }
        }
        crate::say::complain!("pooldeck: stopping the demo cluster");
        for served in clusters {
            served.stop().await;
        }
        written.remove();
        ExitCode::SUCCESS
    })
}

/// The stories to serve, each a hub with its name: a recording of several hubs names them;
/// otherwise one story, served `--hubs` times.
fn plays_of(args: &ServeArgs) -> Result<Vec<(String, Scenario)>, ExitCode> {
    if args.replay.is_none() && args.scenario != "large" && args.events > 0 {
        crate::say::complain!("pooldeck: --events is for the large scenario only");
        return Err(ExitCode::from(2));
    }
    if let Some(path) = &args.bundle {
        return match super::bundle::open::open(path) {
            Ok(opened) => Ok(opened
                .hubs
                .iter()
                .map(|hub| (hub.name.clone(), hub.scenario(opened.manifest.taken_at)))
                .collect()),
            Err(why) => {
                crate::say::complain!("pooldeck: {why}");
                Err(ExitCode::from(2))
            }
        };
    }
    let plays = match &args.replay {
        Some(path) => Scenario::from_file_of_hubs(path),
        None if args.scenario == "large" => Ok(vec![(
            None,
            Scenario::large_with_events(args.pools, args.events),
        )]),
        None => Scenario::builtin(&args.scenario).map(|s| vec![(None, s)]),
    };
    match plays {
        Ok(plays) if plays.len() > 1 && args.hubs > 1 => {
            crate::say::complain!(
                "pooldeck: the recording holds {} hubs and serves each as itself: drop --hubs",
                plays.len()
            );
            Err(ExitCode::from(2))
        }
        Ok(plays) if plays.len() > 1 => Ok(plays
            .into_iter()
            .map(|(hub, scenario)| (hub.unwrap_or_default(), scenario))
            .collect::<Vec<_>>()),
        Ok(mut plays) => match plays.pop() {
            Some((_, scenario)) => Ok(hub_names(args.hubs)
                .into_iter()
                .map(|hub| (hub, scenario.clone()))
                .collect()),
            None => Err(ExitCode::from(2)),
        },
        Err(e) => {
            crate::say::complain!("pooldeck: {e}");
            Err(ExitCode::from(2))
        }
    }
}

/// Several hubs: each its own server, tokens and certificate authority.
async fn start_all(
    args: &ServeArgs,
    plays: &[(String, Scenario)],
) -> Result<Vec<DemoCluster>, ExitCode> {
    let mut clusters = Vec::new();
    for (_, scenario) in plays {
        let options = Options {
            port: args.port,
            scenario: Some(scenario.clone()),
            speed: args.speed,
            pace: pace_of(args, &scenario.name),
            watch_list: !args.no_watch_list,
            ..Options::default()
        };
        match DemoCluster::start(options).await {
            Ok(c) => clusters.push(c),
            Err(e) => {
                crate::say::complain!("pooldeck: {e}");
                // A bundle the demo cannot hold is bad input, as a file that is no bundle.
                return Err(ExitCode::from(if args.bundle.is_some() { 2 } else { 1 }));
            }
        }
    }
    Ok(clusters)
}

/// Where each hub is served and what it plays, and how to read it.
fn say_served(
    args: &ServeArgs,
    names: &[String],
    plays: &[(String, Scenario)],
    clusters: &[DemoCluster],
    description: &str,
) {
    if clusters.len() > 1 {
        for ((hub, (_, story)), served) in names.iter().zip(plays).zip(clusters.iter()) {
            crate::say::complain!(
                "pooldeck demo hub {} at {} playing \"{}\"",
                crate::domain::inert::line(hub),
                served.url(),
                crate::domain::inert::line(&story.name)
            );
        }
    } else if let (Some(cluster), Some((_, story))) = (clusters.first(), plays.first()) {
        crate::say::complain!(
            "pooldeck demo cluster at {} playing \"{}\"",
            cluster.url(),
            crate::domain::inert::line(&story.name)
        );
    }
    if !description.is_empty() {
        crate::say::complain!("  {}", description.trim());
    }
    if args.no_watch_list {
        crate::say::complain!(
            "  watch-lists refused (422), as by a server with the WatchList feature off: clients list in pages"
        );
    }
    if args.bundle.is_some() {
        crate::say::complain!(
            "  read-only, as it was taken: kubectl get cp -A; kubectl logs; pooldeck doctor -A{}",
            if clusters.len() > 1 {
                " --all-contexts"
            } else {
                ""
            }
        );
        return;
    }
    if clusters.len() > 1 {
        crate::say::complain!(
            "  pooldeck get pools -A --all-contexts   (kubectl --context {} get cp -A: one hub)",
            names.last().map_or("hub-a", String::as_str)
        );
    } else {
        crate::say::complain!(
            "  kubectl get cp -A   (read-only: kubectl --context {VIEWER_CONTEXT} ...; may pause but not delete: --context {OPERATOR_CONTEXT})"
        );
    }
    crate::say::complain!(
        "  scenarios built in: {}, large",
        BUILTIN
            .iter()
            .map(|(n, _)| *n)
            .collect::<Vec<_>>()
            .join(", ")
    );
}
