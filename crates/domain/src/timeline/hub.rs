//! What the hub holds of a pool's past: its creation and deletion, the last transition of each
//! condition and host, each worker pool's scaling state since when, and its events.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use super::entry::{Clock, Entry, Source, condition_text};
use crate::model::evaluation::ComputePoolEvaluation;
use crate::model::event::Event;
use crate::model::pool::ComputePool;

fn time(text: Option<&str>) -> Option<DateTime<Utc>> {
    crate::time::parse(text?)
}

/// The pool's creation, its deletion's start, and each condition's and host's last change.
pub fn from_pool(pool: &ComputePool) -> Vec<Entry> {
    let mut out = Vec::new();
    let meta = pool.meta();
    if let Some(at) = time(meta.and_then(|m| m.creation_timestamp.as_deref())) {
        out.push(
            Entry::new(at, Clock::Hub, Source::Pool, "pool").says("created", "created".into()),
        );
    }
    if let Some(at) = time(meta.and_then(|m| m.deletion_timestamp.as_deref())) {
        let finalizers: Vec<&str> = meta.map(|m| m.finalizers().collect()).unwrap_or_default();
        let text = match finalizers.as_slice() {
            [] => "deletion started".to_owned(),
            held => format!("deletion started; held by {}", held.join(", ")),
        };
        out.push(Entry::new(at, Clock::Hub, Source::Pool, "pool").says("deleting", text));
    }
    let Some(status) = pool.status.get() else {
        return out;
    };
    let clusters = status.clusters().flat_map(|cluster| {
        let name = cluster.name.as_deref().unwrap_or("?");
        cluster
            .conditions
            .get()
            .into_iter()
            .flatten()
            .filter_map(|c| c.get())
            .map(move |c| (format!("cluster {name}: "), c))
    });
    for (prefix, c) in status
        .conditions()
        .map(|c| (String::new(), c))
        .chain(clusters)
    {
        let Some(at) = time(c.last_transition_time.as_deref()) else {
            continue;
        };
        let subject = format!("{prefix}{}", c.kind());
        let state = c.status.as_deref().unwrap_or_default();
        let text = format!("{prefix}{}", condition_text(c));
        out.push(
            Entry::new(at, Clock::Hub, Source::Condition, &subject)
                .says(state, text)
                .derived(),
        );
    }
    for cluster in status.clusters() {
        for machines in cluster.machine_pools() {
            for (uid, host) in machines.hosts() {
                let Some(at) = time(host.status_updated_at.as_deref()) else {
                    continue;
                };
                let state = host.status.as_deref().unwrap_or("?");
                let group = machines.name.as_deref().unwrap_or("?");
                let text = format!("host {uid} {state} ({group})");
                out.push(
                    Entry::new(at, Clock::Hub, Source::Host, uid)
                        .says(state, text)
                        .derived(),
                );
            }
        }
    }
    out
}

/// Each worker pool's scaling state since it began, its scale's start and its last success.
pub fn from_evaluation(evaluation: &ComputePoolEvaluation) -> Vec<Entry> {
    let mut out = Vec::new();
    let states = evaluation
        .status
        .get()
        .and_then(|s| s.pool_scaling_states.get())
        .into_iter()
        .flatten();
    for (key, state) in states {
        let Some(state) = state.get() else { continue };
        let word = state.state.as_deref().unwrap_or("?");
        let key = key.as_str();
        if let Some(at) = time(state.state_changed_at.as_deref()) {
            let mut text = format!("{key}: {word}");
            if let Some(details) = state.details.as_deref() {
                text.push_str(&format!(": {details}"));
            }
            out.push(
                Entry::new(at, Clock::Hub, Source::Scaling, key)
                    .says(word, text)
                    .derived(),
            );
        }
        let marks = [
            (&state.scaling_started_at, "scale started"),
            (&state.last_successful_scaling_at, "last scale succeeded"),
        ];
        for (at, what) in marks {
            if let Some(at) = time(at.as_deref()) {
                let subject = format!("{key} {what}");
                let text = format!("{key}: {what}");
                out.push(
                    Entry::new(at, Clock::Hub, Source::Scaling, &subject)
                        .says(what, text)
                        .derived(),
                );
            }
        }
    }
    out
}

/// Events grouped by type, reason and message: one entry each, at its last time, with how
/// many times and since when.
pub fn from_events<'a>(events: impl IntoIterator<Item = &'a Event>) -> Vec<Entry> {
    type Group = (DateTime<Utc>, DateTime<Utc>, i64, Option<String>);
    let mut groups: BTreeMap<(String, String, String), Group> = BTreeMap::new();
    for event in events {
        let (Some(last), first) = (event.happened(), event.first()) else {
            continue;
        };
        let first = first.unwrap_or(last).min(last);
        let key = (
            event.event_type().unwrap_or("Normal").to_owned(),
            event.reason().unwrap_or("?").to_owned(),
            event.message().unwrap_or_default().to_owned(),
        );
        let count = event.count().unwrap_or(1).max(1);
        let from = event.reporting_component().map(str::to_owned);
        let group = groups.entry(key).or_insert((first, last, 0, from));
        group.0 = group.0.min(first);
        group.1 = group.1.max(last);
        group.2 = group.2.saturating_add(count);
    }
    groups
        .into_iter()
        .map(|((kind, reason, message), (first, last, count, from))| {
            let mut text = format!("{kind} {reason}: {message}");
            if count > 1 {
                text.push_str(&format!(" (×{count} since {})", first.format("%H:%M:%S")));
            }
            let mut detail = vec![
                format!("first: {}", first.to_rfc3339()),
                format!("last: {}", last.to_rfc3339()),
                format!("count: {count}"),
            ];
            detail.extend(from.map(|f| format!("from: {f}")));
            Entry::new(last, Clock::Hub, Source::Event, &reason)
                .says("", text)
                .with(detail)
        })
        .collect()
}
