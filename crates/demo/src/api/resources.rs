//! The routes of resources: a collection or an item found from the path and served by the
//! verb asked ([`super::verbs`]); and a collection listed.

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::rejection::{BytesRejection, PathRejection};
use axum::extract::{Extension, Path, State};
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::Response;
use chrono::Utc;
use serde_json::{Value, json};

use super::verbs::Call;
use super::{Filters, Server, User, body_error, error, not_found_error, query, respond};
use crate::registry::Resource;
use crate::store::ApiError;
use crate::table;

/// Where a request goes.
enum Target<'a> {
    Collection {
        resource: &'a Resource,
        namespace: Option<String>,
    },
    Item {
        resource: &'a Resource,
        namespace: String,
        name: String,
        status: bool,
    },
}

/// The resource a route's parameters name (core when no group), or 404.
fn resource<'s>(
    server: &'s Server,
    params: &HashMap<String, String>,
) -> Result<&'s Resource, ApiError> {
    let text = |name: &str| params.get(name).map_or("", String::as_str);
    server
        .store
        .registry
        .find(text("group"), text("version"), text("plural"))
        .ok_or_else(not_found_error)
}

/// The path's segments by name.
type Segments = HashMap<String, String>;

/// The route's parameters, or the 404 a path the API does not serve gets.
type Params = Result<Path<Segments>, PathRejection>;

/// A collection: `.../{plural}` or `.../namespaces/{namespace}/{plural}`.
pub(super) async fn collection(
    State(server): State<Arc<Server>>,
    Extension(user): Extension<User>,
    params: Params,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let body = match body {
        Ok(body) => body,
        Err(rejected) => return error(&body_error(&rejected)),
    };
    answer(&server, params, |resource, params| {
        let target = Target::Collection {
            resource,
            namespace: params.get("namespace").cloned(),
        };
        serve(&server, user, target, method, uri, headers, body)
    })
}

/// An item or its status: `.../{plural}/{name}[/status]`, in a namespace or not. The
/// namespace objects themselves are items of `namespaces`.
pub(super) async fn item(
    State(server): State<Arc<Server>>,
    Extension(user): Extension<User>,
    params: Params,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let body = match body {
        Ok(body) => body,
        Err(rejected) => return error(&body_error(&rejected)),
    };
    answer(&server, params, |resource, params| {
        let target = Target::Item {
            resource,
            namespace: params.get("namespace").cloned().unwrap_or_default(),
            name: params.get("name").cloned().unwrap_or_default(),
            status: uri.path().trim_end_matches('/').ends_with("/status"),
        };
        serve(&server, user, target, method, uri, headers, body)
    })
}

/// Finds the resource the route names and hands it to `then`, or answers 404.
fn answer(
    server: &Server,
    params: Params,
    then: impl FnOnce(&Resource, &HashMap<String, String>) -> Response,
) -> Response {
    let Ok(Path(params)) = params else {
        return error(&not_found_error());
    };
    match resource(server, &params) {
        Ok(resource) => then(resource, &params),
        Err(e) => error(&e),
    }
}

/// Serves one request on its target, by method.
fn serve(
    server: &Arc<Server>,
    user: User,
    target: Target<'_>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let params = query(&uri);
    let dry_run = params.get("dryRun").is_some_and(|v| v == "All");
    if method != Method::GET {
        // Dry runs too: read-only mode must send neither (tests read the count).
        server
            .writes
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }
    let call = Call {
        server,
        user,
        params,
        dry_run,
        headers,
        body,
    };
    match (method.as_str(), target) {
        (
            "GET",
            Target::Collection {
                resource,
                namespace,
            },
        ) => call.read_collection(resource, namespace),
        (
            "GET",
            Target::Item {
                resource,
                namespace,
                name,
                ..
            },
        ) => call.get(resource, namespace, name),
        (
            "POST",
            Target::Collection {
                resource,
                namespace,
            },
        ) => call.create(resource, namespace),
        (
            "PUT",
            Target::Item {
                resource,
                namespace,
                name,
                status,
            },
        ) => call.replace(resource, namespace, name, status),
        (
            "PATCH",
            Target::Item {
                resource,
                namespace,
                name,
                status,
            },
        ) => call.patch(resource, namespace, name, status),
        (
            "DELETE",
            Target::Item {
                resource,
                namespace,
                name,
                status: false,
            },
        ) => call.delete(resource, namespace, name),
        _ => error(&ApiError::new(
            405,
            "MethodNotAllowed",
            format!("the server does not allow this method on the requested resource ({method})"),
        )),
    }
}

/// A collection listed (as a Table when asked).
pub(super) fn list(
    server: &Server,
    resource: &Resource,
    namespace: Option<&str>,
    params: &HashMap<String, String>,
    as_table: bool,
) -> Response {
    let filters = match Filters::parse(resource, None, params) {
        Ok(f) => f,
        Err(e) => return error(&e),
    };
    let limit = params
        .get("limit")
        .and_then(|l| l.parse::<usize>().ok())
        .filter(|l| *l > 0);
    let namespace = namespace.filter(|_| resource.namespaced);
    let listing = match server.store.list(
        resource,
        namespace,
        &|o| filters.matches(o),
        limit,
        params.get("continue").map(String::as_str),
    ) {
        Ok(l) => l,
        Err(e) => return error(&e),
    };
    let carried = u64::try_from(listing.items.len()).unwrap_or(u64::MAX);
    (server.largest_list).fetch_max(carried, std::sync::atomic::Ordering::SeqCst);
    let rv = listing.resource_version.to_string();
    if as_table {
        let objects: Vec<&Value> = listing.items.iter().map(|o| o.as_ref()).collect();
        let mut table = table::table(resource, &objects, &rv, Utc::now(), true);
        if let Some(token) = &listing.continue_token {
            table["metadata"]["continue"] = json!(token);
        }
        return respond(200, &table);
    }
    let mut metadata = json!({"resourceVersion": rv});
    if let Some(token) = &listing.continue_token {
        metadata["continue"] = json!(token);
        metadata["remainingItemCount"] = json!(listing.remaining);
    }
    // Written by hand so 10,000 items are serialized once, not cloned into a Value first.
    let mut bytes = Vec::with_capacity(256 + listing.items.len() * 2048);
    bytes.extend_from_slice(br#"{"kind":""#);
    bytes.extend_from_slice(resource.list_kind.as_bytes());
    bytes.extend_from_slice(br#"","apiVersion":""#);
    bytes.extend_from_slice(resource.api_version().as_bytes());
    bytes.extend_from_slice(br#"","metadata":"#);
    let _ = serde_json::to_writer(&mut bytes, &metadata);
    bytes.extend_from_slice(br#","items":["#);
    for (i, item) in listing.items.iter().enumerate() {
        if i > 0 {
            bytes.push(b',');
        }
        let _ = serde_json::to_writer(&mut bytes, item.as_ref());
    }
    bytes.extend_from_slice(b"]}");
    let body = match server.pace {
        Some(pace) => pace.body(bytes, listing.items.len()),
        None => Body::from(bytes),
    };
    Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, "application/json")
        .body(body)
        .unwrap_or_default()
}
