//! `pooldeck get` as an operator runs it against the demo cluster's fleet: every resource,
//! wide, JSON and YAML Lists, a name, --watch, the viewer's forbidden cluster-wide read, a
//! missing CRD, a malformed object, and connection errors.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

use std::process::{Command, Output, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

mod common;

use pooldeck::demo::scenario::Scenario;
use pooldeck::demo::store::Patch;
use pooldeck::demo::{DemoCluster, Options, VIEWER_CONTEXT};

struct Fixture {
    runtime: tokio::runtime::Runtime,
    cluster: Option<DemoCluster>,
    dir: tempfile::TempDir,
}

impl Fixture {
    fn start(options: Options) -> Fixture {
        let (runtime, cluster) = common::in_process(options);
        let dir = tempfile::tempdir().expect("temp dir");
        cluster
            .write_kubeconfig(&dir.path().join("kubeconfig"))
            .expect("kubeconfig");
        Fixture {
            runtime,
            cluster: Some(cluster),
            dir,
        }
    }

    fn fleet() -> Fixture {
        Fixture::start(Options {
            scenario: Some(Scenario::builtin("fleet").expect("fleet")),
            ..Options::default()
        })
    }

    fn cluster(&self) -> &DemoCluster {
        self.cluster.as_ref().expect("running")
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(assert_cmd::cargo::cargo_bin("pooldeck"));
        command
            .arg("get")
            .args(args)
            .env("KUBECONFIG", self.dir.path().join("kubeconfig"))
            .stdin(Stdio::null());
        command
    }

    fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().expect("runs")
    }

    fn ok(&self, args: &[&str]) -> String {
        let output = self.run(args);
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        assert!(
            output.status.success(),
            "get {args:?}: {stdout}{}",
            String::from_utf8_lossy(&output.stderr)
        );
        stdout
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        if let Some(cluster) = self.cluster.take() {
            self.runtime.block_on(cluster.stop());
        }
    }
}

fn line_with<'t>(text: &'t str, needle: &str) -> &'t str {
    text.lines()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line with {needle}: {text}"))
}

#[test]
fn pools_answer_the_first_questions() {
    let fixture = Fixture::fleet();
    let table = fixture.ok(&["pools", "-A"]);
    let header = table.lines().next().expect("header");
    for column in [
        "NAMESPACE",
        "NAME",
        "STATUS",
        "HEALTH",
        "GPUS",
        "HOSTS",
        "SCALING",
        "PAUSED",
        "AGE",
    ] {
        assert!(header.contains(column), "{header}");
    }
    assert_eq!(
        table.lines().count(),
        13,
        "a header and twelve pools: {table}"
    );
    let finetune = line_with(&table, "llm-finetune");
    assert!(
        finetune.contains("Updating")
            && finetune.contains("H100 PCIe 10/12")
            && finetune.contains("5/6"),
        "{finetune}"
    );
    assert!(finetune.contains("Scaling (abort in"), "{finetune}");
    assert!(
        line_with(&table, "mig-inference").contains("Cooldown 8m"),
        "countdown from stateChangedAt"
    );
    assert!(
        line_with(&table, "edge-store-311").contains("yes"),
        "paused"
    );
    assert!(line_with(&table, "retired-cluster").contains("Deleting"));
    assert!(!table.contains('\u{1b}'), "plain text over a pipe");
    // One namespace: no namespace column, like kubectl.
    let one = fixture.ok(&["cp", "-n", "vision-lab"]);
    assert!(
        one.lines().next().is_some_and(|h| h.starts_with("NAME")),
        "{one}"
    );
    assert_eq!(one.lines().count(), 4);
    let wide = fixture.ok(&["pools", "-n", "vision-lab", "-o", "wide"]);
    assert!(line_with(&wide, "detector").contains("10.40.0.15"));
}

#[test]
fn evaluations_hosts_events_and_projects() {
    let fixture = Fixture::fleet();
    let evaluations = fixture.ok(&["evaluations", "-A"]);
    let finetune = line_with(&evaluations, "llm-finetune");
    assert!(
        finetune.contains("91% 12->16") && finetune.contains("scale up +4 GPUs"),
        "{finetune}"
    );
    let hosts = fixture.ok(&["hosts", "llm-finetune", "-n", "ml-research"]);
    assert_eq!(hosts.lines().count(), 7, "{hosts}");
    assert!(line_with(&hosts, "Provisioning").contains("4x H100 PCIe"));
    pooldeck::demo::actions::record_event(
        &fixture.cluster().store,
        "vision-lab",
        "ComputePool",
        "detector",
        "Warning",
        "VipConflict",
        "VIP answers ARP",
    )
    .expect("event");
    let events = fixture.ok(&["events", "-n", "vision-lab"]);
    assert!(
        line_with(&events, "VipConflict").contains("computepool/detector"),
        "{events}"
    );
    let projects = fixture.ok(&["projects", "-A"]);
    let lab = line_with(&projects, "vision-lab");
    assert!(lab.contains("L40S 12") && lab.contains("L40S 6"), "{lab}");
}

#[test]
fn events_without_an_api_version_are_shown_and_a_named_event_is_read_as_kubectl_reads_it() {
    let fixture = Fixture::fleet();
    let store = &fixture.cluster().store;
    let event = |name: &str, involved: Value, reason: &str| {
        json!({
            "apiVersion": "v1", "kind": "Event",
            "metadata": {"name": name, "namespace": "vision-lab"},
            "involvedObject": involved,
            "reason": reason, "message": "a message", "type": "Normal",
            "lastTimestamp": "2026-01-01T00:00:00Z"
        })
    };
    // The API allows an event to leave its object's apiVersion out.
    store
        .put(event(
            "no-version.1",
            json!({"kind": "ComputePool", "namespace": "vision-lab", "name": "detector"}),
            "NoVersionGiven",
        ))
        .expect("event");
    store
        .put(event(
            "about-a-pod.1",
            json!({"apiVersion": "v1", "kind": "Pod", "namespace": "vision-lab", "name": "p"}),
            "PodPulled",
        ))
        .expect("event");
    store
        .put(event(
            "about-a-deployment.1",
            json!({"apiVersion": "apps/v1", "kind": "Deployment", "namespace": "vision-lab", "name": "d"}),
            "DeploymentScaled",
        ))
        .expect("event");
    let events = fixture.ok(&["events", "-n", "vision-lab"]);
    assert!(
        line_with(&events, "NoVersionGiven").contains("computepool/detector"),
        "{events}"
    );
    // The list is of events about PaletteAI objects, as before.
    assert!(
        !events.contains("PodPulled") && !events.contains("DeploymentScaled"),
        "{events}"
    );
    // A named event is read whatever it is about, as kubectl reads it.
    let named = fixture.ok(&["events", "about-a-pod.1", "-n", "vision-lab"]);
    assert!(line_with(&named, "PodPulled").contains("pod/p"), "{named}");
    let output = fixture.run(&["events", "nothing-of-that-name", "-n", "vision-lab"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&output.stderr)
            .contains("events \"nothing-of-that-name\" not found"),
        "{output:?}"
    );
}

#[test]
fn json_and_yaml_print_kubectl_lists() {
    let fixture = Fixture::fleet();
    let json_text = fixture.ok(&["pools", "-A", "-o", "json"]);
    let list: Value = serde_json::from_str(&json_text).expect("JSON");
    assert_eq!(list["kind"], "List");
    assert_eq!(list["items"].as_array().map(Vec::len), Some(12));
    assert_eq!(list["items"][0]["kind"], "ComputePool");
    assert!(list["items"][0]["status"]["status"].is_string());
    let yaml = fixture.ok(&["evaluations", "-n", "ml-research", "-o", "yaml"]);
    let documents = pooldeck::manifest::parse(&yaml).expect("YAML");
    assert_eq!(documents[0].root.to_json()["kind"], "List");
    // A name is the object itself, as kubectl prints it (it was a List of one).
    let one = fixture.ok(&["pools", "llm-train", "-n", "ml-research", "-o", "json"]);
    let object: Value = serde_json::from_str(&one).expect("JSON");
    assert_eq!(object["kind"], "ComputePool");
    assert_eq!(object["metadata"]["name"], "llm-train");
    let missing = fixture.run(&["pools", "nope", "-n", "ml-research"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("\"nope\" not found"));
}

/// `get -o json | head`: the reader leaving ends the List quietly (exit 0, nothing said), as
/// kubectl ends, wherever in an object the pipe closes. The List here is many times the
/// output's buffer, so the pipe is found closed while an object is being written.
#[test]
fn json_into_a_closed_pipe_ends_quietly() {
    let fixture = Fixture::start(Options {
        scenario: Some(Scenario::large(50)),
        ..Options::default()
    });
    let mut child = fixture
        .command(&["pools", "-A", "-o", "json", "--timeout", "30s"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("ends");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{said}");
    assert!(said.is_empty(), "{said}");
    // The same List read whole is larger than the output's 64 KiB buffer.
    assert!(fixture.ok(&["pools", "-A", "-o", "json"]).len() > 4 << 16);
}

#[test]
fn watch_never_reprints_a_row_whose_object_did_not_change() {
    // On the fleet demo an unchanged paused pool was printed again every second or so: its
    // cooldown countdown ticked. The other pools of its namespace change their utilization
    // several times a second at this speed.
    let fixture = Fixture::start(Options {
        scenario: Some(Scenario::builtin("fleet").expect("fleet")),
        speed: 20.0,
        ..Options::default()
    });
    let mut child = fixture
        .command(&["pools", "-n", "retail-edge", "--watch"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts");
    let receive = common::lines_of(child.stdout.take().expect("stdout"));
    let mut table = Vec::new();
    for _ in 0..5 {
        table.push(
            receive
                .recv_timeout(Duration::from_secs(15))
                .expect("the first table"),
        );
    }
    assert!(
        table.iter().any(|l| l.contains("edge-store-311")),
        "the paused pool is in the first table: {table:?}"
    );
    // Wait for enough changes to span several seconds of countdown.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let mut changed = Vec::new();
    while changed.len() < 60 && std::time::Instant::now() < deadline {
        if let Ok(line) = receive.recv_timeout(Duration::from_secs(1)) {
            changed.push(line);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(changed.len() >= 30, "changes arrived: {changed:?}");
    assert!(
        !changed.iter().any(|l| l.contains("edge-store-311")),
        "the paused pool was printed again: {changed:?}"
    );
    // Changed rows keep the first table's columns: the name starts where it did.
    let column = table[0].find("NAME").expect("a NAME header");
    for line in &changed {
        assert!(
            line.get(column..)
                .is_some_and(|rest| rest.starts_with("edge-store-") || rest.starts_with("recsys")),
            "{line:?} is not aligned under NAME at {column}"
        );
    }
}

/// `-w -o json --output-watch-events`: each object wrapped in the event that brought it, the
/// first ones ADDED, a change MODIFIED (kubectl's wrapper).
#[test]
fn watch_events_wrap_each_object_in_its_event() {
    let fixture = Fixture::fleet();
    let mut child = fixture
        .command(&[
            "pools",
            "-n",
            "vision-lab",
            "--watch",
            "-o",
            "json",
            "--output-watch-events",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts");
    let receive = common::lines_of(child.stdout.take().expect("stdout"));
    let event = || -> serde_json::Value {
        let line = receive
            .recv_timeout(Duration::from_secs(15))
            .expect("an event");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
    };
    let mut first = Vec::new();
    for _ in 0..3 {
        let added = event();
        assert_eq!(added["type"], "ADDED", "{added}");
        assert_eq!(added["object"]["kind"], "ComputePool", "{added}");
        first.push(
            added["object"]["metadata"]["name"]
                .as_str()
                .unwrap_or("")
                .to_owned(),
        );
    }
    first.sort();
    assert_eq!(first, ["detector", "ocr-batch", "video-analytics"]);
    let pools = fixture
        .cluster()
        .store
        .registry
        .by_kind("ComputePool")
        .expect("pools")
        .clone();
    fixture
        .cluster()
        .store
        .patch(
            &pools,
            "vision-lab",
            "detector",
            &Patch::Merge(json!({"metadata": {"labels": {"seen": "yes"}}})),
            false,
            false,
        )
        .expect("patch");
    let modified = loop {
        let next = event();
        if next["object"]["metadata"]["name"] == "detector" {
            break next;
        }
    };
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(modified["type"], "MODIFIED", "{modified}");
    assert_eq!(modified["object"]["metadata"]["labels"]["seen"], "yes");
}

#[test]
fn watch_prints_rows_as_they_change() {
    let fixture = Fixture::fleet();
    let mut child = fixture
        .command(&["pools", "-n", "vision-lab", "--watch"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts");
    let receive = common::lines_of(child.stdout.take().expect("stdout"));
    for _ in 0..4 {
        receive
            .recv_timeout(Duration::from_secs(15))
            .expect("the first table");
    }
    let pools = fixture
        .cluster()
        .store
        .registry
        .by_kind("ComputePool")
        .expect("pools")
        .clone();
    fixture
        .cluster()
        .store
        .patch(
            &pools,
            "vision-lab",
            "detector",
            &Patch::Merge(json!({"status": {"status": "Unhealthy"}})),
            true,
            false,
        )
        .expect("patch");
    let changed = loop {
        let line = receive
            .recv_timeout(Duration::from_secs(10))
            .expect("a changed row");
        if line.contains("detector") {
            break line;
        }
    };
    let _ = child.kill();
    let _ = child.wait();
    assert!(changed.contains("Unhealthy"), "{changed}");
}

#[test]
fn the_viewer_is_told_what_it_may_not_read() {
    let fixture = Fixture::fleet();
    let refused = fixture.run(&["pools", "-A", "--context", VIEWER_CONTEXT]);
    assert_eq!(refused.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("computepools.spectrocloud.com") && stderr.contains("list"),
        "{stderr}"
    );
    assert!(
        stderr.contains("get, list and watch"),
        "names the missing permission: {stderr}"
    );
    // Inside a namespace the viewer reads; the Tenant caps it may not see are said, not fatal.
    let projects = fixture.run(&["projects", "-n", "vision-lab", "--context", VIEWER_CONTEXT]);
    assert!(
        projects.status.success(),
        "{}",
        String::from_utf8_lossy(&projects.stderr)
    );
    assert!(String::from_utf8_lossy(&projects.stderr).contains("tenants.spectrocloud.com"));
}

#[test]
fn managed_fields_are_left_out_as_kubectl_leaves_them_out() {
    let fixture = Fixture::fleet();
    let managed = json!([{"manager": "kubectl-create", "operation": "Update",
                          "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {".": {}}}}]);
    fixture
        .cluster()
        .store
        .put(
            json!({"apiVersion": "spectrocloud.com/v1alpha1", "kind": "ComputePool",
                    "metadata": {"name": "written", "namespace": "vision-lab",
                                 "labels": {"team": "vision"}, "managedFields": managed},
                    "spec": {"deletionPolicy": "Delete"}}),
        )
        .expect("stored");
    let stored = fixture
        .cluster()
        .store
        .snapshot()
        .into_iter()
        .find(|o| o["metadata"]["name"] == "written")
        .expect("in the store");
    assert_eq!(
        stored["metadata"]["managedFields"], managed,
        "the server keeps them"
    );

    // The paged List (-A) and the object named alike.
    let all: Value =
        serde_json::from_str(&fixture.ok(&["pools", "-A", "-o", "json"])).expect("JSON");
    let one = fixture.ok(&["pools", "written", "-n", "vision-lab", "-o", "yaml"]);
    let one = pooldeck::manifest::parse(&one).expect("YAML")[0]
        .root
        .to_json();
    let listed = all["items"]
        .as_array()
        .and_then(|items| items.iter().find(|o| o["metadata"]["name"] == "written"))
        .expect("-A -o json: the pool is listed");
    for (how, item) in [("-A -o json", listed), ("a name -o yaml", &one)] {
        assert!(
            item["metadata"].get("managedFields").is_none(),
            "{how}: {item}"
        );
        assert_eq!(
            item["metadata"]["labels"]["team"], "vision",
            "{how}: the rest is kept"
        );
        assert_eq!(item["spec"]["deletionPolicy"], "Delete", "{how}");
    }
}

#[test]
fn a_missing_crd_and_a_malformed_object() {
    let fixture = Fixture::start(Options {
        scenario: Some(Scenario::builtin("fleet").expect("fleet")),
        without_kinds: vec!["Project".into()],
        ..Options::default()
    });
    let missing = fixture.run(&["projects", "-A"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&missing.stderr)
            .contains("projects.spectrocloud.com is not installed")
    );

    fixture
        .cluster()
        .store
        .put(
            json!({"apiVersion": "spectrocloud.com/v1alpha1", "kind": "ComputePool",
                    "metadata": {"name": "mangled", "namespace": "vision-lab"}, "spec": "garbage"}),
        )
        .expect("stored");
    let table = fixture.ok(&["pools", "-n", "vision-lab", "-o", "wide"]);
    let row = line_with(&table, "mangled");
    assert!(row.contains("spec: expected a mapping"), "{row}");
}

#[test]
fn connection_errors_are_explained() {
    let dir = tempfile::tempdir().expect("temp dir");
    let run = |args: &[&str], kubeconfig: &std::path::Path| {
        Command::new(assert_cmd::cargo::cargo_bin("pooldeck"))
            .arg("get")
            .args(args)
            .env("KUBECONFIG", kubeconfig)
            .env("HOME", dir.path())
            .output()
            .expect("runs")
    };
    let absent = run(&["pools"], &dir.path().join("absent"));
    assert_eq!(absent.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&absent.stderr).contains("kubeconfig"),
        "{}",
        String::from_utf8_lossy(&absent.stderr)
    );

    let fixture = Fixture::fleet();
    let kubeconfig = fixture.dir.path().join("kubeconfig");
    let wrong = run(&["pools", "--context", "nope"], &kubeconfig);
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("no context \"nope\""));
    // Expired credentials: a token the server does not know.
    let text = std::fs::read_to_string(&kubeconfig).expect("kubeconfig");
    let expired = dir.path().join("expired");
    let token = fixture.cluster().admin_token.clone();
    std::fs::write(&expired, text.replace(&token, "expired-token")).expect("write");
    let refused = run(&["pools", "-A", "--timeout", "10s"], &expired);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("401"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    // Unreachable: the server is gone.
    drop(fixture);
    let gone = run(&["pools", "-A", "--timeout", "10s"], &expired);
    assert_eq!(gone.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&gone.stderr).contains("cannot reach the server"),
        "{}",
        String::from_utf8_lossy(&gone.stderr)
    );
}

#[test]
fn a_namespace_that_is_no_name_is_refused_before_any_request() {
    let fixture = Fixture::fleet();
    for bad in ["../../apis", "bad ns", "UPPER"] {
        let output = fixture.run(&["pools", "-n", bad]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{bad}: {stderr}");
        assert!(
            stderr.contains("is not a namespace name"),
            "{bad}: {stderr}"
        );
        assert!(
            !stderr.contains("not installed"),
            "not blamed on a CRD: {stderr}"
        );
    }
}

#[test]
fn a_wrong_scheme_and_a_broken_local_authority_are_named_as_such() {
    let fixture = Fixture::fleet();
    let text = std::fs::read_to_string(fixture.dir.path().join("kubeconfig")).expect("kubeconfig");
    let url = fixture.cluster().url();
    let plain = fixture.dir.path().join("plain");
    std::fs::write(
        &plain,
        text.replace(&url, &url.replacen("https://", "http://", 1)),
    )
    .expect("write");
    let output = fixture
        .command(&[
            "pools",
            "-A",
            "--timeout",
            "10s",
            "--kubeconfig",
            &plain.display().to_string(),
        ])
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("start with https://"), "{stderr}");
    assert!(!stderr.contains("invalid HTTP version"), "{stderr}");
    // The kubeconfig's own authority is not a certificate: said as that, not as the server's.
    let broken: String = text
        .lines()
        .map(|l| {
            if l.trim_start().starts_with("certificate-authority-data:") {
                "    certificate-authority-data: bm90IGEgY2VydGlmaWNhdGU=".to_owned()
            } else {
                l.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let bad = fixture.dir.path().join("bad-authority");
    std::fs::write(&bad, broken).expect("write");
    let output = fixture
        .command(&[
            "pools",
            "-A",
            "--timeout",
            "10s",
            "--kubeconfig",
            &bad.display().to_string(),
        ])
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("certificate authority for cluster"),
        "{stderr}"
    );
    assert!(stderr.contains("is not a certificate"), "{stderr}");
}

/// `get -o json` reads a list as a watch-list where the server serves them and in pages where
/// it refuses them: the same List either way (1,200 pools: several pages), and the refusal is
/// asked once.
#[test]
fn json_lists_are_the_same_streamed_or_in_pages() {
    let start = |watch_list| {
        Fixture::start(Options {
            scenario: Some(Scenario::large(1_200)),
            watch_list,
            ..Options::default()
        })
    };
    let (streaming, paging) = (start(true), start(false));
    let read = |fixture: &Fixture| -> Vec<Value> {
        let list: Value =
            serde_json::from_str(&fixture.ok(&["pools", "-A", "-o", "json"])).expect("JSON");
        assert_eq!(list["kind"], "List");
        list["items"].as_array().expect("items").clone()
    };
    let (streamed, paged) = (read(&streaming), read(&paging));
    assert_eq!(streamed.len(), 1_200);
    assert_eq!(
        streaming.cluster().watch_lists_served(),
        1,
        "one watch-list, served"
    );
    assert_eq!(paging.cluster().watch_lists_asked(), 1, "refused once");
    assert_eq!(paging.cluster().watch_lists_served(), 0);
    // Each server made its objects at its own time: compare what the scenario wrote.
    let essence = |item: &Value| {
        json!([
            item["apiVersion"],
            item["kind"],
            item["metadata"]["namespace"],
            item["metadata"]["name"],
            item["metadata"]["labels"],
            item["spec"]
        ])
    };
    let streamed: Vec<Value> = streamed.iter().map(essence).collect();
    let paged: Vec<Value> = paged.iter().map(essence).collect();
    assert!(streamed == paged, "the same items in the same order");
    assert!(
        streamed.iter().all(|item| item[5].is_object()),
        "whole objects, not bookmarks"
    );
}

/// A server that takes the connection and never answers: `get -o json` keeps to `--timeout`
/// (it streams, so it has its own deadline) and says so, as the table does.
#[test]
fn json_keeps_to_the_timeout_on_a_server_that_never_answers() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let port = listener.local_addr().expect("address").port();
    // Connections are taken and held, never answered.
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming() {
            held.push(stream);
        }
    });
    let dir = tempfile::tempdir().expect("temp dir");
    let kubeconfig = dir.path().join("kubeconfig");
    std::fs::write(
        &kubeconfig,
        format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: silent\n  cluster:\n    server: http://127.0.0.1:{port}\nusers:\n- name: u\n  user:\n    token: t\ncontexts:\n- name: silent\n  context:\n    cluster: silent\n    user: u\ncurrent-context: silent\n"
        ),
    )
    .expect("kubeconfig");
    let started = std::time::Instant::now();
    let output = assert_cmd::Command::new(assert_cmd::cargo::cargo_bin("pooldeck"))
        .args(["get", "pools", "-A", "-o", "json", "--timeout", "2s"])
        .env("KUBECONFIG", &kubeconfig)
        .env("HOME", dir.path())
        .timeout(Duration::from_secs(60))
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("no complete answer from the server within 2s"),
        "{stderr}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
}
