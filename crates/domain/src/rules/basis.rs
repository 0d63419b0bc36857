//! Why a rule has its severity, said with it by `validate --list-rules`.

use serde::Serialize;

use super::Severity;

/// Why a rule has its severity. An error is only what the API refuses, what certainly keeps
/// the pool from working, or what exposes a secret; a figure the API accepts and that may be
/// deliberate is a warning that says why it looks wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Basis {
    /// The input cannot be read as a manifest at all.
    Input,
    /// The API server (or kubectl) refuses the object.
    Refused,
    /// Accepted, but the pool cannot work as written.
    Breaks,
    /// Accepted, but it puts a secret where others read it.
    Secret,
    /// Accepted and it may work, but it looks like a mistake.
    Suspect,
    /// Worth knowing; nothing is wrong.
    Note,
}

impl Basis {
    /// The severity this basis gives a rule.
    pub fn severity(self) -> Severity {
        match self {
            Basis::Input | Basis::Refused | Basis::Breaks | Basis::Secret => Severity::Error,
            Basis::Suspect => Severity::Warning,
            Basis::Note => Severity::Info,
        }
    }

    /// The reason, as `validate --list-rules` gives it.
    pub fn why(self) -> &'static str {
        match self {
            Basis::Input => "the input cannot be read",
            Basis::Refused => "the API refuses it",
            Basis::Breaks => "the pool cannot work so",
            Basis::Secret => "it exposes a secret",
            Basis::Suspect => "accepted; looks wrong",
            Basis::Note => "for information",
        }
    }
}
