//! The text being typed into a wizard field: a ratatui-textarea editor (cursor movement, word
//! and line deletion, undo, paste), one line for a plain field, several for the fields that
//! hold a list or a mapping (SSH keys, labels, taints). The editor's state is the app's; the
//! ui only draws it. Nothing here draws.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::{CursorMove, TextArea};

/// How much one field may hold: far more than any key or label set, small enough that a
/// runaway paste cannot grow the draft without bound.
pub const MAX_CHARS: usize = 64 * 1024;

#[derive(Clone, Debug)]
pub struct Editor {
    area: TextArea<'static>,
    multi_line: bool,
}

impl PartialEq for Editor {
    fn eq(&self, other: &Editor) -> bool {
        self.multi_line == other.multi_line
            && self.area.lines() == other.area.lines()
            && self.area.cursor() == other.area.cursor()
    }
}

impl Editor {
    /// An editor holding `text`, its cursor at the end.
    pub fn new(text: &str, multi_line: bool) -> Editor {
        let lines: Vec<String> = if multi_line {
            text.split('\n').map(str::to_owned).collect()
        } else {
            vec![text.replace('\n', " ")]
        };
        let mut area = TextArea::new(lines);
        area.move_cursor(CursorMove::Bottom);
        area.move_cursor(CursorMove::End);
        Editor { area, multi_line }
    }

    pub fn multi_line(&self) -> bool {
        self.multi_line
    }

    /// A key the wizard's bindings left to the editor. Enter makes a new line only in a
    /// multi-line field; a key that would pass the size limit is refused.
    pub fn key(&mut self, key: KeyEvent) {
        let newline = matches!(key.code, KeyCode::Enter)
            || (key.code == KeyCode::Char('m') && key.modifiers.contains(KeyModifiers::CONTROL));
        if newline && !self.multi_line {
            return;
        }
        // Readline's habits, not the text area's: Ctrl-U clears to the start of the line
        // (Ctrl-W a word, as the area does), and undo is Ctrl-Z.
        if key.modifiers == KeyModifiers::CONTROL {
            match key.code {
                KeyCode::Char('u') => {
                    self.area.delete_line_by_head();
                    return;
                }
                KeyCode::Char('z') => {
                    self.area.undo();
                    return;
                }
                _ => {}
            }
        }
        if matches!(key.code, KeyCode::Char(_) | KeyCode::Enter) && self.len() >= MAX_CHARS {
            return;
        }
        self.area.input(key);
    }

    /// Text pasted at the cursor (a bracketed paste): line breaks become spaces in a
    /// one-line field; what passes the size limit is cut off.
    pub fn paste(&mut self, text: &str) {
        let text = text.replace("\r\n", "\n").replace('\r', "\n");
        let text = if self.multi_line {
            text
        } else {
            text.replace('\n', " ")
        };
        // Terminal controls in a paste (escapes, bidi overrides) are no text of a manifest.
        let text: String = text
            .chars()
            .filter(|c| *c == '\n' || !crate::domain::inert::foreign_to_a_cell(*c))
            .collect();
        let room = MAX_CHARS.saturating_sub(self.len());
        let text: String = text.chars().take(room).collect();
        self.area.insert_str(text);
    }

    fn len(&self) -> usize {
        self.area
            .lines()
            .iter()
            .map(|l| l.chars().count() + 1)
            .sum()
    }

    /// What is typed, lines joined with `\n`.
    pub fn text(&self) -> String {
        self.area.lines().join("\n")
    }

    pub fn lines(&self) -> &[String] {
        self.area.lines()
    }

    /// The cursor: (line, character).
    pub fn cursor(&self) -> (usize, usize) {
        let at = self.area.cursor();
        (at.0, at.1)
    }

    /// Whether nothing is typed.
    pub fn is_empty(&self) -> bool {
        self.area.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn a_one_line_field_ignores_enter_and_flattens_a_paste() {
        let mut editor = Editor::new("10.0.0", false);
        editor.key(key(KeyCode::Enter));
        editor.key(key(KeyCode::Char('.')));
        editor.paste("1\n");
        assert_eq!(editor.text(), "10.0.0.1 ");
        assert_eq!(editor.lines().len(), 1);
    }

    #[test]
    fn a_multi_line_field_takes_new_lines_and_edits_in_the_middle() {
        let mut editor = Editor::new("ssh-ed25519 AAAA one", true);
        editor.key(key(KeyCode::Enter));
        editor.paste("ssh-rsa BBBB two\r\nssh-ed25519 CCCC three");
        assert_eq!(editor.lines().len(), 3);
        editor.key(key(KeyCode::Up));
        editor.key(key(KeyCode::Home));
        editor.key(key(KeyCode::Delete));
        assert_eq!(
            editor.text(),
            "ssh-ed25519 AAAA one\nsh-rsa BBBB two\nssh-ed25519 CCCC three"
        );
        editor.key(KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL));
        assert!(
            editor.text().contains("ssh-rsa BBBB two"),
            "undo puts it back"
        );
    }

    #[test]
    fn ctrl_u_clears_to_the_start_and_ctrl_w_a_word_as_readline_does() {
        let control = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL);
        let mut editor = Editor::new("NVIDIA H100 PCIe", false);
        editor.key(key(KeyCode::End));
        editor.key(control('w'));
        assert_eq!(editor.text(), "NVIDIA H100 ");
        editor.key(key(KeyCode::Left));
        editor.key(control('u'));
        assert_eq!(editor.text(), " ", "the text before the cursor goes");
        editor.key(control('z'));
        assert_eq!(editor.text(), "NVIDIA H100 ", "Ctrl-Z undoes it");
    }

    #[test]
    fn a_paste_leaves_terminal_controls_out() {
        let mut editor = Editor::new("", false);
        editor.paste("in\u{1b}]0;pwned\u{7}fer\u{202e}ence");
        assert_eq!(editor.text(), "in]0;pwnedference");
    }

    #[test]
    fn a_runaway_paste_stops_at_the_limit() {
        let mut editor = Editor::new("", true);
        editor.paste(&"x".repeat(MAX_CHARS * 3));
        assert!(editor.text().len() <= MAX_CHARS);
        let before = editor.text();
        editor.key(key(KeyCode::Char('y')));
        assert_eq!(editor.text(), before, "typing past the limit is refused");
    }
}
