//! When a step is done: the tour reads the state `update` left after every message.

use super::{At, CHAPTERS, Done, Tour, words};
use crate::app::ask::Ask;
use crate::app::{App, Effect, Tab, View};
use crate::domain::Kind;

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
/// Returns the tour moved on and what it asks of the console, or `None` when nothing changed.
pub fn notice(app: &App, copied: Option<&str>) -> Option<(Tour, Vec<Ask>)> {
    let mut tour = app.tour.clone()?;
    // Nothing is checked while the story loads: the picture is the old one's until the load
    // answers and the watch starts again.
    if tour.loading {
        return None;
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
        return None;
    }
    let mut asks = Vec::new();
    // The tour's own "finish this chapter first" is about a step now passed.
    if app
        .message
        .as_deref()
        .is_some_and(|m| m.starts_with("finish this chapter first"))
    {
        asks.push(Ask::Say(None));
    }
    if tour.chapter_done() {
        tour.done.insert(tour.chapter);
        asks.push(Ask::Effect(Effect::SaveTour(tour.progress())));
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
        asks.push(Ask::Say(Some(format!(
            "✓ chapter {} done: {} {next}.",
            tour.chapter + 1,
            tour.current().learned,
        ))));
    }
    Some((tour, asks))
}
