//! A YAML document as a tree of nodes that remember where they were written.
//!
//! Findings carry paths; this tree turns a path back into a line and column so the `validate`
//! command (and later the wizard) can point at the exact place in the file. It owns only the
//! parsed shape of the text; it knows nothing of Compute Pools.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use crate::path::{Segment, YamlPath};

/// A line and column in the source text, both 1-based. `0` means "unknown".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    pub line: u32,
    pub column: u32,
}

impl Position {
    fn from_location(location: serde_saphyr::Location) -> Self {
        Position {
            line: location.line() as u32,
            column: location.column() as u32,
        }
    }

    pub fn is_known(&self) -> bool {
        self.line > 0
    }
}

/// One node of a YAML document with its position.
#[derive(Clone, Debug)]
pub struct Node {
    pub position: Position,
    pub value: NodeValue,
}

/// The shape of a node. Mapping entries keep their key's position and their order.
#[derive(Clone, Debug)]
pub enum NodeValue {
    Null,
    Bool(bool),
    Integer(i64),
    Unsigned(u64),
    Float(f64),
    String(String),
    Sequence(Vec<Node>),
    Mapping(Vec<Entry>),
}

#[derive(Clone, Debug)]
pub struct Entry {
    pub key: String,
    pub key_position: Position,
    pub value: Node,
}

impl Node {
    /// Moves this node and everything under it down by `lines` (a part of a text parsed on
    /// its own, put back in place).
    pub(crate) fn shift_lines(&mut self, lines: u32) {
        if lines == 0 {
            return;
        }
        if self.position.is_known() {
            self.position.line = self.position.line.saturating_add(lines);
        }
        match &mut self.value {
            NodeValue::Sequence(items) => items.iter_mut().for_each(|n| n.shift_lines(lines)),
            NodeValue::Mapping(entries) => {
                for entry in entries {
                    if entry.key_position.is_known() {
                        entry.key_position.line = entry.key_position.line.saturating_add(lines);
                    }
                    entry.value.shift_lines(lines);
                }
            }
            _ => {}
        }
    }

    /// The JSON value this node stands for, as the Kubernetes API would receive it.
    pub fn to_json(&self) -> Value {
        match &self.value {
            NodeValue::Null => Value::Null,
            NodeValue::Bool(b) => Value::Bool(*b),
            NodeValue::Integer(i) => Value::Number(Number::from(*i)),
            NodeValue::Unsigned(u) => Value::Number(Number::from(*u)),
            NodeValue::Float(f) => Number::from_f64(*f).map_or(Value::Null, Value::Number),
            NodeValue::String(s) => Value::String(s.clone()),
            NodeValue::Sequence(items) => Value::Array(items.iter().map(Node::to_json).collect()),
            NodeValue::Mapping(entries) => {
                let mut map = Map::with_capacity(entries.len());
                for entry in entries {
                    map.insert(entry.key.clone(), entry.value.to_json());
                }
                Value::Object(map)
            }
        }
    }

    /// Where `path` was written: the key of a mapping entry for collections and missing
    /// fields, the value itself for scalars. A path that does not exist resolves to its
    /// nearest written ancestor.
    pub fn locate(&self, path: &YamlPath) -> Position {
        let mut node = self;
        let mut best = self.position;
        for segment in path.segments() {
            let next = match (segment, &node.value) {
                (Segment::Key(key), NodeValue::Mapping(entries)) => entries
                    .iter()
                    .find(|entry| entry.key == *key)
                    .map(|entry| (entry.key_position, &entry.value)),
                (Segment::Index(index), NodeValue::Sequence(items)) => {
                    items.get(*index).map(|item| (item.position, item))
                }
                _ => None,
            };
            match next {
                Some((key_position, child)) => {
                    best = if child.is_scalar() && child.position.is_known() {
                        child.position
                    } else {
                        key_position
                    };
                    node = child;
                }
                None => break,
            }
        }
        best
    }

    fn is_scalar(&self) -> bool {
        !matches!(self.value, NodeValue::Sequence(_) | NodeValue::Mapping(_))
    }
}

/// The value of a node without its position; deserialized through `Spanned` so that every
/// child records where it was written.
struct RawValue(NodeValue);

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let spanned = serde_saphyr::Spanned::<RawValue>::deserialize(deserializer)?;
        Ok(Node {
            position: Position::from_location(spanned.referenced),
            value: spanned.value.0,
        })
    }
}

impl<'de> Deserialize<'de> for RawValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(RawVisitor)
    }
}

struct RawVisitor;

impl<'de> Visitor<'de> for RawVisitor {
    type Value = RawValue;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<RawValue, E> {
        Ok(RawValue(NodeValue::Null))
    }

    fn visit_none<E: de::Error>(self) -> Result<RawValue, E> {
        Ok(RawValue(NodeValue::Null))
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<RawValue, D::Error> {
        RawValue::deserialize(deserializer)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<RawValue, E> {
        Ok(RawValue(NodeValue::Bool(v)))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<RawValue, E> {
        Ok(RawValue(NodeValue::Integer(v)))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<RawValue, E> {
        Ok(RawValue(match i64::try_from(v) {
            Ok(i) => NodeValue::Integer(i),
            Err(_) => NodeValue::Unsigned(v),
        }))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<RawValue, E> {
        match i64::try_from(v) {
            Ok(i) => Ok(RawValue(NodeValue::Integer(i))),
            Err(_) => Err(E::custom(format!("the integer {v} is too large"))),
        }
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<RawValue, E> {
        match u64::try_from(v) {
            Ok(u) => self.visit_u64(u),
            Err(_) => Err(E::custom(format!("the integer {v} is too large"))),
        }
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<RawValue, E> {
        Ok(RawValue(NodeValue::Float(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<RawValue, E> {
        Ok(RawValue(NodeValue::String(v.to_owned())))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<RawValue, E> {
        Ok(RawValue(NodeValue::String(v)))
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<RawValue, E> {
        Ok(RawValue(NodeValue::String(
            String::from_utf8_lossy(v).into_owned(),
        )))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawValue, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Node>()? {
            items.push(item);
        }
        Ok(RawValue(NodeValue::Sequence(items)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawValue, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<Node>()? {
            let key_text = match key.value {
                NodeValue::String(s) => s,
                NodeValue::Integer(i) => i.to_string(),
                NodeValue::Unsigned(u) => u.to_string(),
                NodeValue::Float(f) => f.to_string(),
                NodeValue::Bool(b) => b.to_string(),
                NodeValue::Null => "null".to_owned(),
                NodeValue::Sequence(_) | NodeValue::Mapping(_) => {
                    return Err(de::Error::custom(
                        "a mapping key must be a plain value, not a list or a mapping",
                    ));
                }
            };
            let value = map.next_value::<Node>()?;
            entries.push(Entry {
                key: key_text,
                key_position: key.position,
                value,
            });
        }
        Ok(RawValue(NodeValue::Mapping(entries)))
    }
}
