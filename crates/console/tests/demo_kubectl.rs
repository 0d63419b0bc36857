//! The demo cluster driven by the stock `kubectl`, as a learner practising the
//! troubleshooting guide would. Skips, saying why, where kubectl is not installed.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use serde_json::Value;

mod common;

use pooldeck::demo::actions::record_event;
use pooldeck::demo::scenario::Scenario;
use pooldeck::demo::{DemoCluster, Options, VIEWER_CONTEXT};

fn kubectl_path() -> Option<PathBuf> {
    ["/usr/bin/kubectl", "/usr/local/bin/kubectl"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

/// A demo cluster on its own runtime, with a kubeconfig and a home for kubectl's cache.
struct Fixture {
    runtime: tokio::runtime::Runtime,
    cluster: Option<DemoCluster>,
    dir: tempfile::TempDir,
    kubectl: PathBuf,
}

impl Fixture {
    fn start(scenario: &str, speed: f64) -> Option<Fixture> {
        let Some(kubectl) = kubectl_path() else {
            common::skip("kubectl is not installed (looked in /usr/bin and /usr/local/bin)");
            return None;
        };
        let (runtime, cluster) = common::in_process(Options {
            scenario: Some(Scenario::builtin(scenario).expect("built-in scenario")),
            speed,
            ..Options::default()
        });
        let dir = tempfile::tempdir().expect("temp dir");
        cluster
            .write_kubeconfig(&dir.path().join("kubeconfig"))
            .expect("kubeconfig");
        Some(Fixture {
            runtime,
            cluster: Some(cluster),
            dir,
            kubectl,
        })
    }

    fn cluster(&self) -> &DemoCluster {
        self.cluster.as_ref().expect("running")
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(&self.kubectl);
        command
            .args(args)
            .env("KUBECONFIG", self.dir.path().join("kubeconfig"))
            .env("HOME", self.dir.path())
            .env_remove("KUBECTL_EXTERNAL_DIFF")
            .stdin(Stdio::null());
        command
    }

    fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().expect("kubectl runs")
    }

    fn ok(&self, args: &[&str]) -> String {
        let output = self.run(args);
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        assert!(
            output.status.success(),
            "kubectl {} failed: {}{}",
            args.join(" "),
            stdout,
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

fn pool_object(fixture: &Fixture, namespace: &str, name: &str) -> Value {
    let store = &fixture.cluster().store;
    let pools = store
        .registry
        .by_kind("ComputePool")
        .expect("pools")
        .clone();
    (*store.get(&pools, namespace, name).expect("the pool exists")).clone()
}

#[test]
fn get_lists_pools_like_a_real_cluster() {
    let Some(fixture) = Fixture::start("deletion-blocked", 1.0) else {
        return;
    };
    let table = fixture.ok(&["get", "cp", "-A"]);
    let header = table.lines().next().expect("a header");
    for column in ["NAMESPACE", "NAME", "STATUS", "HEALTH", "AGE"] {
        assert!(header.contains(column), "{header}");
    }
    assert!(
        table.contains("blocked-pool") && table.contains("free-pool"),
        "{table}"
    );
    assert!(
        table
            .lines()
            .any(|l| l.contains("blocked-pool") && l.contains("Running") && l.contains("12d")),
        "{table}"
    );
    let wide = fixture.ok(&["get", "computepools", "-n", "vision-lab", "-o", "wide"]);
    assert!(
        wide.contains("VIP") && wide.contains("10.30.0.10"),
        "{wide}"
    );
}

#[test]
fn get_evaluations_as_yaml() {
    let Some(fixture) = Fixture::start("scale-up", 1.0) else {
        return;
    };
    let yaml = fixture.ok(&["get", "cpe", "-n", "my-project-namespace", "-o", "yaml"]);
    let documents = pooldeck::manifest::parse(&yaml).expect("kubectl printed YAML");
    let list = documents[0].root.to_json();
    assert_eq!(list["kind"], "List");
    let evaluation = &list["items"][0];
    assert_eq!(evaluation["kind"], "ComputePoolEvaluation");
    assert_eq!(
        evaluation.pointer("/spec/poolEvaluations/ml-cluster~1worker-pool-nvidia-amd64-0/gpu/NVIDIA H100 PCIe | 80 GB/target"),
        Some(&serde_json::json!(8))
    );
    assert_eq!(
        evaluation.pointer("/metadata/ownerReferences/0/kind"),
        Some(&serde_json::json!("ComputePool"))
    );
}

#[test]
fn events_by_involved_object() {
    let Some(fixture) = Fixture::start("deletion-blocked", 1.0) else {
        return;
    };
    let store = &fixture.cluster().store;
    record_event(
        store,
        "vision-lab",
        "ComputePool",
        "blocked-pool",
        "Warning",
        "VipConflict",
        "VIP 10.30.0.10 answers ARP",
    )
    .expect("event");
    record_event(
        store,
        "vision-lab",
        "ComputePool",
        "free-pool",
        "Normal",
        "Reconciled",
        "all good",
    )
    .expect("event");
    let events = fixture.ok(&[
        "get",
        "events",
        "-n",
        "vision-lab",
        "--field-selector",
        "involvedObject.name=blocked-pool",
    ]);
    assert!(events.contains("VipConflict"), "{events}");
    assert!(
        !events.contains("Reconciled"),
        "the selector filters: {events}"
    );
}

#[test]
fn watch_sees_a_change() {
    let Some(fixture) = Fixture::start("deletion-blocked", 1.0) else {
        return;
    };
    let mut child = fixture
        .command(&["get", "cp", "-n", "vision-lab", "-w"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("kubectl get -w starts");
    let receive = common::lines_of(child.stdout.take().expect("stdout"));
    // Header and the three pools first.
    let mut seen = Vec::new();
    while seen.len() < 4 {
        seen.push(
            receive
                .recv_timeout(Duration::from_secs(10))
                .expect("initial lines"),
        );
    }
    let store = &fixture.cluster().store;
    let pools = store
        .registry
        .by_kind("ComputePool")
        .expect("pools")
        .clone();
    let patch =
        pooldeck::demo::store::Patch::Merge(serde_json::json!({"status": {"status": "Unhealthy"}}));
    store
        .patch(&pools, "vision-lab", "free-pool", &patch, true, false)
        .expect("status patch");
    // The stuck pool's own updates (the demo controller marks it Deleting) may come first.
    let changed = loop {
        let line = receive
            .recv_timeout(Duration::from_secs(10))
            .expect("a line for the change");
        if line.contains("free-pool") {
            break line;
        }
        seen.push(line);
    };
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        changed.contains("free-pool") && changed.contains("Unhealthy"),
        "{changed} after {seen:?}"
    );
}

#[test]
fn label_pauses_and_delete_completes() {
    let Some(fixture) = Fixture::start("deletion-blocked", 10.0) else {
        return;
    };
    let labeled = fixture.ok(&[
        "label",
        "cp",
        "-n",
        "vision-lab",
        "free-pool",
        "controller.spectrocloud.com/pause=true",
    ]);
    assert!(labeled.contains("labeled"), "{labeled}");
    let pool = pool_object(&fixture, "vision-lab", "free-pool");
    assert_eq!(
        pool.pointer("/metadata/labels/controller.spectrocloud.com~1pause"),
        Some(&serde_json::json!("true"))
    );
    // The pause label does not block deletion: the controller still releases the finalizer.
    let deleted = fixture.ok(&[
        "delete",
        "cp",
        "-n",
        "vision-lab",
        "free-pool",
        "--timeout=30s",
    ]);
    assert!(deleted.contains("deleted"), "{deleted}");
    let after = fixture.run(&["get", "cp", "-n", "vision-lab", "free-pool"]);
    assert!(!after.status.success());
    assert!(
        String::from_utf8_lossy(&after.stderr).contains("NotFound"),
        "{}",
        String::from_utf8_lossy(&after.stderr)
    );
    // And the workload that used it was force-deleted.
    let workloads = fixture.ok(&["get", "aiworkloads", "-n", "vision-lab"]);
    assert!(!workloads.contains("demo-notebook"), "{workloads}");
}

#[test]
fn the_viewer_cannot_patch() {
    let Some(fixture) = Fixture::start("deletion-blocked", 1.0) else {
        return;
    };
    let no = fixture.run(&[
        "--context",
        VIEWER_CONTEXT,
        "auth",
        "can-i",
        "patch",
        "computepools",
    ]);
    assert!(
        String::from_utf8_lossy(&no.stdout).trim().starts_with("no"),
        "{}",
        String::from_utf8_lossy(&no.stdout)
    );
    assert_eq!(no.status.code(), Some(1));
    let yes = fixture.run(&[
        "--context",
        VIEWER_CONTEXT,
        "auth",
        "can-i",
        "list",
        "computepools",
    ]);
    assert_eq!(String::from_utf8_lossy(&yes.stdout).trim(), "yes");
    let refused = fixture.run(&[
        "--context",
        VIEWER_CONTEXT,
        "label",
        "cp",
        "-n",
        "vision-lab",
        "free-pool",
        "x=y",
    ]);
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("Forbidden"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
}

#[test]
fn the_crds_are_served_and_accepted_as_crds() {
    let Some(fixture) = Fixture::start("deletion-blocked", 1.0) else {
        return;
    };
    let listed = fixture.ok(&["get", "crd"]);
    for name in [
        "computepools.spectrocloud.com",
        "computepoolevaluations.spectrocloud.com",
        "tenants.spectrocloud.com",
    ] {
        assert!(listed.contains(name), "{listed}");
    }
    // kubectl reads every file of demo/crds as a CustomResourceDefinition and the server
    // takes each as an unchanged update (server-side dry run: nothing is stored).
    let crds = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../demo/crds");
    let applied = fixture.ok(&[
        "apply",
        "--dry-run=server",
        "--validate=false",
        "-f",
        crds.to_str().expect("path"),
    ]);
    assert_eq!(
        applied
            .lines()
            .filter(|l| l.contains("customresourcedefinition.apiextensions.k8s.io/"))
            .count(),
        9,
        "{applied}"
    );
}

#[test]
fn apply_creates_then_configures_a_pool() {
    let Some(fixture) = Fixture::start("vip-conflict", 1.0) else {
        return;
    };
    let manifest = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../demo/manifests/ml-cluster.yaml"),
    )
    .expect("example")
    .replace("namespace: my-project", "namespace: labs");
    let file = fixture.dir.path().join("pool.yaml");
    std::fs::write(&file, &manifest).expect("write");
    let path = file.to_str().expect("path");
    // Client-side validation reads the server's OpenAPI documents first.
    assert!(fixture.ok(&["apply", "-f", path]).contains("created"));
    assert!(fixture.ok(&["apply", "-f", path]).contains("unchanged"));
    std::fs::write(&file, manifest.replace("team: ml-platform", "team: vision")).expect("write");
    assert!(fixture.ok(&["apply", "-f", path]).contains("configured"));
    let pool = pool_object(&fixture, "labs", "ml-cluster");
    assert_eq!(
        pool.pointer("/metadata/labels/team"),
        Some(&serde_json::json!("vision"))
    );
}

#[test]
fn an_invalid_label_selector_deletes_nothing() {
    // `kubectl delete -l '!!!' --dry-run=server` "deleted" every pool: the selector matched
    // everything. A real API server refuses it, and so does the demo.
    let Some(fixture) = Fixture::start("fleet", 1.0) else {
        return;
    };
    let output = fixture.run(&["delete", "cp", "-A", "-l", "!!!", "--dry-run=server"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stdout}{stderr}");
    assert!(!stdout.contains("deleted"), "{stdout}");
    assert!(
        stderr.contains("BadRequest") || stderr.contains("unable to parse"),
        "{stderr}"
    );
}

/// The demo admits ComputePools as the product's webhook would: `kubectl apply` of a pool
/// that breaks an error rule, or a change of an existing pool's VIP, is refused with 422 and
/// the rule's message; a valid pool is created; a label change on a pool is never checked.
#[test]
fn apply_of_an_invalid_pool_is_refused_with_the_rules_message() {
    let Some(fixture) = Fixture::start("deletion-blocked", 1.0) else {
        return;
    };
    let example = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../demo/manifests/ml-cluster.yaml"
    ))
    .expect("the example")
    .replace("namespace: my-project", "namespace: vision-lab");
    let good = fixture.dir.path().join("good.yaml");
    std::fs::write(&good, &example).expect("write");
    let bad = fixture.dir.path().join("bad.yaml");
    std::fs::write(
        &bad,
        example
            .replace("nodeCount: 3", "nodeCount: 2")
            .replace("name: ml-cluster", "name: ml-cluster-two"),
    )
    .expect("write");
    let refused = fixture.run(&["apply", "-f", bad.to_str().expect("path")]);
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("is invalid"), "{said}");
    assert!(said.contains("controlPlanePool.nodeCount"), "{said}");
    assert!(
        said.contains("a control plane has 1, 3 or 5 nodes"),
        "{said}"
    );

    let created = fixture.ok(&["apply", "-f", good.to_str().expect("path")]);
    assert!(created.contains("created"), "{created}");
    let moved = fixture.run(&[
        "patch",
        "cp",
        "-n",
        "vision-lab",
        "ml-cluster",
        "--type",
        "merge",
        "-p",
        r#"{"spec":{"clusterVariant":{"dedicated":{"paletteClusterDeploymentConfig":{"edge":{"vip":"10.10.162.131"}}}}}}"#,
    ]);
    assert!(!moved.status.success());
    let said = String::from_utf8_lossy(&moved.stderr);
    assert!(said.contains("the VIP is immutable"), "{said}");
    // Labels are not the spec: pausing is never refused.
    let labeled = fixture.ok(&[
        "label",
        "cp",
        "-n",
        "vision-lab",
        "ml-cluster",
        "controller.spectrocloud.com/pause=true",
    ]);
    assert!(labeled.contains("labeled"), "{labeled}");
}

/// The VIP's holder is never blamed: in vip-conflict, an update of the running lab-a that
/// leaves its VIP alone is admitted (it was refused with 422 naming lab-b); a new pool on
/// lab-a's VIP is refused, naming lab-a.
#[test]
fn the_vip_holders_update_passes_and_a_newcomer_is_refused() {
    let Some(fixture) = Fixture::start("vip-conflict", 1.0) else {
        return;
    };
    let patched = fixture.ok(&[
        "patch",
        "cp",
        "-n",
        "labs",
        "lab-a",
        "--type",
        "merge",
        "-p",
        r#"{"spec":{"deletionPolicy":"orphan"}}"#,
    ]);
    assert!(patched.contains("patched"), "{patched}");
    let mut lab_c: serde_json::Value =
        serde_json::from_str(&fixture.ok(&["get", "cp", "-n", "labs", "lab-a", "-o", "json"]))
            .expect("lab-a as JSON");
    lab_c["metadata"] = serde_json::json!({"name": "lab-c", "namespace": "labs"});
    if let Some(map) = lab_c.as_object_mut() {
        map.remove("status");
    }
    let file = fixture.dir.path().join("lab-c.json");
    std::fs::write(&file, lab_c.to_string()).expect("write");
    let refused = fixture.run(&["create", "-f", file.to_str().expect("path")]);
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("is already used by") && said.contains("labs/lab-a"),
        "{said}"
    );
}

/// Longhorn's replica count is immutable, as the guide says: `kubectl annotate` 3 -> 1 on a
/// pool is refused with the guide's words; the same value written again is admitted.
#[test]
fn the_longhorn_replica_count_cannot_be_changed() {
    let Some(fixture) = Fixture::start("longhorn-replicas", 1.0) else {
        return;
    };
    let changed = fixture.run(&[
        "annotate",
        "--overwrite",
        "cp",
        "-n",
        "retail-east",
        "store-114",
        "longhornDefaultReplicaCount=1",
    ]);
    assert!(!changed.status.success());
    let said = String::from_utf8_lossy(&changed.stderr);
    assert!(said.contains("is immutable"), "{said}");
    assert!(
        said.contains("recreate the Compute Pool with the new value"),
        "{said}"
    );
    assert!(said.contains("back up any persistent data first"), "{said}");
    let kept = fixture.ok(&[
        "annotate",
        "--overwrite",
        "cp",
        "-n",
        "retail-east",
        "store-114",
        "longhornDefaultReplicaCount=3",
        "owner=ops",
    ]);
    assert!(kept.contains("annotated"), "{kept}");
}

/// The troubleshooting guide's log commands work on the demo: the hue controller's pod is
/// found by its label in mural-system, its log has the scenario's lines about the pools, a
/// followed log keeps bringing lines, and a viewer may read it.
#[test]
fn controller_logs_by_the_guides_label() {
    let Some(fixture) = Fixture::start("deletion-blocked", 1.0) else {
        return;
    };
    let selector = "controller.spectrocloud.com/name=hue-controllers";
    let pods = fixture.ok(&["get", "pods", "-n", "mural-system", "-l", selector]);
    assert!(
        pods.contains("hue-controllers-") && pods.contains("Running"),
        "{pods}"
    );
    let log = fixture.ok(&["logs", "-n", "mural-system", "-l", selector, "--tail=100"]);
    assert!(
        log.lines()
            .any(|l| l.contains("stuck-pool") && l.contains("stale-job")),
        "the scenario's scripted line: {log}"
    );
    assert!(
        log.lines()
            .any(|l| l.contains("Reconciling ComputePool") && l.contains("free-pool")),
        "{log}"
    );
    let tail = fixture.ok(&["logs", "-n", "mural-system", "-l", selector, "--tail=2"]);
    assert_eq!(tail.lines().count(), 2, "{tail}");
    let viewer = fixture.ok(&[
        "--context",
        "pooldeck-demo-viewer",
        "logs",
        "-n",
        "mural-system",
        "-l",
        selector,
        "--tail=1",
    ]);
    assert_eq!(viewer.lines().count(), 1, "{viewer}");
    // Followed, lines keep coming after the ones asked for.
    let mut child = fixture
        .command(&[
            "logs",
            "-f",
            "-n",
            "mural-system",
            "-l",
            selector,
            "--tail=1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("kubectl logs -f starts");
    let receive = common::lines_of(child.stdout.take().expect("stdout"));
    let first = receive
        .recv_timeout(Duration::from_secs(20))
        .expect("the tail line");
    let next = receive
        .recv_timeout(Duration::from_secs(20))
        .expect("a followed line");
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        next.contains("Reconciling ComputePool"),
        "{first} then {next}"
    );
    let missing = fixture.run(&["logs", "-n", "mural-system", "no-such-pod"]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("not found"));
}
