//! Edge hosts as a Project's Compute lists them (`status.controlPlaneCompute` and
//! `status.workerCompute`: groups of alike machines, each machine `available` or not), matched
//! against what a Compute Pool asks for: architecture, CPUs, memory, GPU variant and count,
//! resource groups. The troubleshooting guide's "Verify Compute resources have available
//! machines" as a check: how many available hosts meet a node pool's requirements, and when
//! none does, which requirement no available host meets.
//!
//! Warnings only: Compute is a picture of the moment (hosts are added and freed), and the API
//! accepts a pool the hosts cannot yet serve; it stays Provisioning.

use std::collections::BTreeMap;

use super::field::{Field, Scalar, Text};
use super::model::ComputePool;
use super::model::meta::StringMap;
use super::model::pool::{CpuRequirement, MemoryRequirement, WorkerPool};

use super::path::YamlPath;
use super::quantity::Memory;

pub use self::check::{RULES, TOO_FEW_GPUS, TOO_FEW_HOSTS, UNKNOWN_GROUP, check};
pub use self::offer::{Machines, Offer};
use self::offer::{count, text};

mod check;
mod offer;

const DEPLOYMENT: &str = "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig";

/// Which hosts a node pool is chosen from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    ControlPlane,
    Worker,
    /// A single-node cluster: its one host serves both roles.
    Both,
}

/// What one node pool of a pool asks of its hosts.
#[derive(Clone, Debug, PartialEq)]
pub struct Need {
    /// `the control plane` or `worker pool gpu-pool`.
    pub what: String,
    pub role: Role,
    /// Where its node count is written (the finding's place).
    pub count_path: YamlPath,
    pub gpu_path: YamlPath,
    pub nodes: i64,
    pub architecture: String,
    pub cpu: Option<i64>,
    pub memory: Option<Memory>,
    /// Variant name and GPUs in all across the pool's hosts.
    pub gpu: Option<(String, i64)>,
    pub groups: BTreeMap<String, String>,
}

/// A requirement of a [`Need`], as a phrase, and whether a machine meets it.
struct Requirement {
    phrase: String,
    meets: Box<dyn Fn(&Machines) -> bool>,
}

fn enough_memory(host: &Memory, asked: &Memory) -> bool {
    host.bytes() >= asked.bytes() * 0.99 || host.agrees_with(asked)
}

impl Need {
    fn requirements(&self) -> Vec<Requirement> {
        let mut out = Vec::new();
        let architecture = self.architecture.clone();
        out.push(Requirement {
            phrase: format!("architecture {architecture}"),
            meets: Box::new(move |m| {
                m.architecture
                    .as_deref()
                    .is_some_and(|a| a.eq_ignore_ascii_case(&architecture))
            }),
        });
        if let Some(cpu) = self.cpu {
            out.push(Requirement {
                phrase: format!("at least {cpu} CPUs"),
                meets: Box::new(move |m| m.cpu.is_some_and(|c| c >= cpu)),
            });
        }
        if let Some(memory) = self.memory {
            out.push(Requirement {
                phrase: format!("at least {memory} of memory"),
                meets: Box::new(move |m| {
                    m.memory
                        .as_ref()
                        .is_some_and(|host| enough_memory(host, &memory))
                }),
            });
        }
        if let Some((variant, _)) = self.gpu.clone() {
            out.push(Requirement {
                phrase: format!("GPU variant {variant}"),
                meets: Box::new(move |m| m.gpu.as_ref().is_some_and(|(v, _)| *v == variant)),
            });
        }
        for (key, value) in &self.groups {
            let (key, value) = (key.clone(), value.clone());
            out.push(Requirement {
                phrase: format!("resource group {key}: '{value}'"),
                meets: Box::new(move |m| m.groups.get(&key) == Some(&value)),
            });
        }
        out
    }

    fn hosts<'o>(&self, offer: &'o Offer) -> Box<dyn Iterator<Item = &'o Machines> + 'o> {
        match self.role {
            Role::ControlPlane => Box::new(offer.control_plane.iter()),
            Role::Worker => Box::new(offer.workers.iter()),
            Role::Both => Box::new(offer.control_plane.iter().chain(&offer.workers)),
        }
    }

    /// How the Compute's available hosts measure up to this node pool.
    pub fn measure(&self, offer: &Offer) -> Measure {
        let requirements = self.requirements();
        let meets_all = |m: &Machines| requirements.iter().all(|r| (r.meets)(m));
        let matching: i64 = self
            .hosts(offer)
            .filter(|m| meets_all(m))
            .map(|m| m.available)
            .sum();
        let gpus: i64 = self
            .hosts(offer)
            .filter(|m| meets_all(m))
            .map(|m| {
                m.available
                    .saturating_mul(m.gpu.as_ref().map_or(0, |(_, n)| *n))
            })
            .sum();
        let unmet = requirements
            .iter()
            .filter(|r| !self.hosts(offer).any(|m| m.available > 0 && (r.meets)(m)))
            .map(|r| r.phrase.clone())
            .collect();
        let listed = self.hosts(offer).map(|m| m.available).sum();
        Measure {
            listed,
            matching,
            gpus,
            unmet,
        }
    }
}

/// Available hosts against one node pool's requirements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Measure {
    /// Available hosts of the role, whatever they are.
    pub listed: i64,
    /// Available hosts that meet every requirement.
    pub matching: i64,
    /// GPUs on the matching hosts.
    pub gpus: i64,
    /// Requirements no available host meets (each alone).
    pub unmet: Vec<String>,
}

/// A count as written: a number, or (leniently, as a person may quote it) a string of one.
fn count_of(field: &Field<i64>) -> Option<i64> {
    match field {
        Field::Valid(n) => Some(*n),
        Field::Invalid(invalid) => count(Some(&invalid.raw)),
        Field::Missing | Field::Null => None,
    }
}

/// A resource group's value as written: text, or an unquoted number or true/false.
fn loose_text(field: &Field<Text>) -> Option<String> {
    match field {
        Field::Valid(t) => Some(t.as_str().to_owned()),
        Field::Invalid(invalid) => text(&invalid.raw),
        Field::Missing | Field::Null => None,
    }
}

/// The resource groups a pool asks for (the prefix dropped from each key).
pub(super) fn groups_of(map: &Field<StringMap>) -> BTreeMap<String, String> {
    map.get()
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| {
            let key = k
                .strip_prefix(super::model::pool::RESOURCE_GROUP_PREFIX)
                .unwrap_or(k);
            Some((key.to_owned(), loose_text(v)?))
        })
        .collect()
}

/// What a node pool asks of one host, read the same way for the control plane and a worker.
struct Asks {
    architecture: String,
    cpu: Option<i64>,
    memory: Option<Memory>,
}

impl Asks {
    fn of(
        architecture: &Field<Text>,
        cpu: &Field<CpuRequirement>,
        memory: &Field<MemoryRequirement>,
    ) -> Asks {
        Asks {
            architecture: architecture.as_deref().unwrap_or("AMD64").to_owned(),
            cpu: cpu
                .get()
                .and_then(|c| count_of(&c.cpu_count))
                .filter(|c| *c > 0),
            memory: memory
                .get()
                .and_then(|m| m.memory.get())
                .and_then(Scalar::as_str)
                .and_then(|m| Memory::parse(m).ok()),
        }
    }
}

/// The node pools of a dedicated pool and what each asks of its hosts. A shared pool (or one
/// with no node pool requirements) asks nothing of Compute here.
pub fn needs(pool: &ComputePool) -> Vec<Need> {
    let Some(requirements) = pool.node_pool_requirements() else {
        return Vec::new();
    };
    let base = YamlPath::keys(DEPLOYMENT).join("nodePoolRequirements");
    let variant = pool.spec().and_then(|s| s.cluster_variant.get());
    let cp_groups = variant
        .map(|v| groups_of(&v.control_plane_resource_groups))
        .unwrap_or_default();
    let worker_groups = variant
        .map(|v| groups_of(&v.worker_resource_groups))
        .unwrap_or_default();
    let need = |asks: Asks, what: String, role, path: YamlPath, nodes, groups| Need {
        what,
        role,
        count_path: path,
        gpu_path: YamlPath::root(),
        nodes,
        architecture: asks.architecture,
        cpu: asks.cpu,
        memory: asks.memory,
        gpu: None,
        groups,
    };
    let control_plane = requirements.control_plane_pool.get();
    let single = control_plane
        .and_then(|cp| cp.single_node_cluster.get())
        .copied()
        .unwrap_or(false);
    let mut out = Vec::new();
    if let Some(cp) = control_plane.filter(|_| !single) {
        let nodes = count_of(&cp.node_count).unwrap_or(1).max(1);
        out.push(need(
            Asks::of(&cp.architecture, &cp.cpu, &cp.memory),
            "the control plane".into(),
            Role::ControlPlane,
            base.join("controlPlanePool.nodeCount"),
            nodes,
            cp_groups.clone(),
        ));
    }
    let pools = requirements
        .worker_pools
        .get()
        .map(Vec::as_slice)
        .unwrap_or_default();
    for (index, worker) in pools.iter().enumerate() {
        if single && index > 0 {
            break;
        }
        // A list entry that is not a mapping is read as one with nothing written (the rules
        // say what is wrong): it still asks for its hosts, and keeps its place.
        let unwritten = WorkerPool::default();
        let worker = worker.get().unwrap_or(&unwritten);
        let at = base.join("workerPools").index(index);
        let name = worker.name().unwrap_or("(unnamed)");
        let (role, nodes, groups) = if single {
            (Role::Both, 1, cp_groups.clone())
        } else {
            let nodes = count_of(&worker.min_worker_nodes).unwrap_or(1).max(1);
            (Role::Worker, nodes, worker_groups.clone())
        };
        let mut need = need(
            Asks::of(&worker.architecture, &worker.cpu, &worker.memory),
            format!("worker pool {name}"),
            role,
            at.key("minWorkerNodes"),
            nodes,
            groups,
        );
        need.gpu_path = at.join("gpu.gpuCount");
        let gpu = worker.gpu.get();
        need.gpu = gpu
            .and_then(|g| g.variant.as_deref())
            .filter(|v| !v.trim().is_empty())
            .map(|v| {
                let asked = gpu.and_then(|g| count_of(&g.gpu_count)).unwrap_or(0);
                (v.to_owned(), asked)
            });
        out.push(need);
    }
    out
}

#[cfg(test)]
mod tests;
