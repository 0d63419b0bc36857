//! The markers of the pools list: whether a pool's spec breaks an error-level rule of the
//! reference (its own rules worked out once per version of the pool, where it is read; the
//! rules across pools asked of the watched fleet) and the doctor's worst finding about it.

use std::sync::Arc;

use crate::app::App;
use crate::app::rows::{self, Row};
use crate::domain::ObjectRef;
use crate::domain::rules::{self, Severity};
use crate::inventory::{Inventory, Key, Kind, Object};

/// Whether a pool breaks an error-level rule, checked against the fleet the inventory holds
/// (a VIP another pool uses shows here as it does in `validate --existing`): the rules it
/// breaks by itself are known once per version of it; those across pools are asked only
/// when the inventory's indexes say another pool shares its name or VIP.
fn breaks_a_rule(inventory: &Inventory, object: &Arc<Object>) -> bool {
    if object.breaks_a_rule_alone() {
        return true;
    }
    debug_assert!(
        inventory
            .get(Kind::Pool, object.namespace(), object.name())
            .is_some_and(|held| Arc::ptr_eq(held, object)),
        "a pool is marked as the inventory holds it"
    );
    if !inventory.shares_name_or_vip(object) {
        return false;
    }
    let Some(pool) = object.pool() else {
        return false;
    };
    rules::across(pool, &inventory.context_of(object))
        .iter()
        .any(|f| f.severity() == Severity::Error)
}

/// A pool's markers: whether its spec breaks a rule of the reference and the doctor's worst
/// finding.
fn marks_of(
    inventory: &Inventory,
    doctor: &crate::app::doctor::Doctor,
    id: &ObjectRef,
    object: &Arc<Object>,
) -> (bool, Option<Severity>) {
    (breaks_a_rule(inventory, object), doctor.worst(id))
}

/// Marks the rows of one hub's pools (see [`marks_of`]).
pub(super) fn mark_rows(
    inventory: &Inventory,
    doctor: &crate::app::doctor::Doctor,
    rows: &mut [Row],
) {
    for row in rows {
        let rows::Source::Object(object) = &row.object else {
            continue;
        };
        (row.broken, row.worst) = marks_of(inventory, doctor, &row.id, object);
    }
}

/// The picture and doctor of one hub, borrowed from the fleet alone so that the shown rows
/// can be changed while they are read.
pub(super) fn hub_parts(
    fleet: &crate::app::fleet::Fleet,
    hub: usize,
) -> Option<(&Inventory, &crate::app::doctor::Doctor)> {
    fleet.hub(hub).map(|h| (&h.inventory, &h.doctor))
}

impl App {
    /// The doctor's markers of the pools list, read again for every row (the rows stay).
    pub(super) fn remark_worst(&mut self) {
        let shown = &mut self.shown;
        let slots: Vec<usize> = shown.base.slots().collect();
        for slot in slots {
            let (Some((hub, key)), Some((broken, _))) =
                (shown.base.owner(slot), shown.base.marks(slot))
            else {
                continue;
            };
            let doctor = self.fleet.hub(hub).map(|h| &h.doctor);
            let id = ObjectRef::new(Kind::Pool, key.0.clone(), key.1.clone());
            let worst = doctor.and_then(|d| d.worst(&id));
            shown.base.set_marks(slot, broken, worst);
        }
    }

    /// The rule markers of these pools' rows on one hub, checked again where their
    /// neighbours changed.
    pub(super) fn relint(&mut self, hub: usize, pools: &[Key]) {
        let shown = &mut self.shown;
        let Some((inventory, doctor)) = hub_parts(&self.fleet, hub) else {
            return;
        };
        for key in pools {
            let Some(object) = inventory.get(Kind::Pool, &key.0, &key.1) else {
                continue;
            };
            let id = ObjectRef::new(Kind::Pool, key.0.clone(), key.1.clone());
            let (broken, worst) = marks_of(inventory, doctor, &id, object);
            for slot in shown.base.slots_of(&(hub, key.clone())) {
                shown.base.set_marks(slot, broken, worst);
            }
        }
    }
}
