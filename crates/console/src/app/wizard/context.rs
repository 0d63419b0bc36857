//! What the cluster says about a draft: the names a field may pick in the pool's namespace,
//! and the Project's GPU caps for a new pool.

use serde_json::Value;

use super::state::{Line, Offered, Wizard};
use crate::domain::Kind;
use crate::domain::draft::{self, Draft, Entry};
use crate::domain::hosts;
use crate::domain::model::ComputePool;
use crate::domain::path::YamlPath;
use crate::domain::rules::Finding;

/// The GPUs a pool asks for, per variant, against its Project's caps as the watched Projects
/// and Tenants say them: a new pool's whole ask, an edit's increase over `old` (what the pool
/// has now, already counted in the Project's usage).
pub(super) fn quota_findings(
    draft: &Draft,
    old: Option<&ComputePool>,
    inventory: &crate::inventory::Inventory,
) -> Vec<Finding> {
    let Some((project, tenant)) = inventory.project_and_tenant(draft.namespace()) else {
        return Vec::new();
    };
    let mut asked = asked_gpus(draft);
    if let Some(old) = old {
        for (variant, gpus, _) in &mut asked {
            *gpus -= held_gpus(old, variant);
        }
    }
    crate::domain::quota::check(&asked, &project, tenant.as_deref(), old.is_some())
}

/// The GPUs of a variant a live pool's worker pools ask for now.
fn held_gpus(pool: &ComputePool, variant: &str) -> i64 {
    pool.worker_pools()
        .filter_map(|(_, w)| w.gpu.get())
        .filter(|g| g.variant.as_deref() == Some(variant))
        .filter_map(|g| g.gpu_count.get())
        .fold(0, |sum, n| sum.saturating_add(*n))
}

/// The hosts the Compute objects of the draft's namespace offer.
fn offer(draft: &Draft, inventory: &crate::inventory::Inventory) -> hosts::Offer {
    let computes = inventory.values_in(Kind::Compute, draft.namespace());
    hosts::Offer::of(computes.iter().map(|c| &**c))
}

/// What the namespace's Compute says of the hosts a new pool asks for: too few matching
/// hosts, too few GPUs on them, resource groups no host carries.
pub(super) fn host_findings(
    draft: &Draft,
    inventory: &crate::inventory::Inventory,
) -> Vec<Finding> {
    match draft.model() {
        Some((pool, _)) => hosts::check(&pool, &offer(draft, inventory)),
        None => Vec::new(),
    }
}

/// Review's picture: for each node pool, the available hosts that meet it against what it
/// asks; for each GPU variant asked, every cap with what it leaves.
pub(super) fn picture(draft: &Draft, inventory: &crate::inventory::Inventory) -> Vec<String> {
    let namespace = draft.namespace();
    let mut out = Vec::new();
    let offer = offer(draft, inventory);
    if offer.computes == 0 {
        out.push(format!(
            "Hosts: no Compute in {namespace} that pooldeck can see; host availability is not known"
        ));
    } else {
        let needs = draft
            .model()
            .map(|(pool, _)| hosts::needs(&pool))
            .unwrap_or_default();
        for need in needs {
            let measure = need.measure(&offer);
            let mut line = format!(
                "Hosts for {}: {} of {} available {}, {} asked",
                need.what,
                measure.matching,
                measure.listed,
                crate::domain::words::agrees(measure.matching, "matches", "match"),
                need.nodes
            );
            if let Some((variant, asked)) = &need.gpu {
                line.push_str(&format!(
                    "; {} on them, {asked} asked",
                    crate::domain::words::counted(measure.gpus, &format!("{variant} GPU"))
                ));
            }
            out.push(line);
        }
    }
    let Some((project, tenant)) = inventory.project_and_tenant(namespace) else {
        out.push(format!(
            "Quota: no Project in {namespace} that pooldeck can see"
        ));
        return out;
    };
    for (variant, asked, _) in asked_gpus(draft) {
        let caps = crate::domain::quota::caps(&project, tenant.as_deref(), &variant);
        let said: Vec<String> = caps
            .iter()
            .map(|(cap, limit, left)| format!("{cap} {left} of {limit} left"))
            .collect();
        out.push(format!(
            "Quota for {variant}: {asked} asked; {}",
            if said.is_empty() {
                "no cap set".to_owned()
            } else {
                said.join(", ")
            }
        ));
    }
    out
}

/// The GPUs a draft's worker pools ask for, per variant, with the first place asking.
fn asked_gpus(draft: &Draft) -> Vec<(String, i64, YamlPath)> {
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
    asked
}

/// The GPU variants the namespace's Computes have for the draft's worker pools, each with
/// how many of its machines are free (most first), the wizard's choices for a GPU variant.
pub(super) fn variants_in(
    draft: &Draft,
    inventory: &crate::inventory::Inventory,
) -> Vec<(String, i64)> {
    let offer = offer(draft, inventory);
    // A single-node pool's worker pool selects its one host, a control plane's machine.
    let single =
        YamlPath::keys(crate::domain::rules::paths::CONTROL_PLANE).key("singleNodeCluster");
    let machines = if draft.get(&single).and_then(Value::as_bool) == Some(true) {
        &offer.control_plane
    } else {
        &offer.workers
    };
    let mut free: Vec<(String, i64)> = Vec::new();
    for machines in machines {
        let Some((variant, _)) = &machines.gpu else {
            continue;
        };
        match free.iter_mut().find(|(v, _)| v == variant) {
            Some(entry) => entry.1 = entry.1.saturating_add(machines.available),
            None => free.push((variant.clone(), machines.available)),
        }
    }
    free.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    free
}

/// The resource groups the namespace's Computes give their machines, `key=value`, for the
/// control plane and for workers: what a pool's groups can select.
pub(super) fn groups_in(
    draft: &Draft,
    inventory: &crate::inventory::Inventory,
) -> [Vec<String>; 2] {
    let offer = offer(draft, inventory);
    [&offer.control_plane, &offer.workers].map(|machines| {
        let mut groups: Vec<String> = machines
            .iter()
            .flat_map(|m| m.groups.iter().map(|(k, v)| format!("{k}={v}")))
            .collect();
        groups.sort();
        groups.dedup();
        groups
    })
}

/// The ProfileBundles (with their Ready state), Settings and ScalingPolicies the watched
/// cluster has in the draft's namespace, and the GPU variants of its Computes (whether any
/// machine of each is free).
pub(super) fn names_in(
    draft: &Draft,
    inventory: &crate::inventory::Inventory,
) -> Vec<(Kind, Vec<Offered>)> {
    let namespace = draft.namespace();
    let variants = variants_in(draft, inventory)
        .into_iter()
        .map(|(variant, free)| (variant, Some(free > 0)))
        .collect();
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
        .chain([(Kind::Compute, variants)])
        .collect()
}

impl Wizard {
    /// The names the cluster offers for a field that names an object.
    pub fn choices(&self, line: &Line) -> Option<&[Offered]> {
        if line.spec.entry == Entry::Namespace {
            return Some(&self.namespaces);
        }
        let Entry::Named(kind) = line.spec.entry else {
            return None;
        };
        self.names
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, names)| names.as_slice())
    }
}
