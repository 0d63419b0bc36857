//! Safe to follow blindly, tried as a hostile user would with the real binary: cluster and
//! file text that tries to set the terminal's title, write its clipboard or reorder its
//! text, printed by `doctor`, `get` and `validate` on a real terminal (tmux); output refused
//! where it would go into a FIFO or a device; an audit log on a full disk never holding half
//! a line, with the action not sent; private directories 0700 under umask 000; the console
//! losing its terminal (exit 129, no panic, its draft kept); a screen too small to show a
//! dialog sending nothing; a settings file that cannot be read making the console read-only.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

mod common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use serde_json::{Value, json};

use common::tmux::{Session, tmux};

fn pooldeck() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("pooldeck")
}

const TITLE: &str = "\u{1b}]0;pwned-title\u{7}";
const CLIPBOARD: &str = "\u{1b}]52;c;cHduZWQtY2xpcA==\u{7}";
const DCS: &str = "\u{1b}Ptmux;\u{1b}\u{1b}]0;pwned-dcs\u{7}\u{1b}\\";
const BIDI: &str = "\u{202e}";
/// What hides in text: a zero-width space and a byte order mark.
const HIDDEN: &str = "\u{200b}\u{feff}";

fn payload() -> String {
    format!("deploy failed {TITLE}{CLIPBOARD}{DCS}{BIDI}txt.exe {HIDDEN}end")
}

/// A pool of the deletion-blocked scenario's shape, named `hostile-pool`, whose condition
/// and event carry the payload (written through the API as a hostile hub would hold them).
fn plant_hostile_pool(served: &common::Served) {
    let base = "/apis/spectrocloud.com/v1alpha1/namespaces/vision-lab/computepools";
    let mut pool = common::raw(served, &format!("{base}/free-pool")).expect("free-pool");
    let metadata = pool["metadata"].as_object_mut().expect("metadata");
    for owned in [
        "uid",
        "resourceVersion",
        "creationTimestamp",
        "generation",
        "finalizers",
    ] {
        metadata.shift_remove(owned);
    }
    pool["metadata"]["name"] = json!("hostile-pool");
    pool["spec"]["clusterVariant"]["dedicated"]["paletteClusterDeploymentConfig"]["edge"]["vip"] =
        json!("10.30.9.99");
    if let Some(map) = pool.as_object_mut() {
        map.shift_remove("status");
    }
    common::send(served, "POST", base, "application/json", &pool).expect("created");
    let status = json!({"status": {
        "status": "Provisioning",
        "conditions": [{"type": "ClusterDeployed", "status": "False",
            "reason": "ClusterDeploymentFailed", "message": payload()}],
    }});
    common::send(
        served,
        "PATCH",
        &format!("{base}/hostile-pool/status"),
        "application/merge-patch+json",
        &status,
    )
    .expect("status patched");
    let event = json!({
        "apiVersion": "v1", "kind": "Event",
        "metadata": {"name": "hostile-event", "namespace": "vision-lab"},
        "involvedObject": {"kind": "ComputePool", "name": "hostile-pool", "namespace": "vision-lab",
            "apiVersion": "spectrocloud.com/v1alpha1"},
        "type": "Warning", "reason": "Hostile", "message": payload(),
        "lastTimestamp": chrono::Utc::now().to_rfc3339(),
    });
    common::send(
        served,
        "POST",
        "/api/v1/namespaces/vision-lab/events",
        "application/json",
        &event,
    )
    .expect("event created");
}

/// `doctor`, `get events`, `get pools` and `validate` print hostile text on a real terminal,
/// as text and as JSON and YAML: the pane's title stays, tmux's clipboard buffers get
/// nothing, the bidirectional override never reaches the screen (each is shown escaped, or as
/// the format's own escape).
#[test]
fn cluster_and_file_text_cannot_act_on_the_terminal() {
    if !common::tmux::available() {
        return;
    }
    let served = common::serve("deletion-blocked");
    plant_hostile_pool(&served);
    let dir = tempfile::tempdir().expect("temp dir");
    let manifest = dir.path().join("hostile.yaml");
    std::fs::write(
        &manifest,
        "apiVersion: spectrocloud.com/v1alpha1\nkind: ComputePool\nmetadata:\n  name: \"bad\\e]0;pwned-title\\aname\\u202e\"\n  namespace: vision-lab\nspec: {}\n",
    )
    .expect("manifest");
    let broken = dir.path().join("broken.yaml");
    std::fs::write(
        &broken,
        format!("kind: ComputePool # {CLIPBOARD}{TITLE}\nmetadata: {{name: [\n"),
    )
    .expect("broken manifest");
    let go = dir.path().join("go");
    let kubeconfig = served.kubeconfig.display().to_string();
    let bin = pooldeck().display().to_string();
    let script = format!(
        "while [ ! -e {go} ]; do sleep 0.05; done; \
         {bin} doctor -A --kubeconfig {kubeconfig}; \
         {bin} get events -A --kubeconfig {kubeconfig}; \
         {bin} get pools -A -o wide --kubeconfig {kubeconfig}; \
         {bin} get events -A -o json --kubeconfig {kubeconfig}; \
         {bin} get events -A -o yaml --kubeconfig {kubeconfig}; \
         {bin} doctor -A -o json --kubeconfig {kubeconfig}; \
         {bin} describe pool hostile-pool -n vision-lab --kubeconfig {kubeconfig}; \
         {bin} get events -A -o name --kubeconfig {kubeconfig}; \
         {bin} get events -A -o jsonpath={{.items[*].message}} --kubeconfig {kubeconfig}; \
         {bin} get pools -o \"$(printf \"x\\033]0;pwned-title\\007\")\" --kubeconfig {kubeconfig}; \
         {bin} get \"$(printf \"po\\033]0;pwned-title\\007ols\")\"; \
         {bin} completion \"$(printf \"b\\033]0;pwned-title\\007\")\"; \
         {bin} validate {manifest} {broken}; \
         echo ALL-PRINTED; sleep 120",
        go = go.display(),
        manifest = manifest.display(),
        broken = broken.display(),
    );
    let name = format!("pooldeck-safety-tty-{}", std::process::id());
    let session = Session::start(name.clone(), &format!("sh -c '{script}'"), 200, 120);
    tmux(&["set-option", "-s", "set-clipboard", "on"]);
    tmux(&["set-option", "-g", "allow-passthrough", "on"]);
    tmux(&["select-pane", "-t", &name, "-T", "before-pooldeck"]);
    std::fs::write(&go, "").expect("go");
    let screen = session.wait("everything printed", |s| s.contains("ALL-PRINTED"));
    let history = tmux(&["capture-pane", "-p", "-t", &name, "-S", "-2000"]);
    assert!(history.contains("hostile-pool"), "{history}");
    assert!(
        history.contains("\\x1b]0;pwned-title\\x07"),
        "shown escaped: {history}"
    );
    assert!(
        !history.contains(BIDI),
        "no bidi override on screen: {screen}"
    );
    assert!(history.contains("\\u{202e}"), "{history}");
    // What hides is shown too, as everywhere else; argument errors echo what was typed
    // escaped the same way.
    for hidden in HIDDEN.chars() {
        assert!(!history.contains(hidden), "{hidden:?} raw: {history}");
    }
    assert!(history.contains("\\u{200b}\\u{feff}end"), "{history}");
    assert!(
        history.contains("invalid value 'x\\x1b]0;pwned-title\\x07'"),
        "{history}"
    );
    assert!(
        history.contains("invalid value 'po\\x1b]0;pwned-title\\x07ols'"),
        "{history}"
    );
    let title = tmux(&["display-message", "-p", "-t", &name, "#{pane_title}"]);
    assert_eq!(title.trim(), "before-pooldeck", "the title was not set");
    let buffers = tmux(&["list-buffers", "-F", "#{buffer_sample}"]);
    assert!(!buffers.contains("pwned"), "no clipboard write: {buffers}");
}

/// Machine formats keep the data exactly where no person reads them (a pipe, a file): the
/// hostile event's message comes out of `-o jsonpath` byte for byte, and `-o json` and
/// `-o yaml` write it in their own escapes, which read back to the same message; the text
/// forms (`get` tables, `-o name` on a terminal) are inert.
#[test]
fn machine_formats_keep_the_data_to_a_pipe() {
    let served = common::serve("deletion-blocked");
    plant_hostile_pool(&served);
    let get = |args: &[&str]| -> Vec<u8> {
        let output = Command::new(pooldeck())
            .arg("get")
            .args(args)
            .env("KUBECONFIG", &served.kubeconfig)
            .output()
            .expect("runs");
        assert!(output.status.success(), "{output:?}");
        output.stdout
    };
    let raw = get(&[
        "events",
        "-n",
        "vision-lab",
        "-o",
        "jsonpath={.items[?(@.reason==\"Hostile\")].message}",
    ]);
    assert_eq!(String::from_utf8(raw).expect("UTF-8").trim_end(), payload());
    let json =
        String::from_utf8(get(&["events", "-n", "vision-lab", "-o", "json"])).expect("UTF-8");
    assert!(
        !json.contains('\u{1b}') && !json.contains('\u{200b}'),
        "escaped in JSON"
    );
    // The List read back holds the message as it was sent.
    let carries = |list: Value| {
        list["items"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|e| e["message"] == payload())
    };
    assert!(
        carries(serde_json::from_str(&json).expect("JSON")),
        "the same message read back"
    );
    let yaml =
        String::from_utf8(get(&["events", "-n", "vision-lab", "-o", "yaml"])).expect("UTF-8");
    assert!(
        !yaml.contains('\u{1b}') && !yaml.contains('\u{feff}'),
        "escaped in YAML"
    );
    assert!(
        carries(serde_saphyr::from_str(&yaml).expect("YAML")),
        "the same message read back"
    );
    let table = String::from_utf8(get(&["events", "-n", "vision-lab"])).expect("UTF-8");
    assert!(
        table.contains("\\x1b]0;pwned-title\\x07") && table.contains("\\u{200b}"),
        "{table}"
    );
}

/// A tiny disk: the audit log's next line does not fit. The line is not left half written
/// (every line of the log is whole JSON), and the request whose intent could not be
/// recorded is not sent (the server's write count is unchanged).
#[test]
fn an_audit_log_that_cannot_take_the_intent_holds_the_action_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    let disk = dir.path().join("tiny");
    std::fs::create_dir(&disk).expect("mount point");
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=12k", "tmpfs"])
        .arg(&disk)
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        common::skip("a tmpfs cannot be mounted here (needs root)");
        return;
    }
    struct Unmount<'a>(&'a Path);
    impl Drop for Unmount<'_> {
        fn drop(&mut self) {
            let _ = Command::new("umount").arg(self.0).status();
        }
    }
    let _unmount = Unmount(&disk);
    // Two of the three pages taken; the log's page nearly full of earlier, whole lines.
    std::fs::write(disk.join("filler"), vec![b'f'; 8192]).expect("filler");
    let audit = disk.join("audit.log");
    let earlier = format!("{}\n", json!({"record": "earlier", "pad": "p".repeat(80)}));
    let mut text = String::new();
    while text.len() + earlier.len() < 4096 - 40 {
        text.push_str(&earlier);
    }
    std::fs::write(&audit, &text).expect("earlier lines");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&audit, std::fs::Permissions::from_mode(0o600)).expect("mode");
    }
    let served = common::serve("deletion-blocked");
    let before = common::counts(&served).0;
    let output = assert_cmd::Command::new(pooldeck())
        .args(["pause", "free-pool", "-n", "vision-lab", "--audit-log"])
        .arg(&audit)
        .env("KUBECONFIG", &served.kubeconfig)
        .env("XDG_CONFIG_HOME", dir.path())
        .timeout(Duration::from_secs(60))
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(
        err.contains("its audit record could not be written") && err.contains("--audit-log"),
        "says why and how to point the log elsewhere: {err}"
    );
    assert_eq!(common::counts(&served).0, before, "nothing was sent");
    let log = std::fs::read_to_string(&audit).expect("the log");
    assert!(log.ends_with('\n'), "no half line at the end");
    for line in log.lines() {
        let _: Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("a line that is not whole ({e}): {line:?}"));
    }
    assert_eq!(log, text, "the log is as it was");
}

/// Output goes to a regular file or a new path only: a FIFO or a device given to `-o` is
/// refused with the reason, and nothing is written into it (no reader hangs, no device
/// replaced).
#[test]
fn output_into_a_fifo_or_a_device_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("pipe");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    assert!(made, "mkfifo");
    for target in [fifo.as_path(), Path::new("/dev/null")] {
        let no_hub = dir.path().join("no-kubeconfig");
        let target = target.to_str().expect("a path");
        let new = ["new", "-n", "vision-lab", "-o", target];
        let record = ["record", "--duration", "1s", "--output", target];
        for args in [&new[..], &record[..]] {
            let output = assert_cmd::Command::new(pooldeck())
                .args(args)
                .arg("--kubeconfig")
                .arg(&no_hub)
                .env("XDG_STATE_HOME", dir.path())
                .timeout(Duration::from_secs(30))
                .output()
                .expect("runs");
            let err = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "{args:?}: {err}");
            assert!(
                err.contains("a regular file or a new path"),
                "{args:?}: {err}"
            );
        }
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let null = std::fs::metadata("/dev/null").expect("/dev/null");
        assert!(null.file_type().is_char_device(), "still a device");
        let pipe = std::fs::symlink_metadata(&fifo).expect("the fifo");
        assert!(pipe.file_type().is_fifo(), "still a FIFO");
    }
}

/// Under umask 000 the directories pooldeck makes for its secrets are still closed to
/// others: every one it creates on the way is 0700.
#[test]
#[cfg(unix)]
fn private_directories_are_0700_whatever_the_umask() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let runtime = dir.path().join("run").join("user");
    let mut serve = Command::new("sh");
    serve
        .arg("-c")
        .arg(format!(
            "umask 000; exec {} demo serve --scenario deletion-blocked",
            pooldeck().display()
        ))
        .env("XDG_RUNTIME_DIR", &runtime);
    let (mut child, line) = first_line(&mut serve);
    assert!(line.starts_with("export KUBECONFIG="), "{line}");
    let modes: Vec<(String, u32)> = [
        dir.path().join("run"),
        runtime.clone(),
        runtime.join("pooldeck"),
    ]
    .iter()
    .map(|p| {
        let mode = std::fs::metadata(p).expect("made").permissions().mode() & 0o777;
        (p.display().to_string(), mode)
    })
    .collect();
    let _ = child.kill();
    let _ = child.wait();
    for (path, mode) in modes {
        assert_eq!(mode, 0o700, "{path} is {mode:o}");
    }
}

/// The console's terminal goes away under it (tmux kills the pane: the pty's other side is
/// closed, as a dropped SSH connection does): it ends as a hangup (exit 129), without a
/// panic, and the wizard's draft is on disk.
#[test]
fn a_console_whose_terminal_is_gone_ends_as_a_hangup_with_its_draft_kept() {
    if !common::tmux::available() {
        return;
    }
    let served = common::serve("deletion-blocked");
    let dir = tempfile::tempdir().expect("temp dir");
    let code = dir.path().join("code");
    // The shell ignores the hangup so it can write down how pooldeck ended; pooldeck's own
    // handler is installed over the ignored disposition.
    let command = format!(
        "sh -c 'trap \"\" HUP; env KUBECONFIG={} XDG_STATE_HOME={} XDG_CONFIG_HOME={} {} -A; echo $? > {}'",
        served.kubeconfig.display(),
        dir.path().display(),
        dir.path().display(),
        pooldeck().display(),
        code.display()
    );
    let name = format!("pooldeck-safety-hangup-{}", std::process::id());
    let session = Session::start(name, &command, 150, 45);
    session.wait_for("Compute Pools (3)");
    session.keys(&["n"]);
    session.wait_for("General");
    session.keys(&["Enter"]);
    session.type_text("kept-draft");
    session.keys(&["Enter"]);
    let drafts = dir.path().join("pooldeck").join("drafts");
    let kept = || -> Vec<String> {
        std::fs::read_dir(&drafts)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
                    .collect()
            })
            .unwrap_or_default()
    };
    common::eventually("the name kept in a draft", || {
        kept().iter().any(|d| d.contains("kept-draft"))
    });
    drop(session);
    let ended = || {
        std::fs::read_to_string(&code)
            .map(|text| text.trim().to_owned())
            .unwrap_or_default()
    };
    common::eventually("pooldeck ended", || !ended().is_empty());
    let status = ended();
    assert_eq!(
        status, "129",
        "a hangup, not a panic (101) nor an error (1)"
    );
    assert!(
        kept().iter().any(|d| d.contains("kept-draft")),
        "the draft is still there after the hangup: {:?}",
        kept()
    );
}

/// The terminal killed while the console hands it to the editor and takes it back (an editor
/// that ends at once; `E` then the start of an escape sequence, three times, as the keys of a
/// person who goes on typing), twenty times, the kill landing at a different moment of the
/// handovers each time: every console ends as a hangup (129), none is left running, and no
/// edit lock is left to refuse the next console's edit. Every other round runs the console in
/// a session of its own (setsid), where no hangup signal reaches it: the end of the terminal
/// alone must end it. The slowest end is printed (a figure, not a limit of the test).
#[test]
fn a_terminal_killed_during_editor_handovers_leaves_no_console_behind() {
    if !common::tmux::available() {
        return;
    }
    let served = common::serve("fleet");
    let dir = tempfile::tempdir().expect("temp dir");
    let edits = dir.path().join("pooldeck").join("edits");
    let mut slowest = Duration::ZERO;
    for round in 0..20u64 {
        let code = dir.path().join(format!("code-{round}"));
        let alone = if round % 2 == 1 { "setsid -w " } else { "" };
        let command = format!(
            "sh -c 'trap \"\" HUP; env KUBECONFIG={} XDG_STATE_HOME={} XDG_CONFIG_HOME={} \
             EDITOR=/bin/true {alone}{} -A; echo $? > {}'",
            served.kubeconfig.display(),
            dir.path().display(),
            dir.path().display(),
            pooldeck().display(),
            code.display()
        );
        let name = format!("pooldeck-safety-handover-{}-{round}", std::process::id());
        let session = Session::start(name.clone(), &command, 150, 45);
        session.wait_for("Compute Pools (");
        let pid = session.console_pid();
        let _reaped = Reap(pid.clone());
        session.keys(&["j"]);
        for _ in 0..3 {
            tmux(&["send-keys", "-t", &name, "E"]);
            tmux(&["send-keys", "-t", &name, "-H", "1b", "5b"]);
        }
        // Not a wait: when the terminal goes is what each round varies (0 to 1.2 s after the
        // keys: before, during and after the handovers).
        std::thread::sleep(Duration::from_millis(round % 7 * 200));
        let killed = std::time::Instant::now();
        drop(session);
        common::eventually(&format!("the console of round {round} ended"), || {
            !Path::new(&format!("/proc/{pid}")).exists()
        });
        slowest = slowest.max(killed.elapsed());
        // The shell around the console writes its status after it ends: waited for, not
        // raced (a loaded machine read the file before the shell had written it).
        common::eventually(&format!("round {round}'s status written"), || {
            std::fs::read_to_string(&code).is_ok_and(|s| s.ends_with('\n'))
        });
        let status = std::fs::read_to_string(&code).unwrap_or_default();
        assert_eq!(status.trim(), "129", "round {round}: a hangup");
        let locks: Vec<_> = std::fs::read_dir(&edits)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "lock"))
                    .collect()
            })
            .unwrap_or_default();
        assert!(locks.is_empty(), "round {round}: locks left {locks:?}");
    }
    eprintln!("slowest end after the terminal went: {slowest:?} (of 20 rounds)");
}

/// `pooldeck edit` whose terminal goes while the editor is open (an editor that neither reads
/// the terminal nor ends by itself): the verb ends with 129, the editor with it, the edit's
/// file kept and its lock released.
#[test]
fn the_edit_verb_ends_with_its_terminal() {
    if !common::tmux::available() {
        return;
    }
    let served = common::serve("fleet");
    let dir = tempfile::tempdir().expect("temp dir");
    let editor = dir.path().join("slow-editor.sh");
    std::fs::write(&editor, "#!/bin/sh\nexec sleep 300\n").expect("editor");
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&editor, std::fs::Permissions::from_mode(0o755)).expect("mode");
    }
    let code = dir.path().join("code");
    let command = format!(
        "sh -c 'trap \"\" HUP; env KUBECONFIG={} XDG_STATE_HOME={} EDITOR={} {} edit pool \
         llm-train -n ml-research; echo $? > {}'",
        served.kubeconfig.display(),
        dir.path().display(),
        editor.display(),
        pooldeck().display(),
        code.display()
    );
    let name = format!("pooldeck-safety-edit-verb-{}", std::process::id());
    let session = Session::start(name, &command, 120, 30);
    let edits = dir.path().join("pooldeck").join("edits");
    let files = || -> Vec<String> {
        std::fs::read_dir(&edits)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default()
    };
    common::eventually("the editor open, the edit locked", || {
        files().iter().any(|f| f.ends_with(".lock"))
    });
    drop(session);
    common::eventually("the verb ended", || {
        std::fs::read_to_string(&code).is_ok_and(|c| !c.trim().is_empty())
    });
    let status = std::fs::read_to_string(&code).unwrap_or_default();
    assert_eq!(status.trim(), "129");
    let left = files();
    assert!(!left.iter().any(|f| f.ends_with(".lock")), "{left:?}");
    assert!(
        left.iter().any(|f| f.ends_with(".yaml")),
        "the edit kept: {left:?}"
    );
}

/// Kills a console a failed test would leave behind (one spinning on a terminal gone).
struct Reap(String);

impl Drop for Reap {
    fn drop(&mut self) {
        let _ = Command::new("kill").args(["-9", &self.0]).output();
    }
}

/// Below 80×24 the dialog cannot be seen, so Tab and Enter confirm nothing: the server's
/// write count stays at the dry run's.
#[test]
fn a_screen_too_small_confirms_nothing() {
    if !common::tmux::available() {
        return;
    }
    let served = common::serve("deletion-blocked");
    let dir = tempfile::tempdir().expect("temp dir");
    let command = format!(
        "env KUBECONFIG={} XDG_CONFIG_HOME={} {} -A --audit-log {}; sleep 60",
        served.kubeconfig.display(),
        dir.path().display(),
        pooldeck().display(),
        dir.path().join("audit.log").display()
    );
    let name = format!("pooldeck-safety-small-{}", std::process::id());
    let session = Session::start(name.clone(), &command, 150, 45);
    session.wait_for("Compute Pools (3)");
    session.keys(&["p"]);
    session.wait_for("Dry run passed");
    let writes = common::counts(&served).0;
    tmux(&["resize-window", "-t", &name, "-x", "60", "-y", "20"]);
    session.wait_for("needs a terminal of at least");
    session.keys(&["Tab", "Enter", "Tab", "Enter"]);
    session.wait_for("only Esc and q are read");
    // Esc, the one key read, closes the dialog: every key before it has been read by then.
    session.keys(&["Escape"]);
    session.wait_for("cancelled Pause 1 Compute Pool: nothing was sent");
    assert_eq!(common::counts(&served).0, writes, "nothing was sent");
    tmux(&["resize-window", "-t", &name, "-x", "150", "-y", "45"]);
    let screen = session.wait_for("Compute Pools (3)");
    assert!(
        !screen.contains("[> Cancel <]"),
        "the dialog is closed: {screen}"
    );
    assert_eq!(common::counts(&served).0, writes, "still nothing");
}

/// A settings file that cannot be read as written makes the console read-only: the header
/// says so and why, and a pause sends nothing (not even a dry run).
#[test]
fn a_settings_file_that_cannot_be_read_makes_the_console_read_only() {
    if !common::tmux::available() {
        return;
    }
    let served = common::serve("deletion-blocked");
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(dir.path().join("pooldeck")).expect("dir");
    // A mis-indented file: `readonly: true` written one level too far out.
    std::fs::write(
        dir.path().join("pooldeck/config.yaml"),
        "contexts:\n  pooldeck-demo:\n  readonly: true\n",
    )
    .expect("settings");
    let before = common::counts(&served).0;
    let command = format!(
        "env KUBECONFIG={} XDG_CONFIG_HOME={} {} -A --audit-log {}; sleep 60",
        served.kubeconfig.display(),
        dir.path().display(),
        pooldeck().display(),
        dir.path().join("audit.log").display()
    );
    let name = format!("pooldeck-safety-settings-{}", std::process::id());
    let session = Session::start(name, &command, 150, 45);
    let screen = session.wait_for("Compute Pools (3)");
    assert!(screen.contains("READ-ONLY (the settings file"), "{screen}");
    session.keys(&["p"]);
    session.wait_for("read-only mode: nothing will be sent");
    session.keys(&["Tab", "Enter", "Escape"]);
    // The dialog closed: every key before Esc has been read.
    session.wait_for("cancelled: nothing was sent");
    assert_eq!(common::counts(&served).0, before, "not one write");
}

/// The `export KUBECONFIG=…` line `demo serve` prints is meant for eval: a path with a space
/// and `$(…)` in it is one shell word, so eval sets the variable and runs nothing.
#[test]
fn the_line_meant_for_eval_runs_nothing_else() {
    let dir = tempfile::tempdir().expect("temp dir");
    let planted = dir.path().join("PWNED");
    // Run in the directory: `touch PWNED` there would leave the file.
    let kubeconfig = dir.path().join("k b$(touch PWNED).yaml");
    let mut serve = Command::new(pooldeck());
    serve
        .args([
            "demo",
            "serve",
            "--scenario",
            "deletion-blocked",
            "--kubeconfig",
        ])
        .arg(&kubeconfig);
    let (mut child, line) = first_line(&mut serve);
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "eval {}; printf %s \"$KUBECONFIG\"",
            shell_word(&line)
        ))
        .current_dir(dir.path())
        .output()
        .expect("sh runs");
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        kubeconfig.display().to_string(),
        "{line}"
    );
    assert!(!planted.exists(), "eval ran what the path held: {line}");
}

/// A `demo serve` started, and the first line it prints (60 s at most).
fn first_line(serve: &mut Command) -> (std::process::Child, String) {
    let mut child = serve
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("serve starts");
    let lines = common::lines_of(child.stdout.take().expect("stdout"));
    let line = lines
        .recv_timeout(Duration::from_secs(60))
        .expect("the export line");
    (child, line)
}

/// A text as one word for `sh -c` (single-quoted).
fn shell_word(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}
