//! Copying for `c`: the system clipboard where there is one (arboard), and otherwise the
//! terminal's own clipboard through the OSC 52 escape, which reaches the operator's machine
//! over SSH and passes through tmux (with `set-clipboard on`) and screen. Over SSH OSC 52 comes
//! first: a clipboard on the jump host is of no use to the person at the keyboard. The
//! settings file may choose one (`clipboard: osc52` or `system`).

use std::io::Write;

use base64::Engine as _;

use crate::app::said::{CopiedBy, CopyError};
use crate::settings::Clipboard as Choice;

/// The most OSC 52 carries: terminals drop longer sequences silently, so a longer text is
/// refused with a sentence instead.
const OSC52_LIMIT: usize = 1024 * 1024;

/// The clipboards the console may use; the system one is opened on first use and kept, as
/// on X11 the copied text lives only as long as its owner.
pub struct Clipboards {
    choice: Choice,
    system: Option<arboard::Clipboard>,
}

fn over_ssh() -> bool {
    ["SSH_TTY", "SSH_CONNECTION", "SSH_CLIENT"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|v| !v.is_empty()))
}

/// The OSC 52 sequence for `text`, wrapped for GNU screen when inside it (tmux takes the plain
/// sequence when its set-clipboard option is on).
pub fn osc52(text: &str) -> Result<Vec<u8>, CopyError> {
    let encoded = base64::engine::general_purpose::STANDARD.encode(text);
    if encoded.len() > OSC52_LIMIT {
        return Err(CopyError::TooLong {
            kib: text.len() / 1024,
        });
    }
    let sequence = format!("\x1b]52;c;{encoded}\x07");
    let in_screen = std::env::var_os("TMUX").is_none()
        && std::env::var("TERM").is_ok_and(|t| t.starts_with("screen"));
    Ok(if in_screen {
        format!("\x1bP{sequence}\x1b\\").into_bytes()
    } else {
        sequence.into_bytes()
    })
}

impl Clipboards {
    pub fn new(choice: Choice) -> Clipboards {
        Clipboards {
            choice,
            system: None,
        }
    }

    fn system(&mut self, text: &str) -> Result<(), arboard::Error> {
        let clipboard = match &mut self.system {
            Some(clipboard) => clipboard,
            empty => empty.insert(arboard::Clipboard::new()?),
        };
        clipboard.set_text(text)
    }

    /// Copies `text` as the console shows it (inert: a control, a bidirectional or invisible
    /// character is escaped, so a paste cannot end a shell's bracketed paste or reorder what
    /// was read); says how, or why it could not. `terminal` receives OSC 52.
    pub fn copy(&mut self, text: &str, terminal: &mut impl Write) -> Result<CopiedBy, CopyError> {
        let text = &*crate::domain::inert::text(text);
        let system_first = match self.choice {
            Choice::System => true,
            Choice::Osc52 => false,
            Choice::Auto => !over_ssh(),
        };
        if system_first {
            match self.system(text) {
                Ok(()) => return Ok(CopiedBy::System),
                Err(e) if self.choice == Choice::System => {
                    return Err(CopyError::System(e.to_string()));
                }
                Err(_) => {}
            }
        }
        let sequence = osc52(text)?;
        terminal
            .write_all(&sequence)
            .and_then(|()| terminal.flush())
            .map_err(|e| CopyError::Terminal(e.to_string()))?;
        Ok(CopiedBy::Terminal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What is copied is what is shown: an event message carrying the end of a bracketed
    /// paste and a line break, a title, a C1 control, a carriage return, a right-to-left
    /// override and a zero-width space reaches the clipboard escaped, by either way (the
    /// text is made inert before the system clipboard or OSC 52 is tried).
    #[test]
    fn a_hostile_message_is_copied_as_it_is_shown() {
        use base64::Engine as _;
        let message =
            "pull failed\u{1b}[201~\nrm -rf ~\u{1b}]0;T\u{7} \u{9b}2J\r \u{202e}txt.exe \u{200b}x";
        let mut clipboards = Clipboards::new(Choice::Osc52);
        let mut terminal = Vec::new();
        let how = clipboards.copy(message, &mut terminal).expect("copied");
        assert_eq!(how, CopiedBy::Terminal);
        let sent = String::from_utf8(terminal).expect("ascii");
        let encoded = sent
            .strip_prefix("\u{1b}]52;c;")
            .and_then(|s| s.strip_suffix('\u{7}'))
            .expect("one OSC 52 sequence");
        let copied = String::from_utf8(
            base64::engine::general_purpose::STANDARD
                .decode(encoded)
                .expect("base64"),
        )
        .expect("text");
        assert_eq!(copied, crate::domain::inert::text(message));
        for hostile in ['\u{1b}', '\u{7}', '\u{9b}', '\r', '\u{202e}', '\u{200b}'] {
            assert!(!copied.contains(hostile), "{hostile:?} in {copied:?}");
        }
        assert!(
            copied.contains("\\x1b[201~\nrm"),
            "shown escaped, the line kept: {copied}"
        );
    }

    #[test]
    fn the_sequence_carries_the_text_in_base64() {
        let bytes = osc52("store-042").expect("short text");
        let text = String::from_utf8(bytes).expect("ascii");
        assert!(text.contains("]52;c;c3RvcmUtMDQy"), "{text:?}");
        assert!(
            osc52(&"x".repeat(OSC52_LIMIT)).is_err(),
            "too long is refused"
        );
    }
}
