//! A recording made from a running scenario replays to the same objects, through the library
//! and through `pooldeck record` and `pooldeck demo serve --replay`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

use std::collections::BTreeMap;
use std::time::Duration;

use assert_cmd::Command;
use serde_json::Value;

mod common;
use common::client;

use pooldeck::demo::scenario::Scenario;
use pooldeck::demo::{ADMIN_CONTEXT, DemoCluster, Options};
use pooldeck::sources::recorder::{RESOURCES, Scope, record};

/// Every recorded kind of object, keyed by kind/namespace/name, without what the server
/// assigns anew (uid, resourceVersion, generation, owner uids).
fn state(cluster: &DemoCluster) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    for (_, _, kind, _, _) in RESOURCES {
        let Some(resource) = cluster.store.registry.by_kind(kind).cloned() else {
            continue;
        };
        for object in cluster.store.objects(&resource) {
            let mut object = (*object).clone();
            if let Some(meta) = object.get_mut("metadata").and_then(Value::as_object_mut) {
                for field in ["uid", "resourceVersion", "generation", "managedFields"] {
                    meta.shift_remove(field);
                }
                if let Some(refs) = meta
                    .get_mut("ownerReferences")
                    .and_then(Value::as_array_mut)
                {
                    for r in refs.iter_mut().filter_map(Value::as_object_mut) {
                        r.shift_remove("uid");
                    }
                }
            }
            let key = format!(
                "{kind}/{}/{}",
                object
                    .pointer("/metadata/namespace")
                    .and_then(Value::as_str)
                    .unwrap_or(""),
                object
                    .pointer("/metadata/name")
                    .and_then(Value::as_str)
                    .unwrap_or("")
            );
            out.insert(key, object);
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_recording_replays_to_the_same_objects() {
    // scale-up at 20x plays its whole timeline (102 s) in about 5 s.
    let original = DemoCluster::start(Options {
        scenario: Some(Scenario::builtin("scale-up").expect("built in")),
        speed: 20.0,
        ..Options::default()
    })
    .await
    .expect("starts");
    let client = client(&original, ADMIN_CONTEXT).await;
    let (_stop, stopped) = tokio::sync::watch::channel(false);
    let scope = Scope {
        namespaces: Vec::new(),
        duration: Duration::from_secs(7),
    };
    let (recording, skipped) = record(&client, &scope, "test", stopped).await;
    assert!(skipped.is_empty(), "{skipped:?}");
    let steps = recording["steps"].as_array().map_or(0, Vec::len);
    assert!(
        steps >= 5,
        "the timeline's changes were recorded as steps ({steps})"
    );

    let text = serde_saphyr::to_string(&recording).expect("serializes");
    let scenario = Scenario::parse(&text).expect("a recording reads as a scenario");
    let replay = DemoCluster::start(Options {
        scenario: Some(scenario),
        speed: 20.0,
        ..Options::default()
    })
    .await
    .expect("the replay starts");
    // The replay is complete when its timeline has played through.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while !replay.timeline_played() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the replay's timeline did not play"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    let expected = state(&original);
    let actual = state(&replay);
    assert!(
        expected.len() >= 5,
        "pool, evaluation, policy and events: {:?}",
        expected.keys()
    );
    assert_eq!(
        expected.keys().collect::<Vec<_>>(),
        actual.keys().collect::<Vec<_>>()
    );
    for (key, object) in &expected {
        assert_eq!(Some(object), actual.get(key), "{key} differs after replay");
    }
    // The replayed evaluation is owned by the replayed pool, not the recorded one.
    let pools = replay
        .store
        .registry
        .by_kind("ComputePool")
        .expect("pools")
        .clone();
    let evaluations = replay
        .store
        .registry
        .by_kind("ComputePoolEvaluation")
        .expect("evaluations")
        .clone();
    let pool = replay
        .store
        .get(&pools, "my-project-namespace", "my-compute-pool")
        .expect("pool");
    let evaluation = replay
        .store
        .get(&evaluations, "my-project-namespace", "my-compute-pool")
        .expect("evaluation");
    assert_eq!(
        evaluation.pointer("/metadata/ownerReferences/0/uid"),
        pool.pointer("/metadata/uid")
    );
    original.stop().await;
    replay.stop().await;
}

#[test]
fn record_and_replay_through_the_command_line() {
    let (runtime, cluster) = common::in_process(Options {
        scenario: Some(Scenario::builtin("deletion-blocked").expect("built in")),
        ..Options::default()
    });
    let dir = tempfile::tempdir().expect("temp dir");
    let kubeconfig = dir.path().join("kubeconfig");
    cluster.write_kubeconfig(&kubeconfig).expect("kubeconfig");
    let output = dir.path().join("recording.yaml");
    let recorded = Command::cargo_bin("pooldeck")
        .expect("binary")
        .args(["record", "-A", "--duration", "2s", "--kubeconfig"])
        .arg(&kubeconfig)
        .arg("--output")
        .arg(&output)
        .output()
        .expect("runs");
    assert!(
        recorded.status.success(),
        "{}",
        String::from_utf8_lossy(&recorded.stderr)
    );
    let text = std::fs::read_to_string(&output).expect("the recording was written");
    let scenario = Scenario::parse(&text).expect("reads as a scenario");
    assert!(
        scenario
            .objects
            .iter()
            .any(|o| o.pointer("/metadata/name") == Some(&Value::from("blocked-pool")))
    );

    // The server plays it back and prints where its kubeconfig is.
    let mut serve = std::process::Command::new(assert_cmd::cargo::cargo_bin("pooldeck"))
        .args(["demo", "serve", "--replay"])
        .arg(&output)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("serve starts");
    let mut line = String::new();
    let stdout = serve.stdout.take().expect("stdout");
    std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line).expect("a line");
    let _ = serve.kill();
    let _ = serve.wait();
    assert!(line.starts_with("export KUBECONFIG="), "{line}");
    runtime.block_on(cluster.stop());

    // Unknown context and missing kubeconfig are explained.
    let wrong = Command::cargo_bin("pooldeck")
        .expect("binary")
        .args([
            "record",
            "--duration",
            "1s",
            "--context",
            "nope",
            "--kubeconfig",
        ])
        .arg(&kubeconfig)
        .arg("--output")
        .arg(dir.path().join("x.yaml"))
        .output()
        .expect("runs");
    assert_eq!(wrong.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("no context \"nope\""));
}

#[test]
fn record_checks_its_output_first_and_fails_when_resources_are_refused() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let cluster = runtime
        .block_on(DemoCluster::start(Options {
            scenario: Some(Scenario::builtin("fleet").expect("built in")),
            ..Options::default()
        }))
        .expect("starts");
    let dir = tempfile::tempdir().expect("temp dir");
    let kubeconfig = dir.path().join("kubeconfig");
    cluster.write_kubeconfig(&kubeconfig).expect("kubeconfig");
    // A path that cannot be written is refused before a minute of recording, not after.
    let lost = Command::cargo_bin("pooldeck")
        .expect("binary")
        .args(["record", "-A", "--duration", "60s", "--kubeconfig"])
        .arg(&kubeconfig)
        .arg("--output")
        .arg(dir.path().join("no-such-dir").join("x.yaml"))
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&lost.stderr);
    assert_eq!(lost.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("does not exist"), "{stderr}");
    assert!(
        !stderr.contains("pooldeck: recording "),
        "nothing was recorded first: {stderr}"
    );
    // The viewer may not read across namespaces: every resource is refused, which is a
    // failure said per resource, not a success with 0 objects.
    let refused = Command::cargo_bin("pooldeck")
        .expect("binary")
        .args([
            "record",
            "-A",
            "--duration",
            "1s",
            "--context",
            "pooldeck-demo-viewer",
            "--kubeconfig",
        ])
        .arg(&kubeconfig)
        .arg("--output")
        .arg(dir.path().join("viewer.yaml"))
        .timeout(std::time::Duration::from_secs(30))
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("skipped computepools: not allowed (403 Forbidden)"),
        "{stderr}"
    );
    assert!(stderr.contains("incomplete"), "{stderr}");
    assert!(
        !stderr.contains("ErrorResponse"),
        "no internal dumps: {stderr}"
    );
    runtime.block_on(cluster.stop());
}

/// `-n` is repeatable, as for `get` and the console: each namespace named is recorded, and
/// no other.
#[test]
fn record_takes_several_namespaces() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let cluster = runtime
        .block_on(DemoCluster::start(Options {
            scenario: Some(Scenario::builtin("fleet").expect("built in")),
            ..Options::default()
        }))
        .expect("starts");
    let dir = tempfile::tempdir().expect("temp dir");
    let kubeconfig = dir.path().join("kubeconfig");
    cluster.write_kubeconfig(&kubeconfig).expect("kubeconfig");
    let output = dir.path().join("two.yaml");
    let recorded = Command::cargo_bin("pooldeck")
        .expect("binary")
        .args([
            "record",
            "-n",
            "ml-research",
            "-n",
            "vision-lab",
            "--duration",
            "2s",
            "--kubeconfig",
        ])
        .arg(&kubeconfig)
        .arg("--output")
        .arg(&output)
        .output()
        .expect("runs");
    let said = String::from_utf8_lossy(&recorded.stderr);
    assert!(recorded.status.success(), "{said}");
    assert!(
        said.contains("namespaces ml-research, vision-lab"),
        "{said}"
    );
    let scenario = Scenario::parse(&std::fs::read_to_string(&output).expect("written"))
        .expect("reads as a scenario");
    let pools: Vec<&str> = scenario
        .objects
        .iter()
        .filter(|o| o["kind"] == "ComputePool")
        .filter_map(|o| o.pointer("/metadata/namespace").and_then(Value::as_str))
        .collect();
    assert!(
        pools.contains(&"ml-research") && pools.contains(&"vision-lab"),
        "{pools:?}"
    );
    assert!(!pools.contains(&"retail-edge"), "{pools:?}");
    // A namespace that is no name is refused before anything is asked.
    let bad = Command::cargo_bin("pooldeck")
        .expect("binary")
        .args(["record", "-n", "ml-research", "-n", "../x", "--kubeconfig"])
        .arg(&kubeconfig)
        .arg("--output")
        .arg(dir.path().join("bad.yaml"))
        .output()
        .expect("runs");
    assert_eq!(bad.status.code(), Some(2));
    runtime.block_on(cluster.stop());
}
