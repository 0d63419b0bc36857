//! A pool or an object it refers to described (`d`): the page `pooldeck describe` prints, over the screen, section
//! titles in the accent colour. Reads the state only (the page is worked out in `Shown`).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::app::describe::DescribeView;
use crate::domain::inert;
use crate::theme::{Meaning, Theme};

pub(super) fn render(
    view: &DescribeView,
    page: &[String],
    theme: &Theme,
    frame: &mut Frame,
    area: Rect,
) {
    frame.render_widget(Clear, area);
    let lines: Vec<Line> = if page.is_empty() {
        vec![Line::from(Span::styled(
            "It is gone (deleted, or out of the watched namespaces). Esc goes back.",
            theme.style(Meaning::Warn),
        ))]
    } else {
        page.iter()
            .map(|line| {
                // A section's title starts its line and ends with a colon ("Status:").
                if !line.starts_with(' ') && line.ends_with(':') {
                    Line::from(Span::styled(
                        line.clone(),
                        theme.style(Meaning::Accent).add_modifier(Modifier::BOLD),
                    ))
                } else {
                    Line::raw(line.clone())
                }
            })
            .collect()
    };
    // A pool's page names the pool alone; another kind's says which it is (a cluster-wide
    // one has no namespace).
    let kind = match view.kind {
        crate::inventory::Kind::Pool => String::new(),
        other => format!("{} ", other.api().kind),
    };
    let at = if view.namespace.is_empty() {
        String::new()
    } else {
        format!("{}/", inert::line(&view.namespace))
    };
    let title = format!(" Describe {kind}{at}{} ", inert::line(&view.name));
    frame.render_widget(
        Paragraph::new(lines).scroll((view.scroll, 0)).block(
            Block::default().borders(Borders::ALL).title(Span::styled(
                title,
                theme.style(Meaning::Accent).add_modifier(Modifier::BOLD),
            )),
        ),
        area,
    );
}
