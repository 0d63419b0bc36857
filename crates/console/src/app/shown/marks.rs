//! The markers of the pools list: whether a pool's spec breaks an error-level rule of the
//! reference (checked against the watched fleet, again only where the pool or its neighbours
//! changed) and the doctor's worst finding about it.

use std::collections::HashMap;
use std::sync::Arc;

use crate::app::App;
use crate::app::rows::{self, Row};
use crate::domain::ObjectRef;
use crate::domain::rules::{self, Context, Severity};
use crate::inventory::{Inventory, Key, Object};

/// Whether a pool breaks an error-level rule, checked against the fleet the inventory holds
/// (a VIP another pool uses shows here as it does in `validate --existing`).
fn breaks_a_rule(inventory: &Inventory, object: &Arc<Object>) -> Option<bool> {
    let pool = object.pool()?;
    let context = Context {
        old: None,
        fleet: inventory,
        self_index: Some(Inventory::identity(object)),
    };
    Some(
        rules::validate(pool, &object.issues, &context)
            .iter()
            .any(|f| f.severity() == Severity::Error),
    )
}

/// Marks a pool's row: whether its spec breaks a rule of the reference (worked out once per
/// version of the pool and of the pools sharing its name or VIP) and the doctor's worst
/// finding.
fn mark(
    lint: &mut HashMap<ObjectRef, (usize, u64, bool)>,
    inventory: &Inventory,
    doctor: &crate::app::doctor::Doctor,
    row: &mut Row,
) {
    let rows::Source::Object(object) = &row.object else {
        return;
    };
    row.worst = doctor.worst(&row.id);
    let identity = Inventory::identity(object);
    let neighbours = inventory.neighbours(object);
    row.broken = match lint.get(&row.id) {
        Some((seen, around, broken)) if *seen == identity && *around == neighbours => *broken,
        _ => {
            let broken = breaks_a_rule(inventory, object).unwrap_or(false);
            lint.insert(row.id.clone(), (identity, neighbours, broken));
            broken
        }
    };
}

impl App {
    /// The doctor's markers of the pools list, read again for every row (the rows stay).
    pub(super) fn remark_worst(&mut self) {
        let slots: Vec<usize> = self.shown.base.slots().collect();
        let shown = &mut self.shown;
        for slot in slots {
            if let Some(row) = shown.base.row_mut(slot) {
                row.worst = shown.doctor.worst(&row.id);
            }
        }
    }

    /// The rule markers of these pools' rows, checked again where their neighbours changed.
    pub(super) fn relint(&mut self, pools: &[Key]) {
        let shown = &mut self.shown;
        for key in pools {
            for slot in shown.base.slots_of(key).to_vec() {
                if let Some(row) = shown.base.row_mut(slot) {
                    mark(&mut shown.lint, &self.inventory, &shown.doctor, row);
                }
            }
        }
    }

    /// Marks the pools whose spec breaks a rule of the reference and the doctor's worst
    /// finding about each.
    pub(super) fn mark_pools(&mut self, rows: &mut [Row]) {
        for row in rows {
            mark(
                &mut self.shown.lint,
                &self.inventory,
                &self.shown.doctor,
                row,
            );
        }
    }
}
