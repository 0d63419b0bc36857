//! The tour's moves: a chapter opened, loaded, its answer shown, the next one, a jump. Each
//! acts on the tour and returns what it asks of the console beyond it.

use super::{CHAPTERS, Tour, short_listing, words};
use crate::app::Effect;
use crate::app::ask::Ask;
use crate::app::ports::Namespaces;

/// Opens chapter `chapter` (0-based): its scenario is loaded, the console goes back to the
/// pools list of every namespace (a story's pools may be in any), and what was bound to the
/// old story's objects closes.
pub fn open(tour: &mut Tour, chapter: usize) -> Vec<Ask> {
    let Some(next) = CHAPTERS.get(chapter) else {
        return Vec::new();
    };
    tour.chapter = chapter;
    tour.step = 0;
    tour.answer = false;
    tour.loading = true;
    tour.failed = None;
    vec![
        Ask::Leave(format!(
            "chapter {}: {} (loading {}…)",
            chapter + 1,
            next.title,
            next.scenario
        )),
        Ask::Home,
        Ask::Effect(Effect::PlayScenario(next.scenario.to_owned())),
        Ask::Effect(Effect::SaveTour(tour.progress())),
    ]
}

/// The answer to [`Effect::PlayScenario`] for `scenario`: the chapter's story is on the demo
/// (its name and text for `:story`), or why not. The answer of a load asked before another
/// (a chapter left while it loaded) is dropped.
pub fn played(
    tour: &mut Tour,
    scenario: &str,
    result: Result<(String, String), crate::app::failed::StoryError>,
) -> Vec<Ask> {
    if tour.current().scenario != scenario || !tour.loading {
        return vec![Ask::Dropped];
    }
    match result {
        Ok(story) => {
            tour.loading = false;
            vec![
                Ask::Story(story),
                // The watch starts again: what is listed now is the new story's, and nothing
                // of the old one arriving late is applied (its events carry the old epoch).
                Ask::Watch(Namespaces::All),
                Ask::Say(Some(format!(
                    "chapter {}: {}",
                    tour.chapter + 1,
                    tour.current().title
                ))),
            ]
        }
        Err(why) => {
            // Checks stay off: the picture is not the chapter's.
            tour.failed = Some(why.to_string());
            vec![Ask::Say(Some(format!(
                "cannot load the chapter's scenario: {why}; :chapter N tries again"
            )))]
        }
    }
}

/// `?` in the tour: the step's answer shown, or hidden again; what the footer says instead.
pub fn toggle_answer(tour: &mut Tour) -> Option<String> {
    if !tour.chapter_done() {
        tour.answer = !tour.answer;
        return None;
    }
    Some(if tour.chapter + 1 < CHAPTERS.len() {
        format!("chapter {} is done: ] goes on", tour.chapter + 1)
    } else {
        "the last chapter is done: :chapter N plays one again; :help lists the keys".to_owned()
    })
}

/// Why `]` cannot go on now, if it cannot: the chapter is not done (unless its step waits
/// for a change read-only mode cannot send), or it is the last.
pub fn next_refused(tour: &Tour, read_only: bool) -> Option<String> {
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
    if tour.chapter_done() || tour.stuck_read_only(read_only) {
        return None;
    }
    Some(format!(
        "finish this chapter first (step {} of {}; ? shows the answer), or :chapter N jumps",
        tour.step + 1,
        tour.current().steps.len()
    ))
}

/// `]`: the next chapter.
pub fn next_chapter(tour: &mut Tour, read_only: bool) -> Vec<Ask> {
    if next_refused(tour, read_only).is_some() {
        return Vec::new();
    }
    let next = tour.chapter + 1;
    open(tour, next)
}

/// `:chapter N`: jump there (any chapter, done or not); `:chapter` alone lists them.
pub fn jump(tour: Option<&Tour>, asked: &str) -> Vec<Ask> {
    let say = |text: String| vec![Ask::Say(Some(text))];
    if tour.is_none() {
        return say(":chapter is the tour's: start it with pooldeck --tour".to_owned());
    }
    match asked.parse::<usize>() {
        Ok(n) if (1..=CHAPTERS.len()).contains(&n) => vec![Ask::Chapter(n - 1)],
        _ if asked.is_empty() => say(format!("chapters: {}", short_listing())),
        _ => say(format!(
            "there is no chapter \"{}\": {}",
            crate::domain::inert::line(asked),
            short_listing()
        )),
    }
}
