//! A timeline's entry: when, whose clock, where it comes from, what happened.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// Where an entry comes from; its letter filters the console's tab.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    Condition,
    Scaling,
    Event,
    Host,
    /// The pool itself: created, spec changed, paused, deletion, finalizers, gone.
    Pool,
    /// What pooldeck did, from its audit log.
    Action,
    /// The hue controller's log.
    Log,
    /// When pooldeck watched and when it did not.
    Watch,
}

impl Source {
    pub const ALL: [Source; 8] = [
        Source::Condition,
        Source::Scaling,
        Source::Event,
        Source::Host,
        Source::Pool,
        Source::Action,
        Source::Log,
        Source::Watch,
    ];

    /// The key that shows or hides it in the console.
    pub fn key(self) -> char {
        match self {
            Source::Condition => 'c',
            Source::Scaling => 's',
            Source::Event => 'e',
            Source::Host => 'h',
            Source::Pool => 'p',
            Source::Action => 'a',
            Source::Log => 'l',
            Source::Watch => 'w',
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Source::Condition => "condition",
            Source::Scaling => "scaling",
            Source::Event => "event",
            Source::Host => "host",
            Source::Pool => "pool",
            Source::Action => "action",
            Source::Log => "log",
            Source::Watch => "watch",
        }
    }

    pub fn from_key(key: char) -> Option<Source> {
        Source::ALL.into_iter().find(|s| s.key() == key)
    }
}

/// Whose clock dated an entry: the hub's (times written in objects, events and the
/// controller's log) or pooldeck's (when it saw a change, when it acted).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Clock {
    Hub,
    Pooldeck,
}

/// One thing that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub at: DateTime<Utc>,
    pub clock: Clock,
    pub source: Source,
    /// Dated by the time the hub keeps of a thing's latest change, not seen as it happened.
    #[serde(default)]
    pub derived: bool,
    /// What it is about: a condition's type, a host's uid, a worker pool, an object.
    pub subject: String,
    /// The state the subject reached, when it reached one.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub state: String,
    /// The entry in words, one line.
    pub text: String,
    /// What Enter shows beyond the line.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub detail: Vec<String>,
}

impl Entry {
    pub fn new(at: DateTime<Utc>, clock: Clock, source: Source, subject: &str) -> Entry {
        Entry {
            at,
            clock,
            source,
            derived: false,
            subject: subject.to_owned(),
            state: String::new(),
            text: String::new(),
            detail: Vec::new(),
        }
    }

    pub fn says(mut self, state: &str, text: String) -> Entry {
        self.state = state.to_owned();
        self.text = text;
        self
    }

    pub fn derived(mut self) -> Entry {
        self.derived = true;
        self
    }

    pub fn with(mut self, detail: Vec<String>) -> Entry {
        self.detail = detail;
        self
    }
}

/// A condition as one line: its type, status, reason and message.
pub(super) fn condition_text(c: &crate::model::status::Condition) -> String {
    let mut text = format!("{} {}", c.kind(), c.status.as_deref().unwrap_or("?"));
    if let Some(reason) = c.reason.as_deref() {
        text.push_str(&format!(" ({reason})"));
    }
    if let Some(message) = c.message.as_deref() {
        text.push_str(&format!(": {message}"));
    }
    text
}

/// How close two records of one change must be to be the same change (two pooldecks watching
/// one hub each record what they saw).
pub(super) const SAME_CHANGE: chrono::TimeDelta = chrono::TimeDelta::seconds(10);

impl Clock {
    pub fn word(self) -> &'static str {
        match self {
            Clock::Hub => "hub",
            Clock::Pooldeck => "pooldeck",
        }
    }
}

/// An entry as one line of text, made inert: when (with its date, or `short`: month and
/// day), whose clock, source, what (a derived time marked `~`).
pub fn line(entry: &Entry, short: bool) -> String {
    let at = entry.at.format(if short {
        "%m-%d %H:%M:%S"
    } else {
        "%Y-%m-%d %H:%M:%S"
    });
    format!(
        "{at}{} {:<8} {:<9} {}",
        if entry.derived { "~" } else { " " },
        entry.clock.word(),
        entry.source.word(),
        crate::inert::line(&entry.text)
    )
}
