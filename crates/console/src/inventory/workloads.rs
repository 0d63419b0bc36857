//! A deleting pool's AIWorkloads as the inventory knows them: those of its namespace while
//! they are read live, and when each that went was seen going (the finalizer is offered a
//! while after the last one went).

use chrono::{DateTime, Utc};

use super::{Inventory, Key, Kind, SourceState};
use crate::domain::Preconditions;
use crate::domain::fixes::{Workloads, WorkloadsRead};
use crate::domain::model::ComputePool;

/// How many AIWorkloads seen going are remembered.
pub(super) const GONE_KEPT: usize = 1024;

impl Inventory {
    /// Notes that an object left at `now`; kept for AIWorkloads only.
    pub(super) fn saw_go(&mut self, kind: Kind, key: Key, now: DateTime<Utc>) {
        if kind != Kind::AIWorkload {
            return;
        }
        self.workloads_gone.insert(key, now);
        if self.workloads_gone.len() > GONE_KEPT
            && let Some(oldest) = self
                .workloads_gone
                .iter()
                .min_by_key(|(_, at)| **at)
                .map(|(key, _)| key.clone())
        {
            self.workloads_gone.remove(&oldest);
        }
    }

    /// Since when the AIWorkloads of `namespace` have been read live without a gap.
    fn workloads_read_since(&self, namespace: &str) -> Option<DateTime<Utc>> {
        self.health
            .iter()
            .filter(|((kind, scope), health)| {
                *kind == Kind::AIWorkload
                    && scope.as_deref().is_none_or(|s| s == namespace)
                    && health.state == SourceState::Live
            })
            .map(|(_, health)| health.since)
            .max()
    }

    /// Where each of a pool's AIWorkloads stands ([`Workloads`]), from its namespace as read.
    pub fn workloads_of(&self, pool: &ComputePool) -> Workloads {
        let namespace = pool.namespace().unwrap_or("");
        let Some(since) = self.workloads_read_since(namespace) else {
            return Workloads::of(pool, None);
        };
        let held: Vec<_> = self
            .objects(Kind::AIWorkload)
            .filter(|o| o.namespace() == namespace)
            .collect();
        let read = WorkloadsRead {
            since,
            // A delete names the AIWorkload as it was read: changed since (another pool named,
            // say), the server refuses it.
            present: held
                .iter()
                .filter_map(|o| {
                    let raw = o.raw()?;
                    let version = raw
                        .pointer("/metadata/resourceVersion")
                        .and_then(serde_json::Value::as_str);
                    Some((raw, Preconditions::of(o.uid().as_deref(), version)))
                })
                .collect(),
            seen_going: self
                .workloads_gone
                .iter()
                .filter(|((ns, _), _)| ns.as_str() == namespace)
                .map(|((_, name), at)| (name.as_str(), *at))
                .collect(),
        };
        Workloads::of(pool, Some(&read))
    }
}
