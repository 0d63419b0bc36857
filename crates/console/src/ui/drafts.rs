//! The drafts offered by `n` and `e`: the entries with the cursor, and for an edit's draft
//! what it changes against the live pool, with a warning when the pool changed since the
//! draft started. Reads the state only.

use chrono::{DateTime, Utc};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::app::drafts::{Chooser, Offer};
use crate::theme::{Meaning, Theme};

/// How many changes the list shows before it says how many more there are.
const CHANGES_SHOWN: usize = 12;

pub(super) fn render(
    chooser: &Chooser,
    now: DateTime<Utc>,
    theme: &Theme,
    frame: &mut Frame,
    area: Rect,
) {
    let mut lines = Vec::new();
    for (i, entry) in chooser.entries(now).iter().enumerate() {
        let selected = i == chooser.cursor;
        let mut style = theme.style(Meaning::Text);
        if selected {
            style = style.add_modifier(Modifier::REVERSED);
        }
        let mark = match (selected, chooser.discarding == Some(i)) {
            (_, true) => "d again discards › ",
            (true, false) => "› ",
            (false, false) => "  ",
        };
        lines.push(Line::styled(format!("{mark}{entry}"), style));
    }
    let title = match &chooser.offer {
        Offer::New { .. } => " Drafts of new pools ".to_owned(),
        Offer::Edit { draft, .. } => format!(" A draft of {} ", draft.saved.id()),
    };
    if let Offer::Edit { changes, moved, .. } = &chooser.offer {
        lines.push(Line::raw(""));
        if let Some((then, now)) = moved {
            lines.push(Line::styled(
                format!(
                    "The pool changed since the draft was started (resourceVersion {then} -> \
                     {now}): the draft would put back what changed since; review it before \
                     applying"
                ),
                theme.style(Meaning::Warn).add_modifier(Modifier::BOLD),
            ));
        }
        if changes.is_empty() {
            lines.push(Line::styled(
                "The draft changes nothing against the live pool",
                theme.style(Meaning::Muted),
            ));
        } else {
            lines.push(Line::styled(
                format!(
                    "What the draft changes against the live pool ({}):",
                    changes.len()
                ),
                theme.style(Meaning::Muted).add_modifier(Modifier::BOLD),
            ));
            for change in changes.iter().take(CHANGES_SHOWN) {
                lines.push(Line::styled(
                    format!("  {}", change.line()),
                    theme.style(Meaning::Text),
                ));
            }
            if changes.len() > CHANGES_SHOWN {
                lines.push(Line::styled(
                    format!("  … and {} more", changes.len() - CHANGES_SHOWN),
                    theme.style(Meaning::Muted),
                ));
            }
        }
    }
    // What a draft holds came from a file: inert.
    let lines = super::detail::inert_lines(lines, Some(super::detail::LONG_VALUE));
    let width = area.width.saturating_sub(2).clamp(1, 110);
    let wanted = super::wrapped_height(&lines, width.saturating_sub(2));
    let height = u16::try_from(wanted + 2)
        .unwrap_or(u16::MAX)
        .min(area.height);
    let popup = super::centered(area, width, height);
    frame.render_widget(Clear, popup);
    let block = Block::default().borders(Borders::ALL).title(Line::styled(
        crate::domain::inert::line(&title).into_owned(),
        theme.style(Meaning::Accent).add_modifier(Modifier::BOLD),
    ));
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(block),
        popup,
    );
}
