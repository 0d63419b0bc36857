//! The settings file, `$XDG_CONFIG_HOME/pooldeck/config.yaml` (default
//! `~/.config/pooldeck/config.yaml`), beyond the theme (read by `theme`):
//!
//! ```yaml
//! readonly: false          # true: every context is read-only
//! contexts:
//!   prod-hub:
//!     readonly: true       # this context only
//! clipboard: auto          # auto | osc52 | system
//! audit-log: /var/log/me/pooldeck-audit.log
//! favourites:              # the console's 1-9 watch these namespaces (0: all)
//!   - ml-research
//!   - retail-edge
//! ```
//!
//! A missing file is no settings. A file that cannot be read, does not parse (a duplicate key
//! included) or departs from the schema anywhere (`schema.rs`: an unknown key, an empty
//! entry, a value of the wrong kind) fails closed: read-only was maybe asked for and cannot
//! be told, so every context is read-only, and the header and the CLI verbs say why, with the
//! line. A word pooldeck does not know (a clipboard) is a warning.

mod schema;

use std::path::PathBuf;

use serde_json::Value;

/// How `c` copies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Clipboard {
    /// The system clipboard where there is one, OSC 52 over SSH or when it fails.
    #[default]
    Auto,
    /// Always the terminal's OSC 52 escape (tmux and screen pass it on).
    Osc52,
    /// Always the system clipboard.
    System,
}

/// `audit-log:` as the settings file writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AuditLog {
    At(PathBuf),
    /// Not an absolute path, as written: nothing that changes the hub is sent.
    NotAbsolute(String),
}

/// What the settings file says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// Read-only for every context, and why (`readonly: true`, or a file that could not be
    /// read).
    pub read_only_everywhere: Option<String>,
    /// Read-only contexts, each with why.
    pub read_only_contexts: Vec<(String, String)>,
    /// Every context the file names (`contexts:`), as written.
    pub contexts_named: Vec<String>,
    pub clipboard: Clipboard,
    /// `audit-log:`: an absolute path, or one that is not (then nothing that changes the hub
    /// is sent: the record asked for cannot be written where it was asked).
    pub audit_log: Option<AuditLog>,
    /// `favourites:` (or `favorites:`): the namespaces the console's `1`-`9` watch, in order.
    pub favourites: Vec<String>,
}

/// Whether the settings file, or the directory it is in, is a link that leads nowhere.
fn dangling(path: &std::path::Path) -> bool {
    let broken = |p: &std::path::Path| {
        std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink())
            && std::fs::metadata(p).is_err()
    };
    broken(path) || path.parent().is_some_and(broken)
}

/// Whether a context entry names `context` once spaces and case are set aside.
fn loosely(named: &str, context: &str) -> bool {
    named.trim().eq_ignore_ascii_case(context.trim())
}

/// Why everything is read-only when the file cannot be told apart from one that asks it.
fn unreadable(what: String) -> String {
    format!("{what}; read-only until it is fixed, since it may ask for read-only")
}

impl Settings {
    /// Whether this context is read-only by the settings.
    pub fn read_only(&self, context: &str) -> bool {
        self.why_read_only(context).is_some()
    }

    /// Why this context is read-only by the settings, if it is. An entry that names it only
    /// once spaces and case are set aside (`"Prod-Hub "`) applies too: read-only is the safe
    /// reading of it ([`Settings::about_contexts`] says so).
    pub fn why_read_only(&self, context: &str) -> Option<String> {
        self.read_only_everywhere.clone().or_else(|| {
            let exact = self.read_only_contexts.iter().find(|(c, _)| c == context);
            let loose = || {
                self.read_only_contexts
                    .iter()
                    .find(|(c, _)| loosely(c, context))
            };
            exact.or_else(loose).map(|(_, why)| why.clone())
        })
    }

    /// What the file's context entries come to with this kubeconfig (its contexts `known`):
    /// an entry that names none of them is said (settings are shared across kubeconfigs, so
    /// it is no error), and one that names a context only once spaces and case are set aside
    /// is said as applying to it.
    pub fn about_contexts(&self, known: &[String]) -> Vec<String> {
        let mut out = Vec::new();
        for named in &self.contexts_named {
            if known.iter().any(|k| k == named) {
                continue;
            }
            let shown = crate::domain::inert::line(named);
            match known.iter().find(|k| loosely(named, k)) {
                Some(context) => out.push(format!(
                    "settings: contexts.\"{shown}\" is taken as context {}, spaces and case \
                     aside; write it as the kubeconfig does",
                    crate::domain::inert::line(context)
                )),
                None => out.push(format!(
                    "settings: contexts.\"{shown}\" names no context of this kubeconfig ({}); \
                     it applies to none here",
                    known
                        .iter()
                        .map(|k| crate::domain::inert::line(k).into_owned())
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            }
        }
        out
    }

    /// Settings that make every context read-only, and why (the file could not be read).
    pub fn fail_closed(why: String) -> Settings {
        Settings {
            read_only_everywhere: Some(unreadable(why)),
            ..Settings::default()
        }
    }

    /// Reads the settings from the file's text; the warnings say what was ignored or what
    /// made contexts read-only.
    pub fn parse(text: &str) -> (Settings, Vec<String>) {
        Settings::parse_named(text, "the settings file")
    }

    /// [`Settings::parse`], the file named so in what is said (`the settings file PATH`).
    fn parse_named(text: &str, named: &str) -> (Settings, Vec<String>) {
        let closed = |why: String| (Settings::fail_closed(why.clone()), vec![unreadable(why)]);
        let root = match crate::manifest::parse(text) {
            // A second document may say anything (`readonly: true` included): a file that
            // is not one mapping cannot be read as the settings.
            Ok(documents) if documents.len() > 1 => {
                return closed(format!(
                    "{named} holds {} YAML documents, and settings are one",
                    documents.len()
                ));
            }
            Ok(documents) => match documents.into_iter().next() {
                Some(document) => document.root,
                None => return (Settings::default(), Vec::new()),
            },
            Err(e) => return closed(format!("{named} cannot be read ({e})")),
        };
        // Read against the schema: anything else anywhere may hide a read-only asked for.
        let misread = schema::check(&root);
        if let Some(first) = misread.first() {
            let more = match misread.len() {
                1 => String::new(),
                n => format!(" (and {} more)", n - 1),
            };
            let (settings, mut warnings) = closed(format!("{named}, {first}{more}"));
            warnings.extend(misread.iter().skip(1).map(|m| format!("{named}, {m}")));
            return (settings, warnings);
        }
        Settings::read(&root.to_json())
    }

    /// The settings of a file that fits the schema: each value of its kind.
    fn read(root: &Value) -> (Settings, Vec<String>) {
        let mut settings = Settings::default();
        let mut warnings = Vec::new();
        if root.get("readonly") == Some(&Value::Bool(true)) {
            settings.read_only_everywhere = Some("readonly: true in the settings file".into());
        }
        for (name, context) in root
            .get("contexts")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            settings.contexts_named.push(name.clone());
            if context.get("readonly") == Some(&Value::Bool(true)) {
                settings.read_only_contexts.push((
                    name.clone(),
                    format!("contexts.{name}.readonly: true in the settings file"),
                ));
            }
        }
        match root.get("clipboard").and_then(Value::as_str) {
            None | Some("auto") => {}
            Some("osc52") => settings.clipboard = Clipboard::Osc52,
            Some("system") => settings.clipboard = Clipboard::System,
            Some(other) => warnings.push(format!(
                "settings: clipboard \"{}\" is not auto, osc52 or system; using auto",
                crate::domain::inert::line(other)
            )),
        }
        if let Some(path) = root.get("audit-log").and_then(Value::as_str) {
            settings.audit_log = Some(if std::path::Path::new(path).is_absolute() {
                AuditLog::At(PathBuf::from(path))
            } else {
                warnings.push(format!(
                    "the settings file's audit-log \"{path}\" is not an absolute path: nothing \
                     that changes the hub will be sent"
                ));
                AuditLog::NotAbsolute(path.to_owned())
            });
        }
        if root.get("favourites").is_some() && root.get("favorites").is_some() {
            warnings.push(
                "settings: both favourites and favorites are set; favourites is used".to_owned(),
            );
        }
        let favourites = root.get("favourites").or_else(|| root.get("favorites"));
        for name in favourites
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            match crate::domain::rules::names::namespace_problem(name) {
                Some(problem) => warnings.push(format!(
                    "settings: favourite namespace \"{}\" is ignored: {problem}",
                    crate::domain::inert::line(name)
                )),
                None if settings.favourites.iter().any(|f| f == name) => warnings.push(format!(
                    "settings: favourite namespace {name} is listed twice; the first counts"
                )),
                None if settings.favourites.len() >= 9 => warnings.push(format!(
                    "settings: favourite namespace {name} is ignored: 1-9 take the first nine"
                )),
                None => settings.favourites.push(name.to_owned()),
            }
        }
        (settings, warnings)
    }

    /// The user's settings file, read (bounded, regular files only).
    pub fn load() -> (Settings, Vec<String>) {
        let Some(path) = crate::theme::config_path() else {
            return (Settings::default(), Vec::new());
        };
        match crate::files::read_text(&path, crate::files::SMALL_FILE_BYTES) {
            Ok(text) => {
                Settings::parse_named(&text, &format!("the settings file {}", path.display()))
            }
            // A link to nothing (the file's, or its directory's) was meant to be a file: it
            // may ask for read-only.
            Err(crate::files::ReadError::NotFound) if dangling(&path) => {
                let why = format!("the settings file {} is a link to nothing", path.display());
                (Settings::fail_closed(why.clone()), vec![unreadable(why)])
            }
            Err(crate::files::ReadError::NotFound) => (Settings::default(), Vec::new()),
            Err(e) => {
                let why = format!("the settings file {} cannot be read ({e})", path.display());
                (Settings::fail_closed(why.clone()), vec![unreadable(why)])
            }
        }
    }
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
