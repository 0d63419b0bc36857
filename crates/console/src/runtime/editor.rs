//! The user's editor on a file (`pooldeck edit`, the console's `E`): `KUBE_EDITOR`, then
//! `VISUAL`, then `EDITOR`, then `vi`, as kubectl chooses. The command is split on white space
//! and run directly, the file's path its last argument: no shell reads the path or the
//! editor's words. The file is written private (0600, in pooldeck's private edits directory)
//! before and read back, bounded, after.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// The editor's command words, and which variable named them.
pub fn command() -> (Vec<String>, &'static str) {
    for variable in ["KUBE_EDITOR", "VISUAL", "EDITOR"] {
        if let Some(value) = std::env::var_os(variable) {
            let words: Vec<String> = value
                .to_string_lossy()
                .split_whitespace()
                .map(str::to_owned)
                .collect();
            if !words.is_empty() {
                return (words, variable);
            }
        }
    }
    (vec!["vi".to_owned()], "the default")
}

/// What the editor opens for a pool: the edit an earlier session left in `path`, when it was
/// made on the pool as it is now (its version and uid); otherwise `fresh`. A kept edit made
/// on another version is moved aside to `PATH.stale` (replacing one there), never reopened
/// as if it were this version's: its replace would undo what changed since. The second part
/// says what happened to a kept edit, if there was one.
pub fn opened(path: &Path, fresh: String, live: &Value) -> (String, Option<String>) {
    let Ok(kept) = crate::files::read_text(path, crate::files::SMALL_FILE_BYTES) else {
        return (fresh, None);
    };
    if crate::domain::edit::made_on(&kept, live) {
        let said = format!(
            "reopened the edit kept at {} by an earlier session",
            path.display()
        );
        return (kept, Some(said));
    }
    let stale = stale_path(path);
    let said = match std::fs::rename(path, &stale) {
        Ok(()) => format!(
            "an edit kept at {} was made on another version of the pool (it changed since): \
             moved to {}; this edit starts from the pool as it is now",
            path.display(),
            stale.display()
        ),
        Err(e) => format!(
            "an edit kept at {} was made on another version of the pool and could not be \
             moved aside ({e}); this edit starts from the pool as it is now",
            path.display()
        ),
    };
    (fresh, Some(said))
}

fn stale_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".stale");
    path.with_file_name(name)
}

/// Writes `text` to `path` and starts the editor on it.
pub fn spawn(path: &Path, text: &str) -> Result<std::process::Child, String> {
    crate::files::write_private(path, text.as_bytes()).map_err(|e| e.to_string())?;
    let (words, named_by) = command();
    let Some((program, arguments)) = words.split_first() else {
        return Err("no editor".to_owned());
    };
    std::process::Command::new(program)
        .args(arguments)
        .arg(path)
        .spawn()
        .map_err(|e| {
            format!(
                "cannot run the editor {program} (from {named_by}): {e}; set KUBE_EDITOR, VISUAL \
                 or EDITOR"
            )
        })
}

/// Waits for the editor; what the file holds after. An editor that ends with a failure is an
/// error in words (the file stays).
pub fn finish(mut child: std::process::Child, path: &Path) -> Result<String, String> {
    let status = child.wait().map_err(|e| format!("lost the editor: {e}"))?;
    if !status.success() {
        return Err(format!(
            "the editor ended with {status}; nothing was sent, and the edit is kept at {}",
            path.display()
        ));
    }
    crate::files::read_text(path, crate::files::SMALL_FILE_BYTES)
        .map_err(|e| format!("cannot read the edit back from {}: {e}", path.display()))
}

/// [`spawn`] then [`finish`]: the editor on `text`, and what it saved.
pub fn edit(path: &Path, text: &str) -> Result<String, String> {
    finish(spawn(path, text)?, path)
}
