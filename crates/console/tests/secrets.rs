//! Files that hold tokens: the demo's kubeconfig goes to a private directory as a new file of
//! mode 0600; a path holding a link or a file no demo server wrote is refused, nothing written;
//! nothing holding a token is left behind (`--demo`, which writes none at all, is
//! checked in tests/console_e2e.rs, where the console really runs).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

use std::io::{BufRead, BufReader};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod common;

fn serve(args: &[&str], runtime_dir: &Path) -> (Child, PathBuf) {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("pooldeck"))
        .args(["demo", "serve", "--scenario", "vip-conflict"])
        .args(args)
        .env("XDG_RUNTIME_DIR", runtime_dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the export line");
    let path = line
        .trim()
        .strip_prefix("export KUBECONFIG=")
        .map(PathBuf::from)
        .unwrap_or_else(|| panic!("an export line: {line:?}"));
    (child, path)
}

fn stop(mut child: Child) {
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let deadline = Instant::now() + Duration::from_secs(20);
    while child.try_wait().expect("wait").is_none() {
        assert!(Instant::now() < deadline, "serve did not stop on SIGTERM");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn me() -> u32 {
    std::fs::metadata("/proc/self").expect("proc").uid()
}

#[test]
fn the_demo_kubeconfig_lives_privately_and_is_removed_on_exit() {
    let runtime_dir = tempfile::tempdir().expect("temp dir");
    let (child, path) = serve(&[], runtime_dir.path());
    // Not a predictable name in a shared directory: pooldeck's own, closed to others.
    assert!(
        path.starts_with(runtime_dir.path().join("pooldeck")),
        "{}",
        path.display()
    );
    let dir = std::fs::metadata(path.parent().expect("a parent")).expect("dir");
    assert_eq!(dir.permissions().mode() & 0o777, 0o700);
    let file = std::fs::symlink_metadata(&path).expect("the kubeconfig");
    assert!(file.is_file());
    assert_eq!(file.permissions().mode() & 0o777, 0o600);
    assert_eq!(file.uid(), me());
    stop(child);
    assert!(!path.exists(), "the token is not left behind");
}

#[test]
fn a_chosen_path_is_never_written_through_a_link_or_into_another_users_file() {
    let runtime_dir = tempfile::tempdir().expect("temp dir");
    let shared = tempfile::tempdir().expect("temp dir");
    let refused = |path: &Path| {
        let output = common::demo_serve("vip-conflict", path)
            .env("XDG_RUNTIME_DIR", runtime_dir.path())
            .stdin(Stdio::null())
            .output()
            .expect("runs");
        assert_eq!(output.status.code(), Some(1), "{output:?}");
        assert!(
            String::from_utf8_lossy(&output.stderr).contains("nothing was written"),
            "{output:?}"
        );
        assert!(output.stdout.is_empty(), "no export line: {output:?}");
    };
    // A link planted where the kubeconfig goes, pointing at someone's file: refused, the
    // link and its target as they were.
    let victim = shared.path().join("victim");
    std::fs::write(&victim, "precious").expect("write");
    let planted = shared.path().join("demo.kubeconfig");
    std::os::unix::fs::symlink(&victim, &planted).expect("link");
    refused(&planted);
    assert_eq!(
        std::fs::read_to_string(&victim).expect("read"),
        "precious",
        "the link's target is untouched"
    );
    assert!(
        std::fs::symlink_metadata(&planted)
            .expect("meta")
            .file_type()
            .is_symlink(),
        "the link is left as it was"
    );

    // A file pre-created by another user (here: given away to nobody, readable by all):
    // refused, our token never in it.
    let precreated = shared.path().join("other.kubeconfig");
    std::fs::write(&precreated, "").expect("write");
    std::fs::set_permissions(&precreated, std::fs::Permissions::from_mode(0o666)).expect("chmod");
    let _ = Command::new("chown")
        .args(["65534", &precreated.display().to_string()])
        .status();
    refused(&precreated);
    assert_eq!(std::fs::read_to_string(&precreated).expect("read"), "");
}
