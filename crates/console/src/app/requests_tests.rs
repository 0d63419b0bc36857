//! Every action bound to its hub, as message scripts: answers routed by request id, a context
//! or namespace switch closing what was bound to the old one, marks that act only on what the
//! dialog lists, and no key acting on a screen too small to show it.

use crossterm::event::KeyCode;

use super::super::tests::fleet_app;
use super::*;
use crate::app::confirm::Stage;
use crate::app::confirm::tests::{key, sent, typed};
use crate::app::script::update;
use crate::app::{Msg, ports};
use crate::domain::{ClusterError, Operation, Outcome, Run};

fn answer(app: &mut App, request: Request) {
    let outcome = match request.operation {
        Operation::AccessReview { .. } => Outcome::Allowed(true),
        _ => Outcome::Done {
            message: "dry run: accepted".into(),
        },
    };
    update(app, Msg::Performed { request, outcome });
}

/// Answers every review and dry run asked, as a hub that allows and accepts them.
pub(crate) fn answer_all(app: &mut App) {
    for _ in 0..3 {
        for request in sent() {
            answer(app, request);
        }
    }
}

pub(crate) fn dialog(app: &App) -> Option<&crate::app::confirm::Confirm> {
    match app.overlays.last() {
        Some(Overlay::Confirm(confirm)) => Some(confirm),
        _ => None,
    }
}

fn switch_to(app: &mut App, context: &str) {
    update(app, key(KeyCode::Char(':')));
    typed(app, &format!("ctx {context}"));
    update(app, key(KeyCode::Enter));
}

fn connected(app: &mut App, context: &str) {
    update(
        app,
        Msg::Connected {
            context: context.into(),
            result: Ok(ports::Connected {
                context: context.into(),
                namespace: "default".into(),
                server: format!("https://{context}:6443"),
                user: "operator".into(),
                read_only: None,
            }),
        },
    );
}

#[test]
fn every_request_is_bound_to_the_hub_on_screen_under_its_own_id() {
    let mut app = fleet_app();
    answer_all(&mut app);
    update(&mut app, key(KeyCode::Char('p')));
    let requests = sent();
    assert!(!requests.is_empty());
    let hub = app.hub();
    assert!(requests.iter().all(|r| r.hub == hub), "{requests:?}");
    let mut ids: Vec<_> = requests.iter().map(|r| r.id).collect();
    ids.dedup();
    assert_eq!(ids.len(), requests.len(), "one id per request");
}

/// `:ctx hub-b` then at once `p`: while hub-b connects no dialog opens; and a dialog open on
/// hub-a when hub-b answers is closed, its dry run's late answer changes nothing, and
/// nothing is ever sent bound to hub-a after the switch.
#[test]
fn a_context_switch_closes_the_dialog_and_its_late_answers_change_nothing() {
    let mut app = fleet_app();
    answer_all(&mut app);
    // A dialog on hub-a, its dry run still out.
    update(&mut app, key(KeyCode::Char('p')));
    let dry_runs: Vec<Request> = sent()
        .into_iter()
        .filter(|r| r.operation.run() == Some(Run::DryRun))
        .collect();
    assert!(!dry_runs.is_empty());
    update(&mut app, key(KeyCode::Esc));
    // Reopened, so an old dialog's answers are also in the air.
    update(&mut app, key(KeyCode::Char('p')));
    let second: Vec<Request> = sent();
    // An answer for the closed first dialog does not move the open one on.
    for request in dry_runs.clone() {
        answer(&mut app, request);
    }
    assert!(
        matches!(dialog(&app).map(|d| &d.stage), Some(Stage::DryRun { .. })),
        "{:?}",
        dialog(&app).map(|d| &d.stage)
    );
    // Now the switch (a dialog takes every key, so it is closed first), then `p` at once.
    update(&mut app, key(KeyCode::Esc));
    switch_to(&mut app, "hub-b");
    update(&mut app, key(KeyCode::Char('p')));
    assert!(
        dialog(&app).is_none(),
        "no dialog while another hub connects"
    );
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("switching to context hub-b")),
        "{:?}",
        app.message
    );
    // hub-b answers; the old dialog's dry runs answer late.
    connected(&mut app, "hub-b");
    assert_eq!(app.hub().context, "hub-b");
    for request in second {
        answer(&mut app, request);
    }
    assert!(app.overlays.is_empty());
    assert!(
        app.fleet.access.is_empty(),
        "hub-a's permissions are not hub-b's"
    );
    // hub-b lists its pools; a dialog there asks hub-b for everything again.
    let pools: Vec<serde_json::Value> = fleet_app()
        .fleet
        .inventory
        .objects(crate::domain::Kind::Pool)
        .map(|o| (*o.value()).clone())
        .collect();
    update(
        &mut app,
        Msg::Sources(vec![(
            0,
            crate::inventory::SourceEvent::listed(crate::domain::Kind::Pool, None, pools),
        )]),
    );
    answer_all(&mut app);
    update(&mut app, key(KeyCode::Char('p')));
    let asked = sent();
    assert!(!asked.is_empty());
    assert!(asked.iter().all(|r| r.hub.context == "hub-b"), "{asked:?}");
}

#[test]
fn a_switch_with_a_dialog_open_says_what_it_cancelled() {
    let mut app = fleet_app();
    answer_all(&mut app);
    update(&mut app, key(KeyCode::Char('p')));
    answer_all(&mut app);
    assert!(
        dialog(&app).is_some_and(|d| d.ready()),
        "dry run passed on hub-a"
    );
    // The switch was asked before the dialog opened (it cannot be typed over a dialog).
    app.connecting = Some("hub-b".into());
    connected(&mut app, "hub-b");
    assert!(app.overlays.is_empty(), "closed: it was hub-a's");
    let message = app.message.clone().unwrap_or_default();
    assert!(
        message.contains("switched to context hub-b") && message.contains("cancelled: Pause"),
        "{message}"
    );
    assert!(
        !sent().iter().any(|r| r.operation.run() == Some(Run::Real)),
        "nothing real was sent"
    );
}

/// An answer no dialog awaits any more, on any hub, changes nothing (a unit test of the
/// routing by id).
#[test]
fn a_late_answer_for_a_closed_dialog_changes_nothing() {
    let mut app = fleet_app();
    answer_all(&mut app);
    update(&mut app, key(KeyCode::Char('p')));
    let out = sent();
    update(&mut app, key(KeyCode::Esc));
    let before = (
        app.message.clone(),
        app.overlays.clone(),
        app.fleet.access.clone(),
    );
    for request in out {
        update(
            &mut app,
            Msg::Performed {
                request,
                outcome: Outcome::Failed(ClusterError::Forbidden {
                    message: "late".into(),
                }),
            },
        );
    }
    assert_eq!(
        (
            app.message.clone(),
            app.overlays.clone(),
            app.fleet.access.clone()
        ),
        before
    );
    // The dry runs' answers found no dialog to take them: dropped, and counted.
    let dropped = app.dropped_answers;
    assert!(
        dropped > 0,
        "the closed dialog's answers are dropped with a trace"
    );
    // An answer under an id never sent, for an access review, grants nothing.
    let forged = Request {
        id: crate::domain::RequestId(999_999),
        hub: app.hub(),
        operation: Operation::AccessReview {
            verb: "delete".into(),
            kind: crate::domain::Kind::Pool,
            namespace: "ml-research".into(),
        },
    };
    update(
        &mut app,
        Msg::Performed {
            request: forged,
            outcome: Outcome::Allowed(true),
        },
    );
    assert_eq!(app.fleet.access, before.2);
    assert_eq!(app.dropped_answers, dropped + 1);
}

#[test]
fn a_namespace_switch_clears_marks_and_stops_a_recreate() {
    let mut app = fleet_app();
    answer_all(&mut app);
    update(&mut app, key(KeyCode::Char(' ')));
    update(&mut app, key(KeyCode::Char(' ')));
    assert_eq!(app.list.marked.len(), 2);
    update(&mut app, key(KeyCode::Char(':')));
    typed(&mut app, "ns ml-research");
    update(&mut app, key(KeyCode::Enter));
    assert!(app.list.marked.is_empty());
    let message = app.message.clone().unwrap_or_default();
    assert!(message.contains("cancelled: 2 marks"), "{message}");
}

/// A recreate whose delete was confirmed on hub-a and is waiting for the pool to be gone
/// never creates it on hub-b (nor early, in another namespace's empty picture): the switch
/// stops it and says so.
#[test]
fn a_recreate_waiting_for_its_pool_to_go_stops_at_a_switch() {
    for switch in ["ctx", "ns"] {
        let mut app = fleet_app();
        let pool = (*app
            .fleet
            .inventory
            .get(crate::domain::Kind::Pool, "ml-research", "llm-train")
            .expect("llm-train")
            .value())
        .clone();
        app.recreating = Some(crate::app::wizard::recreate::Recreating {
            target: crate::domain::ObjectRef::new(
                crate::domain::Kind::Pool,
                "ml-research",
                "llm-train",
            ),
            hub: app.hub(),
            request: None,
            object: crate::app::wizard::recreate::fresh(&pool),
            file: None,
            stage: crate::app::wizard::recreate::RecreateStage::Waiting,
        });
        if switch == "ctx" {
            app.connecting = Some("hub-b".into());
            connected(&mut app, "hub-b");
        } else {
            update(&mut app, key(KeyCode::Char(':')));
            typed(&mut app, "ns vision-lab");
            update(&mut app, key(KeyCode::Enter));
        }
        assert!(app.recreating.is_none(), "{switch}");
        let message = app.message.clone().unwrap_or_default();
        assert!(message.contains("the recreate of"), "{switch}: {message}");
        // The new picture has no llm-train: before, that read as "gone", and the create went.
        update(
            &mut app,
            Msg::Sources(vec![(
                0,
                crate::inventory::SourceEvent::listed(crate::domain::Kind::Pool, None, Vec::new()),
            )]),
        );
        assert!(
            !sent()
                .iter()
                .any(|r| matches!(r.operation, Operation::Create { .. })),
            "{switch}: no create"
        );
    }
}

/// An access review answered while the wizard or the help is on top leaves it there (it
/// used to pop whatever was on top and put back only a dialog).
#[test]
fn an_answer_never_takes_away_what_is_on_top() {
    let mut app = fleet_app();
    let reviews = sent();
    assert!(!reviews.is_empty(), "the footer's permissions are asked");
    update(&mut app, key(KeyCode::Char('?')));
    for request in reviews {
        answer(&mut app, request);
    }
    assert!(matches!(app.overlays.last(), Some(Overlay::Help { .. })));
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, key(KeyCode::Char('n')));
    assert!(matches!(app.overlays.last(), Some(Overlay::Wizard(_))));
    for request in sent() {
        answer(&mut app, request);
    }
    assert!(matches!(app.overlays.last(), Some(Overlay::Wizard(_))));
}

/// A switch while a permission is still being asked forgets it: the next dialog asks again
/// instead of waiting for an answer that will never be taken.
#[test]
fn a_review_cut_short_by_a_switch_is_asked_again() {
    let mut app = fleet_app();
    let _unanswered = sent();
    assert!(
        app.fleet
            .access
            .values()
            .any(|a| *a == crate::app::confirm::Access::Asking)
    );
    update(&mut app, key(KeyCode::Char(':')));
    typed(&mut app, "ns all");
    update(&mut app, key(KeyCode::Enter));
    assert!(
        !app.fleet
            .access
            .values()
            .any(|a| *a == crate::app::confirm::Access::Asking),
        "{:?}",
        app.fleet.access
    );
}
