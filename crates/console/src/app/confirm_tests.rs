//! Fixes as message scripts: what `update` sends, and when, for each key of a confirmation.
//! No terminal and no server: the answers a cluster would give are fed in as messages.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::super::tests::fleet_app;
use super::*;
use crate::app::Effect;
use crate::app::Msg;
use crate::app::script::{forget_returned, returned, take_returned, update};
use crate::domain::{ClusterError, Operation, Outcome, Request, Run};

pub(crate) fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn ctrl(c: char) -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
}

pub(crate) fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        update(app, key(KeyCode::Char(c)));
    }
}

/// The requests `update` asked the runtime to send, taken.
pub(crate) fn sent() -> Vec<Request> {
    take_returned()
        .into_iter()
        .filter_map(|e| match e {
            Effect::Perform(operation) => Some(operation),
            _ => None,
        })
        .collect()
}

/// Answers every access review with `allowed` and returns the other operations.
fn answer_reviews(app: &mut App, allowed: bool) -> Vec<Request> {
    let mut rest = Vec::new();
    for request in sent() {
        if matches!(request.operation, Operation::AccessReview { .. }) {
            update(
                app,
                Msg::Performed {
                    request,
                    outcome: Outcome::Allowed(allowed),
                },
            );
        } else {
            rest.push(request);
        }
    }
    rest.extend(sent());
    rest
}

fn dialog(app: &App) -> &Confirm {
    match app.overlays.last() {
        Some(Overlay::Confirm(confirm)) => confirm,
        other => panic!("no confirmation open: {other:?}"),
    }
}

fn pass_dry_runs(app: &mut App, dry_runs: Vec<Request>) {
    for request in dry_runs {
        assert_eq!(request.operation.run(), Some(Run::DryRun), "{request:?}");
        update(
            app,
            Msg::Performed {
                request,
                outcome: Outcome::Done {
                    message: "dry run: accepted".into(),
                },
            },
        );
    }
}

#[test]
fn pause_asks_permission_then_dry_runs_and_sends_only_on_confirm() {
    let mut app = fleet_app();
    answer_reviews(&mut app, true);
    update(&mut app, key(KeyCode::Char('p')));
    assert_eq!(dialog(&app).focus, Focus::Cancel, "Cancel has the focus");
    let dry_runs = answer_reviews(&mut app, true);
    assert!(!dry_runs.is_empty());
    assert!(
        dry_runs
            .iter()
            .all(|o| o.operation.run() == Some(Run::DryRun))
    );
    pass_dry_runs(&mut app, dry_runs);
    assert!(dialog(&app).ready());
    // Enter on Cancel: closed, nothing real sent.
    update(&mut app, key(KeyCode::Enter));
    assert!(app.overlays.is_empty());
    assert!(sent().iter().all(|o| o.operation.run() != Some(Run::Real)));

    update(&mut app, key(KeyCode::Char('p')));
    let dry_runs = answer_reviews(&mut app, true);
    pass_dry_runs(&mut app, dry_runs);
    update(&mut app, key(KeyCode::Tab));
    update(&mut app, key(KeyCode::Enter));
    let real = sent();
    assert_eq!(real.len(), 1, "{real:?}");
    assert!(
        matches!(&real[0].operation, Operation::SetLabel { value, run: Run::Real, .. } if value == "true")
    );
    assert!(app.overlays.is_empty());
}

#[test]
fn marked_pools_are_paused_in_one_confirmation() {
    let mut app = fleet_app();
    answer_reviews(&mut app, true);
    for _ in 0..3 {
        update(&mut app, key(KeyCode::Char(' ')));
    }
    assert_eq!(app.list.marked.len(), 3);
    update(&mut app, key(KeyCode::Char('p')));
    let targets = dialog(&app).plan.targets.len();
    let dry_runs = answer_reviews(&mut app, true);
    pass_dry_runs(&mut app, dry_runs);
    update(&mut app, key(KeyCode::Tab));
    update(&mut app, key(KeyCode::Enter));
    let real = sent();
    assert_eq!(real.len(), targets, "one request per pool to pause");
    assert!(targets >= 2, "at least the unpaused marked pools");
    assert!(app.list.marked.is_empty(), "marks clear once sent");
}

#[test]
fn delete_needs_the_name_typed_and_nothing_real_goes_before() {
    let mut app = fleet_app();
    answer_reviews(&mut app, true);
    let name = app
        .shown
        .row(app.list.selected)
        .expect("a row")
        .id
        .name
        .clone();
    update(&mut app, ctrl('d'));
    let dry_runs = answer_reviews(&mut app, true);
    assert_eq!(dry_runs.len(), 1);
    pass_dry_runs(&mut app, dry_runs);
    assert!(!dialog(&app).ready(), "not before the name is typed");
    // The name field has the focus from the start: what is typed at once goes there, and a
    // `c` in it is a letter, not the copy key.
    assert_eq!(dialog(&app).focus, Focus::Field);
    typed(&mut app, "c");
    assert_eq!(dialog(&app).typed, "c");
    assert!(
        !returned().iter().any(|e| matches!(e, Effect::Copy { .. })),
        "nothing copied"
    );
    update(&mut app, key(KeyCode::Backspace));
    typed(&mut app, &name[..name.len() - 1]);
    // Enter on a name half typed does nothing: the focus stays in the field.
    update(&mut app, key(KeyCode::Enter));
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(dialog(&app).focus, Focus::Field);
    assert!(
        !app.overlays.is_empty(),
        "a name typed wrong confirms nothing"
    );
    assert!(sent().is_empty());
    // Tab past the field to Confirm: it does not work yet; back to the field.
    update(&mut app, key(KeyCode::Tab));
    update(&mut app, key(KeyCode::Enter));
    assert!(sent().is_empty());
    update(&mut app, key(KeyCode::BackTab));
    assert_eq!(dialog(&app).focus, Focus::Field);
    typed(&mut app, &name[name.len() - 1..]);
    assert!(dialog(&app).ready());
    // Enter once it matches moves to Confirm; Enter there sends.
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(dialog(&app).focus, Focus::Confirm);
    update(&mut app, key(KeyCode::Enter));
    let real = sent();
    // (The fixture's pools carry no uid; fixes::tests and tests/cluster_operations.rs show
    // the uid and resourceVersion travelling with the request.)
    assert!(
        real.len() == 1
            && matches!(&real[0].operation, Operation::Delete { target, run: Run::Real, .. } if target.name == name),
        "{real:?}"
    );
    // A conflict (the pool recreated meanwhile) is said in words.
    update(
        &mut app,
        Msg::Performed {
            request: real[0].clone(),
            outcome: Outcome::Failed(ClusterError::Conflict {
                message: "the uid changed".into(),
            }),
        },
    );
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("review it again")),
        "{:?}",
        app.message
    );
}

#[test]
fn esc_cancels_anywhere_in_the_dialog() {
    let mut app = fleet_app();
    answer_reviews(&mut app, true);
    update(&mut app, ctrl('d'));
    typed(&mut app, "abc");
    update(&mut app, key(KeyCode::Esc));
    assert!(app.overlays.is_empty());
    assert!(sent().iter().all(|o| o.operation.run() != Some(Run::Real)));
}

#[test]
fn a_denied_permission_disables_the_key_and_sends_no_write() {
    let mut app = fleet_app();
    answer_reviews(&mut app, false);
    assert!(
        !app.shown.hints.contains("^D delete"),
        "{}",
        app.shown.hints
    );
    update(&mut app, ctrl('d'));
    assert!(app.overlays.is_empty(), "no dialog for what is not allowed");
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("needs delete on computepools")),
        "{:?}",
        app.message
    );
    assert!(sent().is_empty());
}

#[test]
fn read_only_mode_sends_nothing_at_all() {
    let mut app = fleet_app();
    app.fleet.read_only_why = Some("read-only for this test".into());
    forget_returned();
    for msg in [
        key(KeyCode::Char(' ')),
        key(KeyCode::Char('p')),
        key(KeyCode::Tab),
        key(KeyCode::Enter),
    ] {
        update(&mut app, msg);
    }
    update(&mut app, key(KeyCode::Esc));
    for msg in [
        ctrl('d'),
        key(KeyCode::Tab),
        key(KeyCode::Enter),
        key(KeyCode::Enter),
    ] {
        update(&mut app, msg);
    }
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, key(KeyCode::Char('u')));
    assert!(sent().is_empty(), "not a dry run, not an access review");
}

/// A dry run refused because the pool changed keeps the typed error in the dialog, with what
/// changed as the watch shows it; the dialog says to review it again, and Confirm stays off.
#[test]
fn a_dry_run_refused_for_a_changed_pool_offers_a_review_with_what_changed() {
    let mut app = fleet_app();
    answer_reviews(&mut app, true);
    let row = app.shown.row(app.list.selected).expect("a row").id.clone();
    update(&mut app, key(KeyCode::Char('p')));
    let dry_runs = answer_reviews(&mut app, true);
    assert_eq!(dry_runs.len(), 1);
    // The pool goes away from the picture before the answer comes.
    update(
        &mut app,
        Msg::Sources(vec![(
            0,
            crate::inventory::SourceEvent::Deleted {
                kind: crate::inventory::Kind::Pool,
                object: serde_json::json!({
                    "apiVersion": "spectrocloud.com/v1alpha1",
                    "kind": "ComputePool",
                    "metadata": {"name": row.name.as_str(), "namespace": row.namespace.as_str()},
                }),
            },
        )]),
    );
    update(
        &mut app,
        Msg::Performed {
            request: dry_runs[0].clone(),
            outcome: Outcome::Failed(ClusterError::Conflict {
                message: "the object has been modified".into(),
            }),
        },
    );
    match &dialog(&app).stage {
        Stage::DryRunFailed { error, changed } => {
            assert!(matches!(error, ClusterError::Conflict { .. }), "{error:?}");
            assert_eq!(changed.as_deref(), Some("it is no longer there"));
        }
        other => panic!("the dry run is refused: {other:?}"),
    }
    assert!(!dialog(&app).ready(), "Confirm stays off");
    let theme = crate::theme::Theme::builtin("default-dark").expect("a theme");
    let backend = ratatui::backend::TestBackend::new(160, 48);
    let mut terminal = ratatui::Terminal::new(backend).expect("a terminal");
    terminal
        .draw(|frame| crate::ui::render(&app, &theme, frame))
        .expect("drawn");
    let screen: String = terminal
        .backend()
        .buffer()
        .content()
        .iter()
        .map(|c| c.symbol())
        .collect();
    assert!(
        screen.contains("it is no longer there"),
        "what changed is said"
    );
    assert!(
        screen.contains("open it again to review"),
        "the next step is said"
    );
}

/// The name field takes characters, not chords: Ctrl-H erases (a terminal whose Backspace
/// sends ^H), Ctrl-W drops a word, Ctrl-U the whole text, and Ctrl-D or Alt-x type nothing.
#[test]
fn the_name_field_reads_chords_as_editing_never_as_letters() {
    let mut app = fleet_app();
    answer_reviews(&mut app, true);
    update(&mut app, ctrl('d'));
    let chord = |c: char, modifiers| Msg::Key(KeyEvent::new(KeyCode::Char(c), modifiers));
    typed(&mut app, "detector");
    update(&mut app, chord('d', KeyModifiers::CONTROL));
    update(&mut app, chord('x', KeyModifiers::ALT));
    assert_eq!(dialog(&app).typed, "detector");
    update(&mut app, chord('h', KeyModifiers::CONTROL));
    assert_eq!(dialog(&app).typed, "detecto");
    typed(&mut app, " two");
    update(&mut app, chord('w', KeyModifiers::CONTROL));
    assert_eq!(dialog(&app).typed, "detecto ");
    update(&mut app, chord('u', KeyModifiers::CONTROL));
    assert_eq!(dialog(&app).typed, "");
    // A capital comes with SHIFT and is a character.
    update(&mut app, chord('D', KeyModifiers::SHIFT));
    assert_eq!(dialog(&app).typed, "D");
}

/// Enter on a focused Confirm that cannot act says why instead of doing nothing silently.
#[test]
fn enter_on_confirm_before_it_works_says_why() {
    let mut app = fleet_app();
    answer_reviews(&mut app, true);
    update(&mut app, ctrl('d'));
    // The dry run is out, not answered: Tab moves from the name field to Confirm.
    update(&mut app, key(KeyCode::Tab));
    assert_eq!(dialog(&app).focus, Focus::Confirm);
    forget_returned();
    update(&mut app, key(KeyCode::Enter));
    assert!(!app.overlays.is_empty(), "still open");
    assert!(sent().iter().all(|r| r.operation.run() != Some(Run::Real)));
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("dry run")),
        "{:?}",
        app.message
    );
}
