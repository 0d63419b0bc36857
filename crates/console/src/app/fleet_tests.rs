//! The console across hubs, driven by message scripts: one list of every hub's rows with a
//! HUB column, each hub's picture checked on its own, the focus following the row under the
//! cursor so a dialog is bound to the row's hub, marks holding the focus on one hub, `:hub`
//! narrowing, and `:ctx a,b` connecting several hubs.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::Value;

use super::fleet::{Fleet, HubState};
use super::requests::Awaiting;
use super::script::{forget_returned, returned, take_returned, update};
use super::tests::{fixed_now, fleet_app, scenario_lists};
use super::*;
use crate::domain::Request;
use crate::inventory::Kind;
use crate::inventory::SourceEvent;

fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn command(app: &mut App, text: &str) {
    update(app, key(KeyCode::Char(':')));
    for c in text.chars() {
        update(app, key(KeyCode::Char(c)));
    }
    update(app, key(KeyCode::Enter));
}

/// The fleet scenario on two hubs: hub-a (the one the console opened on) and hub-b, each
/// with every object of the story, hub-b's read from its own sources.
pub(crate) fn two_hubs() -> App {
    let mut app = fleet_app();
    app.fleet.connection.context = "hub-a".into();
    // What was asked under the scenario's context is forgotten: the console opened on hub-a.
    app.fleet.access.clear();
    app.pending.clear();
    let parked = HubState {
        connection: Connection {
            context: "hub-b".into(),
            server: "https://127.0.0.1:7443".into(),
            user: "operator".into(),
            scope: "all namespaces".into(),
            kubeconfig: None,
        },
        ..HubState::default()
    };
    let first = std::mem::take(&mut *app.fleet);
    app.fleet = Fleet::new(vec!["hub-a".into(), "hub-b".into()], first, vec![parked]);
    for event in scenario_lists("fleet") {
        update(&mut app, Msg::Sources(vec![(1, event)]));
    }
    app
}

/// hub-b's pool as it is now, changed by `change`, as its watch reports it.
fn change_on_hub_b(app: &mut App, namespace: &str, name: &str, change: impl FnOnce(&mut Value)) {
    let mut pool = (*app
        .inventory_of(1)
        .and_then(|i| i.get(Kind::Pool, namespace, name))
        .expect("hub-b's pool")
        .value())
    .clone();
    change(&mut pool);
    update(
        app,
        Msg::Sources(vec![(
            1,
            SourceEvent::Applied {
                kind: Kind::Pool,
                object: pool,
            },
        )]),
    );
}

/// Whether the footer says `text`.
fn says(app: &App, text: &str) -> bool {
    app.message.as_deref().is_some_and(|m| m.contains(text))
}

/// The shown rows' hub and pool name, in order.
fn rows(app: &App) -> Vec<(usize, String)> {
    app.shown
        .window_rows()
        .map(|r| (r.hub, r.id.name.to_string()))
        .collect()
}

/// Puts the cursor on a hub's pool (as a jump, passing no other row).
fn select(app: &mut App, hub: usize, name: &str) {
    let at = rows(app)
        .iter()
        .position(|(h, n)| *h == hub && n == name)
        .expect("the row");
    app.list.selected = at;
    app.list.selected_id = None;
    update(app, Msg::Tick(fixed_now()));
    assert_eq!(app.list.selected, at);
}

#[test]
fn every_hubs_rows_in_one_list_each_named_by_its_hub() {
    let one = fleet_app();
    let app = two_hubs();
    let single = one.shown.len();
    assert_eq!(app.shown.len(), 2 * single);
    assert_eq!(app.shown.columns()[0], rows::column::HUB);
    assert_ne!(one.shown.columns()[0], rows::column::HUB, "one hub: no HUB");
    for row in app.shown.window_rows() {
        let Some(rows::Cell::Text(hub)) = row.cells.first() else {
            panic!("a HUB cell first: {row:?}");
        };
        assert_eq!(hub.as_str(), ["hub-a", "hub-b"][row.hub]);
    }
    // The same story on both hubs shares every VIP and name: each hub is checked on its own,
    // so each hub's markers are the one hub's, no more.
    let marked =
        |app: &App, hub: usize| -> Vec<(String, bool, Option<crate::domain::rules::Severity>)> {
            app.shown
                .window_rows()
                .filter(|r| r.hub == hub)
                .map(|r| (r.id.name.to_string(), r.broken, r.worst))
                .collect()
        };
    let alone = marked(&one, 0);
    assert_eq!(marked(&app, 0), alone);
    assert_eq!(marked(&app, 1), alone);
    // And the doctor's findings likewise, hub by hub.
    let findings = |doctor: &doctor::Doctor| -> usize {
        one.fleet
            .inventory
            .objects(Kind::Pool)
            .map(|p| {
                doctor
                    .findings(&crate::domain::ObjectRef::new(
                        Kind::Pool,
                        p.namespace(),
                        p.name(),
                    ))
                    .len()
            })
            .sum()
    };
    let expected = findings(&one.fleet.doctor);
    assert_eq!(findings(app.doctor_of(0).expect("hub-a")), expected);
    assert_eq!(findings(app.doctor_of(1).expect("hub-b")), expected);
    // :problems lists each hub's findings, each under its hub.
    let mut app = app;
    command(&mut app, "problems");
    let mut one = one;
    command(&mut one, "problems");
    assert_eq!(app.shown.len(), 2 * one.shown.len());
}

#[test]
fn a_change_on_one_hub_makes_that_hubs_row_again_and_no_other() {
    let mut app = two_hubs();
    let built = app.shown.rows_built;
    let builds = app.shown.builds;
    change_on_hub_b(&mut app, "ml-research", "llm-train", |p| {
        p["status"]["status"] = "Failed".into();
    });
    assert_eq!(app.shown.builds, builds, "no rebuild from scratch");
    assert_eq!(app.shown.rows_built - built, 1, "one row made again");
    let column = app
        .shown
        .columns()
        .iter()
        .position(|c| *c == rows::column::STATUS)
        .expect("STATUS");
    let status = |app: &App, hub: usize| {
        app.shown
            .window_rows()
            .find(|r| r.hub == hub && r.id.name == "llm-train")
            .map(|r| format!("{:?}", r.cells[column]))
            .expect("the row")
    };
    assert!(status(&app, 1).contains("Failed"), "{}", status(&app, 1));
    assert!(!status(&app, 0).contains("Failed"), "{}", status(&app, 0));

    // A change around hub-b's pools (a Project: what changed cannot be told pool by pool)
    // makes hub-b's rows again, and hub-a's stay as they are.
    let project = (*app
        .inventory_of(1)
        .and_then(|i| i.objects(Kind::Project).next().cloned())
        .expect("a project")
        .value())
    .clone();
    let (built, builds) = (app.shown.rows_built, app.shown.builds);
    let selected = app
        .shown
        .row(app.list.selected)
        .map(|r| (r.hub, r.id.clone()));
    update(
        &mut app,
        Msg::Sources(vec![(
            1,
            SourceEvent::Applied {
                kind: Kind::Project,
                object: project,
            },
        )]),
    );
    assert_eq!(app.shown.builds, builds, "no rebuild of every hub");
    assert_eq!(app.shown.rows_built - built, 12, "hub-b's twelve pools");
    assert_eq!(app.shown.len(), 24);
    assert_eq!(
        app.shown
            .row(app.list.selected)
            .map(|r| (r.hub, r.id.clone())),
        selected,
        "the selection stays on its row"
    );
    // In the same order as a list made from scratch.
    assert_eq!(rows(&app), rows(&two_hubs()));
}

#[test]
fn a_dialog_opened_on_a_row_is_bound_to_the_rows_hub() {
    let mut app = two_hubs();
    // hub-b's llm-train is another version than hub-a's.
    change_on_hub_b(&mut app, "ml-research", "llm-train", |p| {
        p["metadata"]["resourceVersion"] = "9001".into();
    });
    forget_returned();
    select(&mut app, 1, "llm-train");
    assert_eq!(app.fleet.focus(), 1);
    assert_eq!(app.fleet.connection.context, "hub-b");
    assert!(returned().contains(&Effect::Focus(1)));
    // What hub-b's permissions are asked of hub-b; answered, the dialog goes on.
    for effect in returned() {
        if let Effect::Perform(request) = effect {
            assert_eq!(request.hub.context, "hub-b", "{request:?}");
            update(
                &mut app,
                Msg::Performed {
                    request,
                    outcome: crate::domain::Outcome::Allowed(true),
                },
            );
        }
    }
    forget_returned();
    update(&mut app, key(KeyCode::Char('p')));
    let Some(Overlay::Confirm(confirm)) = app.overlay() else {
        panic!("a confirmation: {:?}", app.message);
    };
    assert_eq!(confirm.hub.context, "hub-b");
    assert!(
        confirm
            .plan
            .kubectl_on(&confirm.hub)
            .contains("--resource-version=9001"),
        "hub-b's version: {}",
        confirm.plan.kubectl_on(&confirm.hub)
    );
    // Every request the dialog sends is bound to hub-b.
    let sent: Vec<Request> = take_returned()
        .into_iter()
        .filter_map(|e| match e {
            Effect::Perform(request) => Some(request),
            _ => None,
        })
        .collect();
    assert!(!sent.is_empty());
    assert!(sent.iter().all(|r| r.hub.context == "hub-b"), "{sent:?}");
    // While it is open the focus stays, wherever the cursor goes (a live update moves it).
    app.list.selected = 0;
    app.list.selected_id = None;
    update(&mut app, Msg::Tick(fixed_now()));
    assert_eq!(app.selected_hub(), Some(0));
    assert_eq!(app.fleet.focus(), 1);
    assert_eq!(app.fleet.connection.context, "hub-b");
    // Back on a hub-a row, the focus moves back with the hub's own state.
    update(&mut app, key(KeyCode::Esc));
    select(&mut app, 0, "detector");
    assert_eq!(app.fleet.focus(), 0);
    assert_eq!(app.fleet.connection.context, "hub-a");
    assert_eq!(
        app.fleet
            .inventory
            .get(Kind::Pool, "ml-research", "llm-train")
            .and_then(|p| p.resource_version()),
        app.inventory_of(0)
            .and_then(|i| i.get(Kind::Pool, "ml-research", "llm-train"))
            .and_then(|p| p.resource_version())
    );
    assert_ne!(
        app.fleet
            .inventory
            .get(Kind::Pool, "ml-research", "llm-train")
            .and_then(|p| p.resource_version())
            .as_deref(),
        Some("9001")
    );
}

#[test]
fn marks_hold_the_focus_on_one_hub() {
    let mut app = two_hubs();
    select(&mut app, 0, "llm-train");
    update(&mut app, key(KeyCode::Char(' ')));
    assert_eq!(app.list.marked.len(), 1);
    select(&mut app, 1, "recsys");
    assert_eq!(app.fleet.focus(), 0, "the marks hold hub-a");
    update(&mut app, key(KeyCode::Char(' ')));
    assert_eq!(app.list.marked.len(), 1, "no mark on hub-b");
    assert!(says(&app, "this row is on hub hub-b"), "{:?}", app.message);
    // A delete on hub-b's row is refused too (it would act on hub-a).
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Char('d'), KeyModifiers::CONTROL)),
    );
    assert!(app.overlay().is_none());
    // p would take hub-a's marks: on hub-b's row it says so instead (a pause of the marks
    // would read as a pause of this row).
    update(&mut app, key(KeyCode::Char('p')));
    assert!(app.overlay().is_none());
    assert!(says(&app, "this row is on hub hub-b"), "{:?}", app.message);
    // On a row of hub-a, p takes the marks: the dialog is hub-a's.
    select(&mut app, 0, "recsys");
    update(&mut app, key(KeyCode::Char('p')));
    let Some(Overlay::Confirm(confirm)) = app.overlay() else {
        panic!("a confirmation: {:?}", app.message);
    };
    assert_eq!(confirm.hub.context, "hub-a");
    assert_eq!(
        confirm.plan.targets.len(),
        1,
        "the mark: {:?}",
        confirm.plan.targets
    );
}

#[test]
fn the_cursor_starts_on_the_first_row_whichever_hub_lists_first() {
    let pools: Vec<Value> = two_hubs()
        .inventory_of(1)
        .expect("hub-b")
        .objects(Kind::Pool)
        .map(|o| (*o.value()).clone())
        .collect();
    let mut app = App::new(fleet_app().fleet.connection.clone(), fixed_now());
    let first = std::mem::take(&mut *app.fleet);
    app.fleet = Fleet::new(
        vec!["hub-a".into(), "hub-b".into()],
        first,
        vec![HubState::default()],
    );
    // hub-b's pools arrive first, then hub-a's, which sort before them.
    for hub in [1, 0] {
        update(
            &mut app,
            Msg::Sources(vec![(
                hub,
                SourceEvent::listed(Kind::Pool, None, pools.clone()),
            )]),
        );
        if hub == 1 {
            assert_eq!(app.fleet.focus(), 1, "hub-b's rows are all there is");
        }
    }
    assert_eq!(app.list.selected, 0);
    assert_eq!(app.selected_hub(), Some(0), "the first row: hub-a's");
    assert_eq!(app.fleet.focus(), 0);
}

#[test]
fn hub_narrows_to_one_hub_and_star_shows_them_all() {
    let mut app = two_hubs();
    let all = app.shown.len();
    command(&mut app, "hub hub-b");
    assert_eq!(app.shown.len(), all / 2);
    assert!(app.shown.window_rows().all(|r| r.hub == 1));
    assert_ne!(app.shown.columns()[0], rows::column::HUB);
    assert_eq!(app.fleet.focus(), 1);
    command(&mut app, "hub nowhere");
    assert!(says(&app, "no hub nowhere"), "{:?}", app.message);
    assert_eq!(app.shown.len(), all / 2);
    command(&mut app, "hub *");
    assert_eq!(app.shown.len(), all);
    // Sorted by STATUS, the list stays sorted by STATUS when the HUB column goes and comes.
    let status = |app: &App| {
        app.shown
            .columns()
            .iter()
            .position(|c| *c == rows::column::STATUS)
            .expect("STATUS")
            + 1
    };
    app.list.sort_column = status(&app);
    command(&mut app, "hub hub-a");
    assert_eq!(app.list.sort_column, status(&app));
    command(&mut app, "hub *");
    assert_eq!(app.list.sort_column, status(&app));
    // On one hub, :hub says how to watch several.
    let mut one = fleet_app();
    command(&mut one, "hub x");
    assert!(says(&one, "--all-contexts"), "{:?}", one.message);
}

#[test]
fn an_access_review_asked_on_one_hub_lands_in_that_hubs_permissions_only() {
    forget_returned();
    let mut app = two_hubs();
    select(&mut app, 0, "llm-train");
    // The reviews for the row under the cursor, asked of the first hub and not answered yet.
    let review = take_returned()
        .into_iter()
        .filter_map(|e| match e {
            Effect::Perform(r) => Some(r),
            _ => None,
        })
        .find(|r| r.hub.context == "hub-a" && app.pending.contains_key(&r.id))
        .expect("a review asked on hub-a");
    let Awaiting::Access(permission) = app.pending[&review.id].clone() else {
        panic!("an access review");
    };
    // The cursor moves to hub-b before the answer comes.
    select(&mut app, 1, "llm-train");
    assert_eq!(app.fleet.focus(), 1);
    let dropped = app.dropped_answers;
    update(
        &mut app,
        Msg::Performed {
            request: review,
            outcome: crate::domain::Outcome::Allowed(true),
        },
    );
    assert_eq!(app.dropped_answers, dropped, "kept, not dropped");
    assert_ne!(
        app.fleet.access.get(&permission),
        Some(&confirm::Access::Allowed),
        "hub-b's permissions untouched: {:?}",
        app.fleet.access
    );
    assert_eq!(
        app.fleet.hub(0).and_then(|p| p.access.get(&permission)),
        Some(&confirm::Access::Allowed),
        "the first hub's"
    );
    // Back on the first hub, its answer is there: not asked again.
    forget_returned();
    select(&mut app, 0, "llm-train");
    assert_eq!(
        app.fleet.access.get(&permission),
        Some(&confirm::Access::Allowed)
    );
    assert!(
        !returned().iter().any(|e| matches!(
            e,
            Effect::Perform(r) if r.operation == permission.review()
        )),
        "{:?}",
        returned()
    );
}

#[test]
fn ctx_with_commas_connects_several_hubs_and_watches_them() {
    let mut app = fleet_app();
    app.contexts = vec!["hub-a".into(), "hub-b".into(), "hub-c".into()];
    forget_returned();
    command(&mut app, "ctx hub-a,hub-c,hub-a");
    assert!(
        returned().contains(&Effect::ConnectFleet(vec!["hub-a".into(), "hub-c".into()])),
        "{:?}",
        returned()
    );
    command(&mut app, "ctx hub-a,hub-z");
    assert!(says(&app, "no context \"hub-z\""), "{:?}", app.message);
    let connected = |context: &str, server: &str| ports::Connected {
        context: context.into(),
        server: server.into(),
        namespace: "default".into(),
        user: "operator".into(),
        read_only: (context == "hub-c").then(|| "the settings file".to_owned()),
    };
    forget_returned();
    update(
        &mut app,
        Msg::FleetConnected {
            contexts: vec!["hub-a".into(), "hub-c".into()],
            result: Ok(vec![
                connected("hub-a", "https://a"),
                connected("hub-c", "https://c"),
            ]),
        },
    );
    assert_eq!(app.fleet.names, ["hub-a", "hub-c"]);
    assert_eq!(app.fleet.connection.context, "hub-a");
    assert!(!app.read_only());
    assert!(
        app.fleet.hub(1).is_some_and(|p| p.read_only_why.is_some()),
        "hub-c read-only, as its settings say"
    );
    let effects = returned();
    assert!(effects.contains(&Effect::UseFleet(vec!["hub-a".into(), "hub-c".into()])));
    assert!(effects.iter().any(|e| matches!(e, Effect::Watch(_))));
    assert!(
        app.fleet.inventory.count(Kind::Pool) == 0,
        "the picture starts over"
    );
    // `:ctx NAME` goes back to one hub.
    command(&mut app, "ctx hub-b");
    update(
        &mut app,
        Msg::Connected {
            context: "hub-b".into(),
            result: Ok(connected("hub-b", "https://b")),
        },
    );
    assert!(!app.fleet.several());
}

#[test]
fn other_namespaces_start_every_hubs_picture_over() {
    let mut app = two_hubs();
    select(&mut app, 1, "llm-train");
    assert_eq!(app.fleet.focus(), 1);
    command(&mut app, "ns ml-research");
    for hub in 0..2 {
        assert_eq!(
            app.inventory_of(hub).map(|i| i.count(Kind::Pool)),
            Some(0),
            "hub {hub}: nothing of the old namespaces stays"
        );
    }
    assert!(app.shown.is_empty());
    // A namespace only hub-b's objects name is known across hubs (the cursor on hub-a).
    let mut app = two_hubs();
    change_on_hub_b(&mut app, "ml-research", "llm-train", |p| {
        p["metadata"]["namespace"] = "only-on-b".into();
    });
    select(&mut app, 0, "llm-train");
    command(&mut app, "ns only-on-b");
    assert_eq!(
        app.namespaces,
        ports::Namespaces::Only(vec!["only-on-b".into()]),
        "{:?}",
        app.message
    );
}

#[test]
fn changes_queued_together_are_derived_from_once() {
    // Seven sources around hub-b's pools answer at once (as when its lists arrive): one
    // message, and hub-b's rows are made again once, not once per source.
    let mut app = two_hubs();
    let around: Vec<(usize, SourceEvent)> = [
        Kind::Project,
        Kind::Tenant,
        Kind::ProfileBundle,
        Kind::ScalingPolicy,
        Kind::Settings,
        Kind::Compute,
        Kind::Project,
    ]
    .into_iter()
    .map(|kind| {
        let objects: Vec<Value> = app
            .inventory_of(1)
            .expect("hub-b")
            .objects(kind)
            .map(|o| (*o.value()).clone())
            .collect();
        (1, SourceEvent::listed(kind, None, objects))
    })
    .collect();
    let built = app.shown.rows_built;
    update(&mut app, Msg::Sources(around.clone()));
    assert_eq!(
        app.shown.rows_built - built,
        12,
        "hub-b's twelve pools, once"
    );
    // One message each: once per source.
    let built = app.shown.rows_built;
    for (hub, event) in around {
        update(&mut app, Msg::Sources(vec![(hub, event)]));
    }
    assert_eq!(app.shown.rows_built - built, 7 * 12);
}
