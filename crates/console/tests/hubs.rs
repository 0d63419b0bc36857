//! Several hubs read at once, headless: `demo serve --hubs 3` writes one kubeconfig with a
//! context per hub; `get` and `doctor` with `--context` repeated or `--all-contexts` read each
//! hub on its own, name the hub on every row (JSON: `{"hub", "object"}` items; the doctor's
//! pools carry `hub`), never compare one hub's pools with another's, and print the hubs they
//! could read when one cannot be.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails

mod common;

use serde_json::Value;

fn pooldeck(kubeconfig: &std::path::Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("pooldeck"))
        .arg("--kubeconfig")
        .arg(kubeconfig)
        .args(args)
        .output()
        .expect("pooldeck runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[test]
fn get_lists_every_hubs_pools_with_the_hub_named() {
    let served = common::serve_with("fleet", &["--hubs", "3"]);
    let (code, out, err) = pooldeck(
        &served.kubeconfig,
        &["get", "pools", "-A", "--all-contexts"],
    );
    assert_eq!(code, Some(0), "{err}");
    let mut lines = out.lines();
    let header = lines.next().expect("a header");
    assert!(header.starts_with("HUB "), "{header}");
    let rows: Vec<&str> = lines.collect();
    for hub in ["hub-a", "hub-b", "hub-c"] {
        let on_hub: Vec<&&str> = rows.iter().filter(|l| l.starts_with(hub)).collect();
        assert_eq!(on_hub.len(), 12, "{hub}:\n{out}");
        assert!(
            on_hub.iter().any(|l| l.contains(" llm-train ")),
            "{hub}:\n{out}"
        );
    }
    // JSON: each object wrapped with its hub, the object itself as the hub sent it.
    let (code, out, err) = pooldeck(
        &served.kubeconfig,
        &[
            "get",
            "pools",
            "-A",
            "--context",
            "hub-a",
            "--context",
            "hub-c",
            "-o",
            "json",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let list = json(&out);
    let items = list["items"].as_array().expect("items");
    assert_eq!(items.len(), 24);
    let hubs: std::collections::BTreeSet<&str> =
        items.iter().filter_map(|i| i["hub"].as_str()).collect();
    assert_eq!(hubs, ["hub-a", "hub-c"].into_iter().collect());
    for item in items {
        assert_eq!(item["object"]["kind"], "ComputePool");
        assert!(
            item["object"]["metadata"]["annotations"]
                .as_object()
                .is_none_or(|a| !a.keys().any(|k| k.contains("hub"))),
            "nothing is added to the object: {item}"
        );
    }
    // A context the kubeconfig lacks is refused before any hub is asked.
    let (code, _, err) = pooldeck(
        &served.kubeconfig,
        &["get", "pools", "--context", "hub-a", "--context", "hub-z"],
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("no context \"hub-z\"") && err.contains("hub-a, hub-b, hub-c"),
        "{err}"
    );
}

/// Each hub is diagnosed on its own: three hubs playing one story share every VIP, and no
/// VIP is a conflict for that; a conflict inside a hub is found on each hub, once.
#[test]
fn the_doctor_never_compares_one_hubs_pools_with_anothers() {
    let vip_findings = |report: &Value| -> Vec<(String, String)> {
        report["pools"]
            .as_array()
            .expect("pools")
            .iter()
            .flat_map(|pool| {
                pool["findings"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|f| f["id"] == "vip.in-use")
                    .map(move |_| {
                        (
                            pool["hub"].as_str().unwrap_or("").to_owned(),
                            pool["name"].as_str().unwrap_or("").to_owned(),
                        )
                    })
            })
            .collect()
    };
    let fleet = common::serve_with("fleet", &["--hubs", "3"]);
    let (code, out, err) = pooldeck(
        &fleet.kubeconfig,
        &["doctor", "-A", "--all-contexts", "-o", "json"],
    );
    assert!(matches!(code, Some(0 | 1)), "{err}");
    let report = json(&out);
    let pools = report["pools"].as_array().expect("pools");
    assert_eq!(pools.len(), 36);
    assert!(pools.iter().all(|p| p["hub"].is_string()), "{out}");
    assert_eq!(
        vip_findings(&report),
        Vec::new(),
        "a VIP shared across hubs"
    );

    let conflict = common::serve_with("vip-conflict", &["--hubs", "3"]);
    let (_, out, err) = pooldeck(
        &conflict.kubeconfig,
        &["doctor", "-A", "--all-contexts", "-o", "json"],
    );
    let found = vip_findings(&json(&out));
    let expected: Vec<(String, String)> = ["hub-a", "hub-b", "hub-c"]
        .iter()
        .map(|hub| ((*hub).to_owned(), "lab-b".to_owned()))
        .collect();
    assert_eq!(found, expected, "{err}");
    // Text: each pool named with its hub.
    let (_, out, _) = pooldeck(&conflict.kubeconfig, &["doctor", "-A", "--all-contexts"]);
    assert!(out.contains("hub-b: labs/lab-b\n"), "{out}");
}

/// A hub that cannot be read is said; the others are printed; the exit status says so.
#[test]
fn a_hub_out_of_reach_leaves_the_others_printed() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let start = || {
        runtime
            .block_on(pooldeck::demo::DemoCluster::start(
                pooldeck::demo::Options {
                    scenario: Some(
                        pooldeck::demo::scenario::Scenario::builtin("vip-conflict")
                            .expect("built in"),
                    ),
                    ..pooldeck::demo::Options::default()
                },
            ))
            .expect("starts")
    };
    let (a, b, c) = (start(), start(), start());
    let kubeconfig =
        pooldeck::demo::hubs_kubeconfig(&[("hub-a", &a), ("hub-b", &b), ("hub-c", &c)]);
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("hubs.kubeconfig");
    std::fs::write(&path, kubeconfig).expect("written");
    runtime.block_on(b.stop());
    let (code, out, err) = pooldeck(
        &path,
        &["get", "pools", "-A", "--all-contexts", "--timeout", "10s"],
    );
    assert_eq!(code, Some(1), "{out}\n{err}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("hub-a ") && l.contains(" lab-b ")),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("hub-c ") && l.contains(" lab-b ")),
        "{out}"
    );
    assert!(!out.contains("hub-b"), "{out}");
    assert!(err.contains("not read") && err.contains("hub-b"), "{err}");
    let (code, out, err) = pooldeck(
        &path,
        &[
            "doctor",
            "-A",
            "--all-contexts",
            "-o",
            "json",
            "--timeout",
            "10s",
        ],
    );
    assert_eq!(code, Some(2), "{err}");
    let pools = json(&out)["pools"].as_array().cloned().expect("pools");
    assert_eq!(pools.len(), 4, "hub-a's and hub-c's: {out}");
}
