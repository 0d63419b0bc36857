//! `pooldeck demo serve` as an operator runs it: it prints the export line, answers over
//! HTTPS with the kubeconfig it wrote (and refuses requests without a token), and stops
//! cleanly on SIGTERM, removing its kubeconfig; it runs without transparent huge pages.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use kube::config::{KubeConfigOptions, Kubeconfig};
use kube::{Client, Config};

#[test]
fn serve_prints_its_kubeconfig_answers_and_stops_on_sigterm() {
    let dir = tempfile::tempdir().expect("temp dir");
    let kubeconfig = dir.path().join("demo.kubeconfig");
    let mut serve = common::demo_serve("vip-conflict", &kubeconfig)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("serve starts");
    let mut line = String::new();
    BufReader::new(serve.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("a line");
    assert_eq!(
        line.trim(),
        format!("export KUBECONFIG={}", kubeconfig.display())
    );
    // The binary turns transparent huge pages off for itself: they kept 2 MiB pages resident
    // for a few live objects each (a kernel too old to say so has no such line).
    #[cfg(target_os = "linux")]
    if let Some(thp) = std::fs::read_to_string(format!("/proc/{}/status", serve.id()))
        .expect("its status")
        .lines()
        .find_map(|l| l.strip_prefix("THP_enabled:"))
    {
        assert_eq!(thp.trim(), "0", "huge pages are off for pooldeck");
    }

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let text = std::fs::read_to_string(&kubeconfig).expect("the kubeconfig was written");
        let config = Kubeconfig::from_yaml(&text).expect("reads");
        let options = KubeConfigOptions::default();
        let client = Client::try_from(
            Config::from_custom_kubeconfig(config, &options)
                .await
                .expect("config"),
        )
        .expect("client");
        let version = client
            .apiserver_version()
            .await
            .expect("the server answers");
        assert_eq!(version.major, "1");
        assert_eq!(
            pools_with(&client)
                .list(&Default::default())
                .await
                .expect("list")
                .items
                .len(),
            2
        );

        // The same server without a token: 401 with a Status.
        let anonymous = Kubeconfig::from_yaml(
            &text
                .lines()
                .filter(|l| !l.trim_start().starts_with("token:"))
                .collect::<Vec<_>>()
                .join("\n"),
        )
        .expect("reads");
        let client = Client::try_from(
            Config::from_custom_kubeconfig(anonymous, &options)
                .await
                .expect("config"),
        )
        .expect("client");
        match pools_with(&client).list(&Default::default()).await {
            Err(kube::Error::Api(status)) => assert_eq!(status.code, 401),
            other => panic!("expected 401, got {other:?}"),
        }
    });

    let status = Command::new("kill")
        .args(["-TERM", &serve.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let deadline = Instant::now() + Duration::from_secs(10);
    let exit = loop {
        if let Some(exit) = serve.try_wait().expect("wait") {
            break exit;
        }
        assert!(
            Instant::now() < deadline,
            "the server did not stop on SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(exit.success(), "{exit:?}");
    assert!(!kubeconfig.exists(), "the kubeconfig is removed on exit");
}

fn pools_with(client: &Client) -> kube::Api<kube::api::DynamicObject> {
    kube::Api::namespaced_with(
        client.clone(),
        "labs",
        &kube::core::ApiResource::from_gvk_with_plural(
            &kube::core::GroupVersionKind::gvk("spectrocloud.com", "v1alpha1", "ComputePool"),
            "computepools",
        ),
    )
}

#[test]
fn serve_refuses_bad_arguments() {
    let output = Command::new(assert_cmd::cargo::cargo_bin("pooldeck"))
        .args(["demo", "serve", "--scenario", "nope"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("no scenario named \"nope\""));
    let output = Command::new(assert_cmd::cargo::cargo_bin("pooldeck"))
        .args(["demo", "serve", "--speed", "0"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    for args in [
        &["demo", "serve", "--bandwidth", "0"][..],
        &["demo", "serve", "--object-cost", "fast"][..],
        &["demo", "serve", "--unpaced", "--bandwidth", "5"][..],
    ] {
        let output = Command::new(assert_cmd::cargo::cargo_bin("pooldeck"))
            .args(args)
            .output()
            .expect("runs");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
    }
}

/// A client that connects and says nothing is cut off by the server's handshake deadline
/// (10 s), not held for ever; the server keeps serving others meanwhile.
#[test]
fn serve_closes_a_connection_that_says_nothing() {
    use std::io::Read;
    let served = common::serve("vip-conflict");
    let text = std::fs::read_to_string(&served.kubeconfig).expect("the kubeconfig was written");
    let address = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("server: https://"))
        .expect("a server address")
        .to_owned();
    let mut silent = std::net::TcpStream::connect(&address).expect("connects");
    silent
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("a read timeout");
    let started = Instant::now();
    let mut buffer = [0u8; 64];
    // End of stream or a reset is a close; a read timeout is a connection still held.
    let closed = match silent.read(&mut buffer) {
        Ok(n) => n == 0,
        Err(e) => !matches!(
            e.kind(),
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
        ),
    };
    let waited = started.elapsed();
    drop(served);
    assert!(closed, "the connection was still open after {waited:?}");
    assert!(
        waited >= Duration::from_secs(5),
        "closed before any deadline: {waited:?}"
    );
}

/// A stop that comes at once, or by SIGHUP (a dropped SSH session), still removes the
/// kubeconfig: the signals are listened for before it is written.
#[test]
fn serve_removes_its_kubeconfig_on_a_hangup_right_after_start() {
    for signal in ["-HUP", "-TERM", "-INT"] {
        let mut served = common::serve("vip-conflict");
        let exit = served.stop_with(signal);
        assert!(exit.success(), "{signal}: {exit:?}");
        assert!(
            !served.kubeconfig.exists(),
            "{signal}: the token was left behind"
        );
    }
}

/// Two servers given one kubeconfig path: the second writes its own over the first's, and
/// the first, stopping, leaves it (it removes only the file it wrote); the second removes it.
#[test]
fn a_server_removes_only_the_kubeconfig_it_wrote() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("shared.kubeconfig");
    let mut first = common::serve_at(&["--scenario", "vip-conflict"], path.clone());
    let mut second = common::serve_at(&["--scenario", "vip-conflict"], path.clone());
    let seconds = std::fs::read_to_string(&path).expect("the second's kubeconfig");
    assert!(first.stop_with("-TERM").success());
    assert_eq!(
        std::fs::read_to_string(&path).ok().as_deref(),
        Some(seconds.as_str()),
        "the first server removed the second's kubeconfig"
    );
    assert!(second.stop_with("-TERM").success());
    assert!(!path.exists(), "the second server left its token behind");
}

/// A path that holds a file no demo server wrote (a user's own kubeconfig) is refused:
/// nothing is written over it, and it is still there after.
#[test]
fn a_server_writes_over_no_file_it_did_not_write() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("config");
    std::fs::write(&path, "apiVersion: v1\nkind: Config\n# the user's own\n").expect("written");
    let output = common::demo_serve("vip-conflict", &path)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("no kubeconfig a demo server wrote"),
        "{output:?}"
    );
    assert_eq!(
        std::fs::read_to_string(&path).expect("still there"),
        "apiVersion: v1\nkind: Config\n# the user's own\n"
    );
}

/// A paced list (the `large` scenario's default: a real hub's pace, sent in chunks) is the
/// same list: every pool arrives, whole, through `pooldeck get -o json` (which streams it in
/// pages), per namespace, and a page at a time; a refusal is said with exit 1.
#[test]
fn a_paced_list_is_the_same_list() {
    // 1,200 pools: `get -o json` streams them in three pages of 500.
    let served = common::serve_with("large", &["--pools", "1200", "--bandwidth", "200"]);
    let output = assert_cmd::Command::cargo_bin("pooldeck")
        .expect("the binary")
        .args(["get", "pools", "-A", "-o", "json", "--kubeconfig"])
        .arg(&served.kubeconfig)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .expect("get runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let list: serde_json::Value = serde_json::from_slice(&output.stdout).expect("a JSON list");
    let items = list["items"].as_array().expect("items");
    assert_eq!(items.len(), 1200);
    assert!(
        items
            .iter()
            .all(|p| p["kind"] == "ComputePool" && p["apiVersion"] == "spectrocloud.com/v1alpha1")
    );
    let mut names: Vec<&str> = items
        .iter()
        .filter_map(|p| p["metadata"]["name"].as_str())
        .collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), 1200, "no pool twice, none cut");
    // One namespace at a time, and a reader refused across all namespaces.
    let one = assert_cmd::Command::cargo_bin("pooldeck")
        .expect("the binary")
        .args([
            "get",
            "pools",
            "-n",
            "project-1",
            "-n",
            "project-2",
            "-o",
            "json",
            "--kubeconfig",
        ])
        .arg(&served.kubeconfig)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .expect("get runs");
    let list: serde_json::Value = serde_json::from_slice(&one.stdout).expect("a JSON list");
    assert_eq!(list["items"].as_array().map(Vec::len), Some(800));
    let refused = assert_cmd::Command::cargo_bin("pooldeck")
        .expect("the binary")
        .args([
            "get",
            "pools",
            "-A",
            "-o",
            "json",
            "--context",
            "pooldeck-demo-viewer",
            "--kubeconfig",
        ])
        .arg(&served.kubeconfig)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .expect("get runs");
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("forbidden"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    let page = common::raw(
        &served,
        "/apis/spectrocloud.com/v1alpha1/computepools?limit=100",
    )
    .expect("a page");
    assert_eq!(page["items"].as_array().map(Vec::len), Some(100));
    assert!(page["metadata"]["continue"].is_string());
}
