//! The rows of each list view as values: a row names its object ([`ObjectRef`], plus the
//! worker pool or host it is about) and holds typed [`Cell`]s: a phase from the vocabulary,
//! GPUs used/capacity, an instant for ages and countdowns, a percentage with its history.
//! Formatting happens only in `ui::cells` (the console) and `pooldeck get` (plain text);
//! sorting, colouring and diffing read the values. Rows do not depend on the clock: a tick
//! re-formats the visible time cells and rebuilds nothing.

mod cell;
pub mod column;
pub mod names;
mod status;
pub mod text;

/// The registry of list views: each name is a module of this directory holding its rows and
/// its `pub static VIEW: ViewSpec` ([`crate::app::view::ViewSpec`]); the order is the command
/// line's. A view is added by its file and its name here.
macro_rules! views {
    ($($(#[$attr:meta])* $name:ident),* $(,)?) => {
        $( $(#[$attr])* pub mod $name; )*
        /// Every list view, in the command line's order.
        pub static VIEWS: &[&crate::app::view::ViewSpec] = &[$( $(#[$attr])* &$name::VIEW, )*];
    };
}

views! {
    pools,
    evaluations,
    hosts,
    events,
    projects,
    problems,
    // A view that exists only for the test that adding a view is a file and this line.
    #[cfg(test)]
    sample,
}

use std::sync::Arc;

use serde_json::Value;

pub use self::cell::{
    Cell, Deadline, GpuUse, Load, Status, model_word as cell_model_word,
    scaling_word as cell_scaling_word,
};
pub use self::column::Column;
/// The samples of the pools list's utilization sparkline.
pub const SPARK_CELLS: usize = self::cell::SPARK_SAMPLES;
/// The bar after the GPU counts in the pools list, in cells.
pub const GPU_BAR_CELLS: usize = self::cell::GPU_BAR;
pub use self::evaluations::{evaluation_headers, evaluation_rows, evaluations};
pub use self::events::{event_headers, event_rows, events};
pub use self::hosts::{host_headers, hosts_table, pool_host_rows};
pub use self::pools::{pool_headers, pool_rows, pools};
pub use self::problems::problems;
pub use self::projects::projects;
use crate::domain::ObjectRef;
use crate::inventory::Object;

/// A table: columns, and rows with an identity (for the selection and `--watch`).
#[derive(Clone, Debug, Default)]
pub struct Table {
    pub columns: Vec<Column>,
    pub rows: Vec<Row>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The object the row is about (for hosts: their pool).
    pub id: ObjectRef,
    /// Which part of it, where one object makes several rows: the worker pool of an
    /// evaluation, `machine-pool/host` of a pool.
    pub part: Option<String>,
    pub cells: Vec<Cell>,
    /// The pool's spec breaks an error-level rule of the reference (the console marks it).
    pub broken: bool,
    /// The doctor's worst finding about the pool above info (the console marks it).
    pub worst: Option<crate::domain::rules::Severity>,
    /// What `-o json|yaml` prints for the row.
    pub object: Source,
    /// The hub the row's object is on: an index of the console's hubs (0 with one hub).
    pub hub: usize,
}

impl Table {
    /// The headers, as `pooldeck get` prints them.
    pub fn headers(&self) -> Vec<&'static str> {
        self.columns.iter().map(|c| c.header).collect()
    }

    /// Where a column is, if the table has it.
    pub fn position(&self, column: Column) -> Option<usize> {
        self.columns.iter().position(|c| *c == column)
    }
}

impl Row {
    fn new(id: ObjectRef, part: Option<String>, cells: Vec<Cell>, object: Source) -> Row {
        Row {
            id,
            part,
            cells,
            broken: false,
            worst: None,
            object,
            hub: 0,
        }
    }

    /// Whether the row is the same row as `other` (same object and part), whatever its values.
    pub fn same_row(&self, other: &Row) -> bool {
        self.hub == other.hub && self.id == other.id && self.part == other.part
    }

    /// Whether anything a reader of `get --watch` cares about changed: the object (by its
    /// resourceVersion) or a value of the row. The clock moving changes neither.
    pub fn changed_from(&self, before: &Row) -> bool {
        self.shows_other_than(before) || !self.object.same_version(&before.object)
    }

    /// Whether a table line of it reads differently: a value of the row changed (another
    /// version of its object with the same values prints the same line).
    pub fn shows_other_than(&self, before: &Row) -> bool {
        self.cells != before.cells
    }
}

/// The object behind a row: an inventory object (written out from its model when asked), or a
/// value made for the row (hosts).
#[derive(Clone, Debug)]
pub enum Source {
    Object(Arc<Object>),
    /// The `index`th host of a pool's status, written out as JSON when asked.
    Host {
        pool: Arc<Object>,
        index: usize,
    },
    Value(Value),
}

impl Source {
    /// A label of the object the row shows; a host's row answers with its pool's labels (a
    /// selector picks the pools whose hosts are listed).
    pub fn label(&self, key: &str) -> Option<&str> {
        match self {
            Source::Object(object) | Source::Host { pool: object, .. } => object.label(key),
            Source::Value(value) => value.get("metadata")?.get("labels")?.get(key)?.as_str(),
        }
    }

    /// Whether both name the same version of the object: the same resourceVersion when the
    /// server gave one, otherwise the same content.
    pub fn same_version(&self, other: &Source) -> bool {
        match (self, other) {
            (Source::Object(a), Source::Object(b)) => {
                Arc::ptr_eq(a, b)
                    || match (a.resource_version(), b.resource_version()) {
                        (Some(x), Some(y)) => x == y,
                        _ => a.value() == b.value(),
                    }
            }
            (Source::Host { pool: a, index: i }, Source::Host { pool: b, index: j }) => {
                i == j && Source::Object(a.clone()).same_version(&Source::Object(b.clone()))
            }
            (Source::Value(a), Source::Value(b)) => a == b,
            _ => false,
        }
    }
}

impl PartialEq for Source {
    fn eq(&self, other: &Self) -> bool {
        self.same_version(other)
    }
}

impl serde::Serialize for Source {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Source::Object(object) => match object.parsed() {
                crate::inventory::Parsed::Pool(pool) => pool.serialize(serializer),
                crate::inventory::Parsed::Evaluation(evaluation) => {
                    evaluation.serialize(serializer)
                }
                crate::inventory::Parsed::Event(_) => object.value().serialize(serializer),
                crate::inventory::Parsed::Other(value)
                | crate::inventory::Parsed::Unreadable(value, _) => value.serialize(serializer),
            },
            Source::Host { pool, index } => hosts::host_value(pool, *index).serialize(serializer),
            Source::Value(value) => value.serialize(serializer),
        }
    }
}

/// The row id of an inventory object.
fn id_of(object: &Object) -> ObjectRef {
    ObjectRef::new(object.kind, object.namespace(), object.name())
}

/// Orders rows by one column's values, `descending` reversing it; rows equal there keep
/// their order (the natural one: namespace, name).
pub fn sort(rows: &mut [Row], column: usize, descending: bool) {
    rows.sort_by(|a, b| compare_by(a, b, column, descending));
}

/// Orders positions into `rows` by one column's values, as [`sort`] orders the rows.
pub fn sort_positions(rows: &[Row], order: &mut [usize], column: usize, descending: bool) {
    order.sort_by(|a, b| match (rows.get(*a), rows.get(*b)) {
        (Some(x), Some(y)) => compare_by(x, y, column, descending),
        (x, y) => x.is_some().cmp(&y.is_some()),
    });
}

/// How two rows order by one column's values, `descending` reversing it; a row without a
/// value there (no cell, or a blank one) comes last either way.
pub fn compare_by(a: &Row, b: &Row, column: usize, descending: bool) -> std::cmp::Ordering {
    fn valued(row: &Row, column: usize) -> Option<&Cell> {
        row.cells.get(column).filter(|c| !c.is_blank())
    }
    compare_values(valued(a, column), valued(b, column), descending)
}

/// How two values of a column order (`None`: blank), `descending` reversing it; a blank
/// comes last either way.
pub fn compare_values(a: Option<&Cell>, b: Option<&Cell>, descending: bool) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    match (a, b) {
        (Some(x), Some(y)) => {
            let order = x.compare(y);
            if descending { order.reverse() } else { order }
        }
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

#[cfg(test)]
pub(crate) mod tests;
