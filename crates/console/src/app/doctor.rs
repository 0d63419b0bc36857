//! The doctor in the console: every pool's findings, worked out again only for a pool whose
//! inputs changed (the pool, its evaluation, its events, what surrounds the pools, the fleet's
//! VIPs) or whose findings may read differently by now (a threshold crossed, an age said).
//! The pools list's marker, the Diagnose tab and `:problems` read from here. Part of `update`.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use chrono::{DateTime, Utc};

use crate::domain::ObjectRef;
use crate::domain::diagnosis::Diagnosis;
use crate::domain::rules::Severity;
use crate::inventory::{Inventory, Key, Kind, Object};

/// What a pool's findings were worked out from, as a fingerprint: the pool, its evaluation
/// and its events as the inventory holds them, the context generation and the pools sharing
/// its name or VIP ([`Inventory::neighbours`]). Only ever compared: one number per pool
/// instead of a list of its events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Inputs(u64);

#[derive(Clone, Debug)]
struct Entry {
    inputs: Inputs,
    /// When the findings may read differently with the inputs unchanged.
    until: Option<DateTime<Utc>>,
    /// Held at their size: at 10,000 pools a list's spare room is megabytes.
    findings: Box<[Diagnosis]>,
}

#[derive(Clone, Debug, Default)]
pub struct Doctor {
    entries: HashMap<ObjectRef, Entry>,
    /// The inventory generation brought up to date, and the soonest `until` of any entry.
    seen: Option<u64>,
    due: Option<DateTime<Utc>>,
    /// Bumped when any pool's findings change (their words included): `:problems` is made
    /// again.
    pub epoch: u64,
    /// Bumped when the marker of a pool seen before (its worst finding above info) changes or
    /// a pool goes: the pools list's markers are read again (an age moving on in a finding's
    /// words, or a new pool, whose rows are made after its findings, does not touch them).
    pub marks: u64,
    /// How many diagnoses were worked out (not reused), for tests and the benchmark.
    pub diagnosed: u64,
    /// The context and fleet generations the findings were worked out against.
    around: (u64, u64),
}

/// The worst severity the pools list marks a pool with (see [`Doctor::worst`]).
fn marked(findings: &[Diagnosis]) -> Option<Severity> {
    findings
        .first()
        .map(|d| d.severity)
        .filter(|s| *s > Severity::Info)
}

/// Stores the pools' new findings; says whether any changed and whether the marker of a pool
/// seen before did. A new pool's marker is never a change: every refresh brings the doctor
/// up to date before it makes any row, so no row of a pool was made before its findings.
fn settle(
    entries: &mut HashMap<ObjectRef, Entry>,
    redo: Vec<(ObjectRef, Inputs, Option<Entry>, &Arc<Object>)>,
    results: Vec<(Vec<Diagnosis>, Option<DateTime<Utc>>)>,
) -> (bool, bool) {
    let (mut changed, mut marks_changed) = (false, false);
    for ((id, inputs, before, _), (findings, until)) in redo.into_iter().zip(results) {
        match &before {
            Some(b) if *b.findings == *findings => {}
            Some(b) => {
                changed = true;
                marks_changed |= marked(&b.findings) != marked(&findings);
            }
            None => changed = true,
        }
        entries.insert(
            id,
            Entry {
                inputs,
                until,
                findings: findings.into_boxed_slice(),
            },
        );
    }
    (changed, marks_changed)
}

fn inputs(inventory: &Inventory, pool: &Arc<Object>) -> Inputs {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    Inventory::identity(pool).hash(&mut hasher);
    inventory
        .get(Kind::Evaluation, pool.namespace(), pool.name())
        .map(Inventory::identity)
        .hash(&mut hasher);
    let events = inventory.events_for("ComputePool", pool.namespace(), pool.name());
    events.len().hash(&mut hasher);
    for event in events {
        Inventory::identity(event).hash(&mut hasher);
    }
    inventory.context_generation().hash(&mut hasher);
    inventory.neighbours(pool).hash(&mut hasher);
    Inputs(hasher.finish())
}

/// Below this many pools one core does the work: threads would cost more than they save.
const SHARE_FROM: usize = 512;

/// The findings of these pools, in their order: on every core when there are many.
fn diagnose_all(
    inventory: &Inventory,
    pools: &[&Arc<Object>],
    now: DateTime<Utc>,
) -> Vec<(Vec<Diagnosis>, Option<DateTime<Utc>>)> {
    let one_by_one = |part: &[&Arc<Object>]| {
        part.iter()
            .map(|pool| inventory.diagnose_until(pool, now))
            .collect::<Vec<_>>()
    };
    // Read once: asking costs a look at the process's limits each time.
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    let cores = if pools.len() < SHARE_FROM {
        1
    } else {
        *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from))
    };
    if cores < 2 {
        return one_by_one(pools);
    }
    let chunk = pools.len().div_ceil(cores);
    std::thread::scope(|scope| {
        let parts: Vec<_> = pools
            .chunks(chunk)
            .map(|part| scope.spawn(move || one_by_one(part)))
            .collect();
        parts
            .into_iter()
            .flat_map(|part| {
                // A panic in a part is the program's bug: carried on as the panic it is.
                part.join().unwrap_or_else(|e| std::panic::resume_unwind(e))
            })
            .collect()
    })
}

impl Doctor {
    /// Brings every pool's findings up to date; cheap when nothing they read changed. Many
    /// pools to diagnose at once (the first picture, a Project changed) are shared out over
    /// the machine's cores; the result is the same as one by one. When the inventory can
    /// name what changed (a few pools, evaluations, events), only those pools and the ones
    /// whose findings are due are looked at, not the whole fleet.
    pub fn update(&mut self, inventory: &Inventory, now: DateTime<Utc>) {
        let fresh = self.seen == Some(inventory.generation());
        if fresh && self.due.is_none_or(|due| now < due) {
            return;
        }
        match self.touched(inventory) {
            Some(mut pools) => {
                pools.extend(
                    self.entries
                        .iter()
                        .filter(|(_, e)| e.until.is_some_and(|until| now >= until))
                        .map(|(id, _)| (id.namespace.clone(), id.name.clone())),
                );
                self.update_some(inventory, pools, now);
            }
            None => self.update_all(inventory, now),
        }
        self.seen = Some(inventory.generation());
        self.around = (inventory.context_generation(), inventory.fleet_generation());
    }

    /// The pools whose inputs changed since the last update, when the inventory can say:
    /// those the changes touch, and when pools joined, left or changed their VIP, those whose
    /// name or VIP they share.
    fn touched(&self, inventory: &Inventory) -> Option<BTreeSet<Key>> {
        let seen = self.seen?;
        if self.around.0 != inventory.context_generation() {
            return None;
        }
        let changes = inventory.changes_since(seen)?;
        let mut pools: BTreeSet<Key> = changes
            .iter()
            .flat_map(|change| change.pools.iter().cloned())
            .collect();
        if self.around.1 != inventory.fleet_generation() {
            pools.extend(inventory.fleet_touched(&changes));
        }
        Some(pools)
    }

    /// Works out again the findings of these pools where their inputs changed or they are
    /// due; a pool gone takes its findings with it.
    fn update_some(&mut self, inventory: &Inventory, pools: BTreeSet<Key>, now: DateTime<Utc>) {
        let mut changed = false;
        let mut marks_changed = false;
        let mut redo: Vec<(ObjectRef, Inputs, Option<Entry>, &Arc<Object>)> = Vec::new();
        for key in pools {
            let id = ObjectRef::new(Kind::Pool, key.0.clone(), key.1.clone());
            let Some(pool) = inventory.get(Kind::Pool, &key.0, &key.1) else {
                if self.entries.remove(&id).is_some() {
                    changed = true;
                    marks_changed = true;
                }
                continue;
            };
            let inputs = inputs(inventory, pool);
            match self.entries.get(&id) {
                Some(entry)
                    if entry.inputs == inputs && entry.until.is_none_or(|until| now < until) => {}
                _ => {
                    let before = self.entries.remove(&id);
                    redo.push((id, inputs, before, pool));
                }
            }
        }
        let pools: Vec<&Arc<Object>> = redo.iter().map(|(_, _, _, pool)| *pool).collect();
        let results = diagnose_all(inventory, &pools, now);
        self.diagnosed += results.len() as u64;
        let mut entries = std::mem::take(&mut self.entries);
        let (c, m) = settle(&mut entries, redo, results);
        self.entries = entries;
        self.due = self.entries.values().filter_map(|e| e.until).min();
        self.bump(changed || c, marks_changed || m);
    }

    /// Looks at every pool of the fleet.
    fn update_all(&mut self, inventory: &Inventory, now: DateTime<Utc>) {
        // Which pools keep their findings and which are worked out again.
        let mut kept: Vec<(ObjectRef, Entry)> = Vec::new();
        let mut redo: Vec<(ObjectRef, Inputs, Option<Entry>, &Arc<Object>)> = Vec::new();
        for pool in inventory.objects(Kind::Pool) {
            let id = ObjectRef::new(Kind::Pool, pool.namespace(), pool.name());
            let inputs = inputs(inventory, pool);
            match self.entries.remove(&id) {
                Some(entry)
                    if entry.inputs == inputs && entry.until.is_none_or(|until| now < until) =>
                {
                    kept.push((id, entry))
                }
                before => redo.push((id, inputs, before, pool)),
            }
        }
        let pools: Vec<&Arc<Object>> = redo.iter().map(|(_, _, _, pool)| *pool).collect();
        let results = diagnose_all(inventory, &pools, now);
        self.diagnosed += results.len() as u64;
        // A pool gone takes its findings with it.
        let gone = !self.entries.is_empty();
        let mut entries = HashMap::with_capacity(kept.len() + redo.len());
        entries.extend(kept);
        let (changed, marks_changed) = settle(&mut entries, redo, results);
        self.due = entries.values().filter_map(|e| e.until).min();
        self.entries = entries;
        self.bump(gone || changed, gone || marks_changed);
    }

    fn bump(&mut self, changed: bool, marks_changed: bool) {
        if changed {
            self.epoch += 1;
        }
        if marks_changed {
            self.marks += 1;
        }
    }

    /// A pool's findings, worst first.
    pub fn findings(&self, pool: &ObjectRef) -> &[Diagnosis] {
        self.entries.get(pool).map_or(&[], |entry| &entry.findings)
    }

    /// A pool's worst finding above info, if any.
    pub fn worst(&self, pool: &ObjectRef) -> Option<Severity> {
        marked(self.findings(pool))
    }

    /// Every finding of every pool above info, worst first (then by pool).
    pub fn problems(&self) -> Vec<(&ObjectRef, &Diagnosis)> {
        let mut out: Vec<(&ObjectRef, &Diagnosis)> = self
            .entries
            .iter()
            .flat_map(|(id, entry)| entry.findings.iter().map(move |d| (id, d)))
            .filter(|(_, d)| d.severity > Severity::Info)
            .collect();
        out.sort_by(|a, b| {
            b.1.severity
                .cmp(&a.1.severity)
                .then_with(|| (&a.0.namespace, &a.0.name).cmp(&(&b.0.namespace, &b.0.name)))
        });
        out
    }
}

#[cfg(test)]
mod tests {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    use super::*;
    use crate::app::tests::{applied, fixed_now, fleet_app, held_value};
    use crate::app::{Msg, Overlay, Tab, update};
    use crate::inventory::SourceEvent;

    #[test]
    fn a_quiet_half_minute_diagnoses_nothing_and_one_change_one_pool() {
        let mut app = fleet_app();
        let pools = app.fleet.inventory.count(Kind::Pool) as u64;
        assert!(app.fleet.doctor.diagnosed >= pools, "every pool once");
        let before = app.fleet.doctor.diagnosed;
        for second in 1..=30 {
            update(
                &mut app,
                Msg::Tick(fixed_now() + chrono::Duration::seconds(second)),
            );
        }
        assert_eq!(
            app.fleet.doctor.diagnosed, before,
            "ticks reuse every finding"
        );
        let mut pool = held_value(&app, Kind::Pool, "ml-research", "llm-train");
        pool["metadata"]["labels"] = serde_json::json!({"touched": "yes"});
        applied(&mut app, Kind::Pool, pool);
        assert_eq!(
            app.fleet.doctor.diagnosed,
            before + 1,
            "only the changed pool"
        );
    }

    #[test]
    fn the_pools_markers_are_read_again_only_when_one_changes() {
        let mut app = fleet_app();
        let llm_train = held_value(&app, Kind::Pool, "ml-research", "llm-train");
        let apply = |app: &mut crate::app::App, object| applied(app, Kind::Pool, object);
        let vip = "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/edge/vip";
        let id = |name: &str| ObjectRef::new(Kind::Pool, "ml-research", name);
        let counters = |app: &crate::app::App| (app.fleet.doctor.epoch, app.fleet.doctor.marks);
        let marker = |app: &crate::app::App, name: &str| {
            app.shown
                .window_rows()
                .find(|r| r.id.name == name)
                .map(|r| r.worst)
        };
        assert_eq!(marker(&app, "llm-train"), Some(None), "llm-train is clean");
        // A new pool on an address of its own: findings (new ones), no marker read again.
        let mut quiet = llm_train.clone();
        quiet["metadata"]["name"] = serde_json::json!("quiet");
        *quiet.pointer_mut(vip).expect("vip") = serde_json::json!("10.77.0.1");
        let (epoch, marks) = counters(&app);
        apply(&mut app, quiet);
        assert!(app.fleet.doctor.epoch > epoch, "its findings are new");
        assert_eq!(app.fleet.doctor.marks, marks, "no marker read again");
        // A new pool on llm-train's address (which llm-train, running, holds): the new pool's
        // row is made with its marker; no marker seen before changed.
        let mut twin = llm_train.clone();
        twin["metadata"]["name"] = serde_json::json!("twin");
        let (_, marks) = counters(&app);
        apply(&mut app, twin);
        let twin_marker = app.fleet.doctor.worst(&id("twin"));
        assert!(twin_marker.is_some(), "the newcomer on a taken VIP");
        assert_eq!(marker(&app, "twin"), Some(twin_marker));
        assert_eq!(marker(&app, "llm-train"), Some(None));
        assert_eq!(app.fleet.doctor.marks, marks);
        // llm-train failing: its marker changes, and its row reads it.
        let mut failed = llm_train.clone();
        failed["status"]["status"] = serde_json::json!("Failed");
        apply(&mut app, failed);
        let failed_marker = app.fleet.doctor.worst(&id("llm-train"));
        assert!(failed_marker.is_some());
        assert!(app.fleet.doctor.marks > marks, "llm-train's marker changed");
        assert_eq!(marker(&app, "llm-train"), Some(failed_marker));
        // A pool gone: its marker goes with it.
        let (_, marks) = counters(&app);
        update(
            &mut app,
            Msg::Sources(vec![(
                0,
                SourceEvent::Deleted {
                    kind: Kind::Pool,
                    object: serde_json::json!({"metadata": {"name": "quiet", "namespace": "ml-research"}}),
                },
            )]),
        );
        assert!(app.fleet.doctor.findings(&id("quiet")).is_empty());
        assert!(app.fleet.doctor.marks > marks, "a pool gone");
    }

    #[test]
    fn a_findings_fix_runs_through_the_confirmation() {
        let mut app = fleet_app();
        let press = |app: &mut crate::app::App, c: char| {
            update(
                app,
                Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)),
            )
        };
        for c in ":problems".chars() {
            press(&mut app, c);
        }
        update(
            &mut app,
            Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
        );
        update(
            &mut app,
            Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
        );
        assert_eq!(app.detail.as_ref().map(|d| d.tab), Some(Tab::Diagnose));
        press(&mut app, 'f');
        match app.overlays.last() {
            Some(Overlay::Confirm(confirm)) => assert!(
                confirm.plan.title.contains("retired-cluster"),
                "{}",
                confirm.plan.title
            ),
            other => panic!("f opens the unblock's confirmation: {other:?}"),
        }
    }
}
