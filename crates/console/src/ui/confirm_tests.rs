//! Snapshots of the confirmation dialog at 80×24 and 160×48: pausing marked pools with the
//! dry run passed, a delete with its impact and the name half typed, and a dialog that cannot
//! run (read-only mode), with READ-ONLY in the header.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::app::script::{forget_returned, take_returned, update};
use crate::app::tests::fleet_app;
use crate::app::{App, Effect, Msg};
use crate::domain::{Operation, Outcome, Run};
use crate::ui::tests::draw;

fn press(app: &mut App, code: KeyCode, modifiers: KeyModifiers) {
    update(app, Msg::Key(KeyEvent::new(code, modifiers)));
}

/// Answers every request as a cluster that allows it and accepts every dry run would.
fn answer_all(app: &mut App) {
    for _ in 0..3 {
        for effect in take_returned() {
            let Effect::Perform(request) = effect else {
                continue;
            };
            let outcome = match &request.operation {
                Operation::AccessReview { .. } => Outcome::Allowed(true),
                o if o.run() == Some(Run::DryRun) => Outcome::Done {
                    message: "dry run: accepted".into(),
                },
                _ => continue,
            };
            update(app, Msg::Performed { request, outcome });
        }
    }
}

#[test]
fn pausing_marked_pools() {
    let mut app = fleet_app();
    answer_all(&mut app);
    for _ in 0..3 {
        press(&mut app, KeyCode::Char(' '), KeyModifiers::NONE);
    }
    press(&mut app, KeyCode::Char('p'), KeyModifiers::NONE);
    answer_all(&mut app);
    insta::assert_snapshot!("confirm_pause_80x24", draw(&app, 80, 24));
    insta::assert_snapshot!("confirm_pause_160x48", draw(&app, 160, 48));
}

#[test]
fn deleting_with_the_name_half_typed() {
    let mut app = fleet_app();
    answer_all(&mut app);
    press(&mut app, KeyCode::Char('d'), KeyModifiers::CONTROL);
    answer_all(&mut app);
    // The name field has the focus from the start.
    for c in "llm-".chars() {
        press(&mut app, KeyCode::Char(c), KeyModifiers::NONE);
    }
    insta::assert_snapshot!("confirm_delete_80x24", draw(&app, 80, 24));
    insta::assert_snapshot!("confirm_delete_160x48", draw(&app, 160, 48));
}

#[test]
fn read_only_says_so_and_blocks() {
    let mut app = fleet_app();
    app.fleet.read_only_why = Some("read-only for this test".into());
    forget_returned();
    let now = app.now;
    update(&mut app, Msg::Tick(now));
    insta::assert_snapshot!("read_only_pools_80x24", draw(&app, 80, 24));
    press(&mut app, KeyCode::Char('d'), KeyModifiers::CONTROL);
    insta::assert_snapshot!("confirm_read_only_80x24", draw(&app, 80, 24));
    insta::assert_snapshot!("confirm_read_only_160x48", draw(&app, 160, 48));
}

/// A dialog is as tall as its text wraps (by words): at every width from 80 to 160 columns the
/// last words of a long reason and the buttons are on screen (counted by characters, the
/// finalizer's wait lost its closing words, and a hostile reason the buttons).
#[test]
fn a_dialog_shows_its_whole_text_and_its_buttons_at_every_width() {
    let mut app = fleet_app();
    answer_all(&mut app);
    let trainer = crate::app::tests::held_value(
        &app,
        crate::domain::Kind::AIWorkload,
        "ml-research",
        "legacy-trainer",
    );
    update(
        &mut app,
        Msg::Sources(vec![(
            0,
            crate::inventory::SourceEvent::Deleted {
                kind: crate::domain::Kind::AIWorkload,
                object: trainer,
            },
        )]),
    );
    press(&mut app, KeyCode::Char('/'), KeyModifiers::NONE);
    for c in "retired-cluster".chars() {
        press(&mut app, KeyCode::Char(c), KeyModifiers::NONE);
    }
    press(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    press(&mut app, KeyCode::Char('u'), KeyModifiers::NONE);
    answer_all(&mut app);
    for width in 80..=160 {
        let screen: String = draw(&app, width, 48)
            .lines()
            .map(|l| l.trim_matches('"').trim().trim_matches('│').to_owned())
            .collect::<Vec<_>>()
            .join(" ");
        let flat = screen.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains("Cancel"), "the buttons at {width}: {flat}");
        assert!(
            flat.contains("Cannot run: the last AIWorkload went")
                && flat.contains("read the controller logs meanwhile. "),
            "the reason's last words at {width}: {flat}"
        );
    }
}

/// A refused dry run says each thing once: "nothing was changed" once, and an invalid object
/// is "Dry run: the server refused it", not "refused: the server refused it".
#[test]
fn a_refused_dry_run_says_each_thing_once() {
    use crate::domain::ClusterError;
    let conflict = super::refused(
        &ClusterError::Conflict {
            message: "the object has been modified".into(),
        },
        &None,
    );
    assert_eq!(
        conflict
            .to_lowercase()
            .matches("nothing was changed")
            .count(),
        1,
        "{conflict}"
    );
    let invalid = super::refused(
        &ClusterError::Invalid {
            message: "spec.x is wrong".into(),
            causes: Vec::new(),
        },
        &None,
    );
    assert!(
        invalid.starts_with("Dry run: the server refused it"),
        "{invalid}"
    );
    assert_eq!(invalid.matches("refused").count(), 1, "{invalid}");
}
