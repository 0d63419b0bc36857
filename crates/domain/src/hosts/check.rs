//! The warnings a pool gets from the hosts its namespace's Compute offers: too few hosts or GPUs, a resource group no machine carries.

use super::{Machines, Offer, Role, groups_of, needs};
use crate::model::ComputePool;
use crate::path::YamlPath;
use crate::rules::{Basis, Finding, Rule, Severity};

pub const TOO_FEW_HOSTS: Rule = Rule {
    id: "hosts.too-few",
    severity: Severity::Warning,
    basis: Basis::Suspect,
    section: "Stuck in Provisioning",
    summary: "fewer available hosts in the Project's Compute meet a node pool's requirements than it asks for",
};

pub const TOO_FEW_GPUS: Rule = Rule {
    id: "hosts.gpus",
    severity: Severity::Warning,
    basis: Basis::Suspect,
    section: "Stuck in Provisioning",
    summary: "the available hosts that meet a worker pool's requirements have fewer GPUs than it asks for",
};

pub const UNKNOWN_GROUP: Rule = Rule {
    id: "hosts.resource-group",
    severity: Severity::Warning,
    basis: Basis::Suspect,
    section: "Resource Groups",
    summary: "a resource group no host in the Project's Compute is tagged with",
};

/// The host rules, for `--list-rules`.
pub const RULES: &[&Rule] = &[&TOO_FEW_HOSTS, &TOO_FEW_GPUS, &UNKNOWN_GROUP];

fn hosts_word(role: Role, n: i64) -> &'static str {
    match (role, n == 1) {
        (Role::ControlPlane, true) => "control-plane host",
        (Role::ControlPlane, false) => "control-plane hosts",
        (Role::Worker, true) => "worker",
        (Role::Worker, false) => "workers",
        (Role::Both, true) => "host",
        (Role::Both, false) => "hosts",
    }
}

/// The warnings a pool gets from the hosts its namespace's Compute lists. Nothing is said
/// when no Compute was read (there is nothing to compare with).
pub fn check(pool: &ComputePool, offer: &Offer) -> Vec<Finding> {
    if offer.computes == 0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for need in needs(pool) {
        let measure = need.measure(offer);
        if measure.matching < need.nodes {
            let mut message = format!(
                "Compute lists {} matching {}, {} asks for {}",
                measure.matching,
                hosts_word(need.role, measure.matching),
                need.what,
                need.nodes
            );
            if measure.listed == 0 {
                message.push_str(&format!(
                    " (no available {} at all)",
                    hosts_word(need.role, 2)
                ));
            } else if !measure.unmet.is_empty() {
                message.push_str(&format!(
                    "; no available host has {}",
                    measure.unmet.join(", ")
                ));
            }
            out.push(Finding::new(
                &TOO_FEW_HOSTS,
                need.count_path.clone(),
                message,
            ));
        }
        if let Some((variant, asked)) = &need.gpu
            && measure.matching > 0
            && measure.gpus < *asked
        {
            out.push(Finding::new(
                &TOO_FEW_GPUS,
                need.gpu_path.clone(),
                format!(
                    "the {} matching {} {} {} in all, {} asks for {asked}",
                    measure.matching,
                    hosts_word(need.role, measure.matching),
                    crate::words::agrees(measure.matching, "has", "have"),
                    crate::words::counted(measure.gpus, &format!("{variant} GPU")),
                    need.what
                ),
            ));
        }
    }
    unknown_groups(pool, offer, &mut out);
    out
}

/// Resource groups the pool asks for that no available host of its role is tagged with.
fn unknown_groups(pool: &ComputePool, offer: &Offer, out: &mut Vec<Finding>) {
    let variant = pool.spec().and_then(|s| s.cluster_variant.get());
    for (field, role) in [
        ("controlPlaneResourceGroups", Role::ControlPlane),
        ("workerResourceGroups", Role::Worker),
    ] {
        let asked = variant
            .map(|v| {
                groups_of(match role {
                    Role::ControlPlane => &v.control_plane_resource_groups,
                    _ => &v.worker_resource_groups,
                })
            })
            .unwrap_or_default();
        let hosts: Vec<&Machines> = match role {
            Role::ControlPlane => offer.control_plane.iter().collect(),
            _ => offer.workers.iter().collect(),
        };
        if hosts.is_empty() {
            continue;
        }
        for (key, value) in asked {
            if !hosts.iter().any(|m| m.groups.get(&key) == Some(&value)) {
                out.push(Finding::new(
                    &UNKNOWN_GROUP,
                    YamlPath::keys("spec.clusterVariant").key(field).key(&key),
                    format!(
                        "no {} in Compute is tagged {}{key}: '{value}'",
                        hosts_word(role, 1),
                        crate::model::pool::RESOURCE_GROUP_PREFIX
                    ),
                ));
            }
        }
    }
}
