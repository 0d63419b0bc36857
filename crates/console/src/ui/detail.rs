//! One pool in detail, a tab at a time: Overview, Conditions, Hosts, Scaling, Events, YAML.

use chrono::{DateTime, Utc};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::tabs;
use crate::app::{App, Detail, Tab};
use crate::domain::duration;
use crate::domain::quantity::GpuVariant;
use crate::inventory::Kind;
use crate::theme::{Meaning, Theme};

pub(super) fn ago(t: DateTime<Utc>, now: DateTime<Utc>) -> String {
    duration::format_age((now - t).to_std().unwrap_or_default())
}

pub(super) fn short(variant: &str) -> String {
    GpuVariant::parse(variant).short_name().to_owned()
}

/// A ten-cell bar for a percentage.
pub fn bar(percent: f64) -> String {
    let filled = ((percent.clamp(0.0, 100.0) / 10.0).round()) as usize;
    format!("{}{}", "█".repeat(filled), "░".repeat(10 - filled))
}

pub use crate::app::rows::text::{spark, sparkline};

/// A value in a detail view longer than this is cut, saying how much was left out: a
/// 5,000-character event message would fill the tab.
pub(super) const LONG_VALUE: usize = 1_000;

/// Lines for a view, made inert span by span (the cluster's text may hold escape sequences,
/// control characters, bidirectional controls or line breaks: shown escaped, never sent to
/// the terminal); with `cap`, a span longer than it is cut with a marker.
pub(super) fn inert_lines<'a>(mut lines: Vec<Line<'a>>, cap: Option<usize>) -> Vec<Line<'a>> {
    // A span already inert and short enough is left as it is: nothing is copied per frame
    // for the common case.
    for span in lines.iter_mut().flat_map(|line| line.spans.iter_mut()) {
        let replaced = {
            let text = crate::domain::inert::line(&span.content);
            let count = cap.map_or(0, |_| text.chars().count());
            match (cap, text) {
                (Some(cap), text) if count > cap => {
                    let kept: String = text.chars().take(cap).collect();
                    Some(format!("{kept}… ({} more characters)", count - cap))
                }
                (_, std::borrow::Cow::Owned(text)) => Some(text),
                (_, std::borrow::Cow::Borrowed(_)) => None,
            }
        };
        if let Some(text) = replaced {
            span.content = std::borrow::Cow::Owned(text);
        }
    }
    lines
}

pub(super) fn label<'a>(theme: &Theme, text: &'a str) -> Span<'a> {
    Span::styled(text, theme.style(Meaning::Muted))
}

/// The tabs, the open one marked: each padded on both sides, or on a narrow screen (80
/// columns) on one side only, so that every tab's name is in view.
fn tab_bar<'a>(detail: &Detail, theme: &Theme, width: u16) -> Line<'a> {
    let mut spans = Vec::new();
    let full: usize = Tab::ALL.iter().map(|t| t.title().len() + 4).sum();
    let padded = full <= usize::from(width);
    for (i, tab) in Tab::ALL.iter().enumerate() {
        let text = match padded {
            true => format!(" {} {} ", i + 1, tab.title()),
            false => format!("{} {} ", i + 1, tab.title()),
        };
        let style = if *tab == detail.tab {
            theme
                .style(Meaning::Accent)
                .add_modifier(Modifier::REVERSED)
        } else {
            theme.style(Meaning::Muted)
        };
        spans.push(Span::styled(text, style));
    }
    Line::from(spans)
}

pub fn render(app: &App, detail: &Detail, theme: &Theme, frame: &mut Frame, area: Rect) {
    let crumb = format!(
        " {} › {}/{} › {} ",
        app.list.view.title(),
        crate::domain::inert::line(&detail.namespace),
        crate::domain::inert::line(&detail.name),
        detail.tab.title()
    );
    let block = Block::default()
        .borders(Borders::TOP)
        .title(Span::styled(crumb, theme.style(Meaning::Accent)));
    let [tabs, body] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(block.inner(area));
    frame.render_widget(block, area);
    frame.render_widget(Paragraph::new(tab_bar(detail, theme, tabs.width)), tabs);
    let Some(object) = app
        .fleet
        .inventory
        .get(Kind::Pool, &detail.namespace, &detail.name)
    else {
        frame.render_widget(
            Paragraph::new(
                "This pool is gone (deleted, or out of the watched namespaces). Esc goes back.",
            )
            .style(theme.style(Meaning::Warn)),
            body,
        );
        return;
    };
    let derived = app.shown.detail.as_ref();
    let lines = match (detail.tab, object.pool()) {
        (_, None) => vec![Line::from(Span::styled(
            format!(
                "This object cannot be read: {}",
                object.problem().unwrap_or_default()
            ),
            theme.style(Meaning::Error),
        ))],
        (Tab::Overview, Some(pool)) => super::overview::overview(derived, pool, theme),
        (Tab::Conditions, Some(pool)) => tabs::conditions(derived, pool, theme, app.now),
        (Tab::Hosts, Some(_)) => tabs::hosts(app, derived, theme),
        (Tab::Scaling, Some(pool)) => {
            super::scaling::tab(&app.fleet.inventory, derived, object, pool, theme, app.now)
        }
        (Tab::Events, Some(_)) => tabs::events(derived, theme, app.now),
        (Tab::Yaml, Some(_)) => tabs::yaml_lines(derived, app.search.trim(), theme),
        (Tab::Timeline, Some(_)) => super::timeline::tab(derived, detail, theme),
        (Tab::Diagnose, Some(_)) => {
            let id = crate::domain::ObjectRef::new(
                Kind::Pool,
                detail.namespace.clone(),
                detail.name.clone(),
            );
            super::diagnose::diagnose(app.fleet.doctor.findings(&id), derived, &app.hub(), theme)
        }
    };
    let wrap = !matches!(detail.tab, Tab::Yaml | Tab::Hosts);
    // The YAML tab shows each line whole (cut at the edge; c copies it all); the others wrap
    // and cut a very long value.
    let lines = inert_lines(lines, wrap.then_some(LONG_VALUE));
    // The Timeline tab keeps its heading and starts at the entry scrolled to.
    let scroll = if detail.tab == Tab::Timeline {
        0
    } else {
        detail.scroll
    };
    let mut paragraph = Paragraph::new(lines).scroll((scroll, 0));
    if wrap {
        paragraph = paragraph.wrap(Wrap { trim: false });
    }
    frame.render_widget(paragraph, body);
}
