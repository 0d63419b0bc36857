//! The fix plans: pause corrects a wrong label, a delete shows its impact and carries its
//! incarnation, the finalizer only when the guide's conditions hold.

use super::*;
use crate::model::typed;
use chrono::{DateTime, Utc};
use serde_json::Value;
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

/// An AIWorkload of `namespace` named `name`, naming `pool` as its own (`None`: no pool).
fn workload(namespace: &str, name: &str, pool: Option<&str>) -> Value {
    let mut w = json!({"metadata": {"name": name, "namespace": namespace, "uid": format!("u-{name}")},
                       "spec": {}});
    if let Some(pool) = pool {
        w["spec"]["computePoolRef"] = json!({"name": pool, "namespace": namespace});
    }
    w
}

fn at(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text)
        .map(|t| t.with_timezone(&Utc))
        .unwrap_or_default()
}

/// A namespace read since `since` holding `present`, with those seen going.
fn read<'a>(
    present: &'a [Value],
    since: &str,
    seen_going: &[(&'a str, &str)],
) -> WorkloadsRead<'a> {
    WorkloadsRead {
        since: at(since),
        present: present
            .iter()
            .map(|w| {
                let uid = w.pointer("/metadata/uid").and_then(Value::as_str);
                (w, Preconditions::of(uid, None))
            })
            .collect(),
        seen_going: seen_going.iter().map(|(n, t)| (*n, at(t))).collect(),
    }
}

fn names(plan: &Plan) -> Vec<String> {
    plan.operations
        .iter()
        .filter_map(|o| o.target().map(|t| format!("{}/{}", t.namespace, t.name)))
        .collect()
}

#[test]
fn delete_shows_the_impact_by_policy_and_carries_the_incarnation() {
    let p = typed(&pool("store-042", json!({})));
    let present = [
        workload("retail-edge", "w1", Some("store-042")),
        workload("retail-edge", "w2", Some("store-042")),
    ];
    let plan = delete(&p, &Workloads::of(&p, Some(&read(&present, T0, &[]))));
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

const T0: &str = "2026-07-03T10:00:00Z";

/// References planted in a deleting pool's status: one in another namespace, one naming
/// no pool, one naming another pool, one gone, one that is this pool's, and one that names
/// the pool unlisted. Step 1 deletes only the pool's own; the one naming no pool comes next,
/// with its name to type; the rest are said, never sent.
#[test]
fn fixes_touch_only_the_pools_own_aiworkloads() {
    let mut stuck = pool("retired-cluster", json!({}));
    stuck["metadata"]["namespace"] = json!("ml-research");
    stuck["metadata"]["deletionTimestamp"] = json!(T0);
    stuck["metadata"]["finalizers"] = json!([POOL_FINALIZER]);
    stuck["status"]["aiWorkloadRefs"] = json!([
        {"name": "innocent", "namespace": "vision-lab"},
        {"name": "ok-name", "namespace": "kube-system"},
        {"name": "orphan-job", "namespace": "ml-research"},
        {"name": "theirs", "namespace": "ml-research"},
        {"name": "mine"},
        {"name": "went", "namespace": "ml-research"},
    ]);
    let p = typed(&stuck);
    let present = [
        workload("ml-research", "orphan-job", None),
        workload("ml-research", "theirs", Some("healthy-pool")),
        workload("ml-research", "mine", Some("retired-cluster")),
        workload("ml-research", "unlisted", Some("retired-cluster")),
        // Another namespace's AIWorkloads are never read for this pool.
        workload("vision-lab", "innocent", None),
    ];
    let workloads = Workloads::of(&p, Some(&read(&present, T0, &[])));
    let standing = |name: &str| {
        workloads
            .all
            .iter()
            .find(|w| w.reference.name.as_str() == name)
            .map(|w| w.standing.clone())
            .unwrap_or(Standing::Unverified)
    };
    assert!(
        matches!(standing("innocent"), Standing::Evidence(why) if why.contains("not the pool's"))
    );
    assert!(matches!(standing("ok-name"), Standing::Evidence(_)));
    assert!(matches!(standing("orphan-job"), Standing::ListedOnly(_)));
    assert!(matches!(standing("theirs"), Standing::Evidence(why) if why.contains("healthy-pool")));
    assert!(matches!(standing("mine"), Standing::Target(_)));
    assert!(matches!(standing("unlisted"), Standing::Target(_)));
    assert_eq!(standing("went"), Standing::Gone(at(T0)));
    assert_eq!(workloads.present(), 3);
    assert_eq!(workloads.clear_since(), None);

    let step1 = delete_workloads(&p, &workloads);
    assert_eq!(names(&step1), ["ml-research/mine", "ml-research/unlisted"]);
    assert_eq!(step1.type_to_confirm, None);
    let said = step1.explanation.join("\n");
    for planted in [
        "vision-lab/innocent",
        "kube-system/ok-name",
        "ml-research/theirs",
    ] {
        assert!(said.contains(planted), "{planted} is said: {said}");
        assert!(
            !step1
                .kubectl()
                .contains(planted.split('/').nth(1).unwrap_or(""))
        );
    }
    assert!(
        said.contains("listed in status, no longer exists"),
        "{said}"
    );

    // The pool's own gone: the one naming no pool is offered alone, its name to type.
    let present = [
        workload("ml-research", "orphan-job", None),
        workload("ml-research", "theirs", Some("healthy-pool")),
    ];
    let workloads = Workloads::of(&p, Some(&read(&present, T0, &[])));
    let step1 = delete_workloads(&p, &workloads);
    assert_eq!(names(&step1), ["ml-research/orphan-job"]);
    assert_eq!(step1.type_to_confirm.as_deref(), Some("orphan-job"));
    // The impact of a delete names the same.
    let impact = delete(&p, &workloads).impact.join("\n");
    assert!(
        impact.contains("1 AIWorkload force-deleted first"),
        "{impact}"
    );
    assert!(
        impact.contains("listed only by the pool's status"),
        "{impact}"
    );
    assert!(impact.contains("not counted above"), "{impact}");

    // Nothing of the pool's left but evidence: no step 1, and no finalizer either.
    let present = [workload("ml-research", "theirs", Some("healthy-pool"))];
    let workloads = Workloads::of(&p, Some(&read(&present, T0, &[])));
    assert!(delete_workloads(&p, &workloads).operations.is_empty());
    let later = at("2026-07-03T12:00:00Z");
    let step2 = remove_finalizer(&p, &workloads, later);
    assert!(
        step2
            .blocked
            .as_deref()
            .is_some_and(|b| b.contains("not acted on") && b.contains("verified gone")),
        "{:?}",
        step2.blocked
    );
    // Not read at all: nothing is verified, nothing is a target.
    let unread = Workloads::of(&p, None);
    assert!(delete_workloads(&p, &unread).operations.is_empty());
    assert!(remove_finalizer(&p, &unread, later).blocked.is_some());
}

/// The finalizer is offered only once every AIWorkload is verified gone, ten minutes after
/// pooldeck saw the last one go, or after it first verified none is left; never counted from
/// the deletion's start.
#[test]
fn the_finalizer_waits_from_the_last_aiworkload_gone() {
    let mut stuck = pool("p", json!({}));
    stuck["metadata"]["deletionTimestamp"] = json!("2026-07-03T08:00:00Z");
    stuck["metadata"]["finalizers"] = json!(["other/finalizer", POOL_FINALIZER]);
    let p = typed(&stuck);
    let present = [workload("retail-edge", "w1", Some("p"))];
    let some_left = Workloads::of(&p, Some(&read(&present, T0, &[])));
    let step2 = remove_finalizer(&p, &some_left, at("2026-07-03T12:00:00Z"));
    assert!(
        step2
            .blocked
            .as_deref()
            .is_some_and(|b| b.contains("step 1"))
    );

    // w1 seen going at 10:05, w2 (never seen) verified gone since the read began at 10:00.
    let none = Workloads::of(&p, Some(&read(&[], T0, &[("w1", "2026-07-03T10:05:00Z")])));
    assert_eq!(none.clear_since(), Some(at("2026-07-03T10:05:00Z")));
    let early = remove_finalizer(&p, &none, at("2026-07-03T10:14:00Z"));
    assert!(
        early
            .blocked
            .as_deref()
            .is_some_and(|b| b.contains("in 1 minute")),
        "{:?}",
        early.blocked
    );
    let plan = remove_finalizer(&p, &none, at("2026-07-03T10:15:00Z"));
    assert_eq!(plan.blocked, None);
    assert_eq!(plan.acknowledge, Some(ACKNOWLEDGEMENT));
    let said = plan.explanation.join("\n");
    assert!(
        said.contains(
            "1. All AIWorkloads are deleted: verified by pooldeck, none left for 10 minutes"
        ),
        "{said}"
    );
    assert!(
        said.contains("2. The controller logs show the finalizer is stuck"),
        "{said}"
    );
    assert!(
        said.contains("3. You have consulted your PaletteAI administrator"),
        "{said}"
    );
    match &plan.operations[0] {
        Operation::RemoveFinalizer { index, .. } => assert_eq!(*index, 1, "by value"),
        other => panic!("{other:?}"),
    }
    // A status that lists none: counted from when the namespace was first read.
    let mut quiet = stuck.clone();
    quiet["status"]["aiWorkloadRefs"] = json!([]);
    let q = typed(&quiet);
    let read_now = Workloads::of(&q, Some(&read(&[], "2026-07-03T11:58:00Z", &[])));
    assert!(
        remove_finalizer(&q, &read_now, at("2026-07-03T12:00:00Z"))
            .blocked
            .is_some()
    );
    assert_eq!(
        remove_finalizer(&q, &read_now, at("2026-07-03T12:08:00Z")).blocked,
        None
    );
}

/// A name written into the status that is not a Kubernetes name is never a target: it is
/// left out of the requests and named as evidence.
#[test]
fn a_hostile_workload_reference_is_left_alone_and_said() {
    let mut pool = pool("a", json!({}));
    pool["status"]["aiWorkloadRefs"] = json!([
        {"name": "x; touch /tmp/p; #", "namespace": "retail-edge"},
        {"name": "../../../api", "namespace": "retail-edge"},
        {"name": "fine-one", "namespace": "retail-edge"},
    ]);
    let p = typed(&pool);
    let present = [workload("retail-edge", "fine-one", Some("a"))];
    let plan = delete_workloads(&p, &Workloads::of(&p, Some(&read(&present, T0, &[]))));
    assert_eq!(names(&plan), ["retail-edge/fine-one"]);
    let said = plan.explanation.join("\n");
    assert!(
        said.contains("x; touch /tmp/p; #") && said.contains("not acted on"),
        "{said}"
    );
    assert!(!plan.kubectl().contains("touch"), "{}", plan.kubectl());
}

/// A deletionTimestamp written as null is not set, as the doctor reads it: the delete is not
/// blocked as "already being deleted"; a real one blocks it.
#[test]
fn a_null_deletion_time_does_not_block_a_delete() {
    let mut p = pool("a", json!({}));
    p["metadata"]["deletionTimestamp"] = Value::Null;
    let none = Workloads::default();
    assert_eq!(delete(&typed(&p), &none).blocked, None);
    p["metadata"]["deletionTimestamp"] = json!("2026-07-03T10:00:00Z");
    assert!(delete(&typed(&p), &none).blocked.is_some());
}

#[test]
fn a_resume_says_the_pools_it_leaves_are_not_paused() {
    let paused = pool("b", json!({PAUSE_LABEL: "true"}));
    let plain = pool("c", json!({}));
    let plan = pause_label(&[&typed(&paused), &typed(&plain)], true);
    assert_eq!(plan.operations.len(), 1);
    assert!(
        plan.explanation
            .iter()
            .any(|l| l == "1 pool not paused: left as is."),
        "{:?}",
        plan.explanation
    );
    let plan = pause_label(&[&typed(&paused), &typed(&plain)], false);
    assert!(
        plan.explanation
            .iter()
            .any(|l| l == "1 pool already paused: left as is."),
        "{:?}",
        plan.explanation
    );
}
