//! Reading the model through serde ([`FromJson::read`]), straight from JSON text or from a
//! JSON value alike, without building a JSON value first: a value's maps hash and allocate
//! every key, which was most of what reading a fleet cost. A field of the wrong shape is
//! built into a value and kept as invalid, an unknown field is kept in `extra`, and the last
//! of two equal keys wins.

use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::key::Key;
use super::shape::{FromJson, Mismatch};
use super::text::Text;
use super::value::{Field, Invalid};

/// A struct read a field at a time, straight from a mapping's entries: the `model!` structs.
pub trait Entries: Default {
    /// Reads the value of `key` (the next in `map`) into its field, or into `extra`.
    fn read_entry<'de, A: MapAccess<'de>>(
        &mut self,
        key: Key<'de>,
        map: &mut A,
    ) -> Result<(), A::Error>;

    /// The struct once every entry is read.
    fn finish(self) -> Self {
        self
    }
}

/// Reads a [`Field`] straight from JSON text: `null` is [`Field::Null`], anything else is
/// read by `T` ([`FromJson::read`]).
pub struct FieldSeed<T>(PhantomData<fn() -> T>);

impl<T> FieldSeed<T> {
    pub fn new() -> Self {
        FieldSeed(PhantomData)
    }
}

impl<T> Default for FieldSeed<T> {
    fn default() -> Self {
        FieldSeed::new()
    }
}

impl<'de, T: FromJson> DeserializeSeed<'de> for FieldSeed<T> {
    type Value = Field<T>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Field<T>, D::Error> {
        deserializer.deserialize_option(self)
    }
}

impl<'de, T: FromJson> Visitor<'de> for FieldSeed<T> {
    type Value = Field<T>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_none<E>(self) -> Result<Field<T>, E> {
        Ok(Field::Null)
    }

    fn visit_unit<E>(self) -> Result<Field<T>, E> {
        Ok(Field::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Field<T>, D::Error> {
        T::read(deserializer).map(Field::from_read)
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
}

impl FromJson for Text {
    fn read<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Result<Self, Mismatch>, D::Error> {
        read_text(deserializer)
    }
}

/// The visitor methods for the shapes a type does not take: the value is built, exactly as
/// `serde_json::Value` builds it, and handed back as the mismatch.
macro_rules! otherwise {
    ($expected:expr; scalars) => {
        fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
            Ok(Err(Mismatch {
                raw: Value::Bool(v),
                expected: $expected,
            }))
        }

        fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
            Ok(Err(Mismatch {
                raw: Value::from(v),
                expected: $expected,
            }))
        }

        fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
            Ok(Err(Mismatch {
                raw: Value::from(v),
                expected: $expected,
            }))
        }

        fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
            let raw = serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number);
            Ok(Err(Mismatch {
                raw,
                expected: $expected,
            }))
        }

        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(Err(Mismatch {
                raw: Value::Null,
                expected: $expected,
            }))
        }

        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok(Err(Mismatch {
                raw: Value::Null,
                expected: $expected,
            }))
        }
    };
    ($expected:expr; text) => {
        fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
            Ok(Err(Mismatch {
                raw: Value::from(v),
                expected: $expected,
            }))
        }

        fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
            Ok(Err(Mismatch {
                raw: Value::String(v),
                expected: $expected,
            }))
        }
    };
    ($expected:expr; list) => {
        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
            let raw = Value::deserialize(serde::de::value::SeqAccessDeserializer::new(seq))?;
            Ok(Err(Mismatch {
                raw,
                expected: $expected,
            }))
        }
    };
    ($expected:expr; mapping) => {
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            let raw = Value::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
            Ok(Err(Mismatch {
                raw,
                expected: $expected,
            }))
        }
    };
}

/// Reads a `model!` struct straight from JSON text: every entry into its field or `extra`.
pub fn read_model<'de, T: Entries, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Result<T, Mismatch>, D::Error> {
    deserializer.deserialize_any(Model(None, PhantomData))
}

/// [`read_model`] without the entry `skip`, which is passed over as it is read, never built
/// (an object's `metadata.managedFields`).
pub fn read_model_without<'de, T: Entries, D: Deserializer<'de>>(
    deserializer: D,
    skip: &'static str,
) -> Result<Result<T, Mismatch>, D::Error> {
    deserializer.deserialize_any(Model(Some(skip), PhantomData))
}

struct Model<T>(Option<&'static str>, PhantomData<fn() -> T>);

impl<'de, T: Entries> Visitor<'de> for Model<T> {
    type Value = Result<T, Mismatch>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut object = T::default();
        while let Some(key) = map.next_key::<Key<'de>>()? {
            if self.0 == Some(key.as_str()) {
                map.next_value::<serde::de::IgnoredAny>()?;
            } else {
                object.read_entry(key, &mut map)?;
            }
        }
        Ok(Ok(object.finish()))
    }

    otherwise!("a mapping"; scalars);
    otherwise!("a mapping"; text);
    otherwise!("a mapping"; list);
}

/// Reads a text straight from JSON text (a short one is held inline, never allocated).
fn read_text<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Result<Text, Mismatch>, D::Error> {
    struct AText;
    impl<'de> Visitor<'de> for AText {
        type Value = Result<Text, Mismatch>;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON value")
        }

        fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
            Ok(Ok(Text::from(v)))
        }

        fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
            Ok(Ok(Text::from(v)))
        }

        otherwise!("a string"; scalars);
        otherwise!("a string"; list);
        otherwise!("a string"; mapping);
    }
    deserializer.deserialize_any(AText)
}

/// Reads a list of fields straight from JSON text, held at exactly its length.
pub(super) fn read_list<'de, T: FromJson, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Result<Vec<Field<T>>, Mismatch>, D::Error> {
    struct List<T>(PhantomData<fn() -> T>);
    impl<'de, T: FromJson> Visitor<'de> for List<T> {
        type Value = Result<Vec<Field<T>>, Mismatch>;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON value")
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
            while let Some(item) = seq.next_element_seed(FieldSeed::<T>::new())? {
                items.push(item);
            }
            Ok(Ok(exactly(items)))
        }

        otherwise!("a list"; scalars);
        otherwise!("a list"; text);
        otherwise!("a list"; mapping);
    }
    deserializer.deserialize_any(List(PhantomData))
}

/// Reads a mapping's entries straight from JSON text, in the order written, each key once
/// (the last value written for it, at the place it was first written, as a JSON value's map
/// keeps them), held at exactly their number.
pub(super) fn read_map<'de, T: FromJson, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Result<Pairs<T>, Mismatch>, D::Error> {
    struct Entries<T>(PhantomData<fn() -> T>);
    impl<'de, T: FromJson> Visitor<'de> for Entries<T> {
        type Value = Result<Pairs<T>, Mismatch>;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON value")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut entries = Vec::new();
            let mut index = None;
            while let Some(key) = map.next_key::<Key<'de>>()? {
                let value = map.next_value_seed(FieldSeed::<T>::new())?;
                let key = Text::from(key.as_str());
                insert_last_wins(&mut entries, &mut index, key, value);
            }
            Ok(Ok(exactly(entries)))
        }

        otherwise!("a mapping"; scalars);
        otherwise!("a mapping"; text);
        otherwise!("a mapping"; list);
    }
    deserializer.deserialize_any(Entries(PhantomData))
}

/// A list grown item by item, moved to a block of exactly its length: shrinking it in place
/// may keep the grown block (`cargo bench --bench fleet -- events` held 7 MB more quiet).
fn exactly<T>(grown: Vec<T>) -> Vec<T> {
    if grown.len() == grown.capacity() {
        return grown;
    }
    let mut exact = Vec::with_capacity(grown.len());
    exact.extend(grown);
    exact
}

/// A mapping's entries as read, in the order written.
type Pairs<T> = Vec<(Text, Field<T>)>;

/// Up to this many entries, a key written twice is found by looking at each; past it, by an
/// index (a hostile mapping of a million keys costs a million lookups, not their square).
const SCAN: usize = 16;

/// Adds an entry, or replaces the value of the entry with its key where it was first
/// written.
fn insert_last_wins<V>(
    entries: &mut Vec<(Text, V)>,
    index: &mut Option<std::collections::HashMap<Text, usize>>,
    key: Text,
    value: V,
) {
    let found = if entries.len() < SCAN {
        entries.iter().position(|(k, _)| *k == key)
    } else {
        let index = index.get_or_insert_with(|| {
            entries
                .iter()
                .enumerate()
                .map(|(at, (k, _))| (k.clone(), at))
                .collect()
        });
        index.get(&key).copied()
    };
    match found.and_then(|at| entries.get_mut(at)) {
        Some((_, old)) => *old = value,
        None => {
            if let Some(index) = index {
                index.insert(key.clone(), entries.len());
            }
            entries.push((key, value));
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use proptest::prelude::*;
    use serde_json::json;

    use super::*;
    use crate::field::Lenient;
    use crate::model::{ComputePool, ComputePoolEvaluation};
    use crate::path::At;

    fn issues<T: Lenient>(object: &T) -> Vec<crate::field::Issue> {
        let mut out = Vec::new();
        object.collect_issues(&At::Root, &mut out);
        out
    }

    /// Reads `text` as `T`: what the model writes it reads back the same (object, text and
    /// issues), and the text's JSON value reads as the text does. A value of the wrong shape
    /// is handed back built, the same either way.
    fn reads_back<T>(text: &str)
    where
        T: FromJson + Lenient + PartialEq + std::fmt::Debug + serde::Serialize,
    {
        let read = |text: &str| {
            let mut deserializer = serde_json::Deserializer::from_str(text);
            let read = T::read(&mut deserializer).expect("the text is JSON");
            deserializer.end().expect("one value");
            read
        };
        let value: Value = serde_json::from_str(text).expect("the text is JSON");
        match (read(text), crate::field::from_value::<T>(value)) {
            (Ok(object), Ok(from_value)) => {
                assert_eq!(object, from_value, "{text}");
                let written = serde_json::to_string(&object).unwrap();
                let again = read(&written).expect("what the model writes is its shape");
                assert_eq!(object, again, "{text}");
                // In the same order (`==` on unknown fields does not see it).
                assert_eq!(written, serde_json::to_string(&again).unwrap(), "{text}");
                assert_eq!(issues(&object), issues(&again), "{text}");
            }
            (Err(read), Err(from_value)) => {
                assert_eq!(read.raw.to_string(), from_value.raw.to_string(), "{text}");
                assert_eq!(read.expected, from_value.expected, "{text}");
            }
            (read, from_value) => panic!("{text}: read {read:?}, from its value {from_value:?}"),
        }
    }

    fn pool() -> Value {
        let host = |status: &str| {
            json!({"architecture": "AMD64", "cpuCount": 32, "memoryGB": 256,
                   "gpuCountByVariant": {"NVIDIA A100-SXM4-80GB | 80 GB": 4},
                   "gpuMemoryGBByVariant": {"NVIDIA A100-SXM4-80GB | 80 GB": 320},
                   "status": status, "statusUpdatedAt": "2026-12-01T10:00:00Z"})
        };
        json!({
            "apiVersion": "spectrocloud.com/v1alpha1", "kind": "ComputePool",
            "metadata": {"name": "pool-1", "namespace": "project-1", "uid": "u-1",
                         "resourceVersion": "41", "generation": 3,
                         "creationTimestamp": "2026-11-28T10:00:00Z",
                         "finalizers": ["spectrocloud.com/computepool-finalizer"],
                         "labels": {"fleet": "large", "tier": "gpu"},
                         "annotations": {"note": "kept"},
                         "managedFields": [{"manager": "kubectl-create"}]},
            "spec": {"profileBundleRef": {"name": "edge", "namespace": "project-1", "cloudType": "edge-native"},
                     "clusterVariant": {"dedicated": {
                        "scalingPolicyRef": {"name": "gpu-scaling", "namespace": "project-1"},
                        "paletteClusterDeploymentConfig": {"nodePoolRequirements": {
                            "controlPlanePool": {"nodeCount": 3, "workerNodeEligible": false, "architecture": "AMD64", "cpu": {"cpuCount": 8}},
                            "workerPools": [{"name": "gpu-workers", "architecture": "AMD64", "gpu": {"variant": "NVIDIA A100-SXM4-80GB | 80 GB", "gpuCount": 40}}]},
                          "edge": {"vip": "10.100.0.1"}}}}},
            "status": {"status": "Running",
                       "hardwareCapacity": [{"architecture": "AMD64", "totalCPU": 320, "totalMemory": "2560Gi",
                                             "gpu": [{"variant": "NVIDIA A100-SXM4-80GB | 80 GB", "gpuCount": 40}]}],
                       "paletteClusterStatuses": [{"name": "pool-1", "health": "Healthy", "status": "Running",
                           "allocatedMachinePools": [{"name": "worker-pool-0", "nodeType": "WorkerOnly",
                               "workerPoolRequirementsName": "gpu-workers",
                               "hosts": {"host-a": host("Healthy"), "host-b": host("Provisioning")}}]}]}
        })
    }

    fn evaluation() -> Value {
        json!({
            "apiVersion": "spectrocloud.com/v1alpha1", "kind": "ComputePoolEvaluation",
            "metadata": {"name": "pool-1", "namespace": "project-1"},
            "spec": {"poolEvaluations": {"pool-1/worker-pool-0": {
                        "cpu": {"count": 320, "target": 320, "utilization": 41.5},
                        "gpu": {"NVIDIA L40S | 48 GB": {"count": 40, "target": 44, "utilization": 97}},
                        "nodeWastes": [{"host": "h", "cpuCount": 2, "gpuCount": {"x": 1}, "wasteScore": 0.5}],
                        "evaluatedAt": "2026-12-01T10:00:00Z"}},
                     "cooldownDuration": "15m", "abortDuration": "30m"},
            "status": {"poolScalingStates": {"pool-1/worker-pool-0": {"state": "Idle", "stateChangedAt": "2026-12-01T09:00:00Z"}}}
        })
    }

    /// Every place in a value, as the steps to it.
    fn places(value: &Value, at: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
        out.push(at.clone());
        match value {
            Value::Object(map) => {
                for (key, inner) in map {
                    at.push(Step::Key(key.clone()));
                    places(inner, at, out);
                    at.pop();
                }
            }
            Value::Array(items) => {
                for (index, inner) in items.iter().enumerate() {
                    at.push(Step::Index(index));
                    places(inner, at, out);
                    at.pop();
                }
            }
            _ => {}
        }
    }

    #[derive(Clone, Debug)]
    enum Step {
        Key(String),
        Index(usize),
    }

    fn at_mut<'a>(value: &'a mut Value, steps: &[Step]) -> &'a mut Value {
        steps.iter().fold(value, |value, step| match step {
            Step::Key(key) => &mut value[key.as_str()],
            Step::Index(index) => &mut value[*index],
        })
    }

    /// Any JSON value, with keys that are often a model's own field names.
    fn any_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            (-1e12f64..1e12).prop_map(Value::from),
            "[a-zA-Z0-9 é\\\\\"\u{202e}]{0,12}".prop_map(Value::String),
        ];
        let key = prop_oneof![
            Just("name".to_owned()),
            Just("status".to_owned()),
            Just("architecture".to_owned()),
            Just("cpuCount".to_owned()),
            Just("hosts".to_owned()),
            "[a-zA-Z\\\\\"é]{1,8}",
        ];
        leaf.prop_recursive(3, 24, 4, move |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::vec((key.clone(), inner), 0..4)
                    .prop_map(|entries| Value::Object(entries.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// Whatever is written anywhere in a pool or an evaluation (a wrong type, a null, a
        /// field unknown, text with escapes), what the model makes of it, it writes and reads
        /// back the same; from the text or from its value alike.
        #[test]
        fn what_the_model_writes_it_reads_back_the_same(
            changes in prop::collection::vec((any::<prop::sample::Index>(), any_json()), 0..6),
            evaluation_too in any::<bool>(),
        ) {
            for (template, is_pool) in [(pool(), true), (evaluation(), false)] {
                if !is_pool && !evaluation_too {
                    continue;
                }
                let mut object = template;
                for (index, replacement) in &changes {
                    let mut all = Vec::new();
                    places(&object, &mut Vec::new(), &mut all);
                    let steps = index.get(&all).clone();
                    *at_mut(&mut object, &steps) = replacement.clone();
                }
                let text = object.to_string();
                if is_pool {
                    reads_back::<ComputePool>(&text);
                } else {
                    reads_back::<ComputePoolEvaluation>(&text);
                }
            }
        }

        /// A field of the wrong type anywhere in a pool is an issue at its path, and the rest
        /// of the pool is read as it was.
        #[test]
        fn a_field_of_the_wrong_type_is_an_issue_at_its_path_and_the_rest_is_read(
            place in any::<prop::sample::Index>(),
            wrong in any::<prop::sample::Index>(),
        ) {
            let (pointer, path, shape) = *place.get(TYPED);
            let replacement = {
                let values: Vec<Value> = wrong_values()
                    .into_iter()
                    .filter(|(s, _)| *s != shape)
                    .map(|(_, v)| v)
                    .collect();
                wrong.get(&values).clone()
            };
            let good: ComputePool = crate::field::from_value(pool()).unwrap();
            let mut bad = pool();
            *bad.pointer_mut(pointer).unwrap() = replacement;
            let bad: ComputePool = crate::field::from_value(bad).unwrap();
            let wrong_here: Vec<_> = issues(&bad)
                .into_iter()
                .filter(|issue| !issues(&good).contains(issue))
                .collect();
            prop_assert_eq!(wrong_here.len(), 1, "{:?}", wrong_here);
            let is_wrong_type = matches!(wrong_here[0], crate::field::Issue::WrongType { .. });
            prop_assert!(is_wrong_type, "{:?}", wrong_here);
            prop_assert_eq!(wrong_here[0].path().to_string(), path);
            let mut written = serde_json::to_value(&bad).unwrap();
            let good_written = serde_json::to_value(&good).unwrap();
            *written.pointer_mut(pointer).unwrap() = good_written.pointer(pointer).unwrap().clone();
            prop_assert_eq!(written, good_written);
        }
    }

    /// Places in [`pool`] whose field has a type: where, its path as an issue says it, and the
    /// shape it takes (`s` text, `i` integer, `b` true or false, `m` mapping).
    const TYPED: &[(&str, &str, char)] = &[
        ("/metadata/name", "metadata.name", 's'),
        ("/metadata/generation", "metadata.generation", 'i'),
        ("/spec/profileBundleRef", "spec.profileBundleRef", 'm'),
        (
            "/spec/profileBundleRef/name",
            "spec.profileBundleRef.name",
            's',
        ),
        (
            "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/nodePoolRequirements/controlPlanePool/nodeCount",
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.controlPlanePool.nodeCount",
            'i',
        ),
        (
            "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/nodePoolRequirements/controlPlanePool/workerNodeEligible",
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.controlPlanePool.workerNodeEligible",
            'b',
        ),
        (
            "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/nodePoolRequirements/workerPools/0/gpu/gpuCount",
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.workerPools[0].gpu.gpuCount",
            'i',
        ),
        (
            "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/edge/vip",
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.edge.vip",
            's',
        ),
        ("/status/status", "status.status", 's'),
        (
            "/status/paletteClusterStatuses/0/allocatedMachinePools/0/hosts/host-a/cpuCount",
            "status.paletteClusterStatuses[0].allocatedMachinePools[0].hosts.host-a.cpuCount",
            'i',
        ),
        (
            "/status/paletteClusterStatuses/0/allocatedMachinePools/0/hosts/host-b/status",
            "status.paletteClusterStatuses[0].allocatedMachinePools[0].hosts.host-b.status",
            's',
        ),
    ];

    /// Values of each shape, to put where another is wanted.
    fn wrong_values() -> Vec<(char, Value)> {
        vec![
            ('s', json!("text")),
            ('i', json!(7)),
            ('b', json!(true)),
            ('m', json!({"x": [1]})),
            ('l', json!([1, "two"])),
        ]
    }

    #[test]
    fn keys_written_twice_keep_the_first_place_and_the_last_value() {
        // In a struct, a map of labels, hosts (their hardware and their own fields) and in
        // a map past the size where keys written twice are found by an index.
        let many: String = (0..40)
            .map(|i| format!("\"k{}\": {i}, ", i % 25))
            .collect::<String>();
        let text = format!(
            r#"{{"kind": "ComputePool", "metadata": {{"name": "a", "labels": {{"x": "1", "y": "2", "x": "3"}}, "name": "b"}},
               "spec": {{"sharedWith": {{"t": ["p"], "t": null}}, "zzz": 1, "zzz": {{"a": 1, "a": 2}}}},
               "status": {{"big": {{{many}"end": 0}}, "paletteClusterStatuses": [{{"allocatedMachinePools": [{{"hosts": {{
                   "h": {{"status": "Healthy", "cpuCount": 1, "odd": 1, "cpuCount": 2, "odd": 2, "status": "Gone"}}}}}}]}}]}},
               "kind": "ComputePool"}}"#
        );
        reads_back::<ComputePool>(&text);
        let mut deserializer = serde_json::Deserializer::from_str(&text);
        let pool = ComputePool::read(&mut deserializer).unwrap().unwrap();
        let labels = &pool.metadata.get().unwrap().labels;
        let labels: Vec<_> = labels
            .get()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.to_string(), v.as_deref().map(str::to_owned)))
            .collect();
        assert_eq!(
            labels,
            [
                ("x".to_owned(), Some("3".to_owned())),
                ("y".to_owned(), Some("2".to_owned()))
            ]
        );
    }

    #[test]
    fn lists_and_maps_read_straight_hold_exactly_their_entries() {
        let text = pool().to_string();
        let mut deserializer = serde_json::Deserializer::from_str(&text);
        let pool = ComputePool::read(&mut deserializer).unwrap().unwrap();
        let meta = pool.metadata.get().unwrap();
        let finalizers = meta.finalizers.get().unwrap();
        assert_eq!((finalizers.len(), finalizers.capacity()), (1, 1));
        let labels = &meta.labels.get().unwrap().0;
        assert_eq!((labels.len(), labels.capacity()), (2, 2));
        let hosts = &pool
            .status
            .get()
            .unwrap()
            .palette_cluster_statuses
            .get()
            .unwrap()[0]
            .get()
            .unwrap()
            .allocated_machine_pools
            .get()
            .unwrap()[0]
            .get()
            .unwrap()
            .hosts
            .get()
            .unwrap()
            .0;
        assert_eq!((hosts.len(), hosts.capacity()), (2, 2));
        // Keys past the size where they are found by an index, held at their number too.
        let many: String = (0..100).map(|i| format!("\"k{i}\": \"v\", ")).collect();
        let text = format!("{{{many}\"end\": \"v\"}}");
        let mut deserializer = serde_json::Deserializer::from_str(&text);
        let map = crate::field::Map::<Field<crate::field::Text>>::read(&mut deserializer)
            .unwrap()
            .unwrap();
        assert_eq!((map.0.len(), map.0.capacity()), (101, 101));
    }

    #[test]
    fn what_is_not_a_mapping_is_handed_back_built() {
        for text in [
            r#"[1, {"a": 2}]"#,
            "\"pool\"",
            "4",
            "-4",
            "18446744073709551615",
            "4.5",
            "true",
            "null",
        ] {
            reads_back::<ComputePool>(text);
            reads_back::<crate::field::Text>(text);
            reads_back::<Vec<Field<i64>>>(text);
            reads_back::<crate::field::Map<Field<crate::field::Text>>>(text);
        }
    }
}
