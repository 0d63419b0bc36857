//! The hue controller as the demo plays it: one pod in `mural-system` with the label the
//! troubleshooting guide selects by (`controller.spectrocloud.com/name=hue-controllers`), and
//! its log through the standard `pods/{name}/log` endpoint, so `kubectl logs` works on it.
//! The log is the scenario's scripted lines (`controller.logs`), a line per pool as it was
//! reconciled at start, and, when followed, a reconcile line every few seconds for the next
//! pool, with the status the store holds for it then.

use std::sync::Arc;

use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{Value, json};

use super::error::ScenarioError;
use super::scenario::resolve_times;
use super::store::Store;

pub const NAMESPACE: &str = "mural-system";
pub const LABEL: &str = "controller.spectrocloud.com/name";
pub const LABEL_VALUE: &str = "hue-controllers";
pub const POD: &str = "hue-controllers-6c9f8d7b5-x2k4p";
/// The demo controller's API key, held in a Secret (tests look for it where it must not be).
pub const SECRET_VALUE: &str = "demo-palette-api-key-7f3a9c";
/// How often a followed log gets a line.
pub const EVERY: std::time::Duration = std::time::Duration::from_secs(3);

/// The controller's pod (and its namespace) put into the store.
pub fn seed(store: &Store) -> Result<(), ScenarioError> {
    if store.registry.by_kind("Pod").is_none() {
        return Ok(());
    }
    let namespace = json!({"apiVersion": "v1", "kind": "Namespace",
        "metadata": {"name": NAMESPACE, "creationTimestamp": "now-90d"},
        "status": {"phase": "Active"}});
    let pod = json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": POD, "namespace": NAMESPACE, "creationTimestamp": "now-30d",
                     "labels": {LABEL: LABEL_VALUE, "pod-template-hash": "6c9f8d7b5"},
                     "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet",
                                          "name": format!("{LABEL_VALUE}-6c9f8d7b5"),
                                          "controller": true}]},
        "spec": {"containers": [{"name": "manager", "image": "hue-controllers:demo"}]},
        "status": {"phase": "Running", "startTime": "now-30d",
                   "containerStatuses": [{"name": "manager", "ready": true, "restartCount": 0}]}
    });
    let selector = json!({"matchLabels": {LABEL: LABEL_VALUE}});
    let deployment = json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": LABEL_VALUE, "namespace": NAMESPACE, "creationTimestamp": "now-90d",
                     "labels": {LABEL: LABEL_VALUE}, "generation": 3},
        "spec": {"replicas": 1, "selector": selector,
                 "template": {"metadata": {"labels": {LABEL: LABEL_VALUE}},
                              "spec": {"containers": [{"name": "manager", "image": "hue-controllers:demo"}]}}},
        "status": {"replicas": 1, "readyReplicas": 1, "updatedReplicas": 1, "availableReplicas": 1,
                   "observedGeneration": 3}
    });
    let replica_set = json!({
        "apiVersion": "apps/v1", "kind": "ReplicaSet",
        "metadata": {"name": format!("{LABEL_VALUE}-6c9f8d7b5"), "namespace": NAMESPACE,
                     "creationTimestamp": "now-30d",
                     "labels": {LABEL: LABEL_VALUE, "pod-template-hash": "6c9f8d7b5"},
                     "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment",
                                          "name": LABEL_VALUE, "controller": true}]},
        "spec": {"replicas": 1, "selector": selector},
        "status": {"replicas": 1, "readyReplicas": 1, "availableReplicas": 1}
    });
    // The controller's credentials, as a hub holds them: what a support bundle must never carry.
    let secret = json!({
        "apiVersion": "v1", "kind": "Secret", "type": "Opaque",
        "metadata": {"name": format!("{LABEL_VALUE}-credentials"), "namespace": NAMESPACE,
                     "creationTimestamp": "now-90d"},
        "data": {"palette-api-key":
            base64::Engine::encode(&base64::engine::general_purpose::STANDARD, SECRET_VALUE)}
    });
    // Each owned by the one before it by uid, as the garbage collector reads ownership.
    let mut owner_uid: Option<String> = None;
    for mut object in [namespace, deployment, replica_set, pod, secret] {
        let kind = object["kind"].as_str().unwrap_or("").to_owned();
        if store.registry.by_kind(&kind).is_none() {
            continue;
        }
        if let (Some(uid), Some(owner)) = (
            &owner_uid,
            object.pointer_mut("/metadata/ownerReferences/0"),
        ) {
            owner["uid"] = json!(uid);
        }
        let stored = store
            .put(resolve_times(&object))
            .map_err(|why| ScenarioError::Refused {
                what: format!("the controller's {kind}"),
                why: Box::new(why),
            })?;
        owner_uid = stored
            .pointer("/metadata/uid")
            .and_then(Value::as_str)
            .map(str::to_owned);
    }
    Ok(())
}

fn stamp(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// A line as controller-runtime writes it: time, level, logger, message, then the object.
pub fn line(at: DateTime<Utc>, level: &str, message: &str, pool: Option<(&str, &str)>) -> String {
    let object = pool
        .map(|(namespace, name)| {
            format!(" {{\"ComputePool\": {{\"name\":\"{name}\",\"namespace\":\"{namespace}\"}}}}")
        })
        .unwrap_or_default();
    format!("{}\t{level}\tcomputepool\t{message}{object}", stamp(at))
}

/// A reconcile line for a pool as the store holds it now.
pub fn reconcile(pool: &Value, at: DateTime<Utc>) -> String {
    let text = |p: &str| pool.pointer(p).and_then(Value::as_str).unwrap_or("");
    let status = text("/status/status");
    let level = match status {
        "Failed" | "Unhealthy" => "ERROR",
        "Provisioning" | "Deleting" | "Unknown" => "INFO",
        _ => "DEBUG",
    };
    line(
        at,
        level,
        &format!(
            "Reconciling ComputePool: status {}",
            if status.is_empty() { "unset" } else { status }
        ),
        Some((text("/metadata/namespace"), text("/metadata/name"))),
    )
}

/// The log up to now: the scenario's scripted lines (`controller.logs`: `at`, `level`,
/// `message`, `pool` as `namespace/name`), then a reconcile line per pool, oldest first.
pub fn history(scripted: &[Value], pools: &[Arc<Value>], now: DateTime<Utc>) -> Vec<String> {
    let mut out: Vec<(DateTime<Utc>, String)> = Vec::new();
    out.push((
        now - chrono::TimeDelta::days(30),
        line(
            now - chrono::TimeDelta::days(30),
            "INFO",
            "Starting workers: worker count 4",
            None,
        ),
    ));
    for entry in scripted.iter().map(resolve_times) {
        let at = entry["at"]
            .as_str()
            .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
            .map_or(now, |t| t.with_timezone(&Utc));
        let pool = entry["pool"].as_str().and_then(|p| p.split_once('/'));
        let text = line(
            at,
            entry["level"].as_str().unwrap_or("INFO"),
            entry["message"].as_str().unwrap_or(""),
            pool,
        );
        out.push((at, text));
    }
    let start = now - chrono::TimeDelta::seconds(pools.len() as i64);
    for (i, pool) in pools.iter().enumerate() {
        let at = start + chrono::TimeDelta::seconds(i as i64);
        out.push((at, reconcile(pool, at)));
    }
    out.sort_by_key(|(at, _)| *at);
    out.into_iter().map(|(_, text)| text).collect()
}
