//! A session on one hub: requests bound to it, each recorded in the audit log, each answered within a deadline.

use kube::Client;

use super::{Mode, audit, perform};
use crate::domain::operation::Run;
use crate::domain::{ClusterError, Hub, Operation, Outcome, Request};

/// A connection to one hub that carries out requests bound to it and records each in the
/// audit log: the one way the console and the CLI verbs act on a hub.
pub struct Session {
    pub client: Client,
    pub mode: Mode,
    /// The hub this connection reaches: a request bound to another is refused unsent.
    pub hub: Hub,
    /// The audit log, or why none could be placed: then nothing that changes anything is
    /// sent (an audit record that cannot be written holds the action back).
    pub audit: Result<std::path::PathBuf, audit::AuditError>,
    /// Tells this session's request ids from another process's in a shared log.
    tag: String,
    /// The answer of each dry run, by the kubectl line of its real request, for the log.
    dry_runs: std::sync::Mutex<std::collections::HashMap<String, Outcome>>,
    /// Hands out this session's request ids: one sequence for every request it sends, so the
    /// audit log pairs each intent with its outcome unambiguously.
    ids: std::sync::Mutex<crate::domain::request::Ids>,
}

impl Session {
    pub fn new(
        client: Client,
        mode: Mode,
        hub: Hub,
        audit: Result<std::path::PathBuf, audit::AuditError>,
    ) -> Session {
        if let Ok(path) = &audit {
            audit::close_left_open(path, chrono::Utc::now());
        }
        Session {
            client,
            mode,
            hub,
            audit,
            tag: format!("{:08x}", fastrand::u32(..)),
            dry_runs: std::sync::Mutex::new(std::collections::HashMap::new()),
            ids: std::sync::Mutex::new(crate::domain::request::Ids::default()),
        }
    }

    /// A request bound to this session's hub under the next id of its sequence.
    pub fn bind(&self, operation: Operation) -> Request {
        let id = self
            .ids
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .fresh();
        Request {
            id,
            hub: self.hub.clone(),
            operation,
        }
    }

    /// Carries out one request. It is sent only to the hub it is bound to, only after its
    /// intent is in the audit log (access reviews, which change nothing, are not recorded),
    /// and its outcome is appended after. An outcome that cannot be recorded is said in the
    /// outcome's message; the operation's own result is never hidden by it.
    pub async fn run(&self, request: &Request) -> Outcome {
        let operation = &request.operation;
        if request.hub != self.hub {
            return Outcome::Failed(ClusterError::NotSent {
                why: format!(
                    "it was previewed on {}, and this connection is to {}",
                    request.hub, self.hub
                ),
            });
        }
        if !operation.is_mutating() {
            return answered(perform(&self.client, self.mode, operation)).await;
        }
        if self.mode == Mode::ReadOnly {
            return Outcome::Failed(ClusterError::ReadOnly);
        }
        let id = format!("{}-{}", self.tag, request.id);
        let path = match &self.audit {
            Ok(path) => path,
            Err(why) => return Outcome::Failed(not_recorded(why)),
        };
        let intent = audit::Record {
            request: &id,
            at: &self.hub,
            operation,
            dry_run_answer: None,
            outcome: None,
        };
        let intent = intent.line(chrono::Utc::now());
        let open = match audit::Open::begin(path, &intent, &id, (&self.hub, operation)) {
            Ok(open) => open,
            Err(why) => return Outcome::Failed(not_recorded(&why)),
        };
        // Bounded: a hub that stops answering gives an outcome (unknown, and said so) that is
        // recorded, never a wait without end with the intent left open in the log.
        let outcome = answered(perform(&self.client, self.mode, operation)).await;
        let real = operation.with_run(Run::Real).kubectl();
        let mut dry_runs = self
            .dry_runs
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let dry_run_answer = match operation.run() {
            Some(Run::DryRun) => {
                dry_runs.insert(real, outcome.clone());
                None
            }
            _ => dry_runs.remove(&real),
        };
        drop(dry_runs);
        let record = audit::Record {
            request: &id,
            at: &self.hub,
            operation,
            dry_run_answer: dry_run_answer.as_ref(),
            outcome: Some(&outcome),
        };
        match (open.finish(&record.line(chrono::Utc::now())), outcome) {
            (Ok(()), outcome) => outcome,
            (Err(e), Outcome::Done { message }) => Outcome::Done {
                message: format!("{message} (its outcome was not recorded: {e})"),
            },
            (Err(_), outcome) => outcome,
        }
    }
}

/// How long one request may wait for its answer.
pub const REQUEST_DEADLINE: std::time::Duration = std::time::Duration::from_secs(30);

/// The request's outcome, or after [`REQUEST_DEADLINE`] without an answer an outcome that
/// says the server may have acted on it.
async fn answered(request: impl std::future::Future<Output = Outcome>) -> Outcome {
    match tokio::time::timeout(REQUEST_DEADLINE, request).await {
        Ok(outcome) => outcome,
        Err(_) => Outcome::Failed(ClusterError::Unanswered {
            detail: format!(
                "no answer within {} s (the hub may have stopped answering); it may have been \
                 carried out: look before trying again",
                REQUEST_DEADLINE.as_secs()
            ),
        }),
    }
}

/// Why a request was held back: its audit record could not be written.
fn not_recorded(why: &audit::AuditError) -> ClusterError {
    ClusterError::NotSent {
        why: format!(
            "its audit record could not be written ({why}); point the audit log elsewhere with \
             --audit-log PATH or audit-log: in the settings file"
        ),
    }
}

#[cfg(test)]
mod deadline_tests {
    use super::*;

    /// A request whose answer never comes ends after the deadline, said as possibly carried
    /// out (the clock is paused and moved on, not waited out).
    #[tokio::test(start_paused = true)]
    async fn a_request_without_an_answer_ends_at_the_deadline() {
        let started = tokio::time::Instant::now();
        let outcome = answered(std::future::pending()).await;
        assert_eq!(started.elapsed(), REQUEST_DEADLINE);
        match outcome {
            Outcome::Failed(ClusterError::Unanswered { detail }) => {
                assert!(detail.contains("may have been carried out"), "{detail}")
            }
            other => panic!("{other:?}"),
        }
        // An answer in time is the answer.
        let done = Outcome::Allowed(true);
        assert_eq!(answered(async { Outcome::Allowed(true) }).await, done);
    }
}
