//! Why an effect the app asked for could not be carried out: the errors its answers
//! ([`super::Msg`]) carry, said in the operator's words on the footer.

use std::path::PathBuf;

/// Why an edit in the editor gave nothing to read back; the edit's file stays where it is.
#[derive(Clone, Debug, thiserror::Error)]
pub enum EditorError {
    #[error("the edit cannot be kept anywhere: {0}")]
    NoPlace(crate::domain::error::DirError),
    #[error(
        "this pool is being edited already (by process {pid}, in {}); finish that edit first",
        path.display()
    )]
    Locked { pid: u32, path: PathBuf },
    #[error("cannot lock the edit: {0}")]
    Unlockable(crate::domain::error::WriteError),
    #[error(transparent)]
    Unwritten(crate::domain::error::WriteError),
    #[error("no editor")]
    NoEditor,
    #[error(
        "cannot run the editor {program} (from {named_by}): {detail}; set KUBE_EDITOR, VISUAL or EDITOR"
    )]
    Unrunnable {
        program: String,
        named_by: &'static str,
        detail: String,
    },
    #[error("lost the editor: {0}")]
    Lost(String),
    #[error(
        "the editor ended with {status}; nothing was sent, and the edit is kept at {}",
        path.display()
    )]
    Failed {
        status: std::process::ExitStatus,
        path: PathBuf,
    },
    #[error(
        "cannot read the edit back ({why}): nothing was sent; it is kept at {}",
        path.display()
    )]
    Unreadable {
        why: crate::domain::error::ReadError,
        path: PathBuf,
    },
    #[error("the console ended while the editor was open")]
    ConsoleEnded,
}

/// Why the demo's story could not start again, or another be played (`:reset`, the tour).
#[derive(Debug, thiserror::Error)]
pub enum StoryError {
    #[error("the console is not on the demo cluster")]
    NoDemo,
    /// The demo could not load the story (the demo's own error, kept whole).
    #[error(transparent)]
    Demo(Box<dyn std::error::Error + Send + Sync>),
}

/// Why the tour's progress could not be kept.
#[derive(Debug, thiserror::Error)]
pub enum TourNotSaved {
    #[error(transparent)]
    Directory(#[from] crate::domain::error::DirError),
    #[error(transparent)]
    Written(#[from] crate::domain::error::WriteError),
}
