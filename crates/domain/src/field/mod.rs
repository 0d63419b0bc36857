//! Lenient fields: how pooldeck reads objects it does not control.
//!
//! A ComputePool comes from a person's manifest or from the API server, and either may hold a
//! field of the wrong type or a field this version does not know. Neither may cost the rest of
//! the object: a [`Field`] is missing, valid, or invalid (keeping the raw value and the reason),
//! and every model struct keeps the fields it does not know in `extra`, so an object read and
//! written back loses nothing. [`Lenient::collect_issues`] lists what was wrong, with paths.

mod key;
mod map;
mod read;
mod shape;
mod text;
mod value;

pub use key::Key;
pub use map::{Extra, Map, SmallMap};
pub use read::{Entries, FieldSeed, read_model, read_model_without};
pub use shape::{
    FromJson, Issue, Lenient, Mismatch, describe_value, deserialize_model, from_value,
};
pub use text::{Num, Scalar, Text};
pub use value::{Field, Invalid};

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
    use serde_json::Value;

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
