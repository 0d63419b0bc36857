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
            timeline,
            frozen: Some(frozen),
            ..Scenario::still("bundle".to_owned(), description, objects)
        }
    }
}

/// What the server holds of a served bundle, when the options serve one.
pub(crate) fn of(options: &crate::Options) -> Option<std::sync::Arc<Frozen>> {
    let scenario = options.scenario.as_ref()?;
    scenario.frozen.clone().map(std::sync::Arc::new)
}

impl crate::DemoCluster {
    /// When the support bundle it serves was taken (`None`: it plays a story).
    pub fn bundle_taken_at(&self) -> Option<chrono::DateTime<chrono::Utc>> {
        let playing = self
            .scenario
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let taken = playing.as_ref()?.0.frozen.as_ref()?.taken_at.clone();
        chrono::DateTime::parse_from_rfc3339(&taken)
            .ok()
            .map(|t| t.with_timezone(&chrono::Utc))
    }
}
