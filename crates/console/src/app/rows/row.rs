//! A list view's rows as values: the object a row is about, its cells, and what `-o
//! json|yaml` prints for it.

use std::sync::Arc;

use serde_json::Value;

use super::cell::Cell;
use super::column::Column;
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
    pub(super) fn new(
        id: ObjectRef,
        part: Option<String>,
        cells: Vec<Cell>,
        object: Source,
    ) -> Row {
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
            Source::Host { pool, index } => {
                super::hosts::host_value(pool, *index).serialize(serializer)
            }
            Source::Value(value) => value.serialize(serializer),
        }
    }
}

/// The row id of an inventory object.
pub(super) fn id_of(object: &Object) -> ObjectRef {
    ObjectRef::new(object.kind, object.namespace(), object.name())
}
