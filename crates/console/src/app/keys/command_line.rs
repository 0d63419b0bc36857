//! The command line (`:`): views by name and alias, `:ns`, `:ctx`, `:q`, and completion.

use super::super::ports::Namespaces;
use super::super::{App, Effect, View};

pub(super) fn complete(prefix: &str) -> Option<&'static str> {
    View::all()
        .flat_map(|v| v.aliases().iter())
        .chain(["ns", "ctx", "q", "quit"].iter())
        .find(|alias| alias.starts_with(prefix))
        .copied()
}

/// A word the command line takes after `name`: `Some("")` for the bare word, the rest
/// trimmed otherwise; `None` when the command is another.
fn argument<'c>(command: &'c str, name: &str) -> Option<&'c str> {
    command
        .strip_prefix(name)
        .filter(|rest| rest.is_empty() || rest.starts_with(' '))
        .map(str::trim)
}

pub(super) fn run_command(app: &mut App, command: &str) {
    let command = command.trim();
    if matches!(command, "q" | "quit" | "q!") {
        app.quit = true;
        return;
    }
    if let Some(namespace) = argument(command, "ns") {
        let namespaces = match namespace {
            "" => {
                app.message = Some(format!(
                    "watching {}; :ns NAME watches one namespace, :ns all every one",
                    app.connection.scope
                ));
                return;
            }
            "all" | "-A" | "*" => Namespaces::All,
            name => {
                // Checked as the API server would, before it becomes part of a URL.
                if let Some(problem) = crate::domain::rules::names::namespace_problem(name) {
                    app.message = Some(format!("{problem}; :ns NAME or :ns all"));
                    return;
                }
                Namespaces::Only(vec![name.to_owned()])
            }
        };
        app.watch(namespaces);
        return;
    }
    if let Some(context) = argument(command, "ctx") {
        if context.is_empty() {
            app.message = Some(format!(
                "context {}; :ctx NAME switches",
                app.connection.context
            ));
        } else {
            // The connection is made on a task; the console keeps answering keys meanwhile.
            app.connecting = Some(context.to_owned());
            app.message = Some(format!("connecting to context {context}…"));
            app.outbox.push(Effect::Connect(context.to_owned()));
        }
        return;
    }
    match View::named(command) {
        Some(view) => {
            app.detail = None;
            app.list.view = view;
            app.list.selected = 0;
            app.list.selected_id = None;
            app.list.sort_column = 0;
            app.list.filter.clear();
            app.message = None;
        }
        None => {
            let views: Vec<String> = View::all().map(|v| format!(":{}", v.name())).collect();
            app.message = Some(format!(
                "unknown command \":{command}\"; try {}, :ns, :ctx or :q",
                views.join(", ")
            ))
        }
    }
}
