//! An object as the console's sources read it, from a watch event's text or a list page's:
//! on a pool's source, a pool straight into its model as the text is parsed, with no JSON
//! value built first (its maps hashed and every key allocated were most of what reading a
//! fleet cost: `domain::field::read`); on an evaluation's, an evaluation; anything else as a
//! JSON value, like [`super::streamed::Raw`]. Either way without `metadata.managedFields`,
//! which is passed over, never built.

use futures::StreamExt;
use futures::future::BoxFuture;
use kube::Client;
use kube::api::WatchEvent;
use serde::Deserialize;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde_json::Value;

use super::api_version;
use super::parse::{MANAGED_FIELDS, entry_without, with_type};
use super::streamed::{Events, Item, open};
use crate::domain::Kind;
use crate::domain::field::{Entries, Field, Key, read_model_without};
use crate::domain::model::{ComputePool, ComputePoolEvaluation, ObjectMeta};
use crate::inventory::Object;

/// An object of a source's kind: read into its model, or kept as a value.
#[derive(Clone, Debug)]
pub enum Incoming {
    /// A pool on a pool's source, an evaluation on an evaluation's.
    Read(Object),
    Value(Value),
}

impl Incoming {
    /// The object's resourceVersion, where it has one.
    pub fn version(&self) -> Option<String> {
        match self {
            Incoming::Read(object) => object.resource_version(),
            Incoming::Value(value) => value
                .pointer("/metadata/resourceVersion")
                .and_then(Value::as_str)
                .map(str::to_owned),
        }
    }

    /// The object as a value with its apiVersion and kind (the kind's when it leaves them
    /// out): as it was sent, or, read into its model, as the model writes it back.
    pub fn into_value(self, kind: Kind) -> Value {
        match self {
            Incoming::Read(object) => std::sync::Arc::unwrap_or_clone(object.value()),
            Incoming::Value(value) => with_type(value, &api_version(kind), kind.api().kind),
        }
    }
}

/// The console's sources hold objects; a pool's and an evaluation's sources read theirs
/// straight into the model.
impl Item for Object {
    type Object = Incoming;

    fn read<'de, D: Deserializer<'de>>(kind: Kind, deserializer: D) -> Result<Incoming, D::Error> {
        Reading(Some(kind)).deserialize(deserializer)
    }

    fn open<'a>(
        client: &'a Client,
        kind: Kind,
        namespace: Option<&'a str>,
        field_selector: Option<&'a str>,
        version: &'a str,
        initial: bool,
    ) -> BoxFuture<'a, Result<Events<Incoming>, kube::Error>> {
        Box::pin(async move {
            // serde reads a watch event's object without context: the kind is the type's.
            Ok(match kind {
                Kind::Pool => incoming(
                    open::<As<POOL>>(client, kind, namespace, field_selector, version, initial)
                        .await?,
                ),
                Kind::Evaluation => incoming(
                    open::<As<EVALUATION>>(
                        client,
                        kind,
                        namespace,
                        field_selector,
                        version,
                        initial,
                    )
                    .await?,
                ),
                _ => incoming(
                    open::<As<OTHER>>(client, kind, namespace, field_selector, version, initial)
                        .await?,
                ),
            })
        })
    }

    fn from_event(kind: Kind, object: Incoming) -> Object {
        match object {
            // Read only on its own kind's source.
            Incoming::Read(object) => object,
            Incoming::Value(value) => {
                Object::new(kind, with_type(value, &api_version(kind), kind.api().kind))
            }
        }
    }
}

/// A watch event's object read for the source of the kind `K` names ([`POOL`],
/// [`EVALUATION`], [`OTHER`]).
#[derive(Clone, Debug)]
struct As<const K: u8>(Incoming);

const OTHER: u8 = 0;
const POOL: u8 = 1;
const EVALUATION: u8 = 2;

impl<'de, const K: u8> Deserialize<'de> for As<K> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let kind = match K {
            POOL => Some(Kind::Pool),
            EVALUATION => Some(Kind::Evaluation),
            _ => None,
        };
        Reading(kind).deserialize(deserializer).map(As)
    }
}

/// A watch's events with their objects as the source holds them.
fn incoming<const K: u8>(events: Events<As<K>>) -> Events<Incoming> {
    Box::pin(events.map(|event| {
        event.map(|event| match event {
            WatchEvent::Added(object) => WatchEvent::Added(object.0),
            WatchEvent::Modified(object) => WatchEvent::Modified(object.0),
            WatchEvent::Deleted(object) => WatchEvent::Deleted(object.0),
            WatchEvent::Bookmark(mark) => WatchEvent::Bookmark(mark),
            WatchEvent::Error(status) => WatchEvent::Error(status),
        })
    }))
}

/// Reads an object for the source of a kind (`None`: a kind pooldeck does not read into a
/// model): a pool or an evaluation into its model when it is the source's own kind.
struct Reading(Option<Kind>);

impl<'de> DeserializeSeed<'de> for Reading {
    type Value = Incoming;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Incoming, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Reading {
    type Value = Incoming;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an object")
    }

    /// An object whose first fields are its `apiVersion` and `kind`, as a server writes
    /// every object, is read into its model when it is a pool on a pool's source or an
    /// evaluation on an evaluation's; anything else is read as a value.
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Incoming, A::Error> {
        let mut fields = serde_json::Map::new();
        let typed = |key: Option<Key<'de>>, name: &str, map: &mut A| match key {
            Some(key) if key.as_str() == name => map.next_value::<Value>().map(Ok),
            other => Ok(Err(other)),
        };
        let mut pending = None;
        match typed(map.next_key()?, "apiVersion", &mut map)? {
            Ok(api) => match typed(map.next_key()?, "kind", &mut map)? {
                Ok(kind)
                    if self.0 == Some(Kind::Pool)
                        && kind.as_str() == Some(crate::domain::model::pool::KIND) =>
                {
                    let pool = ComputePool {
                        api_version: Field::from_value(api),
                        kind: Field::from_value(kind),
                        ..ComputePool::default()
                    };
                    let pool = read_rest(pool, |p, meta| p.metadata = meta, &mut map)?;
                    return Ok(Incoming::Read(Object::from_pool(pool)));
                }
                Ok(kind)
                    if self.0 == Some(Kind::Evaluation)
                        && kind.as_str() == Some(crate::domain::model::evaluation::KIND) =>
                {
                    let evaluation = ComputePoolEvaluation {
                        api_version: Field::from_value(api),
                        kind: Field::from_value(kind),
                        ..ComputePoolEvaluation::default()
                    };
                    let evaluation = read_rest(evaluation, |e, meta| e.metadata = meta, &mut map)?;
                    return Ok(Incoming::Read(Object::from_evaluation(evaluation)));
                }
                Ok(kind) => {
                    fields.insert("apiVersion".to_owned(), api);
                    fields.insert("kind".to_owned(), kind);
                }
                Err(key) => {
                    fields.insert("apiVersion".to_owned(), api);
                    pending = key;
                }
            },
            Err(key) => pending = key,
        }
        // As a value: the key read already, then the rest.
        if let Some(key) = pending {
            entry_without(MANAGED_FIELDS, key.into_string(), &mut map, &mut fields)?;
        }
        while let Some(key) = map.next_key::<String>()? {
            entry_without(MANAGED_FIELDS, key, &mut map, &mut fields)?;
        }
        Ok(Incoming::Value(Value::Object(fields)))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<Incoming, A::Error> {
        Value::deserialize(serde::de::value::SeqAccessDeserializer::new(seq)).map(Incoming::Value)
    }

    fn visit_unit<E>(self) -> Result<Incoming, E> {
        Ok(Incoming::Value(Value::Null))
    }

    fn visit_bool<E>(self, b: bool) -> Result<Incoming, E> {
        Ok(Incoming::Value(Value::Bool(b)))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Incoming, E> {
        Ok(Incoming::Value(Value::from(n)))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Incoming, E> {
        Ok(Incoming::Value(Value::from(n)))
    }

    fn visit_f64<E>(self, n: f64) -> Result<Incoming, E> {
        Ok(Incoming::Value(
            serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number),
        ))
    }

    fn visit_str<E>(self, s: &str) -> Result<Incoming, E> {
        Ok(Incoming::Value(Value::from(s)))
    }
}

/// The rest of a pool's or an evaluation's fields, each into its place; its metadata without
/// `managedFields`.
fn read_rest<'de, T: Entries, A: MapAccess<'de>>(
    mut object: T,
    metadata: fn(&mut T, Field<ObjectMeta>),
    map: &mut A,
) -> Result<T, A::Error> {
    while let Some(key) = map.next_key::<Key<'de>>()? {
        if key.as_str() == "metadata" {
            metadata(&mut object, map.next_value_seed(Metadata)?);
        } else {
            object.read_entry(key, map)?;
        }
    }
    Ok(object.finish())
}

/// `metadata` read into its model without `managedFields`.
struct Metadata;

impl<'de> DeserializeSeed<'de> for Metadata {
    type Value = Field<ObjectMeta>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_option(self)
    }
}

impl<'de> Visitor<'de> for Metadata {
    type Value = Field<ObjectMeta>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("metadata")
    }

    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(Field::Null)
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Field::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        read_model_without(deserializer, MANAGED_FIELDS[1]).map(Field::from_read)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use kube::api::WatchEvent;
    use serde_json::json;

    use super::*;
    use crate::demo::scenario::{Scenario, listing};
    use crate::sources::list::streamed::Raw;

    /// An object as the console holds it, read both ways from one watch event's text:
    /// straight into its model (on its kind's source), and from its value.
    fn both_ways(kind: Kind, object: &Value) -> (Object, Object) {
        let line = json!({"type": "ADDED", "object": object}).to_string();
        let direct = match direct_event(kind, &line) {
            WatchEvent::Added(incoming) => Object::from_event(kind, incoming),
            other => panic!("{other:?}"),
        };
        let via = match serde_json::from_str::<WatchEvent<Raw>>(&line).unwrap() {
            WatchEvent::Added(raw) => Object::new(kind, raw.typed(kind)),
            other => panic!("{other:?}"),
        };
        (direct, via)
    }

    /// A watch event read as a source of `kind` reads it.
    fn direct_event(kind: Kind, line: &str) -> WatchEvent<Incoming> {
        fn read<const K: u8>(line: &str) -> WatchEvent<Incoming> {
            let events: Events<As<K>> = Box::pin(futures::stream::iter([Ok(
                serde_json::from_str(line).unwrap(),
            )]));
            futures::executor::block_on(incoming(events).next())
                .unwrap()
                .unwrap()
        }
        match kind {
            Kind::Pool => read::<POOL>(line),
            Kind::Evaluation => read::<EVALUATION>(line),
            _ => read::<OTHER>(line),
        }
    }

    fn assert_same(kind: Kind, object: &Value) -> Object {
        let (direct, via) = both_ways(kind, object);
        assert_eq!(direct.kind, via.kind);
        assert_eq!(direct.key, via.key, "{object}");
        assert_eq!(direct.pool(), via.pool(), "{object}");
        assert_eq!(direct.evaluation(), via.evaluation(), "{object}");
        assert_eq!(direct.issues(), via.issues(), "{object}");
        assert_eq!(direct.problem(), via.problem(), "{object}");
        // Written out, in order: what `==` on values does not see.
        let text = |o: &Object| serde_json::to_string(&*o.value()).unwrap();
        assert_eq!(text(&direct), text(&via), "{object}");
        assert_eq!(direct.value()["metadata"].get("managedFields"), None);
        direct
    }

    fn kind_of(object: &Value) -> Option<Kind> {
        match object["kind"].as_str()? {
            "ComputePool" => Some(Kind::Pool),
            "ComputePoolEvaluation" => Some(Kind::Evaluation),
            "Event" => Some(Kind::Event),
            _ => None,
        }
    }

    #[test]
    fn every_demo_object_is_held_as_it_was_from_its_value() {
        let mut read = 0;
        let names: Vec<String> = listing()
            .lines()
            .filter_map(|line| line.split_whitespace().next().map(str::to_owned))
            .collect();
        assert!(names.len() > 5, "{names:?}");
        for name in names {
            let scenario = Scenario::builtin(&name).unwrap();
            for object in &scenario.objects {
                let object = crate::demo::scenario::resolve_times(object);
                if let Some(kind) = kind_of(&object) {
                    let held = assert_same(kind, &object);
                    if matches!(kind, Kind::Pool | Kind::Evaluation) {
                        read += 1;
                        assert!(held.pool().is_some() || held.evaluation().is_some());
                    }
                }
            }
        }
        assert!(read > 50, "{read} pools and evaluations");
    }

    #[test]
    fn hostile_objects_are_held_as_they_were_from_their_value() {
        let (pools, evaluations) = crate::demo::large::large_fleet_at(3, chrono::Utc::now());
        let pool = pools[0].clone();
        let mut cases = vec![pool.clone(), evaluations[0].clone()];
        // Not typed first, typed late, typed as something else, or not at all.
        let mut late = serde_json::Map::new();
        late.insert("metadata".into(), pool["metadata"].clone());
        late.insert("spec".into(), pool["spec"].clone());
        late.insert("kind".into(), json!("ComputePool"));
        late.insert("apiVersion".into(), json!("spectrocloud.com/v1alpha1"));
        cases.push(Value::Object(late));
        let mut untyped = pool.clone();
        untyped.as_object_mut().unwrap().shift_remove("kind");
        untyped.as_object_mut().unwrap().shift_remove("apiVersion");
        cases.push(untyped);
        let mut other = pool.clone();
        other["kind"] = json!("ComputePoolEvaluation");
        cases.push(other);
        let mut not_text = pool.clone();
        not_text["kind"] = json!(["ComputePool"]);
        cases.push(not_text);
        // Metadata that is not a mapping, null, with a name of the wrong type; unknown and
        // wrong-typed fields, a null spec.
        for metadata in [
            json!("pool"),
            Value::Null,
            json!({"name": 4, "namespace": {"a": 1}, "managedFields": []}),
        ] {
            let mut odd = pool.clone();
            odd["metadata"] = metadata;
            cases.push(odd);
        }
        let mut odd = pool.clone();
        odd["spec"] = Value::Null;
        odd["surprise"] = json!({"a": [1, 2]});
        odd["status"]["paletteClusterStatuses"] = json!("many");
        cases.push(odd);
        for case in &cases {
            assert_same(Kind::Pool, case);
            assert_same(Kind::Evaluation, case);
        }
        // Not a mapping at all.
        for case in [json!([1, 2]), json!("pool"), json!(4), Value::Null] {
            assert_same(Kind::Pool, &case);
        }
        // Keys written twice: the last value, where the key was first written; the event's
        // object before its type (serde holds it and reads it afterwards).
        let object = r#"{"apiVersion":"spectrocloud.com/v1alpha1","kind":"ComputePool","metadata":{"name":"a","namespace":"n","name":"b","managedFields":[1]},"kind":"ComputePool","spec":{"y":null,"x":1,"x":2},"status":{"status":"Running"}}"#;
        for line in [
            format!(r#"{{"type":"ADDED","object":{object}}}"#),
            format!(r#"{{"object":{object},"type":"ADDED"}}"#),
        ] {
            let WatchEvent::Added(incoming) = direct_event(Kind::Pool, &line) else {
                panic!("added");
            };
            assert!(matches!(incoming, Incoming::Read(_)), "read into the model");
            let WatchEvent::Added(raw) = serde_json::from_str::<WatchEvent<Raw>>(&line).unwrap()
            else {
                panic!("added");
            };
            let direct = Object::from_event(Kind::Pool, incoming);
            let via = Object::new(Kind::Pool, raw.typed(Kind::Pool));
            assert_eq!(direct.name(), "b");
            assert_eq!(direct.pool(), via.pool());
            assert_eq!(direct.issues(), via.issues());
            let text = |o: &Object| serde_json::to_string(&*o.value()).unwrap();
            assert_eq!(text(&direct), text(&via));
        }
    }

    #[test]
    fn a_list_page_reads_its_pools_into_their_model() {
        let (pools, _) = crate::demo::large::large_fleet_at(2, chrono::Utc::now());
        let text = json!({"kind": "ComputePoolList", "items": pools}).to_string();
        let read = super::super::parse::parse_items(
            &text,
            super::super::parse::Items::<Object>::new(Kind::Pool),
        )
        .unwrap();
        let old = super::super::parse::parse_items(
            &text,
            super::super::parse::Items::<Value>::new(Kind::Pool),
        )
        .unwrap();
        assert_eq!(read.len(), 2);
        for (read, value) in read.iter().zip(old) {
            let via = Object::new(Kind::Pool, value);
            assert_eq!(read.pool(), via.pool());
            let text = |o: &Object| serde_json::to_string(&*o.value()).unwrap();
            assert_eq!(text(read), text(&via));
        }
    }
}
