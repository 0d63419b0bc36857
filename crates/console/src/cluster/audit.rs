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
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{Value, json};

use crate::domain::error::{AppendError, DirError};
use crate::domain::{ClusterError, Hub, Operation, Outcome, Run};

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
        // Sent, and no answer: neither done nor failed.
        Outcome::Failed(error @ ClusterError::Unanswered { .. }) => {
            json!({"result": "unknown", "message": error.to_string()})
        }
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
            "pid": std::process::id(),
        });
        if let Some(outcome) = self.outcome {
            record["dryRunAnswer"] = self.dry_run_answer.map_or(Value::Null, outcome_json);
            record["outcome"] = outcome_json(outcome);
        }
        // A log is read on terminals: what JSON leaves raw for one to act on is escaped.
        crate::domain::inert::json(&record.to_string()).into_owned()
    }
}

/// The requests on their way, each with the outcome to append should its process end first.
/// A signal ends the process, not one session, so the list is the process's.
static OPEN: Mutex<Vec<Pending>> = Mutex::new(Vec::new());
static NEXT_OPEN: AtomicU64 = AtomicU64::new(0);

struct Pending {
    token: u64,
    path: PathBuf,
    request: String,
    hub: Hub,
    operation: Operation,
}

impl Pending {
    fn append_interrupted(&self) {
        let outcome = Outcome::Failed(ClusterError::Unanswered {
            detail: "interrupted: outcome unknown (pooldeck ended before the answer came)".into(),
        });
        let record = Record {
            request: &self.request,
            at: &self.hub,
            operation: &self.operation,
            dry_run_answer: None,
            outcome: Some(&outcome),
        };
        // Nothing more can be done for a record that cannot be written as the process ends.
        let _ = append(&self.path, &record.line(Utc::now()));
    }
}

fn open_list() -> std::sync::MutexGuard<'static, Vec<Pending>> {
    OPEN.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A request whose intent is in the log and whose outcome is not yet: dropped before
/// [`Open::finish`] (its future cancelled, its process ending), it appends an outcome that
/// says "interrupted: outcome unknown", so that no intent is left alone in the log. The
/// intent, the outcome and [`interrupted`] each write under the list's lock: an outcome is
/// never written twice, nor an interrupted one before its intent.
pub struct Open(u64);

impl Open {
    /// Appends the intent's line and holds the request open; why not, if it could not be.
    pub fn begin(
        path: &Path,
        intent: &str,
        request: &str,
        (hub, operation): (&Hub, &Operation),
    ) -> Result<Open, AuditError> {
        let mut open = open_list();
        append(path, intent)?;
        let token = NEXT_OPEN.fetch_add(1, Ordering::Relaxed);
        open.push(Pending {
            token,
            path: path.to_owned(),
            request: request.to_owned(),
            hub: hub.clone(),
            operation: operation.clone(),
        });
        Ok(Open(token))
    }

    /// Appends the outcome's line; nothing more is appended for this request after it.
    pub fn finish(self, outcome: &str) -> Result<(), AuditError> {
        let mut open = open_list();
        let Some(at) = open.iter().position(|p| p.token == self.0) else {
            return Ok(());
        };
        let pending = open.swap_remove(at);
        append(&pending.path, outcome)
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        let mut open = open_list();
        if let Some(at) = open.iter().position(|p| p.token == self.0) {
            open.swap_remove(at).append_interrupted();
        }
    }
}

/// The process is ending on a signal: every request on its way gets its outcome,
/// "interrupted: outcome unknown"; how many there were. The list stays locked: no outcome
/// is written after these, in the moment before the process ends.
pub fn interrupted() -> usize {
    let mut open = open_list();
    for pending in open.iter() {
        pending.append_interrupted();
    }
    let count = open.len();
    open.clear();
    std::mem::forget(open);
    count
}

/// How old an intent without an outcome must be before another process closes it: older
/// than any request's deadline, so it is no request still on its way.
const LEFT_OPEN_AFTER: chrono::Duration = chrono::Duration::seconds(60);

/// How much of the log's end [`close_left_open`] reads.
const TAIL: u64 = 1 << 20;

/// Intents an earlier process left without an outcome (ended by a signal it could not
/// answer, a power cut) get theirs now: for a dry run, that nothing changed; else
/// "interrupted: outcome unknown". Only those older than [`LEFT_OPEN_AFTER`] whose process is
/// not running, in the log's last mebibyte. How many were closed; a log that cannot be read
/// (or is no regular file) closes none.
pub fn close_left_open(path: &Path, now: DateTime<Utc>) -> usize {
    let Ok(tail) = crate::files::read_tail(path, TAIL) else {
        return 0;
    };
    let mut intents: Vec<Value> = Vec::new();
    let mut answered = std::collections::HashSet::new();
    for line in tail.lines() {
        let Ok(record) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let request = record["request"].as_str().map(str::to_owned);
        match (record["record"].as_str(), request) {
            (Some("intent"), Some(_)) => intents.push(record),
            (Some("outcome"), Some(request)) => {
                answered.insert(request);
            }
            _ => {}
        }
    }
    let mut closed = 0;
    for mut intent in intents {
        let request = intent["request"].as_str().unwrap_or_default();
        let written = intent["time"]
            .as_str()
            .and_then(|t| t.parse::<DateTime<Utc>>().ok());
        if answered.contains(request)
            || written.is_none_or(|at| now - at < LEFT_OPEN_AFTER)
            || intent["pid"]
                .as_i64()
                .is_some_and(crate::files::process_running)
        {
            continue;
        }
        let outcome = if intent["dryRun"] == json!(true) {
            json!({"result": "not-done", "message": "interrupted: a dry run, so nothing was changed"})
        } else {
            json!({"result": "unknown", "message": "interrupted: outcome unknown (found without \
                an outcome when pooldeck next started); look at the object before trying again"})
        };
        intent["time"] = json!(now.to_rfc3339_opts(SecondsFormat::Millis, true));
        intent["record"] = json!("outcome");
        intent["dryRunAnswer"] = Value::Null;
        intent["outcome"] = outcome;
        let line = crate::domain::inert::json(&intent.to_string()).into_owned();
        if append(path, &line).is_ok() {
            closed += 1;
        }
    }
    closed
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
#[path = "audit_tests.rs"]
mod tests;
