//! The guided tour (`pooldeck --tour`): the troubleshooting guide's sections as chapters
//! ([`chapters`]), in the guide's order, each played on its demo scenario. A caption beside
//! the console says what is wrong, what to look at and which keys to press; the tour reads
//! the console's state after every message and moves to the next step once the step is done
//! (the view opened, the finding read, the fix confirmed and seen on the demo), never before.
//! `?` shows the step's answer; `]` goes on to the next chapter once this one is done;
//! `:chapter N` jumps. Progress is kept by the runtime ([`Effect::SaveTour`]), read at the
//! start.
//!
//! Pure: the chapters are data, their checks read the state `update` left.

use std::collections::BTreeSet;

use super::ports::Namespaces;
use super::{App, Effect, Tab, View};
use crate::domain::Kind;

mod chapters;
pub use chapters::CHAPTERS;

/// One chapter: a section of the guide and the scenario that plays it.
pub struct Chapter {
    /// The guide's section title.
    pub title: &'static str,
    /// The built-in demo scenario the chapter loads.
    pub scenario: &'static str,
    /// What is wrong, in a sentence or two.
    pub wrong: &'static str,
    pub steps: &'static [Step],
    /// What the chapter taught, said once it is done.
    pub learned: &'static str,
}

/// One step of a chapter.
pub struct Step {
    /// What to look at, and why.
    pub look: &'static str,
    /// The keys to press, as typed.
    pub keys: &'static str,
    /// What `?` shows: the way there whole, and what the screen then says.
    pub answer: &'static str,
    /// When the step is done.
    pub done: Done,
}

/// A pool a step names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct At {
    pub namespace: &'static str,
    pub name: &'static str,
}

/// What the tour waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Done {
    /// The pool's detail open (on this tab, if one is named), nothing over it, the pool in
    /// the picture.
    Opened(At, Option<Tab>),
    /// A list view open (by its command-line name), and with warnings only if asked.
    Viewing(&'static str, bool),
    /// Something copied whose footer name contains this text (`the runbook for NAME`).
    Copied(&'static str),
    /// The pool's VIP is no longer this address (recreated with another, on the demo).
    VipMovedFrom(At, &'static str),
    /// The pool is gone from the hub (its deletion completed).
    Gone(At),
    /// Every AIWorkload of the (deleting) pool is verified gone from the hub.
    WorkloadsGone(At),
    /// The confirmation of the unblock's finalizer step for the pool is open, read.
    FinalizerAsked(At),
    /// The pool's Events tab open, and an event of this reason about the pool in it.
    EventSeen(At, &'static str),
}

impl Done {
    /// A step done only by changing the hub: read-only mode cannot do it.
    pub fn writes(self) -> bool {
        matches!(
            self,
            Done::VipMovedFrom(..) | Done::Gone(_) | Done::WorkloadsGone(_)
        )
    }
}

/// How far the tour is: kept between sessions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// The chapter open last (1-based).
    pub chapter: usize,
    /// The chapters done (1-based).
    pub done: BTreeSet<usize>,
}

/// Why a progress file makes no sense (its text escaped, as it is said).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Nonsense {
    #[error("\"{0}\" is not a chapter")]
    NotAChapter(String),
    #[error("unknown line \"{0}\"")]
    UnknownLine(String),
    #[error("no chapter named")]
    NoChapter,
}

impl Progress {
    /// The file's text: two lines, `chapter N` and `done N…`.
    pub fn to_text(&self) -> String {
        let done: Vec<String> = self.done.iter().map(usize::to_string).collect();
        format!("chapter {}\ndone {}\n", self.chapter, done.join(" "))
    }

    /// Reads the file's text; a chapter out of range, or anything else, is refused (the
    /// tour then starts at the first chapter and says why).
    pub fn read(text: &str) -> Result<Progress, Nonsense> {
        let in_range = |word: &str| {
            word.parse::<usize>()
                .ok()
                .filter(|n| (1..=CHAPTERS.len()).contains(n))
                .ok_or_else(|| Nonsense::NotAChapter(crate::domain::inert::line(word).into_owned()))
        };
        let mut progress = Progress::default();
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
            match word {
                "chapter" => progress.chapter = in_range(rest.trim())?,
                "done" => {
                    for n in rest.split_whitespace() {
                        progress.done.insert(in_range(n)?);
                    }
                }
                _ => {
                    return Err(Nonsense::UnknownLine(
                        crate::domain::inert::line(line).into_owned(),
                    ));
                }
            }
        }
        if progress.chapter == 0 {
            return Err(Nonsense::NoChapter);
        }
        Ok(progress)
    }

    /// Where a tour started without `--chapter` begins: the chapter open last if it is not
    /// done, else the next one not done (round to the first); the first once all are done.
    pub fn start(&self) -> usize {
        let count = CHAPTERS.len();
        let from = self.chapter.clamp(1, count);
        (0..count)
            .map(|i| (from - 1 + i) % count + 1)
            .find(|n| !self.done.contains(n))
            .unwrap_or(1)
    }
}

/// The tour under way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tour {
    /// The chapter shown (0-based into [`CHAPTERS`]).
    pub chapter: usize,
    /// The step waited for; `steps.len()`: the chapter is done.
    pub step: usize,
    /// `?` pressed: the step's answer is shown.
    pub answer: bool,
    /// Its scenario is being loaded, or loaded and not yet listed anew: nothing is checked
    /// until the picture is the chapter's.
    pub loading: bool,
    /// The chapter's scenario could not be loaded: why.
    pub failed: Option<String>,
    /// The chapters done (0-based), this session and before.
    pub done: BTreeSet<usize>,
}

impl Tour {
    /// A tour on `chapter` (1-based, in range), with what was done before.
    pub fn new(chapter: usize, progress: &Progress) -> Tour {
        Tour {
            chapter: chapter.clamp(1, CHAPTERS.len()).saturating_sub(1),
            step: 0,
            answer: false,
            loading: false,
            failed: None,
            done: progress.done.iter().map(|n| n.saturating_sub(1)).collect(),
        }
    }

    pub fn current(&self) -> &'static Chapter {
        &CHAPTERS[self.chapter.min(CHAPTERS.len().saturating_sub(1))]
    }

    /// The step waited for, or `None` once the chapter is done.
    pub fn step(&self) -> Option<&'static Step> {
        self.current().steps.get(self.step)
    }

    /// Every step of the chapter done.
    pub fn chapter_done(&self) -> bool {
        self.step >= self.current().steps.len()
    }

    /// Every chapter done, this session or before.
    pub fn finished(&self) -> bool {
        self.done.len() >= CHAPTERS.len()
    }

    /// The chapters not done yet, 1-based.
    pub fn left(&self) -> Vec<usize> {
        (0..CHAPTERS.len())
            .filter(|n| !self.done.contains(n))
            .map(|n| n + 1)
            .collect()
    }

    /// What is kept on disk.
    pub fn progress(&self) -> Progress {
        Progress {
            chapter: self.chapter + 1,
            done: self.done.iter().map(|n| n + 1).collect(),
        }
    }
}

/// Whether a step is done in the state the console is in now. `copied`: what this message
/// reported copied.
fn done(check: Done, app: &App, copied: Option<&str>) -> bool {
    let pool = |at: At| app.fleet.inventory.get(Kind::Pool, at.namespace, at.name);
    match check {
        Done::Opened(at, tab) => {
            pool(at).is_some()
                && app.detail.as_ref().is_some_and(|d| {
                    d.namespace == at.namespace
                        && d.name == at.name
                        && tab.is_none_or(|t| d.tab == t)
                })
                // The detail is what the screen shows: nothing lies over it.
                && app.overlays.is_empty()
        }
        Done::Viewing(view, warnings) => {
            app.detail.is_none()
                && app.overlays.is_empty()
                && View::named(view).is_some_and(|v| app.list.view == v)
                && (!warnings || app.list.warnings_only)
        }
        Done::Copied(what) => copied.is_some_and(|c| c.contains(what)),
        Done::VipMovedFrom(at, old) => pool(at)
            .and_then(|o| o.pool())
            .and_then(|p| p.vip())
            .is_some_and(|vip| vip != old),
        // Gone once the chapter's pools are listed and this one is not among them.
        Done::Gone(at) => pool(at).is_none() && app.fleet.inventory.count(Kind::Pool) > 0,
        // Both also once the pool is gone: a fix made first ends the chapter.
        Done::WorkloadsGone(at) => {
            done(Done::Gone(at), app, copied)
                || pool(at)
                    .and_then(|o| o.pool())
                    .is_some_and(|p| app.fleet.inventory.workloads_of(p).clear_since().is_some())
        }
        Done::FinalizerAsked(at) => done(Done::Gone(at), app, copied) || finalizer_asked(app, at),
        Done::EventSeen(at, reason) => {
            done(Done::Opened(at, Some(Tab::Events)), app, copied)
                && app
                    .fleet
                    .inventory
                    .events_for("ComputePool", at.namespace, at.name)
                    .iter()
                    .any(|e| e.event().and_then(|e| e.reason()) == Some(reason))
        }
    }
}

/// Whether the dialog on top is the unblock's finalizer step for the pool.
fn finalizer_asked(app: &App, at: At) -> bool {
    app.overlays.last().is_some_and(|o| match o {
        crate::app::Overlay::Confirm(c) => {
            c.plan.fix == crate::domain::fixes::Fix::RemoveFinalizer
                && c.plan
                    .targets
                    .first()
                    .is_some_and(|t| t.starts_with(&format!("{}/{} ", at.namespace, at.name)))
        }
        _ => false,
    })
}

/// After every message: the steps now done are passed, in order (one message may finish
/// more than one only if each is done in the state left). A chapter finished is kept.
/// Says whether anything changed.
pub fn notice(app: &mut App, copied: Option<&str>) -> bool {
    let Some(tour) = &app.tour else {
        return false;
    };
    let mut tour = tour.clone();
    // Nothing is checked while the story loads: the picture is the old one's until the load
    // answers and the watch starts again.
    if tour.loading {
        return false;
    }
    let before = tour.clone();
    // A fix made before the steps that lead to it (the pool deleted before its finding was
    // read) is the chapter's point reached: the steps before it cannot be done any more.
    let steps = tour.current().steps;
    if let Some(reached) = (tour.step..steps.len())
        .rev()
        .find(|&i| steps[i].done.writes() && done(steps[i].done, app, copied))
    {
        tour.step = reached;
    }
    while let Some(step) = tour.step() {
        if !done(step.done, app, copied) {
            break;
        }
        tour.step += 1;
        tour.answer = false;
    }
    if tour == before {
        return false;
    }
    // The tour's own "finish this chapter first" is about a step now passed.
    if app
        .message
        .as_deref()
        .is_some_and(|m| m.starts_with("finish this chapter first"))
    {
        app.message = None;
    }
    if tour.chapter_done() {
        tour.done.insert(tour.chapter);
        app.outbox.push(Effect::SaveTour(tour.progress()));
        let next = if tour.finished() {
            "every chapter is done: :chapter N plays one again".to_owned()
        } else if tour.chapter + 1 < CHAPTERS.len() {
            format!("] goes on to chapter {}", tour.chapter + 2)
        } else {
            format!(
                "chapters not done yet: {} (:chapter N)",
                words(&tour.left())
            )
        };
        app.message = Some(format!(
            "✓ chapter {} done: {} {next}.",
            tour.chapter + 1,
            tour.current().learned,
        ));
    }
    app.tour = Some(tour);
    true
}

fn words(numbers: &[usize]) -> String {
    numbers
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Opens chapter `chapter` (0-based): its scenario is loaded, the console goes back to the
/// pools list of every namespace (a story's pools may be in any), and what was bound to the
/// old story's objects closes.
pub fn open(app: &mut App, chapter: usize) {
    let Some(tour) = &mut app.tour else {
        return;
    };
    let Some(next) = CHAPTERS.get(chapter) else {
        return;
    };
    tour.chapter = chapter;
    tour.step = 0;
    tour.answer = false;
    tour.loading = true;
    tour.failed = None;
    let progress = tour.progress();
    let cancelled = super::requests::leave(app);
    app.detail = None;
    app.input = super::Input::None;
    app.list = super::ListState::default();
    app.message = Some(super::requests::with_cancelled(
        format!(
            "chapter {}: {} (loading {}…)",
            chapter + 1,
            next.title,
            next.scenario
        ),
        &cancelled,
    ));
    app.outbox
        .push(Effect::PlayScenario(next.scenario.to_owned()));
    app.outbox.push(Effect::SaveTour(progress));
}

/// The answer to [`Effect::PlayScenario`] for `scenario`: the chapter's story is on the demo
/// (its name and text for `:story`), or why not. The answer of a load asked before another
/// (a chapter left while it loaded) is dropped.
pub fn played(
    app: &mut App,
    scenario: &str,
    result: Result<(String, String), crate::app::failed::StoryError>,
) {
    let Some(tour) = &mut app.tour else {
        return;
    };
    if tour.current().scenario != scenario || !tour.loading {
        app.drop_answer();
        return;
    }
    match result {
        Ok(story) => {
            tour.loading = false;
            let chapter = tour.chapter;
            let title = tour.current().title;
            app.story = Some(story);
            // The watch starts again: what is listed now is the new story's, and nothing of
            // the old one arriving late is applied (its events carry the old watch's epoch).
            app.watch(Namespaces::All);
            app.message = Some(format!("chapter {}: {title}", chapter + 1));
        }
        Err(why) => {
            // Checks stay off: the picture is not the chapter's.
            tour.failed = Some(why.to_string());
            app.message = Some(format!(
                "cannot load the chapter's scenario: {why}; :chapter N tries again"
            ));
        }
    }
}

/// `?` in the tour: the step's answer shown, or hidden again.
pub fn toggle_answer(app: &mut App) {
    if let Some(tour) = &mut app.tour {
        if tour.chapter_done() {
            app.message = Some(if tour.chapter + 1 < CHAPTERS.len() {
                format!("chapter {} is done: ] goes on", tour.chapter + 1)
            } else {
                "the last chapter is done: :chapter N plays one again; :help lists the keys"
                    .to_owned()
            });
        } else {
            tour.answer = !tour.answer;
        }
    }
}

/// Why `]` cannot go on now, if it cannot: the chapter is not done (unless its step waits
/// for a change read-only mode cannot send), or it is the last.
pub fn next_refused(app: &App) -> Option<String> {
    let tour = app.tour.as_ref()?;
    if tour.chapter + 1 >= CHAPTERS.len() {
        return Some(format!(
            "that was the last chapter: :chapter N plays one again{}",
            if tour.finished() {
                String::new()
            } else {
                format!(" (not done yet: {})", words(&tour.left()))
            }
        ));
    }
    if tour.chapter_done() || stuck_read_only(app) {
        return None;
    }
    Some(format!(
        "finish this chapter first (step {} of {}; ? shows the answer), or :chapter N jumps",
        tour.step + 1,
        tour.current().steps.len()
    ))
}

/// The step waits for a fix, and read-only mode sends none: it can be read, not done.
pub fn stuck_read_only(app: &App) -> bool {
    app.read_only()
        && app
            .tour
            .as_ref()
            .and_then(Tour::step)
            .is_some_and(|s| s.done.writes())
}

/// `]`: the next chapter.
pub fn next_chapter(app: &mut App) {
    if next_refused(app).is_none()
        && let Some(tour) = &app.tour
    {
        let next = tour.chapter + 1;
        open(app, next);
    }
}

/// The chapters, numbered, on one line: `1 Compute Pool Stuck in Provisioning; 2 …`.
pub fn listing() -> String {
    CHAPTERS
        .iter()
        .enumerate()
        .map(|(i, c)| format!("{} {}", i + 1, c.title))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The chapters by number and scenario, short enough for the footer at 80 columns.
pub fn short_listing() -> String {
    CHAPTERS
        .iter()
        .enumerate()
        .map(|(i, c)| format!("{} {}", i + 1, c.scenario))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `:chapter N`: jump there (any chapter, done or not); `:chapter` alone lists them.
pub fn jump(app: &mut App, asked: &str) {
    if app.tour.is_none() {
        app.message = Some(":chapter is the tour's: start it with pooldeck --tour".to_owned());
        return;
    }
    match asked.parse::<usize>() {
        Ok(n) if (1..=CHAPTERS.len()).contains(&n) => open(app, n - 1),
        _ if asked.is_empty() => app.message = Some(format!("chapters: {}", short_listing())),
        _ => {
            app.message = Some(format!(
                "there is no chapter \"{}\": {}",
                crate::domain::inert::line(asked),
                short_listing()
            ))
        }
    }
}

#[cfg(test)]
mod tests;
