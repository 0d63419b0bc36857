//! Benchmark: a pool's timeline. What noting the changes costs at 10,000 pools (ten hosts
//! each) as the console notes them (resident memory of the picture with noting on, and 50,000
//! watch events applied with their changes noted and taken, as the console hands them to its
//! writer), and what opening the Timeline tab costs for a pool with 1,000 events, 1,000 kept
//! entries and 1,000 audit records (read from the files, merged). Run with
//! `cargo bench --bench timeline`. Figures only.

#![allow(clippy::too_many_lines)]
use std::time::{Duration, Instant};

use chrono::{TimeDelta, Utc};
use serde_json::{Value, json};

use pooldeck::demo::large::large_pool;
use pooldeck::demo::scenario::resolve_times;
use pooldeck::domain::timeline::{Clock, Entry, Source, Span};
use pooldeck::inventory::{Inventory, Kind, SourceEvent};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "common/mod.rs"]
mod common;

const POOLS: usize = 10_000;
const EVENTS: usize = 50_000;
const PER_POOL: usize = 1_000;

fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The fleet (with changes noted from the start, or not); resident memory it took, and the
/// changes noted by its first sight (none: a first sight is no change).
fn fleet(note: bool) -> Inventory {
    let before = common::resident_bytes().unwrap_or(0);
    let mut inventory = Inventory::new();
    if note {
        inventory.note_changes();
    }
    for i in 0..POOLS {
        let (pool, evaluation) = large_pool(i);
        for (kind, object) in [(Kind::Pool, pool), (Kind::Evaluation, evaluation)] {
            let object = resolve_times(&object);
            inventory.apply(SourceEvent::Applied { kind, object }, Utc::now());
        }
    }
    let noted = inventory.take_seen().len();
    println!(
        "  resident memory of the picture, {}  {:>8.1} MB  ({noted} changes noted by a first sight)",
        if note {
            "changes noted"
        } else {
            "not noted   "
        },
        mb(common::resident_bytes().unwrap_or(0).saturating_sub(before))
    );
    inventory
}

/// 50,000 watch events (evaluations moving, hosts and pools changing status), applied one by
/// one with their changes noted and taken every 64 events.
fn churn(inventory: &mut Inventory) {
    let pools: Vec<Value> = inventory
        .objects(Kind::Pool)
        .take(1000)
        .map(|o| (*o.value()).clone())
        .collect();
    let evaluations: Vec<Value> = inventory
        .objects(Kind::Evaluation)
        .take(1000)
        .map(|o| (*o.value()).clone())
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
    let before = common::resident_bytes().unwrap_or(0);
    let (mut noted, mut peak) = (0, 0);
    let start = Instant::now();
    for (i, event) in events.into_iter().enumerate() {
        inventory.apply(event, Utc::now());
        if i % 64 == 63 {
            let taken = inventory.take_seen();
            noted += taken.len();
            peak = peak.max(common::resident_bytes().unwrap_or(0));
        }
    }
    let elapsed = start.elapsed();
    println!(
        "  {EVENTS} watch events applied (and taken)        {:>8.1} ms  ({:.0} events/s, {noted} changes noted)",
        ms(elapsed),
        EVENTS as f64 / elapsed.as_secs_f64()
    );
    println!(
        "  resident memory while applying (peak over the picture) {:>3.1} MB",
        mb(peak.saturating_sub(before))
    );
}

/// A pool with 1,000 events, 1,000 entries kept of it, 1,000 audit records and its
/// controller's lines: the Timeline tab opened (read, merged), best of five.
fn opening() -> Option<()> {
    let (pool, evaluation) = large_pool(7);
    let (namespace, name) = (
        pool["metadata"]["namespace"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        pool["metadata"]["name"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
    );
    let mut inventory = Inventory::new();
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
    let now = Utc::now();
    for i in 0..PER_POOL {
        let at = (now - TimeDelta::minutes(i as i64)).to_rfc3339();
        let event = json!({"apiVersion": "v1", "kind": "Event",
            "metadata": {"name": format!("{name}.{i:x}"), "namespace": namespace, "creationTimestamp": at},
            "involvedObject": {"apiVersion": "spectrocloud.com/v1alpha1", "kind": "ComputePool", "name": name, "namespace": namespace},
            "reason": format!("Reason{}", i % 40), "message": format!("message {i}"), "type": if i % 3 == 0 { "Warning" } else { "Normal" },
            "firstTimestamp": at, "lastTimestamp": at, "count": 1 + i % 5});
        inventory.apply(
            SourceEvent::Applied {
                kind: Kind::Event,
                object: event,
            },
            Utc::now(),
        );
    }
    let state = tempfile::tempdir().ok()?;
    let store =
        pooldeck::timeline::Store::under(state.path(), "https://bench.example:6443").ok()?;
    let kept: Vec<Entry> = (0..PER_POOL)
        .map(|i| {
            Entry::new(
                now - TimeDelta::seconds(i as i64 * 30),
                Clock::Pooldeck,
                Source::Host,
                &format!("host-{}", i % 10),
            )
            .says(
                "Healthy",
                format!("host host-{} Provisioning → Healthy", i % 10),
            )
        })
        .collect();
    store.keep(&namespace, &name, &kept).ok()?;
    let audit = state.path().join("audit.log");
    let lines: Vec<String> = (0..PER_POOL)
        .map(|i| json!({"time": (now - TimeDelta::minutes(i as i64)).to_rfc3339(), "record": if i % 2 == 0 { "intent" } else { "outcome" },
            "request": format!("r{}", i / 2), "server": "https://bench.example:6443", "user": "ann", "operation": "set-label",
            "dryRun": false, "objects": [format!("ComputePool {namespace}/{name}")], "outcome": {"result": "done"}}).to_string())
        .collect();
    std::fs::write(&audit, lines.join("\n")).ok()?;
    let log: Vec<String> = (0..500)
        .map(|i| {
            format!(
                "{}\tINFO\tcomputepool\treconciled {name} ({i})",
                now.to_rfc3339()
            )
        })
        .collect();
    let mut best = Duration::MAX;
    let mut count = 0;
    for _ in 0..5 {
        let start = Instant::now();
        let objects = pooldeck::timeline::related(&inventory, &namespace, &name);
        let own = Span {
            from: now,
            to: Some(now),
            namespaces: Vec::new(),
        };
        let read = pooldeck::timeline::read(
            Ok(&store),
            Some(&audit),
            ("https://bench.example:6443", &namespace, &name),
            objects,
            Ok(&log),
            own,
        );
        let entries = pooldeck::timeline::entries(&inventory, &namespace, &name, &read, Utc::now());
        best = best.min(start.elapsed());
        count = entries.len();
    }
    println!(
        "  open the Timeline tab: {PER_POOL} events, {PER_POOL} kept, {PER_POOL} audit lines  {:>6.1} ms  ({count} entries)",
        ms(best)
    );
    Some(())
}

fn main() {
    // Each fleet in a process of its own, so that neither reuses what the other freed.
    let asked: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    match asked.first().map(String::as_str) {
        Some(which @ ("plain" | "noted")) => {
            let mut inventory = fleet(which == "noted");
            churn(&mut inventory);
            return;
        }
        Some("open") => {
            if opening().is_none() {
                println!("  the Timeline tab's files could not be written");
            }
            return;
        }
        _ => {}
    }
    println!("pooldeck timeline benchmark");
    println!("machine: {}", common::machine());
    println!(
        "input: {POOLS} ComputePools (10 hosts each) and their evaluations; {EVENTS} watch events"
    );
    let Ok(me) = std::env::current_exe() else {
        return;
    };
    for which in ["plain", "noted", "open"] {
        let _ = std::process::Command::new(&me).arg(which).status();
    }
}
