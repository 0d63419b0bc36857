//! Text from a cluster or a file made inert before any terminal sees it: the one sanitiser
//! every text boundary uses (console cells, the detail views, dialogs, the log view, the text
//! of `get`, `doctor` and `validate`). A terminal acts on control characters and escape
//! sequences (a title set by OSC 0, the clipboard written by OSC 52, the screen cleared by
//! CSI 2J) and reorders text around bidirectional controls (U+202E makes `txt.exe` read
//! `exe.txt`). Here none of them survives: each such character is shown escaped
//! (`\x1b`, `\u{202e}`), so what a hostile object carries is visible and does nothing. JSON
//! and YAML escape the C0 controls themselves; what they leave raw is escaped here in their
//! own syntax ([`json`], [`write_json`], [`yaml`]).

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether a character would be acted on by a terminal, reorder the text around it, or hide
/// in it: C0 (but tab and newline are a line's own business), DEL, C1, the bidirectional
/// embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), the other direction
/// marks and line or paragraph separators that change how a line is laid out, and the
/// invisible characters that make two different texts look the same (zero-width space, word
/// joiner and invisible operators, BOM, soft hyphen, interlinear annotations, tag
/// characters). The joiners scripts and emoji need (U+200C, U+200D) stay.
fn acts(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}'
        | '\u{200e}' | '\u{200f}' | '\u{2028}' | '\u{2029}'
        | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{61c}'
        | '\u{ad}' | '\u{180e}' | '\u{200b}' | '\u{2060}'..='\u{2064}' | '\u{feff}'
        | '\u{fff9}'..='\u{fffb}' | '\u{e0001}' | '\u{e0020}'..='\u{e007f}'
    )
}

/// A character as JSON's `\uXXXX` escape (a pair of them beyond the Basic Multilingual
/// Plane, as JSON writes those).
fn json_escape(c: char, out: &mut impl std::fmt::Write) -> std::fmt::Result {
    let mut units = [0u16; 2];
    for unit in c.encode_utf16(&mut units) {
        write!(out, "\\u{unit:04x}")?;
    }
    Ok(())
}

fn escape(c: char, out: &mut String) {
    let code = u32::from(c);
    if code < 0x100 {
        let _ = write!(out, "\\x{code:02x}");
    } else {
        let _ = write!(out, "\\u{{{code:x}}}");
    }
}

/// Text for many lines (a detail view, a log, a message printed whole): tab and newline are
/// kept, a carriage return and every other character a terminal acts on is shown escaped.
pub fn text(raw: &str) -> Cow<'_, str> {
    if !raw.chars().any(|c| c == '\r' || acts(c)) {
        return Cow::Borrowed(raw);
    }
    let mut out = String::with_capacity(raw.len().saturating_add(8));
    for c in raw.chars() {
        if c == '\r' || acts(c) {
            escape(c, &mut out);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Text for one line (a table cell, a header, the footer): as [`text`], and a line break or
/// tab becomes a space so the line stays one line.
pub fn line(raw: &str) -> Cow<'_, str> {
    // Printable ASCII, most of what a cluster names, is read a byte at a time.
    if raw.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return Cow::Borrowed(raw);
    }
    if !raw
        .chars()
        .any(|c| matches!(c, '\n' | '\t' | '\r') || acts(c))
    {
        return Cow::Borrowed(raw);
    }
    let mut out = String::with_capacity(raw.len().saturating_add(8));
    for c in raw.chars() {
        match c {
            '\n' | '\t' => out.push(' '),
            c if c == '\r' || acts(c) => escape(c, &mut out),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// JSON as serde_json writes it (its C0 controls escaped) as a terminal may see it: the same
/// JSON to a parser, with every character a terminal acts on that JSON leaves raw (DEL, C1,
/// the bidirectional controls, the line and paragraph separators) written as a `\uXXXX`
/// escape. JSON's own text outside strings is ASCII, so
/// any such character stands inside a string, where the escape means the same character.
pub fn json(text: &str) -> Cow<'_, str> {
    // Every character JSON leaves raw that a terminal acts on is DEL or beyond ASCII.
    if text.bytes().all(|b| b < 0x7f) || !text.chars().any(|c| c != '\r' && acts(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len().saturating_add(16));
    for c in text.chars() {
        if c != '\r' && acts(c) {
            let _ = json_escape(c, &mut out);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Writes `value` as pretty JSON (two spaces a level) nested `depth` levels deep, as
/// [`json`] would leave it: the same text as `to_string_pretty` with every line after the
/// first indented by `depth` levels, and each character a terminal acts on inside a string
/// written as a `\uXXXX` escape. Written straight to `out`, with nothing held between.
pub fn write_json<W, T>(out: &mut W, value: &T, depth: usize) -> std::io::Result<()>
where
    W: std::io::Write,
    T: serde::Serialize + ?Sized,
{
    let mut serializer = serde_json::Serializer::with_formatter(
        out,
        Pretty {
            depth,
            has_value: false,
        },
    );
    // serde_json's own conversion hands back the write's error as it was (a closed pipe
    // stays a closed pipe, which `get … | head` ends on quietly).
    value
        .serialize(&mut serializer)
        .map_err(std::io::Error::from)
}

/// The formatter of [`write_json`].
struct Pretty {
    depth: usize,
    has_value: bool,
}

impl Pretty {
    fn line<W: std::io::Write + ?Sized>(&self, out: &mut W, first: bool) -> std::io::Result<()> {
        const SPACES: &[u8] = &[b' '; 64];
        out.write_all(if first { b"\n" } else { b",\n" })?;
        let mut left = self.depth.saturating_mul(2);
        while left > 0 {
            let now = left.min(SPACES.len());
            out.write_all(&SPACES[..now])?;
            left = left.saturating_sub(now);
        }
        Ok(())
    }

    fn close<W: std::io::Write + ?Sized>(
        &mut self,
        out: &mut W,
        end: &[u8],
    ) -> std::io::Result<()> {
        self.depth = self.depth.saturating_sub(1);
        if self.has_value {
            self.line(out, true)?;
        }
        out.write_all(end)
    }
}

impl serde_json::ser::Formatter for Pretty {
    fn begin_array<W: std::io::Write + ?Sized>(&mut self, out: &mut W) -> std::io::Result<()> {
        self.depth = self.depth.saturating_add(1);
        self.has_value = false;
        out.write_all(b"[")
    }

    fn end_array<W: std::io::Write + ?Sized>(&mut self, out: &mut W) -> std::io::Result<()> {
        self.close(out, b"]")
    }

    fn begin_array_value<W: std::io::Write + ?Sized>(
        &mut self,
        out: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.line(out, first)
    }

    fn end_array_value<W: std::io::Write + ?Sized>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: std::io::Write + ?Sized>(&mut self, out: &mut W) -> std::io::Result<()> {
        self.depth = self.depth.saturating_add(1);
        self.has_value = false;
        out.write_all(b"{")
    }

    fn end_object<W: std::io::Write + ?Sized>(&mut self, out: &mut W) -> std::io::Result<()> {
        self.close(out, b"}")
    }

    fn begin_object_key<W: std::io::Write + ?Sized>(
        &mut self,
        out: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.line(out, first)
    }

    fn begin_object_value<W: std::io::Write + ?Sized>(
        &mut self,
        out: &mut W,
    ) -> std::io::Result<()> {
        out.write_all(b": ")
    }

    fn end_object_value<W: std::io::Write + ?Sized>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    /// A run of a string that JSON writes raw: what a terminal acts on in it is escaped.
    fn write_string_fragment<W: std::io::Write + ?Sized>(
        &mut self,
        out: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        if fragment.bytes().all(|b| b < 0x7f) {
            return out.write_all(fragment.as_bytes());
        }
        let mut rest = fragment;
        while let Some((at, c)) = rest.char_indices().find(|(_, c)| acts(*c)) {
            out.write_all(&rest.as_bytes()[..at])?;
            let mut escaped = String::new();
            let _ = json_escape(c, &mut escaped);
            out.write_all(escaped.as_bytes())?;
            rest = &rest[at.saturating_add(c.len_utf8())..];
        }
        out.write_all(rest.as_bytes())
    }
}

/// The character that stands for one YAML cannot write escaped in every style: it is one
/// YAML always escapes (a noncharacter), so a string holding it is double-quoted, where an
/// escape can be written.
const MARK: char = '\u{ffff}';

/// YAML as a terminal may see it, for a value: the same YAML to a parser, with every
/// character a terminal acts on that the serialiser would write raw (the bidirectional
/// controls) written as a `\uXXXX` escape. Such a string is double-quoted for it.
pub fn yaml(value: &serde_json::Value) -> Result<String, serde_saphyr::SerializeError> {
    fn needs(value: &serde_json::Value) -> bool {
        match value {
            serde_json::Value::String(s) => s.chars().any(|c| c == MARK || acts(c)),
            serde_json::Value::Array(items) => items.iter().any(needs),
            serde_json::Value::Object(map) => map
                .iter()
                .any(|(k, v)| k.chars().any(|c| c == MARK || acts(c)) || needs(v)),
            _ => false,
        }
    }
    fn marked(text: &str) -> String {
        let mut out = String::with_capacity(text.len().saturating_add(16));
        for c in text.chars() {
            // A backslash too: written as its escape, no text of the value can read as a
            // mark's escape (`\uFFFF…\uFFFF` written literally in a plain scalar).
            if c == MARK || c == '\\' || (acts(c) && !c.is_control()) {
                let _ = write!(out, "{MARK}{:08X}{MARK}", u32::from(c));
            } else {
                out.push(c);
            }
        }
        out
    }
    fn mark(value: &serde_json::Value) -> serde_json::Value {
        match value {
            serde_json::Value::String(s) => serde_json::Value::String(marked(s)),
            serde_json::Value::Array(items) => {
                serde_json::Value::Array(items.iter().map(mark).collect())
            }
            serde_json::Value::Object(map) => {
                serde_json::Value::Object(map.iter().map(|(k, v)| (marked(k), mark(v))).collect())
            }
            other => other.clone(),
        }
    }
    if !needs(value) {
        return serde_saphyr::to_string(value);
    }
    let text = serde_saphyr::to_string(&mark(value))?;
    // Each mark was written as the escape `\uFFFF`: MARK, eight hex digits, MARK becomes the
    // escape of the character they name (`\uXXXX`, or `\UXXXXXXXX` beyond the Basic
    // Multilingual Plane). An escape is one only after an even run of backslashes
    // (`\\uFFFF` is a backslash and text).
    let written = "\\uFFFF";
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find(written) {
        let backslashes = rest[..at].chars().rev().take_while(|c| *c == '\\').count();
        let after = &rest[at.saturating_add(written.len())..];
        let hex = after
            .get(..8)
            .filter(|h| h.chars().all(|c| c.is_ascii_hexdigit()));
        match hex {
            Some(hex) if backslashes % 2 == 0 && after[8..].starts_with(written) => {
                out.push_str(&rest[..at]);
                match hex.strip_prefix("0000") {
                    Some(short) => {
                        out.push_str("\\u");
                        out.push_str(short);
                    }
                    None => {
                        out.push_str("\\U");
                        out.push_str(hex);
                    }
                }
                rest = &after[written.len().saturating_add(8)..];
            }
            _ => {
                out.push_str(&rest[..at.saturating_add(written.len())]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    Ok(out)
}

/// The marker a value cut short ends with.
pub const CUT: char = '…';

/// One line of at most `max` characters: longer text is cut and ends with [`CUT`] (and says
/// how much was left out when there is room for it).
pub fn cut(raw: &str, max: usize) -> Cow<'_, str> {
    let line = line(raw);
    let count = line.chars().count();
    if count <= max {
        return line;
    }
    let kept: String = line.chars().take(max.saturating_sub(1)).collect();
    Cow::Owned(format!("{kept}{CUT}"))
}

/// Whether text is safe to print as it is.
pub fn is_inert(text: &str) -> bool {
    !text.chars().any(|c| c == '\r' || acts(c))
}

/// Whether a character has no business in one cell of a drawn screen: any control (tab and
/// line breaks included) or a character that reorders the text around it.
pub fn foreign_to_a_cell(c: char) -> bool {
    c.is_control() || acts(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What a terminal would act on in output: ESC, any other C0 but tab and newline, DEL,
    /// C1, and the bidirectional controls; or what would hide in it (a zero-width space, a
    /// BOM, a tag character).
    fn dangerous(text: &str) -> bool {
        text.chars().any(|c| {
            (c < ' ' && c != '\n' && c != '\t')
                || ('\u{7f}'..='\u{9f}').contains(&c)
                || ('\u{202a}'..='\u{202e}').contains(&c)
                || ('\u{2066}'..='\u{2069}').contains(&c)
                || invisible(c)
        })
    }

    fn invisible(c: char) -> bool {
        matches!(c, '\u{200b}' | '\u{feff}' | '\u{2060}' | '\u{ad}')
            || ('\u{e0020}'..='\u{e007f}').contains(&c)
    }

    #[test]
    fn escape_sequences_are_shown_not_sent() {
        let title = "ok\u{1b}]0;pwned\u{7}";
        assert_eq!(text(title), "ok\\x1b]0;pwned\\x07");
        let clipboard = "\u{1b}]52;c;ZWNobyBoaQ==\u{7}";
        assert!(!dangerous(&text(clipboard)));
        let dcs = "\u{1b}P+q\u{1b}\\";
        assert_eq!(text(dcs), "\\x1bP+q\\x1b\\");
        assert_eq!(line("a\u{202e}txt.exe"), "a\\u{202e}txt.exe");
        assert_eq!(line("two\nlines\tand a tab"), "two lines and a tab");
        assert_eq!(text("two\nlines"), "two\nlines");
        assert_eq!(text("c1 \u{9b}2J"), "c1 \\x9b2J");
        assert!(matches!(text("plain ünïcode ✓"), Cow::Borrowed(_)));
        // What hides in text is shown too, the same way everywhere.
        assert_eq!(line("ad\u{200b}min\u{feff}"), "ad\\u{200b}min\\u{feff}");
        assert_eq!(text("tag\u{e0041}"), "tag\\u{e0041}");
        // The joiners scripts and emoji need stay.
        assert!(matches!(text("👩\u{200d}💻"), Cow::Borrowed(_)));
    }

    #[test]
    fn a_long_value_is_cut_with_a_marker() {
        let long = "x".repeat(3000);
        let short = cut(&long, 40);
        assert_eq!(short.chars().count(), 40);
        assert!(short.ends_with(CUT));
        assert_eq!(cut("short", 40), "short");
    }

    /// What a terminal would act on in JSON or YAML output: what JSON and YAML leave raw
    /// (their own escapes cover the C0 controls).
    fn raw_danger(text: &str) -> bool {
        text.chars().any(|c| {
            ('\u{7f}'..='\u{9f}').contains(&c)
                || ('\u{202a}'..='\u{202e}').contains(&c)
                || ('\u{2066}'..='\u{2069}').contains(&c)
                || invisible(c)
        })
    }

    #[test]
    fn json_and_yaml_output_escape_what_a_terminal_acts_on() {
        let value = serde_json::json!({"name": "a\u{202e}b\u{200b}\u{e0041}", "k\u{85}": ["\u{1b}]0;x\u{7}", "\u{ffff}0041\u{ffff}", "\u{feff}",
            "\\uFFFF000000E9\\uFFFF", "\\\\uFFFF0041\\uFFFF"]});
        let text = serde_json::to_string(&value).expect("JSON");
        let inert = json(&text);
        assert!(!raw_danger(&inert), "{inert}");
        let back: serde_json::Value = serde_json::from_str(&inert).expect("still JSON");
        assert_eq!(back, value, "the same JSON to a parser");
        let text = yaml(&value).expect("YAML");
        assert!(!raw_danger(&text), "{text}");
        let back: serde_json::Value = serde_saphyr::from_str(&text).expect("still YAML");
        assert_eq!(back, value, "the same YAML to a parser: {text}");
    }

    #[test]
    fn nested_json_is_pretty_json_indented_and_inert() {
        let value = serde_json::json!({
            "a": [], "b": {}, "c": [1, {"d": "x\u{202e}y\u{85}"}], "e\u{2066}": null, "f": "\u{1b}[2J"
        });
        for depth in [0, 2, 40] {
            let mut out = Vec::new();
            write_json(&mut out, &value, depth).expect("written");
            let written = String::from_utf8(out).expect("UTF-8");
            let pad = " ".repeat(depth * 2);
            let expected = serde_json::to_string_pretty(&value)
                .expect("JSON")
                .replace('\n', &format!("\n{pad}"));
            assert_eq!(written, json(&expected), "depth {depth}");
            assert!(!raw_danger(&written));
        }
    }

    #[test]
    fn a_closed_output_is_said_as_closed() {
        struct Closed;
        impl std::io::Write for Closed {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let value = serde_json::json!({"a": ["b"]});
        let error = write_json(&mut Closed, &value, 2).expect_err("nowhere to write");
        assert_eq!(error.kind(), std::io::ErrorKind::BrokenPipe);
    }

    proptest! {
        /// Nested pretty JSON of any strings reads back as the value, with nothing a terminal
        /// acts on, and is [`json`] of `to_string_pretty` with its lines indented.
        #[test]
        fn nested_json_stays_faithful(key in any::<String>(), text in any::<String>(), depth in 0usize..4) {
            let value = serde_json::json!({ key: [text, {}], "n": [1.5, -2, true] });
            let mut out = Vec::new();
            write_json(&mut out, &value, depth).expect("written");
            let written = String::from_utf8(out).expect("UTF-8");
            prop_assert!(!raw_danger(&written));
            let back: serde_json::Value = serde_json::from_str(&written).expect("JSON back");
            prop_assert_eq!(&back, &value);
            let pad = " ".repeat(depth * 2);
            let expected = serde_json::to_string_pretty(&value).expect("JSON").replace('\n', &format!("\n{pad}"));
            prop_assert_eq!(written, json(&expected).into_owned());
        }

        /// JSON and YAML output of any strings: no raw control a terminal acts on, and the
        /// value read back is the value written.
        #[test]
        fn json_and_yaml_stay_faithful(key in any::<String>(), text in any::<String>()) {
            let value = serde_json::json!({ key: [text] });
            let written = serde_json::to_string_pretty(&value).expect("JSON");
            let inert = json(&written);
            prop_assert!(!raw_danger(&inert));
            let back: serde_json::Value = serde_json::from_str(&inert).expect("JSON back");
            prop_assert_eq!(&back, &value);
            let text = yaml(&value).expect("YAML");
            prop_assert!(!raw_danger(&text));
            let back: serde_json::Value = serde_saphyr::from_str(&text).expect("YAML back");
            prop_assert_eq!(back, value);
        }

        /// Whatever the input, nothing a terminal acts on comes out, and text without any such
        /// character comes out unchanged.
        #[test]
        fn no_output_carries_a_control(raw in any::<String>(), ascii in "[ -~\n\t]{0,64}") {
            prop_assert!(!dangerous(&text(&raw)));
            let one = line(&raw);
            prop_assert!(!dangerous(&one));
            prop_assert!(!one.contains('\n'));
            prop_assert!(!dangerous(&cut(&raw, 10)));
            prop_assert!(cut(&raw, 10).chars().count() <= 10);
            prop_assert_eq!(text(&ascii), ascii.as_str());
            prop_assert!(is_inert(&text(&raw)));
        }

        /// Controls planted anywhere in ordinary text are all caught.
        #[test]
        fn planted_controls_are_caught(
            before in "[a-z ]{0,20}",
            control in prop::sample::select(vec![
                '\u{1b}', '\u{7}', '\u{0}', '\u{8}', '\u{7f}', '\u{85}', '\u{9b}', '\u{9d}',
                '\u{202a}', '\u{202b}', '\u{202c}', '\u{202d}', '\u{202e}',
                '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}', '\r',
                '\u{200b}', '\u{feff}', '\u{2060}', '\u{ad}', '\u{e0001}', '\u{e0041}',
            ]),
            after in "[a-z ]{0,20}",
        ) {
            let raw = format!("{before}{control}{after}");
            prop_assert!(!text(&raw).contains(control));
            prop_assert!(!line(&raw).contains(control));
        }
    }
}
