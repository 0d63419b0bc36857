//! The guided tour (`pooldeck --tour`): the troubleshooting guide's sections as chapters
//! ([`chapters`]), in the guide's order, each played on its demo scenario. A caption beside
//! the console says what is wrong, what to look at and which keys to press; the tour reads
//! the console's state after every message and moves to the next step once the step is done
//! (the view opened, the finding read, the fix confirmed and seen on the demo), never before.
//! `?` shows the step's answer; `]` goes on to the next chapter once this one is done;
//! `:chapter N` jumps. Progress is kept by the runtime (`Effect::SaveTour`), read at the
//! start. The tour acts on itself and asks the console for the rest ([`moves`]).
//!
//! Pure: the chapters are data, their checks read the state `update` left.

use std::collections::BTreeSet;

use super::Tab;

mod chapters;
pub mod moves;
pub mod steps;
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

    /// The step waits for a fix, and read-only mode sends none: it can be read, not done.
    pub fn stuck_read_only(&self, read_only: bool) -> bool {
        read_only && self.step().is_some_and(|s| s.done.writes())
    }

    /// What is kept on disk.
    pub fn progress(&self) -> Progress {
        Progress {
            chapter: self.chapter + 1,
            done: self.done.iter().map(|n| n + 1).collect(),
        }
    }
}

fn words(numbers: &[usize]) -> String {
    numbers
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(", ")
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

#[cfg(test)]
mod tests;
