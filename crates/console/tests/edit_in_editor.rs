//! A pool edited as YAML in the user's editor, kubectl edit's manner, on `pooldeck demo serve`:
//! the editor is a script that saves an edit the rules refuse (a new VIP: immutable), is
//! opened again with the findings on top of the file, then saves a valid edit (a new
//! description), which is applied after its changes are shown and its dry run passed. The
//! same through `pooldeck edit pool` and the console's `E` in tmux. Read-only mode opens no
//! editor; an emptied file sends nothing; every wait has its own deadline.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::Served;
use common::tmux::Session;

/// An editor script in `dir`: each run copies what it was given to `roundN.yaml`; the first
/// changes the VIP, the next ones put it back and change the description.
fn editor(dir: &Path) -> PathBuf {
    script(
        dir,
        "editor.sh",
        &format!(
            "d={dir}\nn=$(cat $d/count 2>/dev/null || echo 0); n=$((n+1)); echo $n > $d/count\n\
             cp \"$1\" \"$d/round$n.yaml\"\n\
             if [ $n = 1 ]; then sed -i 's/vip: \"10.40.0.11\"/vip: \"10.40.0.99\"/' \"$1\"\n\
             else sed -i -e 's/vip: \"10.40.0.99\"/vip: \"10.40.0.11\"/' -e 's/Llm Train pool/Llm Train pool, edited/' \"$1\"; fi",
            dir = dir.display()
        ),
    )
}

/// A shell script named `name` in `dir`, runnable, of `body`.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("script");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("mode");
    }
    path
}

fn description(served: &Served) -> String {
    common::raw(
        served,
        "/apis/spectrocloud.com/v1alpha1/namespaces/ml-research/computepools/llm-train",
    )
    .and_then(|pool| {
        pool.pointer("/metadata/annotations/spectrocloud.com~1description")
            .and_then(|v| v.as_str().map(str::to_owned))
    })
    .unwrap_or_default()
}

/// The second round was given the first's edit back, with the VIP's finding on top at the
/// line the VIP is on.
fn second_round_has_the_finding(dir: &Path) {
    let round = std::fs::read_to_string(dir.join("round2.yaml")).expect("the editor opened again");
    // The line naming the pool and the version it was read at stays on top.
    assert!(
        round.starts_with("# pooldeck: editing ComputePool ml-research/llm-train")
            && round.contains("\n# pooldeck: the edit was NOT sent"),
        "{round}"
    );
    let finding = round
        .lines()
        .find(|l| l.contains("[vip.immutable]"))
        .unwrap_or_else(|| panic!("the VIP's finding: {round}"));
    let line: usize = finding
        .split("line ")
        .nth(1)
        .and_then(|rest| rest.split(':').next())
        .and_then(|n| n.parse().ok())
        .expect("a line number");
    assert!(
        round
            .lines()
            .nth(line - 1)
            .is_some_and(|l| l.contains("10.40.0.99")),
        "line {line} is the VIP's:\n{round}"
    );
}

fn pooldeck(served: &Served, dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(assert_cmd::cargo::cargo_bin("pooldeck"));
    command
        .args(args)
        .env("KUBECONFIG", &served.kubeconfig)
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env_remove("KUBE_EDITOR")
        .env_remove("VISUAL")
        .env("EDITOR", editor(dir))
        .stdin(std::process::Stdio::null());
    command
}

fn kept_edits(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir.join("state/pooldeck/edits"))
        .map(|entries| entries.filter_map(|e| Some(e.ok()?.path())).collect())
        .unwrap_or_default()
}

#[test]
fn pooldeck_edit_reopens_on_findings_then_applies_the_valid_edit() {
    let served = common::serve("fleet");
    let dir = tempfile::tempdir().expect("temp dir");
    let (code, out, err) = common::outcome(
        pooldeck(
            &served,
            dir.path(),
            &["edit", "pool", "llm-train", "-n", "ml-research", "--yes"],
        )
        .output()
        .expect("runs"),
    );
    assert_eq!(code, Some(0), "{out}\n{err}");
    second_round_has_the_finding(dir.path());
    assert!(err.contains("[vip.immutable]"), "the finding said: {err}");
    // The changes, then the dry run, then the replace.
    let changes = out.find("1 place changed").expect(&out);
    let dry = out.find("dry run: the server accepts").expect(&out);
    let done = out.rfind(": replaced").expect(&out);
    assert!(changes < dry && dry < done, "{out}");
    assert_eq!(description(&served), "Llm Train pool, edited");
    assert!(kept_edits(dir.path()).is_empty(), "applied: nothing kept");
}

#[test]
fn read_only_opens_no_editor_and_an_emptied_file_sends_nothing() {
    let served = common::serve("fleet");
    let dir = tempfile::tempdir().expect("temp dir");
    let before = common::counts(&served).0;
    let (code, _, err) = common::outcome(
        pooldeck(
            &served,
            dir.path(),
            &[
                "--readonly",
                "edit",
                "pool",
                "llm-train",
                "-n",
                "ml-research",
            ],
        )
        .output()
        .expect("runs"),
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("read-only"), "{err}");
    assert!(!dir.path().join("count").exists(), "no editor ran");
    // An editor that empties the file: given up, nothing sent, nothing kept.
    let emptier = script(dir.path(), "empty.sh", ": > \"$1\"");
    let (code, out, err) = common::outcome(
        pooldeck(
            &served,
            dir.path(),
            &["edit", "pool", "llm-train", "-n", "ml-research", "--yes"],
        )
        .env("EDITOR", &emptier)
        .output()
        .expect("runs"),
    );
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert!(out.contains("given up"), "{out}");
    assert_eq!(common::counts(&served).0, before, "no write at all");
    assert!(kept_edits(dir.path()).is_empty());
}

#[test]
fn e_in_the_console_reopens_on_findings_then_applies_after_the_diff() {
    if !common::tmux::available() {
        return;
    }
    let served = common::serve("fleet");
    let dir = tempfile::tempdir().expect("temp dir");
    let command = format!(
        "env -u KUBE_EDITOR -u VISUAL KUBECONFIG={} XDG_STATE_HOME={dir}/state \
         XDG_CONFIG_HOME={dir}/config EDITOR={} {} -A; sleep 60",
        served.kubeconfig.display(),
        editor(dir.path()).display(),
        assert_cmd::cargo::cargo_bin("pooldeck").display(),
        dir = dir.path().display(),
    );
    let console = Session::start(
        format!("pooldeck-edit-{}", std::process::id()),
        &command,
        150,
        45,
    );
    console.wait_for("Compute Pools (12)");
    console.keys(&["/"]);
    console.type_text("llm-train");
    console.keys(&["Enter"]);
    console.wait_for("Compute Pools (1)");
    let writes = common::counts(&served).0;
    console.keys(&["E"]);
    // The editor ran twice (the VIP refused, then the valid edit); the confirmation shows the
    // change and the dry run's answer, and nothing was written yet.
    let dialog = console.wait_for("Dry run passed");
    assert!(
        dialog.contains("Apply the edit of Compute Pool llm-train")
            && dialog.contains("1 place changed")
            && dialog.contains("Llm Train pool, edited"),
        "{dialog}"
    );
    second_round_has_the_finding(dir.path());
    assert_eq!(
        common::counts(&served).0,
        writes + 1,
        "one request so far: the dry run"
    );
    assert_eq!(description(&served), "Llm Train pool");
    // Cancel has the focus; Tab to Confirm, Enter applies.
    console.keys(&["Tab", "Enter"]);
    console.wait_for("replaced");
    assert_eq!(description(&served), "Llm Train pool, edited");
    common::eventually("the kept edit is removed", || {
        kept_edits(dir.path()).is_empty()
    });
    // The console is itself again: keys act.
    console.keys(&["d"]);
    console.wait_for("Describe ml-research/llm-train");
}

/// A pool changed while its edit was open is not overwritten: the replace names the version
/// read, the hub refuses it, and the edit stays in its file. A kept edit is reopened while the
/// pool is as it was; once the pool changed it is moved aside, not reopened as this version's.
#[test]
fn a_changed_pool_is_not_overwritten_and_a_stale_edit_is_not_reopened() {
    if !common::have("kubectl", &["version", "--client"]) {
        return;
    }
    let served = common::serve("fleet");
    let dir = tempfile::tempdir().expect("temp dir");
    let script = |name: &str, body: &str| script(dir.path(), name, body);
    // Someone labels the pool while the editor is open; the edit is valid.
    let racing = script(
        "racing.sh",
        &format!(
            "KUBECONFIG={} kubectl label cp llm-train -n ml-research racer=1 >/dev/null\n\
             sed -i 's/Llm Train pool/Llm Train pool, raced/' \"$1\"",
            served.kubeconfig.display()
        ),
    );
    let (code, out, err) = common::outcome(
        pooldeck(
            &served,
            dir.path(),
            &["edit", "pool", "llm-train", "-n", "ml-research", "--yes"],
        )
        .env("EDITOR", &racing)
        .output()
        .expect("runs"),
    );
    assert_eq!(code, Some(1), "{out}\n{err}");
    assert!(err.contains("kept at"), "{err}");
    assert_eq!(description(&served), "Llm Train pool", "not overwritten");
    let racer = common::raw(
        &served,
        "/apis/spectrocloud.com/v1alpha1/namespaces/ml-research/computepools/llm-train",
    )
    .and_then(|p| p.pointer("/metadata/labels/racer").cloned());
    assert_eq!(
        racer,
        Some(serde_json::json!("1")),
        "the other change stands"
    );
    assert_eq!(kept_edits(dir.path()).len(), 1, "kept");
    // That edit was made on an older version: moved aside, the editor opens the pool as it is.
    let looking = script(
        "looking.sh",
        &format!("cp \"$1\" {}/seen.yaml", dir.path().display()),
    );
    let (code, _, err) = common::outcome(
        pooldeck(
            &served,
            dir.path(),
            &["edit", "pool", "llm-train", "-n", "ml-research"],
        )
        .env("EDITOR", &looking)
        .output()
        .expect("runs"),
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains(".stale"), "{err}");
    let seen = std::fs::read_to_string(dir.path().join("seen.yaml")).expect("seen");
    assert!(!seen.contains("raced"), "not the stale edit: {seen}");
    // An edit whose editor failed is kept, and reopened while the pool is unchanged.
    let failing = script(
        "failing.sh",
        "sed -i 's/Llm Train pool/Llm Train pool, kept/' \"$1\"; exit 3",
    );
    let (code, _, err) = common::outcome(
        pooldeck(
            &served,
            dir.path(),
            &["edit", "pool", "llm-train", "-n", "ml-research"],
        )
        .env("EDITOR", &failing)
        .output()
        .expect("runs"),
    );
    assert_eq!(code, Some(2), "{err}");
    let (code, _, err) = common::outcome(
        pooldeck(
            &served,
            dir.path(),
            &["edit", "pool", "llm-train", "-n", "ml-research"],
        )
        .env("EDITOR", &looking)
        .output()
        .expect("runs"),
    );
    assert!(err.contains("reopened the edit kept"), "{err}");
    let seen = std::fs::read_to_string(dir.path().join("seen.yaml")).expect("seen");
    assert!(seen.contains("Llm Train pool, kept"), "{seen}");
    // Reopened and saved as it was: its change is still to apply, asked on no terminal.
    assert_eq!(code, Some(1), "{err}");
}

/// `pooldeck edit` reads the hub's pools for the rules across pools in pages, never the
/// whole list as one answer (1,200 pools here, pages of 500).
#[test]
fn pooldeck_edit_reads_the_fleet_in_pages() {
    let (runtime, cluster) = common::in_process(pooldeck::demo::Options {
        scenario: Some(pooldeck::demo::scenario::Scenario::large(1_200)),
        ..pooldeck::demo::Options::default()
    });
    let dir = tempfile::tempdir().expect("temp dir");
    let kubeconfig = dir.path().join("kubeconfig");
    cluster.write_kubeconfig(&kubeconfig).expect("kubeconfig");
    let unchanged = script(dir.path(), "unchanged.sh", "exit 0");
    let output = Command::new(assert_cmd::cargo::cargo_bin("pooldeck"))
        .args(["edit", "pool", "pool-00001", "-n", "project-2", "--yes"])
        .env("KUBECONFIG", &kubeconfig)
        .env("XDG_STATE_HOME", dir.path().join("state"))
        .env("XDG_CONFIG_HOME", dir.path().join("config"))
        .env_remove("KUBE_EDITOR")
        .env_remove("VISUAL")
        .env("EDITOR", &unchanged)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("runs");
    let (code, out, err) = common::outcome(output);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert!(
        cluster.largest_list() <= 500,
        "a list answer carried {} pools",
        cluster.largest_list()
    );
    runtime.block_on(cluster.stop());
}
