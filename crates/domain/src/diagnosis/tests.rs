//! The doctor on hand-made objects, one finding at a time, and on malformed or partly missing
//! status (no panic; nothing is invented from what could not be read).

use chrono::{TimeZone, Utc};
use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 7, 3, 12, 0, 0).unwrap()
}

fn pool() -> Value {
    json!({
        "apiVersion": "spectrocloud.com/v1alpha1", "kind": "ComputePool",
        "metadata": {"name": "p", "namespace": "ns"},
        "spec": {"profileBundleRef": {"name": "bundle"}, "clusterVariant": {"dedicated": {
            "scalingPolicyRef": {"name": "policy"},
            "paletteClusterDeploymentConfig": {
                "nodePoolRequirements": {
                    "controlPlanePool": {"nodeCount": 1, "singleNodeCluster": true, "workerNodeEligible": true},
                    "workerPools": [{"name": "w", "gpu": {"variant": "A100", "gpuCount": 8}}]},
                "edge": {"vip": "10.0.0.1"}}}}},
        "status": {"status": "Running"}
    })
}

/// What a test sets around its pool: the picture's other parts, with the evaluation as JSON
/// (read through the model, as the console reads it, when the picture is made).
struct Setup<'a> {
    evaluation: Option<&'a Value>,
    policy: Option<&'a Value>,
    policies_known: bool,
    profile_bundle: Option<&'a Value>,
    profile_bundles_known: bool,
    settings: Option<&'a Value>,
    settings_known: bool,
    computes: &'a [&'a Value],
    project: Option<&'a Value>,
    tenant: Option<&'a Value>,
    same_vip: &'a [VipPeer],
    events: &'a [&'a crate::model::Event],
    /// The pool's namespace's AIWorkloads as read since five minutes ago (`None`: not read).
    workloads: Option<&'a [Value]>,
    now: DateTime<Utc>,
}

fn run<'a>(pool: &'a Value, tweak: impl FnOnce(&mut Setup<'a>)) -> Vec<Diagnosis> {
    with_picture(pool, tweak, diagnose)
}

fn with_picture<'a, T>(
    pool: &'a Value,
    tweak: impl FnOnce(&mut Setup<'a>),
    read: impl FnOnce(&Picture<'_>) -> T,
) -> T {
    let mut setup = Setup {
        evaluation: None,
        policy: None,
        policies_known: false,
        profile_bundle: None,
        profile_bundles_known: false,
        settings: None,
        settings_known: false,
        computes: &[],
        project: None,
        tenant: None,
        same_vip: &[],
        events: &[],
        workloads: None,
        now: now(),
    };
    tweak(&mut setup);
    let pool: ComputePool = crate::model::typed(pool);
    let namespace = setup.workloads.map(|present| crate::fixes::WorkloadsRead {
        since: setup.now - chrono::TimeDelta::minutes(5),
        present: present
            .iter()
            .map(|w| (w, crate::Preconditions::default()))
            .collect(),
        seen_going: Vec::new(),
    });
    let workloads = crate::fixes::Workloads::of(&pool, namespace.as_ref());
    let evaluation: Option<ComputePoolEvaluation> = setup.evaluation.map(crate::model::typed);
    let picture = Picture {
        pool: &pool,
        evaluation: evaluation.as_ref(),
        policy: setup.policy,
        policies_known: setup.policies_known,
        profile_bundle: setup.profile_bundle,
        profile_bundles_known: setup.profile_bundles_known,
        settings: setup.settings,
        settings_known: setup.settings_known,
        computes: setup.computes,
        project: setup.project,
        tenant: setup.tenant,
        same_vip: setup.same_vip,
        events: setup.events,
        workloads: &workloads,
        now: setup.now,
    };
    read(&picture)
}

fn ids(found: &[Diagnosis]) -> Vec<&str> {
    found.iter().map(|d| d.id).collect()
}

/// A cause made specific by the condition's message is two sentences: the guide's, then
/// "Here …" (its full stop was missing: "edge hosts Here the message…").
#[test]
fn a_specific_cause_follows_the_guides_sentence_after_its_full_stop() {
    let mut p = pool();
    p["status"] = json!({"status": "Provisioning", "conditions": [
        {"type": "ClusterDeployed", "status": "False", "reason": "ClusterDeploymentFailed",
         "message": "VIP 10.0.0.1 is already in use"}]});
    let found = run(&p, |_| {});
    let d = found
        .iter()
        .find(|d| d.id == "provisioning.condition")
        .expect("found");
    assert!(
        d.cause
            .contains("edge hosts. Here the message names the VIP"),
        "{}",
        d.cause
    );
    assert!(
        !d.cause.contains(" Here") || d.cause.contains(". Here"),
        "{}",
        d.cause
    );
}

#[test]
fn a_failing_condition_is_explained_by_the_guide() {
    let mut p = pool();
    p["status"] = json!({"status": "Provisioning", "conditions": [
        {"type": "ClusterDeployed", "status": "False", "reason": "ClusterDeploymentFailed", "message": "boom"}]});
    let found = run(&p, |_| {});
    let d = found
        .iter()
        .find(|d| d.id == "provisioning.condition")
        .expect("found");
    assert!(
        d.cause
            .contains("Check Settings credentials and available edge hosts"),
        "{}",
        d.cause
    );
    assert!(d.next[0].contains("kubectl describe computepool p --namespace ns"));
}

#[test]
fn a_failed_deployment_is_explained_but_a_running_pool_with_an_old_condition_is_not() {
    let mut p = pool();
    p["status"] = json!({"status": "Failed", "conditions": [
        {"type": "ClusterDeployed", "status": "False", "reason": "ClusterDeploymentFailed", "message": "no hosts"}]});
    assert!(ids(&run(&p, |_| ())).contains(&"provisioning.condition"));
    assert!(!ids(&run(&p, |_| ())).contains(&"provisioning.pending"));
    p["status"]["status"] = json!("Running");
    assert!(!ids(&run(&p, |_| ())).contains(&"provisioning.condition"));
}

#[test]
fn provisioning_with_an_empty_worker_list_names_it() {
    let mut p = pool();
    p["status"]["status"] = json!("Provisioning");
    // Three control-plane nodes of their own: both lists are asked for.
    p["spec"]["clusterVariant"]["dedicated"]["paletteClusterDeploymentConfig"]["nodePoolRequirements"]
        ["controlPlanePool"] = json!({"nodeCount": 3});
    let compute = json!({"status": {"controlPlaneCompute": [], "workerCompute": []}});
    let computes = [&compute];
    let found = run(&p, |pic| pic.computes = &computes);
    let d = found
        .iter()
        .find(|d| d.id == "provisioning.no-hosts")
        .expect("{found:?}");
    assert!(d.summary.contains("is empty"), "{}", d.summary);
    // Each requirement's next step looks at the list that holds its hosts.
    let lists: Vec<(&str, &str)> = found
        .iter()
        .filter(|d| d.id == "provisioning.no-hosts")
        .map(|d| (d.summary.as_str(), d.next[0].as_str()))
        .collect();
    assert!(lists.len() >= 2, "{lists:?}");
    for (summary, next) in lists {
        let list = if summary.starts_with("the control plane") {
            "controlPlaneCompute"
        } else {
            "workerCompute"
        };
        assert!(summary.contains(list), "{summary}");
        assert!(
            next.ends_with(&format!("grep --after-context=20 {list}")),
            "{summary}: {next}"
        );
    }
}

#[test]
fn a_missing_or_unready_profile_bundle_is_an_error_only_when_bundles_are_read() {
    let mut p = pool();
    p["status"]["status"] = json!("Provisioning");
    assert!(!ids(&run(&p, |_| {})).contains(&"provisioning.profile-bundle-missing"));
    assert!(
        ids(&run(&p, |pic| pic.profile_bundles_known = true))
            .contains(&"provisioning.profile-bundle-missing")
    );
    let bundle = json!({"status": {"conditions": [{"type": "Ready", "status": "False", "message": "pack missing"}]}});
    let found = run(&p, |pic| {
        pic.profile_bundles_known = true;
        pic.profile_bundle = Some(&bundle);
    });
    assert!(
        found
            .iter()
            .any(|d| d.id == "provisioning.profile-bundle-not-ready"
                && d.summary.contains("pack missing"))
    );
}

fn peer(name: &str, created: &str, running: bool) -> VipPeer {
    VipPeer {
        name: name.to_owned(),
        created: DateTime::parse_from_rfc3339(created)
            .ok()
            .map(|t| t.with_timezone(&Utc)),
        running,
    }
}

/// The vip-conflict scenario's two pools: the newcomer (its deployment fails on the VIP) gets
/// the recreate path; the pool running on the address gets no error and no advice to
/// recreate it.
#[test]
fn a_shared_vip_tells_the_newcomer_from_the_owner() {
    let mut newcomer = pool();
    newcomer["metadata"]["creationTimestamp"] = json!("2026-07-03T11:00:00Z");
    newcomer["status"] = json!({"status": "Provisioning", "conditions": [
        {"type": "ClusterDeployed", "status": "False", "reason": "ClusterDeploymentFailed",
         "message": "Failed to deploy Palette cluster: control plane endpoint 10.0.0.1 is already in use"}]});
    let owner = [peer("ns/q", "2026-05-01T00:00:00Z", true)];
    let found = run(&newcomer, |pic| pic.same_vip = &owner);
    let d = found
        .iter()
        .find(|d| d.id == "vip.in-use")
        .expect("{found:?}");
    assert_eq!(d.severity, Severity::Error);
    assert!(d.summary.contains("ns/q"));
    assert!(d.next.iter().any(|n| n.contains("R recreates")));
    assert!(
        d.cause.contains("control plane endpoint 10.0.0.1"),
        "{}",
        d.cause
    );
    let condition = found
        .iter()
        .find(|d| d.id == "provisioning.condition")
        .expect("the condition");
    assert!(
        condition.cause.contains("names the VIP 10.0.0.1"),
        "the cause is the message's, not the section's: {}",
        condition.cause
    );

    // The owner: running on the address, looked at while the newcomer fails.
    let mut running = pool();
    running["metadata"]["creationTimestamp"] = json!("2026-05-01T00:00:00Z");
    let newer = [peer("ns/newcomer", "2026-07-03T11:00:00Z", false)];
    let found = run(&running, |pic| pic.same_vip = &newer);
    assert!(!ids(&found).contains(&"vip.in-use"), "{found:?}");
    let shared = found.iter().find(|d| d.id == "vip.shared").expect("said");
    assert_eq!(shared.severity, Severity::Info);
    for d in found.iter().filter(|d| d.symptom == "VIP Already in Use") {
        assert!(
            d.severity < Severity::Warning,
            "nothing wrong with a running owner's VIP: {d:?}"
        );
    }
    for d in &found {
        assert!(
            !d.next.iter().any(|n| n.contains("R recreates")),
            "never advise recreating the pool that runs on the VIP: {d:?}"
        );
    }
}

/// A failure message about an address the spec no longer has (the pool was recreated with
/// a new VIP, the old status not yet reconciled) is stale: not believed, not acted on.
#[test]
fn a_failure_naming_an_old_vip_is_stale() {
    let mut p = pool();
    p["spec"]["clusterVariant"]["dedicated"]["paletteClusterDeploymentConfig"]["edge"]["vip"] =
        json!("10.0.0.44");
    p["status"] = json!({"status": "Failed", "conditions": [
        {"type": "ClusterDeployed", "status": "False", "reason": "ClusterDeploymentFailed",
         "message": "Failed to deploy Palette cluster: control plane endpoint 10.0.0.1 is already in use"}]});
    let found = run(&p, |_| {});
    assert!(!ids(&found).contains(&"vip.in-use"), "{found:?}");
    let stale = found
        .iter()
        .find(|d| d.id == "vip.stale-message")
        .expect("said stale");
    assert_eq!(stale.severity, Severity::Info);
    let condition = found
        .iter()
        .find(|d| d.id == "provisioning.condition")
        .expect("the condition");
    assert_eq!(condition.severity, Severity::Info, "{condition:?}");
    assert!(
        condition.summary.starts_with("stale:"),
        "{}",
        condition.summary
    );
    assert!(condition.cause.contains("wait for the next reconcile"));
    // A condition written for an earlier generation of the spec is stale too.
    let mut p = pool();
    p["metadata"]["generation"] = json!(4);
    p["status"] = json!({"status": "Failed", "conditions": [
        {"type": "Validated", "status": "False", "reason": "ValidationFailed",
         "message": "ProfileBundle not Ready", "observedGeneration": 3}]});
    let found = run(&p, |_| {});
    let condition = found
        .iter()
        .find(|d| d.id == "provisioning.condition")
        .expect("the condition");
    assert_eq!(condition.severity, Severity::Info);
    assert!(
        condition.cause.contains("generation 3"),
        "{}",
        condition.cause
    );
}

/// A cause is only what the message says: a timeout is not a GPU cap, and 10.0.0.44 is not
/// the VIP 10.0.0.4.
#[test]
fn a_cause_is_not_guessed_from_a_word_in_passing() {
    let mut p = pool();
    p["status"] = json!({"status": "Provisioning", "conditions": [
        {"type": "ClusterDeployed", "status": "False", "reason": "ClusterDeploymentFailed",
         "message": "context deadline exceeded while waiting for the Palette API; limits of the client reached"}]});
    let found = run(&p, |_| {});
    let d = found
        .iter()
        .find(|d| d.id == "provisioning.condition")
        .expect("the condition");
    assert!(!d.cause.contains("GPU"), "{}", d.cause);
    let mut p = pool();
    p["spec"]["clusterVariant"]["dedicated"]["paletteClusterDeploymentConfig"]["edge"]["vip"] =
        json!("10.0.0.4");
    p["status"] = json!({"status": "Failed", "conditions": [
        {"type": "ClusterDeployed", "status": "False", "reason": "ClusterDeploymentFailed",
         "message": "control plane endpoint 10.0.0.44 is already in use"}]});
    let found = run(&p, |_| {});
    assert!(!ids(&found).contains(&"vip.in-use"), "{found:?}");
    assert!(ids(&found).contains(&"vip.stale-message"), "{found:?}");
}

#[test]
fn the_longhorn_rule_counts_a_single_node_pool_as_one_node() {
    for (replicas, fires) in [("1", false), ("2", true), ("3", true)] {
        let mut p = pool();
        p["spec"]["variables"] = json!({"longhornDefaultReplicaCount": replicas});
        let found = run(&p, |_| {});
        assert_eq!(
            ids(&found).contains(&"longhorn.replicas"),
            fires,
            "{replicas} on a single-node pool: {found:?}"
        );
        if fires {
            let d = found
                .iter()
                .find(|d| d.id == "longhorn.replicas")
                .expect("it");
            assert!(
                d.summary.contains("1 node (a single-node pool)"),
                "{}",
                d.summary
            );
            assert!(
                d.next[0].contains("longhornDefaultReplicaCount 1"),
                "{}",
                d.next[0]
            );
        }
    }
    // Two nodes: a control plane and one worker; 2 fits, 3 does not.
    let mut p = pool();
    p["spec"]["clusterVariant"]["dedicated"]["paletteClusterDeploymentConfig"]["nodePoolRequirements"]
        ["controlPlanePool"] = json!({"nodeCount": 1});
    for (replicas, fires) in [("2", false), ("3", true)] {
        p["spec"]["variables"] = json!({"longhornDefaultReplicaCount": replicas});
        let found = run(&p, |_| {});
        assert_eq!(
            ids(&found).contains(&"longhorn.replicas"),
            fires,
            "{replicas}"
        );
    }
}

#[test]
fn a_quota_failure_names_the_lowest_cap() {
    let mut p = pool();
    p["status"]["conditions"] =
        json!([{"type": "Validated", "status": "False", "message": "GPU quota exceeded"}]);
    let project = json!({"metadata": {"name": "ns"}, "spec": {"gpuResources": {"limits": {"A100": 16}}}, "status": {"gpuUsage": {"A100": 10}}});
    let tenant = json!({"metadata": {"name": "t"}, "spec": {"gpuResources": {"projectLimits": {"ns": {"A100": 12}}}}});
    let found = run(&p, |pic| {
        pic.project = Some(&project);
        pic.tenant = Some(&tenant);
    });
    let d = found.iter().find(|d| d.id == "gpu.quota").expect("found");
    assert!(
        d.summary
            .contains("Tenant t's projectLimits for ns: 2 of 12 left"),
        "{}",
        d.summary
    );
}

#[test]
fn no_evaluation_says_which_reason() {
    let found = run(&pool(), |pic| pic.policies_known = true);
    let d = found
        .iter()
        .find(|d| d.id == "scaling.no-evaluation")
        .expect("found");
    assert!(d.summary.contains("does not exist"), "{}", d.summary);
    let policy =
        json!({"status": {"conditions": [{"type": "PrometheusAvailable", "status": "False"}]}});
    let found = run(&pool(), |pic| {
        pic.policies_known = true;
        pic.policy = Some(&policy);
    });
    assert!(
        found
            .iter()
            .any(|d| d.summary.contains("Prometheus is not available"))
    );
}

#[test]
fn a_scale_down_names_the_host_with_the_highest_waste_and_stale_metrics_their_age() {
    let evaluation = json!({
        "spec": {"poolEvaluations": {"c/w": {"gpu": {"A100": {"count": 12, "target": 8}},
            "nodeWastes": [{"host": "a", "wasteScore": 10}, {"host": "b", "wasteScore": 40}]}}},
        "status": {"metricsLastObservedAt": {"c/w": {"a": "2026-07-03T11:59:30Z", "b": "2026-07-03T11:35:00Z"}},
                   "poolScalingStates": {"c/w": {"state": "Cooldown", "details": "Cooldown in progress, 8m30s remaining"}}}
    });
    let found = run(&pool(), |pic| pic.evaluation = Some(&evaluation));
    let down = found
        .iter()
        .find(|d| d.id == "scaling.scale-down")
        .expect("{found:?}");
    assert!(
        down.summary
            .contains("b goes first (highest wasteScore 40)"),
        "{}",
        down.summary
    );
    let stale = found
        .iter()
        .find(|d| d.id == "scaling.stale-metrics")
        .expect("stale");
    assert!(
        stale.summary.contains("b for 25m") && !stale.summary.contains("a for"),
        "{}",
        stale.summary
    );
    assert!(ids(&found).contains(&"scaling.cooldown"));
}

#[test]
fn a_deletion_pending_long_is_an_error_with_its_workloads() {
    let mut p = pool();
    p["metadata"]["deletionTimestamp"] = json!("2026-07-03T11:15:00Z");
    p["metadata"]["finalizers"] = json!(["spectrocloud.com/computepool-finalizer"]);
    p["status"]["aiWorkloadRefs"] = json!([{"name": "job", "namespace": "ns"}]);
    let job = [aiworkload("ns", "job", Some("p"))];
    let found = run(&p, |s| s.workloads = Some(&job));
    let d = found
        .iter()
        .find(|d| d.id == "deletion.blocked")
        .expect("found");
    assert_eq!(d.severity, Severity::Error);
    assert!(
        d.next
            .iter()
            .any(|n| n == "kubectl delete aiworkload job --namespace ns")
    );
    assert!(
        d.summary.contains("1 AIWorkload still references it"),
        "{}",
        d.summary
    );
}

fn aiworkload(namespace: &str, name: &str, pool: Option<&str>) -> Value {
    let mut w = json!({"metadata": {"name": name, "namespace": namespace}, "spec": {}});
    if let Some(pool) = pool {
        w["spec"]["computePoolRef"] = json!({"name": pool, "namespace": namespace});
    }
    w
}

/// The doctor advises deleting only the pool's own AIWorkloads: one in another namespace,
/// one naming another pool or none is looked at, never deleted; one the status lists that no
/// longer exists is said so, not counted, and the finalizer's wait is counted from when it
/// was verified gone.
#[test]
fn the_doctor_advises_deleting_only_the_pools_own_aiworkloads() {
    let mut p = pool();
    p["metadata"]["deletionTimestamp"] = json!("2026-07-03T11:15:00Z");
    p["metadata"]["finalizers"] = json!(["spectrocloud.com/computepool-finalizer"]);
    p["status"]["aiWorkloadRefs"] = json!([
        {"name": "innocent", "namespace": "vision-lab"},
        {"name": "ok-name", "namespace": "kube-system"},
        {"name": "loose", "namespace": "ns"},
        {"name": "theirs", "namespace": "ns"},
        {"name": "job", "namespace": "ns"},
    ]);
    let present = [
        aiworkload("ns", "loose", None),
        aiworkload("ns", "theirs", Some("other")),
        aiworkload("ns", "job", Some("p")),
    ];
    let found = run(&p, |s| s.workloads = Some(&present));
    let d = found
        .iter()
        .find(|d| d.id == "deletion.blocked")
        .expect("found");
    let deletes: Vec<&String> = d
        .next
        .iter()
        .filter(|n| n.contains("kubectl delete"))
        .collect();
    assert_eq!(
        deletes,
        ["kubectl delete aiworkload job --namespace ns"],
        "{:?}",
        d.next
    );
    let next = d.next.join("\n");
    assert!(next.contains("never delete it for this pool"), "{next}");
    assert!(
        next.contains("check that AIWorkload ns/loose (it names no pool)"),
        "{next}"
    );
    assert!(
        d.summary.contains("2 AIWorkloads still reference it"),
        "{}",
        d.summary
    );

    // stale-job deleted: listed in status, no longer exists; the finalizer comes later.
    p["status"]["aiWorkloadRefs"] = json!([{"name": "stale-job", "namespace": "ns"}]);
    let found = run(&p, |s| s.workloads = Some(&[]));
    let d = found
        .iter()
        .find(|d| d.id == "deletion.blocked")
        .expect("found");
    assert!(!d.summary.contains("still reference"), "{}", d.summary);
    assert!(
        !d.next.iter().any(|n| n.contains("kubectl delete")),
        "{:?}",
        d.next
    );
    assert!(
        d.evidence.iter().any(|(_, v)| v.contains(
            "listed in status, no longer exists (the controller updates status on its next pass)"
        )),
        "{:?}",
        d.evidence
    );
    assert!(
        d.next
            .iter()
            .any(|n| n.contains("offers to release the finalizer")
                && n.contains("after the last AIWorkload went, in 5m")),
        "{:?}",
        d.next
    );
}

/// A next step is safe to paste: a name from the status is one shell word, or, when it
/// cannot be an object's name at all, the step says so (once, however many there are) and
/// names no command on it.
#[test]
fn next_steps_never_hand_the_shell_a_name_from_the_status() {
    let mut p = pool();
    p["metadata"]["deletionTimestamp"] = json!("2026-07-03T11:15:00Z");
    p["metadata"]["finalizers"] = json!(["spectrocloud.com/computepool-finalizer"]);
    p["status"]["aiWorkloadRefs"] = json!([
        {"name": "x; touch /tmp/p; #", "namespace": "ns"},
        {"name": "$(reboot)", "namespace": "ns"},
    ]);
    let found = run(&p, |_| {});
    let d = found
        .iter()
        .find(|d| d.id == "deletion.blocked")
        .expect("found");
    for step in &d.next {
        assert!(
            !step.contains("kubectl delete aiworkload x;")
                && !step.contains("kubectl delete aiworkload $("),
            "{step}"
        );
    }
    assert!(
        d.next
            .iter()
            .filter(|n| n.contains("pooldeck will not act on it"))
            .count()
            == 1,
        "{:?}",
        d.next
    );
}

#[test]
fn longhorn_replicas_above_the_node_count() {
    let mut p = pool();
    p["spec"]["variables"] = json!({"longhornDefaultReplicaCount": "3"});
    let found = run(&p, |_| {});
    assert!(ids(&found).contains(&"longhorn.replicas"), "{found:?}");
}

#[test]
fn node_side_errors_become_a_checklist_naming_the_host() {
    let mut p = pool();
    p["status"]["paletteClusterStatuses"] = json!([{"name": "c", "allocatedMachinePools": [{"hosts": {
        "edge-7": {"architecture": "AMD64", "status": "Provisioning", "statusUpdatedAt": "2026-07-03T10:00:00Z"}}}]}]);
    // The kubelet's event from the pool's host, twice (it repeats), and once more from a host
    // that is not the pool's.
    let event = json!({"type": "Warning", "count": 3, "source": {"host": "edge-7"}, "message": "Failed: spec.initContainers{driver-validation}: Error: failed to get sandbox runtime: no runtime for \"nvidia\" is configured"});
    let event = crate::model::Event::read(event, "", "");
    let events = [&event, &event];
    let found = run(&p, |pic| pic.events = &events);
    let stuck = found
        .iter()
        .find(|d| d.id == "node.stuck-provisioning")
        .expect("{found:?}");
    // Every step but the last (importing the packs into Zot) is run on the host.
    let (last, on_host) = stuck.next.split_last().expect("steps");
    assert!(
        on_host.iter().all(|n| n.starts_with("on edge-7:")),
        "{on_host:?}"
    );
    assert!(last.contains("Zot"), "{last}");
    let runtime: Vec<_> = found
        .iter()
        .filter(|d| d.id == "node.nvidia-runtime")
        .collect();
    assert_eq!(runtime.len(), 1, "one finding for a repeated event");
    assert!(
        runtime[0].summary.contains("(6 times)"),
        "{}",
        runtime[0].summary
    );
    assert!(runtime[0].next.iter().all(|n| n.starts_with("on edge-7:")));
    // A host the pool does not have is not named as a place to run commands.
    let stranger = json!({"type": "Warning", "source": {"host": "evil\nhost"}, "message": "no runtime for \"nvidia\" is configured"});
    let stranger = crate::model::Event::read(stranger, "", "");
    let events = [&stranger];
    let found = run(&p, |pic| pic.events = &events);
    let runtime = found
        .iter()
        .find(|d| d.id == "node.nvidia-runtime")
        .expect("found");
    assert!(
        runtime
            .next
            .iter()
            .all(|n| n.starts_with("on the GPU host:")),
        "{:?}",
        runtime.next
    );
}

#[test]
fn findings_come_worst_first() {
    let mut p = pool();
    p["metadata"]["deletionTimestamp"] = json!("2026-07-03T11:15:00Z");
    let others = [peer("ns/q", "2026-01-01T00:00:00Z", false)];
    let found = run(&p, |pic| pic.same_vip = &others);
    assert!(found.windows(2).all(|w| w[0].severity >= w[1].severity));
}

#[test]
fn a_status_of_the_wrong_shape_is_said_not_guessed() {
    let mut p = pool();
    p["status"] = json!({"status": "Provisioning", "conditions": "all good"});
    p["metadata"]["deletionTimestamp"] = json!("yesterday");
    let found = run(&p, |_| ());
    let d = found.iter().find(|d| d.id == "unreadable").expect("found");
    assert!(
        d.summary.contains("status.conditions") && d.summary.contains("metadata.deletionTimestamp"),
        "{}",
        d.summary
    );
    assert!(
        d.evidence
            .iter()
            .any(|(path, why)| path == "status.conditions" && why.contains("found a string")),
        "{:?}",
        d.evidence
    );
    assert!(!ids(&found).contains(&"provisioning.condition"));
}

#[test]
fn held_by_bounds_or_not_yet_and_a_scale_up_past_its_abort() {
    let policy = json!({"spec": {"gpu": [{"variant": "A100", "scaleUpThreshold": 85, "scaleDownThreshold": 20}]}});
    let evaluation = |count: i64| {
        json!({
            "spec": {"poolEvaluations": {"c/w": {"gpu": {"A100": {"count": count, "target": count, "utilization": 97}}}},
                     "gpuResourceBounds": [{"variant": "A100", "minGPUCount": 4, "maxGPUCount": 16}]},
            "status": {"poolScalingStates": {"c/w": {"state": "Idle"}}}
        })
    };
    let capped = evaluation(16);
    let found = run(&pool(), |pic| {
        pic.policy = Some(&policy);
        pic.evaluation = Some(&capped);
    });
    let d = found
        .iter()
        .find(|d| d.id == "scaling.bounded")
        .expect("{found:?}");
    assert!(
        d.summary.contains("the bounds cap it (max 16)"),
        "{}",
        d.summary
    );
    // The evidence names the CRD's keys: gpu['A100'], as `cpu` is for the CPU.
    let paths: Vec<&str> = d.evidence.iter().map(|(p, _)| p.as_str()).collect();
    assert!(
        paths.contains(&"spec.poolEvaluations['c/w'].gpu['A100'].utilization"),
        "{paths:?}"
    );
    let cpu = json!({
        "spec": {"poolEvaluations": {"c/w": {"cpu": {"count": 64, "target": 64, "utilization": 99}}},
                 "cpuResourceBounds": {"minCPUCount": 4, "maxCPUCount": 64}},
        "status": {"poolScalingStates": {"c/w": {"state": "Idle"}}}
    });
    let cpu_policy = json!({"spec": {"cpu": {"scaleUpThreshold": 85, "scaleDownThreshold": 20}}});
    let found = run(&pool(), |pic| {
        pic.policy = Some(&cpu_policy);
        pic.evaluation = Some(&cpu);
    });
    let evidence: Vec<String> = found
        .iter()
        .flat_map(|d| d.evidence.iter().map(|(p, _)| p.clone()))
        .filter(|p| p.contains("poolEvaluations"))
        .collect();
    assert!(
        evidence
            .iter()
            .any(|p| p == "spec.poolEvaluations['c/w'].cpu.utilization"),
        "{evidence:?}"
    );
    assert!(
        !evidence.iter().any(|p| p.contains(".CPU.")),
        "{evidence:?}"
    );
    let room = evaluation(8);
    let found = run(&pool(), |pic| {
        pic.policy = Some(&policy);
        pic.evaluation = Some(&room);
    });
    assert!(ids(&found).contains(&"scaling.not-yet"), "{found:?}");
    // While decisions are paused or held, the state says why, not the duration.
    for state in ["Cooldown", "Blocked"] {
        let mut paused = evaluation(8);
        paused["status"]["poolScalingStates"]["c/w"]["state"] = json!(state);
        let found = run(&pool(), |pic| {
            pic.policy = Some(&policy);
            pic.evaluation = Some(&paused);
        });
        assert!(
            !ids(&found).contains(&"scaling.not-yet"),
            "{state}: {found:?}"
        );
    }
    let stuck = json!({
        "spec": {"poolEvaluations": {"c/w": {"gpu": {"A100": {"count": 8, "target": 16}}}}, "abortDuration": "30m"},
        "status": {"poolScalingStates": {"c/w": {"state": "Scaling", "scalingStartedAt": "2026-07-03T11:00:00Z",
                   "details": "Scaling in progress: 0 completed, 2 in progress"}}}
    });
    let found = run(&pool(), |pic| pic.evaluation = Some(&stuck));
    let d = found
        .iter()
        .find(|d| d.id == "scaling.stuck")
        .expect("{found:?}");
    assert_eq!(d.severity, Severity::Warning);
    let mut down = stuck.clone();
    down["spec"]["poolEvaluations"]["c/w"]["gpu"]["A100"] = json!({"count": 16, "target": 8});
    let found = run(&pool(), |pic| pic.evaluation = Some(&down));
    assert!(
        !ids(&found).contains(&"scaling.stuck"),
        "a scale-down is never aborted"
    );
}

/// The doctor's abort deadline is the one the Scaling tab shows (`deadline_of`): the
/// evaluation's copy of abortDuration, which the guide calls the timing that applied to the
/// decision; the policy's value now (perhaps changed since) is not taken in its place.
#[test]
fn a_stuck_scale_up_is_judged_by_the_evaluations_own_deadline() {
    let policy = json!({"spec": {"abortDuration": "30m"}});
    let without = json!({
        "spec": {"poolEvaluations": {"c/w": {"gpu": {"A100": {"count": 8, "target": 16}}}}},
        "status": {"poolScalingStates": {"c/w": {"state": "Scaling", "scalingStartedAt": "2026-07-03T11:00:00Z"}}}
    });
    let found = run(&pool(), |pic| {
        pic.policy = Some(&policy);
        pic.evaluation = Some(&without);
    });
    assert!(!ids(&found).contains(&"scaling.stuck"), "{found:?}");
    let read: ComputePoolEvaluation = crate::model::typed(&without);
    let scaling = read.scaling_of("c/w").expect("a state");
    assert_eq!(read.deadline_of(&scaling), None);
    // With its own abortDuration the two agree: past the deadline it is stuck, before not.
    let mut with = without.clone();
    with["spec"]["abortDuration"] = json!("30m");
    let read: ComputePoolEvaluation = crate::model::typed(&with);
    let scaling = read.scaling_of("c/w").expect("a state");
    let deadline = read.deadline_of(&scaling).expect("a deadline").at();
    for (at, stuck) in [
        (deadline - chrono::TimeDelta::minutes(1), false),
        (deadline + chrono::TimeDelta::minutes(1), true),
    ] {
        let found = run(&pool(), |pic| {
            pic.evaluation = Some(&with);
            pic.now = at;
        });
        assert_eq!(
            ids(&found).contains(&"scaling.stuck"),
            stuck,
            "{at}: {found:?}"
        );
    }
}

proptest! {
    /// Status of any shape (wrong types, partial lists) never panics, and a pool whose status
    /// says Running with nothing else set has no error-level finding.
    #[test]
    fn any_status_is_read_without_panic(status in any_json(3)) {
        let mut p = pool();
        p["status"] = status;
        let evaluation = json!({"spec": {"poolEvaluations": p["status"].clone()}, "status": p["status"].clone()});
        let found = run(&p, |pic| pic.evaluation = Some(&evaluation));
        for d in &found {
            prop_assert!(!d.summary.is_empty());
        }
        let mut healthy = pool();
        healthy["spec"]["clusterVariant"]["dedicated"].as_object_mut().unwrap().remove("scalingPolicyRef");
        let calm = run(&healthy, |_| ()).iter().all(|d| d.severity < Severity::Error);
        prop_assert!(calm);
    }
}

fn any_json(depth: u32) -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        prop::sample::select(vec![
            "Provisioning",
            "False",
            "Running",
            "2026-07-03T10:00:00Z",
            "x"
        ])
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(depth, 32, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map(
                prop::sample::select(vec![
                    "status",
                    "conditions",
                    "type",
                    "message",
                    "c/w",
                    "state",
                    "hosts",
                    "statusUpdatedAt",
                    "architecture"
                ])
                .prop_map(str::to_owned),
                inner,
                0..4
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

#[test]
fn a_condition_false_for_a_reason_the_guide_calls_failure_is_an_error_and_otherwise_a_warning() {
    let severity = |phase: &str, reason: &str| {
        let mut p = pool();
        p["status"] = json!({"status": phase, "conditions": [
            {"type": "ClusterDeployed", "status": "False", "reason": reason, "message": "m"}]});
        let found = run(&p, |_| ());
        let d = found
            .iter()
            .find(|d| d.id == "provisioning.condition")
            .unwrap_or_else(|| panic!("{found:?}"));
        (d.severity, d.cause.clone())
    };
    let (failed, cause) = severity("Provisioning", "ClusterDeploymentFailed");
    assert_eq!(failed, Severity::Error);
    assert!(
        cause.starts_with("Palette cluster deployment failed"),
        "{cause}"
    );
    let (under_way, cause) = severity("Provisioning", "ClusterProvisioning");
    assert_eq!(under_way, Severity::Warning);
    assert!(cause.contains("has not completed"), "{cause}");
    assert!(cause.contains("ClusterDeploymentFailed"), "{cause}");
    // Once the pool has Failed, whatever the reason, it is an error.
    assert_eq!(severity("Failed", "ClusterProvisioning").0, Severity::Error);
}

#[test]
fn a_palette_cluster_condition_reads_the_same_way() {
    let severity = |state: &str, reason: &str| {
        let mut p = pool();
        p["status"] = json!({"status": "Provisioning", "paletteClusterStatuses": [
            {"name": "c", "uid": "u", "status": state, "conditions": [
                {"type": "ClusterDeployed", "status": "False", "reason": reason, "message": "m"}]}]});
        let found = run(&p, |_| ());
        found
            .iter()
            .find(|d| d.id == "provisioning.palette-cluster")
            .map(|d| d.severity)
            .unwrap_or_else(|| panic!("{found:?}"))
    };
    assert_eq!(
        severity("Provisioning", "ClusterDeploymentFailed"),
        Severity::Error
    );
    assert_eq!(
        severity("Provisioning", "ClusterProvisioning"),
        Severity::Warning
    );
    assert_eq!(severity("Failed", "ClusterProvisioning"), Severity::Error);
    assert_eq!(severity("Unhealthy", "Anything"), Severity::Error);
}

/// The fleet demo's rl-sim: Unhealthy, MachinePoolsReady False, one host Unhealthy.
fn unhealthy_pool() -> Value {
    let mut p = pool();
    p["status"] = json!({
        "status": "Unhealthy",
        "conditions": [
            {"type": "ClusterDeployed", "status": "True", "reason": "ClusterRunning"},
            {"type": "MachinePoolsReady", "status": "False", "reason": "PoolHostsUnhealthy",
             "message": "1 host in worker-pool-0 is Unhealthy"}],
        "paletteClusterStatuses": [{"name": "c", "status": "Running", "health": "UnHealthy",
            "allocatedMachinePools": [
                {"name": "control-plane-pool", "hosts": {"h1": {"status": "Healthy"}}},
                {"name": "worker-pool-0", "hosts": {
                    "h2": {"status": "Unhealthy", "statusUpdatedAt": "2026-07-01T12:00:00Z"},
                    "h3": {"status": "Failed"},
                    "h4": {"status": "Healthy"}}}]}]
    });
    p
}

#[test]
fn an_unhealthy_pool_is_explained_by_its_conditions_and_hosts() {
    let found = run(&unhealthy_pool(), |_| ());
    let condition = found
        .iter()
        .find(|d| d.id == "health.condition")
        .unwrap_or_else(|| panic!("{found:?}"));
    assert_eq!(condition.severity, Severity::Error, "a guide-named failure");
    assert!(
        condition
            .summary
            .contains("MachinePoolsReady is False (PoolHostsUnhealthy)"),
        "{}",
        condition.summary
    );
    let hosts: Vec<(&str, Severity)> = found
        .iter()
        .filter(|d| d.id == "health.host")
        .map(|d| (d.summary.as_str(), d.severity))
        .collect();
    // Worst first: the Failed host, then the Unhealthy one; Healthy hosts are not named.
    assert_eq!(
        hosts,
        vec![
            (
                "host h3 in machine pool worker-pool-0 is Failed",
                Severity::Error
            ),
            (
                "host h2 in machine pool worker-pool-0 is Unhealthy",
                Severity::Warning
            ),
        ]
    );
    // Explained: no bare "Unhealthy" finding beside them.
    assert!(!ids(&found).contains(&"health.unhealthy"));
    // With nothing that explains it, the status itself is said.
    let mut bare = pool();
    bare["status"] = json!({"status": "Unhealthy"});
    assert!(ids(&run(&bare, |_| ())).contains(&"health.unhealthy"));
    // A healthy Running pool has nothing of the kind.
    let mut fine = unhealthy_pool();
    fine["status"]["status"] = json!("Running");
    fine["status"]["conditions"][1]["status"] = json!("True");
    fine["status"]["paletteClusterStatuses"][0]["allocatedMachinePools"][1]["hosts"] =
        json!({"h2": {"status": "Healthy"}});
    let found = run(&fine, |_| ());
    assert!(
        !found.iter().any(|d| d.id.starts_with("health.")),
        "{found:?}"
    );
}

#[test]
fn unknown_and_maintenance_say_what_the_reference_says_and_deleting_pools_are_left_alone() {
    let mut p = pool();
    p["status"] = json!({"status": "Unknown"});
    let found = run(&p, |_| ());
    let d = found
        .iter()
        .find(|d| d.id == "health.unknown")
        .unwrap_or_else(|| panic!("{found:?}"));
    assert!(d.cause.contains("Spoke connectivity"), "{}", d.cause);
    p["status"] = json!({"status": "Running",
        "paletteClusterStatuses": [{"name": "c", "health": "Maintenance Mode"}]});
    let found = run(&p, |_| ());
    let d = found
        .iter()
        .find(|d| d.id == "health.maintenance")
        .unwrap_or_else(|| panic!("{found:?}"));
    assert_eq!(d.severity, Severity::Info);
    let mut deleting = unhealthy_pool();
    deleting["status"]["status"] = json!("Deleting");
    assert!(
        !run(&deleting, |_| ())
            .iter()
            .any(|d| d.id.starts_with("health."))
    );
}

#[test]
fn blocked_autoscaling_says_for_how_long_and_why() {
    let evaluation = json!({
        "spec": {"poolEvaluations": {"c/w": {"gpu": {"A100": {"count": 12, "target": 12}}}}},
        "status": {"poolScalingStates": {"c/w": {"state": "Blocked",
            "details": "Autoscaling blocked: a machine pool replacement is in progress",
            "stateChangedAt": "2026-07-03T09:00:00Z"}}}
    });
    let p = pool();
    let found = run(&p, |pic| pic.evaluation = Some(&evaluation));
    let d = found
        .iter()
        .find(|d| d.id == "scaling.blocked")
        .unwrap_or_else(|| panic!("{found:?}"));
    assert!(
        d.summary.starts_with("c/w: autoscaling blocked for 3h0m"),
        "{}",
        d.summary
    );
    assert!(
        d.cause.contains("another operation in progress"),
        "{}",
        d.cause
    );
    assert_eq!(
        d.severity,
        Severity::Warning,
        "blocked for 3h is a problem to look at, not a state to wait out"
    );
    // Blocked for a few minutes is the guide's temporary state.
    let recent = json!({
        "spec": {"poolEvaluations": {"c/w": {"gpu": {"A100": {"count": 12, "target": 12}}}}},
        "status": {"poolScalingStates": {"c/w": {"state": "Blocked",
            "details": "Autoscaling blocked", "stateChangedAt": "2026-07-03T11:55:00Z"}}}
    });
    let found = run(&p, |pic| pic.evaluation = Some(&recent));
    let d = found
        .iter()
        .find(|d| d.id == "scaling.blocked")
        .expect("blocked");
    assert_eq!(d.severity, Severity::Info);
    // The age in its words is worked out again a minute later.
    let next = with_picture(&p, |pic| pic.evaluation = Some(&evaluation), changes_at);
    assert_eq!(next, Some(now() + chrono::TimeDelta::minutes(1)));
}

/// The doctor reads the pool through the model: the Cluster Profile variable is found where
/// the model keeps fields it does not know (directly on the spec, in a block under it) or in
/// an annotation, and nowhere is it invented.
#[test]
fn the_replica_variable_is_found_wherever_the_model_kept_it() {
    let fires = |p: &Value| ids(&run(p, |_| {})).contains(&"longhorn.replicas");
    let mut direct = pool();
    direct["spec"]["longhornDefaultReplicaCount"] = json!(3);
    assert!(fires(&direct), "directly on the spec");
    let mut deep = pool();
    deep["spec"]["clusterVariant"]["dedicated"]["paletteClusterDeploymentConfig"]["profileVariables"] =
        json!([{"name": "x", "values": {"longhornDefaultReplicaCount": "2"}}]);
    assert!(fires(&deep), "in a block the model does not know");
    let mut annotated = pool();
    annotated["metadata"]["annotations"] = json!({"longhornDefaultReplicaCount": "2"});
    assert!(fires(&annotated), "as an annotation");
    let requirements =
        "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/nodePoolRequirements";
    for place in [
        "",
        "/controlPlanePool",
        "/workerPools/0",
        "/workerPools/0/gpu",
    ] {
        let mut nested = pool();
        let at = nested
            .pointer_mut(&format!("{requirements}{place}"))
            .and_then(Value::as_object_mut)
            .expect("the block");
        at.insert("longhornDefaultReplicaCount".into(), json!(2));
        assert!(fires(&nested), "under {place}");
    }
    // The metadata is read first, as written: an annotation's count wins over the spec's.
    let mut both = pool();
    both["metadata"]["annotations"] = json!({"longhornDefaultReplicaCount": "1"});
    both["spec"]["longhornDefaultReplicaCount"] = json!(3);
    assert!(!fires(&both), "the annotation's 1 fits a single node");
    assert!(!fires(&pool()), "not set: no finding");
}

/// A deletion time written as `null` is not set (the pool is not being deleted); one that is
/// not a time is said as unreadable, with what was written.
#[test]
fn a_null_deletion_time_is_unset_and_a_wrong_one_is_said() {
    let mut unset = pool();
    unset["metadata"]["deletionTimestamp"] = Value::Null;
    let found = run(&unset, |_| {});
    assert!(!ids(&found).contains(&"unreadable"), "{found:?}");
    assert!(!ids(&found).contains(&"deletion.blocked"), "{found:?}");
    for (written, said) in [(json!("soon"), "\"soon\""), (json!(7), "7")] {
        let mut wrong = pool();
        wrong["metadata"]["deletionTimestamp"] = written;
        let found = run(&wrong, |_| {});
        let d = found
            .iter()
            .find(|d| d.id == "unreadable")
            .unwrap_or_else(|| panic!("{found:?}"));
        assert_eq!(
            d.evidence,
            [(
                "metadata.deletionTimestamp".to_owned(),
                format!("a time was expected, found {said}")
            )]
        );
    }
}
