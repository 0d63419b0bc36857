//! Operations as values: their kubectl equivalents, preconditions and patches.

use super::*;

fn pool() -> ObjectRef {
    ObjectRef::new(Kind::Pool, "retail-edge", "store-042")
}

#[test]
fn each_operation_has_its_kubectl_equivalent() {
    let looked_at = Preconditions::of(Some("u-1"), Some("42"));
    let pause = Operation::SetLabel {
        target: pool(),
        key: "controller.spectrocloud.com/pause".into(),
        value: "true".into(),
        preconditions: looked_at.clone(),
        run: Run::Real,
    };
    assert_eq!(
        pause.kubectl(),
        "kubectl label computepools store-042 -n retail-edge controller.spectrocloud.com/pause=true --overwrite --resource-version=42"
    );
    let resume = Operation::RemoveLabel {
        target: pool(),
        key: "controller.spectrocloud.com/pause".into(),
        preconditions: looked_at.clone(),
        run: Run::DryRun,
    };
    assert!(
        resume
            .kubectl()
            .ends_with("pause- --resource-version=42 --dry-run=server")
    );
    let unblock = Operation::RemoveFinalizer {
        target: pool(),
        finalizer: "spectrocloud.com/computepool-finalizer".into(),
        index: 1,
        preconditions: Preconditions::of(Some("u-1"), None),
        run: Run::Real,
    };
    let text = unblock.kubectl();
    assert!(
        text.contains(r#""op":"test","path":"/metadata/finalizers/1""#),
        "{text}"
    );
    assert!(
        text.contains(r#"{"op":"test","path":"/metadata/uid","value":"u-1"}"#),
        "the patch tests the incarnation: {text}"
    );
    assert!(unblock.is_destructive());
    assert!(!pause.is_destructive() && pause.is_mutating());
}

#[test]
fn pause_and_resume_carry_the_version_looked_at() {
    let looked_at = Preconditions::of(Some("u-1"), Some("42"));
    let patch = label_patch(
        "controller.spectrocloud.com/pause",
        Some("true"),
        &looked_at,
    );
    assert_eq!(patch["metadata"]["uid"], "u-1");
    assert_eq!(patch["metadata"]["resourceVersion"], "42");
    assert_eq!(
        patch["metadata"]["labels"]["controller.spectrocloud.com/pause"],
        "true"
    );
    let patch = label_patch("controller.spectrocloud.com/pause", None, &looked_at);
    assert!(patch["metadata"]["labels"]["controller.spectrocloud.com/pause"].is_null());
    let pause = Operation::SetLabel {
        target: pool(),
        key: "k".into(),
        value: "v".into(),
        preconditions: looked_at.clone(),
        run: Run::Real,
    };
    assert_eq!(pause.preconditions(), looked_at);
    assert_eq!(
        looked_at.changed(Some("u-2"), Some("50")).as_deref(),
        Some("it was deleted and created again (another uid)")
    );
    assert!(looked_at.changed(Some("u-1"), Some("43")).is_some());
    assert!(looked_at.changed(Some("u-1"), Some("42")).is_none());
}

#[test]
fn names_from_a_hostile_status_stay_one_shell_word() {
    let delete = Operation::Delete {
        target: ObjectRef::new(Kind::AIWorkload, "ml", "x; touch /tmp/p; #"),
        preconditions: Preconditions::default(),
        run: Run::Real,
    };
    assert_eq!(
        delete.kubectl(),
        "kubectl delete aiworkloads 'x; touch /tmp/p; #' -n ml"
    );
    assert!(delete.target().and_then(|t| t.problem()).is_some());
}

#[test]
fn a_delete_carries_its_preconditions() {
    let delete = Operation::Delete {
        target: pool(),
        preconditions: Preconditions {
            uid: Some("u-1".into()),
            resource_version: Some("42".into()),
        },
        run: Run::Real,
    };
    assert_eq!(delete.preconditions().uid.as_deref(), Some("u-1"));
    assert_eq!(delete.target(), Some(pool()));
    let review = Operation::AccessReview {
        verb: "patch".into(),
        kind: Kind::Pool,
        namespace: "retail-edge".into(),
    };
    assert!(!review.is_mutating());
    assert_eq!(
        review.kubectl(),
        "kubectl auth can-i patch computepools.spectrocloud.com -n retail-edge"
    );
}
