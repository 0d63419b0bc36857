//! `get --watch`: after the first picture, only the rows whose object or values changed (and
//! the ones gone, marked), in the first table's columns, as kubectl prints them.

use std::collections::HashMap;

use chrono::Utc;

use super::args::Output;
use super::print::{print_out, texts};
use crate::app::rows::Row;
use crate::ui::cells;

/// How a row changed, as a watch event says it (`--output-watch-events`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Change {
    Added,
    Modified,
    Deleted,
}

impl Change {
    fn word(self) -> &'static str {
        match self {
            Change::Added => "ADDED",
            Change::Modified => "MODIFIED",
            Change::Deleted => "DELETED",
        }
    }
}

/// The rows of `current` that are new or changed since `previous` (by object version and
/// values, not by the clock), then the rows that are gone; `previous` becomes `current`.
pub(super) fn changed_rows(
    previous: &mut HashMap<(crate::domain::ObjectRef, Option<String>), Row>,
    current: Vec<Row>,
    lines: bool,
) -> Vec<(Row, Change)> {
    let mut out = Vec::new();
    let mut next = HashMap::with_capacity(current.len());
    for row in current {
        let key = (row.id.clone(), row.part.clone());
        // A table prints a line when the line would read differently; the objects' formats
        // print each new version of the object once.
        match previous.get(&key) {
            None => out.push((row.clone(), Change::Added)),
            Some(before)
                if if lines {
                    row.shows_other_than(before)
                } else {
                    !row.object.same_version(&before.object)
                } =>
            {
                out.push((row.clone(), Change::Modified))
            }
            Some(_) => {}
        }
        next.insert(key, row);
    }
    let mut gone: Vec<Row> = previous
        .iter()
        .filter(|(key, _)| !next.contains_key(*key))
        .map(|(_, row)| row.clone())
        .collect();
    gone.sort_by(|a, b| (&a.id, &a.part).cmp(&(&b.id, &b.part)));
    out.extend(gone.into_iter().map(|row| (row, Change::Deleted)));
    *previous = next;
    out
}

/// Prints changed rows: a JSON or YAML document each (with `events`, wrapped in a watch
/// event saying how it changed, as kubectl's `--output-watch-events`), or table lines (a
/// removed row marked `(deleted)`).
/// Prints changed rows in the first picture's shape; `hub`: they are one hub's of several
/// (a HUB cell first in a table; `{"hub", "object"}` objects, with `type` for watch events).
pub(super) fn print_changes(
    resource: super::Resource,
    output: Option<&Output>,
    changed: &[(Row, Change)],
    namespace_shown: bool,
    widths: &[usize],
    events: bool,
    hub: Option<&str>,
) {
    let document = |row: &Row, change: Change| {
        let object = serde_json::to_value(&row.object).unwrap_or_default();
        match (hub, events) {
            (Some(hub), true) => {
                serde_json::json!({"hub": hub, "type": change.word(), "object": object})
            }
            (Some(hub), false) => serde_json::json!({"hub": hub, "object": object}),
            (None, true) => serde_json::json!({"type": change.word(), "object": object}),
            (None, false) => object,
        }
    };
    match output {
        Some(Output::Name) => changed.iter().for_each(|(r, _)| {
            print_out(&format!("{}\n", super::print::name_line(resource, r)));
        }),
        Some(Output::JsonPath(template)) => changed.iter().for_each(|(r, _)| {
            let value = match hub {
                Some(_) => document(r, Change::Modified),
                None => serde_json::to_value(&r.object).unwrap_or_default(),
            };
            match template.render(&value) {
                Ok(text) => print_out(&super::print::rendered(&text)),
                // One object the template cannot be applied to: said, the watch goes on.
                Err(e) => crate::say::complain!("pooldeck: {}: {e}", r.id),
            }
        }),
        Some(Output::Json) => changed.iter().for_each(|(r, change)| {
            print_out(&format!(
                "{}\n",
                crate::domain::inert::json(
                    &serde_json::to_string(&document(r, *change)).unwrap_or_default()
                )
            ))
        }),
        Some(Output::Yaml) => changed.iter().for_each(|(r, change)| {
            print_out(&format!(
                "---\n{}",
                crate::domain::inert::yaml(&document(r, *change)).unwrap_or_default()
            ))
        }),
        _ => {
            let rows: Vec<Row> = changed.iter().map(|(r, _)| r.clone()).collect();
            let mut lines = texts(&rows, Utc::now());
            for (line, (_, change)) in lines.iter_mut().zip(changed) {
                if !namespace_shown && !line.is_empty() {
                    line.remove(0);
                }
                if let Some(hub) = hub {
                    line.insert(0, crate::domain::inert::line(hub).into_owned());
                }
                if *change == Change::Deleted
                    && let Some(last) = line.last_mut()
                {
                    *last = format!("{last} (deleted)");
                }
            }
            print_out(&cells::plain_table(&[], &lines, Some(widths)));
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::app::rows;
    use crate::app::tests::fleet_app;
    use crate::inventory::{Kind, SourceEvent};

    /// Whether the pool named `name` is among the rows.
    fn has(changed: &[(Row, Change)], name: &str) -> bool {
        changed.iter().any(|(r, _)| r.id.name == name)
    }

    #[test]
    fn watch_prints_a_row_only_when_its_object_or_values_change() {
        // On the fleet demo an unchanged paused pool was printed again every few seconds:
        // its age and countdown cells changed with the clock.
        let mut app = fleet_app();
        let paused = app
            .fleet
            .inventory
            .objects(Kind::Pool)
            .find(|o| o.pool().is_some_and(|p| p.is_paused()))
            .map(|o| o.name().to_owned())
            .expect("the fleet has a paused pool");
        let mut previous = HashMap::new();
        let first = changed_rows(
            &mut previous,
            rows::pools(&app.fleet.inventory, None, false).rows,
            false,
        );
        assert_eq!(first.len(), 12, "the first picture is every row");
        // Time passes and another pool changes, many times over.
        let mut other = (*app
            .fleet
            .inventory
            .get(Kind::Pool, "vision-lab", "detector")
            .expect("pool")
            .value())
        .clone();
        for minute in 1..=20 {
            other["metadata"]["resourceVersion"] = json!(format!("v{minute}"));
            app.fleet.inventory.apply(
                SourceEvent::Applied {
                    kind: Kind::Pool,
                    object: other.clone(),
                },
                app.now + chrono::Duration::minutes(minute),
            );
            let changed = changed_rows(
                &mut previous,
                rows::pools(&app.fleet.inventory, None, false).rows,
                false,
            );
            assert!(has(&changed, "detector"), "the changed pool is printed");
            assert!(!has(&changed, &paused), "the unchanged paused pool is not");
            assert_eq!(changed.len(), 1);
        }
        // A deleted pool is printed once, marked.
        app.fleet.inventory.apply(
            SourceEvent::Deleted {
                kind: Kind::Pool,
                object: other,
            },
            app.now,
        );
        let changed = changed_rows(
            &mut previous,
            rows::pools(&app.fleet.inventory, None, false).rows,
            false,
        );
        assert_eq!(changed.len(), 1);
        assert_eq!(changed[0].1, Change::Deleted, "marked as gone");
        assert!(
            changed_rows(
                &mut previous,
                rows::pools(&app.fleet.inventory, None, false).rows,
                false
            )
            .is_empty()
        );
    }

    /// A table prints a line only when it would read differently: a new version of an
    /// object whose values are the same (its metrics timestamps moved) prints nothing, where
    /// `-o json` prints the new version once.
    #[test]
    fn a_table_line_is_printed_only_when_it_reads_differently() {
        let mut app = fleet_app();
        let mut lines = HashMap::new();
        let mut objects = HashMap::new();
        changed_rows(
            &mut lines,
            rows::pools(&app.fleet.inventory, None, false).rows,
            true,
        );
        changed_rows(
            &mut objects,
            rows::pools(&app.fleet.inventory, None, false).rows,
            false,
        );
        let mut pool = (*app
            .fleet
            .inventory
            .get(Kind::Pool, "vision-lab", "detector")
            .expect("pool")
            .value())
        .clone();
        pool["metadata"]["resourceVersion"] = json!("v-next");
        app.fleet.inventory.apply(
            SourceEvent::Applied {
                kind: Kind::Pool,
                object: pool.clone(),
            },
            app.now,
        );
        let current = || rows::pools(&app.fleet.inventory, None, false).rows;
        assert!(changed_rows(&mut lines, current(), true).is_empty());
        assert_eq!(changed_rows(&mut objects, current(), false).len(), 1);
        assert!(
            changed_rows(&mut objects, current(), false).is_empty(),
            "once"
        );
        // A value that shows changes: the line is printed.
        pool["status"]["status"] = json!("Failed");
        app.fleet.inventory.apply(
            SourceEvent::Applied {
                kind: Kind::Pool,
                object: pool,
            },
            app.now,
        );
        let current = rows::pools(&app.fleet.inventory, None, false).rows;
        let changed = changed_rows(&mut lines, current, true);
        assert_eq!(changed.len(), 1);
        assert!(has(&changed, "detector"));
        changed_rows(
            &mut objects,
            rows::pools(&app.fleet.inventory, None, false).rows,
            false,
        );
        // What the pool's row shows changes with its evaluation (GPU utilization), the pool
        // object itself does not: -o json prints nothing, a table prints the line.
        let mut evaluation = (*app
            .fleet
            .inventory
            .get(Kind::Evaluation, "ml-research", "llm-train")
            .expect("an evaluation")
            .value())
        .clone();
        evaluation["metadata"]["resourceVersion"] = json!("e-next");
        let entry = &mut evaluation["spec"]["poolEvaluations"];
        let key = entry
            .as_object()
            .and_then(|m| m.keys().next().cloned())
            .expect("a worker pool");
        for (_, gpu) in entry[&key]["gpu"].as_object_mut().expect("gpus").iter_mut() {
            gpu["utilization"] = json!(3);
        }
        app.fleet.inventory.apply(
            SourceEvent::Applied {
                kind: Kind::Evaluation,
                object: evaluation,
            },
            app.now,
        );
        let current = || rows::pools(&app.fleet.inventory, None, false).rows;
        assert!(
            changed_rows(&mut objects, current(), false).is_empty(),
            "the pool object did not change"
        );
        assert!(has(&changed_rows(&mut lines, current(), true), "llm-train"));
    }

    #[test]
    fn changed_rows_keep_the_first_tables_columns() {
        let app = fleet_app();
        let table = rows::pools(&app.fleet.inventory, None, false);
        let texts = texts(&table.rows, app.now);
        let headers = table.headers();
        let widths = cells::plain_widths(&headers, &texts);
        let first = cells::plain_table(&headers, &texts, Some(&widths));
        // One row printed alone under the same columns starts its cells where the table did.
        let alone = cells::plain_table(&[], &texts[3..4], Some(&widths));
        let line = first.lines().nth(4).expect("the fourth row");
        assert_eq!(alone.trim_end(), line);
    }
}
