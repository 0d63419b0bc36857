//! What is made from the registry: the footer, the help, README's key table, and the check
//! that no key is read two ways where it should not be.

use crossterm::event::KeyEvent;

use super::{BINDINGS, Binding, Command, Scope};

/// The footer for the scopes in force: the prompt of a text field, then each enabled
/// binding's hint.
pub fn footer(scopes: &[Scope], enabled: impl Fn(Command) -> bool) -> String {
    let mut parts: Vec<String> = scopes.iter().filter_map(|s| s.prompt()).collect();
    for binding in BINDINGS {
        if !scopes.contains(&binding.scope) || !enabled(binding.command) {
            continue;
        }
        if taken_over(scopes, binding) {
            continue;
        }
        if let Some((keys, hint)) = binding.footer {
            parts.push(if hint.is_empty() {
                keys.to_owned()
            } else {
                format!("{keys} {hint}")
            });
        }
    }
    parts.join("  ")
}

/// Whether every key of a binding is read as another binding's where these scopes are in
/// force (the tour's `?` over the list's): it is then neither offered nor explained.
fn taken_over(scopes: &[Scope], binding: &Binding) -> bool {
    binding.keys.iter().all(|(code, modifiers)| {
        super::lookup(scopes, &KeyEvent::new(*code, *modifiers))
            .is_some_and(|b| (b.scope, b.command) != (binding.scope, binding.command))
    })
}

/// The help: each scope in force (and the global one) with its bindings, and where the
/// command line can be reached, the views it names (from the registry).
pub fn help(scopes: &[Scope]) -> Vec<(String, Vec<(String, String)>)> {
    let mut sections = Vec::new();
    for scope in scopes.iter().chain([&Scope::Global]) {
        let lines: Vec<_> = BINDINGS
            .iter()
            .filter(|b| b.scope == *scope && !taken_over(scopes, b))
            .map(|b| (b.label.to_owned(), b.help.to_owned()))
            .collect();
        if !lines.is_empty() {
            sections.push((scope.title().to_owned(), lines));
        }
    }
    if scopes
        .iter()
        .any(|s| matches!(s, Scope::List | Scope::Detail | Scope::CommandLine))
    {
        let joined = |lines: Vec<(Vec<String>, String)>| {
            lines
                .into_iter()
                .map(|(names, what)| (names.join(" "), what))
                .collect()
        };
        sections.push(("Views (on the command line)".to_owned(), joined(views())));
        sections.push(("Commands (on the command line)".to_owned(), joined(words())));
    }
    sections
}

/// Every view of the registry: its names on the command line, and what it shows.
fn views() -> Vec<(Vec<String>, String)> {
    crate::app::View::all()
        .map(|v| {
            let names = v.aliases().iter().map(|a| format!(":{a}")).collect();
            (names, format!("the {} view", v.title()))
        })
        .collect()
}

/// Every word of the command line's table: how it is written, and what it does.
fn words() -> Vec<(Vec<String>, String)> {
    super::words::WORDS
        .iter()
        .map(|w| {
            let others = w.names.iter().skip(1).map(|n| format!(":{n}"));
            let usages = std::iter::once(w.usage.to_owned()).chain(others).collect();
            let applies = match w.applies {
                super::words::Applies::Always => "",
                super::words::Applies::Demo => " (on the demo)",
                super::words::Applies::Tour => " (in the tour)",
            };
            (usages, format!("{}{applies}", w.help))
        })
        .collect()
}

/// The scopes that are in force together (`App::scopes`), the more specific first: a key
/// bound in both is read by the first.
pub const TOGETHER: [(Scope, Scope); 9] = [
    (Scope::Yaml, Scope::Detail),
    (Scope::Timeline, Scope::Detail),
    (Scope::Tour, Scope::Timeline),
    (Scope::Events, Scope::List),
    (Scope::WizardReview, Scope::Wizard),
    (Scope::Tour, Scope::List),
    (Scope::Tour, Scope::Events),
    (Scope::Tour, Scope::Detail),
    (Scope::Tour, Scope::Yaml),
];

/// Keys a more specific scope means to take over from the one under it (Review's Enter
/// applies where the wizard's Enter types into a field).
const OVERRIDES: [(Scope, Command, Command); 6] = [
    // On the Timeline tab the sources' letters filter; the other tabs keep these keys.
    (Scope::Timeline, Command::ToggleSource, Command::Copy),
    (Scope::Timeline, Command::ToggleSource, Command::PreviousTab),
    (
        Scope::Timeline,
        Command::ToggleSource,
        Command::ControllerLogs,
    ),
    (Scope::Timeline, Command::ToggleSource, Command::PauseResume),
    (Scope::WizardReview, Command::Apply, Command::Activate),
    // The tour's `?` is the step's answer; `:help` still opens the help.
    (Scope::Tour, Command::TourAnswer, Command::Help),
];

/// Two bindings of one scope that claim the same key (the first would hide the second), a
/// binding a global one hides, or two scopes in force together that read one key as two
/// commands without meaning to: (scope, key) for each, for the test that keeps the registry
/// free of them.
pub fn clashes() -> Vec<String> {
    clashes_in(BINDINGS)
}

/// [`clashes`] in any list of bindings (the test plants one).
fn clashes_in(bindings: &[Binding]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, a) in bindings.iter().enumerate() {
        for b in &bindings[i + 1..] {
            let together = TOGETHER
                .iter()
                .any(|pair| *pair == (a.scope, b.scope) || *pair == (b.scope, a.scope));
            let meant = OVERRIDES.iter().any(|(scope, over, under)| {
                (a.scope == *scope && a.command == *over && b.command == *under)
                    || (b.scope == *scope && b.command == *over && a.command == *under)
            });
            let same_scope = a.scope == b.scope
                || a.scope == Scope::Global
                || (together && a.command != b.command && !meant);
            if !same_scope {
                continue;
            }
            for key in a.keys.iter().filter(|k| b.keys.contains(k)) {
                out.push(format!(
                    "{:?}: {:?} is bound to both {:?} and {:?}",
                    b.scope, key, a.command, b.command
                ));
            }
        }
    }
    out
}

/// README's key table, made from the registry (the views last).
pub fn markdown() -> String {
    let mut out = String::from("| where | key | does |\n|---|---|---|\n");
    for binding in BINDINGS {
        let keys: Vec<String> = binding.label.split(' ').map(|k| format!("`{k}`")).collect();
        out.push_str(&format!(
            "| {} | {} | {} |\n",
            binding.scope.title(),
            keys.join(" "),
            binding.help.replace('|', "\\|")
        ));
    }
    for (names, what) in views().into_iter().chain(words()) {
        let keys: Vec<String> = names.iter().map(|k| format!("`{k}`")).collect();
        out.push_str(&format!(
            "| {} | {} | {} |\n",
            Scope::CommandLine.title(),
            keys.join(" "),
            what
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{KeyCode, KeyEvent, NONE, lookup};
    use super::*;

    #[test]
    fn no_key_is_bound_twice_in_one_scope() {
        let clashes = clashes();
        assert!(clashes.is_empty(), "{clashes:#?}");
    }

    /// The check fails when it should: a key bound twice in one scope, a key a global binding
    /// hides, and a key two scopes in force together read as two commands are each caught.
    #[test]
    fn a_key_bound_twice_is_caught() {
        let bind = |scope, key: char, command| Binding {
            scope,
            keys: Box::leak(Box::new([(KeyCode::Char(key), NONE)])),
            label: "x",
            footer: None,
            command,
            help: "",
        };
        let twice = [
            bind(Scope::List, 'x', Command::Quit),
            bind(Scope::List, 'x', Command::Help),
        ];
        assert_eq!(clashes_in(&twice).len(), 1, "{:?}", clashes_in(&twice));
        let hidden = [
            bind(Scope::Global, 'x', Command::Quit),
            bind(Scope::Detail, 'x', Command::Help),
        ];
        assert_eq!(clashes_in(&hidden).len(), 1);
        let together = [
            bind(Scope::Events, 'x', Command::Quit),
            bind(Scope::List, 'x', Command::Help),
        ];
        assert_eq!(clashes_in(&together).len(), 1);
        // Apart, the same key may mean two things.
        let apart = [
            bind(Scope::Logs, 'x', Command::Quit),
            bind(Scope::List, 'x', Command::Help),
        ];
        assert!(clashes_in(&apart).is_empty());
    }

    #[test]
    fn l_in_a_pools_detail_opens_the_log() {
        let l = KeyEvent::new(KeyCode::Char('l'), NONE);
        let binding = lookup(&[Scope::Detail], &l).expect("l is bound in the detail");
        assert_eq!(binding.command, Command::ControllerLogs);
    }
}
