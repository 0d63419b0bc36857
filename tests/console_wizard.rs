//! The wizard as a person uses it: the real binary in tmux on `--demo`, driven with keys and
//! read from the screen. A two-worker-pool GPU pool is written from an empty wizard (an
//! inline error appears as a VIP is mistyped and goes when it is fixed), dry-run, applied
//! through the demo's admission, and appears in the list; an edit finds the VIP locked and
//! applies unchanged. Each wait has its own deadline.

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

fn tmux(args: &[&str]) -> String {
    Command::new("tmux")
        .args(args)
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default()
}

struct Pane {
    session: String,
    /// Where the console keeps its drafts; handed on to the next console of a test.
    state: Option<tempfile::TempDir>,
}

impl Drop for Pane {
    fn drop(&mut self) {
        tmux(&["kill-session", "-t", &self.session]);
    }
}

impl Pane {
    fn demo(name: &str) -> Option<Pane> {
        if Command::new("tmux").arg("-V").output().is_err() {
            common::skip("tmux is not installed");
            return None;
        }
        Some(Pane::demo_in(name, tempfile::tempdir().expect("temp dir")))
    }

    /// The console on `--demo` with its state (drafts) in `state`.
    fn demo_in(name: &str, state: tempfile::TempDir) -> Pane {
        let session = format!("pooldeck-wizard-{name}-{}", std::process::id());
        let command = format!(
            "env XDG_STATE_HOME={} {} --demo fleet; sleep 60",
            state.path().display(),
            assert_cmd::cargo::cargo_bin("pooldeck").display()
        );
        let started = Command::new("tmux")
            .args([
                "new-session",
                "-d",
                "-s",
                &session,
                "-x",
                "150",
                "-y",
                "50",
                &command,
            ])
            .env("TERM", "xterm-256color")
            .status()
            .expect("tmux runs");
        assert!(started.success());
        Pane {
            session,
            state: Some(state),
        }
    }

    /// The console's process under the pane.
    fn console_pid(&self) -> String {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let shell = tmux(&["list-panes", "-t", &self.session, "-F", "#{pane_pid}"]);
            let output = Command::new("pgrep")
                .args(["-P", shell.trim(), "pooldeck"])
                .output()
                .expect("pgrep runs");
            let pid = String::from_utf8_lossy(&output.stdout).trim().to_owned();
            if !pid.is_empty() {
                return pid;
            }
            assert!(Instant::now() < deadline, "no console under the pane");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn screen(&self) -> String {
        tmux(&["capture-pane", "-p", "-t", &self.session])
    }

    fn keys(&self, keys: &[&str]) {
        for key in keys {
            tmux(&["send-keys", "-t", &self.session, key]);
            std::thread::sleep(Duration::from_millis(40));
        }
    }

    /// Enter, the text, Enter: a field typed and kept.
    fn enter(&self, text: &str) {
        self.keys(&["Enter"]);
        tmux(&["send-keys", "-t", &self.session, "-l", text]);
        self.keys(&["Enter"]);
    }

    fn wait(&self, what: &str, test: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let screen = self.screen();
            if test(&screen) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "waited for {what}; the screen shows:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(150));
        }
    }

    fn wait_for(&self, text: &str) -> String {
        self.wait(text, |s| s.contains(text))
    }
}

#[test]
fn a_two_worker_pool_gpu_pool_is_written_dry_run_and_applied() {
    let Some(pane) = Pane::demo("create") else {
        return;
    };
    pane.wait_for("Compute Pools (12)");
    pane.keys(&["n"]);
    pane.wait_for("New Compute Pool");
    pane.enter("gpu-pool-two");
    pane.wait_for("gpu-pool-two");
    pane.keys(&["Tab", "Tab"]);
    pane.wait_for("› Profile Bundle");
    pane.enter("edge-profilebundle");
    pane.keys(&["Tab"]);
    pane.wait_for("› Node Config");
    // Control plane: nodes, eligible, architecture, CPU count, memory.
    pane.keys(&["j", "j", "j"]);
    pane.enter("4");
    pane.keys(&["j"]);
    pane.enter("16 GB");
    for pool in 1..=2 {
        pane.keys(&["a"]);
        pane.wait_for(&format!("worker-pool-{pool}"));
        // Name, architecture, then CPU count.
        pane.keys(&["j", "j", "j"]);
        pane.enter("32");
        pane.keys(&["j"]);
        pane.enter("256 GB");
        pane.keys(&["j", "j"]);
        pane.enter("NVIDIA A100-SXM4-80GB | 80 GB");
        pane.keys(&["j"]);
        pane.enter("4");
        pane.keys(&["j"]);
        pane.enter("320 GB");
        pane.wait_for("320 GB");
    }
    pane.keys(&["Tab"]);
    pane.wait_for("› Deployment");
    // Deletion policy, settings, SSH keys, VIP.
    pane.keys(&["j"]);
    pane.enter("palette-settings");
    pane.keys(&["j", "j"]);
    pane.enter("10.40.0");
    pane.wait("the VIP's error", |s| {
        s.lines()
            .any(|l| l.contains("error:") && l.contains("10.40.0"))
    });
    pane.keys(&["Enter"]);
    tmux(&["send-keys", "-t", &pane.session, "-l", ".10"]);
    pane.keys(&["Enter"]);
    pane.wait("the error gone", |s| {
        s.contains("10.40.0.10") && !s.lines().any(|l| l.contains("error:"))
    });
    pane.keys(&["Tab", "Tab"]);
    let review = pane.wait_for("› Review");
    assert!(review.contains("0 error(s)"), "{review}");
    pane.keys(&["d"]);
    pane.wait_for("Dry run: dry run: the server accepts this");
    pane.keys(&["Enter"]);
    pane.wait_for("Create Compute Pool gpu-pool-two");
    pane.wait_for("Dry run passed");
    pane.keys(&["Tab", "Enter"]);
    let list = pane.wait_for("Compute Pools (13)");
    assert!(list.contains("gpu-pool-two"), "{list}");
}

#[test]
fn an_edit_finds_the_vip_locked_and_applies_unchanged() {
    let Some(pane) = Pane::demo("edit") else {
        return;
    };
    pane.wait_for("Compute Pools (12)");
    pane.keys(&["/"]);
    tmux(&["send-keys", "-t", &pane.session, "-l", "recsys"]);
    pane.keys(&["Enter"]);
    pane.wait_for("Compute Pools (1");
    pane.keys(&["e"]);
    pane.wait_for("Edit Compute Pool retail-edge/recsys");
    pane.keys(&["Tab", "Tab", "Tab", "Tab"]);
    pane.wait_for("› Deployment");
    pane.keys(&["j", "j", "j"]);
    pane.wait_for("(locked)");
    pane.keys(&["Enter"]);
    pane.wait_for("the VIP is immutable after creation");
    pane.keys(&["Tab", "Tab"]);
    pane.wait_for("› Review");
    pane.keys(&["Enter"]);
    pane.wait_for("Update Compute Pool recsys");
    pane.wait_for("Dry run passed");
    pane.keys(&["Tab", "Enter"]);
    pane.wait_for("recsys: replaced");
}

#[test]
fn a_hangup_mid_edit_loses_nothing_the_next_n_resumes_the_draft() {
    let Some(pane) = Pane::demo("hangup") else {
        return;
    };
    pane.wait_for("Compute Pools (12)");
    pane.keys(&["n"]);
    pane.wait_for("New Compute Pool");
    pane.enter("kept-pool");
    pane.keys(&["Tab", "Tab"]);
    pane.enter("edge-profilebundle");
    pane.keys(&["Tab", "Tab"]);
    pane.wait_for("› Deployment");
    pane.keys(&["j", "j", "j"]);
    pane.enter("10.41.0.7");
    pane.wait_for("10.41.0.7");
    // The SSH session drops.
    let pid = pane.console_pid();
    let sent = Command::new("kill")
        .args(["-HUP", &pid])
        .status()
        .expect("kill");
    assert!(sent.success());
    let deadline = Instant::now() + Duration::from_secs(15);
    while Command::new("kill")
        .args(["-0", &pid])
        .status()
        .is_ok_and(|s| s.success())
    {
        assert!(
            Instant::now() < deadline,
            "the console did not end on SIGHUP"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let mut pane = pane;
    let state = pane.state.take().expect("the state directory");
    drop(pane);
    // A new console with the same state: n resumes the draft, every field intact.
    let again = Pane::demo_in("hangup-again", state);
    again.wait_for("Compute Pools (12)");
    again.keys(&["n"]);
    again.wait_for("resumed the draft of");
    again.wait_for("kept-pool");
    again.keys(&["Tab", "Tab"]);
    again.wait_for("edge-profilebundle");
    again.keys(&["Tab", "Tab"]);
    again.wait_for("10.41.0.7");
}

/// Every example manifest loaded with `pooldeck new --from` and written unchanged with `w`
/// comes out as the same objects (unknown fields and all), without a cluster.
#[test]
fn every_example_round_trips_through_pooldeck_new() {
    if Command::new("tmux").arg("-V").output().is_err() {
        common::skip("tmux is not installed");
        return;
    }
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("demo/manifests");
    let mut files: Vec<_> = std::fs::read_dir(&examples)
        .expect("the examples")
        .map(|e| e.expect("an entry").path())
        .collect();
    files.sort();
    assert!(files.len() >= 6);
    let objects = |path: &std::path::Path| -> Vec<serde_json::Value> {
        let text = std::fs::read_to_string(path).expect("text");
        pooldeck::manifest::parse(&text)
            .expect("parses")
            .iter()
            .map(|d| d.root.to_json())
            .filter(|o| o["kind"] == "ComputePool" || o["kind"] == "ScalingPolicy")
            .collect()
    };
    for (i, file) in files.iter().enumerate() {
        let state = tempfile::tempdir().expect("temp dir");
        let output = state.path().join("out.yaml");
        let session = format!("pooldeck-wizard-roundtrip-{i}-{}", std::process::id());
        let command = format!(
            "env KUBECONFIG=/nonexistent XDG_STATE_HOME={} {} new --from {} -o {}; echo EXIT=$?; sleep 60",
            state.path().display(),
            assert_cmd::cargo::cargo_bin("pooldeck").display(),
            file.display(),
            output.display()
        );
        let started = Command::new("tmux")
            .args([
                "new-session",
                "-d",
                "-s",
                &session,
                "-x",
                "150",
                "-y",
                "50",
                &command,
            ])
            .env("TERM", "xterm-256color")
            .status()
            .expect("tmux runs");
        assert!(started.success());
        let pane = Pane {
            session,
            state: Some(state),
        };
        pane.wait_for("New Compute Pool");
        pane.keys(&["Tab", "Tab", "Tab", "Tab", "Tab", "Tab"]);
        pane.wait_for("› Review");
        pane.keys(&["w"]);
        pane.wait_for("the manifest is written to");
        pane.keys(&["Escape"]);
        pane.wait_for("EXIT=0");
        let original = objects(file);
        let written = objects(&output);
        // The first pool and the first policy: what the wizard holds.
        assert_eq!(written.first(), original.first(), "{}", file.display());
        let policy = |list: &[serde_json::Value]| {
            list.iter().find(|o| o["kind"] == "ScalingPolicy").cloned()
        };
        assert_eq!(policy(&written), policy(&original), "{}", file.display());
    }
}
