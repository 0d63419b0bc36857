//! Wizard drafts kept on disk so nothing typed is lost: each change (each keystroke; the
//! console's writer thread writes a burst once) goes to `$XDG_STATE_HOME/pooldeck/drafts/` (default `~/.local/state/pooldeck/drafts/`,
//! directory mode 0700, files 0600 written as a new file moved into place), one file per
//! namespace, name and aim (new or edit). A draft is the manifest itself after one comment
//! line saying what it is for ([`Saved`]), so any manifest reader reads it. Renaming a draft
//! moves its file; applying or discarding it removes it. `pooldeck new --drafts` lists them.
//! The same private state holds the edits under way ([`edits_dir`]) and the guided tour's
//! progress ([`tour_dir`]).
//!
//! Must not import the console or the runtime.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde_json::Value;

use crate::domain::draft::{NotKept, Saved, Unremoved};
use crate::domain::error::{DirError, DirStep};

/// How many drafts are read at most (the newest first): a directory filled by accident does
/// not hold the console up.
pub const MOST: usize = 500;

/// The drafts directory (created private).
pub fn dir() -> Result<PathBuf, DirError> {
    private_subdir("drafts")
}

/// Where an edit in the user's editor (`pooldeck edit`, the console's `E`) is kept while it
/// is under way and after a session that dropped: `$XDG_STATE_HOME/pooldeck/edits/`, created
/// private like the drafts.
pub fn edits_dir() -> Result<PathBuf, DirError> {
    private_subdir("edits")
}

/// Where the guided tour keeps its progress: `$XDG_STATE_HOME/pooldeck/tour/`, created
/// private like the drafts.
pub fn tour_dir() -> Result<PathBuf, DirError> {
    private_subdir("tour")
}

fn private_subdir(name: &str) -> Result<PathBuf, DirError> {
    let dir = crate::files::state_dir()?.join(name);
    crate::files::private_mkdir(&dir)?;
    let meta = std::fs::symlink_metadata(&dir).map_err(|e| DirError::Refused {
        path: dir.clone(),
        step: DirStep::Look,
        detail: e.to_string(),
    })?;
    if !meta.is_dir() {
        return Err(DirError::NotADirectory { path: dir });
    }
    // One already there (made by hand, or by another umask) is closed to others again; one
    // that is another user's is not pooldeck's to use.
    #[cfg(unix)]
    {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        if meta.uid() != rustix::process::getuid().as_raw() {
            return Err(DirError::Refused {
                path: dir,
                step: DirStep::Look,
                detail: "it belongs to another user".to_owned(),
            });
        }
        if meta.mode() & 0o077 != 0 {
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).map_err(
                |e| DirError::Refused {
                    path: dir.clone(),
                    step: DirStep::CloseToOthers,
                    detail: e.to_string(),
                },
            )?;
        }
    }
    Ok(dir)
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

/// Writes the draft (privately, as a whole new file moved into place); when it was kept
/// under another file before (renamed, moved to another namespace), that file goes.
pub fn save(dir: &Path, saved: &Saved, replaces: Option<&str>) -> Result<PathBuf, NotKept> {
    let name = saved.file_name();
    let path = dir.join(&name);
    crate::files::write_private(&path, saved.to_text().as_bytes()).map_err(NotKept::Written)?;
    if let Some(old) = replaces.filter(|old| *old != name) {
        discard(dir, old).map_err(NotKept::Removed)?;
    }
    Ok(path)
}

/// Reads a draft back.
pub fn load(path: &Path) -> Result<Saved, Unloaded> {
    let text = crate::files::read_text(path, crate::files::SMALL_FILE_BYTES).map_err(|why| {
        Unloaded::Unreadable {
            path: path.to_owned(),
            why,
        }
    })?;
    let objects: Vec<Value> = crate::manifest::parse(&text)
        .map_err(|why| Unloaded::NotYaml {
            path: path.to_owned(),
            why,
        })?
        .iter()
        .map(|d| d.root.to_json())
        .collect();
    Saved::from_parts(&text, &objects).map_err(|why| Unloaded::NotADraft {
        path: path.to_owned(),
        why,
    })
}

/// Why a draft's file could not be read back.
#[derive(Debug, thiserror::Error)]
pub enum Unloaded {
    #[error("cannot read the draft {}: {why}", path.display())]
    Unreadable {
        path: PathBuf,
        why: crate::files::ReadError,
    },
    #[error("the draft {} is not readable: {why}", path.display())]
    NotYaml {
        path: PathBuf,
        why: crate::manifest::ParseError,
    },
    #[error("the draft {}: {why}", path.display())]
    NotADraft {
        path: PathBuf,
        why: crate::domain::draft::Unreadable,
    },
}

/// One file of the drafts directory, read or not.
pub struct Listed {
    pub file: String,
    pub modified: Option<SystemTime>,
    pub draft: Result<Saved, Unloaded>,
}

/// The drafts in the directory, newest first (at most `most`: the console reads [`MOST`]).
pub fn list(dir: &Path, most: usize) -> Vec<Listed> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<(Option<SystemTime>, PathBuf)> = entries
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "yaml"))
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| (e.metadata().ok().and_then(|m| m.modified().ok()), e.path()))
        .collect();
    files.sort_by_key(|(modified, _)| std::cmp::Reverse(*modified));
    files
        .into_iter()
        .take(most)
        .map(|(modified, path)| Listed {
            file: path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            modified,
            draft: load(&path),
        })
        .collect()
}

/// Forgets a draft (its pool was applied, or it was discarded on purpose). A name that is
/// not a plain file name in the directory is refused.
pub fn discard(dir: &Path, file: &str) -> Result<(), Unremoved> {
    if file.contains('/') || file.starts_with('.') || !file.ends_with(".yaml") {
        return Err(Unremoved::NotAFileName {
            file: file.to_owned(),
        });
    }
    let path = dir.join(file);
    match std::fs::remove_file(&path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Unremoved::Refused {
            path,
            detail: e.to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::draft::{Aim, Draft};
    use crate::domain::path::YamlPath;
    use serde_json::json;

    fn saved(name: &str) -> Saved {
        let mut draft = Draft::new("ml-research");
        draft.set(&YamlPath::keys("metadata.name"), Some(json!(name)));
        draft.add_worker_pool("a100s");
        Saved {
            aim: Aim::New,
            context: "hub-a".into(),
            resource_version: None,
            started: "20261201T141800".into(),
            typing: None,
            draft,
        }
    }

    #[test]
    fn a_saved_draft_comes_back_whole_and_private_and_a_rename_moves_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        let unnamed = saved("");
        let first = save(dir.path(), &unnamed, None).expect("saved");
        assert_eq!(
            first.file_name().and_then(|n| n.to_str()),
            Some("ml-research.unnamed-20261201T141800.new.yaml")
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&first)
                .expect("meta")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        // Named: the file moves; no stray unnamed file stays.
        let named = saved("gpu-pool");
        let path = save(dir.path(), &named, Some(&unnamed.file_name())).expect("saved");
        assert!(!first.exists(), "the unnamed draft's file is gone");
        assert_eq!(load(&path).expect("loaded"), named);
        let listed = list(dir.path(), MOST);
        assert_eq!(listed.len(), 1);
        assert_eq!(
            listed[0].file,
            "ml-research.gpu-pool.20261201T141800.new.yaml"
        );
        discard(dir.path(), &listed[0].file).expect("discarded");
        assert!(list(dir.path(), MOST).is_empty());
        assert!(discard(dir.path(), "../x.yaml").is_err());
    }
}
