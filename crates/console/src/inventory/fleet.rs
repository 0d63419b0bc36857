//! The fleet as the rules across pools see it: pools by name and by effective VIP, kept in
//! step as pools come and go, and the fingerprint that tells a pool's findings are still valid.

use std::sync::Arc;

use std::collections::BTreeSet;

use super::{Inventory, Key, Kind, Object};
use crate::domain::field::Text;
use crate::domain::model::ComputePool;
use crate::domain::rules::Context;

impl Inventory {
    /// Bumped when a pool is added or removed, changes its VIP or starts or stops running on
    /// it: findings of the rules across pools stay valid while it stays the same.
    pub fn fleet_generation(&self) -> u64 {
        self.fleet_generation
    }

    /// The identity the rules across pools give a pool of this inventory (its allocation:
    /// a new version of a pool is a new identity).
    pub fn identity(object: &Arc<Object>) -> usize {
        Arc::as_ptr(object) as usize
    }

    /// What the doctor's findings about a pool read of the fleet, as a fingerprint: the keys
    /// of the pools with its name and of those with its VIP (itself among them), and which of
    /// the latter runs. The findings compare names, namespaces, VIPs and who holds a VIP
    /// only, so those that read the fleet stay valid while this stays the same, whatever
    /// else joins or leaves. A pool that shares neither reads only itself (its own version
    /// is in the doctor's inputs): its fingerprint is 0, and that of a pool with neighbours
    /// is odd, so the two never meet.
    pub fn neighbours(&self, object: &Object) -> u64 {
        use std::hash::{Hash, Hasher};
        if !self.shares_name_or_vip(object) {
            return 0;
        }
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        let name = object.name();
        for (_, namespace) in self
            .pools_by_name
            .range((Text::from(name), Text::default())..)
            .take_while(|(n, _)| n == name)
        {
            namespace.hash(&mut hasher);
        }
        if let Some(vip) = Inventory::vip_of(object) {
            vip.hash(&mut hasher);
            for (_, key) in self
                .pools_by_vip
                .range((vip.clone(), Key::default())..)
                .take_while(|(v, _)| *v == vip)
            {
                key.hash(&mut hasher);
                // Which of them runs on the address tells the owner from the newcomer.
                self.held(Kind::Pool, key)
                    .is_some_and(|o| Inventory::runs(o))
                    .hash(&mut hasher);
            }
        }
        hasher.finish() | 1
    }

    /// What the rules ask of the fleet for a pool this inventory holds: the other pools as
    /// they are now, the pool itself told apart by its identity (a pool that exists, checked
    /// as the pools list and the Diagnose tab show it).
    pub fn context_of<'a>(&'a self, object: &Arc<Object>) -> Context<'a> {
        Context {
            old: None,
            fleet: self,
            self_index: Some(Inventory::identity(object)),
        }
    }

    /// Whether another pool has this pool's name (in any namespace) or its effective VIP,
    /// as the indexes say (no object looked up): without one, no rule across pools finds
    /// anything about it, and the pools list need not ask them. Asked of a pool the inventory
    /// holds, as it holds it: the answer is read from which names and VIPs more than one held
    /// pool has.
    pub fn shares_name_or_vip(&self, object: &Object) -> bool {
        self.shared_names.contains(object.name())
            || (!self.shared_vips.is_empty()
                && Inventory::vip_of(object).is_some_and(|vip| self.shared_vips.contains(&vip)))
    }

    fn pool_at(&self, key: &Key) -> Option<(usize, &ComputePool)> {
        let object = self.held(Kind::Pool, key)?;
        Some((Inventory::identity(object), object.pool()?))
    }

    /// Whether a pool is Running: of pools sharing a VIP, the one that runs holds it.
    pub(super) fn runs(object: &Object) -> bool {
        object.pool().is_some_and(ComputePool::runs)
    }

    /// The effective VIP of a pool object, as the index keys it.
    pub(super) fn vip_of(object: &Object) -> Option<String> {
        object.pool()?.effective_vip().map(str::to_ascii_lowercase)
    }

    /// Keeps the indexes by name and VIP, and the names and VIPs more than one pool has, in
    /// step when a pool is stored or removed; the fleet generation moves only when a pool
    /// joins, leaves, changes its VIP or starts or stops running on it.
    pub(super) fn reindex_pool(&mut self, before: Option<&Object>, after: Option<&Object>) {
        let (old_vip, new_vip) = (
            before.and_then(Inventory::vip_of),
            after.and_then(Inventory::vip_of),
        );
        let key = match (before, after) {
            (_, Some(object)) | (Some(object), None) => object.key.clone(),
            (None, None) => return,
        };
        let joined_or_left = before.is_some() != after.is_some();
        if !joined_or_left && old_vip == new_vip {
            // A pool with a VIP that starts or stops running changes what the others with
            // that VIP read (who holds the address): their findings are looked at again.
            if new_vip.is_some() && before.map(Inventory::runs) != after.map(Inventory::runs) {
                self.fleet_generation += 1;
            }
            return;
        }
        if let Some(vip) = old_vip {
            self.pools_by_vip.remove(&(vip.clone(), key.clone()));
            restate(&mut self.shared_vips, &self.pools_by_vip, vip);
        }
        if let Some(vip) = new_vip {
            self.pools_by_vip.insert((vip.clone(), key.clone()));
            restate(&mut self.shared_vips, &self.pools_by_vip, vip);
        }
        if joined_or_left {
            let name = (key.1.clone(), key.0.clone());
            if after.is_some() {
                self.pools_by_name.insert(name);
            } else {
                self.pools_by_name.remove(&name);
            }
            restate(&mut self.shared_names, &self.pools_by_name, key.1);
        }
        self.fleet_generation += 1;
    }
}

/// Says in `shared` whether more than one entry of `index` is in `group` (the VIP or name
/// an entry was just added to or removed from).
fn restate<G: Ord + Clone, K: Ord + Clone + Default>(
    shared: &mut BTreeSet<G>,
    index: &BTreeSet<(G, K)>,
    group: G,
) {
    let many = index
        .range((group.clone(), K::default())..)
        .take_while(|(g, _)| *g == group)
        .nth(1)
        .is_some();
    if many {
        shared.insert(group);
    } else {
        shared.remove(&group);
    }
}

/// The inventory answers the rules' questions across pools from its own indexes, so the
/// console checks a pool against the real fleet without copying it.
impl crate::domain::rules::Pools for Inventory {
    fn named<'s>(&'s self, name: &str) -> Box<dyn Iterator<Item = (usize, &'s ComputePool)> + 's> {
        let name = Text::from(name);
        let first = (name.clone(), Text::default());
        Box::new(
            self.pools_by_name
                .range(first..)
                .take_while(move |(n, _)| *n == name)
                .filter_map(move |(n, namespace)| self.pool_at(&(namespace.clone(), n.clone()))),
        )
    }

    fn with_vip<'s>(
        &'s self,
        vip: &str,
    ) -> Box<dyn Iterator<Item = (usize, &'s ComputePool)> + 's> {
        let vip = vip.to_ascii_lowercase();
        let first = (vip.clone(), Key::default());
        Box::new(
            self.pools_by_vip
                .range(first..)
                .take_while(move |(v, _)| *v == vip)
                .filter_map(move |(_, key)| self.pool_at(key)),
        )
    }
}
