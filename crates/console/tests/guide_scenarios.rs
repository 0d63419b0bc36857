//! The troubleshooting guide's sections played on the demo: a scenario for each of
//! "Changing Longhorn Replica Count", "Node Stuck in Provisioning (Air-Gapped)" and "GPU Pods
//! Stuck with No NVIDIA Runtime Configured", each found by the doctor and none on a healthy
//! fleet; the hue controller's Deployment answering the guide's `kubectl get deployments`;
//! `demo serve --help` naming every built-in scenario; and a scenario's loop that leaves an
//! object the operator fixed as the operator left it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails

mod common;

use std::process::{Command, Stdio};

use pooldeck::demo::scenario::{BUILTIN, Scenario};
use pooldeck::demo::{DemoCluster, Options};

/// The doctor's finding ids per pool, `namespace/name`, on a served scenario.
fn findings(scenario: &str) -> Vec<(String, Vec<String>)> {
    let served = common::serve(scenario);
    let state = tempfile::tempdir().expect("dir");
    let (_, out, err) = common::pooldeck_on(&served, state.path(), &["doctor", "-A", "-o", "json"]);
    let report: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    report["pools"]
        .as_array()
        .expect("pools")
        .iter()
        .map(|pool| {
            (
                format!(
                    "{}/{}",
                    pool["namespace"].as_str().unwrap_or(""),
                    pool["name"].as_str().unwrap_or("")
                ),
                pool["findings"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|f| f["id"].as_str().map(str::to_owned))
                    .collect(),
            )
        })
        .collect()
}

fn ids_of<'f>(all: &'f [(String, Vec<String>)], pool: &str) -> &'f [String] {
    all.iter()
        .find(|(name, _)| name == pool)
        .map_or(&[], |(_, ids)| ids.as_slice())
}

#[test]
fn each_guide_section_has_its_scenario_and_its_finding() {
    let longhorn = findings("longhorn-replicas");
    for pool in ["retail-east/store-114", "retail-east/store-207"] {
        assert!(
            ids_of(&longhorn, pool)
                .iter()
                .any(|id| id == "longhorn.replicas"),
            "{pool}: {longhorn:?}"
        );
    }
    assert!(
        !ids_of(&longhorn, "retail-east/dc-rack")
            .iter()
            .any(|id| id == "longhorn.replicas"),
        "five nodes hold three replicas: {longhorn:?}"
    );
    let air = findings("air-gapped-host");
    assert!(
        ids_of(&air, "plant-7/line-3-vision")
            .iter()
            .any(|id| id == "node.stuck-provisioning"),
        "{air:?}"
    );
    let nvidia = findings("nvidia-runtime");
    let runtime: Vec<&String> = ids_of(&nvidia, "ml-edge/gpu-inference")
        .iter()
        .filter(|id| *id == "node.nvidia-runtime")
        .collect();
    assert_eq!(
        runtime.len(),
        1,
        "one finding for the repeated event: {nvidia:?}"
    );
    // A healthy fleet has nothing of these sections.
    let fleet = findings("fleet");
    for (pool, ids) in &fleet {
        assert!(
            !ids.iter()
                .any(|id| id.starts_with("longhorn.") || id.starts_with("node.")),
            "{pool}: {ids:?}"
        );
    }
}

#[test]
fn the_guides_deployment_command_finds_the_hue_controller() {
    if !common::have("kubectl", &["version", "--client"]) {
        return;
    }
    let served = common::serve("fleet");
    let (code, out, err) = common::kubectl(&served, &["get", "deployments", "--all-namespaces"]);
    assert_eq!(code, Some(0), "{err}");
    let line = out
        .lines()
        .find(|l| l.to_lowercase().contains("hue"))
        .unwrap_or_else(|| panic!("no hue deployment: {out}"));
    assert!(
        line.starts_with("mural-system") && line.contains("hue-controllers"),
        "{line}"
    );
    let (code, out, err) = common::kubectl(
        &served,
        &["get", "replicasets,pods", "--namespace", "mural-system"],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("replicaset.apps/hue-controllers-"), "{out}");
    assert!(out.contains("pod/hue-controllers-"), "{out}");
}

#[test]
fn demo_serve_help_names_every_built_in_scenario_with_its_story() {
    let output = Command::new(assert_cmd::cargo::cargo_bin("pooldeck"))
        .args(["demo", "serve", "--help"])
        .output()
        .expect("runs");
    let help = String::from_utf8_lossy(&output.stdout);
    for (name, _) in BUILTIN {
        let story = Scenario::builtin(name).expect("built in").description;
        let start: String = story
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ");
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("{name} is not listed:\n{help}"));
        assert!(line.contains(&start), "{name}'s story: {line}");
    }
    assert!(help.contains("large"), "{help}");
}

/// The operator recreates lab-b with a free VIP; the scenario's loop comes round twice and
/// leaves the new pool as it is (no Failed status written over it, no VIPConflict event about
/// it), so the doctor blames nothing on the new VIP.
#[test]
fn a_fix_the_operator_made_stays_through_the_scenarios_loop() {
    if !common::have("kubectl", &["version", "--client"]) {
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let cluster: DemoCluster = runtime
        .block_on(DemoCluster::start(Options {
            scenario: Some(Scenario::builtin("vip-conflict").expect("vip-conflict")),
            speed: 40.0,
            ..Options::default()
        }))
        .expect("starts");
    let dir = tempfile::tempdir().expect("dir");
    let kubeconfig = dir.path().join("kubeconfig");
    cluster.write_kubeconfig(&kubeconfig).expect("kubeconfig");
    let kubectl = |args: &[&str], input: Option<&str>| {
        let mut child = Command::new("kubectl")
            .args(args)
            .env("KUBECONFIG", &kubeconfig)
            .stdin(if input.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("kubectl runs");
        if let Some(text) = input {
            use std::io::Write;
            child
                .stdin
                .take()
                .expect("stdin")
                .write_all(text.as_bytes())
                .expect("writes");
        }
        common::outcome(child.wait_with_output().expect("waits"))
    };
    let pool = |name: &str| -> serde_json::Value {
        let (_, out, _) = kubectl(&["get", "cp", name, "-n", "labs", "-o", "json"], None);
        serde_json::from_str(&out).unwrap_or(serde_json::Value::Null)
    };
    // The story has played once: lab-b Failed on the VIP lab-a holds.
    common::eventually("the first pass", || cluster.timeline_played());
    common::eventually("lab-b Failed", || {
        pool("lab-b")["status"]["status"] == "Failed"
    });
    // The operator's fix: delete lab-b, create it again with a free VIP.
    let mut fresh = pool("lab-b");
    let (code, _, err) = kubectl(
        &["delete", "cp", "lab-b", "-n", "labs", "--wait=true"],
        None,
    );
    assert_eq!(code, Some(0), "{err}");
    common::eventually("lab-b gone", || pool("lab-b").is_null());
    let metadata = fresh["metadata"].as_object_mut().expect("metadata");
    for server_owned in [
        "uid",
        "resourceVersion",
        "creationTimestamp",
        "deletionTimestamp",
        "generation",
        "managedFields",
    ] {
        metadata.remove(server_owned);
    }
    fresh.as_object_mut().expect("pool").remove("status");
    fresh["spec"]["clusterVariant"]["dedicated"]["paletteClusterDeploymentConfig"]["edge"]["vip"] =
        serde_json::json!("10.80.0.99");
    let (code, _, err) = kubectl(&["create", "-f", "-"], Some(&fresh.to_string()));
    assert_eq!(code, Some(0), "{err}");
    let (played, steps) = cluster.steps_played();
    // Twice round the loop.
    common::eventually("the loop twice more", || {
        cluster.steps_played().0 >= played + 2 * steps
    });
    let after = pool("lab-b");
    assert_ne!(after["status"]["status"], "Failed", "{after}");
    assert_eq!(
        after["spec"]["clusterVariant"]["dedicated"]["paletteClusterDeploymentConfig"]["edge"]["vip"],
        "10.80.0.99"
    );
    let uid = after["metadata"]["uid"].as_str().unwrap_or("").to_owned();
    let (_, events, _) = kubectl(
        &[
            "get",
            "events",
            "-n",
            "labs",
            "--field-selector",
            &format!("involvedObject.uid={uid}"),
            "-o",
            "name",
        ],
        None,
    );
    assert!(
        events.trim().is_empty(),
        "no story event about the new pool: {events}"
    );
    // The story again (`:reset`, SIGUSR1): lab-b as at the start, its old VIP and its fate.
    let entered = runtime.enter();
    cluster.reset().expect("resets");
    drop(entered);
    let again = pool("lab-b");
    assert_eq!(
        again["spec"]["clusterVariant"]["dedicated"]["paletteClusterDeploymentConfig"]["edge"]["vip"],
        "10.80.0.10",
        "{again}"
    );
    assert_ne!(again["metadata"]["uid"], after["metadata"]["uid"]);
    common::eventually("lab-b Failed again", || {
        pool("lab-b")["status"]["status"] == "Failed"
    });
    drop(cluster);
}
