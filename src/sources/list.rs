//! Lists read in pages (`limit`/`continue`) with the next page asked for while the caller
//! works on this one, so reading the server's answer and making sense of it overlap instead of
//! taking turns. Used by the console's sources and by `get -o json`.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use kube::Client;
use serde::Deserialize;
use serde_json::Value;
use tokio::task::JoinHandle;

use crate::domain::Kind;

/// The path of a kind's list, in a namespace or across all.
pub fn path(kind: Kind, namespace: Option<&str>) -> String {
    let api = kind.api();
    let base = if api.group.is_empty() {
        format!("/api/{}", api.version)
    } else {
        format!("/apis/{}/{}", api.group, api.version)
    };
    match namespace.filter(|_| api.namespaced) {
        Some(ns) => format!("{base}/namespaces/{ns}/{}", api.plural),
        None => format!("{base}/{}", api.plural),
    }
}

/// The `apiVersion` a kind's objects carry.
pub fn api_version(kind: Kind) -> String {
    let api = kind.api();
    if api.group.is_empty() {
        api.version.to_owned()
    } else {
        format!("{}/{}", api.group, api.version)
    }
}

/// One page of a list, as the server sent it.
pub struct Page<T> {
    /// The objects, each made into what the reader asked for from the object with its
    /// `apiVersion` and `kind` (which a list's items may leave out).
    pub items: Vec<T>,
    /// The version of the list this page belongs to: where a watch starts once the last
    /// page is read.
    pub resource_version: String,
    /// How many objects the server says follow this page, when it says.
    pub remaining: Option<u64>,
    /// Whether another page follows.
    pub more: bool,
    /// The next page, already asked for.
    next: Option<Pending<T>>,
    /// Its place among the pages read ahead, given back when it is handed out.
    permit: Option<tokio::sync::OwnedSemaphorePermit>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct ListMeta {
    #[serde(default)]
    resource_version: Option<String>,
    #[serde(default, rename = "continue")]
    continue_: Option<String>,
    #[serde(default)]
    remaining_item_count: Option<i64>,
}

/// What each item of a list is made into, as it is read.
pub type Convert<T> = fn(Kind, Value) -> T;

/// A list's items, each made into `T` as soon as it is read: one object's JSON at a time,
/// never a whole page of them (a page of JSON values is several times the page's text).
struct Items<T> {
    kind: Kind,
    convert: Convert<T>,
}

impl<'de, T> serde::de::DeserializeSeed<'de> for Items<T> {
    type Value = Vec<T>;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Vec<T>, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de, T> serde::de::Visitor<'de> for Items<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a list of objects")
    }

    fn visit_unit<E>(self) -> Result<Vec<T>, E> {
        Ok(Vec::new())
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let api_version = api_version(self.kind);
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element_seed(Without(MANAGED_FIELDS))? {
            items.push((self.convert)(
                self.kind,
                with_type(item, &api_version, self.kind.api().kind),
            ));
        }
        Ok(items)
    }
}

/// Where a server keeps `managedFields` in an object.
const MANAGED_FIELDS: &[&str] = &["metadata", "managedFields"];

/// A JSON value read without the field at a path of mapping keys: that field is skipped as
/// it is read, never built. Used for `metadata.managedFields`, which pooldeck never shows and
/// which is about half of each object a real hub sends (see `domain::json`).
struct Without(&'static [&'static str]);

impl<'de> serde::de::DeserializeSeed<'de> for Without {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Without {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut fields = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            match self.0 {
                [only] if key == *only => {
                    map.next_value::<serde::de::IgnoredAny>()?;
                }
                [first, rest @ ..] if key == *first => {
                    let value = map.next_value_seed(Without(rest))?;
                    fields.insert(key, value);
                }
                _ => {
                    let value = map.next_value::<Value>()?;
                    fields.insert(key, value);
                }
            }
        }
        Ok(Value::Object(fields))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element::<Value>()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::from(n))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::from(n))
    }

    fn visit_f64<E>(self, n: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::from(s))
    }

    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }
}

/// The list's items, made into `T`; everything else in the body skipped.
struct Body<T>(Items<T>);

impl<'de, T> serde::de::Visitor<'de> for Body<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a list")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Vec<T>, A::Error> {
        let mut items = Vec::new();
        let mut seed = Some(self.0);
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match (key.as_ref(), seed.take()) {
                ("items", Some(read)) => items = map.next_value_seed(read)?,
                (_, unused) => {
                    seed = unused;
                    map.next_value::<serde::de::IgnoredAny>()?;
                }
            }
        }
        Ok(items)
    }
}

/// The list's metadata alone: read first, skipping the items, so the next page is asked for
/// before this one is parsed (the metadata may come after the items, as a real server writes
/// a custom resource's list).
#[derive(Deserialize)]
struct Head {
    #[serde(default)]
    metadata: ListMeta,
}

/// What every page of one list is asked with.
struct Ask<T> {
    client: Client,
    kind: Kind,
    convert: Convert<T>,
    base: String,
    /// Query parameters every page carries (a field selector), already encoded.
    query: String,
    /// Objects asked for per page after the first.
    limit: usize,
    /// Pages asked for or read but not yet handed out: at most [`AHEAD`], so a reader slower
    /// than the server (a pipe, a slow terminal) holds two pages, not the whole list.
    ahead: Arc<tokio::sync::Semaphore>,
}

/// How many pages may be on their way or waiting while the reader works on one.
const AHEAD: usize = 2;

/// A page on its way; dropped, it is no longer asked for (nor are the pages after it).
struct Pending<T>(JoinHandle<Result<Page<T>, kube::Error>>);

impl<T> Drop for Pending<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Reads a list page by page; the page after the one handed out is already on its way.
pub struct Pager<T> {
    next: Option<Pending<T>>,
}

impl<T: Send + 'static> Pager<T> {
    /// Starts reading `kind` in `namespace` (all when `None`); the first page asks for
    /// `first` objects (a small page shows something soon), the rest for `limit` each; each
    /// object is made into `T` by `convert` as it is read.
    pub fn start(
        client: Client,
        kind: Kind,
        convert: Convert<T>,
        namespace: Option<&str>,
        field_selector: Option<&str>,
        first: usize,
        limit: usize,
    ) -> Self {
        let query = field_selector
            .map(|selector| {
                let mut q = String::from("&fieldSelector=");
                q.extend(form_urlencoded::byte_serialize(selector.as_bytes()));
                q
            })
            .unwrap_or_default();
        let ask = Arc::new(Ask {
            client,
            kind,
            convert,
            base: path(kind, namespace),
            query,
            limit,
            ahead: Arc::new(tokio::sync::Semaphore::new(AHEAD)),
        });
        Pager {
            next: Some(ask_for(ask, first, None)),
        }
    }

    /// The next page; `None` after the last. An error ends the list (the caller starts over).
    pub async fn next(&mut self) -> Option<Result<Page<T>, kube::Error>> {
        let mut pending = self.next.take()?;
        let answer = match (&mut pending.0).await {
            Ok(answer) => answer,
            Err(e) => Err(kube::Error::Service(Box::new(e))),
        };
        Some(answer.map(|mut page| {
            self.next = page.next.take();
            // Handed out: the page after the next may be asked for.
            page.permit = None;
            page
        }))
    }
}

/// Starts asking for one page.
fn ask_for<T: Send + 'static>(ask: Arc<Ask<T>>, limit: usize, token: Option<String>) -> Pending<T> {
    let mut url = format!("{}?limit={limit}{}", ask.base, ask.query);
    if let Some(token) = &token {
        url.push_str("&continue=");
        url.extend(form_urlencoded::byte_serialize(token.as_bytes()));
    }
    let future: Pin<Box<dyn Future<Output = Result<Page<T>, kube::Error>> + Send>> =
        Box::pin(fetch(ask, url));
    Pending(tokio::spawn(future))
}

/// One page, read and parsed on a worker; the page after it is asked for as soon as this
/// one's metadata is read, so the server prepares it while this one is parsed.
async fn fetch<T: Send + 'static>(ask: Arc<Ask<T>>, url: String) -> Result<Page<T>, kube::Error> {
    let request = axum::http::Request::get(&url)
        .body(Vec::new())
        .map_err(kube::Error::HttpError)?;
    let permit = ask
        .ahead
        .clone()
        .acquire_owned()
        .await
        .map_err(|e| kube::Error::Service(Box::new(e)))?;
    let text = ask.client.request_text(request).await?;
    let head: Head = serde_json::from_str(&text).map_err(kube::Error::SerdeError)?;
    let token = head.metadata.continue_.filter(|t| !t.is_empty());
    let more = token.is_some();
    let next = token.map(|token| ask_for(ask.clone(), ask.limit, Some(token)));
    let read = Items {
        kind: ask.kind,
        convert: ask.convert,
    };
    // The parse is a stretch of CPU on this worker: let the request for the next page go out
    // first (parsing on the blocking pool instead spread the model over short-lived threads'
    // memory and held more of it).
    tokio::task::yield_now().await;
    let items = parse_items(&text, read)?;
    Ok(Page {
        items,
        resource_version: head.metadata.resource_version.unwrap_or_default(),
        remaining: head
            .metadata
            .remaining_item_count
            .and_then(|n| u64::try_from(n).ok()),
        more,
        next,
        permit: Some(permit),
    })
}

/// A page's items, each with its type, made into `T`.
fn parse_items<T>(text: &str, read: Items<T>) -> Result<Vec<T>, kube::Error> {
    use serde::Deserializer;
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let items = (&mut deserializer)
        .deserialize_map(Body(read))
        .map_err(kube::Error::SerdeError)?;
    deserializer.end().map_err(kube::Error::SerdeError)?;
    Ok(items)
}

/// The item with `apiVersion` and `kind` first, as the server writes a single object; the
/// rest moved over as it was read.
fn with_type(item: Value, api_version: &str, kind: &str) -> Value {
    match item {
        Value::Object(fields) => {
            let mut map = serde_json::Map::with_capacity(fields.len() + 2);
            map.insert("apiVersion".into(), Value::from(api_version));
            map.insert("kind".into(), Value::from(kind));
            for (key, value) in fields {
                // The item's own type, where it says one, replaces the list's.
                map.insert(key, value);
            }
            Value::Object(map)
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_get_their_type_first_and_keep_the_rest_in_order() {
        let item = serde_json::json!({"metadata": {"name": "a"}, "spec": {"x": 1}, "kind": "Own"});
        let typed = with_type(item, "spectrocloud.com/v1alpha1", "ComputePool");
        let keys: Vec<&String> = typed.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["apiVersion", "kind", "metadata", "spec"]);
        assert_eq!(typed["kind"], "Own");
        assert_eq!(typed["apiVersion"], "spectrocloud.com/v1alpha1");
    }

    #[test]
    fn a_list_body_reads_its_version_token_and_count() {
        // As a real server writes a custom resource's list: the metadata after the items.
        let text = r#"{"apiVersion":"v1","items":[{"metadata":{"continue":"no"}}],"kind":"List","metadata":{"resourceVersion":"7","continue":"t","remainingItemCount":3}}"#;
        let head: Head = serde_json::from_str(text).unwrap();
        assert_eq!(head.metadata.resource_version.as_deref(), Some("7"));
        assert_eq!(head.metadata.continue_.as_deref(), Some("t"));
        assert_eq!(head.metadata.remaining_item_count, Some(3));
        let keep = |_: Kind, item: Value| item;
        let read = |text: &str| {
            parse_items(
                text,
                Items {
                    kind: Kind::Pool,
                    convert: keep,
                },
            )
        };
        let items = read(text).unwrap();
        assert_eq!(items.len(), 1);
        assert_eq!(items[0]["kind"], "ComputePool", "each item gets its type");
        assert!(read(r#"{"metadata":{},"items":null}"#).unwrap().is_empty());
        assert!(read(r#"{"metadata":{}}"#).unwrap().is_empty());
        let wrong = read(r#"{"items":{"a":1}}"#).unwrap_err().to_string();
        assert!(wrong.contains("a list of objects"), "{wrong}");
        assert!(read(r#"{"items":[]} trailing"#).is_err());
    }

    #[test]
    fn items_are_read_without_their_managed_fields_and_nothing_else_is_lost() {
        let text = r#"{"items":[
            {"metadata":{"name":"a","managedFields":[{"manager":"m","fieldsV1":{"f:spec":{}}}],"labels":{"x":"1"}},
             "spec":{"managedFields":"kept: not metadata","n":-3,"f":1.5,"big":18446744073709551615,"t":true,"z":null,"l":[1,"two",{"managedFields":1}]}},
            {"metadata":"not a mapping"},
            5, "text", null, [1]
        ]}"#;
        let items = parse_items(
            text,
            Items {
                kind: Kind::Pool,
                convert: |_, item| item,
            },
        )
        .unwrap();
        let plain: Value = serde_json::from_str(text).unwrap();
        let mut expected: Vec<Value> = plain["items"].as_array().unwrap().clone();
        expected[0]["metadata"]
            .as_object_mut()
            .unwrap()
            .shift_remove("managedFields");
        let expected: Vec<Value> = expected
            .into_iter()
            .map(|item| with_type(item, &api_version(Kind::Pool), "ComputePool"))
            .collect();
        assert_eq!(items, expected);
        assert!(items[0]["metadata"].get("managedFields").is_none());
        let keys: Vec<&String> = items[0]["metadata"].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["name", "labels"], "order kept");
    }
}
