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
use crossterm::event::KeyEvent;

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
pub mod ports;
pub mod requests;
mod route;
pub mod rows;
pub mod said;
pub mod scopes;
pub mod screens;
pub mod shown;
pub mod tour;
mod unblock;
mod view;
mod watch;
pub mod wizard;

pub use self::hub::Connection;
use self::ports::{Connected, Namespaces};
pub use self::view::{Detail, Tab, View};
use crate::domain::{ClusterError, ObjectRef, Outcome, Request, RequestId};
use crate::inventory::SourceEvent;

/// The smallest terminal the console draws on; below it the screen says so and only Esc and
/// quit are read, so no key acts on something that is not drawn.
pub const MIN_WIDTH: u16 = 80;
pub const MIN_HEIGHT: u16 = 24;

/// Something that happened: a key, a change from a source, the clock, or the answer to an
/// effect.
#[derive(Debug)]
pub enum Msg {
    Key(KeyEvent),
    /// Text the terminal pasted (bracketed paste): it goes into the field being typed, never
    /// read as keys.
    Paste(String),
    /// What the controller's log stream reports (after [`Effect::FollowLogs`]).
    Logs(logs::LogEvent),
    /// Changes from the sources as they were queued, each with its hub, applied in order
    /// before what is derived from them is brought up to date, once.
    Sources(Vec<(usize, SourceEvent)>),
    Tick(DateTime<Utc>),
    /// A turn for the view being made (its next rows are made by the refresh that follows
    /// every message).
    Build,
    /// The answer to [`Effect::Connect`].
    Connected {
        context: String,
        result: Result<Connected, ClusterError>,
    },
    /// The answer to [`Effect::ConnectFleet`]: every hub connected, in order, or why not.
    FleetConnected {
        contexts: Vec<String>,
        result: Result<Vec<Connected>, ClusterError>,
    },
    /// The answer to [`Effect::Perform`], for the request it names.
    Performed {
        request: Request,
        outcome: Outcome,
    },
    /// The terminal's size now (at start and on every resize).
    Resize {
        width: u16,
        height: u16,
    },
    /// The process was asked to stop for now (SIGTSTP from outside).
    Suspend,
    /// A draft could not be kept on disk: what stood in the way.
    DraftNotSaved(crate::domain::draft::NotKept),
    /// The answer to [`Effect::WriteManifest`]: the file, and why it could not be written.
    Written {
        path: std::path::PathBuf,
        result: Result<(), crate::domain::error::WriteError>,
    },
    /// The answer to [`Effect::Copy`]: how the text went, or why it could not.
    Copied {
        what: String,
        result: Result<said::CopiedBy, said::CopyError>,
    },
    /// The answer to [`Effect::ResetDemo`].
    DemoReset(Result<(), failed::StoryError>),
    /// The answer to [`Effect::PlayScenario`] for the scenario it names: its name and story
    /// as loaded, or why it could not be loaded.
    Played {
        scenario: String,
        result: Result<(String, String), failed::StoryError>,
    },
    /// The tour's progress could not be kept: why.
    TourNotSaved(failed::TourNotSaved),
    /// The answer to [`Effect::Edit`]: the file, and what the editor saved there (or why
    /// nothing can be read: the editor failed or could not start).
    Edited {
        path: std::path::PathBuf,
        /// What became of an edit kept by an earlier session (reopened, or moved aside).
        said: Option<String>,
        result: Result<String, failed::EditorError>,
    },
}

/// What `update` asks the runtime to do: the I/O it may not do itself.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Watch these namespaces (`:ns NAME`, `:ns all`, or again after a context switch).
    Watch(Namespaces),
    /// Connect with another kubeconfig context (`:ctx NAME`); answered by `Msg::Connected`.
    Connect(String),
    /// Use the connection made for this context from now on (after `Msg::Connected`).
    UseContext(String),
    /// Connect with several contexts at once (`:ctx a,b`, `:ctx *`); answered by
    /// `Msg::FleetConnected`.
    ConnectFleet(Vec<String>),
    /// Watch these hubs from now on, in this order (after `Msg::FleetConnected`).
    UseFleet(Vec<String>),
    /// The console acts on the hub of this index now (the fleet view): the controller's log
    /// follows it.
    Focus(usize),
    /// Carry out a request on the hub it is bound to (never another); answered by
    /// `Msg::Performed` with the same request.
    Perform(Request),
    /// Give the terminal back and stop until the shell continues the console.
    Suspend,
    /// Put text on the clipboard (the system's, or the terminal's through OSC 52); `what`
    /// names it for the footer. Answered by `Msg::Copied`.
    Copy {
        text: String,
        what: String,
    },
    /// Keep the wizard's draft on disk (every change, every keystroke), removing the file it
    /// was kept in before when that differs (renamed); answered by `Msg::DraftNotSaved` only
    /// when it could not be kept.
    SaveDraft {
        saved: crate::domain::draft::Saved,
        replaces: Option<String>,
    },
    /// Forget the draft kept in this file (its pool was applied, or it was discarded).
    DiscardDraft(String),
    /// Follow the hue controller's log (all of it: the log view keeps the lines about its
    /// pool, or every line on `a`); answered by `Msg::Logs`, until [`Effect::StopLogs`].
    FollowLogs,
    StopLogs,
    /// Write the manifest to a file; answered by `Msg::Written`.
    WriteManifest {
        path: std::path::PathBuf,
        text: String,
    },
    /// Give the terminal to the user's editor on `text`, kept in `file` of pooldeck's edits
    /// directory (with `resume`, the pool as read: an edit an earlier session left there, made
    /// on that version, is opened instead); answered by `Msg::Edited`.
    Edit {
        file: String,
        text: String,
        resume: Option<serde_json::Value>,
    },
    /// Remove a kept edit: it was applied, or given up.
    ForgetEdit(std::path::PathBuf),
    /// Start the embedded demo's story again (`:reset`); answered by `Msg::DemoReset`.
    ResetDemo,
    /// Play another built-in scenario on the embedded demo (a tour's chapter); answered by
    /// `Msg::Played`.
    PlayScenario(String),
    /// Keep the tour's progress (`$XDG_STATE_HOME/pooldeck/tour`); answered by
    /// `Msg::TourNotSaved` only when it could not be kept.
    SaveTour(tour::Progress),
}

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

impl App {
    /// What the editor saved for the edit under way; what became of a kept edit (`said`) is
    /// said before what became of this one.
    fn edit_saved(
        &mut self,
        path: std::path::PathBuf,
        said: Option<String>,
        result: Result<String, failed::EditorError>,
    ) {
        let Some(editing) = self.editing.take() else {
            return;
        };
        let (editing, asks) = self.lend_deferred(|ctx| edit::saved(editing, ctx, path, result));
        self.editing = editing;
        self.carry_out(asks);
        if let Some(said) = said {
            self.message = Some(match self.message.take() {
                Some(now) => format!("{said}; {now}"),
                None => said,
            });
        }
    }
}

/// The one place the state changes; returns what the runtime is to do about it (each effect
/// that expects an answer comes back as a later `Msg`).
pub fn update(app: &mut App, msg: Msg) -> Vec<Effect> {
    // A footer message said before an overlay opened or closed is not about what is on top
    // now: it gives way to the new top's key hints (one said by this message stays).
    let top = app.overlays.len();
    let said_before = app.message.clone();
    // What this message reports copied: the tour may be waiting for it.
    let copied = match &msg {
        Msg::Copied {
            what,
            result: Ok(_),
        } => Some(what.clone()),
        _ => None,
    };
    app.handle(msg);
    if app.overlays.len() != top && app.message == said_before {
        app.message = None;
    }
    app.settle(copied.as_deref());
    std::mem::take(&mut app.outbox)
}

impl App {
    /// A message routed to its owner.
    fn handle(&mut self, msg: Msg) {
        match msg {
            Msg::Tick(now) => self.now = now,
            Msg::Build => self.build_due(),
            Msg::Sources(batch) => {
                for (hub, event) in batch {
                    self.arrived(hub, event);
                    // A new watch asked for (the wizard's namespace): the rest of the batch is
                    // the old watch's, which it replaces.
                    if self.outbox.iter().any(|e| matches!(e, Effect::Watch(_))) {
                        break;
                    }
                }
            }
            Msg::Key(key) => self.on_key(key),
            Msg::Paste(text) => self.on_paste(&text),
            Msg::Logs(event) => logs::arrived(&mut self.overlays, event),
            Msg::Suspend => self.outbox.push(Effect::Suspend),
            Msg::Connected { context, result } => self.switched(&context, result),
            Msg::FleetConnected { contexts, result } => self.connected(contexts, result),
            Msg::Performed { request, outcome } => self.performed(&request, outcome),
            Msg::Resize { width, height } => self.resized(width, height),
            Msg::Written { path, result } => self.message = Some(said::written(&path, result)),
            Msg::DraftNotSaved(why) => self.draft_not_saved(&why),
            Msg::Copied { what, result } => self.message = Some(said::copied(&what, result)),
            Msg::Edited { path, said, result } => self.edit_saved(path, said, result),
            Msg::DemoReset(result) => {
                self.message = Some(match result {
                    Ok(()) => "the story starts again: every object as at the start".to_owned(),
                    Err(why) => format!("cannot start the story again: {why}"),
                })
            }
            Msg::Played { scenario, result } => {
                if let Some(tour) = &mut self.tour {
                    let asks = tour::moves::played(tour, &scenario, result);
                    self.carry_out(asks);
                }
            }
            Msg::TourNotSaved(why) => {
                self.message = Some(format!("the tour's progress cannot be kept: {why}"))
            }
        }
    }

    /// After every message: the wizard's namespaces given back, what is shown derived, the
    /// tour's steps checked, and the permissions the keys in view need asked.
    fn settle(&mut self, copied: Option<&str>) {
        self.restore_namespaces();
        self.refresh();
        // The tour reads the state as drawn (the doctor's findings included), so after refresh.
        if let Some((tour, asks)) = tour::steps::notice(self, copied) {
            self.tour = Some(tour);
            self.carry_out(asks);
            self.refresh();
        }
        // The permissions the fix keys need for the pool under the cursor are asked before a key
        // is pressed, so the footer leaves out what is not allowed (no 403 after typing a name).
        let wanted = confirm::permissions_in_view(self);
        if wanted.iter().any(|p| !self.fleet.access.contains_key(p))
            && self.fleet.inventory.count(crate::domain::Kind::Pool) > 0
        {
            self.lend(|ctx| confirm::ask(ctx, &wanted));
            self.refresh();
        }
    }

    /// The terminal's new size; what a key pressed on a screen too small said is not true any
    /// longer once it is large enough.
    fn resized(&mut self, width: u16, height: u16) {
        self.size = Some((width, height));
        if !self.too_small()
            && self
                .message
                .as_deref()
                .is_some_and(|m| m.starts_with(keys::fields::TOO_SMALL))
        {
            self.message = None;
        }
    }

    /// The wizard's draft could not be kept on disk: not offered as if it were, and said
    /// again when the wizard closes.
    fn draft_not_saved(&mut self, why: &crate::domain::draft::NotKept) {
        if let Some(Overlay::Wizard(w)) = self
            .overlays
            .iter_mut()
            .rev()
            .find(|o| matches!(o, Overlay::Wizard(_)))
        {
            w.unsaved = Some(why.to_string());
            if let Some(file) = &w.saved_as {
                self.drafts.retain(|k| &k.file != file);
            }
        }
        self.message = Some(said::not_kept(why));
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
