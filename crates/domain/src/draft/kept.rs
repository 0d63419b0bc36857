//! The parts of a pool the wizard has no field for (a shared variant's `sharedWith`, NTP
//! servers, a field from a newer release): kept exactly as they are and named, so an edit
//! never changes or drops what it does not show.

use serde_json::Value;

use super::{Draft, FIELDS, Group, POLICY};
use crate::path::YamlPath;

/// What the server owns or every object has: not the pool's configuration.
const NOT_CONFIGURATION: &[&str] = &[
    "apiVersion",
    "kind",
    "status",
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
    "metadata.resourceVersion",
    "metadata.generation",
    "metadata.creationTimestamp",
    "metadata.deletionTimestamp",
    "metadata.deletionGracePeriodSeconds",
    "metadata.managedFields",
    "metadata.selfLink",
    "metadata.finalizers",
    "metadata.ownerReferences",
];

/// Written by the wizard to follow a field (the pool's namespace, the bundle's cloud type).
const FOLLOWING: &[&str] = &[
    "spec.profileBundleRef.namespace",
    "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.cloudType",
    "spec.clusterVariant.dedicated.scalingPolicyRef.namespace",
];

/// The Mode field chooses between the variants; what lies inside one is not its to show.
const MODE: &str = "spec.clusterVariant";

impl Draft {
    /// The paths of the pool the wizard shows no field for, each the highest such path (a
    /// whole `sharedWith` is one entry). Empty values are left out.
    pub fn kept_as_is(&self) -> Vec<YamlPath> {
        let mut shown: Vec<(YamlPath, bool)> = FIELDS
            .iter()
            .filter(|f| !f.path.starts_with(POLICY))
            .flat_map(|f| {
                let count = match f.group {
                    Group::Once => 1,
                    Group::WorkerPool => self.worker_pools(),
                    Group::PolicyGpu => 0,
                };
                (0..count).map(move |i| (f.at(i), f.path != MODE || f.group != Group::Once))
            })
            .collect();
        shown.extend(FOLLOWING.iter().map(|p| (YamlPath::keys(p), true)));
        let mut out = Vec::new();
        walk(&self.pool, &YamlPath::root(), &shown, &mut out);
        out
    }
}

fn walk(value: &Value, path: &YamlPath, shown: &[(YamlPath, bool)], out: &mut Vec<YamlPath>) {
    if NOT_CONFIGURATION
        .iter()
        .any(|p| path.starts_with(&YamlPath::keys(p)))
    {
        return;
    }
    // A field shows this place, or a place above it whose value it writes whole.
    if shown
        .iter()
        .any(|(field, whole)| *whole && path.starts_with(field))
    {
        return;
    }
    let empty = match value {
        Value::Null => true,
        Value::Object(map) => map.is_empty(),
        Value::Array(items) => items.is_empty(),
        _ => false,
    };
    if empty {
        return;
    }
    let below = shown
        .iter()
        .any(|(field, _)| field.starts_with(path) && field != path);
    if !below {
        out.push(path.clone());
        return;
    }
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                walk(child, &path.key(key), shown, out);
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                walk(child, &path.index(index), shown, out);
            }
        }
        _ => out.push(path.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn what_no_field_shows_is_named_and_what_one_shows_is_not() {
        let mut draft = Draft::new("ml-research");
        draft.add_worker_pool("a100s");
        assert_eq!(draft.kept_as_is(), Vec::<YamlPath>::new(), "a new pool");
        let deployment = "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig";
        draft.set(
            &YamlPath::keys(deployment).join("edge.ntpServers"),
            Some(json!(["ntp.example.com"])),
        );
        draft.set(
            &YamlPath::keys("spec.futureField"),
            Some(json!({"a": {"b": 1}})),
        );
        draft.set(
            &super::super::worker_pools_path()
                .index(0)
                .join("gpu.family"),
            Some(json!("nvidia")),
        );
        draft.set(&YamlPath::keys("metadata.uid"), Some(json!("u-1")));
        draft.set(&YamlPath::keys("status"), Some(json!({"phase": "Running"})));
        let mut kept: Vec<String> = draft.kept_as_is().iter().map(|p| p.to_string()).collect();
        kept.sort();
        assert_eq!(
            kept,
            [
                format!("{deployment}.edge.ntpServers"),
                format!("{deployment}.nodePoolRequirements.workerPools[0].gpu.family"),
                "spec.futureField".to_owned(),
            ],
            "the server's fields and what a field shows are left out"
        );
        // A shared pool: no field shows what lies inside the variant.
        let mut shared = Draft::new("pai-system");
        shared.set(
            &YamlPath::keys("spec.clusterVariant"),
            Some(json!({"shared": {"sharedWith": {"acme": ["*"]}}})),
        );
        let kept: Vec<String> = shared.kept_as_is().iter().map(|p| p.to_string()).collect();
        assert_eq!(kept, ["spec.clusterVariant.shared"]);
    }
}
