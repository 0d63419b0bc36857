//! Lists read in pages (`limit`/`continue`) with the next page asked for while the caller
//! works on this one, so reading the server's answer and making sense of it overlap instead of
//! taking turns. Used by the console's sources and by `get -o json`.

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
#[derive(Debug)]
pub struct Page {
    /// The objects, each with its `apiVersion` and `kind` (which a list's items may leave out).
    pub items: Vec<Value>,
    /// The version of the list this page belongs to: where a watch starts once the last
    /// page is read.
    pub resource_version: String,
    /// How many objects the server says follow this page, when it says.
    pub remaining: Option<u64>,
    /// Whether another page follows.
    pub more: bool,
    /// Where the next page starts.
    token: Option<String>,
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

#[derive(Deserialize)]
struct ListBody {
    #[serde(default)]
    metadata: ListMeta,
    #[serde(default)]
    items: Option<Vec<Value>>,
}

/// Reads a list page by page; the page after the one handed out is already on its way.
pub struct Pager {
    client: Client,
    kind: Kind,
    base: String,
    /// Query parameters every page carries (a field selector), already encoded.
    query: String,
    /// Objects asked for per page after the first.
    limit: usize,
    next: Option<JoinHandle<Result<Page, kube::Error>>>,
}

impl Pager {
    /// Starts reading `kind` in `namespace` (all when `None`); the first page asks for
    /// `first` objects (a small page shows something soon), the rest for `limit` each.
    pub fn start(
        client: Client,
        kind: Kind,
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
        let mut pager = Pager {
            client,
            kind,
            base: path(kind, namespace),
            query,
            limit,
            next: None,
        };
        pager.ask(first, None);
        pager
    }

    fn ask(&mut self, limit: usize, token: Option<&str>) {
        let mut url = format!("{}?limit={limit}{}", self.base, self.query);
        if let Some(token) = token {
            url.push_str("&continue=");
            url.extend(form_urlencoded::byte_serialize(token.as_bytes()));
        }
        self.next = Some(tokio::spawn(fetch(self.client.clone(), self.kind, url)));
    }

    /// The next page; `None` after the last. An error ends the list (the caller starts over).
    pub async fn next(&mut self) -> Option<Result<Page, kube::Error>> {
        let pending = self.next.take()?;
        let answer = match pending.await {
            Ok(answer) => answer,
            Err(e) => Err(kube::Error::Service(Box::new(e))),
        };
        Some(answer.map(|mut page| {
            if let Some(token) = page.token.take() {
                self.ask(self.limit, Some(&token));
            }
            page
        }))
    }
}

impl Drop for Pager {
    fn drop(&mut self) {
        if let Some(pending) = self.next.take() {
            pending.abort();
        }
    }
}

/// One page, read and parsed (on a worker, while the caller handles the page before).
async fn fetch(client: Client, kind: Kind, url: String) -> Result<Page, kube::Error> {
    let request = axum::http::Request::get(&url)
        .body(Vec::new())
        .map_err(kube::Error::HttpError)?;
    let text = client.request_text(request).await?;
    let body: ListBody = serde_json::from_str(&text).map_err(kube::Error::SerdeError)?;
    drop(text);
    let api_version = api_version(kind);
    let items = body
        .items
        .unwrap_or_default()
        .into_iter()
        .map(|item| with_type(item, &api_version, kind.api().kind))
        .collect();
    let token = body.metadata.continue_.filter(|t| !t.is_empty());
    let page = Page {
        items,
        resource_version: body.metadata.resource_version.unwrap_or_default(),
        remaining: body
            .metadata
            .remaining_item_count
            .and_then(|n| u64::try_from(n).ok()),
        more: token.is_some(),
        token,
    };
    Ok(page)
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
        let body: ListBody = serde_json::from_str(
            r#"{"kind":"List","metadata":{"resourceVersion":"7","continue":"t","remainingItemCount":3},"items":[{}]}"#,
        )
        .unwrap();
        assert_eq!(body.metadata.resource_version.as_deref(), Some("7"));
        assert_eq!(body.metadata.continue_.as_deref(), Some("t"));
        assert_eq!(body.metadata.remaining_item_count, Some(3));
        assert_eq!(body.items.map(|i| i.len()), Some(1));
        let empty: ListBody = serde_json::from_str(r#"{"metadata":{},"items":null}"#).unwrap();
        assert!(empty.items.is_none());
    }
}
