//! The drafts the wizard left, as the console knows them (read from disk at start, kept in
//! step as the wizard saves, applies and discards), and the chooser `n` and `e` open when
//! there is a draft to offer: `n` every new-pool draft (and an edit's whose pool is gone),
//! `e` the selected pool's own draft with what it changes against the live pool and a
//! warning when the pool changed since the draft started. Part of `update`.

use chrono::{DateTime, Utc};
use serde_json::Value;

use super::commands::{Command, Scope};
use super::component::{After, Ask, Component, Ctx, Start};
use super::wizard::{self, Purpose, Wizard};
use super::{App, Effect};
use crate::domain::Kind;
pub use crate::domain::draft::Kept;
use crate::domain::draft::diff::{Change, changes};
use crate::domain::draft::{Aim, Saved};

/// What the chooser is for.
#[derive(Clone, Debug, PartialEq)]
pub enum Offer {
    /// `n`: a new pool, or one of these drafts.
    New { drafts: Vec<Kept> },
    /// `e`: the live pool, or its draft; what the draft changes against it.
    Edit {
        live: Value,
        draft: Box<Kept>,
        changes: Vec<Change>,
        /// The pool changed since the draft started: (the draft's version, the live one).
        moved: Option<(String, String)>,
    },
}

/// The chooser on the modal stack.
#[derive(Clone, Debug, PartialEq)]
pub struct Chooser {
    pub offer: Offer,
    /// 0: start afresh (a new pool, or from the live pool); then the drafts.
    pub cursor: usize,
    /// `d` was pressed once on this entry: a second `d` discards it.
    pub discarding: Option<usize>,
}

impl Chooser {
    /// The entries, as the list shows them.
    pub fn entries(&self, now: DateTime<Utc>) -> Vec<String> {
        let age = |kept: &Kept| {
            kept.at
                .map(|at| crate::domain::words::age(now - at))
                .unwrap_or_else(|| "?".into())
        };
        match &self.offer {
            Offer::New { drafts } => std::iter::once("Start a new pool".to_owned())
                .chain(drafts.iter().map(|kept| {
                    format!(
                        "Resume {}  {}  saved {} ago",
                        kept.saved.id(),
                        match kept.saved.aim {
                            Aim::New => "new pool",
                            Aim::Edit => "edit of a pool that is gone",
                        },
                        age(kept)
                    )
                }))
                .collect(),
            Offer::Edit { draft, .. } => vec![
                "Start from the live pool (the draft is replaced once you change something)"
                    .to_owned(),
                format!("Resume the draft saved {} ago", age(draft)),
            ],
        }
    }
}

/// Whether a draft was written on the hub in use (one of unknown hub, from an older
/// pooldeck, is offered everywhere).
fn on_this_hub(app: &App, kept: &Kept) -> bool {
    kept.saved.context.is_empty() || kept.saved.context == app.fleet.connection.context
}

/// The draft kept for a pool's edit on this hub, if any.
fn edit_draft<'a>(app: &'a App, namespace: &str, name: &str) -> Option<&'a Kept> {
    app.drafts.iter().find(|k| {
        k.saved.aim == Aim::Edit
            && on_this_hub(app, k)
            && k.saved.namespace() == namespace
            && k.saved.name() == name
    })
}

/// The drafts `n` offers on this hub: new pools', and edits' whose pool is gone (a recreate
/// that stopped half way: gone as a live list of its namespace says), newest first.
fn new_drafts(app: &App) -> Vec<Kept> {
    app.drafts
        .iter()
        .filter(|k| on_this_hub(app, k))
        .filter(|k| match k.saved.aim {
            Aim::New => true,
            Aim::Edit => {
                app.fleet
                    .inventory
                    .listed_in(Kind::Pool, k.saved.namespace())
                    && app
                        .fleet
                        .inventory
                        .get(Kind::Pool, k.saved.namespace(), k.saved.name())
                        .is_none()
            }
        })
        .cloned()
        .collect()
}

/// `n`: the chooser, when there are drafts to offer.
pub fn offer_new(app: &App) -> Option<Chooser> {
    let drafts = new_drafts(app);
    (!drafts.is_empty()).then_some(Chooser {
        offer: Offer::New { drafts },
        cursor: 1,
        discarding: None,
    })
}

/// `e` on a pool with a draft: the chooser, with what the draft changes.
pub fn offer_edit(app: &App, live: &Value) -> Option<Chooser> {
    let at = |p: &str| live.pointer(p).and_then(Value::as_str).unwrap_or("");
    let kept = edit_draft(app, at("/metadata/namespace"), at("/metadata/name"))?.clone();
    let now_version = at("/metadata/resourceVersion").to_owned();
    let moved = kept
        .saved
        .resource_version
        .clone()
        .filter(|v| !v.is_empty() && !now_version.is_empty() && *v != now_version)
        .map(|v| (v, now_version));
    let changes = changes(live, &kept.saved.draft.pool);
    Some(Chooser {
        offer: Offer::Edit {
            live: live.clone(),
            draft: Box::new(kept),
            changes,
            moved,
        },
        cursor: 1,
        discarding: None,
    })
}

impl Component for Chooser {
    fn scopes(&self) -> Vec<Scope> {
        vec![Scope::Drafts]
    }

    fn handle(&mut self, command: Command, ctx: &mut Ctx) -> After {
        match command {
            Command::Down | Command::Up => {
                self.move_cursor(ctx, command == Command::Down);
                After::Stay
            }
            Command::Activate => {
                self.choose(ctx);
                After::Close
            }
            Command::DiscardDraft => self.discard(ctx),
            Command::Close | Command::Cancel => After::Close,
            // Not bound in the chooser's scope.
            _ => After::Stay,
        }
    }
}

impl Chooser {
    /// ↑↓: the entry under the cursor.
    fn move_cursor(&mut self, ctx: &mut Ctx, down: bool) {
        let last = self.entries(ctx.now).len().saturating_sub(1);
        self.cursor = if down {
            (self.cursor + 1).min(last)
        } else {
            self.cursor.saturating_sub(1)
        };
        // A `d` pressed once no longer stands, nor does the footer saying it does.
        if self.discarding.take().is_some() {
            ctx.ask(Ask::Say(None));
        }
    }

    /// Enter: the wizard, afresh or on the draft chosen (the chooser closes).
    fn choose(&mut self, ctx: &mut Ctx) {
        let offer = std::mem::replace(&mut self.offer, Offer::New { drafts: Vec::new() });
        let start = match (offer, self.cursor) {
            (Offer::New { .. }, 0) => Start::Fresh,
            (Offer::New { drafts }, at) => match drafts.into_iter().nth(at - 1) {
                Some(kept) => Start::Resume(Box::new(kept), None),
                None => return,
            },
            (Offer::Edit { live, .. }, 0) => Start::Live(live),
            (Offer::Edit { live, draft, .. }, _) => Start::Resume(draft, Some(live)),
        };
        ctx.ask(Ask::Start(start));
    }

    /// `d` twice: the draft under the cursor is discarded (its file removed); the chooser
    /// closes when nothing is left to offer.
    fn discard(&mut self, ctx: &mut Ctx) -> After {
        if self.cursor == 0 {
            ctx.say("the first entry starts afresh: there is no draft to discard");
            return After::Stay;
        }
        if self.discarding != Some(self.cursor) {
            self.discarding = Some(self.cursor);
            let entry = self
                .entries(ctx.now)
                .get(self.cursor)
                .cloned()
                .unwrap_or_default();
            ctx.say(format!("d again discards it: {entry}"));
            return After::Stay;
        }
        let (file, after) = match &mut self.offer {
            Offer::New { drafts } => {
                let kept = drafts.remove(self.cursor - 1);
                self.cursor = self.cursor.min(drafts.len());
                self.discarding = None;
                let after = if drafts.is_empty() {
                    After::Close
                } else {
                    After::Stay
                };
                (kept.file, after)
            }
            Offer::Edit { draft, .. } => (draft.file.clone(), After::Close),
        };
        ctx.say(format!("the draft {file} is discarded"));
        ctx.ask(Ask::Forget(file));
        after
    }
}

/// The wizard as `start` opens it: what it asks of the console.
pub fn start(app: &App, start: Start) -> Vec<Ask> {
    match start {
        Start::Fresh => vec![wizard::opening(wizard::fresh(app), None)],
        Start::Live(live) => vec![wizard::opening(wizard::live(live), None)],
        Start::Draft(draft) => vec![wizard::opening(wizard::with_draft(app, *draft), None)],
        Start::Resume(kept, live) => resume(app, *kept, live),
    }
}

/// The wizard on a kept draft: a new pool (or an edit whose pool is gone) as a create, an
/// edit against the live pool; the field being typed opens again with its text.
fn resume(app: &App, kept: Kept, live: Option<Value>) -> Vec<Ask> {
    let mut w = match (live, kept.saved.aim) {
        (Some(old), _) => {
            let mut w = Wizard::new(kept.saved.draft.clone(), Purpose::edit(old));
            // Said on Review when the pool moved on since the draft started.
            w.base_version = kept.saved.resource_version.clone().or(w.base_version);
            w
        }
        // An edit whose pool is gone: a new pool now, without what the server owned.
        (None, Aim::Edit) => {
            let pool = wizard::recreate::fresh(&kept.saved.draft.pool);
            let mut draft = kept.saved.draft.clone();
            draft.pool = pool;
            let mut w = Wizard::new(draft, Purpose::Create);
            w.started = started(app);
            w
        }
        (None, Aim::New) => {
            let mut w = Wizard::new(kept.saved.draft.clone(), Purpose::Create);
            w.started = kept.saved.started.clone();
            w
        }
    };
    w.saved_as = Some(kept.file.clone());
    w.resumed = true;
    w.context = kept.saved.context.clone();
    vec![
        Ask::Say(Some(format!(
            "resumed the draft of {}; Esc closes it (kept)",
            crate::domain::inert::line(&kept.saved.id())
        ))),
        wizard::opening(w, kept.saved.typing),
    ]
}

/// The draft's file goes (applied, discarded): from the list, and from disk by the effect
/// returned.
pub fn forget(drafts: &mut Vec<Kept>, file: &str) -> Effect {
    drafts.retain(|k| k.file != file);
    Effect::DiscardDraft(file.to_owned())
}

/// The wizard's draft saved: the list holds it under its file (a renamed draft's old file
/// is dropped).
pub fn kept(drafts: &mut Vec<Kept>, saved: Saved, replaces: Option<&str>, now: DateTime<Utc>) {
    let file = saved.file_name();
    drafts.retain(|k| k.file != file && Some(k.file.as_str()) != replaces);
    drafts.insert(
        0,
        Kept {
            file,
            saved,
            at: Some(now),
        },
    );
}

/// A new draft's start time, which keeps unnamed drafts apart: to the second, with a
/// number after it when a draft kept already started in that second.
pub fn started(app: &App) -> String {
    let second = app.now.format("%Y%m%dT%H%M%S").to_string();
    let taken = |candidate: &str| app.drafts.iter().any(|k| k.saved.started == candidate);
    if !taken(&second) {
        return second;
    }
    (2..)
        .map(|n| format!("{second}-{n}"))
        .find(|candidate| !taken(candidate))
        .unwrap_or(second)
}

/// `pooldeck new --resume` of an edit: opened once its pool is in the picture (or as a new
/// pool once the pools are listed and it is not). `None` while it waits; else what it asks
/// of the console (the resume is then no longer pending).
pub fn open_pending(app: &App) -> Option<Vec<Ask>> {
    let kept = app.resuming.as_ref()?;
    let inventory = &app.fleet.inventory;
    let object = inventory.get(Kind::Pool, kept.saved.namespace(), kept.saved.name());
    let live = object.map(|o| (*o.value()).clone());
    if live.is_none() && !inventory.listed_in(Kind::Pool, kept.saved.namespace()) {
        return None;
    }
    let deleting = object
        .and_then(|o| o.pool())
        .and_then(|p| p.meta())
        .filter(|m| m.is_deleting())
        .map(|m| m.deletion_timestamp.as_deref().unwrap_or("?").to_owned());
    if let Some(since) = deleting {
        return Some(vec![Ask::Say(Some(format!(
            "{} is being deleted (since {}): its edit's draft is kept, not opened",
            crate::domain::inert::line(&kept.saved.id()),
            crate::domain::inert::line(&since)
        )))]);
    }
    let gone = live.is_none();
    let mut asks = resume(app, kept.clone(), live);
    if gone {
        asks.push(Ask::Say(Some(
            "the pool this edit was for is gone: the draft opens as a new pool".to_owned(),
        )));
    }
    Some(asks)
}
