//! The settings file read against its schema: every key known, every value of its kind,
//! nothing empty. A file that departs from it anywhere may have asked for read-only in a
//! way that cannot be told (a mis-indented `readonly: true` becomes a context of its own),
//! so the first departure, with its line and what was expected, makes every context
//! read-only.

use crate::domain::manifest::node::Entry;
use crate::domain::manifest::{Node, NodeValue};

/// What a value of the settings must be.
enum Shape {
    Bool,
    Text,
    /// A list of texts.
    Texts,
    /// A mapping of these keys (each optional).
    Fields(&'static [(&'static str, Shape)]),
    /// A mapping of any names, each of this shape.
    Each(&'static Shape),
}

const CONTEXT: Shape = Shape::Fields(&[("readonly", Shape::Bool)]);

/// The whole file.
const SETTINGS: Shape = Shape::Fields(&[
    ("theme", Shape::Text),
    ("readonly", Shape::Bool),
    ("contexts", Shape::Each(&CONTEXT)),
    ("clipboard", Shape::Text),
    ("audit-log", Shape::Text),
    ("favourites", Shape::Texts),
    ("favorites", Shape::Texts),
]);

impl Shape {
    /// What a value of this shape is, in words.
    fn expected(&self) -> String {
        match self {
            Shape::Bool => "true or false".to_owned(),
            Shape::Text => "a text".to_owned(),
            Shape::Texts => "a list of names".to_owned(),
            Shape::Fields(fields) => format!(
                "a mapping of {}",
                fields
                    .iter()
                    .map(|(k, _)| format!("{k}:"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Shape::Each(_) => "a mapping of context names, each with its settings".to_owned(),
        }
    }
}

/// Where the file departs from the schema, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Misread {
    pub line: u32,
    /// The setting, as a dotted path (`contexts.prod.readonly`).
    pub path: String,
    pub what: String,
}

impl std::fmt::Display for Misread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}: {}", self.line, self.path, self.what)
    }
}

/// What a node holds, in words.
fn found(node: &Node) -> String {
    match &node.value {
        NodeValue::Null => "empty".to_owned(),
        NodeValue::Bool(b) => b.to_string(),
        NodeValue::Integer(i) => format!("the number {i}"),
        NodeValue::Unsigned(u) => format!("the number {u}"),
        NodeValue::Float(x) => format!("the number {x}"),
        NodeValue::String(s) => format!("\"{}\"", crate::domain::inert::line(s)),
        NodeValue::Sequence(_) => "a list".to_owned(),
        NodeValue::Mapping(_) => "a mapping".to_owned(),
    }
}

/// Every departure of the file's root from the schema, in the order written.
pub fn check(root: &Node) -> Vec<Misread> {
    let mut out = Vec::new();
    if !matches!(root.value, NodeValue::Null) {
        walk(root, &SETTINGS, "", &mut out);
    }
    out
}

fn at(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

fn walk(node: &Node, shape: &Shape, path: &str, out: &mut Vec<Misread>) {
    let shown = if path.is_empty() { "the file" } else { path };
    let wrong = |out: &mut Vec<Misread>, hint: &str| {
        out.push(Misread {
            line: node.position.line,
            path: shown.to_owned(),
            what: format!(
                "{} where {} was expected{hint}",
                found(node),
                shape.expected()
            ),
        });
    };
    match (shape, &node.value) {
        // An empty value says nothing anyone can rely on: most often the line after it was
        // meant to be indented under it.
        (_, NodeValue::Null) => wrong(out, " (is the next line meant to be indented under it?)"),
        (Shape::Bool, NodeValue::Bool(_)) | (Shape::Text, NodeValue::String(_)) => {}
        (Shape::Texts, NodeValue::Sequence(items)) => {
            for (i, item) in items.iter().enumerate() {
                walk(item, &Shape::Text, &format!("{path}[{i}]"), out);
            }
        }
        (Shape::Fields(fields), NodeValue::Mapping(entries)) => {
            for Entry {
                key,
                key_position,
                value,
            } in entries
            {
                match fields.iter().find(|(k, _)| k == key) {
                    Some((_, shape)) => walk(value, shape, &at(path, key), out),
                    None => out.push(Misread {
                        line: key_position.line,
                        path: at(path, &crate::domain::inert::line(key)),
                        what: format!(
                            "not a setting{} (the settings here are {})",
                            if path.is_empty() { "" } else { " of a context" },
                            fields
                                .iter()
                                .map(|(k, _)| *k)
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    }),
                }
            }
        }
        (Shape::Each(shape), NodeValue::Mapping(entries)) => {
            for entry in entries {
                walk(&entry.value, shape, &at(path, &entry.key), out);
            }
        }
        _ => wrong(out, ""),
    }
}
