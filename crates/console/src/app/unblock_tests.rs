//! The guide's unblock as message scripts: a workload is gone only when the watch covering
//! its namespace says so; only the pool's own (its namespace, naming it) is deleted; the
//! finalizer waits ten minutes of the console's clock after the last one went.

use crossterm::event::KeyCode;

use crate::domain::Kind;

use crate::app::Msg;
use crate::app::confirm::tests::{key, typed};
use crate::app::requests::tests::{answer_all, dialog};
use crate::app::script::update;
use crate::app::tests::fleet_app;

/// Opens the unblock on retired-cluster (ml-research, Deleting) and returns its plan (a
/// dialog open before is closed first; the list is filtered to the pool once).
fn unblock(app: &mut crate::app::App) -> crate::domain::fixes::Plan {
    if dialog(app).is_some() {
        update(app, key(KeyCode::Esc));
    }
    if app.list.filter.is_empty() {
        update(app, key(KeyCode::Char('/')));
        typed(app, "retired-cluster");
        update(app, key(KeyCode::Enter));
    }
    update(app, key(KeyCode::Char('u')));
    match dialog(app) {
        Some(dialog) => dialog.plan.clone(),
        None => panic!("no unblock dialog: {:?}", app.message),
    }
}

/// The AIWorkloads of a namespace as the watch lists them.
fn listed(app: &mut crate::app::App, namespace: Option<&str>, objects: Vec<serde_json::Value>) {
    update(
        app,
        Msg::Sources(vec![(
            0,
            crate::inventory::SourceEvent::listed(
                Kind::AIWorkload,
                namespace.map(Into::into),
                objects,
            ),
        )]),
    );
}

fn aiworkload(namespace: &str, name: &str, pool: Option<&str>) -> serde_json::Value {
    let mut w = serde_json::json!({
        "apiVersion": "spectrocloud.com/v1alpha1", "kind": "AIWorkload",
        "metadata": {"name": name, "namespace": namespace, "uid": format!("u-{name}")},
        "spec": {},
    });
    if let Some(pool) = pool {
        w["spec"]["computePoolRef"] = serde_json::json!({"name": pool, "namespace": namespace});
    }
    w
}

/// The pool with its status as written by someone who may write status.
fn with_refs(app: &mut crate::app::App, refs: serde_json::Value) {
    let mut pool = crate::app::tests::held_value(app, Kind::Pool, "ml-research", "retired-cluster");
    pool["status"]["aiWorkloadRefs"] = refs;
    crate::app::tests::applied(app, Kind::Pool, pool);
}

/// The AIWorkloads a plan deletes.
fn targets(plan: &crate::domain::fixes::Plan) -> Vec<String> {
    plan.operations
        .iter()
        .filter_map(|o| o.target())
        .filter(|t| t.kind == Kind::AIWorkload)
        .map(|t| format!("{}/{}", t.namespace, t.name))
        .collect()
}

/// An AIWorkload the pool's status names, in a namespace no live watch covers, is neither
/// gone nor a target: nothing is deleted by name, and the finalizer waits until it can be
/// verified.
#[test]
fn a_workload_outside_the_watched_namespaces_is_neither_gone_nor_a_target() {
    let mut app = fleet_app();
    answer_all(&mut app);
    // The watch of every namespace's AIWorkloads lists again (not live); only retail-edge's
    // own is, and there are none.
    update(
        &mut app,
        Msg::Sources(vec![(
            0,
            crate::inventory::SourceEvent::State {
                kind: Kind::AIWorkload,
                scope: None,
                state: crate::inventory::SourceState::Syncing,
            },
        )]),
    );
    listed(&mut app, Some("retail-edge"), Vec::new());
    let plan = unblock(&mut app);
    assert!(targets(&plan).is_empty(), "{plan:?}");
    assert!(
        plan.blocked
            .as_deref()
            .is_some_and(|why| why.contains("ml-research/legacy-trainer: not verified")),
        "{:?}",
        plan.blocked
    );
}

/// A workload the stuck pool's status names but that says it belongs to another, healthy
/// pool is not deleted by the unblock, and the finalizer's step stays blocked saying why.
#[test]
fn the_unblock_never_deletes_another_pools_workload() {
    let mut app = fleet_app();
    answer_all(&mut app);
    listed(
        &mut app,
        None,
        vec![aiworkload(
            "ml-research",
            "legacy-trainer",
            Some("llm-train"),
        )],
    );
    let plan = unblock(&mut app);
    assert!(targets(&plan).is_empty(), "{plan:?}");
    assert!(
        plan.blocked
            .as_deref()
            .is_some_and(|why| why.contains("names ComputePool ml-research/llm-train")),
        "{:?}",
        plan.blocked
    );
}

/// A reference planted in status: `vision-lab/innocent` (an AIWorkload that names no pool) in
/// the Deleting retired-cluster's status. It is shown as another namespace's, never a target:
/// the unblock deletes only ml-research/legacy-trainer, which names the pool; after it, the
/// plant still holds the finalizer. One in the pool's namespace that names no pool is a
/// target only with its name typed.
#[test]
fn a_planted_reference_is_evidence_never_a_target() {
    let mut app = fleet_app();
    answer_all(&mut app);
    listed(
        &mut app,
        None,
        vec![
            aiworkload("ml-research", "legacy-trainer", Some("retired-cluster")),
            aiworkload("vision-lab", "innocent", None),
            aiworkload("ml-research", "stray", None),
        ],
    );
    with_refs(
        &mut app,
        serde_json::json!([
            {"name": "legacy-trainer", "namespace": "ml-research"},
            {"name": "innocent", "namespace": "vision-lab"},
            {"name": "stray", "namespace": "ml-research"},
        ]),
    );
    let plan = unblock(&mut app);
    assert_eq!(targets(&plan), ["ml-research/legacy-trainer"]);
    assert_eq!(plan.type_to_confirm, None);
    let said = plan.explanation.join("\n");
    assert!(
        said.contains(
            "AIWorkload vision-lab/innocent: not acted on: it is in namespace vision-lab"
        ),
        "{said}"
    );
    assert!(!plan.kubectl().contains("innocent"), "{}", plan.kubectl());

    // legacy-trainer gone: stray (names no pool) is offered alone, its name to type.
    listed(
        &mut app,
        None,
        vec![
            aiworkload("vision-lab", "innocent", None),
            aiworkload("ml-research", "stray", None),
        ],
    );
    let plan = unblock(&mut app);
    assert_eq!(targets(&plan), ["ml-research/stray"]);
    assert_eq!(plan.type_to_confirm.as_deref(), Some("stray"));

    // stray gone too: the plant is left, and it keeps the finalizer.
    listed(
        &mut app,
        None,
        vec![aiworkload("vision-lab", "innocent", None)],
    );
    let plan = unblock(&mut app);
    assert_eq!(plan.fix, crate::domain::fixes::Fix::RemoveFinalizer);
    assert!(
        plan.operations
            .iter()
            .all(|o| o.target().is_none_or(|t| t.name != "innocent"))
    );
    assert!(
        plan.blocked
            .as_deref()
            .is_some_and(|why| why.contains("innocent")),
        "{:?}",
        plan.blocked
    );
}

/// After the last AIWorkload goes, the finalizer's step waits ten minutes of the console's
/// clock from the moment pooldeck saw it go (not from the deletion's start, 40 minutes ago),
/// the guide's three conditions beside it.
#[test]
fn the_finalizer_waits_ten_minutes_after_the_last_aiworkload_went() {
    let mut app = fleet_app();
    answer_all(&mut app);
    let trainer = aiworkload("ml-research", "legacy-trainer", Some("retired-cluster"));
    listed(&mut app, None, vec![trainer.clone()]);
    assert_eq!(targets(&unblock(&mut app)), ["ml-research/legacy-trainer"]);
    let went = app.now;
    update(
        &mut app,
        Msg::Sources(vec![(
            0,
            crate::inventory::SourceEvent::Deleted {
                kind: Kind::AIWorkload,
                object: trainer,
            },
        )]),
    );
    let plan = unblock(&mut app);
    assert_eq!(plan.fix, crate::domain::fixes::Fix::RemoveFinalizer);
    assert!(
        plan.blocked
            .as_deref()
            .is_some_and(|why| why.contains("offered 10 minutes after that")),
        "{:?}",
        plan.blocked
    );
    let said = plan.explanation.join("\n");
    assert!(said.contains("The guide's three conditions"), "{said}");
    assert!(
        said.contains("consulted your PaletteAI administrator"),
        "{said}"
    );
    // Nine minutes on: still waiting; ten: offered.
    update(&mut app, Msg::Tick(went + chrono::TimeDelta::minutes(9)));
    assert!(unblock(&mut app).blocked.is_some());
    update(&mut app, Msg::Tick(went + chrono::TimeDelta::minutes(10)));
    let plan = unblock(&mut app);
    assert_eq!(plan.blocked, None, "{:?}", plan.explanation);
    assert_eq!(
        plan.acknowledge,
        Some(crate::domain::fixes::ACKNOWLEDGEMENT)
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
            app.fleet
                .inventory
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

/// Step 1 deleting two AIWorkloads: the footer names both once both answers are in (each
/// answer on its own left it naming the last one only).
#[test]
fn the_footer_names_every_aiworkload_a_step_deleted() {
    use crate::app::confirm::tests::sent;
    use crate::domain::{Operation, Outcome, Run};
    let mut app = fleet_app();
    answer_all(&mut app);
    listed(
        &mut app,
        None,
        vec![
            aiworkload("ml-research", "legacy-trainer", Some("retired-cluster")),
            aiworkload("ml-research", "second-job", Some("retired-cluster")),
        ],
    );
    let plan = unblock(&mut app);
    assert_eq!(targets(&plan).len(), 2, "{plan:?}");
    answer_all(&mut app);
    update(&mut app, key(KeyCode::Tab));
    update(&mut app, key(KeyCode::Enter));
    let real: Vec<_> = sent()
        .into_iter()
        .filter(|r| matches!(r.operation, Operation::Delete { run: Run::Real, .. }))
        .collect();
    assert_eq!(real.len(), 2);
    for (i, request) in real.into_iter().enumerate() {
        let name = request
            .operation
            .target()
            .map(|t| t.to_string())
            .unwrap_or_default();
        update(
            &mut app,
            Msg::Performed {
                request,
                outcome: Outcome::Done {
                    message: format!("{name}: deleted"),
                },
            },
        );
        if i == 0 {
            assert_eq!(app.message.as_deref(), Some("1 of 2 answered…"));
        }
    }
    let said = app.message.clone().unwrap_or_default();
    assert!(
        said.contains("legacy-trainer: deleted") && said.contains("second-job: deleted"),
        "{said}"
    );
}

/// A dialog acts on the hub as it is at Confirm, not as it was when it opened: step 2 offered,
/// an AIWorkload naming the pool arrives, and Confirm sends nothing, saying why; step 1 with
/// a target that meanwhile names another pool sends nothing either.
#[test]
fn the_unblock_is_worked_out_again_at_confirm() {
    use crate::app::confirm::tests::sent;
    use crate::domain::{Operation, Run};
    let real = |requests: Vec<crate::domain::Request>| {
        requests
            .into_iter()
            .filter(|r| r.operation.run() == Some(Run::Real))
            .count()
    };
    let mut app = fleet_app();
    answer_all(&mut app);
    let trainer = aiworkload("ml-research", "legacy-trainer", Some("retired-cluster"));
    listed(&mut app, None, vec![trainer.clone()]);
    update(
        &mut app,
        Msg::Sources(vec![(
            0,
            crate::inventory::SourceEvent::Deleted {
                kind: Kind::AIWorkload,
                object: trainer,
            },
        )]),
    );
    let later = app.now + chrono::TimeDelta::minutes(11);
    update(&mut app, Msg::Tick(later));
    let plan = unblock(&mut app);
    assert_eq!(plan.blocked, None, "{:?}", plan.explanation);
    answer_all(&mut app);
    typed(&mut app, crate::domain::fixes::ACKNOWLEDGEMENT);
    update(&mut app, key(KeyCode::Enter));
    // Before Confirm: a new AIWorkload names the pool.
    listed(
        &mut app,
        None,
        vec![aiworkload(
            "ml-research",
            "late-job",
            Some("retired-cluster"),
        )],
    );
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(real(sent()), 0, "no finalizer removed");
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("the hub changed")),
        "{:?}",
        app.message
    );

    // Step 1: its target meanwhile names another pool.
    let plan = unblock(&mut app);
    assert_eq!(targets(&plan), ["ml-research/late-job"]);
    answer_all(&mut app);
    update(&mut app, key(KeyCode::Tab));
    listed(
        &mut app,
        None,
        vec![aiworkload("ml-research", "late-job", Some("llm-train"))],
    );
    update(&mut app, key(KeyCode::Enter));
    assert!(
        !sent()
            .iter()
            .any(|r| matches!(r.operation, Operation::Delete { run: Run::Real, .. })),
        "nothing deleted"
    );
}
