//! Snapshots of every wizard step at 80×24 and 160×48, on a draft part written: a name that
//! breaks the naming rule (its error under the field), one worker pool, no VIP yet.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::app::tests::fleet_app;
use crate::app::{App, Msg, update};
use crate::ui::tests::draw;

fn press(app: &mut App, code: KeyCode) {
    update(app, Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

#[test]
fn every_step() {
    let mut app = fleet_app();
    press(&mut app, KeyCode::Char('n'));
    press(&mut app, KeyCode::Enter);
    for c in "GPU_pool".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    press(&mut app, KeyCode::Enter);
    for step in [
        "general",
        "mode",
        "profile_bundle",
        "node_config",
        "deployment",
        "autoscaling",
        "review",
    ] {
        if step == "node_config" {
            press(&mut app, KeyCode::Char('a'));
        }
        insta::assert_snapshot!(format!("wizard_{step}_80x24"), draw(&app, 80, 24));
        insta::assert_snapshot!(format!("wizard_{step}_160x48"), draw(&app, 160, 48));
        press(&mut app, KeyCode::Tab);
    }
}

/// The Autoscaling step writing a policy (its fields and one GPU entry from the worker pool's
/// variant), and the SSH keys editor open with two lines typed.
#[test]
fn a_policy_written_here_and_a_multi_line_editor() {
    let mut app = fleet_app();
    press(&mut app, KeyCode::Char('n'));
    for _ in 0..3 {
        press(&mut app, KeyCode::Tab);
    }
    press(&mut app, KeyCode::Char('a'));
    // Down to the worker pool's GPU variant.
    let (at, cursor) = match app.overlays.last() {
        Some(crate::app::Overlay::Wizard(w)) => (
            w.lines()
                .iter()
                .position(|l| l.spec.label == "GPU variant")
                .expect("a GPU variant field"),
            w.cursor,
        ),
        _ => panic!("no wizard"),
    };
    for _ in cursor..at {
        press(&mut app, KeyCode::Down);
    }
    press(&mut app, KeyCode::Enter);
    for c in "NVIDIA A100-SXM4-80GB | 80 GB".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Tab);
    // Deployment: SSH keys is the third field.
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Enter);
    for c in "ssh-ed25519 AAAAC3Nza one@example.com".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    press(&mut app, KeyCode::Enter);
    for c in "ssh-rsa AAAAB3Nza two".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    insta::assert_snapshot!("wizard_ssh_keys_editor_80x24", draw(&app, 80, 24));
    insta::assert_snapshot!("wizard_ssh_keys_editor_160x48", draw(&app, 160, 48));
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Tab);
    // Autoscaling: "Write a new policy" is the second field.
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Char(' '));
    insta::assert_snapshot!("wizard_policy_80x24", draw(&app, 80, 24));
    insta::assert_snapshot!("wizard_policy_160x48", draw(&app, 160, 48));
}

/// The drafts offered: `n` with two new pools' drafts (one unnamed), and `e` on a pool with
/// an edit's draft that changes its description, the pool having moved on since (its
/// resourceVersion 41 when the draft started, 42 now).
#[test]
fn drafts_offered() {
    let mut app = fleet_app();
    // A wizard opened and closed unchanged leaves no draft; one with a description typed does.
    press(&mut app, KeyCode::Char('n'));
    press(&mut app, KeyCode::Esc);
    assert!(app.drafts.is_empty());
    press(&mut app, KeyCode::Char('n'));
    for _ in 0..2 {
        press(&mut app, KeyCode::Down);
    }
    press(&mut app, KeyCode::Enter);
    for c in "batch jobs".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('n'));
    press(&mut app, KeyCode::Up);
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Enter);
    for c in "a100-batch".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('n'));
    insta::assert_snapshot!("drafts_new_80x24", draw(&app, 80, 24));
    press(&mut app, KeyCode::Esc);
    // The first row's pool, edited: its description typed, then closed.
    press(&mut app, KeyCode::Char('e'));
    for _ in 0..2 {
        press(&mut app, KeyCode::Down);
    }
    press(&mut app, KeyCode::Enter);
    for c in " (resized)".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Esc);
    if let Some(kept) = app.drafts.first_mut() {
        kept.saved.resource_version = Some("41".into());
    }
    let live = app
        .fleet
        .inventory
        .get(crate::domain::Kind::Pool, "ml-research", "llm-finetune")
        .map(|o| (*o.value()).clone());
    if let Some(mut live) = live {
        live["metadata"]["resourceVersion"] = "42".into();
        update(
            &mut app,
            Msg::Sources(vec![(
                0,
                crate::inventory::SourceEvent::Applied {
                    kind: crate::domain::Kind::Pool,
                    object: live,
                },
            )]),
        );
    }
    press(&mut app, KeyCode::Char('e'));
    insta::assert_snapshot!("drafts_edit_80x24", draw(&app, 80, 24));
    insta::assert_snapshot!("drafts_edit_160x48", draw(&app, 160, 48));
}
