//! Rows kept per object: a change builds only the changed object's rows, and whatever the
//! changes, the view, the sort and the filter, the rows shown are those a build from scratch
//! shows.

use proptest::prelude::*;
use serde_json::{Value, json};

use crate::app::script::update;
use crate::app::tests::{fixed_now, fleet_app};
use crate::app::{App, Msg, View};
use crate::inventory::{Kind, SourceEvent};

fn objects(app: &App, kind: Kind) -> Vec<Value> {
    app.inventory
        .objects(kind)
        .map(|o| (*o.value()).clone())
        .collect()
}

fn apply(app: &mut App, kind: Kind, object: Value) {
    update(app, Msg::Source(SourceEvent::Applied { kind, object }));
}

/// What the screen shows of the rows: each row's identity, cells and markers, in order.
fn shown(app: &App) -> Vec<String> {
    app.shown
        .rows()
        .map(|r| {
            format!(
                "{:?} {:?} {:?} {} {:?}",
                r.id, r.part, r.cells, r.broken, r.worst
            )
        })
        .collect()
}

#[test]
fn a_changed_pool_builds_only_its_own_row_and_keeps_the_selection() {
    let mut app = fleet_app();
    update(
        &mut app,
        Msg::Key(crossterm::event::KeyEvent::from(
            crossterm::event::KeyCode::Down,
        )),
    );
    let selected = app.list.selected_id.clone();
    let (builds, rows) = (app.shown.builds, app.shown.rows_built);
    let mut pool = (*app
        .inventory
        .get(Kind::Pool, "ml-research", "llm-train")
        .expect("llm-train")
        .value())
    .clone();
    pool["status"]["status"] = json!("Failed");
    pool["metadata"]["resourceVersion"] = json!("changed-1");
    apply(&mut app, Kind::Pool, pool);
    assert_eq!(app.shown.builds, builds, "nothing built from scratch");
    assert_eq!(app.shown.rows_built, rows + 1, "one pool, one row");
    assert_eq!(
        app.list.selected_id, selected,
        "the selection stays on its row"
    );
    let row = app
        .shown
        .rows()
        .find(|r| r.id.name == "llm-train")
        .expect("the row is shown");
    assert!(
        format!("{:?}", row.cells).contains("Failed"),
        "{:?}",
        row.cells
    );
    // An evaluation's change builds its pool's row again (utilization, scaling).
    let evaluation = objects(&app, Kind::Evaluation).remove(0);
    let rows = app.shown.rows_built;
    apply(&mut app, Kind::Evaluation, evaluation);
    assert_eq!(app.shown.rows_built, rows + 1);
    // An event touches no pool row.
    let rows = app.shown.rows_built;
    apply(
        &mut app,
        Kind::Event,
        json!({"metadata": {"namespace": "ml-research", "name": "e-1"}, "type": "Normal",
               "involvedObject": {"kind": "ComputePool", "name": "llm-train"}}),
    );
    assert_eq!(app.shown.rows_built, rows);
}

/// A console on all namespaces with the `large` fleet's 10,000 pools and their evaluations,
/// listed at `now`.
pub(crate) fn ten_thousand_pools(now: chrono::DateTime<chrono::Utc>) -> App {
    let mut app = App::new(
        crate::app::Connection {
            context: "test".into(),
            server: "https://127.0.0.1:6443".into(),
            user: "operator".into(),
            scope: "all namespaces".into(),
            kubeconfig: None,
        },
        now,
    );
    let (pools, evaluations) = crate::demo::scenario::large_fleet_at(10_000, now);
    update(
        &mut app,
        Msg::Source(SourceEvent::listed(Kind::Pool, None, pools)),
    );
    update(
        &mut app,
        Msg::Source(SourceEvent::listed(Kind::Evaluation, None, evaluations)),
    );
    app
}

#[test]
fn an_idle_minute_builds_no_row_at_fleet_scale() {
    let now = fixed_now();
    let mut app = ten_thousand_pools(now);
    assert_eq!(app.shown.len(), 10_000);
    let (builds, rows) = (app.shown.builds, app.shown.rows_built);
    for second in 1..=60 {
        update(&mut app, Msg::Tick(now + chrono::Duration::seconds(second)));
    }
    assert_eq!(app.shown.builds, builds, "nothing built from scratch");
    assert_eq!(app.shown.rows_built, rows, "no row built in an idle minute");
    // One pool changing builds its row, and diagnoses it, alone.
    let mut pool = (*app
        .inventory
        .objects(Kind::Pool)
        .nth(5_000)
        .expect("a pool")
        .value())
    .clone();
    pool["metadata"]["labels"] = json!({"touched": "yes"});
    let diagnosed = app.shown.doctor.diagnosed;
    apply(&mut app, Kind::Pool, pool);
    assert_eq!(app.shown.rows_built, rows + 1);
    assert_eq!(app.shown.doctor.diagnosed, diagnosed + 1);
}

/// One change to the fleet's objects.
#[derive(Clone, Debug)]
enum Change {
    Phase(usize, &'static str),
    Paused(usize, bool),
    DeletePool(usize),
    AddBack(usize),
    Evaluation(usize, i64),
    DeleteEvaluation(usize),
    Event(usize, i64, bool),
    /// A pool takes another's VIP (a conflict the rule markers show), or its own back.
    Vip(usize, usize),
    /// The pools listed again, those whose bit is set (the rest are gone), some in a page.
    Relist(u16, usize),
}

fn change() -> impl Strategy<Value = Change> {
    prop_oneof![
        (
            0..12usize,
            prop::sample::select(vec!["Running", "Failed", "Provisioning", "Deleting"])
        )
            .prop_map(|(i, p)| Change::Phase(i, p)),
        (0..12usize, any::<bool>()).prop_map(|(i, p)| Change::Paused(i, p)),
        (0..12usize).prop_map(Change::DeletePool),
        (0..12usize).prop_map(Change::AddBack),
        (0..8usize, -600i64..600).prop_map(|(i, s)| Change::Evaluation(i, s)),
        (0..8usize).prop_map(Change::DeleteEvaluation),
        (0..12usize, -600i64..600, any::<bool>()).prop_map(|(i, s, w)| Change::Event(i, s, w)),
        (any::<u16>(), 0..12usize).prop_map(|(m, p)| Change::Relist(m, p)),
        (0..12usize, 0..12usize).prop_map(|(i, j)| Change::Vip(i, j)),
    ]
}

fn play(app: &mut App, pools: &[Value], evaluations: &[Value], change: &Change, step: usize) {
    let version = json!(format!("p-{step}"));
    match change {
        Change::Phase(i, phase) => {
            let mut pool = pools[*i].clone();
            pool["status"]["status"] = json!(phase);
            pool["metadata"]["resourceVersion"] = version;
            apply(app, Kind::Pool, pool);
        }
        Change::Paused(i, paused) => {
            let mut pool = pools[*i].clone();
            pool["metadata"]["labels"] =
                json!({crate::domain::model::pool::PAUSE_LABEL: paused.to_string()});
            pool["metadata"]["resourceVersion"] = version;
            apply(app, Kind::Pool, pool);
        }
        Change::Vip(i, j) => {
            let path = "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/edge/vip";
            let mut pool = pools[*i].clone();
            if let (Some(vip), Some(slot)) =
                (pools[*j].pointer(path).cloned(), pool.pointer_mut(path))
            {
                *slot = vip;
            }
            pool["metadata"]["resourceVersion"] = version;
            apply(app, Kind::Pool, pool);
        }
        Change::Relist(mask, paged) => {
            let listed: Vec<Value> = pools
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, p)| p.clone())
                .collect();
            let (page, rest) = listed.split_at((*paged).min(listed.len()));
            let objects = |part: &[Value]| {
                part.iter()
                    .map(|p| crate::inventory::Object::new(Kind::Pool, p.clone()))
                    .collect()
            };
            update(
                app,
                Msg::Source(SourceEvent::Page {
                    kind: Kind::Pool,
                    scope: None,
                    objects: objects(page),
                    remaining: None,
                }),
            );
            update(
                app,
                Msg::Source(SourceEvent::Listed {
                    kind: Kind::Pool,
                    scope: None,
                    objects: objects(rest),
                }),
            );
        }
        Change::DeletePool(i) => update(
            app,
            Msg::Source(SourceEvent::Deleted {
                kind: Kind::Pool,
                object: pools[*i].clone(),
            }),
        ),
        Change::AddBack(i) => apply(app, Kind::Pool, pools[*i].clone()),
        Change::Evaluation(i, seconds) => {
            let mut evaluation = evaluations[*i % evaluations.len()].clone();
            let at = fixed_now() + chrono::Duration::seconds(*seconds);
            evaluation["metadata"]["creationTimestamp"] = json!(at.to_rfc3339());
            evaluation["metadata"]["resourceVersion"] = version;
            apply(app, Kind::Evaluation, evaluation);
        }
        Change::DeleteEvaluation(i) => update(
            app,
            Msg::Source(SourceEvent::Deleted {
                kind: Kind::Evaluation,
                object: evaluations[*i % evaluations.len()].clone(),
            }),
        ),
        Change::Event(i, seconds, warning) => {
            let pool = &pools[*i];
            let at = fixed_now() + chrono::Duration::seconds(*seconds);
            apply(
                app,
                Kind::Event,
                json!({
                    "metadata": {"namespace": pool["metadata"]["namespace"],
                                 "name": format!("event-{}", step % 5),
                                 "resourceVersion": version},
                    "type": if *warning { "Warning" } else { "Normal" },
                    "reason": "Changed",
                    // Some are what the doctor reads in events, some are not.
                    "message": match step % 3 {
                        0 => "failed to create pod sandbox: no runtime for \"nvidia\" is configured".to_owned(),
                        1 => "the request exceeds the project's GPU quota".to_owned(),
                        _ => format!("step {step}"),
                    },
                    "lastTimestamp": at.to_rfc3339(),
                    "involvedObject": {"kind": "ComputePool", "name": pool["metadata"]["name"],
                                       "namespace": pool["metadata"]["namespace"]},
                }),
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Whatever the changes, the rows shown (their order, cells and markers), the column
    /// widths and the selected row are those a build from scratch gives.
    #[test]
    fn rows_kept_per_object_are_the_rows_built_from_scratch(
        view in prop::sample::select(vec![View::POOLS, View::EVALUATIONS, View::HOSTS, View::EVENTS]),
        sort in 0usize..10,
        descending in any::<bool>(),
        filter in prop::sample::select(vec!["", "ml", "!gpu", "run", "warn"]),
        warnings in any::<bool>(),
        changes in prop::collection::vec(change(), 1..24),
    ) {
        let mut app = fleet_app();
        let pools = objects(&app, Kind::Pool);
        let evaluations = objects(&app, Kind::Evaluation);
        app.list.view = view;
        app.list.sort_column = sort;
        app.list.sort_descending = descending;
        app.list.filter = filter.to_owned();
        app.list.warnings_only = warnings;
        app.refresh();
        for (step, change) in changes.iter().enumerate() {
            play(&mut app, &pools, &evaluations, change, step);
            let kept = (shown(&app), app.shown.widths.clone(), app.list.selected_id.clone());
            // From scratch: no row, rule marker or finding kept.
            app.shown.shape = None;
            app.shown.lint.clear();
            app.refresh();
            let fresh = (shown(&app), app.shown.widths.clone(), app.list.selected_id.clone());
            prop_assert_eq!(kept, fresh, "after {:?}", change);
            // The findings kept per pool are those worked out from scratch.
            let mut doctor = crate::app::doctor::Doctor::default();
            doctor.update(&app.inventory, app.now);
            for pool in app.inventory.objects(Kind::Pool) {
                let id = crate::domain::ObjectRef::new(Kind::Pool, pool.namespace(), pool.name());
                prop_assert_eq!(app.shown.doctor.findings(&id), doctor.findings(&id), "after {:?}", change);
            }
        }
    }
}
