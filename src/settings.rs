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
//! ```
//!
//! A missing file is no settings; a broken one is said as a warning and ignored, never fatal.

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
    pub read_only_everywhere: bool,
    pub read_only_contexts: Vec<String>,
    pub clipboard: Clipboard,
    pub audit_log: Option<PathBuf>,
}

impl Settings {
    /// Whether this context is read-only by the settings.
    pub fn read_only(&self, context: &str) -> bool {
        self.read_only_everywhere || self.read_only_contexts.iter().any(|c| c == context)
    }

    /// Reads the settings from the file's text; the warnings say what was ignored.
    pub fn parse(text: &str) -> (Settings, Vec<String>) {
        let mut settings = Settings::default();
        let mut warnings = Vec::new();
        let root = match crate::manifest::parse(text) {
            Ok(documents) => documents
                .first()
                .map(|d| d.root.to_json())
                .unwrap_or(Value::Null),
            Err(e) => {
                return (
                    settings,
                    vec![format!(
                        "the settings file cannot be read ({e}); its settings are ignored"
                    )],
                );
            }
        };
        match root.get("readonly") {
            None => {}
            Some(Value::Bool(b)) => settings.read_only_everywhere = *b,
            Some(other) => warnings.push(format!(
                "settings: readonly is {other}; it takes true or false"
            )),
        }
        if let Some(contexts) = root.get("contexts").and_then(Value::as_object) {
            for (name, context) in contexts {
                match context.get("readonly") {
                    Some(Value::Bool(true)) => settings.read_only_contexts.push(name.clone()),
                    Some(Value::Bool(false)) | None => {}
                    Some(other) => warnings.push(format!(
                        "settings: contexts.{name}.readonly is {other}; it takes true or false"
                    )),
                }
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
        if let Some(path) = root.get("audit-log").and_then(Value::as_str) {
            settings.audit_log = Some(PathBuf::from(path));
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
            Err(e) => (
                Settings::default(),
                vec![format!(
                    "the settings file {} cannot be read ({e}); its settings are ignored",
                    path.display()
                )],
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_only_per_context_or_everywhere_and_bad_values_warn() {
        let (settings, warnings) = Settings::parse(
            "theme: light\ncontexts:\n  prod-hub:\n    readonly: true\n  lab:\n    readonly: 'yes'\nclipboard: osc52\n",
        );
        assert!(settings.read_only("prod-hub"));
        assert!(!settings.read_only("lab"));
        assert_eq!(settings.clipboard, Clipboard::Osc52);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("contexts.lab.readonly"));
        let (settings, _) = Settings::parse("readonly: true\n");
        assert!(settings.read_only("anything"));
        let (settings, warnings) = Settings::parse("readonly: [\n");
        assert_eq!(settings, Settings::default());
        assert!(warnings[0].contains("ignored"));
    }
}
