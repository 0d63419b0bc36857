//! What a bundle carries beside the objects: the hue controller (its Deployment, ReplicaSet
//! and pods, found as the troubleshooting guide finds them) with the end of each pod's log,
//! the pools' timelines pooldeck kept, and the doctor's findings at the time it was taken.

use std::io::Write;

use kube::api::{Api, DynamicObject, ListParams};
use kube::core::{ApiResource, GroupVersionKind};
use serde_json::json;

use super::archive::{SourceEntry, Staging};
use super::collect::Job;
use crate::domain::redact::Found;
use crate::inventory::{Inventory, Kind};

/// The controller's objects: (group, version, kind, plural).
const CONTROLLER: &[(&str, &str, &str, &str)] = &[
    ("apps", "v1", "Deployment", "deployments"),
    ("apps", "v1", "ReplicaSet", "replicasets"),
    ("", "v1", "Pod", "pods"),
];

impl Job<'_> {
    /// The controller and its pods' logs; why not, when it cannot be found or read.
    pub(super) async fn controller(
        &self,
        staging: &Staging,
        found: &mut Vec<Found>,
    ) -> Vec<SourceEntry> {
        let find = crate::runtime::logs::find(&self.client);
        let (namespace, pods) = match tokio::time::timeout(self.timeout, find).await {
            Ok(Ok((namespace, pods, _))) => (namespace, pods),
            Ok(Err(why)) => return vec![self.said("controller", Some(why.to_string()))],
            Err(_) => {
                let entry = self.timed_out_source("controller");
                return vec![entry];
            }
        };
        let mut sources = vec![
            self.controller_objects(staging, &namespace, &pods, found)
                .await,
        ];
        for pod in pods {
            sources.push(self.log(staging, &namespace, &pod, found).await);
        }
        sources
    }

    async fn controller_objects(
        &self,
        staging: &Staging,
        namespace: &str,
        pods: &[String],
        found: &mut Vec<Found>,
    ) -> SourceEntry {
        let file = format!("{}/controller.json", self.dir);
        let mut objects = Vec::new();
        let mut error = None;
        for (group, version, kind, plural) in CONTROLLER {
            let resource = ApiResource::from_gvk_with_plural(
                &GroupVersionKind::gvk(group, version, kind),
                plural,
            );
            let api: Api<DynamicObject> =
                Api::namespaced_with(self.client.clone(), namespace, &resource);
            let every = ListParams::default();
            let read = api.list(&every);
            match tokio::time::timeout(self.timeout, read).await {
                Ok(Ok(list)) => objects.extend(
                    list.items
                        .into_iter()
                        .filter(|o| {
                            let name = o.metadata.name.as_deref().unwrap_or_default();
                            if *kind == "Pod" {
                                pods.iter().any(|p| p == name)
                            } else {
                                name.to_lowercase().contains("hue")
                            }
                        })
                        .map(|o| {
                            let mut value = serde_json::to_value(o).unwrap_or_default();
                            value["apiVersion"] = json!(resource.api_version);
                            value["kind"] = json!(kind);
                            self.safe(value, &file, found)
                        }),
                ),
                Ok(Err(e)) => error = self.failed(plural, &e).error.or(error),
                Err(_) => error = self.timed_out_source(plural).error,
            }
        }
        let list = json!({"apiVersion": "v1", "kind": "List", "items": objects});
        let mut entry = self.written(staging, &file, "controller", &list.to_string());
        (entry.count, entry.unit) = (objects.len(), "object".to_owned());
        if entry.error.is_none() {
            entry.error = error;
        }
        self.say(&entry);
        entry
    }

    /// The last lines of one pod's log, each redacted where it holds a secret.
    async fn log(
        &self,
        staging: &Staging,
        namespace: &str,
        pod: &str,
        found: &mut Vec<Found>,
    ) -> SourceEntry {
        let source = format!("log of pod {namespace}/{pod}");
        let read =
            crate::runtime::logs::tail_of_pod(self.client.clone(), namespace, pod, self.log_lines);
        let lines = match tokio::time::timeout(self.timeout, read).await {
            Ok(Ok(lines)) => lines,
            Ok(Err(error @ crate::domain::ClusterError::Forbidden { .. })) => {
                let why = format!("not permitted to read it (ask for get on pods/log): {error}");
                return self.said(&source, Some(why));
            }
            Ok(Err(error)) => return self.said(&source, Some(error.to_string())),
            Err(_) => return self.timed_out_source(&source),
        };
        // Names from the hub become a file's path: only a name a pod can have will do.
        if [namespace, pod].iter().any(|n| !plain_name(n)) {
            return self.said(&source, Some("its name cannot be a file's name".to_owned()));
        }
        let file = format!("{}/logs/{namespace}/{pod}.log", self.dir);
        let mut text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        // Read whole, so a key printed over several lines goes whole.
        if let Some((safe, whats)) = self.redactor.and_then(|r| r.text(&text)) {
            text = safe;
            found.extend(whats.into_iter().map(|what| Found {
                place: file.clone(),
                what,
            }));
        }
        let mut entry = self.written(staging, &file, &source, &text);
        (entry.count, entry.unit) = (lines.len(), "line".to_owned());
        self.say(&entry);
        entry
    }

    /// What pooldeck kept of the pools' timelines on this hub.
    pub(super) fn timelines(
        &self,
        staging: &Staging,
        inventory: &Inventory,
        found: &mut Vec<Found>,
    ) -> Vec<SourceEntry> {
        let pools = inventory
            .objects(Kind::Pool)
            .map(|p| (p.namespace().to_owned(), p.name().to_owned()));
        let mut kept = crate::timeline::carry::carried(&self.hub.server, pools);
        let Some(count) = kept.as_object().map(serde_json::Map::len) else {
            return Vec::new();
        };
        let file = format!("{}/timelines.json", self.dir);
        // Entries quote conditions and events: read as any object is.
        if let Some(redactor) = self.redactor {
            redactor.object(&mut kept, &format!("{file} "), found);
        }
        let mut entry = self.written(staging, &file, "timelines", &kept.to_string());
        (entry.count, entry.unit) = (count, "pool".to_owned());
        self.say(&entry);
        vec![entry]
    }

    /// The doctor's findings, worked out on the objects as read (before redaction), at the
    /// time the bundle was taken; the secret parts of their texts redacted all the same.
    pub(super) fn findings(
        &self,
        staging: &Staging,
        inventory: &Inventory,
        found: &mut Vec<Found>,
    ) -> Vec<SourceEntry> {
        let reports = crate::cli::doctor::reports(
            inventory,
            |_| true,
            self.taken_at,
            &self.hub,
            self.several,
        );
        let file = format!("{}/doctor.json", self.dir);
        let mut json = json!({ "pools": reports });
        if let Some(redactor) = self.redactor {
            redactor.object(&mut json, &format!("{file} "), found);
        }
        let text = serde_json::to_string_pretty(&json).unwrap_or_default() + "\n";
        let mut entry = self.written(staging, &file, "doctor findings (JSON)", &text);
        (entry.count, entry.unit) = (reports.len(), "pool".to_owned());
        let file = format!("{}/doctor.txt", self.dir);
        let mut text = crate::cli::doctor::text(&reports, true);
        if let Some((safe, whats)) = self.redactor.and_then(|r| r.text(&text)) {
            text = safe;
            found.extend(whats.into_iter().map(|what| Found {
                place: file.clone(),
                what,
            }));
        }
        let mut as_text = self.written(staging, &file, "doctor findings (text)", &text);
        (as_text.count, as_text.unit) = (reports.len(), "pool".to_owned());
        self.say(&entry);
        vec![entry, as_text]
    }

    /// `text` staged as `file`: its entry (its size, or why it could not be written).
    fn written(&self, staging: &Staging, file: &str, source: &str, text: &str) -> SourceEntry {
        let write = || -> std::io::Result<()> {
            let mut out = staging.create(file)?;
            out.write_all(text.as_bytes())?;
            out.flush()
        };
        let mut entry = SourceEntry {
            source: source.to_owned(),
            ..SourceEntry::default()
        };
        match write() {
            Ok(()) => {
                entry.file = Some(file.to_owned());
                entry.bytes = text.len() as u64;
            }
            Err(e) => entry.error = Some(format!("cannot be written: {e}")),
        }
        entry
    }

    /// A source that gave nothing, and why (said).
    fn said(&self, source: &str, error: Option<String>) -> SourceEntry {
        let entry = SourceEntry {
            source: source.to_owned(),
            error,
            ..SourceEntry::default()
        };
        self.say(&entry);
        entry
    }

    fn timed_out_source(&self, source: &str) -> SourceEntry {
        let entry = self.timed_out(source);
        self.say(&entry);
        entry
    }
}

/// A name as Kubernetes gives pods and namespaces: lower-case letters, digits, `-` and `.`,
/// never `.` or `..` alone.
fn plain_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 253
        && !matches!(name, "." | "..")
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.')
}
