//! Wizard drafts kept on disk so nothing typed is lost: each change is written to
//! `$XDG_STATE_HOME/pooldeck/drafts/` (default `~/.local/state/pooldeck/drafts/`, directory
//! mode 0700, files 0600 written as a new file moved into place), and the next wizard offers
//! the newest one to resume. A draft is the manifest itself (the pool, then its
//! ScalingPolicy), so a resumed draft is read by the same parser as any manifest.
//!
//! Must not import the console or the runtime.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::domain::draft::Draft;

/// The drafts directory (created private).
pub fn dir() -> Result<PathBuf, String> {
    let dir = crate::files::state_dir()?.join("drafts");
    crate::files::private_mkdir(&dir)?;
    let meta = std::fs::symlink_metadata(&dir)
        .map_err(|e| format!("cannot use {}: {e}", dir.display()))?;
    if meta.is_dir() {
        Ok(dir)
    } else {
        Err(format!("{} is not a directory; remove it", dir.display()))
    }
}

/// The drafts directory if it exists (nothing is created: for looking only).
pub fn existing_dir() -> Option<PathBuf> {
    let absolute = |name: &str| {
        std::env::var_os(name)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    let base = absolute("XDG_STATE_HOME")
        .or_else(|| absolute("HOME").map(|home| home.join(".local").join("state")))?;
    let dir = base.join("pooldeck").join("drafts");
    std::fs::symlink_metadata(&dir)
        .ok()
        .filter(|m| m.is_dir())
        .map(|_| dir)
}

/// The file a draft lives in: one per namespace and name (`new` while it has none).
pub fn path_in(dir: &Path, draft: &Draft) -> PathBuf {
    let text = |pointer: &str| {
        draft
            .pool
            .pointer(pointer)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .unwrap_or("new")
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .take(63)
            .collect::<String>()
    };
    dir.join(format!(
        "{}.{}.yaml",
        text("/metadata/namespace"),
        text("/metadata/name")
    ))
}

/// Writes the draft (privately, as a whole new file moved into place).
pub fn save(dir: &Path, draft: &Draft) -> Result<PathBuf, String> {
    let path = path_in(dir, draft);
    crate::files::write_private(&path, draft.to_yaml().as_bytes())?;
    Ok(path)
}

/// Reads a draft back.
pub fn load(path: &Path) -> Result<Draft, String> {
    let text = crate::files::read_text(path, crate::files::SMALL_FILE_BYTES)
        .map_err(|e| format!("cannot read the draft {}: {e}", path.display()))?;
    let objects: Vec<Value> = crate::manifest::parse(&text)
        .map_err(|e| format!("the draft {} is not readable: {e}", path.display()))?
        .iter()
        .map(|d| d.root.to_json())
        .collect();
    Draft::from_objects(&objects)
        .ok_or_else(|| format!("the draft {} holds no ComputePool", path.display()))
}

/// The newest draft in the directory, to offer for resuming.
pub fn newest(dir: &Path) -> Option<PathBuf> {
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "yaml"))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .max_by_key(|(modified, _)| *modified)
        .map(|(_, path)| path)
}

/// Forgets a draft (after it was applied, or discarded on purpose).
pub fn discard(path: &Path) -> Result<(), String> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(format!("cannot remove the draft {}: {e}", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_saved_draft_comes_back_whole_and_private() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut draft = Draft::new("ml-research");
        draft.set(
            &crate::domain::path::YamlPath::keys("metadata.name"),
            Some(json!("gpu-pool")),
        );
        draft.add_worker_pool("a100s");
        draft.policy = Some(
            json!({"apiVersion": "spectrocloud.com/v1alpha1", "kind": "ScalingPolicy",
            "metadata": {"name": "p", "namespace": "ml-research"},
            "spec": {"cpu": {"scaleUpThreshold": 80}}}),
        );
        let path = save(dir.path(), &draft).expect("saved");
        assert_eq!(
            path.file_name().and_then(|n| n.to_str()),
            Some("ml-research.gpu-pool.yaml")
        );
        assert_eq!(load(&path).expect("loaded"), draft);
        assert_eq!(newest(dir.path()), Some(path.clone()));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        discard(&path).expect("discarded");
        assert_eq!(newest(dir.path()), None);
        // A name that would escape the directory stays inside it.
        draft.set(
            &crate::domain::path::YamlPath::keys("metadata.name"),
            Some(json!("../../etc/x")),
        );
        assert!(path_in(dir.path(), &draft).starts_with(dir.path()));
    }
}
