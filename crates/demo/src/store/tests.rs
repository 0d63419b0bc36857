//! The store's history bounds: by bytes, by age; old versions answer 410 Gone.
use serde_json::json;

use super::*;
use crate::registry::Registry;

fn store(bounds: HistoryBounds) -> (Store, Resource) {
    let registry = Registry::builtin().expect("registry");
    let pools = registry.by_kind("ComputePool").cloned().expect("pools");
    let namespaces = registry.by_kind("Namespace").cloned().expect("namespaces");
    let store = Store::with_bounds(registry, bounds);
    store
        .create(
            &namespaces,
            "",
            json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "ns"}}),
            false,
        )
        .expect("the namespace");
    (store, pools)
}

fn pool(i: usize) -> Value {
    json!({
        "apiVersion": "spectrocloud.com/v1alpha1", "kind": "ComputePool",
        "metadata": {"name": format!("pool-{i}"), "namespace": "ns"},
        "spec": {"padding": "x".repeat(1000)},
    })
}

#[test]
fn the_history_stays_within_its_bytes_and_old_versions_answer_gone() {
    let (store, pools) = store(HistoryBounds {
        changes: 100_000,
        live: 16,
        bytes: 50_000,
        age: std::time::Duration::from_secs(3600),
    });
    for i in 0..500 {
        store.create(&pools, "ns", pool(i), false).expect("created");
    }
    let (changes, bytes) = store.history_size();
    assert!(bytes <= 50_000 + 2_000, "{bytes} bytes kept");
    assert!(changes < 500 && changes > 10, "{changes} changes kept");
    assert!(
        matches!(store.watch(&pools, Some(2)), Err(e) if e.code == 410),
        "a version that was compacted away answers 410 Gone"
    );
    assert!(
        store.watch(&pools, Some(495)).is_ok(),
        "a recent one replays"
    );
}

#[test]
fn the_history_forgets_what_is_older_than_its_age() {
    let (store, pools) = store(HistoryBounds {
        changes: 100_000,
        live: 16,
        bytes: usize::MAX,
        age: std::time::Duration::ZERO,
    });
    for i in 0..50 {
        store.create(&pools, "ns", pool(i), false).expect("created");
    }
    let (changes, _) = store.history_size();
    assert_eq!(changes, 1, "only the newest change stays");
}

/// A story's step checks that no client changed the object and writes it under one lock, the
/// one a client holds from its write to its note: caught between its check and its write
/// (the objects' lock held here), the step still holds it, so no client change can land
/// between the two and be written over.
#[test]
fn a_story_step_holds_the_by_hand_lock_from_its_check_to_its_write() {
    use crate::scenario::{Action, Scenario};
    let store = std::sync::Arc::new(Store::new(Registry::builtin().expect("registry"), 10_000));
    Scenario::builtin("fleet")
        .expect("fleet")
        .load_initial(&store)
        .expect("loads");
    let objects = store.lock();
    let step = std::thread::spawn({
        let store = store.clone();
        move || {
            let story = Action::Merge {
                kind: "ComputePool".into(),
                namespace: "ml-research".into(),
                name: "llm-train".into(),
                patch: json!({"metadata": {"labels": {"story": "yes"}}}),
            };
            crate::actions::apply(&store, &story)
        }
    });
    // The step takes the by-hand lock first; then it waits for the objects, and must go on
    // holding it (a step that let go after its check would be seen letting go).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while store.by_hand.try_lock().is_ok() {
        assert!(std::time::Instant::now() < deadline, "the step never began");
        std::thread::yield_now();
    }
    for _ in 0..1000 {
        assert!(
            store.by_hand.try_lock().is_err(),
            "the step let go of the by-hand lock before its write"
        );
        std::thread::yield_now();
    }
    drop(objects);
    step.join().expect("the step ends").expect("the step");
    assert!(store.by_hand.try_lock().is_ok(), "let go after the write");
}
