//! The user's editor on a file (`pooldeck edit`, the console's `E`): `KUBE_EDITOR`, then
//! `VISUAL`, then `EDITOR`, then `vi`, as kubectl chooses. The command is split on white space
//! and run directly, the file's path its last argument: no shell reads the path or the
//! editor's words. The file is written private (0600, in pooldeck's private edits directory)
//! before and read back, bounded, after.

use std::path::{Path, PathBuf};

use serde_json::Value;

pub use crate::app::failed::EditorError;

/// The words of an editor's command: split on white space outside quotes, as a shell would
/// split `'/opt/my editor/bin/ed' -w` (single and double quotes group, a backslash takes the
/// next character), and nothing else a shell would do.
fn words(command: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut started = false;
    let mut quote: Option<char> = None;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                started = true;
            }
            (None, '\\') => {
                if let Some(next) = chars.next() {
                    word.push(next);
                }
                started = true;
            }
            (None, c) if c.is_whitespace() => {
                if started {
                    out.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            (None, c) => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        out.push(word);
    }
    out
}

/// The editor's command words, and which variable named them.
pub fn command() -> (Vec<String>, &'static str) {
    for variable in ["KUBE_EDITOR", "VISUAL", "EDITOR"] {
        if let Some(value) = std::env::var_os(variable) {
            let words = words(&value.to_string_lossy());
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
    // Only a file of pooldeck's own is read back: a link planted there is not followed (the
    // write that follows replaces it).
    let regular = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_file());
    if !regular {
        return (fresh, None);
    }
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

/// Another pooldeck's edit of the same pool (its editor open on the same file), if any: the
/// lock file beside the edit names its process, and a lock whose process is gone is stale.
fn held_by_another(lock: &Path) -> Option<u32> {
    let pid: u32 = std::fs::read_to_string(lock).ok()?.trim().parse().ok()?;
    if pid == std::process::id() {
        return None;
    }
    #[cfg(unix)]
    {
        let alive = i32::try_from(pid)
            .ok()
            .and_then(rustix::process::Pid::from_raw)
            .is_some_and(|p| rustix::process::test_kill_process(p).is_ok());
        alive.then_some(pid)
    }
    #[cfg(not(unix))]
    Some(pid)
}

/// The lock beside an edit's file while its editor is open: another `edit` (or `E`) of the
/// same pool on the same hub is refused meanwhile rather than opening the same file.
pub struct Lock(PathBuf);

impl Lock {
    pub fn take(path: &Path) -> Result<Lock, EditorError> {
        let mut name = path.file_name().unwrap_or_default().to_os_string();
        name.push(".lock");
        let lock = path.with_file_name(name);
        if let Some(pid) = held_by_another(&lock) {
            return Err(EditorError::Locked {
                pid,
                path: path.to_owned(),
            });
        }
        crate::files::write_private(&lock, std::process::id().to_string().as_bytes())
            .map_err(EditorError::Unlockable)?;
        Ok(Lock(lock))
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Writes `text` to `path` and starts the editor on it.
pub fn spawn(path: &Path, text: &str) -> Result<std::process::Child, EditorError> {
    crate::files::write_private(path, text.as_bytes()).map_err(EditorError::Unwritten)?;
    let (words, named_by) = command();
    let Some((program, arguments)) = words.split_first() else {
        return Err(EditorError::NoEditor);
    };
    std::process::Command::new(program)
        .args(arguments)
        .arg(path)
        .spawn()
        .map_err(|e| EditorError::Unrunnable {
            program: program.clone(),
            named_by,
            detail: e.to_string(),
        })
}

/// Waits for the editor; what the file holds after. An editor that ends with a failure is an
/// error in words (the file stays).
pub fn finish(mut child: std::process::Child, path: &Path) -> Result<String, EditorError> {
    let status = child.wait().map_err(|e| EditorError::Lost(e.to_string()))?;
    if !status.success() {
        return Err(EditorError::Failed {
            status,
            path: path.to_owned(),
        });
    }
    crate::files::read_text(path, crate::files::SMALL_FILE_BYTES).map_err(|why| {
        EditorError::Unreadable {
            why,
            path: path.to_owned(),
        }
    })
}

/// How an edit in the user's editor ended, when it did not end with what it saved.
#[derive(Debug)]
pub enum Unsaved {
    /// The editor could not run or failed.
    Failed(EditorError),
    /// pooldeck was asked to end (this signal: a hangup, its terminal gone, a termination)
    /// while the editor ran; the editor was asked to end too, the edit's file kept.
    Ended(i32),
}

/// [`spawn`] then [`finish`], the edit locked meanwhile: the editor on `text`, and what it
/// saved. A hangup, a termination or the terminal gone while it runs end it and pooldeck's
/// wait (the lock is released, the file kept); Ctrl-C is the editor's own.
pub async fn edit(path: &Path, text: &str) -> Result<String, Unsaved> {
    use tokio::signal::unix::{SignalKind, signal};
    let _lock = Lock::take(path).map_err(Unsaved::Failed)?;
    // The terminal as it was, put back if the editor is stopped before it could do so.
    let settings = rustix::termios::tcgetattr(rustix::stdio::stdin()).ok();
    let child = spawn(path, text).map_err(Unsaved::Failed)?;
    let pid = child.id();
    let at = path.to_path_buf();
    let mut waiting = tokio::task::spawn_blocking(move || finish(child, &at));
    let mut hangup = signal(SignalKind::hangup()).ok();
    let mut terminate = signal(SignalKind::terminate()).ok();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let gone = tokio::task::spawn_blocking(move || terminal_gone_or(stopped));
    let ended = tokio::select! {
        done = &mut waiting => {
            let _ = stop.send(());
            return done.unwrap_or_else(|e| Err(EditorError::Lost(e.to_string())))
                .map_err(Unsaved::Failed);
        }
        Some(()) = async { hangup.as_mut()?.recv().await } => 1,
        Some(()) = async { terminate.as_mut()?.recv().await } => 15,
        Ok(true) = gone => 1,
    };
    let _ = stop.send(());
    #[cfg(unix)]
    if let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process(pid, rustix::process::Signal::TERM);
    }
    let _ = tokio::time::timeout(std::time::Duration::from_secs(1), waiting).await;
    if let Some(settings) = &settings {
        let _ = rustix::termios::tcsetattr(
            rustix::stdio::stdin(),
            rustix::termios::OptionalActions::Now,
            settings,
        );
    }
    Err(Unsaved::Ended(ended))
}

/// Waits until standard input, a terminal, is gone (true), or until told to stop (false).
/// Nothing is read: the keys are the editor's.
fn terminal_gone_or(mut stop: tokio::sync::oneshot::Receiver<()>) -> bool {
    use rustix::event::{PollFd, PollFlags};
    use std::io::IsTerminal;
    if !std::io::stdin().is_terminal() {
        return false;
    }
    let tty = rustix::stdio::stdin();
    let every = rustix::event::Timespec {
        tv_sec: 0,
        tv_nsec: 200_000_000,
    };
    loop {
        if !matches!(
            stop.try_recv(),
            Err(tokio::sync::oneshot::error::TryRecvError::Empty)
        ) {
            return false;
        }
        let mut fds = [PollFd::new(&tty, PollFlags::empty())];
        if rustix::event::poll(&mut fds, Some(&every)).is_ok()
            && fds[0]
                .revents()
                .intersects(PollFlags::HUP | PollFlags::ERR | PollFlags::NVAL)
        {
            return true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::words;

    #[test]
    fn editor_commands_split_as_a_shell_splits_words_and_nothing_more() {
        assert_eq!(words("vim"), ["vim"]);
        assert_eq!(words("code -w"), ["code", "-w"]);
        assert_eq!(
            words("'/tmp/dir with space/ed.sh' --flag"),
            ["/tmp/dir with space/ed.sh", "--flag"]
        );
        assert_eq!(words(r#""a b"c d\ e"#), ["a bc", "d e"]);
        // Nothing a shell would run: words, as they are.
        assert_eq!(words("ed; rm -rf $(x)"), ["ed;", "rm", "-rf", "$(x)"]);
        assert!(words("   ").is_empty());
    }
}
