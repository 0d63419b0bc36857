//! Large texts of many documents, parsed in parallel: split at document starts into as many
//! parts as there are cores, each part parsed on its own thread, positions moved back to the
//! whole text's lines.

use super::node::Node;
use super::parse_roots;

/// Below this size a text is parsed in one piece: threads would cost more than they save.
const PARALLEL_FROM_BYTES: usize = 512 * 1024;

/// A large text of many documents, parsed in as many parts as the machine has cores, each
/// part a run of whole documents split at a `---` line (YAML ends a document there wherever it
/// stands, so no node spans two parts). Positions are moved back to lines of the whole text.
/// `None` when the text is small, has directives (`%`, which belong to the next document),
/// cannot be split, or a part fails to parse: then the whole text is parsed in one piece, so
/// an error is the one the parser reports for the whole text.
pub(super) fn parse_in_parts(text: &str) -> Option<Vec<Node>> {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    if cores < 2
        || text.len() < PARALLEL_FROM_BYTES
        || text.starts_with('%')
        || text.contains("\n%")
    {
        return None;
    }
    parse_split(text, cores)
}

/// [`parse_in_parts`] for a given number of parts, whatever the text's size.
fn parse_split(text: &str, count: usize) -> Option<Vec<Node>> {
    let parts = split_at_documents(text, count);
    if parts.len() < 2 {
        return None;
    }
    let parsed: Vec<Option<Vec<Node>>> = std::thread::scope(|scope| {
        let workers: Vec<_> = parts
            .iter()
            .map(|&(lines_before, part)| {
                scope.spawn(move || {
                    let mut roots = parse_roots(part).ok()?;
                    for root in &mut roots {
                        root.shift_lines(lines_before);
                    }
                    Some(roots)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| worker.join().ok().flatten())
            .collect()
    });
    let mut roots = Vec::new();
    for part in parsed {
        roots.extend(part?);
    }
    Some(roots)
}

/// Up to `count` pieces of `text` of about equal size, each starting at the beginning of the
/// text or at a document start line (`---` alone or followed by a space or tab), with the
/// number of lines before it.
fn split_at_documents(text: &str, count: usize) -> Vec<(u32, &str)> {
    let is_marker = |at: usize| {
        let rest = &text.as_bytes()[at..];
        rest.starts_with(b"---") && matches!(rest.get(3), None | Some(b' ' | b'\t' | b'\r' | b'\n'))
    };
    let mut starts = vec![0usize];
    for k in 1..count {
        // k < count: the aim lies within the text (a text too long to multiply aims at its end).
        let aim = text
            .len()
            .checked_mul(k)
            .and_then(|n| n.checked_div(count))
            .unwrap_or(text.len());
        let previous = *starts.last().unwrap_or(&0);
        if aim <= previous {
            continue;
        }
        // The first document start at or after the aim.
        let found = text[aim..]
            .match_indices("\n---")
            .map(|(i, _)| aim.saturating_add(i).saturating_add(1))
            .find(|&at| is_marker(at));
        match found {
            Some(at) if at > previous => starts.push(at),
            _ => break,
        }
    }
    let mut parts = Vec::with_capacity(starts.len());
    let mut lines = 0u32;
    for (i, &start) in starts.iter().enumerate() {
        let end = starts
            .get(i.saturating_add(1))
            .copied()
            .unwrap_or(text.len());
        let part = &text[start..end];
        parts.push((lines, part));
        lines = lines.saturating_add(part.bytes().filter(|b| *b == b'\n').count() as u32);
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::parse;

    /// Documents in the forms a fleet file mixes: block scalars (one holding a line that looks
    /// like a marker but is indented), lists, comments after markers, end markers, anchors.
    fn document(i: usize, shape: u8) -> String {
        match shape % 6 {
            0 => format!(
                "kind: ComputePool\nmetadata:\n  name: pool-{i}\nspec:\n  edge:\n    vip: 10.0.{}.{}\n",
                i % 250,
                i % 200
            ),
            1 => format!("note: |\n  line one {i}\n  ---\n  line three\nafter: {i}\n"),
            2 => format!("kind: List\nitems:\n- a: {i}\n- b: [1, 2, {{c: \"x\"}}]\n"),
            3 => format!("base: &b {{k: {i}}}\nuse: *b\n"),
            4 => format!("# a comment only, then a scalar\nplain {i}\n"),
            _ => format!("quoted: \"two\n  lines {i}\"\n...\n"),
        }
    }

    fn markers(shape: u8) -> &'static str {
        match shape % 4 {
            0 => "---\n",
            1 => "--- # next\n",
            2 => "---\t\n",
            _ => "---\r\n",
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// A text parsed in parts gives the same documents, values and positions as the
        /// text parsed in one piece, however many parts and wherever they fall.
        #[test]
        fn parts_parse_as_the_whole(
            shapes in proptest::collection::vec(0u8..24, 1..40),
            count in 2usize..6,
        ) {
            let mut text = String::new();
            for (i, shape) in shapes.iter().enumerate() {
                if i > 0 || shape % 2 == 0 {
                    text.push_str(markers(*shape / 6));
                }
                text.push_str(&document(i, *shape));
            }
            let whole = parse_roots(&text).expect("the generated text is YAML");
            if let Some(parts) = parse_split(&text, count) {
                proptest::prop_assert_eq!(format!("{parts:?}"), format!("{whole:?}"));
            }
        }
    }

    #[test]
    fn a_large_text_is_split_and_read_the_same() {
        let mut text = String::new();
        let mut i = 0;
        while text.len() < 3 * PARALLEL_FROM_BYTES {
            text.push_str(markers(i as u8));
            text.push_str(&document(i, i as u8));
            i += 1;
        }
        assert!(split_at_documents(&text, 2).len() == 2, "the text splits");
        let parts = parse_split(&text, 2).expect("parts parse");
        let whole = parse_roots(&text).expect("whole parses");
        assert_eq!(format!("{parts:?}"), format!("{whole:?}"));
        assert_eq!(parse(&text).expect("parses").len(), whole.len());
    }

    #[test]
    fn an_error_in_a_later_part_is_reported_where_the_whole_text_has_it() {
        let mut text = String::new();
        for i in 0..4000 {
            text.push_str("---\n");
            text.push_str(&document(i, 0));
        }
        let broken_line = text.lines().count() as u32 + 2;
        text.push_str("---\nkey: [unclosed\nother: 1\n");
        let error = parse(&text).expect_err("the last document is broken");
        assert_eq!(parse_roots(&text).expect_err("whole"), error);
        assert!(error.position.line >= broken_line, "{error}");
    }
}
