//! One field of an object as it was read: missing, `null`, valid, or invalid with its raw
//! value and the reason.

use serde::{Serialize, Serializer};
use serde_json::Value;

use super::shape::{Issue, Lenient, Mismatch};
use super::text::Text;
use crate::path::At;

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

impl<T> Field<T> {
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
