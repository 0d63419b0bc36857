//! The guide's unblock as message scripts: a workload is gone only when the watch covering
//! its namespace says so, and one that names another pool is never deleted with this one.

use crossterm::event::KeyCode;

use crate::domain::Kind;

use crate::app::Msg;
use crate::app::confirm::tests::{key, typed};
use crate::app::requests::tests::{answer_all, dialog};
use crate::app::script::update;
use crate::app::tests::fleet_app;

/// An AIWorkload the pool's status names, in a namespace no live watch covers, is not taken
/// for gone: the unblock stays at step 1 (delete it by name), never jumping to removing the
/// finalizer.
#[test]
fn a_workload_outside_the_watched_namespaces_is_not_taken_for_gone() {
    let mut app = fleet_app();
    answer_all(&mut app);
    // Only retail-edge's AIWorkloads are watched, and there are none.
    update(
        &mut app,
        Msg::Source(crate::inventory::SourceEvent::listed(
            crate::domain::Kind::AIWorkload,
            Some("retail-edge".into()),
            Vec::new(),
        )),
    );
    update(&mut app, key(KeyCode::Char('/')));
    typed(&mut app, "retired-cluster");
    update(&mut app, key(KeyCode::Enter));
    update(&mut app, key(KeyCode::Char('u')));
    let plan = &dialog(&app).expect("the unblock dialog").plan;
    assert_eq!(
        plan.fix,
        crate::domain::fixes::Fix::DeleteWorkloads,
        "{plan:?}"
    );
    assert!(
        plan.targets.iter().any(|t| t.contains("legacy-trainer")),
        "{:?}",
        plan.targets
    );
}

/// A workload the stuck pool's status names but that says it belongs to another, healthy
/// pool is not deleted by the unblock, and the finalizer's step stays blocked saying why.
#[test]
fn the_unblock_never_deletes_another_pools_workload() {
    let mut app = fleet_app();
    answer_all(&mut app);
    let theirs = serde_json::json!({
        "apiVersion": "spectrocloud.com/v1alpha1", "kind": "AIWorkload",
        "metadata": {"name": "legacy-trainer", "namespace": "ml-research", "uid": "w-1"},
        "spec": {"computePoolRef": {"name": "llm-train", "namespace": "ml-research"}},
    });
    update(
        &mut app,
        Msg::Source(crate::inventory::SourceEvent::listed(
            crate::domain::Kind::AIWorkload,
            None,
            vec![theirs],
        )),
    );
    update(&mut app, key(KeyCode::Char('/')));
    typed(&mut app, "retired-cluster");
    update(&mut app, key(KeyCode::Enter));
    update(&mut app, key(KeyCode::Char('u')));
    let plan = &dialog(&app).expect("the unblock dialog").plan;
    assert!(
        plan.operations
            .iter()
            .all(|o| o.target().is_none_or(|t| t.name != "legacy-trainer")),
        "{plan:?}"
    );
    assert!(
        plan.blocked
            .as_deref()
            .is_some_and(|why| why.contains("belongs to ComputePool ml-research/llm-train")),
        "{:?}",
        plan.blocked
    );
}

/// `u` on a pool that is not being deleted shows why it cannot run, and its dialog hands on
/// no command: the first step would delete a healthy pool's workloads.
#[test]
fn a_blocked_unblock_copies_no_command() {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let mut app = crate::app::tests::scenario_app("fleet");
    let running = app
        .shown
        .window_rows()
        .position(|r| {
            app.inventory
                .get(Kind::Pool, &r.id.namespace, &r.id.name)
                .is_some_and(|o| o.value().pointer("/metadata/deletionTimestamp").is_none())
        })
        .expect("a pool not being deleted");
    // Positions in the window count from its start.
    app.list.selected = app.shown.window().start + running;
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::NONE)),
    );
    let Some(crate::app::Overlay::Confirm(dialog)) = app.overlays.last() else {
        panic!("the unblock dialog is open");
    };
    assert!(dialog.plan.blocked.is_some());
    crate::app::script::forget_returned();
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::NONE)),
    );
    assert!(
        !crate::app::script::returned()
            .iter()
            .any(|e| matches!(e, crate::app::Effect::Copy { .. })),
        "nothing copied"
    );
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("nothing copied")),
        "{:?}",
        app.message
    );
}
