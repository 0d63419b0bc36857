//! The fleet's problems (`:problems`): every finding of the doctor above info, of every pool,
//! worst first; a row is one finding, named by its pool and id.

use super::cell::{Cell, Status};
use super::column;
use super::row::{Row, Source, Table};
use crate::app::doctor::Doctor;
use crate::app::view::{Rows, Tab, ViewSpec};

pub fn problems(doctor: &Doctor) -> Table {
    let rows = doctor
        .problems()
        .into_iter()
        .enumerate()
        .map(|(i, (pool, finding))| {
            Row::new(
                pool.clone(),
                Some(format!("{}#{i}", finding.id)),
                vec![
                    Cell::Status(Status::Finding(finding.severity)),
                    Cell::Text(pool.namespace.as_str().into()),
                    Cell::Text(pool.name.as_str().into()),
                    Cell::Text(finding.symptom.into()),
                    Cell::Text(finding.summary.as_str().into()),
                ],
                Source::Value(serde_json::to_value(finding).unwrap_or_default()),
            )
        })
        .collect();
    Table {
        columns: vec![
            column::SEVERITY,
            column::NAMESPACE,
            column::POOL,
            column::SYMPTOM,
            column::FINDING,
        ],
        rows,
    }
}

/// Every finding of the doctor, of every pool; Enter opens the pool on its Diagnose tab.
pub static VIEW: ViewSpec = ViewSpec {
    title: "Problems",
    aliases: super::names::PROBLEMS,
    source: crate::inventory::Kind::Pool,
    rows: Rows::Findings(problems),
    opens: Some(Tab::Diagnose),
    pools: false,
    logs: true,
    warnings: None,
    all_clear: Some("No problems: the doctor has nothing to report about the watched pools."),
};
