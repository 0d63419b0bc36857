//! A watch event's object as the console reads it: a pool or an evaluation straight into its
//! model as the event's text is parsed, with no JSON value built first (its maps hashed and
//! every key allocated were most of what reading a fleet cost: `domain::field::read`);
//! anything else as a JSON value, like [`super::streamed::Raw`]. Either way without
//! `metadata.managedFields`, which is passed over, never built.

use serde::Deserialize;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde_json::Value;

use super::parse::{MANAGED_FIELDS, entry_without, with_type};
use super::{api_version, streamed::Item};
use crate::domain::Kind;
use crate::domain::field::{Entries, Field, Key, read_model_without};
use crate::domain::model::{ComputePool, ComputePoolEvaluation, ObjectMeta};
use crate::inventory::Object;

/// A watch event's object: read into its model, or kept as a value.
#[derive(Clone, Debug)]
pub enum Incoming {
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

    /// The object as a value, with its apiVersion and kind (the kind's when it leaves them
    /// out).
    pub fn into_value(self, kind: Kind) -> Value {
        match self {
            Incoming::Read(object) => (*object.value()).clone(),
            Incoming::Value(value) => with_type(value, &api_version(kind), kind.api().kind),
        }
    }
}

/// The console's sources hold objects, pools and evaluations read straight from the text.
impl Item for Object {
    type Object = Incoming;

    fn from_event(kind: Kind, object: Incoming) -> Object {
        match object {
            // Read as the kind it says it is: the source's own, as a server sends them.
            Incoming::Read(object) if object.kind == kind => object,
            other => Object::new(kind, other.into_value(kind)),
        }
    }
}

impl<'de> Deserialize<'de> for Incoming {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Incoming, D::Error> {
        deserializer.deserialize_any(Reading)
    }
}

struct Reading;

impl<'de> Visitor<'de> for Reading {
    type Value = Incoming;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an object")
    }

    /// An object whose first fields are its `apiVersion` and `kind`, as a server writes
    /// every object, is read into its model when it is a pool or an evaluation; anything
    /// else is read as a value.
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Incoming, A::Error> {
        let mut fields = serde_json::Map::new();
        let typed = |key: Option<Key<'de>>, name: &str, map: &mut A| match key {
            Some(key) if key.as_str() == name => map.next_value::<Value>().map(Ok),
            other => Ok(Err(other)),
        };
        let mut pending = None;
        match typed(map.next_key()?, "apiVersion", &mut map)? {
            Ok(api) => match typed(map.next_key()?, "kind", &mut map)? {
                Ok(kind) if kind.as_str() == Some(crate::domain::model::pool::KIND) => {
                    let pool = ComputePool {
                        api_version: Field::from_value(api),
                        kind: Field::from_value(kind),
                        ..ComputePool::default()
                    };
                    let pool = read_rest(pool, |p, meta| p.metadata = meta, &mut map)?;
                    return Ok(Incoming::Read(Object::from_pool(pool)));
                }
                Ok(kind) if kind.as_str() == Some(crate::domain::model::evaluation::KIND) => {
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
    /// straight into its model, and from its value.
    fn both_ways(kind: Kind, object: &Value) -> (Object, Object) {
        let line = json!({"type": "ADDED", "object": object}).to_string();
        let direct = match serde_json::from_str::<WatchEvent<Incoming>>(&line).unwrap() {
            WatchEvent::Added(incoming) => Object::from_event(kind, incoming),
            other => panic!("{other:?}"),
        };
        let via = match serde_json::from_str::<WatchEvent<Raw>>(&line).unwrap() {
            WatchEvent::Added(raw) => Object::new(kind, raw.typed(kind)),
            other => panic!("{other:?}"),
        };
        (direct, via)
    }

    fn assert_same(kind: Kind, object: &Value) -> Object {
        let (direct, via) = both_ways(kind, object);
        assert_eq!(direct.kind, via.kind);
        assert_eq!(direct.key, via.key, "{object}");
        assert_eq!(direct.pool(), via.pool(), "{object}");
        assert_eq!(direct.evaluation(), via.evaluation(), "{object}");
        assert_eq!(direct.issues(), via.issues(), "{object}");
        assert_eq!(direct.problem(), via.problem(), "{object}");
        assert_eq!(direct.value(), via.value(), "{object}");
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
        // Keys written twice: the last value, where the key was first written.
        let line = r#"{"type":"ADDED","object":{"apiVersion":"spectrocloud.com/v1alpha1","kind":"ComputePool","metadata":{"name":"a","namespace":"n","name":"b","managedFields":[1]},"kind":"ComputePool","spec":{"x":1,"x":2}}}"#;
        let WatchEvent::Added(incoming) =
            serde_json::from_str::<WatchEvent<Incoming>>(line).unwrap()
        else {
            panic!("added");
        };
        let WatchEvent::Added(raw) = serde_json::from_str::<WatchEvent<Raw>>(line).unwrap() else {
            panic!("added");
        };
        let direct = Object::from_event(Kind::Pool, incoming);
        let via = Object::new(Kind::Pool, raw.typed(Kind::Pool));
        assert_eq!(direct.name(), "b");
        assert_eq!(direct.pool(), via.pool());
        assert_eq!(direct.issues(), via.issues());
    }
}
