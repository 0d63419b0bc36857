//! Rows as values: they sort by meaning (ages by time, GPUs by count), every object makes
//! its rows exactly once whatever it holds, and the clock never changes a row.

use chrono::{DateTime, Duration, TimeZone, Utc};
use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;
use crate::inventory::{Inventory, Kind, SourceEvent};

pub(crate) fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 30, 12, 0, 0)
        .single()
        .expect("a time")
}

pub(crate) fn pool(name: &str, created: DateTime<Utc>, gpus: &[(&str, i64, i64)]) -> Value {
    let capacity: Vec<Value> = gpus
        .iter()
        .map(|(v, _, c)| json!({"gpu": [{"variant": v, "gpuCount": c}]}))
        .collect();
    let allocation: Vec<Value> = gpus
        .iter()
        .map(|(v, u, _)| json!({"gpu": [{"variant": v, "gpuCount": u}]}))
        .collect();
    json!({
        "apiVersion": "spectrocloud.com/v1alpha1", "kind": "ComputePool",
        "metadata": {"name": name, "namespace": "ns", "resourceVersion": "1",
                     "creationTimestamp": created.to_rfc3339()},
        "spec": {},
        "status": {"status": "Running", "hardwareCapacity": capacity,
                   "hardwareAllocation": allocation},
    })
}

fn inventory(pools: Vec<Value>) -> Inventory {
    let mut inventory = Inventory::new();
    inventory.apply(SourceEvent::listed(Kind::Pool, None, pools), now());
    inventory
}

fn sorted_names(table: &mut Table, header: &str, descending: bool) -> Vec<String> {
    let column = table
        .columns
        .iter()
        .position(|c| c.header == header)
        .expect("the column");
    sort(&mut table.rows, column, descending);
    table.rows.iter().map(|r| r.id.name.to_string()).collect()
}

#[test]
fn sorting_by_age_compares_times_not_text() {
    // Sorted as text, 20m fell between 20d and 23d.
    let inventory = inventory(vec![
        pool("twenty-days", now() - Duration::days(20), &[]),
        pool("twenty-minutes", now() - Duration::minutes(20), &[]),
        pool("twenty-three-days", now() - Duration::days(23), &[]),
        pool("two-hours", now() - Duration::hours(2), &[]),
    ]);
    let mut table = pools(&inventory, None, false);
    assert_eq!(
        sorted_names(&mut table, "AGE", false),
        [
            "twenty-minutes",
            "two-hours",
            "twenty-days",
            "twenty-three-days"
        ]
    );
    assert_eq!(
        sorted_names(&mut table, "AGE", true),
        [
            "twenty-three-days",
            "twenty-days",
            "two-hours",
            "twenty-minutes"
        ]
    );
}

#[test]
fn sorting_by_gpus_compares_counts_not_model_numbers() {
    // Sorted on the first number in the text, "H100 PCIe 5/8" counted as 100.
    let inventory = inventory(vec![
        pool("h100", now(), &[("NVIDIA H100 PCIe | 80 GB", 5, 8)]),
        pool("a100", now(), &[("NVIDIA A100 | 40 GB", 1, 8)]),
        pool("l40s", now(), &[("NVIDIA L40S | 48 GB", 3, 4)]),
        pool("none", now(), &[]),
    ]);
    let mut table = pools(&inventory, None, false);
    assert_eq!(
        sorted_names(&mut table, "GPUS (USED/CAPACITY)", false),
        ["a100", "l40s", "h100", "none"],
        "fewest GPUs in use first, pools without GPUs last"
    );
}

#[test]
fn names_sort_naturally_and_statuses_worst_first() {
    assert_eq!(cell::natural("pool-2", "pool-10"), std::cmp::Ordering::Less);
    assert_eq!(cell::natural("Pool-a", "pool-B"), std::cmp::Ordering::Less);
    assert_eq!(cell::natural("a007", "a7"), std::cmp::Ordering::Less);
    let failed = Cell::Status(Status::Pool(
        crate::domain::model::vocabulary::PoolPhase::Failed,
    ));
    let running = Cell::Status(Status::Pool(
        crate::domain::model::vocabulary::PoolPhase::Running,
    ));
    assert_eq!(failed.compare(&running), std::cmp::Ordering::Less);
    assert_eq!(Cell::Empty.compare(&running), std::cmp::Ordering::Greater);
}

#[test]
fn a_row_does_not_change_with_the_clock() {
    let inventory = inventory(vec![pool("a", now() - Duration::minutes(3), &[])]);
    let before = pools(&inventory, None, false).rows;
    let mut later = inventory.clone();
    // An unrelated event a minute later changes nothing about the pool's row.
    later.apply(
        SourceEvent::listed(Kind::Project, None, vec![]),
        now() + Duration::minutes(1),
    );
    let after = pools(&later, None, false).rows;
    assert!(!after[0].changed_from(&before[0]));
    // A new version of the pool with the same values is a change of the object.
    let mut bumped = pool("a", now() - Duration::minutes(3), &[]);
    bumped["metadata"]["resourceVersion"] = json!("2");
    later.apply(
        SourceEvent::Applied {
            kind: Kind::Pool,
            object: bumped,
        },
        now(),
    );
    let changed = pools(&later, None, false).rows;
    assert!(changed[0].changed_from(&before[0]));
}

/// Any JSON at all, a few levels deep.
pub(crate) fn anything() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| json!(f)),
        "[a-zA-Z0-9 .:/|-]{0,12}".prop_map(Value::from),
        Just(json!("2026-11-30T11:00:00Z")),
        prop::sample::select(vec![
            "0001-01-01T00:00:00Z",
            "9999-12-31T23:59:59Z",
            "99999999999h",
            "15m",
            "Scaling",
            "Cooldown",
            "Aborting",
            "Provisioning",
        ])
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map("[a-zA-Z]{1,8}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

pub(crate) const PLACES: &[&str] = &[
    "/status",
    "/status/status",
    "/status/hardwareCapacity",
    "/status/hardwareCapacity/0/gpu",
    "/status/hardwareCapacity/0/gpu/0/gpuCount",
    "/status/hardwareAllocation",
    "/status/paletteClusterStatuses",
    "/status/paletteClusterStatuses/0/health",
    "/status/paletteClusterStatuses/0/allocatedMachinePools",
    "/metadata/creationTimestamp",
    "/metadata/labels",
    "/spec",
    "/spec/poolEvaluations",
    "/status/poolScalingStates",
    "/spec/cooldownDuration",
    "/spec/abortDuration",
    "/spec/poolEvaluations/cw",
    "/status/poolScalingStates/cw/state",
    "/status/poolScalingStates/cw/stateChangedAt",
    "/status/poolScalingStates/cw/scalingStartedAt",
];

/// Whether a planting place is in the evaluation rather than the pool.
pub(crate) fn for_evaluation(at: &str) -> bool {
    [
        "/spec/poolEvaluations",
        "/status/poolScalingStates",
        "/spec/cooldownDuration",
        "/spec/abortDuration",
    ]
    .iter()
    .any(|prefix| at.starts_with(prefix))
}

pub(crate) fn plant(mut object: Value, at: &str, value: Value) -> Value {
    let mut parts = at.trim_start_matches('/').split('/').peekable();
    let mut here = &mut object;
    while let Some(part) = parts.next() {
        let last = parts.peek().is_none();
        let next = match here {
            Value::Object(map) => {
                if last {
                    map.insert(part.to_owned(), value);
                    return object;
                }
                map.entry(part.to_owned()).or_insert(json!({}))
            }
            Value::Array(items) => {
                match part.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
                    Some(item) if !last => item,
                    Some(item) => {
                        *item = value;
                        return object;
                    }
                    None => return object,
                }
            }
            _ => return object,
        };
        here = next;
    }
    object
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Whatever pools and evaluations hold, each pool makes exactly one row of the pools list,
    /// rows keep their identity, and sorting any column keeps every row.
    #[test]
    fn every_pool_appears_exactly_once(
        plants in prop::collection::vec((0..6usize, prop::sample::select(PLACES), anything()), 0..12),
        column in 0..11usize,
        descending in any::<bool>(),
    ) {
        let mut pools_json: Vec<Value> = (0..6)
            .map(|i| pool(&format!("p{i}"), now() - Duration::minutes(i), &[("NVIDIA L40S | 48 GB", i, 8)]))
            .collect();
        let mut evaluations: Vec<Value> = (0..6)
            .map(|i| json!({
                "apiVersion": "spectrocloud.com/v1alpha1", "kind": "ComputePoolEvaluation",
                "metadata": {"name": format!("p{i}"), "namespace": "ns"},
                "spec": {"poolEvaluations": {"cw": {"gpu": {"L40S": {"utilization": 50, "count": 1, "target": 2}}}}},
                "status": {"poolScalingStates": {"cw": {"state": "Cooldown", "stateChangedAt": "2026-11-30T11:59:00Z"}}},
            }))
            .collect();
        for (i, at, value) in plants {
            if for_evaluation(at) {
                evaluations[i] = plant(evaluations[i].take(), at, value);
            } else {
                pools_json[i] = plant(pools_json[i].take(), at, value);
            }
        }
        let mut inventory = Inventory::new();
        inventory.apply(SourceEvent::listed(Kind::Pool, None, pools_json), now());
        inventory.apply(SourceEvent::listed(Kind::Evaluation, None, evaluations), now());
        let mut table = pools(&inventory, None, false);
        prop_assert_eq!(table.rows.len(), 6);
        sort(&mut table.rows, column, descending);
        let mut names: Vec<String> = table.rows.iter().map(|r| r.id.name.to_string()).collect();
        names.sort();
        prop_assert_eq!(names, (0..6).map(|i| format!("p{i}")).collect::<Vec<_>>());
        for row in &table.rows {
            prop_assert_eq!(row.cells.len(), table.columns.len());
        }
        // The other lists read the same objects without losing or doubling one.
        let evaluation_rows = super::evaluations(&inventory, None, false).rows;
        for row in &evaluation_rows {
            prop_assert!(row.part.is_some());
        }
        let hosts = hosts_table(&inventory, None, true);
        for row in &hosts.rows {
            prop_assert_eq!(row.cells.len(), hosts.columns.len());
        }
    }
}

/// A row without a value in the column sorted by comes last in either direction (it came
/// first when sorting descending).
#[test]
fn rows_without_a_value_sort_last_either_way() {
    let app = crate::app::tests::fleet_app();
    let mut table = super::pools(&app.fleet.inventory, None, false);
    let header = "GPU UTIL";
    let column = table
        .columns
        .iter()
        .position(|c| c.header == header)
        .expect("the column");
    let blank: Vec<String> = table
        .rows
        .iter()
        .filter(|r| r.cells.get(column).is_none_or(Cell::is_blank))
        .map(|r| r.id.name.to_string())
        .collect();
    assert!(
        !blank.is_empty(),
        "the fleet has pools without a utilization"
    );
    for descending in [false, true] {
        let names = sorted_names(&mut table, header, descending);
        let tail = &names[names.len() - blank.len()..];
        for name in &blank {
            assert!(tail.contains(name), "descending {descending}: {names:?}");
        }
    }
}
