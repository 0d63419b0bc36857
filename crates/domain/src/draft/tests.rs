//! The draft: rules on an empty and a filled draft, edits that touch nothing else, and every
//! example manifest written back unchanged.

use super::*;

fn spec(label: &str) -> &'static FieldSpec {
    FIELDS
        .iter()
        .find(|f| f.label == label)
        .expect("a field of that label")
}

#[test]
fn an_empty_draft_is_refused_by_the_rules_and_a_filled_one_is_clean() {
    let mut draft = Draft::new("ml-research");
    let findings = draft.findings_alone();
    let name = findings_at(&findings, &spec("Compute pool name").at(0));
    assert!(!name.is_empty(), "an empty name is an error: {findings:#?}");

    draft.set(&spec("Compute pool name").at(0), Some(json!("gpu-pool")));
    draft.set(
        &spec("Profile Bundle").at(0),
        Some(json!("edge-profilebundle")),
    );
    draft.set(&spec("VIP").at(0), Some(json!("10.10.162.200")));
    draft.set(&spec("CPU count").at(0), Some(json!(16)));
    let index = draft.add_worker_pool("gpu-a");
    draft.set(
        &spec("GPU variant").at(index),
        Some(json!("NVIDIA A100-SXM4-80GB | 80 GB")),
    );
    draft.set(&spec("GPU count").at(index), Some(json!(4)));
    draft.set(&spec("GPU memory").at(index), Some(json!("320 GB")));
    draft.set(&spec("CPU count").at(0), Some(json!(16)));
    let errors: Vec<_> = draft
        .findings_alone()
        .into_iter()
        .filter(|f| f.rule.severity == rules::Severity::Error)
        .collect();
    assert!(
        findings_at(&errors, &spec("Compute pool name").at(0)).is_empty(),
        "{errors:#?}"
    );
    assert!(
        findings_at(&errors, &spec("VIP").at(0)).is_empty(),
        "{errors:#?}"
    );
}

/// A single-node pool is made with the reference's companions: one control-plane node,
/// workload eligible, and a worker pool to select the host; none of the topology rules then
/// fires. Off again, it is a three-node pool with a dedicated control plane.
#[test]
fn a_single_node_pool_is_made_with_its_companions() {
    let mut draft = Draft::new("ml-research");
    draft.set_single_node(true);
    let control = |key: &str| {
        draft
            .get(&YamlPath::keys(rules::paths::CONTROL_PLANE).key(key))
            .cloned()
    };
    assert_eq!(control("singleNodeCluster"), Some(json!(true)));
    assert_eq!(control("nodeCount"), Some(json!(1)));
    assert_eq!(control("workerNodeEligible"), Some(json!(true)));
    assert_eq!(draft.worker_pools(), 1);
    let topology: Vec<&str> = draft
        .findings_alone()
        .iter()
        .map(|f| f.rule.id)
        .filter(|id| id.starts_with("single-node") || id.starts_with("worker-pools"))
        .collect();
    assert!(topology.is_empty(), "{topology:?}");
    draft.set_single_node(false);
    let control = |key: &str| {
        draft
            .get(&YamlPath::keys(rules::paths::CONTROL_PLANE).key(key))
            .cloned()
    };
    assert_eq!(control("singleNodeCluster"), None);
    assert_eq!(control("nodeCount"), Some(json!(3)));
    assert_eq!(control("workerNodeEligible"), Some(json!(false)));
    assert_eq!(draft.worker_pools(), 1, "its worker pool is kept");
}

/// The Longhorn replica count the wizard offers is checked against the nodes at create, and
/// it is written where pooldeck reads it, beside the annotations the Annotations field shows
/// without showing it.
#[test]
fn the_longhorn_replica_count_is_offered_and_checked_against_the_nodes() {
    let mut draft = Draft::new("ml-research");
    draft.set_single_node(true);
    draft.set(&spec("Longhorn replicas").at(0), Some(json!("3")));
    let ids: Vec<&str> = draft.findings_alone().iter().map(|f| f.rule.id).collect();
    assert!(ids.contains(&"longhorn.replica-count"), "{ids:?}");
    draft.set(&spec("Longhorn replicas").at(0), Some(json!("1")));
    let ids: Vec<&str> = draft.findings_alone().iter().map(|f| f.rule.id).collect();
    assert!(!ids.contains(&"longhorn.replica-count"), "{ids:?}");
    let annotations = spec("Annotations");
    let shown = crate::entry::text_of(annotations.entry, draft.get(&annotations.at(0)));
    assert!(!shown.contains("longhorn"), "{shown}");
    let kept = crate::entry::read(
        annotations.entry,
        "owner=ops",
        draft.get(&annotations.at(0)),
    )
    .ok()
    .flatten()
    .unwrap_or_default();
    assert_eq!(kept["longhornDefaultReplicaCount"], "1", "{kept}");
}

#[test]
fn setting_and_removing_touch_nothing_else() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../demo/manifests/ml-cluster.yaml"
    ))
    .expect("example");
    let documents = crate::manifest::parse(&text).expect("parses");
    let original = documents[0].root.to_json();
    let mut draft = Draft::from_object(original.clone(), None);
    let vip = spec("VIP").at(0);
    let before = draft.get(&vip).cloned();
    draft.set(&vip, Some(json!("10.0.0.9")));
    draft.set(&vip, before);
    assert_eq!(
        draft.pool, original,
        "a field set and set back leaves the object as it was"
    );
    draft.set(&YamlPath::keys("spec.unknownField"), None);
    assert_eq!(
        draft.pool, original,
        "removing what is not there changes nothing"
    );
    let index = draft.add_worker_pool("extra");
    draft.set(&worker_pools_path().index(index), None);
    assert_eq!(draft.pool, original);
}

#[test]
fn every_example_manifest_round_trips_unchanged() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../demo/manifests");
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).expect("the examples") {
        let path = entry.expect("an entry").path();
        let text = std::fs::read_to_string(&path).expect("text");
        let objects: Vec<Value> = crate::manifest::parse(&text)
            .expect("parses")
            .iter()
            .map(|d| d.root.to_json())
            .collect();
        let pool = objects
            .iter()
            .find(|o| o["kind"] == "ComputePool")
            .cloned()
            .expect("a pool in every example");
        let policy = objects
            .iter()
            .find(|o| o["kind"] == "ScalingPolicy")
            .cloned();
        let draft = Draft::from_object(pool.clone(), policy.clone());
        let written = draft.to_yaml();
        let again: Vec<Value> = crate::manifest::parse(&written)
            .expect("what the draft writes parses")
            .iter()
            .map(|d| d.root.to_json())
            .collect();
        assert_eq!(again.first(), Some(&pool), "{}", path.display());
        assert_eq!(again.get(1), policy.as_ref(), "{}", path.display());
        checked += 1;
    }
    assert!(checked >= 6, "the examples were read: {checked}");
}
