use super::*;
use chrono::SecondsFormat;
use proptest::prelude::*;
use serde_json::json;

fn round_trip(value: &Value) -> Value {
    let name = value
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    let namespace = value
        .pointer("/metadata/namespace")
        .and_then(Value::as_str)
        .unwrap_or("");
    Event::read(value.clone(), name, namespace).to_value(name, namespace)
}

/// An event as a 1.36 server writes one for a pool, fields in the API's order.
fn from_a_server() -> Value {
    json!({
        "kind": "Event",
        "apiVersion": "v1",
        "metadata": {
            "name": "gpu-a.18a3c2f1d0e9b8a7",
            "namespace": "project-1",
            "uid": "0f6c1b9e-3a5d-4c2b-9e8f-7a6b5c4d3e2f",
            "resourceVersion": "482913",
            "creationTimestamp": "2026-11-30T12:00:00Z"
        },
        "involvedObject": {
            "kind": "ComputePool",
            "namespace": "project-1",
            "name": "gpu-a",
            "uid": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
            "apiVersion": "spectrocloud.com/v1alpha1",
            "resourceVersion": "482900"
        },
        "reason": "ScaleUpPending",
        "message": "not enough Healthy edge hosts to add the requested worker nodes",
        "source": {"component": "computepool-controller", "host": "hub-1"},
        "firstTimestamp": "2026-11-30T11:58:00Z",
        "lastTimestamp": "2026-11-30T12:00:00Z",
        "count": 3,
        "type": "Warning",
        "eventTime": null,
        "reportingComponent": "computepool-controller",
        "reportingInstance": ""
    })
}

#[test]
fn an_event_from_a_server_comes_back_as_sent_in_the_same_order() {
    let sent = from_a_server();
    let back = round_trip(&sent);
    assert_eq!(back, sent);
    assert_eq!(
        serde_json::to_string(&back).ok(),
        serde_json::to_string(&sent).ok()
    );
}

#[test]
fn fields_kept_as_written_go_back_where_the_api_writes_them() {
    let mut sent = from_a_server();
    let fields = sent.as_object_mut().expect("a mapping");
    fields.shift_remove("reportingComponent");
    fields.shift_remove("reportingInstance");
    fields.insert(
        "series".into(),
        json!({"count": 2, "lastObservedTime": "2026-11-30T12:00:00.000000Z"}),
    );
    fields.insert("action".into(), json!("Scaling"));
    fields.insert("related".into(), json!({"kind": "Node", "name": "edge-1"}));
    fields.insert("reportingComponent".into(), json!("computepool-controller"));
    fields.insert("reportingInstance".into(), json!("hub-1"));
    fields.insert("unknownField".into(), json!(true));
    sent["metadata"]
        .as_object_mut()
        .expect("metadata")
        .insert("labels".into(), json!({"a": "b"}));
    // A name that is not the key's stays where the API writes a name.
    let back = Event::read(sent.clone(), "other", "project-1").to_value("other", "project-1");
    assert_eq!(back, sent);
    assert_eq!(
        serde_json::to_string(&back).ok(),
        serde_json::to_string(&sent).ok()
    );
}

#[test]
fn the_fields_read_as_the_event_says() {
    let event = Event::read(from_a_server(), "gpu-a.18a3c2f1d0e9b8a7", "project-1");
    assert_eq!(event.reason(), Some("ScaleUpPending"));
    assert!(event.is_warning());
    assert_eq!(event.count(), Some(3));
    assert_eq!(event.involved("kind"), Some("ComputePool"));
    assert_eq!(event.involved("name"), Some("gpu-a"));
    assert_eq!(event.involved("fieldPath"), None);
    assert_eq!(event.source("host"), Some("hub-1"));
    assert_eq!(event.reporting_component(), Some("computepool-controller"));
    assert_eq!(event.resource_version().as_deref(), Some("482913"));
    assert_eq!(
        event.uid().as_deref(),
        Some("0f6c1b9e-3a5d-4c2b-9e8f-7a6b5c4d3e2f")
    );
    assert_eq!(
        event.happened().map(|t| t.to_rfc3339()),
        Some("2026-11-30T12:00:00+00:00".to_owned())
    );
    // Only the rare parts are kept as written: nothing here.
    assert!(event.rest.is_none(), "{:?}", event.rest);
}

#[test]
fn texts_and_the_object_named_are_shared_between_events() {
    texts_are_shared(|value, name, shares| {
        let mut event = Event::read(value, name, "project-1");
        event.share(shares);
        event
    });
    texts_are_shared(|value, name, shares| Event::read_shared(value, name, "project-1", shares));
}

/// Events read by `shared` through one set of tables share what they say alike.
fn texts_are_shared(shared: fn(Value, &str, &mut super::EventTexts) -> Event) {
    let mut shares = super::EventTexts::default();
    let a = shared(from_a_server(), "a", &mut shares);
    let mut other = from_a_server();
    other["metadata"]["name"] = json!("b");
    other["lastTimestamp"] = json!("2026-11-30T12:05:00Z");
    let unshared = Event::read(other.clone(), "b", "project-1");
    let b = shared(other, "b", &mut shares);
    assert_eq!(unshared, b, "sharing changes no value");
    let (Some(ta), Some(tb)) = (&a.texts, &b.texts) else {
        panic!("both have texts");
    };
    assert!(Arc::ptr_eq(ta, tb), "the same texts are one copy");
    let mut said_otherwise = from_a_server();
    said_otherwise["message"] = json!("scaled up");
    let c = shared(said_otherwise, "c", &mut shares);
    let Some(tc) = &c.texts else {
        panic!("it has texts")
    };
    assert!(!Arc::ptr_eq(ta, tc));
    let (Some(ra), Some(rc)) = (&ta[REASON], &tc[REASON]) else {
        panic!("both have a reason");
    };
    assert!(Arc::ptr_eq(ra, rc), "a text is one copy across sets");
    let (Some(ia), Some(ib)) = (&a.involved, &b.involved) else {
        panic!("both name an object");
    };
    assert!(Arc::ptr_eq(ia, ib));
}

#[test]
fn what_is_not_written_as_a_server_writes_it_is_kept_as_written() {
    let odd = [
        // A time with an offset, with fractions, or not a time; eventTime in seconds.
        json!({"metadata": {"name": "e", "creationTimestamp": "2026-11-30T14:00:00+02:00"}}),
        json!({"metadata": {"name": "e"}, "lastTimestamp": "2026-11-30T12:00:00.5Z"}),
        json!({"metadata": {"name": "e"}, "firstTimestamp": "yesterday", "eventTime": "2026-11-30T12:00:00Z"}),
        json!({"eventTime": "2026-11-30T12:00:00.123456Z"}),
        // A uid in capitals, a version with a leading zero, a count as text or too large.
        json!({"metadata": {"name": "e", "uid": "0F6C1B9E-3A5D-4C2B-9E8F-7A6B5C4D3E2F", "resourceVersion": "007"}}),
        json!({"count": "3"}),
        json!({"count": 18446744073709551615u64}),
        json!({"count": 1.5}),
        json!({"count": 2147483648u64}),
        // A generation of zero, in fractions, as text, past a signed number; a version of 0.
        json!({"metadata": {"generation": 0, "resourceVersion": "0"}}),
        json!({"metadata": {"generation": 1.0}}),
        json!({"metadata": {"generation": "1"}}),
        json!({"metadata": {"generation": 18446744073709551615u64}}),
        // Fields of the wrong type, unknown fields, and parts of the known mappings.
        json!({"reason": 5, "message": null, "type": ["Warning"], "series": {"count": 2}}),
        json!({"involvedObject": "gpu-a", "source": null, "metadata": []}),
        json!({"involvedObject": {"kind": "ComputePool", "name": 7, "extra": true}}),
        json!({"source": {"component": "c", "host": {"name": "h"}, "other": 1}}),
        json!({"metadata": {"name": 5, "namespace": "n", "labels": {"a": "b"}, "annotations": {}}}),
        json!({"metadata": {}, "involvedObject": {}, "source": {}}),
        json!({}),
    ];
    for sent in odd {
        assert_eq!(round_trip(&sent), sent, "{sent}");
    }
    let event = Event::read(json!({"count": "3", "reason": 5}), "", "");
    assert_eq!(event.count(), None);
    assert_eq!(event.reason(), None);
}

#[test]
fn what_a_server_writes_is_held_without_a_map_kept_as_written() {
    // A map kept as written costs about 700 bytes an event: at 100,000 events a field a
    // server writes on each one (a generation) held 80 MB that way.
    let mut sent = from_a_server();
    sent["metadata"]["generation"] = json!(1);
    sent["count"] = json!(-1);
    let event = Event::read(sent.clone(), "gpu-a.18a3c2f1d0e9b8a7", "project-1");
    assert_eq!(event.rest, None);
    assert_eq!(event.to_value("gpu-a.18a3c2f1d0e9b8a7", "project-1"), sent);
    assert_eq!(event.count(), Some(-1));
    // Eight bytes a time and a count, the texts shared as one set.
    assert!(
        std::mem::size_of::<Event>() <= 112,
        "{}",
        std::mem::size_of::<Event>()
    );
}

#[test]
fn an_event_that_is_not_a_mapping_is_kept_whole() {
    for sent in [json!("text"), json!([1, 2]), json!(null), json!(4)] {
        assert_eq!(Event::read(sent.clone(), "", "").to_value("", ""), sent);
    }
}

/// Any JSON value of a few levels.
fn any_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1e9f64..1e9).prop_map(Value::from),
        "[a-zA-Z0-9:. -]{0,12}".prop_map(Value::from),
        any_time(),
    ];
    leaf.prop_recursive(2, 8, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::from),
            prop::collection::vec((any_field(), inner), 0..4)
                .prop_map(|fields| Value::Object(fields.into_iter().collect())),
        ]
    })
}

/// Times as servers write them and nearly so.
fn any_time() -> impl Strategy<Value = Value> {
    (0i64..4_000_000_000, 0u32..1_000_000, 0usize..4).prop_map(|(secs, micros, form)| {
        let at = DateTime::from_timestamp(secs, micros.saturating_mul(1000)).unwrap_or_default();
        Value::from(match form {
            0 => at.to_rfc3339_opts(SecondsFormat::Secs, true),
            1 => at.to_rfc3339_opts(SecondsFormat::Micros, true),
            2 => at.to_rfc3339_opts(SecondsFormat::Millis, true),
            _ => at.to_rfc3339(),
        })
    })
}

/// Field names an event has, and others.
fn any_field() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(
            TEXTS
                .iter()
                .chain(&INVOLVED)
                .chain(&SOURCE)
                .map(|f| (*f).to_owned())
                .chain(TIMES.iter().map(|(f, _)| (*f).to_owned()))
                .chain(
                    [
                        "count",
                        "generation",
                        "uid",
                        "resourceVersion",
                        "metadata",
                        "involvedObject",
                        "source",
                        "name",
                        "namespace"
                    ]
                    .map(str::to_owned)
                )
                .collect::<Vec<_>>()
        ),
        "[a-z]{0,6}",
    ]
}

fn any_event() -> impl Strategy<Value = Value> {
    let part = |fields: Vec<(String, Value)>| Value::Object(fields.into_iter().collect());
    (
        prop::collection::vec((any_field(), any_value()), 0..12),
        prop::collection::vec((any_field(), any_value()), 0..6),
        prop::collection::vec((any_field(), any_value()), 0..6),
    )
        .prop_map(move |(top, meta, involved)| {
            let mut event: Map<String, Value> = top.into_iter().collect();
            event.insert("metadata".into(), part(meta));
            event.insert("involvedObject".into(), part(involved));
            Value::Object(event)
        })
}

proptest! {
    #[test]
    fn every_event_comes_back_as_sent(sent in any_event()) {
        prop_assert_eq!(round_trip(&sent), sent);
    }

    #[test]
    fn what_reads_as_a_text_is_the_text_sent(sent in any_event()) {
        let event = Event::read(sent.clone(), "", "");
        for (field, read) in [
            ("reason", event.reason()),
            ("message", event.message()),
            ("type", event.event_type()),
            ("reportingComponent", event.reporting_component()),
        ] {
            prop_assert_eq!(read, sent.get(field).and_then(Value::as_str));
        }
        prop_assert_eq!(
            event.count(),
            sent.get("count")
                .and_then(Value::as_i64)
                .filter(|c| i32::try_from(*c).is_ok())
        );
        prop_assert_eq!(
            event.involved("name"),
            sent.pointer("/involvedObject/name").and_then(Value::as_str)
        );
    }
}
