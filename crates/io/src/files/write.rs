//! Writing files, safely: pooldeck's private directories (0700 whatever the umask, never a
//! link or another user's), secrets and output written as a new 0600 file moved into place
//! (output only over a regular file or at a new path), and the audit log's lines appended
//! whole or not at all.

use std::io::Write;
use std::path::Path;

use super::{no_follow, non_blocking, token, what};
pub use pooldeck_domain::error::{
    AppendError, DirError, DirStep, Unappendable, Unwritable, WriteError,
};

/// pooldeck's private directory for files that hold secrets: `$XDG_RUNTIME_DIR/pooldeck`
/// (per user, emptied at logout), else `$XDG_STATE_HOME/pooldeck`, else
/// `~/.local/state/pooldeck`. Created with mode 0700; an existing one must be a directory of
/// ours (not a link) and is closed to others if it was not.
pub fn private_dir() -> Result<std::path::PathBuf, DirError> {
    private_dir_from(&["XDG_RUNTIME_DIR", "XDG_STATE_HOME"])
}

/// pooldeck's state directory, kept across logins (the audit log, drafts):
/// `$XDG_STATE_HOME/pooldeck`, else `~/.local/state/pooldeck`; private as [`private_dir`].
pub fn state_dir() -> Result<std::path::PathBuf, DirError> {
    private_dir_from(&["XDG_STATE_HOME"])
}

fn private_dir_from(variables: &[&str]) -> Result<std::path::PathBuf, DirError> {
    let absolute = |name: &str| {
        std::env::var_os(name)
            .map(std::path::PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    let base = variables
        .iter()
        .find_map(|v| absolute(v))
        .or_else(|| absolute("HOME").map(|home| home.join(".local").join("state")))
        .ok_or_else(|| DirError::NoPlace {
            variables: variables.join(", "),
        })?;
    let dir = base.join("pooldeck");
    // What is missing on the way is created private too ($XDG_STATE_HOME itself, say).
    private_dirs_to(&base)?;
    private_mkdir(&dir)?;
    let meta = std::fs::symlink_metadata(&dir).map_err(|e| refused(&dir, DirStep::Look, &e))?;
    if !meta.is_dir() {
        return Err(DirError::NotADirectory { path: dir });
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        if meta.uid() != rustix::process::getuid().as_raw() {
            return Err(DirError::OtherUser {
                path: dir,
                instead: variables.first().copied().unwrap_or("HOME").to_owned(),
            });
        }
        if meta.mode() & 0o077 != 0 {
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700))
                .map_err(|e| refused(&dir, DirStep::CloseToOthers, &e))?;
        }
    }
    Ok(dir)
}

/// Creates one directory of mode 0700, whatever the umask (the mode is set again after it
/// is made); one already there is left to the caller to check.
pub fn private_mkdir(dir: &Path) -> Result<(), DirError> {
    let mut builder = std::fs::DirBuilder::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    match builder.create(dir) {
        Ok(()) => {
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
                    .map_err(|e| refused(dir, DirStep::CloseToOthers, &e))?;
            }
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(refused(dir, DirStep::Create, &e)),
    }
}

fn refused(path: &Path, step: DirStep, error: &std::io::Error) -> DirError {
    DirError::Refused {
        path: path.to_owned(),
        step,
        detail: error.to_string(),
    }
}

/// Creates the directories missing on the way to `dir` (and `dir`), each as
/// [`private_mkdir`]: a directory pooldeck makes is never open to others, under any umask.
fn private_dirs_to(dir: &Path) -> Result<(), DirError> {
    let mut missing = Vec::new();
    let mut at = Some(dir);
    while let Some(path) = at {
        if std::fs::symlink_metadata(path).is_ok() {
            break;
        }
        missing.push(path);
        at = path.parent();
    }
    for path in missing.into_iter().rev() {
        private_mkdir(path)?;
    }
    Ok(())
}

/// Why `path` cannot be where a file pooldeck writes goes: only a regular file (replaced) or
/// a new path will do; a device, FIFO, socket, directory or link is refused by name.
pub fn writable_target(path: &Path) -> Result<(), Unwritable> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Unwritable::Unseen {
            detail: e.to_string(),
        }),
        Ok(meta) if meta.is_file() => Ok(()),
        Ok(meta) if meta.file_type().is_symlink() => Err(Unwritable::Link),
        Ok(meta) if meta.is_dir() => Err(Unwritable::Directory),
        Ok(meta) => Err(Unwritable::Special {
            what: what(&meta.file_type()),
        }),
    }
}

/// Writes a file a person named for output (`-o FILE`): only over a regular file or at a new
/// path ([`writable_target`]), as [`write_private`] writes.
pub fn write_output(path: &Path, contents: &[u8]) -> Result<(), WriteError> {
    write_output_with(path, |file| file.write_all(contents))
}

/// [`write_output`], the contents written by `write` (a stream too large to hold).
pub fn write_output_with(
    path: &Path,
    write: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> Result<(), WriteError> {
    writable_target(path).map_err(|why| WriteError {
        path: path.to_owned(),
        why,
    })?;
    write_private_with(path, write)
}

/// Writes a file that holds a secret: a new file of mode 0600 with an unpredictable name
/// beside `path`, created exclusively (an existing file or link there is never opened), then
/// moved over `path` (a link at `path` is replaced, its target untouched).
pub fn write_private(path: &Path, contents: &[u8]) -> Result<(), WriteError> {
    write_private_with(path, |file| file.write_all(contents))
}

/// [`write_private`], the contents written by `write`.
pub fn write_private_with(
    path: &Path,
    write: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> Result<(), WriteError> {
    let error = |why: Unwritable| WriteError {
        path: path.to_owned(),
        why,
    };
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path.file_name().ok_or_else(|| error(Unwritable::NoName))?;
    if path.is_dir() {
        return Err(error(Unwritable::Directory));
    }
    directory_exists(dir).map_err(error)?;
    let suffix = token().map_err(|e| {
        error(Unwritable::NoRandom {
            detail: e.to_string(),
        })
    })?;
    let temporary = dir.join(format!(".{}.{}", name.to_string_lossy(), &suffix[..16]));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600).custom_flags(no_follow());
    }
    let written = || -> std::io::Result<()> {
        let mut file = options.open(&temporary)?;
        write(&mut file)?;
        file.sync_all()?;
        std::fs::rename(&temporary, path)
    };
    written().map_err(|e| {
        let _ = std::fs::remove_file(&temporary);
        error(Unwritable::Refused {
            kind: e.kind(),
            detail: e.to_string(),
        })
    })
}

/// Whether a file can be written at `path`: not a directory, in a directory that exists and
/// takes a new file (tried with a new file of an unpredictable name, removed at once).
pub fn writable(path: &Path) -> Result<(), Unwritable> {
    if path.is_dir() {
        return Err(Unwritable::Directory);
    }
    writable_target(path)?;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    directory_exists(dir)?;
    let probe = dir.join(format!(
        ".pooldeck-probe-{}",
        token()
            .map_err(|e| Unwritable::NoRandom {
                detail: e.to_string()
            })?
            .get(..12)
            .unwrap_or("")
    ));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .map_err(|e| Unwritable::NoNewFile {
            dir: dir.to_owned(),
            detail: e.to_string(),
        })?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

fn directory_exists(dir: &Path) -> Result<(), Unwritable> {
    match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => Err(Unwritable::NoDirectory {
            dir: dir.to_owned(),
            exists: true,
        }),
        Err(_) => Err(Unwritable::NoDirectory {
            dir: dir.to_owned(),
            exists: false,
        }),
    }
}

/// Why a file opened to append records to is not one only its owner can read and write, if
/// it is not: not a plain file, another user's, a hard link, or open to others.
fn not_private(meta: &std::fs::Metadata) -> Option<Unappendable> {
    if !meta.is_file() {
        return Some(Unappendable::NotAFile {
            what: what(&meta.file_type()),
        });
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.uid() != rustix::process::getuid().as_raw() {
            return Some(Unappendable::OtherUser);
        }
        // Another name for the same file (a hard link) is a way to have records written
        // somewhere else: refused like a symbolic link.
        if meta.nlink() > 1 {
            return Some(Unappendable::HardLink);
        }
        if meta.mode() & 0o077 != 0 {
            return Some(Unappendable::OpenToOthers {
                mode: meta.mode() & 0o777,
            });
        }
    }
    None
}

/// Appends one line to a file only its owner may read: created with mode 0600 if missing,
/// never through a link, refused if it is another user's or open to others. The line goes
/// out in one write, so lines of two processes never interleave.
pub fn append_private(path: &Path, line: &str) -> Result<(), AppendError> {
    use std::io::Write;
    let refused = |why: Unappendable| AppendError {
        path: path.to_owned(),
        why,
    };
    let system = |e: std::io::Error| {
        refused(Unappendable::System {
            detail: e.to_string(),
        })
    };
    let mut options = std::fs::OpenOptions::new();
    // Read too: to see whether the last line written is whole.
    options.read(true).append(true).create(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options
            .mode(0o600)
            .custom_flags(no_follow() | non_blocking());
    }
    if let Some(dir) = path.parent().filter(|p| !p.as_os_str().is_empty())
        && let Err(Unwritable::NoDirectory { dir, exists }) = directory_exists(dir)
    {
        return Err(refused(Unappendable::NoDirectory { dir, exists }));
    }
    let mut file = options.open(path).map_err(|e| {
        if rustix::io::Errno::from_io_error(&e) == Some(rustix::io::Errno::LOOP) {
            refused(Unappendable::Link)
        } else {
            system(e)
        }
    })?;
    let meta = file.metadata().map_err(system)?;
    if let Some(why) = not_private(&meta) {
        return Err(refused(why));
    }
    let mut bytes = Vec::with_capacity(line.len() + 2);
    // A last line left without its end (a crash mid-write elsewhere) is ended first, so this
    // record is never glued to it.
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt;
        let mut last = [0u8; 1];
        if meta.len() > 0
            && file
                .read_at(&mut last, meta.len() - 1)
                .is_ok_and(|n| n == 1)
            && last[0] != b'\n'
        {
            bytes.push(b'\n');
        }
    }
    bytes.extend_from_slice(line.trim_end_matches('\n').as_bytes());
    bytes.push(b'\n');
    // One write, all of the line or none of it: a disk that fills up part-way must not leave
    // half a record that the next one is glued to. A short write is taken back (the file is
    // cut to where it was, unless another writer appended meanwhile).
    let before = meta.len();
    match file.write(&bytes) {
        Ok(n) if n == bytes.len() => Ok(()),
        Ok(n) => {
            let cut = file
                .metadata()
                .is_ok_and(|now| now.len() == before + n as u64)
                && file.set_len(before).is_ok();
            Err(refused(Unappendable::Short {
                written: n,
                total: bytes.len(),
                taken_back: cut,
            }))
        }
        Err(e) => Err(system(e)),
    }
}
