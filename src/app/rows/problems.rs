//! The fleet's problems (`:problems`): every finding of the doctor above info, of every pool,
//! worst first; a row is one finding, named by its pool and id.

use super::{Cell, Row, Source, Status, Table};
use crate::app::doctor::Doctor;

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
        headers: vec!["SEVERITY", "NAMESPACE", "POOL", "SYMPTOM", "FINDING"],
        rows,
    }
}
