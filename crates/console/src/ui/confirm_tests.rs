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
    app.read_only = true;
    forget_returned();
    let now = app.now;
    update(&mut app, Msg::Tick(now));
    insta::assert_snapshot!("read_only_pools_80x24", draw(&app, 80, 24));
    press(&mut app, KeyCode::Char('d'), KeyModifiers::CONTROL);
    insta::assert_snapshot!("confirm_read_only_80x24", draw(&app, 80, 24));
    insta::assert_snapshot!("confirm_read_only_160x48", draw(&app, 160, 48));
}
