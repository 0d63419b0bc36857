//! Benchmark: `pooldeck bundle -A` of a large hub at a real hub's pace, beside `kubectl get`
//! of the same resources as JSON. At 10,000 pools with their evaluations (ten hosts each) and
//! 2,000 events, on the demo cluster paced as a 2-core hub (`demo::pace`): the release
//! binary's wall time and peak resident memory, kubectl's, the ratio, and the archive's
//! size. Run with `cargo bench --bench bundle` (`-- 2000` for another size);
//! `POOLDECK_BENCH_BINARY=PATH` measures another build. Figures only.

#![allow(clippy::too_many_lines)]
use std::process::Command;

use pooldeck::demo::pace::REAL_HUB;
use pooldeck::demo::scenario::Scenario;
use pooldeck::demo::{DemoCluster, Options};

#[path = "common/mod.rs"]
mod common;

/// The resources a bundle lists, as kubectl names them.
const RESOURCES: &str = "computepools,computepoolevaluations,projects,tenants,scalingpolicies,\
                         profilebundles,computes,aiworkloads,settings,events";

fn main() {
    let pools: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(10_000);
    let events = pools / 5;
    println!("pooldeck bundle benchmark");
    println!("machine: {}", common::machine());
    println!(
        "input: {pools} ComputePools (10 hosts each), {pools} evaluations, {events} events; \
         paced at {} µs per object, {} MB/s",
        REAL_HUB.per_object.as_micros(),
        REAL_HUB.bytes_per_second / 1_000_000
    );
    let Some(binary) = common::binary() else {
        println!("  the release binary could not be built");
        return;
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => return println!("  no runtime: {e}"),
    };
    let started = runtime.block_on(DemoCluster::start(Options {
        scenario: Some(Scenario::large_with_events(pools, events)),
        pace: Some(REAL_HUB),
        ..Options::default()
    }));
    let cluster = match started {
        Ok(cluster) => cluster,
        Err(e) => return println!("  the demo cluster did not start: {e}"),
    };
    let Ok(dir) = tempfile::tempdir() else {
        return println!("  no temporary directory");
    };
    let kubeconfig = dir.path().join("kubeconfig");
    if cluster.write_kubeconfig(&kubeconfig).is_err() {
        return println!("  the kubeconfig could not be written");
    }
    let mut kubectl = Command::new("kubectl");
    kubectl
        .args(["get", RESOURCES, "-A", "-o", "json", "--kubeconfig"])
        .arg(&kubeconfig);
    let kubectl = common::measured(kubectl);
    let archive = dir.path().join("bundle.tgz");
    let mut bundle = Command::new(&binary);
    bundle
        .args(["bundle", "-A", "--kubeconfig"])
        .arg(&kubeconfig)
        .arg("-o")
        .arg(&archive)
        .env("XDG_STATE_HOME", dir.path())
        .env("XDG_RUNTIME_DIR", dir.path());
    let bundle = common::measured(bundle);
    let mb = |bytes: u64| bytes as f64 / 1e6;
    match &kubectl {
        Some((took, peak, out)) => println!(
            "  kubectl get {RESOURCES} -A -o json   {:>7.2} s, peak {:>6.1} MB ({:.1} MB of JSON)",
            took.as_secs_f64(),
            mb(*peak),
            mb(*out as u64)
        ),
        None => println!("  kubectl get: failed"),
    }
    match &bundle {
        Some((took, peak, _)) => {
            let size = std::fs::metadata(&archive).map_or(0, |m| m.len());
            println!(
                "  pooldeck bundle -A                   {:>7.2} s, peak {:>6.1} MB; archive {:.1} MB",
                took.as_secs_f64(),
                mb(*peak),
                mb(size)
            );
        }
        None => println!("  pooldeck bundle: failed"),
    }
    if let (Some((kubectl, ..)), Some((bundle, ..))) = (&kubectl, &bundle) {
        println!(
            "  bundle / kubectl                     {:>7.2}× (target: within 1.5×; peak target < 150 MB)",
            bundle.as_secs_f64() / kubectl.as_secs_f64()
        );
    }
    runtime.block_on(cluster.stop());
}
