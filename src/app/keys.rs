//! Keys: what each key does in each mode (list, pool detail, filter, search, command line).
//! Part of `update`: it changes the state and nothing else.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{App, Detail, Effect, Input, Tab, View, yaml_match};

fn complete(prefix: &str) -> Option<&'static str> {
    View::ALL
        .iter()
        .flat_map(|v| v.aliases().iter())
        .chain(["q", "quit"].iter())
        .find(|alias| alias.starts_with(prefix))
        .copied()
}

fn run_command(app: &mut App, command: &str) {
    let command = command.trim();
    if matches!(command, "q" | "quit" | "q!") {
        app.quit = true;
        return;
    }
    if let Some(namespace) = command
        .strip_prefix("ns")
        .filter(|rest| rest.is_empty() || rest.starts_with(' '))
        .map(str::trim)
    {
        let namespaces = match namespace {
            "" => {
                app.message = Some(format!(
                    "watching {}; :ns NAME watches one namespace, :ns all every one",
                    app.connection.scope
                ));
                return;
            }
            "all" | "-A" | "*" => crate::sources::watch::Namespaces::All,
            name => crate::sources::watch::Namespaces::Only(vec![name.to_owned()]),
        };
        app.effects.push(Effect::Watch(namespaces));
        app.detail = None;
        app.selected = 0;
        return;
    }
    if let Some(context) = command
        .strip_prefix("ctx")
        .filter(|rest| rest.is_empty() || rest.starts_with(' '))
        .map(str::trim)
    {
        if context.is_empty() {
            app.message = Some(format!(
                "context {}; :ctx NAME switches",
                app.connection.context
            ));
        } else {
            app.effects.push(Effect::SwitchContext(context.to_owned()));
            app.detail = None;
            app.selected = 0;
        }
        return;
    }
    match View::ALL
        .into_iter()
        .find(|v| v.aliases().contains(&command))
    {
        Some(view) => {
            app.detail = None;
            app.view = view;
            app.selected = 0;
            app.sort_column = 0;
            app.filter.clear();
            app.message = None;
        }
        None => {
            app.message = Some(format!(
                "unknown command \":{command}\"; try :pools, :cpe, :hosts, :events or :q"
            ))
        }
    }
}

/// Opens the selected pool: from the pools list on its overview, from the evaluations list on
/// its scaling tab.
fn open_selected(app: &mut App, on: Option<Tab>) {
    let natural = match app.view {
        View::Pools => Tab::Overview,
        View::Evaluations => Tab::Scaling,
        View::Hosts => Tab::Hosts,
        View::Events | View::Projects => return,
    };
    let tab = on.unwrap_or(natural);
    let Some(row) = app.shown.table.rows.get(app.selected) else {
        return;
    };
    let mut parts = row.id.splitn(3, '/');
    let (Some(namespace), Some(name)) = (parts.next(), parts.next()) else {
        return;
    };
    app.detail = Some(Detail {
        namespace: namespace.to_owned(),
        name: name.to_owned(),
        tab,
        scroll: 0,
    });
}

pub(super) fn on_key(app: &mut App, key: KeyEvent) {
    if key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL) {
        app.quit = true;
        return;
    }
    match &mut app.input {
        Input::Filter(text) => {
            match key.code {
                KeyCode::Esc => {
                    app.filter.clear();
                    app.input = Input::None;
                }
                KeyCode::Enter => app.input = Input::None,
                KeyCode::Backspace => {
                    text.pop();
                    app.filter = text.clone();
                }
                KeyCode::Char(c) => {
                    text.push(c);
                    app.filter = text.clone();
                }
                _ => {}
            }
            app.selected = 0;
            return;
        }
        Input::Search(text) => {
            match key.code {
                KeyCode::Esc => {
                    app.search.clear();
                    app.input = Input::None;
                }
                KeyCode::Enter => app.input = Input::None,
                KeyCode::Backspace => {
                    text.pop();
                    app.search = text.clone();
                }
                KeyCode::Char(c) => {
                    text.push(c);
                    app.search = text.clone();
                }
                _ => {}
            }
            // Scroll to the first line holding the search.
            if let Some(detail) = &app.detail {
                let found = app
                    .inventory
                    .get(
                        crate::inventory::Kind::Pool,
                        &detail.namespace,
                        &detail.name,
                    )
                    .and_then(|object| yaml_match(object, &app.search));
                if let (Some(line), Some(detail)) = (found, app.detail.as_mut()) {
                    detail.scroll = line;
                }
            }
            return;
        }
        Input::Command(text) => {
            match key.code {
                KeyCode::Esc => app.input = Input::None,
                KeyCode::Enter => {
                    let command = text.clone();
                    app.input = Input::None;
                    run_command(app, &command);
                }
                KeyCode::Tab => {
                    if let Some(full) = complete(text) {
                        *text = full.to_owned();
                    }
                }
                KeyCode::Backspace => {
                    text.pop();
                }
                KeyCode::Char(c) => text.push(c),
                _ => {}
            }
            return;
        }
        Input::None => {}
    }
    if let Some(detail) = &mut app.detail {
        match key.code {
            KeyCode::Esc => app.detail = None,
            KeyCode::Char('q') => app.quit = true,
            KeyCode::Char('?') => app.help = !app.help,
            KeyCode::Tab | KeyCode::Right | KeyCode::Char('l') => {
                detail.tab = detail.tab.step(true);
                detail.scroll = 0;
            }
            KeyCode::BackTab | KeyCode::Left | KeyCode::Char('h') => {
                detail.tab = detail.tab.step(false);
                detail.scroll = 0;
            }
            KeyCode::Char(c @ '1'..='6') => {
                detail.tab = Tab::ALL[(c as u8 - b'1') as usize];
                detail.scroll = 0;
            }
            KeyCode::Down | KeyCode::Char('j') => detail.scroll = detail.scroll.saturating_add(1),
            KeyCode::Up | KeyCode::Char('k') => detail.scroll = detail.scroll.saturating_sub(1),
            KeyCode::PageDown => detail.scroll = detail.scroll.saturating_add(10),
            KeyCode::PageUp => detail.scroll = detail.scroll.saturating_sub(10),
            KeyCode::Char(':') => app.input = Input::Command(String::new()),
            KeyCode::Char('/') if detail.tab == Tab::Yaml => {
                app.input = Input::Search(app.search.clone())
            }
            _ => {}
        }
        return;
    }
    let rows = app.shown.table.rows.len();
    let last = rows.saturating_sub(1);
    match key.code {
        KeyCode::Char('q') => app.quit = true,
        KeyCode::Char('?') => app.help = !app.help,
        KeyCode::Esc => {
            app.help = false;
            app.filter.clear();
            app.message = None;
        }
        KeyCode::Char('/') => app.input = Input::Filter(app.filter.clone()),
        KeyCode::Char(':') => app.input = Input::Command(String::new()),
        KeyCode::Down | KeyCode::Char('j') => app.selected = (app.selected + 1).min(last),
        KeyCode::Up | KeyCode::Char('k') => app.selected = app.selected.saturating_sub(1),
        KeyCode::PageDown => app.selected = (app.selected + 10).min(last),
        KeyCode::PageUp => app.selected = app.selected.saturating_sub(10),
        KeyCode::Char('g') | KeyCode::Home => app.selected = 0,
        KeyCode::Char('G') | KeyCode::End => app.selected = last,
        KeyCode::Char('s') => {
            let columns = app.shown.table.headers.len();
            app.sort_column = if columns == 0 {
                0
            } else {
                app.sort_column % columns + 1
            };
        }
        KeyCode::Char('S') => app.sort_descending = !app.sort_descending,
        KeyCode::Enter => open_selected(app, None),
        KeyCode::Char('d') => open_selected(app, Some(Tab::Overview)),
        KeyCode::Char('y') => open_selected(app, Some(Tab::Yaml)),
        KeyCode::Char('w') if app.view == View::Events => {
            app.warnings_only = !app.warnings_only;
            app.selected = 0;
        }
        _ => {}
    }
}
