//! The troubleshooting guide's unblock of a deletion that does not complete, as the console
//! builds it from what it watches: step 1 deletes the AIWorkloads of the pool's namespace
//! that name it (one listed only by its status, with its name typed), step 2 removes the
//! finalizer only once every one is verified gone, a while after the last went. Part of
//! `update`: no I/O.

use chrono::{DateTime, Utc};

use super::hub::HubState;
use crate::domain::fixes::{self, Plan, Standing};
use crate::domain::model::ComputePool;

/// Step 1 while AIWorkloads still reference the deleting pool, step 2 after.
pub(super) fn plan(hub: &HubState, pool: &ComputePool, now: DateTime<Utc>) -> Plan {
    let workloads = hub.inventory.workloads_of(pool);
    let step1 = fixes::delete_workloads(pool, &workloads);
    if !pool.meta().is_some_and(|m| m.is_deleting()) {
        let mut plan = step1;
        plan.blocked = Some(
            "the pool is not being deleted: unblocking is for a deletion that does not complete"
                .into(),
        );
        return plan;
    }
    if !step1.operations.is_empty() {
        return step1;
    }
    let mut plan = fixes::remove_finalizer(pool, &workloads, now);
    // A reference not acted on keeps the finalizer: the pool's status is where to look.
    let other = workloads
        .standing(|s| matches!(s, Standing::Evidence(_) | Standing::Unverified))
        .count();
    if other > 0 && workloads.present() == 0 {
        let target = fixes::pool_ref(pool);
        // The command names the hub (kubeconfig file, context): pasted, it looks there.
        let look = crate::domain::shell::on_hub(
            &format!(
                "kubectl get computepool {} -n {} -o yaml",
                crate::domain::shell::quote(target.name.as_str()),
                crate::domain::shell::quote(target.namespace.as_str()),
            ),
            &hub.id(),
        );
        if let Some(why) = &mut plan.blocked {
            why.push_str(&format!("; look at the pool's status with {look}"));
        }
    }
    plan
}

#[cfg(test)]
#[path = "unblock_tests.rs"]
mod tests;
