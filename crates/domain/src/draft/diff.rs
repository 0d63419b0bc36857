//! What a draft changes against the live pool, place by place: what resuming an edit's draft
//! would apply (including putting back what someone else changed since it was started).

use serde_json::Value;

use crate::path::YamlPath;

/// What the server owns: never a change of the draft's.
pub const SERVER_OWNED: &[&str] = &[
    "status",
    "metadata.uid",
    "metadata.resourceVersion",
    "metadata.generation",
    "metadata.creationTimestamp",
    "metadata.deletionTimestamp",
    "metadata.managedFields",
    "metadata.selfLink",
];

/// One place that differs: its path, the live value and the draft's (`None`: absent).
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub path: String,
    pub live: Option<String>,
    pub draft: Option<String>,
}

impl Change {
    /// `path: live -> draft`, values cut to a line.
    pub fn line(&self) -> String {
        let said = |v: &Option<String>| match v {
            None => "(none)".to_owned(),
            Some(text) if text.chars().count() > 60 => {
                format!("{}…", text.chars().take(60).collect::<String>())
            }
            Some(text) => text.clone(),
        };
        format!(
            "{}: {} -> {}",
            self.path,
            said(&self.live),
            said(&self.draft)
        )
    }
}

/// The places where `draft` differs from `live`, in document order.
pub fn changes(live: &Value, draft: &Value) -> Vec<Change> {
    let mut out = Vec::new();
    walk(Some(live), Some(draft), &YamlPath::root(), &mut out);
    out
}

fn scalar(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn walk(live: Option<&Value>, draft: Option<&Value>, path: &YamlPath, out: &mut Vec<Change>) {
    if SERVER_OWNED
        .iter()
        .any(|p| path.starts_with(&YamlPath::keys(p)))
        || live == draft
    {
        return;
    }
    match (live, draft) {
        (Some(Value::Object(a)), Some(Value::Object(b))) => {
            for (key, value) in a {
                walk(Some(value), b.get(key), &path.key(key), out);
            }
            for (key, value) in b.iter().filter(|(k, _)| !a.contains_key(*k)) {
                walk(None, Some(value), &path.key(key), out);
            }
        }
        (Some(Value::Array(a)), Some(Value::Array(b))) => {
            for index in 0..a.len().max(b.len()) {
                walk(a.get(index), b.get(index), &path.index(index), out);
            }
        }
        (live, draft) => out.push(Change {
            path: path.to_string(),
            live: live.map(scalar),
            draft: draft.map(scalar),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_what_differs_is_said_and_the_servers_fields_never() {
        let live = json!({"metadata": {"name": "p", "resourceVersion": "9",
            "annotations": {"spectrocloud.com/description": "old"}},
            "spec": {"workers": [{"gpu": 4}], "x": 1}, "status": {"phase": "Running"}});
        let draft = json!({"metadata": {"name": "p", "resourceVersion": "7",
            "annotations": {"spectrocloud.com/description": "new"}},
            "spec": {"workers": [{"gpu": 8}, {"gpu": 1}]}});
        let said: Vec<String> = changes(&live, &draft).iter().map(Change::line).collect();
        assert_eq!(
            said,
            [
                "metadata.annotations['spectrocloud.com/description']: old -> new",
                "spec.workers[0].gpu: 4 -> 8",
                "spec.workers[1]: (none) -> {\"gpu\":1}",
                "spec.x: 1 -> (none)",
            ]
        );
        assert!(changes(&live, &live).is_empty());
    }
}
