use chrono::{DateTime, TimeDelta, Utc};
use serde_json::json;

use super::*;
use crate::model::read;

fn at(seconds: i64) -> DateTime<Utc> {
    crate::time::parse("2026-12-01T12:00:00Z").expect("time") + TimeDelta::seconds(seconds)
}

fn pool(status: serde_json::Value, meta: serde_json::Value) -> crate::model::ComputePool {
    let mut metadata = json!({"name": "p", "namespace": "n", "generation": 1});
    if let (Some(m), Some(extra)) = (metadata.as_object_mut(), meta.as_object()) {
        m.extend(extra.clone());
    }
    let value = json!({"apiVersion": "spectrocloud.com/v1alpha1", "kind": "ComputePool",
        "metadata": metadata, "spec": {}, "status": status});
    read(&value).expect("a pool").0
}

fn hosts(states: &[(&str, &str)]) -> serde_json::Value {
    let hosts: serde_json::Map<String, serde_json::Value> = states
        .iter()
        .map(|(uid, s)| ((*uid).to_owned(), json!({"status": s})))
        .collect();
    json!({"status": "Running", "paletteClusterStatuses": [{"name": "c",
        "allocatedMachinePools": [{"name": "w", "hosts": hosts}]}]})
}

fn texts(entries: &[Entry]) -> Vec<&str> {
    entries.iter().map(|e| e.text.as_str()).collect()
}

#[test]
fn a_host_joining_and_turning_healthy_is_seen_and_a_first_sight_is_no_change() {
    let before = pool(hosts(&[("h1", "Healthy")]), json!({}));
    let joined = pool(
        hosts(&[("h1", "Healthy"), ("h2", "Provisioning")]),
        json!({}),
    );
    let healthy = pool(hosts(&[("h1", "Healthy"), ("h2", "Healthy")]), json!({}));
    assert!(seen_pool(None, Some(&before), at(0)).is_empty());
    assert_eq!(
        texts(&seen_pool(Some(&before), Some(&joined), at(1))),
        ["host h2 joined (Provisioning)"]
    );
    let turned = seen_pool(Some(&joined), Some(&healthy), at(2));
    assert_eq!(texts(&turned), ["host h2 Provisioning → Healthy"]);
    assert_eq!(
        (turned[0].clock, turned[0].source, turned[0].at),
        (Clock::Pooldeck, Source::Host, at(2))
    );
    assert_eq!(
        texts(&seen_pool(Some(&healthy), Some(&before), at(3))),
        ["host h2 left the pool"]
    );
}

#[test]
fn deletion_finalizers_conditions_and_the_pool_going_are_seen() {
    let condition =
        |s: &str| json!({"conditions": [{"type": "Ready", "status": s, "reason": "R"}]});
    let live = pool(condition("True"), json!({"finalizers": ["f"]}));
    let deleting = pool(
        condition("False"),
        json!({"finalizers": ["f"], "deletionTimestamp": "2026-12-01T12:00:00Z"}),
    );
    let released = pool(
        condition("False"),
        json!({"deletionTimestamp": "2026-12-01T12:00:00Z"}),
    );
    let said = seen_pool(Some(&live), Some(&deleting), at(1));
    assert_eq!(texts(&said), ["Ready True → False (R)"]);
    assert_eq!(
        texts(&seen_pool(Some(&deleting), Some(&released), at(2))),
        ["finalizer f removed"]
    );
    assert_eq!(
        texts(&seen_pool(Some(&released), None, at(3))),
        ["gone from the hub"]
    );
    // What the hub keeps: the deletion's start, and the last transition of each condition.
    let kept = from_pool(&deleting);
    assert!(
        kept.iter()
            .any(|e| e.text.starts_with("deletion started; held by f") && !e.derived)
    );
}

#[test]
fn a_decision_says_the_move_and_why_in_the_policy_s_terms() {
    let evaluation = |target: i64, utilization: i64, state: &str| {
        let value = json!({"apiVersion": "spectrocloud.com/v1alpha1", "kind": "ComputePoolEvaluation",
            "metadata": {"name": "p", "namespace": "n"},
            "spec": {"poolEvaluations": {"c/w": {"gpu": {"H100": {"count": 8, "target": target, "utilization": utilization}}}}},
            "status": {"poolScalingStates": {"c/w": {"state": state, "details": "d"}}}});
        read(&value).expect("an evaluation").0
    };
    let policy = json!({"spec": {"gpu": [{"variant": "H100", "scaleUpThreshold": 85, "scaleUpDuration": "5m"}]}});
    let (idle, decided) = (evaluation(8, 80, "Idle"), evaluation(12, 91, "Idle"));
    let said = seen_evaluation(Some(&idle), Some(&decided), Some(&policy), at(1));
    assert_eq!(
        texts(&said),
        ["c/w: decided 8 → 12 GPUs (H100): utilization 91 % above 85 % for 5m"]
    );
    let scaling = evaluation(12, 91, "Scaling");
    assert_eq!(
        texts(&seen_evaluation(
            Some(&decided),
            Some(&scaling),
            None,
            at(2)
        )),
        ["c/w: Idle → Scaling: d"]
    );
    // The target coming back to the count is no decision.
    assert!(seen_evaluation(Some(&decided), Some(&idle), None, at(3)).is_empty());
}

#[test]
fn merging_orders_prefers_what_was_seen_and_lists_a_change_once() {
    let derived = Entry::new(at(0), Clock::Hub, Source::Scaling, "c/w")
        .says("Idle", "Idle".into())
        .derived();
    let seen = Entry::new(at(5), Clock::Pooldeck, Source::Scaling, "c/w")
        .says("Idle", "Cooldown → Idle".into());
    let twice = Entry {
        at: at(7),
        ..seen.clone()
    };
    let older =
        Entry::new(at(-60), Clock::Hub, Source::Pool, "pool").says("created", "created".into());
    let merged = merge(vec![seen.clone(), derived, twice, older.clone()]);
    assert_eq!(merged, vec![older, seen.clone()]);
    // A derived entry newer than what was seen is a change pooldeck missed: it stays.
    let newer = Entry::new(at(100), Clock::Hub, Source::Scaling, "c/w")
        .says("Idle", "Idle again".into())
        .derived();
    assert_eq!(merge(vec![seen, newer]).len(), 2);
}

#[test]
fn a_time_not_watched_is_a_gap_and_an_end_not_said_is_said() {
    let span = |from: i64, to: Option<i64>| Span {
        from: at(from),
        to: to.map(at),
        namespaces: Vec::new(),
    };
    let said = gaps(
        &[span(0, Some(10)), span(100, None), span(200, Some(300))],
        "n",
    );
    assert_eq!(said[0].state, "watching");
    assert_eq!((said[1].at, said[1].state.as_str()), (at(10), "gap"));
    assert!(
        said[1].text.starts_with("not watched for 1m"),
        "{}",
        said[1].text
    );
    assert!(said[2].text.contains("ended without saying"));
    let elsewhere = Span {
        namespaces: vec!["other".into()],
        ..span(0, Some(1))
    };
    assert!(gaps(&[elsewhere], "n").is_empty());
}

#[test]
fn the_audit_log_gives_one_entry_per_request_on_this_hub_about_these_objects() {
    let record = |record: &str, server: &str, object: &str, outcome: serde_json::Value| {
        json!({"time": "2026-12-01T12:00:00.000Z", "record": record, "request": format!("{server}{object}"),
            "server": server, "user": "ann", "operation": "delete", "dryRun": false,
            "objects": [object], "outcome": outcome}).to_string()
    };
    let log = [
        record(
            "intent",
            "https://a",
            "AIWorkload n/w",
            serde_json::Value::Null,
        ),
        record(
            "outcome",
            "https://a",
            "AIWorkload n/w",
            json!({"result": "done"}),
        ),
        record(
            "intent",
            "https://b",
            "AIWorkload n/w",
            serde_json::Value::Null,
        ),
        record(
            "intent",
            "https://a",
            "AIWorkload n/other",
            serde_json::Value::Null,
        ),
        "not json".to_owned(),
    ]
    .join("\n");
    let said = from_audit(&log, "https://a", &["AIWorkload n/w".to_owned()]);
    assert_eq!(texts(&said), ["ann ran delete AIWorkload n/w: done"]);
    assert_eq!(
        (said[0].clock, said[0].source),
        (Clock::Pooldeck, Source::Action)
    );
}

#[test]
fn log_lines_name_the_pool_as_a_word_and_need_a_time() {
    let lines = [
        "2026-12-01T12:00:00Z\tINFO\tcomputepool\treconciled p",
        "2026-12-01T12:00:01Z\tINFO\tcomputepool\treconciled p-2",
        "no time here p",
        "2026-12-01T12:00:02Z\tINFO\treconciled {\"name\":\"p\",\"namespace\":\"other\"}",
    ];
    let said = from_log(lines, ("n", "p"));
    assert_eq!(texts(&said), ["INFO computepool reconciled p"]);
    assert_eq!(said[0].clock, Clock::Hub);
}

#[test]
fn a_spec_change_lists_its_paths_and_never_a_key_s_value() {
    let with = |generation: i64, spec: serde_json::Value| {
        let value = json!({"apiVersion": "spectrocloud.com/v1alpha1", "kind": "ComputePool",
            "metadata": {"name": "p", "namespace": "n", "generation": generation}, "spec": spec});
        read(&value).expect("a pool").0
    };
    let deployment = |count: i64, key: &str| {
        json!({"clusterVariant": {"dedicated": {"paletteClusterDeploymentConfig": {
            "sshKeys": [key], "nodePoolRequirements": {"workerPools": [{"name": "w", "gpu": {"gpuCount": count}}]}}}}})
    };
    let before = with(1, deployment(8, "ssh-ed25519 AAAAold"));
    let after = with(2, deployment(12, "ssh-ed25519 AAAAnew"));
    let said = seen_pool(Some(&before), Some(&after), at(1));
    assert_eq!(texts(&said), ["spec changed (generation 1 → 2)"]);
    let detail = said[0].detail.join("\n");
    assert!(
        detail.contains("/workerPools/0/gpu/gpuCount: 8 → 12"),
        "{detail}"
    );
    assert!(
        detail.contains("sshKeys/0: changed (its value is not kept)"),
        "{detail}"
    );
    assert!(!detail.contains("AAAA"), "{detail}");
}

#[test]
fn a_line_is_inert_and_says_its_clock_and_whether_it_is_derived() {
    let entry = Entry::new(at(0), Clock::Hub, Source::Condition, "Ready")
        .says(
            "False",
            "Ready False: \u{1b}]52;c;aGk=\u{7}\nforged line".into(),
        )
        .derived();
    let line = line(&entry, false);
    assert!(
        !line.contains('\u{1b}') && !line.contains('\n') && !line.contains('\u{7}'),
        "{line:?}"
    );
    assert!(line.starts_with("2026-12-01 12:00:00~ hub "), "{line}");
}
