//! The audit log's records, and requests held open until their outcome.
use super::*;
use crate::domain::{ClusterError, Kind, ObjectRef, Preconditions};

/// A request whose future is dropped before its outcome (cancelled, its process ending)
/// still gets one: "interrupted: outcome unknown". A closed one gets nothing more.
#[test]
fn an_open_request_dropped_gets_an_interrupted_outcome() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("audit.log");
    let hub = Hub {
        context: "ctx".into(),
        server: "https://hub".into(),
        user: "me".into(),
        kubeconfig: None,
    };
    let operation = Operation::Delete {
        target: ObjectRef::new(Kind::Pool, "ns", "a"),
        preconditions: Preconditions::default(),
        run: Run::Real,
    };
    let begin = |request: &str| {
        Open::begin(
            &path,
            &format!("{{\"intent\": \"{request}\"}}"),
            request,
            (&hub, &operation),
        )
        .expect("the intent written")
    };
    begin("t-1")
        .finish("{\"outcome\": \"t-1\"}")
        .expect("the outcome written");
    drop(begin("t-2"));
    let text = std::fs::read_to_string(&path).expect("written");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert_eq!(
        lines[..3],
        [
            "{\"intent\": \"t-1\"}",
            "{\"outcome\": \"t-1\"}",
            "{\"intent\": \"t-2\"}"
        ]
    );
    let record: Value = serde_json::from_str(lines[3]).expect("one JSON line");
    assert_eq!(record["record"], "outcome");
    assert_eq!(record["request"], "t-2");
    assert_eq!(record["outcome"]["result"], "unknown");
    assert!(
        record["outcome"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("interrupted: outcome unknown")),
        "{record}"
    );
}

#[test]
fn a_line_is_one_json_object_with_the_facts_and_no_secret() {
    let operation = Operation::Delete {
        target: ObjectRef::new(Kind::Pool, "retail-edge", "store-042"),
        preconditions: Preconditions {
            uid: Some("u-1".into()),
            resource_version: Some("9".into()),
        },
        run: Run::Real,
    };
    let at = Hub {
        context: "prod-hub".into(),
        server: "https://hub:6443".into(),
        user: "alice".into(),
        kubeconfig: None,
    };
    let dry = Outcome::Done {
        message: "dry run: the server accepts this".into(),
    };
    let failed = Outcome::Failed(ClusterError::Conflict {
        message: "the uid changed".into(),
    });
    let intent = Record {
        request: "c0ffee00-7",
        at: &at,
        operation: &operation,
        dry_run_answer: None,
        outcome: None,
    };
    let intent: Value = serde_json::from_str(&intent.line(Utc::now())).expect("JSON");
    assert_eq!(intent["record"], "intent");
    assert_eq!(intent["request"], "c0ffee00-7");
    assert!(intent.get("outcome").is_none());
    let record = Record {
        request: "c0ffee00-7",
        at: &at,
        operation: &operation,
        dry_run_answer: Some(&dry),
        outcome: Some(&failed),
    };
    let text = record.line(Utc::now());
    assert!(!text.contains('\n'));
    let value: Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(value["record"], "outcome");
    assert_eq!(value["operation"], "delete");
    assert_eq!(value["objects"][0], "ComputePool retail-edge/store-042");
    assert_eq!(value["preconditions"]["uid"], "u-1");
    assert_eq!(value["dryRunAnswer"]["result"], "done");
    assert_eq!(value["outcome"]["result"], "failed");
    assert_eq!(value["user"], "alice");
    assert!(
        value["kubectl"]
            .as_str()
            .is_some_and(|k| k.starts_with("kubectl --context prod-hub delete"))
    );
}
