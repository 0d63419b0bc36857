//! The live data path against the demo cluster: kube-rs watchers into one inventory, through
//! initial sync, live changes, a 410 relist, the server going away and coming back, a
//! forbidden resource, a missing CRD, and a malformed object.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

use std::time::Duration;

use pooldeck::sources::watch::{QUEUE, Tag, Tagged};
use serde_json::json;
use tokio::sync::mpsc::{Receiver, channel};

mod common;
use common::client;

use pooldeck::demo::scenario::Scenario;
use pooldeck::demo::store::Patch;
use pooldeck::demo::{ADMIN_CONTEXT, DemoCluster, Options, VIEWER_CONTEXT};
use pooldeck::inventory::ListWay;
use pooldeck::inventory::{Inventory, Kind, SourceEvent, SourceState};
use pooldeck::sources::watch::{Marks, Namespaces, spawn};
use pooldeck::sources::ways::Ways;

/// Applies source events until `done` holds, or fails after ten seconds.
async fn pump(
    receiver: &mut Receiver<Tagged>,
    inventory: &mut Inventory,
    what: &str,
    done: impl Fn(&Inventory) -> bool,
) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !done(inventory) {
        match tokio::time::timeout_at(deadline, receiver.recv()).await {
            Ok(Some((_, event))) => inventory.apply(event, chrono::Utc::now()),
            Ok(None) => panic!("the sources stopped while waiting for {what}"),
            Err(_) => panic!(
                "timed out waiting for {what}; health: {:?}",
                inventory.health().collect::<Vec<_>>()
            ),
        }
    }
}

/// Waits until `done` holds, looking every 10 ms, or fails after ten seconds.
async fn until(what: &str, done: impl Fn() -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !done() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

fn state(inventory: &Inventory, kind: Kind) -> Option<SourceState> {
    inventory.health_of(kind).next().map(|h| h.state.clone())
}

fn pools_kind(cluster: &DemoCluster) -> pooldeck::demo::registry::Resource {
    cluster
        .store
        .registry
        .by_kind("ComputePool")
        .expect("pools")
        .clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn initial_sync_then_live_add_modify_delete_on_a_server_with_watch_lists() {
    initial_sync_then_live_add_modify_delete(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn initial_sync_then_live_add_modify_delete_on_a_server_without_watch_lists() {
    initial_sync_then_live_add_modify_delete(false).await;
}

/// The same story whichever way the server offers its lists: on a server with watch-lists
/// every source streams its list; on one without, the first refusal is learned for the hub
/// (one watch-list asked in all) and every source lists in pages.
async fn initial_sync_then_live_add_modify_delete(watch_list: bool) {
    let cluster = DemoCluster::start(Options {
        scenario: Some(Scenario::builtin("fleet").expect("fleet")),
        watch_list,
        ..Options::default()
    })
    .await
    .expect("starts");
    let client = client(&cluster, ADMIN_CONTEXT).await;
    let (sender, mut receiver) = channel(QUEUE);
    let tasks = spawn(
        &client,
        &Ways::default(),
        &[Kind::Pool, Kind::Evaluation, Kind::Event],
        &Namespaces::All,
        Tag::default(),
        Marks::Ahead,
        &sender,
    );
    let mut inventory = Inventory::new();
    pump(&mut receiver, &mut inventory, "the initial sync", |i| {
        i.count(Kind::Pool) == 12
            && i.count(Kind::Evaluation) == 8
            && i.health().count() == 3
            && i.health().all(|(_, h)| h.state.settled())
    })
    .await;
    assert!(
        inventory
            .health()
            .all(|(_, h)| h.state == SourceState::Live)
    );
    if watch_list {
        assert_eq!(inventory.list_way(), Some(ListWay::Streamed));
        assert_eq!(
            cluster.watch_lists_asked(),
            3,
            "each source streamed its list"
        );
    } else {
        assert_eq!(inventory.list_way(), Some(ListWay::Paged));
        assert_eq!(
            cluster.watch_lists_asked(),
            1,
            "the refusal is learned once for the hub"
        );
    }
    let pool = inventory
        .get(Kind::Pool, "ml-research", "llm-train")
        .expect("pool");
    assert!(inventory.evaluation_for(pool).is_some());
    // The console's sources worked out each pool's own rules as they read it (off the
    // console's loop); nothing else was.
    let known = |kind| inventory.objects(kind).filter(|o| o.alone_known()).count();
    assert_eq!(known(Kind::Pool), inventory.count(Kind::Pool));
    assert_eq!(known(Kind::Evaluation), 0);

    let pools = pools_kind(&cluster);
    let mut fresh = (*cluster
        .store
        .get(&pools, "vision-lab", "detector")
        .expect("pool"))
    .clone();
    fresh["metadata"] = json!({"name": "detector-2", "namespace": "vision-lab"});
    cluster
        .store
        .create(&pools, "vision-lab", fresh, false)
        .expect("create");
    pump(&mut receiver, &mut inventory, "the added pool", |i| {
        i.get(Kind::Pool, "vision-lab", "detector-2").is_some()
    })
    .await;

    cluster
        .store
        .patch(
            &pools,
            "vision-lab",
            "detector-2",
            &Patch::Merge(json!({"status": {"status": "Unhealthy"}})),
            true,
            false,
        )
        .expect("patch");
    pump(&mut receiver, &mut inventory, "the modification", |i| {
        i.get(Kind::Pool, "vision-lab", "detector-2")
            .is_some_and(|p| p.value()["status"]["status"] == "Unhealthy")
    })
    .await;
    let changed = inventory
        .get(Kind::Pool, "vision-lab", "detector-2")
        .expect("pool");
    assert!(
        changed.alone_known(),
        "a changed pool is checked as it is read"
    );

    cluster
        .store
        .delete(
            &pools,
            "vision-lab",
            "detector-2",
            &Default::default(),
            false,
        )
        .expect("delete");
    pump(&mut receiver, &mut inventory, "the deletion", |i| {
        i.get(Kind::Pool, "vision-lab", "detector-2").is_none()
    })
    .await;
    assert_eq!(inventory.count(Kind::Pool), 12);
    // Each source's one watch carried the changes: a watch-list's stream goes on after its
    // objects (no second watch opened); a paged list is followed by one watch, which a
    // source whose list came first may open after the pools' changes arrived.
    until("every source's watch", || cluster.watches_opened() >= 3).await;
    assert_eq!(cluster.watches_opened(), 3);
    assert_eq!(cluster.watch_lists_served(), if watch_list { 3 } else { 0 });
    tasks.iter().for_each(|t| t.abort());
    cluster.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_410_relists_without_emptying_the_picture() {
    let cluster = DemoCluster::start(Options {
        scenario: Some(Scenario::large(6)),
        bookmark_interval: Duration::from_secs(3600),
        ..Options::default()
    })
    .await
    .expect("starts");
    let client = client(&cluster, ADMIN_CONTEXT).await;
    let (sender, mut receiver) = channel(QUEUE);
    let tasks = spawn(
        &client,
        &Ways::default(),
        &[Kind::Pool],
        &Namespaces::Only(vec!["project-1".into()]),
        Tag::default(),
        Marks::WhenAsked,
        &sender,
    );
    let mut inventory = Inventory::new();
    pump(&mut receiver, &mut inventory, "the initial sync", |i| {
        i.count(Kind::Pool) == 2
    })
    .await;
    // A headless command's sources leave a pool's own rules to whoever asks.
    assert!(inventory.objects(Kind::Pool).all(|o| !o.alone_known()));

    // Changes this watcher does not see move the version on; the history is lost and the
    // watch ends; a watched pool changes. The watcher's version is too old: 410, relist.
    let pools = pools_kind(&cluster);
    cluster
        .store
        .patch(
            &pools,
            "project-2",
            "pool-00001",
            &Patch::Merge(json!({"metadata": {"labels": {"x": "1"}}})),
            false,
            false,
        )
        .expect("patch");
    cluster.store.compact(true);
    cluster
        .store
        .patch(
            &pools,
            "project-1",
            "pool-00000",
            &Patch::Merge(json!({"metadata": {"labels": {"after": "relist"}}})),
            false,
            false,
        )
        .expect("patch");
    let mut lists = 0;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let (_, event) = tokio::time::timeout_at(deadline, receiver.recv())
            .await
            .expect("in time")
            .expect("an event");
        if matches!(event, SourceEvent::Listed { .. }) {
            lists += 1;
        }
        inventory.apply(event, chrono::Utc::now());
        // The picture never goes empty on the way.
        assert_eq!(inventory.count(Kind::Pool), 2, "no flash of an empty table");
        if inventory
            .get(Kind::Pool, "project-1", "pool-00000")
            .is_some_and(|p| p.value()["metadata"]["labels"]["after"] == "relist")
        {
            break;
        }
    }
    assert_eq!(lists, 1, "the change arrived through a relist");
    tasks.iter().for_each(|t| t.abort());
    cluster.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_going_away_and_back_leaves_nothing_stale() {
    let first = DemoCluster::start(Options {
        scenario: Some(Scenario::large(3)),
        ..Options::default()
    })
    .await
    .expect("starts");
    let port = first.address.port();
    let identity = first.identity.clone();
    let client = client(&first, ADMIN_CONTEXT).await;
    let (sender, mut receiver) = channel(QUEUE);
    let tasks = spawn(
        &client,
        &Ways::default(),
        &[Kind::Pool],
        &Namespaces::All,
        Tag::default(),
        Marks::WhenAsked,
        &sender,
    );
    let mut inventory = Inventory::new();
    pump(&mut receiver, &mut inventory, "the initial sync", |i| {
        i.count(Kind::Pool) == 3
    })
    .await;

    first.stop().await;
    pump(
        &mut receiver,
        &mut inventory,
        "the reconnecting state",
        |i| matches!(state(i, Kind::Pool), Some(SourceState::Reconnecting { .. })),
    )
    .await;
    if let Some(SourceState::Reconnecting { error, retry_at }) = state(&inventory, Kind::Pool) {
        assert!(
            matches!(error, pooldeck::domain::ClusterError::Unreachable { .. }),
            "a stopped server is unreachable, not something else: {error:?}"
        );
        assert!(retry_at > chrono::Utc::now() - chrono::Duration::seconds(5));
    }
    // The old objects stay visible while reconnecting.
    assert_eq!(inventory.count(Kind::Pool), 3);

    // The server comes back (same address and identity) with a different picture.
    let mut scenario = Scenario::large(3);
    scenario
        .objects
        .retain(|o| o["metadata"]["name"] != "pool-00002");
    let mut extra = scenario.objects[0].clone();
    extra["metadata"]["name"] = json!("pool-new");
    scenario.objects.push(extra);
    let second = DemoCluster::start(Options {
        port,
        identity: Some(identity),
        scenario: Some(scenario),
        ..Options::default()
    })
    .await
    .expect("restarts");
    pump(
        &mut receiver,
        &mut inventory,
        "live again with the new picture",
        |i| {
            state(i, Kind::Pool) == Some(SourceState::Live)
                && i.get(Kind::Pool, "project-1", "pool-new").is_some()
        },
    )
    .await;
    assert!(
        inventory
            .get(Kind::Pool, "project-3", "pool-00002")
            .is_none(),
        "nothing stale remains"
    );
    assert_eq!(inventory.count(Kind::Pool), 3);
    tasks.iter().for_each(|t| t.abort());
    second.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forbidden_and_missing_resources_are_said_and_the_rest_carries_on() {
    let cluster = DemoCluster::start(Options {
        scenario: Some(Scenario::builtin("fleet").expect("fleet")),
        without_kinds: vec!["Compute".into()],
        ..Options::default()
    })
    .await
    .expect("starts");
    let viewer = client(&cluster, VIEWER_CONTEXT).await;
    let (sender, mut receiver) = channel(QUEUE);
    // The viewer may read inside a namespace but not Tenants (cluster-scoped); Computes are
    // not installed on this server.
    let tasks = spawn(
        &viewer,
        &Ways::default(),
        &[Kind::Pool, Kind::Tenant, Kind::Compute],
        &Namespaces::Only(vec!["ml-research".into()]),
        Tag::default(),
        Marks::WhenAsked,
        &sender,
    );
    let mut inventory = Inventory::new();
    pump(&mut receiver, &mut inventory, "every source settled", |i| {
        i.health().count() == 3 && i.health().all(|(_, h)| h.state.settled())
    })
    .await;
    assert_eq!(inventory.count(Kind::Pool), 5, "the pools of ml-research");
    match state(&inventory, Kind::Tenant) {
        Some(SourceState::Forbidden { message }) => {
            assert!(message.contains("tenants.spectrocloud.com"), "{message}");
            assert!(message.contains("cannot list"), "{message}");
        }
        other => panic!("expected forbidden, got {other:?}"),
    }
    assert_eq!(
        state(&inventory, Kind::Compute),
        Some(SourceState::NotInstalled)
    );
    tasks.iter().for_each(|t| t.abort());
    cluster.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_malformed_object_stays_visible_with_its_error() {
    let cluster = DemoCluster::start(Options {
        scenario: Some(Scenario::large(1)),
        ..Options::default()
    })
    .await
    .expect("starts");
    let pools = pools_kind(&cluster);
    cluster
        .store
        .put(json!({"apiVersion": "spectrocloud.com/v1alpha1", "kind": "ComputePool",
                    "metadata": {"name": "mangled", "namespace": "project-1"},
                    "spec": {"clusterVariant": "dedicated"}, "status": {"status": ["not", "a", "string"]}}))
        .expect("the store takes any JSON");
    let _ = pools;
    let client = client(&cluster, ADMIN_CONTEXT).await;
    let (sender, mut receiver) = channel(QUEUE);
    let tasks = spawn(
        &client,
        &Ways::default(),
        &[Kind::Pool],
        &Namespaces::All,
        Tag::default(),
        Marks::WhenAsked,
        &sender,
    );
    let mut inventory = Inventory::new();
    pump(&mut receiver, &mut inventory, "the sync", |i| {
        i.count(Kind::Pool) == 2
    })
    .await;
    let mangled = inventory
        .get(Kind::Pool, "project-1", "mangled")
        .expect("kept, not dropped");
    let problem = mangled.problem().expect("a problem");
    assert!(
        problem.contains("clusterVariant") || problem.contains("status"),
        "{problem}"
    );
    tasks.iter().for_each(|t| t.abort());
    cluster.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_certificate_from_another_authority_is_not_called_unreachable() {
    // Two demo clusters, each with its own throwaway authority: a kubeconfig that trusts the
    // first, pointed at the second, meets a certificate it does not trust.
    let first = DemoCluster::start(Options::default())
        .await
        .expect("starts");
    let second = DemoCluster::start(Options::default())
        .await
        .expect("starts");
    let error = list_namespaces_at(&first, &second.url())
        .await
        .expect_err("the certificate is not trusted");
    let typed = pooldeck::sources::errors::classify(&error);
    assert!(
        matches!(
            typed,
            pooldeck::domain::ClusterError::CertificateNotTrusted { .. }
        ),
        "{typed:?}"
    );
    assert!(typed.to_string().contains("certificate"), "{typed}");
    // A stopped server is unreachable.
    let url = second.url();
    second.stop().await;
    let error = list_namespaces_at(&first, &url)
        .await
        .expect_err("nobody answers");
    assert!(matches!(
        pooldeck::sources::errors::classify(&error),
        pooldeck::domain::ClusterError::Unreachable { .. }
    ));
    first.stop().await;
}

/// Lists namespaces at `url` with the credentials and trusted authority of `cluster`'s
/// kubeconfig.
async fn list_namespaces_at(
    cluster: &DemoCluster,
    url: &str,
) -> Result<kube::core::ObjectList<kube::api::DynamicObject>, kube::Error> {
    let text = cluster.kubeconfig().replace(&cluster.url(), url);
    let kubeconfig = kube::config::Kubeconfig::from_yaml(&text).expect("reads");
    let config = kube::Config::from_custom_kubeconfig(
        kubeconfig,
        &kube::config::KubeConfigOptions::default(),
    )
    .await
    .expect("config");
    let namespaces: kube::Api<kube::api::DynamicObject> = kube::Api::all_with(
        kube::Client::try_from(config).expect("client"),
        &kube::core::ApiResource::from_gvk_with_plural(
            &kube::core::GroupVersionKind::gvk("", "v1", "Namespace"),
            "namespaces",
        ),
    );
    namespaces.list(&kube::api::ListParams::default()).await
}

/// A large list arrives in pages: rows are there while the source is still syncing (at a
/// real hub's pace, so the list takes long enough to be seen half way), and the end of the
/// list leaves every pool once. A watch-list's objects are gathered into pages as they stream.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_watch_list_shows_its_first_page_before_it_completes() {
    a_large_list_shows_its_first_page_before_it_completes(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_paged_list_shows_its_first_page_before_it_completes() {
    a_large_list_shows_its_first_page_before_it_completes(false).await;
}

async fn a_large_list_shows_its_first_page_before_it_completes(watch_list: bool) {
    let cluster = DemoCluster::start(Options {
        scenario: Some(Scenario::large(1_500)),
        pace: pooldeck::demo::pace::Pace::default_for("large"),
        watch_list,
        ..Options::default()
    })
    .await
    .expect("starts");
    let client = client(&cluster, ADMIN_CONTEXT).await;
    let (sender, mut receiver) = channel(QUEUE);
    let tasks = spawn(
        &client,
        &Ways::default(),
        &[Kind::Pool],
        &Namespaces::All,
        Tag::default(),
        Marks::WhenAsked,
        &sender,
    );
    let mut inventory = Inventory::new();
    pump(&mut receiver, &mut inventory, "the first page", |i| {
        i.count(Kind::Pool) > 0
    })
    .await;
    assert_eq!(
        state(&inventory, Kind::Pool),
        Some(SourceState::Syncing),
        "rows before the list completes"
    );
    assert!(inventory.count(Kind::Pool) < 1_500);
    assert_eq!(
        inventory.listing_progress(Kind::Pool),
        Some(inventory.count(Kind::Pool)),
        "received so far"
    );
    pump(&mut receiver, &mut inventory, "the complete list", |i| {
        state(i, Kind::Pool) == Some(SourceState::Live)
    })
    .await;
    assert_eq!(inventory.count(Kind::Pool), 1_500);
    tasks.iter().for_each(|t| t.abort());
    cluster.stop().await;
}
