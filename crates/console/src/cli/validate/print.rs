//! How `validate` prints its report: for people (grouped by file, with the line each finding
//! points at, coloured on a terminal), as JSON for CI, and the catalogue of rules.

use std::io::Write;

use crossterm::style::Stylize;
use serde::Serialize;

use super::report::{Entry, INPUT_RULES, INPUT_UNREADABLE, Report};
use crate::domain::inert;
use crate::domain::model::pool::{API_VERSION, KIND};
use crate::domain::rules::{self, Severity};

#[derive(Serialize)]
struct JsonReport<'r> {
    findings: &'r [Entry],
}

pub fn print_json(report: &Report, out: &mut impl Write) -> std::io::Result<()> {
    let text = serde_json::to_string_pretty(&JsonReport {
        findings: &report.entries,
    })
    .map_err(std::io::Error::other)?;
    // Faithful JSON; what it would leave raw for a terminal (bidi controls, C1) escaped.
    writeln!(out, "{}", crate::domain::inert::json(&text))
}

pub fn print_human(report: &Report, color: bool, out: &mut impl Write) -> std::io::Result<()> {
    for entry in &report.entries {
        print_entry(entry, color, out)?;
    }
    print_summary(report, out)
}

/// One finding: where, how severe, which rule, the message; then the line it is on with a
/// caret under the column, when the file has one.
fn print_entry(entry: &Entry, color: bool, out: &mut impl Write) -> std::io::Result<()> {
    let severity = match (entry.severity, color) {
        (Severity::Error, true) => "error".red().bold().to_string(),
        (Severity::Warning, true) => "warning".yellow().bold().to_string(),
        (Severity::Info, true) => "info".cyan().to_string(),
        (s, false) => s.to_string(),
    };
    // The file's name, the message (it may quote the manifest) and the excerpt are the
    // input's text: inert before the terminal sees them.
    let file = inert::line(&entry.file);
    let location = if entry.line > 0 {
        format!("{file}:{}:{}", entry.line, entry.column)
    } else {
        file.into_owned()
    };
    let rule = format!("[{}]", entry.rule);
    let rule = if color {
        rule.dark_grey().to_string()
    } else {
        rule
    };
    let path = inert::line(&entry.path);
    let path = if path.is_empty() {
        String::new()
    } else if color {
        format!("{}: ", path.as_ref().bold())
    } else {
        format!("{path}: ")
    };
    // One finding, one line: a line break the file put in a key stays visible.
    writeln!(
        out,
        "{location}: {severity}{rule} {path}{}",
        inert::line(&entry.message)
    )?;
    if let Some(raw) = &entry.excerpt {
        let number = entry.line.to_string();
        let gutter = " ".repeat(number.len());
        let line = inert::line(raw);
        // The caret stands under the column as shown (an escaped character is wider).
        let before: String = raw
            .chars()
            .take(entry.column.saturating_sub(1) as usize)
            .collect();
        let caret_at = " ".repeat(inert::line(&before).chars().count());
        let caret = if color {
            "^".red().bold().to_string()
        } else {
            "^".into()
        };
        writeln!(out, "  {number} | {line}")?;
        writeln!(out, "  {gutter} | {caret_at}{caret}")?;
    }
    Ok(())
}

/// The last line: what was checked in how many files, and the findings counted.
fn print_summary(report: &Report, out: &mut impl Write) -> std::io::Result<()> {
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let unread = report
        .entries
        .iter()
        .filter(|e| e.rule == INPUT_UNREADABLE.id)
        .count();
    let files = if unread > 0 {
        format!(
            "{}; {} more could not be read",
            plural(report.files_read, "file"),
            unread
        )
    } else {
        plural(report.files_read, "file")
    };
    let checked = if report.policies_checked > 0 {
        format!(
            "{} and {}",
            plural(report.pools_checked, "ComputePool"),
            if report.policies_checked == 1 {
                "1 ScalingPolicy".to_owned()
            } else {
                format!("{} ScalingPolicies", report.policies_checked)
            }
        )
    } else {
        plural(report.pools_checked, "ComputePool")
    };
    writeln!(
        out,
        "{} in {}: {}, {}, {}",
        checked,
        files,
        plural(report.count(Severity::Error), "error"),
        plural(report.count(Severity::Warning), "warning"),
        plural(report.count(Severity::Info), "note"),
    )
}

pub(super) fn print_rules(out: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "{:<32} {:<8} {:<26} {:<32} SUMMARY",
        "RULE", "SEVERITY", "WHY THAT SEVERITY", "SECTION"
    )?;
    for rule in rules::catalogue()
        .into_iter()
        .chain(rules::scaling_policy::RULES.iter().copied())
        .chain(crate::domain::quota::RULES.iter().copied())
        .chain(crate::domain::hosts::RULES.iter().copied())
        .chain(crate::domain::exists::RULES.iter().copied())
        .chain(INPUT_RULES.iter().copied())
    {
        writeln!(
            out,
            "{:<32} {:<8} {:<26} {:<32} {}",
            rule.id,
            rule.severity.to_string(),
            rule.basis.why(),
            rule.section,
            rule.summary
        )?;
    }
    writeln!(
        out,
        "\nAn error is what the API refuses, what keeps the pool from working or what exposes a \
         secret; a warning is accepted and may be deliberate, but looks wrong. quota.*, hosts.*, \
         reference.exists, reference.unchecked and policy.name-taken need a cluster: the wizard and the console check them.\n\
         ComputePools are {API_VERSION}, kind {KIND}."
    )
}
