//! A list arriving in pages, as the console shows it: the first page is on screen before the
//! list is complete, and the selection and filter made meanwhile survive the swap to the
//! complete picture.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::Value;

use super::tests::fixed_now;
use super::*;
use crate::app::script::update;
use crate::demo::scenario::{Scenario, resolve_times_at};
use crate::inventory::SourceEvent;
use crate::inventory::{Kind, Object, SourceState};

fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn pools() -> Vec<Object> {
    let now = fixed_now();
    Scenario::builtin("fleet")
        .expect("fleet")
        .objects
        .iter()
        .filter(|o| o.get("kind").and_then(Value::as_str) == Some("ComputePool"))
        .map(|o| Object::new(Kind::Pool, resolve_times_at(o, now)))
        .collect()
}

#[test]
fn the_first_page_shows_and_selection_and_filter_survive_the_swap() {
    let mut app = App::new(
        Connection {
            context: "hub".into(),
            server: "https://hub:6443".into(),
            user: "operator".into(),
            scope: "all namespaces".into(),
            kubeconfig: None,
        },
        fixed_now(),
    );
    let mut all = pools();
    let rest = all.split_off(6);
    update(
        &mut app,
        Msg::Sources(vec![(
            0,
            SourceEvent::State {
                kind: Kind::Pool,
                scope: None,
                state: SourceState::Syncing,
            },
        )]),
    );
    update(
        &mut app,
        Msg::Sources(vec![(
            0,
            SourceEvent::Page {
                kind: Kind::Pool,
                scope: None,
                objects: all,
            },
        )]),
    );
    assert_eq!(app.shown.len(), 6, "the first page is on screen");
    assert!(
        app.fleet
            .inventory
            .health_of(Kind::Pool)
            .all(|h| h.state == SourceState::Syncing),
        "while the list is still arriving"
    );
    // The operator filters and selects meanwhile.
    update(&mut app, key(KeyCode::Char('/')));
    for c in "ml-research".chars() {
        update(&mut app, key(KeyCode::Char(c)));
    }
    update(&mut app, key(KeyCode::Enter));
    update(&mut app, key(KeyCode::Down));
    let chosen = app.shown.row(app.list.selected).expect("a row").id.clone();
    let rows = app.shown.rows_built;
    update(
        &mut app,
        Msg::Sources(vec![(
            0,
            SourceEvent::Listed {
                kind: Kind::Pool,
                scope: None,
                objects: rest,
            },
        )]),
    );
    assert!(
        app.shown.rows_built > rows,
        "the rest of the list was built into the picture"
    );
    assert_eq!(app.list.filter, "ml-research", "the filter stays");
    assert_eq!(
        app.shown.row(app.list.selected).map(|r| r.id.clone()),
        Some(chosen),
        "the selection stays on its row"
    );
    assert!(
        app.shown
            .window_rows()
            .all(|r| r.id.namespace == "ml-research")
    );
    assert_eq!(app.fleet.inventory.count(Kind::Pool), 12);
}
