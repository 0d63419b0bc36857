//! What the wizard will not do quietly: edit a pool being deleted, drop what it has no field
//! for, or keep a finding about a whole step off that step.

use super::*;
use crate::app::script::{forget_returned, returned, update};

#[test]
fn a_deleting_pool_is_not_edited_and_what_no_field_shows_is_named() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char('/')));
    typed(&mut app, "retired-cluster");
    update(&mut app, key(KeyCode::Enter));
    forget_returned();
    update(&mut app, key(KeyCode::Char('e')));
    assert!(app.overlays.is_empty(), "no wizard on a pool being deleted");
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("retired-cluster is being deleted")),
        "{:?}",
        app.message
    );
    assert!(returned().is_empty(), "no draft saved, nothing sent");

    // A pool from a file with a field the wizard has none for: kept and named on Review.
    update(&mut app, key(KeyCode::Esc));
    let mut pool = live_pool(&app, "ml-research", "llm-train");
    pool["spec"]["futureField"] = serde_json::json!({"mode": "fast"});
    app.start_wizard(crate::app::ask::Start::Draft(Box::new(
        crate::domain::draft::Draft::from_object(pool, None),
    )));
    assert!(
        wizard(&app).kept.iter().any(|p| p == "spec.futureField"),
        "{:?}",
        wizard(&app).kept
    );
    assert!(
        wizard(&app).yaml.contains("futureField"),
        "written back as it is"
    );
}

#[test]
fn a_finding_above_every_field_is_counted_and_shown_on_its_step() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char('n')));
    // A dedicated control plane without a worker pool: said on Node Config, not only Review.
    let w = wizard(&app);
    assert!(
        w.count(Step::NodeConfig, Severity::Error) >= 1,
        "{:#?}",
        w.findings
    );
    to_step(&mut app, Step::NodeConfig);
    let unplaced: Vec<String> = wizard(&app)
        .unplaced()
        .iter()
        .map(|f| f.message.clone())
        .collect();
    assert!(
        unplaced
            .iter()
            .any(|m| m.contains("at least one worker pool")),
        "{unplaced:?}"
    );
    // Added: the error goes.
    update(&mut app, key(KeyCode::Char('a')));
    assert!(wizard(&app).unplaced().is_empty());
}

#[test]
fn a_wizard_closed_unchanged_leaves_no_draft_and_one_not_kept_says_so() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char('e')));
    to_field(&mut app, "Description", 0);
    update(&mut app, key(KeyCode::Enter));
    typed(&mut app, "Z");
    update(&mut app, key(KeyCode::Backspace));
    update(&mut app, key(KeyCode::Esc));
    forget_returned();
    update(&mut app, key(KeyCode::Esc));
    assert!(app.overlays.is_empty());
    assert!(app.drafts.is_empty(), "{:?}", app.drafts);
    assert!(
        returned()
            .iter()
            .any(|e| matches!(e, Effect::DiscardDraft(_))),
        "the file the keystrokes wrote goes: {:?}",
        returned()
    );
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("no draft is kept")),
        "{:?}",
        app.message
    );

    // A draft the disk refused: not offered, and said when the wizard closes.
    update(&mut app, key(KeyCode::Char('n')));
    set_field(&mut app, "Compute pool name", 0, "unkept");
    update(
        &mut app,
        Msg::DraftNotSaved(crate::domain::draft::NotKept::Directory(
            crate::domain::error::DirError::NotADirectory {
                path: "/state/pooldeck/drafts".into(),
            },
        )),
    );
    assert!(app.drafts.is_empty());
    update(&mut app, key(KeyCode::Esc));
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m
                .contains("could not be kept on disk (/state/pooldeck/drafts is not a directory")),
        "{:?}",
        app.message
    );
}

#[test]
fn a_new_pool_in_a_namespace_without_a_project_is_warned() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char('n')));
    set_field(&mut app, "Namespace", 0, "default");
    let said = said_on(&app, "Namespace", 0);
    assert!(
        said.iter().any(|m| m.contains("default has no Project")),
        "{said:?}"
    );
}
