//! Where a row stands: on its hub (named in a HUB cell across hubs) and, an event's, in time.

use crate::app::rows::{self, Row};
use crate::inventory::{Kind, Object};

/// A row as the lists show it: its hub set, and named in a HUB column first when rows of
/// several hubs are shown together.
pub(super) fn on_hub(mut row: Row, hub: usize, name: Option<&str>) -> Row {
    row.hub = hub;
    if let Some(name) = name {
        row.cells.insert(0, rows::Cell::Text(name.into()));
    }
    row
}

/// Where an object's rows stand in the natural order: events by when they happened.
pub(super) fn time_of(object: &Object) -> Option<chrono::DateTime<chrono::Utc>> {
    (object.kind == Kind::Event)
        .then(|| object.happened())
        .flatten()
}
