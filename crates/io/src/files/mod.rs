//! Files, safely. Reading what a person names: only regular files (or standard input), opened
//! so that a FIFO or device can never block the program, and never more than a stated number
//! of bytes (a `/dev/zero` given by mistake is refused, not read until memory runs out); every
//! input path goes through [`read_bounded`]: manifests, `--old`, `--existing`, `--replay`,
//! themes and the settings file. Writing secrets: only into pooldeck's private directory or a
//! path the person chose, as a new file of mode 0600 moved into place, never through a link
//! ([`write_private`]); tokens from the operating system's secure random source ([`token`]).
//! Must not import the console. Writing is in `write.rs`.

use std::io::Read;
use std::path::Path;

mod write;

pub use write::{
    AppendError, Unappendable, Unwritable, WriteError, append_private, private_dir, private_mkdir,
    state_dir, writable, writable_target, write_output, write_output_with, write_private,
};

pub use pooldeck_domain::error::ReadError;

/// What kind of thing a file type is, for a message.
pub(crate) fn what(file_type: &std::fs::FileType) -> &'static str {
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
    let (file, meta) = open_regular(path)?;
    if meta.len() > limit {
        return Err(ReadError::TooLarge { limit });
    }
    read_limited(file, limit)
}

/// The last `limit` bytes of a regular file (opened as [`read_bounded`] opens it) as text,
/// from its first whole line: the end of a log that only grows.
pub fn read_tail(path: &Path, limit: u64) -> Result<String, ReadError> {
    use std::io::{Seek, SeekFrom};
    let (mut file, meta) = open_regular(path)?;
    let from = meta.len().saturating_sub(limit);
    file.seek(SeekFrom::Start(from))
        .map_err(|e| ReadError::Other(format!("cannot read it: {e}")))?;
    let bytes = read_limited(file.take(limit), limit)?;
    let text = String::from_utf8_lossy(&bytes);
    Ok(match (from, text.find('\n')) {
        (0, _) => text.into_owned(),
        (_, Some(end)) => text[end + 1..].to_owned(),
        (_, None) => String::new(),
    })
}

/// A regular file opened to read, without blocking, with what it is.
fn open_regular(path: &Path) -> Result<(std::fs::File, std::fs::Metadata), ReadError> {
    regular_file(path)?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(non_blocking());
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
    Ok((file, meta))
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

/// `open`'s flag not to follow a link at the last step of a path.
pub(crate) fn no_follow() -> i32 {
    rustix::fs::OFlags::NOFOLLOW.bits().cast_signed()
}

/// `open`'s flag not to wait (a FIFO without a writer opens at once).
pub(crate) fn non_blocking() -> i32 {
    rustix::fs::OFlags::NONBLOCK.bits().cast_signed()
}

/// Whether a process of this machine runs under this id (another user's included), for a
/// record its writer may still be acting on. Not this process.
pub fn process_running(pid: i64) -> bool {
    let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    if pid == rustix::process::getpid() {
        return false;
    }
    match rustix::process::test_kill_process(pid) {
        Ok(()) => true,
        Err(error) => error == rustix::io::Errno::PERM,
    }
}

/// A secret token: 32 random bytes from the operating system, in hex.
pub fn token() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The most a theme, settings or scenario file may hold.
pub const SMALL_FILE_BYTES: u64 = 4 * 1024 * 1024;

#[cfg(test)]
mod tests {
    /// The tail of a log starts at its first whole line; a FIFO named as the log is refused
    /// at once, never waited on.
    #[test]
    fn a_tail_starts_at_a_whole_line_and_a_fifo_is_no_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let log = dir.path().join("log");
        std::fs::write(&log, "first line\nsecond\nthird\n").expect("written");
        assert_eq!(
            super::read_tail(&log, 100).expect("read"),
            "first line\nsecond\nthird\n"
        );
        assert_eq!(super::read_tail(&log, 10).expect("read"), "third\n");
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            assert!(matches!(
                super::read_tail(&fifo, 100),
                Err(super::ReadError::NotAFile { .. })
            ));
        }
    }

    use super::*;

    #[test]
    #[cfg(unix)]
    fn a_hard_link_is_not_appended_to() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("temp dir");
        let elsewhere = dir.path().join("elsewhere.txt");
        std::fs::write(&elsewhere, "").expect("a file");
        std::fs::set_permissions(&elsewhere, std::fs::Permissions::from_mode(0o600)).expect("mode");
        let log = dir.path().join("audit.log");
        std::fs::hard_link(&elsewhere, &log).expect("a hard link");
        let refused = append_private(&log, "{}").expect_err("refused");
        assert_eq!(refused.why, Unappendable::HardLink);
        assert!(refused.to_string().contains("hard link"), "{refused}");
        assert_eq!(std::fs::read_to_string(&elsewhere).expect("read"), "");
    }

    #[test]
    #[cfg(unix)]
    fn a_line_is_never_glued_to_an_unfinished_one() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("log");
        std::fs::write(&path, "{\"half\":").expect("a half line");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("mode");
        }
        append_private(&path, "{\"whole\":true}").expect("appended");
        let text = std::fs::read_to_string(&path).expect("read");
        assert_eq!(text, "{\"half\":\n{\"whole\":true}\n");
    }

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
        assert_eq!(refused.why, Unappendable::Link);
        assert_eq!(std::fs::read_to_string(&target).expect("read"), "keep");
        // A file others may read is refused, not written to.
        let open = dir.path().join("open.log");
        std::fs::write(&open, "").expect("write");
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        let refused = append_private(&open, "line").expect_err("open to others");
        assert_eq!(refused.why, Unappendable::OpenToOthers { mode: 0o644 });
        assert!(refused.to_string().contains("chmod 600"), "{refused}");
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
