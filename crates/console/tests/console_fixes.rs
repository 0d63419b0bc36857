//! The console's fixes as a person uses them: the real binary in tmux on `pooldeck demo
//! serve` (so kubectl and the test see the same cluster), driven with keys and read from the
//! screen. Pause and resume one pool, pause three marked pools in one confirmation, delete
//! with the name typed (and a delete refused because the pool changed meanwhile), unblock a
//! stuck deletion, RBAC gating for the operator and viewer contexts with no write ever
//! refused, read-only mode with no write at all, the audit log, and `c` copying through OSC 52
//! into tmux's buffer. Each wait has its own deadline.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::Served;

use common::tmux::{Session, tmux};

fn have_tools() -> bool {
    for tool in ["tmux", "kubectl"] {
        if Command::new(tool)
            .arg("version")
            .arg("--client")
            .output()
            .is_err()
            && Command::new(tool).arg("-V").output().is_err()
        {
            common::skip(&format!("{tool} is not installed"));
            return false;
        }
    }
    true
}

/// The console in a tmux session (killed when dropped), with its settings directory and
/// audit log.
struct Console {
    tmux: Session,
    _config: tempfile::TempDir,
    audit: std::path::PathBuf,
}

impl std::ops::Deref for Console {
    type Target = Session;
    fn deref(&self) -> &Session {
        &self.tmux
    }
}

impl Console {
    fn start(served: &Served, name: &str, args: &str, settings: Option<&str>) -> Console {
        let config = tempfile::tempdir().expect("temp dir");
        if let Some(settings) = settings {
            std::fs::create_dir_all(config.path().join("pooldeck")).expect("dir");
            std::fs::write(config.path().join("pooldeck/config.yaml"), settings).expect("settings");
        }
        let audit = config.path().join("audit.log");
        let command = format!(
            "env KUBECONFIG={} XDG_CONFIG_HOME={} {} {args} --audit-log {}; sleep 60",
            served.kubeconfig.display(),
            config.path().display(),
            assert_cmd::cargo::cargo_bin("pooldeck").display(),
            audit.display()
        );
        Console::run(name, &command, config, audit)
    }

    /// Any command line in a new tmux session of 150×45.
    fn run(
        name: &str,
        command: &str,
        config: tempfile::TempDir,
        audit: std::path::PathBuf,
    ) -> Console {
        let session = format!("pooldeck-fix-{name}-{}", std::process::id());
        Console {
            tmux: Session::start(session, command, 150, 45),
            _config: config,
            audit,
        }
    }

    /// The screen line of a pool's row.
    fn row(&self, pool: &str) -> Option<String> {
        self.screen()
            .lines()
            .find(|l| l.contains(&format!(" {pool} ")) && l.contains("vision-lab"))
            .map(str::to_owned)
    }
}

fn kubectl_label(served: &Served, pool: &str) -> String {
    let output = Command::new("kubectl")
        .args([
            "get",
            "cp",
            "-n",
            "vision-lab",
            pool,
            "-o",
            "jsonpath={.metadata.labels.controller\\.spectrocloud\\.com/pause}",
        ])
        .env("KUBECONFIG", &served.kubeconfig)
        .output()
        .expect("kubectl runs");
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

fn pool_path(name: &str) -> String {
    format!("/apis/spectrocloud.com/v1alpha1/namespaces/vision-lab/computepools/{name}")
}

/// Selects a pool by filtering on its name.
fn select(console: &Console, pool: &str) {
    console.keys(&["Escape", "/"]);
    console.type_text(pool);
    console.keys(&["Enter"]);
    console.wait(&format!("{pool} alone"), |s| {
        s.contains(pool) && s.contains("Compute Pools (1)")
    });
}

#[test]
fn pause_resume_and_three_marked_pools_in_one_confirmation() {
    if !have_tools() {
        return;
    }
    let served = common::serve("deletion-blocked");
    let console = Console::start(&served, "pause", "-A", None);
    console.wait_for("Compute Pools (3)");
    select(&console, "free-pool");
    console.keys(&["p"]);
    console.wait_for("Dry run passed");
    assert!(
        console.screen().contains("[> Cancel <]"),
        "Cancel has the focus"
    );
    console.keys(&["Tab", "Enter"]);
    console.wait("the row paused", |_| {
        console
            .row("free-pool")
            .is_some_and(|r| r.contains(" yes "))
    });
    assert_eq!(kubectl_label(&served, "free-pool"), "true");

    console.keys(&["p"]);
    console.wait_for("Resume 1 Compute Pool");
    console.wait_for("Dry run passed");
    console.keys(&["Tab", "Enter"]);
    console.wait("the row resumed", |_| {
        console
            .row("free-pool")
            .is_some_and(|r| !r.contains(" yes "))
    });
    assert_eq!(kubectl_label(&served, "free-pool"), "");

    // Three marked pools, one confirmation.
    console.keys(&["Escape", "Escape", "g", "Space", "Space", "Space"]);
    console.wait_for("3 marked");
    console.keys(&["p"]);
    console.wait_for("Pause 3 Compute Pools");
    console.wait_for("Dry run passed: the server accepts 3 requests.");
    console.keys(&["Tab", "Enter"]);
    for pool in ["blocked-pool", "free-pool", "stuck-pool"] {
        console.wait(&format!("{pool} paused"), |_| {
            console.row(pool).is_some_and(|r| r.contains(" yes "))
        });
        assert_eq!(kubectl_label(&served, pool), "true", "{pool}");
    }
    // The audit log: an intent and an outcome per request (a dry run and a real one for each
    // pool), each outcome after its intent.
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&console.audit)
        .expect("the audit log")
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(lines.len(), 2 * 2 * (1 + 1 + 3), "{lines:#?}");
    assert!(lines.iter().all(|l| l["context"] == "pooldeck-demo"));
    for (i, line) in lines.iter().enumerate() {
        if line["record"] == "outcome" {
            assert!(
                lines[..i]
                    .iter()
                    .any(|l| l["record"] == "intent" && l["request"] == line["request"]),
                "an outcome without its intent before it: {line}"
            );
        }
    }
}

#[test]
fn delete_with_the_name_typed_a_stale_screen_refused_and_a_stuck_deletion_unblocked() {
    if !have_tools() {
        return;
    }
    let served = common::serve("deletion-blocked");
    let console = Console::start(&served, "delete", "-A", None);
    console.wait_for("Compute Pools (3)");
    select(&console, "free-pool");
    let (writes, _) = common::counts(&served);
    console.keys(&["C-d"]);
    console.wait_for("Type free-pool to confirm");
    console.wait_for("Dry run passed");
    let screen = console.screen();
    // The name field has the focus (what is typed goes there); no button is pressed by it.
    assert!(screen.contains("[  Cancel  ]"), "{screen}");
    assert!(
        screen.contains("Tab to a button, then c copies it"),
        "{screen}"
    );
    assert!(
        screen.contains("vision-lab/demo-notebook"),
        "the impact: {screen}"
    );
    assert_eq!(
        common::counts(&served).0,
        writes + 1,
        "only the dry run went before the name was typed"
    );
    console.type_text("free-pool");
    console.keys(&["Enter", "Enter"]);
    console.wait("free-pool gone", |s| s.contains("Compute Pools (0)"));

    // A stale screen: the pool changes after the dialog opened; the delete is refused.
    select(&console, "blocked-pool");
    console.keys(&["C-d"]);
    console.wait_for("Dry run passed");
    console.type_text("blocked-pool");
    let labelled = Command::new("kubectl")
        .args([
            "label",
            "cp",
            "-n",
            "vision-lab",
            "blocked-pool",
            "changed=meanwhile",
        ])
        .env("KUBECONFIG", &served.kubeconfig)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("kubectl");
    assert!(labelled.success());
    console.keys(&["Enter", "Enter"]);
    console.wait_for("changed since you looked");
    let pool = common::raw(&served, &pool_path("blocked-pool")).expect("still there");
    assert!(pool.pointer("/metadata/deletionTimestamp").is_none());

    // The stuck deletion: the AIWorkload first; the finalizer's step then waits.
    select(&console, "stuck-pool");
    console.keys(&["u"]);
    console.wait_for("step 1, delete 1 AIWorkload");
    console.wait_for("Dry run passed");
    console.keys(&["Tab", "Enter"]);
    let workload = "/apis/spectrocloud.com/v1alpha1/namespaces/vision-lab/aiworkloads/stale-job";
    let deadline = Instant::now() + Duration::from_secs(20);
    while common::raw(&served, workload).is_some() {
        assert!(Instant::now() < deadline, "the AIWorkload was not deleted");
        std::thread::sleep(Duration::from_millis(150));
    }
    // The console learns it from the watch; then u offers step 2.
    // (u only while no dialog is open: in step 2's dialog a letter is typed into its field.)
    console.wait("step 2", |_| {
        let screen = console.screen();
        if screen.contains("step 2, remove its finalizer") {
            return true;
        }
        if screen.contains("step 1") {
            console.keys(&["Escape"]);
        } else {
            console.keys(&["u"]);
        }
        false
    });
    let screen = console.wait_for("step 2, remove its finalizer");
    assert!(
        screen.contains("Finalizers protect resources"),
        "the guide's warning: {screen}"
    );
    assert!(
        screen.contains("hue-controllers"),
        "the controller-log hint: {screen}"
    );
    // Seconds after the AIWorkload went, not ten minutes: the step waits (its deletion has
    // been pending 45 minutes, which no longer counts), saying when and why.
    let screen = console.wait_for("offered 10 minutes after that");
    assert!(
        screen.contains("three conditions"),
        "the guide's conditions beside it: {screen}"
    );
    let (writes, _) = common::counts(&served);
    console.type_text("remove finalizer");
    console.keys(&["Enter", "Enter"]);
    // Every key has been read once the dialog has closed.
    console.wait("the dialog closed", |s| {
        !s.contains("step 2, remove its finalizer")
    });
    assert_eq!(common::counts(&served).0, writes, "nothing was sent");
    let pool = common::raw(&served, &pool_path("stuck-pool")).expect("still there");
    assert!(
        pool.pointer("/metadata/finalizers")
            .is_some_and(|f| f.to_string().contains("computepool-finalizer")),
        "{pool}"
    );
}

#[test]
fn forbidden_actions_are_disabled_with_the_permission_they_need() {
    if !have_tools() {
        return;
    }
    let served = common::serve("deletion-blocked");
    let operator = Console::start(
        &served,
        "operator",
        "-A --context pooldeck-demo-operator",
        None,
    );
    operator.wait_for("Compute Pools (3)");
    select(&operator, "free-pool");
    operator.wait("^D left out of the footer", |s| {
        s.contains("p pause") && !s.contains("^D delete")
    });
    operator.keys(&["C-d"]);
    operator.wait_for("needs delete on computepools in vision-lab");
    // Pausing is allowed: its dry run goes and passes.
    operator.keys(&["p"]);
    operator.wait_for("Dry run passed");
    operator.keys(&["Escape"]);
    drop(operator);

    let viewer = Console::start(
        &served,
        "viewer",
        "-n vision-lab --context pooldeck-demo-viewer",
        None,
    );
    viewer.wait_for("Compute Pools (3)");
    select(&viewer, "free-pool");
    viewer.wait("fix keys left out of the footer", |s| {
        s.contains("q quit") && !s.contains("p pause") && !s.contains("^D delete")
    });
    viewer.keys(&["p"]);
    viewer.wait_for("needs patch on computepools in vision-lab");
    viewer.keys(&["C-d"]);
    viewer.wait_for("needs delete on computepools in vision-lab");
    let (_, forbidden) = common::counts(&served);
    assert_eq!(
        forbidden, 0,
        "the console never sent a write it was not allowed"
    );
}

#[test]
fn read_only_mode_sends_no_write_from_any_key_or_verb() {
    if !have_tools() {
        return;
    }
    let served = common::serve("deletion-blocked");
    let console = Console::start(&served, "readonly", "-A --readonly", None);
    console.wait_for("READ-ONLY");
    console.wait_for("Compute Pools (3)");
    console.keys(&["Space", "Space", "p"]);
    console.wait_for("read-only mode: nothing will be sent");
    console.keys(&["Tab", "Enter", "Enter", "Escape", "C-d"]);
    console.wait_for("read-only mode: nothing will be sent");
    console.type_text("free-pool");
    console.keys(&["Enter", "Enter", "Escape", "G", "u"]);
    console.wait_for("read-only mode: nothing will be sent");
    console.keys(&["Tab", "Enter", "Enter", "Escape"]);
    // The settings file does the same for a context.
    let by_settings = Console::start(
        &served,
        "readonly-settings",
        "-A",
        Some("contexts:\n  pooldeck-demo:\n    readonly: true\n"),
    );
    by_settings.wait_for("READ-ONLY");
    // The header shows before the list comes: a key on an empty list does nothing.
    by_settings.wait_for("Compute Pools (3)");
    by_settings.keys(&["p"]);
    by_settings.wait_for("read-only mode: nothing will be sent");
    by_settings.keys(&["Tab", "Enter", "Escape"]);
    by_settings.wait_for("cancelled: nothing was sent");
    // A key answered on screen after all the others: they were handled.
    console.keys(&["?"]);
    console.wait_for("Keys (Esc");
    for args in [
        &["pause", "free-pool", "-n", "vision-lab", "--readonly"][..],
        &[
            "resume",
            "free-pool",
            "-n",
            "vision-lab",
            "--readonly",
            "--dry-run",
        ][..],
        &[
            "delete",
            "free-pool",
            "-n",
            "vision-lab",
            "--readonly",
            "--yes",
        ][..],
    ] {
        let output = Command::new(assert_cmd::cargo::cargo_bin("pooldeck"))
            .args(args)
            .env("KUBECONFIG", &served.kubeconfig)
            .output()
            .expect("runs");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
    }
    // Every key was handled before the count is read: each console answered its last one.
    assert_eq!(
        common::counts(&served),
        (0, 0),
        "not one write request, not even a dry run"
    );
}

#[test]
fn c_copies_through_osc52_into_tmuxs_buffer() {
    if !have_tools() {
        return;
    }
    let served = common::serve("deletion-blocked");
    let console = Console::start(&served, "copy", "-A", Some("clipboard: osc52\n"));
    tmux(&["set-option", "-s", "set-clipboard", "on"]);
    console.wait_for("Compute Pools (3)");
    select(&console, "stuck-pool");
    console.keys(&["c"]);
    console.wait_for("copied stuck-pool (OSC 52");
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if tmux(&["show-buffer"]).trim() == "stuck-pool" {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "tmux's buffer holds {:?}",
            tmux(&["show-buffer"])
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // The kubectl command of a dialog.
    console.keys(&["p"]);
    console.wait_for("Pause 1 Compute Pool");
    console.keys(&["c"]);
    console.wait("copied", |_| {
        tmux(&["show-buffer"]).contains("--context pooldeck-demo label computepools stuck-pool")
    });
    // It names the kubeconfig file the console was given too: pasted anywhere, it reaches
    // this hub.
    assert!(
        tmux(&["show-buffer"]).starts_with("kubectl --kubeconfig /"),
        "{}",
        tmux(&["show-buffer"])
    );
}

#[test]
fn the_delete_verb_asks_for_the_name_on_a_terminal() {
    if !have_tools() {
        return;
    }
    let served = common::serve("deletion-blocked");
    let dir = tempfile::tempdir().expect("temp dir");
    let audit = dir.path().join("audit.log");
    let command = format!(
        "env KUBECONFIG={} {} delete free-pool -n vision-lab --audit-log {}; echo EXIT=$?; sleep 60",
        served.kubeconfig.display(),
        assert_cmd::cargo::cargo_bin("pooldeck").display(),
        audit.display()
    );
    let console = Console::run("verb", &command, dir, audit);
    console.wait_for("Type the pool's name (free-pool)");
    assert!(
        common::raw(&served, &pool_path("free-pool"))
            .is_some_and(|p| p.pointer("/metadata/deletionTimestamp").is_none()),
        "nothing deleted before the name is typed"
    );
    console.type_text("free-pool");
    console.keys(&["Enter"]);
    console.wait_for("EXIT=0");
    let deadline = Instant::now() + Duration::from_secs(20);
    while common::raw(&served, &pool_path("free-pool")).is_some() {
        assert!(Instant::now() < deadline, "free-pool was not deleted");
        std::thread::sleep(Duration::from_millis(150));
    }
}
