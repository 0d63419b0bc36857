//! A pool's timeline from the picture: what the hub holds of it now, with what was kept of
//! it beyond that (read by the console's `timeline` module), on one axis.

use chrono::{DateTime, Utc};

use super::{Inventory, Kind};
use crate::domain::timeline::{self, Entry};

/// What the hub no longer holds of a pool: read from pooldeck's files and the controller's
/// log when the timeline is asked for, with what could not be read said in words.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Kept {
    pub entries: Vec<Entry>,
    pub said: Vec<String>,
}

/// The objects whose audit records belong on a pool's timeline: the pool and the AIWorkloads
/// it has or had (from the picture and from what was kept), as the audit log names them.
pub fn related(inventory: &Inventory, namespace: &str, name: &str) -> Vec<String> {
    let mut out = vec![format!("ComputePool {namespace}/{name}")];
    let pool = inventory
        .get(Kind::Pool, namespace, name)
        .and_then(|p| p.pool());
    let refs = pool
        .map(crate::domain::fixes::workload_refs)
        .unwrap_or_default();
    out.extend(refs.iter().map(ToString::to_string));
    let naming = inventory
        .objects(Kind::AIWorkload)
        .filter(|w| w.raw().and_then(crate::domain::fixes::claimed) == Some((namespace, name)));
    out.extend(naming.map(|w| format!("AIWorkload {}/{}", w.namespace(), w.name())));
    out.sort();
    out.dedup();
    out
}

/// A pool's whole timeline at `now`, oldest first: what the picture holds of it (when it is
/// still there) with what was kept, and a mark at now.
pub fn entries(
    inventory: &Inventory,
    namespace: &str,
    name: &str,
    kept: &Kept,
    now: DateTime<Utc>,
) -> Vec<Entry> {
    let mut all = kept.entries.clone();
    if let Some(object) = inventory.get(Kind::Pool, namespace, name) {
        all.extend(object.pool().map(timeline::from_pool).unwrap_or_default());
        all.extend(
            inventory
                .evaluation_for(object)
                .map(timeline::from_evaluation)
                .unwrap_or_default(),
        );
        let events = inventory.events_for("ComputePool", namespace, name);
        all.extend(timeline::from_events(
            events.iter().filter_map(|e| e.event()),
        ));
    }
    let now_mark = Entry::new(
        now,
        timeline::Clock::Pooldeck,
        timeline::Source::Watch,
        "now",
    );
    all.push(now_mark.says("now", "now".into()));
    timeline::merge(all)
}
