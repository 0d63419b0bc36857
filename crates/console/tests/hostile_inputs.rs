//! Inputs a careful attacker or a tired operator gives: devices, FIFOs, endless streams, link
//! loops. Each is refused in words, quickly, without reading it; a test that would hang fails
//! by its own timeout.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

use std::path::Path;
use std::process::{Command as Process, Stdio};
use std::time::Duration;

use assert_cmd::Command;

const LIMIT: Duration = Duration::from_secs(20);

fn pooldeck() -> Command {
    let mut command = Command::cargo_bin("pooldeck").expect("the binary");
    command.timeout(LIMIT);
    command
}

fn mkfifo(path: &Path) {
    let made = Process::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", path.display());
}

fn example() -> String {
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../demo/manifests/ml-cluster.yaml"
    )
    .to_owned()
}

/// Runs and returns (exit code, what it said on stdout and stderr); a run cut by the timeout
/// has no code.
fn run(command: &mut Command) -> (Option<i32>, String) {
    let output = command.output().expect("runs");
    (
        output.status.code(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ),
    )
}

#[test]
fn devices_are_refused_not_read() {
    for device in ["/dev/zero", "/dev/urandom"] {
        let (code, stderr) = run(pooldeck().args(["validate", device]));
        assert_eq!(code, Some(2), "{device}: {stderr}");
        assert!(stderr.contains("a device, not a regular file"), "{stderr}");
        let (code, stderr) = run(pooldeck().args(["validate", "--old", device, &example()]));
        assert_eq!(code, Some(2), "--old {device}: {stderr}");
        let (code, stderr) = run(pooldeck().args(["validate", "--existing", device, &example()]));
        assert_eq!(code, Some(2), "--existing {device}: {stderr}");
    }
}

#[test]
fn a_fifo_never_blocks_validate() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("pipe.yaml");
    mkfifo(&fifo);
    let fifo_text = fifo.display().to_string();
    let (code, stderr) = run(pooldeck().args(["validate", &fifo_text]));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("FIFO"), "{stderr}");
    let (code, stderr) = run(pooldeck().args(["validate", "--existing", &fifo_text, &example()]));
    assert_eq!(code, Some(2), "{stderr}");
    // Inside a directory the FIFO is reported and skipped; the manifest beside it is checked.
    std::fs::copy(example(), dir.path().join("pool.yaml")).expect("copy");
    let output = pooldeck()
        .args(["validate", &dir.path().display().to_string()])
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(2), "{stdout}{stderr}");
    assert!(
        format!("{stdout}{stderr}").contains("pipe.yaml")
            && format!("{stdout}{stderr}").contains("FIFO"),
        "the FIFO is named: {stdout}{stderr}"
    );
}

#[test]
fn endless_standard_input_is_refused_at_the_cap() {
    let zero = std::fs::File::open("/dev/zero").expect("/dev/zero");
    let mut child = Process::new(assert_cmd::cargo::cargo_bin("pooldeck"))
        .args(["validate", "-"])
        .stdin(Stdio::from(zero))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts");
    let deadline = std::time::Instant::now() + LIMIT;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("validate - kept reading an endless stream");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().expect("stdout"), &mut stderr)
        .expect("stdout");
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("larger than 32 MiB"), "{stderr}");
}

#[test]
fn replay_refuses_devices_and_fifos() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("recording.yaml");
    mkfifo(&fifo);
    for path in ["/dev/zero".to_owned(), fifo.display().to_string()] {
        let (code, stderr) = run(pooldeck().args(["demo", "serve", "--replay", &path]));
        assert_eq!(code, Some(2), "{path}: {stderr}");
        assert!(stderr.contains("not a regular file"), "{stderr}");
    }
}

#[test]
fn linked_directories_are_followed_once_and_loops_end() {
    let dir = tempfile::tempdir().expect("temp dir");
    let real = dir.path().join("real");
    std::fs::create_dir(&real).expect("dir");
    std::fs::copy(example(), real.join("pool.yaml")).expect("copy");
    let top = dir.path().join("top");
    std::fs::create_dir(&top).expect("dir");
    std::os::unix::fs::symlink(&real, top.join("linked")).expect("link");
    std::os::unix::fs::symlink(&top, top.join("loop")).expect("loop");
    let output = pooldeck()
        .args(["validate", "--format", "json", &top.display().to_string()])
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    let files: std::collections::BTreeSet<String> = report["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f["file"].as_str().map(str::to_owned))
        .collect();
    assert!(
        files.len() <= 1,
        "the linked manifest is read once, not once per trip round the loop: {files:?}"
    );
}

#[test]
fn pools_sharing_a_vip_make_one_finding_each_not_one_per_pair() {
    // 300 copies took 8.3 s and printed 23 MB; 2,000 ran for minutes. Now each pool gets one
    // finding naming a few of the others and the count.
    let template = std::fs::read_to_string(example()).expect("example");
    let pools = 500;
    let mut text = String::new();
    for i in 0..pools {
        text.push_str(&template.replace("name: ml-cluster", &format!("name: copy-{i}")));
        text.push_str("\n---\n");
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("copies.yaml");
    std::fs::write(&file, text).expect("write");
    let output = pooldeck()
        .args(["validate", "--format", "json", &file.display().to_string()])
        .timeout(Duration::from_secs(120))
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json");
    let unique: Vec<&serde_json::Value> = report["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|f| f["rule"] == "vip.unique")
        .collect();
    assert_eq!(unique.len(), pools, "one finding per pool");
    for finding in unique {
        let message = finding["message"].as_str().unwrap_or("");
        assert!(
            message.contains(&format!("{} other ComputePools", pools - 1))
                && message.contains(&format!("and {} more", pools - 1 - 5)),
            "{message}"
        );
    }
}

#[test]
fn parser_troubles_are_said_in_the_users_terms() {
    let dir = tempfile::tempdir().expect("temp dir");
    let duplicate = dir.path().join("duplicate.yaml");
    std::fs::write(&duplicate, "a: 1\na: 2\n").expect("write");
    // Aliases that expand past the parser's budget.
    let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x]\n");
    for i in 0..12 {
        let previous = if i == 0 {
            "a".to_owned()
        } else {
            format!("l{}", i - 1)
        };
        bomb.push_str(&format!(
            "l{i}: &l{i} [{}]\n",
            vec![format!("*{previous}"); 9].join(", ")
        ));
    }
    let bombed = dir.path().join("bomb.yaml");
    std::fs::write(&bombed, bomb).expect("write");
    let missing = dir.path().join("missing.yaml");
    // One anchor replayed by aliases past the parser's budget (fewer aliases than the
    // alias-to-anchor ratio check needs, so the replay count is what stops it).
    let mut replayed = format!("a: &a [{}]\n", vec!["x"; 10_000].join(", "));
    for i in 0..50 {
        replayed.push_str(&format!("b{i}: *a\n"));
    }
    let replayed_file = dir.path().join("replayed.yaml");
    std::fs::write(&replayed_file, replayed).expect("write");
    // A debug build reads up to the budget in about four seconds per file; the limit is for
    // a hang, not a speed check.
    let (code, said) = run(pooldeck()
        .timeout(Duration::from_secs(90))
        .args(["validate", &replayed_file.display().to_string()]));
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("anchors and aliases"), "{said}");
    assert!(!said.contains("replay limit"), "{said}");
    let (code, said) = run(pooldeck().timeout(Duration::from_secs(90)).args([
        "validate",
        &duplicate.display().to_string(),
        &bombed.display().to_string(),
        &missing.display().to_string(),
    ]));
    assert_eq!(code, Some(2), "{said}");
    for internal in [
        "DuplicateKeyPolicy",
        "budget breached",
        "RecordedAnchorEvents",
        "Options",
    ] {
        assert!(!said.contains(internal), "{internal} leaked: {said}");
    }
    assert!(
        said.contains("duplicate key \"a\": it appears twice"),
        "{said}"
    );
    assert!(said.contains("anchors and aliases"), "{said}");
    assert!(
        said.contains("in 2 files; 1 more could not be read"),
        "{said}"
    );
}

#[test]
fn kubeconfigs_that_are_not_files_are_refused_in_words() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("config");
    mkfifo(&fifo);
    let missing = dir.path().join("missing");
    let fifo = fifo.display().to_string();
    let missing = missing.display().to_string();
    let directory = dir.path().display().to_string();
    for (command, path, why) in [
        ("get", &fifo, "a FIFO (named pipe), not a regular file"),
        (
            "get",
            &"/dev/zero".to_owned(),
            "a device, not a regular file",
        ),
        ("get", &directory, "a directory, not a regular file"),
        ("get", &missing, "no such file or directory"),
        ("record", &fifo, "a FIFO (named pipe), not a regular file"),
    ] {
        let mut invocation = pooldeck();
        invocation.args([command, "--kubeconfig", path]);
        if command == "get" {
            invocation.arg("pools");
        } else {
            invocation.args(["-o", &dir.path().join("r.yaml").display().to_string()]);
        }
        let (code, said) = run(&mut invocation);
        assert!(code.is_some_and(|c| c != 0), "{command} {path}: {said}");
        assert!(
            said.contains(&format!("cannot read the kubeconfig {path}: it is {why}"))
                || said.contains(&format!("cannot read the kubeconfig {path}: {why}")),
            "{command} {path}: {said}"
        );
        // The path is named once, as given: not again in quotes.
        assert_eq!(said.matches(path.as_str()).count(), 1, "{said}");
        assert!(!said.contains("'\""), "{said}");
    }
    // Through KUBECONFIG too; a listed file that does not exist is skipped, as kubectl does.
    let (code, said) = run(pooldeck()
        .args(["get", "pools"])
        .env("KUBECONFIG", format!("{missing}:{fifo}")));
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("a FIFO (named pipe)"), "{said}");
    let (code, said) = run(pooldeck()
        .args(["get", "pools"])
        .env("KUBECONFIG", &missing));
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("no kubeconfig found"), "{said}");
    assert!(said.contains("--kubeconfig"), "says what to do: {said}");
}

#[test]
fn command_line_values_are_refused_once_and_in_words() {
    for args in [
        vec!["demo", "serve", "--speed", "-1"],
        vec!["demo", "serve", "--speed", "0"],
        vec!["demo", "serve", "--speed", "nan"],
        vec!["--demo", "fleet", "--speed", "-2"],
        // Faster than a console can draw: refused, not a spinning process.
        vec!["--demo", "fleet", "--speed", "10000"],
        vec!["demo", "serve", "--speed", "101"],
    ] {
        let (code, said) = run(pooldeck().args(&args));
        assert_eq!(code, Some(2), "{args:?}: {said}");
        assert!(
            said.contains("the speed is a number above 0"),
            "{args:?}: {said}"
        );
    }
    for args in [
        vec!["record", "--duration", "soon", "-o", "r.yaml"],
        vec!["get", "pools", "--watch", "--timeout", "-5s"],
    ] {
        let (code, said) = run(pooldeck().args(&args));
        assert_eq!(code, Some(2), "{args:?}: {said}");
        let value = args[args.len() - if args[0] == "record" { 3 } else { 1 }];
        assert!(said.contains(&format!("'{value}'")), "{args:?}: {said}");
        assert!(
            !said.contains(&format!("\"{value}\"")),
            "the value is quoted twice: {said}"
        );
        assert!(said.contains("written like 90s"), "{args:?}: {said}");
    }
    // A misspelt scenario is the error reported, whatever the terminal (here: none).
    let (code, said) = run(pooldeck().args(["--demo", "flet"]));
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("no scenario named \"flet\""), "{said}");
}

#[test]
fn pooldeck_new_checks_its_files_before_opening() {
    let dir = tempfile::tempdir().expect("temp dir");
    let other = dir.path().join("other.yaml");
    std::fs::write(
        &other,
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n",
    )
    .expect("write");
    let missing_dir = dir.path().join("nope").join("out.yaml");
    for (args, why) in [
        (
            vec!["new", "--from", "/dev/zero"],
            "a device, not a regular file".to_owned(),
        ),
        (
            vec!["new", "--from", other.to_str().expect("path")],
            "holds no ComputePool".to_owned(),
        ),
        (
            vec!["new", "-o", missing_dir.to_str().expect("path")],
            "does not exist".to_owned(),
        ),
        (
            vec!["new", "-n", "Bad NS"],
            "is not a namespace name".to_owned(),
        ),
    ] {
        let (code, said) = run(pooldeck().args(&args));
        assert_eq!(code, Some(2), "{args:?}: {said}");
        assert!(said.contains(&why), "{args:?}: {said}");
    }
}
