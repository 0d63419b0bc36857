//! The confirmation dialog: what the fix does and does not do, its targets and impact, the
//! kubectl equivalent, where it stands (permissions, dry run), the text to type, and the two
//! buttons with Cancel focused first. The buttons, the field and the state always stay in
//! view; the text above them scrolls. Reads the state, and leaves one thing in it: how far
//! the text scrolls as drawn (`Confirm::last_scroll`, which only the drawing can know).

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::app::confirm::{Confirm, Focus, Stage};
use crate::theme::{Meaning, Theme};

fn button(label: &str, focused: bool, enabled: bool, theme: &Theme) -> Span<'static> {
    let mut style = if enabled {
        theme.style(Meaning::Text)
    } else {
        theme.style(Meaning::Muted)
    };
    if focused {
        style = style.add_modifier(Modifier::REVERSED | Modifier::BOLD);
    }
    let text = if focused {
        format!("[> {label} <]")
    } else {
        format!("[  {label}  ]")
    };
    Span::styled(text, style)
}

/// The state line: permissions, the dry run's answer, or why it cannot run.
fn stage_line(confirm: &Confirm, theme: &Theme) -> Line<'static> {
    let (meaning, text) = match &confirm.stage {
        Stage::Blocked(why) => (
            Meaning::Warn,
            format!("Cannot run: {}.", why.trim_end_matches('.')),
        ),
        Stage::Checking => (Meaning::Muted, "Checking permissions…".to_owned()),
        Stage::DryRun { left, .. } => (
            Meaning::Muted,
            format!(
                "Dry run sent; waiting for {}…",
                crate::domain::words::counted(left, "answer")
            ),
        ),
        Stage::DryRunFailed { error, changed } => (Meaning::Error, refused(error, changed)),
        Stage::Ready(answers) => (
            Meaning::Ok,
            format!(
                "Dry run passed: the server accepts {}.",
                crate::domain::words::counted(answers.len(), "request")
            ),
        ),
    };
    Line::styled(
        crate::domain::inert::line(&text).into_owned(),
        theme.style(meaning),
    )
}

/// A refused dry run in words, with what to do next: an object that changed since the dialog
/// looked is reviewed again (the plan was made from what it was).
fn refused(error: &crate::domain::ClusterError, changed: &Option<String>) -> String {
    use crate::domain::ClusterError;
    let changed = changed
        .as_deref()
        .map(|c| format!(" ({c})"))
        .unwrap_or_default();
    // Each is said once: an error that says the server refused, or that nothing was
    // changed, is not told so again.
    let said = error.to_string();
    let head = if matches!(error, ClusterError::Invalid { .. }) {
        format!("Dry run: {said}")
    } else {
        format!("Dry run refused: {said}")
    };
    let nothing = if said.contains("nothing was changed") {
        ""
    } else {
        " Nothing was changed."
    };
    match error {
        ClusterError::Conflict { .. } | ClusterError::NotFound { .. } => format!(
            "{head}{changed}.{nothing} The server holds it otherwise than this dialog saw it: \
             Esc, then open it again to review it as it is now."
        ),
        ClusterError::Forbidden { .. } => format!(
            "{head}.{nothing} Ask for the permission, or copy the kubectl command (c) for \
             someone who has it."
        ),
        _ => format!("{head}.{nothing}"),
    }
}

/// `several`: the console watches several hubs, and the dialog names the one it acts on.
pub fn render(confirm: &Confirm, several: bool, theme: &Theme, frame: &mut Frame, area: Rect) {
    let lines = plan_lines(confirm, several, theme);
    let width = area.width.saturating_sub(2).clamp(1, 100);
    let inner_width = width.saturating_sub(2).max(1);
    // Wrapped heights, as the paragraphs will wrap them.
    let text_height = super::wrapped_height(&lines, inner_width);
    let typing = confirm.needs_typing();
    let stage = stage_line(confirm, theme);
    let stage_height = u16::try_from(super::wrapped_height(
        std::slice::from_ref(&stage),
        inner_width,
    ))
    .unwrap_or(1);
    let fixed = 1 + stage_height + u16::from(typing.is_some()) + 2;
    let wanted = u16::try_from(text_height)
        .unwrap_or(u16::MAX)
        .saturating_add(fixed)
        .saturating_add(2);
    let height = wanted.min(area.height);
    let popup = super::centered(area, width, height);
    frame.render_widget(Clear, popup);
    let title_style = if confirm.plan.destructive() {
        theme.style(Meaning::Error).add_modifier(Modifier::BOLD)
    } else {
        theme.style(Meaning::Accent).add_modifier(Modifier::BOLD)
    };
    let block = Block::default().borders(Borders::ALL).title(Span::styled(
        format!(" {} ", crate::domain::inert::line(&confirm.plan.title)),
        title_style,
    ));
    let inner = block.inner(popup);
    let [text_area, controls] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(fixed)]).areas(inner);
    // Taller than the screen, the text scrolls above the controls, and the border says
    // which way there is more.
    let last = u16::try_from(text_height)
        .unwrap_or(u16::MAX)
        .saturating_sub(text_area.height);
    let scroll = confirm.scroll.min(last);
    // The one thing drawing tells the state: how far the text scrolls on this screen.
    confirm.last_scroll.set(last);
    let more = match (scroll > 0, scroll < last) {
        (true, true) => " ↑↓ more: ↑ ↓ PgUp PgDn ",
        (false, true) => " ↓ more below: ↓ PgDn ",
        (true, false) => " ↑ more above: ↑ PgUp ",
        (false, false) => "",
    };
    let block = if more.is_empty() {
        block
    } else {
        block.title_bottom(Span::styled(more, theme.style(Meaning::Warn)))
    };
    frame.render_widget(block, popup);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((scroll, 0)),
        text_area,
    );
    let bottom = control_lines(confirm, stage, theme);
    frame.render_widget(Paragraph::new(bottom).wrap(Wrap { trim: false }), controls);
}

/// What the dialog says of its plan: the hub (when several are watched), the explanation,
/// the targets, the impact and the kubectl equivalent, every line inert.
fn plan_lines(confirm: &Confirm, several: bool, theme: &Theme) -> Vec<Line<'static>> {
    let muted = theme.style(Meaning::Muted).add_modifier(Modifier::BOLD);
    let mut lines: Vec<Line> = Vec::new();
    if several {
        lines.push(Line::styled(
            if confirm.hub.server.is_empty() {
                format!("On hub {}", confirm.hub.context)
            } else {
                format!("On hub {} ({})", confirm.hub.context, confirm.hub.server)
            },
            theme.style(Meaning::Accent).add_modifier(Modifier::BOLD),
        ));
    }
    for line in &confirm.plan.explanation {
        lines.push(Line::raw(line.clone()));
    }
    lines.push(Line::styled("Targets", muted));
    for target in &confirm.plan.targets {
        lines.push(Line::raw(format!("  {target}")));
    }
    if !confirm.plan.impact.is_empty() {
        lines.push(Line::styled("Impact", muted));
        for line in &confirm.plan.impact {
            lines.push(Line::raw(format!("  {line}")));
        }
    }
    if let Some(why) = &confirm.plan.blocked {
        // A plan that cannot run here hands on no command (the unblock of a pool that is not
        // being deleted would delete a healthy pool's workloads).
        lines.push(Line::styled(
            format!("kubectl equivalent: none, this cannot run ({why})"),
            muted,
        ));
    } else if !crate::domain::shell::shown_faithfully(&confirm.hub) {
        lines.push(Line::styled(
            format!(
                "kubectl equivalent: {}",
                crate::domain::shell::NOT_SHOWN_FAITHFULLY
            ),
            muted,
        ));
    } else {
        lines.push(Line::styled(
            if confirm.focus == Focus::Field {
                // While the name is typed, c is a letter of it.
                "kubectl equivalent (Tab to a button, then c copies it)"
            } else {
                "kubectl equivalent (c copies it)"
            },
            muted,
        ));
        for line in confirm.plan.kubectl_on(&confirm.hub).lines() {
            lines.push(Line::styled(
                format!("  {line}"),
                theme.style(Meaning::Accent),
            ));
        }
    }
    // Targets, impact and the kubectl lines name the cluster's objects: inert.
    super::detail::inert_lines(lines, Some(super::detail::LONG_VALUE))
}

/// Under the plan: where the dialog stands, the name to type, the buttons.
fn control_lines<'a>(confirm: &Confirm, stage: Line<'a>, theme: &Theme) -> Vec<Line<'a>> {
    let mut bottom = vec![Line::raw(""), stage];
    if let Some(text) = confirm.needs_typing() {
        let field_style = if confirm.focus == Focus::Field {
            Style::new().add_modifier(Modifier::REVERSED)
        } else {
            theme
                .style(Meaning::Text)
                .add_modifier(Modifier::UNDERLINED)
        };
        let matched = confirm.typed == text;
        let text = crate::domain::inert::line(text);
        bottom.push(Line::from(vec![
            Span::raw(format!("Type {text} to confirm: ")),
            Span::styled(
                format!(
                    "{:<width$}",
                    crate::domain::inert::line(&confirm.typed),
                    width = text.len() + 1
                ),
                field_style,
            ),
            Span::styled(if matched { " ✓" } else { "" }, theme.style(Meaning::Ok)),
        ]));
    }
    bottom.push(Line::raw(""));
    bottom.push(Line::from(vec![
        button("Cancel", confirm.focus == Focus::Cancel, true, theme),
        Span::raw("   "),
        button(
            "Confirm",
            confirm.focus == Focus::Confirm,
            confirm.ready(),
            theme,
        ),
        Span::styled("   Esc cancels · Tab moves", theme.style(Meaning::Muted)),
    ]));
    bottom
}

#[cfg(test)]
#[path = "confirm_tests.rs"]
mod tests;
