//! One event read whole (Enter on the events list): its message wrapped, however long, the
//! object it concerns, when and how often; Enter goes to that object (a Compute Pool or its
//! evaluation: the pool's detail), `c` copies the message. Part of `update`.

use super::commands::{Command, Scope};
use super::component::{After, Ask, Component, Ctx};
use super::{Detail, Effect, Tab};
use crate::inventory::Object;

/// An event, as it was when it was opened (a later change of it does not move the page).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventView {
    pub kind: String,
    pub reason: String,
    pub message: String,
    /// The object it concerns: kind, namespace, name.
    pub object: (String, String, String),
    pub count: Option<i64>,
    pub last_seen: Option<chrono::DateTime<chrono::Utc>>,
    pub scroll: u16,
}

impl EventView {
    /// The page of an event object (`None`: not an event, or one that is not a mapping).
    pub fn of(event: &Object) -> Option<EventView> {
        let e = event.event()?;
        let text = |t: Option<&str>| t.unwrap_or("").to_owned();
        Some(EventView {
            kind: text(e.event_type()),
            reason: text(e.reason()),
            message: text(e.message()),
            object: (
                text(e.involved("kind")),
                text(e.involved("namespace")),
                text(e.involved("name")),
            ),
            count: e.count(),
            last_seen: event.happened(),
            scroll: 0,
        })
    }

    /// The tab of the pool's detail the object it concerns opens on, if the console has a
    /// page for it.
    fn opens_on(&self) -> Option<Tab> {
        match self.object.0.as_str() {
            "ComputePool" => Some(Tab::Overview),
            "ComputePoolEvaluation" => Some(Tab::Scaling),
            _ => None,
        }
    }
}

impl Component for EventView {
    fn scopes(&self) -> Vec<Scope> {
        vec![Scope::Event]
    }

    fn handle(&mut self, command: Command, ctx: &mut Ctx) -> After {
        match command {
            Command::Close => return After::Close,
            Command::Down => self.scroll = self.scroll.saturating_add(1),
            Command::Up => self.scroll = self.scroll.saturating_sub(1),
            Command::PageDown => self.scroll = self.scroll.saturating_add(ctx.page_lines()),
            Command::PageUp => self.scroll = self.scroll.saturating_sub(ctx.page_lines()),
            Command::Copy => ctx.effect(Effect::Copy {
                text: self.message.clone(),
                what: format!("the message of the {} event", self.reason),
            }),
            Command::Activate => {
                let (kind, namespace, name) = &self.object;
                match self.opens_on() {
                    Some(tab) => {
                        ctx.ask(Ask::Detail(Detail {
                            namespace: namespace.clone(),
                            name: name.clone(),
                            tab,
                            scroll: 0,
                            timeline: Default::default(),
                        }));
                        return After::Close;
                    }
                    None => {
                        ctx.say(format!(
                            "the console has no page for a {kind}: kubectl describe {} {} -n {}",
                            kind.to_lowercase(),
                            crate::domain::shell::quote(name),
                            crate::domain::shell::quote(namespace)
                        ));
                    }
                }
            }
            _ => {}
        }
        After::Stay
    }
}

/// Enter on the events list: the selected event, read whole.
pub fn open(ctx: &mut Ctx, row: usize) {
    let Some(object) = ctx.shown.row(row).and_then(|r| match &r.object {
        super::rows::Source::Object(object) => Some(object.clone()),
        _ => None,
    }) else {
        return;
    };
    match EventView::of(&object) {
        Some(view) => ctx.ask(Ask::Open(super::Overlay::Event(Box::new(view)))),
        None => ctx.say("this event cannot be read"),
    }
}
