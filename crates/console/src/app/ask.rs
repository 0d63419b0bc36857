//! What a component may read while it acts ([`Ctx`]) and what it asks of the console beyond
//! itself ([`Ask`]), carried out in order by the top level once the component is back in
//! its place.

use chrono::{DateTime, Utc};
use serde_json::Value;

use super::commands::Scope;
use super::hub::HubState;
use super::ports::Namespaces;
use super::shown::Shown;
use super::{App, Detail, Effect, Input, Overlay};
use crate::domain::draft::Kept;
use crate::domain::fixes::{Fix, Permission};
use crate::domain::request::Ids;
use crate::domain::{Operation, Request, RequestId};

/// What an answer is awaited for.
#[derive(Clone, Debug, PartialEq)]
pub enum Awaiting {
    /// An access review, for the cache of the hub it was asked on.
    Access(Permission),
    /// A dry run of the confirmation dialog with this id.
    DryRun { dialog: RequestId },
    /// A dry run the wizard's Review asked for (`d`).
    WizardDryRun,
    /// A real request, confirmed in a dialog for this fix (an edit's, with the file it is
    /// kept in: removed once it is applied, said when it is refused).
    Real {
        fix: Fix,
        kept: Option<std::path::PathBuf>,
        /// The dialog's id, when it sent several: their answers are said together.
        batch: Option<RequestId>,
    },
}

/// How the wizard opens from the drafts chooser.
#[derive(Clone, Debug, PartialEq)]
pub enum Start {
    /// A new pool, afresh.
    Fresh,
    /// The live pool edited afresh.
    Live(Value),
    /// A kept draft resumed (an edit's against the live pool, when it is there).
    Resume(Box<Kept>, Option<Value>),
}

/// What a component asks of the console beyond itself, carried out in order once it is back.
#[derive(Clone, Debug, PartialEq)]
pub enum Ask {
    /// The footer says this (`None`: it says nothing).
    Say(Option<String>),
    Effect(Effect),
    /// A request, bound to the hub the component read; its answer is awaited by its id.
    Send(Request, Awaiting),
    /// An access review asked of the hub in focus (its answer is awaited meanwhile).
    Review(Permission),
    /// An overlay opens on top.
    Open(Overlay),
    /// A pool's detail opens (over whichever was open).
    Detail(Detail),
    /// A text field on the screen opens.
    Input(Input),
    /// A text field's text changed (the filter applies, the search scrolls).
    Typed(Input),
    /// Tab on the command line: the next completion.
    Complete,
    /// A command line entered.
    Run(String),
    Quit,
    /// The wizard: a new pool, or the selected one edited (`n`, `e`).
    Wizard {
        edit: bool,
    },
    /// The wizard from the drafts chooser.
    Start(Start),
    /// These namespaces watched as asked (`:ns`, `0`, `1`-`9`): the picture starts over, the
    /// list with it.
    WatchAsked(Namespaces),
    /// A pool's YAML to the user's editor.
    RawEdit {
        namespace: String,
        name: String,
    },
    /// The edit under way ends (applied, refused or cancelled: its file stays).
    EndEdit,
    /// A draft's file goes, from disk and from the list.
    Forget(String),
    /// The wizard's draft was saved: the list holds it (a renamed draft's old file dropped).
    Kept {
        saved: crate::domain::draft::Saved,
        replaces: Option<String>,
    },
    /// The wizard's draft's namespace is watched too, if it is not yet.
    WatchAlso(String),
    /// A recreate was confirmed: its delete went out under this id.
    Recreating(Option<RequestId>),
    /// The marks are cleared.
    ClearMarks,
    /// An answer no longer awaited was dropped (tests count them).
    Dropped,
    /// What was bound to the objects on screen closes ([`App::leave`]); the footer says
    /// this and what was cancelled.
    Leave(String),
    /// Back to the first view's first row: no detail, nothing typed, the list afresh.
    Home,
    /// The pool's detail closes.
    CloseDetail,
    /// The demo's story now (`:story` shows it).
    Story((String, String)),
    /// These namespaces watched, the picture started over.
    Watch(Namespaces),
    /// `:hub NAME`: the lists narrowed to one hub (`*`: every hub again).
    NarrowHub(String),
    /// A list view, from its first row, filtered to this text.
    View(super::View, String),
    /// The tour's chapter (0-based) opened.
    Chapter(usize),
    /// A connection to these contexts (one: the console switches to it; several: watches
    /// them all).
    Connect(Vec<String>),
}

/// What a component may read of the console while it acts, and the queue it asks through.
pub struct Ctx<'a> {
    /// The hub in focus: its picture, connection, access answers and read-only reason.
    pub hub: &'a HubState,
    pub now: DateTime<Utc>,
    /// Which hub is in focus (an index into the fleet): the one `hub` is.
    pub focus: usize,
    /// A context switch under way (`:ctx`): nothing is sent until it answers.
    pub connecting: Option<&'a str>,
    /// Rows a page of a list moves.
    pub page: usize,
    /// The terminal's size (columns, rows), as the last resize said.
    pub size: Option<(u16, u16)>,
    /// What the screen shows.
    pub shown: &'a Shown,
    /// The namespaces watched.
    pub namespaces: &'a Namespaces,
    /// No cluster could be reached (`pooldeck new` without a hub): why.
    pub offline: Option<&'a str>,
    /// Where the wizard's Review writes the manifest (`pooldeck new -o FILE`).
    pub output: Option<&'a std::path::Path>,
    /// The console is the wizard alone: closing it ends the program.
    pub wizard_only: bool,
    /// The edit in the user's editor under way.
    pub editing: Option<&'a super::edit::Editing>,
    /// The text searched for in a pool's YAML.
    pub search: &'a str,
    /// The scopes under the component (the help lists their bindings).
    pub behind: Vec<Scope>,
    ids: &'a mut Ids,
    asks: Vec<Ask>,
}

impl Ctx<'_> {
    /// Asks for something beyond the component.
    pub fn ask(&mut self, ask: Ask) {
        self.asks.push(ask);
    }

    /// The footer says `text`.
    pub fn say(&mut self, text: impl Into<String>) {
        self.asks.push(Ask::Say(Some(text.into())));
    }

    /// The runtime is asked to do this.
    pub fn effect(&mut self, effect: Effect) {
        self.asks.push(Ask::Effect(effect));
    }

    /// Sends an operation bound to the hub in focus; its answer is routed by the id returned.
    pub fn send(&mut self, operation: Operation, awaiting: Awaiting) -> RequestId {
        let id = self.ids.fresh();
        let request = Request {
            id,
            hub: self.hub.id(),
            operation,
        };
        self.asks.push(Ask::Send(request, awaiting));
        id
    }

    /// A fresh id (a dialog's own, which its dry runs' answers name).
    pub fn fresh_id(&mut self) -> RequestId {
        self.ids.fresh()
    }

    /// Whether nothing that changes anything may be sent to the hub in focus.
    pub fn read_only(&self) -> bool {
        self.hub.read_only_why.is_some()
    }

    /// A page in lines, for the scrolled pages.
    pub fn page_lines(&self) -> u16 {
        u16::try_from(self.page).unwrap_or(u16::MAX)
    }
}

impl App {
    /// What a component may read of the console, and an empty queue.
    fn ctx(&mut self) -> Ctx<'_> {
        Ctx {
            behind: self.scopes_behind(),
            page: self.page(),
            size: self.size,
            hub: &self.fleet,
            focus: self.fleet.focus(),
            connecting: self.connecting.as_deref(),
            now: self.now,
            shown: &self.shown,
            namespaces: &self.namespaces,
            offline: self.offline.as_deref(),
            output: self.output.as_deref(),
            wizard_only: self.wizard_only,
            editing: self.editing.as_ref(),
            search: &self.search,
            ids: &mut self.ids,
            asks: Vec::new(),
        }
    }

    /// Lends `act` a [`Ctx`] on the console, then carries out what it asked for.
    pub(super) fn lend<T>(&mut self, act: impl FnOnce(&mut Ctx) -> T) -> T {
        let (out, asks) = self.lend_deferred(act);
        self.carry_out(asks);
        out
    }

    /// Lends `act` a [`Ctx`] and returns what it asked for, to be carried out once the
    /// component acting is back in its place.
    pub(super) fn lend_deferred<T>(&mut self, act: impl FnOnce(&mut Ctx) -> T) -> (T, Vec<Ask>) {
        let mut ctx = self.ctx();
        let out = act(&mut ctx);
        (out, ctx.asks)
    }

    /// Carries out what a component asked for, in order.
    pub(super) fn carry_out(&mut self, asks: Vec<Ask>) {
        for ask in asks {
            self.carry_out_one(ask);
        }
    }

    fn carry_out_one(&mut self, ask: Ask) {
        match ask {
            Ask::Say(text) => self.message = text,
            Ask::Effect(effect) => self.outbox.push(effect),
            Ask::Send(request, awaiting) => {
                self.pending.insert(request.id, awaiting);
                self.outbox.push(Effect::Perform(request));
            }
            Ask::Review(permission) => {
                if !self.fleet.access.contains_key(&permission) {
                    self.fleet
                        .access
                        .insert(permission.clone(), super::confirm::Access::Asking);
                    self.send(permission.review(), Awaiting::Access(permission));
                }
            }
            Ask::Open(overlay) => self.overlays.push(overlay),
            Ask::Detail(detail) => self.detail = Some(detail),
            Ask::Input(input) => self.input = input,
            Ask::Typed(input) => super::keys::after_typing(&input, self),
            Ask::Complete => super::keys::complete(self),
            Ask::Run(line) => {
                let asks = super::keys::run_command(self, &line);
                self.carry_out(asks);
            }
            Ask::Quit => self.quit = true,
            Ask::Wizard { edit } => super::wizard::open(self, edit),
            Ask::Start(start) => super::drafts::start(self, start),
            Ask::WatchAsked(namespaces) => {
                self.namespaces_asked = true;
                self.watch(namespaces);
            }
            Ask::RawEdit { namespace, name } => super::edit::start(self, &namespace, &name),
            Ask::EndEdit => self.editing = None,
            Ask::Forget(file) => {
                let effect = super::drafts::forget(&mut self.drafts, &file);
                self.outbox.push(effect);
            }
            Ask::Kept { saved, replaces } => {
                super::drafts::kept(&mut self.drafts, saved, replaces.as_deref(), self.now);
            }
            Ask::WatchAlso(namespace) => super::wizard::watch_also(self, &namespace),
            Ask::Recreating(id) => super::wizard::recreate::confirmed(self, id),
            Ask::ClearMarks => self.list.marked.clear(),
            Ask::Dropped => self.drop_answer(),
            Ask::Leave(say) => {
                let cancelled = self.leave();
                self.message = Some(super::requests::with_cancelled(say, &cancelled));
            }
            Ask::Home => {
                self.detail = None;
                self.input = Input::None;
                self.list = super::ListState::default();
            }
            Ask::CloseDetail => self.detail = None,
            Ask::Story(story) => self.story = Some(story),
            Ask::Watch(namespaces) => self.watch(namespaces),
            Ask::NarrowHub(name) => self.narrow_to(&name),
            Ask::View(view, filter) => {
                self.detail = None;
                self.list.switch_to(view, filter);
                self.message = None;
            }
            Ask::Chapter(chapter) => {
                if let Some(tour) = &mut self.tour {
                    let asks = super::tour::open(tour, chapter);
                    self.carry_out(asks);
                }
            }
            Ask::Connect(contexts) => self.connect(contexts),
        }
    }
}
