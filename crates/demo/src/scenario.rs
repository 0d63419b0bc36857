//! Scenarios: a timeline of object states and Events that the demo cluster plays, from
//! `demo/scenarios/*.yaml`, a recording, or a generator (`large`). The player also runs the
//! small controllers the troubleshooting guide describes: a paused pool stops changing, and
//! deleting a pool force-deletes its AIWorkloads and then releases its finalizer, unless the
//! scenario says the deletion is stuck.
//!
//! Timestamps may be written relative to the moment they are applied: `now`, `now-3d`,
//! `now+30s` (Go durations, plus `d` for days), so a demo always looks current.

mod steps;
mod times;

use std::time::Duration;

use serde_json::Value;

use self::steps::{field_text, step_of};
pub(crate) use self::times::owned_by_pool;
use self::times::parse_offset;
pub use self::times::{resolve_times, resolve_times_at};
use super::error::ScenarioError;
use super::store::Store;

/// One change of a timeline.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Create or replace an object (status included).
    Put(Value),
    /// Merge-patch an object named by kind, namespace and name.
    Merge {
        kind: String,
        namespace: String,
        name: String,
        patch: Value,
    },
    Delete {
        kind: String,
        namespace: String,
        name: String,
    },
    /// Record a core/v1 Event about an object.
    Event {
        namespace: String,
        kind: String,
        name: String,
        event_type: String,
        reason: String,
        message: String,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub at: Duration,
    pub action: Action,
}

/// A scenario or recording, ready to play.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    pub name: String,
    pub description: String,
    pub objects: Vec<Value>,
    pub steps: Vec<Step>,
    /// Random-walk the utilization of every evaluation this often (none: still).
    pub utilization_every: Option<Duration>,
    pub utilization_spread: f64,
    /// Pools (`namespace/name`) whose deletion never completes.
    pub stuck_deletions: Vec<String>,
    /// The hue controller's scripted log lines (`controller.logs`: at, level, message, pool).
    pub controller_logs: Vec<Value>,
    /// How long the simulated controller takes for each deletion stage.
    pub deletion_delay: Duration,
    /// Start the steps again this long after the last one (none: play once).
    pub repeat_after: Option<Duration>,
    /// What pooldeck had kept of the recorded pools' timelines (`timeline`: per
    /// `namespace/name`, its entries), carried by a recording to its replay.
    pub timeline: Value,
    /// A support bundle served back: nothing plays, nothing changes (see `demo::frozen`).
    pub frozen: Option<super::frozen::Frozen>,
}

/// The built-in scenarios, compiled in.
pub const BUILTIN: &[(&str, &str)] = &[
    ("fleet", include_str!("../../../demo/scenarios/fleet.yaml")),
    (
        "scale-up",
        include_str!("../../../demo/scenarios/scale-up.yaml"),
    ),
    (
        "scale-abort",
        include_str!("../../../demo/scenarios/scale-abort.yaml"),
    ),
    (
        "scale-down",
        include_str!("../../../demo/scenarios/scale-down.yaml"),
    ),
    (
        "stuck-provisioning",
        include_str!("../../../demo/scenarios/stuck-provisioning.yaml"),
    ),
    (
        "vip-conflict",
        include_str!("../../../demo/scenarios/vip-conflict.yaml"),
    ),
    (
        "gpu-quota",
        include_str!("../../../demo/scenarios/gpu-quota.yaml"),
    ),
    (
        "deletion-blocked",
        include_str!("../../../demo/scenarios/deletion-blocked.yaml"),
    ),
    (
        "stale-metrics",
        include_str!("../../../demo/scenarios/stale-metrics.yaml"),
    ),
    (
        "longhorn-replicas",
        include_str!("../../../demo/scenarios/longhorn-replicas.yaml"),
    ),
    (
        "air-gapped-host",
        include_str!("../../../demo/scenarios/air-gapped-host.yaml"),
    ),
    (
        "nvidia-runtime",
        include_str!("../../../demo/scenarios/nvidia-runtime.yaml"),
    ),
];

/// A scenario file's `description:`, read from its text without parsing the whole file (the
/// help lists every built-in one on every start).
fn story_of(text: &str) -> String {
    let mut lines = text.lines().skip_while(|l| !l.starts_with("description:"));
    let first = lines.next().unwrap_or("");
    let mut story = first
        .trim_start_matches("description:")
        .trim()
        .trim_start_matches(['>', '|'])
        .trim()
        .to_owned();
    for line in lines.take_while(|l| l.starts_with(' ')) {
        story.push(' ');
        story.push_str(line.trim());
    }
    story.trim().to_owned()
}

/// Every built-in scenario with its story's first sentence, a line each (for `demo serve
/// --help`), and `large`.
pub fn listing() -> String {
    let mut out = String::new();
    for (name, text) in BUILTIN {
        let story = story_of(text);
        let first = story
            .split_inclusive(". ")
            .next()
            .unwrap_or(&story)
            .trim()
            .trim_end_matches(':');
        out.push_str(&format!("  {name:<20} {first}\n"));
    }
    out.push_str(&format!(
        "  {:<20} Generated: --pools N pools with their evaluations, paced like a real hub.\n",
        "large"
    ));
    out
}

fn read_file(path: &std::path::Path) -> Result<String, ScenarioError> {
    pooldeck_io::files::read_text(path, pooldeck_domain::manifest::MAX_INPUT_BYTES as u64).map_err(
        |why| ScenarioError::Unreadable {
            path: path.to_owned(),
            why,
        },
    )
}

fn in_file(path: &std::path::Path, why: ScenarioError) -> ScenarioError {
    ScenarioError::InFile {
        path: path.to_owned(),
        why: Box::new(why),
    }
}

impl Scenario {
    pub fn builtin(name: &str) -> Result<Scenario, ScenarioError> {
        if let Some(count) = name.strip_prefix("large") {
            let count = count.trim_start_matches(['-', ':']).parse().unwrap_or(1000);
            return Ok(Scenario::large(count));
        }
        let (_, text) = BUILTIN.iter().find(|(n, _)| *n == name).ok_or_else(|| {
            let names: Vec<&str> = BUILTIN.iter().map(|(n, _)| *n).collect();
            ScenarioError::Unknown {
                name: name.to_owned(),
                built_in: names.join(", "),
            }
        })?;
        Scenario::parse(text).map_err(|why| ScenarioError::BuiltIn {
            name: name.to_owned(),
            why: Box::new(why),
        })
    }

    pub fn parse(text: &str) -> Result<Scenario, ScenarioError> {
        let documents = pooldeck_domain::manifest::parse(text).map_err(ScenarioError::Text)?;
        let root = documents
            .first()
            .map(|d| d.root.to_json())
            .ok_or(ScenarioError::Empty)?;
        Scenario::from_root(&root)
    }

    /// A recording of several hubs (`pooldeck record --context a --context b`): one document
    /// per hub, each a scenario with the hub's context in `hub`. A file of one document
    /// without `hub` is one hub, unnamed.
    pub fn from_file_of_hubs(
        path: &std::path::Path,
    ) -> Result<Vec<(Option<String>, Scenario)>, ScenarioError> {
        let text = read_file(path)?;
        let documents = pooldeck_domain::manifest::parse(&text)
            .map_err(|e| in_file(path, ScenarioError::Text(e)))?;
        if documents.is_empty() {
            return Err(in_file(path, ScenarioError::Empty));
        }
        let mut hubs: Vec<(Option<String>, Scenario)> = Vec::new();
        for (index, document) in documents.iter().enumerate() {
            let root = document.root.to_json();
            let hub = root.get("hub").and_then(Value::as_str).map(str::to_owned);
            if documents.len() > 1 && hub.is_none() {
                return Err(in_file(
                    path,
                    ScenarioError::NoHub {
                        document: index + 1,
                    },
                ));
            }
            if hub.is_some() && hubs.iter().any(|(h, _)| *h == hub) {
                return Err(in_file(
                    path,
                    ScenarioError::HubTwice {
                        hub: hub.unwrap_or_default(),
                    },
                ));
            }
            let scenario = Scenario::from_root(&root).map_err(|why| in_file(path, why))?;
            hubs.push((hub, scenario));
        }
        Ok(hubs)
    }

    fn from_root(root: &Value) -> Result<Scenario, ScenarioError> {
        let root = root.clone();
        let objects = root
            .get("objects")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let mut steps = Vec::new();
        for (i, step) in root
            .get("steps")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            steps.push(step_of(i, step)?);
        }
        steps.sort_by_key(|s| s.at);
        let duration = |pointer: &str| -> Result<Option<Duration>, ScenarioError> {
            root.pointer(pointer)
                .and_then(Value::as_str)
                .map(parse_offset)
                .transpose()
        };
        Ok(Scenario {
            timeline: root.get("timeline").cloned().unwrap_or_default(),
            name: field_text(&root, "name"),
            description: field_text(&root, "description"),
            objects,
            steps,
            utilization_every: duration("/live/utilization/every")?,
            utilization_spread: root
                .pointer("/live/utilization/spread")
                .and_then(Value::as_f64)
                .unwrap_or(5.0),
            stuck_deletions: root
                .pointer("/controller/stuckDeletions")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default(),
            controller_logs: root
                .pointer("/controller/logs")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default(),
            deletion_delay: duration("/controller/deletionDelay")?
                .unwrap_or(Duration::from_secs(2)),
            repeat_after: duration("/repeat")?,
            frozen: None,
        })
    }

    /// Puts the initial objects into the store (namespaces first, then the rest).
    pub fn load_initial(&self, store: &Store) -> Result<(), ScenarioError> {
        let mut objects: Vec<Value> = self.objects.iter().map(resolve_times).collect();
        // Namespaces, then pools (evaluations point at them), then the rest.
        objects.sort_by_key(|o| match o.get("kind").and_then(Value::as_str) {
            Some("Namespace") => 0,
            Some("ComputePool") => 1,
            _ => 2,
        });
        for object in objects {
            // A kind the server does not serve (its CRD "not installed") is left out.
            let kind = object.get("kind").and_then(Value::as_str).unwrap_or("");
            if store.registry.by_kind(kind).is_none() {
                continue;
            }
            store
                .put(owned_by_pool(store, object))
                .map_err(|why| ScenarioError::Refused {
                    what: format!("{} initial object", self.name),
                    why: Box::new(why),
                })?;
        }
        Ok(())
    }

    /// A synthetic fleet of `count` pools with evaluations, over three projects, with ten hosts
    /// each, for performance work.
    pub fn large(count: usize) -> Scenario {
        Scenario::large_with_events(count, 0)
    }

    /// The `large` fleet of `count` pools with `events` events about them (a warning in five)
    /// for the events view's performance work.
    pub fn large_with_events(count: usize, events: usize) -> Scenario {
        let mut objects = Vec::with_capacity(count * 2 + events);
        for i in 0..count {
            let (pool, evaluation) = super::large::large_pool(i);
            objects.push(pool);
            objects.push(evaluation);
        }
        objects.extend((0..events).map(|i| super::large::large_event(i, count)));
        let description = format!(
            "{count} synthetic pools with evaluations and ten hosts each{}",
            if events > 0 {
                format!(", {events} events")
            } else {
                String::new()
            }
        );
        Scenario::still(format!("large-{count}"), description, objects)
    }

    /// A story that never moves: these objects, no steps, no scripted controller.
    pub fn still(name: String, description: String, objects: Vec<Value>) -> Scenario {
        Scenario {
            name,
            description,
            objects,
            steps: Vec::new(),
            utilization_every: None,
            utilization_spread: 0.0,
            stuck_deletions: Vec::new(),
            controller_logs: Vec::new(),
            deletion_delay: Duration::from_secs(1),
            repeat_after: None,
            timeline: Value::Null,
            frozen: None,
        }
    }
}

#[cfg(test)]
#[path = "scenario_tests.rs"]
mod tests;
