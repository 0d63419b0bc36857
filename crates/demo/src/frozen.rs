//! A support bundle served back (`demo serve --bundle`): its objects as they were when it
//! was taken, nothing playing, every write refused, each pod's log the lines it carries.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::scenario::Scenario;

/// What a served bundle holds beyond its objects.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Frozen {
    /// The hub it was taken of (its kubeconfig context).
    pub hub: String,
    /// When it was taken (RFC 3339), said in `/version` as `pooldeckBundleTakenAt`.
    pub taken_at: String,
    /// Each pod's log lines, by (namespace, pod).
    pub logs: BTreeMap<(String, String), Vec<String>>,
}

/// What a write to a served bundle is told.
pub const REFUSED: &str =
    "this is a support bundle, served read-only: nothing on it can be changed";

impl Scenario {
    /// A bundle's hub as a story that never moves: its objects, its timelines, its logs.
    pub fn of_bundle(
        description: String,
        objects: Vec<Value>,
        timeline: Value,
        frozen: Frozen,
    ) -> Scenario {
        Scenario {
            name: "bundle".to_owned(),
            description,
            objects,
            steps: Vec::new(),
            utilization_every: None,
            utilization_spread: 0.0,
            stuck_deletions: Vec::new(),
            controller_logs: Vec::new(),
            deletion_delay: std::time::Duration::from_secs(1),
            repeat_after: None,
            timeline,
            frozen: Some(frozen),
        }
    }
}
