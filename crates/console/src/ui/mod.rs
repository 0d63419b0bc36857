//! Drawing: `render(&App, &Theme, &mut Frame)` turns the state into a screen. Pure: it never
//! changes the state and never waits. Colours come from the theme by meaning.

use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::app::{App, Input, Overlay};
use crate::domain::inert;

pub mod cells;
mod confirm;
mod describe;
mod detail;
mod diagnose;
mod drafts;
mod empty;
mod event;
mod header;
mod logs;
mod overview;
mod scaling;
mod table;
mod tabs;
mod timeline;
mod tour;
mod wizard;

use crate::theme::{Meaning, Theme};
pub use detail::{bar, spark, sparkline};

/// The smallest screen the console lays out; below it, it says so.
pub use crate::app::{MIN_HEIGHT, MIN_WIDTH};

pub fn render(app: &App, theme: &Theme, frame: &mut Frame) {
    draw(app, theme, frame);
    // Every screen, the too-small one included.
    if theme.ascii {
        asciify(frame.buffer_mut());
    }
    inert_cells(frame.buffer_mut());
}

fn draw(app: &App, theme: &Theme, frame: &mut Frame) {
    let area = frame.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let mut text = format!(
            "pooldeck needs a terminal of at least {MIN_WIDTH}×{MIN_HEIGHT}; this one is {}×{}.\nMake it larger, or press q to quit.",
            area.width, area.height
        );
        // What a key pressed meanwhile did (nothing but Esc and q act): said here, since the
        // footer is not drawn.
        if let Some(message) = &app.message {
            text.push_str("\n\n");
            text.push_str(&inert::line(message));
        }
        frame.render_widget(
            Paragraph::new(text)
                .wrap(Wrap { trim: true })
                .alignment(Alignment::Center),
            area,
        );
        return;
    }
    // The tour's caption: beside the console when it keeps its width, else under the list.
    let (area, beside) = match &app.tour {
        Some(_) if tour::beside(area.width) => {
            let [console, caption] =
                Layout::horizontal([Constraint::Min(MIN_WIDTH), Constraint::Length(tour::BESIDE)])
                    .areas(area);
            (console, Some(caption))
        }
        _ => (area, None),
    };
    let [header, body, footer] = Layout::vertical([
        Constraint::Length(2),
        Constraint::Min(3),
        Constraint::Length(footer_height(app, area.width)),
    ])
    .areas(area);
    header::render(app, theme, frame, header);
    let screen = match (&app.tour, beside) {
        (Some(running), Some(caption)) => {
            tour::render(app, running, theme, frame, caption, true);
            body
        }
        (Some(running), None) => {
            let [screen, caption] =
                Layout::vertical([Constraint::Min(3), Constraint::Length(tour::BELOW)]).areas(body);
            tour::render(app, running, theme, frame, caption, false);
            screen
        }
        (None, _) => body,
    };
    match &app.detail {
        Some(open) => detail::render(app, open, theme, frame, screen),
        None => table::render(app, theme, frame, screen),
    }
    render_footer(app, theme, frame, footer);
    for overlay in &app.overlays {
        match overlay {
            Overlay::Help { scroll } => render_help(app, *scroll, theme, frame, body),
            Overlay::Confirm(confirm) => {
                confirm::render(confirm, app.fleet.several(), theme, frame, body)
            }
            Overlay::Wizard(state) => {
                // Across hubs, the wizard names the hub it writes to: its own.
                let on = app.fleet.several().then_some(state.context.as_str());
                wizard::render(state, on, theme, frame, body)
            }
            Overlay::Logs(view) => logs::render(view, theme, frame, body),
            Overlay::Drafts(chooser) => drafts::render(chooser, app.now, theme, frame, body),
            Overlay::Event(view) => event::render(view, app.now, theme, frame, body),
            Overlay::Describe(view) => {
                describe::render(view, &app.shown.describe_rows, theme, frame, body)
            }
            Overlay::Story { name, text, scroll } => {
                render_story(name, text, *scroll, theme, frame, body)
            }
        }
    }
}

/// The last guard before the terminal: whatever text reached the screen without passing
/// `domain::inert` (every view passes it first, to show what it escapes), no cell holds a
/// control character or a bidirectional control. ratatui drops the controls itself but joins
/// a zero-width character such as U+202E to the cell before it, where the terminal would act
/// on it.
fn inert_cells(buffer: &mut ratatui::buffer::Buffer) {
    for cell in &mut buffer.content {
        if cell
            .symbol()
            .chars()
            .any(crate::domain::inert::foreign_to_a_cell)
        {
            let kept: String = cell
                .symbol()
                .chars()
                .filter(|c| !crate::domain::inert::foreign_to_a_cell(*c))
                .collect();
            cell.set_symbol(if kept.is_empty() { " " } else { &kept });
        }
    }
}

/// The ASCII stand-in for a character the console draws, where the locale is not UTF-8.
fn ascii_of(c: char) -> char {
    match c {
        '│' | '┃' | '║' | '▏' => '|',
        '─' | '━' | '═' | '—' | '–' => '-',
        '┌' | '┐' | '└' | '┘' | '├' | '┤' | '┬' | '┴' | '┼' | '╭' | '╮' | '╰' | '╯' => {
            '+'
        }
        '█' | '▇' | '▆' => '#',
        '▅' | '▄' => '=',
        '▃' | '▂' => '-',
        '▁' | '░' => '.',
        '✓' | '✔' => '+',
        '✘' | '×' => 'x',
        '→' | '›' | '»' => '>',
        '←' | '‹' | '«' => '<',
        '↑' => '^',
        '↓' => 'v',
        '≤' => '<',
        '≥' => '>',
        '…' | '·' | '•' => '.',
        c if c.is_ascii() => c,
        _ => '?',
    }
}

/// Replaces every character that is not ASCII by its stand-in, cell by cell (a wide
/// character becomes one `?` and a blank).
fn asciify(buffer: &mut ratatui::buffer::Buffer) {
    for cell in &mut buffer.content {
        let symbol = cell.symbol();
        if symbol.is_ascii() {
            continue;
        }
        let replaced: String = symbol.chars().take(1).map(ascii_of).collect();
        cell.set_symbol(if replaced.is_empty() { " " } else { &replaced });
    }
}

/// How many rows `lines` take wrapped at `width` as a paragraph draws them (by words, not by
/// characters: a count by characters loses a dialog's last line, its buttons).
pub(super) fn wrapped_height(lines: &[Line], width: u16) -> usize {
    Paragraph::new(lines.to_vec())
        .wrap(Wrap { trim: false })
        .line_count(width.max(1))
}

/// A message longer than the screen is wide takes up to three lines (said whole, not cut at
/// 80 columns); the key hints and a field being typed take one.
fn footer_height(app: &App, width: u16) -> u16 {
    match (&app.input, &app.message) {
        (Input::None, Some(message)) if width > 0 => {
            let line = Line::raw(inert::line(message).into_owned());
            u16::try_from(wrapped_height(&[line], width).clamp(1, 3)).unwrap_or(3)
        }
        _ => 1,
    }
}

fn render_footer(app: &App, theme: &Theme, frame: &mut Frame, area: Rect) {
    let line = match &app.input {
        Input::Filter(text) => Line::from(vec![
            Span::styled("/", theme.style(Meaning::Accent)),
            Span::raw(inert::line(text).into_owned()),
            Span::styled("▏", theme.style(Meaning::Accent)),
        ]),
        Input::Search(text) => Line::from(vec![
            Span::styled("search /", theme.style(Meaning::Accent)),
            Span::raw(inert::line(text).into_owned()),
            Span::styled("▏", theme.style(Meaning::Accent)),
        ]),
        Input::Command(text, _) => Line::from(vec![
            Span::styled(":", theme.style(Meaning::Accent)),
            Span::raw(inert::line(text).into_owned()),
            Span::styled("▏", theme.style(Meaning::Accent)),
        ]),
        Input::None => match &app.message {
            // Cut with a marker where three lines end (the wrap may break earlier, at words).
            Some(message) => Line::from(Span::styled(
                inert::cut(
                    &inert::line(message),
                    usize::from(area.width).saturating_mul(3).saturating_sub(12),
                )
                .into_owned(),
                theme.style(Meaning::Warn),
            )),
            None => Line::from(Span::styled(
                theme.arrows(app.hints()).into_owned(),
                theme.style(Meaning::Muted),
            )),
        },
    };
    frame.render_widget(Paragraph::new(line).wrap(Wrap { trim: false }), area);
}

/// The demo scenario's story (`:story`), wrapped in a box over the screen.
fn render_story(name: &str, text: &str, scroll: u16, theme: &Theme, frame: &mut Frame, area: Rect) {
    let width = area.width.saturating_sub(8).clamp(20, 100).min(area.width);
    let height = area.height.saturating_sub(4).clamp(6, 16).min(area.height);
    let popup = centered(area, width, height);
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(inert::text(text).into_owned())
            .wrap(Wrap { trim: true })
            .scroll((scroll, 0))
            .block(Block::default().borders(Borders::ALL).title(Span::styled(
                format!(" The story: {} ", inert::line(name)),
                theme.style(Meaning::Accent).add_modifier(Modifier::BOLD),
            ))),
        popup,
    );
}

fn render_help(app: &App, scroll: u16, theme: &Theme, frame: &mut Frame, area: Rect) {
    // The help lists the keys of what lies behind it, from the same registry as the footer.
    let behind = app.scopes_behind();
    let mut lines: Vec<Line> = Vec::new();
    for (title, bindings) in crate::app::commands::help(&behind) {
        if !lines.is_empty() {
            lines.push(Line::raw(""));
        }
        lines.push(Line::styled(
            title,
            theme.style(Meaning::Muted).add_modifier(Modifier::BOLD),
        ));
        for (keys, what) in bindings {
            lines.push(Line::from(vec![
                Span::styled(
                    format!("{:<16}", theme.arrows(&keys)),
                    theme.style(Meaning::Accent),
                ),
                Span::raw(what),
            ]));
        }
    }
    let width = area.width.saturating_sub(2).min(96);
    let wanted = u16::try_from(lines.len())
        .unwrap_or(u16::MAX)
        .saturating_add(2);
    let height = wanted.min(area.height);
    let popup = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    };
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines)
            .scroll((scroll, 0))
            .wrap(Wrap { trim: false })
            .block(
                Block::default()
                    .borders(Borders::ALL)
                    .title(" Keys (Esc or ? to close, ↑↓ to scroll) "),
            ),
        popup,
    );
}

#[cfg(test)]
mod tests;

#[cfg(test)]
#[path = "hostile_tests.rs"]
mod hostile_tests;

/// A box of `width`×`height` in the middle of `area` (a dialog, an overlay).
pub(super) fn centered(area: Rect, width: u16, height: u16) -> Rect {
    Rect {
        x: area.x + area.width.saturating_sub(width) / 2,
        y: area.y + area.height.saturating_sub(height) / 2,
        width,
        height,
    }
}
