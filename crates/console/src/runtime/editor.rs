//! The user's editor on a file (`pooldeck edit`, the console's `E`): `KUBE_EDITOR`, then
//! `VISUAL`, then `EDITOR`, then `vi`, as kubectl chooses. The command is split on white space
//! and run directly, the file's path its last argument: no shell reads the path or the
//! editor's words. The file is written private (0600, in pooldeck's private edits directory)
//! before and read back, bounded, after.

use std::path::Path;

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

/// Writes `text` to `path`, runs the editor on it and waits; what the file holds after. An
/// editor that cannot start, or ends with a failure, is an error in words (the file stays).
pub fn edit(path: &Path, text: &str) -> Result<String, String> {
    crate::files::write_private(path, text.as_bytes()).map_err(|e| e.to_string())?;
    let (words, named_by) = command();
    let Some((program, arguments)) = words.split_first() else {
        return Err("no editor".to_owned());
    };
    let status = std::process::Command::new(program)
        .args(arguments)
        .arg(path)
        .status()
        .map_err(|e| {
            format!(
                "cannot run the editor {program} (from {named_by}): {e}; set KUBE_EDITOR, VISUAL \
                 or EDITOR"
            )
        })?;
    if !status.success() {
        return Err(format!(
            "the editor {program} ended with {status}; the edit is kept at {}",
            path.display()
        ));
    }
    crate::files::read_text(path, crate::files::SMALL_FILE_BYTES)
        .map_err(|e| format!("cannot read the edit back from {}: {e}", path.display()))
}
