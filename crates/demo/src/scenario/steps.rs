//! One step of a scenario's file read: when it plays, and what it does.

use serde_json::{Value, json};

use super::times::parse_offset;
use super::{Action, Step};
use crate::error::ScenarioError;

/// One step of a scenario's file (the `i`th): when, and what it does.
pub(super) fn step_of(i: usize, step: &Value) -> Result<Step, ScenarioError> {
    let at =
        parse_offset(step.get("at").and_then(Value::as_str).unwrap_or("0s")).map_err(|why| {
            ScenarioError::StepAt {
                index: i,
                why: Box::new(why),
            }
        })?;
    let target = |v: &Value| {
        (
            field_text(v, "kind"),
            field_text(v, "namespace"),
            field_text(v, "name"),
        )
    };
    let action = if let Some(object) = step.get("put") {
        Action::Put(object.clone())
    } else if let Some(merge) = step.get("merge") {
        let (kind, namespace, name) = target(merge);
        Action::Merge {
            kind,
            namespace,
            name,
            patch: merge.get("patch").cloned().unwrap_or(json!({})),
        }
    } else if let Some(delete) = step.get("delete") {
        let (kind, namespace, name) = target(delete);
        Action::Delete {
            kind,
            namespace,
            name,
        }
    } else if let Some(event) = step.get("event") {
        Action::Event {
            namespace: field_text(event, "namespace"),
            kind: field_text(event, "kind"),
            name: field_text(event, "name"),
            event_type: event
                .get("type")
                .and_then(Value::as_str)
                .unwrap_or("Normal")
                .to_owned(),
            reason: field_text(event, "reason"),
            message: field_text(event, "message"),
        }
    } else {
        return Err(ScenarioError::StepAction { index: i });
    };
    Ok(Step { at, action })
}

pub(super) fn field_text(value: &Value, field: &str) -> String {
    value
        .get(field)
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned()
}
