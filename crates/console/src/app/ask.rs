//! What a component may read while it acts ([`Ctx`]) and what it asks of the console beyond
//! itself ([`Ask`]), carried out in order by the top level once the component is back in
//! its place.

use chrono::{DateTime, Utc};
use serde_json::Value;

use super::commands::Scope;
use super::hub::HubState;
use super::ports::Namespaces;
use super::shown::Shown;
use super::{Detail, Effect, Input, Overlay};
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

/// How the wizard opens: from the drafts chooser, or as `pooldeck new` starts it.
#[derive(Clone, Debug, PartialEq)]
pub enum Start {
    /// A new pool, afresh.
    Fresh,
    /// The live pool edited afresh.
    Live(Value),
    /// A kept draft resumed (an edit's against the live pool, when it is there).
    Resume(Box<Kept>, Option<Value>),
    /// A new pool from this draft (`pooldeck new --from FILE`).
    Draft(Box<crate::domain::draft::Draft>),
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
    /// What was bound to the objects on screen closes (`App::leave`); the footer says this
    /// and what was cancelled.
    Leave(String),
    /// Back to the first view's first row: no detail, nothing typed, the list afresh.
    Home,
    /// The pool's detail closes.
    CloseDetail,
    /// The demo's story now (`:story` shows it).
    Story((String, String)),
    /// These namespaces watched, the picture started over.
    Watch(Namespaces),
    /// A wizard opens on top, with the field that was being typed open again.
    OpenWizard(
        Box<super::wizard::Wizard>,
        Option<crate::domain::draft::Typing>,
    ),
    /// The wizard closes, if it is on top.
    CloseWizardOnTop,
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
    pub(super) ids: &'a mut Ids,
    pub(super) asks: Vec<Ask>,
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
