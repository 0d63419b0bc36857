//! Two hubs in one kubeconfig, as an operator with a regional fleet has them: two demo
//! servers, the second behind an exec credential plugin that takes seconds (as a cloud
//! login does). Nothing reaches a hub that did not answer the dialog's own dry run, whatever
//! is typed while the second one connects; the audit log names the hub each request went to.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

mod common;

use std::process::Command;

use common::Served;
use common::tmux::Session;
use serde_json::Value;

/// What a client needs of one demo server: its address, its certificate authority and the
/// admin's token (read from the kubeconfig `demo serve` wrote).
struct Reach {
    server: String,
    authority: String,
    token: String,
}

fn reach(served: &Served) -> Reach {
    let text = std::fs::read_to_string(&served.kubeconfig).expect("the kubeconfig");
    let value = |key: &str| {
        text.lines()
            .find_map(|l| l.trim().strip_prefix(key))
            .map(|v| v.trim().to_owned())
            .unwrap_or_else(|| panic!("{key} in the kubeconfig"))
    };
    Reach {
        server: value("server:"),
        authority: value("certificate-authority-data:"),
        // The first user is the admin.
        token: value("token:"),
    }
}

/// One kubeconfig with contexts hub-a (a token) and hub-b (an exec plugin that sleeps
/// `slow_seconds` before it hands out its token).
fn two_hubs(a: &Reach, b: &Reach, slow_seconds: u32, dir: &std::path::Path) -> std::path::PathBuf {
    let credential = format!(
        "{{\"apiVersion\":\"client.authentication.k8s.io/v1beta1\",\"kind\":\"ExecCredential\",\"status\":{{\"token\":\"{}\",\"expirationTimestamp\":\"2099-01-01T00:00:00Z\"}}}}",
        b.token
    );
    let plugin = dir.join("slow-login.sh");
    std::fs::write(
        &plugin,
        format!("#!/bin/sh\nsleep {slow_seconds}\nprintf '%s' '{credential}'\n"),
    )
    .expect("plugin");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&plugin, std::fs::Permissions::from_mode(0o700)).expect("mode");
    }
    let text = format!(
        "apiVersion: v1
kind: Config
current-context: hub-a
clusters:
- name: hub-a
  cluster:
    server: {a_server}
    certificate-authority-data: {a_ca}
- name: hub-b
  cluster:
    server: {b_server}
    certificate-authority-data: {b_ca}
users:
- name: alice-a
  user:
    token: {a_token}
- name: alice-b
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: {plugin}
      interactiveMode: Never
contexts:
- name: hub-a
  context: {{cluster: hub-a, user: alice-a, namespace: vision-lab}}
- name: hub-b
  context: {{cluster: hub-b, user: alice-b, namespace: vision-lab}}
",
        a_server = a.server,
        a_ca = a.authority,
        b_server = b.server,
        b_ca = b.authority,
        a_token = a.token,
        plugin = plugin.display(),
    );
    let path = dir.join("two-hubs.kubeconfig");
    std::fs::write(&path, text).expect("kubeconfig");
    path
}

struct Fleet {
    a: Served,
    b: Served,
    dir: tempfile::TempDir,
    kubeconfig: std::path::PathBuf,
}

impl Fleet {
    fn start() -> Fleet {
        let a = common::serve("deletion-blocked");
        let b = common::serve("deletion-blocked");
        let dir = tempfile::tempdir().expect("temp dir");
        let kubeconfig = two_hubs(&reach(&a), &reach(&b), 3, dir.path());
        Fleet {
            a,
            b,
            dir,
            kubeconfig,
        }
    }

    /// The console on hub-a with every pool listed and `pool` alone in view.
    fn console_on(&self, name: &str, pool: &str) -> Session {
        let console = self.console(name);
        console.wait_for("Compute Pools (3)");
        select(&console, pool);
        console
    }

    fn audit(&self) -> std::path::PathBuf {
        self.dir.path().join("audit.log")
    }

    fn console(&self, name: &str) -> Session {
        let command = format!(
            "env KUBECONFIG={} XDG_CONFIG_HOME={} XDG_STATE_HOME={} {} -A --audit-log {}; sleep 60",
            self.kubeconfig.display(),
            self.dir.path().display(),
            self.dir.path().display(),
            assert_cmd::cargo::cargo_bin("pooldeck").display(),
            self.audit().display()
        );
        let name = format!("pooldeck-hubs-{name}-{}", std::process::id());
        Session::start(name, &command, 160, 45)
    }

    fn audit_lines(&self) -> Vec<Value> {
        std::fs::read_to_string(self.audit())
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).expect("JSON"))
            .collect()
    }

    fn kubectl(&self, args: &[&str]) -> String {
        let output = Command::new("kubectl")
            .args(args)
            .env("KUBECONFIG", &self.kubeconfig)
            .output()
            .expect("kubectl runs");
        String::from_utf8_lossy(&output.stdout).trim().to_owned()
    }
}

fn have_tools() -> bool {
    if !common::tmux::available() {
        return false;
    }
    if Command::new("kubectl")
        .args(["version", "--client"])
        .output()
        .is_err()
    {
        common::skip("kubectl is not installed");
        return false;
    }
    true
}

/// `:ctx hub-b`, then at once the `keys` given (typed while hub-b's slow login runs).
fn ask_for_hub_b(console: &Session, then: &[&str]) {
    console.keys(&[":"]);
    console.type_text("ctx hub-b");
    console.keys(&["Enter"]);
    console.keys(then);
}

/// Waits until the header names hub-b and its list shows `listed`; the screen.
fn on_hub_b(console: &Session, listed: &str) -> String {
    console.wait("hub-b in the header", |s| {
        s.lines().next().is_some_and(|l| l.contains("hub-b")) && s.contains(listed)
    })
}

fn select(console: &Session, pool: &str) {
    console.keys(&["Escape", "/"]);
    console.type_text(pool);
    console.keys(&["Enter"]);
    console.wait(&format!("{pool} alone"), |s| {
        s.contains(pool) && s.contains("Compute Pools (1)")
    });
}

/// `:ctx hub-b` then at once `p`, then Tab Enter once the header names hub-b: nothing is sent
/// to either hub. A pause opened on hub-b afterwards asks hub-b for its own dry run, and only
/// hub-b's pool is paused; the audit log names hub-b and its server.
#[test]
fn a_switch_to_a_slow_hub_sends_nothing_that_was_not_confirmed_there() {
    if !have_tools() {
        return;
    }
    let fleet = Fleet::start();
    let console = fleet.console_on("switch", "free-pool");
    ask_for_hub_b(&console, &["p"]);
    console.wait_for("switching to context hub-b");
    on_hub_b(&console, "Compute Pools (1)");
    console.keys(&["Tab", "Enter"]);
    console.keys(&["Escape"]);
    console.wait_for("Compute Pools (1)");
    assert_eq!(common::counts(&fleet.a).0, 0, "nothing reached hub-a");
    assert_eq!(common::counts(&fleet.b).0, 0, "nothing reached hub-b");

    // On hub-b, the dialog asks hub-b.
    console.keys(&["p"]);
    console.wait_for("Dry run passed");
    assert_eq!(common::counts(&fleet.b).0, 1, "hub-b's own dry run");
    console.keys(&["Tab", "Enter"]);
    console.wait("the pause on hub-b", |_| {
        fleet.kubectl(&[
            "--context",
            "hub-b",
            "get",
            "cp",
            "-n",
            "vision-lab",
            "free-pool",
            "-o",
            "jsonpath={.metadata.labels.controller\\.spectrocloud\\.com/pause}",
        ]) == "true"
    });
    assert_eq!(common::counts(&fleet.a).0, 0, "still nothing on hub-a");
    assert_eq!(
        fleet.kubectl(&[
            "--context",
            "hub-a",
            "get",
            "cp",
            "-n",
            "vision-lab",
            "free-pool",
            "-o",
            "jsonpath={.metadata.labels.controller\\.spectrocloud\\.com/pause}",
        ]),
        "",
        "hub-a's pool is not paused"
    );
    let lines = fleet.audit_lines();
    assert!(!lines.is_empty());
    let b_server = reach(&fleet.b).server;
    for line in &lines {
        assert_eq!(line["context"], "hub-b", "{line}");
        assert_eq!(line["server"], b_server.as_str(), "{line}");
        assert_eq!(line["user"], "alice-b", "{line}");
    }
    // The real request's outcome says the dry run it followed, answered by the same hub.
    let real = lines
        .iter()
        .find(|l| l["record"] == "outcome" && l["dryRun"] == false)
        .expect("the real request's outcome");
    assert_eq!(real["dryRunAnswer"]["result"], "done", "{real}");
}

/// The guide's unblock run on hub-a (its AIWorkload deleted there) does not carry to hub-b:
/// after the switch, `u` on hub-b's pool is step 1 again, built from hub-b's picture and
/// answered by hub-b; hub-b's AIWorkload and finalizer stay until confirmed there.
#[test]
fn an_unblock_on_one_hub_is_not_continued_on_the_other() {
    if !have_tools() {
        return;
    }
    let fleet = Fleet::start();
    let console = fleet.console_on("unblock", "stuck-pool");
    console.keys(&["u"]);
    console.wait_for("step 1");
    console.wait_for("Dry run passed");
    console.keys(&["Tab", "Enter"]);
    console.wait("hub-a's AIWorkload gone", |_| {
        fleet
            .kubectl(&[
                "--context",
                "hub-a",
                "get",
                "aiworkloads",
                "-n",
                "vision-lab",
                "-o",
                "name",
            ])
            .lines()
            .all(|l| !l.contains("stale-job"))
    });
    let a_writes = common::counts(&fleet.a).0;
    console.keys(&["Escape"]);
    ask_for_hub_b(&console, &["u"]);
    on_hub_b(&console, "Compute Pools (3)");
    select(&console, "stuck-pool");
    console.keys(&["u"]);
    let dialog = console.wait_for("Dry run passed");
    assert!(dialog.contains("step 1"), "hub-b's own picture: {dialog}");
    assert_eq!(common::counts(&fleet.b).0, 1, "only hub-b's dry run so far");
    assert!(
        fleet
            .kubectl(&[
                "--context",
                "hub-b",
                "get",
                "aiworkloads",
                "-n",
                "vision-lab",
                "-o",
                "name"
            ])
            .contains("stale-job"),
        "hub-b's AIWorkload is there until confirmed on hub-b"
    );
    console.keys(&["Escape"]);
    assert_eq!(
        common::counts(&fleet.a).0,
        a_writes,
        "nothing more on hub-a"
    );
    assert_eq!(common::counts(&fleet.b).0, 1, "Esc sends nothing");
    // The hub each record names is the one it went to.
    let a_server = reach(&fleet.a).server;
    let b_server = reach(&fleet.b).server;
    for line in fleet.audit_lines() {
        let server = if line["context"] == "hub-a" {
            &a_server
        } else {
            &b_server
        };
        assert_eq!(line["server"], server.as_str(), "{line}");
    }
}

/// A recreate confirmed on hub-a (the pool's delete accepted there, its finalizer holding it)
/// never creates the pool on hub-b when the console moves there during the teardown, nor
/// early on hub-a: the switch stops it and says so.
#[test]
fn a_recreate_does_not_carry_across_a_switch() {
    if !have_tools() {
        return;
    }
    let fleet = Fleet::start();
    let console = fleet.console_on("recreate", "blocked-pool");
    console.keys(&["e"]);
    console.wait_for("Edit Compute Pool vision-lab/blocked-pool");
    console.keys(&["R"]);
    console.keys(&["Tab", "Tab", "Tab", "Tab"]);
    console.wait_for("› Deployment");
    console.keys(&["j", "j", "j", "Enter"]);
    console.type_text("0");
    console.keys(&["Enter"]);
    console.wait_for("10.30.0.100");
    console.keys(&["Tab", "Tab"]);
    console.wait_for("› Review");
    console.keys(&["Enter"]);
    console.wait_for("Recreate Compute Pool vision-lab/blocked-pool with VIP 10.30.0.100");
    console.wait_for("Dry run passed");
    console.type_text("blocked-pool");
    console.keys(&["Enter", "Enter"]);
    console.wait_for("waiting until it is gone");
    let a_writes = common::counts(&fleet.a).0;
    ask_for_hub_b(&console, &[]);
    let screen = on_hub_b(&console, "Compute Pools (1)");
    assert!(
        screen.contains("the recreate of ComputePool vision-lab/blocked-pool"),
        "the switch says what it stopped: {screen}"
    );
    assert_eq!(common::counts(&fleet.b).0, 0, "nothing reached hub-b");
    assert_eq!(
        common::counts(&fleet.a).0,
        a_writes,
        "no create on hub-a either"
    );
    assert!(
        !fleet
            .audit_lines()
            .iter()
            .any(|l| l["operation"] == "create"),
        "no create was sent anywhere"
    );
}
