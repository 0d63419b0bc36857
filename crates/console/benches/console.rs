//! Benchmark: the console at fleet scale. Prints the frame render time of the pools view with
//! 10,000 pools (100,000 hosts) at 200×50, the time from a filter keystroke to its frame, what one idle clock
//! tick costs (update and frame), and the bytes written to the terminal over ten idle seconds
//! (only cells that change are written), the latency from a pool's change to the frame that
//! shows it while 500 changes a second arrive (p50, p99), and the wizard: a keystroke that changes a field of a
//! pool with 20 worker pools, to its re-validated frame (the rules run against the 5,000
//! pools for VIP and name uniqueness).
//! Run with `cargo bench --bench console`. Figures only.

#![allow(clippy::too_many_lines)]
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::{TimeZone, Utc};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::{CrosstermBackend, TestBackend};

use pooldeck::app::{App, Connection, Msg, update};
use pooldeck::demo::large::large_fleet_at;
use pooldeck::inventory::{Kind, SourceEvent};
use pooldeck::theme::Theme;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "common/mod.rs"]
mod common;

const POOLS: usize = 10_000;

/// A terminal that only counts what is written to it.
#[derive(Clone, Default)]
struct Counter(Arc<Mutex<usize>>);

impl Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Ok(mut n) = self.0.lock() {
            *n += buf.len();
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn main() {
    println!("pooldeck console benchmark");
    println!("machine: {}", common::machine());
    println!(
        "input: {POOLS} pools with evaluations ({} hosts); pools view",
        POOLS * 10
    );
    let now = Utc
        .with_ymd_and_hms(2026, 11, 30, 12, 0, 0)
        .single()
        .unwrap_or_else(Utc::now);
    let mut app = App::new(
        Connection {
            context: "bench".into(),
            server: "https://127.0.0.1:6443".into(),
            user: "operator".into(),
            scope: "all namespaces".into(),
            kubeconfig: None,
        },
        now,
    );
    let (pools, evaluations) = large_fleet_at(POOLS, now);
    update(
        &mut app,
        Msg::Sources(vec![(0, SourceEvent::listed(Kind::Pool, None, pools))]),
    );
    update(
        &mut app,
        Msg::Sources(vec![(
            0,
            SourceEvent::listed(Kind::Evaluation, None, evaluations),
        )]),
    );
    let Some(theme) = Theme::builtin("default-dark") else {
        return;
    };

    // The test backend cannot fail to open.
    let Ok(mut terminal) = Terminal::new(TestBackend::new(200, 50));
    let frames = 300;
    let start = Instant::now();
    for _ in 0..frames {
        let _ = terminal.draw(|frame| pooldeck::ui::render(&app, &theme, frame));
    }
    let per_frame = start.elapsed() / frames;
    println!(
        "  render the pools view, 200x50              {:>8.2} ms per frame",
        per_frame.as_secs_f64() * 1e3
    );

    // Filters typed and erased a key at a time, the first key into an empty filter included
    // each time (the filter is closed and opened again between them). Between keys the loop's
    // turns work out the rest of the rows' filter words (as the console's loop does when no
    // key waits); a key that comes during a turn waits for it, so the worst turn is printed.
    let mut keystrokes = Vec::new();
    let mut first_keys = Vec::new();
    let mut turns = Vec::new();
    for filter in [
        "pool-004",
        "h100",
        "project-2",
        "running",
        "!healthy",
        "pool-00",
        "-l x",
    ] {
        update(&mut app, key(KeyCode::Char('/')));
        let typed = filter
            .chars()
            .map(KeyCode::Char)
            .chain(filter.chars().map(|_| KeyCode::Backspace));
        for (i, code) in typed.enumerate() {
            let start = Instant::now();
            update(&mut app, key(code));
            let _ = terminal.draw(|frame| pooldeck::ui::render(&app, &theme, frame));
            keystrokes.push(start.elapsed());
            if i == 0 {
                first_keys.push(start.elapsed());
            }
            while app.building() {
                let start = Instant::now();
                update(&mut app, Msg::Build);
                let _ = terminal.draw(|frame| pooldeck::ui::render(&app, &theme, frame));
                turns.push(start.elapsed());
            }
        }
        update(&mut app, key(KeyCode::Esc));
    }
    keystrokes.sort();
    let at = |q: f64| keystrokes[((keystrokes.len() - 1) as f64 * q).round() as usize];
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "  filter keystroke to frame ({} keys)        p50 {:.2} ms, p99 {:.2} ms, worst {:.2} ms; \
         first key into an empty filter: worst {:.2} ms",
        keystrokes.len(),
        ms(at(0.5)),
        ms(at(0.99)),
        ms(keystrokes.last().copied().unwrap_or_default()),
        ms(first_keys.iter().max().copied().unwrap_or_default()),
    );
    println!(
        "  a turn between keys (words worked out)     {} turns, worst {:.2} ms",
        turns.len(),
        ms(turns.iter().max().copied().unwrap_or_default()),
    );

    // One idle second: the clock ticks and the frame is drawn again. Rows that do not depend
    // on the clock are not rebuilt; only the visible time cells are formatted again.
    let seconds = 30;
    let start = Instant::now();
    for second in 1..=seconds {
        update(&mut app, Msg::Tick(now + chrono::Duration::seconds(second)));
        let _ = terminal.draw(|frame| pooldeck::ui::render(&app, &theme, frame));
    }
    let per_tick = start.elapsed() / seconds as u32;
    println!(
        "  idle tick: update and frame                {:>8.2} ms",
        per_tick.as_secs_f64() * 1e3
    );

    // One pool changes: only its row is built again, and its findings worked out again.
    let Some(changed) = app
        .fleet
        .inventory
        .objects(Kind::Pool)
        .next()
        .map(|o| (*o.value()).clone())
    else {
        return;
    };
    let events = 20;
    let start = Instant::now();
    for i in 0..events {
        let mut pool = changed.clone();
        pool["metadata"]["resourceVersion"] = serde_json::json!(format!("bench-{i}"));
        update(
            &mut app,
            Msg::Sources(vec![(
                0,
                SourceEvent::Applied {
                    kind: Kind::Pool,
                    object: pool,
                },
            )]),
        );
        let _ = terminal.draw(|frame| pooldeck::ui::render(&app, &theme, frame));
    }
    let per_event = start.elapsed() / events;
    println!(
        "  one pool changes: update and frame         {:>8.2} ms",
        per_event.as_secs_f64() * 1e3
    );

    // 500 changes a second for five seconds, pools and evaluations of the whole fleet in
    // turn, as the runtime takes them: everything queued is applied, then one frame is drawn.
    // Each change's latency runs from when it is due to the end of the frame that shows it.
    let rate = 500.0;
    let count = 2_500;
    let pools: Vec<serde_json::Value> = app
        .fleet
        .inventory
        .objects(Kind::Pool)
        .map(|o| (*o.value()).clone())
        .collect();
    let evaluations: Vec<serde_json::Value> = app
        .fleet
        .inventory
        .objects(Kind::Evaluation)
        .map(|o| (*o.value()).clone())
        .collect();
    let phases = ["Running", "Provisioning", "Failed"];
    let changes: Vec<(Kind, serde_json::Value)> = (0..count)
        .map(|i| {
            // Spread over the fleet, not in its order.
            let at = (i * 7_919) % POOLS;
            if i % 2 == 0 {
                let mut pool = pools[at].clone();
                pool["status"]["status"] = serde_json::json!(phases[i % phases.len()]);
                pool["metadata"]["resourceVersion"] = serde_json::json!(format!("load-{i}"));
                (Kind::Pool, pool)
            } else {
                let mut evaluation = evaluations[at].clone();
                evaluation["metadata"]["resourceVersion"] = serde_json::json!(format!("load-{i}"));
                (Kind::Evaluation, evaluation)
            }
        })
        .collect();
    let mut latencies = Vec::with_capacity(count);
    let mut frames = 0;
    let start = Instant::now();
    let mut next = 0;
    while next < count {
        let due = |i: usize| start + Duration::from_secs_f64(i as f64 / rate);
        let now = Instant::now();
        if due(next) > now {
            std::thread::sleep(due(next) - now);
        }
        // What is due is one message, as the runtime's loop makes of what is queued.
        let first = next;
        let mut batch = Vec::new();
        while next < count && due(next) <= Instant::now() {
            let (kind, object) = changes[next].clone();
            batch.push((0, SourceEvent::Applied { kind, object }));
            next += 1;
        }
        update(&mut app, Msg::Sources(batch));
        let _ = terminal.draw(|frame| pooldeck::ui::render(&app, &theme, frame));
        frames += 1;
        let drawn = Instant::now();
        latencies.extend((first..next).map(|i| drawn - due(i)));
    }
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q) as usize].as_secs_f64() * 1e3;
    println!(
        "  change to frame, 500 changes/s for 5 s: p50 {:.2} ms, p99 {:.2} ms, worst {:.2} ms ({} frames)",
        at(0.5),
        at(0.99),
        at(1.0),
        frames
    );

    let counter = Counter::default();
    let Ok(mut terminal) = Terminal::new(CrosstermBackend::new(counter.clone())) else {
        return;
    };
    let _ = terminal.resize(ratatui::layout::Rect::new(0, 0, 200, 50));
    let _ = terminal.draw(|frame| pooldeck::ui::render(&app, &theme, frame));
    let first = counter.0.lock().map(|n| *n).unwrap_or(0);
    for second in 1..=10 {
        update(&mut app, Msg::Tick(now + chrono::Duration::seconds(second)));
        let _ = terminal.draw(|frame| pooldeck::ui::render(&app, &theme, frame));
    }
    let total = counter.0.lock().map(|n| *n).unwrap_or(0);
    println!(
        "  first frame                                {:>8} bytes",
        first
    );
    println!(
        "  ten idle seconds (clock and countdowns)    {:>8} bytes",
        total - first
    );

    // The wizard: 20 worker pools, then a field changed one keystroke at a time (every
    // keystroke goes into the draft: the rules run again on the whole draft, it is saved as
    // a draft, and the frame is drawn).
    let Ok(mut terminal) = Terminal::new(TestBackend::new(160, 48));
    update(&mut app, key(KeyCode::Char('n')));
    for _ in 0..3 {
        update(&mut app, key(KeyCode::Tab));
    }
    for _ in 0..20 {
        update(&mut app, key(KeyCode::Char('a')));
    }
    // The control plane's CPU count, typed anew each round (back to the top first: `a` puts
    // the cursor on the worker pool it adds).
    for _ in 0..400 {
        update(&mut app, key(KeyCode::Char('k')));
    }
    for _ in 0..3 {
        update(&mut app, key(KeyCode::Char('j')));
    }
    let mut times = Vec::new();
    update(&mut app, key(KeyCode::Enter));
    for round in 0..40 {
        update(&mut app, key(KeyCode::Backspace));
        let start = Instant::now();
        update(
            &mut app,
            key(KeyCode::Char(char::from(b'1' + (round % 9) as u8))),
        );
        let _ = terminal.draw(|frame| pooldeck::ui::render(&app, &theme, frame));
        times.push(start.elapsed());
    }
    update(&mut app, key(KeyCode::Enter));
    times.sort();
    println!(
        "  wizard, 20 worker pools: keystroke to re-validated frame, 160x48: median {:.2} ms, worst {:.2} ms (of {})",
        times[times.len() / 2].as_secs_f64() * 1e3,
        times[times.len() - 1].as_secs_f64() * 1e3,
        times.len()
    );
}
