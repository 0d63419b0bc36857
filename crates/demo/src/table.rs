//! Table responses (`Accept: application/json;as=Table;g=meta.k8s.io;v=v1`): the printer
//! columns of a resource evaluated with the JSONPath subset CRDs use, so `kubectl get` looks
//! as it does on a real cluster.

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use super::registry::Resource;

/// One step of a JSONPath.
#[derive(Clone, Debug, PartialEq)]
enum Step {
    Field(String),
    Index(usize),
    All,
    Filter(String, String),
}

/// Parses the JSONPath subset printer columns use: `.a.b`, `.a[0]`, `.a[*]`, `.a.*`,
/// `.a\.b` (an escaped dot inside a key), and `[?(@.type=="Ready")]`.
fn parse_path(path: &str) -> Vec<Step> {
    let mut steps = Vec::new();
    let chars: Vec<char> = path
        .trim()
        .trim_start_matches('{')
        .trim_end_matches('}')
        .chars()
        .collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '.' => {
                i += 1;
                let mut key = String::new();
                while i < chars.len() && chars[i] != '.' && chars[i] != '[' {
                    if chars[i] == '\\' && i + 1 < chars.len() {
                        i += 1;
                    }
                    key.push(chars[i]);
                    i += 1;
                }
                if key == "*" {
                    steps.push(Step::All);
                } else if !key.is_empty() {
                    steps.push(Step::Field(key));
                }
            }
            '[' => {
                let end = chars[i..]
                    .iter()
                    .position(|c| *c == ']')
                    .map_or(chars.len(), |p| i + p);
                let inner: String = chars[i + 1..end.min(chars.len())].iter().collect();
                let inner = inner.trim();
                if inner == "*" {
                    steps.push(Step::All);
                } else if let Ok(index) = inner.parse::<usize>() {
                    steps.push(Step::Index(index));
                } else if let Some(filter) =
                    inner.strip_prefix("?(@.").and_then(|f| f.strip_suffix(')'))
                    && let Some((field, value)) = filter.split_once("==")
                {
                    let value = value.trim().trim_matches('"').trim_matches('\'');
                    steps.push(Step::Filter(field.trim().to_owned(), value.to_owned()));
                }
                i = end + 1;
            }
            _ => i += 1,
        }
    }
    steps
}

/// Every value a JSONPath selects in `object`.
pub fn select<'v>(object: &'v Value, path: &str) -> Vec<&'v Value> {
    let mut current = vec![object];
    for step in parse_path(path) {
        let mut next = Vec::new();
        for value in current {
            match &step {
                Step::Field(key) => next.extend(value.get(key.as_str())),
                Step::Index(index) => next.extend(value.get(*index)),
                Step::All => match value {
                    Value::Array(items) => next.extend(items.iter()),
                    Value::Object(map) => next.extend(map.values()),
                    _ => {}
                },
                Step::Filter(field, expected) => {
                    if let Value::Array(items) = value {
                        next.extend(items.iter().filter(|item| {
                            item.get(field.as_str()).is_some_and(|v| match v {
                                Value::String(s) => s == expected,
                                other => {
                                    serde_json::from_str::<Value>(expected).ok().as_ref()
                                        == Some(other)
                                }
                            })
                        }));
                    }
                }
            }
        }
        current = next;
    }
    current
}

/// The age kubectl shows for a time.
pub fn human_age(since: DateTime<Utc>, now: DateTime<Utc>) -> String {
    pooldeck_domain::duration::format_age((now - since).to_std().unwrap_or_default())
}

fn cell(column_kind: &str, values: &[&Value], now: DateTime<Utc>) -> Value {
    if values.is_empty() {
        return if column_kind == "date" {
            json!("<unknown>")
        } else {
            json!("<none>")
        };
    }
    if column_kind == "date" {
        let ages: Vec<String> = values
            .iter()
            .filter_map(|v| v.as_str())
            .filter_map(|s| DateTime::parse_from_rfc3339(s).ok())
            .map(|t| human_age(t.with_timezone(&Utc), now))
            .collect();
        return json!(ages.join(","));
    }
    let text: Vec<String> = values
        .iter()
        .map(|v| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect();
    json!(text.join(","))
}

fn partial_metadata(object: &Value) -> Value {
    json!({
        "kind": "PartialObjectMetadata",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": object.get("metadata").cloned().unwrap_or(json!({})),
    })
}

/// A Table of `objects` with the resource's printer columns (Name first, as kubectl expects).
pub fn table(
    resource: &Resource,
    objects: &[&Value],
    resource_version: &str,
    now: DateTime<Utc>,
    include_object: bool,
) -> Value {
    let mut definitions = vec![json!({
        "name": "Name", "type": "string", "format": "name", "priority": 0,
        "description": "Name must be unique within a namespace."
    })];
    for column in &resource.columns {
        definitions.push(json!({
            "name": column.name,
            "type": column.kind,
            "format": "",
            "priority": column.priority,
            "description": column.description,
        }));
    }
    let rows: Vec<Value> = objects
        .iter()
        .map(|object| {
            let mut cells = vec![
                object
                    .pointer("/metadata/name")
                    .cloned()
                    .unwrap_or(json!("")),
            ];
            for column in &resource.columns {
                cells.push(cell(&column.kind, &select(object, &column.json_path), now));
            }
            let mut row = json!({"cells": cells});
            if include_object {
                row["object"] = partial_metadata(object);
            }
            row
        })
        .collect();
    json!({
        "kind": "Table",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": {"resourceVersion": resource_version},
        "columnDefinitions": definitions,
        "rows": rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_path_subset() {
        let object = json!({
            "metadata": {"labels": {"controller.spectrocloud.com/pause": "true"}},
            "status": {
                "conditions": [{"type": "Ready", "status": "True"}, {"type": "X", "status": "False"}],
                "paletteClusterStatuses": [{"health": "Healthy"}, {"health": "UnHealthy"}],
                "poolScalingStates": {"c/a": {"state": "Idle"}, "c/b": {"state": "Scaling"}}
            }
        });
        let texts = |path: &str| -> Vec<String> {
            select(&object, path)
                .iter()
                .map(|v| v.to_string())
                .collect()
        };
        assert_eq!(
            texts(r".metadata.labels.controller\.spectrocloud\.com/pause"),
            ["\"true\""]
        );
        assert_eq!(
            texts(".status.paletteClusterStatuses[*].health"),
            ["\"Healthy\"", "\"UnHealthy\""]
        );
        assert_eq!(
            texts(".status.paletteClusterStatuses[1].health"),
            ["\"UnHealthy\""]
        );
        assert_eq!(
            texts(".status.poolScalingStates.*.state"),
            ["\"Idle\"", "\"Scaling\""]
        );
        assert_eq!(
            texts(r#".status.conditions[?(@.type=="Ready")].status"#),
            ["\"True\""]
        );
        assert!(texts(".status.missing").is_empty());
    }
}
