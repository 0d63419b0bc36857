//! A pool's timeline put together: what the hub holds now (from the picture), what pooldeck
//! kept of what it saw, its audit log, the controller's log, and when it was watching.

pub mod carry;
pub mod store;

use std::path::Path;

use crate::domain::timeline::{self, Span};

pub use crate::inventory::timeline::{Kept, entries, related};
pub use store::{Store, StoreError, Watching};

/// How much of the audit log's end is read for a timeline.
const AUDIT_READ: u64 = 4 * 1024 * 1024;

/// What was kept of a pool: its entries in `store`, its records in the audit log at `audit`
/// on the hub at `server`, the controller's `log` lines that name it (or why none could be
/// read), and the times pooldeck watched (with `own`, this session's).
pub fn read(
    store: Result<&Store, &StoreError>,
    audit: Option<&Path>,
    (server, namespace, name): (&str, &str, &str),
    mut objects: Vec<String>,
    log: Result<&[String], &dyn std::fmt::Display>,
    own: Span,
) -> Kept {
    let mut kept = Kept::default();
    let mut spans = vec![own];
    match store {
        Ok(store) => {
            let entries = store.kept(namespace, name);
            objects.extend(entries.iter().filter_map(|e| {
                let workload = e.subject.strip_prefix("aiworkload ")?;
                Some(format!("AIWorkload {workload}"))
            }));
            kept.entries = entries;
            // This session's own watch is `own`, with its end so far.
            let from = spans.first().map(|s| s.from);
            spans.extend(store.spans().into_iter().filter(|s| Some(s.from) != from));
        }
        Err(why) => kept
            .said
            .push(format!("what pooldeck saw earlier cannot be read: {why}")),
    }
    match audit.map(|path| crate::files::read_tail(path, AUDIT_READ)) {
        Some(Ok(text)) => kept
            .entries
            .extend(timeline::from_audit(&text, server, &objects)),
        Some(Err(crate::files::ReadError::NotFound)) => {}
        Some(Err(why)) => kept
            .said
            .push(format!("the audit log cannot be read: {why}")),
        None => kept
            .said
            .push("no audit log: pooldeck's actions are not shown".into()),
    }
    match log {
        Ok(lines) => kept.entries.extend(timeline::from_log(
            lines.iter().map(String::as_str),
            (namespace, name),
        )),
        Err(why) => kept
            .said
            .push(format!("the controller's log cannot be read: {why}")),
    }
    kept.entries.extend(timeline::gaps(&spans, namespace));
    kept
}
