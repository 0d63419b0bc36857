//! The console's state machine: [`App`] holds everything the screen shows, [`update`] is the
//! only place it changes, one [`Msg`] at a time. No I/O, no terminal, no awaiting: the runtime
//! feeds messages in, carries out the [`Effect`]s `update` leaves (each on a task, its answer
//! coming back as a `Msg`), and draws what `ui::render` makes of the state.
//!
//! Keys go through one registry ([`commands`]) to a [`commands::Command`]; overlays (the help,
//! a confirmation, the wizard, the log, the drafts chooser) stack in [`App::overlays`] and the
//! top one takes the keys as a [`component::Component`]. Costly things the screen
//! shows (rows, column widths, rule findings, a pool's YAML) are derived here when their
//! inputs change ([`shown`]), never while drawing. Must not import `ui`, `sources` or
//! `runtime`.

use chrono::{DateTime, Utc};

pub mod ask;
mod carry;
pub mod commands;
pub mod component;
pub mod confirm;
mod connecting;
pub mod describe;
mod dialog;
pub mod doctor;
pub mod drafts;
pub mod edit;
pub mod event_view;
pub mod failed;
pub mod fleet;
pub mod hub;
mod keys;
pub mod logs;
mod msg;
pub mod ports;
pub mod requests;
mod route;
pub mod rows;
pub mod said;
pub mod scopes;
pub mod screens;
pub mod shown;
pub mod timeline;
pub mod tour;
mod unblock;
mod update;
mod view;
mod watch;
pub mod wizard;

pub use self::hub::Connection;
pub use self::msg::{Effect, Msg};
use self::ports::Namespaces;
pub use self::update::update;
pub use self::view::{Detail, Tab, View};
use crate::domain::{ObjectRef, RequestId};

/// The smallest terminal the console draws on; below it the screen says so and only Esc and
/// quit are read, so no key acts on something that is not drawn.
pub const MIN_WIDTH: u16 = 80;
pub const MIN_HEIGHT: u16 = 24;

/// What lies over the screen, top last. The top one takes the keys; Esc pops it.
#[derive(Clone, Debug, PartialEq)]
pub enum Overlay {
    Help {
        scroll: u16,
    },
    /// A fix waiting for confirmation.
    Confirm(Box<confirm::Confirm>),
    /// The wizard, writing a pool.
    Wizard(Box<wizard::Wizard>),
    /// The controller's log beside a pool.
    Logs(Box<logs::LogView>),
    /// The drafts `n` or `e` offer to resume.
    Drafts(Box<drafts::Chooser>),
    /// One event read whole (Enter on the events list).
    Event(Box<event_view::EventView>),
    /// A pool described (`d`).
    Describe(Box<describe::DescribeView>),
    /// The demo scenario's story (`:story`): its name, its text, how far scrolled.
    Story {
        name: String,
        text: String,
        scroll: u16,
    },
}

/// What the keyboard is editing on the screens, if anything: the text field is a component
/// (`keys::fields`) with the filter, the YAML search and the command line as its scopes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Input {
    #[default]
    None,
    Filter(String),
    /// The command line's text, and while Tab cycles through completions, what was typed
    /// before the first Tab.
    Command(String, Option<String>),
    /// Searching a pool's YAML.
    Search(String),
}

/// The list screen's own state: which view it shows, the row selected (and its identity, so
/// the selection follows its row when live updates reorder them), the live filter, the
/// order, warnings only, and the pools marked for a fix.
#[derive(Clone, Debug)]
pub struct ListState {
    pub view: View,
    pub selected: usize,
    pub selected_id: Option<(usize, ObjectRef, Option<String>)>,
    /// The selection was moved by a key: from then on it follows its row when rows move
    /// (before, it stays on the first row while the lists arrive, whichever hub's comes
    /// first).
    pub chosen: bool,
    /// A substring, `!text` to invert, `-l key=value` on labels.
    pub filter: String,
    /// Sort by this column of the current view (0 = none: the natural order).
    pub sort_column: usize,
    pub sort_descending: bool,
    /// The events view shows only warnings.
    pub warnings_only: bool,
    /// Pools marked with space: a fix applies to all of them.
    pub marked: std::collections::BTreeSet<ObjectRef>,
    /// The first row on screen, as the keys last left it: moving the selection within the
    /// screen moves the highlight, not the rows (the table keeps the selection on screen
    /// whatever this says).
    pub offset: usize,
}

impl Default for ListState {
    fn default() -> ListState {
        ListState {
            view: View::POOLS,
            selected: 0,
            selected_id: None,
            chosen: false,
            filter: String::new(),
            sort_column: 0,
            sort_descending: false,
            warnings_only: false,
            marked: std::collections::BTreeSet::new(),
            offset: 0,
        }
    }
}

/// Everything the screen shows.
pub struct App {
    /// The hubs watched, each one's state, and which is in focus: `fleet.inventory`,
    /// `fleet.connection`… are the focused hub's.
    pub fleet: fleet::Fleet,
    /// The namespaces watched now.
    pub namespaces: Namespaces,
    /// Whether they were asked for (`-n`, `-A`, `:ns`, `0`, `1`-`9`) rather than the
    /// context's own by default: several hubs watched at once by default watch every
    /// namespace (their contexts may name different ones).
    pub namespaces_asked: bool,
    /// The list screen: which view, the selection, the filter, the order, the marks.
    pub list: ListState,
    pub input: Input,
    /// The modal stack, top last.
    pub overlays: Vec<Overlay>,
    pub message: Option<String>,
    pub now: DateTime<Utc>,
    pub quit: bool,
    /// The pool opened with Enter; Esc goes back to the list.
    pub detail: Option<Detail>,
    /// Text searched for in a pool's YAML.
    pub search: String,
    /// A context switch under way (`:ctx`), shown in the footer until it answers.
    pub connecting: Option<String>,
    /// What the screen shows, derived in `update` and read by `render`.
    pub shown: shown::Shown,
    /// What the message being handled asks the runtime to do; [`update`] hands it back, so
    /// nothing outside the app reads or clears it (setup code opening the wizard before the
    /// loop takes it with [`App::take_effects`]).
    pub(crate) outbox: Vec<Effect>,
    /// Hands out the ids requests are sent under.
    pub ids: crate::domain::request::Ids,
    /// How many answers arrived for what was no longer there to take them (a dialog closed,
    /// another hub, an id never sent): tests count the drops ([`App::drop_answer`]).
    #[cfg(test)]
    pub dropped_answers: u64,
    /// What each request sent and not answered yet is awaited for, by its id.
    pub pending: std::collections::HashMap<RequestId, requests::Awaiting>,
    /// The answers so far of a confirmation's several requests, by the dialog's id: the
    /// footer says them all once the last is in.
    pub batches: std::collections::HashMap<RequestId, Vec<String>>,
    /// The terminal's size (columns, rows), as the last resize said; `None` before the first.
    pub size: Option<(u16, u16)>,
    /// The drafts wizards left on disk (a crash, a hangup, Esc), newest first: `n` and `e`
    /// offer them.
    pub drafts: Vec<drafts::Kept>,
    /// `pooldeck new --resume` of an edit: opened once its pool is in the picture.
    pub resuming: Option<drafts::Kept>,
    /// No cluster could be reached (`pooldeck new` without a hub): why.
    pub offline: Option<String>,
    /// Where the wizard's Review writes the manifest (`pooldeck new -o FILE`).
    pub output: Option<std::path::PathBuf>,
    /// The console is the wizard alone (`pooldeck new`): closing it ends the program.
    pub wizard_only: bool,
    /// What is printed once the terminal is back (`pooldeck new`'s apply: what it created).
    pub parting: Option<String>,
    /// The contexts the kubeconfig names (`:ctx` completes them).
    pub contexts: Vec<String>,
    /// An edit in the user's editor under way (`E`).
    pub editing: Option<edit::Editing>,
    /// On the embedded demo cluster (`--demo`): `:reset` starts its story again.
    pub demo: bool,
    /// The demo's scenario: its name and its story (`:story` shows it).
    pub story: Option<(String, String)>,
    /// The settings' favourite namespaces, in order: `1`-`9` watch them.
    pub favourites: Vec<String>,
    /// The guided tour, when the console plays it (`--tour`).
    pub tour: Option<tour::Tour>,
    /// The namespaces watched before a wizard added its draft's: watched again once it
    /// closes.
    pub before_wizard: Option<Namespaces>,
    /// A pool being recreated (an immutable field changed in the wizard).
    pub recreating: Option<wizard::recreate::Recreating>,
}

impl App {
    /// An answer no longer awaited is dropped: it changes nothing (tests count it).
    pub fn drop_answer(&mut self) {
        #[cfg(test)]
        {
            self.dropped_answers = self.dropped_answers.saturating_add(1);
        }
    }

    /// No request that changes anything leaves pooldeck for the hub in focus (the header
    /// says READ-ONLY; `fleet.read_only_why` says why).
    pub fn read_only(&self) -> bool {
        self.fleet.read_only_why.is_some()
    }

    pub fn new(connection: Connection, now: DateTime<Utc>) -> App {
        App {
            fleet: fleet::Fleet::new(
                Vec::new(),
                hub::HubState {
                    connection,
                    home_namespace: "default".into(),
                    ..hub::HubState::default()
                },
                Vec::new(),
            ),
            namespaces_asked: false,
            namespaces: Namespaces::All,
            list: ListState::default(),
            input: Input::None,
            overlays: Vec::new(),
            message: None,
            now,
            quit: false,
            detail: None,
            search: String::new(),
            connecting: None,
            shown: shown::Shown::default(),
            outbox: Vec::new(),
            ids: crate::domain::request::Ids::default(),
            pending: std::collections::HashMap::new(),
            batches: std::collections::HashMap::new(),
            #[cfg(test)]
            dropped_answers: 0,
            size: None,
            drafts: Vec::new(),
            resuming: None,
            offline: None,
            output: None,
            wizard_only: false,
            parting: None,
            contexts: Vec::new(),
            editing: None,
            demo: false,
            story: None,
            favourites: Vec::new(),
            tour: None,
            before_wizard: None,
            recreating: None,
        }
    }

    /// What was asked of the runtime outside `update` (opening the wizard before the loop).
    pub fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.outbox)
    }

    /// The top overlay, which takes the keys.
    pub fn overlay(&self) -> Option<&Overlay> {
        self.overlays.last()
    }

    /// The key hints the footer shows for the current state, from the registry (made in
    /// `update`, when the state changes, not per frame).
    pub fn hints(&self) -> &str {
        &self.shown.hints
    }

    /// How many rows of the list a screen shows, as far as the keys need to know (a page for
    /// PgDn; where the highlight moves rather than the rows): the screen's height less the
    /// header, the footer and the table's own header lines. A taller footer or the tour's
    /// caption may show fewer; the table keeps the selection on screen regardless.
    pub fn page(&self) -> usize {
        self.size
            .map_or(10, |(_, height)| usize::from(height).saturating_sub(5))
            .max(1)
    }

    /// A page in lines, for the scrolled pages (the help, a story, an event, a description, a
    /// pool's detail, the log): PgDn and PgUp turn about a screen, not a fixed count.
    pub fn page_lines(&self) -> u16 {
        u16::try_from(self.page()).unwrap_or(u16::MAX)
    }

    /// Whether the screen is too small to draw the console (it then says so, and reads only
    /// the keys that resize nothing away: Esc and quit).
    pub fn too_small(&self) -> bool {
        self.size.is_some_and(|(width, height)| {
            width < crate::app::MIN_WIDTH || height < crate::app::MIN_HEIGHT
        })
    }
}

#[cfg(test)]
#[path = "listing_tests.rs"]
mod listing_tests;

#[cfg(test)]
pub(crate) mod tests;

#[cfg(test)]
pub(crate) mod script;

#[cfg(test)]
#[path = "hidden_tests.rs"]
mod hidden_tests;

#[cfg(test)]
#[path = "fleet_tests.rs"]
pub(crate) mod fleet_tests;
