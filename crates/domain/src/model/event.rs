//! A Kubernetes Event (core/v1) as pooldeck holds a hub's hundred thousand of them: the texts
//! that repeat across events (kinds, reasons, messages, components, the object an event is
//! about) shared, times and counts as numbers, and whatever else an event carries kept as
//! written, so [`Event::to_value`] gives back the object the API sent (fields in the API's
//! order).
//!
//! A field of an unexpected type is kept as written beside the rest and reads as absent: the
//! console shows what the event says and invents nothing.

use std::sync::{Arc, LazyLock};

use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{Map, Value};

use crate::shared::{self, Shared, Table};

/// An event's own texts, in the order [`Event::to_value`] writes them.
const TEXTS: [&str; 8] = [
    "apiVersion",
    "kind",
    "reason",
    "message",
    "type",
    "action",
    "reportingComponent",
    "reportingInstance",
];
const API_VERSION: usize = 0;
const KIND: usize = 1;
const REASON: usize = 2;
const MESSAGE: usize = 3;
const TYPE: usize = 4;
const REPORTING_COMPONENT: usize = 6;

/// The fields of the object an event is about.
const INVOLVED: [&str; 7] = [
    "apiVersion",
    "kind",
    "namespace",
    "name",
    "uid",
    "resourceVersion",
    "fieldPath",
];
/// The fields of an event's source.
const SOURCE: [&str; 2] = ["component", "host"];

/// The object an event is about, or its source: shared between the events that name it.
type Texts<const N: usize> = [Option<Shared>; N];

static INVOLVED_TABLE: LazyLock<Table<Texts<7>>> = LazyLock::new(Table::new);
static SOURCE_TABLE: LazyLock<Table<Texts<2>>> = LazyLock::new(Table::new);

/// A time as an event writes it: seconds (`Time`) or microseconds (`MicroTime`) since the
/// epoch, or written as `null`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stamp {
    Absent,
    Null,
    At(i64),
}

/// How a time field is written: `Time` in whole seconds, `MicroTime` with six decimals.
#[derive(Clone, Copy)]
enum Precision {
    Seconds,
    Micros,
}

/// The times, in the order [`Event::to_value`] writes them (creation is metadata's).
const CREATED: usize = 0;
const FIRST: usize = 1;
const LAST: usize = 2;
const EVENT_TIME: usize = 3;
const TIMES: [(&str, Precision); 4] = [
    ("creationTimestamp", Precision::Seconds),
    ("firstTimestamp", Precision::Seconds),
    ("lastTimestamp", Precision::Seconds),
    ("eventTime", Precision::Micros),
];

/// Metadata written as the API writes it and read back the same: whether name and namespace
/// were there (their values are the object's key), a canonical uid and a numeric version.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Meta {
    /// The event was not a mapping: it is kept whole (the only field kept, under "").
    whole: bool,
    present: bool,
    name: bool,
    namespace: bool,
    uid: Option<[u8; 16]>,
    resource_version: Option<u64>,
}

/// One event.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    texts: Texts<8>,
    involved: Option<Arc<Texts<7>>>,
    source: Option<Arc<Texts<2>>>,
    times: [Stamp; 4],
    count: Option<i64>,
    meta: Meta,
    /// Every other field, and the parts of metadata, involvedObject and source that are not
    /// kept above, as written.
    rest: Option<Box<Map<String, Value>>>,
}

impl Event {
    /// Reads an event from the object the API sent; `name` and `namespace` are its key, which
    /// the caller keeps (metadata's name and namespace are not held twice).
    pub fn read(value: Value, name: &str, namespace: &str) -> Event {
        let mut event = Event {
            texts: Default::default(),
            involved: None,
            source: None,
            times: [Stamp::Absent; 4],
            count: None,
            meta: Meta::default(),
            rest: None,
        };
        let Value::Object(fields) = value else {
            event.meta.whole = true;
            event.keep("", value);
            return event;
        };
        for (field, value) in fields {
            event.read_field(field, value, name, namespace);
        }
        event
    }

    fn read_field(&mut self, field: String, value: Value, name: &str, namespace: &str) {
        if let Some(i) = TEXTS.iter().position(|t| *t == field)
            && let Value::String(text) = value
        {
            self.texts[i] = Some(shared::text(text));
            return;
        }
        if let Some((i, (_, precision))) = TIMES
            .iter()
            .enumerate()
            .skip(1)
            .find(|(_, (t, _))| *t == field)
        {
            match stamp(&value, *precision) {
                Some(at) => self.times[i] = at,
                None => self.keep(&field, value),
            }
            return;
        }
        match (field.as_str(), value) {
            ("count", Value::Number(n)) if n.as_i64().is_some() => self.count = n.as_i64(),
            ("involvedObject", Value::Object(fields)) => {
                let (texts, others) = texts_of(fields, &INVOLVED);
                self.involved = Some(INVOLVED_TABLE.share(texts));
                if !others.is_empty() {
                    self.keep(&field, Value::Object(others));
                }
            }
            ("source", Value::Object(fields)) => {
                let (texts, others) = texts_of(fields, &SOURCE);
                self.source = Some(SOURCE_TABLE.share(texts));
                if !others.is_empty() {
                    self.keep(&field, Value::Object(others));
                }
            }
            ("metadata", Value::Object(fields)) => {
                self.meta.present = true;
                let mut others = Map::new();
                for (key, value) in fields {
                    match (key.as_str(), &value) {
                        ("name", Value::String(s)) if s == name => self.meta.name = true,
                        ("namespace", Value::String(s)) if s == namespace => {
                            self.meta.namespace = true;
                        }
                        ("uid", Value::String(s)) if uuid(s).is_some() => self.meta.uid = uuid(s),
                        ("resourceVersion", Value::String(s)) if version(s).is_some() => {
                            self.meta.resource_version = version(s);
                        }
                        ("creationTimestamp", _) if stamp(&value, Precision::Seconds).is_some() => {
                            self.times[CREATED] =
                                stamp(&value, Precision::Seconds).unwrap_or(Stamp::Absent);
                        }
                        _ => {
                            others.insert(key, value);
                        }
                    }
                }
                if !others.is_empty() {
                    self.keep(&field, Value::Object(others));
                }
            }
            (_, value) => self.keep(&field, value),
        }
    }

    /// Keeps a field as written.
    fn keep(&mut self, field: &str, value: Value) {
        self.rest
            .get_or_insert_with(Default::default)
            .insert(field.to_owned(), value);
    }

    fn kept(&self, field: &str) -> Option<&Value> {
        self.rest.as_ref()?.get(field)
    }

    /// The event as the API sent it.
    pub fn to_value(&self, name: &str, namespace: &str) -> Value {
        if self.meta.whole {
            return self.kept("").cloned().unwrap_or(Value::Null);
        }
        let mut out = Map::new();
        let text = |t: &Option<Shared>| t.as_ref().map(|s| Value::String(s.to_string()));
        for (i, field) in TEXTS.iter().enumerate().take(2) {
            if let Some(v) = text(&self.texts[i]) {
                out.insert((*field).to_owned(), v);
            }
        }
        if self.meta.present {
            let mut meta = Map::new();
            if self.meta.name {
                meta.insert("name".into(), Value::String(name.to_owned()));
            }
            if self.meta.namespace {
                meta.insert("namespace".into(), Value::String(namespace.to_owned()));
            }
            if let Some(uid) = self.meta.uid {
                meta.insert("uid".into(), Value::String(uuid_text(uid)));
            }
            if let Some(version) = self.meta.resource_version {
                meta.insert("resourceVersion".into(), Value::String(version.to_string()));
            }
            if let Some(at) = stamp_value(self.times[CREATED], TIMES[CREATED].1) {
                meta.insert("creationTimestamp".into(), at);
            }
            merge(&mut meta, self.kept("metadata"));
            out.insert("metadata".into(), Value::Object(meta));
        }
        let sub = |fields: &[&str], texts: &[Option<Shared>], kept: Option<&Value>| {
            let mut map = Map::new();
            for (field, t) in fields.iter().zip(texts) {
                if let Some(v) = text(t) {
                    map.insert((*field).to_owned(), v);
                }
            }
            merge(&mut map, kept);
            Value::Object(map)
        };
        if let Some(involved) = &self.involved {
            out.insert(
                "involvedObject".into(),
                sub(&INVOLVED, &involved[..], self.kept("involvedObject")),
            );
        }
        for i in [REASON, MESSAGE] {
            if let Some(v) = text(&self.texts[i]) {
                out.insert(TEXTS[i].to_owned(), v);
            }
        }
        if let Some(source) = &self.source {
            out.insert(
                "source".into(),
                sub(&SOURCE, &source[..], self.kept("source")),
            );
        }
        for i in [FIRST, LAST] {
            if let Some(v) = stamp_value(self.times[i], TIMES[i].1) {
                out.insert(TIMES[i].0.to_owned(), v);
            }
        }
        if let Some(count) = self.count {
            out.insert("count".into(), Value::from(count));
        }
        if let Some(v) = text(&self.texts[TYPE]) {
            out.insert("type".into(), v);
        }
        if let Some(v) = stamp_value(self.times[EVENT_TIME], TIMES[EVENT_TIME].1) {
            out.insert("eventTime".into(), v);
        }
        for (i, field) in TEXTS.iter().enumerate().skip(TYPE + 1) {
            if let Some(v) = text(&self.texts[i]) {
                out.insert((*field).to_owned(), v);
            }
        }
        for (field, value) in self.rest.iter().flat_map(|r| r.iter()) {
            if !out.contains_key(field) {
                out.insert(field.clone(), value.clone());
            }
        }
        Value::Object(out)
    }

    fn text(&self, i: usize) -> Option<&str> {
        self.texts[i].as_deref().map(String::as_str)
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
        self.count
    }

    /// A field of the object the event is about (`kind`, `namespace`, `name`, ...).
    pub fn involved(&self, field: &str) -> Option<&str> {
        let i = INVOLVED.iter().position(|f| *f == field)?;
        self.involved.as_ref()?[i].as_deref().map(String::as_str)
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

    /// When the event was created (metadata's creationTimestamp).
    pub fn created(&self) -> Option<DateTime<Utc>> {
        self.time(CREATED)
    }

    /// A time field: as read, or parsed from the text kept when it was written otherwise (an
    /// offset, fractions).
    fn time(&self, i: usize) -> Option<DateTime<Utc>> {
        let (field, precision) = TIMES[i];
        instant(self.times[i], precision).or_else(|| {
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

/// The known text fields of a mapping, and the rest of it.
fn texts_of<const N: usize>(
    fields: Map<String, Value>,
    known: &[&str; N],
) -> (Texts<N>, Map<String, Value>) {
    let mut texts: Texts<N> = std::array::from_fn(|_| None);
    let mut others = Map::new();
    for (key, value) in fields {
        match (known.iter().position(|k| *k == key), value) {
            (Some(i), Value::String(text)) => texts[i] = Some(shared::text(text)),
            (_, value) => {
                others.insert(key, value);
            }
        }
    }
    (texts, others)
}

fn merge(into: &mut Map<String, Value>, kept: Option<&Value>) {
    for (key, value) in kept.and_then(Value::as_object).into_iter().flatten() {
        into.insert(key.clone(), value.clone());
    }
}

/// A time read only when writing it back gives the same text.
fn stamp(value: &Value, precision: Precision) -> Option<Stamp> {
    let text = match value {
        Value::Null => return Some(Stamp::Null),
        Value::String(text) => text,
        _ => return None,
    };
    let at = crate::time::parse(text)?;
    let stamp = match precision {
        Precision::Seconds => Stamp::At(at.timestamp()),
        Precision::Micros => Stamp::At(at.timestamp_micros()),
    };
    (stamp_value(stamp, precision).as_ref() == Some(value)).then_some(stamp)
}

fn instant(stamp: Stamp, precision: Precision) -> Option<DateTime<Utc>> {
    let Stamp::At(n) = stamp else { return None };
    match precision {
        Precision::Seconds => DateTime::from_timestamp(n, 0),
        Precision::Micros => DateTime::from_timestamp_micros(n),
    }
}

fn stamp_value(stamp: Stamp, precision: Precision) -> Option<Value> {
    match stamp {
        Stamp::Absent => None,
        Stamp::Null => Some(Value::Null),
        Stamp::At(_) => {
            let format = match precision {
                Precision::Seconds => SecondsFormat::Secs,
                Precision::Micros => SecondsFormat::Micros,
            };
            instant(stamp, precision).map(|at| Value::String(at.to_rfc3339_opts(format, true)))
        }
    }
}

/// A uid as servers write it (lower-case hexadecimal, 8-4-4-4-12), as 16 bytes.
fn uuid(text: &str) -> Option<[u8; 16]> {
    let bytes = text.as_bytes();
    let dashes = [8, 13, 18, 23];
    let well_formed = bytes.len() == 36
        && bytes.iter().enumerate().all(|(i, b)| {
            if dashes.contains(&i) {
                *b == b'-'
            } else {
                b.is_ascii_digit() || (b'a'..=b'f').contains(b)
            }
        });
    if !well_formed {
        return None;
    }
    let digits: String = text.chars().filter(|c| *c != '-').collect();
    u128::from_str_radix(&digits, 16)
        .ok()
        .map(u128::to_be_bytes)
}

fn uuid_text(uid: [u8; 16]) -> String {
    let digits = format!("{:032x}", u128::from_be_bytes(uid));
    format!(
        "{}-{}-{}-{}-{}",
        &digits[..8],
        &digits[8..12],
        &digits[12..16],
        &digits[16..20],
        &digits[20..]
    )
}

/// A resourceVersion that is a number written without leading zeros.
fn version(text: &str) -> Option<u64> {
    let n: u64 = text.parse().ok()?;
    (n.to_string() == text).then_some(n)
}

#[cfg(test)]
mod tests;
