//! No key acts on what is not shown: marks act only on what the dialog lists, and a screen
//! too small to draw reads only Esc and q.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::app::Msg;
use crate::app::confirm::Focus;
use crate::app::confirm::tests::{key, sent, typed};
use crate::app::requests::tests::{answer_all, dialog};
use crate::app::script::update;
use crate::app::tests::fleet_app;
use crate::domain::Run;

/// Marks act only on what the dialog lists: a marked pool the filter hides now is named as
/// such; Ctrl-D and u act on the row under the cursor, never on the first mark.
#[test]
fn marks_act_only_on_what_the_dialog_lists() {
    let mut app = fleet_app();
    answer_all(&mut app);
    let first = app.shown.row(0).expect("a row").id.clone();
    update(&mut app, key(KeyCode::Char(' ')));
    update(&mut app, key(KeyCode::Char(' ')));
    // Filter the first marked pool out of view.
    let second = app.shown.row(1).expect("a row").id.clone();
    update(&mut app, key(KeyCode::Char('/')));
    typed(&mut app, &second.name);
    update(&mut app, key(KeyCode::Enter));
    assert!(!app.shown.window_rows().any(|r| r.id == first));
    update(&mut app, key(KeyCode::Char('p')));
    let plan = &dialog(&app).expect("a dialog").plan;
    let said = plan.explanation.join("\n");
    assert!(
        said.contains("not shown now") && said.contains(first.name.as_str()),
        "{said}"
    );
    update(&mut app, key(KeyCode::Esc));
    // Ctrl-D: the row under the cursor, not the first mark.
    let under = app.shown.row(app.list.selected).expect("a row").id.clone();
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Char('d'), KeyModifiers::CONTROL)),
    );
    let plan = &dialog(&app).expect("a delete dialog").plan;
    assert_eq!(plan.type_to_confirm.as_deref(), Some(under.name.as_str()));
}

/// Below 80×24 only Esc and q are read: Tab and Enter do not confirm a dialog that is not
/// drawn, and nothing is sent.
#[test]
fn a_screen_too_small_reads_no_key_that_acts() {
    let mut app = fleet_app();
    answer_all(&mut app);
    update(&mut app, key(KeyCode::Char('p')));
    answer_all(&mut app);
    assert!(dialog(&app).is_some_and(|d| d.ready()));
    update(
        &mut app,
        Msg::Resize {
            width: 60,
            height: 20,
        },
    );
    for msg in [key(KeyCode::Tab), key(KeyCode::Enter), key(KeyCode::Enter)] {
        update(&mut app, msg);
    }
    assert_eq!(dialog(&app).map(|d| d.focus), Some(Focus::Cancel));
    assert!(
        !sent().iter().any(|r| r.operation.run() == Some(Run::Real)),
        "nothing is sent"
    );
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("too small")),
        "{:?}",
        app.message
    );
    // A paste does not reach the name field that cannot be seen.
    update(&mut app, Msg::Paste("llm-finetune".into()));
    assert!(dialog(&app).is_some_and(|d| d.typed.is_empty()));
    // Esc still cancels (sending nothing); back at full size the keys work again.
    update(&mut app, key(KeyCode::Esc));
    assert!(app.overlays.is_empty());
    update(
        &mut app,
        Msg::Resize {
            width: 80,
            height: 24,
        },
    );
    update(&mut app, key(KeyCode::Char('p')));
    assert!(dialog(&app).is_some());
    update(
        &mut app,
        Msg::Resize {
            width: 79,
            height: 24,
        },
    );
    update(&mut app, key(KeyCode::Char('q')));
    assert!(app.quit, "q quits whatever the size");
}

/// One mark, hidden by the filter, with the cursor on another row: `p` acts on the mark,
/// and the dialog says it is not shown now.
#[test]
fn a_single_hidden_mark_is_named_as_hidden() {
    let mut app = fleet_app();
    answer_all(&mut app);
    let marked = app.shown.row(0).expect("a row").id.clone();
    update(&mut app, key(KeyCode::Char(' ')));
    let other = app.shown.row(1).expect("a row").id.clone();
    update(&mut app, key(KeyCode::Char('/')));
    typed(&mut app, &other.name);
    update(&mut app, key(KeyCode::Enter));
    update(&mut app, key(KeyCode::Char('p')));
    let plan = &dialog(&app).expect("a dialog").plan;
    assert!(
        plan.targets
            .iter()
            .any(|t| t.contains(marked.name.as_str())),
        "{:?}",
        plan.targets
    );
    let said = plan.explanation.join("\n");
    assert!(said.contains("not shown now"), "{said}");
}
