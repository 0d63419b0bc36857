//! Long fuzz runs, not part of `cargo test` (they are ignored): each feeds random input to one
//! surface until a deadline and prints what it did, the slowest case and the resident memory
//! before and after. A panic fails the run; so does a case slower than its bound (a hang)
//! and memory that keeps growing. Run one for ten minutes:
//!
//! ```sh
//! FUZZ_SECONDS=600 cargo test --release --test fuzz -- --ignored --nocapture validate_inputs
//! ```

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;

fn seconds() -> u64 {
    std::env::var("FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10)
}

fn rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

/// Runs `case` on values of `strategy` until the deadline; returns the figures line.
fn fuzz<T: std::fmt::Debug>(
    name: &str,
    strategy: impl Strategy<Value = T>,
    bound: Duration,
    mut case: impl FnMut(T),
) {
    let mut runner = TestRunner::default();
    let deadline = Instant::now() + Duration::from_secs(seconds());
    let start_rss = rss_mb();
    let mut mid_rss = 0.0;
    let (mut cases, mut slowest) = (0u64, Duration::ZERO);
    let started = Instant::now();
    while Instant::now() < deadline {
        let value = strategy.new_tree(&mut runner).expect("a value").current();
        let shown = format!("{value:?}");
        let began = Instant::now();
        case(value);
        let took = began.elapsed();
        assert!(took < bound, "{name}: a case took {took:?}: {shown:.2000}");
        slowest = slowest.max(took);
        cases += 1;
        if mid_rss == 0.0 && started.elapsed() > Duration::from_secs(seconds() / 2) {
            mid_rss = rss_mb();
        }
    }
    let end_rss = rss_mb();
    println!(
        "fuzz {name}: {cases} cases in {:.0} s, slowest {:.1} ms, RSS {start_rss:.1} -> {mid_rss:.1} (half way) -> {end_rss:.1} MB",
        started.elapsed().as_secs_f64(),
        slowest.as_secs_f64() * 1e3
    );
    assert!(
        mid_rss == 0.0 || end_rss < mid_rss * 1.5 + 50.0,
        "{name}: memory kept growing ({mid_rss:.1} -> {end_rss:.1} MB)"
    );
}

const TOKENS: &[&str] = &[
    "-",
    ":",
    " ",
    "\n",
    "  ",
    "[",
    "]",
    "{",
    "}",
    "'",
    "\"",
    "&a ",
    "*a",
    "<<: ",
    "!!str ",
    "---\n",
    "# c\n",
    "kind",
    "ComputePool",
    "spec",
    "metadata",
    "name",
    "true",
    "1e9",
    "0x1F",
    "~",
    "null",
    "nodeCount",
    "workerPools",
    "vip",
    "\t",
    "\u{feff}",
    "é",
    "\\u0000",
];

#[test]
#[ignore = "a long fuzz run; see the file's doc"]
fn validate_inputs() {
    let example = include_str!("../../../demo/manifests/ml-cluster.yaml").to_owned();
    let strategy = prop_oneof![
        prop::collection::vec(any::<u8>(), 0..4096),
        prop::collection::vec(prop::sample::select(TOKENS), 0..400)
            .prop_map(|t| t.concat().into_bytes()),
        (
            prop::collection::vec(
                (any::<prop::sample::Index>(), prop::sample::select(TOKENS)),
                1..12
            ),
            Just(example)
        )
            .prop_map(|(edits, mut text)| {
                for (at, token) in edits {
                    let mut i = at.index(text.len().max(1)).min(text.len());
                    while !text.is_char_boundary(i) {
                        i -= 1;
                    }
                    text.insert_str(i, token);
                }
                text.into_bytes()
            }),
    ];
    fuzz(
        "validate inputs",
        strategy,
        Duration::from_secs(5),
        |bytes| {
            let inputs = [pooldeck::cli::inputs::Input {
                name: "fuzz.yaml".into(),
                identity: None,
                bytes,
            }];
            let report = pooldeck::cli::validate::check(&inputs, &[], &[]);
            assert!(report.exit_status() <= 2);
        },
    );
}

#[test]
#[ignore = "a long fuzz run; see the file's doc"]
fn console_keys() {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use pooldeck::app::{App, Connection, Msg, update};
    use pooldeck::demo::scenario::{Scenario, resolve_times_at};
    use pooldeck::inventory::{Kind, SourceEvent};
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    let now = chrono::Utc::now();
    let scenario = Scenario::builtin("fleet").expect("fleet");
    let listed = |kind: Kind, name: &str| {
        SourceEvent::listed(
            kind,
            None,
            scenario
                .objects
                .iter()
                .filter(|o| o.get("kind").and_then(|k| k.as_str()) == Some(name))
                .map(|o| resolve_times_at(o, now))
                .collect(),
        )
    };
    let theme = pooldeck::theme::Theme::builtin("default-dark").expect("theme");
    let key = prop_oneof![
        any::<char>().prop_map(KeyCode::Char),
        prop::sample::select(vec![
            KeyCode::Enter,
            KeyCode::Esc,
            KeyCode::Tab,
            KeyCode::BackTab,
            KeyCode::Backspace,
            KeyCode::Up,
            KeyCode::Down,
            KeyCode::Left,
            KeyCode::Right,
            KeyCode::PageUp,
            KeyCode::PageDown,
            KeyCode::Home,
            KeyCode::End,
        ]),
        prop::sample::select(":/?-ljkgGsSqdywe!=123456 pucn".chars().collect::<Vec<_>>())
            .prop_map(KeyCode::Char),
    ];
    let modifiers = prop::sample::select(vec![
        KeyModifiers::NONE,
        KeyModifiers::NONE,
        KeyModifiers::NONE,
        KeyModifiers::SHIFT,
        KeyModifiers::CONTROL,
        KeyModifiers::ALT,
    ]);
    let strategy = (
        prop::collection::vec((key, modifiers), 1..60),
        1u16..220,
        1u16..70,
        0i64..100_000,
    );
    fuzz(
        "console keys",
        strategy,
        Duration::from_secs(5),
        |(keys, width, height, later)| {
            let mut app = App::new(Connection::default(), now);
            for (kind, name) in [
                (Kind::Pool, "ComputePool"),
                (Kind::Evaluation, "ComputePoolEvaluation"),
                (Kind::Event, "Event"),
                (Kind::Project, "Project"),
            ] {
                update(&mut app, Msg::Sources(vec![(0, listed(kind, name))]));
            }
            let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("terminal");
            for (code, modifiers) in keys {
                // Ctrl-C and q quit; the stream goes on as if a new console opened.
                let effects = update(&mut app, Msg::Key(KeyEvent::new(code, modifiers)));
                // The cluster answers what the keys asked (permissions, dry runs, requests),
                // so the fix dialogs move on as they would.
                for effect in effects {
                    if let pooldeck::app::Effect::Perform(request) = effect {
                        let outcome = match &request.operation {
                            pooldeck::domain::Operation::AccessReview { .. } => {
                                pooldeck::domain::Outcome::Allowed(later % 2 == 0)
                            }
                            _ => pooldeck::domain::Outcome::Done {
                                message: "accepted".into(),
                            },
                        };
                        update(&mut app, Msg::Performed { request, outcome });
                    }
                }
                app.quit = false;
                terminal
                    .draw(|frame| pooldeck::ui::render(&app, &theme, frame))
                    .expect("draw");
            }
            update(&mut app, Msg::Tick(now + chrono::Duration::seconds(later)));
            terminal
                .draw(|frame| pooldeck::ui::render(&app, &theme, frame))
                .expect("draw");
        },
    );
}

#[test]
#[ignore = "a long fuzz run; see the file's doc"]
fn demo_api_requests() {
    use kube::client::Body;

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let cluster = runtime
        .block_on(pooldeck::demo::DemoCluster::start(
            pooldeck::demo::Options {
                scenario: Some(
                    pooldeck::demo::scenario::Scenario::builtin("fleet").expect("fleet"),
                ),
                ..pooldeck::demo::Options::default()
            },
        ))
        .expect("starts");
    let client = runtime.block_on(async {
        let kubeconfig = kube::config::Kubeconfig::from_yaml(&cluster.kubeconfig()).expect("reads");
        let config = kube::Config::from_custom_kubeconfig(
            kubeconfig,
            &kube::config::KubeConfigOptions::default(),
        )
        .await
        .expect("config");
        kube::Client::try_from(config).expect("client")
    });
    let segment = prop_oneof![
        prop::sample::select(vec![
            "api",
            "apis",
            "v1",
            "spectrocloud.com",
            "v1alpha1",
            "namespaces",
            "vision-lab",
            "ml-research",
            "computepools",
            "computepoolevaluations",
            "events",
            "projects",
            "tenants",
            "detector",
            "status",
            "openapi",
            "v3",
            "version",
            "authorization.k8s.io",
            "selfsubjectaccessreviews",
            "..",
            "%2F",
            "%00",
            "",
        ])
        .prop_map(str::to_owned),
        "[ -~]{0,12}",
    ];
    let query = prop::collection::vec(
        (
            prop::sample::select(vec![
                "labelSelector",
                "fieldSelector",
                "watch",
                "limit",
                "continue",
                "resourceVersion",
                "timeoutSeconds",
                "dryRun",
                "allowWatchBookmarks",
            ]),
            "[ -~]{0,16}",
        ),
        0..4,
    );
    let body = prop_oneof![
        Just(Vec::new()),
        prop::collection::vec(any::<u8>(), 0..512),
        Just(br#"{"metadata":{"name":"detector","labels":{"a":"b"}}}"#.to_vec()),
        Just(br#"[{"op":"remove","path":"/metadata/finalizers/0"}]"#.to_vec()),
        Just(br#"{"metadata":"x"}"#.to_vec()),
    ];
    let strategy = (
        prop::sample::select(vec![
            "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS",
        ]),
        prop::collection::vec(segment, 0..8),
        query,
        prop::sample::select(vec![
            "application/json",
            "application/merge-patch+json",
            "application/json-patch+json",
            "application/yaml",
            "application/vnd.kubernetes.protobuf",
            "text/plain",
        ]),
        body,
    );
    fuzz(
        "demo API requests",
        strategy,
        Duration::from_secs(15),
        |(method, segments, query, content_type, body)| {
            let mut path = format!("/{}", segments.join("/"));
            if !query.is_empty() {
                let pairs: Vec<String> = query
                    .iter()
                    .map(|(k, v)| {
                        format!(
                            "{k}={}",
                            form_urlencoded::byte_serialize(v.as_bytes()).collect::<String>()
                        )
                    })
                    .collect();
                path = format!("{path}?{}", pairs.join("&"));
            }
            // Watches end within a second so a case stays short.
            if query.iter().any(|(k, _)| *k == "watch") {
                path.push_str("&timeoutSeconds=1");
            }
            let Ok(request) = http::Request::builder()
                .method(method)
                .uri(&path)
                .header("content-type", content_type)
                .body(Body::from(body))
            else {
                return;
            };
            runtime.block_on(async {
                let answer = tokio::time::timeout(Duration::from_secs(10), client.send(request))
                    .await
                    .expect("the server answers within 10 s");
                let response = answer.unwrap_or_else(|e| panic!("{method} {path}: {e}"));
                let status = response.status().as_u16();
                assert!((100..600).contains(&status));
                if status >= 400 && method != "HEAD" {
                    let bytes = tokio::time::timeout(
                        Duration::from_secs(10),
                        response.into_body().collect_bytes(),
                    )
                    .await
                    .expect("the body arrives")
                    .expect("a body");
                    let value: serde_json::Value =
                        serde_json::from_slice(&bytes).unwrap_or_else(|_| {
                            panic!("{method} {path}: {status} without a JSON Status: {bytes:?}")
                        });
                    assert_eq!(value["kind"], "Status", "{method} {path}: {value}");
                }
            });
        },
    );
    runtime.block_on(cluster.stop());
}
