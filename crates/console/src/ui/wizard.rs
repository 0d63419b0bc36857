//! The wizard on screen: the steps on the left with the errors and warnings each holds, the
//! current step's fields on the right with their findings under them, the field under the
//! cursor highlighted (and the text being typed, with a cursor); Review shows every finding,
//! the dry run's answer and the manifest. Reads the state only.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::app::wizard::{Editor, Line as WizardLine, Offered, Purpose, Wizard};
use crate::domain::draft::{Group, Step};
use crate::domain::rules::{Finding, Severity};
use crate::theme::{Meaning, Theme};

fn finding_line(finding: &Finding, indent: usize, theme: &Theme) -> Line<'static> {
    let (word, meaning) = match finding.rule.severity {
        Severity::Error => ("error", Meaning::Error),
        Severity::Warning => ("warning", Meaning::Warn),
        Severity::Info => ("note", Meaning::Info),
    };
    Line::from(vec![
        Span::raw(" ".repeat(indent)),
        Span::styled(format!("{word}: "), theme.style(meaning)),
        Span::raw(finding.message.clone()),
    ])
}

/// One line of the text being typed, with the cursor drawn where it is on that line.
fn with_cursor(editor: &Editor, row: usize) -> String {
    let text = editor.lines().get(row).map(String::as_str).unwrap_or("");
    let (at_row, at_column) = editor.cursor();
    if row != at_row {
        return text.to_owned();
    }
    let split = text
        .char_indices()
        .nth(at_column)
        .map_or(text.len(), |(i, _)| i);
    format!("{}▏{}", &text[..split], &text[split..])
}

fn steps(wizard: &Wizard, theme: &Theme) -> Vec<Line<'static>> {
    Step::ALL
        .iter()
        .map(|step| {
            let errors = wizard.count(*step, Severity::Error);
            let warnings = wizard.count(*step, Severity::Warning);
            let mut spans = vec![Span::styled(
                format!(
                    "{} {}",
                    if *step == wizard.step { "›" } else { " " },
                    step.title()
                ),
                if *step == wizard.step {
                    theme.style(Meaning::Accent).add_modifier(Modifier::BOLD)
                } else {
                    theme.style(Meaning::Text)
                },
            )];
            if *step != Step::Review && errors > 0 {
                spans.push(Span::styled(
                    format!(" ✘{errors}"),
                    theme.style(Meaning::Error),
                ));
            }
            if *step != Step::Review && warnings > 0 {
                spans.push(Span::styled(
                    format!(" !{warnings}"),
                    theme.style(Meaning::Warn),
                ));
            }
            Line::from(spans)
        })
        .collect()
}

/// The fields of a step, with where the cursor's field starts and ends (its line, then its
/// choices, notes and findings).
fn fields(
    wizard: &Wizard,
    theme: &Theme,
    width: usize,
) -> (Vec<Line<'static>>, std::ops::Range<usize>) {
    let mut out = Vec::new();
    let mut cursor_at = 0;
    let mut cursor_end = 0;
    let mut entry = None;
    for (i, line) in wizard.lines().iter().enumerate() {
        if line.spec.repeats() && entry != Some((line.spec.group, line.worker)) {
            entry = Some((line.spec.group, line.worker));
            let heading = match line.spec.group {
                Group::PolicyGpu => "Policy GPU entry",
                _ => "Worker pool",
            };
            out.push(Line::styled(
                format!("{heading} {}", line.worker + 1),
                theme.style(Meaning::Muted).add_modifier(Modifier::BOLD),
            ));
        }
        let selected = i == wizard.cursor;
        if selected {
            cursor_at = out.len();
        }
        let editor = wizard.editing.as_ref().filter(|_| selected);
        let value = match editor {
            Some(editor) if !editor.multi_line() => with_cursor(editor, 0),
            Some(_) => "(typing below: Ctrl-S keeps, Esc drops)".to_owned(),
            None => wizard.shown(line),
        };
        out.push(field_line(wizard, line, value, selected, theme, width));
        if let Some(editor) = editor.filter(|e| e.multi_line()) {
            for row in 0..editor.lines().len() {
                out.push(Line::styled(
                    format!("    {}", with_cursor(editor, row)),
                    Style::new().add_modifier(Modifier::REVERSED),
                ));
            }
        }
        if selected && let Some(names) = wizard.choices(line) {
            out.push(offered_line(names, &wizard.free, line, theme));
        }
        if selected && let Some(groups) = groups_line(wizard, line, theme) {
            out.push(groups);
        }
        if selected && let Some(why) = wizard.locked(line) {
            out.push(Line::styled(
                format!("    {why}"),
                theme.style(Meaning::Muted),
            ));
        }
        for finding in wizard.findings_at(line) {
            out.push(finding_line(finding, 4, theme));
        }
        if selected {
            cursor_end = out.len();
        }
    }
    if wizard.step == Step::NodeConfig && wizard.draft.worker_pools() == 0 {
        out.push(Line::styled(
            "No worker pool yet: a adds one",
            theme.style(Meaning::Muted),
        ));
    }
    for finding in wizard.unplaced() {
        out.push(finding_line(finding, 0, theme));
    }
    if wizard.step == Step::General
        && let Some(line) = kept_line(wizard, theme)
    {
        out.push(Line::raw(""));
        out.push(line);
    }
    (out, cursor_at..cursor_end)
}

/// What no field shows, named: written back as it is.
fn kept_line(wizard: &Wizard, theme: &Theme) -> Option<Line<'static>> {
    (!wizard.kept.is_empty()).then(|| {
        Line::styled(
            format!(
                "Kept as written (no field here): {}",
                wizard.kept.join(", ")
            ),
            theme.style(Meaning::Muted),
        )
    })
}

fn review(wizard: &Wizard, theme: &Theme) -> Vec<Line<'static>> {
    let mut out = vec![Line::styled(
        format!(
            "{}, {}{}",
            crate::domain::words::counted(wizard.errors(), "error"),
            crate::domain::words::counted(
                wizard
                    .findings
                    .iter()
                    .filter(|f| f.rule.severity == Severity::Warning)
                    .count(),
                "warning"
            ),
            if wizard.errors() > 0 {
                ": the pool cannot be applied until the errors are fixed"
            } else {
                ""
            }
        ),
        theme.style(Meaning::Muted).add_modifier(Modifier::BOLD),
    )];
    for finding in &wizard.findings {
        let mut line = finding_line(finding, 0, theme);
        line.spans
            .insert(0, Span::raw(format!("{}  ", finding.path)));
        out.push(line);
    }
    if let Some(line) = kept_line(wizard, theme) {
        out.push(line);
    }
    if !wizard.picture.is_empty() {
        out.push(Line::raw(""));
        for line in &wizard.picture {
            out.push(Line::styled(line.clone(), theme.style(Meaning::Text)));
        }
    }
    if let Some(answer) = &wizard.dry_run {
        out.push(Line::raw(""));
        out.push(Line::from(vec![
            Span::styled(
                "Dry run: ",
                theme.style(Meaning::Muted).add_modifier(Modifier::BOLD),
            ),
            Span::raw(answer.text()),
        ]));
    }
    out.push(Line::raw(""));
    for line in wizard.yaml.lines() {
        out.push(Line::styled(line.to_owned(), theme.style(Meaning::Text)));
    }
    out
}

/// `on`: the hub the wizard writes to, named in its title when the console watches several.
pub fn render(wizard: &Wizard, on: Option<&str>, theme: &Theme, frame: &mut Frame, area: Rect) {
    frame.render_widget(Clear, area);
    let title = match &wizard.purpose {
        Purpose::Create => format!(" New Compute Pool in {} ", wizard.draft.namespace()),
        Purpose::Edit { old } | Purpose::Recreate { old } => format!(
            " {} Compute Pool {}/{} ",
            if matches!(wizard.purpose, Purpose::Edit { .. }) {
                "Edit"
            } else {
                "Recreate"
            },
            old.namespace().unwrap_or(""),
            old.name()
        ),
    };
    let title = match on {
        Some(hub) => format!("{} on hub {hub} ", title.trim_end()),
        None => title,
    };
    let block = Block::default().borders(Borders::ALL).title(Span::styled(
        crate::domain::inert::line(&title).into_owned(),
        theme.style(Meaning::Accent).add_modifier(Modifier::BOLD),
    ));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let [left, right] =
        Layout::horizontal([Constraint::Length(20), Constraint::Min(10)]).areas(inner);
    frame.render_widget(Paragraph::new(steps(wizard, theme)), left);
    let (lines, cursor) = if wizard.step == Step::Review {
        (review(wizard, theme), 0..0)
    } else {
        fields(wizard, theme, usize::from(right.width))
    };
    // Values from the live pool or a file, the server's dry-run answer: inert. The Review's
    // manifest is shown whole (w writes it, c copies it).
    let cap = (wizard.step != Step::Review).then_some(super::detail::LONG_VALUE);
    let lines = super::detail::inert_lines(lines, cap);
    let height = usize::from(right.height.max(1));
    let scroll = if wizard.step == Step::Review {
        wizard.cursor
    } else {
        // In rows as wrapped: the cursor's field whole on screen (at least its line and two
        // more), however much the lines above it wrap.
        let rows = |range: std::ops::Range<usize>| {
            super::wrapped_height(lines.get(range).unwrap_or_default(), right.width)
        };
        let above = rows(0..cursor.start);
        let field = rows(cursor.clone()).max(3).min(height);
        (above + field).saturating_sub(height).min(above)
    };
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((u16::try_from(scroll).unwrap_or(u16::MAX), 0)),
        right,
    );
}

/// The groups a pool's groups field may select: those the Computes give their machines.
fn groups_line(wizard: &Wizard, line: &WizardLine, theme: &Theme) -> Option<Line<'static>> {
    let groups = match line.spec.path {
        "spec.clusterVariant.controlPlaneResourceGroups" => &wizard.groups[0],
        "spec.clusterVariant.workerResourceGroups" => &wizard.groups[1],
        _ => return None,
    };
    (!groups.is_empty()).then(|| {
        Line::styled(
            format!(
                "    the Computes give their machines: {}",
                groups.join(", ")
            ),
            theme.style(Meaning::Muted),
        )
    })
}

/// A field's line: its label, its value (with the cursor, while it is typed) and whether it
/// is locked.
fn field_line(
    wizard: &Wizard,
    line: &WizardLine,
    value: String,
    selected: bool,
    theme: &Theme,
    width: usize,
) -> Line<'static> {
    let label_width = 22.min(width / 2);
    let mut spans = vec![
        Span::raw(if line.spec.repeats() { "  " } else { "" }),
        Span::styled(
            format!("{:<label_width$}", line.spec.label),
            theme.style(Meaning::Muted),
        ),
        Span::styled(
            if value.is_empty() {
                "—".to_owned()
            } else {
                value
            },
            if selected {
                Style::new().add_modifier(Modifier::REVERSED)
            } else {
                theme.style(Meaning::Text)
            },
        ),
    ];
    if wizard.locked(line).is_some() {
        spans.push(Span::styled("  (locked)", theme.style(Meaning::Muted)));
    }
    Line::from(spans)
}

/// What Space picks from for the field under the cursor (a flag: a namespace without its
/// Project seen, an object not Ready; a GPU variant with how many machines are free).
fn offered_line(
    names: &[Offered],
    free: &[(String, i64)],
    line: &WizardLine,
    theme: &Theme,
) -> Line<'static> {
    use crate::domain::draft::Entry;
    let offered = if names.is_empty() {
        "none in this namespace: Enter types a name".to_owned()
    } else {
        let listed: Vec<String> = names
            .iter()
            .map(|(name, flag)| match (line.spec.entry, flag) {
                (Entry::Named(crate::domain::Kind::Compute), _) => {
                    let count = free.iter().find(|(v, _)| v == name).map_or(0, |(_, n)| *n);
                    format!("{name} ({count} free)")
                }
                (Entry::Namespace, Some(false)) => format!("{name} (no Project seen)"),
                (_, Some(false)) => format!("{name} (not Ready)"),
                _ => name.clone(),
            })
            .collect();
        format!("Space picks: {}", listed.join(", "))
    };
    Line::styled(format!("    {offered}"), theme.style(Meaning::Muted))
}

#[cfg(test)]
#[path = "wizard_tests.rs"]
mod tests;
