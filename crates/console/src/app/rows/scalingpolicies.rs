//! The ScalingPolicies list: what the guide's scaling section reads of each (whether
//! Prometheus is available, the thresholds and durations per resource, the cooldown) and the
//! pools that use it.

use serde_json::Value;

use super::cell::Cell;
use super::column::{self, Column};
use super::pools::short;
use super::refs::{condition_cell, policy_of, text_at, users, users_cell};
use super::row::{Row, Source, Table, id_of};
use crate::app::view::{Rows, ViewSpec};
use crate::inventory::{Inventory, Kind};

const PROMETHEUS: Column = Column::new("PROMETHEUS", 1);
const CPU_RULE: Column = Column::new("CPU UP/DOWN", 3);
const GPU_RULE: Column = Column::new("GPU UP/DOWN", 2);
const COOLDOWN: Column = Column::new("COOLDOWN", 4);
const USED_BY: Column = Column::new("POOLS", 3);

/// `85%/20% 5m/10m`: the scale-up and scale-down thresholds, then their durations.
fn rule(rule: &Value) -> String {
    let at = |key: &str| match rule.get(key) {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Null) | None => "-".to_owned(),
        Some(other) => other.to_string(),
    };
    format!(
        "{}%/{}% {}/{}",
        at("scaleUpThreshold"),
        at("scaleDownThreshold"),
        at("scaleUpDuration"),
        at("scaleDownDuration")
    )
}

fn gpu_rules(spec: Option<&Value>) -> Cell {
    let Some(rules) = spec.and_then(|s| s.get("gpu")).and_then(Value::as_array) else {
        return Cell::Empty;
    };
    let words: Vec<String> = rules
        .iter()
        .map(|r| {
            let variant = r.get("variant").and_then(Value::as_str).unwrap_or("any");
            format!("{} {}", short(variant), rule(r))
        })
        .collect();
    Cell::text(words.join(", "))
}

pub fn scaling_policies(inventory: &Inventory, name: Option<&str>, _wide: bool) -> Table {
    let users = users(inventory, policy_of);
    let rows = inventory
        .objects(Kind::ScalingPolicy)
        .filter(|o| name.is_none_or(|n| o.name() == n))
        .filter_map(|policy| {
            let raw = policy.raw()?;
            let spec = raw.get("spec");
            let cells = vec![
                Cell::text(policy.namespace()),
                Cell::text(policy.name()),
                condition_cell(raw, "PrometheusAvailable"),
                spec.and_then(|s| s.get("cpu"))
                    .map_or(Cell::Empty, |r| Cell::text(rule(r))),
                gpu_rules(spec),
                text_at(raw, "/spec/cooldownDuration"),
                users_cell(&users, policy),
                Cell::Since(policy.created()),
            ];
            Some(Row::new(
                id_of(policy),
                None,
                cells,
                Source::Object(policy.clone()),
            ))
        })
        .collect();
    Table {
        columns: vec![
            column::NAMESPACE,
            column::NAME,
            PROMETHEUS,
            CPU_RULE,
            GPU_RULE,
            COOLDOWN,
            USED_BY,
            column::AGE,
        ],
        rows,
    }
}

/// Made whole: a pool's change can change which pools use a policy.
pub static VIEW: ViewSpec = ViewSpec {
    title: "ScalingPolicies",
    aliases: super::names::SCALING_POLICIES,
    source: Kind::ScalingPolicy,
    rows: Rows::Whole(scaling_policies),
    opens: None,
    pools: false,
    logs: false,
    warnings: None,
    all_clear: None,
};
