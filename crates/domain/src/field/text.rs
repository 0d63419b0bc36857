//! The scalar values of the model: texts (held inline when short),
//! numbers kept exactly as written, and plain values whose type the rules judge.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::shape::{FromJson, Lenient, Mismatch, mismatch, scalar};

/// A model's text: short texts (names, statuses, architectures, timestamps, most keys) are
/// held inline instead of in an allocation of their own; a fleet holds millions of them.
pub type Text = compact_str::CompactString;

/// A number kept exactly as written (`41` stays `41`, `41.5` stays `41.5`), so writing an
/// object back never turns an integer into a float.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Num(pub serde_json::Number);

impl Num {
    pub fn value(&self) -> f64 {
        self.0.as_f64().unwrap_or(0.0)
    }
}

impl Default for Num {
    fn default() -> Self {
        Num(serde_json::Number::from(0))
    }
}

impl From<f64> for Num {
    fn from(value: f64) -> Self {
        Num(serde_json::Number::from_f64(value).unwrap_or_else(|| serde_json::Number::from(0)))
    }
}

/// A plain value whose type the rules judge themselves, such as a memory size that should be
/// a string with units but may have been written as a bare number.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Scalar {
    Bool(bool),
    Integer(i64),
    /// Any other number (a fraction, or a whole number past `i64`), kept exactly as written.
    Number(serde_json::Number),
    String(String),
}

impl Scalar {
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Scalar::String(s) => Some(s),
            _ => None,
        }
    }
}

impl std::fmt::Display for Scalar {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Scalar::Bool(b) => write!(f, "{b}"),
            Scalar::Integer(i) => write!(f, "{i}"),
            Scalar::Number(x) => write!(f, "{x}"),
            Scalar::String(s) => f.write_str(s),
        }
    }
}

impl FromJson for Num {
    fn read<'de, D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Result<Self, Mismatch>, D::Error> {
        scalar(deserializer, |value| match value {
            Value::Number(n) => Ok(Num(n)),
            other => mismatch(other, "a number"),
        })
    }
}

impl FromJson for Scalar {
    fn read<'de, D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Result<Self, Mismatch>, D::Error> {
        scalar(deserializer, |value| match value {
            Value::Bool(b) => Ok(Scalar::Bool(b)),
            Value::String(s) => Ok(Scalar::String(s)),
            Value::Number(n) => match n.as_i64() {
                Some(i) => Ok(Scalar::Integer(i)),
                None => Ok(Scalar::Number(n)),
            },
            other => mismatch(other, "a plain value"),
        })
    }
}

impl Lenient for Text {}
impl Lenient for Scalar {}
impl Lenient for Num {}
