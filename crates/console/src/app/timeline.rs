//! A pool's Timeline tab: its own state (what was read of the pool's past, the order, the
//! sources hidden), its keys, and how the changes seen reach it and the store.

use super::commands::Command;
use super::{App, Detail, Effect, Tab};
use crate::domain::ObjectRef;
use crate::domain::timeline::{Entry, Source};
use crate::inventory::{Key, Kind};

/// Entries the open tab adds to what was read, at most (the oldest let go past it).
const KEPT_AT_MOST: usize = 20_000;

/// The Timeline tab's own state: what was read of the pool's past (asked for when the tab
/// first opens), the order, the sources hidden, and whether the entry at the top is open.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TimelineView {
    pub kept: Option<crate::inventory::timeline::Kept>,
    pub asked: bool,
    pub oldest_first: bool,
    pub hidden: Vec<Source>,
    pub open: bool,
}

impl Detail {
    /// A key of the Timeline tab: a source's letter shows or hides it, `r` turns the order,
    /// Enter opens the entry at the top.
    pub fn on_timeline(&mut self, command: Command, letter: Option<char>) {
        let view = &mut self.timeline;
        match command {
            Command::ToggleSource => {
                if let Some(source) = letter.and_then(Source::from_key) {
                    match view.hidden.iter().position(|s| *s == source) {
                        Some(at) => {
                            view.hidden.remove(at);
                        }
                        None => view.hidden.push(source),
                    }
                    self.scroll = 0;
                }
            }
            Command::Reverse => {
                view.oldest_first = !view.oldest_first;
                self.scroll = 0;
            }
            Command::OpenEntry => view.open = !view.open,
            _ => {}
        }
    }
}

impl App {
    /// Changes seen of a hub's pools: kept, and shown at once on the open pool's Timeline.
    pub(super) fn seen(&mut self, hub: usize, seen: Vec<(Key, Entry)>) {
        if seen.is_empty() {
            return;
        }
        if hub == self.fleet.focus()
            && let Some(detail) = self.detail.as_mut()
            && let Some(kept) = detail.timeline.kept.as_mut()
        {
            let (namespace, name) = (&detail.namespace, &detail.name);
            let shown = seen
                .iter()
                .filter(|((ns, n), _)| ns.as_str() == namespace && n.as_str() == name);
            kept.entries.extend(shown.map(|(_, e)| e.clone()));
            let over = kept.entries.len().saturating_sub(KEPT_AT_MOST);
            kept.entries.drain(..over);
        }
        self.outbox.push(Effect::Remember { hub, seen });
    }

    /// What was kept is read again (an action was answered) when the Timeline is open.
    pub(super) fn read_history_again(&mut self) {
        if let Some(detail) = self.detail.as_mut().filter(|d| d.tab == Tab::Timeline) {
            detail.timeline.asked = false;
        }
    }

    /// The Timeline tab opened: what was kept of the pool is asked for, once.
    pub(super) fn ask_history(&mut self) {
        let Some(open) = self
            .detail
            .as_mut()
            .filter(|d| d.tab == Tab::Timeline && !d.timeline.asked)
        else {
            return;
        };
        open.timeline.asked = true;
        let objects =
            crate::inventory::timeline::related(&self.fleet.inventory, &open.namespace, &open.name);
        let pool = ObjectRef::new(Kind::Pool, open.namespace.clone(), open.name.clone());
        let hub = self.fleet.focus();
        self.outbox.push(Effect::ReadHistory { hub, pool, objects });
    }
}
