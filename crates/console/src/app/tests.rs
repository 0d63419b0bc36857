use chrono::TimeZone;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::Value;

use super::ports;
use super::*;
use crate::app::script::{forget_returned, returned, update};
use crate::demo::scenario::{Scenario, resolve_times_at};
use crate::inventory::Kind;
use crate::inventory::SourceEvent;

pub fn fixed_now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 30, 12, 0, 0)
        .single()
        .expect("a time")
}

/// An object as the console holds it, to be sent again changed.
pub fn held_value(app: &App, kind: Kind, namespace: &str, name: &str) -> serde_json::Value {
    let held = app.fleet.inventory.get(kind, namespace, name);
    (*held
        .unwrap_or_else(|| panic!("{kind:?} {namespace}/{name} is held"))
        .value())
    .clone()
}

/// An object applied, as a source reports it.
pub fn applied(app: &mut App, kind: Kind, object: serde_json::Value) {
    update(
        app,
        Msg::Sources(vec![(0, SourceEvent::Applied { kind, object })]),
    );
}

/// The fleet scenario's pools and evaluations, at a fixed moment.
pub fn fleet_app() -> App {
    scenario_app("fleet")
}

/// The console with every object of a built-in scenario listed, at [`fixed_now`].
pub fn scenario_app(name: &str) -> App {
    let mut app = App::new(
        Connection {
            context: "pooldeck-demo".into(),
            server: "https://127.0.0.1:6443".into(),
            user: "operator".into(),
            scope: "all namespaces".into(),
            kubeconfig: None,
        },
        fixed_now(),
    );
    for event in scenario_lists(name) {
        update(&mut app, Msg::Sources(vec![(0, event)]));
    }
    app
}

/// Every object of a built-in scenario as its sources list it, at [`fixed_now`]: one list
/// per kind the console watches.
pub fn scenario_lists(name: &str) -> Vec<SourceEvent> {
    let now = fixed_now();
    let scenario = Scenario::builtin(name).expect("a built-in scenario");
    [
        (Kind::Pool, "ComputePool"),
        (Kind::Evaluation, "ComputePoolEvaluation"),
        (Kind::Event, "Event"),
        (Kind::Project, "Project"),
        (Kind::Tenant, "Tenant"),
        (Kind::ProfileBundle, "ProfileBundle"),
        (Kind::ScalingPolicy, "ScalingPolicy"),
        (Kind::Settings, "Settings"),
        (Kind::Compute, "Compute"),
        (Kind::AIWorkload, "AIWorkload"),
    ]
    .into_iter()
    .map(|(kind, name)| {
        let objects: Vec<Value> = scenario
            .objects
            .iter()
            .filter(|o| o.get("kind").and_then(Value::as_str) == Some(name))
            .map(|o| resolve_times_at(o, now))
            .collect();
        SourceEvent::listed(kind, None, objects)
    })
    .collect()
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
    app.shown
        .window_rows()
        .map(|r| r.id.name.to_string())
        .collect()
}

/// The effects `update` left, without the access reviews it asks on its own for the pool
/// under the cursor (tests of fixes look at those).
fn actions() -> Vec<Effect> {
    returned()
        .iter()
        .filter(|e| {
            !matches!(
                e,
                Effect::Perform(request)
                    if matches!(request.operation, crate::domain::Operation::AccessReview { .. })
            )
        })
        .cloned()
        .collect()
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
    assert_eq!(app.list.sort_column, 2, "the second column: NAME");
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
    assert_eq!(app.list.view, View::EVALUATIONS);
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "ho");
    update(&mut app, key(KeyCode::Tab));
    assert_eq!(app.input, Input::Command("hosts".into(), Some("ho".into())));
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(app.list.view, View::HOSTS);
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
    assert_eq!(app.list.selected, 0);
    update(&mut app, key(KeyCode::Char('G')));
    assert_eq!(app.list.selected, 11);
    update(&mut app, key(KeyCode::Down));
    assert_eq!(app.list.selected, 11);
    update(&mut app, key(KeyCode::Char('?')));
    assert_eq!(app.overlay(), Some(&Overlay::Help { scroll: 0 }));
    update(&mut app, key(KeyCode::Esc));
    assert!(app.overlays.is_empty());
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
    // `d`: the selected pool described, kept up to date while it is open; Enter goes on to
    // its detail, Esc back to the list.
    let selected = app
        .shown
        .row(app.list.selected)
        .map(|r| r.id.name.to_string());
    update(&mut app, key(KeyCode::Char('d')));
    let Some(Overlay::Describe(view)) = app.overlay() else {
        panic!("d describes: {:?}", app.overlay());
    };
    assert_eq!(Some(view.name.clone()), selected);
    let name = selected.unwrap_or_default();
    assert!(
        app.shown.describe.iter().any(|l| l.contains(&name))
            && app.shown.describe.iter().any(|l| l == "Conditions:"),
        "{:?}",
        app.shown.describe
    );
    update(&mut app, key(KeyCode::Enter));
    assert!(app.overlays.is_empty());
    assert_eq!(app.detail.as_ref().map(|d| d.tab), Some(Tab::Overview));
    // From the detail, `d` describes the open pool; Esc closes it and leaves the detail.
    update(&mut app, key(KeyCode::Char('d')));
    assert!(matches!(app.overlay(), Some(Overlay::Describe(_))));
    update(&mut app, key(KeyCode::Esc));
    assert!(app.overlays.is_empty() && app.detail.is_some());
    assert!(app.shown.describe.is_empty(), "worked out only while open");
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "events");
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(app.shown.len(), 2);
    update(&mut app, key(KeyCode::Char('w')));
    assert_eq!(app.shown.len(), 1, "warnings only");
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "proj");
    update(&mut app, key(KeyCode::Tab));
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(app.list.view, View::PROJECTS);
}

#[test]
fn pools_show_rule_breaks_and_utilization_history() {
    let mut app = fleet_app();
    let mut pool = held_value(&app, Kind::Pool, "vision-lab", "detector");
    pool["spec"]["clusterVariant"]["dedicated"]["paletteClusterDeploymentConfig"]["nodePoolRequirements"]
        ["controlPlanePool"]["nodeCount"] = serde_json::json!(2);
    applied(&mut app, Kind::Pool, pool);
    let mut evaluation = held_value(&app, Kind::Evaluation, "vision-lab", "detector");
    for (i, u) in [40, 55, 70].iter().enumerate() {
        let entry = &mut evaluation["spec"]["poolEvaluations"]["detector/worker-pool-0"];
        entry["evaluatedAt"] = serde_json::json!(format!("2026-11-30T12:0{}:00Z", i + 1));
        entry["gpu"]["NVIDIA L40S | 48 GB"]["utilization"] = serde_json::json!(u);
        applied(&mut app, Kind::Evaluation, evaluation.clone());
    }
    let columns = app.shown.columns();
    let name = columns
        .iter()
        .position(|c| *c == crate::app::rows::column::NAME)
        .expect("NAME");
    let util = columns
        .iter()
        .position(|c| *c == crate::app::rows::column::GPU_UTIL)
        .expect("GPU UTIL");
    let row = app
        .shown
        .window_rows()
        .find(|r| r.id.namespace == "vision-lab" && r.id.name == "detector")
        .expect("row");
    assert_eq!(row.cells[name], rows::Cell::text("detector"));
    assert!(row.broken, "a rule error marks the pool");
    match &row.cells[util] {
        rows::Cell::Utilization { current, history } => {
            assert_eq!(current.first().copied(), Some(70.0));
            assert!(
                history.len() >= 2,
                "a history for the sparkline: {history:?}"
            );
        }
        other => panic!("GPU UTIL holds a utilization: {other:?}"),
    }
    let clean = app
        .shown
        .window_rows()
        .find(|r| r.id.name == "llm-train")
        .expect("row");
    assert_eq!(clean.cells[name], rows::Cell::text("llm-train"));
    assert!(!clean.broken);
}

#[test]
fn namespace_and_context_commands_ask_the_runtime() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "ns vision-lab");
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(
        actions(),
        [Effect::Watch(ports::Namespaces::Only(vec![
            "vision-lab".into()
        ]))]
    );
    forget_returned();
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "ns all");
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(actions(), [Effect::Watch(ports::Namespaces::All)]);
    forget_returned();
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "ctx pooldeck-demo-viewer");
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(actions(), [Effect::Connect("pooldeck-demo-viewer".into())]);
    forget_returned();
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "ns");
    update(&mut app, key(KeyCode::Enter));
    assert!(actions().is_empty());
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
    assert_eq!(app.shown.len(), 12, "the search does not filter the list");
}

#[test]
fn keys_pressed_on_the_help_never_reach_the_list_behind_it() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char('?')));
    // Each of these acted on the list while the help was open.
    for code in [
        KeyCode::Char('j'),
        KeyCode::Down,
        KeyCode::Char('G'),
        KeyCode::Char('s'),
        KeyCode::Char('/'),
        KeyCode::Char(':'),
        KeyCode::Char('d'),
        KeyCode::Enter,
        KeyCode::Char('w'),
    ] {
        update(&mut app, key(code));
    }
    assert_eq!(app.list.selected, 0, "the selection did not move");
    assert_eq!(app.list.sort_column, 0, "the sort did not change");
    assert_eq!(app.input, Input::None, "no filter or command line opened");
    assert!(app.detail.is_none(), "no pool opened");
    assert!(app.overlay().is_some(), "the help is still open");
    assert!(
        app.hints().starts_with("Esc close"),
        "the footer speaks of the help, not the list: {}",
        app.hints()
    );
    update(&mut app, key(KeyCode::Esc));
    assert!(app.overlays.is_empty(), "Esc pops the help");
    update(&mut app, key(KeyCode::Char('j')));
    assert_eq!(
        app.list.selected, 1,
        "with the help closed the list takes keys again"
    );
}

#[test]
fn the_selection_follows_its_row_when_live_updates_reorder_the_list() {
    let mut app = fleet_app();
    // Sort by name and select llm-train.
    update(&mut app, key(KeyCode::Char('s')));
    update(&mut app, key(KeyCode::Char('s')));
    let at = names(&app)
        .iter()
        .position(|n| n == "llm-train")
        .expect("llm-train listed");
    update(&mut app, key(KeyCode::Char('g')));
    for _ in 0..at {
        update(&mut app, key(KeyCode::Down));
    }
    assert_eq!(names(&app)[app.list.selected], "llm-train");
    // Pools that sort before it arrive.
    let mut first = held_value(&app, Kind::Pool, "ml-research", "llm-train");
    for name in ["aaa-new", "aab-new"] {
        first["metadata"]["name"] = serde_json::json!(name);
        applied(&mut app, Kind::Pool, first.clone());
    }
    assert_eq!(
        names(&app)[app.list.selected],
        "llm-train",
        "still on the same pool"
    );
    assert_eq!(app.list.selected, at + 2);
}

#[test]
fn a_context_switch_answers_later_and_keys_keep_working_meanwhile() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "ctx slow-hub");
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(actions(), [Effect::Connect("slow-hub".into())]);
    forget_returned();
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("connecting"))
    );
    // The console answers keys while the connection is being made.
    update(&mut app, key(KeyCode::Down));
    assert_eq!(app.list.selected, 1);
    // An answer for a context no longer asked for is dropped.
    update(
        &mut app,
        Msg::Connected {
            context: "older".into(),
            result: Ok(ports::Connected {
                context: "older".into(),
                namespace: "default".into(),
                server: "https://old:6443".into(),
                user: "operator".into(),
                read_only: None,
            }),
        },
    );
    assert_eq!(app.fleet.connection.context, "pooldeck-demo");
    assert!(actions().is_empty());
    // A failure is said in words and changes nothing else.
    update(
        &mut app,
        Msg::Connected {
            context: "slow-hub".into(),
            result: Err(crate::domain::ClusterError::Unreachable {
                server: "https://slow:6443".into(),
                detail: "timed out".into(),
            }),
        },
    );
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("cannot reach the server"))
    );
    assert_eq!(app.shown.len(), 12, "the picture is kept");
    // Asked again, and this time it answers: the picture starts over on the new context.
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "ctx slow-hub");
    update(&mut app, key(KeyCode::Enter));
    forget_returned();
    update(
        &mut app,
        Msg::Connected {
            context: "slow-hub".into(),
            result: Ok(ports::Connected {
                context: "slow-hub".into(),
                namespace: "default".into(),
                server: "https://slow:6443".into(),
                user: "operator".into(),
                read_only: None,
            }),
        },
    );
    assert_eq!(app.fleet.connection.context, "slow-hub");
    assert_eq!(
        actions(),
        [
            Effect::UseContext("slow-hub".into()),
            Effect::Watch(ports::Namespaces::All)
        ]
    );
    assert!(app.shown.is_empty(), "nothing of the old hub is shown");
}

#[test]
fn a_tick_rebuilds_no_row() {
    let mut app = fleet_app();
    let builds = app.shown.builds;
    for second in 1..=60 {
        update(
            &mut app,
            Msg::Tick(fixed_now() + chrono::Duration::seconds(second)),
        );
    }
    assert_eq!(
        app.shown.builds, builds,
        "time cells are formatted when drawn"
    );
}

#[test]
fn the_console_checks_pools_against_the_watched_fleet() {
    let mut app = fleet_app();
    // Give detector the VIP another pool already uses.
    let vip_of = |app: &App, ns: &str, name: &str| {
        app.fleet
            .inventory
            .get(Kind::Pool, ns, name)
            .and_then(|o| o.pool().and_then(|p| p.effective_vip().map(str::to_owned)))
    };
    // The holder: a pool that runs and came before detector (created 20 days ago).
    let created = |o: &crate::inventory::Object| {
        o.pool()
            .and_then(|p| p.meta())
            .and_then(|m| m.creation_timestamp.as_deref())
            .and_then(crate::inventory::parse_time)
    };
    let detector_created = app
        .fleet
        .inventory
        .get(Kind::Pool, "vision-lab", "detector")
        .and_then(|o| created(o))
        .expect("detector's age");
    let (taken_by, vip) = app
        .fleet
        .inventory
        .objects(Kind::Pool)
        .find_map(|o| {
            let pool = o.pool()?;
            let vip = pool.effective_vip()?.to_owned();
            let runs = pool.status.get().and_then(|s| s.status.as_deref()) == Some("Running");
            (runs && created(o)? < detector_created).then(|| (o.name().to_owned(), vip))
        })
        .expect("a running pool with a VIP, older than detector");
    assert_ne!(
        vip_of(&app, "vision-lab", "detector").as_deref(),
        Some(vip.as_str())
    );
    let mut pool = held_value(&app, Kind::Pool, "vision-lab", "detector");
    pool["spec"]["clusterVariant"]["dedicated"]["paletteClusterDeploymentConfig"]["edge"]["vip"] =
        serde_json::json!(vip);
    applied(&mut app, Kind::Pool, pool);
    let broken: Vec<&str> = app
        .shown
        .window_rows()
        .filter(|r| r.broken)
        .map(|r| r.id.name.as_str())
        .collect();
    assert!(broken.contains(&"detector"), "the newcomer: {broken:?}");
    assert!(
        !broken.contains(&taken_by.as_str()),
        "the holder of the VIP is never blamed: {broken:?}"
    );
    update(&mut app, key(KeyCode::Char('/')));
    type_text(&mut app, "detector");
    update(&mut app, key(KeyCode::Enter));
    update(&mut app, key(KeyCode::Enter));
    let findings = &app.shown.detail.as_ref().expect("derived").findings;
    assert!(
        findings.iter().any(|f| f.rule.id == "vip.unique"),
        "the Overview names the conflict: {findings:?}"
    );
}

#[test]
fn namespaces_and_label_selectors_are_checked_before_use() {
    let mut app = fleet_app();
    for bad in ["ns ../../apis", "ns bad ns", "ns UPPER"] {
        update(&mut app, key(KeyCode::Char(':')));
        type_text(&mut app, bad);
        update(&mut app, key(KeyCode::Enter));
        assert!(actions().is_empty(), ":{bad} asked for nothing");
        assert!(
            app.message
                .as_deref()
                .is_some_and(|m| m.contains("is not a namespace name")),
            ":{bad}: {:?}",
            app.message
        );
    }
    assert_eq!(app.shown.len(), 12, "the picture is kept");
    // A selector that cannot match says why instead of showing an empty list silently.
    update(&mut app, key(KeyCode::Char('/')));
    type_text(&mut app, "-l ===");
    assert!(
        app.shown
            .filter_problem
            .as_deref()
            .is_some_and(|p| p.contains("-l ===: unable to parse requirement: found '=='")),
        "{:?}",
        app.shown.filter_problem
    );
    update(&mut app, key(KeyCode::Esc));
    assert!(app.shown.filter_problem.is_none());
    update(&mut app, key(KeyCode::Char('/')));
    type_text(&mut app, "-l team=retail-edge");
    assert!(app.shown.filter_problem.is_none());
    assert_eq!(app.shown.len(), 4);
    // kubectl's set-based forms, through the same parser as `pooldeck get -l`.
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, key(KeyCode::Char('/')));
    type_text(&mut app, "-l team in (retail-edge),team notin (ml)");
    assert!(app.shown.filter_problem.is_none());
    assert_eq!(app.shown.len(), 4);
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, key(KeyCode::Char('/')));
    type_text(&mut app, "-l !team");
    assert!(app.shown.filter_problem.is_none());
    assert_eq!(app.shown.len(), 12 - 4 - with_team_not_retail(&app));
}

/// Pools with a `team` label other than retail-edge, in the fleet picture.
fn with_team_not_retail(app: &App) -> usize {
    app.fleet
        .inventory
        .objects(crate::domain::Kind::Pool)
        .filter(|o| o.label("team").is_some_and(|t| t != "retail-edge"))
        .count()
}

/// A footer message said before an overlay opened or closed gives way to the new top's key
/// hints; one said by the key that opened or closed it stays.
#[test]
fn an_older_message_gives_way_when_an_overlay_opens_or_closes() {
    let mut app = fleet_app();
    app.message = Some("an older word".into());
    update(&mut app, key(KeyCode::Char('?')));
    assert!(matches!(app.overlay(), Some(Overlay::Help { .. })));
    assert_eq!(app.message, None, "the help's hints show, not the old word");
    update(&mut app, key(KeyCode::Esc));
    app.message = Some("another older word".into());
    update(&mut app, key(KeyCode::Char('p')));
    assert!(matches!(app.overlay(), Some(Overlay::Confirm(_))));
    assert_eq!(app.message, None);
    // Esc closes the dialog and says so: that word is this key's, and it stays.
    update(&mut app, key(KeyCode::Esc));
    assert_eq!(app.message.as_deref(), Some("cancelled: nothing was sent"));
    // A key that opens nothing leaves the message alone.
    update(&mut app, key(KeyCode::Char('j')));
    assert_eq!(app.message.as_deref(), Some("cancelled: nothing was sent"));
}

/// `:` Tab completes and then cycles: commands and views, the namespaces the objects name,
/// the kubeconfig's contexts; an unknown namespace (when every one is watched) or context is
/// refused with the nearest names; `0` watches every namespace.
#[test]
fn the_command_line_cycles_completions_and_refuses_unknown_names() {
    let mut app = fleet_app();
    app.namespaces = Namespaces::All;
    app.contexts = vec!["hub-eu".into(), "hub-us".into(), "pooldeck-demo".into()];
    let tab = |app: &mut App| update(app, key(KeyCode::Tab));
    let line = |app: &App| match &app.input {
        Input::Command(text, _) => text.clone(),
        other => panic!("not typing a command: {other:?}"),
    };
    // Commands: each Tab the next one that starts with what was typed.
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "p");
    let mut seen = Vec::new();
    for _ in 0..24 {
        tab(&mut app);
        seen.push(line(&app));
    }
    assert!(seen.iter().all(|s| s.starts_with('p')), "{seen:?}");
    let distinct: std::collections::BTreeSet<&String> = seen.iter().collect();
    assert!(distinct.len() > 1, "Tab cycles: {seen:?}");
    assert_eq!(seen[0], seen[distinct.len()], "and comes round: {seen:?}");
    // Typing ends the cycle; namespaces complete after `ns `.
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "ns vi");
    tab(&mut app);
    assert_eq!(line(&app), "ns vision-lab");
    update(&mut app, key(KeyCode::Esc));
    // A namespace nothing names, every namespace being watched: refused, the nearest said.
    forget_returned();
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "ns vision");
    update(&mut app, key(KeyCode::Enter));
    assert!(
        crate::app::script::take_returned()
            .iter()
            .all(|e| !matches!(e, Effect::Watch(_)))
    );
    let said = app.message.clone().unwrap_or_default();
    assert!(
        said.contains("nearest: vision-lab") && said.contains(":ns vision!"),
        "{said}"
    );
    // `!` watches it anyway.
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "ns vision!");
    update(&mut app, key(KeyCode::Enter));
    assert!(
        crate::app::script::take_returned().iter().any(
            |e| matches!(e, Effect::Watch(Namespaces::Only(ns)) if ns == &["vision".to_owned()])
        )
    );
    // Contexts complete, and one the kubeconfig lacks is refused before connecting.
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "ctx hub");
    tab(&mut app);
    assert_eq!(line(&app), "ctx hub-eu");
    tab(&mut app);
    assert_eq!(line(&app), "ctx hub-us");
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "ctx hub-ue");
    update(&mut app, key(KeyCode::Enter));
    assert!(
        crate::app::script::take_returned()
            .iter()
            .all(|e| !matches!(e, Effect::Connect(_)))
    );
    let said = app.message.clone().unwrap_or_default();
    assert!(
        said.contains("no context \"hub-ue\"") && said.contains("nearest: hub-us, hub-eu"),
        "{said}"
    );
    // `0`: every namespace again.
    assert!(!matches!(app.namespaces, Namespaces::All));
    update(&mut app, key(KeyCode::Char('0')));
    assert!(matches!(app.namespaces, Namespaces::All));
    assert!(
        crate::app::script::take_returned()
            .iter()
            .any(|e| matches!(e, Effect::Watch(Namespaces::All)))
    );
    // After a view's word, its objects' names complete; Enter shows the view filtered.
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "cp llm");
    tab(&mut app);
    assert_eq!(line(&app), "cp llm-finetune");
    tab(&mut app);
    assert_eq!(line(&app), "cp llm-train");
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(app.list.view, View::POOLS);
    assert_eq!(app.list.filter, "llm-train");
    assert_eq!(app.shown.len(), 1);
}

/// `1`-`9` watch the settings' favourite namespaces, in order (k9s); one not listed is said
/// with those that are, and nothing is watched anew.
#[test]
fn digits_watch_the_favourite_namespaces() {
    let mut app = fleet_app();
    app.namespaces = Namespaces::All;
    forget_returned();
    update(&mut app, key(KeyCode::Char('1')));
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("favourites:")),
        "{:?}",
        app.message
    );
    app.favourites = vec!["ml-research".into(), "retail-edge".into()];
    update(&mut app, key(KeyCode::Char('2')));
    assert_eq!(app.namespaces, Namespaces::Only(vec!["retail-edge".into()]));
    assert!(crate::app::script::take_returned().iter().any(
        |e| matches!(e, Effect::Watch(Namespaces::Only(ns)) if ns == &["retail-edge".to_owned()])
    ));
    update(&mut app, key(KeyCode::Char('5')));
    let said = app.message.clone().unwrap_or_default();
    assert!(said.contains("1 ml-research, 2 retail-edge"), "{said}");
    // A favourite nothing here is in, every namespace watched: refused as `:ns` refuses it.
    let mut app = fleet_app();
    app.namespaces = Namespaces::All;
    app.favourites = vec!["vision".into()];
    forget_returned();
    update(&mut app, key(KeyCode::Char('1')));
    let said = app.message.clone().unwrap_or_default();
    assert!(said.contains("nearest: vision-lab"), "{said}");
    assert!(
        crate::app::script::take_returned()
            .iter()
            .all(|e| !matches!(e, Effect::Watch(_)))
    );
}

/// Enter on the events list opens the event whole (its message, however long, and the object
/// it concerns); Enter there goes to the pool's detail, Esc back to the list.
#[test]
fn an_event_opens_whole_and_leads_to_its_object() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "events");
    update(&mut app, key(KeyCode::Enter));
    assert!(app.list.view.warnings.is_some(), "the events list");
    let row = (0..app.shown.len())
        .find(|i| {
            app.shown
                .row(*i)
                .is_some_and(|r| r.id.name.contains("video-analytics"))
        })
        .expect("an event about video-analytics");
    app.list.selected = row;
    update(&mut app, key(KeyCode::Enter));
    let view = match app.overlay() {
        Some(Overlay::Event(view)) => view.clone(),
        other => panic!("the event: {other:?}"),
    };
    assert_eq!(view.object.0, "ComputePool");
    assert_eq!(view.object.2, "video-analytics");
    assert!(
        view.message.contains("no available edge hosts"),
        "{}",
        view.message
    );
    update(&mut app, key(KeyCode::Esc));
    assert!(app.overlay().is_none(), "Esc closes it");
    update(&mut app, key(KeyCode::Enter));
    update(&mut app, key(KeyCode::Enter));
    assert!(app.overlay().is_none());
    let detail = app.detail.as_ref().expect("the pool's detail");
    assert_eq!(
        (detail.namespace.as_str(), detail.name.as_str(), detail.tab),
        ("vision-lab", "video-analytics", Tab::Overview)
    );
}

/// `E`: the pool's YAML to the editor, bound to the hub it was read on; what comes back with
/// errors goes to the editor again with its findings; a valid edit opens the confirmation
/// whose dry run replaces the version read. Read-only mode opens no editor; an edit that
/// comes back after the console moved to another hub is not sent.
#[test]
fn e_sends_the_pool_to_the_editor_and_its_edit_to_a_confirmation() {
    use crate::domain::{Operation, Run};
    let edit_of = |effects: Vec<Effect>| {
        effects.into_iter().find_map(|e| match e {
            Effect::Edit { file, text, resume } => Some((file, text, resume)),
            _ => None,
        })
    };
    let open_llm_train = |app: &mut App| {
        // As the hub sends it: with its version.
        let mut pool = held_value(app, Kind::Pool, "ml-research", "llm-train");
        pool["metadata"]["resourceVersion"] = serde_json::json!("4242");
        applied(app, Kind::Pool, pool);
        update(app, key(KeyCode::Char('/')));
        type_text(app, "llm-train");
        update(app, key(KeyCode::Enter));
        forget_returned();
        update(app, key(KeyCode::Char('E')));
    };
    // Read-only: said, and no editor.
    let mut app = fleet_app();
    app.fleet.read_only_why = Some("read-only for this test".into());
    open_llm_train(&mut app);
    assert!(edit_of(crate::app::script::take_returned()).is_none());
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("read-only")),
        "{:?}",
        app.message
    );
    let mut app = fleet_app();
    open_llm_train(&mut app);
    let (file, text, resume) = edit_of(crate::app::script::take_returned()).expect("the editor");
    assert!(resume.is_some(), "a kept edit of this pool is reopened");
    assert!(file.contains("ml-research--llm-train"), "{file}");
    assert!(text.starts_with("# pooldeck: editing ComputePool ml-research/llm-train"));
    let path = std::path::PathBuf::from("/kept").join(&file);
    // An error: the editor again, the finding on top.
    let refused = text.replace("10.40.0.11", "10.40.0.99");
    assert_ne!(refused, text, "the VIP is in the YAML");
    update(
        &mut app,
        Msg::Edited {
            said: None,
            path: path.clone(),
            result: Ok(refused),
        },
    );
    let (_, again, resume) = edit_of(crate::app::script::take_returned()).expect("reopened");
    assert!(resume.is_none());
    assert!(again.contains("[vip.immutable]"), "{again}");
    // Saved again as it was: given up, kept, nothing opened.
    update(
        &mut app,
        Msg::Edited {
            said: None,
            path: path.clone(),
            result: Ok(again.clone()),
        },
    );
    assert!(edit_of(crate::app::script::take_returned()).is_none());
    assert!(app.overlays.is_empty());
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("nothing was sent") && m.contains("/kept")),
        "{:?}",
        app.message
    );
    // Valid: the confirmation, its dry run a replace of the version read.
    update(&mut app, key(KeyCode::Char('E')));
    let (_, text, _) = edit_of(crate::app::script::take_returned()).expect("the editor");
    let valid = text.replace("Llm Train pool", "Llm Train pool, edited");
    update(
        &mut app,
        Msg::Edited {
            said: None,
            path: path.clone(),
            result: Ok(valid.clone()),
        },
    );
    let Some(Overlay::Confirm(confirm)) = app.overlay() else {
        panic!("a confirmation: {:?}", app.overlay());
    };
    assert_eq!(confirm.plan.fix, crate::domain::fixes::Fix::Edit);
    assert!(
        confirm
            .plan
            .impact
            .iter()
            .any(|l| l.contains("Llm Train pool, edited")),
        "{:?}",
        confirm.plan.impact
    );
    let live_version = "4242";
    // Sent once the access review answers (the dialog's own tests follow that far).
    let dry_runs = confirm.plan.dry_runs();
    assert!(
        crate::app::script::take_returned()
            .iter()
            .all(|e| !matches!(e, Effect::Perform(r) if matches!(r.operation, Operation::Update { run: Run::Real, .. }))),
        "nothing real before the confirmation"
    );
    assert!(
        matches!(&dry_runs[..], [Operation::Update { resource_version, .. }] if *resource_version == live_version),
        "{dry_runs:?}"
    );
    // Another hub by the time the editor comes back: not sent there.
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, key(KeyCode::Char('E')));
    forget_returned();
    app.fleet.connection.context = "hub-eu".into();
    update(
        &mut app,
        Msg::Edited {
            said: None,
            path,
            result: Ok(valid),
        },
    );
    assert!(app.overlays.is_empty(), "{:?}", app.overlay());
    assert!(
        crate::app::script::take_returned()
            .iter()
            .all(|e| !matches!(e, Effect::Perform(_))),
        "nothing sent"
    );
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("hub-eu") && m.contains("nothing sent")),
        "{:?}",
        app.message
    );
}

/// `:reset` asks the runtime to start the demo's story again, closing what was bound to the
/// objects that go; on a hub it says it is the demo's and asks nothing.
#[test]
fn reset_starts_the_demos_story_again_and_only_on_the_demo() {
    let mut app = fleet_app();
    forget_returned();
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "reset");
    update(&mut app, key(KeyCode::Enter));
    assert!(
        crate::app::script::take_returned()
            .iter()
            .all(|e| !matches!(e, Effect::ResetDemo))
    );
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("not the demo")),
        "{:?}",
        app.message
    );
    app.demo = true;
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "reset");
    update(&mut app, key(KeyCode::Enter));
    assert!(
        crate::app::script::take_returned()
            .iter()
            .any(|e| matches!(e, Effect::ResetDemo))
    );
    update(&mut app, Msg::DemoReset(Ok(())));
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("starts again")),
        "{:?}",
        app.message
    );
}

/// `c` on a pool's Diagnose tab copies the doctor's steps as a runbook: each finding, its
/// steps numbered, naming the host they run on.
#[test]
fn c_on_diagnose_copies_the_runbook() {
    let mut app = scenario_app("nvidia-runtime");
    update(&mut app, key(KeyCode::Enter));
    update(&mut app, key(KeyCode::Char('7')));
    assert_eq!(app.detail.as_ref().map(|d| d.tab), Some(Tab::Diagnose));
    forget_returned();
    update(&mut app, key(KeyCode::Char('c')));
    let copied = crate::app::script::take_returned()
        .into_iter()
        .find_map(|e| match e {
            Effect::Copy { text, .. } => Some(text),
            _ => None,
        })
        .expect("copied");
    assert!(
        copied.starts_with("# ComputePool ml-edge/gpu-inference"),
        "{copied}"
    );
    assert!(copied.contains("\n#   1. on edge-g1: "), "{copied}");
    assert!(copied.contains("\n#   9. on edge-g1: "), "{copied}");
    assert!(
        copied.lines().all(|l| l.starts_with('#')),
        "every line a comment: nothing runs if pasted into a shell\n{copied}"
    );
}

/// `:story` tells the demo scenario's story over the screen (Esc closes it); on a hub it says
/// there is none.
#[test]
fn story_tells_the_scenarios_story_on_the_demo() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "story");
    update(&mut app, key(KeyCode::Enter));
    assert!(app.overlays.is_empty());
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("on a hub")),
        "{:?}",
        app.message
    );
    let scenario = Scenario::builtin("vip-conflict").expect("built in");
    app.story = Some((scenario.name.clone(), scenario.description.clone()));
    update(&mut app, key(KeyCode::Char(':')));
    type_text(&mut app, "story");
    update(&mut app, key(KeyCode::Enter));
    match app.overlay() {
        Some(Overlay::Story { name, text, .. }) => {
            assert_eq!(name, "vip-conflict");
            assert!(text.contains("reuses the VIP of a running one"), "{text}");
        }
        other => panic!("the story: {other:?}"),
    }
    update(&mut app, key(KeyCode::Esc));
    assert!(app.overlays.is_empty());
}

/// What the YAML tab copies is what it shows: the pool's YAML with a bidirectional override
/// and a zero-width space in YAML's own escapes, which reads back to the object itself.
#[test]
fn the_yaml_tab_copies_what_it_shows_and_it_reads_back() {
    let mut app = fleet_app();
    let mut pool = held_value(&app, Kind::Pool, "vision-lab", "detector");
    pool["metadata"]["annotations"]["spectrocloud.com/description"] =
        serde_json::json!("cam\u{202e}txt.exe\u{200b} \u{1b}]0;T\u{7}");
    applied(&mut app, Kind::Pool, pool);
    update(&mut app, key(KeyCode::Char('/')));
    type_text(&mut app, "detector");
    update(&mut app, key(KeyCode::Enter));
    update(&mut app, key(KeyCode::Enter));
    update(&mut app, key(KeyCode::Char('6')));
    forget_returned();
    update(&mut app, key(KeyCode::Char('c')));
    let copied = returned()
        .into_iter()
        .find_map(|e| match e {
            Effect::Copy { text, .. } => Some(text),
            _ => None,
        })
        .expect("c copies the YAML");
    let shown = app.shown.detail.as_ref().expect("derived").yaml.join("\n") + "\n";
    assert_eq!(copied, shown);
    assert!(crate::domain::inert::is_inert(&copied), "{copied}");
    let back: Value = serde_saphyr::from_str(&copied).expect("YAML");
    let held = held_value(&app, Kind::Pool, "vision-lab", "detector");
    assert_eq!(back, held, "the object itself to a parser");
}

/// An unknown command names what would have worked, from the table of words: the views, then
/// the words that apply here (the demo's only on the demo).
#[test]
fn an_unknown_command_names_the_views_and_the_words_that_apply_here() {
    let mut app = fleet_app();
    let hint = |app: &mut App| {
        update(app, key(KeyCode::Char(':')));
        type_text(app, "frobnicate");
        update(app, key(KeyCode::Enter));
        app.message.clone().unwrap_or_default()
    };
    let on_a_hub = hint(&mut app);
    assert!(on_a_hub.starts_with("unknown command \":frobnicate\"; try :pools, "));
    assert!(
        on_a_hub.contains(":ns NAME, :ctx NAME, :hub NAME"),
        "{on_a_hub}"
    );
    assert!(on_a_hub.ends_with(":help or :q"), "{on_a_hub}");
    assert!(!on_a_hub.contains(":reset"), "{on_a_hub}");
    app.demo = true;
    let on_the_demo = hint(&mut app);
    assert!(on_the_demo.contains(":story, :reset"), "{on_the_demo}");
    assert!(!on_the_demo.contains(":chapter"), "{on_the_demo}");
}
