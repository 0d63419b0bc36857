//! What the cluster says about a draft: the names a field may pick in the pool's namespace,
//! and the Project's GPU caps for a new pool.

use serde_json::Value;

use super::{Line, Offered, Wizard};
use crate::domain::Kind;
use crate::domain::draft::{self, Draft, Entry};
use crate::domain::path::YamlPath;
use crate::domain::rules::Finding;

/// The GPUs a new pool asks for, per variant, against its Project's caps as the watched
/// Projects and Tenants say them.
pub(super) fn quota_findings(
    draft: &Draft,
    inventory: &crate::inventory::Inventory,
) -> Vec<Finding> {
    let namespace = draft
        .pool
        .pointer("/metadata/namespace")
        .and_then(Value::as_str)
        .unwrap_or("");
    let Some(project) = inventory
        .objects(Kind::Project)
        .find(|p| p.namespace() == namespace)
        .map(|p| p.value())
    else {
        return Vec::new();
    };
    let tenant = project
        .pointer("/spec/tenantRef/name")
        .and_then(Value::as_str)
        .and_then(|name| inventory.get(Kind::Tenant, "", name))
        .map(|t| t.value());
    let mut asked: Vec<(String, i64, YamlPath)> = Vec::new();
    for index in 0..draft.worker_pools() {
        let gpu = draft::worker_pools_path().index(index).key("gpu");
        let variant = draft.get(&gpu.key("variant")).and_then(Value::as_str);
        let count = draft.get(&gpu.key("gpuCount")).and_then(Value::as_i64);
        if let (Some(variant), Some(count)) = (variant, count) {
            match asked.iter_mut().find(|(v, _, _)| v == variant) {
                Some(entry) => entry.1 += count,
                None => asked.push((variant.to_owned(), count, gpu.key("gpuCount"))),
            }
        }
    }
    crate::domain::quota::check(&asked, &project, tenant.as_deref())
}

/// The ProfileBundles (with their Ready state), Settings and ScalingPolicies the watched
/// cluster has in the draft's namespace.
pub(super) fn names_in(
    draft: &Draft,
    inventory: &crate::inventory::Inventory,
) -> Vec<(Kind, Vec<Offered>)> {
    let namespace = draft
        .pool
        .pointer("/metadata/namespace")
        .and_then(Value::as_str)
        .unwrap_or("");
    [Kind::ProfileBundle, Kind::Settings, Kind::ScalingPolicy]
        .into_iter()
        .map(|kind| {
            let mut names: Vec<Offered> = inventory
                .objects(kind)
                .filter(|o| o.namespace() == namespace)
                .map(|o| {
                    let ready = (kind == Kind::ProfileBundle).then(|| {
                        o.value()
                            .pointer("/status/conditions")
                            .and_then(Value::as_array)
                            .is_some_and(|c| {
                                c.iter()
                                    .any(|c| c["type"] == "Ready" && c["status"] == "True")
                            })
                    });
                    (o.name().to_owned(), ready)
                })
                .collect();
            names.sort();
            (kind, names)
        })
        .collect()
}

impl Wizard {
    /// The names the cluster offers for a field that names an object.
    pub fn choices(&self, line: &Line) -> Option<&[Offered]> {
        let Entry::Named(kind) = line.spec.entry else {
            return None;
        };
        self.names
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, names)| names.as_slice())
    }
}
