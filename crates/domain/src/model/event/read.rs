//! Reading an event from the object the API sent, its texts shared as they are read when a
//! source's tables are at hand.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::fields::{INVOLVED, SOURCE, TEXTS};
use super::packed::{CREATED, Packed, Precision, TIMES, count, generation, stamp, uuid, version};
use super::{Event, EventTexts, Meta};
use crate::shared::{self, Shared, Table, Texts};

impl Event {
    /// Reads an event from the object the API sent; `name` and `namespace` are its key, which
    /// the caller keeps (metadata's name and namespace are not held twice).
    pub fn read(value: Value, name: &str, namespace: &str) -> Event {
        Event::read_into(value, name, namespace, None)
    }

    /// [`Event::read`], its texts shared through `tables` as they are read: a text another
    /// event says already is never held twice, not even for a moment.
    pub fn read_shared(
        value: Value,
        name: &str,
        namespace: &str,
        tables: &mut EventTexts,
    ) -> Event {
        Event::read_into(value, name, namespace, Some(tables))
    }

    fn read_into(
        value: Value,
        name: &str,
        namespace: &str,
        mut tables: Option<&mut EventTexts>,
    ) -> Event {
        let mut event = Event {
            texts: None,
            involved: None,
            source: None,
            times: [Packed::ABSENT; 4],
            count: None,
            meta: Meta::default(),
            rest: None,
        };
        let Value::Object(fields) = value else {
            event.meta.whole = true;
            event.keep("", value);
            return event;
        };
        let mut texts: Texts<8> = Default::default();
        for (field, value) in fields {
            event.read_field(
                field,
                value,
                (name, namespace),
                &mut texts,
                tables.as_deref_mut(),
            );
        }
        if texts.iter().any(Option::is_some) {
            event.texts = Some(held_set(tables.map(|t| &mut t.own), texts));
        }
        event
    }

    fn read_field(
        &mut self,
        field: String,
        value: Value,
        (name, namespace): (&str, &str),
        texts: &mut Texts<8>,
        mut tables: Option<&mut EventTexts>,
    ) {
        if let Some(i) = TEXTS.iter().position(|t| *t == field)
            && let Value::String(text) = value
        {
            texts[i] = Some(held_text(tables.as_deref_mut(), text));
            return;
        }
        if let Some((i, (_, precision))) = TIMES
            .iter()
            .enumerate()
            .skip(1)
            .find(|(_, (t, _))| *t == field)
        {
            match stamp(&value, *precision).and_then(Packed::new) {
                Some(at) => self.times[i] = at,
                None => self.keep(&field, value),
            }
            return;
        }
        match (field.as_str(), value) {
            ("count", Value::Number(n)) if count(&n).is_some() => self.count = count(&n),
            ("involvedObject", Value::Object(fields)) => {
                let (texts, others) = texts_of(fields, &INVOLVED, tables.as_deref_mut());
                self.involved = Some(held_set(tables.map(|t| &mut t.involved), texts));
                if !others.is_empty() {
                    self.keep(&field, Value::Object(others));
                }
            }
            ("source", Value::Object(fields)) => {
                let (texts, others) = texts_of(fields, &SOURCE, tables.as_deref_mut());
                self.source = Some(held_set(tables.map(|t| &mut t.source), texts));
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
                        ("generation", Value::Number(n)) if generation(n).is_some() => {
                            self.meta.generation = generation(n);
                        }
                        ("creationTimestamp", _)
                            if stamp(&value, Precision::Seconds)
                                .and_then(Packed::new)
                                .is_some() =>
                        {
                            self.times[CREATED] = stamp(&value, Precision::Seconds)
                                .and_then(Packed::new)
                                .unwrap_or(Packed::ABSENT);
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
}

/// The known text fields of a mapping, and the rest of it.
fn texts_of<const N: usize>(
    fields: Map<String, Value>,
    known: &[&str; N],
    mut tables: Option<&mut EventTexts>,
) -> (Texts<N>, Map<String, Value>) {
    let mut texts: Texts<N> = std::array::from_fn(|_| None);
    let mut others = Map::new();
    for (key, value) in fields {
        match (known.iter().position(|k| *k == key), value) {
            (Some(i), Value::String(text)) => {
                texts[i] = Some(held_text(tables.as_deref_mut(), text));
            }
            (_, value) => {
                others.insert(key, value);
            }
        }
    }
    (texts, others)
}

/// A set of texts read, shared through `table` when there is one.
fn held_set<const N: usize>(table: Option<&mut Table<Texts<N>>>, texts: Texts<N>) -> Arc<Texts<N>> {
    match table {
        Some(table) => table.share_value(texts),
        None => Arc::new(texts),
    }
}

/// A text read, shared through `tables` when there are any.
fn held_text(tables: Option<&mut EventTexts>, text: String) -> Shared {
    match tables {
        Some(tables) => shared::text_of(&mut tables.strings, text),
        None => Arc::new(text),
    }
}
