//! Views are data: the test-only `sample` view (`app/rows/sample.rs`, one line in `views!`)
//! is reached, drawn and sorted through the registry alone, with no other file knowing it.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::json;

use super::View;
use crate::app::script::update;
use crate::app::tests::fixed_now;
use crate::app::{App, Connection, Msg};
use crate::inventory::{Kind, SourceEvent};

fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        update(
            app,
            Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)),
        );
    }
}

fn enter(app: &mut App) {
    update(
        app,
        Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
    );
}

fn tenant(name: &str, projects: &[&str]) -> serde_json::Value {
    let limits: serde_json::Map<String, serde_json::Value> = projects
        .iter()
        .map(|p| ((*p).to_owned(), json!({"nvidia.com/gpu": 4})))
        .collect();
    json!({
        "apiVersion": "spectrocloud.com/v1alpha1",
        "kind": "Tenant",
        "metadata": {"name": name, "creationTimestamp": "2026-11-01T00:00:00Z"},
        "spec": {"gpuResources": {"projectLimits": limits}},
    })
}

#[test]
fn a_view_added_in_one_file_and_one_registry_line_is_reached_by_name() {
    let sample = View::named("tenantcaps").expect("the registry holds the sample view");
    assert_eq!(sample.title(), "Tenant caps");
    assert_eq!(View::named("tenantcap"), Some(sample), "its aliases too");
    // Every view has a name of its own and none shadows another's.
    let mut names: Vec<&str> = View::all()
        .flat_map(|v| v.aliases().iter().copied())
        .collect();
    let count = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), count, "an alias names two views");

    let mut app = App::new(Connection::default(), fixed_now());
    update(
        &mut app,
        Msg::Sources(vec![(
            0,
            SourceEvent::listed(
                Kind::Tenant,
                None,
                vec![tenant("acme", &["a", "b", "c"]), tenant("zeta", &["z"])],
            ),
        )]),
    );
    // `:` completes it and runs it.
    typed(&mut app, ":tenantc");
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE)),
    );
    assert_eq!(
        app.input,
        crate::app::Input::Command("tenantcaps".into(), Some("tenantc".into()))
    );
    enter(&mut app);
    assert_eq!(app.list.view, sample, "{:?}", app.message);
    let names: Vec<String> = app
        .shown
        .window_rows()
        .map(|r| r.id.name.to_string())
        .collect();
    assert_eq!(names, ["acme", "zeta"]);
    let headers: Vec<&str> = app.shown.columns().iter().map(|c| c.header).collect();
    assert_eq!(headers, ["NAME", "PROJECT LIMITS", "AGE"]);
    // Its rows sort by its own column like any view's: S reverses the order by name.
    typed(&mut app, "sS");
    let names: Vec<String> = app
        .shown
        .window_rows()
        .map(|r| r.id.name.to_string())
        .collect();
    assert_eq!(names, ["zeta", "acme"]);
    // Nothing that acts on pools applies to its rows.
    assert!(!app.enabled(crate::app::commands::Command::PauseResume));
    assert!(!app.enabled(crate::app::commands::Command::Yaml));
    // A new tenant arriving shows without anything else knowing the view.
    update(
        &mut app,
        Msg::Sources(vec![(
            0,
            SourceEvent::listed(
                Kind::Tenant,
                None,
                vec![
                    tenant("acme", &["a"]),
                    tenant("mid", &[]),
                    tenant("zeta", &["z"]),
                ],
            ),
        )]),
    );
    assert_eq!(app.shown.len(), 3);
}
