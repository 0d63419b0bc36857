//! A bundle read back: its manifest, and per hub its objects, its pods' logs and its
//! timelines, as the demo serves them (`demo serve --bundle`, `pooldeck --bundle`) and the
//! doctor reads them (`doctor --bundle`). Nothing in it is trusted: sizes are bounded, names
//! are only keys, and no file is written from it.

use std::collections::BTreeMap;
use std::path::Path;

use chrono::{DateTime, Utc};
use serde_json::Value;

use super::archive::{FORMAT, HubEntry, Manifest};
use crate::demo::frozen::Frozen;
use crate::demo::scenario::Scenario;
use crate::inventory::{Inventory, Kind, Object, SourceEvent};

/// The most one file of a bundle may hold once unpacked.
const FILE_MOST: u64 = 2 << 30;
/// The most a whole bundle may hold once unpacked.
const BUNDLE_MOST: u64 = 8 << 30;

/// Why a bundle cannot be read back: the file named, then why.
#[derive(Debug, thiserror::Error)]
#[error("cannot read the bundle {file}: {why}")]
pub struct Unopened {
    pub file: String,
    pub why: Why,
}

#[derive(Debug, thiserror::Error)]
pub enum Why {
    #[error("{0}")]
    File(#[from] crate::files::ReadError),
    #[error("{0}")]
    Open(std::io::Error),
    #[error("not a pooldeck bundle (a tar.gz): {0}")]
    NotABundle(std::io::Error),
    #[error("{0} is larger than a bundle's file may be")]
    TooLarge(String),
    #[error("{name} cannot be read: {error}")]
    Entry {
        name: String,
        error: crate::files::ReadError,
    },
    #[error("its manifest.json cannot be read: {0}")]
    Manifest(serde_json::Error),
    #[error("it holds no manifest.json: not a pooldeck bundle")]
    NoManifest,
    #[error(
        "it is of bundle format {0}, newer than this pooldeck reads ({FORMAT}): upgrade pooldeck"
    )]
    Newer(u32),
    #[error("its manifest lists no hub: nothing was collected into it")]
    NoHub,
    #[error("it lists the hub {0} twice")]
    HubTwice(String),
    #[error("its manifest gives a hub the directory {0}")]
    Directory(String),
    #[error("a hub's name, {0:?}, cannot be a context's")]
    HubName(String),
    /// A file that is not what the manifest says (`what`: how it differs).
    #[error("{file} {what}: the bundle is damaged")]
    Damaged { file: String, what: String },
}

/// One hub of a bundle.
pub struct Hub {
    pub name: String,
    pub objects: Vec<Value>,
    pub logs: BTreeMap<(String, String), Vec<String>>,
    pub timeline: Value,
}

pub struct Opened {
    pub manifest: Manifest,
    pub hubs: Vec<Hub>,
}

/// The bundle at `path`, or why it cannot be read (in words, naming the file).
pub fn open(path: &Path) -> Result<Opened, Unopened> {
    read(path).map_err(|why| Unopened {
        file: crate::domain::inert::line(&path.to_string_lossy()).into_owned(),
        why,
    })
}

fn read(path: &Path) -> Result<Opened, Why> {
    crate::files::regular_file(path)?;
    let file = std::fs::File::open(path).map_err(Why::Open)?;
    let gz = flate2::read::GzDecoder::new(std::io::BufReader::new(file));
    let mut archive = tar::Archive::new(gz);
    let mut manifest: Option<Manifest> = None;
    let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    let mut total = 0u64;
    for entry in archive.entries().map_err(Why::NotABundle)? {
        let entry = entry.map_err(Why::NotABundle)?;
        if entry.header().entry_type() != tar::EntryType::Regular {
            continue;
        }
        let name = entry
            .path()
            .map_err(Why::NotABundle)?
            .to_string_lossy()
            .into_owned();
        total = total.saturating_add(entry.size());
        if entry.size() > FILE_MOST || total > BUNDLE_MOST {
            return Err(Why::TooLarge(name));
        }
        let bytes = crate::files::read_limited(entry, FILE_MOST).map_err(|error| Why::Entry {
            name: name.clone(),
            error,
        })?;
        if name == "manifest.json" {
            let read = serde_json::from_slice(&bytes).map_err(Why::Manifest)?;
            manifest = Some(read);
        } else if name.starts_with("hubs/") {
            files.insert(name, bytes);
        }
    }
    let manifest = manifest.ok_or(Why::NoManifest)?;
    if manifest.bundle > FORMAT {
        return Err(Why::Newer(manifest.bundle));
    }
    if manifest.hubs.is_empty() {
        return Err(Why::NoHub);
    }
    let mut names = std::collections::BTreeSet::new();
    for entry in &manifest.hubs {
        if !names.insert(entry.hub.as_str()) {
            return Err(Why::HubTwice(inert(&entry.hub)));
        }
    }
    let hubs = manifest
        .hubs
        .iter()
        .map(|entry| hub_of(entry, &files))
        .collect::<Result<_, _>>()?;
    Ok(Opened { manifest, hubs })
}

fn inert(text: &str) -> String {
    crate::domain::inert::line(text).into_owned()
}

/// A hub read by its manifest entry: every file it lists, each holding what it says (a
/// List of that many objects, a log's lines, the timelines); anything else is damage.
fn hub_of(entry: &HubEntry, files: &BTreeMap<String, Vec<u8>>) -> Result<Hub, Why> {
    let dir = entry.dir.strip_prefix("hubs/").unwrap_or_default();
    if dir.is_empty() || dir.contains('/') || matches!(dir, "." | "..") {
        return Err(Why::Directory(inert(&entry.dir)));
    }
    // The name becomes a kubeconfig context: text kubectl prints as it is.
    if entry.hub.is_empty() || entry.hub.chars().any(char::is_control) {
        return Err(Why::HubName(inert(&entry.hub)));
    }
    let mut hub = Hub {
        name: entry.hub.clone(),
        objects: Vec::new(),
        logs: BTreeMap::new(),
        timeline: Value::Null,
    };
    // Each file the manifest names, and how much it says the file holds.
    let mut said: BTreeMap<&str, (usize, &str)> = BTreeMap::new();
    for source in &entry.sources {
        if let Some(file) = &source.file {
            let held = said.entry(file).or_insert((0, &source.unit));
            held.0 = held.0.saturating_add(source.count);
        }
    }
    for (file, (count, unit)) in said {
        let damaged = |what: &str| Why::Damaged {
            file: inert(file),
            what: what.to_owned(),
        };
        let rest = file
            .strip_prefix(&entry.dir)
            .and_then(|r| r.strip_prefix('/'))
            .ok_or_else(|| damaged("is outside its hub's directory"))?;
        let bytes = files
            .get(file)
            .ok_or_else(|| damaged("is listed in the manifest but missing"))?;
        let json = || -> Result<Value, Why> {
            serde_json::from_slice(bytes).map_err(|e| damaged(&format!("is not JSON ({e})")))
        };
        match unit {
            "object" => {
                let list = json()?;
                let items = list["items"].as_array().cloned().unwrap_or_default();
                if items.len() != count || !items.iter().all(Value::is_object) {
                    return Err(damaged(&format!(
                        "holds {} items where its manifest says {count} objects",
                        items.len()
                    )));
                }
                hub.objects.extend(items);
            }
            "line" => {
                let log = rest
                    .strip_prefix("logs/")
                    .and_then(|l| l.strip_suffix(".log"));
                let Some((namespace, pod)) = log.and_then(|l| l.split_once('/')) else {
                    return Err(damaged("is not a pod's log"));
                };
                let text = String::from_utf8_lossy(bytes);
                let lines = text.lines().map(str::to_owned).collect();
                hub.logs
                    .insert((namespace.to_owned(), pod.to_owned()), lines);
            }
            _ if rest == "timelines.json" => hub.timeline = json()?,
            _ => {}
        }
    }
    Ok(hub)
}

impl Hub {
    /// The hub as the demo serves it: read-only, nothing playing, its logs as taken.
    pub fn scenario(&self, taken_at: DateTime<Utc>) -> Scenario {
        let taken = taken_at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        let objects = self
            .objects
            .iter()
            .cloned()
            .map(|mut object| {
                // The served store gives each object its own identity and version.
                if let Some(meta) = object["metadata"].as_object_mut() {
                    meta.shift_remove("resourceVersion");
                    meta.shift_remove("uid");
                }
                object
            })
            .collect();
        let description = format!(
            "The support bundle of {} taken {taken}, served read-only",
            crate::domain::inert::line(&self.name)
        );
        let frozen = Frozen {
            hub: self.name.clone(),
            taken_at: taken,
            logs: self.logs.clone(),
        };
        Scenario::of_bundle(description, objects, self.timeline.clone(), frozen)
    }

    /// What the doctor reads of the hub: its objects of the kinds pooldeck holds.
    pub fn inventory(&self, taken_at: DateTime<Utc>) -> Inventory {
        let mut by_kind: BTreeMap<usize, Vec<Object>> = BTreeMap::new();
        for object in &self.objects {
            let kind = object["kind"].as_str().unwrap_or_default();
            if let Some(at) = Kind::ALL.iter().position(|k| k.api().kind == kind) {
                by_kind
                    .entry(at)
                    .or_default()
                    .push(Object::new(Kind::ALL[at], object.clone()));
            }
        }
        let mut inventory = Inventory::new();
        for (at, kind) in Kind::ALL.into_iter().enumerate() {
            let objects = by_kind.remove(&at).unwrap_or_default();
            inventory.apply(
                SourceEvent::Listed {
                    kind,
                    scope: None,
                    objects,
                },
                taken_at,
            );
        }
        inventory
    }
}

/// The doctor's findings on each hub of the bundle at `path` that `keep` keeps, at the time
/// it was taken (each pool naming its hub when it holds several), and the hubs where `keep`
/// kept none.
pub(crate) fn reports(
    path: &Path,
    keep: impl Fn(&Object) -> bool,
) -> Result<(Vec<crate::cli::doctor::PoolReport>, Vec<String>), Unopened> {
    let opened = open(path)?;
    let taken_at = opened.manifest.taken_at;
    let several = opened.hubs.len() > 1;
    let (mut reports, mut lacking) = (Vec::new(), Vec::new());
    for hub in &opened.hubs {
        let inventory = hub.inventory(taken_at);
        // Next steps name the hub as the bundle's own findings do.
        let on = crate::domain::Hub {
            context: hub.name.clone(),
            server: String::new(),
            user: String::new(),
            kubeconfig: None,
        };
        let found = crate::cli::doctor::reports(&inventory, &keep, taken_at, &on, several);
        if found.is_empty() {
            lacking.push(crate::domain::inert::line(&hub.name).into_owned());
        }
        reports.extend(found);
    }
    Ok((reports, lacking))
}
