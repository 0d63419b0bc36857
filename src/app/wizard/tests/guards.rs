//! What the wizard will not do quietly: edit a pool being deleted, drop what it has no field
//! for, or keep a finding about a whole step off that step.

use super::*;

#[test]
fn a_deleting_pool_is_not_edited_and_what_no_field_shows_is_named() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char('/')));
    typed(&mut app, "retired-cluster");
    update(&mut app, key(KeyCode::Enter));
    app.effects.clear();
    update(&mut app, key(KeyCode::Char('e')));
    assert!(app.overlays.is_empty(), "no wizard on a pool being deleted");
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("retired-cluster is being deleted")),
        "{:?}",
        app.message
    );
    assert!(app.effects.is_empty(), "no draft saved, nothing sent");

    // A pool from a file with a field the wizard has none for: kept and named on Review.
    update(&mut app, key(KeyCode::Esc));
    let mut pool = live_pool(&app, "ml-research", "llm-train");
    pool["spec"]["futureField"] = serde_json::json!({"mode": "fast"});
    super::open_with(
        &mut app,
        crate::domain::draft::Draft::from_object(pool, None),
    );
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
