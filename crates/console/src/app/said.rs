//! What the runtime answers about the console's own I/O (a manifest written, a text copied),
//! kept typed until here, where the footer's sentence is made with the next step the error
//! calls for. Part of `update`.

use std::path::Path;

use crate::domain::error::{Unwritable, WriteError};

/// How a text was copied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopiedBy {
    /// The system's clipboard (arboard).
    System,
    /// The terminal's, through the OSC 52 escape (over SSH, tmux, screen).
    Terminal,
}

/// Why a text could not be copied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CopyError {
    /// Longer than terminals take through OSC 52 (they drop it silently).
    TooLong { kib: usize },
    /// The terminal did not take the escape.
    Terminal(String),
    /// The system clipboard (asked for by the settings file) refused.
    System(String),
}

/// The footer after `w` wrote (or could not write) the manifest.
pub fn written(path: &Path, result: Result<(), WriteError>) -> String {
    let error = match result {
        Ok(()) => return format!("the manifest is written to {}", path.display()),
        Err(error) => error,
    };
    let next = match &error.why {
        Unwritable::Directory
        | Unwritable::Link
        | Unwritable::Special { .. }
        | Unwritable::Unseen { .. }
        | Unwritable::NoName => "name a regular file or a new path with pooldeck new -o",
        Unwritable::NoDirectory { .. } | Unwritable::NoNewFile { .. } => {
            "create the directory, or name another with -o"
        }
        Unwritable::Refused {
            kind: std::io::ErrorKind::StorageFull,
            ..
        } => "free some space on that disk, or name a file on another with -o",
        Unwritable::Refused {
            kind: std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem,
            ..
        } => "name a path you may write with -o",
        Unwritable::Refused { .. } | Unwritable::NoRandom { .. } => "try again",
    };
    format!("the manifest could not be written: {error}; {next} (c copies it meanwhile)")
}

/// The footer when a draft could not be kept on disk, with what to do meanwhile.
pub fn not_kept(why: &crate::domain::draft::NotKept) -> String {
    use crate::domain::draft::NotKept;
    let next = match why {
        NotKept::Directory(crate::domain::error::DirError::NoPlace { .. }) => {
            "set XDG_STATE_HOME (or HOME) to a directory of yours for the next ones"
        }
        NotKept::Directory(_) => {
            "fix the drafts directory (XDG_STATE_HOME/pooldeck/drafts) for the next ones"
        }
        NotKept::Written(WriteError {
            why:
                Unwritable::Refused {
                    kind: std::io::ErrorKind::StorageFull,
                    ..
                },
            ..
        }) => "free some space on that disk",
        NotKept::Written(_) | NotKept::Removed(_) => "it is tried again at the next change",
    };
    format!(
        "the draft could not be kept on disk: {why}; {next} (c copies the manifest meanwhile, on \
         Review)"
    )
}

/// The footer after `c`.
pub fn copied(what: &str, result: Result<CopiedBy, CopyError>) -> String {
    match result {
        Ok(CopiedBy::System) => format!("copied {what} (system clipboard)"),
        Ok(CopiedBy::Terminal) => format!("copied {what} (OSC 52: the terminal's clipboard)"),
        Err(CopyError::TooLong { kib }) => format!(
            "cannot copy {what}: it is {kib} KiB, more than a terminal's clipboard takes; \
             the system clipboard takes more (clipboard: system in the settings file)"
        ),
        Err(CopyError::Terminal(why)) => {
            format!("cannot copy {what}: the terminal did not take it ({why})")
        }
        Err(CopyError::System(why)) => format!(
            "cannot copy {what}: the system clipboard refused ({why}); clipboard: osc52 in \
             the settings file copies through the terminal"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_failure_says_its_own_next_step() {
        let path = Path::new("/tmp/out.yaml");
        let error = |why| WriteError {
            path: path.to_owned(),
            why,
        };
        assert_eq!(
            written(path, Ok(())),
            "the manifest is written to /tmp/out.yaml"
        );
        let full = written(
            path,
            Err(error(Unwritable::Refused {
                kind: std::io::ErrorKind::StorageFull,
                detail: "No space left on device".into(),
            })),
        );
        assert!(
            full.contains("No space left") && full.contains("free some space"),
            "{full}"
        );
        let link = written(path, Err(error(Unwritable::Link)));
        assert!(
            link.contains("it is a link") && link.contains("regular file"),
            "{link}"
        );
        let long = copied("the manifest", Err(CopyError::TooLong { kib: 2048 }));
        assert!(
            long.contains("2048 KiB") && long.contains("clipboard: system"),
            "{long}"
        );
        assert_eq!(
            copied("llm-train", Ok(CopiedBy::Terminal)),
            "copied llm-train (OSC 52: the terminal's clipboard)"
        );
        use crate::domain::draft::NotKept;
        use crate::domain::error::DirError;
        let dir = not_kept(&NotKept::Directory(DirError::NotADirectory {
            path: "/home/o/.local/state/pooldeck/drafts".into(),
        }));
        assert!(
            dir.contains("drafts is not a directory (a link or a file is there)")
                && dir.contains("fix the drafts directory"),
            "{dir}"
        );
        let nowhere = not_kept(&NotKept::Directory(DirError::NoPlace {
            variables: "XDG_STATE_HOME".into(),
        }));
        assert!(
            nowhere.contains("neither XDG_STATE_HOME nor HOME names a directory")
                && nowhere.contains("set XDG_STATE_HOME (or HOME)"),
            "{nowhere}"
        );
        let full = not_kept(&NotKept::Written(error(Unwritable::Refused {
            kind: std::io::ErrorKind::StorageFull,
            detail: "No space left on device".into(),
        })));
        assert!(full.contains("free some space"), "{full}");
    }
}
