//! One event read whole: the object it concerns, when and how often, the message wrapped.
//! Reads the state only.

use chrono::{DateTime, Utc};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::app::event_view::EventView;
use crate::domain::inert;
use crate::theme::{Meaning, Theme};

pub(super) fn render(
    view: &EventView,
    now: DateTime<Utc>,
    theme: &Theme,
    frame: &mut Frame,
    area: Rect,
) {
    let width = area.width.saturating_sub(8).max(20).min(area.width);
    let height = area.height.saturating_sub(4).max(6).min(area.height);
    let popup = super::centered(area, width, height);
    frame.render_widget(Clear, popup);
    let (kind, namespace, name) = &view.object;
    let label = |text: &str| Span::styled(text.to_owned(), theme.style(Meaning::Muted));
    let seen = view.last_seen.map_or_else(
        || "-".to_owned(),
        |t| {
            format!(
                "{} ago",
                crate::domain::words::age(now.signed_duration_since(t))
            )
        },
    );
    let meaning = if view.kind == "Warning" {
        Meaning::Warn
    } else {
        Meaning::Info
    };
    let mut lines = vec![
        Line::from(vec![
            label("Object     "),
            Span::raw(inert::line(&format!("{kind} {namespace}/{name}")).into_owned()),
        ]),
        Line::from(vec![
            label("Last seen  "),
            Span::raw(match view.count {
                Some(count) if count > 1 => format!("{seen} ({count} times)"),
                _ => seen,
            }),
        ]),
        Line::raw(""),
    ];
    lines.extend(
        inert::text(&view.message)
            .lines()
            .map(|l| Line::raw(l.to_owned())),
    );
    let title = format!(
        " {} {} ",
        inert::line(&view.kind),
        inert::line(&view.reason)
    );
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((view.scroll, 0))
            .block(Block::default().borders(Borders::ALL).title(Span::styled(
                title,
                theme.style(meaning).add_modifier(Modifier::BOLD),
            ))),
        popup,
    );
}
