//! The wizard as a person uses it: the real binary in tmux on `--demo`, driven with keys and
//! read from the screen. A two-worker-pool GPU pool is written from an empty wizard (an
//! inline error appears as a VIP is mistyped and goes when it is fixed), dry-run, applied
//! through the demo's admission, and appears in the list; an edit finds the VIP locked and
//! applies unchanged. Each wait has its own deadline.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

mod common;

use std::process::Command;

use common::tmux::Session;

/// Waits until process `pid` has ended (`why` if it does not).
fn gone(pid: &str, why: &str) {
    common::eventually(why, || {
        !Command::new("kill")
            .args(["-0", pid])
            .status()
            .is_ok_and(|s| s.success())
    });
}

/// The console on `--demo` in tmux, with its state directory (drafts).
struct Pane {
    tmux: Session,
    /// Where the console keeps its drafts; handed on to the next console of a test.
    state: Option<tempfile::TempDir>,
}

impl std::ops::Deref for Pane {
    type Target = Session;
    fn deref(&self) -> &Session {
        &self.tmux
    }
}

impl Pane {
    fn demo(name: &str) -> Option<Pane> {
        if !common::tmux::available() {
            return None;
        }
        Some(Pane::demo_in(name, tempfile::tempdir().expect("temp dir")))
    }

    /// The console on `--demo` with its state (drafts) in `state`.
    fn demo_in(name: &str, state: tempfile::TempDir) -> Pane {
        let command = format!(
            "env XDG_STATE_HOME={} {} --demo fleet; sleep 60",
            state.path().display(),
            assert_cmd::cargo::cargo_bin("pooldeck").display()
        );
        Pane::run(name, &command, state)
    }

    fn run(name: &str, command: &str, state: tempfile::TempDir) -> Pane {
        let session = format!("pooldeck-wizard-{name}-{}", std::process::id());
        Pane {
            tmux: Session::start(session, command, 150, 50),
            state: Some(state),
        }
    }

    /// The pools list filtered down to one pool.
    fn select(&self, name: &str) {
        self.keys(&["/"]);
        self.type_text(name);
        self.keys(&["Enter"]);
        self.wait_for("Compute Pools (1)");
    }

    /// Enter, the text, Enter: a field typed and kept.
    fn enter(&self, text: &str) {
        self.keys(&["Enter"]);
        self.type_text(text);
        self.keys(&["Enter"]);
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
    // Control plane: single-node, nodes, eligible, architecture, CPU count, memory.
    pane.keys(&["j", "j", "j", "j"]);
    pane.enter("4");
    pane.keys(&["j"]);
    pane.enter("16 GB");
    for pool in 1..=2 {
        pane.keys(&["a"]);
        pane.wait_for(&format!("worker-pool-{pool}"));
        // The cursor is on the new pool's name: architecture, then CPU count.
        pane.keys(&["j", "j"]);
        pane.enter("32");
        pane.keys(&["j"]);
        pane.enter("256 GB");
        pane.keys(&["j", "j"]);
        // ml-research has no A100 or H100 left (an error now); the Tenant's L40S cap leaves 10.
        pane.enter("NVIDIA L40S | 48 GB");
        pane.keys(&["j"]);
        pane.enter("2");
        pane.keys(&["j"]);
        pane.enter("96 GB");
        pane.wait_for("96 GB");
    }
    pane.keys(&["Tab"]);
    pane.wait_for("› Deployment");
    // Deletion policy, settings, SSH keys, VIP.
    pane.keys(&["j"]);
    pane.enter("palette-settings");
    // SSH keys: two lines in the editor, Ctrl-S keeps them.
    pane.keys(&["j", "Enter"]);
    pane.type_text("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOne ops@example.com");
    pane.keys(&["Enter"]);
    pane.type_text("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAITwo oncall@example.com");
    pane.wait_for("oncall@example.com▏");
    pane.keys(&["C-s"]);
    pane.wait_for("(+1 more)");
    pane.keys(&["j"]);
    pane.enter("10.40.0");
    pane.wait("the VIP's error", |s| {
        s.lines()
            .any(|l| l.contains("error:") && l.contains("10.40.0"))
    });
    pane.keys(&["Enter"]);
    pane.type_text(".10");
    pane.keys(&["Enter"]);
    pane.wait("the error gone", |s| {
        s.contains("10.40.0.10") && !s.lines().any(|l| l.contains("error:"))
    });
    pane.keys(&["Tab", "Tab"]);
    let review = pane.wait_for("› Review");
    assert!(review.contains("0 errors"), "{review}");
    pane.keys(&["d"]);
    pane.wait_for("Dry run: the server accepts this");
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
    pane.select("recsys");
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
    // Labels (after the namespace and the description), over two lines.
    pane.keys(&["j", "j", "j", "Enter"]);
    pane.type_text("team=ml");
    pane.keys(&["Enter"]);
    pane.type_text("site=factory");
    pane.keys(&["C-s"]);
    pane.wait_for("team=ml (+1 more)");
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
    gone(&pid, "the console did not end on SIGHUP");
    let mut pane = pane;
    let state = pane.state.take().expect("the state directory");
    drop(pane);
    // A new console with the same state: n resumes the draft, every field intact.
    let again = Pane::demo_in("hangup-again", state);
    again.wait_for("Compute Pools (12)");
    again.keys(&["n"]);
    // The drafts are offered, the newest under the cursor.
    again.wait_for("Resume ml-research/kept-pool");
    again.keys(&["Enter"]);
    again.wait_for("resumed the draft of");
    again.wait_for("kept-pool");
    again.wait_for("team=ml (+1 more)");
    again.keys(&["Tab", "Tab"]);
    again.wait_for("edge-profilebundle");
    again.keys(&["Tab", "Tab"]);
    again.wait_for("10.41.0.7");
}

/// `pooldeck new -n ml-research --from FILE` against a hub whose context namespace is
/// `default`: the wizard is in ml-research (title and General), offers ml-research's Profile
/// Bundle, and flags the VIP ml-research/llm-finetune uses; moving the pool to another
/// namespace on General changes what is offered.
#[test]
fn new_in_a_namespace_checks_against_that_namespace() {
    if !common::tmux::available() {
        return;
    }
    let served = common::serve("fleet");
    let state = tempfile::tempdir().expect("temp dir");
    let file = state.path().join("pool.yaml");
    std::fs::write(
        &file,
        "apiVersion: spectrocloud.com/v1alpha1\nkind: ComputePool\nmetadata:\n  name: from-file\n\
         spec:\n  clusterVariant:\n    dedicated:\n      paletteClusterDeploymentConfig:\n        \
         edge:\n          vip: 10.40.0.12\n",
    )
    .expect("written");
    let command = format!(
        "env KUBECONFIG={} XDG_STATE_HOME={} {} new -n ml-research --from {}; echo EXIT=$?; sleep 60",
        served.kubeconfig.display(),
        state.path().display(),
        assert_cmd::cargo::cargo_bin("pooldeck").display(),
        file.display()
    );
    let pane = Pane::run("namespace", &command, state);
    // (The wizard alone watches every namespace the hub lets it: the choice offers them.)
    let general = pane.wait_for("New Compute Pool in ml-research");
    assert!(
        general.contains("│ all namespaces"),
        "the header's scope: {general}"
    );
    pane.keys(&["Tab", "Tab"]);
    pane.wait_for("› Profile Bundle");
    pane.wait_for("Space picks: edge-profilebundle");
    pane.keys(&["Tab", "Tab"]);
    pane.wait_for("› Deployment");
    pane.wait_for("is already used by ComputePool ml-research/llm-finetune");
    // On General, the namespace moves to retail-edge (Space): the Settings offered follow.
    pane.keys(&["BTab", "BTab", "BTab", "BTab", "j", "Space"]);
    pane.wait_for("New Compute Pool in retail-edge");
    pane.keys(&["Tab", "Tab", "Tab", "Tab", "j"]);
    pane.wait_for("› Deployment");
    pane.wait_for("none in this namespace: Enter types a name");
    // Round the Projects' namespaces back to ml-research (retail-edge, vision-lab, ml-research).
    pane.keys(&["BTab", "BTab", "BTab", "BTab", "j", "Space"]);
    pane.wait_for("New Compute Pool in vision-lab");
    pane.keys(&["Space"]);
    pane.wait_for("New Compute Pool in ml-research");
    pane.keys(&["Tab", "Tab", "Tab", "Tab", "j"]);
    pane.wait_for("Space picks: palette-settings");
}

/// Flags given before `new` count for it, and `--demo` does not take `new` as its scenario;
/// `-n` that contradicts the file is refused as kubectl refuses it.
#[test]
fn global_flags_never_swallow_new() {
    if !common::tmux::available() {
        return;
    }
    let state = tempfile::tempdir().expect("temp dir");
    let command = format!(
        "env XDG_STATE_HOME={} {} --demo new -n vision-lab; echo EXIT=$?; sleep 60",
        state.path().display(),
        assert_cmd::cargo::cargo_bin("pooldeck").display(),
    );
    let pane = Pane::run("demo-new", &command, state);
    pane.wait_for("New Compute Pool in vision-lab");
    pane.keys(&["Escape"]);
    pane.wait_for("EXIT=0");

    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("pool.yaml");
    std::fs::write(
        &file,
        "apiVersion: spectrocloud.com/v1alpha1\nkind: ComputePool\nmetadata: {name: x, namespace: vision-lab}\n",
    )
    .expect("written");
    let output = Command::new(assert_cmd::cargo::cargo_bin("pooldeck"))
        .args(["new", "-n", "ml-research", "--from"])
        .arg(&file)
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains("puts the pool in namespace vision-lab, but -n asks for ml-research"),
        "{said}"
    );
    let output = Command::new(assert_cmd::cargo::cargo_bin("pooldeck"))
        .args(["--demo", "get", "pools"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("pooldeck demo serve"));
}

/// Errors while typing, as a person sees them: a bad name's error appears before Enter and
/// goes as it is fixed; an edit that asks for more H100s than ml-research's caps leave says
/// so naming the lowest; a ScalingPolicy reference to nothing is an error.
#[test]
fn errors_appear_while_typing_and_on_edits() {
    let Some(pane) = Pane::demo("typing") else {
        return;
    };
    pane.wait_for("Compute Pools (12)");
    pane.keys(&["n"]);
    pane.wait_for("New Compute Pool in ml-research");
    pane.keys(&["Enter"]);
    pane.type_text("Bad_");
    pane.wait("the name's error while typing", |s| {
        s.contains("Bad_▏")
            && s.lines()
                .any(|l| l.contains("error:") && l.contains("Bad_"))
    });
    pane.keys(&["BSpace", "BSpace", "BSpace", "BSpace"]);
    pane.type_text("good-name");
    pane.wait("the error gone while typing", |s| {
        s.contains("good-name▏")
            && !s
                .lines()
                .any(|l| l.contains("error:") && l.contains("name"))
    });
    pane.keys(&["Enter", "Escape"]);
    pane.wait_for("the wizard is closed");

    // llm-train: 16 H100s; ml-research's own limit leaves none.
    pane.select("llm-train");
    pane.keys(&["e"]);
    pane.wait_for("Edit Compute Pool ml-research/llm-train");
    pane.keys(&["Tab", "Tab", "Tab"]);
    pane.wait_for("› Node Config");
    // Past the control plane's fields, the groups and the Longhorn replicas to the GPU count.
    for _ in 0..15 {
        pane.keys(&["j"]);
    }
    pane.keys(&["Enter", "End"]);
    pane.type_text("0");
    pane.wait_for("160▏");
    let screen = pane.wait_for("more than the pool has now");
    // (The lowest of ml-research's caps is named: the Tenant's projectLimits for it.)
    assert!(
        screen.contains("the lowest cap is Tenant acme's projectLimits"),
        "{screen}"
    );
    assert!(screen.contains("so the pool cannot get them"), "{screen}");
    pane.keys(&["Escape"]);
    pane.wait("the count as it was", |s| {
        !s.contains("more than the pool has now")
    });

    // Autoscaling: the policy's name misspelt is an error on the field, while typed.
    pane.keys(&["Tab", "Tab"]);
    pane.wait_for("› Autoscaling");
    pane.keys(&["Enter", "End"]);
    pane.type_text("x");
    pane.wait_for("no ScalingPolicy named gpu-scalingx in ml-research");
}

/// An edit's draft survives a killed terminal, the text being typed included; `e` on the
/// pool in the next console offers it with what it changes against the live pool, and
/// resumes it with the field open again.
#[test]
fn an_edit_draft_survives_a_killed_terminal_and_is_offered_with_its_diff() {
    let Some(pane) = Pane::demo("edit-draft") else {
        return;
    };
    pane.wait_for("Compute Pools (12)");
    pane.select("recsys");
    pane.keys(&["e"]);
    pane.wait_for("Edit Compute Pool retail-edge/recsys");
    // The description, typed and never kept with Enter.
    pane.keys(&["j", "j", "Enter"]);
    pane.type_text(" for the spring sale");
    pane.wait_for("for the spring sale▏");
    let pid = pane.console_pid();
    let mut pane = pane;
    let state = pane.state.take().expect("the state directory");
    // The terminal is killed: the session and its pane go.
    drop(pane);
    gone(&pid, "the console outlived its terminal");
    let again = Pane::demo_in("edit-draft-again", state);
    again.wait_for("Compute Pools (12)");
    again.select("recsys");
    again.keys(&["e"]);
    let offered = again.wait_for("A draft of retail-edge/recsys");
    assert!(
        offered.contains("What the draft changes against the live pool"),
        "{offered}"
    );
    assert!(offered.contains("for the spring sale"), "{offered}");
    again.keys(&["Enter"]);
    again.wait_for("resumed the draft of retail-edge/recsys");
    again.wait_for("for the spring sale▏");
}

/// `pooldeck new --drafts` lists the drafts kept, `--resume` opens the wizard on one and
/// `--discard` removes it.
#[test]
fn new_drafts_lists_resumes_and_discards() {
    if !common::tmux::available() {
        return;
    }
    let state = tempfile::tempdir().expect("temp dir");
    let home = state.path().to_owned();
    let pooldeck = assert_cmd::cargo::cargo_bin("pooldeck");
    let command = format!(
        "env XDG_STATE_HOME={} {} --demo new -n vision-lab; echo EXIT=$?; sleep 60",
        home.display(),
        pooldeck.display(),
    );
    let pane = Pane::run("drafts-cli", &command, state);
    pane.wait_for("New Compute Pool in vision-lab");
    pane.enter("listed-pool");
    pane.wait_for("listed-pool");
    pane.keys(&["Escape"]);
    pane.wait_for("EXIT=0");
    let run = |args: &[&str]| {
        Command::new(&pooldeck)
            .args(args)
            .env("XDG_STATE_HOME", &home)
            .output()
            .expect("runs")
    };
    let listed = run(&["new", "--drafts"]);
    let text = String::from_utf8_lossy(&listed.stdout);
    assert!(listed.status.success(), "{text}");
    assert!(
        text.lines()
            .any(|l| l.contains("vision-lab/listed-pool") && l.contains("new")),
        "{text}"
    );
    let command = format!(
        "env XDG_STATE_HOME={} {} --demo new --resume listed-pool; echo EXIT=$?; sleep 60",
        home.display(),
        pooldeck.display(),
    );
    let resumed = Pane::run("drafts-resume", &command, tempfile::tempdir().expect("dir"));
    resumed.wait_for("resumed the draft of vision-lab/listed-pool");
    resumed.keys(&["Escape"]);
    resumed.wait_for("EXIT=0");
    let gone = run(&["new", "--discard", "vision-lab/listed-pool"]);
    assert!(
        gone.status.success(),
        "{}",
        String::from_utf8_lossy(&gone.stderr)
    );
    let again = run(&["new", "--drafts"]);
    assert!(
        String::from_utf8_lossy(&again.stdout).contains("no drafts kept"),
        "{}",
        String::from_utf8_lossy(&again.stdout)
    );
    let unknown = run(&["new", "--resume", "nothing-here"]);
    assert_eq!(unknown.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("--drafts lists them"));
}

/// Every example manifest loaded with `pooldeck new --from` and written unchanged with `w`
/// comes out as the same objects (unknown fields and all), without a cluster.
#[test]
fn every_example_round_trips_through_pooldeck_new() {
    if !common::tmux::available() {
        return;
    }
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../demo/manifests");
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
        let command = format!(
            "env KUBECONFIG=/nonexistent XDG_STATE_HOME={} {} new --from {} -o {}; echo EXIT=$?; sleep 60",
            state.path().display(),
            assert_cmd::cargo::cargo_bin("pooldeck").display(),
            file.display(),
            output.display()
        );
        let pane = Pane::run(&format!("roundtrip-{i}"), &command, state);
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
