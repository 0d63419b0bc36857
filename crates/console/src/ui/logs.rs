//! The controller's log beside a pool: what is followed and how, then the lines (the newest at
//! the bottom while following), lines matching the search standing out.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::app::logs::LogView;
use crate::domain::inert;
use crate::theme::{Meaning, Theme};

pub fn render(view: &LogView, theme: &Theme, frame: &mut Frame, area: Rect) {
    frame.render_widget(Clear, area);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(title(view), theme.style(Meaning::Accent)));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let height = usize::from(inner.height);
    if height == 0 {
        return;
    }
    let mut lines: Vec<Line> = Vec::with_capacity(height);
    if let Some(said) = &view.said {
        let meaning = if view.failed {
            Meaning::Error
        } else {
            Meaning::Muted
        };
        lines.push(Line::styled(
            inert::line(said).into_owned(),
            theme.style(meaning),
        ));
    }
    if view.searching {
        lines.push(Line::from(vec![
            Span::styled("search /", theme.style(Meaning::Accent)),
            Span::raw(inert::line(&view.search).into_owned()),
            Span::styled("▏", theme.style(Meaning::Accent)),
        ]));
    }
    let room = height.saturating_sub(lines.len());
    log_lines(view, theme, inner.width, room, &mut lines);
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
}

/// What is followed and how.
fn title(view: &LogView) -> String {
    format!(
        " Controller log · {}/{} · {} · {} ",
        inert::line(&view.pool.namespace),
        inert::line(&view.pool.name),
        if view.all {
            "every line"
        } else {
            "lines about the pool"
        },
        if view.ended || view.failed {
            "ended"
        } else if view.paused {
            "paused"
        } else if view.back > 0 {
            "scrolled back"
        } else {
            "following"
        }
    )
}

/// The log's lines that fit in `room` rows of `width`, ending `back` lines before the newest,
/// those matching the search reversed.
fn log_lines(view: &LogView, theme: &Theme, width: u16, room: usize, lines: &mut Vec<Line>) {
    // Only the lines on screen are looked at: the window ends `back` lines before the newest
    // and reaches up as far as the lines fit, each wrapped to the width.
    let shown: Vec<_> = view.shown().collect();
    let end = shown
        .len()
        .saturating_sub(view.back.min(shown.len().saturating_sub(1)));
    let mut start = end;
    let mut used = 0;
    while start > 0 {
        let line = Line::raw(inert::line(&shown[start - 1].text).into_owned());
        let rows = super::wrapped_height(&[line], width).max(1);
        // A line taller than the view is still shown (its start): never an empty screen.
        if used + rows > room && used > 0 {
            break;
        }
        used += rows;
        start -= 1;
    }
    let needle = view.search.to_lowercase();
    if shown.is_empty() && !view.failed {
        lines.push(Line::styled(
            if view.all {
                "No lines yet."
            } else {
                "No line mentions this pool yet: a shows every line."
            },
            theme.style(Meaning::Muted),
        ));
    }
    for line in &shown[start..end] {
        let hit = !needle.is_empty() && line.text.to_lowercase().contains(&needle);
        let meaning = if line.text.contains("\tERROR\t") || line.text.contains(" ERROR ") {
            Meaning::Error
        } else if line.text.contains("\tWARN") {
            Meaning::Warn
        } else {
            Meaning::Text
        };
        let mut style = theme.style(meaning);
        if hit {
            style = style.add_modifier(Modifier::REVERSED);
        }
        // The controller's text, inert (escape sequences and controls shown escaped; a tab
        // is one space, so the width counted above is the width drawn).
        lines.push(Line::styled(inert::line(&line.text).into_owned(), style));
    }
}
