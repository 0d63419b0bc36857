//! The scenario player: plays a timeline on the store at a chosen speed and runs the small
//! controllers the troubleshooting guide describes (deletion through the finalizer, live
//! utilization). Owns only timing; what each action does lives in `scenario`.

use std::sync::Arc;
use std::time::Duration;

use chrono::{SecondsFormat, Utc};
use serde_json::{Value, json};
use tokio::task::JoinHandle;

use super::actions::{apply, record_event};
use super::actions::{paused, pool_key};
use super::registry::Resource;
use super::scenario::Scenario;
use super::store::{Change, ChangeKind, Patch, Preconditions, Store};
use pooldeck_domain::model::pool::FINALIZER;

/// A scenario playing: its timeline and its controllers, stopped together.
pub struct Player {
    tasks: Vec<JoinHandle<()>>,
}

impl Player {
    /// Asks the timeline and every controller it started to stop.
    pub fn abort(&self) {
        for task in &self.tasks {
            task.abort();
        }
    }

    /// Stops them and waits until they have: no step of theirs lands after this.
    pub async fn stop(mut self) {
        self.abort();
        for task in std::mem::take(&mut self.tasks) {
            let _ = task.await;
        }
    }
}

impl Drop for Player {
    fn drop(&mut self) {
        self.abort();
    }
}

/// Plays a scenario on the store until it is stopped, counting in `played` the steps it has
/// reached (applied, or skipped for a paused pool), so tests wait on the timeline's progress
/// instead of on the clock.
pub fn spawn(
    scenario: Scenario,
    store: Arc<Store>,
    speed: f64,
    played: Arc<std::sync::atomic::AtomicUsize>,
) -> Player {
    let speed = if speed.is_finite() && speed > 0.0 {
        speed
    } else {
        1.0
    };
    let scenario = Arc::new(scenario);
    let mut tasks = vec![tokio::spawn(deletion_controller(
        scenario.clone(),
        store.clone(),
        speed,
    ))];
    if let Some(every) = scenario.utilization_every {
        tasks.push(tokio::spawn(utilization_walk(
            store.clone(),
            every.div_f64(speed),
            scenario.utilization_spread,
        )));
    }
    tasks.push(tokio::spawn(async move {
        loop {
            let start = tokio::time::Instant::now();
            for step in &scenario.steps {
                tokio::time::sleep_until(start + step.at.div_f64(speed)).await;
                let _ = apply(&store, &step.action);
                played.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }
            match scenario.repeat_after {
                Some(pause) => tokio::time::sleep(pause.div_f64(speed)).await,
                // The timeline is over; the controllers keep running until the demo stops.
                None => break,
            }
        }
    }));
    Player { tasks }
}

/// Whether an AIWorkload names the pool `namespace/name` as its own (as pooldeck reads it).
fn names_pool(workload: &Value, namespace: &str, name: &str) -> bool {
    pooldeck_domain::fixes::claimed(workload) == Some((namespace, name))
}

/// Deleting a pool: mark it Deleting, force-delete its AIWorkloads, then release the finalizer
/// (unless the scenario says the deletion is stuck). The pause label does not stop this.
async fn deletion_controller(scenario: Arc<Scenario>, store: Arc<Store>, speed: f64) {
    let Some(pools) = store.registry.by_kind("ComputePool").cloned() else {
        return;
    };
    let Some(workloads) = store.registry.by_kind("AIWorkload").cloned() else {
        return;
    };
    let mut changes = match store.watch(&pools, None) {
        Ok(watch) => watch.live,
        Err(_) => return,
    };
    let delay = scenario.deletion_delay.div_f64(speed);
    let mut handled = std::collections::HashSet::new();
    // Each pool's deletion runs as a task of this set: stopping the controller (a reset)
    // stops them with it.
    let mut deleting = tokio::task::JoinSet::new();
    let mut pending: Vec<Arc<Value>> = store
        .objects(&pools)
        .into_iter()
        .filter(|p| p.pointer("/metadata/deletionTimestamp").is_some())
        .collect();
    loop {
        for pool in pending.drain(..) {
            let key = pool_key(&pool);
            if !handled.insert(key.clone()) {
                continue;
            }
            let store = store.clone();
            let pools = pools.clone();
            let workloads = workloads.clone();
            let stuck = scenario.stuck_deletions.contains(&key);
            deleting.spawn(delete_pool(
                store,
                (pools, workloads),
                pool,
                key,
                stuck,
                delay,
            ));
        }
        match changes.recv().await {
            Ok(change) => {
                if is_pool_being_deleted(&change, &pools.qualified()) {
                    pending.push(change.object.clone());
                } else if change.kind == ChangeKind::Added && change.resource == pools.qualified() {
                    // A pool recreated under the same name may be deleted again.
                    handled.remove(&pool_key(&change.object));
                }
            }
            Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                pending.extend(
                    store
                        .objects(&pools)
                        .into_iter()
                        .filter(|p| p.pointer("/metadata/deletionTimestamp").is_some()),
                );
            }
            Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
        }
    }
}

fn is_pool_being_deleted(change: &Change, pools: &str) -> bool {
    change.resource == pools
        && change.kind == ChangeKind::Modified
        && change
            .object
            .pointer("/metadata/deletionTimestamp")
            .is_some()
}

/// Moves every evaluation's utilization a little, as live metrics would, and keeps fresh
/// metrics timestamps fresh (stale ones stay stale). Paused pools are left alone.
async fn utilization_walk(store: Arc<Store>, every: Duration, spread: f64) {
    let Some(evaluations) = store.registry.by_kind("ComputePoolEvaluation").cloned() else {
        return;
    };
    let mut ticker = tokio::time::interval(every.max(Duration::from_millis(50)));
    ticker.tick().await;
    loop {
        ticker.tick().await;
        let now = Utc::now();
        let stamp = now.to_rfc3339_opts(SecondsFormat::Secs, true);
        for evaluation in store.objects(&evaluations) {
            let namespace = evaluation
                .pointer("/metadata/namespace")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned();
            let name = evaluation
                .pointer("/metadata/name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned();
            if paused(&store, "ComputePoolEvaluation", &namespace, &name) {
                continue;
            }
            let mut next = (*evaluation).clone();
            if let Some(pools) = next
                .pointer_mut("/spec/poolEvaluations")
                .and_then(Value::as_object_mut)
            {
                for pool in pools.values_mut() {
                    let mut nudge = |v: &mut Value| {
                        if let Some(u) = v.get("utilization").and_then(Value::as_f64) {
                            let moved = (u + (fastrand::f64() * 2.0 - 1.0) * spread)
                                .clamp(0.0, 100.0)
                                .round();
                            v["utilization"] = json!(moved as i64);
                        }
                    };
                    if let Some(cpu) = pool.get_mut("cpu") {
                        nudge(cpu);
                    }
                    if let Some(gpus) = pool.get_mut("gpu").and_then(Value::as_object_mut) {
                        gpus.values_mut().for_each(&mut nudge);
                    }
                    pool["evaluatedAt"] = json!(stamp);
                }
            }
            if let Some(observed) = next
                .pointer_mut("/status/metricsLastObservedAt")
                .and_then(Value::as_object_mut)
            {
                for hosts in observed.values_mut().filter_map(Value::as_object_mut) {
                    for seen in hosts.values_mut() {
                        let fresh = seen
                            .as_str()
                            .and_then(|s| chrono::DateTime::parse_from_rfc3339(s).ok())
                            .is_some_and(|t| (now - t.with_timezone(&Utc)).num_seconds() < 300);
                        if fresh {
                            *seen = json!(stamp);
                        }
                    }
                }
            }
            let _ = store.put(next);
        }
    }
}

/// One pool's deletion as the controller runs it: said, its own AIWorkloads deleted, then
/// its finalizer released; a pool the scenario holds stuck stops after saying why.
async fn delete_pool(
    store: Arc<Store>,
    (pools, workloads): (Resource, Resource),
    pool: Arc<Value>,
    key: String,
    stuck: bool,
    delay: Duration,
) {
    let (namespace, name) = key.split_once('/').unwrap_or(("", ""));
    let _ = store.patch(
        &pools,
        namespace,
        name,
        &Patch::Merge(json!({"status": {"status": "Deleting"}})),
        true,
        false,
    );
    let _ = record_event(
        &store,
        namespace,
        "ComputePool",
        name,
        "Normal",
        "Deleting",
        "Deleting the Compute Pool: AIWorkloads first, then the Palette cluster",
    );
    tokio::time::sleep(delay).await;
    if stuck {
        let refs = pool
            .pointer("/status/aiWorkloadRefs")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        let _ = record_event(
            &store,
            namespace,
            "ComputePool",
            name,
            "Warning",
            "DeletionBlocked",
            &format!(
                "Deletion is waiting: {refs} AIWorkload(s) still reference this pool and the finalizer {FINALIZER} is held"
            ),
        );
        return;
    }
    delete_own_workloads(&store, &workloads, &pool, namespace, name);
    tokio::time::sleep(delay).await;
    release_finalizer(&store, &pools, namespace, name);
}

/// The AIWorkloads the pool's status names that are its own: in its namespace and naming it
/// (a status can list anything).
fn delete_own_workloads(
    store: &Store,
    workloads: &Resource,
    pool: &Value,
    namespace: &str,
    name: &str,
) {
    for workload in pool
        .pointer("/status/aiWorkloadRefs")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let ns = workload
            .get("namespace")
            .and_then(Value::as_str)
            .unwrap_or(namespace);
        let wl = workload.get("name").and_then(Value::as_str).unwrap_or("");
        // Only the pool's own: in its namespace and naming it (a status can list
        // anything).
        let own = ns == namespace
            && store
                .get(workloads, ns, wl)
                .is_ok_and(|w| names_pool(&w, namespace, name));
        if own {
            let _ = store.delete(workloads, ns, wl, &Preconditions::default(), false);
        }
    }
}

/// The pool's finalizer goes: the API server then removes it.
fn release_finalizer(store: &Store, pools: &Resource, namespace: &str, name: &str) {
    if let Ok(current) = store.get(pools, namespace, name) {
        let remaining: Vec<Value> = current
            .pointer("/metadata/finalizers")
            .and_then(Value::as_array)
            .map(|f| {
                f.iter()
                    .filter(|v| v.as_str() != Some(FINALIZER))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        let _ = store.patch(
            pools,
            namespace,
            name,
            &Patch::Merge(json!({"metadata": {"finalizers": remaining}})),
            false,
            false,
        );
    }
}
