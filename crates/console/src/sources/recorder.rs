//! The recorder: watches the Compute Pool resources of a cluster and writes a timeline that
//! `pooldeck demo serve --replay` plays back. Secrets never land in a recording: they are
//! redacted as in a support bundle (`domain::redact`).

use std::time::Duration;

use futures::StreamExt;
use kube::Client;
use kube::api::{Api, DynamicObject};
use kube::core::{ApiResource, GroupVersionKind};
use kube::runtime::watcher;
use serde_json::{Value, json};

use crate::domain::redact::Redactor;

/// What a recording covers.
#[derive(Clone, Debug)]
pub struct Scope {
    /// The namespaces recorded; none: all of them.
    pub namespaces: Vec<String>,
    pub duration: Duration,
}

/// The resources recorded: (group, version, kind, plural, namespaced).
pub const RESOURCES: &[(&str, &str, &str, &str, bool)] = &[
    (
        "spectrocloud.com",
        "v1alpha1",
        "ComputePool",
        "computepools",
        true,
    ),
    (
        "spectrocloud.com",
        "v1alpha1",
        "ComputePoolEvaluation",
        "computepoolevaluations",
        true,
    ),
    ("spectrocloud.com", "v1alpha1", "Project", "projects", true),
    ("spectrocloud.com", "v1alpha1", "Tenant", "tenants", false),
    (
        "spectrocloud.com",
        "v1alpha1",
        "ScalingPolicy",
        "scalingpolicies",
        true,
    ),
    (
        "spectrocloud.com",
        "v1alpha1",
        "ProfileBundle",
        "profilebundles",
        true,
    ),
    ("spectrocloud.com", "v1alpha1", "Compute", "computes", true),
    (
        "spectrocloud.com",
        "v1alpha1",
        "AIWorkload",
        "aiworkloads",
        true,
    ),
    ("spectrocloud.com", "v1alpha1", "Settings", "settings", true),
    ("", "v1", "Event", "events", true),
];

/// Removes what must not be recorded (see `domain::redact`), and what only adds noise
/// (managedFields).
pub fn redact(object: &mut Value, redactor: &Redactor) {
    redactor.object(object, "", &mut Vec::new());
}

fn strip_for_replay(mut object: Value, redactor: &Redactor) -> Value {
    redact(&mut object, redactor);
    if let Some(meta) = object.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.shift_remove("resourceVersion");
        meta.shift_remove("uid");
        meta.shift_remove("generation");
    }
    object
}

fn offset(elapsed: Duration) -> String {
    format!("{}ms", elapsed.as_millis())
}

/// A resource the recording could not read, and why.
#[derive(Debug)]
pub struct Skipped {
    pub resource: String,
    pub error: crate::domain::ClusterError,
}

impl Skipped {
    /// Whether skipping it is only a note: the resource is not installed on this cluster.
    pub fn is_absent(&self) -> bool {
        matches!(self.error, crate::domain::ClusterError::NotFound { .. })
    }
}

impl std::fmt::Display for Skipped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_absent() {
            write!(f, "{}: not installed on this cluster", self.resource)
        } else {
            write!(f, "{}: {}", self.resource, self.error)
        }
    }
}

/// One watcher's events with the number of its stream, its kind and apiVersion.
type Recorded = futures::stream::BoxStream<
    'static,
    (
        usize,
        String,
        String,
        Result<watcher::Event<DynamicObject>, watcher::Error>,
    ),
>;

/// A watcher for every resource in the scope that can be read; the others skipped, and why.
async fn watchers(client: &Client, scope: &Scope) -> (Vec<Recorded>, Vec<Skipped>) {
    let mut streams = Vec::new();
    let mut skipped = Vec::new();
    for (group, version, kind, plural, namespaced) in RESOURCES {
        let resource =
            ApiResource::from_gvk_with_plural(&GroupVersionKind::gvk(group, version, kind), plural);
        let apis: Vec<Api<DynamicObject>> = if *namespaced && !scope.namespaces.is_empty() {
            scope
                .namespaces
                .iter()
                .map(|ns| Api::namespaced_with(client.clone(), ns, &resource))
                .collect()
        } else {
            vec![Api::all_with(client.clone(), &resource)]
        };
        for api in apis {
            // Probe once, so an absent CRD or a missing permission is said and skipped.
            if let Err(e) = api.list(&kube::api::ListParams::default().limit(1)).await {
                skipped.push(Skipped {
                    resource: (*plural).to_owned(),
                    error: super::errors::classify(&e),
                });
                continue;
            }
            let kind = (*kind).to_owned();
            let api_version = resource.api_version.clone();
            // Each stream's first list is told apart by its own number (one per namespace).
            let stream = streams.len();
            streams.push(
                watcher(api, watcher::Config::default())
                    .map(move |event| (stream, kind.clone(), api_version.clone(), event))
                    .boxed(),
            );
        }
    }
    (streams, skipped)
}

/// Watches every resource for `scope.duration` and returns the timeline as a scenario value
/// (`objects` at the start, `steps` after). Resources that are not installed or not readable
/// are skipped, and named in `skipped`.
/// `stop` ends the recording early (Ctrl-C) and keeps what was recorded.
pub async fn record(
    client: &Client,
    scope: &Scope,
    name: &str,
    mut stop: tokio::sync::watch::Receiver<bool>,
) -> (Value, Vec<Skipped>) {
    // The built-in shapes always compile (a domain test says so); were one not to, nothing
    // would be recorded rather than something unredacted.
    let Ok(redactor) = Redactor::new(&[]) else {
        return (Value::Null, Vec::new());
    };
    let (streams, skipped) = watchers(client, scope).await;
    let mut merged = futures::stream::select_all(streams);
    let start = tokio::time::Instant::now();
    let deadline = start + scope.duration;
    let mut objects: Vec<Value> = Vec::new();
    let mut steps: Vec<Value> = Vec::new();
    let mut initialised = std::collections::HashSet::new();
    let to_value = |kind: &str, api_version: &str, object: DynamicObject| -> Value {
        let mut value = serde_json::to_value(&object).unwrap_or(Value::Null);
        value["kind"] = json!(kind);
        value["apiVersion"] = json!(api_version);
        strip_for_replay(value, &redactor)
    };
    loop {
        let next = tokio::select! {
            next = tokio::time::timeout_at(deadline, merged.next()) => next,
            _ = stop.changed() => break,
        };
        let Ok(Some((stream, kind, api_version, event))) = next else {
            break;
        };
        let at = offset(start.elapsed());
        match event {
            Ok(watcher::Event::InitApply(object)) if !initialised.contains(&stream) => {
                objects.push(to_value(&kind, &api_version, object));
            }
            Ok(watcher::Event::InitDone) => {
                initialised.insert(stream);
            }
            Ok(watcher::Event::Apply(object) | watcher::Event::InitApply(object)) => {
                steps.push(json!({"at": at, "put": to_value(&kind, &api_version, object)}));
            }
            Ok(watcher::Event::Delete(object)) => {
                steps.push(json!({"at": at, "delete": {
                    "kind": kind,
                    "namespace": object.metadata.namespace.clone().unwrap_or_default(),
                    "name": object.metadata.name.clone().unwrap_or_default(),
                }}));
            }
            Ok(watcher::Event::Init) | Err(_) => {}
        }
    }
    let recording = json!({
        "name": name,
        "description": format!("Recorded by pooldeck over {:.0}s", start.elapsed().as_secs_f64()),
        "objects": objects,
        "steps": steps,
    });
    (recording, skipped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_never_land_in_a_recording() {
        let mut pool = json!({
            "metadata": {"name": "p", "annotations": {
                "kubectl.kubernetes.io/last-applied-configuration": "{\"spec\": {\"sshKeys\": [\"ssh-rsa AAAA\"]}}",
                "example.com/api-token": "abc",
                "spectrocloud.com/description": "kept"
            }, "managedFields": [{"manager": "x"}]},
            "spec": {"clusterVariant": {"dedicated": {"paletteClusterDeploymentConfig": {
                "sshKeys": ["ssh-rsa AAAAB3Nza secret@host"], "edge": {"vip": "10.0.0.1"}
            }}}},
            "status": {"paletteClusterStatuses": [{"kubeconfigSecretName": "ml-cluster-admin-kubeconfig"}]}
        });
        redact(&mut pool, &Redactor::new(&[]).expect("the built-in shapes"));
        let text = pool.to_string();
        for secret in [
            "AAAAB3Nza",
            "abc\"",
            "ml-cluster-admin-kubeconfig",
            "ssh-rsa AAAA\\",
        ] {
            assert!(!text.contains(secret), "{secret} leaked: {text}");
        }
        assert!(text.contains("kept"));
        assert!(text.contains("10.0.0.1"));
        assert_eq!(
            pool.pointer("/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/sshKeys/0"),
            Some(&json!("ssh-rsa REDACTED"))
        );
        assert!(pool.pointer("/metadata/managedFields").is_none());
    }
}
