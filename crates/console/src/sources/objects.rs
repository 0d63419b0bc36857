//! An object as the console's sources read it, from a watch event's text or a list page's:
//! on a pool's source, a pool straight into its model as the text is parsed, with no JSON
//! value built first; on an evaluation's, an evaluation; anything else as a JSON value.
//! Either way without `metadata.managedFields`, which is passed over, never built.
//! [`Watched`] is what kube's watcher reads them as.

use std::borrow::Cow;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta as ServerMeta;
use kube::core::{ApiResource, DynamicResourceScope};
use serde::Deserialize;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde_json::Value;

use super::without::{MANAGED_FIELDS, entry_without, of_kind};
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
            Incoming::Value(value) => of_kind(value, kind),
        }
    }

    /// The object as a source of `kind` holds it.
    pub fn into_object(self, kind: Kind) -> Object {
        match self {
            // Read straight only on its own kind's source.
            Incoming::Read(object) => {
                debug_assert_eq!(object.kind, kind, "read on another kind's source");
                object
            }
            Incoming::Value(value) => Object::new(kind, of_kind(value, kind)),
        }
    }
}

/// Reads one object as a source of `kind` does.
pub fn read<'de, D: Deserializer<'de>>(kind: Kind, deserializer: D) -> Result<Incoming, D::Error> {
    Reading(kind).deserialize(deserializer)
}

/// What a [`Watched`] object is read as: a pool ([`POOL`]) or an evaluation ([`EVALUATION`])
/// into its model, or any object as a value ([`VALUE`]). serde reads without context: the
/// kind is the type's.
pub const VALUE: u8 = 0;
pub const POOL: u8 = 1;
pub const EVALUATION: u8 = 2;

/// An object as kube's watcher reads it for a source: the server's `resourceVersion` the
/// watcher keeps its place by, and the object as the source holds it.
#[derive(Clone, Debug)]
pub struct Watched<const K: u8> {
    meta: ServerMeta,
    pub object: Incoming,
}

impl<'de, const K: u8> Deserialize<'de> for Watched<K> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let kind = match K {
            POOL => Kind::Pool,
            EVALUATION => Kind::Evaluation,
            // Any kind not read straight (events are read whole by their own model).
            _ => Kind::Event,
        };
        let object = read(kind, deserializer)?;
        let meta = ServerMeta {
            resource_version: object.version(),
            ..ServerMeta::default()
        };
        Ok(Watched { meta, object })
    }
}

/// The kind is the watcher's `ApiResource`, given when the watch is made.
impl<const K: u8> kube::Resource for Watched<K> {
    type DynamicType = ApiResource;
    type Scope = DynamicResourceScope;

    fn kind(resource: &ApiResource) -> Cow<'_, str> {
        Cow::Borrowed(&resource.kind)
    }

    fn group(resource: &ApiResource) -> Cow<'_, str> {
        Cow::Borrowed(&resource.group)
    }

    fn version(resource: &ApiResource) -> Cow<'_, str> {
        Cow::Borrowed(&resource.version)
    }

    fn api_version(resource: &ApiResource) -> Cow<'_, str> {
        Cow::Borrowed(&resource.api_version)
    }

    fn plural(resource: &ApiResource) -> Cow<'_, str> {
        Cow::Borrowed(&resource.plural)
    }

    fn meta(&self) -> &ServerMeta {
        &self.meta
    }

    fn meta_mut(&mut self) -> &mut ServerMeta {
        &mut self.meta
    }
}

/// Reads an object for the source of a kind: a pool or an evaluation straight into its model
/// when it is the source's own kind, anything else as a value.
struct Reading(Kind);

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
                    if self.0 == Kind::Pool
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
                    if self.0 == Kind::Evaluation
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

    use futures::StreamExt;
    use kube::api::WatchEvent;
    use kube::runtime::watcher::Event;
    use serde_json::json;

    use super::*;
    use crate::demo::scenario::{Scenario, listing};
    use crate::sources::ways::{Way, watch};

    /// An object as it was sent, read without its managedFields (as `get` writes it).
    fn raw(text: &str, kind: Kind) -> Value {
        let mut deserializer = serde_json::Deserializer::from_str(text);
        read(Kind::Event, &mut deserializer)
            .unwrap()
            .into_value(kind)
    }

    /// An object as a source of `kind` holds it, read both ways from its text: as the
    /// source reads it (straight into its model when it is of the source's kind), and from
    /// its value as before; with whether it was read straight.
    fn both_ways(kind: Kind, object: &Value) -> (Object, Object, bool) {
        let text = object.to_string();
        let mut deserializer = serde_json::Deserializer::from_str(&text);
        let incoming = read(kind, &mut deserializer).unwrap();
        let straight = matches!(incoming, Incoming::Read(_));
        let direct = incoming.into_object(kind);
        let via = Object::new(kind, raw(&text, kind));
        (direct, via, straight)
    }

    /// A watch event as a pool's source reads it.
    fn pool_event(line: &str) -> WatchEvent<Incoming> {
        match serde_json::from_str::<WatchEvent<Watched<POOL>>>(line).unwrap() {
            WatchEvent::Added(object) => WatchEvent::Added(object.object),
            _ => panic!("added"),
        }
    }

    /// Asserts both ways hold the object alike; whether it was read straight.
    fn assert_same(kind: Kind, object: &Value) -> bool {
        let (direct, via, straight) = both_ways(kind, object);
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
        straight
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
        // Objects read straight, by the source's kind.
        let mut straight = std::collections::BTreeMap::<String, usize>::new();
        let names: Vec<String> = listing()
            .lines()
            .filter_map(|line| line.split_whitespace().next().map(str::to_owned))
            .collect();
        assert!(names.len() > 5, "{names:?}");
        for name in names {
            let scenario = Scenario::builtin(&name).unwrap();
            for object in &scenario.objects {
                let object = crate::demo::scenario::resolve_times(object);
                let Some(own) = kind_of(&object) else {
                    continue;
                };
                // On its own kind's source and on the others'.
                for kind in [Kind::Pool, Kind::Evaluation, Kind::Event] {
                    if assert_same(kind, &object) {
                        assert_eq!(kind, own, "read straight only on its own kind's source");
                        *straight.entry(format!("{kind:?}")).or_default() += 1;
                    }
                }
            }
        }
        let read = |kind: &str| straight.get(kind).copied().unwrap_or(0);
        assert!(read("Pool") > 25 && read("Evaluation") > 25, "{straight:?}");
        assert_eq!(read("Event"), 0, "events are read whole by their own model");
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
            for kind in [Kind::Pool, Kind::Evaluation, Kind::Event] {
                assert_same(kind, case);
            }
        }
        // Not a mapping at all.
        for case in [json!([1, 2]), json!("pool"), json!(4), Value::Null] {
            assert!(!assert_same(Kind::Pool, &case));
        }
        // Keys written twice: the last value, where the key was first written; the event's
        // object before its type (serde holds it and reads it afterwards).
        let object = r#"{"apiVersion":"spectrocloud.com/v1alpha1","kind":"ComputePool","metadata":{"name":"a","namespace":"n","name":"b","managedFields":[1]},"kind":"ComputePool","spec":{"y":null,"x":1,"x":2},"status":{"status":"Running"}}"#;
        for line in [
            format!(r#"{{"type":"ADDED","object":{object}}}"#),
            format!(r#"{{"object":{object},"type":"ADDED"}}"#),
        ] {
            let WatchEvent::Added(incoming) = pool_event(&line) else {
                panic!("added");
            };
            assert!(matches!(incoming, Incoming::Read(_)), "read into the model");
            let WatchEvent::Added(sent) =
                serde_json::from_str::<WatchEvent<Watched<VALUE>>>(&line).unwrap()
            else {
                panic!("added");
            };
            let direct = incoming.into_object(Kind::Pool);
            let via = Object::new(Kind::Pool, sent.object.into_value(Kind::Pool));
            assert_eq!(direct.name(), "b");
            assert_eq!(direct.pool(), via.pool());
            assert_eq!(direct.issues(), via.issues());
            let text = |o: &Object| serde_json::to_string(&*o.value()).unwrap();
            assert_eq!(text(&direct), text(&via));
        }
    }

    #[test]
    fn a_list_page_is_read_as_its_kinds_watch_is() {
        use kube::core::ObjectList;
        let (pools, evaluations) = crate::demo::large::large_fleet_at(2, chrono::Utc::now());
        // A pool's page, and an evaluation's page that (wrongly) holds a pool too.
        let mut mixed = evaluations.clone();
        mixed.push(pools[0].clone());
        let text = |o: &Object| serde_json::to_string(&*o.value()).unwrap();
        for (kind, items) in [(Kind::Pool, pools), (Kind::Evaluation, mixed)] {
            let page = json!({"kind": "List", "apiVersion": "v1", "items": items}).to_string();
            let read: Vec<Incoming> = match kind {
                Kind::Pool => serde_json::from_str::<ObjectList<Watched<POOL>>>(&page)
                    .unwrap()
                    .items
                    .into_iter()
                    .map(|w| w.object)
                    .collect(),
                _ => serde_json::from_str::<ObjectList<Watched<EVALUATION>>>(&page)
                    .unwrap()
                    .items
                    .into_iter()
                    .map(|w| w.object)
                    .collect(),
            };
            assert_eq!(read.len(), items.len());
            for (read, item) in read.into_iter().zip(&items) {
                assert!(
                    assert_same(kind, item) == (kind_of(item) == Some(kind)),
                    "read straight only on its own kind's page"
                );
                let via = Object::new(kind, raw(&item.to_string(), kind));
                let read = read.into_object(kind);
                assert_eq!(read.kind, kind);
                assert_eq!(text(&read), text(&via));
            }
        }
    }

    /// The watch each kind's source opens on a demo cluster: its pools or evaluations
    /// straight into the model, everything else (events) as values, and every object held
    /// as it was from its value.
    #[test]
    fn each_kinds_watch_reads_its_own_objects_straight() {
        use crate::demo::{DemoCluster, Options};
        use crate::sources::connection::{Target, connect};
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let cluster = DemoCluster::start(Options {
                scenario: Some(Scenario::large_with_events(3, 6)),
                pace: None,
                ..Options::default()
            })
            .await
            .unwrap();
            let client = connect(&Target {
                kubeconfig: None,
                context: None,
                inline: Some(cluster.kubeconfig()),
            })
            .await
            .unwrap()
            .client;
            // The watch-list's objects, read as the source reads them and as `get` does.
            async fn listed(client: &kube::Client, kind: Kind, straight: bool) -> Vec<Incoming> {
                let mut events = match (straight, kind) {
                    (true, Kind::Pool) => watch::<POOL>(client, kind, None, None, Way::Streamed),
                    (true, Kind::Evaluation) => {
                        watch::<EVALUATION>(client, kind, None, None, Way::Streamed)
                    }
                    _ => watch::<VALUE>(client, kind, None, None, Way::Streamed),
                };
                let mut objects = Vec::new();
                let wait = std::time::Duration::from_secs(30);
                while let Ok(Some(event)) = tokio::time::timeout(wait, events.next()).await {
                    match event.unwrap() {
                        Event::InitApply(object) => objects.push(object),
                        Event::InitDone => break,
                        _ => {}
                    }
                }
                objects
            }
            for (kind, count, straight) in [
                (Kind::Pool, 3, true),
                (Kind::Evaluation, 3, true),
                (Kind::Event, 6, false),
            ] {
                let read = listed(&client, kind, true).await;
                let raw = listed(&client, kind, false).await;
                assert_eq!((read.len(), raw.len()), (count, count), "{kind:?}");
                for (incoming, value) in read.into_iter().zip(raw) {
                    assert_eq!(matches!(incoming, Incoming::Read(_)), straight, "{kind:?}");
                    let held = incoming.into_object(kind);
                    let via = Object::new(kind, value.into_value(kind));
                    assert_eq!(held.key, via.key);
                    let text = |o: &Object| serde_json::to_string(&*o.value()).unwrap();
                    assert_eq!(text(&held), text(&via), "{kind:?}");
                }
            }
            cluster.stop().await;
        });
    }
}
