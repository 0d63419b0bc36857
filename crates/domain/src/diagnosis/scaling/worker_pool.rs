//! One worker pool's entry of the evaluation, as the scaling findings name it.

use super::super::*;

/// One worker pool's entry of the evaluation, as its findings name it.
pub(super) struct WorkerPool<'a> {
    pub key: &'a str,
    /// The key as a path writes it.
    pub keyed: String,
    /// The command that shows the evaluation (every finding's next step).
    pub show_evaluation: &'a str,
    /// The state's details, as the controller wrote them.
    pub details: &'a str,
}

impl WorkerPool<'_> {
    /// A finding about this worker pool, whose next step is to look at the evaluation.
    pub fn finding(
        &self,
        id: &'static str,
        severity: Severity,
        summary: String,
        evidence: Vec<(String, String)>,
        cause: Cow<'static, str>,
    ) -> Diagnosis {
        Diagnosis {
            id,
            fix: None,
            severity,
            symptom: SCALING,
            summary: format!("{}: {summary}", self.key),
            evidence,
            cause,
            next: vec![self.show_evaluation.to_owned()],
        }
    }
}
