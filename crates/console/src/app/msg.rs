//! What comes into `update` (a [`Msg`]) and what it leaves for the runtime to carry out (an [`Effect`]).

use chrono::{DateTime, Utc};
use crossterm::event::KeyEvent;

use super::ports::{Connected, Namespaces};
use crate::domain::{ClusterError, Outcome, Request};
use crate::inventory::SourceEvent;

/// Something that happened: a key, a change from a source, the clock, or the answer to an
/// effect.
#[derive(Debug)]
pub enum Msg {
    Key(KeyEvent),
    /// Text the terminal pasted (bracketed paste): it goes into the field being typed, never
    /// read as keys.
    Paste(String),
    /// What the controller's log stream reports (after [`Effect::FollowLogs`]).
    Logs(super::logs::LogEvent),
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
    /// The answer to [`Effect::ReadHistory`]: what was kept of the pool.
    History {
        pool: crate::domain::ObjectRef,
        kept: crate::inventory::timeline::Kept,
    },
    /// The answer to [`Effect::WriteManifest`]: the file, and why it could not be written.
    Written {
        path: std::path::PathBuf,
        result: Result<(), crate::domain::error::WriteError>,
    },
    /// The answer to [`Effect::Copy`]: how the text went, or why it could not.
    Copied {
        what: String,
        result: Result<super::said::CopiedBy, super::said::CopyError>,
    },
    /// The answer to [`Effect::ResetDemo`].
    DemoReset(Result<(), super::failed::StoryError>),
    /// The answer to [`Effect::PlayScenario`] for the scenario it names: its name and story
    /// as loaded, or why it could not be loaded.
    Played {
        scenario: String,
        result: Result<(String, String), super::failed::StoryError>,
    },
    /// The tour's progress could not be kept: why.
    TourNotSaved(super::failed::TourNotSaved),
    /// The answer to [`Effect::Edit`]: the file, and what the editor saved there (or why
    /// nothing can be read: the editor failed or could not start).
    Edited {
        path: std::path::PathBuf,
        /// What became of an edit kept by an earlier session (reopened, or moved aside).
        said: Option<String>,
        result: Result<String, super::failed::EditorError>,
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
    /// Keep what was seen of a hub's pools for their timelines.
    Remember {
        hub: usize,
        seen: Vec<(crate::inventory::Key, crate::domain::timeline::Entry)>,
    },
    /// Read what was kept of a pool (its timeline's tab opened); answered by `Msg::History`.
    ReadHistory {
        hub: usize,
        pool: crate::domain::ObjectRef,
        objects: Vec<String>,
    },
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
    SaveTour(super::tour::Progress),
}
