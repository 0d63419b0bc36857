//! `pooldeck pause|resume|delete` through the binary, against `pooldeck demo serve`: exit
//! codes, dry runs that send only dry runs, a delete that refuses without a terminal, missing
//! permissions said before anything is sent, read-only mode that sends nothing at all (the
//! demo server counts write requests), and the audit log's lines.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

mod common;

use std::path::Path;
use std::time::Duration;

use common::Served;

use serde_json::Value;

const LIMIT: Duration = Duration::from_secs(30);

fn serve() -> Served {
    common::serve("deletion-blocked")
}

/// Runs pooldeck with the served kubeconfig; (exit code, stdout, stderr).
fn pooldeck(served: &Served, audit: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let mut command = assert_cmd::Command::cargo_bin("pooldeck").expect("the binary");
    command
        .args(args)
        .arg("--audit-log")
        .arg(audit)
        .env("KUBECONFIG", &served.kubeconfig)
        .env("XDG_CONFIG_HOME", audit.parent().expect("a directory"))
        .timeout(LIMIT);
    let output = command.output().expect("runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn writes(served: &Served) -> u64 {
    common::counts(served).0
}

fn free_pool(served: &Served) -> Value {
    common::raw(
        served,
        "/apis/spectrocloud.com/v1alpha1/namespaces/vision-lab/computepools/free-pool",
    )
    .expect("free-pool")
}

/// The audit log's outcome records, after checking that every one follows its request's
/// intent record (written before the request left).
fn audit_lines(path: &Path) -> Vec<Value> {
    let all: Vec<Value> = std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    let mut outcomes = Vec::new();
    for (i, record) in all.iter().enumerate() {
        if record["record"] == "outcome" {
            let intent = all[..i]
                .iter()
                .rev()
                .find(|r| r["request"] == record["request"])
                .unwrap_or_else(|| panic!("no intent before {record}"));
            assert_eq!(intent["record"], "intent", "{intent}");
            assert_eq!(intent["kubectl"], record["kubectl"]);
            outcomes.push(record.clone());
        } else {
            assert_eq!(record["record"], "intent", "{record}");
            assert!(record.get("outcome").is_none(), "{record}");
        }
    }
    outcomes
}

#[test]
fn pause_and_resume_set_the_label_and_log_each_request() {
    let served = serve();
    let dir = tempfile::tempdir().expect("temp dir");
    let audit = dir.path().join("audit.log");
    let (code, out, err) = pooldeck(&served, &audit, &["pause", "free-pool", "-n", "vision-lab"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("--context pooldeck-demo label computepools free-pool -n vision-lab controller.spectrocloud.com/pause=true --overwrite"), "the kubectl equivalent names the context: {out}");
    // And the kubeconfig file it was reached through (KUBECONFIG here), so that pasted
    // anywhere it reaches this hub.
    assert!(
        out.contains("kubectl --kubeconfig /"),
        "and the kubeconfig file: {out}"
    );
    assert_eq!(
        free_pool(&served).pointer("/metadata/labels/controller.spectrocloud.com~1pause"),
        Some(&Value::String("true".into()))
    );
    let (code, out, err) = pooldeck(
        &served,
        &audit,
        &["resume", "free-pool", "-n", "vision-lab"],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        free_pool(&served)
            .pointer("/metadata/labels/controller.spectrocloud.com~1pause")
            .is_none()
    );
    let lines = audit_lines(&audit);
    assert_eq!(
        lines.len(),
        4,
        "a dry run and a real request each: {lines:?}"
    );
    assert!(
        lines[1]["preconditions"]["resourceVersion"].is_string(),
        "pause names the version looked at: {}",
        lines[1]
    );
    assert_eq!(lines[0]["dryRun"], true);
    assert_eq!(lines[1]["dryRun"], false);
    assert_eq!(lines[1]["dryRunAnswer"]["result"], "done", "{}", lines[1]);
    assert_eq!(lines[3]["operation"], "remove-label");
    assert_eq!(lines[1]["user"], "admin");
    assert_eq!(lines[1]["context"], "pooldeck-demo");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&audit)
            .expect("the log")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "the audit log is the owner's only");
    }
    // Resuming a pool that is not paused sends nothing and says so; as kubectl label does
    // for a label that is not there, it is not a failure.
    let before = writes(&served);
    let (code, out, err) = pooldeck(
        &served,
        &audit,
        &["resume", "free-pool", "-n", "vision-lab"],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("no pool given is paused: nothing to do"),
        "{out}"
    );
    assert!(
        !out.contains("kubectl equivalent"),
        "no empty command list: {out}"
    );
    assert_eq!(writes(&served), before);
    // A name given three times is acted on once, and the repeat is said.
    let (code, out, err) = pooldeck(
        &served,
        &audit,
        &[
            "pause",
            "free-pool",
            "free-pool",
            "free-pool",
            "-n",
            "vision-lab",
        ],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("Pause 1 Compute Pool"), "{out}");
    assert!(
        err.contains("free-pool was named 3 times; it is acted on once"),
        "{err}"
    );
    assert_eq!(writes(&served), before + 2, "one dry run and one request");
}

#[test]
fn a_dry_run_sends_only_dry_runs() {
    let served = serve();
    let dir = tempfile::tempdir().expect("temp dir");
    let audit = dir.path().join("audit.log");
    let before = writes(&served);
    for args in [
        &[
            "pause",
            "free-pool",
            "blocked-pool",
            "-n",
            "vision-lab",
            "--dry-run",
        ][..],
        &["delete", "free-pool", "-n", "vision-lab", "--dry-run"][..],
    ] {
        let (code, out, err) = pooldeck(&served, &audit, args);
        assert_eq!(code, Some(0), "{args:?}: {out}{err}");
        assert!(out.contains("dry run: the server accepts this"), "{out}");
    }
    assert_eq!(
        writes(&served) - before,
        3,
        "two pause dry runs and a delete dry run"
    );
    let pool = free_pool(&served);
    assert!(pool.pointer("/metadata/deletionTimestamp").is_none());
    assert!(
        pool.pointer("/metadata/labels/controller.spectrocloud.com~1pause")
            .is_none()
    );
    assert!(audit_lines(&audit).iter().all(|l| l["dryRun"] == true));
}

/// Intents an earlier pooldeck left without an outcome (killed before it wrote one) get one
/// when a verb next starts: a dry run's says nothing changed, a real request's that its
/// outcome is unknown. An intent young enough to be another process's on its way is left,
/// and one of a process still running.
#[test]
fn intents_left_alone_get_an_outcome_on_the_next_start() {
    let served = serve();
    let dir = tempfile::tempdir().expect("temp dir");
    let audit = dir.path().join("audit.log");
    // A first run writes real records to copy.
    let (code, out, err) = pooldeck(&served, &audit, &["pause", "free-pool", "-n", "vision-lab"]);
    assert_eq!(code, Some(0), "{out}{err}");
    let written = std::fs::read_to_string(&audit).expect("the log");
    let intent = |dry_run: bool| -> Value {
        written
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).expect("JSON"))
            .find(|r| r["record"] == "intent" && r["dryRun"] == dry_run)
            .expect("an intent")
    };
    // Written by a process that is gone (no pid said), or by this one (alive).
    let left = |mut record: Value, request: &str, time: &str, pid: Value| {
        record["request"] = request.into();
        record["time"] = time.into();
        record["pid"] = pid;
        format!("{record}\n")
    };
    let at = |ago: chrono::Duration| {
        (chrono::Utc::now() - ago).to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
    };
    let (long_ago, now) = (at(chrono::Duration::hours(1)), at(chrono::Duration::zero()));
    let mut log = written.clone();
    log.push_str(&left(intent(true), "gone-1", &long_ago, Value::Null));
    log.push_str(&left(intent(false), "gone-2", &long_ago, Value::Null));
    log.push_str(&left(intent(false), "on-its-way-3", &now, Value::Null));
    let alive = Value::from(std::process::id());
    log.push_str(&left(intent(false), "stopped-4", &long_ago, alive));
    std::fs::write(&audit, log).expect("written");
    let (code, out, err) = pooldeck(
        &served,
        &audit,
        &["resume", "free-pool", "-n", "vision-lab"],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    let outcomes = audit_lines(&audit);
    let of = |request: &str| outcomes.iter().find(|r| r["request"] == request).cloned();
    let dry = of("gone-1").expect("the dry run's intent closed");
    assert_eq!(dry["outcome"]["result"], "not-done", "{dry}");
    let real = of("gone-2").expect("the real request's intent closed");
    assert_eq!(real["outcome"]["result"], "unknown", "{real}");
    assert!(
        real["outcome"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("interrupted: outcome unknown")),
        "{real}"
    );
    assert!(of("on-its-way-3").is_none(), "a young intent is left");
    assert!(
        of("stopped-4").is_none(),
        "an intent of a process still running is left"
    );
}

/// The impact of a delete counts only the pool's own AIWorkloads: a reference written into
/// its status naming another namespace's AIWorkload is shown apart, never counted as
/// force-deleted with the pool.
#[test]
fn a_planted_reference_is_not_in_a_deletes_count() {
    let served = serve();
    let dir = tempfile::tempdir().expect("temp dir");
    let audit = dir.path().join("audit.log");
    let base = "/apis/spectrocloud.com/v1alpha1/namespaces";
    common::send(
        &served,
        "PATCH",
        &format!("{base}/vision-lab/computepools/free-pool/status"),
        "application/merge-patch+json",
        &serde_json::json!({"status": {"aiWorkloadRefs": [
            {"name": "demo-notebook", "namespace": "vision-lab"},
            {"name": "innocent", "namespace": "kube-system"}]}}),
    )
    .expect("status written");
    let (code, out, err) = pooldeck(
        &served,
        &audit,
        &["delete", "free-pool", "-n", "vision-lab", "--dry-run"],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("1 AIWorkload force-deleted first"), "{out}");
    assert!(
        out.contains(
            "AIWorkload kube-system/innocent: not acted on: it is in namespace kube-system"
        ),
        "{out}"
    );
}

#[test]
fn delete_refuses_without_a_terminal_and_deletes_with_yes() {
    let served = serve();
    let dir = tempfile::tempdir().expect("temp dir");
    let audit = dir.path().join("audit.log");
    let before = writes(&served);
    let (code, _, err) = pooldeck(
        &served,
        &audit,
        &["delete", "free-pool", "-n", "vision-lab"],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("asks for the pool's name on a terminal"),
        "{err}"
    );
    assert_eq!(writes(&served), before, "nothing was sent");

    let (code, out, err) = pooldeck(
        &served,
        &audit,
        &["delete", "free-pool", "-n", "vision-lab", "--yes"],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("vision-lab/demo-notebook"),
        "the impact names the AIWorkload: {out}"
    );
    assert!(out.contains("the Palette cluster"), "{out}");
    let lines = audit_lines(&audit);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0]["dryRun"], true);
    assert_eq!(lines[1]["operation"], "delete");
    assert!(lines[1]["preconditions"]["uid"].is_string(), "{}", lines[1]);

    let (code, _, err) = pooldeck(
        &served,
        &audit,
        &["delete", "no-such-pool", "-n", "vision-lab", "--yes"],
    );
    assert_eq!(code, Some(1));
    assert!(
        err.contains("ComputePool vision-lab/no-such-pool was not found"),
        "{err}"
    );
    let (code, _, err) = pooldeck(
        &served,
        &audit,
        &["pause", "../../apis", "-n", "vision-lab"],
    );
    assert_eq!(code, Some(2), "{err}");
}

#[test]
fn missing_permissions_and_read_only_mode_send_nothing() {
    let served = serve();
    let dir = tempfile::tempdir().expect("temp dir");
    let audit = dir.path().join("audit.log");
    let before = writes(&served);
    let (code, _, err) = pooldeck(
        &served,
        &audit,
        &[
            "delete",
            "free-pool",
            "-n",
            "vision-lab",
            "--yes",
            "--context",
            "pooldeck-demo-operator",
        ],
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("needs delete on computepools in vision-lab"),
        "{err}"
    );
    let (code, _, err) = pooldeck(
        &served,
        &audit,
        &[
            "pause",
            "free-pool",
            "-n",
            "vision-lab",
            "--context",
            "pooldeck-demo-viewer",
        ],
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("needs patch on computepools in vision-lab"),
        "{err}"
    );
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
        &[
            "delete",
            "free-pool",
            "-n",
            "vision-lab",
            "--readonly",
            "--dry-run",
        ][..],
    ] {
        let (code, _, err) = pooldeck(&served, &audit, args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains("read-only mode"), "{err}");
    }
    // The settings file makes a context read-only too; and a settings file that cannot be
    // read as written (a duplicate key, a readonly that is not a YAML boolean, a context
    // entry that is not a mapping) fails closed: read-only, and said why.
    std::fs::create_dir_all(dir.path().join("pooldeck")).expect("config dir");
    for settings in [
        "contexts:\n  pooldeck-demo:\n    readonly: true\n",
        "readonly: true\nreadonly: true\n",
        "readonly: ture\n",
        "readonly: \"true\"\n",
        "readonly: 1\n",
        "contexts:\n  pooldeck-demo:\n    readonly: yes please\n",
        "readonly: [\n",
        // A mis-indented readonly, a context named loosely, an unknown key anywhere.
        "contexts:\n  pooldeck-demo:\n  readonly: true\n",
        "contexts:\n  \"Pooldeck-Demo \":\n    readonly: true\n",
        "contexts:\n  pooldeck-demo:\n    readonly: true\n    colour: red\n",
        "colour: red\n",
    ] {
        std::fs::write(dir.path().join("pooldeck").join("config.yaml"), settings)
            .expect("settings");
        for verb in ["pause", "resume"] {
            let (code, _, err) =
                pooldeck(&served, &audit, &[verb, "free-pool", "-n", "vision-lab"]);
            assert_eq!(code, Some(2), "{settings:?}: {err}");
            assert!(err.contains("read-only mode"), "{settings:?}: {err}");
        }
        let (code, _, err) = pooldeck(
            &served,
            &audit,
            &["delete", "free-pool", "-n", "vision-lab", "--yes"],
        );
        assert_eq!(code, Some(2), "{settings:?}: {err}");
    }
    // What the CLI says of them: the line and what was expected; the loose name, taken.
    std::fs::write(
        dir.path().join("pooldeck").join("config.yaml"),
        "contexts:\n  pooldeck-demo:\n  readonly: true\n",
    )
    .expect("settings");
    let (_, _, err) = pooldeck(&served, &audit, &["pause", "free-pool", "-n", "vision-lab"]);
    assert!(
        err.contains("config.yaml, line 2: contexts.pooldeck-demo: empty where"),
        "{err}"
    );
    std::fs::write(
        dir.path().join("pooldeck").join("config.yaml"),
        "contexts:\n  \"Pooldeck-Demo \":\n    readonly: true\n  other-hub:\n    readonly: true\n",
    )
    .expect("settings");
    let (_, _, err) = pooldeck(&served, &audit, &["pause", "free-pool", "-n", "vision-lab"]);
    assert!(err.contains("taken as context pooldeck-demo"), "{err}");
    assert!(
        err.contains("\"other-hub\" names no context of this kubeconfig"),
        "{err}"
    );
    assert_eq!(
        writes(&served),
        before,
        "not one write request left pooldeck"
    );
    assert!(audit_lines(&audit).is_empty());
}

#[test]
fn unblock_deletes_the_aiworkloads_first_then_waits_to_remove_the_finalizer() {
    let served = serve();
    let dir = tempfile::tempdir().expect("temp dir");
    let audit = dir.path().join("audit.log");
    let stuck = ["unblock", "stuck-pool", "-n", "vision-lab"];
    let with = |more: &[&'static str]| -> Vec<&str> { stuck.iter().chain(more).copied().collect() };
    let before = writes(&served);
    // A pool not being deleted, or no terminal to type the name on: nothing is sent.
    let (code, _, err) = pooldeck(
        &served,
        &audit,
        &["unblock", "blocked-pool", "-n", "vision-lab", "--yes"],
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("blocked-pool is not being deleted"), "{err}");
    let (code, _, err) = pooldeck(&served, &audit, &stuck);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("asks for the pool's name on a terminal"),
        "{err}"
    );
    assert_eq!(writes(&served), before, "nothing was sent");
    // Step 1: the AIWorkload that references it, with its kubectl equivalent and dry run.
    let workload = "/apis/spectrocloud.com/v1alpha1/namespaces/vision-lab/aiworkloads/stale-job";
    let (code, out, err) = pooldeck(&served, &audit, &with(&["--dry-run"]));
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("stale-job") && out.contains("kubectl"),
        "{out}"
    );
    assert!(
        common::raw(&served, workload).is_some(),
        "a dry run deletes nothing"
    );
    let (code, out, err) = pooldeck(&served, &audit, &with(&["--yes"]));
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("step 1 done"), "{out}");
    common::eventually("stale-job gone", || {
        common::raw(&served, workload).is_none()
    });
    let lines = audit_lines(&audit);
    assert!(
        lines.iter().any(|l| l["dryRun"] == false
            && l["kubectl"]
                .as_str()
                .is_some_and(|k| k.contains("stale-job"))),
        "{lines:?}"
    );
    // Step 2 waits until the AIWorkloads have stayed gone a while; the finalizer stays
    // meanwhile (a dry run says why and stops; a real one waits, watching).
    let (code, out, err) = pooldeck(&served, &audit, &with(&["--yes", "--dry-run"]));
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("waiting until ") && out.contains("then the finalizer is offered"),
        "{out}"
    );
    // One who may not remove it is told so at once, not after the wait.
    let (code, _, err) = pooldeck(
        &served,
        &audit,
        &with(&["--yes", "--context", "pooldeck-demo-viewer"]),
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("not permitted in context pooldeck-demo-viewer"),
        "{err}"
    );
    let mut waiting = assert_cmd::Command::cargo_bin("pooldeck").expect("the binary");
    let output = waiting
        .args(with(&["--yes"]))
        .arg("--audit-log")
        .arg(&audit)
        .env("KUBECONFIG", &served.kubeconfig)
        .env("XDG_CONFIG_HOME", dir.path())
        .timeout(Duration::from_secs(4))
        .output()
        .expect("runs");
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("(Ctrl-C leaves everything as it is)")
    );
    let pool = common::raw(
        &served,
        "/apis/spectrocloud.com/v1alpha1/namespaces/vision-lab/computepools/stuck-pool",
    )
    .expect("still there");
    assert_eq!(
        pool["metadata"]["finalizers"][0],
        "spectrocloud.com/computepool-finalizer"
    );
}
