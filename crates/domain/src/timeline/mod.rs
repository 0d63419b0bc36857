//! A pool's timeline: what the hub says happened to it and what pooldeck saw and did, on one
//! time axis. Every entry names its source and whose clock dated it; an entry dated by a
//! transition time the hub keeps (only the latest change of each thing) says so.

mod entry;
mod hub;
mod ours;
mod seen;

use chrono::{DateTime, Utc};

use self::entry::SAME_CHANGE;
pub use self::entry::{Clock, Entry, Source, line};

pub use hub::{from_evaluation, from_events, from_pool};
pub use ours::{Span, from_audit, from_log, gaps, mentions};
pub use seen::{seen_evaluation, seen_pool};

/// Entries from every source on one axis, oldest first: a derived entry gives way to the
/// change pooldeck saw into the same state at or after it, and a change recorded twice is
/// listed once.
pub fn merge(mut entries: Vec<Entry>) -> Vec<Entry> {
    let mut seen: std::collections::HashMap<(Source, &str, &str), DateTime<Utc>> =
        std::collections::HashMap::new();
    for e in entries.iter().filter(|e| !e.derived && !e.state.is_empty()) {
        let at = seen.entry((e.source, &e.subject, &e.state)).or_insert(e.at);
        *at = (*at).max(e.at);
    }
    let same: Vec<bool> = entries
        .iter()
        .map(|e| {
            e.derived
                && seen
                    .get(&(e.source, e.subject.as_str(), e.state.as_str()))
                    .is_some_and(|at| at.signed_duration_since(e.at) >= -SAME_CHANGE)
        })
        .collect();
    let mut same = same.into_iter();
    entries.retain(|_| !same.next().unwrap_or(false));
    entries.sort_by_key(|e| e.at);
    let mut kept: Vec<Entry> = Vec::with_capacity(entries.len());
    for entry in entries {
        let twice = kept.iter().rev().take(16).any(|k| {
            k.source == entry.source
                && k.subject == entry.subject
                && k.text == entry.text
                && entry.at.signed_duration_since(k.at).abs() <= SAME_CHANGE
        });
        if !twice {
            kept.push(entry);
        }
    }
    kept
}

/// The entries at or after `since`.
pub fn since(entries: Vec<Entry>, since: Option<DateTime<Utc>>) -> Vec<Entry> {
    match since {
        Some(from) => entries.into_iter().filter(|e| e.at >= from).collect(),
        None => entries,
    }
}

#[cfg(test)]
mod tests;
