//! Benchmark: `pooldeck validate` on 1,000 ComputePool documents in one file.
//!
//! Prints the machine, the input size, the time of each phase in process, and the wall time
//! of the release binary on the same file. Run with `cargo bench --bench validate`.
//! No assertion: the figures are for people to read and compare.

#![allow(clippy::too_many_lines)]
use std::process::Command;
use std::time::{Duration, Instant};

use pooldeck::cli::inputs::Input;
use pooldeck::cli::validate;
use pooldeck::domain::model::{ComputePool, read};
use pooldeck::domain::rules::{self, Context, Fleet};
use pooldeck::manifest;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "common/mod.rs"]
mod common;
use common::machine;

const DOCUMENTS: usize = 1_000;
const ROUNDS: usize = 5;

/// A file of `n` distinct pools, each the reference's complete example with its own name
/// and VIP, and one in ten with a mistake so the rules have findings to report.
fn fleet_file(n: usize) -> String {
    let template = include_str!("../../../demo/manifests/ml-cluster.yaml");
    let mut out = String::with_capacity(template.len() * n);
    for i in 0..n {
        let mut doc = template
            .replace("name: ml-cluster", &format!("name: ml-{i}"))
            .replace(
                "'10.10.162.130'",
                &format!("'10.{}.{}.{}'", i / 65_536 % 256, i / 256 % 256, i % 256),
            );
        if i % 10 == 0 {
            doc = doc.replace("nodeCount: 3", "nodeCount: 2");
        }
        out.push_str(&doc);
        out.push_str("\n---\n");
    }
    out
}

fn best(mut run: impl FnMut()) -> Duration {
    (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            run();
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn main() {
    let text = fleet_file(DOCUMENTS);
    println!("pooldeck validate benchmark");
    println!("machine: {}", machine());
    println!(
        "input: {DOCUMENTS} ComputePool documents in one file, {:.2} MiB",
        text.len() as f64 / (1024.0 * 1024.0)
    );
    println!("best of {ROUNDS} rounds per phase:");

    let parse = best(|| {
        let _ = manifest::parse(&text);
    });
    let documents = match manifest::parse(&text) {
        Ok(documents) => documents,
        Err(e) => {
            println!("the generated input did not parse: {e}");
            return;
        }
    };
    let objects = best(|| {
        let _: Vec<_> = documents
            .iter()
            .flat_map(|d| d.objects())
            .count()
            .to_string()
            .into_bytes();
    });
    let values: Vec<_> = documents
        .iter()
        .flat_map(|d| d.objects())
        .map(|o| o.value)
        .collect();
    let model = best(|| {
        for value in &values {
            let _ = read::<ComputePool>(value);
        }
    });
    let pools: Vec<_> = values
        .iter()
        .filter_map(|v| read::<ComputePool>(v).ok())
        .collect();
    let fleet = Fleet::new(pools.iter().map(|(p, _)| p.clone()).collect());
    let mut findings = 0;
    let rules_time = best(|| {
        findings = 0;
        for (i, (pool, issues)) in pools.iter().enumerate() {
            let context = Context {
                self_index: Some(i),
                ..Context::create(&fleet)
            };
            findings += rules::validate(pool, issues, &context).len();
        }
    });
    let inputs = [Input {
        name: "fleet.yaml".into(),
        identity: None,
        bytes: text.clone().into_bytes(),
    }];
    let whole = best(|| {
        let _ = validate::check(&inputs, &[], &[]);
    });
    println!(
        "  parse YAML with positions  {:>9.1} ms",
        parse.as_secs_f64() * 1e3
    );
    println!(
        "  objects to JSON values     {:>9.1} ms",
        objects.as_secs_f64() * 1e3
    );
    println!(
        "  read the lenient model     {:>9.1} ms",
        model.as_secs_f64() * 1e3
    );
    println!(
        "  run every rule             {:>9.1} ms ({findings} findings)",
        rules_time.as_secs_f64() * 1e3
    );
    println!(
        "  whole check, in process    {:>9.1} ms",
        whole.as_secs_f64() * 1e3
    );

    // The binary as an operator runs it, when Cargo built it for this benchmark.
    let Some(binary) = option_env!("CARGO_BIN_EXE_pooldeck") else {
        println!("  (binary not built for benchmarks; skipped the command-line figure)");
        return;
    };
    let dir = std::env::temp_dir().join(format!("pooldeck-bench-{}", std::process::id()));
    if std::fs::create_dir_all(&dir).is_err() {
        println!(
            "  (cannot create {}; skipped the command-line figure)",
            dir.display()
        );
        return;
    }
    let file = dir.join("fleet.yaml");
    if std::fs::write(&file, &text).is_err() {
        println!(
            "  (cannot write {}; skipped the command-line figure)",
            file.display()
        );
        return;
    }
    let command = best(|| {
        let _ = Command::new(binary)
            .args(["validate", "--format", "json"])
            .arg(&file)
            .output();
    });
    println!(
        "  `pooldeck validate --format json fleet.yaml` wall time {:>6.1} ms",
        command.as_secs_f64() * 1e3
    );

    // Pools that share VIPs: the cross-pool rule's worst case (it was quadratic).
    let shared = shared_vip_file(SHARED);
    let file = dir.join("shared.yaml");
    if std::fs::write(&file, &shared).is_ok() {
        let mut bytes = 0;
        let command = best(|| {
            if let Ok(output) = Command::new(binary)
                .args(["validate", "--format", "json"])
                .arg(&file)
                .output()
            {
                bytes = output.stdout.len();
            }
        });
        println!(
            "  {SHARED} pools, {} per VIP ({:.1} MiB): validate --format json {:>8.1} ms, {:.1} MiB out",
            SHARED / VIPS,
            shared.len() as f64 / (1024.0 * 1024.0),
            command.as_secs_f64() * 1e3,
            bytes as f64 / (1024.0 * 1024.0)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

const SHARED: usize = 10_000;
const VIPS: usize = 10;

/// `n` pools with their own names, spread over a few VIPs.
fn shared_vip_file(n: usize) -> String {
    let template = include_str!("../../../demo/manifests/ml-cluster.yaml");
    let mut out = String::with_capacity(template.len() * n);
    for i in 0..n {
        out.push_str(
            &template
                .replace("name: ml-cluster", &format!("name: shared-{i}"))
                .replace("'10.10.162.130'", &format!("'10.20.0.{}'", i % VIPS)),
        );
        out.push_str("\n---\n");
    }
    out
}
