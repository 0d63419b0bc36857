//! An edit's text checked: given up, unchanged, refused with its problems at their lines, or
//! valid with what it changes and its warnings.

use serde_json::Value;

use super::{Checked, Problem, body};
use crate::draft::diff;
use crate::model::{ComputePool, read_owned};
use crate::path::YamlPath;
use crate::rules::{self, Context, Pools, Severity};

/// Checks the text the editor saved against the pool it started from (`live`, as the hub
/// sent it) and the fleet (for the rules across pools; `self_index` is the pool's own entry
/// there, if it is listed).
pub fn check(text: &str, live: &Value, fleet: &dyn Pools, self_index: Option<usize>) -> Checked {
    let text = body(text);
    let meaningful = text
        .lines()
        .any(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    if !meaningful {
        return Checked::Emptied;
    }
    let documents = match crate::manifest::parse(&text) {
        Ok(documents) => documents,
        Err(e) => {
            return Checked::Invalid(vec![Problem {
                line: e.position.line,
                text: format!("error [input.yaml]: not YAML: {}", e.message),
            }]);
        }
    };
    let objects: Vec<_> = documents.iter().flat_map(|d| d.objects()).collect();
    let [object] = objects.as_slice() else {
        return Checked::Invalid(vec![Problem {
            line: 1,
            text: format!(
                "error [edit.one]: the file holds {} objects; an edit is of one ComputePool",
                objects.len()
            ),
        }]);
    };
    let value = object.value.clone();
    let at = |path: &YamlPath| object.locate(path).line;
    let mut problems = identity_problems(live, &value, at);
    // Only what the server owns changed (status, the resourceVersion), or nothing: not sent.
    let changes = diff::changes(live, &value);
    if changes.is_empty() && problems.is_empty() {
        return Checked::Unchanged;
    }
    let old = read_owned::<ComputePool>(live.clone())
        .map(|(pool, _)| pool)
        .ok();
    let (pool, issues) = match read_owned::<ComputePool>(value.clone()) {
        Ok(read) => read,
        Err(e) => {
            problems.push(Problem {
                line: 1,
                text: format!("error [edit.shape]: not a ComputePool: {e}"),
            });
            return Checked::Invalid(problems);
        }
    };
    let context = Context {
        old: old.as_ref(),
        fleet,
        self_index,
    };
    let mut warnings = Vec::new();
    for finding in rules::validate(&pool, &issues, &context) {
        let problem = Problem {
            line: at(&finding.path),
            text: said(&finding),
        };
        // Notes (status is the controller's, say) are not worth a word before sending.
        match finding.rule.severity {
            Severity::Error => problems.push(problem),
            Severity::Warning => warnings.push(problem.line()),
            Severity::Info => {}
        }
    }
    if !problems.is_empty() {
        problems.sort_by_key(|p| p.line);
        return Checked::Invalid(problems);
    }
    Checked::Valid {
        object: value,
        changes,
        warnings,
    }
}

/// What names the object may not change: the edit replaces this pool, no other. The uid
/// may be left out (the server's is sent); another one is another pool.
fn identity_problems(live: &Value, value: &Value, at: impl Fn(&YamlPath) -> u32) -> Vec<Problem> {
    let mut problems = Vec::new();
    for (path, pointer) in [
        ("apiVersion", "/apiVersion"),
        ("kind", "/kind"),
        ("metadata.name", "/metadata/name"),
        ("metadata.namespace", "/metadata/namespace"),
        ("metadata.uid", "/metadata/uid"),
    ] {
        let was = live.pointer(pointer);
        let now = value.pointer(pointer);
        // The uid may be left out (the server's is sent); another one is another pool.
        let left_out = path == "metadata.uid" && now.is_none();
        if was != now && !left_out {
            let way = if matches!(path, "metadata.name" | "metadata.namespace") {
                "; the wizard's R recreates a pool under another name"
            } else {
                ""
            };
            problems.push(Problem {
                line: at(&YamlPath::keys(path)),
                text: format!(
                    "error [edit.identity]: {path} cannot change in an edit (it was {}){way}",
                    was.map_or_else(|| "absent".to_owned(), Value::to_string)
                ),
            });
        }
    }
    problems
}

/// A finding as the file written back says it: `error [rule]: message`.
fn said(finding: &crate::rules::Finding) -> String {
    format!(
        "{} [{}]: {}",
        match finding.rule.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        },
        finding.rule.id,
        finding.message
    )
}
