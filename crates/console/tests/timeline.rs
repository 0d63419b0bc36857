//! `pooldeck timeline` on the demo: what it records while the scale-up plays, in order, and
//! what it prints afterwards (JSON's shape, order, `--since`), from the hub and what it kept.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

mod common;

use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;

fn timeline(served: &common::Served, state: &std::path::Path, args: &[&str]) -> Command {
    let mut command = Command::new(assert_cmd::cargo::cargo_bin("pooldeck"));
    command
        .arg("timeline")
        .args(["my-compute-pool", "-n", "my-project-namespace"])
        .args(args)
        .env("KUBECONFIG", &served.kubeconfig)
        .env("XDG_STATE_HOME", state)
        .env("XDG_CONFIG_HOME", state);
    command
}

/// The position of the first entry whose text holds `text` (it must be there).
fn at(texts: &[String], text: &str) -> usize {
    texts
        .iter()
        .position(|t| t.contains(text))
        .unwrap_or_else(|| panic!("no entry with {text:?} in {texts:#?}"))
}

#[test]
fn the_scale_up_played_through_is_told_in_order_and_kept() {
    let served = common::serve_with("scale-up", &["--speed", "4"]);
    let state = tempfile::tempdir().expect("temp dir");
    let mut watching = timeline(&served, state.path(), &["--watch", "-o", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("runs");
    let lines = common::lines_of(watching.stdout.take().expect("stdout"));
    let deadline = std::time::Instant::now() + Duration::from_secs(90);
    let mut seen = Vec::new();
    while !seen.iter().any(|l: &String| l.contains("Cooldown → Idle")) {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        seen.push(
            lines
                .recv_timeout(left)
                .expect("the scale-up plays to Idle"),
        );
    }
    // Ended as Ctrl-C ends it: the end of the watch is noted.
    let killed = Command::new("kill")
        .args(["-TERM", &watching.id().to_string()])
        .status();
    assert!(killed.expect("kill runs").success());
    assert!(watching.wait().expect("ends").success());

    // Read again afterwards: the hub's record and what was kept, on one axis.
    let out = timeline(&served, state.path(), &["-o", "json"])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let document: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(document["kind"], "Timeline");
    assert_eq!(document["pool"]["name"], "my-compute-pool");
    assert!(
        document["hub"]["server"]
            .as_str()
            .is_some_and(|s| s.starts_with("https://127.0.0.1"))
    );
    let entries = document["entries"].as_array().expect("entries");
    for entry in entries {
        for field in ["at", "clock", "source", "subject", "text"] {
            assert!(!entry[field].is_null(), "{field} in {entry}");
        }
        assert!(["hub", "pooldeck"].contains(&entry["clock"].as_str().unwrap_or_default()));
    }
    let times: Vec<&str> = entries.iter().filter_map(|e| e["at"].as_str()).collect();
    let parsed: Vec<chrono::DateTime<chrono::Utc>> =
        times.iter().filter_map(|t| t.parse().ok()).collect();
    assert_eq!(parsed.len(), entries.len());
    assert!(
        parsed.windows(2).all(|w| w[0] <= w[1]),
        "oldest first: {times:?}"
    );
    let texts: Vec<String> = entries
        .iter()
        .map(|e| e["text"].as_str().unwrap_or_default().to_owned())
        .collect();
    // Events are dated to the second: within one, the order between them and what pooldeck
    // saw cannot be told, so it is not asked.
    let order = [
        at(&texts, "decided 8 → 12 GPUs"),
        at(&texts, "ScalingUp"),
        at(&texts, "host host-uid-5 joined (Provisioning)"),
        at(&texts, "host host-uid-5 Provisioning → Healthy"),
        at(&texts, "Scaling → Cooldown"),
        at(&texts, "Cooldown → Idle"),
    ];
    assert!(
        order.windows(2).all(|w| w[0] < w[1]),
        "{order:?} in {texts:#?}"
    );
    assert!(
        texts[at(&texts, "decided 8 → 12 GPUs")].contains("above 85 % for 5m"),
        "the decision says why"
    );
    assert!(at(&texts, "decided 8 → 12 GPUs") < at(&texts, "Idle → Scaling"));
    assert!(
        at(&texts, "ScaledUp") < at(&texts, "Cooldown → Idle"),
        "the events are among them"
    );
    assert!(
        !texts.iter().any(|t| t.contains("ended without saying")),
        "the watch said when it ended: {texts:#?}"
    );
    // The hub keeps only the last transition: such entries say they are derived.
    assert!(
        entries
            .iter()
            .any(|e| e["derived"] == true && e["source"] == "condition")
    );

    // --since keeps the recent part only; the text form has a line per entry.
    let out = timeline(&served, state.path(), &["--since", "1h"])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Cooldown → Idle") && !text.contains(" created"),
        "{text}"
    );
    let out = timeline(&served, state.path(), &["--since", "1h", "-o", "json"])
        .output()
        .expect("runs");
    let recent: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let from = chrono::Utc::now() - chrono::TimeDelta::hours(1) - chrono::TimeDelta::minutes(1);
    let recent = recent["entries"].as_array().expect("entries");
    assert!(!recent.is_empty() && recent.len() < entries.len());
    assert!(recent.iter().all(|e| {
        e["at"]
            .as_str()
            .and_then(|t| t.parse::<chrono::DateTime<chrono::Utc>>().ok())
            .is_some_and(|t| t >= from)
    }));

    // What was kept is private.
    let kept = std::fs::read_dir(state.path().join("pooldeck/timeline"))
        .expect("kept")
        .flatten()
        .next()
        .expect("a hub");
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        kept.metadata().expect("meta").permissions().mode() & 0o777,
        0o700
    );
    for file in std::fs::read_dir(kept.path()).expect("files").flatten() {
        assert_eq!(
            file.metadata().expect("meta").permissions().mode() & 0o777,
            0o600,
            "{:?}",
            file.path()
        );
    }
}

#[test]
fn a_pool_pooldeck_never_saw_is_not_found_and_bad_names_are_refused() {
    let served = common::serve("scale-up");
    let state = tempfile::tempdir().expect("temp dir");
    let mut command = Command::new(assert_cmd::cargo::cargo_bin("pooldeck"));
    let out = command
        .args(["timeline", "no-such-pool", "-n", "my-project-namespace"])
        .env("KUBECONFIG", &served.kubeconfig)
        .env("XDG_STATE_HOME", state.path())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("not found, and pooldeck kept nothing of it")
    );
    let out = Command::new(assert_cmd::cargo::cargo_bin("pooldeck"))
        .args(["timeline", "../../etc", "-n", "my-project-namespace"])
        .env("KUBECONFIG", &served.kubeconfig)
        .env("XDG_STATE_HOME", state.path())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
}

/// `pooldeck` against a served demo with its own state and audit log.
fn pooldeck(
    served: &common::Served,
    state: &std::path::Path,
    args: &[&str],
) -> (Option<i32>, String, String) {
    let output = Command::new(assert_cmd::cargo::cargo_bin("pooldeck"))
        .args(args)
        .arg("--audit-log")
        .arg(state.join("audit.log"))
        .env("KUBECONFIG", &served.kubeconfig)
        .env("XDG_STATE_HOME", state)
        .env("XDG_CONFIG_HOME", state)
        .timeout_or_kill(Duration::from_secs(120));
    common::outcome(output)
}

trait Deadline {
    fn timeout_or_kill(&mut self, limit: Duration) -> std::process::Output;
}

impl Deadline for Command {
    fn timeout_or_kill(&mut self, limit: Duration) -> std::process::Output {
        let child = self
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("runs");
        let id = child.id();
        let (done, wait) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = done.send(child.wait_with_output());
        });
        match wait.recv_timeout(limit) {
            Ok(output) => output.expect("output"),
            Err(_) => {
                let _ = Command::new("kill")
                    .args(["-KILL", &id.to_string()])
                    .status();
                panic!("pooldeck ran past {limit:?}");
            }
        }
    }
}

#[test]
fn an_unblocked_deletion_is_told_after_the_pool_is_gone() {
    // At 60× the demo's ten minutes of AIWorkloads gone pass in ten seconds.
    let served = common::serve_with("deletion-blocked", &["--speed", "60"]);
    let state = tempfile::tempdir().expect("temp dir");
    let mut watching = Command::new(assert_cmd::cargo::cargo_bin("pooldeck"))
        .args(["timeline", "stuck-pool", "-n", "vision-lab", "--watch"])
        .env("KUBECONFIG", &served.kubeconfig)
        .env("XDG_STATE_HOME", state.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("runs");
    let lines = common::lines_of(watching.stdout.take().expect("stdout"));
    // Watching once its first print is out.
    lines
        .recv_timeout(Duration::from_secs(60))
        .expect("the timeline prints");
    let unblock = ["unblock", "stuck-pool", "-n", "vision-lab", "--yes"];
    let (code, out, err) = pooldeck(&served, state.path(), &unblock);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("step 1 done"), "{out}");
    let (code, out, err) = pooldeck(&served, state.path(), &unblock);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("the demo plays 60× faster"), "{out}");
    let pool = "/apis/spectrocloud.com/v1alpha1/namespaces/vision-lab/computepools/stuck-pool";
    common::eventually("the pool gone", || common::raw(&served, pool).is_none());
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while !lines
        .recv_timeout(deadline.saturating_duration_since(std::time::Instant::now()))
        .expect("seen going")
        .contains("gone from the hub")
    {}
    let _ = Command::new("kill")
        .args(["-TERM", &watching.id().to_string()])
        .status();
    assert!(watching.wait().expect("ends").success());

    let (code, out, err) = pooldeck(
        &served,
        state.path(),
        &["timeline", "stuck-pool", "-n", "vision-lab", "-o", "json"],
    );
    assert_eq!(code, Some(0), "{err}");
    let document: Value = serde_json::from_str(&out).expect("JSON");
    let entries = document["entries"].as_array().expect("entries");
    let texts: Vec<String> = entries
        .iter()
        .map(|e| e["text"].as_str().unwrap_or_default().to_owned())
        .collect();
    let order = [
        at(
            &texts,
            "deletion started; held by spectrocloud.com/computepool-finalizer",
        ),
        at(&texts, "ran delete AIWorkload vision-lab/stale-job: done"),
        at(&texts, "AIWorkload vision-lab/stale-job deleted"),
        at(
            &texts,
            "ran remove-finalizer ComputePool vision-lab/stuck-pool: done",
        ),
        at(&texts, "gone from the hub"),
    ];
    assert!(
        order.windows(2).all(|w| w[0] < w[1]),
        "{order:?} in {texts:#?}"
    );
    let action = &entries[order[1]];
    assert_eq!(
        (action["clock"].as_str(), action["source"].as_str()),
        (Some("pooldeck"), Some("action"))
    );
    assert!(
        texts.iter().any(|t| t.contains("DeletionBlocked")),
        "its events kept: {texts:#?}"
    );
    assert!(
        texts
            .iter()
            .any(|t| t.contains("Finalizer spectrocloud.com/computepool-finalizer not removed")),
        "the controller's lines: {texts:#?}"
    );
}

fn console(name: &str, state: &std::path::Path, width: u16, height: u16) -> common::tmux::Session {
    let command = format!(
        "env XDG_STATE_HOME={dir} XDG_CONFIG_HOME={dir} {binary} --demo scale-up --speed 4; sleep 60",
        dir = state.display(),
        binary = assert_cmd::cargo::cargo_bin("pooldeck").display(),
    );
    let session = format!("pooldeck-timeline-{name}-{}", std::process::id());
    common::tmux::Session::start(session, &command, width, height)
}

#[test]
fn the_timeline_tab_shows_filters_turns_and_opens_its_entries() {
    if !common::tmux::available() {
        return;
    }
    for (width, height) in [(80, 24), (160, 48)] {
        let state = tempfile::tempdir().expect("temp dir");
        let console = console(&format!("{width}"), state.path(), width, height);
        console.wait_for("my-compute-pool");
        console.keys(&["Enter"]);
        console.wait_for("Overview");
        console.keys(&["8"]);
        let screen = console.wait("the scale-up seen to Cooldown", |s| {
            s.contains("Scaling → Cooldown")
        });
        assert!(screen.contains("newest first · every source"), "{screen}");
        assert!(screen.contains("decided 8 → 12") || height < 30, "{screen}");
        // Newest first: the first entry is now, Cooldown above the host turning Healthy.
        let lines: Vec<&str> = screen.lines().collect();
        let row = |text: &str| lines.iter().position(|l| l.contains(text));
        assert!(
            row("Scaling → Cooldown") < row("Provisioning → Healthy"),
            "{screen}"
        );
        // Hiding the events and the pool's own changes; oldest first.
        // h and l are the tab's too (not the previous tab, not the controller's log).
        console.keys(&["e", "p", "h", "l", "r"]);
        let screen = console.wait("the sources hidden", |s| {
            s.contains("oldest first · hiding event, pool, host, log")
        });
        assert!(!screen.contains("host-uid-5 joined"), "{screen}");
        assert!(
            !screen.contains("ScalingUp") && !screen.contains("status Running → Updating"),
            "{screen}"
        );
        assert!(
            screen
                .lines()
                .nth(4)
                .is_some_and(|l| l.contains("created") || l.contains("hub")),
            "{screen}"
        );
        // Enter opens the entry at the top: what it is and whose clock.
        console.keys(&["r", "Enter"]);
        console.wait("the entry open", |s| {
            s.contains("dated by pooldeck's clock")
        });
        // The tab's letters are the tab's: p did not ask to pause.
        assert!(!console.screen().contains("Pause reconciliation"));
    }
}

#[test]
fn a_recording_carries_the_timelines_kept_and_its_replay_tells_them() {
    let served = common::serve_with("scale-up", &["--speed", "8"]);
    let state = tempfile::tempdir().expect("temp dir");
    let mut watching = timeline(&served, state.path(), &["--watch"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("runs");
    let lines = common::lines_of(watching.stdout.take().expect("stdout"));
    let deadline = std::time::Instant::now() + Duration::from_secs(90);
    while !lines
        .recv_timeout(deadline.saturating_duration_since(std::time::Instant::now()))
        .expect("the scale-up plays to Idle")
        .contains("Cooldown → Idle")
    {}
    let _ = Command::new("kill")
        .args(["-TERM", &watching.id().to_string()])
        .status();
    assert!(watching.wait().expect("ends").success());
    let recording = state.path().join("hub.yaml");
    let recorded = Command::new(assert_cmd::cargo::cargo_bin("pooldeck"))
        .args(["record", "-A", "--duration", "1s", "-o"])
        .arg(&recording)
        .env("KUBECONFIG", &served.kubeconfig)
        .env("XDG_STATE_HOME", state.path())
        .output()
        .expect("records");
    assert!(
        recorded.status.success(),
        "{}",
        String::from_utf8_lossy(&recorded.stderr)
    );
    let text = std::fs::read_to_string(&recording).expect("the recording");
    assert!(
        text.contains("timeline:") && text.contains("decided 8 → 12"),
        "{text}"
    );

    // Replayed elsewhere, with nothing kept there before: the timeline comes with it.
    let elsewhere = tempfile::tempdir().expect("temp dir");
    let replay = common::serve_with_state(
        &["--replay", &recording.to_string_lossy()],
        elsewhere.path(),
    );
    let out = timeline(&replay, elsewhere.path(), &[])
        .output()
        .expect("runs");
    let told = String::from_utf8_lossy(&out.stdout);
    assert!(
        told.contains("decided 8 → 12 GPUs") && told.contains("host host-uid-5 joined"),
        "{told}"
    );
}

#[test]
fn watching_prints_a_json_line_per_entry_and_ends_when_its_reader_goes() {
    let served = common::serve_with("scale-up", &["--speed", "8"]);
    let state = tempfile::tempdir().expect("temp dir");
    let mut watching = timeline(&served, state.path(), &["--watch", "-o", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("runs");
    let lines = common::lines_of(watching.stdout.take().expect("stdout"));
    for _ in 0..3 {
        let line = lines.recv_timeout(Duration::from_secs(60)).expect("a line");
        let entry: Value = serde_json::from_str(&line).expect("one entry, one JSON line");
        assert!(
            entry["at"].is_string() && entry["text"].is_string(),
            "{line}"
        );
    }
    // The reader goes (as `| head -3` does): the next entry ends the watch.
    drop(lines);
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while watching.try_wait().expect("waits").is_none() {
        assert!(
            std::time::Instant::now() < deadline,
            "the watch outlived its reader"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}
