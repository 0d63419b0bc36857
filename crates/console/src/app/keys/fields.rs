//! Text typed or pasted: the field it goes into (a filter, a search, the command line, a
//! dialog's name, the log's search), what the field does as it changes, and the keys read on a
//! screen too small to show the console.

use crossterm::event::{KeyCode, KeyEvent};

use super::super::commands::Command;
use super::super::{App, Effect, Input, Overlay};

/// The text field being typed in, if any.
pub(super) fn text_field(app: &mut App) -> Option<&mut String> {
    // The top overlay's own field (a dialog's name, the log's search), if it is typing one.
    if let Some(top) = app.overlays.last_mut() {
        return crate::app::component::Component::typed(top);
    }
    match &mut app.input {
        Input::Filter(text) | Input::Search(text) | Input::Command(text) => Some(text),
        Input::None => None,
    }
}

/// After a text field changed: the filter applies live; a search scrolls to its first match.
pub(super) fn typed(app: &mut App) {
    match &app.input {
        Input::Filter(text) => {
            app.list.filter = text.clone();
            app.list.selected = 0;
            app.list.selected_id = None;
        }
        Input::Search(text) => {
            app.search = text.clone();
            let needle = app.search.trim().to_lowercase();
            let found = app.shown.detail.as_ref().and_then(|d| {
                if needle.is_empty() {
                    return None;
                }
                d.yaml
                    .iter()
                    .position(|l| l.to_lowercase().contains(&needle))
            });
            if let (Some(line), Some(detail)) = (found, app.detail.as_mut()) {
                detail.scroll = u16::try_from(line).unwrap_or(u16::MAX);
            }
        }
        Input::Command(_) | Input::None => {}
    }
}

/// Pasted text: into the wizard's editor, or (on one line) into the text field being typed;
/// with no field open it is not taken as keys (a pasted `d` must not act).
pub(in crate::app) fn on_paste(app: &mut App, text: &str) {
    // Nothing typed reaches a field that cannot be seen (a dialog's name, say).
    if app.too_small() {
        app.message =
            Some("the terminal is too small to show the console: the paste was not taken".into());
        return;
    }
    if crate::app::wizard::paste(app, text) {
        return;
    }
    match text_field(app) {
        Some(field) => {
            let line = text.replace(['\r', '\n'], " ");
            let room = 4096usize.saturating_sub(field.chars().count());
            field.extend(line.chars().take(room));
            typed(app);
        }
        None => {
            app.message = Some(
                "a paste goes into a field: open one first (Enter in the wizard, / to filter)"
                    .into(),
            )
        }
    }
}

/// Below the smallest size the console draws nothing but a request to make the terminal
/// larger: only quit and Esc (which closes what is on top, sending nothing) are read, so no
/// key acts on a dialog or a row that cannot be seen.
pub(super) fn on_key_too_small(app: &mut App, key: KeyEvent) {
    use crossterm::event::KeyModifiers;
    let control = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Char('c') if control => app.quit = true,
        KeyCode::Char('q') if !control => app.quit = true,
        KeyCode::Esc => match app.overlays.pop() {
            Some(Overlay::Confirm(confirm)) => {
                app.message = Some(format!(
                    "cancelled {}: nothing was sent",
                    confirm.plan.title
                ));
            }
            // The wizard keeps its draft; closing it is what its own Esc does.
            Some(overlay @ Overlay::Wizard(_)) => {
                app.overlays.push(overlay);
                crate::app::wizard::escape(app);
            }
            Some(Overlay::Logs(_)) => app.outbox.push(Effect::StopLogs),
            Some(Overlay::Help { .. } | Overlay::Drafts(_)) | None => app.input = Input::None,
        },
        _ => {
            app.message = Some(format!(
                "the terminal is too small to show the console: make it at least {}×{} (until \
                 then only Esc and q are read)",
                crate::app::MIN_WIDTH,
                crate::app::MIN_HEIGHT
            ));
        }
    }
}

/// A command while a filter, a YAML search or the command line is typed.
pub(super) fn in_field(app: &mut App, command: Command) {
    match command {
        Command::Accept => {
            if let Input::Command(text) = &app.input {
                let command = text.clone();
                app.input = Input::None;
                super::command_line::run_command(app, &command);
            } else {
                app.input = Input::None;
            }
        }
        Command::Cancel => {
            match app.input {
                Input::Filter(_) => {
                    app.list.filter.clear();
                    app.list.selected = 0;
                    app.list.selected_id = None;
                }
                Input::Search(_) => app.search.clear(),
                _ => {}
            }
            app.input = Input::None;
        }
        Command::Complete => {
            if let Input::Command(text) = &mut app.input
                && let Some(full) = super::command_line::complete(text)
            {
                *text = full.to_owned();
            }
        }
        Command::Erase => {
            if let Some(text) = text_field(app) {
                text.pop();
                typed(app);
            }
        }
        // Not bound in a text field's scopes.
        _ => {}
    }
}
