//! What `validate` reports: its own rules about the inputs (beside the reference's), and the
//! report's lines.

use serde::Serialize;

use crate::domain::rules::{Basis, Rule, Severity};
use crate::manifest::Position;

pub const INPUT_UNREADABLE: Rule = Rule {
    id: "input.unreadable",
    severity: Severity::Error,
    basis: Basis::Input,
    section: "pooldeck validate",
    summary: "the input could not be read (missing, not text, too large)",
};
pub const INPUT_SYNTAX: Rule = Rule {
    id: "input.yaml",
    severity: Severity::Error,
    basis: Basis::Input,
    section: "pooldeck validate",
    summary: "the input is not valid YAML",
};
pub const NOT_AN_OBJECT: Rule = Rule {
    id: "document.not-an-object",
    severity: Severity::Error,
    basis: Basis::Refused,
    section: "pooldeck validate",
    summary: "a document is not a mapping, so it cannot be a Kubernetes object",
};
pub const KIND_MISSING: Rule = Rule {
    id: "document.kind",
    severity: Severity::Error,
    basis: Basis::Refused,
    section: "Complete ComputePool Example",
    summary: "a document has no kind, so kubectl cannot apply it",
};
pub const SKIPPED: Rule = Rule {
    id: "document.skipped",
    severity: Severity::Info,
    basis: Basis::Note,
    section: "pooldeck validate",
    summary: "a document of another kind was skipped",
};
pub const KIND_NEAR_MISS: Rule = Rule {
    id: "document.kind-near-miss",
    severity: Severity::Error,
    basis: Basis::Refused,
    section: "Complete ComputePool Example",
    summary: "a spectrocloud.com document's kind is a near miss of ComputePool or ScalingPolicy",
};
pub const NO_OLD_MATCH: Rule = Rule {
    id: "update.no-match",
    severity: Severity::Info,
    basis: Basis::Note,
    section: "pooldeck validate",
    summary: "--old was given but holds no pool of this name, so it was validated as a create",
};

pub(super) const INPUT_RULES: &[&Rule] = &[
    &INPUT_UNREADABLE,
    &INPUT_SYNTAX,
    &NOT_AN_OBJECT,
    &KIND_MISSING,
    &SKIPPED,
    &NO_OLD_MATCH,
    &KIND_NEAR_MISS,
];

/// One line of the report.
#[derive(Clone, Debug, Serialize)]
pub struct Entry {
    pub file: String,
    /// 1-based document number in the file; `None` when the file could not be parsed.
    pub document: Option<usize>,
    pub line: u32,
    pub column: u32,
    pub path: String,
    pub severity: Severity,
    pub rule: &'static str,
    pub message: String,
    pub section: &'static str,
    /// The source line the finding points at, for the human excerpt.
    #[serde(skip)]
    pub excerpt: Option<String>,
}

/// What `validate` found in all its inputs.
#[derive(Debug, Default)]
pub struct Report {
    pub entries: Vec<Entry>,
    /// Some input could not be read or parsed (exit status 2).
    pub unreadable: bool,
    pub pools_checked: usize,
    pub policies_checked: usize,
    pub files_read: usize,
}

impl Report {
    pub fn count(&self, severity: Severity) -> usize {
        self.entries
            .iter()
            .filter(|e| e.severity == severity)
            .count()
    }

    pub fn exit_status(&self) -> u8 {
        if self.unreadable {
            2
        } else if self.count(Severity::Error) > 0 {
            1
        } else {
            0
        }
    }

    pub(super) fn problem(
        &mut self,
        rule: &'static Rule,
        file: &str,
        position: Position,
        message: String,
    ) {
        self.entries.push(Entry {
            file: file.to_owned(),
            document: None,
            line: position.line,
            column: position.column,
            path: String::new(),
            severity: rule.severity,
            rule: rule.id,
            message,
            section: rule.section,
            excerpt: None,
        });
    }
}
