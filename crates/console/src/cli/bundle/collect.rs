//! One hub's part of a bundle: each resource listed in pages into its file as it comes
//! (redacted), the hue controller with its log, the pools' timelines, and the doctor's
//! findings worked out on the objects before redaction. Every source is said on stderr as
//! it ends, and noted in the manifest with what it gave or why it did not.

use std::io::Write;
use std::time::Duration;

use chrono::{DateTime, Utc};
use kube::api::{Api, DynamicObject, ListParams};
use kube::core::{ApiResource, GroupVersionKind};
use serde_json::{Value, json};

use super::archive::{HubEntry, SourceEntry, Staging};
use crate::app::ports::Namespaces;
use crate::domain::redact::{Found, Redactor};
use crate::inventory::{Inventory, Kind, Object, Shares, SourceEvent};

/// Objects a page of a list holds.
const PAGE: u32 = 100;

/// What to collect of one hub, and how.
pub struct Job<'a> {
    pub client: kube::Client,
    /// The hub as next steps name it (its context and kubeconfig).
    pub hub: crate::domain::Hub,
    pub dir: String,
    pub namespaces: Namespaces,
    /// Only these pools (their evaluations and events); none: every pool.
    pub pools: &'a [String],
    pub log_lines: u32,
    pub timeout: Duration,
    /// `None`: `--no-redact`.
    pub redactor: Option<&'a Redactor>,
    pub taken_at: DateTime<Utc>,
    /// Several hubs in the bundle: progress and findings name the hub.
    pub several: bool,
}

/// A file of the bundle as it is written: a v1 List, an object a line.
struct ListFile {
    out: std::io::BufWriter<std::fs::File>,
    objects: usize,
    bytes: u64,
}

impl ListFile {
    fn create(staging: &Staging, name: &str) -> std::io::Result<ListFile> {
        let mut out = staging.create(name)?;
        let head = b"{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[";
        out.write_all(head)?;
        Ok(ListFile {
            out,
            objects: 0,
            bytes: head.len() as u64,
        })
    }

    fn push(&mut self, value: &Value) -> std::io::Result<()> {
        let text = serde_json::to_vec(value).map_err(std::io::Error::other)?;
        let sep: &[u8] = if self.objects == 0 { b"\n" } else { b",\n" };
        self.out.write_all(sep)?;
        self.out.write_all(&text)?;
        self.objects += 1;
        self.bytes += (sep.len() + text.len()) as u64;
        Ok(())
    }

    fn finish(mut self) -> std::io::Result<u64> {
        self.out.write_all(b"\n]}\n")?;
        self.out.flush()?;
        Ok(self.bytes + 4)
    }
}

impl Job<'_> {
    /// Every source of the hub into `staging`; its manifest entry, the redactions added to
    /// `found`.
    pub async fn collect(&self, staging: &Staging, found: &mut Vec<Found>) -> HubEntry {
        let mut entry = HubEntry {
            hub: self.hub.context.clone(),
            server: self.hub.server.clone(),
            version: Value::Null,
            dir: self.dir.clone(),
            namespaces: self.namespaces.words(),
            sources: Vec::new(),
        };
        match tokio::time::timeout(self.timeout, self.client.apiserver_version()).await {
            Ok(Ok(info)) => entry.version = serde_json::to_value(info).unwrap_or_default(),
            Ok(Err(e)) => entry.sources.push(self.failed("version", &e)),
            Err(_) => entry.sources.push(self.timed_out("version")),
        }
        let mut inventory = Inventory::new();
        for kind in Kind::ALL {
            let sources = self.resource(kind, staging, found, &mut inventory).await;
            entry.sources.extend(sources);
        }
        entry.sources.extend(self.controller(staging, found).await);
        entry
            .sources
            .extend(self.timelines(staging, &inventory, found));
        entry
            .sources
            .extend(self.findings(staging, &inventory, found));
        entry
    }

    /// Whether an object of `kind` is asked for: with pools named, only theirs.
    fn wanted(&self, kind: Kind, value: &Value) -> bool {
        let named = |pointer: &str| {
            value
                .pointer(pointer)
                .and_then(Value::as_str)
                .is_some_and(|n| self.pools.iter().any(|p| p == n))
        };
        match kind {
            _ if self.pools.is_empty() => true,
            Kind::Pool | Kind::Evaluation => named("/metadata/name"),
            Kind::Event => named("/involvedObject/name"),
            _ => true,
        }
    }

    /// An object made safe to hand over (unless `--no-redact`), its places noted as in
    /// `file ns/name .path`; managed fields are noise and always go.
    pub(super) fn safe(&self, mut value: Value, file: &str, found: &mut Vec<Found>) -> Value {
        let Some(redactor) = self.redactor else {
            crate::domain::json::drop_managed_fields(&mut value);
            return value;
        };
        let mut here = Vec::new();
        redactor.object(&mut value, "", &mut here);
        // Places are named after the object as it leaves: its names redacted too.
        let name = |f: &str| value["metadata"][f].as_str().unwrap_or("").to_owned();
        let at = match name("namespace") {
            ns if ns.is_empty() => format!("{file} {} ", name("name")),
            ns => format!("{file} {ns}/{} ", name("name")),
        };
        found.extend(here.into_iter().map(|f| Found {
            place: at.clone() + &f.place,
            what: f.what,
        }));
        value
    }

    /// One resource, every namespace asked for into one file.
    async fn resource(
        &self,
        kind: Kind,
        staging: &Staging,
        found: &mut Vec<Found>,
        inventory: &mut Inventory,
    ) -> Vec<SourceEntry> {
        let api = kind.api();
        let file = format!("{}/{}.json", self.dir, api.plural);
        let mut out = match ListFile::create(staging, &file) {
            Ok(out) => out,
            Err(e) => return vec![self.unwritten(api.plural, &e)],
        };
        let resource = ApiResource::from_gvk_with_plural(
            &GroupVersionKind::gvk(api.group, api.version, api.kind),
            api.plural,
        );
        // Small pages: a page of pools is held whole while it is read (the benchmark's
        // peak memory at 10,000 pools).
        let mut params = ListParams::default().limit(PAGE);
        if let Some(fields) = crate::sources::kept::selector(kind) {
            params = params.fields(fields);
        }
        let mut sources = Vec::new();
        for scope in self.namespaces.scopes(kind) {
            let listed: Api<DynamicObject> = match &scope {
                Some(ns) => Api::namespaced_with(self.client.clone(), ns, &resource),
                None => Api::all_with(self.client.clone(), &resource),
            };
            let source = match &scope {
                Some(ns) => format!("{} in {ns}", api.plural),
                None => api.plural.to_owned(),
            };
            let (objects, bytes) = (out.objects, out.bytes);
            let mut held = Vec::new();
            let mut shares = Shares::default();
            let mut unwritten = None;
            let each = |object: DynamicObject| {
                let mut value = serde_json::to_value(object).unwrap_or_default();
                value["apiVersion"] = json!(resource.api_version);
                value["kind"] = json!(api.kind);
                if !crate::sources::kept::keeps_value(kind, &value) || !self.wanted(kind, &value) {
                    return;
                }
                let safe = self.safe(value.clone(), &file, found);
                if let Err(e) = out.push(&safe) {
                    unwritten.get_or_insert(e);
                }
                held.push(Object::new_shared(kind, value, &mut shares));
            };
            let read = crate::cluster::list_in_pages(&listed, &params, each);
            let read = tokio::time::timeout(self.timeout, read).await;
            // Only a whole list is diagnosed: part of one would be read as the rest missing.
            if matches!(read, Ok(Ok(()))) {
                let objects = held;
                inventory.apply(
                    SourceEvent::Listed {
                        kind,
                        scope,
                        objects,
                    },
                    self.taken_at,
                );
            }
            let mut entry = SourceEntry {
                source,
                file: Some(file.clone()),
                count: out.objects - objects,
                unit: "object".to_owned(),
                bytes: out.bytes - bytes,
                ..SourceEntry::default()
            };
            self.ended(&mut entry, read, unwritten);
            sources.push(entry);
        }
        if let Err(e) = out.finish() {
            // A file cut short is no file: none of its sources names it.
            sources.iter_mut().for_each(|s| s.file = None);
            sources.push(self.unwritten(api.plural, &e));
        }
        sources
    }

    /// A list's end in its entry (said): whole, refused, timed out, or not written.
    fn ended(
        &self,
        entry: &mut SourceEntry,
        read: Result<Result<(), kube::Error>, tokio::time::error::Elapsed>,
        unwritten: Option<std::io::Error>,
    ) {
        match (read, unwritten) {
            (_, Some(e)) => {
                entry.error = Some(format!("cannot be written: {e}"));
                entry.file = None;
            }
            (Ok(Ok(())), None) => {}
            (Ok(Err(e)), None) => {
                let failed = self.failed(&entry.source, &e);
                (entry.error, entry.note) = (failed.error, failed.note);
            }
            (Err(_), None) => entry.error = self.timed_out(&entry.source).error,
        }
        self.say(entry);
    }

    /// A source that could not be read, said in words: a resource not installed is a note
    /// (that is how the hub is), anything else an error (the bundle is partial).
    pub(super) fn failed(&self, source: &str, error: &kube::Error) -> SourceEntry {
        let error = crate::sources::errors::classify(error);
        let mut entry = SourceEntry {
            source: source.to_owned(),
            ..SourceEntry::default()
        };
        match error {
            crate::domain::ClusterError::NotFound { .. } => {
                entry.note = Some("not installed on this hub".to_owned());
            }
            crate::domain::ClusterError::Forbidden { .. } => {
                entry.error = Some(format!("not permitted: {error}"));
            }
            error => entry.error = Some(error.to_string()),
        }
        entry
    }

    pub(super) fn timed_out(&self, source: &str) -> SourceEntry {
        SourceEntry {
            source: source.to_owned(),
            error: Some(format!(
                "no answer within {}",
                crate::domain::duration::format(self.timeout)
            )),
            ..SourceEntry::default()
        }
    }

    pub(super) fn unwritten(&self, source: &str, error: &std::io::Error) -> SourceEntry {
        let entry = SourceEntry {
            source: source.to_owned(),
            error: Some(format!(
                "cannot be written to the staging directory: {error}"
            )),
            ..SourceEntry::default()
        };
        self.say(&entry);
        entry
    }

    /// A source's end, on stderr.
    pub(super) fn say(&self, entry: &SourceEntry) {
        let hub = if self.several {
            format!("hub {}: ", crate::domain::inert::line(&self.hub.context))
        } else {
            String::new()
        };
        let what = match (&entry.error, &entry.note) {
            (Some(error), _) => format!(
                "{} ({}, {} bytes before it ended)",
                error,
                crate::domain::words::counted(entry.count, &entry.unit),
                entry.bytes
            ),
            (None, Some(note)) => note.clone(),
            (None, None) => format!(
                "{}, {} bytes",
                crate::domain::words::counted(entry.count, &entry.unit),
                entry.bytes
            ),
        };
        crate::say::complain!(
            "pooldeck: {hub}{}: {}",
            crate::domain::inert::line(&entry.source),
            crate::domain::inert::line(&what)
        );
    }
}
