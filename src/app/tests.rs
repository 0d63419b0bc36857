use chrono::TimeZone;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::Value;

use super::*;
use crate::demo::scenario::{Scenario, resolve_times_at};
use crate::inventory::Kind;

pub fn fixed_now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 30, 12, 0, 0)
        .single()
        .expect("a time")
}

/// The fleet scenario's pools and evaluations, at a fixed moment.
pub fn fleet_app() -> App {
    let now = fixed_now();
    let scenario = Scenario::builtin("fleet").expect("fleet");
    let mut app = App::new(
        Connection {
            context: "pooldeck-demo".into(),
            server: "https://127.0.0.1:6443".into(),
            scope: "all namespaces".into(),
        },
        now,
    );
    for (kind, name) in [
        (Kind::Pool, "ComputePool"),
        (Kind::Evaluation, "ComputePoolEvaluation"),
        (Kind::Event, "Event"),
        (Kind::Project, "Project"),
        (Kind::Tenant, "Tenant"),
    ] {
        let objects: Vec<Value> = scenario
            .objects
            .iter()
            .filter(|o| o.get("kind").and_then(Value::as_str) == Some(name))
            .map(|o| resolve_times_at(o, now))
            .collect();
        update(
            &mut app,
            Msg::Source(SourceEvent::listed(kind, None, objects)),
        );
    }
    app
}

fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        update(app, key(KeyCode::Char(c)));
    }
}

fn names(app: &App) -> Vec<String> {
    let table = &app.shown.table;
    let column = table
        .headers
        .iter()
        .position(|h| *h == "NAME")
        .expect("a NAME column");
    table.rows.iter().map(|r| r.cells[column].clone()).collect()
}

#[test]
fn the_filter_narrows_inverts_and_matches_labels() {
    let mut app = fleet_app();
    assert_eq!(names(&app).len(), 12);
    update(&mut app, key(KeyCode::Char('/')));
    type_text(&mut app, "vision");
    assert_eq!(names(&app).len(), 3, "live while typing");
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(app.input, Input::None);
    assert_eq!(names(&app).len(), 3, "kept after Enter");
    update(&mut app, key(KeyCode::Char('/')));
    for _ in 0..6 {
        update(&mut app, key(KeyCode::Backspace));
    }
    type_text(&mut app, "!vision");
    assert_eq!(names(&app).len(), 9);
    update(&mut app, key(KeyCode::Esc));
    assert_eq!(names(&app).len(), 12, "Esc clears");
    update(&mut app, key(KeyCode::Char('/')));
    type_text(&mut app, "-l team=retail-edge");
    assert_eq!(names(&app).len(), 4);
}

#[test]
fn sort_by_column_and_reverse() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char('s')));
    update(&mut app, key(KeyCode::Char('s')));
    assert_eq!(app.sort_column, 2, "the second column: NAME");
    let sorted = names(&app);
    let mut expected = sorted.clone();
    expected.sort();
    assert_eq!(sorted, expected);
    update(&mut app, key(KeyCode::Char('S')));
    let reversed = names(&app);
    expected.reverse();
    assert_eq!(reversed, expected);
}

#[test]
fn the_command_line_switches_views_completes_and_quits() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "cpe");
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(app.view, View::Evaluations);
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "ho");
    update(&mut app, key(KeyCode::Tab));
    assert_eq!(app.input, Input::Command("hosts".into()));
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(app.view, View::Hosts);
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "nodes");
    update(&mut app, key(KeyCode::Enter));
    assert!(app.message.as_deref().is_some_and(|m| m.contains(":nodes")));
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "q");
    update(&mut app, key(KeyCode::Enter));
    assert!(app.quit);
}

#[test]
fn navigation_stays_in_bounds_and_help_toggles() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Up));
    assert_eq!(app.selected, 0);
    update(&mut app, key(KeyCode::Char('G')));
    assert_eq!(app.selected, 11);
    update(&mut app, key(KeyCode::Down));
    assert_eq!(app.selected, 11);
    update(&mut app, key(KeyCode::Char('?')));
    assert!(app.help);
    update(&mut app, key(KeyCode::Esc));
    assert!(!app.help);
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)),
    );
    assert!(app.quit);
}

#[test]
fn describe_yaml_warnings_and_projects() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char('y')));
    assert_eq!(app.detail.as_ref().map(|d| d.tab), Some(Tab::Yaml));
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, key(KeyCode::Char('d')));
    assert_eq!(app.detail.as_ref().map(|d| d.tab), Some(Tab::Overview));
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "events");
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(app.shown.table.rows.len(), 2);
    update(&mut app, key(KeyCode::Char('w')));
    assert_eq!(app.shown.table.rows.len(), 1, "warnings only");
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "proj");
    update(&mut app, key(KeyCode::Tab));
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(app.view, View::Projects);
}

#[test]
fn pools_show_rule_breaks_and_utilization_history() {
    let mut app = fleet_app();
    let mut pool = (*app
        .inventory
        .get(Kind::Pool, "vision-lab", "detector")
        .expect("pool")
        .value())
    .clone();
    pool["spec"]["clusterVariant"]["dedicated"]["paletteClusterDeploymentConfig"]["nodePoolRequirements"]
        ["controlPlanePool"]["nodeCount"] = serde_json::json!(2);
    update(
        &mut app,
        Msg::Source(SourceEvent::Applied {
            kind: Kind::Pool,
            object: pool,
        }),
    );
    let mut evaluation = (*app
        .inventory
        .get(Kind::Evaluation, "vision-lab", "detector")
        .expect("evaluation")
        .value())
    .clone();
    for (i, u) in [40, 55, 70].iter().enumerate() {
        let entry = &mut evaluation["spec"]["poolEvaluations"]["detector/worker-pool-0"];
        entry["evaluatedAt"] = serde_json::json!(format!("2026-11-30T12:0{}:00Z", i + 1));
        entry["gpu"]["NVIDIA L40S | 48 GB"]["utilization"] = serde_json::json!(u);
        update(
            &mut app,
            Msg::Source(SourceEvent::Applied {
                kind: Kind::Evaluation,
                object: evaluation.clone(),
            }),
        );
    }
    let table = &app.shown.table;
    let name = table
        .headers
        .iter()
        .position(|h| *h == "NAME")
        .expect("NAME");
    let util = table
        .headers
        .iter()
        .position(|h| *h == "GPU UTIL")
        .expect("GPU UTIL");
    let row = table
        .rows
        .iter()
        .find(|r| r.id == "vision-lab/detector")
        .expect("row");
    assert_eq!(row.cells[name], "detector !", "a rule error marks the pool");
    assert!(row.cells[util].starts_with("70% "), "{}", row.cells[util]);
    assert!(
        row.cells[util].chars().count() >= 7,
        "a sparkline follows: {}",
        row.cells[util]
    );
    let clean = table
        .rows
        .iter()
        .find(|r| r.id == "ml-research/llm-train")
        .expect("row");
    assert_eq!(clean.cells[name], "llm-train");
}

#[test]
fn namespace_and_context_commands_ask_the_runtime() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "ns vision-lab");
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(
        app.effects,
        [Effect::Watch(crate::sources::watch::Namespaces::Only(
            vec!["vision-lab".into()]
        ))]
    );
    app.effects.clear();
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "ns all");
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(
        app.effects,
        [Effect::Watch(crate::sources::watch::Namespaces::All)]
    );
    app.effects.clear();
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "ctx pooldeck-demo-viewer");
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(
        app.effects,
        [Effect::SwitchContext("pooldeck-demo-viewer".into())]
    );
    app.effects.clear();
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "ns");
    update(&mut app, key(KeyCode::Enter));
    assert!(app.effects.is_empty());
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("all namespaces"))
    );
}

#[test]
fn the_yaml_tab_searches_and_scrolls_to_the_match() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char('y')));
    update(&mut app, key(KeyCode::Char('/')));
    type_text(&mut app, "workerpools");
    let scroll = app.detail.as_ref().map(|d| d.scroll).unwrap_or(0);
    assert!(scroll > 5, "scrolled to the match: {scroll}");
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(app.search, "workerpools");
    update(&mut app, key(KeyCode::Esc));
    assert!(app.detail.is_none());
    assert_eq!(
        app.shown.table.rows.len(),
        12,
        "the search does not filter the list"
    );
}

#[test]
fn a_host_provisioning_too_long_is_called_stuck() {
    let mut app = fleet_app();
    let mut pool = (*app
        .inventory
        .get(Kind::Pool, "vision-lab", "ocr-batch")
        .expect("pool")
        .value())
    .clone();
    let hosts = pool
        .pointer_mut("/status/paletteClusterStatuses/0/allocatedMachinePools/1/hosts")
        .and_then(Value::as_object_mut)
        .expect("worker hosts");
    for host in hosts.values_mut() {
        if host["status"] == "Provisioning" {
            host["statusUpdatedAt"] = serde_json::json!("2026-11-30T11:20:00Z");
        }
    }
    update(
        &mut app,
        Msg::Source(SourceEvent::Applied {
            kind: Kind::Pool,
            object: pool,
        }),
    );
    let theme = crate::theme::Theme::builtin("monochrome").expect("theme");
    app.detail = Some(Detail {
        namespace: "vision-lab".into(),
        name: "ocr-batch".into(),
        tab: Tab::Hosts,
        scroll: 0,
    });
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
