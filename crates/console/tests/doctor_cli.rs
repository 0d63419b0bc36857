//! `pooldeck doctor` through the binary against the demo cluster: every scenario yields the
//! finding its story is about (scenarios that play out over time are served fast and asked
//! again until it shows, within a deadline), the healthy pools of `fleet` yield none, and the
//! exit status says error (1), nothing above a warning (0), or no cluster (2).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

mod common;

use std::time::{Duration, Instant};

use serde_json::Value;

fn doctor(served: &common::Served, extra: &[&str]) -> (i32, Value) {
    let output = assert_cmd::Command::cargo_bin("pooldeck")
        .expect("the binary")
        .args([
            "doctor",
            "-A",
            "-o",
            "json",
            "--timeout",
            "20s",
            "--kubeconfig",
        ])
        .arg(&served.kubeconfig)
        .args(extra)
        .timeout(Duration::from_secs(60))
        .output()
        .expect("doctor runs");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "JSON on stdout ({e}): {}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output.status.code().unwrap_or(-1), report)
}

/// (pool, finding id) pairs of a report.
fn findings(report: &Value) -> Vec<(String, String, String)> {
    report["pools"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|pool| {
            let name = format!(
                "{}/{}",
                pool["namespace"].as_str().unwrap_or(""),
                pool["name"].as_str().unwrap_or("")
            );
            pool["findings"]
                .as_array()
                .into_iter()
                .flatten()
                .map(move |f| {
                    (
                        name.clone(),
                        f["id"].as_str().unwrap_or("").to_owned(),
                        f["severity"].as_str().unwrap_or("").to_owned(),
                    )
                })
        })
        .collect()
}

/// Asks until `pool` has the finding `id` (60 s at most).
fn expect(scenario: &str, speed: &str, pool: &str, id: &str) -> i32 {
    let served = common::serve_with(scenario, &["--speed", speed]);
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (code, report) = doctor(&served, &[]);
        let found = findings(&report);
        if found.iter().any(|(p, i, _)| p == pool && i == id) {
            return code;
        }
        assert!(
            Instant::now() < deadline,
            "{scenario}: no {id} on {pool} within 60 s; last findings: {found:?}"
        );
        std::thread::sleep(Duration::from_millis(250));
    }
}

#[test]
fn stuck_provisioning_names_the_condition_the_bundle_and_the_empty_worker_list() {
    let code = expect(
        "stuck-provisioning",
        "1",
        "factory/new-gpu-pool",
        "provisioning.profile-bundle-not-ready",
    );
    assert_eq!(code, 1, "an error-level finding");
    expect(
        "stuck-provisioning",
        "1",
        "factory/edge-expansion",
        "provisioning.no-hosts",
    );
}

/// The guide's fix is safe to follow: lab-b (the newcomer, whose deployment fails on the VIP)
/// gets the recreate path; lab-a, running on the address, gets no error and is never advised
/// to be recreated.
#[test]
fn a_vip_conflict_sends_the_newcomer_to_recreate_and_leaves_the_owner_alone() {
    expect("vip-conflict", "1", "labs/lab-b", "vip.in-use");
    let served = common::serve_with("vip-conflict", &["--speed", "1"]);
    let (_, report) = doctor(&served, &[]);
    let pool = |name: &str| {
        report["pools"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|p| p["name"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("{name} in {report}"))
    };
    let steps = |pool: &Value| -> Vec<String> {
        pool["findings"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|f| f["next"].as_array().cloned().unwrap_or_default())
            .filter_map(|n| n.as_str().map(str::to_owned))
            .collect()
    };
    let lab_b = pool("lab-b");
    assert!(
        steps(&lab_b)
            .iter()
            .any(|n| n.contains("e on lab-b then R recreates")),
        "{lab_b}"
    );
    let lab_a = pool("lab-a");
    assert!(
        !steps(&lab_a).iter().any(|n| n.contains("recreate")),
        "never advise recreating the running owner: {lab_a}"
    );
    for finding in lab_a["findings"].as_array().into_iter().flatten() {
        assert_ne!(finding["severity"], "error", "{finding}");
        if finding["id"] == "vip.shared" {
            assert_eq!(finding["severity"], "info", "{finding}");
        }
    }
    // The newcomer's failure is explained by its own message, not the section's text.
    let cause = lab_b["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|f| f["id"] == "provisioning.condition")
        .and_then(|f| f["cause"].as_str().map(str::to_owned))
        .unwrap_or_default();
    assert!(cause.contains("names the VIP 10.80.0.10"), "{cause}");
}

/// Text shows warnings and errors, and says how many info-level findings it left out; --all
/// shows them. A pool blocked for hours is a warning, so it is in the text.
#[test]
fn doctor_text_shows_warnings_and_counts_what_is_left_at_info() {
    let served = common::serve("fleet");
    let run = |extra: &[&str]| {
        let output = assert_cmd::Command::cargo_bin("pooldeck")
            .expect("the binary")
            .args(["doctor", "-A", "--kubeconfig"])
            .arg(&served.kubeconfig)
            .args(extra)
            .timeout(Duration::from_secs(60))
            .output()
            .expect("doctor runs");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let text = run(&[]);
    assert!(text.contains("ml-research/rl-sim"), "{text}");
    assert!(text.contains("autoscaling blocked for"), "{text}");
    let left = text
        .lines()
        .find(|l| l.contains("more at info level (--all shows"))
        .unwrap_or_else(|| panic!("the count of what was left out: {text}"));
    assert!(!text.contains("info:"), "{text}");
    let all = run(&["--all"]);
    assert!(all.contains("  info: "), "{all}");
    assert!(!all.contains("more at info level"), "{all}");
    let counted: usize = left
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert_eq!(all.matches("  info: ").count(), counted, "{left}");
}

#[test]
fn a_gpu_quota_names_the_lowest_cap() {
    expect("gpu-quota", "1", "team-b/big-train", "gpu.quota");
}

#[test]
fn scaling_decisions_are_read_row_by_row() {
    expect(
        "scale-up",
        "20",
        "my-project-namespace/my-compute-pool",
        "scaling.in-progress",
    );
    expect(
        "scale-abort",
        "20",
        "research/batch-a100",
        "scaling.aborting",
    );
    expect(
        "scale-down",
        "20",
        "serving/inference-h100",
        "scaling.scale-down",
    );
}

#[test]
fn stale_metrics_are_a_warning_and_exit_zero() {
    let code = expect(
        "stale-metrics",
        "1",
        "analytics/gpu-farm",
        "scaling.stale-metrics",
    );
    assert_eq!(code, 0, "warnings only");
}

#[test]
fn a_blocked_deletion_is_said_with_its_workloads() {
    expect(
        "deletion-blocked",
        "1",
        "vision-lab/stuck-pool",
        "deletion.blocked",
    );
}

#[test]
fn the_healthy_pools_of_the_fleet_yield_nothing() {
    let served = common::serve("fleet");
    let (_, report) = doctor(&served, &[]);
    let pools =
        common::raw(&served, "/apis/spectrocloud.com/v1alpha1/computepools").expect("pools");
    let healthy: Vec<String> = pools["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| {
            p["status"]["status"] == "Running" && p["metadata"]["deletionTimestamp"].is_null()
        })
        .map(|p| {
            format!(
                "{}/{}",
                p["metadata"]["namespace"].as_str().unwrap_or(""),
                p["metadata"]["name"].as_str().unwrap_or("")
            )
        })
        .collect();
    assert!(healthy.len() >= 5, "{healthy:?}");
    let noisy: Vec<_> = findings(&report)
        .into_iter()
        .filter(|(pool, _, severity)| healthy.contains(pool) && severity != "info")
        .collect();
    assert!(noisy.is_empty(), "{noisy:?}");
}

#[test]
fn no_cluster_is_exit_two_and_an_unknown_pool_too() {
    let dir = tempfile::tempdir().expect("temp dir");
    let missing = dir.path().join("nothing");
    let output = assert_cmd::Command::cargo_bin("pooldeck")
        .expect("the binary")
        .args(["doctor", "--kubeconfig"])
        .arg(&missing)
        .timeout(Duration::from_secs(60))
        .output()
        .expect("doctor runs");
    assert_eq!(output.status.code(), Some(2));
    let served = common::serve("fleet");
    let output = assert_cmd::Command::cargo_bin("pooldeck")
        .expect("the binary")
        .args(["doctor", "no-such-pool", "-A", "--kubeconfig"])
        .arg(&served.kubeconfig)
        .timeout(Duration::from_secs(60))
        .output()
        .expect("doctor runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("not found"));
}
