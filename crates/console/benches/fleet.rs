//! Benchmark: the fleet at a real hub's pace, headless. At 2,000 and 10,000 pools with their
//! evaluations (ten hosts each), on the demo cluster paced as a 2-core hub (`demo::pace`) and
//! unpaced, each serving watch-lists (as a 1.36 server) and refusing them (lists in pages;
//! `-- streamed` or `-- pages` runs one): the server's own watch-list (first object, all of
//! them) beside its compact unpaged list; the console's data path (the watchers into an inventory: time to the first rows,
//! to the complete picture beside the server's own time for both lists, memory the picture
//! took), the raw list time of the same server, and `pooldeck get pools -A -o json` (the
//! release binary, a child process) with its wall time and peak resident memory beside it;
//! on the paced cluster also the console itself (the release binary in a tmux pane): first
//! rows on screen, the complete list, its resident memory (when quiet and ten idle seconds
//! later, once the allocator has given back what it freed), and idle CPU and terminal bytes
//! over ten seconds.
//! Run with `cargo bench --bench fleet` (it builds the release binary first; `-- 10000 paced`
//! runs one size and pace). `-- hubs` measures several hubs instead: three paced hubs of
//! 3,000 pools, each hub's own list and `get` beside `get --all-contexts` (table and JSON)
//! with its peak memory, then the console on each hub alone beside the console on all three
//! (the fleet view: first rows, complete picture, memory, idle cost). Figures only.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use pooldeck::demo::pace::{Pace, REAL_HUB};
use pooldeck::demo::scenario::Scenario;
use pooldeck::demo::{DemoCluster, Options};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "common/mod.rs"]
mod common;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// `took` as a multiple of `of` ("n/a" when `of` was not measured).
fn ratio(took: Duration, of: Duration) -> String {
    if of.is_zero() {
        "n/a ×".to_owned()
    } else {
        format!("{:.2}×", took.as_secs_f64() / of.as_secs_f64())
    }
}

/// The release binary, built if needed.
fn binary() -> Option<PathBuf> {
    let status = Command::new(env!("CARGO"))
        .args(["build", "--release", "--quiet", "--bin", "pooldeck"])
        .status()
        .ok()?;
    if !status.success() {
        return None;
    }
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/release/pooldeck");
    path.exists().then_some(path)
}

/// The peak resident memory (VmHWM) of a running process, in bytes.
fn high_water(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// A child's wall time, peak resident memory (its high-water mark, read while it runs) and
/// bytes written.
fn measured(mut command: Command) -> Option<(Duration, u64, usize)> {
    let start = Instant::now();
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut stdout = child.stdout.take()?;
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut out);
        out.len()
    });
    let pid = child.id();
    let mut peak = 0;
    let status = loop {
        if let Some(hwm) = high_water(pid) {
            peak = peak.max(hwm);
        }
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(_) => return None,
        }
    };
    let took = start.elapsed();
    let out = reader.join().unwrap_or(0);
    status.success().then_some((took, peak, out))
}

async fn client_of(cluster: &DemoCluster) -> Option<kube::Client> {
    let kubeconfig = kube::config::Kubeconfig::from_yaml(&cluster.kubeconfig()).ok()?;
    let config = kube::Config::from_custom_kubeconfig(
        kubeconfig,
        &kube::config::KubeConfigOptions::default(),
    )
    .await
    .ok()?;
    kube::Client::try_from(config).ok()
}

/// The process's resident memory now, in bytes.
fn resident() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map_or(0, |pages| pages * 4096)
}

/// The console's data path: pools and evaluations watched into an inventory. Time to the
/// first rows (the first page of pools), to the complete picture (both lists), and the
/// resident memory the process gained meanwhile.
async fn sync(cluster: &DemoCluster, pools: usize) -> Option<(Duration, Duration, u64)> {
    use pooldeck::inventory::{Inventory, Kind, SourceState};
    let client = client_of(cluster).await?;
    let start_resident = resident();
    let (sender, mut receiver) = tokio::sync::mpsc::channel(pooldeck::sources::watch::QUEUE);
    let start = Instant::now();
    let tasks = pooldeck::sources::watch::spawn(
        &client,
        &pooldeck::sources::list::Ways::default(),
        &[Kind::Pool, Kind::Evaluation],
        &pooldeck::sources::watch::Namespaces::All,
        pooldeck::sources::watch::Tag::default(),
        &sender,
    );
    let mut inventory = Inventory::new();
    let mut first = None;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    loop {
        let live = |kind| {
            inventory
                .health_of(kind)
                .any(|h| h.state == SourceState::Live)
        };
        if live(Kind::Pool) && live(Kind::Evaluation) && inventory.count(Kind::Pool) == pools {
            break;
        }
        let (_, event) = tokio::time::timeout_at(deadline, receiver.recv())
            .await
            .ok()??;
        inventory.apply(event, chrono::Utc::now());
        if first.is_none() && inventory.count(Kind::Pool) > 0 {
            first = Some(start.elapsed());
        }
    }
    let complete = start.elapsed();
    let gained = resident().saturating_sub(start_resident);
    tasks.iter().for_each(|t| t.abort());
    Some((first?, complete, gained))
}

/// What the console itself did: the release binary in a 200×50 tmux pane.
struct Console {
    first_rows: Duration,
    complete: Duration,
    /// When the work of the complete picture is done, and after the ten idle seconds (memory
    /// the allocator has freed goes back to the system about a second later).
    resident: u64,
    settled: u64,
    idle_core: f64,
    idle_bytes: f64,
}

fn tmux(args: &[&str]) -> Option<String> {
    let out = Command::new("tmux").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// A process's CPU time so far (user and system), from /proc.
fn cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name, which is in parentheses and may hold spaces.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    let per_second = Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| {
            String::from_utf8_lossy(&o.stdout)
                .trim()
                .parse::<u64>()
                .ok()
        })
        .unwrap_or(100);
    Some(Duration::from_secs_f64(ticks as f64 / per_second as f64))
}

fn resident_of(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? * 1024)
}

/// Polls the pane until `done` holds for its text, up to two minutes.
fn until(session: &str, every: Duration, done: impl Fn(&str) -> bool) -> Option<()> {
    let deadline = Instant::now() + Duration::from_secs(120);
    while Instant::now() < deadline {
        if tmux(&["capture-pane", "-p", "-t", session]).is_some_and(|text| done(&text)) {
            return Some(());
        }
        std::thread::sleep(every);
    }
    None
}

/// The console (the release binary) in a tmux pane of 200×50 against the cluster: time from
/// its start to the first pool row on screen and to the complete list with both sources
/// live, its resident memory then, and over ten idle seconds the share of one core it used
/// and the bytes it wrote to the terminal per second.
fn console(
    binary: &std::path::Path,
    kubeconfig: &std::path::Path,
    pools: usize,
) -> Option<Console> {
    let title = format!("Compute Pools ({pools})");
    console_with(
        binary,
        kubeconfig,
        "-A",
        &|text: &str| text.contains("pool-0"),
        &|text: &str| text.contains(&title) && text.contains("pools ✓") && text.contains("cpe ✓"),
    )
}

/// The console with `args`, measured as [`console`] says: `first` tells the first rows on
/// screen, `complete` the complete picture.
fn console_with(
    binary: &std::path::Path,
    kubeconfig: &std::path::Path,
    args: &str,
    first: &dyn Fn(&str) -> bool,
    complete: &dyn Fn(&str) -> bool,
) -> Option<Console> {
    tmux(&["-V"])?;
    let session = format!("pooldeck-fleet-{}", std::process::id());
    let output = kubeconfig.with_file_name("console-output");
    let command = format!(
        "exec {} {args} --kubeconfig {}",
        binary.display(),
        kubeconfig.display()
    );
    let start = Instant::now();
    tmux(&[
        "new-session",
        "-d",
        "-s",
        &session,
        "-x",
        "200",
        "-y",
        "50",
        &command,
    ])?;
    let measured = (|| {
        let pid: u32 = tmux(&["display", "-p", "-t", &session, "#{pane_pid}"])?
            .trim()
            .parse()
            .ok()?;
        tmux(&[
            "pipe-pane",
            "-o",
            "-t",
            &session,
            &format!("cat >> {}", output.display()),
        ])?;
        until(&session, Duration::from_millis(5), first)?;
        let first_rows = start.elapsed();
        until(&session, Duration::from_millis(20), complete)?;
        let complete = start.elapsed();
        // Until the work of the complete picture (the doctor's first pass) is done: half a
        // second with under 5 ms of CPU, for at most 30 s.
        let quiet_by = Instant::now() + Duration::from_secs(30);
        while Instant::now() < quiet_by {
            let before = cpu_time(pid)?;
            std::thread::sleep(Duration::from_millis(500));
            if cpu_time(pid)? - before < Duration::from_millis(5) {
                break;
            }
        }
        let resident = resident_of(pid)?;
        let written = |path: &std::path::Path| std::fs::metadata(path).map_or(0, |m| m.len());
        let (cpu, bytes) = (cpu_time(pid)?, written(&output));
        std::thread::sleep(Duration::from_secs(10));
        let (cpu_after, bytes_after) = (cpu_time(pid)?, written(&output));
        let settled = resident_of(pid)?;
        Some(Console {
            first_rows,
            complete,
            resident,
            settled,
            idle_core: (cpu_after - cpu).as_secs_f64() / 10.0,
            idle_bytes: bytes_after.saturating_sub(bytes) as f64 / 10.0,
        })
    })();
    let _ = tmux(&["kill-session", "-t", &session]);
    let _ = std::fs::remove_file(&output);
    measured
}

async fn raw_list(cluster: &DemoCluster) -> Option<(Duration, usize)> {
    let client = client_of(cluster).await?;
    let mut best = Duration::MAX;
    let mut bytes = 0;
    for _ in 0..2 {
        let request = http::Request::get("/apis/spectrocloud.com/v1alpha1/computepools")
            .body(Vec::new())
            .ok()?;
        let start = Instant::now();
        let text = client.request_text(request).await.ok()?;
        best = best.min(start.elapsed());
        bytes = text.len();
    }
    Some((best, bytes))
}

/// The server's watch-list of pools, read as the API sends it (events skipped, not built):
/// the time to its first event and to the bookmark that ends its objects. `None` when the
/// server refuses watch-lists.
async fn raw_watch_list(cluster: &DemoCluster) -> Option<(Duration, Duration)> {
    use futures::StreamExt;
    use kube::api::WatchEvent;
    let client = client_of(cluster).await?;
    let mut best: Option<(Duration, Duration)> = None;
    for _ in 0..2 {
        let request = http::Request::get(
            "/apis/spectrocloud.com/v1alpha1/computepools?watch=true&sendInitialEvents=true\
             &resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=120",
        )
        .body(Vec::new())
        .ok()?;
        let start = Instant::now();
        let events = client
            .request_events::<serde::de::IgnoredAny>(request)
            .await
            .ok()?;
        let mut events = std::pin::pin!(events);
        let mut first = None;
        let end = loop {
            match events.next().await? {
                Ok(WatchEvent::Bookmark(mark))
                    if mark
                        .metadata
                        .annotations
                        .contains_key("k8s.io/initial-events-end") =>
                {
                    break start.elapsed();
                }
                Ok(_) => {
                    first.get_or_insert_with(|| start.elapsed());
                }
                Err(_) => return None,
            }
        };
        let took = (first.unwrap_or(end), end);
        best = Some(best.map_or(took, |b: (Duration, Duration)| b.min(took)));
    }
    best
}

fn main() {
    println!("pooldeck fleet benchmark");
    println!("machine: {}", common::machine());
    println!(
        "pace: {} µs per object, {} MB/s (a 2-core hub), and unpaced",
        REAL_HUB.per_object.as_micros(),
        REAL_HUB.bytes_per_second / 1_000_000
    );
    let Some(binary) = binary() else {
        println!("the release binary could not be built");
        return;
    };
    let Ok(runtime) = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    else {
        return;
    };
    // `cargo bench --bench fleet -- 10000 paced` runs only the sizes and paces named.
    let asked: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    if asked.iter().any(|a| a == "hubs") {
        hubs(&runtime, &binary);
        return;
    }
    let sizes: Vec<usize> = asked.iter().filter_map(|a| a.parse().ok()).collect();
    let sizes = if sizes.is_empty() {
        vec![2_000, 10_000]
    } else {
        sizes
    };
    let paces: Vec<Option<Pace>> = match (
        asked.iter().any(|a| a == "paced"),
        asked.iter().any(|a| a == "unpaced"),
    ) {
        (true, false) => vec![Some(REAL_HUB)],
        (false, true) => vec![None],
        _ => vec![Some(REAL_HUB), None],
    };
    // A server with watch-lists (as 1.36) and one without (the lists in pages); `-- streamed`
    // or `-- pages` runs one.
    let ways: Vec<bool> = match (
        asked.iter().any(|a| a == "streamed"),
        asked.iter().any(|a| a == "pages"),
    ) {
        (true, false) => vec![true],
        (false, true) => vec![false],
        _ => vec![true, false],
    };
    for pools in sizes {
        for (pace, watch_list) in paces
            .iter()
            .copied()
            .flat_map(|pace| ways.iter().map(move |way| (pace, *way)))
        {
            let label = match (pace.is_some(), watch_list) {
                (true, true) => "paced, watch-lists",
                (true, false) => "paced, pages",
                (false, true) => "unpaced, watch-lists",
                (false, false) => "unpaced, pages",
            };
            let cluster = runtime.block_on(DemoCluster::start(Options {
                scenario: Some(Scenario::large(pools)),
                pace,
                watch_list,
                ..Options::default()
            }));
            let Ok(cluster) = cluster else {
                println!("the demo cluster did not start");
                return;
            };
            let dir =
                std::env::temp_dir().join(format!("pooldeck-fleet-bench-{}", std::process::id()));
            let _ = std::fs::create_dir_all(&dir);
            let kubeconfig = dir.join("kubeconfig");
            if cluster.write_kubeconfig(&kubeconfig).is_err() {
                return;
            }
            let raw = runtime.block_on(raw_list(&cluster));
            let streamed = if watch_list {
                runtime.block_on(raw_watch_list(&cluster))
            } else {
                None
            };
            if let (Some((first, end)), Some((raw, _))) = (streamed, raw) {
                println!(
                    "  {pools:>6} pools, {label:<20} the server's watch-list: first object {:>6.1} ms, all {:>7.1} ms ({:.2}× its unpaged list, {:.1} ms)",
                    ms(first),
                    ms(end),
                    end.as_secs_f64() / raw.as_secs_f64(),
                    ms(raw)
                );
            }
            let evaluations = runtime.block_on(async {
                let client = client_of(&cluster).await?;
                let request =
                    http::Request::get("/apis/spectrocloud.com/v1alpha1/computepoolevaluations")
                        .body(Vec::new())
                        .ok()?;
                let start = Instant::now();
                client.request_text(request).await.ok()?;
                Some(start.elapsed())
            });
            match (runtime.block_on(sync(&cluster, pools)), raw, evaluations) {
                (Some((first, complete, gained)), Some((raw, _)), Some(evaluations)) => println!(
                    "  {pools:>6} pools, {label:<20} console data path: first rows {:>7.1} ms, complete picture {:>7.1} ms ({:.2}× the server's {:.1} ms for both lists){}",
                    ms(first),
                    ms(complete),
                    complete.as_secs_f64() / (raw + evaluations).as_secs_f64(),
                    ms(raw + evaluations),
                    // The paced run comes first at each size; the unpaced one reuses its memory.
                    if pace.is_some() {
                        format!(", +{:.1} MB resident for the picture", gained as f64 / 1e6)
                    } else {
                        String::new()
                    }
                ),
                _ => println!("  {pools:>6} pools, {label}: the data path did not complete"),
            }
            if pace.is_some() {
                match console(&binary, &kubeconfig, pools) {
                    Some(c) => println!(
                        "  {pools:>6} pools, {label:<20} the console in a 200x50 tmux pane: first rows on screen {:>7.1} ms, complete list {:>7.1} ms ({} the server's {:.1} ms for both lists), RSS {:.1} MB when quiet, {:.1} MB ten idle seconds later; idle: {:.2} % of a core, {:.0} bytes written per second",
                        ms(c.first_rows),
                        ms(c.complete),
                        raw.zip(evaluations).map_or(
                            "n/a ×".to_owned(),
                            |((raw, _), evaluations)| ratio(c.complete, raw + evaluations)
                        ),
                        raw.zip(evaluations)
                            .map_or(0.0, |((raw, _), evaluations)| ms(raw + evaluations)),
                        c.resident as f64 / 1e6,
                        c.settled as f64 / 1e6,
                        c.idle_core * 100.0,
                        c.idle_bytes
                    ),
                    None => println!(
                        "  {pools:>6} pools, {label}: the console could not be measured (tmux missing, or the list did not show)"
                    ),
                }
            }
            let mut get = Command::new(&binary);
            get.args([
                "get",
                "pools",
                "-A",
                "-o",
                "json",
                "--timeout",
                "120s",
                "--kubeconfig",
            ])
            .arg(&kubeconfig);
            let got = measured(get);
            match (raw, got) {
                (Some((raw, bytes)), Some((took, peak, out))) => println!(
                    "  {pools:>6} pools, {label:<20} raw unpaged list {:>7.1} ms ({:.1} MB compact) · get -o json {:>7.1} ms ({:.2}× the unpaged list), peak RSS {:>6.1} MB, {:.1} MB out",
                    ms(raw),
                    bytes as f64 / 1e6,
                    ms(took),
                    took.as_secs_f64() / raw.as_secs_f64(),
                    peak as f64 / 1e6,
                    out as f64 / 1e6
                ),
                _ => println!("  {pools:>6} pools, {label}: a list failed"),
            }
            runtime.block_on(cluster.stop());
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

/// Three paced hubs of 3,000 pools: each hub's raw list and `get pools -A` alone, then `get
/// pools -A --all-contexts` as a table and as JSON (wall time beside the slowest single hub's,
/// peak resident memory).
fn hubs(runtime: &tokio::runtime::Runtime, binary: &std::path::Path) {
    const POOLS: usize = 3_000;
    let names = ["hub-a", "hub-b", "hub-c"];
    let mut clusters = Vec::new();
    for _ in names {
        match runtime.block_on(DemoCluster::start(Options {
            scenario: Some(Scenario::large(POOLS)),
            pace: Some(REAL_HUB),
            ..Options::default()
        })) {
            Ok(cluster) => clusters.push(cluster),
            Err(e) => {
                println!("a demo hub did not start: {e}");
                return;
            }
        }
    }
    let dir = std::env::temp_dir().join(format!("pooldeck-hubs-bench-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let kubeconfig = dir.join("kubeconfig");
    let named: Vec<(&str, &DemoCluster)> = names.iter().copied().zip(clusters.iter()).collect();
    if std::fs::write(&kubeconfig, pooldeck::demo::hubs_kubeconfig(&named)).is_err() {
        return;
    }
    let get = |extra: &[&str]| {
        let mut command = Command::new(binary);
        command
            .args(["get", "pools", "-A", "--timeout", "120s", "--kubeconfig"])
            .arg(&kubeconfig)
            .args(extra);
        measured(command)
    };
    println!("three paced hubs of {POOLS} pools each (headless)");
    let mut slowest = Duration::ZERO;
    for (name, cluster) in &named {
        let raw = runtime.block_on(raw_list(cluster));
        match (raw, get(&["--context", name])) {
            (Some((raw, _)), Some((took, peak, _))) => {
                slowest = slowest.max(took);
                println!(
                    "  {name}: raw list {:>7.1} ms · get alone {:>7.1} ms, peak RSS {:>6.1} MB",
                    ms(raw),
                    ms(took),
                    peak as f64 / 1e6
                );
            }
            _ => println!("  {name}: a list failed"),
        }
    }
    for (label, extra) in [
        ("table", &["--all-contexts"][..]),
        ("json ", &["--all-contexts", "-o", "json"][..]),
    ] {
        match get(extra) {
            Some((took, peak, out)) => println!(
                "  all three, {label}: {:>7.1} ms ({:.2}× the slowest hub alone), peak RSS {:>6.1} MB, {:.1} MB out",
                ms(took),
                took.as_secs_f64() / slowest.as_secs_f64().max(f64::EPSILON),
                peak as f64 / 1e6,
                out as f64 / 1e6
            ),
            None => println!("  all three, {label}: the list failed"),
        }
    }
    // The console: each hub alone, then the three at once (the fleet view).
    println!("the console (release binary, tmux 200×50), paced hubs of {POOLS} pools");
    let mut slowest_console = Duration::ZERO;
    let all_rows = format!("Compute Pools ({})", POOLS * names.len());
    for name in names {
        let one = format!("-A --context {name}");
        let title = format!("Compute Pools ({POOLS})");
        match console_with(
            binary,
            &kubeconfig,
            &one,
            &|text: &str| text.contains("pool-0"),
            &|text: &str| {
                text.contains(&title) && text.contains("pools ✓") && text.contains("cpe ✓")
            },
        ) {
            Some(alone) => {
                slowest_console = slowest_console.max(alone.complete);
                println!(
                    "  {name} alone: first rows {:>6.1} ms, complete {:>7.1} ms, RSS {:>6.1} MB, \
                     idle {:.2}% of a core",
                    ms(alone.first_rows),
                    ms(alone.complete),
                    alone.resident as f64 / 1e6,
                    alone.idle_core * 100.0
                );
            }
            None => println!("  {name} alone: the console did not show its pools"),
        }
    }
    let every = format!("✓ {POOLS} pools");
    match console_with(
        binary,
        &kubeconfig,
        "-A --all-contexts",
        &|text: &str| text.contains("pool-0"),
        &|text: &str| {
            text.contains(&all_rows)
                && text
                    .lines()
                    .nth(1)
                    .is_some_and(|l| l.matches(&every).count() == 3)
        },
    ) {
        Some(fleet) => println!(
            "  all three (--all-contexts): first rows {:>6.1} ms, complete {:>7.1} ms \
             ({} the slowest hub alone in the console, {} the slowest get), RSS \
             {:>6.1} MB ({:.1} MB ten idle seconds later), idle {:.2}% of a core, {:.0} \
             bytes/s to the terminal",
            ms(fleet.first_rows),
            ms(fleet.complete),
            ratio(fleet.complete, slowest_console),
            ratio(fleet.complete, slowest),
            fleet.resident as f64 / 1e6,
            fleet.settled as f64 / 1e6,
            fleet.idle_core * 100.0,
            fleet.idle_bytes
        ),
        None => println!("  all three: the console did not show every hub's pools"),
    }
    for cluster in clusters {
        runtime.block_on(cluster.stop());
    }
    let _ = std::fs::remove_dir_all(&dir);
}
