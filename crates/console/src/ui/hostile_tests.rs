//! Cluster text that tries to act on the terminal, drawn as a hostile hub would serve it: a
//! condition message that sets the window title (OSC 0), writes the clipboard (OSC 52),
//! sends a DCS string and clears the screen; a bidirectional override in a label; a status
//! word that is an escape sequence; a 3,000-character status message; a log line of
//! controls. Every screen shows them escaped (snapshots of the list, the detail's
//! conditions, events and diagnosis, the log and a dialog), and no drawn cell ever holds a
//! control or a bidirectional character, whatever the text (property test).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use proptest::prelude::*;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::{Value, json};

use super::*;
use crate::app::Msg;
use crate::app::script::{returned, update};
use crate::app::tests::{applied, fleet_app, held_value};
use crate::inventory::Kind;

const TITLE: &str = "\u{1b}]0;pwned\u{7}";
const CLIPBOARD: &str = "\u{1b}]52;c;cHduZWQ=\u{7}";
const DCS: &str = "\u{1b}Ptmux;\u{1b}\u{1b}]0;pwned\u{7}\u{1b}\\";
const CLEAR: &str = "\u{1b}[2J";
const BIDI: &str = "\u{202e}";

/// The fleet with one more pool and one more event, both carrying `text` where the cluster
/// writes free text.
fn hostile_app(text: &str) -> App {
    let mut app = fleet_app();
    let mut pool = held_value(&app, Kind::Pool, "vision-lab", "ocr-batch");
    pool["metadata"]["name"] = json!("hostile-pool");
    pool["metadata"]["uid"] = json!("hostile-uid");
    pool["metadata"]["labels"] = json!({"team": format!("ml{BIDI}gpj.exe")});
    // Deleting for 40 minutes, held by a reference the status names.
    pool["metadata"]["deletionTimestamp"] = json!("2026-11-30T11:20:00Z");
    pool["spec"]["clusterVariant"]["dedicated"]["paletteClusterDeploymentConfig"]["edge"]["vip"] =
        json!("10.99.99.99");
    pool["status"] = json!({
        "status": format!("Failed{CLEAR}"),
        "conditions": [{
            "type": "ClusterDeployed", "status": "False", "reason": "ClusterDeploymentFailed",
            "message": text,
        }],
        "aiWorkloadRefs": [{"name": "x; touch /tmp/p; #", "namespace": "vision-lab"}],
    });
    applied(&mut app, Kind::Pool, pool);
    let event = json!({
        "apiVersion": "v1", "kind": "Event",
        "metadata": {"name": "hostile-event", "namespace": "vision-lab", "uid": "e-1"},
        "involvedObject": {"kind": "ComputePool", "name": "hostile-pool", "namespace": "vision-lab"},
        "type": "Warning", "reason": "Hostile", "message": text,
        "lastTimestamp": "2026-11-30T11:59:00Z",
    });
    applied(&mut app, Kind::Event, event);
    app
}

fn press(app: &mut App, code: KeyCode, modifiers: KeyModifiers) {
    update(app, Msg::Key(KeyEvent::new(code, modifiers)));
}

fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c), KeyModifiers::NONE);
    }
}

/// The screen as text, after checking that no drawn cell holds anything a terminal acts on.
fn drawn(app: &App, width: u16, height: u16) -> String {
    let theme = Theme::builtin("default-dark").expect("theme");
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("terminal");
    terminal
        .draw(|frame| render(app, &theme, frame))
        .expect("draw");
    for cell in &terminal.backend().buffer().content {
        assert!(
            !cell
                .symbol()
                .chars()
                .any(crate::domain::inert::foreign_to_a_cell),
            "a cell holds {:?}",
            cell.symbol()
        );
    }
    terminal.backend().to_string()
}

fn payload() -> String {
    format!("deploy failed {TITLE}{CLIPBOARD}{DCS}{CLEAR}{BIDI} see logs")
}

#[test]
fn hostile_text_is_shown_escaped_in_every_view() {
    let mut app = hostile_app(&payload());
    typed(&mut app, "/hostile");
    press(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    insta::assert_snapshot!("hostile_list_160x48", drawn(&app, 160, 48));
    // The events list: the message column.
    typed(&mut app, ":events");
    press(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    typed(&mut app, "/Hostile");
    press(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    let events = drawn(&app, 160, 48);
    assert!(events.contains("\\x1b]52;c;cHduZWQ="), "{events}");
    insta::assert_snapshot!("hostile_events_list_160x48", events);
    typed(&mut app, ":pools");
    press(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    typed(&mut app, "/hostile");
    press(&mut app, KeyCode::Enter, KeyModifiers::NONE);

    press(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    typed(&mut app, "2");
    let conditions = drawn(&app, 160, 48);
    assert!(conditions.contains("\\x1b]0;pwned\\x07"), "{conditions}");
    assert!(conditions.contains("\\u{202e}"), "{conditions}");
    insta::assert_snapshot!("hostile_conditions_160x48", conditions);
    typed(&mut app, "5");
    insta::assert_snapshot!("hostile_events_160x48", drawn(&app, 160, 48));
    typed(&mut app, "7");
    let diagnose = drawn(&app, 160, 48);
    assert!(
        diagnose.contains("cannot be an AIWorkload"),
        "a status name that is not a Kubernetes name is never a command's target: {diagnose}"
    );
    assert!(!diagnose.contains("aiworkload x;"), "{diagnose}");
    insta::assert_snapshot!("hostile_diagnose_160x48", diagnose);

    typed(&mut app, "l");
    update(
        &mut app,
        Msg::Logs(crate::app::logs::LogEvent::Started {
            pods: vec!["hue-controllers-1".into()],
            found: "mural-system".into(),
        }),
    );
    update(
        &mut app,
        Msg::Logs(crate::app::logs::LogEvent::Lines {
            pod: "hue-controllers-1".into(),
            lines: vec![format!(
                "2026-11-30T11:59:00Z\tERROR\thostile-pool {} \u{fffd}",
                payload()
            )],
        }),
    );
    typed(&mut app, "a");
    insta::assert_snapshot!("hostile_log_80x24", drawn(&app, 80, 24));
    press(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    press(&mut app, KeyCode::Esc, KeyModifiers::NONE);

    // Unblocking the deletion: the hostile reference is never a target, and it is not taken
    // for "no AIWorkload left": the finalizer's step stays blocked, saying why.
    typed(&mut app, "u");
    let dialog = drawn(&app, 160, 48);
    assert!(dialog.contains("not acted on"), "{dialog}");
    insta::assert_snapshot!("hostile_unblock_dialog_160x48", dialog);
    let sent: Vec<String> = returned()
        .iter()
        .filter_map(|e| match e {
            crate::app::Effect::Perform(request) => Some(request.operation.kubectl()),
            _ => None,
        })
        .collect();
    assert!(!sent.iter().any(|k| k.contains("touch")), "{sent:?}");
}

/// Two pools on one VIP that carries terminal controls and shell syntax (a hub without the
/// admission webhook takes it): both are marked as breaking a rule, and every tab of one,
/// its findings quoting the VIP among them, draws it as inert text.
#[test]
fn a_hostile_vip_two_pools_share_is_marked_and_drawn_inert() {
    let vip = format!("10.99.99.99{CLIPBOARD}$(touch /tmp/p){CLEAR}");
    let mut app = fleet_app();
    let base = held_value(&app, Kind::Pool, "vision-lab", "ocr-batch");
    for name in ["shared-a", "shared-b"] {
        let mut pool = base.clone();
        pool["metadata"]["name"] = json!(name);
        pool["metadata"]["uid"] = json!(format!("{name}-uid"));
        pool["spec"]["clusterVariant"]["dedicated"]["paletteClusterDeploymentConfig"]["edge"]["vip"] =
            json!(vip);
        applied(&mut app, Kind::Pool, pool);
    }
    typed(&mut app, "/shared");
    press(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    let broken: Vec<&str> = app
        .shown
        .window_rows()
        .filter(|r| r.broken)
        .map(|r| r.id.name.as_str())
        .collect();
    assert_eq!(broken, ["shared-a", "shared-b"]);
    drawn(&app, 160, 48);
    press(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    let findings = &app
        .shown
        .detail
        .as_ref()
        .expect("the pool's detail")
        .findings;
    let unique = findings
        .iter()
        .find(|f| f.rule.id == "vip.unique")
        .expect("the VIP shared");
    assert!(
        unique.message.contains(&vip),
        "kept as data: {}",
        unique.message
    );
    let mut escaped = Vec::new();
    for tab in '1'..='7' {
        typed(&mut app, &tab.to_string());
        if drawn(&app, 160, 48).contains("\\x1b]52;c;cHduZWQ=") {
            escaped.push(tab);
        }
        drawn(&app, 40, 12);
    }
    // The overview names the VIP, the diagnosis its conflict: both as escaped text.
    assert_eq!(escaped, ['1', '7']);
}

/// A 3,000-character status message does not push the list's other columns off the screen,
/// and a 5,000-character event message does not fill the Events tab.
#[test]
fn long_values_are_cut_with_a_marker() {
    let long = "x".repeat(5_000);
    let mut app = hostile_app(&long);
    let mut pool = held_value(&app, Kind::Pool, "vision-lab", "hostile-pool");
    pool["status"]["status"] = json!("y".repeat(3_000));
    // Not deleting: the list shows the status word as the cluster wrote it.
    if let Some(metadata) = pool["metadata"].as_object_mut() {
        metadata.shift_remove("deletionTimestamp");
    }
    applied(&mut app, Kind::Pool, pool);
    typed(&mut app, "/hostile");
    press(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    let list = drawn(&app, 160, 48);
    let row = list
        .lines()
        .find(|l| l.contains("hostile-pool"))
        .unwrap_or_else(|| panic!("{list}"));
    assert!(row.contains('…'), "{row}");
    assert!(row.contains("vision-lab"), "the other columns stay: {row}");
    press(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    typed(&mut app, "5");
    let events = drawn(&app, 160, 48);
    assert!(events.contains("more characters)"), "{events}");
    assert!(
        events.lines().filter(|l| l.contains("xxxxxxxx")).count() < 12,
        "{events}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// Whatever the cluster writes in a condition and an event, no drawn cell of any view
    /// holds a control or bidirectional character (`drawn` checks every cell).
    #[test]
    fn no_cell_ever_holds_a_control(text in any::<String>(), width in 80u16..170, height in 24u16..50) {
        let mut app = hostile_app(&text);
        let _ = drawn(&app, width, height);
        typed(&mut app, "/hostile");
        press(&mut app, KeyCode::Enter, KeyModifiers::NONE);
        press(&mut app, KeyCode::Enter, KeyModifiers::NONE);
        for tab in ['1', '2', '4', '5', '6', '7'] {
            typed(&mut app, &tab.to_string());
            let _ = drawn(&app, width, height);
        }
        let _ = drawn(&app, width, height);
        prop_assert!(app.detail.is_some());
        let value: &Value = &app
            .fleet.inventory
            .get(Kind::Pool, "vision-lab", "hostile-pool")
            .expect("the pool")
            .value();
        prop_assert_eq!(value["status"]["conditions"][0]["message"].as_str(), Some(text.as_str()));
    }
}
