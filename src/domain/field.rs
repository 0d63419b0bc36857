//! Lenient fields: how pooldeck reads objects it does not control.
//!
//! A ComputePool comes from a person's manifest or from the API server, and either may hold a
//! field of the wrong type or a field this version does not know. Neither may cost the rest of
//! the object: a [`Field`] is missing, valid, or invalid (keeping the raw value and the reason),
//! and every model struct keeps the fields it does not know in `extra`, so an object read and
//! written back loses nothing. [`Lenient::collect_issues`] lists what was wrong, with paths.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::path::YamlPath;

/// One field of an object as it was read.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Field<T> {
    /// Not written.
    #[default]
    Missing,
    /// Written as `null`: read as not set, but written back as it was.
    Null,
    Valid(T),
    /// Written with a value of the wrong shape; the raw value is kept for write-back. Boxed,
    /// so a field costs little more than its value in the common, valid case.
    Invalid(Box<Invalid>),
}

/// A value of the wrong shape, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Invalid {
    pub raw: Value,
    pub error: String,
}

impl<T> Field<T> {
    pub fn get(&self) -> Option<&T> {
        match self {
            Field::Valid(value) => Some(value),
            _ => None,
        }
    }

    pub fn get_mut(&mut self) -> Option<&mut T> {
        match self {
            Field::Valid(value) => Some(value),
            _ => None,
        }
    }

    /// Not written, or written as `null`.
    pub fn is_missing(&self) -> bool {
        matches!(self, Field::Missing | Field::Null)
    }

    /// Not written at all (a `null` counts as written, so it survives a round trip).
    pub fn is_absent(&self) -> bool {
        matches!(self, Field::Missing)
    }

    pub fn is_present(&self) -> bool {
        !self.is_missing()
    }

    pub fn is_invalid(&self) -> bool {
        matches!(self, Field::Invalid(_))
    }

    pub fn raw(&self) -> Option<&Value> {
        match self {
            Field::Invalid(invalid) => Some(&invalid.raw),
            _ => None,
        }
    }
}

impl<T: Default> Field<T> {
    /// The value, or the type's default when missing or invalid. For reading only: rules
    /// that care whether a field was written use [`Field::get`].
    pub fn or_default(&self) -> T
    where
        T: Clone,
    {
        self.get().cloned().unwrap_or_default()
    }
}

/// A model's text: short texts (names, statuses, architectures, timestamps, most keys) are
/// held inline instead of in an allocation of their own; a fleet holds millions of them.
pub type Text = compact_str::CompactString;

/// Long map keys (GPU variants such as `NVIDIA A100-SXM4-80GB | 80 GB`, label keys) repeat
/// on every host of a fleet; each distinct one is held once and shared. Bounded: past
/// [`SHARED_KEYS`] distinct keys (or keys longer than [`SHARED_KEY_LENGTH`]), a key gets its
/// own copy, so an odd cluster cannot make this grow without end.
const SHARED_KEYS: usize = 4096;
const SHARED_KEY_LENGTH: usize = 256;

fn shared_key(key: String) -> Text {
    use std::collections::HashSet;
    use std::sync::{Mutex, OnceLock};
    if key.len() <= std::mem::size_of::<Text>() || key.len() > SHARED_KEY_LENGTH {
        return Text::from(key);
    }
    static KEYS: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let Ok(mut keys) = KEYS.get_or_init(Default::default).lock() else {
        return Text::from(key);
    };
    if let Some(known) = keys.get(key.as_str()) {
        return Text::const_new(known);
    }
    if keys.len() >= SHARED_KEYS {
        return Text::from(key);
    }
    let kept: &'static str = Box::leak(key.into_boxed_str());
    keys.insert(kept);
    Text::const_new(kept)
}

impl Field<Text> {
    pub fn as_deref(&self) -> Option<&str> {
        self.get().map(Text::as_str)
    }
}

impl<T> From<T> for Field<T> {
    fn from(value: T) -> Self {
        Field::Valid(value)
    }
}

impl<T: Serialize> Serialize for Field<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Field::Missing | Field::Null => serializer.serialize_none(),
            Field::Valid(value) => value.serialize(serializer),
            Field::Invalid(invalid) => invalid.raw.serialize(serializer),
        }
    }
}

impl<'de, T: FromJson> Deserialize<'de> for Field<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Field::from_value(Value::deserialize(deserializer)?))
    }
}

impl<T: FromJson> Field<T> {
    /// Reads a field from its JSON value: `null` is missing, a value of the wrong shape is
    /// kept as invalid with the reason.
    pub fn from_value(value: Value) -> Self {
        if value.is_null() {
            return Field::Null;
        }
        match T::from_json(value) {
            Ok(value) => Field::Valid(value),
            Err(Mismatch { raw, expected }) => Field::Invalid(Box::new(Invalid {
                error: format!("expected {expected}, found {}", describe_value(&raw)),
                raw,
            })),
        }
    }
}

/// A value that did not have the shape a type needs; the value is handed back untouched.
#[derive(Debug)]
pub struct Mismatch {
    pub raw: Value,
    pub expected: &'static str,
}

/// Reading a model type from an owned JSON value in one pass, moving rather than copying.
/// Only the value's own shape can fail; fields inside are [`Field`]s and never fail.
pub trait FromJson: Sized {
    fn from_json(value: Value) -> Result<Self, Mismatch>;
}

fn mismatch<T>(raw: Value, expected: &'static str) -> Result<T, Mismatch> {
    Err(Mismatch { raw, expected })
}

impl FromJson for String {
    fn from_json(value: Value) -> Result<Self, Mismatch> {
        match value {
            Value::String(s) => Ok(s),
            other => mismatch(other, "a string"),
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
}

impl FromJson for i64 {
    fn from_json(value: Value) -> Result<Self, Mismatch> {
        match value.as_i64() {
            Some(n) => Ok(n),
            None => mismatch(value, "an integer"),
        }
    }
}

impl FromJson for f64 {
    fn from_json(value: Value) -> Result<Self, Mismatch> {
        match value.as_f64() {
            Some(n) => Ok(n),
            None => mismatch(value, "a number"),
        }
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

impl FromJson for bool {
    fn from_json(value: Value) -> Result<Self, Mismatch> {
        match value {
            Value::Bool(b) => Ok(b),
            other => mismatch(other, "true or false"),
        }
    }
}

impl FromJson for Value {
    fn from_json(value: Value) -> Result<Self, Mismatch> {
        Ok(value)
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

/// The items in a list of exactly their number. Not `collect()`: collecting from the JSON
/// value's own list reuses that list's allocation, sized for JSON values (and often for
/// more of them), so a one-entry map of numbers would hold hundreds of bytes for a fleet's
/// lifetime.
fn exact<T>(items: impl ExactSizeIterator<Item = T>) -> Vec<T> {
    let mut out = Vec::with_capacity(items.len());
    out.extend(items);
    out
}

impl<T: FromJson> FromJson for Vec<Field<T>> {
    fn from_json(value: Value) -> Result<Self, Mismatch> {
        match value {
            Value::Array(items) => Ok(exact(items.into_iter().map(Field::from_value))),
            other => mismatch(other, "a list"),
        }
    }
}

impl FromJson for Vec<Value> {
    fn from_json(value: Value) -> Result<Self, Mismatch> {
        match value {
            Value::Array(mut items) => {
                items.shrink_to_fit();
                Ok(items)
            }
            other => mismatch(other, "a list"),
        }
    }
}

impl<T: FromJson> FromJson for Map<Field<T>> {
    fn from_json(value: Value) -> Result<Self, Mismatch> {
        match value {
            Value::Object(map) => Ok(Map(exact(
                map.into_iter()
                    .map(|(k, v)| (shared_key(k), Field::from_value(v))),
            ))),
            other => mismatch(other, "a mapping"),
        }
    }
}

/// Fields a struct does not know, kept for write-back. Almost always empty, so it costs one
/// pointer until something is in it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Extra(Option<Box<serde_json::Map<String, Value>>>);

impl Extra {
    pub fn insert(&mut self, key: String, value: Value) {
        self.0
            .get_or_insert_with(Default::default)
            .insert(key, value);
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.as_ref()?.get(key)
    }

    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.iter().flat_map(|m| m.keys())
    }

    pub fn is_empty(&self) -> bool {
        self.0.as_ref().is_none_or(|m| m.is_empty())
    }
}

impl Serialize for Extra {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.as_ref().map_or(0, |m| m.len())))?;
        for (k, v) in self.0.iter().flat_map(|m| m.iter()) {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// A string-keyed map kept in the order it was written, as a plain vector: labels, hosts,
/// GPU variants and pool evaluations have a handful of entries, and a vector costs a fraction
/// of a tree or hash map of that size, which matters with 100,000 hosts.
#[derive(Clone, Debug, PartialEq)]
pub struct Map<T>(pub Vec<(Text, T)>);

impl<T> Default for Map<T> {
    fn default() -> Self {
        Map(Vec::new())
    }
}

impl<T> Map<T> {
    pub fn get(&self, key: &str) -> Option<&T> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&Text, &T)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    pub fn keys(&self) -> impl Iterator<Item = &Text> {
        self.0.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl Iterator<Item = &T> {
        self.0.iter().map(|(_, v)| v)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Sets a key, replacing its value if present, appending it otherwise.
    pub fn insert(&mut self, key: impl Into<Text>, value: T) {
        let key = key.into();
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => *v = value,
            None => self.0.push((key, value)),
        }
    }
}

impl<'a, T> IntoIterator for &'a Map<T> {
    type Item = (&'a Text, &'a T);
    type IntoIter =
        std::iter::Map<std::slice::Iter<'a, (Text, T)>, fn(&'a (Text, T)) -> (&'a Text, &'a T)>;

    fn into_iter(self) -> Self::IntoIter {
        fn pair<K, V>((k, v): &(K, V)) -> (&K, &V) {
            (k, v)
        }
        self.0.iter().map(pair)
    }
}

impl<T> FromIterator<(String, T)> for Map<T> {
    fn from_iter<I: IntoIterator<Item = (String, T)>>(iter: I) -> Self {
        let mut map = Map::default();
        for (k, v) in iter {
            map.insert(k, v);
        }
        map
    }
}

impl<T: Serialize> Serialize for Map<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
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
    fn collect_issues(&self, _path: &YamlPath, _out: &mut Vec<Issue>) {}
}

impl Lenient for String {}
impl Lenient for Text {}
impl Lenient for bool {}
impl Lenient for i64 {}
impl Lenient for f64 {}
impl Lenient for Value {}
impl Lenient for Scalar {}
impl Lenient for Num {}

impl<T: Lenient> Lenient for Field<T> {
    fn collect_issues(&self, path: &YamlPath, out: &mut Vec<Issue>) {
        match self {
            Field::Missing | Field::Null => {}
            Field::Valid(value) => value.collect_issues(path, out),
            Field::Invalid(invalid) => out.push(Issue::WrongType {
                path: path.clone(),
                message: invalid.error.clone(),
            }),
        }
    }
}

impl<T: Lenient> Lenient for Vec<T> {
    fn collect_issues(&self, path: &YamlPath, out: &mut Vec<Issue>) {
        for (index, item) in self.iter().enumerate() {
            item.collect_issues(&path.index(index), out);
        }
    }
}

impl<T: Lenient> Lenient for Map<T> {
    fn collect_issues(&self, path: &YamlPath, out: &mut Vec<Issue>) {
        for (key, value) in self {
            value.collect_issues(&path.key(key), out);
        }
    }
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

/// Declares a model struct whose every field is a [`Field`], which keeps unknown fields in
/// `extra`, and which lists its issues. `strict` structs are documented by the reference, so
/// an unknown field there is reported (it is usually a typo or a field at the wrong level);
/// `open` structs (metadata, status) keep unknown fields silently.
macro_rules! model {
    (@unknown strict, $self:ident, $path:ident, $out:ident) => {
        for key in $self.extra.keys() {
            $out.push($crate::domain::field::Issue::UnknownField {
                path: $path.key(key),
                known: Self::FIELDS,
            });
        }
    };
    (@unknown open, $self:ident, $path:ident, $out:ident) => {};
    (
        $(#[$meta:meta])*
        $mode:ident struct $name:ident {
            $( $(#[$fmeta:meta])* $field:ident : $ty:ty = $json:literal ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
        pub struct $name {
            $(
                $(#[$fmeta])*
                #[serde(rename = $json, skip_serializing_if = "Field::is_absent")]
                pub $field: $crate::domain::field::Field<$ty>,
            )*
            /// Fields this version of pooldeck does not know, kept so nothing is lost.
            #[serde(flatten)]
            pub extra: $crate::domain::field::Extra,
        }

        impl $name {
            /// The field names the reference documents for this object.
            pub const FIELDS: &'static [&'static str] = &[$($json),*];
        }

        impl $crate::domain::field::FromJson for $name {
            fn from_json(
                value: serde_json::Value,
            ) -> Result<Self, $crate::domain::field::Mismatch> {
                let serde_json::Value::Object(map) = value else {
                    return Err($crate::domain::field::Mismatch {
                        raw: value,
                        expected: "a mapping",
                    });
                };
                let mut object = Self::default();
                for (key, value) in map {
                    match key.as_str() {
                        $( $json => object.$field = $crate::domain::field::Field::from_value(value), )*
                        _ => {
                            object.extra.insert(key, value);
                        }
                    }
                }
                Ok(object)
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let value = <serde_json::Value as serde::Deserialize>::deserialize(deserializer)?;
                <Self as $crate::domain::field::FromJson>::from_json(value).map_err(|m| {
                    <D::Error as serde::de::Error>::custom(format!(
                        "expected {}, found {}",
                        m.expected,
                        $crate::domain::field::describe_value(&m.raw)
                    ))
                })
            }
        }

        impl $crate::domain::field::Lenient for $name {
            fn collect_issues(
                &self,
                path: &$crate::domain::path::YamlPath,
                out: &mut Vec<$crate::domain::field::Issue>,
            ) {
                $( self.$field.collect_issues(&path.key($json), out); )*
                model!(@unknown $mode, self, path, out);
            }
        }
    };
}

pub(crate) use model;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrong_type_is_kept_and_explained() {
        let field: Field<i64> = serde_json::from_value(Value::String("4".into())).unwrap();
        assert!(field.is_invalid());
        match &field {
            Field::Invalid(invalid) => {
                let error = &invalid.error;
                assert_eq!(error, "expected an integer, found the string \"4\"")
            }
            other => panic!("unexpected {other:?}"),
        }
        assert_eq!(
            serde_json::to_value(&field).unwrap(),
            Value::String("4".into())
        );
    }

    #[test]
    fn lists_and_maps_read_from_json_hold_exactly_their_items() {
        // A parsed JSON list or map often has room for more; the model must not keep it.
        let mut list = Vec::with_capacity(64);
        list.extend(["a", "b", "c"].map(Value::from));
        let texts = Vec::<Field<Text>>::from_json(Value::Array(list)).unwrap();
        assert_eq!((texts.len(), texts.capacity()), (3, 3));
        let mut object = serde_json::Map::with_capacity(64);
        object.insert("NVIDIA A100-SXM4-80GB | 80 GB".into(), Value::from(4));
        let map = Map::<Field<i64>>::from_json(Value::Object(object)).unwrap();
        assert_eq!((map.0.len(), map.0.capacity()), (1, 1));
        let mut raw = Vec::with_capacity(64);
        raw.push(Value::from(1));
        let values = Vec::<Value>::from_json(Value::Array(raw)).unwrap();
        assert_eq!((values.len(), values.capacity()), (1, 1));
    }

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
        assert_eq!(shared_key("short".into()).as_str(), "short");
        let long = "x".repeat(SHARED_KEY_LENGTH + 1);
        assert!(
            shared_key(long.clone()).is_heap_allocated(),
            "too long to share"
        );
    }

    #[test]
    fn null_reads_as_missing() {
        let field: Field<String> = serde_json::from_value(Value::Null).unwrap();
        assert!(field.is_missing());
        assert_eq!(serde_json::to_value(&field).unwrap(), Value::Null);
    }
}
