//! Lists, maps and unknown fields of the model.

use serde::{Serialize, Serializer};
use serde_json::Value;

use super::read::{read_list, read_map};
use super::shape::{FromJson, Issue, Lenient, Mismatch, mismatch, scalar};
use super::text::Text;
use super::value::Field;
use crate::path::At;

impl<T: FromJson> FromJson for Vec<Field<T>> {
    fn read<'de, D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Result<Self, Mismatch>, D::Error> {
        read_list(deserializer)
    }
}

impl FromJson for Vec<Value> {
    fn read<'de, D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Result<Self, Mismatch>, D::Error> {
        scalar(deserializer, |value| match value {
            Value::Array(mut items) => {
                items.shrink_to_fit();
                Ok(items)
            }
            other => mismatch(other, "a list"),
        })
    }
}

impl<T: FromJson> FromJson for Map<Field<T>> {
    fn read<'de, D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Result<Self, Mismatch>, D::Error> {
        Ok(read_map(deserializer)?.map(Map))
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

    pub fn iter(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.0.iter().flat_map(|m| m.iter())
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
    fn entries(&self) -> &[(Text, T)] {
        &self.0
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    pub fn keys(&self) -> impl Iterator<Item = &Text> {
        self.0.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl Iterator<Item = &T> {
        self.0.iter().map(|(_, v)| v)
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

impl<T> FromIterator<(String, T)> for Map<T> {
    fn from_iter<I: IntoIterator<Item = (String, T)>>(iter: I) -> Self {
        let mut map = Map::default();
        for (k, v) in iter {
            map.insert(k, v);
        }
        map
    }
}

/// A string-keyed map that almost always holds one small entry, such as a host's GPUs by
/// variant: a single entry is held in place, none or several in an exact-size list (every
/// host holds two, so an allocation each is avoided).
#[derive(Clone, Debug, PartialEq)]
pub enum SmallMap<T> {
    One((Text, T)),
    /// No entry, or more than one.
    More(Vec<(Text, T)>),
}

impl<T> Default for SmallMap<T> {
    fn default() -> Self {
        SmallMap::More(Vec::new())
    }
}

impl<T> SmallMap<T> {
    fn entries(&self) -> &[(Text, T)] {
        match self {
            SmallMap::One(entry) => std::slice::from_ref(entry),
            SmallMap::More(entries) => entries,
        }
    }
}

impl<T: FromJson> FromJson for SmallMap<Field<T>> {
    fn read<'de, D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Result<Self, Mismatch>, D::Error> {
        Ok(read_map(deserializer)?.map(SmallMap::from_entries))
    }
}

impl<T> SmallMap<T> {
    /// One entry held in place; none or several in their list.
    fn from_entries(mut entries: Vec<(Text, T)>) -> Self {
        match entries.pop() {
            Some(only) if entries.is_empty() => SmallMap::One(only),
            Some(last) => {
                entries.push(last);
                SmallMap::More(entries)
            }
            None => SmallMap::More(Vec::new()),
        }
    }
}

/// What a map of ordered entries offers, for [`Map`] and [`SmallMap`] alike, read through
/// their `entries()`: lookup, iteration, writing back in order, and the issues of each value.
macro_rules! entry_map {
    ($map:ident) => {
        impl<T> $map<T> {
            pub fn get(&self, key: &str) -> Option<&T> {
                self.entries()
                    .iter()
                    .find(|(k, _)| k == key)
                    .map(|(_, v)| v)
            }

            pub fn iter(&self) -> impl Iterator<Item = (&Text, &T)> {
                self.entries().iter().map(|(k, v)| (k, v))
            }

            pub fn len(&self) -> usize {
                self.entries().len()
            }

            pub fn is_empty(&self) -> bool {
                self.entries().is_empty()
            }
        }

        impl<'a, T> IntoIterator for &'a $map<T> {
            type Item = (&'a Text, &'a T);
            type IntoIter = std::iter::Map<
                std::slice::Iter<'a, (Text, T)>,
                fn(&'a (Text, T)) -> (&'a Text, &'a T),
            >;

            fn into_iter(self) -> Self::IntoIter {
                fn pair<K, V>((k, v): &(K, V)) -> (&K, &V) {
                    (k, v)
                }
                self.entries().iter().map(pair)
            }
        }

        impl<T: Serialize> Serialize for $map<T> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeMap;
                let entries = self.entries();
                let mut map = serializer.serialize_map(Some(entries.len()))?;
                for (k, v) in entries {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }

        impl<T: Lenient> Lenient for $map<T> {
            fn collect_issues(&self, at: &At<'_>, out: &mut Vec<Issue>) {
                for (key, value) in self {
                    value.collect_issues(&at.key(key), out);
                }
            }
        }
    };
}

entry_map!(Map);
entry_map!(SmallMap);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_and_maps_read_from_json_hold_exactly_their_items() {
        // A parsed JSON list or map often has room for more; the model must not keep it.
        let mut list = Vec::with_capacity(64);
        list.extend(["a", "b", "c"].map(Value::from));
        let texts = crate::field::from_value::<Vec<Field<Text>>>(Value::Array(list)).unwrap();
        assert_eq!((texts.len(), texts.capacity()), (3, 3));
        let mut object = serde_json::Map::with_capacity(64);
        object.insert("NVIDIA A100-SXM4-80GB | 80 GB".into(), Value::from(4));
        let map = crate::field::from_value::<Map<Field<i64>>>(Value::Object(object)).unwrap();
        assert_eq!((map.0.len(), map.0.capacity()), (1, 1));
        let mut raw = Vec::with_capacity(64);
        raw.push(Value::from(1));
        let values = crate::field::from_value::<Vec<Value>>(Value::Array(raw)).unwrap();
        assert_eq!((values.len(), values.capacity()), (1, 1));
    }

    #[test]
    fn a_small_map_holds_one_entry_in_place_and_writes_back_what_it_read() {
        use serde_json::json;
        for written in [
            json!({}),
            json!({"NVIDIA A100-SXM4-80GB | 80 GB": 4}),
            json!({"b": 1, "a": "two", "c": 3}),
        ] {
            let map = crate::field::from_value::<SmallMap<Field<i64>>>(written.clone()).unwrap();
            assert_eq!(
                serde_json::to_value(&map).unwrap(),
                written,
                "order and values kept"
            );
            assert_eq!(map.len(), written.as_object().unwrap().len());
            assert_eq!(matches!(map, SmallMap::One(_)), map.len() == 1);
            if let SmallMap::More(entries) = &map {
                assert_eq!(entries.capacity(), entries.len(), "no room to spare");
            }
        }
        let map =
            crate::field::from_value::<SmallMap<Field<i64>>>(json!({"b": 1, "a": "two"})).unwrap();
        assert_eq!(map.get("b").and_then(Field::get), Some(&1));
        assert!(map.get("a").is_some_and(Field::is_invalid));
        assert!(map.get("z").is_none());
        let mut issues = Vec::new();
        map.collect_issues(&At::Root.key("gpus"), &mut issues);
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].path().to_string(), "gpus.a");
        assert!(crate::field::from_value::<SmallMap<Field<i64>>>(json!([1])).is_err());
    }
}
