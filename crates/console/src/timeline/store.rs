//! What pooldeck saw of each pool, kept across sessions: per hub, a private directory under
//! `$XDG_STATE_HOME/pooldeck/timeline/`, a file of entries (JSON lines) per pool and a file
//! of the times pooldeck watched. Only changes are kept, never copies of objects; each pool's
//! file and the whole are bounded.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde_json::json;

use crate::domain::error::{AppendError, DirError, WriteError};
use crate::domain::timeline::{Entry, Span};

/// A pool's file is cut to its newest half past this.
pub const PER_POOL: u64 = 256 * 1024;
/// Past this in all, the files least recently written go (checked as a session starts).
pub const TOTAL: u64 = 64 * 1024 * 1024;
/// How much of the file of watched times is read; past twice this it keeps its end.
const SPANS_READ: u64 = 1024 * 1024;
/// Written since the whole was last bounded, past which it is bounded again.
const BOUND_EVERY: u64 = TOTAL / 16;
/// A file name longer than this is cut and told apart by a hash of the whole.
const NAME_AT_MOST: usize = 100;

/// Why a change could not be kept.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(transparent)]
    Dir(#[from] DirError),
    #[error(transparent)]
    Append(#[from] AppendError),
    #[error(transparent)]
    Write(#[from] WriteError),
}

/// The most of an entry's text, and of each of its detail lines, kept: a hub's message can
/// be megabytes, and a pool's file keeps whole entries.
const TEXT_AT_MOST: usize = 2_000;

/// An entry as kept: its text and detail cut to [`TEXT_AT_MOST`] characters.
fn bounded(entry: &Entry) -> Entry {
    let cut = |t: &str| crate::domain::inert::cut(t, TEXT_AT_MOST).into_owned();
    Entry {
        text: cut(&entry.text),
        detail: entry.detail.iter().map(|d| cut(d)).collect(),
        ..entry.clone()
    }
}

/// One hub's kept timelines. Clones share one writer: two batches for a pool never
/// interleave with its file being cut.
#[derive(Clone, Debug)]
pub struct Store {
    dir: PathBuf,
    writer: std::sync::Arc<std::sync::Mutex<u64>>,
}

/// A name as a file name: what is not a letter, digit, `-` or `_` is written `%XX`, so no
/// name from a hub reaches outside its directory.
fn file_name(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for byte in raw.bytes() {
        match byte {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' => out.push(char::from(byte)),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    if out.len() > NAME_AT_MOST {
        // FNV-1a: stable across builds, so the same name finds the same file.
        let hash = raw.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        });
        let cut: String = out.chars().take(NAME_AT_MOST).collect();
        return format!("{cut}~{hash:016x}");
    }
    if out.is_empty() { "%".to_owned() } else { out }
}

impl Store {
    /// The hub at `server`'s timelines, its directory made private if it was missing.
    pub fn open(server: &str) -> Result<Store, StoreError> {
        Store::under(&crate::files::state_dir()?, server)
    }

    /// The hub at `server`'s timelines under `state` (pooldeck's state directory).
    pub fn under(state: &Path, server: &str) -> Result<Store, StoreError> {
        let base = state.join("timeline");
        crate::files::private_mkdir(&base)?;
        let dir = base.join(file_name(server));
        crate::files::private_mkdir(&dir)?;
        Ok(Store {
            dir,
            writer: std::sync::Arc::default(),
        })
    }

    fn pool_file(&self, namespace: &str, name: &str) -> PathBuf {
        self.dir.join(format!(
            "{}.{}.jsonl",
            file_name(namespace),
            file_name(name)
        ))
    }

    /// Appends what was seen of a pool; its file past [`PER_POOL`] keeps its newest half.
    pub fn keep(&self, namespace: &str, name: &str, entries: &[Entry]) -> Result<(), StoreError> {
        let mut written = self
            .writer
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let path = self.pool_file(namespace, name);
        for entry in entries {
            let line = serde_json::to_string(&bounded(entry)).unwrap_or_default();
            crate::files::append_private(&path, &line)?;
            *written = written.saturating_add(line.len() as u64);
        }
        if std::fs::metadata(&path).is_ok_and(|m| m.len() > PER_POOL)
            && let Ok(tail) = crate::files::read_tail(&path, PER_POOL / 2)
            && !tail.is_empty()
        {
            crate::files::write_private(&path, tail.as_bytes())?;
        }
        if *written > BOUND_EVERY {
            *written = 0;
            self.bound();
        }
        Ok(())
    }

    /// [`Store::keep`] for changes of several pools, each pool's in one batch.
    pub fn keep_all(&self, seen: Vec<(crate::inventory::Key, Entry)>) -> Result<(), StoreError> {
        let mut by_pool: std::collections::BTreeMap<crate::inventory::Key, Vec<Entry>> =
            std::collections::BTreeMap::new();
        for (key, entry) in seen {
            by_pool.entry(key).or_default().push(entry);
        }
        by_pool
            .iter()
            .try_for_each(|((namespace, name), entries)| self.keep(namespace, name, entries))
    }

    /// What was kept of a pool, oldest first (lines that cannot be read are passed over).
    pub fn kept(&self, namespace: &str, name: &str) -> Vec<Entry> {
        let text = crate::files::read_tail(&self.pool_file(namespace, name), PER_POOL * 2);
        text.unwrap_or_default()
            .lines()
            .filter_map(|line| serde_json::from_str(line).ok())
            .collect()
    }

    /// Notes that pooldeck (this process) watches these namespaces (none: all) from now
    /// until the [`Watching`] is dropped.
    pub fn watching(&self, namespaces: &[String], now: DateTime<Utc>) -> Watching {
        let path = self.dir.join("watched.jsonl");
        if std::fs::metadata(&path).is_ok_and(|m| m.len() > SPANS_READ * 2)
            && let Ok(tail) = crate::files::read_tail(&path, SPANS_READ)
        {
            let _ = crate::files::write_private(&path, tail.as_bytes());
        }
        let session = crate::files::token().unwrap_or_else(|_| format!("{}", std::process::id()));
        let line = json!({"session": session, "from": now, "namespaces": namespaces, "pid": std::process::id()});
        let _ = crate::files::append_private(&path, &line.to_string());
        Watching {
            path,
            session,
            from: now,
        }
    }

    /// The times pooldeck watched this hub: a session still running watches until now; one
    /// that ended without saying has no end.
    pub fn spans(&self) -> Vec<Span> {
        let text = crate::files::read_tail(&self.dir.join("watched.jsonl"), SPANS_READ);
        let mut spans: Vec<(String, Span)> = Vec::new();
        for line in text.unwrap_or_default().lines() {
            let Ok(record) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            let session = record["session"].as_str().unwrap_or_default().to_owned();
            if let Some(to) = record["to"].as_str().and_then(crate::domain::time::parse) {
                if let Some((_, span)) = spans.iter_mut().rev().find(|(s, _)| *s == session) {
                    span.to = Some(to);
                }
                continue;
            }
            let running = record["pid"]
                .as_i64()
                .is_some_and(crate::files::process_running);
            if let Ok(mut span) = serde_json::from_value::<Span>(record) {
                span.to = running.then(Utc::now);
                spans.push((session, span));
            }
        }
        spans.into_iter().map(|(_, span)| span).collect()
    }

    /// Past [`TOTAL`], the pool files least recently written go until the rest fit.
    pub fn bound(&self) {
        let Some(base) = self.dir.parent() else {
            return;
        };
        let mut files: Vec<(std::time::SystemTime, u64, PathBuf)> = Vec::new();
        for hub in std::fs::read_dir(base).into_iter().flatten().flatten() {
            for file in std::fs::read_dir(hub.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                let Ok(meta) = file.metadata() else { continue };
                let modified = meta.modified().unwrap_or(std::time::UNIX_EPOCH);
                files.push((modified, meta.len(), file.path()));
            }
        }
        let mut total: u64 = files.iter().map(|(_, len, _)| len).sum();
        files.sort();
        for (_, len, path) in files {
            if total <= TOTAL {
                break;
            }
            if path.file_name().is_some_and(|n| n != "watched.jsonl")
                && std::fs::remove_file(&path).is_ok()
            {
                total = total.saturating_sub(len);
            }
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// A session watching a hub; dropped, it notes when the session ended.
#[derive(Debug)]
pub struct Watching {
    path: PathBuf,
    session: String,
    from: DateTime<Utc>,
}

impl Watching {
    /// This session's watch so far.
    pub fn span(&self, namespaces: Vec<String>) -> Span {
        Span {
            from: self.from,
            to: Some(Utc::now()),
            namespaces,
        }
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        let line = json!({"session": self.session, "to": Utc::now()});
        let _ = crate::files::append_private(&self.path, &line.to_string());
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use chrono::Utc;

    use super::*;
    use crate::domain::timeline::{Clock, Source};

    fn entry(text: &str) -> Entry {
        Entry::new(Utc::now(), Clock::Pooldeck, Source::Pool, "pool").says("", text.to_owned())
    }

    #[test]
    fn a_hub_s_names_stay_in_its_private_directory_and_its_files_are_private() {
        let state = tempfile::tempdir().expect("temp dir");
        let store = Store::under(state.path(), "https://hub:6443/../../x").expect("opens");
        let long = "a.".repeat(120);
        for (namespace, name) in [
            ("..", ".."),
            ("ns", "../../../etc/passwd"),
            ("ns", long.as_str()),
        ] {
            store.keep(namespace, name, &[entry("kept")]).expect("kept");
            assert_eq!(
                store.kept(namespace, name),
                vec![entry_like(&store.kept(namespace, name), "kept")]
            );
        }
        let dir = store.dir();
        assert_eq!(
            dir.parent().map(|p| p.to_path_buf()),
            Some(state.path().join("timeline"))
        );
        for file in std::fs::read_dir(dir).expect("files").flatten() {
            let mode = file.metadata().expect("meta").permissions().mode() & 0o777;
            assert_eq!(mode, 0o600, "{:?}", file.path());
            assert!(file.file_name().len() < 255);
        }
        let mode = std::fs::metadata(dir).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
        // Nothing left the hub's directory.
        assert_eq!(std::fs::read_dir(state.path()).expect("state").count(), 1);
    }

    fn entry_like(kept: &[Entry], text: &str) -> Entry {
        let mut e = entry(text);
        e.at = kept.first().map_or(e.at, |k| k.at);
        e
    }

    #[test]
    fn a_pool_s_file_keeps_its_newest_half_past_its_bound() {
        let state = tempfile::tempdir().expect("temp dir");
        let store = Store::under(state.path(), "https://hub").expect("opens");
        let big = "x".repeat(1000);
        for i in 0..400 {
            store
                .keep("ns", "p", &[entry(&format!("{i} {big}"))])
                .expect("kept");
        }
        let path = store.pool_file("ns", "p");
        assert!(std::fs::metadata(&path).expect("meta").len() <= PER_POOL);
        let kept = store.kept("ns", "p");
        assert!(kept.last().is_some_and(|e| e.text.starts_with("399 ")));
        assert!(kept.first().is_some_and(|e| !e.text.starts_with("0 ")));
    }

    #[test]
    fn one_huge_entry_is_cut_and_erases_nothing_kept() {
        let state = tempfile::tempdir().expect("temp dir");
        let store = Store::under(state.path(), "https://hub").expect("opens");
        let big = "x".repeat(1000);
        for i in 0..200 {
            store
                .keep("ns", "p", &[entry(&format!("{i} {big}"))])
                .expect("kept");
        }
        store
            .keep("ns", "p", &[entry(&"y".repeat(700_000))])
            .expect("kept");
        let kept = store.kept("ns", "p");
        assert!(kept.len() > 50, "{}", kept.len());
        assert!(
            kept.last()
                .is_some_and(|e| e.text.chars().count() <= TEXT_AT_MOST)
        );
    }

    #[test]
    fn a_session_s_watch_is_a_span_and_an_unsaid_end_is_none() {
        let state = tempfile::tempdir().expect("temp dir");
        let store = Store::under(state.path(), "https://hub").expect("opens");
        let from = Utc::now();
        drop(store.watching(&["ns".to_owned()], from));
        let spans = store.spans();
        assert_eq!(spans.len(), 1);
        assert_eq!(
            (spans[0].from, spans[0].namespaces.clone()),
            (from, vec!["ns".to_owned()])
        );
        assert!(spans[0].to.is_some());
        // A session of a process that is gone, without its end: no end.
        let line = json!({"session": "s", "from": from, "namespaces": [], "pid": i32::MAX});
        crate::files::append_private(&store.dir().join("watched.jsonl"), &line.to_string())
            .expect("appended");
        assert!(store.spans()[1].to.is_none());
    }
}
