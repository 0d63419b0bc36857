//! The fix plans: pause corrects a wrong label, a delete shows its impact and carries its
//! incarnation, the finalizer only when the guide's conditions hold.

use super::*;
use crate::model::typed;
use serde_json::json;

fn pool(name: &str, labels: Value) -> Value {
    json!({"metadata": {"name": name, "namespace": "retail-edge", "uid": format!("u-{name}"),
           "resourceVersion": "7", "labels": labels},
           "spec": {"deletionPolicy": "orphan"},
           "status": {"aiWorkloadRefs": [{"name": "w1", "namespace": "retail-edge"}, {"name": "w2"}]}})
}

#[test]
fn pause_corrects_a_wrong_value_and_resume_needs_every_pool_paused() {
    let wrong = pool("a", json!({PAUSE_LABEL: "True"}));
    let paused = pool("b", json!({PAUSE_LABEL: "true"}));
    let plain = pool("c", json!({}));
    let plan = pause_or_resume(&[&typed(&wrong), &typed(&paused), &typed(&plain)]);
    assert_eq!(plan.fix, Fix::Pause);
    assert_eq!(plan.operations.len(), 2, "the paused pool is left alone");
    assert!(plan.targets[0].contains("\"True\", which does not pause"));
    assert!(
        plan.explanation
            .iter()
            .any(|l| l.contains("does not stop deletion"))
    );
    assert!(
        plan.kubectl()
            .contains("controller.spectrocloud.com/pause=true --overwrite")
    );
    let plan = pause_or_resume(&[&typed(&paused)]);
    assert_eq!(plan.fix, Fix::Resume);
    assert!(
        plan.kubectl()
            .ends_with("controller.spectrocloud.com/pause- --resource-version=7"),
        "{}",
        plan.kubectl()
    );
    assert_eq!(
        plan.operations[0].preconditions(),
        Preconditions::of(Some("u-b"), Some("7")),
        "resume names the pool as looked at"
    );
    assert_eq!(plan.permissions, vec![patch("retail-edge")]);
    assert!(plan.dry_runs().iter().all(|o| o.run() == Some(Run::DryRun)));
}

#[test]
fn delete_shows_the_impact_by_policy_and_carries_the_incarnation() {
    let plan = delete(&typed(&pool("store-042", json!({}))));
    assert_eq!(plan.type_to_confirm.as_deref(), Some("store-042"));
    let impact = plan.impact.join("\n");
    assert!(
        impact.contains("2 AIWorkloads force-deleted first"),
        "{impact}"
    );
    assert!(
        impact.contains("retail-edge/w2"),
        "a ref without namespace is the pool's"
    );
    assert!(impact.contains("orphan"), "{impact}");
    assert!(impact.contains("edge hosts stay allocated"), "{impact}");
    match &plan.operations[0] {
        Operation::Delete { preconditions, .. } => {
            assert_eq!(preconditions.uid.as_deref(), Some("u-store-042"));
            assert_eq!(preconditions.resource_version.as_deref(), Some("7"));
        }
        other => panic!("{other:?}"),
    }
    assert!(plan.destructive());
}

#[test]
fn the_finalizer_is_offered_only_when_the_guides_conditions_hold() {
    let mut stuck = pool("p", json!({}));
    stuck["metadata"]["finalizers"] = json!(["other/finalizer", POOL_FINALIZER]);
    assert!(
        remove_finalizer(&typed(&stuck), 1, Some(60))
            .blocked
            .is_some()
    );
    assert!(
        remove_finalizer(&typed(&stuck), 0, Some(2))
            .blocked
            .is_some()
    );
    assert!(remove_finalizer(&typed(&stuck), 0, None).blocked.is_some());
    let plan = remove_finalizer(&typed(&stuck), 0, Some(60));
    assert_eq!(plan.blocked, None);
    assert_eq!(plan.acknowledge, Some(ACKNOWLEDGEMENT));
    match &plan.operations[0] {
        Operation::RemoveFinalizer { index, .. } => assert_eq!(*index, 1, "by value"),
        other => panic!("{other:?}"),
    }
    let workloads = delete_workloads(&typed(&stuck), &|w| {
        if w.name == "w1" {
            Workload::Delete(Preconditions::default())
        } else {
            Workload::Gone
        }
    });
    assert_eq!(workloads.operations.len(), 1, "only those still there");
}

/// A name written into the status that is not a Kubernetes name is never a target: it is
/// left out of the requests and named as left alone.
#[test]
fn a_hostile_workload_reference_is_left_alone_and_said() {
    let mut pool = pool("a", json!({}));
    pool["status"]["aiWorkloadRefs"] = json!([
        {"name": "x; touch /tmp/p; #", "namespace": "retail-edge"},
        {"name": "../../../api", "namespace": "retail-edge"},
        {"name": "fine-one", "namespace": "retail-edge"},
    ]);
    let plan = delete_workloads(&typed(&pool), &|w| {
        unreadable(w).unwrap_or(Workload::Delete(Preconditions::default()))
    });
    let targets: Vec<String> = plan
        .operations
        .iter()
        .filter_map(|o| o.target().map(|t| t.name.to_string()))
        .collect();
    assert_eq!(targets, ["fine-one"]);
    let said = plan.explanation.join("\n");
    assert!(
        said.contains("x; touch /tmp/p; #") && said.contains("Left alone"),
        "{said}"
    );
    assert!(!plan.kubectl().contains("touch"), "{}", plan.kubectl());
}

/// A workload the status names that says it belongs to another pool is not deleted with this
/// one: it is named as left alone.
#[test]
fn a_workload_of_another_pool_is_never_this_pools_to_delete() {
    let stuck = pool("a", json!({}));
    let theirs = json!({"metadata": {"name": "w1", "namespace": "retail-edge"},
        "spec": {"computePoolRef": {"name": "healthy-pool", "namespace": "retail-edge"}}});
    let ours = json!({"metadata": {"name": "w2", "namespace": "retail-edge"},
        "spec": {"computePoolRef": {"name": "a", "namespace": "retail-edge"}}});
    assert!(
        belongs_elsewhere(&typed(&stuck), &theirs).is_some_and(|why| why.contains("healthy-pool"))
    );
    assert!(belongs_elsewhere(&typed(&stuck), &ours).is_none());
    let judge = |w: &ObjectRef| match w.name.as_str() {
        "w1" => Workload::LeftAlone(belongs_elsewhere(&typed(&stuck), &theirs).unwrap_or_default()),
        _ => Workload::Delete(Preconditions::default()),
    };
    let plan = delete_workloads(&typed(&stuck), &judge);
    let names: Vec<String> = plan
        .operations
        .iter()
        .filter_map(|o| o.target().map(|t| t.name.to_string()))
        .collect();
    assert_eq!(names, ["w2"]);
    assert!(
        plan.explanation
            .iter()
            .any(|l| l.contains("belongs to ComputePool retail-edge/healthy-pool"))
    );
    assert_eq!(left_alone(&typed(&stuck), &judge).len(), 1);
}

/// A deletionTimestamp written as null is not set, as the doctor reads it: the delete is not
/// blocked as "already being deleted"; a real one blocks it.
#[test]
fn a_null_deletion_time_does_not_block_a_delete() {
    let mut p = pool("a", json!({}));
    p["metadata"]["deletionTimestamp"] = Value::Null;
    assert_eq!(delete(&typed(&p)).blocked, None);
    p["metadata"]["deletionTimestamp"] = json!("2026-07-03T10:00:00Z");
    assert!(delete(&typed(&p)).blocked.is_some());
}
