use chrono::{Duration, TimeZone, Utc};
use serde_json::{Value, json};

use super::*;
use crate::demo::scenario::{Scenario, resolve_times};

fn fleet(kind: &str) -> Vec<Value> {
    Scenario::builtin("fleet")
        .expect("fleet")
        .objects
        .iter()
        .filter(|o| o.get("kind").and_then(Value::as_str) == Some(kind))
        .map(resolve_times)
        .collect()
}

fn at(seconds: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 30, 12, 0, 0)
        .single()
        .expect("time")
        + Duration::seconds(seconds)
}

fn loaded() -> Inventory {
    let mut inventory = Inventory::new();
    for (kind, name) in [
        (Kind::Pool, "ComputePool"),
        (Kind::Evaluation, "ComputePoolEvaluation"),
    ] {
        inventory.apply(SourceEvent::listed(kind, None, fleet(name)), at(0));
    }
    inventory
}

#[test]
fn an_initial_list_fills_the_picture_and_its_joins() {
    let inventory = loaded();
    assert_eq!(inventory.count(Kind::Pool), 12);
    assert_eq!(inventory.count(Kind::Evaluation), 8);
    let pool = inventory
        .get(Kind::Pool, "ml-research", "llm-train")
        .expect("pool");
    assert!(pool.pool().is_some());
    assert!(
        inventory.evaluation_for(pool).is_some(),
        "joined by namespace and name"
    );
    let hosts: Vec<_> = inventory
        .hosts()
        .filter(|h| h.pool == "llm-train")
        .collect();
    assert_eq!(hosts.len(), 7, "three control plane and four GPU hosts");
    assert!(hosts.iter().any(|h| h.gpus.iter().any(|(_, n)| *n == 4)));
    let health: Vec<_> = inventory.health().collect();
    assert!(health.iter().all(|(_, h)| h.state == SourceState::Live));
}

#[test]
fn a_relist_replaces_in_one_step_and_drops_what_is_gone() {
    let mut inventory = loaded();
    let before = inventory.generation();
    let mut pools = fleet("ComputePool");
    pools.retain(|p| p.pointer("/metadata/name") != Some(&json!("detector")));
    inventory.apply(SourceEvent::listed(Kind::Pool, None, pools), at(10));
    assert_eq!(
        inventory.generation(),
        before + 1,
        "one event, one generation"
    );
    assert_eq!(inventory.count(Kind::Pool), 11);
    assert!(
        inventory.hosts().all(|h| h.pool != "detector"),
        "its hosts went with it"
    );
    // A relist scoped to one namespace leaves the others alone.
    inventory.apply(
        SourceEvent::listed(Kind::Pool, Some("vision-lab".into()), Vec::new()),
        at(11),
    );
    assert_eq!(inventory.count(Kind::Pool), 9);
}

#[test]
fn snapshots_do_not_change_under_the_reader() {
    let mut inventory = loaded();
    let snapshot = inventory.clone();
    let mut pool = fleet("ComputePool").remove(0);
    pool["status"]["status"] = json!("Failed");
    let key = key_of(&pool);
    inventory.apply(
        SourceEvent::Applied {
            kind: Kind::Pool,
            object: pool,
        },
        at(5),
    );
    let status = |i: &Inventory| {
        i.get(Kind::Pool, &key.0, &key.1)
            .map(|o| o.value()["status"]["status"].clone())
    };
    assert_eq!(status(&inventory), Some(json!("Failed")));
    assert_ne!(status(&snapshot), Some(json!("Failed")));
    assert!(snapshot.generation() < inventory.generation());
}

#[test]
fn deletes_remove_objects_and_their_hosts_and_history() {
    let mut inventory = loaded();
    let pool = inventory
        .get(Kind::Pool, "ml-research", "llm-train")
        .expect("pool")
        .value()
        .as_ref()
        .clone();
    let evaluation = inventory
        .get(Kind::Evaluation, "ml-research", "llm-train")
        .expect("evaluation")
        .value()
        .as_ref()
        .clone();
    assert!(inventory.series_of("ml-research", "llm-train").count() > 0);
    inventory.apply(
        SourceEvent::Deleted {
            kind: Kind::Pool,
            object: pool,
        },
        at(1),
    );
    inventory.apply(
        SourceEvent::Deleted {
            kind: Kind::Evaluation,
            object: evaluation,
        },
        at(1),
    );
    assert!(
        inventory
            .get(Kind::Pool, "ml-research", "llm-train")
            .is_none()
    );
    assert!(inventory.hosts().all(|h| h.pool != "llm-train"));
    assert_eq!(inventory.series_of("ml-research", "llm-train").count(), 0);
}

#[test]
fn utilization_history_is_timestamped_by_evaluation_and_deduplicated() {
    let mut inventory = Inventory::new();
    let evaluation = |stamp: &str, gpu: i64| {
        json!({"apiVersion": "spectrocloud.com/v1alpha1", "kind": "ComputePoolEvaluation",
               "metadata": {"name": "p", "namespace": "ns"},
               "spec": {"poolEvaluations": {"c/w": {"cpu": {"utilization": 10}, "gpu": {"A100": {"utilization": gpu}}, "evaluatedAt": stamp}}}})
    };
    for (stamp, gpu) in [
        ("2026-11-30T12:00:00Z", 50),
        ("2026-11-30T12:00:00Z", 51),
        ("2026-11-30T12:00:30Z", 70),
        ("2026-11-30T11:59:00Z", 1),
    ] {
        inventory.apply(
            SourceEvent::Applied {
                kind: Kind::Evaluation,
                object: evaluation(stamp, gpu),
            },
            at(0),
        );
    }
    let series = SeriesKey {
        namespace: "ns".into(),
        pool: "p".into(),
        worker_pool: "c/w".into(),
        resource: "A100".into(),
    };
    let samples: Vec<f64> = inventory
        .history(&series)
        .expect("series")
        .iter()
        .map(|s| s.utilization)
        .collect();
    assert_eq!(
        samples,
        [50.0, 70.0],
        "same evaluatedAt once; an older one is not appended"
    );
    for i in 0..(derived::HISTORY_LIMIT as i64 + 20) {
        let stamp =
            (at(100) + Duration::seconds(i)).to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        inventory.apply(
            SourceEvent::Applied {
                kind: Kind::Evaluation,
                object: evaluation(&stamp, i % 100),
            },
            at(0),
        );
    }
    assert_eq!(
        inventory.history(&series).expect("series").len(),
        derived::HISTORY_LIMIT,
        "bounded"
    );
}

#[test]
fn events_are_indexed_by_the_object_they_concern() {
    let mut inventory = Inventory::new();
    let event = |name: &str, pool: &str, stamp: &str| {
        json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": name, "namespace": "ns"},
               "involvedObject": {"kind": "ComputePool", "namespace": "ns", "name": pool},
               "reason": "R", "lastTimestamp": stamp})
    };
    inventory.apply(
        SourceEvent::listed(
            Kind::Event,
            None,
            vec![
                event("e2", "a", "2026-11-30T12:00:02Z"),
                event("e1", "a", "2026-11-30T12:00:01Z"),
                event("e3", "b", "2026-11-30T12:00:03Z"),
            ],
        ),
        at(0),
    );
    let names: Vec<&str> = inventory
        .events_for("ComputePool", "ns", "a")
        .iter()
        .map(|e| e.name())
        .collect();
    assert_eq!(names, ["e1", "e2"]);
    inventory.apply(
        SourceEvent::Deleted {
            kind: Kind::Event,
            object: event("e1", "a", ""),
        },
        at(1),
    );
    assert_eq!(inventory.events_for("ComputePool", "ns", "a").len(), 1);
}

#[test]
fn events_at_the_same_time_come_in_key_order_however_they_arrived() {
    let event = |name: &str| {
        json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": name, "namespace": "ns"},
               "involvedObject": {"kind": "ComputePool", "namespace": "ns", "name": "a"},
               "reason": "R", "lastTimestamp": "2026-11-30T12:00:00Z"})
    };
    let order = |arrival: &[&str]| -> Vec<String> {
        let mut inventory = Inventory::new();
        for (i, name) in arrival.iter().enumerate() {
            inventory.apply(
                SourceEvent::Applied {
                    kind: Kind::Event,
                    object: event(name),
                },
                at(i as i64),
            );
        }
        inventory
            .events_for("ComputePool", "ns", "a")
            .iter()
            .map(|e| e.name().to_owned())
            .collect()
    };
    assert_eq!(order(&["e3", "e1", "e2"]), ["e1", "e2", "e3"]);
    assert_eq!(order(&["e2", "e3", "e1", "e3"]), ["e1", "e2", "e3"]);
}

#[test]
fn a_malformed_object_stays_listed_with_its_error() {
    let mut inventory = Inventory::new();
    let broken = json!({"apiVersion": "spectrocloud.com/v1alpha1", "kind": "ComputePool",
        "metadata": {"name": "broken", "namespace": "ns"}, "spec": "not a mapping", "status": {"status": 7}});
    inventory.apply(
        SourceEvent::Applied {
            kind: Kind::Pool,
            object: broken,
        },
        at(0),
    );
    let object = inventory.get(Kind::Pool, "ns", "broken").expect("kept");
    let problem = object.problem().expect("a problem is reported");
    assert!(
        problem.contains("spec") && problem.contains("mapping"),
        "{problem}"
    );
}

#[test]
fn source_states_keep_their_times() {
    let mut inventory = Inventory::new();
    inventory.apply(
        SourceEvent::State {
            kind: Kind::Pool,
            scope: None,
            state: SourceState::Syncing,
        },
        at(0),
    );
    inventory.apply(SourceEvent::listed(Kind::Pool, None, Vec::new()), at(2));
    let reconnecting = SourceState::Reconnecting {
        error: crate::domain::ClusterError::Unreachable {
            server: String::new(),
            detail: "connection refused".into(),
        },
        retry_at: at(9),
    };
    inventory.apply(
        SourceEvent::State {
            kind: Kind::Pool,
            scope: None,
            state: reconnecting.clone(),
        },
        at(8),
    );
    let health = inventory
        .health_of(Kind::Pool)
        .next()
        .expect("health")
        .clone();
    assert_eq!(health.state, reconnecting);
    assert_eq!(health.since, at(8));
    assert_eq!(health.last_event, Some(at(2)));
    assert!(!health.state.settled());
}

fn objects(kind: Kind, values: Vec<Value>) -> Vec<Object> {
    values.into_iter().map(|v| Object::new(kind, v)).collect()
}

#[test]
fn pages_show_at_once_and_the_end_of_the_list_drops_only_what_neither_holds() {
    let pools = fleet("ComputePool");
    let mut inventory = Inventory::new();
    inventory.apply(
        SourceEvent::State {
            kind: Kind::Pool,
            scope: None,
            state: SourceState::Syncing,
        },
        at(0),
    );
    inventory.apply(
        SourceEvent::Page {
            kind: Kind::Pool,
            scope: None,
            objects: objects(Kind::Pool, pools[..5].to_vec()),
        },
        at(1),
    );
    assert_eq!(
        inventory.count(Kind::Pool),
        5,
        "the first page is there before the list ends"
    );
    assert_eq!(
        inventory.listing_progress(Kind::Pool),
        Some(5),
        "received so far"
    );
    inventory.apply(
        SourceEvent::Listed {
            kind: Kind::Pool,
            scope: None,
            objects: objects(Kind::Pool, pools[5..].to_vec()),
        },
        at(2),
    );
    assert_eq!(
        inventory.count(Kind::Pool),
        pools.len(),
        "paged and last objects kept"
    );
    assert_eq!(inventory.listing_progress(Kind::Pool), None);

    // A relist in pages: the old rows stay while it streams; the end drops the one gone.
    inventory.apply(
        SourceEvent::State {
            kind: Kind::Pool,
            scope: None,
            state: SourceState::Syncing,
        },
        at(3),
    );
    inventory.apply(
        SourceEvent::Page {
            kind: Kind::Pool,
            scope: None,
            objects: objects(Kind::Pool, pools[..3].to_vec()),
        },
        at(4),
    );
    assert_eq!(
        inventory.count(Kind::Pool),
        pools.len(),
        "a relist never empties the screen"
    );
    inventory.apply(
        SourceEvent::Listed {
            kind: Kind::Pool,
            scope: None,
            objects: objects(Kind::Pool, pools[3..pools.len() - 1].to_vec()),
        },
        at(5),
    );
    assert_eq!(inventory.count(Kind::Pool), pools.len() - 1);
}

/// Pools named `name` in namespace `ns`, as a server lists them.
fn pools_in(ns: &str, names: &[&str]) -> Vec<Object> {
    let template = fleet("ComputePool").remove(0);
    names
        .iter()
        .map(|name| {
            let mut pool = template.clone();
            pool["metadata"]["namespace"] = json!(ns);
            pool["metadata"]["name"] = json!(name);
            Object::new(Kind::Pool, pool)
        })
        .collect()
}

fn names_in(inventory: &Inventory, ns: &str) -> Vec<String> {
    inventory
        .objects(Kind::Pool)
        .filter(|o| o.key.0 == ns)
        .map(|o| o.key.1.to_string())
        .collect()
}

#[test]
fn two_namespaces_listing_in_pages_at_once_drop_only_their_own_gone() {
    let mut inventory = Inventory::new();
    let page = |inventory: &mut Inventory, ns: &str, names: &[&str], last: bool, t: i64| {
        let (scope, objects) = (Some(ns.to_owned()), pools_in(ns, names));
        let event = if last {
            SourceEvent::Listed {
                kind: Kind::Pool,
                scope,
                objects,
            }
        } else {
            SourceEvent::Page {
                kind: Kind::Pool,
                scope,
                objects,
            }
        };
        inventory.apply(event, at(t));
    };
    // First lists of two namespaces, their pages interleaved.
    page(&mut inventory, "a", &["a1", "a2"], false, 0);
    page(&mut inventory, "b", &["b1"], false, 1);
    page(&mut inventory, "a", &["a3"], true, 2);
    page(&mut inventory, "b", &["b2", "b3"], true, 3);
    assert_eq!(names_in(&inventory, "a"), ["a1", "a2", "a3"]);
    assert_eq!(names_in(&inventory, "b"), ["b1", "b2", "b3"]);
    // Both list again, interleaved: a2 is gone from a, b3 from b. The first pages of each
    // came before either list started again (no Syncing: a list restarted after a 410).
    page(&mut inventory, "b", &["b1"], false, 4);
    page(&mut inventory, "a", &["a1"], false, 5);
    page(&mut inventory, "b", &["b2"], false, 6);
    assert_eq!(
        inventory.listing_progress(Kind::Pool),
        Some(3),
        "what both lists brought so far"
    );
    page(&mut inventory, "a", &["a3"], true, 7);
    assert_eq!(names_in(&inventory, "a"), ["a1", "a3"]);
    assert_eq!(
        names_in(&inventory, "b"),
        ["b1", "b2", "b3"],
        "b's list has not ended: nothing of b goes"
    );
    page(&mut inventory, "b", &[], true, 8);
    assert_eq!(names_in(&inventory, "b"), ["b1", "b2"]);
    assert_eq!(inventory.listing_progress(Kind::Pool), None);
}

#[test]
fn a_list_cut_short_does_not_keep_its_pages() {
    let pools = fleet("ComputePool");
    let mut inventory = Inventory::new();
    inventory.apply(
        SourceEvent::Page {
            kind: Kind::Pool,
            scope: None,
            objects: objects(Kind::Pool, pools[..4].to_vec()),
        },
        at(0),
    );
    // The list starts again (410): the next one lists only two of them.
    inventory.apply(
        SourceEvent::State {
            kind: Kind::Pool,
            scope: None,
            state: SourceState::Syncing,
        },
        at(1),
    );
    inventory.apply(
        SourceEvent::Listed {
            kind: Kind::Pool,
            scope: None,
            objects: objects(Kind::Pool, pools[..2].to_vec()),
        },
        at(2),
    );
    assert_eq!(inventory.count(Kind::Pool), 2);
}

#[test]
fn the_journal_names_what_changed_and_starts_over_when_it_cannot() {
    let mut inventory = loaded();
    let listed = inventory.generation();
    assert_eq!(inventory.changes_since(listed), Some(Vec::new()));
    // Lists and pages of pools, evaluations and events are journalled object by object.
    assert_eq!(
        inventory.changes_since(0).map(|c| c.len()),
        Some(12 + 8),
        "every pool and evaluation listed"
    );
    let mut projects = inventory.clone();
    projects.apply(
        SourceEvent::listed(Kind::Project, None, fleet("Project")),
        at(0),
    );
    assert_eq!(projects.changes_since(listed), None, "a list of projects");
    let mut pool = fleet("ComputePool").remove(0);
    pool["metadata"]["labels"] = json!({"touched": "yes"});
    let key = key_of(&pool);
    let vip = pool
        .pointer("/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/edge/vip")
        .and_then(Value::as_str)
        .map(str::to_ascii_lowercase);
    inventory.apply(
        SourceEvent::Applied {
            kind: Kind::Pool,
            object: pool.clone(),
        },
        at(1),
    );
    inventory.apply(
        SourceEvent::Deleted {
            kind: Kind::Pool,
            object: pool,
        },
        at(2),
    );
    let pool_change = |fleet: Option<Vec<String>>| Change {
        kind: Kind::Pool,
        key: key.clone(),
        pools: vec![key.clone()],
        fleet,
    };
    // A label changed moves nothing in the fleet; a pool gone does, by its VIP.
    let (changed, gone) = (
        pool_change(None),
        pool_change(Some(vip.into_iter().collect())),
    );
    assert_eq!(inventory.changes_since(listed), Some(vec![&changed, &gone]));
    assert_eq!(inventory.changes_since(listed + 1), Some(vec![&gone]));
    // An event names the pool it is about now and the one it was about before.
    let about = |pool: &str| {
        json!({"metadata": {"namespace": "a", "name": "moving"}, "type": "Warning",
               "involvedObject": {"kind": "ComputePool", "namespace": "a", "name": pool}})
    };
    for pool in ["first", "second"] {
        inventory.apply(
            SourceEvent::Applied {
                kind: Kind::Event,
                object: about(pool),
            },
            at(2),
        );
    }
    let last = inventory
        .changes_since(inventory.generation() - 1)
        .expect("journal");
    assert_eq!(
        last[0].pools,
        vec![("a".into(), "second".into()), ("a".into(), "first".into())]
    );
    // Something around the pools: a reader before it looks at everything again.
    let here = inventory.generation();
    inventory.apply(
        SourceEvent::Applied {
            kind: Kind::Project,
            object: json!({"metadata": {"namespace": "a", "name": "p"}}),
        },
        at(3),
    );
    assert_eq!(inventory.changes_since(here), None);
    assert_eq!(
        inventory.changes_since(inventory.generation()),
        Some(Vec::new())
    );
    // More changes than the journal keeps: a reader from before them starts over.
    let here = inventory.generation();
    let event = json!({"metadata": {"namespace": "a", "name": "e"}, "type": "Normal"});
    for _ in 0..=JOURNAL {
        inventory.apply(
            SourceEvent::Applied {
                kind: Kind::Event,
                object: event.clone(),
            },
            at(4),
        );
    }
    assert_eq!(inventory.changes_since(here), None);
    let recent = inventory.generation() - 10;
    assert_eq!(inventory.changes_since(recent).map(|c| c.len()), Some(10));
}

#[test]
fn objects_are_held_without_their_managed_fields() {
    let (pool, evaluation) = crate::demo::large::large_pool(1);
    assert!(
        pool["metadata"]["managedFields"].is_array(),
        "as a server sends it"
    );
    let project = json!({"apiVersion": "spectrocloud.com/v1alpha1", "kind": "Project",
        "metadata": {"name": "p", "managedFields": [{"manager": "m"}], "labels": {"a": "b"}}});
    for (kind, raw) in [
        (Kind::Pool, pool.clone()),
        (Kind::Evaluation, evaluation),
        (Kind::Project, project.clone()),
    ] {
        let object = Object::new(kind, raw.clone());
        let held = object.value();
        assert!(held["metadata"].get("managedFields").is_none(), "{kind:?}");
        let mut expected = raw;
        expected["metadata"]
            .as_object_mut()
            .expect("metadata")
            .shift_remove("managedFields");
        assert_eq!(*held, expected, "{kind:?}: everything else is kept");
    }
}

proptest::proptest! {
    /// The objects held and the events index agree with a plain model under any sequence of
    /// changes, moves of an event from one pool to another and lists: each event is found
    /// under the pool it is about now, once, and nowhere else.
    #[test]
    fn events_are_found_under_the_pool_they_are_about_now(
        // Names enough for the tree to have inner nodes (a B-tree leaf holds 11 entries).
        steps in proptest::collection::vec((0u8..4, 0usize..200, 0usize..4), 1..300)
    ) {
        use std::collections::BTreeMap;
        let event = |name: usize, pool: usize| {
            json!({"apiVersion": "v1", "kind": "Event",
                   "metadata": {"name": format!("e{name}"), "namespace": "ns"},
                   "involvedObject": {"kind": "ComputePool", "namespace": "ns",
                                      "name": format!("p{pool}")},
                   "reason": format!("R{pool}")})
        };
        let mut inventory = Inventory::new();
        let mut model: BTreeMap<usize, usize> = BTreeMap::new();
        for (i, (action, name, pool)) in steps.into_iter().enumerate() {
            let now = at(i as i64);
            match action {
                0 | 1 => {
                    inventory.apply(
                        SourceEvent::Applied { kind: Kind::Event, object: event(name, pool) },
                        now,
                    );
                    model.insert(name, pool);
                }
                2 => {
                    inventory.apply(
                        SourceEvent::Deleted { kind: Kind::Event, object: event(name, pool) },
                        now,
                    );
                    model.remove(&name);
                }
                _ => {
                    // A list again: every event the model holds but `name`, each moved to
                    // `pool` when its number is odd.
                    model.remove(&name);
                    for (n, p) in model.iter_mut() {
                        if n % 2 == 1 {
                            *p = pool;
                        }
                    }
                    let listed = model.iter().map(|(n, p)| event(*n, *p)).collect();
                    inventory.apply(SourceEvent::listed(Kind::Event, None, listed), now);
                }
            }
            proptest::prop_assert_eq!(inventory.count(Kind::Event), model.len());
            for pool in 0..4 {
                let mut found: Vec<String> = inventory
                    .events_for("ComputePool", "ns", &format!("p{pool}"))
                    .iter()
                    .map(|e| e.name().to_owned())
                    .collect();
                found.sort();
                let mut expected: Vec<String> = model
                    .iter()
                    .filter(|(_, p)| **p == pool)
                    .map(|(n, _)| format!("e{n}"))
                    .collect();
                expected.sort();
                proptest::prop_assert_eq!(found, expected);
            }
            for (n, p) in &model {
                let held = inventory.get(Kind::Event, "ns", &format!("e{n}"));
                let about = held.and_then(|e| super::derive::involved(e)).map(|(_, _, name)| name.to_owned());
                proptest::prop_assert_eq!(about, Some(format!("p{p}")));
            }
        }
    }
}

#[test]
fn a_pools_own_rules_are_worked_out_once_and_are_those_validate_finds_without_a_fleet() {
    use crate::domain::rules::{self, Context, Severity};
    let inventory = loaded();
    for object in inventory.objects(Kind::Pool) {
        assert!(!object.alone_known(), "nothing asked yet");
        let pool = object.pool().expect("a pool");
        let expected = rules::validate(pool, object.issues(), &Context::default())
            .iter()
            .any(|f| f.severity() == Severity::Error);
        assert_eq!(object.breaks_a_rule_alone(), expected, "{}", object.name());
        assert!(object.alone_known());
        // A copy keeps the answer; asked again, it is the same.
        let copy = Object::clone(object);
        assert!(copy.alone_known());
        assert_eq!(copy.breaks_a_rule_alone(), expected);
    }
    let llm_train = fleet("ComputePool")
        .into_iter()
        .find(|p| p["metadata"]["name"] == "llm-train")
        .expect("llm-train");
    // A pool that breaks only a rule across pools (its VIP taken, in the inventory) does not
    // break one by itself.
    let mut twin = llm_train.clone();
    twin["metadata"]["name"] = json!("llm-train-twin");
    let mut inventory = inventory;
    inventory.apply(
        SourceEvent::Applied {
            kind: Kind::Pool,
            object: twin,
        },
        at(1),
    );
    let twin = inventory
        .get(Kind::Pool, "ml-research", "llm-train-twin")
        .expect("twin");
    let context = inventory.context_of(twin);
    let whole = rules::validate(twin.pool().expect("pool"), twin.issues(), &context);
    assert!(whole.iter().any(|f| f.rule.id == "vip.unique"), "{whole:?}");
    assert!(!twin.breaks_a_rule_alone());
    // Without its VIP (and no overlay) it breaks one by itself.
    let mut bare = llm_train;
    let edge =
        &mut bare["spec"]["clusterVariant"]["dedicated"]["paletteClusterDeploymentConfig"]["edge"];
    edge.as_object_mut().expect("edge").remove("vip");
    assert!(Object::new(Kind::Pool, bare).breaks_a_rule_alone());
}

#[test]
fn a_pool_sharing_neither_name_nor_vip_has_no_finding_across_pools() {
    use crate::domain::rules;
    let mut inventory = loaded();
    let llm_train = fleet("ComputePool")
        .into_iter()
        .find(|p| p["metadata"]["name"] == "llm-train")
        .expect("llm-train");
    // Another pool on llm-train's VIP written in upper case, one with its name in another
    // namespace, and two with another name shared, one of them without a namespace (the
    // one way a name is taken within one hub's pools).
    let vip = "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/edge/vip";
    let with = |name: &str, namespace: Option<&str>, address: &str| {
        let mut pool = llm_train.clone();
        pool["metadata"]["name"] = json!(name);
        match namespace {
            Some(namespace) => pool["metadata"]["namespace"] = json!(namespace),
            None => {
                pool["metadata"]
                    .as_object_mut()
                    .expect("metadata")
                    .remove("namespace");
            }
        }
        *pool.pointer_mut(vip).expect("vip") = json!(address);
        pool
    };
    let llm_vip = llm_train
        .pointer(vip)
        .and_then(Value::as_str)
        .expect("a vip");
    let upper = llm_vip.to_ascii_uppercase();
    for pool in [
        with("vip-twin", Some("ml-research"), &upper),
        with("llm-train", Some("elsewhere"), "10.99.0.1"),
        with("lonely", Some("team-a"), "10.99.0.2"),
        with("lonely", None, "10.99.0.3"),
    ] {
        inventory.apply(
            SourceEvent::Applied {
                kind: Kind::Pool,
                object: pool,
            },
            at(1),
        );
    }
    let mut sharing = Vec::new();
    for object in inventory.objects(Kind::Pool) {
        let context = inventory.context_of(object);
        let across = rules::across(object.pool().expect("pool"), &context);
        let shares = inventory.shares_name_or_vip(object);
        assert!(shares || across.is_empty(), "{}: {across:?}", object.name());
        if shares {
            sharing.push(format!("{}/{}", object.namespace(), object.name()));
        }
    }
    sharing.sort();
    assert_eq!(
        sharing,
        [
            "/lonely",
            "elsewhere/llm-train",
            "ml-research/llm-train",
            "ml-research/vip-twin",
            "team-a/lonely"
        ]
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    /// The sets of shared names and VIPs agree with the held pools under any sequence of
    /// pools joining, leaving, changing their VIP and starting or stopping to run: whether a
    /// pool shares either; its neighbours' fingerprint, 0 exactly when it shares neither and
    /// changed exactly when what it reads of the fleet did (the namespaces of the pools with
    /// its name, its VIP, the keys of the pools on it and which of them runs); and the pools
    /// a lot of changes touches (those now named like a changed pool or on one of its VIPs,
    /// as a walk of the held pools finds them), for each change alone and for all since the
    /// start.
    #[test]
    fn shared_names_and_vips_follow_the_pools(
        steps in proptest::collection::vec(
            (0u8..3, 0usize..30, 0usize..4, 0usize..12, proptest::bool::ANY),
            1..150,
        )
    ) {
        use std::collections::{BTreeMap, BTreeSet};
        let template = fleet("ComputePool")
            .into_iter()
            .find(|p| p["metadata"]["name"] == "llm-train")
            .expect("llm-train");
        let edge = "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/edge";
        // Eight addresses, two of them also written in upper case, and no VIP.
        let vips = ["vip-a.example", "VIP-A.example", "vip-b.example", "ViP-B.example",
                    "vip-c.example", "vip-d.example", "vip-e.example", "vip-f.example",
                    "vip-g.example", "vip-h.example"];
        // The fourth namespace is none (the one way a name is taken twice within a hub).
        let pool = |name: usize, namespace: usize, vip: usize, runs: bool| {
            let mut pool = template.clone();
            pool["metadata"]["name"] = json!(format!("p{name}"));
            if namespace < 3 {
                pool["metadata"]["namespace"] = json!(format!("ns{namespace}"));
            } else {
                pool["metadata"].as_object_mut().expect("metadata").remove("namespace");
            }
            let edge = pool.pointer_mut(edge).and_then(Value::as_object_mut).expect("edge");
            match vips.get(vip) {
                Some(address) => {
                    edge.insert("vip".into(), json!(address));
                }
                None => {
                    edge.remove("vip");
                }
            }
            pool["status"]["status"] = json!(if runs { "Running" } else { "Provisioning" });
            pool
        };
        // What a pool reads of the fleet, worked out from the held pools.
        type Around = (Vec<String>, Option<String>, Vec<(Key, bool)>);
        type Held = [(Arc<Object>, Option<String>)];
        let around = |held: &Held, object: &Object, vip: &Option<String>| -> Around {
            let mut named: Vec<String> = held
                .iter()
                .filter(|(o, _)| o.name() == object.name())
                .map(|(o, _)| o.namespace().to_owned())
                .collect();
            named.sort();
            let mut on_vip: Vec<(Key, bool)> = held
                .iter()
                .filter(|(_, v)| v.is_some() && v == vip)
                .map(|(o, _)| (o.key.clone(), Inventory::runs(o)))
                .collect();
            on_vip.sort();
            (named, vip.clone(), on_vip)
        };
        let mut inventory = Inventory::new();
        let start = inventory.generation();
        let mut before: BTreeMap<Key, (Around, u64)> = BTreeMap::new();
        for (i, (action, name, namespace, vip, runs)) in steps.into_iter().enumerate() {
            let object = pool(name, namespace, vip, runs);
            let generation = inventory.generation();
            let event = if action == 2 {
                SourceEvent::Deleted { kind: Kind::Pool, object }
            } else {
                SourceEvent::Applied { kind: Kind::Pool, object }
            };
            inventory.apply(event, at(i as i64));
            let held: Vec<(Arc<Object>, Option<String>)> = inventory
                .objects(Kind::Pool)
                .map(|o| (o.clone(), Inventory::vip_of(o)))
                .collect();
            let mut now = BTreeMap::new();
            for (object, vip) in &held {
                let reads = around(&held, object, vip);
                let shares = reads.0.len() > 1 || reads.2.len() > 1;
                // Alone, a pool reads only itself, whose version the doctor's inputs hold.
                let reads = if shares { reads } else { Around::default() };
                let at = format!("{}/{}", object.namespace(), object.name());
                proptest::prop_assert_eq!(inventory.shares_name_or_vip(object), shares, "{}", at);
                let fingerprint = inventory.neighbours(object);
                proptest::prop_assert_eq!(fingerprint == 0, !shares, "{}", at);
                if let Some((reads_before, fingerprint_before)) = before.get(&object.key) {
                    proptest::prop_assert_eq!(
                        *reads_before == reads,
                        *fingerprint_before == fingerprint,
                        "{}: {:?} then {:?}", at, reads_before, reads
                    );
                }
                now.insert(object.key.clone(), (reads, fingerprint));
            }
            before = now;
            // Each change alone, and every change since the start as one lot.
            for since in [generation, start] {
                let changes = inventory.changes_since(since).expect("pool changes are journalled");
                let touched: BTreeSet<Key> =
                    inventory.fleet_touched(&changes).into_iter().collect();
                let mut walked = BTreeSet::new();
                for change in &changes {
                    let Some(changed_vips) = &change.fleet else { continue };
                    for (other, vip) in &held {
                        if other.name() == change.key.1.as_str()
                            || vip.as_ref().is_some_and(|v| changed_vips.contains(v))
                        {
                            walked.insert(other.key.clone());
                        }
                    }
                }
                proptest::prop_assert_eq!(touched, walked);
            }
        }
    }
}
