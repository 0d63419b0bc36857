//! The troubleshooting guide's unblock of a deletion that does not complete, as the console
//! builds it from what it watches: step 1 deletes the AIWorkloads the pool's status names
//! (each judged: deleted as looked at, gone, or left alone with the reason), step 2 removes
//! the finalizer only when none is left. Part of `update`: no I/O.

use chrono::{DateTime, Utc};

use super::App;
use crate::domain::fixes::{self, Plan};
use crate::domain::model::ComputePool;
use crate::domain::{Kind, ObjectRef, Preconditions};

/// Step 1 while AIWorkloads still reference the deleting pool, step 2 after.
pub(super) fn plan(app: &App, pool: &ComputePool, now: DateTime<Utc>) -> Plan {
    use fixes::Workload;
    let judge = |w: &ObjectRef| -> Workload {
        if let Some(verdict) = fixes::unreadable(w) {
            return verdict;
        }
        match app.inventory.get(Kind::AIWorkload, &w.namespace, &w.name) {
            // Read from the hub: one that names another pool as its own is not this one's.
            Some(object) => match object
                .raw()
                .and_then(|workload| fixes::belongs_elsewhere(pool, workload))
            {
                Some(why) => Workload::LeftAlone(why),
                None => Workload::Delete(Preconditions::of(object.uid().as_deref(), None)),
            },
            // Gone only when the watch that covers its namespace is live and lacks it; not
            // watched there (another namespace, still listing): the status's word holds, and
            // it is deleted by name, as the guide does.
            None if !app.inventory.health().any(|((kind, scope), health)| {
                *kind == Kind::AIWorkload
                    && scope.as_deref().is_none_or(|ns| ns == w.namespace.as_str())
                    && health.state == crate::inventory::SourceState::Live
            }) =>
            {
                Workload::Delete(Preconditions::default())
            }
            None => Workload::Gone,
        }
    };
    // A deletionTimestamp written as null is not set (as the doctor reads it).
    let deletion = pool.meta().map(|m| &m.deletion_timestamp);
    if !pool.meta().is_some_and(|m| m.is_deleting()) {
        let mut plan = fixes::delete_workloads(pool, &judge);
        plan.blocked = Some(
            "the pool is not being deleted: unblocking is for a deletion that does not complete"
                .into(),
        );
        return plan;
    }
    let step1 = fixes::delete_workloads(pool, &judge);
    if !step1.operations.is_empty() {
        return step1;
    }
    let pending = deletion
        .and_then(|at| at.as_deref())
        .and_then(crate::inventory::parse_time)
        .map(|since| (now - since).num_minutes());
    // A reference left alone (not a Kubernetes name, or a workload of another pool) is not
    // proof that none is left: the guide's step 2 waits until every one is gone.
    let left = fixes::left_alone(pool, &judge);
    let mut plan = fixes::remove_finalizer(pool, left.len(), pending);
    if let Some(first) = left.first() {
        let target = fixes::pool_ref(pool);
        // The command names the hub (kubeconfig file, context): pasted, it looks there.
        let look = crate::domain::shell::on_hub(
            &format!(
                "kubectl get computepool {} -n {} -o yaml",
                crate::domain::shell::quote(target.name.as_str()),
                crate::domain::shell::quote(target.namespace.as_str()),
            ),
            &app.hub(),
        );
        plan.blocked = Some(format!(
            "status.aiWorkloadRefs still holds {} that pooldeck does not act on ({first}); the \
             finalizer stays until every AIWorkload is gone: look at the pool's status with \
             {look}",
            crate::domain::words::counted(left.len(), "reference"),
        ));
    }
    plan
}

#[cfg(test)]
#[path = "unblock_tests.rs"]
mod tests;
