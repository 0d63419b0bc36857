//! The configuration reference's rules as one pure function set: `validate(pool, context)`.
//!
//! The `validate` command uses it now; the wizard and the console use the same functions, so a
//! manifest means the same thing everywhere. Each rule has a stable id, a severity, and the
//! section of the reference it comes from; each finding carries the path it is about.
//! Must not import anything with I/O.

mod basis;
mod edge;
mod groups;
mod hardware;
mod metadata;
pub mod names;
mod network;
mod references;
pub mod scaling_policy;
mod schema;
mod sharing;
mod storage;
mod topology;
mod worker_pools;

use std::collections::BTreeMap;
use std::fmt;

pub use basis::Basis;

use serde::Serialize;

use super::field::Issue;
use super::model::ComputePool;
use super::path::YamlPath;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// A rule of the reference: what it is called, how bad breaking it is and why, where it is
/// written.
#[derive(Debug, PartialEq, Eq)]
pub struct Rule {
    pub id: &'static str,
    pub severity: Severity,
    pub basis: Basis,
    /// The section of the configuration reference (or troubleshooting guide) it comes from.
    pub section: &'static str,
    /// One line for `pooldeck validate --list-rules`.
    pub summary: &'static str,
}

/// One thing a rule found about one place in a manifest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub rule: &'static Rule,
    pub path: YamlPath,
    pub message: String,
}

impl Finding {
    pub fn new(rule: &'static Rule, path: YamlPath, message: impl Into<String>) -> Finding {
        Finding {
            rule,
            path,
            message: message.into(),
        }
    }

    pub fn severity(&self) -> Severity {
        self.rule.severity
    }
}

/// The pools that exist, as the rules across pools ask about them. `validate` implements it
/// with a [`Fleet`] of manifests; the console with its inventory (no copy of the fleet). Each
/// pool comes with an identity, so the pool being checked can be told apart from its copies.
pub trait Pools {
    /// Pools named `name`, in any namespace.
    fn named<'s>(&'s self, name: &str) -> Box<dyn Iterator<Item = (usize, &'s ComputePool)> + 's>;
    /// Pools whose effective VIP is `vip` (compared without regard to case).
    fn with_vip<'s>(&'s self, vip: &str)
    -> Box<dyn Iterator<Item = (usize, &'s ComputePool)> + 's>;

    /// How many pools have the effective VIP `vip` (an index can say without listing them).
    fn count_with_vip(&self, vip: &str) -> usize {
        self.with_vip(vip).count()
    }
}

/// What the rules need to know beyond the pool itself.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    /// The object as it exists now, when this is an update.
    pub old: Option<&'a ComputePool>,
    /// Other ComputePools that exist (for uniqueness rules). The pool being validated may be
    /// among them, with identity `self_index`.
    pub fleet: &'a dyn Pools,
    /// The identity in `fleet` of the pool being validated, when it is listed there too.
    pub self_index: Option<usize>,
}

impl fmt::Debug for Context<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("old", &self.old.map(ComputePool::key))
            .field("self_index", &self.self_index)
            .finish_non_exhaustive()
    }
}

static EMPTY_FLEET: Fleet = Fleet {
    pools: Vec::new(),
    by_vip: BTreeMap::new(),
    by_name: BTreeMap::new(),
};

impl Default for Context<'_> {
    fn default() -> Self {
        Context {
            old: None,
            fleet: &EMPTY_FLEET,
            self_index: None,
        }
    }
}

impl<'a> Context<'a> {
    pub fn create(fleet: &'a dyn Pools) -> Self {
        Context {
            old: None,
            fleet,
            self_index: None,
        }
    }

    pub fn update(old: &'a ComputePool, fleet: &'a dyn Pools) -> Self {
        Context {
            old: Some(old),
            fleet,
            self_index: None,
        }
    }

    pub fn is_update(&self) -> bool {
        self.old.is_some()
    }

    /// Listed pools with the same namespace and name as `pool`, less `pool` itself.
    fn same_name<'p>(
        &'p self,
        pool: &'p ComputePool,
    ) -> impl Iterator<Item = &'a ComputePool> + 'p {
        self.fleet
            .named(pool.name())
            .filter(|(i, _)| Some(*i) != self.self_index)
            .map(|(_, other)| other)
            .filter(move |other| same_object(other, pool))
    }

    /// How many listed pools other than `pool` have the effective VIP `vip` (the pool itself
    /// is among them when it is listed).
    fn others_with_vip(&self, pool: &ComputePool, vip: &str) -> usize {
        let listed_self = self.self_index.is_some()
            || self
                .fleet
                .named(pool.name())
                .any(|(_, other)| same_object(other, pool));
        self.fleet
            .count_with_vip(vip)
            .saturating_sub(usize::from(listed_self))
    }

    /// Listed pools, other objects than `pool`, whose effective VIP is `vip`.
    fn with_vip<'p>(
        &'p self,
        pool: &'p ComputePool,
        vip: &'p str,
    ) -> impl Iterator<Item = &'a ComputePool> + 'p {
        self.fleet
            .with_vip(vip)
            .filter(|(i, _)| Some(*i) != self.self_index)
            .map(|(_, other)| other)
            .filter(move |other| !same_object(other, pool))
    }
}

/// ComputePools that exist, indexed by name and by effective VIP, so the rules across pools
/// stay fast with thousands of pools.
#[derive(Debug, Default)]
pub struct Fleet {
    pools: Vec<ComputePool>,
    by_vip: BTreeMap<String, Vec<usize>>,
    by_name: BTreeMap<String, Vec<usize>>,
}

impl Fleet {
    pub fn new(pools: Vec<ComputePool>) -> Fleet {
        let mut fleet = Fleet::default();
        for pool in pools {
            fleet.push(pool);
        }
        fleet
    }

    pub fn push(&mut self, pool: ComputePool) {
        let index = self.pools.len();
        if let Some(vip) = pool.effective_vip() {
            self.by_vip
                .entry(vip.to_ascii_lowercase())
                .or_default()
                .push(index);
        }
        self.by_name
            .entry(pool.name().to_owned())
            .or_default()
            .push(index);
        self.pools.push(pool);
    }

    pub fn pools(&self) -> &[ComputePool] {
        &self.pools
    }

    pub fn len(&self) -> usize {
        self.pools.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pools.is_empty()
    }

    fn indexed<'f>(
        &'f self,
        indices: Option<&'f Vec<usize>>,
    ) -> Box<dyn Iterator<Item = (usize, &'f ComputePool)> + 'f> {
        Box::new(
            indices
                .into_iter()
                .flatten()
                .filter_map(|i| Some((*i, self.pools.get(*i)?))),
        )
    }
}

impl Pools for Fleet {
    fn with_vip<'f>(
        &'f self,
        vip: &str,
    ) -> Box<dyn Iterator<Item = (usize, &'f ComputePool)> + 'f> {
        self.indexed(self.by_vip.get(&vip.to_ascii_lowercase()))
    }

    fn named<'f>(&'f self, name: &str) -> Box<dyn Iterator<Item = (usize, &'f ComputePool)> + 'f> {
        self.indexed(self.by_name.get(name))
    }

    fn count_with_vip(&self, vip: &str) -> usize {
        self.by_vip
            .get(&vip.to_ascii_lowercase())
            .map_or(0, Vec::len)
    }
}

/// The pools as they will be once one of them is gone: the rules for a pool recreated under
/// its own name (its name and VIP are not taken by the pool it replaces).
pub struct Without<'a> {
    pub pools: &'a dyn Pools,
    pub namespace: &'a str,
    pub name: &'a str,
}

impl Without<'_> {
    fn keeps(&self, pool: &ComputePool) -> bool {
        !(pool.name() == self.name && pool.namespace() == Some(self.namespace))
    }
}

impl Pools for Without<'_> {
    fn named<'s>(&'s self, name: &str) -> Box<dyn Iterator<Item = (usize, &'s ComputePool)> + 's> {
        Box::new(self.pools.named(name).filter(|(_, p)| self.keeps(p)))
    }

    fn with_vip<'s>(
        &'s self,
        vip: &str,
    ) -> Box<dyn Iterator<Item = (usize, &'s ComputePool)> + 's> {
        Box::new(self.pools.with_vip(vip).filter(|(_, p)| self.keeps(p)))
    }
}

/// Whether two pools name the same object (same namespace and name; a missing namespace
/// matches any, since it is only known once applied).
pub fn same_object(a: &ComputePool, b: &ComputePool) -> bool {
    a.name() == b.name()
        && match (a.namespace(), b.namespace()) {
            (Some(x), Some(y)) => x == y,
            _ => true,
        }
}

/// Every rule of the reference applied to one pool, together with the issues found while
/// reading it (wrong types, unknown fields). Findings come back in document order of rules,
/// errors first within a path.
pub fn validate(pool: &ComputePool, issues: &[Issue], context: &Context) -> Vec<Finding> {
    let mut out = Vec::new();
    schema::check(pool, issues, &mut out);
    metadata::check(pool, context, &mut out);
    references::check(pool, &mut out);
    topology::check(pool, context, &mut out);
    worker_pools::check(pool, context, &mut out);
    edge::check(pool, context, &mut out);
    storage::check(pool, context, &mut out);
    out
}

/// The rules across pools alone (a new pool's name taken in its namespace, a VIP another
/// pool uses): what [`validate`] finds beyond the pool's own findings, which are those it
/// finds with no fleet (`Context { fleet: &Fleet::default(), .. }`). The console works out a
/// pool's own findings once per version, where it reads the pool, and asks only these of
/// the fleet as it changes.
pub fn across(pool: &ComputePool, context: &Context) -> Vec<Finding> {
    metadata::name_unique(pool, context)
        .into_iter()
        .chain(edge::vip_unique(pool, context))
        .collect()
}

/// Every rule, for `--list-rules` and for documentation.
pub fn catalogue() -> Vec<&'static Rule> {
    let mut rules: Vec<&'static Rule> = Vec::new();
    rules.extend(schema::RULES);
    rules.extend(metadata::RULES);
    rules.extend(references::RULES);
    rules.extend(topology::RULES);
    rules.extend(worker_pools::RULES);
    rules.extend(edge::RULES);
    rules.extend(storage::RULES);
    rules
}

/// The kinds PaletteAI serves that a manifest is checked as, for a near miss such as
/// `ComputePools` or `Scalingpolicy`: the kind it probably means.
pub fn near_miss_kind(kind: &str) -> Option<&'static str> {
    const KNOWN: [&str; 2] = ["ComputePool", "ScalingPolicy"];
    if KNOWN.contains(&kind) {
        return None;
    }
    let folded = kind.to_ascii_lowercase();
    KNOWN.into_iter().find(|known| {
        let known_folded = known.to_ascii_lowercase();
        folded == known_folded
            || folded.trim_end_matches('s') == known_folded
            || strsim::levenshtein(&folded, &known_folded) <= 2
    })
}

/// Paths of the reference's "Key nesting paths".
pub mod paths {
    use crate::path::YamlPath;

    pub const VARIANT: &str = "spec.clusterVariant";
    pub const DEDICATED: &str = "spec.clusterVariant.dedicated";
    pub const DEPLOYMENT: &str = "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig";
    pub const REQUIREMENTS: &str =
        "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements";
    pub const CONTROL_PLANE: &str = "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.controlPlanePool";
    pub const WORKER_POOLS: &str = "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.workerPools";
    pub const EDGE: &str = "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.edge";
    pub const OVERLAY: &str =
        "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.edge.networkOverlayConfig";

    pub fn at(dotted: &str) -> YamlPath {
        YamlPath::keys(dotted)
    }

    pub fn worker_pool(index: usize) -> YamlPath {
        YamlPath::keys(WORKER_POOLS).index(index)
    }
}

#[cfg(test)]
mod tests;
