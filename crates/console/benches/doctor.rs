//! Benchmark: the doctor over a whole fleet, as the console keeps it.
//!
//! Prints, at 10,000 pools with their evaluations (100,000 hosts): every pool diagnosed from
//! nothing; an update with nothing changed (a tick); one pool changed (the common case: an
//! event); something every pool reads changed (a Project: every pool again); and the headless
//! `Inventory::diagnose` per pool on one core, as `pooldeck doctor` runs it. The console's
//! doctor shares a large batch over the cores. Run with `cargo bench --bench doctor`.
//! Figures only.

#![allow(clippy::too_many_lines)]
use std::time::{Duration, Instant};

use chrono::Utc;
use serde_json::json;

use pooldeck::app::doctor::Doctor;
use pooldeck::demo::scenario::{Scenario, resolve_times};
use pooldeck::inventory::{Inventory, Kind, SourceEvent};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "common/mod.rs"]
mod common;

const POOLS: usize = 10_000;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    println!("pooldeck doctor benchmark");
    println!("machine: {}", common::machine());
    println!("input: {POOLS} ComputePools (10 hosts each) and {POOLS} evaluations");
    let scenario = Scenario::large(POOLS);
    let (mut pools, mut evaluations) = (Vec::new(), Vec::new());
    for object in &scenario.objects {
        let object = resolve_times(object);
        match object["kind"].as_str() {
            Some("ComputePool") => pools.push(object),
            _ => evaluations.push(object),
        }
    }
    let namespaces: Vec<String> = {
        let mut all: Vec<String> = pools
            .iter()
            .filter_map(|p| p["metadata"]["namespace"].as_str().map(str::to_owned))
            .collect();
        all.sort();
        all.dedup();
        all
    };
    let projects: Vec<_> = namespaces
        .iter()
        .map(|ns| {
            json!({"apiVersion": "spectrocloud.com/v1alpha1", "kind": "Project",
                "metadata": {"name": ns, "namespace": ns}, "spec": {"gpuResources": {"limits": {}}}})
        })
        .collect();
    let mut inventory = Inventory::new();
    let now = Utc::now();
    inventory.apply(SourceEvent::listed(Kind::Pool, None, pools), now);
    inventory.apply(
        SourceEvent::listed(Kind::Evaluation, None, evaluations),
        now,
    );
    inventory.apply(
        SourceEvent::listed(Kind::Project, None, projects.clone()),
        now,
    );

    // From nothing, best of three (the first also pays for memory the process touches first).
    let mut doctor = Doctor::default();
    let mut cold = Duration::MAX;
    for _ in 0..3 {
        doctor = Doctor::default();
        let start = Instant::now();
        doctor.update(&inventory, now);
        cold = cold.min(start.elapsed());
    }
    println!(
        "  whole fleet, from nothing ({} diagnosed, best of 3) {:>9.1} ms",
        doctor.diagnosed,
        ms(cold)
    );

    let before = doctor.diagnosed;
    let start = Instant::now();
    doctor.update(&inventory, now + chrono::TimeDelta::seconds(1));
    println!(
        "  nothing changed (a tick; {} diagnosed)          {:>9.3} ms",
        doctor.diagnosed - before,
        ms(start.elapsed())
    );

    // One pool changes, 20 times: the update finds it and diagnoses it alone.
    let mut worst = Duration::ZERO;
    let mut total = Duration::ZERO;
    let before = doctor.diagnosed;
    for round in 0..20 {
        let key = inventory
            .objects(Kind::Pool)
            .nth(round * 97)
            .map(|o| (*o.value()).clone());
        let Some(mut pool) = key else { break };
        pool["metadata"]["labels"] = json!({"round": round.to_string()});
        inventory.apply(
            SourceEvent::Applied {
                kind: Kind::Pool,
                object: pool,
            },
            now,
        );
        let start = Instant::now();
        doctor.update(&inventory, now);
        let took = start.elapsed();
        worst = worst.max(took);
        total += took;
    }
    println!(
        "  one pool changed ({} diagnosed in 20 rounds)  mean {:>6.2} ms, worst {:>6.2} ms",
        doctor.diagnosed - before,
        ms(total / 20),
        ms(worst)
    );

    // A Project changes: everything a pool reads around it may have, so every pool again.
    let mut project = projects[0].clone();
    project["spec"]["gpuResources"]["limits"] = json!({"NVIDIA A100-SXM4-80GB | 80 GB": 4});
    inventory.apply(
        SourceEvent::Applied {
            kind: Kind::Project,
            object: project,
        },
        now,
    );
    let before = doctor.diagnosed;
    let start = Instant::now();
    doctor.update(&inventory, now);
    println!(
        "  a Project changed ({} diagnosed)             {:>9.1} ms",
        doctor.diagnosed - before,
        ms(start.elapsed())
    );

    let start = Instant::now();
    let mut findings = 0;
    for pool in inventory.objects(Kind::Pool) {
        findings += inventory.diagnose(pool, now).len();
    }
    println!(
        "  pooldeck doctor's loop, one core ({findings} findings)  {:>9.1} ms",
        ms(start.elapsed())
    );
}
