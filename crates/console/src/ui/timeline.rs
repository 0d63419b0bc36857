//! A pool's Timeline tab: its entries newest (or oldest) first, what is hidden said, the entry
//! at the top marked and, opened (Enter), its detail under it.

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use crate::app::Detail;
use crate::app::shown::DetailData;
use crate::domain::timeline::{Clock, Entry, Source};
use crate::theme::{Meaning, Theme};

fn label(theme: &Theme, text: String) -> Span<'static> {
    Span::styled(text, theme.style(Meaning::Muted))
}

fn meaning(entry: &Entry) -> Meaning {
    match entry.source {
        Source::Watch if entry.state == "gap" => Meaning::Warn,
        Source::Watch | Source::Action => Meaning::Accent,
        Source::Event if entry.text.starts_with("Warning") => Meaning::Warn,
        _ if entry.derived => Meaning::Muted,
        _ => Meaning::Text,
    }
}

pub(super) fn tab<'a>(
    derived: Option<&'a DetailData>,
    detail: &Detail,
    theme: &Theme,
) -> Vec<Line<'a>> {
    let view = &detail.timeline;
    let order = if view.oldest_first {
        "oldest first"
    } else {
        "newest first"
    };
    let hidden: Vec<&str> = view.hidden.iter().map(|s| s.word()).collect();
    let shown = match hidden.as_slice() {
        [] => "every source".to_owned(),
        hidden => format!("hiding {}", hidden.join(", ")),
    };
    let mut lines = vec![Line::from(label(
        theme,
        format!(
            "{order} · {shown} · ~ dated by the hub's last transition · clock: hub's or pooldeck's"
        ),
    ))];
    match &view.kept {
        None => lines.push(Line::from(label(
            theme,
            "reading what pooldeck kept, its audit log and the controller's log…".to_owned(),
        ))),
        Some(kept) => lines.extend(
            kept.said
                .iter()
                .map(|s| Line::from(Span::styled(s.clone(), theme.style(Meaning::Warn)))),
        ),
    }
    let mut entries: Vec<&Entry> = derived
        .into_iter()
        .flat_map(|d| d.timeline.iter())
        .filter(|e| !view.hidden.contains(&e.source))
        .collect();
    if !view.oldest_first {
        entries.reverse();
    }
    let top = usize::from(detail.scroll).min(entries.len().saturating_sub(1));
    for (i, entry) in entries.iter().enumerate().skip(top) {
        let mut style = theme.style(meaning(entry));
        if i == top {
            style = style.add_modifier(Modifier::REVERSED);
        }
        lines.push(Line::from(Span::styled(
            crate::domain::timeline::line(entry, true),
            style,
        )));
        if i == top && view.open {
            let clock = if entry.clock == Clock::Hub {
                "the hub's"
            } else {
                "pooldeck's"
            };
            let how = if entry.derived {
                ", from the last transition time the hub keeps"
            } else {
                ""
            };
            lines.push(Line::from(label(
                theme,
                format!(
                    "    {}: {}; dated by {clock} clock{how}",
                    entry.source.word(),
                    entry.subject
                ),
            )));
            lines.push(Line::from(format!("    {}", entry.text)));
            lines.extend(entry.detail.iter().map(|d| Line::from(format!("    {d}"))));
        }
    }
    if entries.is_empty() {
        lines.push(Line::from(label(
            theme,
            "nothing to show (every source hidden?)".to_owned(),
        )));
    }
    lines
}
