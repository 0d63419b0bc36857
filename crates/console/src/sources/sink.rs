//! Where the sources send what they read: a bounded queue of source events, each tagged with
//! the watch it came from.

use crate::inventory::SourceEvent;

/// Which watch a source event came from: its epoch (the console drops the events of a
/// replaced watch) and the hub it watches (the index of the console's hubs; 0 with one).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tag {
    pub epoch: u64,
    pub hub: usize,
}

/// A source event tagged with the watch it came from.
pub type Tagged = (Tag, SourceEvent);

/// Where the sources send their events: a bounded queue, so a flood of changes waits in the
/// server's stream (and the TCP window) instead of in memory while the console catches up.
pub type Sink = tokio::sync::mpsc::Sender<Tagged>;

/// How many events wait for the console at most (a list page is one event).
pub const QUEUE: usize = 1024;

/// Whether the sources work out, as they read each pool, whether it breaks a rule by itself
/// ([`crate::inventory::Object::breaks_a_rule_alone`]): the console's pools list marks every pool, and its
/// sources' tasks do that work while the lists arrive instead of the console's loop after;
/// a command that prints no marker leaves it to whoever asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marks {
    Ahead,
    WhenAsked,
}
