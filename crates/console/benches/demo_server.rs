//! Benchmark: the demo cluster under fleet-sized load, through kube-rs over real HTTPS.
//!
//! Prints: loading 10,000 pools with evaluations (ten hosts each), listing them all (raw
//! HTTP and decoded by kube-rs), and watch throughput to several watchers while the store takes
//! a burst of changes. Run with `cargo bench --bench demo_server`. No assertion: figures only.

#![allow(clippy::too_many_lines)]
use std::time::{Duration, Instant};

use futures::{StreamExt, TryStreamExt};
use kube::api::{Api, DynamicObject, ListParams, WatchEvent, WatchParams};
use kube::config::{KubeConfigOptions, Kubeconfig};
use kube::core::{ApiResource, GroupVersionKind};
use kube::{Client, Config};
use serde_json::json;

use pooldeck::demo::scenario::Scenario;
use pooldeck::demo::store::Patch;
use pooldeck::demo::{ADMIN_CONTEXT, DemoCluster, Options};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "common/mod.rs"]
mod common;

const POOLS: usize = 10_000;
const WATCHERS: usize = 4;
const CHANGES: usize = 5_000;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    println!("pooldeck demo cluster benchmark");
    println!("machine: {}", common::machine());
    println!(
        "input: {POOLS} ComputePools with evaluations, 10 hosts each; {WATCHERS} watchers; {CHANGES} changes"
    );

    let scenario = Scenario::large(POOLS);
    let started = Instant::now();
    let cluster = match DemoCluster::start(Options {
        scenario: Some(scenario),
        history: pooldeck::demo::store::HistoryBounds {
            changes: 200_000,
            live: 200_000,
            bytes: usize::MAX,
            age: Duration::from_secs(3600),
        },
        ..Options::default()
    })
    .await
    {
        Ok(c) => c,
        Err(e) => {
            println!("the demo cluster did not start: {e}");
            return;
        }
    };
    println!(
        "  start and load {} objects          {:>8.1} ms",
        POOLS * 2,
        ms(started.elapsed())
    );

    let Ok(kubeconfig) = Kubeconfig::from_yaml(&cluster.kubeconfig()) else {
        return;
    };
    let options = KubeConfigOptions {
        context: Some(ADMIN_CONTEXT.into()),
        ..KubeConfigOptions::default()
    };
    let Ok(config) = Config::from_custom_kubeconfig(kubeconfig, &options).await else {
        return;
    };
    let Ok(client) = Client::try_from(config) else {
        return;
    };
    let resource = ApiResource::from_gvk_with_plural(
        &GroupVersionKind::gvk("spectrocloud.com", "v1alpha1", "ComputePool"),
        "computepools",
    );
    let pools: Api<DynamicObject> = Api::all_with(client.clone(), &resource);

    // Raw: the server's work plus transfer, without decoding into objects.
    let mut best_raw = Duration::MAX;
    let mut bytes = 0;
    for _ in 0..3 {
        let request = http_get("/apis/spectrocloud.com/v1alpha1/computepools");
        let start = Instant::now();
        match client.request_text(request).await {
            Ok(text) => {
                best_raw = best_raw.min(start.elapsed());
                bytes = text.len();
            }
            Err(e) => {
                println!("raw list failed: {e}");
                return;
            }
        }
    }
    println!(
        "  list {POOLS} pools, raw HTTPS ({:.1} MiB)  {:>8.1} ms",
        bytes as f64 / 1048576.0,
        ms(best_raw)
    );
    let mut best_decoded = Duration::MAX;
    for _ in 0..3 {
        let start = Instant::now();
        match pools.list(&ListParams::default()).await {
            Ok(list) if list.items.len() == POOLS => {
                best_decoded = best_decoded.min(start.elapsed())
            }
            Ok(list) => {
                println!("listed {} pools, expected {POOLS}", list.items.len());
                return;
            }
            Err(e) => {
                println!("list failed: {e}");
                return;
            }
        }
    }
    println!(
        "  list {POOLS} pools, kube-rs decoded       {:>8.1} ms",
        ms(best_decoded)
    );

    // Watch throughput: several watchers from the current version, one burst of changes.
    let Ok(version) = pools
        .list(&ListParams::default().limit(1))
        .await
        .map(|l| l.metadata.resource_version.unwrap_or_default())
    else {
        return;
    };
    let mut watchers = Vec::new();
    for _ in 0..WATCHERS {
        let api = pools.clone();
        let version = version.clone();
        watchers.push(tokio::spawn(async move {
            let Ok(stream) = api
                .watch(&WatchParams::default().timeout(120), &version)
                .await
            else {
                return None;
            };
            let mut stream = stream.boxed();
            let mut seen = 0;
            while let Ok(Some(event)) = stream.try_next().await {
                if matches!(event, WatchEvent::Modified(_)) {
                    seen += 1;
                    if seen == CHANGES {
                        return Some(Instant::now());
                    }
                }
            }
            None
        }));
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let Some(resource) = cluster.store.registry.by_kind("ComputePool").cloned() else {
        return;
    };
    let start = Instant::now();
    for i in 0..CHANGES {
        let name = format!("pool-{:05}", i % POOLS);
        let namespace = format!("project-{}", i % POOLS % 3 + 1);
        let patch = Patch::Merge(json!({"metadata": {"labels": {"bench": i.to_string()}}}));
        if let Err(e) = cluster
            .store
            .patch(&resource, &namespace, &name, &patch, false, false)
        {
            println!("patch failed: {}", e.message);
            return;
        }
    }
    let written = start.elapsed();
    let mut slowest = Duration::ZERO;
    for watcher in watchers {
        match watcher.await {
            Ok(Some(done)) => slowest = slowest.max(done - start),
            _ => {
                println!("a watcher did not receive every change");
                return;
            }
        }
    }
    println!(
        "  {CHANGES} changes written to the store     {:>8.1} ms",
        ms(written)
    );
    println!(
        "  all {WATCHERS} watchers received all {CHANGES} changes {:>8.1} ms  ({:.0} events/s per watcher, {:.0} events/s in all)",
        ms(slowest),
        CHANGES as f64 / slowest.as_secs_f64(),
        (CHANGES * WATCHERS) as f64 / slowest.as_secs_f64()
    );
    cluster.stop().await;
}

fn http_get(path: &str) -> http::Request<Vec<u8>> {
    http::Request::get(path)
        .body(Vec::new())
        .unwrap_or_default()
}
