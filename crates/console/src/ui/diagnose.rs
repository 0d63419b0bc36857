//! A pool's Diagnose tab: the doctor's findings first, one line each, worst first; then each
//! with its evidence, the likely cause and the next steps (and the key that runs its fix).

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use crate::app::shown::DetailData;
use crate::domain::diagnosis::Diagnosis;
use crate::domain::rules::Severity;
use crate::theme::{Meaning, Theme};

fn meaning(severity: Severity) -> Meaning {
    match severity {
        Severity::Error => Meaning::Error,
        Severity::Warning => Meaning::Warn,
        Severity::Info => Meaning::Info,
    }
}

pub(super) fn diagnose<'a>(
    findings: &[Diagnosis],
    derived: Option<&DetailData>,
    hub: &crate::domain::Hub,
    theme: &Theme,
) -> Vec<Line<'a>> {
    let muted = theme.style(Meaning::Muted);
    let mut out = Vec::new();
    let broken = derived.map_or(0, |d| {
        d.findings
            .iter()
            .filter(|f| f.severity() == Severity::Error)
            .count()
    });
    if broken > 0 {
        out.push(Line::styled(
            format!(
                "The spec breaks {} of the reference: the Overview lists them.",
                crate::domain::words::counted(broken, "rule")
            ),
            theme.style(Meaning::Error),
        ));
    }
    if findings.is_empty() {
        out.push(Line::styled(
            "The doctor has nothing to report about this pool.",
            theme.style(Meaning::Ok),
        ));
        out.push(Line::styled(
            "l shows the hue controller's log about it.",
            muted,
        ));
        return out;
    }
    out.push(Line::styled(
        "l shows the hue controller's log about this pool; f runs a fix offered below.",
        muted,
    ));
    for finding in findings {
        out.push(Line::from(vec![
            Span::styled(
                format!("{:<8}", finding.severity.to_string()),
                theme.style(meaning(finding.severity)),
            ),
            Span::raw(finding.summary.clone()),
        ]));
    }
    for finding in findings {
        finding_lines(finding, hub, theme, &mut out);
    }
    out
}

/// One finding whole: its symptom, summary, evidence, cause, next steps (each on this hub)
/// and whether `f` runs its fix.
fn finding_lines(
    finding: &Diagnosis,
    hub: &crate::domain::Hub,
    theme: &Theme,
    out: &mut Vec<Line<'_>>,
) {
    let muted = theme.style(Meaning::Muted);
    out.push(Line::raw(""));
    out.push(Line::from(vec![
        Span::styled(
            format!("{} ", finding.severity),
            theme.style(meaning(finding.severity)),
        ),
        Span::styled(
            finding.symptom.to_owned(),
            theme.style(Meaning::Accent).add_modifier(Modifier::BOLD),
        ),
        Span::styled(format!("  [{}]", finding.id), muted),
    ]));
    out.push(Line::raw(format!("  {}", finding.summary)));
    for (path, value) in &finding.evidence {
        out.push(Line::from(vec![
            Span::styled(format!("  {path}: "), muted),
            Span::raw(value.clone()),
        ]));
    }
    out.push(Line::from(vec![
        Span::styled("  cause: ", muted),
        Span::raw(finding.cause.clone()),
    ]));
    for step in &finding.next {
        out.push(Line::from(vec![
            Span::styled("  next: ", muted),
            // Naming the kubeconfig file and context: pasted, it reaches this hub (a
            // context that cannot be shown faithfully is said, not named wrongly).
            Span::raw(if crate::domain::shell::shown_faithfully(hub) {
                crate::domain::shell::on_hub(step, hub)
            } else {
                format!("{step} ({})", crate::domain::shell::NOT_SHOWN_FAITHFULLY)
            }),
        ]));
    }
    if finding.fix.is_some() {
        out.push(Line::styled(
            "  f runs its fix here, behind a confirmation",
            theme.style(Meaning::Accent),
        ));
    }
}
