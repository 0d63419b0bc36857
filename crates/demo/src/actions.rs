//! What a scenario's steps do to the store, as the controllers would: a put or a merge (left
//! out while the pool it is about is paused), a delete, an Event recorded.

use serde_json::{Value, json};

use super::scenario::{Action, owned_by_pool, resolve_times};
use super::store::{ApiError, Patch, Preconditions, Store, now_rfc3339};
use pooldeck_domain::model::pool::PAUSE_LABEL;

pub(crate) fn pool_key(object: &Value) -> String {
    format!(
        "{}/{}",
        object
            .pointer("/metadata/namespace")
            .and_then(Value::as_str)
            .unwrap_or(""),
        object
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or("")
    )
}

/// Whether the pool a step is about (a ComputePool, or its evaluation of the same name) is
/// paused: the controller skips it.
pub(crate) fn paused(store: &Store, kind: &str, namespace: &str, name: &str) -> bool {
    if kind != "ComputePool" && kind != "ComputePoolEvaluation" {
        return false;
    }
    let Some(pools) = store.registry.by_kind("ComputePool").cloned() else {
        return false;
    };
    store.get(&pools, namespace, name).ok().and_then(|p| {
        p.pointer("/metadata/labels")
            .and_then(|l| l.get(PAUSE_LABEL))
            .cloned()
    }) == Some(Value::String("true".into()))
}

/// Applies one action to the store, as a controller would. An object a client changed by
/// hand (the operator's fix) is left as it is: the story does not undo it, nor report about it.
pub fn apply(store: &Store, action: &Action) -> Result<(), ApiError> {
    // Held until the step is written: a client's change lands wholly before or after it.
    let by_hand = store.by_hand();
    // A pool's evaluation goes with its pool: one the operator deleted or recreated is not
    // brought back, nor written over, by the story.
    if let Some((kind, namespace, name)) = target(action)
        && (by_hand.contains(&kind, &namespace, &name)
            || (kind == "ComputePoolEvaluation"
                && by_hand.contains("ComputePool", &namespace, &name)))
    {
        return Ok(());
    }
    match action {
        Action::Put(object) => {
            let object = resolve_times(object);
            let kind = object.get("kind").and_then(Value::as_str).unwrap_or("");
            let namespace = object
                .pointer("/metadata/namespace")
                .and_then(Value::as_str)
                .unwrap_or("");
            let name = object
                .pointer("/metadata/name")
                .and_then(Value::as_str)
                .unwrap_or("");
            if paused(store, kind, namespace, name) {
                return Ok(());
            }
            store.put(owned_by_pool(store, object)).map(|_| ())
        }
        Action::Merge {
            kind,
            namespace,
            name,
            patch,
        } => {
            if paused(store, kind, namespace, name) {
                return Ok(());
            }
            let resource = store
                .registry
                .by_kind(kind)
                .cloned()
                .ok_or_else(|| ApiError::bad_request(format!("unknown kind {kind}")))?;
            let patch = Patch::Merge(resolve_times(patch));
            store.patch(&resource, namespace, name, &patch, false, false)?;
            if resource.has_status {
                store.patch(&resource, namespace, name, &patch, true, false)?;
            }
            Ok(())
        }
        Action::Delete {
            kind,
            namespace,
            name,
        } => {
            let resource = store
                .registry
                .by_kind(kind)
                .cloned()
                .ok_or_else(|| ApiError::bad_request(format!("unknown kind {kind}")))?;
            store
                .delete(&resource, namespace, name, &Preconditions::default(), false)
                .map(|_| ())
        }
        Action::Event {
            namespace,
            kind,
            name,
            event_type,
            reason,
            message,
        } => record_event(store, namespace, kind, name, event_type, reason, message),
    }
}

/// The object an action is about: kind, namespace, name.
fn target(action: &Action) -> Option<(String, String, String)> {
    match action {
        Action::Put(object) => Some((
            object.get("kind")?.as_str()?.to_owned(),
            object
                .pointer("/metadata/namespace")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned(),
            object.pointer("/metadata/name")?.as_str()?.to_owned(),
        )),
        Action::Merge {
            kind,
            namespace,
            name,
            ..
        }
        | Action::Delete {
            kind,
            namespace,
            name,
        }
        | Action::Event {
            kind,
            namespace,
            name,
            ..
        } => Some((kind.clone(), namespace.clone(), name.clone())),
    }
}

/// Writes a core/v1 Event about an object.
pub fn record_event(
    store: &Store,
    namespace: &str,
    kind: &str,
    name: &str,
    event_type: &str,
    reason: &str,
    message: &str,
) -> Result<(), ApiError> {
    let uid = store
        .registry
        .by_kind(kind)
        .cloned()
        .and_then(|r| store.get(&r, namespace, name).ok())
        .and_then(|o| {
            o.pointer("/metadata/uid")
                .and_then(Value::as_str)
                .map(str::to_owned)
        })
        .unwrap_or_default();
    let now = now_rfc3339();
    let suffix: String = (0..10)
        .map(|_| char::from_digit(fastrand::u32(0..16), 16).unwrap_or('0'))
        .collect();
    store
        .put(json!({
            "apiVersion": "v1", "kind": "Event",
            "metadata": {"name": format!("{name}.{suffix}"), "namespace": namespace},
            "involvedObject": {"apiVersion": "spectrocloud.com/v1alpha1", "kind": kind, "namespace": namespace, "name": name, "uid": uid},
            "reason": reason, "message": message, "type": event_type, "count": 1,
            "firstTimestamp": now, "lastTimestamp": now,
            "source": {"component": "pooldeck-demo-controller"}, "reportingComponent": "pooldeck-demo-controller"
        }))
        .map(|_| ())
}
