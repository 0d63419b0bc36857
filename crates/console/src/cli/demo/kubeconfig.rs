//! The kubeconfig a demo server writes: never over a file no demo server wrote (a user's own
//! kubeconfig), and removed when the server stops only while it still is that file.

use std::path::{Path, PathBuf};

/// The kubeconfig of the clusters served: one cluster's contexts, or a context per hub.
pub(super) fn of(names: &[String], clusters: &[crate::demo::DemoCluster]) -> String {
    match clusters {
        [one] => one.kubeconfig(),
        _ => {
            let hubs: Vec<_> = names.iter().map(String::as_str).zip(clusters).collect();
            crate::demo::hubs_kubeconfig(&hubs)
        }
    }
}

/// Why the kubeconfig was not written.
#[derive(Debug, thiserror::Error)]
pub(super) enum Unwritten {
    /// Something else is at the path: what, in words.
    #[error("{0}; nothing was written")]
    NotOurs(String),
    #[error(transparent)]
    Write(#[from] crate::files::WriteError),
}

/// A kubeconfig this server wrote, known again by its device, inode and content.
pub(super) struct Written {
    path: PathBuf,
    identity: Option<(u64, u64)>,
    contents: String,
}

impl Written {
    /// Writes `contents` at `path` (a new private file moved into place); why not, with
    /// nothing written.
    pub(super) fn write(path: &Path, contents: String) -> Result<Written, Unwritten> {
        if let Some(refused) = not_ours_to_replace(path) {
            return Err(Unwritten::NotOurs(refused));
        }
        crate::files::write_private(path, contents.as_bytes())?;
        Ok(Written {
            path: path.to_owned(),
            identity: file_identity(path),
            contents,
        })
    }

    /// Removes the file, only if it still is the one written: another server given the same
    /// path may have written its own over it since.
    pub(super) fn remove(self) {
        let path = &self.path;
        let ours = self.identity.is_some()
            && file_identity(path) == self.identity
            && std::fs::read(path).is_ok_and(|now| now == self.contents.as_bytes());
        if ours {
            let _ = std::fs::remove_file(path);
        } else if path.exists() {
            crate::say::complain!(
                "pooldeck: {} is no longer the kubeconfig this server wrote: left in place",
                crate::domain::inert::line(&path.to_string_lossy())
            );
        }
    }
}

/// Why the file at `path` is not one to write the kubeconfig over: anything but a kubeconfig a
/// demo server wrote (one left by a server that was killed, or another's) is left alone.
fn not_ours_to_replace(path: &Path) -> Option<String> {
    let shown = crate::domain::inert::line(&path.to_string_lossy()).into_owned();
    let meta = std::fs::symlink_metadata(path).ok()?;
    if !meta.is_file() {
        return Some(format!(
            "{shown} is there and is no file of its own: give another path"
        ));
    }
    match crate::files::read_text(path, 1 << 20) {
        Ok(text) if text.starts_with(crate::demo::WRITTEN_BY_DEMO) => None,
        _ => Some(format!(
            "{shown} is there and is no kubeconfig a demo server wrote: give another path"
        )),
    }
}

/// The device and inode of the file at `path` (not through a link), to know it again.
fn file_identity(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let metadata = std::fs::symlink_metadata(path).ok()?;
    Some((metadata.dev(), metadata.ino()))
}
