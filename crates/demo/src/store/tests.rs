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
