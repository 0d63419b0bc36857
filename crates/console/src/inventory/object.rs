//! One object as pooldeck holds it: read once into its model (pools, evaluations, events) or
//! kept raw (everything else), with the problems found reading it. Its creation time is read
//! from its metadata when asked (the rows that show it hold it).

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::domain::field::{Issue, Text};
use crate::domain::kind::Kind;
use crate::domain::model::{ComputePool, ComputePoolEvaluation, Event, read_owned};
use crate::domain::rules::{self, Context, Severity};

/// Namespace and name; the namespace is empty for cluster-scoped objects.
pub type Key = (Text, Text);

/// What the model made of an object. Pools, evaluations and events are kept only as their
/// model: the model writes back exactly what was read, so the raw JSON is rebuilt when asked
/// for ([`Object::value`]) instead of being held twice.
#[derive(Clone, Debug)]
pub enum Parsed {
    Pool(Box<ComputePool>),
    Evaluation(Box<ComputePoolEvaluation>),
    /// Events, a hub's most numerous objects: held compactly (their repeated texts shared),
    /// rebuilt exactly when asked for; inline, as a box would cost an allocation each.
    Event(Event),
    /// Kinds pooldeck reads from the raw object only.
    Other(Arc<Value>),
    /// The object is not a mapping; it is kept and shown with this error.
    Unreadable(Arc<Value>, String),
}

/// One object: as pooldeck read it, and the problems found reading it. Small on purpose:
/// every event of a hub is one of these behind an `Arc`.
#[derive(Clone, Debug)]
pub struct Object {
    pub kind: Kind,
    pub key: Key,
    /// Read only ([`Object::parsed`]): what is worked out from it once is kept with it.
    parsed: Parsed,
    /// Fields of the wrong type or unknown fields, found while reading: almost always none,
    /// so a pointer until there are some (a boxed slice would be two).
    #[allow(clippy::box_collection)]
    issues: Option<Box<Vec<Issue>>>,
    /// Whether a pool breaks an error-level rule by itself: see [`Object::breaks_a_rule_alone`].
    alone: Alone,
}

/// Whether a pool breaks an error-level rule of the reference by itself, once worked out:
/// not yet, no, yes. Two threads working it out at once find the same answer.
#[derive(Debug, Default)]
struct Alone(AtomicU8);

const NOT_YET: u8 = 0;
const KEEPS: u8 = 1;
const BREAKS: u8 = 2;

impl Clone for Alone {
    fn clone(&self) -> Self {
        Alone(AtomicU8::new(self.0.load(Ordering::Relaxed)))
    }
}

/// What objects share of their repeated values (a source shares what it reads): an event's
/// texts as it is read, a pool's hosts' hardware after.
#[derive(Clone, Debug, Default)]
pub struct Shares {
    events: crate::domain::model::event::EventTexts,
    hardware: crate::domain::shared::Table<crate::domain::model::status::HostHardware>,
}

impl Object {
    pub fn new(kind: Kind, raw: Value) -> Object {
        Object::read(kind, raw, None)
    }

    /// [`Object::new`], what repeats shared through `shares`: an event's texts as they are
    /// read (sharing them after would hold each twice for a while and leave the allocator's
    /// pages full of holes: `cargo bench --bench fleet -- events` peaked 10 MB higher).
    pub fn new_shared(kind: Kind, raw: Value, shares: &mut Shares) -> Object {
        let mut object = Object::read(kind, raw, Some(shares));
        if kind != Kind::Event {
            object.share(shares);
        }
        object
    }

    fn read(kind: Kind, mut raw: Value, shares: Option<&mut Shares>) -> Object {
        crate::domain::json::drop_managed_fields(&mut raw);
        let key = key_of(&raw);
        let (parsed, issues) = match kind {
            Kind::Pool if raw.is_object() => match read_owned::<ComputePool>(raw) {
                Ok((pool, issues)) => (Parsed::Pool(Box::new(pool)), issues),
                Err(e) => (
                    Parsed::Unreadable(Arc::new(Value::Null), e.to_string()),
                    Vec::new(),
                ),
            },
            Kind::Evaluation if raw.is_object() => match read_owned::<ComputePoolEvaluation>(raw) {
                Ok((evaluation, issues)) => (Parsed::Evaluation(Box::new(evaluation)), issues),
                Err(e) => (
                    Parsed::Unreadable(Arc::new(Value::Null), e.to_string()),
                    Vec::new(),
                ),
            },
            Kind::Event if raw.is_object() => {
                let event = match shares {
                    Some(shares) => Event::read_shared(raw, &key.1, &key.0, &mut shares.events),
                    None => Event::read(raw, &key.1, &key.0),
                };
                (Parsed::Event(event), Vec::new())
            }
            _ if raw.is_object() => (Parsed::Other(Arc::new(raw)), Vec::new()),
            _ => (
                Parsed::Unreadable(Arc::new(raw), "the object is not a mapping".into()),
                Vec::new(),
            ),
        };
        Object::held(kind, key, parsed, issues)
    }

    /// A pool read into its model already (straight from a watch event's or a list page's
    /// text): held as [`Object::new`] holds the same pool read from its value.
    pub fn from_pool(pool: ComputePool) -> Object {
        let key = key_of_meta(pool.meta());
        let issues = issues_of(&pool);
        Object::held(Kind::Pool, key, Parsed::Pool(Box::new(pool)), issues)
    }

    /// An evaluation read into its model already, as [`Object::from_pool`].
    pub fn from_evaluation(evaluation: ComputePoolEvaluation) -> Object {
        let key = key_of_meta(evaluation.metadata.get());
        let issues = issues_of(&evaluation);
        Object::held(
            Kind::Evaluation,
            key,
            Parsed::Evaluation(Box::new(evaluation)),
            issues,
        )
    }

    fn held(kind: Kind, key: Key, parsed: Parsed, issues: Vec<Issue>) -> Object {
        Object {
            kind,
            key,
            parsed,
            issues: (!issues.is_empty()).then(|| Box::new(issues)),
            alone: Alone::default(),
        }
    }

    /// Its repeated values (an event's texts, a pool's hosts' hardware) shared through
    /// `shares` with the other objects held there.
    pub fn share(&mut self, shares: &mut Shares) {
        match &mut self.parsed {
            Parsed::Event(event) => event.share(&mut shares.events),
            Parsed::Pool(pool) => {
                if let Some(status) = pool.status.get_mut() {
                    status.share(&mut shares.hardware);
                }
            }
            _ => {}
        }
    }

    /// What the model made of the object.
    pub fn parsed(&self) -> &Parsed {
        &self.parsed
    }

    /// Whether this is a pool that breaks an error-level rule of the reference by itself,
    /// without the fleet (the rules across pools are [`rules::across`]): worked out once per
    /// version of the pool, on the console's sources as they read it (the pools list marks
    /// every pool) or when first asked.
    pub fn breaks_a_rule_alone(&self) -> bool {
        match self.alone.0.load(Ordering::Relaxed) {
            KEEPS => false,
            BREAKS => true,
            _ => {
                let breaks = self.pool().is_some_and(|pool| {
                    rules::validate(pool, self.issues(), &Context::default())
                        .iter()
                        .any(|f| f.severity() == Severity::Error)
                });
                let answer = if breaks { BREAKS } else { KEEPS };
                self.alone.0.store(answer, Ordering::Relaxed);
                breaks
            }
        }
    }

    /// Whether the rules a pool breaks by itself are worked out already.
    pub fn alone_known(&self) -> bool {
        self.alone.0.load(Ordering::Relaxed) != NOT_YET
    }

    /// Fields of the wrong type or unknown fields, found while reading.
    pub fn issues(&self) -> &[Issue] {
        self.issues.as_deref().map_or(&[], Vec::as_slice)
    }

    /// `metadata.creationTimestamp` as written, without a copy (an event holds its times as
    /// numbers itself).
    fn creation_text(&self) -> Option<&str> {
        match &self.parsed {
            Parsed::Pool(pool) => pool.meta()?.creation_timestamp.as_deref(),
            Parsed::Evaluation(e) => e.metadata.get()?.creation_timestamp.as_deref(),
            Parsed::Event(_) => None,
            Parsed::Other(value) | Parsed::Unreadable(value, _) => {
                value.get("metadata")?.get("creationTimestamp")?.as_str()
            }
        }
    }

    /// A text field of the object's metadata, however it was read.
    fn metadata_text(&self, field: &str) -> Option<String> {
        match &self.parsed {
            Parsed::Pool(pool) => {
                let meta = pool.meta()?;
                match field {
                    "resourceVersion" => meta.resource_version.as_deref().map(str::to_owned),
                    "uid" => meta.uid.as_deref().map(str::to_owned),
                    _ => None,
                }
            }
            Parsed::Evaluation(e) => {
                let meta = e.metadata.get()?;
                match field {
                    "resourceVersion" => meta.resource_version.as_deref().map(str::to_owned),
                    "uid" => meta.uid.as_deref().map(str::to_owned),
                    _ => None,
                }
            }
            Parsed::Event(event) => match field {
                "resourceVersion" => event.resource_version(),
                "uid" => event.uid(),
                _ => None,
            },
            Parsed::Other(value) | Parsed::Unreadable(value, _) => value
                .get("metadata")?
                .get(field)?
                .as_str()
                .map(str::to_owned),
        }
    }

    /// `metadata.resourceVersion`: which version of the object this is.
    pub fn resource_version(&self) -> Option<String> {
        self.metadata_text("resourceVersion")
    }

    /// `metadata.uid`: which incarnation of the name this is.
    pub fn uid(&self) -> Option<String> {
        self.metadata_text("uid")
    }

    /// The object as the API sent it.
    pub fn value(&self) -> Arc<Value> {
        match &self.parsed {
            Parsed::Pool(pool) => Arc::new(serde_json::to_value(pool).unwrap_or(Value::Null)),
            Parsed::Evaluation(evaluation) => {
                Arc::new(serde_json::to_value(evaluation).unwrap_or(Value::Null))
            }
            Parsed::Event(event) => Arc::new(event.to_value(&self.key.1, &self.key.0)),
            Parsed::Other(value) | Parsed::Unreadable(value, _) => value.clone(),
        }
    }

    /// The raw object of a kind kept raw (projects, workloads, ...); `None` for pools, events and
    /// evaluations, which are read through their model.
    pub fn raw(&self) -> Option<&Value> {
        match &self.parsed {
            Parsed::Other(value) => Some(value),
            _ => None,
        }
    }

    /// The value of one of its labels, however the object was read (a label whose value is
    /// not text has none).
    pub fn label(&self, key: &str) -> Option<&str> {
        match &self.parsed {
            Parsed::Pool(pool) => pool.meta()?.label(key),
            Parsed::Evaluation(evaluation) => evaluation.metadata.get()?.label(key),
            Parsed::Event(event) => event.label(key),
            Parsed::Other(value) | Parsed::Unreadable(value, _) => {
                value.get("metadata")?.get("labels")?.get(key)?.as_str()
            }
        }
    }

    pub fn pool(&self) -> Option<&ComputePool> {
        match &self.parsed {
            Parsed::Pool(pool) => Some(pool),
            _ => None,
        }
    }

    pub fn event(&self) -> Option<&Event> {
        match &self.parsed {
            Parsed::Event(event) => Some(event),
            _ => None,
        }
    }

    pub fn evaluation(&self) -> Option<&ComputePoolEvaluation> {
        match &self.parsed {
            Parsed::Evaluation(evaluation) => Some(evaluation),
            _ => None,
        }
    }

    /// When the object was created, from its metadata (read when asked: only rows built
    /// and sorts by age ask, so no object holds it).
    pub fn created(&self) -> Option<DateTime<Utc>> {
        match self.event() {
            Some(event) => event.created(),
            None => parse_time(self.creation_text()?),
        }
    }

    /// When an event last happened (its lastTimestamp, eventTime or creation).
    pub fn happened(&self) -> Option<DateTime<Utc>> {
        self.event()?.happened()
    }

    /// Why the object could not be read, or what was wrong in it, in one line.
    pub fn problem(&self) -> Option<String> {
        match &self.parsed {
            Parsed::Unreadable(_, e) => Some(e.clone()),
            _ => self.issues().iter().find_map(|issue| match issue {
                Issue::WrongType { path, message } => Some(format!("{path}: {message}")),
                Issue::UnknownField { .. } => None,
            }),
        }
    }

    pub fn namespace(&self) -> &str {
        &self.key.0
    }

    pub fn name(&self) -> &str {
        &self.key.1
    }
}

/// An RFC 3339 time as the API writes it.
pub use crate::domain::time::parse as parse_time;

/// An object's key from its metadata read into its model, as [`key_of`] reads it from its
/// value: a namespace or name that is not text is "".
fn key_of_meta(meta: Option<&crate::domain::model::ObjectMeta>) -> Key {
    let text = |field: Option<&str>| -> crate::domain::field::Text { field.unwrap_or("").into() };
    (
        text(meta.and_then(|m| m.namespace.as_deref())),
        text(meta.and_then(|m| m.name.as_deref())),
    )
}

/// The problems found reading a model object, as [`read_owned`] lists them.
fn issues_of(object: &impl crate::domain::field::Lenient) -> Vec<Issue> {
    let mut issues = Vec::new();
    object.collect_issues(&crate::domain::path::At::Root, &mut issues);
    issues
}

pub fn key_of(object: &Value) -> Key {
    let text = |p: &str| {
        object
            .pointer(p)
            .and_then(Value::as_str)
            .unwrap_or("")
            .into()
    };
    (text("/metadata/namespace"), text("/metadata/name"))
}
