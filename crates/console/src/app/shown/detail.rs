//! The open pool's data (its YAML, the reference's findings against the fleet, its row of
//! the pools list, its hosts), worked out once per change of the inventory.

use crate::app::App;
use crate::app::rows::{self, Row, Table};
use chrono::{DateTime, Utc};

use crate::domain::ObjectRef;
use crate::domain::model::evaluation::Deadline;
use crate::domain::rules::{self, Finding};
use crate::inventory::{Inventory, Kind};

/// The open pool, derived once per change of the inventory.
#[derive(Clone, Debug, Default)]
pub struct DetailData {
    /// The pool as YAML, a line each.
    pub yaml: Vec<String>,
    /// The reference's rules, checked against the watched fleet.
    pub findings: Vec<Finding>,
    /// The pool's row of the pools list.
    pub summary: Option<Row>,
    /// The pool's hosts.
    pub hosts: Table,
    /// The status of each host the pool's scaling actions name, by uid, wherever in the fleet
    /// it is (the Scaling tab reads it instead of scanning every host per frame).
    pub action_hosts: std::collections::HashMap<String, String>,
    /// The events about the pool, newest first (sorted here, not per frame).
    pub events: Vec<std::sync::Arc<crate::inventory::Object>>,
    /// What the Scaling tab shows of each worker pool (by its evaluation key) that takes
    /// parsing or sorting, worked out here rather than per frame.
    pub scaling: std::collections::HashMap<String, WorkerScaling>,
    /// Every condition's `lastTransitionTime` in the pool's status (its own and its
    /// clusters'), as written and parsed, for the Conditions tab's ages.
    pub times: std::collections::HashMap<String, DateTime<Utc>>,
    /// The pool's timeline, oldest first: worked out only while its tab is open.
    pub timeline: Vec<crate::domain::timeline::Entry>,
}

/// The transition times of a pool's conditions (its own and its clusters'), parsed.
fn condition_times(
    object: &crate::inventory::Object,
) -> std::collections::HashMap<String, DateTime<Utc>> {
    let Some(status) = object.pool().and_then(|p| p.status.get()) else {
        return std::collections::HashMap::new();
    };
    let clusters = status.clusters().flat_map(|c| {
        c.conditions
            .get()
            .into_iter()
            .flatten()
            .filter_map(|c| c.get())
    });
    status
        .conditions()
        .chain(clusters)
        .filter_map(|c| c.last_transition_time.as_deref())
        .filter_map(|text| Some((text.to_owned(), crate::domain::time::parse(text)?)))
        .collect()
}

/// A worker pool's scaling as the Scaling tab draws it, worked out when the data changes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorkerScaling {
    /// When its state ends by itself (cooldown over, a scale-up aborted).
    pub deadline: Option<Deadline>,
    /// Node wastes, highest (the next removal) first: host, wasteScore.
    pub wastes: Vec<(String, f64)>,
    /// When each host's metrics were last seen, for those whose time can be read.
    pub observed: Vec<(String, DateTime<Utc>)>,
}

/// The Scaling tab's parsed and sorted parts, per worker pool of the pool's evaluation.
fn worker_scaling(
    inventory: &Inventory,
    object: &crate::inventory::Object,
) -> std::collections::HashMap<String, WorkerScaling> {
    let Some(evaluation) = inventory.evaluation_for(object) else {
        return std::collections::HashMap::new();
    };
    let entries = evaluation
        .spec
        .get()
        .and_then(|s| s.pool_evaluations.get())
        .into_iter()
        .flatten();
    let observed = evaluation
        .status
        .get()
        .and_then(|s| s.metrics_last_observed_at.get());
    entries
        .map(|(key, entry)| {
            let key = key.as_str();
            let mut wastes: Vec<(String, f64)> = entry
                .get()
                .and_then(|e| e.node_wastes.get())
                .into_iter()
                .flatten()
                .filter_map(|w| w.get())
                .map(|w| {
                    (
                        w.host.as_deref().unwrap_or("?").to_owned(),
                        w.waste_score.or_default().value(),
                    )
                })
                .collect();
            // Stable: hosts with the same score keep the evaluation's order.
            wastes.sort_by(|a, b| b.1.total_cmp(&a.1));
            let seen = observed
                .and_then(|m| m.get(key))
                .and_then(|m| m.get())
                .into_iter()
                .flatten()
                .filter_map(|(host, at)| {
                    let at = at.as_deref().and_then(crate::domain::time::parse)?;
                    Some((host.as_str().to_owned(), at))
                })
                .collect();
            let deadline = evaluation
                .scaling_until(key)
                .and_then(|(_, deadline)| deadline);
            (
                key.to_owned(),
                WorkerScaling {
                    deadline,
                    wastes,
                    observed: seen,
                },
            )
        })
        .collect()
}

/// The hosts the evaluation's scaling actions name, with their status now.
fn action_hosts(
    inventory: &Inventory,
    object: &crate::inventory::Object,
) -> std::collections::HashMap<String, String> {
    let named: std::collections::HashSet<&str> = inventory
        .evaluation_for(object)
        .and_then(|e| e.status.get())
        .and_then(|s| s.pool_scaling_states.get())
        .into_iter()
        .flat_map(|states| states.values())
        .filter_map(|s| s.get())
        .flat_map(|s| s.actions.get().into_iter().flatten())
        .filter_map(|a| a.get())
        .filter_map(|a| a.host_uid.as_deref())
        .collect();
    if named.is_empty() {
        return std::collections::HashMap::new();
    }
    inventory
        .hosts()
        .filter(|h| named.contains(h.uid.as_str()))
        .map(|h| (h.uid.to_string(), h.status.to_string()))
        .collect()
}

impl App {
    /// The described pool's page, when the overlay is open.
    pub(super) fn refresh_describe(&mut self) {
        let Some(open) = self.overlays.iter().rev().find_map(|o| match o {
            crate::app::Overlay::Describe(view) => Some(view),
            _ => None,
        }) else {
            self.shown.describe.clear();
            self.shown.describe_rows.clear();
            self.shown.describe_key = None;
            return;
        };
        // Inside the overlay's borders.
        let width = self.size.map_or(0, |(width, _)| width.saturating_sub(2));
        let id = ObjectRef::new(open.kind, open.namespace.clone(), open.name.clone());
        // Worked out again when what it shows changes, and once a second (its ages, and what
        // the doctor finds across the fleet): not on every change anywhere in the fleet.
        let inventory = &self.fleet.inventory;
        let object = inventory.get(open.kind, &open.namespace, &open.name);
        let sources = [
            object.map_or(0, Inventory::identity),
            object
                .filter(|_| open.kind == Kind::Pool)
                .and_then(|p| inventory.evaluation_for(p))
                .map_or(0, |e| std::ptr::from_ref(e) as usize),
            inventory
                .events_for(open.kind.api().kind, &open.namespace, &open.name)
                .len(),
        ];
        let key = (id, sources, self.now.timestamp(), width);
        if self.shown.describe_key.as_ref() == Some(&key) {
            return;
        }
        self.shown.describe = match object {
            Some(object) if open.kind == Kind::Pool => {
                crate::app::describe::page(inventory, object, self.now)
            }
            Some(object) => crate::app::describe::object_page(inventory, object, self.now),
            None => String::new(),
        }
        .lines()
        .map(str::to_owned)
        .collect();
        self.shown.describe_rows = self
            .shown
            .describe
            .iter()
            .flat_map(|line| crate::app::describe::wrap(line, usize::from(width)))
            .collect();
        self.shown.describe_key = Some(key);
    }

    pub(super) fn refresh_detail(&mut self) {
        self.ask_history();
        let Some(open) = &self.detail else {
            self.shown.detail = None;
            self.shown.detail_key = None;
            return;
        };
        let id = ObjectRef::new(Kind::Pool, open.namespace.clone(), open.name.clone());
        let on_timeline = open.tab == crate::app::Tab::Timeline;
        let kept = open.timeline.kept.as_ref().filter(|_| on_timeline);
        // The hub too: two hubs' pictures may stand at the same generation.
        let stamp = on_timeline.then(|| kept.map_or(0, |k| k.entries.len() + 1));
        let key = (
            id,
            self.fleet.focus(),
            self.fleet.inventory.generation(),
            stamp,
        );
        if self.shown.detail_key.as_ref() == Some(&key) {
            return;
        }
        let inventory = &self.fleet.inventory;
        self.shown.detail = inventory
            .get(Kind::Pool, &open.namespace, &open.name)
            .map(|object| {
                // In YAML's own escapes where a terminal would act: shown as copied, and still
                // the object to a parser.
                let yaml = crate::domain::inert::yaml(&object.value()).unwrap_or_default();
                DetailData {
                    yaml: yaml.lines().map(str::to_owned).collect(),
                    findings: object
                        .pool()
                        .map(|pool| {
                            rules::validate(pool, object.issues(), &inventory.context_of(object))
                        })
                        .unwrap_or_default(),
                    summary: rows::pool_rows(inventory, object, false).into_iter().next(),
                    hosts: Table {
                        columns: rows::host_headers(false),
                        rows: rows::pool_host_rows(inventory, object, false),
                    },
                    action_hosts: action_hosts(inventory, object),
                    scaling: worker_scaling(inventory, object),
                    times: condition_times(object),
                    timeline: match on_timeline {
                        true => crate::inventory::timeline::entries(
                            inventory,
                            &open.namespace,
                            &open.name,
                            kept.unwrap_or(&crate::inventory::timeline::Kept::default()),
                            self.now,
                        ),
                        false => Vec::new(),
                    },
                    events: inventory
                        .events_for("ComputePool", object.namespace(), object.name())
                        .into_iter()
                        .rev()
                        .cloned()
                        .collect(),
                }
            });
        self.shown.detail_key = Some(key);
    }
}
