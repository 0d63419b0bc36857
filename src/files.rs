//! Reading the files a person names, safely: only regular files (or standard input), opened
//! so that a FIFO or device can never block the program, and never more than a stated number
//! of bytes (a `/dev/zero` given by mistake is refused, not read until memory runs out).
//! Every input path goes through [`read_bounded`]: manifests, `--old`, `--existing`,
//! `--replay`, themes and the settings file. Must not import the console.

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
            ReadError::NotAFile { what } => write!(
                f,
                "it is {what}, not a regular file; give a file, or - to read standard input"
            ),
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

/// The most a theme, settings or scenario file may hold.
pub const SMALL_FILE_BYTES: u64 = 4 * 1024 * 1024;

#[cfg(test)]
mod tests {
    use super::*;

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
    fn a_stream_is_read_up_to_its_limit_and_no_further() {
        let endless = std::io::repeat(b'x');
        assert_eq!(
            read_limited(endless, 1000),
            Err(ReadError::TooLarge { limit: 1000 })
        );
        assert_eq!(read_limited(&b"small"[..], 1000), Ok(b"small".to_vec()));
    }
}
