//! The audit log: two JSON lines per request pooldeck sends that changes something (dry runs
//! included), paired by the request's id: the intent, appended before the request leaves (a
//! request whose intent cannot be written is not sent), and the outcome, appended after. Each
//! says when, where (context, server), who (the kubeconfig user's name), what (the operation,
//! its objects, its preconditions, its kubectl equivalent); the outcome adds the dry run's
//! answer before a real request, and what came of it. Appended to
//! `$XDG_STATE_HOME/pooldeck/audit.log` (default `~/.local/state/pooldeck/audit.log`, mode
//! 0600) or the path `--audit-log` names, each line in one write. Never a token or an object's
//! body: a create or replace is recorded by its kubectl line and target.

use std::path::{Path, PathBuf};

use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{Value, json};

use crate::domain::error::{AppendError, DirError};
use crate::domain::{Hub, Operation, Outcome, Run};

/// Why there is no audit log to write to, or a record could not be added to it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AuditError {
    #[error("no audit log was given")]
    NotGiven,
    #[error("the settings file's audit-log \"{0}\" is not an absolute path")]
    NotAbsolute(String),
    #[error(transparent)]
    NoStateDir(#[from] DirError),
    #[error("cannot write the audit log {}: the directory {} does not exist", path.display(), dir.display())]
    NoDirectory { path: PathBuf, dir: PathBuf },
    #[error(transparent)]
    Append(#[from] AppendError),
}

/// The default audit log.
pub fn default_path() -> Result<PathBuf, AuditError> {
    let dir = crate::files::state_dir()?;
    Ok(dir.join("audit.log"))
}

/// The audit log: the path given (`--audit-log`, else `audit-log:` in the settings file, which
/// may be unusable as written), else the default; or why none could be placed (then nothing
/// that changes anything is sent).
pub fn place(
    flag: Option<PathBuf>,
    settings: Option<Result<PathBuf, AuditError>>,
) -> Result<PathBuf, AuditError> {
    match (flag, settings) {
        (Some(path), _) => Ok(path),
        (None, Some(from_settings)) => from_settings,
        (None, None) => default_path(),
    }
}

fn action(operation: &Operation) -> &'static str {
    match operation {
        Operation::SetLabel { .. } => "set-label",
        Operation::RemoveLabel { .. } => "remove-label",
        Operation::Delete { .. } => "delete",
        Operation::RemoveFinalizer { .. } => "remove-finalizer",
        Operation::Create { .. } => "create",
        Operation::Update { .. } => "replace",
        Operation::AccessReview { .. } => "access-review",
    }
}

fn outcome_json(outcome: &Outcome) -> Value {
    match outcome {
        Outcome::Done { message } => json!({"result": "done", "message": message}),
        Outcome::Allowed(allowed) => json!({"result": "answered", "allowed": allowed}),
        Outcome::Failed(error) => json!({"result": "failed", "message": error.to_string()}),
    }
}

/// One record of the log: the intent, written before the request is sent (no outcome), or
/// the outcome, written after. Both carry the request's id, so they pair up.
pub struct Record<'a> {
    pub request: &'a str,
    pub at: &'a Hub,
    pub operation: &'a Operation,
    pub dry_run_answer: Option<&'a Outcome>,
    pub outcome: Option<&'a Outcome>,
}

impl Record<'_> {
    /// The record as one line of JSON.
    pub fn line(&self, time: DateTime<Utc>) -> String {
        let operation = self.operation;
        let preconditions = operation.preconditions();
        let mut record = json!({
            "time": time.to_rfc3339_opts(SecondsFormat::Millis, true),
            "record": if self.outcome.is_some() { "outcome" } else { "intent" },
            "request": self.request,
            "context": self.at.context,
            "server": self.at.server,
            "user": self.at.user,
            "operation": action(operation),
            "dryRun": operation.run() == Some(Run::DryRun),
            "objects": operation.target().map(|t| vec![t.to_string()]).unwrap_or_default(),
            "preconditions": {"uid": preconditions.uid, "resourceVersion": preconditions.resource_version},
            "kubectl": crate::domain::shell::on_hub(&operation.kubectl(), self.at),
        });
        if let Some(outcome) = self.outcome {
            record["dryRunAnswer"] = self.dry_run_answer.map_or(Value::Null, outcome_json);
            record["outcome"] = outcome_json(outcome);
        }
        // A log is read on terminals: what JSON leaves raw for one to act on is escaped.
        crate::domain::inert::json(&record.to_string()).into_owned()
    }
}

/// Appends a line to the log at `path`.
pub fn append(path: &Path, line: &str) -> Result<(), AuditError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && !dir.exists()
    {
        // The default directory is made private; a directory someone named must exist.
        if default_path().ok().as_deref().and_then(Path::parent) != Some(dir) {
            return Err(AuditError::NoDirectory {
                path: path.to_owned(),
                dir: dir.to_owned(),
            });
        }
    }
    Ok(crate::files::append_private(path, line)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{ClusterError, Kind, ObjectRef, Preconditions};

    #[test]
    fn a_line_is_one_json_object_with_the_facts_and_no_secret() {
        let operation = Operation::Delete {
            target: ObjectRef::new(Kind::Pool, "retail-edge", "store-042"),
            preconditions: Preconditions {
                uid: Some("u-1".into()),
                resource_version: Some("9".into()),
            },
            run: Run::Real,
        };
        let at = Hub {
            context: "prod-hub".into(),
            server: "https://hub:6443".into(),
            user: "alice".into(),
            kubeconfig: None,
        };
        let dry = Outcome::Done {
            message: "dry run: the server accepts this".into(),
        };
        let failed = Outcome::Failed(ClusterError::Conflict {
            message: "the uid changed".into(),
        });
        let intent = Record {
            request: "c0ffee00-7",
            at: &at,
            operation: &operation,
            dry_run_answer: None,
            outcome: None,
        };
        let intent: Value = serde_json::from_str(&intent.line(Utc::now())).expect("JSON");
        assert_eq!(intent["record"], "intent");
        assert_eq!(intent["request"], "c0ffee00-7");
        assert!(intent.get("outcome").is_none());
        let record = Record {
            request: "c0ffee00-7",
            at: &at,
            operation: &operation,
            dry_run_answer: Some(&dry),
            outcome: Some(&failed),
        };
        let text = record.line(Utc::now());
        assert!(!text.contains('\n'));
        let value: Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(value["record"], "outcome");
        assert_eq!(value["operation"], "delete");
        assert_eq!(value["objects"][0], "ComputePool retail-edge/store-042");
        assert_eq!(value["preconditions"]["uid"], "u-1");
        assert_eq!(value["dryRunAnswer"]["result"], "done");
        assert_eq!(value["outcome"]["result"], "failed");
        assert_eq!(value["user"], "alice");
        assert!(
            value["kubectl"]
                .as_str()
                .is_some_and(|k| k.starts_with("kubectl --context prod-hub delete"))
        );
    }
}
