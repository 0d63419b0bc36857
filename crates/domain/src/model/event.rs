//! A Kubernetes Event (core/v1) as pooldeck holds a hub's hundred thousand of them: the texts
//! that repeat across events (kinds, reasons, messages, components, the object an event is
//! about) shared, times and counts as numbers, and whatever else an event carries kept as
//! written, so [`Event::to_value`] gives back the object the API sent (its fields in the
//! order the API writes them).
//!
//! A field of an unexpected type is kept as written beside the rest and reads as absent: the
//! console shows what the event says and invents nothing.

use std::num::{NonZeroI64, NonZeroU64};
use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

use crate::shared::{self, Shared, Table, Texts};

mod fields;
mod packed;
mod read;

use fields::{
    API_VERSION, INVOLVED, KIND, MESSAGE, METADATA, ORDER, REASON, REPORTING_COMPONENT, SOURCE,
    TEXTS, TYPE,
};
use packed::{CREATED, EVENT_TIME, FIRST, LAST, Packed, TIMES, instant, stamp_value, uuid_text};

/// The tables events share their texts through ([`Event::share`]): a controller's events
/// repeat their kind, reason, message, component and the object they are about.
#[derive(Clone, Debug, Default)]
pub struct EventTexts {
    strings: Table<String>,
    own: Table<Texts<8>>,
    involved: Table<Texts<7>>,
    source: Table<Texts<2>>,
}

/// Metadata written as the API writes it and read back the same: whether name and namespace
/// were there (their values are the object's key), a canonical uid, a numeric version and
/// generation (zero for either is kept as written: the niche keeps each in eight bytes).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Meta {
    /// The event was not a mapping: it is kept whole (the only field kept, under "").
    whole: bool,
    present: bool,
    name: bool,
    namespace: bool,
    uid: Option<[u8; 16]>,
    resource_version: Option<NonZeroU64>,
    generation: Option<NonZeroI64>,
}

/// One event.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// Its own texts ([`TEXTS`]), when it has any.
    texts: Option<Arc<Texts<8>>>,
    involved: Option<Arc<Texts<7>>>,
    source: Option<Arc<Texts<2>>>,
    times: [Packed; 4],
    /// A count the API's int32 holds (any other is kept as written).
    count: Option<i32>,
    meta: Meta,
    /// Every other field, and the parts of metadata, involvedObject and source that are not
    /// kept above, as written.
    rest: Option<Box<Map<String, Value>>>,
}

impl Event {
    /// Its texts shared with the other events of `tables` that say the same.
    pub fn share(&mut self, tables: &mut EventTexts) {
        let strings = &mut tables.strings;
        if let Some(texts) = self.texts.take() {
            self.texts = Some(shared::texts(strings, &mut tables.own, texts));
        }
        if let Some(texts) = self.involved.take() {
            self.involved = Some(shared::texts(strings, &mut tables.involved, texts));
        }
        if let Some(texts) = self.source.take() {
            self.source = Some(shared::texts(strings, &mut tables.source, texts));
        }
    }

    fn kept(&self, field: &str) -> Option<&Value> {
        self.rest.as_ref()?.get(field)
    }

    /// The part of a known mapping kept as written.
    fn kept_map(&self, field: &str) -> Option<&Map<String, Value>> {
        self.kept(field)?.as_object()
    }

    /// The event as the API sent it, fields in the order the API writes them (those it
    /// does not know after).
    pub fn to_value(&self, name: &str, namespace: &str) -> Value {
        if self.meta.whole {
            return self.kept("").cloned().unwrap_or(Value::Null);
        }
        let text = |t: Option<&Shared>| t.map(|s| Value::String(s.to_string()));
        let texts = |fields: &[&str], texts: &[Option<Shared>], field: &str| {
            let i = fields.iter().position(|f| *f == field)?;
            text(texts.get(i)?.as_ref())
        };
        let meta = |field: &str| match field {
            "name" if self.meta.name => Some(Value::String(name.to_owned())),
            "namespace" if self.meta.namespace => Some(Value::String(namespace.to_owned())),
            "uid" => self.meta.uid.map(|uid| Value::String(uuid_text(uid))),
            "resourceVersion" => self
                .meta
                .resource_version
                .map(|v| Value::String(v.to_string())),
            "generation" => self.meta.generation.map(|g| Value::from(g.get())),
            "creationTimestamp" => stamp_value(self.times[CREATED].get(), TIMES[CREATED].1),
            _ => None,
        };
        let field = |field: &str| match field {
            "metadata" => self
                .meta
                .present
                .then(|| Value::Object(ordered(&METADATA, meta, self.kept_map("metadata")))),
            "involvedObject" => self.involved.as_ref().map(|involved| {
                let typed = |f: &str| texts(&INVOLVED, &involved[..], f);
                Value::Object(ordered(&INVOLVED, typed, self.kept_map("involvedObject")))
            }),
            "source" => self.source.as_ref().map(|source| {
                let typed = |f: &str| texts(&SOURCE, &source[..], f);
                Value::Object(ordered(&SOURCE, typed, self.kept_map("source")))
            }),
            "count" => self.count.map(Value::from),
            _ => match TIMES.iter().position(|(t, _)| *t == field) {
                Some(i) => stamp_value(self.times[i].get(), TIMES[i].1),
                None => texts(&TEXTS, self.texts.as_deref()?, field),
            },
        };
        Value::Object(ordered(&ORDER, field, self.rest.as_deref()))
    }

    fn text(&self, i: usize) -> Option<&str> {
        self.texts.as_ref()?[i].as_deref().map(String::as_str)
    }

    pub fn api_version(&self) -> Option<&str> {
        self.text(API_VERSION)
    }

    pub fn kind(&self) -> Option<&str> {
        self.text(KIND)
    }

    pub fn reason(&self) -> Option<&str> {
        self.text(REASON)
    }

    pub fn message(&self) -> Option<&str> {
        self.text(MESSAGE)
    }

    /// `Normal` or `Warning`, as written.
    pub fn event_type(&self) -> Option<&str> {
        self.text(TYPE)
    }

    pub fn is_warning(&self) -> bool {
        self.event_type() == Some("Warning")
    }

    pub fn reporting_component(&self) -> Option<&str> {
        self.text(REPORTING_COMPONENT)
    }

    /// How many times it happened, when the event says.
    pub fn count(&self) -> Option<i64> {
        self.count.map(i64::from)
    }

    /// A field of the object the event is about (`kind`, `namespace`, `name`, ...).
    pub fn involved(&self, field: &str) -> Option<&str> {
        let i = INVOLVED.iter().position(|f| *f == field)?;
        self.involved.as_ref()?[i].as_deref().map(String::as_str)
    }

    /// Whether it is about a PaletteAI object ([`about_palette`]).
    pub fn is_about_palette(&self) -> bool {
        about_palette(self.involved("apiVersion"), self.involved("kind"))
    }

    /// A field of the event's source (`component`, `host`).
    pub fn source(&self, field: &str) -> Option<&str> {
        let i = SOURCE.iter().position(|f| *f == field)?;
        self.source.as_ref()?[i].as_deref().map(String::as_str)
    }

    /// When it last happened: its lastTimestamp, else its eventTime, else its creation.
    pub fn happened(&self) -> Option<DateTime<Utc>> {
        [LAST, EVENT_TIME, CREATED]
            .into_iter()
            .find_map(|i| self.time(i))
    }

    /// When it first happened: its firstTimestamp, else its eventTime, else its creation.
    pub fn first(&self) -> Option<DateTime<Utc>> {
        [FIRST, EVENT_TIME, CREATED]
            .into_iter()
            .find_map(|i| self.time(i))
    }

    /// When the event was created (metadata's creationTimestamp).
    pub fn created(&self) -> Option<DateTime<Utc>> {
        self.time(CREATED)
    }

    /// A time field: as read, or parsed from the text kept when it was written otherwise (an
    /// offset, fractions).
    fn time(&self, i: usize) -> Option<DateTime<Utc>> {
        let (field, precision) = TIMES[i];
        instant(self.times[i].get(), precision).or_else(|| {
            let kept = if i == CREATED {
                self.kept("metadata")?.get(field)?
            } else {
                self.kept(field)?
            };
            crate::time::parse(kept.as_str()?)
        })
    }

    /// metadata.resourceVersion, when it is the number a server writes.
    pub fn resource_version(&self) -> Option<String> {
        if let Some(v) = self.meta.resource_version {
            return Some(v.to_string());
        }
        self.kept("metadata")?
            .get("resourceVersion")?
            .as_str()
            .map(str::to_owned)
    }

    /// metadata.uid.
    pub fn uid(&self) -> Option<String> {
        if let Some(uid) = self.meta.uid {
            return Some(uuid_text(uid));
        }
        self.kept("metadata")?
            .get("uid")?
            .as_str()
            .map(str::to_owned)
    }

    /// A label's value (labels are rare on events and kept as written).
    pub fn label(&self, key: &str) -> Option<&str> {
        self.kept("metadata")?.get("labels")?.get(key)?.as_str()
    }
}

/// A mapping written in `order`: each field as read (`typed`), else as kept; then the
/// fields kept that `order` does not name, as they came.
fn ordered(
    order: &[&str],
    typed: impl Fn(&str) -> Option<Value>,
    kept: Option<&Map<String, Value>>,
) -> Map<String, Value> {
    let mut out = Map::new();
    for field in order {
        if let Some(value) = typed(field).or_else(|| kept?.get(*field).cloned()) {
            out.insert((*field).to_owned(), value);
        }
    }
    for (field, value) in kept.into_iter().flatten() {
        if !out.contains_key(field) {
            out.insert(field.clone(), value.clone());
        }
    }
    out
}

/// Whether an event's involved object (its apiVersion and kind) is a PaletteAI object: of the
/// `spectrocloud.com` group or, its apiVersion left out (the API allows it), of a kind
/// pooldeck knows.
pub fn about_palette(api_version: Option<&str>, kind: Option<&str>) -> bool {
    match api_version {
        Some(version) if !version.is_empty() => version.starts_with("spectrocloud.com/"),
        _ => kind
            .and_then(crate::kind::Kind::from_kind)
            .is_some_and(|kind| kind != crate::kind::Kind::Event),
    }
}

#[cfg(test)]
mod tests;
