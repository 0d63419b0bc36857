//! Manifests: YAML text turned into located documents and the objects inside them.
//!
//! It reads multi-document YAML the way `kubectl apply -f` does (lists such as `kubectl get -o
//! yaml` output are opened into their items), keeps every node's line and column, and refuses
//! input it cannot read with an error that says where. It never panics on input: the parser
//! runs under a budget (depth, nodes, documents) and sizes are capped before parsing.

pub mod node;
mod parts;

use std::fmt;

use serde_json::Value;

use crate::path::YamlPath;

pub use node::{Node, NodeValue, Position};

/// The largest input read, in bytes. A bigger file is refused before parsing.
pub const MAX_INPUT_BYTES: usize = 32 * 1024 * 1024;

/// Why a text could not be read as YAML.
#[derive(Clone, Debug, PartialEq)]
pub struct ParseError {
    pub position: Position,
    pub message: String,
}

impl std::error::Error for ParseError {}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.position.is_known() {
            write!(
                f,
                "line {}, column {}: {}",
                self.position.line, self.position.column, self.message
            )
        } else {
            f.write_str(&self.message)
        }
    }
}

/// One YAML document of a text, 1-based in the order written.
#[derive(Clone, Debug)]
pub struct Document {
    pub index: usize,
    pub root: Node,
}

/// One Kubernetes object found in a document: the document itself, or an item of a List.
#[derive(Clone, Debug)]
pub struct Object<'d> {
    pub document: &'d Document,
    /// Where the object sits in its document: the root, or `items[i]`.
    pub base: YamlPath,
    pub node: &'d Node,
    pub value: Value,
}

impl Object<'_> {
    /// Line and column of a path inside this object.
    pub fn locate(&self, path: &YamlPath) -> Position {
        self.document.root.locate(&self.base.append(path))
    }

    pub fn kind(&self) -> Option<&str> {
        self.value.get("kind").and_then(Value::as_str)
    }

    pub fn api_version(&self) -> Option<&str> {
        self.value.get("apiVersion").and_then(Value::as_str)
    }
}

/// The most YAML events aliases may replay in one document.
const MAX_REPLAYED_EVENTS: usize = 250_000;

fn options() -> serde_saphyr::Options {
    serde_saphyr::options! {
        budget: serde_saphyr::budget! {
            max_documents: 200_000,
            max_nodes: 40_000_000,
            max_events: 100_000_000,
            max_total_scalar_bytes: MAX_INPUT_BYTES,
        },
        // Events replayed from aliases, counted per document (a parse of a large input in
        // parts counts each part's own documents). A manifest with a few shared blocks stays
        // far below this; a billion-laughs document reaches it within a second (about four in a
        // debug build, where the default, four times higher, took 20 s). The anchors' own
        // recording keeps
        // the parser's default: that one counts the whole input, and a file of many pools
        // each with an anchor would reach a lower one.
        alias_limits: serde_saphyr::alias_limits! {
            max_total_replayed_events: MAX_REPLAYED_EVENTS,
        },
        with_snippet: false,
    }
}

/// Reads bytes as UTF-8 text, or says where the first byte that is not text sits.
pub fn decode(bytes: &[u8]) -> Result<&str, ParseError> {
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(ParseError {
            position: Position::default(),
            message: format!(
                "the input is {:.1} MiB; pooldeck reads at most {} MiB at once: split it",
                bytes.len() as f64 / (1024.0 * 1024.0),
                MAX_INPUT_BYTES / (1024 * 1024)
            ),
        });
    }
    std::str::from_utf8(bytes).map_err(|e| {
        let valid = &bytes[..e.valid_up_to()];
        let line = one_based(valid.iter().filter(|b| **b == b'\n').count());
        let line_start = valid
            .iter()
            .rposition(|b| *b == b'\n')
            .map_or(0, |i| i.saturating_add(1));
        let column = one_based(
            String::from_utf8_lossy(&valid[line_start..])
                .chars()
                .count(),
        );
        ParseError {
            position: Position { line, column },
            message: "the input is not UTF-8 text (is it a binary file?)".into(),
        }
    })
}

/// The line or column after `count` lines or characters, counted from one (the largest a
/// position holds when there are more).
fn one_based(count: usize) -> u32 {
    u32::try_from(count).unwrap_or(u32::MAX).saturating_add(1)
}

/// Parses every document of a YAML text. Empty documents are skipped, as kubectl does.
pub fn parse(text: &str) -> Result<Vec<Document>, ParseError> {
    if text.len() > MAX_INPUT_BYTES {
        return decode(text.as_bytes()).map(|_| Vec::new());
    }
    if let Some(offset) = text.find('\0') {
        let before = &text[..offset];
        return Err(ParseError {
            position: Position {
                line: one_based(before.matches('\n').count()),
                column: one_based(before.rsplit('\n').next().map_or(0, |l| l.chars().count())),
            },
            message: "the input contains a NUL byte (is it a binary file?)".into(),
        });
    }
    let roots = match parts::parse_in_parts(text) {
        Some(roots) => roots,
        None => parse_roots(text)?,
    };
    Ok(roots
        .into_iter()
        .enumerate()
        .map(|(i, root)| Document {
            index: i.saturating_add(1),
            root,
        })
        .collect())
}

/// Every document of a text as nodes, or the parser's first error in the user's terms.
fn parse_roots(text: &str) -> Result<Vec<Node>, ParseError> {
    serde_saphyr::from_str_multiple_with_options::<Node, Vec<Node>>(text, options())
        .map_err(|e| ParseError {
            position: e
                .location()
                .map(|l| Position {
                    line: l.line() as u32,
                    column: l.column() as u32,
                })
                .unwrap_or_default(),
            message: clean_message(&e.to_string()),
        })
        .map_err(|mut e| {
            let near = e.position.line.saturating_sub(1) as usize;
            let tab_indented = text
                .lines()
                .skip(near.saturating_sub(1))
                .take(3)
                .any(|l| l.trim_start_matches(' ').starts_with('\t'));
            if tab_indented && e.message.contains("tab") {
                e.message
                    .push_str(" (YAML does not allow tabs for indentation; use spaces)");
            }
            e
        })
}

/// The parser's message without its own location suffix (we print the location ourselves).
fn clean_message(message: &str) -> String {
    let first = message.lines().next().unwrap_or(message).trim();
    let first = match first.rfind(" at line ") {
        Some(i) => &first[..i],
        None => first,
    };
    let first = first.trim_start_matches("error: ").trim();
    if first.contains("Depth") || first.contains("recursion limit") {
        return "the document nests deeper than 64 levels; no ComputePool is that deep".into();
    }
    if first.starts_with("budget breached")
        || first.starts_with("alias replay")
        || first.starts_with("alias expansion")
    {
        // The parser's budget names its own counters; say what it means.
        let lower = first.to_ascii_lowercase();
        let what = if lower.contains("anchor") || lower.contains("alias") {
            "its anchors and aliases (*name) expand to more than pooldeck reads safely; \
             write the values out, or use fewer aliases"
        } else {
            "it holds more nodes or text than pooldeck reads safely from one document; split it"
        };
        return format!("the input is too large or complex to read safely: {what}");
    }
    if let Some(rest) = first.strip_prefix("duplicate mapping key: ") {
        let key = rest.split(',').next().unwrap_or(rest).trim();
        return format!(
            "duplicate key \"{key}\": it appears twice in the same mapping; keep one of them"
        );
    }
    if first.is_empty() {
        "the YAML could not be parsed".into()
    } else {
        first.to_owned()
    }
}

impl Document {
    /// The objects of this document: the document itself, or the items of a `…List`.
    pub fn objects(&self) -> Vec<Object<'_>> {
        let value = self.root.to_json();
        let is_list = value
            .get("kind")
            .and_then(Value::as_str)
            .is_some_and(|k| k.ends_with("List"))
            && value.get("items").is_some_and(Value::is_array);
        if !is_list {
            return vec![Object {
                document: self,
                base: YamlPath::root(),
                node: &self.root,
                value,
            }];
        }
        let NodeValue::Mapping(entries) = &self.root.value else {
            return Vec::new();
        };
        let Some(items) = entries.iter().find(|e| e.key == "items") else {
            return Vec::new();
        };
        let NodeValue::Sequence(nodes) = &items.value.value else {
            return Vec::new();
        };
        nodes
            .iter()
            .enumerate()
            .map(|(i, node)| Object {
                document: self,
                base: YamlPath::keys("items").index(i),
                node,
                value: node.to_json(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_keep_positions() {
        let text = "a: 1\n---\nkind: ComputePool\nspec:\n  deletionPolicy: remove\n";
        let docs = parse(text).unwrap();
        assert_eq!(docs.len(), 2);
        let pos = docs[1].root.locate(&YamlPath::keys("spec.deletionPolicy"));
        assert_eq!((pos.line, pos.column), (5, 19));
        let missing = docs[1].root.locate(&YamlPath::keys("spec.edge.vip"));
        assert_eq!(
            missing.line, 4,
            "falls back to the nearest written ancestor"
        );
    }

    #[test]
    fn quoted_and_plain_scalars_keep_their_types() {
        let docs = parse("a: 'true'\nb: true\nc: yes\nd: '4'\ne: 4\nf: 10.10.162.130\n").unwrap();
        let v = docs[0].root.to_json();
        assert_eq!(v["a"], Value::String("true".into()));
        assert_eq!(v["b"], Value::Bool(true));
        assert_eq!(v["d"], Value::String("4".into()));
        assert_eq!(v["e"], serde_json::json!(4));
        assert_eq!(v["f"], Value::String("10.10.162.130".into()));
        let _ = &v["c"];
    }

    #[test]
    fn lists_open_into_items() {
        let text = "apiVersion: v1\nkind: List\nitems:\n- kind: ComputePool\n  metadata: {name: a}\n- kind: ComputePool\n  metadata: {name: b}\n";
        let docs = parse(text).unwrap();
        let objects = docs[0].objects();
        assert_eq!(objects.len(), 2);
        assert_eq!(objects[1].locate(&YamlPath::keys("metadata.name")).line, 7);
    }

    #[test]
    fn syntax_errors_are_located() {
        let err = parse("a: 'unclosed\nb: 2\n").unwrap_err();
        assert!(err.position.is_known(), "{err:?}");
        let err = decode(b"a: 1\nb: \xff\n").unwrap_err();
        assert_eq!((err.position.line, err.position.column), (2, 4));
    }
}
