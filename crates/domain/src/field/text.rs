//! The scalar values of the model: texts (held inline when short, long map keys shared),
//! numbers kept exactly as written, and plain values whose type the rules judge.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{FromJson, Lenient, Mismatch, mismatch};

/// A model's text: short texts (names, statuses, architectures, timestamps, most keys) are
/// held inline instead of in an allocation of their own; a fleet holds millions of them.
pub type Text = compact_str::CompactString;

/// Long map keys (GPU variants such as `NVIDIA A100-SXM4-80GB | 80 GB`, label keys) repeat
/// on every host of a fleet; each distinct one is held once and shared. Bounded: past
/// [`SHARED_KEYS`] distinct keys (or keys longer than [`SHARED_KEY_LENGTH`]), a key gets its
/// own copy, so an odd cluster cannot make this grow without end.
const SHARED_KEYS: usize = 4096;
const SHARED_KEY_LENGTH: usize = 256;

pub(super) fn shared_key(key: &str) -> Text {
    use std::collections::HashSet;
    use std::sync::{Mutex, OnceLock};
    if key.len() <= std::mem::size_of::<Text>() || key.len() > SHARED_KEY_LENGTH {
        return Text::from(key);
    }
    static KEYS: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let Ok(mut keys) = KEYS.get_or_init(Default::default).lock() else {
        return Text::from(key);
    };
    if let Some(known) = keys.get(key) {
        return Text::const_new(known);
    }
    if keys.len() >= SHARED_KEYS {
        return Text::from(key);
    }
    let kept: &'static str = Box::leak(key.to_owned().into_boxed_str());
    keys.insert(kept);
    Text::const_new(kept)
}

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
    Float(f64),
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
            Scalar::Float(x) => write!(f, "{x}"),
            Scalar::String(s) => f.write_str(s),
        }
    }
}

impl FromJson for Text {
    fn from_json(value: Value) -> Result<Self, Mismatch> {
        match value {
            Value::String(s) => Ok(Text::from(s)),
            other => mismatch(other, "a string"),
        }
    }

    fn read<'de, D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Result<Self, Mismatch>, D::Error> {
        super::read::read_text(deserializer)
    }
}

impl FromJson for Num {
    fn from_json(value: Value) -> Result<Self, Mismatch> {
        match value {
            Value::Number(n) => Ok(Num(n)),
            other => mismatch(other, "a number"),
        }
    }
}

impl FromJson for Scalar {
    fn from_json(value: Value) -> Result<Self, Mismatch> {
        match value {
            Value::Bool(b) => Ok(Scalar::Bool(b)),
            Value::String(s) => Ok(Scalar::String(s)),
            Value::Number(n) => match n.as_i64() {
                Some(i) => Ok(Scalar::Integer(i)),
                None => Ok(Scalar::Float(n.as_f64().unwrap_or(f64::NAN))),
            },
            other => mismatch(other, "a plain value"),
        }
    }
}

impl Lenient for Text {}
impl Lenient for Scalar {}
impl Lenient for Num {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::{Field, Map};

    #[test]
    fn long_map_keys_are_held_once() {
        let key = "NVIDIA A100-SXM4-80GB | 80 GB (shared-key test)";
        let read = || {
            let mut object = serde_json::Map::new();
            object.insert(key.into(), Value::from(4));
            Map::<Field<i64>>::from_json(Value::Object(object)).unwrap()
        };
        let (a, b) = (read(), read());
        assert_eq!(a.0[0].0, key);
        assert!(
            !a.0[0].0.is_heap_allocated(),
            "a shared key is not a copy of its own"
        );
        assert_eq!(
            a.0[0].0.as_ptr(),
            b.0[0].0.as_ptr(),
            "both maps share one key"
        );
        assert_eq!(shared_key("short").as_str(), "short");
        let long = "x".repeat(SHARED_KEY_LENGTH + 1);
        assert!(shared_key(&long).is_heap_allocated(), "too long to share");
    }
}
