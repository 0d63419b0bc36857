//! A list view as a table: the columns that fit (lower priorities give way whole on a narrow
//! screen), no column but the last wider than its share, a value cut with a marker, the rows
//! in the window around the selection, marks and the doctor's markers after a name; or, for an
//! empty list, why it is empty.

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders, Cell, Paragraph, Row, Table, TableState, Wrap};

use super::cells;
use crate::app::App;
use crate::app::rows::Column;
use crate::domain::inert;
use crate::theme::{Meaning, Theme};

#[cfg(test)]
thread_local! {
    /// Rows whose cells a frame formatted, on this thread: tests count what drawing builds.
    pub(super) static ROWS_DRAWN: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

pub(super) fn render(app: &App, theme: &Theme, frame: &mut Frame, area: Rect) {
    let table = &app.shown;
    let headers = table.columns();
    let title = title(app);
    let block = Block::default()
        .borders(Borders::TOP)
        .title(Span::styled(title, theme.style(Meaning::Accent)));
    if let Some(problem) = &app.shown.filter_problem {
        frame.render_widget(
            Paragraph::new(inert::text(&format!("{problem}. Esc clears the filter.")).into_owned())
                .style(theme.style(Meaning::Warn))
                .wrap(Wrap { trim: true })
                .block(block),
            area,
        );
        return;
    }
    if table.is_empty() {
        let (text, meaning) = super::empty::why_empty(app);
        frame.render_widget(
            Paragraph::new(inert::text(&text).into_owned())
                .style(theme.style(meaning))
                .wrap(Wrap { trim: true })
                .block(block),
            area,
        );
        return;
    }
    let Some((shown, widths, compact)) = fit(app, headers, area) else {
        return;
    };
    let form = if compact {
        cells::Form::Compact
    } else {
        cells::Form::Console
    };
    let widths = &widths;
    let header = header_row(app, headers, &shown, compact, theme);
    // Only the rows that fit are built: the window follows the selection.
    let visible = usize::from(area.height.saturating_sub(2)).max(1);
    let selected = app.list.selected.min(table.len() - 1);
    // Where the keys left the screen, if it shows the selection; no room left empty below
    // the last row.
    let first = crate::app::screens::on_screen(app.list.offset, selected, visible, table.len());
    let name = headers
        .iter()
        .position(|c| *c == crate::app::rows::column::NAME);
    let layout = Layout {
        shown: &shown,
        widths,
        last_room: last_room(app, &shown, widths, area),
        name,
        form,
    };
    let stale_since = stale_since(app);
    let rows = (first..first.saturating_add(visible))
        .filter_map(|i| table.row(i))
        .map(|row| {
            row_of(
                app,
                &layout,
                row,
                stale_since.get(row.hub).copied().flatten(),
                theme,
            )
        });
    let constraints = constraints(app, &layout);
    let widget = Table::new(rows, constraints)
        .header(header)
        .block(block)
        .column_spacing(2)
        .row_highlight_style(Style::new().add_modifier(Modifier::REVERSED));
    // The rows given start at the first on screen.
    let mut state = TableState::default().with_selected(Some(selected - first));
    frame.render_stateful_widget(widget, area, &mut state);
}

/// The list's title: its view, how many rows, and the filter typed.
fn title(app: &App) -> String {
    if app.list.filter.is_empty() {
        format!(" {} ({}) ", app.list.view.title(), app.shown.len())
    } else {
        format!(
            " {} ({}) /{} ",
            app.list.view.title(),
            app.shown.len(),
            inert::line(&app.list.filter)
        )
    }
}

/// Each shown column's width; the last takes what is left (at least a useful start), and
/// the NAME column has room for a marked row's ` *`.
fn constraints(app: &App, layout: &Layout<'_>) -> Vec<Constraint> {
    let last = layout.shown.last().copied();
    layout
        .shown
        .iter()
        .map(|&i| {
            // Room for the " *" of a marked row after its name.
            let width = if Some(i) == layout.name && !app.list.marked.is_empty() {
                layout.widths[i].saturating_add(2)
            } else {
                layout.widths[i]
            };
            if Some(i) == last {
                Constraint::Min(width.min(LAST_COLUMN_AT_LEAST))
            } else {
                Constraint::Length(width)
            }
        })
        .collect()
}

/// How the rows are laid out: the columns shown, their widths, the room the last one has,
/// which is the NAME column, and the form cells take.
struct Layout<'a> {
    shown: &'a [usize],
    widths: &'a [u16],
    last_room: u16,
    name: Option<usize>,
    form: cells::Form,
}

/// The header: each shown column's name (compact on a narrow screen), the sorted one with
/// its arrow.
fn header_row(
    app: &App,
    headers: &[Column],
    shown: &[usize],
    compact: bool,
    theme: &Theme,
) -> Row<'static> {
    let sorted = app.list.sort_column;
    let header_style = theme.style(Meaning::Muted).add_modifier(Modifier::BOLD);
    Row::new(shown.iter().map(|&i| {
        let h = if compact {
            headers[i].compact
        } else {
            headers[i].header
        };
        let mark = if i + 1 == sorted {
            if app.list.sort_descending {
                "↓"
            } else {
                "↑"
            }
        } else {
            ""
        };
        Cell::from(format!("{h}{mark}"))
    }))
    .style(header_style)
}

/// While a hub's picture is stale, its times stop where the data stopped and are greyed: a
/// countdown that kept ticking would claim a state nobody has seen. Per hub: one hub's stale
/// picture greys its own rows only.
fn stale_since(app: &App) -> Vec<Option<chrono::DateTime<chrono::Utc>>> {
    (0..app.fleet.count())
        .map(|hub| {
            app.inventory_of(hub)
                .and_then(|i| i.stale(app.now))
                .map(|s| s.since)
        })
        .collect()
}

/// The room the last column has once the others are laid out (two spaces between columns;
/// the block has no side borders): a longer value is cut there, with a marker.
fn last_room(app: &App, shown: &[usize], widths: &[u16], area: Rect) -> u16 {
    let others: u16 = shown
        .iter()
        .rev()
        .skip(1)
        .map(|&i| widths[i].saturating_add(2))
        .fold(0u16, u16::saturating_add);
    let marks = if app.list.marked.is_empty() { 0 } else { 2 };
    area.width
        .saturating_sub(others)
        .saturating_sub(marks)
        .max(LAST_COLUMN_AT_LEAST)
}

/// One row's cells, cut to their columns; a marked row in bold with its `*`.
fn row_of<'a>(
    app: &App,
    layout: &Layout<'_>,
    row: &crate::app::rows::Row,
    stale: Option<chrono::DateTime<chrono::Utc>>,
    theme: &Theme,
) -> Row<'a> {
    #[cfg(test)]
    ROWS_DRAWN.with(|n| n.set(n.get() + 1));
    // Marks are on the hub in focus (they hold it there).
    let marked = row.hub == app.fleet.focus() && app.list.marked.contains(&row.id);
    let now = stale.unwrap_or(app.now);
    let row_style = if marked {
        theme.style(Meaning::Accent).add_modifier(Modifier::BOLD)
    } else {
        Style::new()
    };
    Row::new(layout.shown.iter().filter_map(|&i| {
        let cell = row.cells.get(i)?;
        let mut text = cells::text(cell, now, layout.form);
        let room = if Some(i) == layout.shown.last().copied() {
            layout.last_room
        } else {
            layout.widths[i]
        };
        if text.chars().count() > usize::from(room) {
            text = inert::cut(&text, usize::from(room)).into_owned();
        }
        if Some(i) == layout.name {
            text.push_str(marker(row));
        }
        if marked && Some(i) == layout.name {
            text.push_str(" *");
        }
        let meaning = match cell {
            crate::app::rows::Cell::Since(_) | crate::app::rows::Cell::Scaling { .. }
                if stale.is_some() =>
            {
                Meaning::Muted
            }
            _ => cells::meaning(cell),
        };
        Some(Cell::from(text).style(theme.style(meaning)))
    }))
    .style(row_style)
}

/// The columns that fit the width, and their widths: column widths are derived with the
/// rows, in update, and no column but the last takes more than its share (a 3,000-character
/// status cannot push the others off the screen). On a narrow screen the columns first take
/// their compact forms, then those that answer later questions give way, whole. Whether the
/// compact forms are used; `None` before the widths are derived.
fn fit(app: &App, headers: &[Column], area: Rect) -> Option<(Vec<usize>, Vec<u16>, bool)> {
    let at_most =
        |widths: &[u16]| -> Vec<u16> { widths.iter().map(|w| (*w).min(COLUMN_AT_MOST)).collect() };
    let mut widths = at_most(&app.shown.widths);
    if widths.len() < headers.len() || app.shown.compact_widths.len() < headers.len() {
        return None;
    }
    // On a narrow screen the columns first take their compact forms (no bars, no sparklines,
    // shorter headers), then those that answer later questions give way, whole, rather than
    // every column being cut to nothing.
    let mut shown: Vec<usize> = (0..headers.len()).collect();
    // The last column (often a message) may be cut; it needs only a useful start.
    let total = |shown: &[usize], widths: &[u16]| {
        let last = shown.last().copied();
        shown
            .iter()
            .map(|i| {
                if Some(*i) == last {
                    widths[*i].min(LAST_COLUMN_AT_LEAST) + 2
                } else {
                    widths[*i] + 2
                }
            })
            .fold(0u16, u16::saturating_add)
    };
    // Room for the sort's arrow after its column's header (a column as wide as its header
    // would cut it).
    let sorted = app.list.sort_column;
    let arrow = |widths: &mut Vec<u16>, compact: bool| {
        if let Some(i) = sorted.checked_sub(1)
            && let (Some(width), Some(column)) = (widths.get_mut(i), headers.get(i))
        {
            let header = if compact {
                column.compact
            } else {
                column.header
            };
            let needed = u16::try_from(header.chars().count() + 1).unwrap_or(u16::MAX);
            *width = (*width).max(needed);
        }
    };
    arrow(&mut widths, false);
    let compact = total(&shown, &widths) > area.width;
    if compact {
        widths = at_most(&app.shown.compact_widths);
        arrow(&mut widths, true);
    }
    let across = !matches!(
        &app.namespaces,
        crate::app::ports::Namespaces::Only(list) if list.len() <= 1
    );
    // The least needed goes first; between equals, the widest. Columns that answer later
    // questions go before any value is cut; then a long name (a 63-character pool name) is
    // cut rather than a column an operator reads first given up for it.
    let drop = |shown: &mut Vec<usize>, widths: &[u16], at_least: u8| {
        while total(shown, widths) > area.width && shown.len() > 3 {
            let Some(drop) = shown
                .iter()
                .copied()
                .filter(|i| headers[*i].gives_way(across) >= at_least)
                .max_by_key(|i| (headers[*i].gives_way(across), widths[*i]))
            else {
                break;
            };
            shown.retain(|i| *i != drop);
        }
    };
    drop(&mut shown, &widths, FIRST_QUESTIONS.saturating_add(1));
    while total(&shown, &widths) > area.width {
        let last = shown.last().copied();
        let Some(widest) = shown
            .iter()
            .copied()
            .filter(|i| {
                Some(*i) != last && headers[*i].names_the_row() && widths[*i] > CUT_AT_LEAST
            })
            .max_by_key(|i| widths[*i])
        else {
            break;
        };
        let over = total(&shown, &widths).saturating_sub(area.width);
        widths[widest] = widths[widest].saturating_sub(over).max(CUT_AT_LEAST);
    }
    drop(&mut shown, &widths, 0);
    Some((shown, widths, compact))
}

/// How early the columns an operator reads first give way ([`Column::gives_way`]): on a
/// narrow screen they are kept while a long value elsewhere can be cut instead.
///
/// [`Column::gives_way`]: crate::app::rows::Column::gives_way
const FIRST_QUESTIONS: u8 = 2;

/// A value is cut to no less than this on a narrow screen before a column is given up.
const CUT_AT_LEAST: u16 = 16;

/// The last column may be cut; it keeps at least this much, a useful start.
const LAST_COLUMN_AT_LEAST: u16 = 16;

/// No column but the last is wider than this; a longer value is cut with a marker (the
/// detail views show it whole).
const COLUMN_AT_MOST: u16 = 48;

/// The marker after a pool's name: ` !` when its spec breaks a rule of the reference or the
/// doctor finds an error, ` ?` when the doctor's worst is a warning (the Diagnose tab and
/// `:problems` say what).
fn marker(row: &crate::app::rows::Row) -> &'static str {
    use crate::domain::rules::Severity;
    match (row.broken, row.worst) {
        (true, _) | (_, Some(Severity::Error)) => " !",
        (_, Some(_)) => " ?",
        _ => "",
    }
}
