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
//! A missing file is no settings. A file that cannot be read, or does not parse (a duplicate
//! key included), or a `readonly` that is not a YAML boolean (`ture`, `"true"`, `1`) fails
//! closed: read-only was maybe asked for and cannot be told, so the contexts it may concern
//! (every context, or the one whose entry is broken) are read-only, and the header and the
//! CLI verbs say why. Nothing else in the file is fatal: a bad clipboard value is a warning.

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

/// What the settings file says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// Read-only for every context, and why (`readonly: true`, or a file that could not be
    /// read).
    pub read_only_everywhere: Option<String>,
    /// Read-only contexts, each with why.
    pub read_only_contexts: Vec<(String, String)>,
    pub clipboard: Clipboard,
    /// `audit-log:`: an absolute path, or why the value cannot be one (then nothing that
    /// changes the hub is sent: the record asked for cannot be written where it was asked).
    pub audit_log: Option<Result<PathBuf, String>>,
    /// `favourites:` (or `favorites:`): the namespaces the console's `1`-`9` watch, in order.
    pub favourites: Vec<String>,
}

/// The settings the file may hold (the theme's is read by `theme`).
const KNOWN: [&str; 7] = [
    "theme",
    "readonly",
    "contexts",
    "clipboard",
    "audit-log",
    "favourites",
    "favorites",
];

/// Why everything is read-only when the file cannot be told apart from one that asks it.
fn unreadable(what: String) -> String {
    format!("{what}; read-only until it is fixed, since it may ask for read-only")
}

impl Settings {
    /// Whether this context is read-only by the settings.
    pub fn read_only(&self, context: &str) -> bool {
        self.why_read_only(context).is_some()
    }

    /// Why this context is read-only by the settings, if it is.
    pub fn why_read_only(&self, context: &str) -> Option<String> {
        self.read_only_everywhere.clone().or_else(|| {
            self.read_only_contexts
                .iter()
                .find(|(c, _)| c == context)
                .map(|(_, why)| why.clone())
        })
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
        let mut settings = Settings::default();
        let mut warnings = Vec::new();
        let root = match crate::manifest::parse(text) {
            // A second document may say anything (`readonly: true` included): a file that
            // is not one mapping cannot be read as the settings.
            Ok(documents) if documents.len() > 1 => {
                let why = format!(
                    "the settings file holds {} YAML documents, and settings are one",
                    documents.len()
                );
                return (Settings::fail_closed(why.clone()), vec![unreadable(why)]);
            }
            Ok(documents) => documents
                .first()
                .map(|d| d.root.to_json())
                .unwrap_or(Value::Null),
            Err(e) => {
                let why = unreadable(format!("the settings file cannot be read ({e})"));
                return (
                    Settings::fail_closed(format!("the settings file cannot be read ({e})")),
                    vec![why],
                );
            }
        };
        if !root.is_object() && !root.is_null() {
            let why = "the settings file is not a mapping of settings".to_owned();
            return (Settings::fail_closed(why.clone()), vec![unreadable(why)]);
        }
        // A key that reads as readonly but is not it (readOnly, read-only, read_only) may
        // have asked for read-only: it is taken as asking, and said.
        let near_miss = |key: &str| {
            key != "readonly"
                && key
                    .chars()
                    .filter(|c| c.is_alphanumeric())
                    .collect::<String>()
                    .eq_ignore_ascii_case("readonly")
        };
        if let Some(map) = root.as_object() {
            for key in map.keys() {
                if near_miss(key) {
                    let why = unreadable(format!("settings: {key} is not a setting (readonly is)"));
                    warnings.push(why.clone());
                    settings.read_only_everywhere.get_or_insert(why);
                } else if !KNOWN.contains(&key.as_str()) {
                    warnings.push(format!(
                        "settings: {key} is not a setting pooldeck knows ({}); ignored",
                        KNOWN.join(", ")
                    ));
                }
            }
        }
        match root.get("readonly") {
            None | Some(Value::Bool(false)) => {}
            Some(Value::Bool(true)) => {
                settings.read_only_everywhere = Some("readonly: true in the settings file".into())
            }
            Some(other) => {
                let why = unreadable(format!("settings: readonly is {other}, not true or false"));
                warnings.push(why.clone());
                settings.read_only_everywhere = Some(why);
            }
        }
        match root.get("contexts") {
            None | Some(Value::Null) => {}
            Some(Value::Object(contexts)) => {
                for (name, context) in contexts {
                    if let Value::Object(entry) = context
                        && let Some(key) = entry.keys().find(|k| near_miss(k))
                    {
                        let why = unreadable(format!(
                            "settings: contexts.{name}.{key} is not a setting (readonly is)"
                        ));
                        warnings.push(why.clone());
                        settings.read_only_contexts.push((name.clone(), why));
                        continue;
                    }
                    let value = match context {
                        Value::Object(entry) => entry.get("readonly"),
                        Value::Null => None,
                        other => Some(other),
                    };
                    match value {
                        Some(Value::Bool(true)) => settings.read_only_contexts.push((
                            name.clone(),
                            format!("contexts.{name}.readonly: true in the settings file"),
                        )),
                        Some(Value::Bool(false)) | None => {}
                        Some(other) => {
                            let why = unreadable(format!(
                                "settings: contexts.{name}.readonly is {other}, not true or false"
                            ));
                            warnings.push(why.clone());
                            settings.read_only_contexts.push((name.clone(), why));
                        }
                    }
                }
            }
            Some(other) => {
                let why = unreadable(format!(
                    "settings: contexts is {other}, not a mapping of context names"
                ));
                warnings.push(why.clone());
                settings.read_only_everywhere.get_or_insert(why);
            }
        }
        match root.get("clipboard").and_then(Value::as_str) {
            None | Some("auto") => {}
            Some("osc52") => settings.clipboard = Clipboard::Osc52,
            Some("system") => settings.clipboard = Clipboard::System,
            Some(other) => warnings.push(format!(
                "settings: clipboard \"{other}\" is not auto, osc52 or system; using auto"
            )),
        }
        match root.get("audit-log") {
            None => {}
            Some(Value::String(path)) if std::path::Path::new(path).is_absolute() => {
                settings.audit_log = Some(Ok(PathBuf::from(path)));
            }
            Some(other) => {
                let why = format!("the settings file's audit-log is {other}, not an absolute path");
                warnings.push(format!("{why}: nothing that changes the hub will be sent"));
                settings.audit_log = Some(Err(why));
            }
        }
        if root.get("favourites").is_some() && root.get("favorites").is_some() {
            warnings.push(
                "settings: both favourites and favorites are set; favourites is used".to_owned(),
            );
        }
        let favourites = root.get("favourites").or_else(|| root.get("favorites"));
        match favourites {
            None | Some(Value::Null) => {}
            Some(Value::Array(names)) => {
                for name in names {
                    match name.as_str() {
                        Some(name) => match crate::domain::rules::names::namespace_problem(name) {
                            Some(problem) => warnings.push(format!(
                                "settings: favourite namespace \"{}\" is ignored: {problem}",
                                crate::domain::inert::line(name)
                            )),
                            None if settings.favourites.iter().any(|f| f == name) => {
                                warnings.push(format!(
                                    "settings: favourite namespace {name} is listed twice; the \
                                     first counts"
                                ))
                            }
                            None if settings.favourites.len() >= 9 => warnings.push(format!(
                                "settings: favourite namespace {name} is ignored: 1-9 take the \
                                 first nine"
                            )),
                            None => settings.favourites.push(name.to_owned()),
                        },
                        None => warnings.push(format!(
                            "settings: favourite namespace {name} is ignored: not a name"
                        )),
                    }
                }
            }
            Some(other) => warnings.push(format!(
                "settings: favourites is {other}, not a list of namespaces; ignored"
            )),
        }
        (settings, warnings)
    }

    /// The user's settings file, read (bounded, regular files only).
    pub fn load() -> (Settings, Vec<String>) {
        let Some(path) = crate::theme::config_path() else {
            return (Settings::default(), Vec::new());
        };
        match crate::files::read_text(&path, crate::files::SMALL_FILE_BYTES) {
            Ok(text) => Settings::parse(&text),
            Err(crate::files::ReadError::NotFound) => (Settings::default(), Vec::new()),
            Err(e) => {
                let why = format!("the settings file {} cannot be read ({e})", path.display());
                (Settings::fail_closed(why.clone()), vec![unreadable(why)])
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_only_per_context_or_everywhere() {
        let (settings, warnings) = Settings::parse(
            "theme: light\ncontexts:\n  prod-hub:\n    readonly: true\n  lab:\n    readonly: false\nclipboard: osc52\n",
        );
        assert!(settings.read_only("prod-hub"));
        assert!(!settings.read_only("lab"));
        assert!(!settings.read_only("other"));
        assert_eq!(settings.clipboard, Clipboard::Osc52);
        assert!(warnings.is_empty(), "{warnings:?}");
        let (settings, _) = Settings::parse("readonly: true\n");
        assert!(settings.read_only("anything"));
        let (settings, _) = Settings::parse("readonly: false\n");
        assert!(!settings.read_only("anything"));
        let (settings, warnings) = Settings::parse("clipboard: fax\n");
        assert!(!settings.read_only("anything"));
        assert_eq!(warnings.len(), 1, "{warnings:?}");
    }

    /// `favourites:` lists the namespaces `1`-`9` watch; a name the API server would refuse,
    /// a tenth, or a value that is not a list is said and ignored, never fatal.
    #[test]
    fn favourite_namespaces() {
        let (settings, warnings) = Settings::parse("favourites: [ml-research, retail-edge]\n");
        assert_eq!(settings.favourites, ["ml-research", "retail-edge"]);
        assert!(warnings.is_empty(), "{warnings:?}");
        let (settings, _) = Settings::parse("favorites:\n  - lab\n");
        assert_eq!(settings.favourites, ["lab"], "the American spelling too");
        let (settings, warnings) =
            Settings::parse("favourites: [Bad_NS, ok, 7, a, b, c, d, e, f, g, h, i]\n");
        assert_eq!(
            settings.favourites,
            ["ok", "a", "b", "c", "d", "e", "f", "g", "h"]
        );
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        assert!(!settings.read_only("any"), "not a reason for read-only");
        let (settings, warnings) = Settings::parse("favourites: ml-research\n");
        assert!(settings.favourites.is_empty());
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        // Listed twice, or under both spellings: said, the first counts.
        let (settings, warnings) = Settings::parse("favourites: [a, b, a]\nfavorites: [c]\n");
        assert_eq!(settings.favourites, ["a", "b"]);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
    }

    /// Whatever asked for read-only and cannot be read means read-only, and says why.
    #[test]
    fn settings_that_cannot_be_read_fail_closed() {
        for text in [
            "readonly: true\nreadonly: true\n",
            "readonly: ture\n",
            "readonly: \"true\"\n",
            "readonly: 1\n",
            "readonly: [\n",
            "- readonly\n",
            "contexts: [prod]\n",
            "readOnly: true\n",
            "read-only: false\n",
            "readonly: false\n---\nreadonly: true\n",
            "readonly: false\n...\nreadonly: true\n",
            "read_only: yes\n",
        ] {
            let (settings, warnings) = Settings::parse(text);
            let why = settings.why_read_only("prod-hub");
            assert!(why.is_some(), "{text:?} must make every context read-only");
            assert!(
                why.as_deref()
                    .is_some_and(|w| w.contains("read-only until it is fixed")),
                "{text:?}: {why:?}"
            );
            assert!(!warnings.is_empty(), "{text:?} must be said");
        }
        let (settings, warnings) = Settings::parse(
            "contexts:\n  prod:\n    readonly: 'yes'\n  lab:\n    readonly: false\n",
        );
        assert!(
            settings.read_only("prod"),
            "a broken entry makes its context read-only"
        );
        assert!(!settings.read_only("lab"), "and only that context");
        assert!(warnings[0].contains("contexts.prod.readonly"));
        let (settings, _) = Settings::parse("contexts:\n  prod: yes-please\n");
        assert!(settings.read_only("prod"));
        let (settings, warnings) = Settings::parse("contexts:\n  prod:\n    readOnly: true\n");
        assert!(settings.read_only("prod"), "{warnings:?}");
        assert!(!settings.read_only("lab"));
        let (settings, warnings) = Settings::parse("colour: blue\n");
        assert!(
            !settings.read_only("any"),
            "an unknown key that is not readonly warns only"
        );
        assert!(
            warnings[0].contains("colour is not a setting"),
            "{warnings:?}"
        );
        for text in [
            "audit-log: false\n",
            "audit-log: relative/audit.log\n",
            "audit-log: [a]\n",
        ] {
            let (settings, warnings) = Settings::parse(text);
            assert!(
                matches!(settings.audit_log, Some(Err(_))),
                "{text:?}: an audit log asked for and unusable holds actions back"
            );
            assert!(!warnings.is_empty(), "{text:?}");
        }
        let closed = Settings::fail_closed("the settings file x cannot be read (a FIFO)".into());
        assert!(closed.read_only("any"));
    }
}
