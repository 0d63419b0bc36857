//! The evaluations list: one row per worker pool of each ComputePoolEvaluation.

use crate::domain::model::evaluation::{Decision, split_pool_key};
use std::sync::Arc;

use crate::inventory::{Inventory, Kind, Object, parse_time};

use super::cell::{Cell, Load};
use super::column::{self, Column};
use super::pools::{scaling_state, short};
use super::row::{Row, Source, Table, id_of};
use crate::app::view::{Rows, Tab, ViewSpec};

fn decision_words(decision: Decision, unit: &str) -> Option<String> {
    match decision {
        Decision::ScaleUp(n) => Some(format!("scale up +{n} {unit}")),
        Decision::ScaleDown(n) => Some(format!("scale down -{n} {unit}")),
        Decision::Hold | Decision::Unknown => None,
    }
}

pub fn evaluations(inventory: &Inventory, name: Option<&str>, wide: bool) -> Table {
    let rows = inventory
        .objects(Kind::Evaluation)
        .filter(|o| name.is_none_or(|n| o.name() == n))
        .flat_map(|object| evaluation_rows(inventory, object, wide))
        .collect();
    Table {
        columns: evaluation_headers(wide),
        rows,
    }
}

pub fn evaluation_headers(wide: bool) -> Vec<Column> {
    let mut headers = vec![
        column::NAMESPACE,
        column::NAME,
        column::WORKER_POOL,
        column::CPU,
        column::GPU,
        column::DECISION,
        column::STATE,
        column::AGE,
    ];
    if wide {
        headers.extend([column::EVALUATED, column::DETAILS]);
    }
    headers
}

/// The rows of one evaluation: one per worker pool it evaluates.
pub fn evaluation_rows(_inventory: &Inventory, object: &Arc<Object>, wide: bool) -> Vec<Row> {
    let mut rows = Vec::new();
    {
        let Some(evaluation) = object.evaluation() else {
            return rows;
        };
        for (key, entry) in evaluation
            .spec
            .get()
            .and_then(|s| s.pool_evaluations.get())
            .into_iter()
            .flatten()
        {
            let Some(entry) = entry.get() else { continue };
            let cpu = entry.cpu.get();
            let load =
                |variant: Option<String>,
                 r: &crate::domain::model::evaluation::ResourceEvaluation| Load {
                    variant,
                    utilization: r.utilization.get().map_or(0.0, |u| u.value()),
                    count: r.count.or_default(),
                    target: r.target.or_default(),
                };
            let cpu_cell = cpu.map_or(Cell::Empty, |c| Cell::Loads(vec![load(None, c)]));
            let mut gpus = Vec::new();
            let mut decision = cpu.and_then(|c| decision_words(c.decision(), "CPUs"));
            for (variant, gpu) in entry.gpu.get().into_iter().flatten() {
                let Some(gpu) = gpu.get() else { continue };
                gpus.push(load(Some(short(variant)), gpu));
                if let Some(words) = decision_words(gpu.decision(), "GPUs") {
                    decision = Some(words);
                }
            }
            let (_, worker_pool) = split_pool_key(key);
            let mut cells = vec![
                Cell::text(object.namespace()),
                Cell::text(object.name()),
                Cell::text(worker_pool),
                cpu_cell,
                if gpus.is_empty() {
                    Cell::Empty
                } else {
                    Cell::Loads(gpus)
                },
                Cell::text(decision.unwrap_or_else(|| "hold".into())),
                scaling_state(evaluation, key),
                Cell::Since(object.created()),
            ];
            if wide {
                cells.push(Cell::Since(
                    entry.evaluated_at.as_deref().and_then(parse_time),
                ));
                let details = evaluation
                    .status
                    .get()
                    .and_then(|s| s.pool_scaling_states.get())
                    .and_then(|m| m.get(key))
                    .and_then(|s| s.get())
                    .and_then(|s| s.details.as_deref())
                    .unwrap_or("");
                cells.push(Cell::text(details));
            }
            rows.push(Row::new(
                id_of(object),
                Some(key.to_string()),
                cells,
                Source::Object(object.clone()),
            ));
        }
    }
    rows
}

/// The evaluations list: one row per worker pool of each evaluation; Enter opens the pool on
/// its Scaling tab.
pub static VIEW: ViewSpec = ViewSpec {
    title: "Evaluations",
    aliases: super::names::EVALUATIONS,
    source: Kind::Evaluation,
    rows: Rows::PerObject {
        owner: Kind::Evaluation,
        touched_by: &[Kind::Evaluation],
        columns: evaluation_headers,
        rows: evaluation_rows,
        table: evaluations,
    },
    opens: Some(Tab::Scaling),
    pools: false,
    logs: false,
    warnings: None,
    all_clear: None,
};
