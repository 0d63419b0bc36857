//! What a value of the lenient model must be: the one reader's trait, what it says when a
//! value has the wrong shape, and the issues a read object lists.

use serde::{Deserialize, Deserializer};
use serde_json::Value;

use crate::path::{At, YamlPath};

/// A value that did not have the shape a type needs; the value is handed back untouched.
/// Said as what was expected and what was found, in the user's terms.
#[derive(Debug, thiserror::Error)]
#[error("expected {expected}, found {}", describe_value(raw))]
pub struct Mismatch {
    pub raw: Value,
    pub expected: &'static str,
}

/// Reads a model type through serde as [`FromJson`] reads it (a value of the wrong shape is
/// an error in the user's terms): every model type's `Deserialize`.
pub fn deserialize_model<'de, T: FromJson, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<T, D::Error> {
    T::read(deserializer)?.map_err(<D::Error as serde::de::Error>::custom)
}

/// Reads a model type from a JSON value, as from text.
pub fn from_value<T: FromJson>(value: Value) -> Result<T, Mismatch> {
    T::read(value).unwrap_or_else(|error| {
        // A JSON value is always read: no shape is refused, so this does not happen.
        Err(Mismatch {
            raw: Value::String(error.to_string()),
            expected: "a JSON value",
        })
    })
}

/// The one reader of the lenient model: reads a value through serde (from text or from a
/// JSON value alike) and hands a value of the wrong shape back built, as the mismatch. Only
/// the value's own shape can fail; fields inside are [`Field`](super::Field)s and never fail.
pub trait FromJson: Sized {
    fn read<'de, D: Deserializer<'de>>(deserializer: D)
    -> Result<Result<Self, Mismatch>, D::Error>;
}

pub(super) fn mismatch<T>(raw: Value, expected: &'static str) -> Result<T, Mismatch> {
    Err(Mismatch { raw, expected })
}

/// A scalar read whole (its value costs nothing to build) and made into `T` by `make`.
pub(super) fn scalar<'de, D: Deserializer<'de>, T>(
    deserializer: D,
    make: fn(Value) -> Result<T, Mismatch>,
) -> Result<Result<T, Mismatch>, D::Error> {
    Value::deserialize(deserializer).map(make)
}

impl FromJson for String {
    fn read<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Result<Self, Mismatch>, D::Error> {
        scalar(deserializer, |value| match value {
            Value::String(s) => Ok(s),
            other => mismatch(other, "a string"),
        })
    }
}

impl FromJson for i64 {
    fn read<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Result<Self, Mismatch>, D::Error> {
        scalar(deserializer, |value| match value.as_i64() {
            Some(n) => Ok(n),
            None => mismatch(value, "an integer"),
        })
    }
}

impl FromJson for f64 {
    fn read<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Result<Self, Mismatch>, D::Error> {
        scalar(deserializer, |value| match value.as_f64() {
            Some(n) => Ok(n),
            None => mismatch(value, "a number"),
        })
    }
}

impl FromJson for bool {
    fn read<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Result<Self, Mismatch>, D::Error> {
        scalar(deserializer, |value| match value {
            Value::Bool(b) => Ok(b),
            other => mismatch(other, "true or false"),
        })
    }
}

impl FromJson for Value {
    fn read<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Result<Self, Mismatch>, D::Error> {
        scalar(deserializer, Ok)
    }
}

/// A large sub-struct that is usually missing is boxed, so its absence costs a pointer.
impl<T: FromJson> FromJson for Box<T> {
    fn read<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Result<Self, Mismatch>, D::Error> {
        T::read(deserializer).map(|read| read.map(Box::new))
    }
}

/// A short description of a JSON value for messages: `the string "4"`, `a list`, ...
pub fn describe_value(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) if s.chars().count() > 40 => {
            let head: String = s.chars().take(37).collect();
            format!("the string \"{head}...\"")
        }
        Value::String(s) => format!("the string \"{s}\""),
        Value::Array(_) => "a list".to_owned(),
        Value::Object(_) => "a mapping".to_owned(),
    }
}

/// What was wrong with an object's shape, found while reading it.
#[derive(Clone, Debug, PartialEq)]
pub enum Issue {
    /// A field holds a value of the wrong type.
    WrongType { path: YamlPath, message: String },
    /// A field this version of pooldeck does not know, inside a struct whose fields the
    /// reference documents. `known` lists the fields that struct does have.
    UnknownField {
        path: YamlPath,
        known: &'static [&'static str],
    },
}

impl Issue {
    pub fn path(&self) -> &YamlPath {
        match self {
            Issue::WrongType { path, .. } | Issue::UnknownField { path, .. } => path,
        }
    }
}

/// Types read leniently list the problems found while reading them.
pub trait Lenient {
    fn collect_issues(&self, _at: &At<'_>, _out: &mut Vec<Issue>) {}
}

impl Lenient for String {}
impl Lenient for bool {}
impl Lenient for i64 {}
impl Lenient for f64 {}
impl Lenient for Value {}

impl<T: Lenient> Lenient for Box<T> {
    fn collect_issues(&self, at: &At<'_>, out: &mut Vec<Issue>) {
        (**self).collect_issues(at, out)
    }
}

impl<T: Lenient> Lenient for Vec<T> {
    fn collect_issues(&self, at: &At<'_>, out: &mut Vec<Issue>) {
        for (index, item) in self.iter().enumerate() {
            item.collect_issues(&at.index(index), out);
        }
    }
}
