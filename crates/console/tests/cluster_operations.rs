//! Operations carried out through `cluster::perform` against the demo cluster over real HTTPS,
//! as the console and the CLI verbs carry them out: pause and resume as a label, dry runs that
//! change nothing, deletes that carry the incarnation they were meant for, a finalizer removed
//! by value, access reviews, and read-only mode that sends nothing at all.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

mod common;

use pooldeck::cluster::{Mode, perform};
use pooldeck::demo::scenario::Scenario;
use pooldeck::demo::{ADMIN_CONTEXT, DemoCluster, Options, VIEWER_CONTEXT};
use pooldeck::domain::operation::Run;
use pooldeck::domain::{ClusterError, Kind, ObjectRef, Operation, Outcome, Preconditions};
use serde_json::Value;

const PAUSE: &str = "controller.spectrocloud.com/pause";
const FINALIZER: &str = "spectrocloud.com/computepool-finalizer";

async fn blocked() -> DemoCluster {
    DemoCluster::start(Options {
        scenario: Some(Scenario::builtin("deletion-blocked").expect("scenario")),
        ..Options::default()
    })
    .await
    .expect("the demo cluster starts")
}

fn pool(name: &str) -> ObjectRef {
    ObjectRef::new(Kind::Pool, "vision-lab", name)
}

async fn read(client: &kube::Client, target: &ObjectRef) -> Option<Value> {
    let api = target.kind.api();
    let path = format!(
        "/apis/{}/{}/namespaces/{}/{}/{}",
        api.group, api.version, target.namespace, api.plural, target.name
    );
    let request = http::Request::get(path)
        .body(Vec::new())
        .expect("a request");
    client.request::<Value>(request).await.ok()
}

fn done(outcome: &Outcome) -> bool {
    matches!(outcome, Outcome::Done { .. })
}

#[tokio::test]
async fn pause_and_resume_set_and_remove_the_label_and_a_dry_run_changes_nothing() {
    let cluster = blocked().await;
    let client = common::client(&cluster, ADMIN_CONTEXT).await;
    let target = pool("free-pool");
    let pause = |run| Operation::SetLabel {
        target: target.clone(),
        key: PAUSE.into(),
        value: "true".into(),
        preconditions: Preconditions::default(),
        run,
    };
    let outcome = perform(&client, Mode::ReadWrite, &pause(Run::DryRun)).await;
    assert!(done(&outcome), "{outcome:?}");
    let seen = read(&client, &target).await.expect("the pool");
    assert!(
        seen.pointer("/metadata/labels/controller.spectrocloud.com~1pause")
            .is_none()
    );

    let outcome = perform(&client, Mode::ReadWrite, &pause(Run::Real)).await;
    assert!(done(&outcome), "{outcome:?}");
    let seen = read(&client, &target).await.expect("the pool");
    assert_eq!(
        seen.pointer("/metadata/labels/controller.spectrocloud.com~1pause"),
        Some(&Value::String("true".into())),
        "the label is the string \"true\""
    );

    let resume = Operation::RemoveLabel {
        target: target.clone(),
        key: PAUSE.into(),
        preconditions: Preconditions::default(),
        run: Run::Real,
    };
    let outcome = perform(&client, Mode::ReadWrite, &resume).await;
    assert!(done(&outcome), "{outcome:?}");
    let seen = read(&client, &target).await.expect("the pool");
    assert!(
        seen.pointer("/metadata/labels/controller.spectrocloud.com~1pause")
            .is_none()
    );
}

#[tokio::test]
async fn a_delete_applies_only_to_the_incarnation_it_names() {
    let cluster = blocked().await;
    let client = common::client(&cluster, ADMIN_CONTEXT).await;
    let target = pool("blocked-pool");
    let seen = read(&client, &target).await.expect("the pool");
    let uid = seen
        .pointer("/metadata/uid")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let delete = |uid: Option<String>, run| Operation::Delete {
        target: target.clone(),
        preconditions: Preconditions {
            uid,
            resource_version: None,
        },
        run,
    };
    // A screen that looked at another incarnation (another uid) is refused.
    let outcome = perform(
        &client,
        Mode::ReadWrite,
        &delete(Some("not-this-one".into()), Run::Real),
    )
    .await;
    assert!(
        matches!(outcome, Outcome::Failed(ClusterError::Conflict { .. })),
        "{outcome:?}"
    );
    let outcome = perform(&client, Mode::ReadWrite, &delete(uid.clone(), Run::DryRun)).await;
    assert!(done(&outcome), "{outcome:?}");
    let seen = read(&client, &target)
        .await
        .expect("still there after a dry run");
    assert!(seen.pointer("/metadata/deletionTimestamp").is_none());

    let outcome = perform(&client, Mode::ReadWrite, &delete(uid, Run::Real)).await;
    assert!(done(&outcome), "{outcome:?}");
    let seen = read(&client, &target).await.expect("held by its finalizer");
    assert!(seen.pointer("/metadata/deletionTimestamp").is_some());
}

#[tokio::test]
async fn a_finalizer_is_removed_by_value_never_by_position_alone() {
    let cluster = blocked().await;
    let client = common::client(&cluster, ADMIN_CONTEXT).await;
    let target = pool("blocked-pool");
    let remove = |finalizer: &str, index| Operation::RemoveFinalizer {
        target: target.clone(),
        finalizer: finalizer.into(),
        index,
        preconditions: Preconditions::default(),
        run: Run::Real,
    };
    // Index 0 holds another value now: the patch's test fails and nothing is removed.
    let outcome = perform(
        &client,
        Mode::ReadWrite,
        &remove("someone-else/finalizer", 0),
    )
    .await;
    assert!(matches!(outcome, Outcome::Failed(_)), "{outcome:?}");
    let seen = read(&client, &target).await.expect("the pool");
    assert_eq!(
        seen.pointer("/metadata/finalizers/0")
            .and_then(Value::as_str),
        Some(FINALIZER)
    );
    let outcome = perform(&client, Mode::ReadWrite, &remove(FINALIZER, 0)).await;
    assert!(done(&outcome), "{outcome:?}");
    let seen = read(&client, &target).await.expect("the pool");
    assert!(seen.pointer("/metadata/finalizers/0").is_none(), "{seen}");
}

/// The uid and resourceVersion of an object as the API serves it now.
async fn looked_at(client: &kube::Client, target: &ObjectRef) -> Preconditions {
    let seen = read(client, target).await.expect("the object");
    Preconditions::of(
        seen.pointer("/metadata/uid").and_then(Value::as_str),
        seen.pointer("/metadata/resourceVersion")
            .and_then(Value::as_str),
    )
}

/// Deletes a pool at once (its finalizer taken off first) and creates one of the same name:
/// another incarnation.
async fn recreate(client: &kube::Client, target: &ObjectRef) {
    let object = read(client, target).await.expect("the pool");
    let release = Operation::RemoveFinalizer {
        target: target.clone(),
        finalizer: FINALIZER.into(),
        index: 0,
        preconditions: Preconditions::default(),
        run: Run::Real,
    };
    assert!(done(&perform(client, Mode::ReadWrite, &release).await));
    let delete = Operation::Delete {
        target: target.clone(),
        preconditions: Preconditions::default(),
        run: Run::Real,
    };
    assert!(done(&perform(client, Mode::ReadWrite, &delete).await));
    // As the wizard's recreate writes it again: without what the server owns, nor its labels.
    let mut object = pooldeck::app::wizard::recreate::fresh(&object);
    if let Some(metadata) = object["metadata"].as_object_mut() {
        metadata.shift_remove("labels");
    }
    let create = Operation::Create {
        object,
        run: Run::Real,
    };
    let outcome = perform(client, Mode::ReadWrite, &create).await;
    assert!(done(&outcome), "{outcome:?}");
}

/// Pause, resume and the finalizer patch name the incarnation and version looked at: sent
/// for a pool recreated or changed since, each is refused and changes nothing.
#[tokio::test]
async fn pause_resume_and_the_finalizer_patch_refuse_a_recreated_or_changed_pool() {
    let cluster = blocked().await;
    let client = common::client(&cluster, ADMIN_CONTEXT).await;
    let label = |preconditions: &Preconditions, set: bool| {
        if set {
            Operation::SetLabel {
                target: pool("free-pool"),
                key: PAUSE.into(),
                value: "true".into(),
                preconditions: preconditions.clone(),
                run: Run::Real,
            }
        } else {
            Operation::RemoveLabel {
                target: pool("free-pool"),
                key: PAUSE.into(),
                preconditions: preconditions.clone(),
                run: Run::Real,
            }
        }
    };
    let refused =
        |outcome: &Outcome| matches!(outcome, Outcome::Failed(ClusterError::Conflict { .. }));
    // Changed since: another resourceVersion.
    let before = looked_at(&client, &pool("free-pool")).await;
    let touch = Operation::SetLabel {
        target: pool("free-pool"),
        key: "touched".into(),
        value: "yes".into(),
        preconditions: Preconditions::default(),
        run: Run::Real,
    };
    assert!(done(&perform(&client, Mode::ReadWrite, &touch).await));
    for set in [true, false] {
        let outcome = perform(&client, Mode::ReadWrite, &label(&before, set)).await;
        assert!(refused(&outcome), "{outcome:?}");
        assert!(outcome_says(&outcome, "changed since you looked"));
    }
    // The current version is accepted.
    let now = looked_at(&client, &pool("free-pool")).await;
    let outcome = perform(&client, Mode::ReadWrite, &label(&now, true)).await;
    assert!(done(&outcome), "{outcome:?}");
    // Recreated since: another uid (and resourceVersion).
    let paused = looked_at(&client, &pool("free-pool")).await;
    recreate(&client, &pool("free-pool")).await;
    let outcome = perform(&client, Mode::ReadWrite, &label(&paused, false)).await;
    assert!(refused(&outcome), "{outcome:?}");
    let outcome = perform(&client, Mode::ReadWrite, &label(&paused, true)).await;
    assert!(refused(&outcome), "{outcome:?}");
    // Only the uid named (a stale resourceVersion left out): the uid alone refuses it.
    let uid_only = Preconditions {
        uid: paused.uid.clone(),
        resource_version: None,
    };
    let outcome = perform(&client, Mode::ReadWrite, &label(&uid_only, true)).await;
    assert!(refused(&outcome), "{outcome:?}");
    let seen = read(&client, &pool("free-pool"))
        .await
        .expect("the new pool");
    assert!(
        seen.pointer("/metadata/labels/controller.spectrocloud.com~1pause")
            .is_none(),
        "the new incarnation was not paused: {seen}"
    );

    // The finalizer patch tests the uid too: a recreated blocked pool keeps its finalizer.
    let blocked_pool = pool("blocked-pool");
    let old = looked_at(&client, &blocked_pool).await;
    let remove = Operation::RemoveFinalizer {
        target: blocked_pool.clone(),
        finalizer: FINALIZER.into(),
        index: 0,
        preconditions: Preconditions::of(Some("another-incarnation"), None),
        run: Run::Real,
    };
    let outcome = perform(&client, Mode::ReadWrite, &remove).await;
    assert!(refused(&outcome), "{outcome:?}");
    let seen = read(&client, &blocked_pool).await.expect("the pool");
    assert_eq!(
        seen.pointer("/metadata/finalizers/0")
            .and_then(Value::as_str),
        Some(FINALIZER),
        "nothing removed"
    );
    let remove = Operation::RemoveFinalizer {
        target: blocked_pool.clone(),
        finalizer: FINALIZER.into(),
        index: 0,
        preconditions: Preconditions::of(old.uid.as_deref(), None),
        run: Run::Real,
    };
    let outcome = perform(&client, Mode::ReadWrite, &remove).await;
    assert!(done(&outcome), "the incarnation looked at: {outcome:?}");
}

fn outcome_says(outcome: &Outcome, words: &str) -> bool {
    match outcome {
        Outcome::Failed(error) => error.to_string().contains(words),
        _ => false,
    }
}

/// A name read from a status field that is not a Kubernetes name never reaches a request's
/// path: nothing is sent, and the error says why.
#[tokio::test]
async fn a_name_that_is_not_a_kubernetes_name_is_never_sent() {
    let cluster = blocked().await;
    let client = common::client(&cluster, ADMIN_CONTEXT).await;
    let before = writes(&client).await;
    for name in ["x; touch /tmp/p; #", "../../namespaces", "a/b", "UPPER", ""] {
        let delete = Operation::Delete {
            target: ObjectRef::new(Kind::AIWorkload, "vision-lab", name),
            preconditions: Preconditions::default(),
            run: Run::Real,
        };
        let outcome = perform(&client, Mode::ReadWrite, &delete).await;
        assert!(
            matches!(outcome, Outcome::Failed(ClusterError::NotSent { .. })),
            "{name:?}: {outcome:?}"
        );
    }
    let bad_namespace = Operation::Delete {
        target: ObjectRef::new(Kind::AIWorkload, "../x", "fine"),
        preconditions: Preconditions::default(),
        run: Run::Real,
    };
    let outcome = perform(&client, Mode::ReadWrite, &bad_namespace).await;
    assert!(
        matches!(outcome, Outcome::Failed(ClusterError::NotSent { .. })),
        "{outcome:?}"
    );
    assert_eq!(writes(&client).await, before, "not one request went out");
}

#[tokio::test]
async fn access_reviews_answer_per_user() {
    let cluster = blocked().await;
    let review = |verb: &str| Operation::AccessReview {
        verb: verb.into(),
        kind: Kind::Pool,
        namespace: "vision-lab".into(),
    };
    let admin = common::client(&cluster, ADMIN_CONTEXT).await;
    let viewer = common::client(&cluster, VIEWER_CONTEXT).await;
    assert_eq!(
        perform(&admin, Mode::ReadWrite, &review("patch")).await,
        Outcome::Allowed(true)
    );
    assert_eq!(
        perform(&viewer, Mode::ReadWrite, &review("patch")).await,
        Outcome::Allowed(false)
    );
    assert_eq!(
        perform(&viewer, Mode::ReadWrite, &review("list")).await,
        Outcome::Allowed(true)
    );
    // A review asks; it changes nothing, so read-only mode sends it.
    assert_eq!(
        perform(&viewer, Mode::ReadOnly, &review("get")).await,
        Outcome::Allowed(true)
    );
}

#[tokio::test]
async fn read_only_mode_sends_no_write_not_even_a_dry_run() {
    let cluster = blocked().await;
    let client = common::client(&cluster, ADMIN_CONTEXT).await;
    let target = pool("free-pool");
    let before = read(&client, &target).await.expect("the pool");
    for run in [Run::DryRun, Run::Real] {
        let operations = [
            Operation::SetLabel {
                target: target.clone(),
                key: PAUSE.into(),
                value: "true".into(),
                preconditions: Preconditions::default(),
                run,
            },
            Operation::Delete {
                target: target.clone(),
                preconditions: Preconditions::default(),
                run,
            },
            Operation::RemoveFinalizer {
                target: target.clone(),
                finalizer: FINALIZER.into(),
                index: 0,
                preconditions: Preconditions::default(),
                run,
            },
        ];
        for operation in operations {
            let outcome = perform(&client, Mode::ReadOnly, &operation).await;
            assert_eq!(
                outcome,
                Outcome::Failed(ClusterError::ReadOnly),
                "{operation:?}"
            );
        }
    }
    let after = read(&client, &target).await.expect("the pool");
    assert_eq!(
        before.pointer("/metadata/resourceVersion"),
        after.pointer("/metadata/resourceVersion"),
        "nothing changed"
    );
}

async fn writes(client: &kube::Client) -> u64 {
    let request = http::Request::get("/pooldeck/requests")
        .body(Vec::new())
        .expect("a request");
    let answer: Value = client.request(request).await.expect("the count");
    answer["writes"].as_u64().expect("a number")
}

#[tokio::test]
async fn the_operator_may_pause_but_not_delete_and_the_server_counts_writes() {
    let cluster = blocked().await;
    let operator = common::client(&cluster, pooldeck::demo::OPERATOR_CONTEXT).await;
    let review = |verb: &str| Operation::AccessReview {
        verb: verb.into(),
        kind: Kind::Pool,
        namespace: "vision-lab".into(),
    };
    assert_eq!(
        perform(&operator, Mode::ReadWrite, &review("patch")).await,
        Outcome::Allowed(true)
    );
    assert_eq!(
        perform(&operator, Mode::ReadWrite, &review("delete")).await,
        Outcome::Allowed(false)
    );
    assert_eq!(writes(&operator).await, 0, "reviews are not writes");
    let pause = Operation::SetLabel {
        target: pool("free-pool"),
        key: PAUSE.into(),
        value: "true".into(),
        preconditions: Preconditions::default(),
        run: Run::DryRun,
    };
    assert!(done(&perform(&operator, Mode::ReadWrite, &pause).await));
    let delete = Operation::Delete {
        target: pool("free-pool"),
        preconditions: Preconditions::default(),
        run: Run::DryRun,
    };
    let outcome = perform(&operator, Mode::ReadWrite, &delete).await;
    assert!(
        matches!(outcome, Outcome::Failed(ClusterError::Forbidden { .. })),
        "{outcome:?}"
    );
    assert_eq!(
        writes(&operator).await,
        2,
        "each write counts, dry runs too"
    );
}

/// A create (dry run or real) of a ScalingPolicy under a taken name is refused as what it is:
/// AlreadyExists, said as "already exists", never as a change since it was looked at.
#[tokio::test]
async fn a_taken_name_is_said_as_already_exists() {
    let cluster = DemoCluster::start(Options {
        scenario: Some(Scenario::builtin("fleet").expect("scenario")),
        ..Options::default()
    })
    .await
    .expect("the demo cluster starts");
    let client = common::client(&cluster, ADMIN_CONTEXT).await;
    let policy = serde_json::json!({
        "apiVersion": "spectrocloud.com/v1alpha1", "kind": "ScalingPolicy",
        "metadata": {"name": "gpu-scaling", "namespace": "ml-research"},
        "spec": {"cpu": {"scaleUpThreshold": 80, "scaleDownThreshold": 20}}
    });
    for run in [Run::DryRun, Run::Real] {
        let outcome = perform(
            &client,
            Mode::ReadWrite,
            &Operation::Create {
                object: policy.clone(),
                run,
            },
        )
        .await;
        assert!(
            matches!(
                &outcome,
                Outcome::Failed(ClusterError::AlreadyExists { .. })
            ),
            "{outcome:?}"
        );
        let said = match &outcome {
            Outcome::Failed(error) => error.to_string(),
            other => format!("{other:?}"),
        };
        assert!(said.contains("already exists"), "{said}");
        assert!(!said.contains("changed since"), "{said}");
    }
}
