//! Whole-screen snapshots of every view and tab, properties of drawing random fleets at
//! any size, and the colours of the key states (which text snapshots cannot see).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::*;
use crate::app::tests::fleet_app;
use crate::app::{Msg, update};
use crate::inventory::SourceState;

/// The whole screen as text, drawn on a test terminal (shared by the ui's snapshot tests).
/// Every screen snapshotted is also drawn as without a UTF-8 locale: it must be ASCII, and
/// every glyph the console drew must have its own ASCII form there (a `?` stands only for
/// the cluster's own text, and the test fleet's is ASCII).
pub(super) fn draw(app: &App, width: u16, height: u16) -> String {
    let drawn = |ascii: bool| {
        let mut theme = Theme::builtin("default-dark").expect("theme");
        theme.ascii = ascii;
        let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("terminal");
        terminal
            .draw(|frame| render(app, &theme, frame))
            .expect("draw");
        terminal
    };
    let (utf8, ascii) = (drawn(false), drawn(true));
    let mut missing = std::collections::BTreeSet::new();
    let pairs = utf8.backend().buffer().content.iter();
    for (glyph, plain) in pairs.zip(&ascii.backend().buffer().content) {
        if !glyph.symbol().is_ascii() && plain.symbol() == "?" {
            missing.insert(glyph.symbol().to_owned());
        }
    }
    assert!(
        missing.is_empty(),
        "glyphs without an ASCII form (shown as ?): {missing:?}\n{}",
        ascii.backend()
    );
    utf8.backend().to_string()
}

fn keys(app: &mut App, text: &str) {
    for c in text.chars() {
        update(
            app,
            Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)),
        );
    }
}

/// A pool the doctor has findings about (a deletion blocked for 40 minutes): its marker in the
/// list, its Diagnose tab, and Enter on `:problems` landing there.
#[test]
fn diagnose_tab_of_a_blocked_deletion() {
    let mut app = fleet_app();
    keys(&mut app, ":problems");
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
    );
    let first = app.shown.row(0).map(|r| r.id.name.clone());
    assert_eq!(first.as_deref(), Some("retired-cluster"), "worst first");
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
    );
    assert_eq!(
        app.detail.as_ref().map(|d| (d.name.as_str(), d.tab)),
        Some(("retired-cluster", crate::app::Tab::Diagnose))
    );
    insta::assert_snapshot!("detail_diagnose_blocked_160x48", draw(&app, 160, 48));
    insta::assert_snapshot!("detail_diagnose_blocked_80x24", draw(&app, 80, 24));
}

/// The controller's log beside a pool: lines about it (one an error), at both sizes.
#[test]
fn controller_log_view() {
    let mut app = fleet_app();
    keys(&mut app, "/retired");
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
    );
    keys(&mut app, "l");
    let lines = [
        "2026-11-30T11:20:00Z\tINFO\tcomputepool\tDeleting ComputePool: waiting for AIWorkloads to be deleted {\"ComputePool\": {\"name\":\"retired-cluster\",\"namespace\":\"ml-research\"}}",
        "2026-11-30T11:40:00Z\tDEBUG\tcomputepool\tReconciling ComputePool: status Running {\"ComputePool\": {\"name\":\"llm-train\",\"namespace\":\"ml-research\"}}",
        "2026-11-30T11:50:00Z\tERROR\tcomputepool\tReconciler error: deletion blocked, requeue after 5m0s {\"ComputePool\": {\"name\":\"retired-cluster\",\"namespace\":\"ml-research\"}}",
    ];
    update(
        &mut app,
        Msg::Logs(crate::app::logs::LogEvent::Started {
            pods: vec!["hue-controllers-6c9f8d7b5-x2k4p".into()],
            found: "mural-system, controller.spectrocloud.com/name=hue-controllers".into(),
        }),
    );
    update(
        &mut app,
        Msg::Logs(crate::app::logs::LogEvent::Lines {
            pod: "hue-controllers-6c9f8d7b5-x2k4p".into(),
            lines: lines.iter().map(|l| (*l).to_owned()).collect(),
        }),
    );
    insta::assert_snapshot!("controller_log_160x48", draw(&app, 160, 48));
    insta::assert_snapshot!("controller_log_80x24", draw(&app, 80, 24));
}

/// `d` on a pool with a failing condition and hosts: the describe page over the list.
#[test]
fn describe_page() {
    let mut app = fleet_app();
    keys(&mut app, "/rl-sim");
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
    );
    keys(&mut app, "d");
    // The page is wrapped to the screen's width when it is worked out.
    for (width, height) in [(80, 24), (160, 48)] {
        update(&mut app, Msg::Resize { width, height });
        insta::assert_snapshot!(
            format!("describe_{width}x{height}"),
            draw(&app, width, height)
        );
    }
    // At 80×24 the end of the page can be reached: its last section shows.
    update(
        &mut app,
        Msg::Resize {
            width: 80,
            height: 24,
        },
    );
    keys(&mut app, "G");
    let end = draw(&app, 80, 24);
    assert!(end.contains("Events:"), "{end}");
}

/// Enter on the events list: one event read whole, its message wrapped.
#[test]
fn event_read_whole() {
    let mut app = fleet_app();
    keys(&mut app, ":events");
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
    );
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
    );
    insta::assert_snapshot!("event_80x24", draw(&app, 80, 24));
}

/// A pool with a 63-character name (legal) at 80×24: the name is cut, and no column an
/// operator reads first is given up for it.
#[test]
fn a_long_pool_name_is_cut_rather_than_the_columns_given_up() {
    let mut app = crate::app::tests::fleet_app();
    let mut pool = (*app
        .fleet
        .inventory
        .get(crate::inventory::Kind::Pool, "vision-lab", "detector")
        .expect("pool")
        .value())
    .clone();
    pool["metadata"]["name"] = serde_json::json!(format!("{}-x", "long".repeat(15)));
    pool["metadata"]["uid"] = serde_json::json!("long-name-uid");
    update(
        &mut app,
        Msg::Sources(vec![(
            0,
            crate::inventory::SourceEvent::Applied {
                kind: crate::inventory::Kind::Pool,
                object: pool,
            },
        )]),
    );
    let screen = draw(&app, 80, 24);
    let header = screen
        .lines()
        .find(|l| l.contains("NAME"))
        .unwrap_or_default();
    for column in ["NAMESPACE", "NAME", "STATUS", "HEALTH", "GPUS", "PAUSED"] {
        assert!(header.contains(column), "{column}:\n{screen}");
    }
    assert!(
        screen
            .lines()
            .any(|l| l.contains("longlong") && l.contains("…")),
        "the name cut with a marker:\n{screen}"
    );
}

/// The header line of the list on a drawn screen.
fn header_of(screen: &str) -> String {
    screen
        .lines()
        .find(|l| l.contains("NAMESPACE"))
        .unwrap_or_default()
        .to_owned()
}

/// The list's rows on a drawn screen: the lines between its header and the footer.
fn list_lines(screen: &str) -> Vec<String> {
    screen
        .lines()
        .skip_while(|l| !l.contains("NAMESPACE"))
        .skip(1)
        .filter(|l| l.contains("edge-") || l.contains("worker") || l.contains("control"))
        .map(str::to_owned)
        .collect()
}

/// Whichever column a list is sorted by, its header shows the arrow, in every view (a column
/// as wide as its header, CPU say, cut it).
#[test]
fn every_sorted_column_shows_its_arrow() {
    for view in ["pools", "hosts", "events", "cpe"] {
        let mut app = fleet_app();
        keys(&mut app, &format!(":{view}"));
        update(&mut app, Msg::Key(KeyEvent::from(KeyCode::Enter)));
        let columns = app.shown.columns().len();
        for column in 1..=columns {
            keys(&mut app, "s");
            assert_eq!(app.list.sort_column, column);
            for (width, height) in [(200, 50), (100, 30)] {
                let screen = draw(&app, width, height);
                // The header's words, a column's apart (two spaces or more between them).
                let header = header_of(&screen);
                let words: Vec<&str> = header
                    .split("  ")
                    .map(|w| w.trim_matches(|c: char| c == ' ' || c == '"'))
                    .filter(|w| !w.is_empty())
                    .collect();
                let sorted = &app.shown.columns()[column - 1];
                let arrowed = [sorted.header, sorted.compact].map(|h| format!("{h}↑"));
                // A narrow screen may give the column up; shown, it has its arrow.
                let shown = words.iter().any(|w| {
                    *w == sorted.header || *w == sorted.compact || arrowed.iter().any(|a| a == w)
                });
                if shown {
                    assert!(
                        words.iter().any(|w| arrowed.iter().any(|a| a == w)),
                        ":{view} sorted by {} at {width}x{height}:\n{screen}",
                        sorted.header
                    );
                }
            }
        }
    }
}

/// Moving up from the bottom of the screen moves the highlight, not the rows; PgDn moves a
/// screen's worth, rows and selection together.
#[test]
fn the_highlight_moves_within_the_screen_and_pgdn_turns_a_page() {
    let mut app = fleet_app();
    update(
        &mut app,
        Msg::Resize {
            width: 100,
            height: 24,
        },
    );
    keys(&mut app, ":hosts");
    update(&mut app, Msg::Key(KeyEvent::from(KeyCode::Enter)));
    let rows = app.shown.len();
    let page = app.page();
    let screen = draw(&app, 100, 24);
    let drawn = list_lines(&screen).len();
    assert!(rows > drawn, "{rows} hosts, {drawn} drawn:\n{screen}");
    assert_eq!(page, drawn, "a page is what the screen shows:\n{screen}");
    keys(&mut app, "G");
    let bottom = list_lines(&draw(&app, 100, 24));
    // Up to the top line: the rows stay while the highlight moves.
    for _ in 0..drawn - 1 {
        keys(&mut app, "k");
    }
    assert_eq!(app.list.selected, rows - drawn);
    let screen = draw(&app, 100, 24);
    assert_eq!(list_lines(&screen), bottom, "{screen}");
    // Up past the top line scrolls by one.
    keys(&mut app, "k");
    let screen = draw(&app, 100, 24);
    let moved = list_lines(&screen);
    assert_eq!(moved[1..], bottom[..bottom.len() - 1], "{screen}");
    // From the top, a page down shows the next page, the highlight on the top line still.
    keys(&mut app, "g");
    let top = list_lines(&draw(&app, 100, 24));
    update(&mut app, Msg::Key(KeyEvent::from(KeyCode::PageDown)));
    assert_eq!(app.list.selected, page.min(rows - 1));
    let next = list_lines(&draw(&app, 100, 24));
    assert_ne!(next.first(), top.first());
    update(&mut app, Msg::Key(KeyEvent::from(KeyCode::PageUp)));
    assert_eq!(app.list.selected, 0);
    assert_eq!(list_lines(&draw(&app, 100, 24)), top);
}

/// The help turns a screen's worth per PgDn too (it turned ten lines whatever the screen).
#[test]
fn the_help_turns_a_page_per_pgdn() {
    let mut app = fleet_app();
    update(
        &mut app,
        Msg::Resize {
            width: 100,
            height: 30,
        },
    );
    keys(&mut app, "?");
    update(&mut app, Msg::Key(KeyEvent::from(KeyCode::PageDown)));
    let scroll = app.overlays.iter().find_map(|o| match o {
        crate::app::Overlay::Help { scroll } => Some(*scroll),
        _ => None,
    });
    assert_eq!(scroll, Some(app.page_lines()));
    assert_eq!(app.page_lines(), 25);
}

/// A pool found by filter stays selected when Esc clears the filter (it went back to the
/// first row of the whole list: a fix pressed next would act on another pool).
#[test]
fn clearing_the_filter_keeps_the_pool_found() {
    let mut app = fleet_app();
    keys(&mut app, "/ocr-batch");
    update(&mut app, Msg::Key(KeyEvent::from(KeyCode::Enter)));
    assert_eq!(app.shown.len(), 1);
    update(&mut app, Msg::Key(KeyEvent::from(KeyCode::Esc)));
    assert!(app.shown.len() > 1);
    let selected = app
        .shown
        .row(app.list.selected)
        .map(|r| r.id.name.to_string());
    assert_eq!(selected.as_deref(), Some("ocr-batch"));
}

/// A key pressed on a screen too small says so; the screen made large enough again takes
/// the message away.
#[test]
fn the_too_small_message_goes_when_the_screen_is_large_again() {
    let mut app = fleet_app();
    update(
        &mut app,
        Msg::Resize {
            width: 60,
            height: 10,
        },
    );
    keys(&mut app, "G");
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("too small")),
        "{:?}",
        app.message
    );
    update(
        &mut app,
        Msg::Resize {
            width: 79,
            height: 40,
        },
    );
    assert!(app.message.is_some(), "still too narrow");
    update(
        &mut app,
        Msg::Resize {
            width: 200,
            height: 50,
        },
    );
    assert_eq!(app.message, None);
    let screen = draw(&app, 200, 50);
    assert!(!screen.contains("too small"), "{screen}");
}

#[test]
fn pools_view() {
    let app = fleet_app();
    insta::assert_snapshot!("pools_80x24", draw(&app, 80, 24));
    insta::assert_snapshot!("pools_160x48", draw(&app, 160, 48));
}

#[test]
fn other_views() {
    for view in [
        "cpe", "hosts", "events", "projects", "problems", "sp", "aiw", "pb", "computes", "tenants",
    ] {
        let mut app = fleet_app();
        keys(&mut app, &format!(":{view}"));
        update(
            &mut app,
            Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
        );
        insta::assert_snapshot!(format!("{view}_80x24"), draw(&app, 80, 24));
        insta::assert_snapshot!(format!("{view}_160x48"), draw(&app, 160, 48));
    }
}

#[test]
fn pool_detail_tabs() {
    let mut app = fleet_app();
    keys(&mut app, "/finetune");
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
    );
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
    );
    assert!(app.detail.is_some(), "Enter opens the selected pool");
    for (number, tab) in [
        ("1", "overview"),
        ("2", "conditions"),
        ("3", "hosts"),
        ("4", "scaling"),
        ("5", "events"),
        ("6", "yaml"),
        ("7", "diagnose"),
    ] {
        keys(&mut app, number);
        insta::assert_snapshot!(format!("detail_{tab}_160x48"), draw(&app, 160, 48));
        insta::assert_snapshot!(format!("detail_{tab}_80x24"), draw(&app, 80, 24));
    }
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE)),
    );
    assert!(app.detail.is_none(), "Esc goes back to the list");
}

#[test]
fn an_empty_list_says_why() {
    let mut app = crate::app::App::new(
        crate::app::Connection {
            context: "pooldeck-demo-viewer".into(),
            server: "https://127.0.0.1:6443".into(),
            user: "operator".into(),
            scope: "all namespaces".into(),
            kubeconfig: None,
        },
        crate::app::tests::fixed_now(),
    );
    let forbidden = SourceState::Forbidden { message: "cannot list or watch computepools.spectrocloud.com at cluster scope: computepools.spectrocloud.com is forbidden: User \"viewer\" cannot list resource \"computepools\"".into() };
    update(
        &mut app,
        Msg::Sources(vec![(
            0,
            crate::inventory::SourceEvent::State {
                kind: crate::inventory::Kind::Pool,
                scope: None,
                state: forbidden,
            },
        )]),
    );
    insta::assert_snapshot!("forbidden_80x24", draw(&app, 80, 24));
}

#[test]
fn filter_help_and_a_small_terminal() {
    let mut app = fleet_app();
    keys(&mut app, "/vision");
    insta::assert_snapshot!("filtering_80x24", draw(&app, 80, 24));
    let mut app = fleet_app();
    keys(&mut app, "?");
    insta::assert_snapshot!("help_80x24", draw(&app, 80, 24));
    insta::assert_snapshot!("too_small_60x20", draw(&fleet_app(), 60, 20));
}

#[test]
fn a_host_provisioning_too_long_is_called_stuck() {
    let mut app = fleet_app();
    let mut pool = (*app
        .fleet
        .inventory
        .get(crate::inventory::Kind::Pool, "vision-lab", "ocr-batch")
        .expect("pool")
        .value())
    .clone();
    let hosts = pool
        .pointer_mut("/status/paletteClusterStatuses/0/allocatedMachinePools/1/hosts")
        .and_then(serde_json::Value::as_object_mut)
        .expect("worker hosts");
    for host in hosts.values_mut() {
        if host["status"] == "Provisioning" {
            host["statusUpdatedAt"] = serde_json::json!("2026-11-30T11:20:00Z");
        }
    }
    update(
        &mut app,
        Msg::Sources(vec![(
            0,
            crate::inventory::SourceEvent::Applied {
                kind: crate::inventory::Kind::Pool,
                object: pool,
            },
        )]),
    );
    let theme = crate::theme::Theme::builtin("monochrome").expect("theme");
    app.detail = Some(crate::app::Detail {
        namespace: "vision-lab".into(),
        name: "ocr-batch".into(),
        tab: crate::app::Tab::Hosts,
        scroll: 0,
        timeline: Default::default(),
    });
    app.refresh();
    let mut terminal =
        ratatui::Terminal::new(ratatui::backend::TestBackend::new(160, 30)).expect("terminal");
    terminal
        .draw(|frame| crate::ui::render(&app, &theme, frame))
        .expect("draw");
    let screen = terminal.backend().to_string();
    assert!(screen.contains("← stuck in Provisioning"), "{screen}");
    assert!(
        screen.matches("stuck in Provisioning").count() == 1,
        "only the worker host that is 40 minutes in: {screen}"
    );
}

mod properties {
    use chrono::Duration;
    use proptest::prelude::*;
    use serde_json::{Value, json};

    use super::*;
    use crate::app::rows::tests::{PLACES, anything, for_evaluation, now, plant, pool};
    use crate::app::rows::{Cell, Deadline, GpuUse, Load, Status};
    use crate::domain::model::vocabulary::{HostStatus, PoolPhase, ScalingStateKind};
    use crate::inventory::{Kind, SourceEvent};

    const NAMES: [&str; 6] = [
        "alpha-pool",
        "bravo-pool",
        "charlie-pool",
        "delta-pool",
        "echo-pool",
        "foxtrot-pool",
    ];

    /// An app holding six pools (and their evaluations) with random values planted anywhere.
    fn app_with(plants: Vec<(usize, &'static str, Value)>) -> App {
        let mut pools: Vec<Value> = NAMES
            .iter()
            .enumerate()
            .map(|(i, n)| {
                pool(
                    n,
                    now() - Duration::hours(i as i64),
                    &[("NVIDIA H100 PCIe | 80 GB", i as i64, 8)],
                )
            })
            .collect();
        let mut evaluations: Vec<Value> = NAMES
            .iter()
            .map(|n| json!({
                "apiVersion": "spectrocloud.com/v1alpha1", "kind": "ComputePoolEvaluation",
                "metadata": {"name": n, "namespace": "ns"},
                "spec": {"cooldownDuration": "15m", "abortDuration": "30m", "poolEvaluations": {"cw": {"gpu": {"H100": {"utilization": 42, "count": 1, "target": 2}}}}},
                "status": {"poolScalingStates": {"cw": {"state": "Scaling", "stateChangedAt": "2026-11-30T11:59:00Z", "scalingStartedAt": "2026-11-30T11:59:00Z"}}},
            }))
            .collect();
        for (i, at, value) in plants {
            if for_evaluation(at) {
                evaluations[i] = plant(evaluations[i].take(), at, value);
            } else {
                pools[i] = plant(pools[i].take(), at, value);
            }
        }
        let mut app = App::new(crate::app::Connection::default(), now());
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
        app
    }

    fn cell() -> impl Strategy<Value = Cell> {
        let time = (-30 * 86_400i64..100 * 365 * 86_400).prop_map(|s| now() - Duration::seconds(s));
        let soon = (0i64..30 * 86_400).prop_map(|s| now() + Duration::seconds(s));
        let number = prop_oneof![any::<i64>(), -1000i64..1000];
        let percent = prop_oneof![any::<f64>(), -10.0f64..200.0];
        let word = "[A-Za-z]{0,12}";
        let status = prop_oneof![
            word.prop_map(|w| Status::Pool(PoolPhase::parse(&w))),
            word.prop_map(|w| Status::Host(HostStatus::parse(&w))),
            word.prop_map(|w| Status::Health {
                status: HostStatus::parse(&w),
                word: w.into()
            }),
            (any::<bool>(), word).prop_map(|(warning, word)| Status::Event {
                warning,
                word: word.into()
            }),
            Just(Status::Unreadable),
        ];
        prop_oneof![
            Just(Cell::Empty),
            "[ -~]{0,30}".prop_map(|t: String| Cell::Text(t.into())),
            status.clone().prop_map(Cell::Status),
            prop::collection::vec(status, 0..3).prop_map(Cell::Statuses),
            prop::collection::vec(
                ("[A-Za-z0-9 -]{0,14}", number.clone(), number.clone()),
                0..3
            )
            .prop_map(|g| Cell::Gpus(
                g.into_iter()
                    .map(|(model, used, capacity)| GpuUse {
                        model: model.into(),
                        used,
                        capacity
                    })
                    .collect()
            )),
            number.clone().prop_map(Cell::Count),
            (any::<u64>(), any::<u64>()).prop_map(|(part, whole)| Cell::Ratio { part, whole }),
            (0.0f64..1e6).prop_map(Cell::Gigabytes),
            any::<bool>().prop_map(Cell::Flag),
            prop::option::of(time).prop_map(Cell::Since),
            (word, prop::option::of((any::<bool>(), soon))).prop_map(|(w, d)| Cell::Scaling {
                state: ScalingStateKind::parse(&w),
                deadline: d.map(|(cooldown, t)| if cooldown {
                    Deadline::CooldownEnds(t)
                } else {
                    Deadline::AbortAt(t)
                }),
            }),
            (
                prop::collection::vec(percent.clone(), 0..4),
                prop::collection::vec(0.0f64..100.0, 0..12)
            )
                .prop_map(|(current, history)| Cell::Utilization { current, history }),
            prop::collection::vec(
                (
                    prop::option::of("[A-Za-z0-9 ]{0,10}"),
                    percent,
                    number.clone(),
                    number
                ),
                0..3
            )
            .prop_map(|l| Cell::Loads(
                l.into_iter()
                    .map(|(variant, utilization, count, target)| Load {
                        variant,
                        utilization,
                        count,
                        target
                    })
                    .collect()
            )),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        /// The console lays out columns from `Cell::width` when rows change; no formatted cell
        /// may be wider than that, or it would be cut (times: within a century of now,
        /// countdowns: within a month).
        #[test]
        fn no_cell_is_wider_than_its_column(cell in cell(), later in 0i64..86_400) {
            let text = cells::text(&cell, now() + Duration::seconds(later), cells::Form::Console);
            prop_assert!(
                text.chars().count() <= cell.width(),
                "{text:?} is {} wide, the layout gave {} for {cell:?}",
                text.chars().count(),
                cell.width()
            );
        }

        /// Whatever the pools hold and whatever the terminal's size, drawing never panics;
        /// from 80×24 up the list counts every pool and shows each exactly once, and below
        /// it the console says it needs more room.
        #[test]
        fn the_pools_view_draws_every_pool_once_at_any_size(
            plants in prop::collection::vec((0..6usize, prop::sample::select(PLACES), anything()), 0..10),
            width in 1u16..260,
            height in 1u16..90,
        ) {
            let mut app = app_with(plants);
            let screen = draw(&app, width, height);
            if width >= MIN_WIDTH && height >= MIN_HEIGHT {
                prop_assert!(screen.contains("Compute Pools (6)"), "{screen}");
                for name in NAMES {
                    prop_assert_eq!(screen.matches(name).count(), 1, "{} in\n{}", name, screen);
                }
            } else if width >= 40 && height >= 2 {
                prop_assert!(screen.contains("needs a terminal"), "{screen}");
            }
            // Every other list and every tab of a pool draws the same objects at this size;
            // a list's title counts its rows.
            for view in crate::app::View::all() {
                app.list.view = view;
                app.detail = None;
                app.refresh();
                let screen = draw(&app, width, height);
                if width >= MIN_WIDTH && height >= MIN_HEIGHT {
                    let title = format!("{} ({})", view.title(), app.shown.len());
                    prop_assert!(screen.contains(&title), "{title} in\n{screen}");
                }
            }
            app.list.view = crate::app::View::POOLS;
            app.refresh();
            for tab in crate::app::Tab::ALL {
                app.detail = Some(crate::app::Detail {
                    namespace: "ns".into(),
                    name: NAMES[0].into(),
                    tab,
                    scroll: 0,
                    timeline: Default::default(),
                });
                app.refresh();
                let screen = draw(&app, width, height);
                if width >= MIN_WIDTH && height >= MIN_HEIGHT {
                    prop_assert!(screen.contains(NAMES[0]), "the breadcrumb names the pool: {screen}");
                }
            }
        }
    }
}

mod styles {
    use ratatui::buffer::Buffer;
    use ratatui::style::{Color, Modifier};

    use super::*;

    fn buffer(app: &App, theme: &Theme) -> Buffer {
        let mut terminal = Terminal::new(TestBackend::new(160, 48)).expect("terminal");
        terminal
            .draw(|frame| render(app, theme, frame))
            .expect("draw");
        terminal.backend().buffer().clone()
    }

    /// The style of the first cell of the first place `text` is drawn.
    fn style_of(buffer: &Buffer, text: &str) -> ratatui::style::Style {
        let area = buffer.area;
        for y in 0..area.height {
            let line: String = (0..area.width)
                .map(|x| buffer[(x, y)].symbol().to_owned())
                .collect();
            if let Some(at) = line.find(text) {
                let x = line[..at].chars().count() as u16;
                return buffer[(x, y)].style();
            }
        }
        panic!("{text:?} is not on the screen");
    }

    #[test]
    fn statuses_take_their_colour_from_their_meaning() {
        let theme = Theme::builtin("default-dark").expect("theme");
        let app = fleet_app();
        let screen = buffer(&app, &theme);
        assert_eq!(style_of(&screen, "Failed").fg, Some(theme.error));
        assert_eq!(style_of(&screen, "Provisioning").fg, Some(theme.info));
        assert_eq!(style_of(&screen, "Unhealthy ").fg, Some(theme.warn));
        assert_eq!(style_of(&screen, "Running").fg, Some(theme.ok));
        assert_eq!(style_of(&screen, "Blocked").fg, Some(theme.warn));
        assert_eq!(style_of(&screen, "yes").fg, Some(theme.warn), "PAUSED yes");
        assert_ne!(theme.warn, theme.error, "warnings read apart from errors");
    }

    #[test]
    fn the_selected_row_is_reversed_and_follows_the_keys() {
        let theme = Theme::builtin("default-dark").expect("theme");
        let mut app = fleet_app();
        let first = app.shown.row(0).map(|r| r.id.name.clone()).expect("a row");
        let second = app.shown.row(1).map(|r| r.id.name.clone()).expect("a row");
        let screen = buffer(&app, &theme);
        assert!(
            style_of(&screen, &first)
                .add_modifier
                .contains(Modifier::REVERSED)
        );
        assert!(
            !style_of(&screen, &second)
                .add_modifier
                .contains(Modifier::REVERSED)
        );
        update(
            &mut app,
            Msg::Key(KeyEvent::new(KeyCode::Down, KeyModifiers::NONE)),
        );
        let screen = buffer(&app, &theme);
        assert!(
            !style_of(&screen, &first)
                .add_modifier
                .contains(Modifier::REVERSED)
        );
        assert!(
            style_of(&screen, &second)
                .add_modifier
                .contains(Modifier::REVERSED)
        );
    }

    #[test]
    fn monochrome_marks_errors_without_colour() {
        let theme = Theme::builtin("monochrome").expect("theme");
        let screen = buffer(&fleet_app(), &theme);
        let failed = style_of(&screen, "Failed");
        assert!(matches!(failed.fg, None | Some(Color::Reset)));
        assert!(
            failed
                .add_modifier
                .contains(Modifier::BOLD | Modifier::REVERSED),
            "errors stand out by weight and inversion: {failed:?}"
        );
    }
}

/// An idle minute at fleet scale, drawn each second at 200×50: no row is built, and each
/// frame formats the cells of the rows in the window only, never the 10,000.
#[test]
fn an_idle_minute_at_ten_thousand_pools_formats_no_cell_outside_the_window() {
    let now = crate::app::tests::fixed_now();
    let mut app = crate::app::shown::tests::ten_thousand_pools(now);
    let theme = crate::theme::Theme::builtin("default-dark").expect("a theme");
    let mut terminal = Terminal::new(TestBackend::new(200, 50)).expect("a terminal");
    let _ = terminal.draw(|frame| render(&app, &theme, frame));
    let (builds, rows, rebuilt) = (
        app.shown.builds,
        app.shown.rows_built,
        app.shown.rows_rebuilt,
    );
    // At most the screen's 50 lines (the list's own area is smaller still).
    let window = 50;
    for second in 1..=60 {
        update(&mut app, Msg::Tick(now + chrono::Duration::seconds(second)));
        let before = super::table::ROWS_DRAWN.with(std::cell::Cell::get);
        let _ = terminal.draw(|frame| render(&app, &theme, frame));
        let drawn = super::table::ROWS_DRAWN.with(std::cell::Cell::get) - before;
        assert!(
            drawn > 0 && drawn <= window,
            "second {second}: {drawn} rows formatted for a 50-line screen"
        );
    }
    assert_eq!(app.shown.builds, builds, "nothing built from scratch");
    assert_eq!(app.shown.rows_built, rows, "no row built in an idle minute");
    assert_eq!(app.shown.rows_rebuilt, rebuilt, "no row built again either");
    assert!(
        app.shown.held() <= 2 * crate::app::shown::WINDOW_MARGIN + 1,
        "{} rows held whole",
        app.shown.held()
    );
}

mod stale {
    use super::*;
    use crate::domain::ClusterError;
    use crate::inventory::SourceEvent;

    fn heartbeat(app: &mut App, result: Result<(), ClusterError>) {
        update(
            app,
            Msg::Sources(vec![(0, SourceEvent::Heartbeat { result })]),
        );
    }

    #[test]
    fn a_server_that_stopped_answering_marks_the_picture_stale_and_freezes_countdowns() {
        let mut app = fleet_app();
        heartbeat(&mut app, Ok(()));
        let live = draw(&app, 160, 48);
        assert!(!live.contains("STALE"), "{live}");
        let countdown = |screen: &str| -> String {
            let line = screen
                .lines()
                .find(|l| l.contains("mig-inference"))
                .expect("the cooling-down pool");
            let at = line.find("Cooldown").expect("a cooldown");
            line[at..at + 16].to_owned()
        };
        // The probe fails (the server was stopped), and time goes on.
        update(
            &mut app,
            Msg::Tick(crate::app::tests::fixed_now() + chrono::Duration::seconds(5)),
        );
        heartbeat(
            &mut app,
            Err(ClusterError::Unreachable {
                server: String::new(),
                detail: "no answer within 5 s".into(),
            }),
        );
        let frozen = countdown(&draw(&app, 160, 48));
        update(
            &mut app,
            Msg::Tick(crate::app::tests::fixed_now() + chrono::Duration::seconds(95)),
        );
        let screen = draw(&app, 160, 48);
        assert!(screen.contains("STALE since 12:00:00"), "{screen}");
        assert!(screen.contains("no answer within 5 s"), "{screen}");
        assert_eq!(
            countdown(&screen),
            frozen,
            "the countdown stopped with the data"
        );
        // The server answers again: live, and the countdown moves on.
        heartbeat(&mut app, Ok(()));
        let screen = draw(&app, 160, 48);
        assert!(!screen.contains("STALE"), "{screen}");
        assert_ne!(countdown(&screen), frozen);
    }

    #[test]
    fn a_server_without_watch_lists_is_said_in_the_source_line() {
        use crate::inventory::ListWay;
        let mut app = fleet_app();
        update(
            &mut app,
            Msg::Sources(vec![(
                0,
                SourceEvent::Lists {
                    way: ListWay::Streamed,
                },
            )]),
        );
        let streamed = draw(&app, 160, 48);
        assert!(!streamed.contains("in pages"), "{streamed}");
        update(
            &mut app,
            Msg::Sources(vec![(
                0,
                SourceEvent::Lists {
                    way: ListWay::Paged,
                },
            )]),
        );
        let paged = draw(&app, 160, 48);
        let second = paged.lines().nth(1).expect("the source line");
        assert!(
            second.contains("lists in pages (no watch-lists)"),
            "{paged}"
        );
    }

    #[test]
    fn a_silent_server_is_stale_even_while_its_probe_hangs() {
        let mut app = fleet_app();
        heartbeat(&mut app, Ok(()));
        update(
            &mut app,
            Msg::Tick(crate::app::tests::fixed_now() + chrono::Duration::seconds(45)),
        );
        let screen = draw(&app, 80, 24);
        assert!(screen.contains("STALE"), "{screen}");
        assert!(screen.contains("has not answered"), "{screen}");
    }

    #[test]
    fn the_reason_of_a_reconnect_shows_with_rows_on_screen() {
        let mut app = fleet_app();
        update(
            &mut app,
            Msg::Sources(vec![(
                0,
                SourceEvent::State {
                    kind: crate::inventory::Kind::Pool,
                    scope: None,
                    state: crate::inventory::SourceState::Reconnecting {
                        error: ClusterError::Unauthorized {
                            message: "Unauthorized".into(),
                        },
                        retry_at: crate::app::tests::fixed_now(),
                    },
                },
            )]),
        );
        let screen = draw(&app, 160, 48);
        assert!(screen.contains("Compute Pools (12)"), "{screen}");
        assert!(screen.contains("401 Unauthorized"), "{screen}");
    }
}

mod manners {
    use super::*;

    #[test]
    fn without_a_utf8_locale_the_screen_is_drawn_in_ascii() {
        let mut theme = Theme::builtin("default-dark").expect("theme");
        theme.ascii = true;
        let mut app = fleet_app();
        for keys in ["", "?"] {
            if !keys.is_empty() {
                self::keys(&mut app, keys);
            }
            let mut terminal = Terminal::new(TestBackend::new(160, 48)).expect("terminal");
            terminal
                .draw(|frame| render(&app, &theme, frame))
                .expect("draw");
            let screen = terminal.backend().to_string();
            let foreign: Vec<char> = screen.chars().filter(|c| !c.is_ascii()).collect();
            assert!(foreign.is_empty(), "not ASCII: {foreign:?}\n{screen}");
            assert!(screen.contains("pooldeck | pooldeck-demo"), "{screen}");
            let border = if keys.is_empty() {
                " Compute Pools (12) ----"
            } else {
                "+ Keys"
            };
            assert!(
                screen.contains(border),
                "lines and borders in ASCII: {screen}"
            );
        }
        // Arrows are two characters, not one that reads as "greater than": the Scaling tab's
        // count -> target and the help's keys.
        let mut app = fleet_app();
        self::keys(&mut app, "/llm-finetune");
        update(&mut app, Msg::Key(KeyEvent::from(KeyCode::Enter)));
        update(&mut app, Msg::Key(KeyEvent::from(KeyCode::Enter)));
        self::keys(&mut app, "4");
        let mut terminal = Terminal::new(TestBackend::new(160, 48)).expect("terminal");
        terminal
            .draw(|frame| render(&app, &theme, frame))
            .expect("draw");
        let screen = terminal.backend().to_string();
        assert!(screen.contains("12 -> 16"), "{screen}");
        assert!(!screen.contains("12 > 16"), "{screen}");
        self::keys(&mut app, "?");
        let mut terminal = Terminal::new(TestBackend::new(160, 48)).expect("terminal");
        terminal
            .draw(|frame| render(&app, &theme, frame))
            .expect("draw");
        let help = terminal.backend().to_string();
        assert!(help.contains("-> Tab"), "{help}");
    }

    /// Ordinary text is the terminal's own foreground in every built-in theme at every depth
    /// (bright white, ESC[97m, was unreadable on a light background), while the meanings keep
    /// their colours.
    #[test]
    fn ordinary_text_is_the_terminals_own_foreground() {
        use crate::theme::{Depth, Meaning};
        for name in ["default-dark", "light", "high-contrast", "monochrome"] {
            for depth in [Depth::TrueColor, Depth::Ansi256, Depth::Ansi16] {
                let theme = Theme::builtin(name).expect("theme").for_depth(depth);
                assert_eq!(theme.style(Meaning::Text).fg, None, "{name} at {depth:?}");
                if name != "monochrome" {
                    assert!(
                        theme.style(Meaning::Error).fg.is_some(),
                        "{name} at {depth:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn warnings_read_apart_from_errors_at_every_depth() {
        use crate::theme::Depth;
        for name in ["default-dark", "light", "high-contrast"] {
            for depth in [Depth::TrueColor, Depth::Ansi256, Depth::Ansi16] {
                let theme = Theme::builtin(name).expect("theme").for_depth(depth);
                assert_ne!(theme.warn, theme.error, "{name} at {depth:?}");
                assert_ne!(theme.ok, theme.error, "{name} at {depth:?}");
            }
        }
        // Inside screen without 256 colours, an inherited COLORTERM does not count.
        assert_eq!(
            Depth::detect(Some("truecolor"), Some("screen")),
            Depth::Ansi16
        );
        assert_eq!(
            Depth::detect(Some("truecolor"), Some("tmux-256color")),
            Depth::TrueColor
        );
        assert_eq!(Depth::detect(None, Some("screen-256color")), Depth::Ansi256);
        assert!(Theme::utf8_locale(None, None, Some("en_US.UTF-8")));
        assert!(!Theme::utf8_locale(Some("C"), None, Some("en_US.UTF-8")));
        assert!(!Theme::utf8_locale(None, None, None));
    }
}

/// The tour's caption: a band under the list at 80×24 (the console keeps its header, list
/// and footer), beside the console when the terminal is wide; the step shown with its keys,
/// the answer after `?`, the steps done marked by a sign, not a colour.
#[test]
fn the_tour_caption_at_80x24_and_beside_a_wide_console() {
    use crate::app::tour::{Progress, Tour};
    let mut app = crate::app::tests::scenario_app("stuck-provisioning");
    app.tour = Some(Tour::new(1, &Progress::default()));
    keys(&mut app, "?");
    insta::assert_snapshot!("tour_80x24_answer", draw(&app, 80, 24));
    keys(&mut app, "?j");
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
    );
    let wide = draw(&app, 160, 48);
    insta::assert_snapshot!("tour_160x48_step_two", wide);
    // Without colour the step done and the step now read by their marks.
    assert!(wide.contains("✓ Step 1 of 4"), "{wide}");
    assert!(wide.contains("› Step 2 of 4"), "{wide}");
}
