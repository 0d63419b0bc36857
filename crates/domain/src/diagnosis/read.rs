//! What the diagnoses read of a pool and its objects: texts, times and ages, statuses, clusters and conditions.

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;

use crate::field::{Field, Text};
use crate::json::At;
use crate::model::ComputePool;
use crate::model::status::{ClusterStatus, Condition, PoolStatus};

pub(super) fn text<'v>(value: &'v Value, pointer: &str) -> Option<&'v str> {
    value.at(pointer).and_then(Value::as_str)
}

pub(super) fn time_of(text: &str) -> Option<DateTime<Utc>> {
    crate::time::parse(text)
}

/// How long ago, to the minute: a finding's words then stay true for a minute, which is how
/// often the console works time-dependent findings out again ([`changes_at`]).
pub(super) fn age(now: DateTime<Utc>, then: DateTime<Utc>) -> String {
    crate::words::age(now.signed_duration_since(then))
}

/// `minutes` after `at`; a time the calendar cannot hold (a timestamp from the API near the
/// end of time) stays the latest one.
pub(super) fn later(at: DateTime<Utc>, minutes: i64) -> DateTime<Utc> {
    at.checked_add_signed(chrono::TimeDelta::minutes(minutes))
        .unwrap_or(DateTime::<Utc>::MAX_UTC)
}

/// A time the model read as text, parsed.
pub(super) fn text_time(field: &Field<Text>) -> Option<DateTime<Utc>> {
    field.as_deref().and_then(time_of)
}

/// When the pool's deletion was asked for, if it was (and the time can be read).
pub(super) fn deletion_time(pool: &ComputePool) -> Option<DateTime<Utc>> {
    text_time(&pool.meta()?.deletion_timestamp)
}

pub(super) fn status_of(pool: &ComputePool) -> Option<&PoolStatus> {
    pool.status.get()
}

/// A pool's Palette clusters with their place in `status.paletteClusterStatuses` (an entry
/// that is not a cluster status keeps its place and is skipped).
pub(super) fn clusters(pool: &ComputePool) -> impl Iterator<Item = (usize, &ClusterStatus)> {
    status_of(pool)
        .and_then(|s| s.palette_cluster_statuses.get())
        .into_iter()
        .flatten()
        .enumerate()
        .filter_map(|(i, c)| c.get().map(|c| (i, c)))
}

/// A pool's conditions with their place in `status.conditions`.
pub(super) fn conditions(pool: &ComputePool) -> impl Iterator<Item = (usize, &Condition)> {
    indexed(status_of(pool).and_then(|s| s.conditions.get()))
}

/// Conditions of a list the model read, with their places.
pub(super) fn indexed(
    list: Option<&Vec<Field<Condition>>>,
) -> impl Iterator<Item = (usize, &Condition)> {
    list.into_iter()
        .flatten()
        .enumerate()
        .filter_map(|(i, c)| c.get().map(|c| (i, c)))
}

/// The messages of a pool's False conditions.
pub(super) fn failure_messages(pool: &ComputePool) -> impl Iterator<Item = &str> {
    conditions(pool)
        .filter(|(_, c)| c.is_false())
        .filter_map(|(_, c)| c.message.as_deref())
}

/// A condition of an object read as JSON (a policy, a ProfileBundle).
pub(super) fn json_conditions(object: &Value) -> Vec<&Value> {
    object
        .at("/status/conditions")
        .and_then(Value::as_array)
        .map(|c| c.iter().collect())
        .unwrap_or_default()
}

/// The condition of type `kind` in an object read as JSON (a policy's PrometheusAvailable, a
/// ProfileBundle's Ready).
pub fn condition<'v>(object: &'v Value, kind: &str) -> Option<&'v Value> {
    json_conditions(object)
        .into_iter()
        .find(|c| c["type"] == kind)
}

/// A field as the API wrote it, for evidence: `null` when it is not there.
pub(super) fn written<T: Serialize>(field: &Field<T>) -> String {
    serde_json::to_string(field).unwrap_or_default()
}

/// A ScalingPolicy's block for a resource (`CPU` or a GPU variant): its thresholds and
/// durations as written.
pub fn policy_block<'a>(policy: Option<&'a Value>, resource: &str) -> Option<&'a Value> {
    let spec = policy?.get("spec")?;
    if resource == "CPU" {
        spec.get("cpu")
    } else {
        spec.get("gpu")?
            .as_array()?
            .iter()
            .find(|g| g["variant"] == resource)
    }
}
