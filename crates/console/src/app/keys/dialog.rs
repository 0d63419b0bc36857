//! The keys of a confirmation dialog: focus, scroll, the name typed, Cancel and Confirm.

use super::super::commands::Command;
use super::super::confirm::Focus;
use super::super::{App, Overlay};
use super::copy;
use super::fields::{text_field, typed};

/// A command while a confirmation is on top (its buttons, or the field for the name).
pub(super) fn in_dialog(app: &mut App, command: Command) {
    match command {
        Command::Close => {
            if let Some(Overlay::Confirm(_)) = app.overlays.pop() {
                app.message = Some("cancelled: nothing was sent".into());
            }
        }
        Command::Down | Command::Up => {
            if let Some(Overlay::Confirm(confirm)) = app.overlays.last_mut() {
                confirm.scroll = match command {
                    Command::Down => confirm.scroll.saturating_add(1),
                    _ => confirm.scroll.saturating_sub(1),
                };
            }
        }
        Command::FocusNext | Command::FocusPrevious => {
            if let Some(Overlay::Confirm(confirm)) = app.overlays.last_mut() {
                confirm.step(command == Command::FocusNext);
            }
        }
        Command::Erase => {
            if let Some(text) = text_field(app) {
                text.pop();
                typed(app);
            }
        }
        Command::Copy => copy(app),
        Command::Activate => activate(app),
        // Not bound in a dialog's scopes.
        _ => {}
    }
}

/// Enter: presses the focused control.
fn activate(app: &mut App) {
    let focus = match app.overlays.last() {
        Some(Overlay::Confirm(confirm)) => confirm.focus,
        _ => return,
    };
    match focus {
        Focus::Cancel => {
            app.overlays.pop();
            app.message = Some("cancelled: nothing was sent".into());
        }
        Focus::Field => {
            // Enter moves on only once the text matches: a name half typed is not a choice
            // of the Confirm button.
            if let Some(Overlay::Confirm(confirm)) = app.overlays.last_mut() {
                match confirm.needs_typing() {
                    Some(text) if confirm.typed != text => {
                        app.message = Some(format!(
                            "type {} exactly first (Esc cancels)",
                            crate::domain::inert::line(text)
                        ));
                    }
                    _ => confirm.focus = Focus::Confirm,
                }
            }
        }
        Focus::Confirm => super::super::confirm::confirm(app),
    }
}
