//! Reading a list page's text: its metadata alone first (to ask for the next page at once),
//! then its items one at a time, each with its type and without `metadata.managedFields`,
//! made into what the reader keeps.

use serde::Deserialize;
use serde_json::Value;

use super::streamed::Item;
use crate::domain::Kind;

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(super) struct ListMeta {
    #[serde(default)]
    pub(super) resource_version: Option<String>,
    #[serde(default, rename = "continue")]
    pub(super) continue_: Option<String>,
    #[serde(default)]
    pub(super) remaining_item_count: Option<i64>,
}

/// A list's items, each made into `T` as soon as it is read (as a watch event's object is
/// read for `T`): one object at a time, never a whole page of JSON values (several times the
/// page's text).
pub(super) struct Items<T> {
    kind: Kind,
    item: std::marker::PhantomData<fn() -> T>,
}

impl<T> Items<T> {
    pub(super) fn new(kind: Kind) -> Self {
        Items {
            kind,
            item: std::marker::PhantomData,
        }
    }
}

impl<'de, T: Item> serde::de::DeserializeSeed<'de> for Items<T> {
    type Value = Vec<T>;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Vec<T>, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de, T: Item> serde::de::Visitor<'de> for Items<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a list of objects")
    }

    fn visit_unit<E>(self) -> Result<Vec<T>, E> {
        Ok(Vec::new())
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) =
            seq.next_element_seed(One::<T>(self.kind, std::marker::PhantomData))?
        {
            items.push(T::from_event(self.kind, item));
        }
        Ok(items)
    }
}

/// One item of a list, read as `T` reads an object of the kind.
struct One<T>(Kind, std::marker::PhantomData<fn() -> T>);

impl<'de, T: Item> serde::de::DeserializeSeed<'de> for One<T> {
    type Value = T::Object;

    fn deserialize<D: serde::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<T::Object, D::Error> {
        T::read(self.0, deserializer)
    }
}

/// Reads the value of `key` (the next in `map`) into `fields`, without the field at `path`
/// below it (nothing at all when `path` is that key).
pub(super) fn entry_without<'de, A: serde::de::MapAccess<'de>>(
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
pub(super) const MANAGED_FIELDS: &[&str] = &["metadata", "managedFields"];

/// A JSON value read without the field at a path of mapping keys: that field is skipped as
/// it is read, never built. Used for `metadata.managedFields`, which pooldeck never shows and
/// which is about half of each object a real hub sends (see `domain::json`).
pub(super) struct Without(pub(super) &'static [&'static str]);

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

/// The list's items, made into `T`; everything else in the body skipped.
struct Body<T>(Items<T>);

impl<'de, T: Item> serde::de::Visitor<'de> for Body<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a list")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Vec<T>, A::Error> {
        let mut items = Vec::new();
        let mut seed = Some(self.0);
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match (key.as_ref(), seed.take()) {
                ("items", Some(read)) => items = map.next_value_seed(read)?,
                (_, unused) => {
                    seed = unused;
                    map.next_value::<serde::de::IgnoredAny>()?;
                }
            }
        }
        Ok(items)
    }
}

/// The list's metadata alone: read first, skipping the items, so the next page is asked for
/// before this one is parsed (the metadata may come after the items, as a real server writes
/// a custom resource's list).
#[derive(Deserialize)]
pub(super) struct Head {
    #[serde(default)]
    pub(super) metadata: ListMeta,
}

/// A page's items, each with its type, made into `T`.
pub(super) fn parse_items<T: Item>(text: &str, read: Items<T>) -> Result<Vec<T>, kube::Error> {
    use serde::Deserializer;
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let items = (&mut deserializer)
        .deserialize_map(Body(read))
        .map_err(kube::Error::SerdeError)?;
    deserializer.end().map_err(kube::Error::SerdeError)?;
    Ok(items)
}

/// An object of `kind` with its `apiVersion` and `kind` first ([`with_type`], the kind's
/// where it leaves them out).
pub(super) fn of_kind(object: Value, kind: Kind) -> Value {
    with_type(object, &super::api_version(kind), kind.api().kind)
}

/// The item with `apiVersion` and `kind` first, as the server writes a single object; the
/// rest moved over as it was read.
pub(super) fn with_type(item: Value, api_version: &str, kind: &str) -> Value {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sources::list::api_version;

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
    fn a_list_body_reads_its_version_token_and_count() {
        // As a real server writes a custom resource's list: the metadata after the items.
        let text = r#"{"apiVersion":"v1","items":[{"metadata":{"continue":"no"}}],"kind":"List","metadata":{"resourceVersion":"7","continue":"t","remainingItemCount":3}}"#;
        let head: Head = serde_json::from_str(text).unwrap();
        assert_eq!(head.metadata.resource_version.as_deref(), Some("7"));
        assert_eq!(head.metadata.continue_.as_deref(), Some("t"));
        assert_eq!(head.metadata.remaining_item_count, Some(3));
        let read = |text: &str| parse_items(text, Items::<Value>::new(Kind::Pool));
        let items = read(text).unwrap();
        assert_eq!(items.len(), 1);
        assert_eq!(items[0]["kind"], "ComputePool", "each item gets its type");
        assert!(read(r#"{"metadata":{},"items":null}"#).unwrap().is_empty());
        assert!(read(r#"{"metadata":{}}"#).unwrap().is_empty());
        let wrong = read(r#"{"items":{"a":1}}"#).unwrap_err().to_string();
        assert!(wrong.contains("a list of objects"), "{wrong}");
        assert!(read(r#"{"items":[]} trailing"#).is_err());
    }

    #[test]
    fn items_are_read_without_their_managed_fields_and_nothing_else_is_lost() {
        let text = r#"{"items":[
            {"metadata":{"name":"a","managedFields":[{"manager":"m","fieldsV1":{"f:spec":{}}}],"labels":{"x":"1"}},
             "spec":{"managedFields":"kept: not metadata","n":-3,"f":1.5,"big":18446744073709551615,"t":true,"z":null,"l":[1,"two",{"managedFields":1}]}},
            {"metadata":"not a mapping"},
            5, "text", null, [1]
        ]}"#;
        let items = parse_items(text, Items::<Value>::new(Kind::Pool)).unwrap();
        let plain: Value = serde_json::from_str(text).unwrap();
        let mut expected: Vec<Value> = plain["items"].as_array().unwrap().clone();
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
