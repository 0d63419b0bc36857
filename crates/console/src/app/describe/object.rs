//! The page of an object a pool refers to (a ScalingPolicy, an AIWorkload, a ProfileBundle, a
//! Compute, a Project, a Tenant), as `kubectl describe` shows a custom resource: who it is,
//! what the guide reads of it, its spec and status as an indented tree, the events about it.

use chrono::{DateTime, Utc};
use serde_json::Value;

use super::page::{ago, events, field};
use crate::app::rows::{self, refs};
use crate::domain::inert;
use crate::inventory::{Inventory, Kind, Object};

/// The annotation kubectl writes the whole object into: not shown (it can hold anything).
const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// The page for one object that is not a pool.
pub fn object_page(inventory: &Inventory, object: &Object, now: DateTime<Utc>) -> String {
    let raw = object.value();
    let mut out = String::new();
    field(&mut out, 0, "Name", object.name());
    if object.kind.api().namespaced {
        field(&mut out, 0, "Namespace", object.namespace());
    }
    field(&mut out, 0, "Kind", object.kind.api().kind);
    field(&mut out, 0, "Created", &ago(now, object.created()));
    for (label, key) in [("Labels", "labels"), ("Annotations", "annotations")] {
        let pairs: Vec<String> = raw
            .pointer(&format!("/metadata/{key}"))
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .filter(|(k, _)| k.as_str() != LAST_APPLIED)
            .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or("")))
            .collect();
        field(&mut out, 0, label, &or_none(&pairs.join(", ")));
    }
    if raw.pointer("/metadata/deletionTimestamp").is_some() {
        field(&mut out, 0, "Deleting", "yes: a deletion was asked");
    }
    guide(&mut out, inventory, object, &raw);
    for (label, key) in [("Spec", "spec"), ("Status", "status")] {
        out.push_str(&format!("{label}:\n"));
        match raw.get(key) {
            Some(value) => tree(&mut out, 2, value),
            None => out.push_str("  <none>\n"),
        }
    }
    let kind = object.kind.api().kind;
    events(
        &mut out,
        inventory,
        (kind, object.namespace(), object.name()),
        now,
    );
    out
}

fn or_none(text: &str) -> String {
    if text.is_empty() {
        "<none>".to_owned()
    } else {
        text.to_owned()
    }
}

/// What the troubleshooting guide reads of this kind, first.
fn guide(out: &mut String, inventory: &Inventory, object: &Object, raw: &Value) {
    let condition = |kind: &str| {
        refs::condition(raw, kind).map_or_else(
            || "not reported".to_owned(),
            |c| {
                let text = |key: &str| c.get(key).and_then(Value::as_str).unwrap_or("");
                let why = [text("reason"), text("message")]
                    .into_iter()
                    .filter(|t| !t.is_empty())
                    .collect::<Vec<_>>()
                    .join(": ");
                format!("{} {why}", text("status")).trim_end().to_owned()
            },
        )
    };
    let used_by = |refers: refs::Reference| {
        let users = refs::users(inventory, refers);
        let key = (object.namespace().to_owned(), object.name().to_owned());
        or_none(
            &users
                .get(&key)
                .map(|names| names.join(", "))
                .unwrap_or_default(),
        )
    };
    match object.kind {
        Kind::ScalingPolicy => {
            field(
                out,
                0,
                "PROMETHEUS_AVAILABLE",
                &condition("PrometheusAvailable"),
            );
            field(out, 0, "Used By", &used_by(refs::policy_of));
        }
        Kind::ProfileBundle => {
            field(out, 0, "Ready", &condition("Ready"));
            field(out, 0, "Used By", &used_by(refs::bundle_of));
        }
        Kind::AIWorkload => {
            let pool = rows::aiworkloads::pool_named(object).map_or_else(
                || "<none>".to_owned(),
                |(ns, name)| match inventory.get(Kind::Pool, ns, name) {
                    Some(_) => format!("{ns}/{name}"),
                    None => format!("{ns}/{name} (not found)"),
                },
            );
            field(out, 0, "Compute Pool", &pool);
        }
        Kind::Compute => {
            for (label, key) in [
                ("Control Plane", "controlPlaneCompute"),
                ("Workers", "workerCompute"),
            ] {
                let entries = raw
                    .pointer(&format!("/status/{key}"))
                    .and_then(Value::as_array);
                let kinds: Vec<String> = entries
                    .into_iter()
                    .flatten()
                    .map(rows::computes::machine_kind)
                    .collect();
                let text = if kinds.is_empty() {
                    "none available: no host has the resources".to_owned()
                } else {
                    kinds.join(", ")
                };
                field(out, 0, label, &text);
            }
        }
        _ => {}
    }
}

/// A value as kubectl describe writes one: a mapping's keys a line each, a list's items
/// marked, scalars after their key; every text made inert.
fn tree(out: &mut String, indent: usize, value: &Value) {
    match value {
        Value::Object(map) if map.is_empty() => out.push_str(&format!("{:indent$}<none>\n", "")),
        Value::Object(map) => {
            for (key, value) in map {
                let key = inert::line(key);
                match value {
                    Value::Object(m) if !m.is_empty() => {
                        out.push_str(&format!("{:indent$}{key}:\n", ""));
                        tree(out, indent + 2, value);
                    }
                    Value::Array(items) if !items.is_empty() => {
                        out.push_str(&format!("{:indent$}{key}:\n", ""));
                        tree(out, indent + 2, value);
                    }
                    scalar => {
                        out.push_str(&format!("{:indent$}{key}:  {}\n", "", scalar_text(scalar)))
                    }
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                match item {
                    Value::Object(_) | Value::Array(_) => {
                        out.push_str(&format!("{:indent$}-\n", ""));
                        tree(out, indent + 2, item);
                    }
                    scalar => out.push_str(&format!("{:indent$}- {}\n", "", scalar_text(scalar))),
                }
            }
        }
        scalar => out.push_str(&format!("{:indent$}{}\n", "", scalar_text(scalar))),
    }
}

fn scalar_text(value: &Value) -> String {
    match value {
        Value::String(text) => inert::line(text).into_owned(),
        Value::Null => String::new(),
        Value::Object(_) => "{}".to_owned(),
        Value::Array(_) => "[]".to_owned(),
        other => other.to_string(),
    }
}
