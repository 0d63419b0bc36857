//! Files, safely. Reading what a person names: only regular files (or standard input), opened
//! so that a FIFO or device can never block the program, and never more than a stated number
//! of bytes (a `/dev/zero` given by mistake is refused, not read until memory runs out); every
//! input path goes through [`read_bounded`]: manifests, `--old`, `--existing`, `--replay`,
//! themes and the settings file. Writing secrets: only into pooldeck's private directory or a
//! path the person chose, as a new file of mode 0600 moved into place, never through a link
//! ([`write_private`]); tokens from the operating system's secure random source ([`token`]).
//! Must not import the console.

use std::io::Read;
use std::path::Path;

/// Why a file could not be read, in the user's terms.
#[derive(Debug, PartialEq, Eq)]
pub enum ReadError {
    NotFound,
    /// A directory, FIFO, device or socket where a file was expected.
    NotAFile {
        what: &'static str,
    },
    TooLarge {
        limit: u64,
    },
    NotText,
    Other(String),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::NotFound => f.write_str("no such file or directory"),
            ReadError::NotAFile { what } => write!(f, "it is {what}, not a regular file"),
            ReadError::TooLarge { limit } => write!(
                f,
                "it is larger than {0} MiB; pooldeck reads at most {0} MiB per file: split it",
                limit / (1024 * 1024)
            ),
            ReadError::NotText => f.write_str("it is not UTF-8 text"),
            ReadError::Other(message) => f.write_str(message),
        }
    }
}

/// What kind of thing a file type is, for a message.
fn what(file_type: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if file_type.is_char_device() || file_type.is_block_device() {
            return "a device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// Whether a path names a regular file (following links), without opening it.
pub fn regular_file(path: &Path) -> Result<(), ReadError> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => Ok(()),
        Ok(meta) => Err(ReadError::NotAFile {
            what: what(&meta.file_type()),
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(ReadError::NotFound),
        Err(e) => Err(ReadError::Other(format!("cannot read it: {e}"))),
    }
}

/// Reads at most `limit` bytes of a regular file. The file is opened without blocking (a FIFO
/// swapped in after the check cannot hang the open) and checked again on the open handle.
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    regular_file(path)?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => ReadError::NotFound,
        _ => ReadError::Other(format!("cannot read it: {e}")),
    })?;
    let meta = file
        .metadata()
        .map_err(|e| ReadError::Other(format!("cannot read it: {e}")))?;
    if !meta.is_file() {
        return Err(ReadError::NotAFile {
            what: what(&meta.file_type()),
        });
    }
    if meta.len() > limit {
        return Err(ReadError::TooLarge { limit });
    }
    read_limited(file, limit)
}

/// Reads at most `limit` bytes of a stream (standard input); more is refused.
pub fn read_limited(reader: impl Read, limit: u64) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| ReadError::Other(format!("cannot read it: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge { limit });
    }
    Ok(bytes)
}

/// [`read_bounded`] as UTF-8 text.
pub fn read_text(path: &Path, limit: u64) -> Result<String, ReadError> {
    String::from_utf8(read_bounded(path, limit)?).map_err(|_| ReadError::NotText)
}

/// A secret token: 32 random bytes from the operating system, in hex.
pub fn token() -> Result<String, String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| format!("the operating system gave no random bytes: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// pooldeck's private directory for files that hold secrets: `$XDG_RUNTIME_DIR/pooldeck`
/// (per user, emptied at logout), else `$XDG_STATE_HOME/pooldeck`, else
/// `~/.local/state/pooldeck`. Created with mode 0700; an existing one must be a directory of
/// ours (not a link) and is closed to others if it was not.
pub fn private_dir() -> Result<std::path::PathBuf, String> {
    private_dir_from(&["XDG_RUNTIME_DIR", "XDG_STATE_HOME"])
}

/// pooldeck's state directory, kept across logins (the audit log, drafts):
/// `$XDG_STATE_HOME/pooldeck`, else `~/.local/state/pooldeck`; private as [`private_dir`].
pub fn state_dir() -> Result<std::path::PathBuf, String> {
    private_dir_from(&["XDG_STATE_HOME"])
}

fn private_dir_from(variables: &[&str]) -> Result<std::path::PathBuf, String> {
    let absolute = |name: &str| {
        std::env::var_os(name)
            .map(std::path::PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    let base = variables
        .iter()
        .find_map(|v| absolute(v))
        .or_else(|| absolute("HOME").map(|home| home.join(".local").join("state")))
        .ok_or_else(|| {
            format!(
                "neither {} nor HOME names a directory",
                variables.join(", ")
            )
        })?;
    let dir = base.join("pooldeck");
    // What is missing on the way is created private too ($XDG_STATE_HOME itself, say).
    private_dirs_to(&base)?;
    private_mkdir(&dir)?;
    let meta = std::fs::symlink_metadata(&dir)
        .map_err(|e| format!("cannot use {}: {e}", dir.display()))?;
    if !meta.is_dir() {
        return Err(format!(
            "{} is not a directory (a link or a file is there); remove it",
            dir.display()
        ));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        if meta.uid() != rustix::process::getuid().as_raw() {
            return Err(format!(
                "{} belongs to another user; remove it or set XDG_RUNTIME_DIR",
                dir.display()
            ));
        }
        if meta.mode() & 0o077 != 0 {
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700))
                .map_err(|e| format!("cannot close {} to others: {e}", dir.display()))?;
        }
    }
    Ok(dir)
}

/// Creates one directory of mode 0700, whatever the umask (the mode is set again after it
/// is made); one already there is left to the caller to check.
pub fn private_mkdir(dir: &Path) -> Result<(), String> {
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
                    .map_err(|e| format!("cannot close {} to others: {e}", dir.display()))?;
            }
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(format!("cannot create {}: {e}", dir.display())),
    }
}

/// Creates the directories missing on the way to `dir` (and `dir`), each as
/// [`private_mkdir`]: a directory pooldeck makes is never open to others, under any umask.
fn private_dirs_to(dir: &Path) -> Result<(), String> {
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
pub fn writable_target(path: &Path) -> Result<(), String> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(format!("cannot look at it: {e}")),
        Ok(meta) if meta.is_file() => Ok(()),
        Ok(meta) if meta.file_type().is_symlink() => Err(
            "it is a link; pooldeck writes a regular file or a new path, never over or through a link"
                .into(),
        ),
        Ok(meta) => Err(format!(
            "it is {}; pooldeck writes a regular file or a new path",
            what(&meta.file_type())
        )),
    }
}

/// Writes a file a person named for output (`-o FILE`): only over a regular file or at a new
/// path ([`writable_target`]), as [`write_private`] writes.
pub fn write_output(path: &Path, contents: &[u8]) -> Result<(), String> {
    writable_target(path).map_err(|why| format!("cannot write {}: {why}", path.display()))?;
    write_private(path, contents)
}

/// Writes a file that holds a secret: a new file of mode 0600 with an unpredictable name
/// beside `path`, created exclusively (an existing file or link there is never opened), then
/// moved over `path` (a link at `path` is replaced, its target untouched).
pub fn write_private(path: &Path, contents: &[u8]) -> Result<(), String> {
    use std::io::Write;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .ok_or_else(|| format!("{} names no file", path.display()))?;
    let refused = |why: String| format!("cannot write {}: {why}", path.display());
    if path.is_dir() {
        return Err(refused("it is a directory; give a file name".into()));
    }
    directory_exists(dir).map_err(refused)?;
    let suffix = token()?;
    let temporary = dir.join(format!(".{}.{}", name.to_string_lossy(), &suffix[..16]));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600).custom_flags(libc::O_NOFOLLOW);
    }
    let write = || -> std::io::Result<()> {
        let mut file = options.open(&temporary)?;
        file.write_all(contents)?;
        file.sync_all()?;
        std::fs::rename(&temporary, path)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&temporary);
        format!("cannot write {}: {e}", path.display())
    })
}

/// Whether a file can be written at `path`: not a directory, in a directory that exists and
/// takes a new file (tried with a new file of an unpredictable name, removed at once).
pub fn writable(path: &Path) -> Result<(), String> {
    if path.is_dir() {
        return Err("it is a directory; give a file name".into());
    }
    writable_target(path)?;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    directory_exists(dir)?;
    let probe = dir.join(format!(
        ".pooldeck-probe-{}",
        token()?.get(..12).unwrap_or("")
    ));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .map_err(|e| format!("the directory {} takes no new file ({e})", dir.display()))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

fn directory_exists(dir: &Path) -> Result<(), String> {
    match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => Err(format!("{} is not a directory", dir.display())),
        Err(_) => Err(format!("the directory {} does not exist", dir.display())),
    }
}

/// Appends one line to a file only its owner may read: created with mode 0600 if missing,
/// never through a link, refused if it is another user's or open to others. The line goes
/// out in one write, so lines of two processes never interleave.
pub fn append_private(path: &Path, line: &str) -> Result<(), String> {
    use std::io::Write;
    let refused = |why: String| format!("cannot append to {}: {why}", path.display());
    let mut options = std::fs::OpenOptions::new();
    options.append(true).create(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    if let Some(dir) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        directory_exists(dir).map_err(refused)?;
    }
    let mut file = options.open(path).map_err(|e| {
        if e.raw_os_error() == Some(libc::ELOOP) {
            refused("it is a link; pooldeck does not write through links".into())
        } else {
            refused(e.to_string())
        }
    })?;
    let meta = file.metadata().map_err(|e| refused(e.to_string()))?;
    if !meta.is_file() {
        return Err(refused(
            what(&meta.file_type()).to_owned() + ", not a regular file",
        ));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.uid() != rustix::process::getuid().as_raw() {
            return Err(refused("it belongs to another user".into()));
        }
        if meta.mode() & 0o077 != 0 {
            return Err(refused(format!(
                "others may read it (mode {:o}); chmod 600 it",
                meta.mode() & 0o777
            )));
        }
    }
    let mut bytes = line.trim_end_matches('\n').as_bytes().to_vec();
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
            Err(refused(format!(
                "only {n} of {} bytes could be written (is the disk full?){}",
                bytes.len(),
                if cut {
                    "; the part written was taken back"
                } else {
                    ""
                }
            )))
        }
        Err(e) => Err(refused(e.to_string())),
    }
}

/// The most a theme, settings or scenario file may hold.
pub const SMALL_FILE_BYTES: u64 = 4 * 1024 * 1024;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(unix)]
    fn appended_lines_go_to_a_private_file_never_through_a_link() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("temp dir");
        let log = dir.path().join("audit.log");
        append_private(&log, "one").expect("created");
        append_private(&log, "two\n").expect("appended");
        assert_eq!(std::fs::read_to_string(&log).expect("read"), "one\ntwo\n");
        let mode = std::fs::metadata(&log).expect("meta").permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        // A link planted at the path is not written through.
        let target = dir.path().join("target");
        std::fs::write(&target, "keep").expect("write");
        let link = dir.path().join("linked.log");
        std::os::unix::fs::symlink(&target, &link).expect("link");
        let refused = append_private(&link, "secret").expect_err("a link");
        assert!(refused.contains("link"), "{refused}");
        assert_eq!(std::fs::read_to_string(&target).expect("read"), "keep");
        // A file others may read is refused, not written to.
        let open = dir.path().join("open.log");
        std::fs::write(&open, "").expect("write");
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        let refused = append_private(&open, "line").expect_err("open to others");
        assert!(refused.contains("chmod 600"), "{refused}");
    }

    #[test]
    fn special_files_are_refused_without_reading_them() {
        assert_eq!(
            read_bounded(Path::new("/dev/zero"), 1024),
            Err(ReadError::NotAFile { what: "a device" })
        );
        assert!(matches!(
            read_bounded(Path::new("/"), 1024),
            Err(ReadError::NotAFile {
                what: "a directory"
            })
        ));
        assert_eq!(
            read_bounded(Path::new("/no/such/file"), 1024),
            Err(ReadError::NotFound)
        );
    }

    #[test]
    fn secrets_are_written_private_and_never_through_a_link() {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let dir = tempfile::tempdir().expect("temp dir");
        let target = dir.path().join("someone-elses-file");
        std::fs::write(&target, "keep").expect("write");
        let path = dir.path().join("config");
        std::os::unix::fs::symlink(&target, &path).expect("link");
        write_private(&path, b"token: secret").expect("written");
        assert_eq!(std::fs::read_to_string(&target).expect("read"), "keep");
        let meta = std::fs::symlink_metadata(&path).expect("meta");
        assert!(meta.is_file(), "the link was replaced by a file");
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
        assert_eq!(meta.uid(), rustix::process::getuid().as_raw());
        assert_eq!(
            std::fs::read_to_string(&path).expect("read"),
            "token: secret"
        );
        let a = token().expect("token");
        assert_eq!(a.len(), 64);
        assert_ne!(a, token().expect("token"));
    }

    #[test]
    fn a_stream_is_read_up_to_its_limit_and_no_further() {
        let endless = std::io::repeat(b'x');
        assert_eq!(
            read_limited(endless, 1000),
            Err(ReadError::TooLarge { limit: 1000 })
        );
        assert_eq!(read_limited(&b"small"[..], 1000), Ok(b"small".to_vec()));
    }
}
