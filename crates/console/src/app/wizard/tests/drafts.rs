//! Drafts as an operator meets them: an edit's draft survives a dropped session (the text
//! being typed too) and `e` offers it with what it changes and whether the pool moved on; `n`
//! offers every new pool's draft and discards one on `d d`; a draft renamed moves its file.

use super::*;
use crate::app::drafts::{Chooser, Offer};
use crate::app::script::{forget_returned, returned, update};

fn chooser(app: &App) -> &Chooser {
    match app.overlays.last() {
        Some(Overlay::Drafts(chooser)) => chooser,
        other => panic!("no drafts offered: {other:?}"),
    }
}

/// The ml-research pool `name` as the watch would bring it after a change: at `version`.
fn moved_on(app: &mut App, name: &str, version: &str) {
    let mut live = live_pool(app, "ml-research", name);
    live["metadata"]["resourceVersion"] = version.into();
    update(
        app,
        Msg::Sources(vec![(
            0,
            crate::inventory::SourceEvent::Applied {
                kind: Kind::Pool,
                object: live,
            },
        )]),
    );
}

fn select(app: &mut App, name: &str) {
    update(app, key(KeyCode::Char('/')));
    typed(app, name);
    update(app, key(KeyCode::Enter));
}

#[test]
fn an_edit_draft_survives_a_dropped_session_and_is_offered_with_its_changes() {
    let mut app = fleet_app();
    select(&mut app, "llm-train");
    update(&mut app, key(KeyCode::Char('e')));
    assert!(matches!(wizard(&app).purpose, Purpose::Edit { .. }));
    // The description typed, not kept with Enter: the session drops here.
    to_field(&mut app, "Description", 0);
    update(&mut app, key(KeyCode::Enter));
    typed(&mut app, " (moved to H100s)");
    let saved = returned()
        .iter()
        .rev()
        .find_map(|e| match e {
            Effect::SaveDraft { saved, .. } => Some(saved.clone()),
            _ => None,
        })
        .expect("saved on the keystroke");
    assert_eq!(saved.aim, crate::domain::draft::Aim::Edit);
    let typing = saved.typing.clone().expect("the text being typed is kept");
    assert!(typing.text.ends_with("(moved to H100s)"), "{typing:?}");

    // A new session with what was on disk; the pool moved on meanwhile.
    let mut kept = app.drafts.clone();
    assert_eq!(kept.len(), 1);
    kept[0].saved.resource_version = Some("1".into());
    let mut again = fleet_app();
    again.drafts = kept;
    moved_on(&mut again, "llm-train", "7");
    select(&mut again, "llm-train");
    update(&mut again, key(KeyCode::Char('e')));
    let offered = chooser(&again);
    let Offer::Edit { changes, moved, .. } = &offered.offer else {
        panic!("an edit's draft is offered");
    };
    assert!(
        changes.iter().any(|c| c.path.contains("description")
            && c.draft
                .as_deref()
                .is_some_and(|d| d.ends_with("(moved to H100s)"))),
        "{changes:?}"
    );
    assert!(
        moved.as_ref().is_some_and(|(then, _)| then == "1"),
        "{moved:?}"
    );
    // Enter resumes it: the field being typed is open again with its text.
    update(&mut again, key(KeyCode::Enter));
    let w = wizard(&again);
    assert!(matches!(w.purpose, Purpose::Edit { .. }));
    assert_eq!(w.step, Step::General);
    assert!(
        w.editing
            .as_ref()
            .is_some_and(|e| e.text().ends_with("(moved to H100s)")),
        "{:?}",
        w.editing
    );
    // Esc then drops the typing, as it would have before the session dropped.
    update(&mut again, key(KeyCode::Esc));
    assert!(wizard(&again).editing.is_none());
}

#[test]
fn n_offers_every_new_pool_draft_and_d_twice_discards_one() {
    let mut app = fleet_app();
    for name in ["first-pool", "second-pool"] {
        update(&mut app, key(KeyCode::Char('n')));
        if matches!(app.overlays.last(), Some(Overlay::Drafts(_))) {
            // Start a new pool: the entry above the drafts.
            update(&mut app, key(KeyCode::Up));
            update(&mut app, key(KeyCode::Enter));
        }
        set_field(&mut app, "Compute pool name", 0, name);
        update(&mut app, key(KeyCode::Esc));
        assert!(app.overlays.is_empty(), "closed, the draft kept");
    }
    // Each draft is kept under its name; no unnamed file stays.
    let files: Vec<String> = app.drafts.iter().map(|k| k.file.clone()).collect();
    assert_eq!(files.len(), 2, "{files:?}");
    assert!(files.iter().all(|f| !f.contains("unnamed")), "{files:?}");
    update(&mut app, key(KeyCode::Char('n')));
    let entries = chooser(&app).entries(app.now);
    assert_eq!(entries.len(), 3, "{entries:?}");
    assert!(
        entries[1].contains("ml-research/second-pool"),
        "{entries:?}"
    );
    assert!(entries[2].contains("ml-research/first-pool"), "{entries:?}");
    // d once asks; d again discards (its file removed).
    forget_returned();
    update(&mut app, key(KeyCode::Char('d')));
    assert!(returned().is_empty());
    update(&mut app, key(KeyCode::Char('d')));
    assert!(
        returned()
            .iter()
            .any(|e| matches!(e, Effect::DiscardDraft(f) if f.contains("second-pool"))),
        "{:?}",
        returned()
    );
    assert_eq!(chooser(&app).entries(app.now).len(), 2);
    // Enter on the one left resumes it.
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(wizard(&app).draft.pool["metadata"]["name"], "first-pool");
}

#[test]
fn a_draft_is_offered_on_its_own_hub_and_a_moved_pool_is_said_on_review() {
    let mut app = fleet_app();
    select(&mut app, "llm-train");
    update(&mut app, key(KeyCode::Char('e')));
    set_field(&mut app, "Description", 0, "for the spring sale");
    update(&mut app, key(KeyCode::Esc));
    let kept = app.drafts.clone();
    assert_eq!(kept.len(), 1);
    assert_eq!(
        kept[0].saved.context, "pooldeck-demo",
        "the hub it was written on"
    );

    // Another hub's pool of the same namespace and name: its draft is not offered there.
    let mut elsewhere = fleet_app();
    elsewhere.fleet.connection.context = "hub-b".into();
    elsewhere.drafts = kept.clone();
    select(&mut elsewhere, "llm-train");
    update(&mut elsewhere, key(KeyCode::Char('e')));
    assert!(
        matches!(elsewhere.overlays.last(), Some(Overlay::Wizard(_))),
        "the live pool opens, not hub-a's draft"
    );

    // On its hub, resumed after the pool moved on: said on Review, as a warning.
    let mut again = fleet_app();
    let mut moved = kept;
    moved[0].saved.resource_version = Some("1".into());
    again.drafts = moved;
    moved_on(&mut again, "llm-train", "7");
    select(&mut again, "llm-train");
    update(&mut again, key(KeyCode::Char('e')));
    update(&mut again, key(KeyCode::Enter));
    let w = wizard(&again);
    let said = w
        .findings
        .iter()
        .find(|f| f.rule.id == "wizard.pool-moved-on")
        .expect("the move is said");
    assert_eq!(said.rule.severity, Severity::Warning);
    assert!(
        said.message.contains("resourceVersion 1 -> 7"),
        "{}",
        said.message
    );
    // The draft keeps the version it started from: the warning outlives another session.
    assert_eq!(w.saved().resource_version.as_deref(), Some("1"));
}

#[test]
fn resume_of_an_edit_waits_for_its_namespace_and_never_opens_a_deleting_pool() {
    let mut app = fleet_app();
    select(&mut app, "retired-cluster");
    // retired-cluster is being deleted: `e` refuses, so its draft is made by hand.
    let pool = live_pool(&app, "ml-research", "retired-cluster");
    let saved = crate::domain::draft::Saved {
        aim: crate::domain::draft::Aim::Edit,
        context: "pooldeck-demo".into(),
        resource_version: None,
        started: String::new(),
        typing: None,
        draft: crate::domain::draft::Draft::from_object(pool, None),
    };
    app.resuming = Some(crate::app::drafts::Kept {
        file: saved.file_name(),
        saved,
        at: None,
    });
    app.open_pending();
    assert!(app.resuming.is_none());
    assert!(
        app.overlays.is_empty(),
        "nothing opened on a pool being deleted"
    );
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("is being deleted")),
        "{:?}",
        app.message
    );

    // A pool in a namespace not listed yet: the resume waits rather than call it gone.
    let mut waiting = fleet_app();
    let mut draft = crate::domain::draft::Draft::new("elsewhere");
    draft.set(
        &YamlPath::keys("metadata.name"),
        Some(serde_json::json!("far-pool")),
    );
    let saved = crate::domain::draft::Saved {
        aim: crate::domain::draft::Aim::Edit,
        context: String::new(),
        resource_version: None,
        started: String::new(),
        typing: None,
        draft,
    };
    waiting.namespaces = crate::app::ports::Namespaces::Only(vec!["ml-research".into()]);
    waiting.fleet.inventory = crate::inventory::Inventory::new();
    waiting.resuming = Some(crate::app::drafts::Kept {
        file: saved.file_name(),
        saved,
        at: None,
    });
    waiting.open_pending();
    assert!(
        waiting.resuming.is_some(),
        "still waiting for its namespace"
    );
    assert!(waiting.overlays.is_empty());
}
