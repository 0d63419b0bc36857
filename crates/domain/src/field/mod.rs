//! Lenient fields: how pooldeck reads objects it does not control.
//!
//! A ComputePool comes from a person's manifest or from the API server, and either may hold a
//! field of the wrong type or a field this version does not know. Neither may cost the rest of
//! the object: a [`Field`] is missing, valid, or invalid (keeping the raw value and the reason),
//! and every model struct keeps the fields it does not know in `extra`, so an object read and
//! written back loses nothing. [`Lenient::collect_issues`] lists what was wrong, with paths.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::path::{At, YamlPath};

mod map;
mod read;
mod text;

pub use read::{Entries, FieldSeed, Key, read_model, read_model_without};

pub use map::{Extra, Map, SmallMap};
pub use text::{Num, Scalar, Text};

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
        serde::de::DeserializeSeed::deserialize(FieldSeed::<T>::new(), deserializer)
    }
}

impl<T: FromJson> Field<T> {
    /// Reads a field from its JSON value, as from text: `null` is missing, a value of the
    /// wrong shape is kept as invalid with the reason.
    pub fn from_value(value: Value) -> Self {
        serde::de::DeserializeSeed::deserialize(FieldSeed::<T>::new(), value).unwrap_or_else(
            // A JSON value is always read: no shape is refused, so this does not happen.
            |error| {
                Field::Invalid(Box::new(Invalid {
                    raw: Value::Null,
                    error: error.to_string(),
                }))
            },
        )
    }

    /// A field from what reading its (non-null) value made of it.
    pub fn from_read(read: Result<T, Mismatch>) -> Self {
        match read {
            Ok(value) => Field::Valid(value),
            Err(mismatch) => Field::Invalid(Box::new(Invalid {
                error: mismatch.to_string(),
                raw: mismatch.raw,
            })),
        }
    }
}

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
/// the value's own shape can fail; fields inside are [`Field`]s and never fail.
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

impl<T: Lenient> Lenient for Field<T> {
    fn collect_issues(&self, at: &At<'_>, out: &mut Vec<Issue>) {
        match self {
            Field::Missing | Field::Null => {}
            Field::Valid(value) => value.collect_issues(at, out),
            Field::Invalid(invalid) => out.push(Issue::WrongType {
                path: at.path(),
                message: invalid.error.clone(),
            }),
        }
    }
}

impl<T: Lenient> Lenient for Vec<T> {
    fn collect_issues(&self, at: &At<'_>, out: &mut Vec<Issue>) {
        for (index, item) in self.iter().enumerate() {
            item.collect_issues(&at.index(index), out);
        }
    }
}

/// Declares a model struct whose every field is a [`Field`], which keeps unknown fields in
/// `extra`, and which lists its issues. `strict` structs are documented by the reference, so
/// an unknown field there is reported (it is usually a typo or a field at the wrong level);
/// `open` structs (metadata, status) keep unknown fields silently.
macro_rules! model {
    (@unknown strict, $self:ident, $at:ident, $out:ident) => {
        for key in $self.extra.keys() {
            $out.push($crate::field::Issue::UnknownField {
                path: $at.key(key).path(),
                known: Self::FIELDS,
            });
        }
    };
    (@unknown open, $self:ident, $at:ident, $out:ident) => {};
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
                pub $field: $crate::field::Field<$ty>,
            )*
            /// Fields this version of pooldeck does not know, kept so nothing is lost.
            #[serde(flatten)]
            pub extra: $crate::field::Extra,
        }

        impl $name {
            /// The field names the reference documents for this object.
            pub const FIELDS: &'static [&'static str] = &[$($json),*];
        }

        impl $crate::field::FromJson for $name {
            fn read<'de, D: serde::Deserializer<'de>>(
                deserializer: D,
            ) -> Result<Result<Self, $crate::field::Mismatch>, D::Error> {
                $crate::field::read_model(deserializer)
            }
        }

        impl $crate::field::Entries for $name {
            fn read_entry<'de, A: serde::de::MapAccess<'de>>(
                &mut self,
                key: $crate::field::Key<'de>,
                map: &mut A,
            ) -> Result<(), A::Error> {
                match key.as_str() {
                    $( $json => self.$field = map.next_value_seed($crate::field::FieldSeed::new())?, )*
                    _ => {
                        let value = map.next_value::<serde_json::Value>()?;
                        self.extra.insert(key.into_string(), value);
                    }
                }
                Ok(())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                $crate::field::deserialize_model(deserializer)
            }
        }

        impl $crate::field::Lenient for $name {
            fn collect_issues(
                &self,
                at: &$crate::path::At<'_>,
                out: &mut Vec<$crate::field::Issue>,
            ) {
                $( self.$field.collect_issues(&at.key($json), out); )*
                model!(@unknown $mode, self, at, out);
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
    fn null_reads_as_missing() {
        let field: Field<String> = serde_json::from_value(Value::Null).unwrap();
        assert!(field.is_missing());
        assert_eq!(serde_json::to_value(&field).unwrap(), Value::Null);
    }
}
