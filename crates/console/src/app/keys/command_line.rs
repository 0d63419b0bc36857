//! The command line (`:`): views by name and alias, `:ns`, `:ctx` (one context, several with
//! commas, every one with `*`), `:hub`, `:q`, and completion.

use super::super::ask::Ask;
use super::super::commands::words::{self, Completes, WORDS, Word};
use super::super::ports::Namespaces;
use super::super::{App, Effect, Overlay, View};

/// The contexts Tab offers after `:ctx ` and `partial`: after a comma, the next of several
/// (the ones named already are not offered again), each with what was typed before it.
fn next_contexts(contexts: &[String], partial: &str) -> Vec<String> {
    let (before, partial) = match partial.rsplit_once(',') {
        Some((before, last)) => (format!("{before},"), last.trim_start()),
        None => (String::new(), partial),
    };
    let named: Vec<&str> = before.split(',').map(str::trim).collect();
    contexts
        .iter()
        .filter(|c| c.starts_with(partial) && !named.contains(&c.as_str()))
        .map(|c| format!("{before}{c}"))
        .collect()
}

/// What Tab offers for `typed`, in order: a view or command word; after `ns `, the
/// namespaces the watched objects name (and `all`); after `ctx `, the kubeconfig's contexts;
/// after a view's word (`cp `), the names of its objects.
pub(super) fn completions(app: &App, typed: &str) -> Vec<String> {
    // Offered once each, in the order found (a set, not a scan: a view's names may be
    // 10,000 pools).
    let mut out: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut offer = |choice: String| {
        if seen.insert(choice.clone()) {
            out.push(choice);
        }
    };
    let after = typed.split_once(' ').and_then(|(word, partial)| {
        let (spec, _) = words::parse(word)?;
        Some((spec, word, partial.trim_start()))
    });
    if let Some((spec, word, partial)) = after.filter(|(s, _, _)| s.takes) {
        match spec.completes {
            Completes::Namespaces => {
                for namespace in app
                    .namespaces_seen()
                    .into_iter()
                    .chain(["all"])
                    .filter(|ns| ns.starts_with(partial))
                {
                    offer(format!("{word} {namespace}"));
                }
            }
            Completes::Contexts => {
                for context in next_contexts(&app.contexts, partial) {
                    offer(format!("{word} {context}"));
                }
            }
            Completes::Hubs => {
                for hub in app
                    .fleet
                    .names
                    .iter()
                    .map(String::as_str)
                    .chain(["*"])
                    .filter(|h| h.starts_with(partial))
                {
                    offer(format!("{word} {hub}"));
                }
            }
            Completes::Nothing => {}
        }
    } else if let Some((word, partial)) = typed.split_once(' ')
        && let Some(view) = View::named(word)
    {
        let partial = partial.trim_start();
        let mut names: Vec<&str> = app
            .fleet
            .inventory
            .objects(view.source)
            .map(|o| o.name())
            .filter(|name| name.starts_with(partial))
            .collect();
        names.sort_unstable();
        for name in names {
            offer(format!("{word} {name}"));
        }
    } else {
        for word in View::all()
            .flat_map(|v| v.aliases().iter())
            .chain(WORDS.iter().flat_map(|w| w.names.iter()))
            .filter(|alias| alias.starts_with(typed))
        {
            offer((*word).to_owned());
        }
    }
    out
}

/// The names among `known` nearest to `asked` (sharing its start, or containing it), at most
/// three.
fn nearest<'k>(asked: &str, known: impl Iterator<Item = &'k str>) -> Vec<&'k str> {
    let asked_lower = asked.to_lowercase();
    let mut close: Vec<(usize, &str)> = known
        .filter_map(|name| {
            let lower = name.to_lowercase();
            let shared = lower
                .chars()
                .zip(asked_lower.chars())
                .take_while(|(a, b)| a == b)
                .count();
            (shared > 0 || lower.contains(&asked_lower)).then_some((shared, name))
        })
        .collect();
    close.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    close.into_iter().take(3).map(|(_, name)| name).collect()
}

/// What the command line `command` asks of the console: it reads the console, and changes
/// nothing itself.
pub(in crate::app) fn run_command(app: &App, command: &str) -> Vec<Ask> {
    let command = command.trim();
    if let Some((spec, rest)) = words::parse(command) {
        return match spec.word {
            Word::Story => story(app),
            Word::Reset => reset(app),
            Word::Help => vec![Ask::Open(Overlay::Help { scroll: 0 })],
            Word::Chapter => crate::app::tour::moves::jump(app.tour.as_ref(), rest),
            Word::Quit => vec![Ask::Quit],
            Word::Namespace => namespace(app, rest),
            Word::Hub => vec![Ask::NarrowHub(rest.to_owned())],
            Word::Context => context(app, rest),
        };
    }
    // `:cp NAME`: the view, filtered to the name.
    if let Some((word, name)) = command.split_once(' ')
        && let Some(view) = View::named(word)
    {
        return vec![Ask::View(view, name.trim().to_owned())];
    }
    match View::named(command) {
        Some(view) => vec![Ask::View(view, String::new())],
        None => {
            let mut known: Vec<String> = View::all().map(|v| format!(":{}", v.name())).collect();
            known.extend(words::usages(app.demo, app.tour.is_some()).map(str::to_owned));
            let last = known.pop().unwrap_or_default();
            say(format!(
                "unknown command \":{command}\"; try {} or {last}",
                known.join(", ")
            ))
        }
    }
}

fn say(text: impl Into<String>) -> Vec<Ask> {
    vec![Ask::Say(Some(text.into()))]
}

/// `:story`: the demo scenario's story.
fn story(app: &App) -> Vec<Ask> {
    match &app.story {
        Some((name, text)) => vec![Ask::Open(Overlay::Story {
            name: name.clone(),
            text: text.clone(),
            scroll: 0,
        })],
        None => say(":story tells the demo scenario's story; this console is on a hub"),
    }
}

/// `:reset`: the demo's story from its start (in the tour, the chapter).
fn reset(app: &App) -> Vec<Ask> {
    if let Some(tour) = &app.tour {
        vec![Ask::Chapter(tour.chapter)]
    } else if app.demo {
        // What was bound to the objects that go (a dialog, marks) goes with them.
        vec![
            Ask::Leave("starting the story again…".to_owned()),
            Ask::CloseDetail,
            Ask::Effect(Effect::ResetDemo),
        ]
    } else {
        say(":reset starts the demo's story again; this console is on a hub, not the demo")
    }
}

/// `:ns NAME`, `:ns all`, `:ns NAME!`; `:ns` alone says what is watched.
fn namespace(app: &App, asked: &str) -> Vec<Ask> {
    let namespaces = match asked {
        "" => {
            return say(format!(
                "watching {}; :ns NAME watches one namespace, :ns all every one",
                app.fleet.connection.scope
            ));
        }
        "all" | "-A" | "*" => Namespaces::All,
        name => match one_namespace(app, name) {
            Ok(name) => Namespaces::Only(vec![name.to_owned()]),
            Err(said) => return said,
        },
    };
    vec![Ask::WatchAsked(namespaces)]
}

/// The namespace `:ns NAME` watches, or what the footer says instead.
fn one_namespace<'n>(app: &App, name: &'n str) -> Result<&'n str, Vec<Ask>> {
    // `NAME!`: watched even though nothing here names it yet.
    let (name, insist) = match name.strip_suffix('!') {
        Some(name) => (name, true),
        None => (name, false),
    };
    // Checked as the API server would, before it becomes part of a URL.
    if let Some(problem) = crate::domain::rules::names::namespace_problem(name) {
        return Err(say(format!("{problem}; :ns NAME or :ns all")));
    }
    // Only when every namespace is watched do the objects say which namespaces there are
    // (pooldeck does not list Namespaces): otherwise it is taken as named. Across hubs: a
    // namespace any of them has. A context's own namespace is known without an object in it.
    let seen = app.namespaces_seen();
    let every = matches!(app.namespaces, Namespaces::All);
    if every && !insist && !seen.is_empty() && !seen.contains(name) && !app.is_home_namespace(name)
    {
        let near = nearest(name, seen.iter().copied());
        return Err(say(format!(
            "no object here is in a namespace \"{name}\"{}; :ns {name}! watches it anyway",
            if near.is_empty() {
                String::new()
            } else {
                format!(" (nearest: {})", near.join(", "))
            }
        )));
    }
    Ok(name)
}

/// The tour's chapters load on its own demo cluster, not on another context.
const TOUR_CONTEXT: &str = "the tour plays on its own demo cluster: quit it to switch context";

/// `:ctx NAME` switches; `:ctx a,b` and `:ctx *` watch several; `:ctx` alone says which.
fn context(app: &App, context: &str) -> Vec<Ask> {
    // A context whose own name holds a comma is that context.
    let known = app.contexts.iter().any(|c| c == context);
    if !known && (context == "*" || context.contains(',')) {
        several_contexts(app, context)
    } else if app.tour.is_some() && !context.is_empty() {
        say(TOUR_CONTEXT)
    } else if context.is_empty() {
        say(if app.fleet.several() {
            format!(
                "hubs {}; acting on {}; :ctx NAME watches one, :ctx a,b or :ctx * several",
                app.fleet.names.join(", "),
                app.fleet.connection.context
            )
        } else {
            format!(
                "context {}; :ctx NAME switches, :ctx a,b or :ctx * watches several",
                app.fleet.connection.context
            )
        })
    } else if !app.contexts.is_empty() && !known {
        // The kubeconfig's contexts are known: one it lacks is refused before connecting.
        let near = nearest(context, app.contexts.iter().map(String::as_str));
        say(format!(
            "there is no context \"{context}\" in the kubeconfig{}",
            if near.is_empty() {
                format!(" (known: {})", app.contexts.join(", "))
            } else {
                format!(" (nearest: {})", near.join(", "))
            }
        ))
    } else {
        // The connection is made on a task; the console keeps answering keys meanwhile.
        vec![Ask::Connect(vec![context.to_owned()])]
    }
}

/// `:ctx a,b` or `:ctx *` (every context of the kubeconfig): several hubs at once.
fn several_contexts(app: &App, context: &str) -> Vec<Ask> {
    let named: Vec<String> = if context == "*" {
        app.contexts.clone()
    } else {
        let mut named: Vec<String> = Vec::new();
        for name in context.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            if !named.iter().any(|n| n == name) {
                named.push(name.to_owned());
            }
        }
        named
    };
    let unknown = named.iter().find(|n| !app.contexts.contains(n));
    if app.tour.is_some() {
        say(TOUR_CONTEXT)
    } else if let Some(first) = unknown {
        say(format!(
            "there is no context \"{first}\" in the kubeconfig (known: {})",
            app.contexts.join(", ")
        ))
    } else {
        match named.as_slice() {
            [] if context == "*" => say("the kubeconfig names no context"),
            [] => say("name the contexts: :ctx a,b (or :ctx * for every one)"),
            [one] => run_command(app, &format!("ctx {one}")),
            _ => vec![Ask::Connect(named)],
        }
    }
}
