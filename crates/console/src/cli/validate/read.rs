//! How `validate` reads its inputs: each text parsed into documents (a text that cannot be
//! read or parsed is reported, and the others are still checked), the ComputePools found in
//! them with where they came from, and the line a finding points at.

use super::report::{
    Entry, INPUT_SYNTAX, INPUT_UNREADABLE, KIND_MISSING, KIND_NEAR_MISS, NOT_AN_OBJECT, Report,
    SKIPPED,
};
use crate::cli::inputs::Input;
use crate::domain::model::pool::KIND;
use crate::domain::model::{ComputePool, read_owned};
use crate::domain::rules::{self, Rule};
use crate::manifest::{self, Object, Position};
/// A parsed input: its text and documents.
pub(super) struct Parsed<'i> {
    pub(super) input: &'i Input,
    pub(super) text: &'i str,
    /// Where each line starts, so a finding's excerpt is found without scanning the text.
    pub(super) lines: Vec<usize>,
    pub(super) documents: Vec<manifest::Document>,
}

pub(super) fn parse_inputs<'i>(inputs: &'i [Input], report: &mut Report) -> Vec<Parsed<'i>> {
    let mut parsed = Vec::new();
    for input in inputs {
        report.files_read += 1;
        let text = match manifest::decode(&input.bytes) {
            Ok(text) => text,
            Err(e) => {
                report.unreadable = true;
                report.problem(&INPUT_UNREADABLE, &input.name, e.position, e.message);
                continue;
            }
        };
        match manifest::parse(text) {
            Ok(documents) => parsed.push(Parsed {
                input,
                text,
                lines: line_starts(text),
                documents,
            }),
            Err(e) => {
                report.unreadable = true;
                report.problem(&INPUT_SYNTAX, &input.name, e.position, e.message);
                if let Some(entry) = report.entries.last_mut() {
                    entry.excerpt = excerpt(text, &line_starts(text), e.position);
                }
            }
        }
    }
    parsed
}

/// A ComputePool found in the inputs, with where it came from.
pub(super) struct Found<'p> {
    pub(super) object: Object<'p>,
    pub(super) file: &'p str,
    pub(super) text: &'p str,
    pub(super) lines: &'p [usize],
    pub(super) identity: Option<(std::path::PathBuf, usize, String)>,
    pub(super) pool: ComputePool,
    pub(super) issues: Vec<crate::domain::field::Issue>,
}

/// Collects the ComputePools of parsed inputs. When `report_others` is set, documents of other
/// kinds and malformed documents are reported (for the inputs being validated).
pub(super) fn pools_of<'p>(
    parsed: &'p [Parsed<'p>],
    report: &mut Report,
    report_others: bool,
) -> Vec<Found<'p>> {
    let mut found = Vec::new();
    for p in parsed {
        for document in &p.documents {
            for mut object in document.objects() {
                if skipped(p, document, &object, report, report_others) {
                    continue;
                }
                let Ok((pool, issues)) =
                    read_owned::<ComputePool>(std::mem::take(&mut object.value))
                else {
                    continue;
                };
                let identity = p
                    .input
                    .identity
                    .clone()
                    .map(|path| (path, document.index, object.base.to_string()));
                found.push(Found {
                    object,
                    file: &p.input.name,
                    text: p.text,
                    lines: &p.lines,
                    identity,
                    pool,
                    issues,
                });
            }
        }
    }
    found
}

/// Whether a document's object is no pool to check: said (when others are reported) as not
/// an object, a ScalingPolicy checked by its own rules, a kind near PaletteAI's, a missing
/// kind, or another kind skipped.
fn skipped(
    p: &Parsed<'_>,
    document: &manifest::Document,
    object: &Object<'_>,
    report: &mut Report,
    report_others: bool,
) -> bool {
    let entry = |rule: &'static Rule, message: String| entry_at(p, document, object, rule, message);
    if !object.value.is_object() {
        if report_others {
            report.unreadable = true;
            report.entries.push(entry(
                &NOT_AN_OBJECT,
                format!(
                    "this document is {}, not a Kubernetes object",
                    crate::domain::field::describe_value(&object.value)
                ),
            ));
        }
        return true;
    }
    let spectro = object
        .api_version()
        .is_none_or(|v| v.starts_with("spectrocloud.com/"));
    match object.kind() {
        Some(KIND) => false,
        Some("ScalingPolicy") if spectro => {
            if report_others {
                policy_entries(p, document, object, report);
            }
            true
        }
        Some(kind) if spectro && rules::near_miss_kind(kind).is_some() => {
            if report_others {
                report.entries.push(near_miss(p, document, object, kind));
            }
            true
        }
        None if object
            .api_version()
            .is_none_or(|v| v.starts_with("spectrocloud.com/")) =>
        {
            if report_others {
                report.entries.push(entry(
                    &KIND_MISSING,
                    "this document has no kind; kubectl cannot apply it (write kind: ComputePool)"
                        .into(),
                ));
            }
            true
        }
        kind => {
            if report_others {
                report.entries.push(entry(
                    &SKIPPED,
                    format!(
                        "{} is not a ComputePool; skipped",
                        kind.unwrap_or("this object")
                    ),
                ));
            }
            true
        }
    }
}

/// A finding about the whole object, at its first line.
fn entry_at(
    p: &Parsed<'_>,
    document: &manifest::Document,
    object: &Object<'_>,
    rule: &'static Rule,
    message: String,
) -> Entry {
    let position = object.locate(&crate::domain::path::YamlPath::root());
    Entry {
        file: p.input.name.clone(),
        document: Some(document.index),
        line: position.line,
        column: position.column,
        path: object.base.to_string().replace("(document)", ""),
        severity: rule.severity,
        rule: rule.id,
        message,
        section: rule.section,
        excerpt: excerpt(p.text, &p.lines, position),
    }
}

/// A kind near one PaletteAI serves, said where the mistake is: at `kind`, its line and
/// column.
fn near_miss(
    p: &Parsed<'_>,
    document: &manifest::Document,
    object: &Object<'_>,
    kind: &str,
) -> Entry {
    let meant = rules::near_miss_kind(kind).unwrap_or(KIND);
    // Said where the mistake is: at `kind`, its line and column.
    let at = crate::domain::path::YamlPath::keys("kind");
    let position = object.locate(&at);
    Entry {
        line: position.line,
        column: position.column,
        path: object.base.append(&at).to_string(),
        excerpt: excerpt(p.text, &p.lines, position),
        ..entry_at(
            p,
            document,
            object,
            &KIND_NEAR_MISS,
            format!(
                "kind {kind} is not a kind PaletteAI serves; did you mean {meant}? (nothing was checked in this document)"
            ),
        )
    }
}

/// A ScalingPolicy checked by its own rules, each finding at its line in the file.
fn policy_entries(
    p: &Parsed<'_>,
    document: &manifest::Document,
    object: &Object<'_>,
    report: &mut Report,
) {
    report.policies_checked += 1;
    for finding in rules::scaling_policy::validate(&object.value) {
        let position = object.locate(&finding.path);
        report.entries.push(Entry {
            file: p.input.name.clone(),
            document: Some(document.index),
            line: position.line,
            column: position.column,
            path: object.base.append(&finding.path).to_string(),
            severity: finding.rule.severity,
            rule: finding.rule.id,
            message: finding.message,
            section: finding.rule.section,
            excerpt: excerpt(p.text, &p.lines, position),
        });
    }
}

/// Where each line of a text starts.
pub(super) fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

/// The line a position points at (its first 200 characters), found through the line starts:
/// a file with thousands of findings is not scanned once per finding.
pub(super) fn excerpt(text: &str, lines: &[usize], position: Position) -> Option<String> {
    if !position.is_known() {
        return None;
    }
    let start = *lines.get((position.line as usize).saturating_sub(1))?;
    let line = text.get(start..)?.lines().next().unwrap_or("");
    Some(line.chars().take(200).collect())
}
