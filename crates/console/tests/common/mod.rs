//! What the integration tests share: a kube client for a context of a running demo cluster.

use kube::config::{KubeConfigOptions, Kubeconfig};
use kube::{Client, Config};

use pooldeck::demo::DemoCluster;

#[allow(dead_code)]
pub mod tmux;

#[allow(dead_code)]
pub mod hubs;

/// A kube-rs client for one context of the demo cluster's kubeconfig.
#[allow(dead_code)]
pub async fn client(cluster: &DemoCluster, context: &str) -> Client {
    let kubeconfig = Kubeconfig::from_yaml(&cluster.kubeconfig()).expect("the kubeconfig reads");
    let options = KubeConfigOptions {
        context: Some(context.to_owned()),
        ..KubeConfigOptions::default()
    };
    let config = Config::from_custom_kubeconfig(kubeconfig, &options)
        .await
        .expect("config");
    Client::try_from(config).expect("client")
}

/// Says that a test skips because a tool is missing, or fails when the environment says every
/// tool must be there (CI sets `POOLDECK_REQUIRE_TOOLS=1` after installing them, so nothing
/// skips there unseen).
#[allow(dead_code)]
pub fn skip(reason: &str) {
    if std::env::var_os("POOLDECK_REQUIRE_TOOLS").is_some_and(|v| v == "1") {
        panic!("{reason}, and POOLDECK_REQUIRE_TOOLS=1 says it must be");
    }
    eprintln!("SKIPPED: {reason}");
}

/// Whether a tool runs here (`tool version...` succeeds); says why not, through [`skip`].
#[allow(dead_code)]
pub fn have(tool: &str, version: &[&str]) -> bool {
    let found = std::process::Command::new(tool)
        .args(version)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        skip(&format!("{tool} is not installed"));
    }
    found
}

/// (exit code, stdout, stderr) of a finished command.
#[allow(dead_code)]
pub fn outcome(output: std::process::Output) -> (Option<i32>, String, String) {
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// kubectl against a served demo cluster.
#[allow(dead_code)]
pub fn kubectl(served: &Served, args: &[&str]) -> (Option<i32>, String, String) {
    outcome(
        std::process::Command::new("kubectl")
            .args(args)
            .env("KUBECONFIG", &served.kubeconfig)
            .output()
            .expect("kubectl runs"),
    )
}

/// pooldeck against a served demo cluster, its settings and state in `state` (two minutes
/// at most: a hung command fails the test instead of holding it).
#[allow(dead_code)]
pub fn pooldeck_on(
    served: &Served,
    state: &std::path::Path,
    args: &[&str],
) -> (Option<i32>, String, String) {
    outcome(
        assert_cmd::Command::cargo_bin("pooldeck")
            .expect("the binary")
            .args(args)
            .env("KUBECONFIG", &served.kubeconfig)
            .env("XDG_CONFIG_HOME", state)
            .env("XDG_STATE_HOME", state)
            .timeout(std::time::Duration::from_secs(120))
            .output()
            .expect("runs"),
    )
}

/// Waits until `test` holds, asking again every 50 ms (60 s at most, for a loaded machine).
#[allow(dead_code)]
pub fn eventually(what: &str, test: impl Fn() -> bool) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !test() {
        assert!(std::time::Instant::now() < deadline, "waited for {what}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// The lines a child process writes, as they come, on a channel (read on a thread of its own
/// so a test can wait for each with a deadline).
#[allow(dead_code)]
pub fn lines_of(output: impl std::io::Read + Send + 'static) -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    let (lines, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(output)
            .lines()
            .map_while(Result::ok)
        {
            if lines.send(line).is_err() {
                return;
            }
        }
    });
    receive
}

/// A `pooldeck demo serve` playing a scenario, with its kubeconfig in a temporary directory;
/// stopped when dropped.
#[allow(dead_code)]
pub struct Served {
    child: std::process::Child,
    pub kubeconfig: std::path::PathBuf,
    _dir: Option<tempfile::TempDir>,
}

impl Served {
    /// The server's process id (to stop and continue it).
    #[allow(dead_code)]
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends a signal (`-TERM`, `-HUP`, …) and waits (15 s at most) for the server to end.
    #[allow(dead_code)]
    pub fn stop_with(&mut self, signal: &str) -> std::process::ExitStatus {
        let sent = std::process::Command::new("kill")
            .args([signal, &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success(), "kill {signal}");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
        loop {
            if let Some(exit) = self.child.try_wait().expect("wait") {
                return exit;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the server did not stop on {signal}"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[allow(dead_code)]
pub fn serve(scenario: &str) -> Served {
    serve_with(scenario, &[])
}

/// [`serve`] with more `demo serve` flags (`--speed 20`).
#[allow(dead_code)]
pub fn serve_with(scenario: &str, extra: &[&str]) -> Served {
    let mut args = vec!["--scenario", scenario];
    args.extend_from_slice(extra);
    serve_args(&args)
}

/// A demo cluster served in this process, on a runtime of its own (two workers) that serves
/// it while the test runs commands against it.
#[allow(dead_code)]
pub fn in_process(
    options: pooldeck::demo::Options,
) -> (tokio::runtime::Runtime, pooldeck::demo::DemoCluster) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let cluster = runtime
        .block_on(pooldeck::demo::DemoCluster::start(options))
        .expect("the demo cluster starts");
    (runtime, cluster)
}

/// The command `pooldeck demo serve --scenario SCENARIO --kubeconfig PATH`, not started.
#[allow(dead_code)]
pub fn demo_serve(scenario: &str, kubeconfig: &std::path::Path) -> std::process::Command {
    let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin("pooldeck"));
    command
        .args(["demo", "serve", "--scenario", scenario, "--kubeconfig"])
        .arg(kubeconfig);
    command
}

/// `demo serve` with these flags (a replay, say), its kubeconfig in a temporary directory.
#[allow(dead_code)]
pub fn serve_args(flags: &[&str]) -> Served {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut served = serve_at(flags, dir.path().join("demo.kubeconfig"));
    served._dir = Some(dir);
    served
}

/// `demo serve` with these flags, its kubeconfig written at `kubeconfig`.
#[allow(dead_code)]
pub fn serve_at(flags: &[&str], kubeconfig: std::path::PathBuf) -> Served {
    serve_in(flags, kubeconfig, None)
}

/// [`serve_args`] with pooldeck's state (a replay's timelines) in `state`.
#[allow(dead_code)]
pub fn serve_with_state(flags: &[&str], state: &std::path::Path) -> Served {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut served = serve_in(flags, dir.path().join("demo.kubeconfig"), Some(state));
    served._dir = Some(dir);
    served
}

fn serve_in(
    flags: &[&str],
    kubeconfig: std::path::PathBuf,
    state: Option<&std::path::Path>,
) -> Served {
    use std::io::BufRead;
    let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin("pooldeck"));
    if let Some(state) = state {
        command.env("XDG_STATE_HOME", state);
    }
    let mut child = command
        .args(["demo", "serve"])
        .args(flags)
        .arg("--kubeconfig")
        .arg(&kubeconfig)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("serve starts");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the export line");
    assert!(line.starts_with("export KUBECONFIG="), "{line}");
    Served {
        child,
        kubeconfig,
        _dir: None,
    }
}

/// A request on the served cluster as its admin, through kube-rs (the server's answer as
/// JSON, or the error in words).
fn request(served: &Served, request: http::Request<Vec<u8>>) -> Result<serde_json::Value, String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let text = std::fs::read_to_string(&served.kubeconfig).expect("the kubeconfig");
        let kubeconfig = Kubeconfig::from_yaml(&text).expect("reads");
        let config = Config::from_custom_kubeconfig(kubeconfig, &KubeConfigOptions::default())
            .await
            .expect("config");
        let client = Client::try_from(config).expect("client");
        client
            .request::<serde_json::Value>(request)
            .await
            .map_err(|e| e.to_string())
    })
}

/// A GET on the served cluster as its admin; `None` for an error (404).
#[allow(dead_code)]
pub fn raw(served: &Served, path: &str) -> Option<serde_json::Value> {
    let get = http::Request::get(path).body(Vec::new()).expect("request");
    request(served, get).ok()
}

/// A request with a body on the served cluster as its admin (`content_type` for a patch:
/// `application/merge-patch+json`); the answer, or the error in words.
#[allow(dead_code)]
pub fn send(
    served: &Served,
    method: &str,
    path: &str,
    content_type: &str,
    body: &serde_json::Value,
) -> Result<serde_json::Value, String> {
    let with_body = http::Request::builder()
        .method(method)
        .uri(path)
        .header("content-type", content_type)
        .body(serde_json::to_vec(body).expect("JSON"))
        .expect("request");
    request(served, with_body)
}

/// The demo server's counts: write requests received and write requests refused with 403.
#[allow(dead_code)]
pub fn counts(served: &Served) -> (u64, u64) {
    let answer = raw(served, "/pooldeck/requests").expect("the counts");
    (
        answer["writes"].as_u64().expect("writes"),
        answer["forbiddenWrites"]
            .as_u64()
            .expect("forbidden writes"),
    )
}
