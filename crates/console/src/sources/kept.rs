//! Which events the console holds: those about PaletteAI objects. A field selector cannot say
//! "this group, or none" (the API allows an event to leave its object's apiVersion out), so
//! the server leaves out the core group's events, where most events are, and these checks the
//! rest.

use serde_json::Value;

use crate::domain::model::event::{Event, about_palette};
use crate::inventory::{Kind, Object};

/// The field selector a source of this kind lists and watches with.
pub(crate) fn selector(kind: Kind) -> Option<&'static str> {
    (kind == Kind::Event).then_some("involvedObject.apiVersion!=v1")
}

/// Whether the console holds an object a source of `kind` read: any but an event about
/// something else than a PaletteAI object (one that cannot be read is kept, to be seen).
pub(super) fn keeps(kind: Kind, object: &Object) -> bool {
    kind != Kind::Event || object.event().is_none_or(Event::is_about_palette)
}

/// [`keeps`], of an object as the API wrote it (a deleted one).
pub(crate) fn keeps_value(kind: Kind, value: &Value) -> bool {
    let about = |field: &str| {
        value
            .pointer(&format!("/involvedObject/{field}"))
            .and_then(Value::as_str)
    };
    kind != Kind::Event || !value.is_object() || about_palette(about("apiVersion"), about("kind"))
}
