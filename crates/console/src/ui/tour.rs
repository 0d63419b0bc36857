//! The guided tour's caption: beside the console when the terminal is wide enough to keep
//! the console's own width, else a band under the list (a dialog opened then lies over it).
//! What is done, what is next and the current step are told by marks and words (`✓`, `›`,
//! "step 2 of 3"), so the caption reads the same without colour.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Padding, Paragraph, Wrap};

use crate::app::App;
use crate::app::tour::{CHAPTERS, Tour};
use crate::theme::{Meaning, Theme};

/// The caption's width beside the console.
pub const BESIDE: u16 = 40;
/// The band's height under the list (its border included).
pub const BELOW: u16 = 7;

/// Whether the caption goes beside the console: the console keeps its smallest width.
pub fn beside(width: u16) -> bool {
    width >= super::MIN_WIDTH.saturating_add(BESIDE)
}

pub fn render(app: &App, tour: &Tour, theme: &Theme, frame: &mut Frame, area: Rect, full: bool) {
    let chapter = tour.current();
    let strong = theme.style(Meaning::Accent).add_modifier(Modifier::BOLD);
    let muted = theme.style(Meaning::Muted);
    let mut lines = head_lines(app, tour, theme, full);
    step_lines(tour, theme, full, &mut lines);
    if tour.chapter_done() {
        lines.push(Line::from(vec![
            Span::styled("✓ Chapter done: ", theme.style(Meaning::Ok)),
            Span::raw(chapter.learned),
        ]));
        lines.push(Line::styled(
            if tour.finished() {
                "The tour is done. :chapter N plays a chapter again."
            } else {
                "Press ] for the next chapter."
            },
            strong,
        ));
    }
    if full {
        lines.push(Line::raw(""));
        lines.push(Line::styled(
            if app.enabled(crate::app::commands::Command::NextChapter) {
                "? answer  ] next chapter  :chapter N  :story  :help"
            } else {
                "? answer  :chapter N  :story  :help"
            },
            muted,
        ));
    }
    let title = format!(
        " Tour · chapter {} of {}{} ",
        tour.chapter + 1,
        CHAPTERS.len(),
        if full {
            String::new()
        } else {
            format!(" · {}", chapter.title)
        }
    );
    let hint = match (
        full,
        app.enabled(crate::app::commands::Command::NextChapter),
    ) {
        (true, _) => "",
        (false, true) => " ] next chapter ",
        (false, false) => " ? answer ",
    };
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: false }).block(
            Block::default()
                .borders(Borders::ALL)
                .padding(Padding::horizontal(1))
                .title(Span::styled(title, strong))
                .title_bottom(Line::styled(hint, muted).right_aligned()),
        ),
        area,
    );
}

/// The chapter's steps: every one when the caption is beside the console (done, current,
/// to come), the current one alone below it; the current with its keys and, asked, its
/// answer.
fn step_lines(tour: &Tour, theme: &Theme, full: bool, lines: &mut Vec<Line<'static>>) {
    let chapter = tour.current();
    let strong = theme.style(Meaning::Accent).add_modifier(Modifier::BOLD);
    let muted = theme.style(Meaning::Muted);
    for (i, step) in chapter.steps.iter().enumerate() {
        let current = i == tour.step;
        if !full && !current {
            continue;
        }
        let (mark, style) = if i < tour.step {
            ("✓", theme.style(Meaning::Ok))
        } else if current {
            ("›", strong)
        } else {
            (" ", muted)
        };
        lines.push(Line::from(vec![
            Span::styled(format!("{mark} "), style),
            Span::styled(
                format!("Step {} of {}: ", i + 1, chapter.steps.len()),
                if current { strong } else { muted },
            ),
            Span::raw(step.look),
        ]));
        if current {
            lines.push(Line::from(vec![
                Span::raw("  Press: "),
                Span::styled(step.keys, strong),
            ]));
            if tour.answer {
                lines.push(Line::from(vec![
                    Span::styled("  Answer: ", theme.style(Meaning::Info)),
                    Span::raw(step.answer),
                ]));
            } else if !full {
                lines.push(Line::from(vec![
                    Span::styled("  What is wrong: ", muted),
                    Span::raw(chapter.wrong),
                ]));
            }
        }
    }
}

/// The caption's head: beside the console the chapter's title and what is wrong; then why
/// its scenario is not there yet, and whether read-only mode keeps its fix from being sent.
fn head_lines(app: &App, tour: &Tour, theme: &Theme, full: bool) -> Vec<Line<'static>> {
    let chapter = tour.current();
    let strong = theme.style(Meaning::Accent).add_modifier(Modifier::BOLD);
    let muted = theme.style(Meaning::Muted);
    let mut lines: Vec<Line<'static>> = Vec::new();
    if full {
        lines.push(Line::styled(chapter.title, strong));
        lines.push(Line::raw(""));
        lines.push(Line::styled(
            "What is wrong",
            muted.add_modifier(Modifier::BOLD),
        ));
        lines.push(Line::raw(chapter.wrong));
        lines.push(Line::raw(""));
    }
    match &tour.failed {
        Some(why) => lines.push(Line::styled(
            format!(
                "The scenario {} could not be loaded ({}): :chapter {} tries again.",
                chapter.scenario,
                crate::domain::inert::line(why),
                tour.chapter + 1
            ),
            theme.style(Meaning::Error),
        )),
        None if tour.loading => lines.push(Line::styled(
            format!("loading the scenario {}…", chapter.scenario),
            muted,
        )),
        None => {}
    }
    // Read-only mode sends no fix: the step can be read, not done; ] goes on without it.
    if tour.stuck_read_only(app.read_only()) {
        lines.push(Line::styled(
            format!(
                "Read-only ({}): this fix cannot be sent here. Read the step, then ] goes on.",
                crate::domain::inert::line(
                    app.fleet.read_only_why.as_deref().unwrap_or("--readonly")
                )
            ),
            theme.style(Meaning::Warn),
        ));
    }
    lines
}
