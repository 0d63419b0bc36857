//! The demo cluster driven by kube-rs, as pooldeck's own data path will drive it: lists with
//! pages, watches from a resourceVersion, 410 Gone after compaction and the relist, bookmarks,
//! patches, deletion with finalizers and preconditions, dry runs, and the read-only viewer.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

use std::time::Duration;

use futures::{StreamExt, TryStreamExt};
use kube::api::{
    Api, DeleteParams, DynamicObject, ListParams, Patch, PatchParams, PostParams, Preconditions,
    WatchEvent, WatchParams,
};
use kube::core::{ApiResource, GroupVersionKind};
use kube::runtime::watcher;
use kube::{Client, ResourceExt};
use serde_json::json;

mod common;
use common::client;

use pooldeck::demo::scenario::Scenario;
use pooldeck::demo::{ADMIN_CONTEXT, DemoCluster, Options, VIEWER_CONTEXT};

const PAUSE: &str = "controller.spectrocloud.com/pause";

fn resource(kind: &str, plural: &str) -> ApiResource {
    ApiResource::from_gvk_with_plural(
        &GroupVersionKind::gvk("spectrocloud.com", "v1alpha1", kind),
        plural,
    )
}

async fn start(scenario: Scenario, speed: f64) -> DemoCluster {
    DemoCluster::start(Options {
        scenario: Some(scenario),
        speed,
        bookmark_interval: Duration::from_millis(200),
        ..Options::default()
    })
    .await
    .expect("the demo cluster starts")
}

fn pools(client: &Client, namespace: &str) -> Api<DynamicObject> {
    Api::namespaced_with(
        client.clone(),
        namespace,
        &resource("ComputePool", "computepools"),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lists_in_pages_across_namespaces() {
    let cluster = start(Scenario::large(30), 1.0).await;
    let client = client(&cluster, ADMIN_CONTEXT).await;
    let all: Api<DynamicObject> =
        Api::all_with(client.clone(), &resource("ComputePool", "computepools"));
    let mut names = Vec::new();
    let mut params = ListParams::default().limit(7);
    loop {
        let page = all.list(&params).await.expect("list");
        names.extend(page.items.iter().filter_map(|o| o.metadata.name.clone()));
        match page.metadata.continue_.filter(|c| !c.is_empty()) {
            Some(token) => params = params.continue_token(&token),
            None => break,
        }
    }
    assert_eq!(names.len(), 30);
    names.dedup();
    assert_eq!(names.len(), 30, "no pool twice across pages");
    let one = pools(&client, "project-1")
        .list(&ListParams::default())
        .await
        .expect("list");
    assert_eq!(one.items.len(), 10);
    let labelled = all
        .list(&ListParams::default().labels("fleet=large"))
        .await
        .expect("list");
    assert_eq!(labelled.items.len(), 30);
    let none = all
        .list(&ListParams::default().labels("fleet!=large"))
        .await
        .expect("list");
    assert!(none.items.is_empty());
    let by_name = all
        .list(&ListParams::default().fields("metadata.name=pool-00004"))
        .await
        .expect("list");
    assert_eq!(by_name.items.len(), 1);
    cluster.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watches_from_a_resource_version_then_410_after_compaction_and_relists() {
    let cluster = start(Scenario::large(3), 1.0).await;
    let client = client(&cluster, ADMIN_CONTEXT).await;
    let api = pools(&client, "project-1");
    let listed = api.list(&ListParams::default()).await.expect("list");
    let version = listed
        .metadata
        .resource_version
        .clone()
        .expect("a list has a version");
    let patch = Patch::Merge(json!({"metadata": {"labels": {"seen": "yes"}}}));
    api.patch("pool-00000", &PatchParams::default(), &patch)
        .await
        .expect("patch");

    // A watch from the list's version replays the change.
    let mut stream = api
        .watch(&WatchParams::default().timeout(5), &version)
        .await
        .expect("watch")
        .boxed();
    let event = tokio::time::timeout(Duration::from_secs(5), stream.try_next())
        .await
        .expect("in time")
        .expect("ok");
    match event {
        Some(WatchEvent::Modified(object)) => {
            assert_eq!(object.labels().get("seen").map(String::as_str), Some("yes"))
        }
        other => panic!("expected MODIFIED, got {other:?}"),
    }
    drop(stream);

    // After compaction the old version is gone: 410, and a relist shows the current state.
    cluster.store.compact(false);
    let mut stream = api
        .watch(&WatchParams::default().timeout(5), &version)
        .await
        .expect("watch")
        .boxed();
    match tokio::time::timeout(Duration::from_secs(5), stream.try_next())
        .await
        .expect("in time")
        .expect("ok")
    {
        Some(WatchEvent::Error(e)) => assert_eq!(e.code, 410, "{e:?}"),
        other => panic!("expected a 410 error event, got {other:?}"),
    }
    let relisted = api.list(&ListParams::default()).await.expect("relist");
    assert!(
        relisted
            .items
            .iter()
            .any(|o| o.labels().get("seen").is_some())
    );
    cluster.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_watcher_relists_after_a_restart_that_lost_history() {
    // No bookmarks in this test, so the watcher's last version is that of its own pools only.
    let cluster = DemoCluster::start(Options {
        scenario: Some(Scenario::large(3)),
        bookmark_interval: Duration::from_secs(3600),
        ..Options::default()
    })
    .await
    .expect("starts");
    let client = client(&cluster, ADMIN_CONTEXT).await;
    let api = pools(&client, "project-2");
    let elsewhere = pools(&client, "project-1");
    let mut events = watcher(api.clone(), watcher::Config::default()).boxed();
    let mut init_done = 0;
    let mut inits = 0;
    let mut saw_patch_after_restart = false;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while let Ok(Some(event)) = tokio::time::timeout_at(deadline, events.next()).await {
        match event {
            Ok(watcher::Event::InitDone) => {
                init_done += 1;
                if init_done == 1 {
                    // Something changes that this watcher does not see, then the server
                    // restarts and forgets its history, then a watched pool changes: the
                    // watcher's version is now too old (410) and it must list again.
                    let other = Patch::Merge(json!({"metadata": {"labels": {"elsewhere": "yes"}}}));
                    elsewhere
                        .patch("pool-00000", &PatchParams::default(), &other)
                        .await
                        .expect("patch");
                    cluster.store.compact(true);
                    let patch = Patch::Merge(json!({"metadata": {"labels": {"after": "restart"}}}));
                    api.patch("pool-00001", &PatchParams::default(), &patch)
                        .await
                        .expect("patch");
                }
            }
            Ok(watcher::Event::Init) => inits += 1,
            // The change must come from a second list, not from the old watch stream.
            Ok(watcher::Event::InitApply(object))
                if inits >= 2 && object.labels().get("after").is_some() =>
            {
                saw_patch_after_restart = true;
                break;
            }
            _ => {}
        }
    }
    assert!(
        saw_patch_after_restart,
        "the watcher relisted after the restart (inits: {inits}, done: {init_done})"
    );
    cluster.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bookmarks_arrive_when_asked_for() {
    let cluster = start(Scenario::large(1), 1.0).await;
    let client = client(&cluster, ADMIN_CONTEXT).await;
    let api = pools(&client, "project-1");
    let version = api
        .list(&ListParams::default())
        .await
        .expect("list")
        .metadata
        .resource_version
        .expect("version");
    let mut stream = api
        .watch(
            &WatchParams {
                bookmarks: true,
                ..WatchParams::default()
            }
            .timeout(5),
            &version,
        )
        .await
        .expect("watch")
        .boxed();
    match tokio::time::timeout(Duration::from_secs(5), stream.try_next())
        .await
        .expect("in time")
        .expect("ok")
    {
        Some(WatchEvent::Bookmark(bookmark)) => {
            assert_eq!(bookmark.metadata.resource_version, version)
        }
        other => panic!("expected a bookmark, got {other:?}"),
    }
    cluster.stop().await;
}

/// A watch-list as a server with the WatchList feature serves it: every object as ADDED, then the bookmark annotated
/// `k8s.io/initial-events-end` at the list's version, then the changes on the same stream.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watch_list_sends_the_objects_then_the_end_bookmark_then_changes() {
    let cluster = start(Scenario::large(9), 1.0).await;
    let client = client(&cluster, ADMIN_CONTEXT).await;
    let api = pools(&client, "project-1");
    let listed = api.list(&ListParams::default()).await.expect("list");
    let mut stream = api
        .watch(&WatchParams::streaming_lists().timeout(10), "")
        .await
        .expect("watch-list")
        .boxed();
    let mut next = async || {
        tokio::time::timeout(Duration::from_secs(5), stream.try_next())
            .await
            .expect("in time")
            .expect("ok")
            .expect("an event")
    };
    let mut names = Vec::new();
    let end = loop {
        match next().await {
            WatchEvent::Added(pool) => names.push(pool.name_any()),
            WatchEvent::Bookmark(mark) => break mark,
            other => panic!("expected the objects, then a bookmark: {other:?}"),
        }
    };
    let expected: Vec<String> = listed.items.iter().map(|p| p.name_any()).collect();
    assert_eq!(names, expected, "the list's objects, in its order");
    assert_eq!(
        end.metadata.annotations.get("k8s.io/initial-events-end"),
        Some(&"true".to_owned())
    );
    assert_eq!(
        Some(end.metadata.resource_version),
        listed.metadata.resource_version
    );
    api.patch(
        &expected[0],
        &PatchParams::default(),
        &Patch::Merge(json!({"metadata": {"labels": {"seen": "live"}}})),
    )
    .await
    .expect("patch");
    // The next event that is not a periodic bookmark.
    loop {
        match next().await {
            WatchEvent::Bookmark(_) => continue,
            WatchEvent::Modified(pool) => {
                assert_eq!(pool.labels().get("seen").unwrap(), "live");
                break;
            }
            other => panic!("expected the change: {other:?}"),
        }
    }
    cluster.stop().await;
}

/// Without the feature the server refuses a watch-list as one with the WatchList gate off
/// does (422 Invalid, said in the API's words); with it, the options are checked as the API
/// server checks them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watch_list_is_refused_without_the_feature_and_checked_with_it() {
    let path = "/apis/spectrocloud.com/v1alpha1/computepools?watch=true";
    let refusal = async |cluster: &DemoCluster, query: &str| {
        let client = client(cluster, ADMIN_CONTEXT).await;
        let request = http::Request::get(format!("{path}&{query}"))
            .body(Vec::new())
            .expect("request");
        match client.request_text(request).await {
            Err(kube::Error::Api(status)) => (status.code, status.message),
            other => panic!("expected a refusal for {query}: {other:?}"),
        }
    };
    let asked = "sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true";
    let without = DemoCluster::start(Options {
        scenario: Some(Scenario::large(1)),
        watch_list: false,
        ..Options::default()
    })
    .await
    .expect("starts");
    let (code, message) = refusal(&without, asked).await;
    assert_eq!(code, 422);
    assert!(
        message.contains("unless the WatchList feature gate is enabled"),
        "{message}"
    );
    without.stop().await;

    let with = start(Scenario::large(1), 1.0).await;
    for (query, why) in [
        (
            "sendInitialEvents=true&allowWatchBookmarks=true",
            "requires setting resourceVersionMatch",
        ),
        (
            "sendInitialEvents=true&resourceVersionMatch=NotOlderThan",
            "requires setting allowWatchBookmarks",
        ),
        (
            "resourceVersionMatch=NotOlderThan",
            "resourceVersionMatch is forbidden for watch",
        ),
    ] {
        let (code, message) = refusal(&with, query).await;
        assert_eq!(code, 422, "{query}");
        assert!(message.contains(why), "{query}: {message}");
    }
    with.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pause_label_stops_the_scenario_for_that_pool() {
    // scale-up at 20x: the pool would turn Updating about 1.1 s in.
    let cluster = start(Scenario::builtin("scale-up").expect("built in"), 20.0).await;
    let client = client(&cluster, ADMIN_CONTEXT).await;
    let api = pools(&client, "my-project-namespace");
    let patch = Patch::Merge(json!({"metadata": {"labels": {PAUSE: "true"}}}));
    let paused = api
        .patch("my-compute-pool", &PatchParams::default(), &patch)
        .await
        .expect("patch");
    assert_eq!(paused.labels().get(PAUSE).map(String::as_str), Some("true"));
    // Wait until the whole timeline has played (it would have changed the pool by then).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while !cluster.timeline_played() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the timeline did not play"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let pool = api.get("my-compute-pool").await.expect("get");
    assert_eq!(
        pool.data.pointer("/status/status"),
        Some(&json!("Running")),
        "a paused pool does not change"
    );
    let evaluations: Api<DynamicObject> = Api::namespaced_with(
        client.clone(),
        "my-project-namespace",
        &resource("ComputePoolEvaluation", "computepoolevaluations"),
    );
    let evaluation = evaluations
        .get("my-compute-pool")
        .await
        .expect("evaluation");
    let state = evaluation
        .data
        .pointer("/status/poolScalingStates/ml-cluster~1worker-pool-nvidia-amd64-0/state");
    assert_eq!(state, Some(&json!("Idle")));
    cluster.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_a_pool_waits_for_its_finalizer_and_collects_its_evaluation() {
    let cluster = start(Scenario::builtin("scale-up").expect("built in"), 10.0).await;
    let client = client(&cluster, ADMIN_CONTEXT).await;
    let api = pools(&client, "my-project-namespace");
    let evaluations: Api<DynamicObject> = Api::namespaced_with(
        client.clone(),
        "my-project-namespace",
        &resource("ComputePoolEvaluation", "computepoolevaluations"),
    );
    let owner = evaluations
        .get("my-compute-pool")
        .await
        .expect("evaluation")
        .metadata
        .owner_references
        .unwrap_or_default();
    assert_eq!(
        owner.first().map(|o| o.kind.as_str()),
        Some("ComputePool"),
        "owned by its pool"
    );

    let response = api
        .delete("my-compute-pool", &DeleteParams::default())
        .await
        .expect("delete");
    let marked = response
        .left()
        .expect("the object stays while its finalizer is held");
    assert!(marked.metadata.deletion_timestamp.is_some());
    // The simulated controller releases the finalizer; the pool and its evaluation go.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let gone = api.get_opt("my-compute-pool").await.expect("get").is_none();
        let evaluation_gone = evaluations
            .get_opt("my-compute-pool")
            .await
            .expect("get")
            .is_none();
        if gone && evaluation_gone {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the pool was not released"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    cluster.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stuck_deletion_completes_when_the_finalizer_is_removed() {
    let cluster = start(
        Scenario::builtin("deletion-blocked").expect("built in"),
        10.0,
    )
    .await;
    let client = client(&cluster, ADMIN_CONTEXT).await;
    let api = pools(&client, "vision-lab");
    api.delete("blocked-pool", &DeleteParams::default())
        .await
        .expect("delete");
    // Wait until the deletion controller has done what it does: mark the pool Deleting (it
    // then waits for the finalizer, which the stuck scenario never releases).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let pool = api.get("blocked-pool").await.expect("still there");
        if pool.data.pointer("/status/status") == Some(&json!("Deleting")) {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the pool was never marked Deleting"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let stuck = api.get("blocked-pool").await.expect("still there");
    assert!(stuck.metadata.deletion_timestamp.is_some());
    assert_eq!(
        stuck.data.pointer("/status/status"),
        Some(&json!("Deleting"))
    );
    let release = Patch::Json::<()>(
        serde_json::from_value(json!([{"op": "remove", "path": "/metadata/finalizers/0"}]))
            .expect("patch"),
    );
    api.patch("blocked-pool", &PatchParams::default(), &release)
        .await
        .expect("remove the finalizer");
    assert!(api.get_opt("blocked-pool").await.expect("get").is_none());
    cluster.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn preconditions_and_stale_versions_conflict() {
    let cluster = start(Scenario::large(2), 1.0).await;
    let client = client(&cluster, ADMIN_CONTEXT).await;
    let api = pools(&client, "project-1");
    let pool = api.get("pool-00000").await.expect("get");
    let code = |e: kube::Error| match e {
        kube::Error::Api(status) => status.code,
        other => panic!("expected an API error, got {other}"),
    };
    let wrong_uid = DeleteParams {
        preconditions: Some(Preconditions {
            uid: Some("not-the-uid".into()),
            resource_version: None,
        }),
        ..DeleteParams::default()
    };
    assert_eq!(
        code(
            api.delete("pool-00000", &wrong_uid)
                .await
                .expect_err("conflict")
        ),
        409
    );
    let wrong_version = DeleteParams {
        preconditions: Some(Preconditions {
            uid: None,
            resource_version: Some("1".into()),
        }),
        ..DeleteParams::default()
    };
    assert_eq!(
        code(
            api.delete("pool-00000", &wrong_version)
                .await
                .expect_err("conflict")
        ),
        409
    );

    // A replace with the version we read succeeds once; the second, now stale, conflicts.
    let mut edited = pool.clone();
    edited.labels_mut().insert("edited".into(), "once".into());
    api.replace("pool-00000", &PostParams::default(), &edited)
        .await
        .expect("replace");
    assert_eq!(
        code(
            api.replace("pool-00000", &PostParams::default(), &edited)
                .await
                .expect_err("stale")
        ),
        409
    );

    let right = DeleteParams {
        preconditions: Some(Preconditions {
            uid: pool.metadata.uid.clone(),
            resource_version: None,
        }),
        ..DeleteParams::default()
    };
    api.delete("pool-00000", &right)
        .await
        .expect("delete with the right uid");
    cluster.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dry_runs_change_nothing() {
    let cluster = start(Scenario::large(2), 1.0).await;
    let client = client(&cluster, ADMIN_CONTEXT).await;
    let api = pools(&client, "project-1");
    let before = api.get("pool-00000").await.expect("get");
    let patch = Patch::Merge(json!({"metadata": {"labels": {PAUSE: "true"}}}));
    let answer = api
        .patch("pool-00000", &PatchParams::default().dry_run(), &patch)
        .await
        .expect("dry-run patch");
    assert_eq!(
        answer.labels().get(PAUSE).map(String::as_str),
        Some("true"),
        "the answer shows the result"
    );
    let after = api.get("pool-00000").await.expect("get");
    assert_eq!(after.labels().get(PAUSE), None, "but nothing was stored");
    assert_eq!(
        after.metadata.resource_version,
        before.metadata.resource_version
    );

    let dry = DeleteParams {
        dry_run: true,
        ..DeleteParams::default()
    };
    api.delete("pool-00000", &dry)
        .await
        .expect("dry-run delete");
    assert!(api.get_opt("pool-00000").await.expect("get").is_some());

    let mut copy = before.clone();
    copy.metadata.name = Some("pool-copy".into());
    copy.metadata.resource_version = None;
    copy.metadata.uid = None;
    // A VIP of its own: the demo admits pools as the webhook does (VIPs are unique).
    if let Some(edge) = copy
        .data
        .pointer_mut("/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/edge")
    {
        edge["vip"] = serde_json::json!("10.250.250.250");
    }
    api.create(
        &PostParams {
            dry_run: true,
            ..PostParams::default()
        },
        &copy,
    )
    .await
    .expect("dry-run create");
    assert!(api.get_opt("pool-copy").await.expect("get").is_none());
    cluster.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_viewer_reads_but_may_not_patch() {
    let cluster = start(Scenario::large(2), 1.0).await;
    let viewer = client(&cluster, VIEWER_CONTEXT).await;
    let api = pools(&viewer, "project-1");
    assert_eq!(
        api.list(&ListParams::default())
            .await
            .expect("the viewer lists")
            .items
            .len(),
        1
    );
    let patch = Patch::Merge(json!({"metadata": {"labels": {PAUSE: "true"}}}));
    match api
        .patch("pool-00000", &PatchParams::default(), &patch)
        .await
    {
        Err(kube::Error::Api(status)) => {
            assert_eq!(status.code, 403);
            assert!(
                status.message.contains("cannot patch"),
                "{}",
                status.message
            );
        }
        other => panic!("expected 403, got {other:?}"),
    }
    cluster.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_patch_that_breaks_metadata_is_refused_not_a_dropped_connection() {
    // A merge patch turning metadata into a string made the server's handler panic while it
    // copied the fields it owns; the client saw the connection close.
    let cluster = start(Scenario::large(1), 1.0).await;
    let client = client(&cluster, ADMIN_CONTEXT).await;
    let api = pools(&client, "project-1");
    for broken in [json!("text"), json!([1, 2]), json!(7)] {
        let patch = Patch::Merge(json!({ "metadata": broken }));
        match api
            .patch("pool-00000", &PatchParams::default(), &patch)
            .await
        {
            Err(kube::Error::Api(status)) => assert_eq!(status.code, 422, "{status:?}"),
            other => panic!("expected 422 Invalid, got {other:?}"),
        }
    }
    // The pool is as it was.
    let pool = api.get("pool-00000").await.expect("still there");
    assert_eq!(pool.name_any(), "pool-00000");
    cluster.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_selectors_and_huge_bodies_are_refused_as_a_server_does() {
    let cluster = start(Scenario::large(2), 1.0).await;
    let client = client(&cluster, ADMIN_CONTEXT).await;
    let api = pools(&client, "project-1");
    // "!!!" matched everything: a dry-run delete by it "deleted" every pool.
    for selector in ["!!!", "a b", "team=bad value!"] {
        match api.list(&ListParams::default().labels(selector)).await {
            Err(kube::Error::Api(status)) => assert_eq!(status.code, 400, "{selector}: {status:?}"),
            other => panic!("{selector}: expected 400, got {other:?}"),
        }
    }
    // A body past the limit: a Status with 413, not plain text.
    let huge = "x".repeat(4 * 1024 * 1024);
    let patch = Patch::Merge(json!({"metadata": {"annotations": {"huge": huge}}}));
    // The server answers as soon as the body passes the limit and stops reading; a client
    // still writing the rest may then see its write refused (a broken pipe) before it reads
    // the answer, as with a real API server. Asked again until the answer is read.
    let mut attempts = 0;
    loop {
        attempts += 1;
        match api
            .patch("pool-00000", &PatchParams::default(), &patch)
            .await
        {
            Err(kube::Error::Api(status)) => {
                assert_eq!(status.code, 413, "{status:?}");
                assert!(status.message.contains("larger than"), "{status:?}");
                break;
            }
            Err(kube::Error::Service(e))
                if attempts < 5 && format!("{e:?}").contains("BrokenPipe") => {}
            other => panic!("expected 413, got {other:?}"),
        }
    }
    cluster.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_method_a_path_does_not_take_is_a_status_not_an_empty_405() {
    // Found by the API fuzz run: discovery paths answered a wrong method with an empty body.
    let cluster = start(Scenario::large(1), 1.0).await;
    let client = client(&cluster, ADMIN_CONTEXT).await;
    for (method, path) in [
        ("OPTIONS", "/apis"),
        ("DELETE", "/version"),
        ("PUT", "/api/v1"),
    ] {
        let request = http::Request::builder()
            .method(method)
            .uri(path)
            .body(kube::client::Body::from(Vec::new()))
            .expect("request");
        let response = client.send(request).await.expect("an answer");
        assert_eq!(response.status().as_u16(), 405, "{method} {path}");
        let bytes = response.into_body().collect_bytes().await.expect("body");
        let status: serde_json::Value = serde_json::from_slice(&bytes).expect("JSON");
        assert_eq!(status["kind"], "Status", "{method} {path}: {status}");
        assert_eq!(status["code"], 405);
    }
    cluster.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_path_that_is_not_utf8_is_a_status_not_plain_text() {
    // Found by the API fuzz run: "Invalid URL: Invalid UTF-8 in `group`" as plain text.
    let cluster = start(Scenario::large(1), 1.0).await;
    let client = client(&cluster, ADMIN_CONTEXT).await;
    for path in [
        "/apis/%FD",
        "/apis/%FD/v1",
        "/api/%FF/pods",
        "/openapi/v3/apis/%FE/v1",
    ] {
        let request = http::Request::builder()
            .uri(path)
            .body(kube::client::Body::from(Vec::new()))
            .expect("request");
        let response = client.send(request).await.expect("an answer");
        let code = response.status().as_u16();
        let bytes = response.into_body().collect_bytes().await.expect("body");
        let status: serde_json::Value =
            serde_json::from_slice(&bytes).unwrap_or_else(|_| panic!("{path}: {code} {bytes:?}"));
        assert_eq!(status["kind"], "Status", "{path}: {status}");
        assert_eq!(status["code"], 404, "{path}: {status}");
    }
    cluster.stop().await;
}
