//! What can go wrong with a file or a directory pooldeck reads or writes, in the user's terms.

use std::fmt;

/// Why a file could not be read, in the user's terms (kept here, beside [`WriteError`], so
/// that the console's state may hold one without naming the files layer).
#[derive(Clone, Debug, PartialEq, Eq)]
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

impl std::error::Error for ReadError {}

/// Why a file could not be written, kept typed so that the one who reads it can offer the
/// next step (another path, space on the disk); its `Display` is the sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteError {
    pub path: std::path::PathBuf,
    pub why: Unwritable,
}

/// What stood in the way of a write; its `Display` is the reason, after "cannot write PATH: ".
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unwritable {
    #[error("it is a directory; give a file name")]
    Directory,
    #[error(
        "it is a link; pooldeck writes a regular file or a new path, never over or through a link"
    )]
    Link,
    /// A device, a FIFO or a socket.
    #[error("it is {what}; pooldeck writes a regular file or a new path")]
    Special { what: &'static str },
    #[error("cannot look at it: {detail}")]
    Unseen { detail: String },
    /// The directory it would go into is missing, or is no directory.
    #[error("{}", missing_dir(dir, *exists))]
    NoDirectory {
        dir: std::path::PathBuf,
        exists: bool,
    },
    /// The directory exists but took no new file (tried with a probe).
    #[error("the directory {} takes no new file ({detail})", dir.display())]
    NoNewFile {
        dir: std::path::PathBuf,
        detail: String,
    },
    /// The path names no file.
    #[error("it names no file")]
    NoName,
    /// The system refused it (no space, no permission, ...).
    #[error("{detail}")]
    Refused {
        kind: std::io::ErrorKind,
        detail: String,
    },
    /// No unpredictable name could be made for the new file.
    #[error("the operating system gave no random bytes: {detail}")]
    NoRandom { detail: String },
}

fn missing_dir(dir: &std::path::Path, exists: bool) -> String {
    if exists {
        format!("{} is not a directory", dir.display())
    } else {
        format!("the directory {} does not exist", dir.display())
    }
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = self.path.display();
        match &self.why {
            Unwritable::NoName => write!(f, "{path} names no file"),
            why => write!(f, "cannot write {path}: {why}"),
        }
    }
}

/// Why a line could not be appended to a private file (the audit log); its `Display` is the
/// sentence.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot append to {}: {why}", path.display())]
pub struct AppendError {
    pub path: std::path::PathBuf,
    pub why: Unappendable,
}

/// What stood in the way of an append.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unappendable {
    #[error("{}", missing_dir(dir, *exists))]
    NoDirectory {
        dir: std::path::PathBuf,
        exists: bool,
    },
    #[error("it is a link; pooldeck does not write through links")]
    Link,
    #[error("{what}, not a regular file")]
    NotAFile { what: &'static str },
    #[error("it belongs to another user")]
    OtherUser,
    #[error("it has another name (a hard link); pooldeck appends only to a file of its own")]
    HardLink,
    #[error("others may read it (mode {mode:o}); chmod 600 it")]
    OpenToOthers { mode: u32 },
    #[error(
        "only {written} of {total} bytes could be written (is the disk full?){}",
        if *taken_back { "; the part written was taken back" } else { "" }
    )]
    Short {
        written: usize,
        total: usize,
        taken_back: bool,
    },
    #[error("{detail}")]
    System { detail: String },
}

/// Why one of pooldeck's private directories (state, drafts, secrets) cannot be used, kept
/// typed so that the one who reads it can say what to do; its `Display` is the sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DirError {
    /// Neither of the variables nor HOME names an absolute directory.
    NoPlace { variables: String },
    /// The system refused a step on it.
    Refused {
        path: std::path::PathBuf,
        step: DirStep,
        detail: String,
    },
    /// Something that is not a directory (a link, a file) is where it goes.
    NotADirectory { path: std::path::PathBuf },
    /// It belongs to another user; `instead` names the variable that would place it
    /// elsewhere.
    OtherUser {
        path: std::path::PathBuf,
        instead: String,
    },
}

/// What was being done to a private directory when the system refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DirStep {
    Create,
    Look,
    CloseToOthers,
}

impl fmt::Display for DirError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DirError::NoPlace { variables } => {
                write!(f, "neither {variables} nor HOME names a directory")
            }
            DirError::Refused { path, step, detail } => {
                let path = path.display();
                match step {
                    DirStep::Create => write!(f, "cannot create {path}: {detail}"),
                    DirStep::Look => write!(f, "cannot use {path}: {detail}"),
                    DirStep::CloseToOthers => {
                        write!(f, "cannot close {path} to others: {detail}")
                    }
                }
            }
            DirError::NotADirectory { path } => write!(
                f,
                "{} is not a directory (a link or a file is there); remove it",
                path.display()
            ),
            DirError::OtherUser { path, instead } => write!(
                f,
                "{} belongs to another user; remove it or set {instead}",
                path.display()
            ),
        }
    }
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

impl std::error::Error for WriteError {}

impl std::error::Error for DirError {}
