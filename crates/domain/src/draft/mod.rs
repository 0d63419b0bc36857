//! The wizard's draft: a ComputePool (and, when the wizard creates one, a ScalingPolicy) held
//! as the JSON object it will be sent as, edited field by field through paths. Because the
//! draft is the object itself, not a bag of strings, a loaded manifest's unknown fields stay
//! where they are and are written back unchanged, and the rules `pooldeck validate` runs read
//! the draft directly; each finding lands on the field its path points at.
//!
//! The fields follow the product's UI wizard, step by step, in its order ("UI Field to YAML
//! Mapping" of the configuration reference): General, Mode, Profile Bundle, Node Config,
//! Deployment, Autoscaling, then Review. Worker pool fields repeat per worker pool.

use serde_json::{Map, Value, json};

use super::model::{ComputePool, read_owned};
use super::path::{Segment, YamlPath};
use super::rules::{self, Context, Finding, Fleet, Pools};

pub mod diff;
mod fields;
mod kept;
mod policy;
mod saved;

pub use fields::*;
pub use saved::{Aim, Kept, NotKept, Saved, Typing, Unreadable, Unremoved};

/// A ComputePool being written, and the ScalingPolicy written with it, if any.
#[derive(Clone, Debug, PartialEq)]
pub struct Draft {
    pub pool: Value,
    pub policy: Option<Value>,
}

impl Draft {
    /// A new pool in a namespace: what every pool has, and the reference's defaults (an HA
    /// control plane of three, as in its complete example).
    pub fn new(namespace: &str) -> Draft {
        Draft {
            pool: json!({
                "apiVersion": "spectrocloud.com/v1alpha1",
                "kind": "ComputePool",
                "metadata": {"name": "", "namespace": namespace},
                "spec": {
                    "deletionPolicy": "delete",
                    "profileBundleRef": {"name": "", "namespace": namespace, "cloudType": "edge-native"},
                    "clusterVariant": {"dedicated": {"paletteClusterDeploymentConfig": {
                        "cloudType": "edge-native",
                        "nodePoolRequirements": {
                            "controlPlanePool": {"nodeCount": 3, "workerNodeEligible": false, "architecture": "AMD64"},
                            "workerPools": []
                        },
                        "edge": {"vip": ""}
                    }}}
                }
            }),
            policy: None,
        }
    }

    /// A draft of an existing object, kept whole.
    pub fn from_object(pool: Value, policy: Option<Value>) -> Draft {
        Draft { pool, policy }
    }

    /// The draft a manifest's objects make: its first ComputePool and first ScalingPolicy.
    /// `None` when it holds no ComputePool.
    pub fn from_objects(objects: &[Value]) -> Option<Draft> {
        let first = |kind: &str| objects.iter().find(|o| o["kind"] == kind).cloned();
        Some(Draft::from_object(
            first("ComputePool")?,
            first("ScalingPolicy"),
        ))
    }

    /// The value at a path, if it is there (`policy.…` reads the ScalingPolicy).
    pub fn get(&self, path: &YamlPath) -> Option<&Value> {
        let (mut at, segments) = match policy_part(path) {
            Some(rest) => (self.policy.as_ref()?, rest),
            None => (&self.pool, path.segments()),
        };
        for segment in segments {
            at = match segment {
                Segment::Key(key) => at.get(key)?,
                Segment::Index(index) => at.get(index)?,
            };
        }
        Some(at)
    }

    /// Sets (or with `None` removes) the value at a path, making the mappings on the way.
    /// A list index past the end adds entries. Nothing else in the object changes. `policy`
    /// alone sets or removes the ScalingPolicy document.
    pub fn set(&mut self, path: &YamlPath, value: Option<Value>) {
        match policy_part(path) {
            Some([]) => self.policy = value,
            Some(rest) => {
                let document = match (&mut self.policy, &value) {
                    (Some(policy), _) => policy,
                    (None, Some(_)) => self.policy.insert(json!({})),
                    (None, None) => return,
                };
                set_in(document, rest, value);
            }
            None => set_in(&mut self.pool, path.segments(), value),
        }
    }
}

/// The rest of a path into the ScalingPolicy document, when it is one.
fn policy_part(path: &YamlPath) -> Option<&[Segment]> {
    match path.segments().split_first() {
        Some((Segment::Key(root), rest)) if root == POLICY => Some(rest),
        _ => None,
    }
}

/// [`Draft::set`] within one document.
fn set_in(document: &mut Value, segments: &[Segment], value: Option<Value>) {
    {
        let Some((last, parents)) = segments.split_last() else {
            return;
        };
        let mut at = document;
        for (i, segment) in parents.iter().enumerate() {
            let next_is_index =
                matches!(segments.get(i.saturating_add(1)), Some(Segment::Index(_)));
            let empty = || if next_is_index { json!([]) } else { json!({}) };
            at = match segment {
                Segment::Key(key) => {
                    if !at.is_object() {
                        if value.is_none() {
                            return;
                        }
                        *at = Value::Object(Map::new());
                    }
                    let Some(map) = at.as_object_mut() else {
                        return;
                    };
                    if value.is_none() && !map.contains_key(key) {
                        return;
                    }
                    map.entry(key.clone()).or_insert_with(empty)
                }
                Segment::Index(index) => {
                    let Some(list) = at.as_array_mut() else {
                        return;
                    };
                    while list.len() <= *index {
                        list.push(empty());
                    }
                    &mut list[*index]
                }
            };
        }
        match (last, value) {
            (Segment::Key(key), Some(value)) => {
                if !at.is_object() {
                    *at = Value::Object(Map::new());
                }
                if let Some(map) = at.as_object_mut() {
                    map.insert(key.clone(), value);
                }
            }
            (Segment::Key(key), None) => {
                if let Some(map) = at.as_object_mut() {
                    map.shift_remove(key);
                }
            }
            (Segment::Index(index), Some(value)) => {
                if let Some(list) = at.as_array_mut() {
                    while list.len() <= *index {
                        list.push(Value::Null);
                    }
                    list[*index] = value;
                }
            }
            (Segment::Index(index), None) => {
                if let Some(list) = at.as_array_mut()
                    && *index < list.len()
                {
                    list.remove(*index);
                }
            }
        }
    }
}

impl Draft {
    /// How many worker pools the draft has.
    pub fn worker_pools(&self) -> usize {
        self.get(&worker_pools_path())
            .and_then(Value::as_array)
            .map_or(0, Vec::len)
    }

    /// Makes the pool a single-node cluster (`on`) with the reference's companions: one
    /// control-plane node that is workload eligible, and at least one worker pool (used to
    /// select the edge host); or a multi-node one again (three nodes, a dedicated control
    /// plane), its worker pools kept.
    pub fn set_single_node(&mut self, on: bool) {
        let control = YamlPath::keys(rules::paths::CONTROL_PLANE);
        if on {
            self.set(&control.key("singleNodeCluster"), Some(json!(true)));
            self.set(&control.key("nodeCount"), Some(json!(1)));
            self.set(&control.key("workerNodeEligible"), Some(json!(true)));
            if self.worker_pools() == 0 {
                self.add_worker_pool("default-pool");
            }
        } else {
            self.set(&control.key("singleNodeCluster"), None);
            self.set(&control.key("nodeCount"), Some(json!(3)));
            self.set(&control.key("workerNodeEligible"), Some(json!(false)));
        }
    }

    /// Adds a worker pool with the reference's shape and returns its index.
    pub fn add_worker_pool(&mut self, name: &str) -> usize {
        let index = self.worker_pools();
        self.set(
            &worker_pools_path().index(index),
            Some(json!({"name": name, "architecture": "AMD64", "minWorkerNodes": 1})),
        );
        index
    }

    /// The namespace the pool goes to.
    pub fn namespace(&self) -> &str {
        self.pool
            .pointer("/metadata/namespace")
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    /// The pool this draft writes: its namespace and name as written.
    pub fn target(&self) -> Option<crate::ObjectRef> {
        let name = self
            .pool
            .pointer("/metadata/name")
            .and_then(Value::as_str)?;
        Some(crate::ObjectRef::new(
            crate::Kind::Pool,
            self.namespace(),
            name,
        ))
    }

    /// Moves the draft to another namespace: the pool, the policy written with it, and the
    /// references that must name the pool's own namespace (its Profile Bundle's, its
    /// ScalingPolicy's) when they named the old one or none.
    pub fn move_to(&mut self, namespace: &str) {
        let old = self.namespace().to_owned();
        self.set(
            &YamlPath::keys("metadata.namespace"),
            Some(json!(namespace)),
        );
        for reference in [
            "spec.profileBundleRef.namespace",
            "spec.clusterVariant.dedicated.scalingPolicyRef.namespace",
        ] {
            let at = YamlPath::keys(reference);
            let named = self.get(&at).and_then(Value::as_str).unwrap_or("");
            if (named.is_empty() || named == old) && self.get(&at.parent()).is_some() {
                self.set(&at, Some(json!(namespace)));
            }
        }
        if self.policy.is_some() {
            self.set(
                &YamlPath::keys("policy.metadata.namespace"),
                Some(json!(namespace)),
            );
        }
    }

    /// The pool as the rules read it.
    pub fn model(&self) -> Option<(ComputePool, Vec<crate::field::Issue>)> {
        read_owned::<ComputePool>(self.pool.clone()).ok()
    }

    /// Every finding of the shared rules on the draft: `old` for an edit (the update rules),
    /// `others` for the pools that exist (VIP and name uniqueness).
    pub fn findings(&self, old: Option<&ComputePool>, others: &dyn Pools) -> Vec<Finding> {
        let Some((pool, issues)) = self.model() else {
            return Vec::new();
        };
        let context = Context {
            old,
            fleet: others,
            self_index: None,
        };
        let mut findings = rules::validate(&pool, &issues, &context);
        if let Some(policy) = &self.policy {
            // The policy's findings are placed in its document: `policy.spec.…`.
            let root = YamlPath::keys(POLICY);
            findings.extend(
                rules::scaling_policy::validate(policy)
                    .into_iter()
                    .map(|f| Finding {
                        path: root.append(&f.path),
                        ..f
                    }),
            );
        }
        findings
    }

    /// [`Draft::findings`] with no other pool known (a wizard without a cluster).
    pub fn findings_alone(&self) -> Vec<Finding> {
        self.findings(None, &Fleet::new(Vec::new()))
    }

    /// The manifest: the pool, then the policy, as YAML documents. What a terminal would act
    /// on is written in YAML's own escapes (the same data to a parser), so the manifest is the
    /// same shown, copied and written to a file.
    pub fn to_yaml(&self) -> String {
        let mut out = crate::inert::yaml(&self.pool).unwrap_or_default();
        if let Some(policy) = &self.policy {
            out.push_str("---\n");
            out.push_str(&crate::inert::yaml(policy).unwrap_or_default());
        }
        out
    }
}

/// The findings that belong to a field: those whose path is the field's path or lies under it.
pub fn findings_at<'f>(findings: &'f [Finding], path: &YamlPath) -> Vec<&'f Finding> {
    findings
        .iter()
        .filter(|f| f.path.starts_with(path))
        .collect()
}

#[cfg(test)]
mod tests;
