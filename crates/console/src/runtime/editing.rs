//! The terminal handed to the user's editor between frames, and taken back when it ends.

use std::time::Duration;

use super::HANGUP;
use super::editor;
use super::input::{Input, Keys};
use super::terminal::{Asked, Screen, Signals};
use tokio::sync::mpsc::Receiver;

use super::port::Tagged;
use crate::app::Msg;

/// What the editor is given: the edit's file name, its text, and with `resume` the pool as
/// read.
pub(super) struct Editing<'a> {
    pub file: &'a str,
    pub text: String,
    pub resume: Option<serde_json::Value>,
}

/// The watches' queue, and what to do with what comes while the editor runs (with the
/// queue, to take what is waiting behind it).
pub(super) type Watches<'a> = (
    &'a mut Receiver<Tagged>,
    &'a mut dyn FnMut(Tagged, &mut Receiver<Tagged>),
);

/// Gives the terminal to the user's editor on an edit kept in pooldeck's edits directory (with
/// `resume`, the pool as read: an edit an earlier session left, made on that version, is
/// opened instead), the key reader paused meanwhile so that no keystroke of the editor's is
/// read here; the answer for `update`, and the signal that asked the console to end meanwhile
/// (a terminal gone ends it as a hangup). While the editor runs, signals are the editor's: a
/// Ctrl-C is its own; a Ctrl-Z in it stops the console too (the shell's job is both; `fg`
/// continues both); a termination is passed on to it, and the console ends once it has. An
/// error: the terminal could not be taken back.
pub(super) async fn in_editor(
    screen: &mut Screen,
    keys: &mut Keys,
    stop: &mut Signals,
    watches: Watches<'_>,
    editing: Editing<'_>,
) -> std::io::Result<(Msg, Option<i32>)> {
    let Editing { file, text, resume } = editing;
    let path = match crate::drafts::edits_dir() {
        Ok(dir) => dir.join(file),
        Err(e) => {
            let msg = Msg::Edited {
                path: std::path::PathBuf::from(file),
                said: None,
                result: Err(editor::EditorError::NoPlace(e)),
            };
            return Ok((msg, None));
        }
    };
    let (text, said) = match &resume {
        Some(live) => editor::opened(&path, text, live),
        None => (text, None),
    };
    // The key reader stops before the editor starts (what it read before is dropped while the
    // editor runs: keys typed at a console that was opening the editor).
    keys.pause().await;
    screen.pause();
    // Held while the editor is open: another edit of this pool is refused meanwhile.
    let locked = editor::Lock::take(&path);
    let child = match locked
        .as_ref()
        .map_err(Clone::clone)
        .and_then(|_| editor::spawn(&path, &text))
    {
        Ok(child) => child,
        Err(why) => {
            screen.resume()?;
            keys.resume();
            let msg = Msg::Edited {
                path,
                said,
                result: Err(why),
            };
            return Ok((msg, None));
        }
    };
    let at = path.clone();
    let editor_pid = child.id();
    let waiting = tokio::task::spawn_blocking(move || editor::finish(child, &at));
    // The watches go on meanwhile: a long edit is no stall (nor a list again after it).
    let editor = wait_for_editor(waiting, editor_pid, keys, stop);
    let (result, ended) = watching(editor, watches).await;
    if ended.is_none() {
        // What was typed into a terminal the editor no longer read (while it closed) is
        // dropped, not taken as the console's keys (a `q` would end it).
        #[cfg(unix)]
        let _ = rustix::termios::tcflush(
            rustix::stdio::stdin(),
            rustix::termios::QueueSelector::IFlush,
        );
        screen.resume()?;
        keys.resume();
    }
    Ok((Msg::Edited { path, said, result }, ended))
}

/// Waits for the editor to end, keeping the console's signals and the terminal watched:
/// what it saved (or why not), and the signal that asked the console to end meanwhile.
async fn wait_for_editor(
    mut waiting: tokio::task::JoinHandle<Result<String, editor::EditorError>>,
    editor_pid: u32,
    keys: &mut Keys,
    stop: &mut Signals,
) -> (Result<String, editor::EditorError>, Option<i32>) {
    let mut ended = None;
    // Once the console is asked to end, the editor has a moment to end first.
    let mut given_up = std::pin::pin!(futures::future::Fuse::<tokio::time::Sleep>::terminated());
    let result = loop {
        tokio::select! {
            done = &mut waiting => {
                break done.unwrap_or_else(|e| Err(editor::EditorError::Lost(e.to_string())));
            }
            () = &mut given_up => {
                break Err(editor::EditorError::ConsoleEnded);
            }
            // Keys typed before the editor opened and not read yet are dropped; the terminal
            // gone ends the editor with the console, the edit's file kept.
            input = keys.next(), if ended.is_none() => {
                if let Input::Gone = input {
                    stop_editor(editor_pid);
                    ended = Some(HANGUP);
                    given_up.set(futures::FutureExt::fuse(tokio::time::sleep(EDITOR_GRACE)));
                }
            }
            signal = stop.next() => match signal {
                // Ctrl-Z in the editor stopped it; the console stops with it, so the shell
                // sees its job stopped (a console left running would hold the terminal with
                // nothing reading it).
                Asked::Suspend => {
                    #[cfg(unix)]
                    let _ = rustix::process::kill_process(
                        rustix::process::getpid(),
                        rustix::process::Signal::STOP,
                    );
                }
                // Ctrl-C in the editor was the editor's; a resize is drawn after it.
                Asked::End(2) | Asked::Resized => {}
                Asked::End(signal) => {
                    stop_editor(editor_pid);
                    ended = Some(signal);
                    given_up.set(futures::FutureExt::fuse(tokio::time::sleep(EDITOR_GRACE)));
                }
            },
        }
    };
    (result, ended)
}

/// Waits for `until`, handing what the watches bring meanwhile to the caller's function.
async fn watching<T>(until: impl Future<Output = T>, (sources, watched): Watches<'_>) -> T {
    let mut until = std::pin::pin!(until);
    loop {
        tokio::select! {
            done = &mut until => return done,
            Some(tagged) = sources.recv() => watched(tagged, sources),
        }
    }
}

/// How long an editor asked to end (the console is ending) is waited for.
pub(super) const EDITOR_GRACE: Duration = Duration::from_millis(300);

/// Asks the editor to end (the console is ending; its file stays).
fn stop_editor(pid: u32) {
    #[cfg(unix)]
    if let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process(pid, rustix::process::Signal::TERM);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inventory::SourceEvent;
    use crate::sources::watch::Tag;

    /// What the watches bring while the editor is open is handed on at once, not held until
    /// the editor ends (the editor here ends only once three events were handed on).
    #[tokio::test]
    async fn what_the_watches_bring_is_handed_on_while_waiting() {
        let (sink, mut sources) = tokio::sync::mpsc::channel(8);
        for _ in 0..3 {
            let heartbeat = SourceEvent::Heartbeat { result: Ok(()) };
            sink.send((Tag { epoch: 1, hub: 0 }, heartbeat))
                .await
                .expect("queued");
        }
        let (ended, editor) = tokio::sync::oneshot::channel();
        let mut ended = Some(ended);
        let mut seen = 0;
        let mut watched = |_: Tagged, _: &mut Receiver<Tagged>| {
            seen += 1;
            if seen == 3 {
                ended.take().map(|e| e.send("saved"));
            }
        };
        let waited = tokio::time::timeout(
            std::time::Duration::from_secs(10),
            watching(editor, (&mut sources, &mut watched)),
        )
        .await;
        assert_eq!(
            waited.expect("the editor ended").expect("answered"),
            "saved"
        );
        assert_eq!(seen, 3);
    }
}
