//! Objects read without `metadata.managedFields` (about half of what a real hub sends for each
//! object, and never shown): the field is skipped as it is read, never built.

use serde_json::Value;

use crate::domain::Kind;

/// Reads the value of `key` (the next in `map`) into `fields`, without the field at `path`
/// below it (nothing at all when `path` is that key).
pub(crate) fn entry_without<'de, A: serde::de::MapAccess<'de>>(
    path: &'static [&'static str],
    key: String,
    map: &mut A,
    fields: &mut serde_json::Map<String, Value>,
) -> Result<(), A::Error> {
    match path {
        [only] if key == *only => {
            map.next_value::<serde::de::IgnoredAny>()?;
        }
        [first, rest @ ..] if key == *first => {
            let value = map.next_value_seed(Without(rest))?;
            fields.insert(key, value);
        }
        _ => {
            let value = map.next_value::<Value>()?;
            fields.insert(key, value);
        }
    }
    Ok(())
}

/// Where a server keeps `managedFields` in an object.
pub(crate) const MANAGED_FIELDS: &[&str] = &["metadata", "managedFields"];

/// A JSON value read without the field at a path of mapping keys: that field is skipped as
/// it is read, never built. Used for `metadata.managedFields`, which pooldeck never shows and
/// which is about half of each object a real hub sends (see `domain::json`).
pub(crate) struct Without(pub(crate) &'static [&'static str]);

impl<'de> serde::de::DeserializeSeed<'de> for Without {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Without {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut fields = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            entry_without(self.0, key, &mut map, &mut fields)?;
        }
        Ok(Value::Object(fields))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element::<Value>()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::from(n))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::from(n))
    }

    fn visit_f64<E>(self, n: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::from(s))
    }

    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }
}

/// An object of `kind` with its `apiVersion` and `kind` first ([`with_type`], the kind's
/// where it leaves them out).
pub(crate) fn of_kind(object: Value, kind: Kind) -> Value {
    with_type(object, &api_version(kind), kind.api().kind)
}

/// The item with `apiVersion` and `kind` first, as the server writes a single object; the
/// rest moved over as it was read.
pub(crate) fn with_type(item: Value, api_version: &str, kind: &str) -> Value {
    match item {
        // As a watch event carries it: already typed, first.
        Value::Object(fields) if fields.keys().take(2).eq(["apiVersion", "kind"]) => {
            Value::Object(fields)
        }
        Value::Object(fields) => {
            let mut map = serde_json::Map::with_capacity(fields.len() + 2);
            map.insert("apiVersion".into(), Value::from(api_version));
            map.insert("kind".into(), Value::from(kind));
            for (key, value) in fields {
                // The item's own type, where it says one, replaces the list's.
                map.insert(key, value);
            }
            Value::Object(map)
        }
        other => other,
    }
}

/// The `apiVersion` a kind's objects carry.
pub fn api_version(kind: Kind) -> String {
    let api = kind.api();
    if api.group.is_empty() {
        api.version.to_owned()
    } else {
        format!("{}/{}", api.group, api.version)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_get_their_type_first_and_keep_the_rest_in_order() {
        let item = serde_json::json!({"metadata": {"name": "a"}, "spec": {"x": 1}, "kind": "Own"});
        let typed = with_type(item, "spectrocloud.com/v1alpha1", "ComputePool");
        let keys: Vec<&String> = typed.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["apiVersion", "kind", "metadata", "spec"]);
        assert_eq!(typed["kind"], "Own");
        assert_eq!(typed["apiVersion"], "spectrocloud.com/v1alpha1");
        let own = serde_json::json!({"apiVersion": "x/v2", "kind": "Own", "spec": {}});
        let typed = with_type(own.clone(), "spectrocloud.com/v1alpha1", "ComputePool");
        assert_eq!(typed, own, "an item already typed keeps its own type");
        let keys: Vec<&String> = typed.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["apiVersion", "kind", "spec"]);
    }

    #[test]
    fn items_are_read_without_their_managed_fields_and_nothing_else_is_lost() {
        let text = r#"[
            {"metadata":{"name":"a","managedFields":[{"manager":"m","fieldsV1":{"f:spec":{}}}],"labels":{"x":"1"}},
             "spec":{"managedFields":"kept: not metadata","n":-3,"f":1.5,"big":18446744073709551615,"t":true,"z":null,"l":[1,"two",{"managedFields":1}]}},
            {"metadata":"not a mapping"},
            5, "text", null, [1]
        ]"#;
        let plain: Value = serde_json::from_str(text).unwrap();
        let items: Vec<Value> = plain
            .as_array()
            .unwrap()
            .iter()
            .map(|item| {
                let text = item.to_string();
                let mut deserializer = serde_json::Deserializer::from_str(&text);
                let read = serde::de::DeserializeSeed::deserialize(
                    Without(MANAGED_FIELDS),
                    &mut deserializer,
                );
                of_kind(read.unwrap(), Kind::Pool)
            })
            .collect();
        let mut expected: Vec<Value> = plain.as_array().unwrap().clone();
        expected[0]["metadata"]
            .as_object_mut()
            .unwrap()
            .shift_remove("managedFields");
        let expected: Vec<Value> = expected
            .into_iter()
            .map(|item| with_type(item, &api_version(Kind::Pool), "ComputePool"))
            .collect();
        assert_eq!(items, expected);
        assert!(items[0]["metadata"].get("managedFields").is_none());
        let keys: Vec<&String> = items[0]["metadata"].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["name", "labels"], "order kept");
    }
}
