//! Benchmark: the fleet at a real hub's pace, headless. At 2,000 and 10,000 pools with their
//! evaluations (ten hosts each), on the demo cluster paced as a 2-core hub (`demo::pace`) and
//! unpaced, each serving watch-lists (a server with the WatchList feature) and refusing them (lists in pages;
//! `-- streamed` or `-- pages` runs one): the server's own watch-list (first object, all of
//! them) beside its compact unpaged list; the console's data path (the watchers into an inventory: time to the first rows,
//! to the complete picture beside the server's own time for both lists, memory the picture
//! took), the raw list time of the same server, and `pooldeck get pools -A -o json` (the
//! release binary, a child process) with its wall time and peak resident memory beside it;
//! on the paced cluster also the console itself (the release binary in a tmux pane): first
//! rows on screen, the complete list, its resident memory (when quiet, with the heap and
//! stacks of it apart from the executable's pages, and ten idle seconds later, once the
//! allocator has given back what it freed), and idle CPU and terminal bytes
//! over ten seconds; then each view in turn (evaluations, events, hosts, back to pools): the
//! first rows after its command's Enter, resident memory and the peak so far, idle CPU and
//! bytes over five seconds.
//! Run with `cargo bench --bench fleet` (it builds the release binary first; `-- 10000 paced`
//! runs one size and pace). `-- hubs` measures several hubs instead: three paced hubs of
//! 3,000 pools: the three hubs' lists of pools and evaluations at once (the slowest hub's
//! list time while all three list, as they do for the fleet view), each hub's own list and
//! `get` beside `get --all-contexts` (table and JSON) with its peak memory, then the console
//! on each hub alone beside the console on all three (the fleet view: first rows, complete
//! picture, memory, idle cost). `-- events` measures
//! the events view: 10,000 paced pools with 100,000 events. `POOLDECK_BENCH_BINARY=PATH`
//! measures another build's binary where the release binary is measured. Figures only.

#![allow(clippy::too_many_lines)]
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
        &pooldeck::sources::ways::Ways::default(),
        &[Kind::Pool, Kind::Evaluation],
        &pooldeck::sources::watch::Namespaces::All,
        pooldeck::sources::watch::Tag::default(),
        // As the console's sources: each pool's own rules worked out as it is read.
        pooldeck::sources::watch::Marks::Ahead,
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
    /// Of `resident`, what is not a mapped file (heap and stacks): what the console holds.
    /// The rest is mostly the executable's pages, which a fresh copy of the same bytes holds
    /// more of (how the page cache keeps a newly written file): compare binaries on this.
    anonymous: u64,
    idle_core: f64,
    idle_bytes: f64,
    /// Each view switched to after that, in turn (`None`: it did not show).
    views: Vec<(&'static str, Option<ViewFigures>)>,
}

/// Each view's figures, a line each.
fn print_views(pools: usize, label: &str, c: &Console) {
    for (name, view) in &c.views {
        let Some(view) = view else {
            println!("  {pools:>6} pools, {label}   :{name:<12} did not show");
            continue;
        };
        println!(
            "  {pools:>6} pools, {label}   :{:<12} first rows {:>7.1} ms after Enter (every row counted {:>7.1} ms), RSS {:>6.1} MB (peak so far {:>6.1} MB); idle {:.2} % of a core, {:.0} bytes/s",
            view.name,
            ms(view.first_rows),
            ms(view.made),
            view.resident as f64 / 1e6,
            view.peak as f64 / 1e6,
            view.idle_core * 100.0,
            view.idle_bytes
        );
    }
}

/// One view of the console, switched to on the command line once the picture is complete.
struct ViewFigures {
    name: &'static str,
    /// From the command's Enter to the view's title with its count on screen (a large view
    /// shows its first turn's rows, then the rest).
    first_rows: Duration,
    /// From the Enter to the title's count last changing: every row made.
    made: Duration,
    /// Resident memory once the switch's work is done, and the process's peak so far.
    resident: u64,
    peak: u64,
    /// Over five idle seconds in the view.
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
    status_bytes(pid, "VmRSS:")
}

/// The resident memory of a running process that is not a mapped file, in bytes.
fn anonymous_of(pid: u32) -> Option<u64> {
    status_bytes(pid, "RssAnon:")
}

/// A figure in kB of a running process's status, in bytes.
fn status_bytes(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
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
/// and the bytes it wrote to the terminal per second; then each of `views` in turn.
fn console(
    binary: &std::path::Path,
    kubeconfig: &std::path::Path,
    pools: usize,
    views: &[(&'static str, &'static str)],
) -> Option<Console> {
    let title = format!("Compute Pools ({pools})");
    console_with(
        binary,
        kubeconfig,
        "-A",
        &|text: &str| text.contains("pool-0"),
        &|text: &str| text.contains(&title) && text.contains("pools ✓") && text.contains("cpe ✓"),
        views,
    )
}

/// Waits until the process has done its work: half a second with under 5 ms of CPU, for at
/// most 30 s.
/// When the view's title last changed its count after `since`: a large view shows its first
/// rows, then the count grows as the rest are made. Read every 5 ms until the count has not
/// changed for a second.
fn counted(session: &str, title: &str, since: Instant) -> Option<Duration> {
    let count = || -> Option<String> {
        let text = tmux(&["capture-pane", "-p", "-t", session])?;
        let line = text.lines().take(4).find(|l| l.contains(title))?;
        let from = line.find(title)?;
        let to = line[from..].find(')').map_or(line.len(), |i| from + i);
        Some(line[from..to].to_owned())
    };
    let mut shown = count();
    let mut changed = since.elapsed();
    let mut still = Instant::now();
    while still.elapsed() < Duration::from_secs(1) {
        std::thread::sleep(Duration::from_millis(5));
        let now = count();
        if now != shown {
            shown = now;
            changed = since.elapsed();
            still = Instant::now();
        }
    }
    Some(changed)
}

fn quiet(pid: u32) -> Option<()> {
    let quiet_by = Instant::now() + Duration::from_secs(30);
    while Instant::now() < quiet_by {
        let before = cpu_time(pid)?;
        std::thread::sleep(Duration::from_millis(500));
        if cpu_time(pid)? - before < Duration::from_millis(5) {
            break;
        }
    }
    Some(())
}

/// The share of one core the process used and the bytes per second written to `output` over
/// `seconds` idle seconds.
fn idle(pid: u32, output: &std::path::Path, seconds: u64) -> Option<(f64, f64)> {
    let written = |path: &std::path::Path| std::fs::metadata(path).map_or(0, |m| m.len());
    let (cpu, bytes) = (cpu_time(pid)?, written(output));
    std::thread::sleep(Duration::from_secs(seconds));
    let (cpu_after, bytes_after) = (cpu_time(pid)?, written(output));
    let seconds = seconds as f64;
    Some((
        (cpu_after - cpu).as_secs_f64() / seconds,
        bytes_after.saturating_sub(bytes) as f64 / seconds,
    ))
}

/// The console with `args`, measured as [`console`] says: `first` tells the first rows on
/// screen, `complete` the complete picture.
fn console_with(
    binary: &std::path::Path,
    kubeconfig: &std::path::Path,
    args: &str,
    first: &dyn Fn(&str) -> bool,
    complete: &dyn Fn(&str) -> bool,
    views: &[(&'static str, &'static str)],
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
        // Until the work of the complete picture (the doctor's first pass) is done.
        quiet(pid)?;
        let resident = resident_of(pid)?;
        let anonymous = anonymous_of(pid)?;
        let (idle_core, idle_bytes) = idle(pid, &output, 10)?;
        let settled = resident_of(pid)?;
        let mut figures = Vec::new();
        for (name, title) in views {
            // A view that does not show is said as such; the figures before it stand.
            let view = (|| {
                let switched = Instant::now();
                tmux(&["send-keys", "-t", &session, ":", name, "Enter"])?;
                until(&session, Duration::from_millis(5), |text| {
                    text.lines().take(4).any(|l| l.contains(title))
                })?;
                let first_rows = switched.elapsed();
                let made = counted(&session, title, switched)?;
                quiet(pid)?;
                let (resident, peak) = (resident_of(pid)?, common::high_water(pid)?);
                let (idle_core, idle_bytes) = idle(pid, &output, 5)?;
                Some(ViewFigures {
                    name,
                    first_rows,
                    made,
                    resident,
                    peak,
                    idle_core,
                    idle_bytes,
                })
            })();
            figures.push((*name, view));
        }
        Some(Console {
            first_rows,
            complete,
            resident,
            settled,
            anonymous,
            idle_core,
            idle_bytes,
            views: figures,
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

/// Unpaged GETs of every hub's pools and evaluations at once: the time until the slowest hub
/// has both lists, best of two tries. The bench's hubs share its two cores with each other (a
/// fleet's hubs are machines of their own), so a hub listed alone is faster here than any
/// hub can be while all of them list. A lower bound on the slowest hub's list time while the
/// fleet view lists: the console also lists the other kinds, in its own process on the same
/// cores.
async fn raw_lists_at_once(clusters: &[&DemoCluster]) -> Option<Duration> {
    let mut clients = Vec::new();
    for cluster in clusters {
        clients.push(client_of(cluster).await?);
    }
    let mut best = Duration::MAX;
    for _ in 0..2 {
        let start = Instant::now();
        let hubs = clients.iter().map(|client| async move {
            let list = |path: &'static str| async move {
                let request = http::Request::get(path).body(Vec::new()).ok()?;
                client.request_text(request).await.ok()
            };
            let (pools, evaluations) = tokio::join!(
                list("/apis/spectrocloud.com/v1alpha1/computepools"),
                list("/apis/spectrocloud.com/v1alpha1/computepoolevaluations")
            );
            pools.and(evaluations).map(|_| start.elapsed())
        });
        let took: Option<Vec<Duration>> =
            futures::future::join_all(hubs).await.into_iter().collect();
        best = best.min(took?.into_iter().max()?);
    }
    Some(best)
}

/// Change-to-frame latency of the console itself: the release binary under a pty (`script`,
/// 200×50, all namespaces), while 500 changes a second reach the hub: nine in ten to pools off
/// screen, one in ten to the pool on the first row (each waited for before the next). Each of
/// those is timed from the write on the hub to the first bytes the console writes to that row
/// of the terminal (ratatui moves the cursor there first: `ESC [5;`, then writes the new
/// count). p50, p99, worst and how many were measured, and missed (no frame within a second:
/// counted in the figures as a second).
struct Frames {
    p50: Duration,
    p99: Duration,
    worst: Duration,
    measured: usize,
    missed: usize,
}

/// What the console under a pty has written, and when each piece arrived.
#[derive(Default)]
struct Written {
    bytes: Vec<u8>,
    /// The end offset of each read and when it was read.
    reads: Vec<(usize, Instant)>,
}

impl Written {
    /// Where `needle` ends, first found at or after `from`.
    fn end_of(&self, needle: &[u8], from: usize) -> Option<usize> {
        Some(
            self.bytes
                .get(from..)?
                .windows(needle.len())
                .position(|w| w == needle)?
                + from
                + needle.len(),
        )
    }

    /// When the read that completed `needle`, first found at or after `from`, arrived.
    fn find(&self, needle: &[u8], from: usize) -> Option<Instant> {
        let at = self.end_of(needle, from)?;
        self.reads
            .iter()
            .find(|(end, _)| *end >= at)
            .map(|(_, when)| *when)
    }

    /// The same for `value` written after a move of the cursor to `anchor` (a row).
    fn find_after(&self, anchor: &[u8], value: &[u8], from: usize) -> Option<Instant> {
        self.find(value, self.end_of(anchor, from)?)
    }
}

/// A thread making changes until dropped (then stopped and joined, whatever ended the
/// measurement).
struct Load {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Load {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn frames(
    binary: &std::path::Path,
    kubeconfig: &std::path::Path,
    cluster: &DemoCluster,
    pools: usize,
) -> Option<Frames> {
    use std::sync::{Arc, Mutex};
    let pool_kind = cluster.store.registry.by_kind("ComputePool")?.clone();
    let command = format!(
        "stty cols 200 rows 50 && exec {} -A --kubeconfig {}",
        binary.display(),
        kubeconfig.display()
    );
    let mut child = Command::new("script")
        .args(["-q", "-f", "-e", "-c", &command, "/dev/null"])
        .env("TERM", "xterm-256color")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let written = Arc::new(Mutex::new(Written::default()));
    let mut stdout = child.stdout.take()?;
    let reader = {
        let written = written.clone();
        std::thread::spawn(move || {
            let mut buffer = vec![0u8; 1 << 16];
            while let Ok(n) = std::io::Read::read(&mut stdout, &mut buffer) {
                if n == 0 {
                    break;
                }
                let now = Instant::now();
                let Ok(mut w) = written.lock() else { break };
                w.bytes.extend_from_slice(&buffer[..n]);
                let end = w.bytes.len();
                w.reads.push((end, now));
            }
        })
    };
    let lock = || written.lock().ok();
    let measured = (|| {
        // The first rows on screen, then the console quiet (the rest listed and its doctor's
        // first pass done): the title's count is written as a diff of its digits, so it is not
        // read from the stream.
        let deadline = Instant::now() + Duration::from_secs(120);
        while lock()?.find(b"pool-00000", 0).is_none() {
            if Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let pid: u32 = String::from_utf8(
            Command::new("pgrep")
                .args(["-P", &child.id().to_string()])
                .output()
                .ok()?
                .stdout,
        )
        .ok()?
        .trim()
        .parse()
        .ok()?;
        quiet(pid)?;
        quiet(pid)?;
        // The load: 450 changes a second to pools of project-2 and project-3 (off screen:
        // the screen shows the first rows of project-1).
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let others = pools.saturating_sub(2) / 3;
        let _load = Load {
            stop: stop.clone(),
            thread: Some({
                let store = cluster.store.clone();
                let kind = pool_kind.clone();
                std::thread::spawn(move || {
                    let start = Instant::now();
                    let mut n: u64 = 0;
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) && others > 0 {
                        // Pool 3m+1 (project-2) or 3m+2 (project-3).
                        let m = (n as usize / 2) % others;
                        let i = 3 * m + 1 + (n as usize % 2);
                        let (ns, name) = (format!("project-{}", i % 3 + 1), format!("pool-{i:05}"));
                        let _ = store.patch(
                            &kind,
                            &ns,
                            &name,
                            &pooldeck::demo::store::Patch::Merge(serde_json::json!(
                                {"status": {"hardwareAllocation": [{"architecture": "AMD64",
                                  "gpu": [{"variant": "NVIDIA L40S | 48 GB", "gpuCount": n % 40}]}]}}
                            )),
                            true,
                            false,
                        );
                        n += 1;
                        let due = start + Duration::from_micros(n * 1_000_000 / 450);
                        if let Some(wait) = due.checked_duration_since(Instant::now()) {
                            std::thread::sleep(wait);
                        }
                    }
                })
            }),
        };
        // 50 a second to the first row's pool (project-1/pool-00000), each timed.
        let mut latencies = Vec::new();
        let mut missed = 0;
        let start = Instant::now();
        for k in 0..500u64 {
            let due = start + Duration::from_millis(k * 20);
            if let Some(wait) = due.checked_duration_since(Instant::now()) {
                std::thread::sleep(wait);
            }
            let from = lock()?.bytes.len();
            let changed = Instant::now();
            cluster
                .store
                .patch(
                    &pool_kind,
                    "project-1",
                    "pool-00000",
                    &pooldeck::demo::store::Patch::Merge(serde_json::json!(
                        {"status": {"hardwareAllocation": [{"architecture": "AMD64",
                          "gpu": [{"variant": "NVIDIA A100-SXM4-80GB | 80 GB",
                                   "gpuCount": if k % 2 == 0 { 35 } else { 5 }}]}]}}
                    )),
                    true,
                    false,
                )
                .ok()?;
            // Its frame: the cursor moved to the first row (`ESC [5;`), then the new count.
            let value: &[u8] = if k % 2 == 0 { b"35/40" } else { b"5/40" };
            let given_up = changed + Duration::from_secs(1);
            loop {
                if let Some(when) = lock()?.find_after(b"\x1b[5;", value, from) {
                    latencies.push(when.saturating_duration_since(changed));
                    break;
                }
                if Instant::now() > given_up {
                    // Counted in the figures as a second.
                    missed += 1;
                    latencies.push(Duration::from_secs(1));
                    break;
                }
                std::thread::sleep(Duration::from_micros(200));
            }
        }
        latencies.sort();
        let at =
            |q: f64| latencies[((latencies.len() as f64 * q) as usize).min(latencies.len() - 1)];
        (!latencies.is_empty()).then(|| Frames {
            p50: at(0.50),
            p99: at(0.99),
            worst: latencies[latencies.len() - 1],
            measured: latencies.len() - missed,
            missed,
        })
    })();
    let _ = child.kill();
    let _ = child.wait();
    let _ = reader.join();
    measured
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
        best = Some(best.map_or(took, |b: (Duration, Duration)| {
            (b.0.min(took.0), b.1.min(took.1))
        }));
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
    let Some(binary) = common::binary() else {
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
    if asked.iter().any(|a| a == "events") {
        events(&runtime, &binary);
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
    // A server with watch-lists and one without (the lists in pages); `-- streamed`
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
                // Each view in turn once the picture is complete: hosts after the small
                // views (its memory would still be counted in theirs), then back to pools.
                let views = [
                    ("evaluations", "Evaluations ("),
                    ("events", "Events ("),
                    ("hosts", "Hosts ("),
                    ("pools", "Compute Pools ("),
                ];
                match console(&binary, &kubeconfig, pools, &views) {
                    Some(c) => {
                        println!(
                            "  {pools:>6} pools, {label:<20} the console in a 200x50 tmux pane: first rows on screen {:>7.1} ms, complete list {:>7.1} ms ({} the server's {:.1} ms for both lists), RSS {:.1} MB when quiet ({:.1} MB of it heap and stacks), {:.1} MB ten idle seconds later; idle: {:.2} % of a core, {:.0} bytes written per second",
                            ms(c.first_rows),
                            ms(c.complete),
                            raw.zip(evaluations).map_or(
                                "n/a ×".to_owned(),
                                |((raw, _), evaluations)| ratio(c.complete, raw + evaluations)
                            ),
                            raw.zip(evaluations)
                                .map_or(0.0, |((raw, _), evaluations)| ms(raw + evaluations)),
                            c.resident as f64 / 1e6,
                            c.anonymous as f64 / 1e6,
                            c.settled as f64 / 1e6,
                            c.idle_core * 100.0,
                            c.idle_bytes
                        );
                        print_views(pools, &format!("{label:<20}"), &c);
                    }
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
            let got = common::measured(get);
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
            // Last: its changes leave the hub's pools changed for whatever followed.
            if pace.is_some() && watch_list {
                match frames(&binary, &kubeconfig, &cluster, pools) {
                    Some(f) => println!(
                        "  {pools:>6} pools, {label:<20} change → frame under a pty at 500 changes/s: p50 {:.1} ms, p99 {:.1} ms, worst {:.1} ms ({} changes on screen measured, {} without a frame within 1 s)",
                        ms(f.p50),
                        ms(f.p99),
                        ms(f.worst),
                        f.measured,
                        f.missed
                    ),
                    None => println!(
                        "  {pools:>6} pools, {label}: change → frame could not be measured (script missing, or the list did not show)"
                    ),
                }
            }
            runtime.block_on(cluster.stop());
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

/// The events view at fleet scale: 10,000 paced pools (100,000 hosts) with 100,000 events,
/// watch-lists served; the console's first rows and complete picture, then the events view
/// (its first rows once all 100,000 are counted), the hosts view and back to pools, each with
/// resident memory, the peak so far and the idle cost.
fn events(runtime: &tokio::runtime::Runtime, binary: &std::path::Path) {
    const POOLS: usize = 10_000;
    const EVENTS: usize = 100_000;
    let cluster = runtime.block_on(DemoCluster::start(Options {
        scenario: Some(Scenario::large_with_events(POOLS, EVENTS)),
        pace: Some(REAL_HUB),
        ..Options::default()
    }));
    let Ok(cluster) = cluster else {
        println!("the demo cluster did not start");
        return;
    };
    let dir = std::env::temp_dir().join(format!("pooldeck-events-bench-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let kubeconfig = dir.join("kubeconfig");
    if cluster.write_kubeconfig(&kubeconfig).is_ok() {
        let views = [
            ("events", "Events ("),
            ("hosts", "Hosts ("),
            ("pools", "Compute Pools ("),
        ];
        let label = "paced, watch-lists, 100,000 events";
        match console(binary, &kubeconfig, POOLS, &views) {
            Some(c) => {
                println!(
                    "  {POOLS:>6} pools, {label}: the console in a 200x50 tmux pane: first rows {:>7.1} ms, complete list {:>7.1} ms, RSS {:.1} MB when quiet ({:.1} MB of it heap and stacks); idle {:.2} % of a core, {:.0} bytes/s",
                    ms(c.first_rows),
                    ms(c.complete),
                    c.resident as f64 / 1e6,
                    c.anonymous as f64 / 1e6,
                    c.idle_core * 100.0,
                    c.idle_bytes
                );
                print_views(POOLS, &format!("{label}:"), &c);
            }
            None => println!(
                "  {POOLS:>6} pools, {label}: the console could not be measured (tmux missing, or the list did not show)"
            ),
        }
    }
    runtime.block_on(cluster.stop());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Three paced hubs of 3,000 pools: the three hubs' lists at once ([`raw_lists_at_once`]),
/// each hub's raw list and `get pools -A` alone, then `get pools -A --all-contexts` as a
/// table and as JSON (wall time beside the slowest single hub's, peak resident memory), then
/// the console on each hub alone and on all three.
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
        common::measured(command)
    };
    println!("three paced hubs of {POOLS} pools each (headless)");
    let all: Vec<&DemoCluster> = clusters.iter().collect();
    let at_once = runtime.block_on(raw_lists_at_once(&all));
    match at_once {
        Some(took) => println!(
            "  the three hubs' lists of pools and evaluations at once: the slowest hub has both in {:>7.1} ms",
            ms(took)
        ),
        None => println!("  the three hubs' lists at once: a list failed"),
    }
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
            &[],
        ) {
            Some(alone) => {
                slowest_console = slowest_console.max(alone.complete);
                println!(
                    "  {name} alone: first rows {:>6.1} ms, complete {:>7.1} ms, RSS {:>6.1} MB \
                     ({:.1} MB heap and stacks), idle {:.2}% of a core",
                    ms(alone.first_rows),
                    ms(alone.complete),
                    alone.resident as f64 / 1e6,
                    alone.anonymous as f64 / 1e6,
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
        &[],
    ) {
        Some(fleet) => println!(
            "  all three (--all-contexts): first rows {:>6.1} ms, complete {:>7.1} ms \
             ({} the slowest hub alone in the console, {} the slowest get, {} the \
             slowest hub's lists while all three list), RSS \
             {:>6.1} MB ({:.1} MB heap and stacks; {:.1} MB ten idle seconds later), idle {:.2}% of a core, {:.0} \
             bytes/s to the terminal",
            ms(fleet.first_rows),
            ms(fleet.complete),
            ratio(fleet.complete, slowest_console),
            ratio(fleet.complete, slowest),
            ratio(fleet.complete, at_once.unwrap_or_default()),
            fleet.resident as f64 / 1e6,
            fleet.anonymous as f64 / 1e6,
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
