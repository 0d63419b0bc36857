//! A pool's Conditions, Hosts, Events and YAML tabs.

use chrono::{DateTime, Utc};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use super::cells;
use super::detail::ago;
use crate::app::App;
use crate::app::rows::{Cell, Row, Status};
use crate::app::shown::DetailData;
use crate::domain::model::ComputePool;
use crate::domain::model::vocabulary::{CONDITION_TYPES, HostStatus};
use crate::theme::{Meaning, Theme};

/// The object as YAML, keys muted and values plain; lines holding the filter text (the `/`
/// search, which also jumps there) stand out.
pub(super) fn yaml_lines<'a>(
    derived: Option<&DetailData>,
    search: &str,
    theme: &Theme,
) -> Vec<Line<'a>> {
    let needle = search.to_lowercase();
    derived
        .map(|d| d.yaml.as_slice())
        .unwrap_or_default()
        .iter()
        .map(|line| {
            let hit = !needle.is_empty() && line.to_lowercase().contains(&needle);
            let (key, rest) = match line.find(": ") {
                Some(i)
                    if !line.trim_start().starts_with('-')
                        || line.trim_start()[1..].contains(": ") =>
                {
                    line.split_at(i + 1)
                }
                _ => ("", line.as_str()),
            };
            let mut spans = Vec::new();
            if !key.is_empty() {
                spans.push(Span::styled(key.to_owned(), theme.style(Meaning::Accent)));
            }
            spans.push(Span::raw(rest.to_owned()));
            let mut line = Line::from(spans);
            if hit {
                line = line.style(theme.style(Meaning::Warn).add_modifier(Modifier::REVERSED));
            }
            line
        })
        .collect()
}

pub(super) fn conditions<'a>(
    derived: Option<&DetailData>,
    pool: &'a ComputePool,
    theme: &Theme,
    now: DateTime<Utc>,
) -> Vec<Line<'a>> {
    let mut lines = Vec::new();
    let mut show = |scope: String, list: Vec<&crate::domain::model::status::Condition>| {
        lines.push(Line::from(Span::styled(
            scope,
            theme.style(Meaning::Accent),
        )));
        if list.is_empty() {
            lines.push(Line::from("  (none reported)"));
        }
        for c in list {
            let (mark, meaning) = if c.is_true() {
                ("✔", Meaning::Ok)
            } else if c.is_false() {
                ("✘", Meaning::Error)
            } else {
                ("?", Meaning::Warn)
            };
            // Parsed when the data was derived, not per frame.
            let age = c
                .last_transition_time
                .as_deref()
                .and_then(|t| derived?.times.get(t).copied())
                .map_or(String::new(), |t| format!(" ({} ago)", ago(t, now)));
            lines.push(Line::from(vec![
                Span::styled(format!("  {mark} {:<32}", c.kind()), theme.style(meaning)),
                Span::raw(format!("{}{age}", c.reason.as_deref().unwrap_or(""))),
            ]));
            if let Some(message) = c.message.as_deref().filter(|m| !m.is_empty()) {
                lines.push(Line::from(format!("      {message}")));
            }
            if !c.is_true()
                && let Some((_, _, why)) = CONDITION_TYPES.iter().find(|(kind, reason, _)| {
                    *kind == c.kind()
                        || (!reason.is_empty() && c.reason.as_deref() == Some(*reason))
                })
            {
                lines.push(Line::from(Span::styled(
                    format!("      {} {why}", theme.arrows("→")),
                    theme.style(Meaning::Info),
                )));
            }
        }
    };
    let status = pool.status.get();
    show(
        "Compute Pool".into(),
        status.map(|s| s.conditions().collect()).unwrap_or_default(),
    );
    for cluster in status.into_iter().flat_map(|s| s.clusters()) {
        let conditions: Vec<_> = cluster
            .conditions
            .get()
            .into_iter()
            .flatten()
            .filter_map(|c| c.get())
            .collect();
        show(
            format!("Palette cluster {}", cluster.name.as_deref().unwrap_or("?")),
            conditions,
        );
    }
    lines
}

/// A host Provisioning for longer than this is called out as stuck.
const STUCK_AFTER_MINUTES: i64 = 15;

pub(super) fn hosts<'a>(app: &App, derived: Option<&DetailData>, theme: &Theme) -> Vec<Line<'a>> {
    let Some(table) = derived.map(|d| &d.hosts).filter(|t| !t.rows.is_empty()) else {
        return vec![Line::from("No hosts are allocated to this pool yet.")];
    };
    let (status_column, since_column) = (
        table.position(crate::app::rows::column::STATUS),
        table.position(crate::app::rows::column::SINCE),
    );
    // A host Provisioning since longer than the threshold is stuck.
    let status_of = |row: &Row| match status_column.and_then(|i| row.cells.get(i)) {
        Some(Cell::Status(status)) => Some(status.clone()),
        _ => None,
    };
    let stuck: Vec<bool> = table
        .rows
        .iter()
        .map(|row| {
            let provisioning = status_of(row) == Some(Status::Host(HostStatus::Provisioning));
            let since = match since_column.and_then(|i| row.cells.get(i)) {
                Some(Cell::Since(Some(t))) => Some(*t),
                _ => None,
            };
            provisioning
                && since.is_some_and(|t| (app.now - t).num_minutes() >= STUCK_AFTER_MINUTES)
        })
        .collect();
    let texts: Vec<Vec<String>> = table
        .rows
        .iter()
        .zip(&stuck)
        .map(|(row, stuck)| {
            let mut texts: Vec<String> = row
                .cells
                .iter()
                .skip(1)
                .map(|c| cells::text(c, app.now, cells::Form::Plain))
                .collect();
            if *stuck && let Some(last) = texts.last_mut() {
                last.push_str(&theme.arrows("  ← stuck in Provisioning"));
            }
            texts
        })
        .collect();
    let headers = table.headers();
    let text = cells::plain_table(headers.get(1..).unwrap_or_default(), &texts, None);
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            let meaning = match i.checked_sub(1) {
                None => Meaning::Muted,
                Some(row) if stuck.get(row) == Some(&true) => Meaning::Error,
                Some(row) => table
                    .rows
                    .get(row)
                    .and_then(status_of)
                    .map_or(Meaning::Text, |s| cells::status(&s)),
            };
            Line::from(Span::styled(line.to_owned(), theme.style(meaning)))
        })
        .collect()
}

pub(super) fn events<'a>(
    derived: Option<&DetailData>,
    theme: &Theme,
    now: DateTime<Utc>,
) -> Vec<Line<'a>> {
    // Sorted when the pool's data was derived, newest first.
    let list = derived.map(|d| d.events.as_slice()).unwrap_or_default();
    if list.is_empty() {
        return vec![Line::from("No events about this pool.")];
    }
    list.iter()
        .filter_map(|event| Some((event, event.event()?)))
        .map(|(event, e)| {
            let text = |t: Option<&str>| t.unwrap_or("").to_owned();
            let seen = event.happened().map_or("-".into(), |t| ago(t, now));
            let kind = text(e.event_type());
            let meaning = cells::status(&Status::Event {
                warning: kind == "Warning",
                word: kind.as_str().into(),
            });
            Line::from(vec![
                Span::styled(
                    format!("{seen:>6}  {kind:<8} {:<24} ", text(e.reason())),
                    theme.style(meaning),
                ),
                Span::raw(text(e.message())),
            ])
        })
        .collect()
}
