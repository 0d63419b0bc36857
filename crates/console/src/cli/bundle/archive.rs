//! The bundle's file: a tar.gz of `manifest.json` and, per hub, `hubs/DIR/…` (a v1 List per
//! resource, `controller.json`, `logs/NS/POD.log`, `timelines.json`, `doctor.json` and
//! `doctor.txt`). Sources are written to a private staging directory as they are listed (a
//! tar entry needs its size first), then packed into the output, 0600, moved into place.

use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::domain::redact::Found;

/// The bundle format this pooldeck writes and reads.
pub const FORMAT: u32 = 1;

/// The most redaction places the manifest lists (the count is always whole).
pub const PLACES_LISTED: usize = 10_000;

/// What a bundle holds and what it could not: every source with what it gave or why not.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    pub bundle: u32,
    /// The pooldeck that took it.
    pub pooldeck: String,
    pub taken_at: DateTime<Utc>,
    /// Every source gave all it was asked for.
    pub complete: bool,
    /// Secrets were redacted (`--no-redact` was not given).
    pub redacted: bool,
    pub hubs: Vec<HubEntry>,
    /// How many secrets were redacted, and where (never what they were).
    pub redaction_count: usize,
    pub redactions: Vec<Found>,
}

/// One hub's part.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HubEntry {
    /// The kubeconfig context it was read through.
    pub hub: String,
    pub server: String,
    /// The hub's `/version`, as it answered.
    pub version: serde_json::Value,
    /// Its directory in the archive (`hubs/NAME`).
    pub dir: String,
    /// The namespaces read ("all namespaces", or their names).
    pub namespaces: String,
    pub sources: Vec<SourceEntry>,
}

/// What one source gave (`count` of `unit`s: objects, a log's lines, pools) or why not.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SourceEntry {
    pub source: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    pub count: usize,
    /// What is counted, in the singular: "object", "line", "pool".
    pub unit: String,
    pub bytes: u64,
    /// Why it gave nothing, or not all: the bundle is partial.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Why it gave nothing, when that is how the hub is (a resource not installed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Why there is no private directory to write the sources to.
#[derive(Debug, thiserror::Error)]
pub enum NoStaging {
    #[error("{0}")]
    Dir(#[from] crate::domain::error::DirError),
    #[error("no random name for it: {0}")]
    Random(String),
}

/// A private directory the sources are written to, removed with everything in it when done.
pub struct Staging {
    pub root: PathBuf,
}

impl Staging {
    pub fn new() -> Result<Staging, NoStaging> {
        let token = crate::files::token().map_err(|e| NoStaging::Random(e.to_string()))?;
        let dir = crate::files::private_dir()?;
        let root = dir.join(format!("bundle-{}", token.get(..16).unwrap_or(&token)));
        crate::files::private_mkdir(&root)?;
        Ok(Staging { root })
    }

    /// A new file at `name` (relative, `/`-separated), its directories made, open to its
    /// owner only.
    pub fn create(&self, name: &str) -> std::io::Result<BufWriter<std::fs::File>> {
        let path = self.root.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        Ok(BufWriter::new(options.open(path)?))
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// The archive written to `output` (only over a regular file or at a new path, 0600): the
/// manifest first, then every staged file in name order; its size.
pub fn write(
    output: &Path,
    staging: &Staging,
    manifest: &Manifest,
) -> Result<u64, crate::files::WriteError> {
    let mtime = u64::try_from(manifest.taken_at.timestamp()).unwrap_or(0);
    crate::files::write_output_with(output, |file| {
        let gz = flate2::write::GzEncoder::new(BufWriter::new(file), flate2::Compression::fast());
        let mut tar = tar::Builder::new(gz);
        let text = serde_json::to_vec_pretty(manifest).map_err(std::io::Error::other)?;
        append(
            &mut tar,
            "manifest.json",
            text.len() as u64,
            &text[..],
            mtime,
        )?;
        for (name, path) in files_under(&staging.root)? {
            let file = std::fs::File::open(&path)?;
            let size = file.metadata()?.len();
            append(&mut tar, &name, size, file, mtime)?;
        }
        tar.into_inner()?.finish()?.flush()
    })?;
    Ok(std::fs::metadata(output).map(|m| m.len()).unwrap_or(0))
}

fn append<W: Write>(
    tar: &mut tar::Builder<W>,
    name: &str,
    size: u64,
    data: impl Read,
    mtime: u64,
) -> std::io::Result<()> {
    let mut header = tar::Header::new_gnu();
    header.set_entry_type(tar::EntryType::Regular);
    header.set_size(size);
    header.set_mode(0o600);
    header.set_mtime(mtime);
    header.set_cksum();
    tar.append_data(&mut header, name, data)
}

/// Every file under `root`, by its `/`-separated name relative to it, in name order.
fn files_under(root: &Path) -> std::io::Result<Vec<(String, PathBuf)>> {
    let mut out = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let entry = entry?;
            let kind = entry.file_type()?;
            if kind.is_dir() {
                dirs.push(entry.path());
            } else if kind.is_file()
                && let Ok(name) = entry.path().strip_prefix(root)
            {
                let name: Vec<String> = name
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                out.push((name.join("/"), entry.path()));
            }
        }
    }
    out.sort();
    Ok(out)
}

/// A hub's directory name in the archive: its context with only letters, digits, `.`, `_`
/// and `-` kept (others become `_`), made unique among `taken`.
pub fn dir_of(hub: &str, taken: &[String]) -> String {
    let mut base: String = hub
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .take(100)
        .collect();
    if base.is_empty() || base.chars().all(|c| c == '.') {
        base = "hub".to_owned();
    }
    let mut dir = format!("hubs/{base}");
    let mut n = 2;
    while taken.contains(&dir) {
        dir = format!("hubs/{base}-{n}");
        n += 1;
    }
    dir
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hub_dir_never_climbs_out_and_never_repeats() {
        assert_eq!(dir_of("../../etc", &[]), "hubs/.._.._etc");
        assert_eq!(dir_of("..", &[]), "hubs/hub");
        assert_eq!(dir_of("", &[]), "hubs/hub");
        let taken = vec!["hubs/a_b".to_owned()];
        assert_eq!(dir_of("a/b", &taken), "hubs/a_b-2");
    }
}
