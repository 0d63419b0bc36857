//! Benchmark: the inventory at fleet scale, on one core.
//!
//! Prints: applying the initial lists of 10,000 pools (ten hosts each, 100,000 hosts) and
//! 10,000 evaluations; applying watch events one by one; and the resident
//! memory the picture holds. Run with `cargo bench --bench inventory`. Figures only.

#![allow(clippy::too_many_lines)]
use std::time::{Duration, Instant};

use chrono::Utc;
use serde_json::{Value, json};

use pooldeck::demo::large::large_pool;
use pooldeck::demo::scenario::{Scenario, resolve_times};
use pooldeck::inventory::{Inventory, Kind, SourceEvent};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "common/mod.rs"]
mod common;

const POOLS: usize = 10_000;
const EVENTS: usize = 50_000;

fn lists() -> (Vec<Value>, Vec<Value>) {
    let scenario = Scenario::large(POOLS);
    let mut pools = Vec::with_capacity(POOLS);
    let mut evaluations = Vec::with_capacity(POOLS);
    for object in &scenario.objects {
        let object = resolve_times(object);
        match object["kind"].as_str() {
            Some("ComputePool") => pools.push(object),
            _ => evaluations.push(object),
        }
    }
    (pools, evaluations)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    println!("pooldeck inventory benchmark");
    println!("machine: {}", common::machine());
    println!(
        "input: {POOLS} ComputePools (10 hosts each, {} hosts) and {POOLS} evaluations; {EVENTS} watch events",
        POOLS * 10
    );

    // Memory first, while the process is fresh: the picture is built object by object from
    // objects made one at a time, so what stays resident is the picture itself.
    let before = common::resident_bytes();
    let mut inventory = Inventory::new();
    for i in 0..POOLS {
        let (pool, evaluation) = large_pool(i);
        inventory.apply(
            SourceEvent::Applied {
                kind: Kind::Pool,
                object: resolve_times(&pool),
            },
            Utc::now(),
        );
        inventory.apply(
            SourceEvent::Applied {
                kind: Kind::Evaluation,
                object: resolve_times(&evaluation),
            },
            Utc::now(),
        );
    }
    let after = common::resident_bytes();
    match (before, after) {
        (Some(b), Some(a)) => println!(
            "  resident memory of the picture            {:>9.1} MB",
            a.saturating_sub(b) as f64 / 1e6
        ),
        _ => println!("  resident memory: /proc/self/statm unavailable"),
    }
    assert_eq!(inventory.hosts().count(), POOLS * 10);

    // Initial lists, best of three, each into a fresh inventory.
    let mut best = Duration::MAX;
    for _ in 0..3 {
        let (pools, evaluations) = lists();
        let mut fresh = Inventory::new();
        let start = Instant::now();
        fresh.apply(SourceEvent::listed(Kind::Pool, None, pools), Utc::now());
        fresh.apply(
            SourceEvent::listed(Kind::Evaluation, None, evaluations),
            Utc::now(),
        );
        best = best.min(start.elapsed());
    }
    println!(
        "  apply the initial lists (parse, index)    {:>9.1} ms",
        ms(best)
    );

    // Watch events: evaluations moving (as every evaluation cycle does) and pools changing.
    let evaluations: Vec<Value> = inventory
        .objects(Kind::Evaluation)
        .map(|o| (*o.value()).clone())
        .take(1000)
        .collect();
    let pools: Vec<Value> = inventory
        .objects(Kind::Pool)
        .map(|o| (*o.value()).clone())
        .take(1000)
        .collect();
    let mut events = Vec::with_capacity(EVENTS);
    for i in 0..EVENTS {
        if i % 2 == 0 {
            let mut evaluation = evaluations[i / 2 % evaluations.len()].clone();
            if let Some(pools) = evaluation
                .pointer_mut("/spec/poolEvaluations")
                .and_then(Value::as_object_mut)
            {
                for entry in pools.values_mut() {
                    entry["evaluatedAt"] =
                        json!((Utc::now() + chrono::Duration::seconds(i as i64)).to_rfc3339());
                    entry["cpu"]["utilization"] = json!(i % 100);
                }
            }
            events.push(SourceEvent::Applied {
                kind: Kind::Evaluation,
                object: evaluation,
            });
        } else {
            let mut pool = pools[i / 2 % pools.len()].clone();
            pool["status"]["status"] = json!(if i % 4 == 1 { "Updating" } else { "Running" });
            events.push(SourceEvent::Applied {
                kind: Kind::Pool,
                object: pool,
            });
        }
    }
    let start = Instant::now();
    for event in events {
        inventory.apply(event, Utc::now());
    }
    let elapsed = start.elapsed();
    println!(
        "  apply {EVENTS} watch events one by one      {:>9.1} ms  ({:.0} events/s)",
        ms(elapsed),
        EVENTS as f64 / elapsed.as_secs_f64()
    );
}
