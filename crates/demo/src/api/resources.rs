//! Reads and writes of resources: lists and watches of a collection, and get, create,
//! replace, patch and delete of an item, each checked against the user's permissions and
//! carried out by the store with the API server's rules.

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::rejection::{BytesRejection, PathRejection};
use axum::extract::{Extension, Path, State};
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::Response;
use chrono::Utc;
use serde_json::{Value, json};

use super::{
    Filters, Server, User, body_error, error, forbidden, not_found_error, parse_body, query, reply,
    respond, wants_table,
};
use crate::registry::Resource;
use crate::store::{ApiError, Patch, Preconditions};
use crate::table;
use crate::watch::watch;

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

/// The route's parameters, or the 404 a path the API does not serve gets.
type Params = Result<Path<HashMap<String, String>>, PathRejection>;

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

#[expect(clippy::too_many_lines, reason = "to be split: issue 48")]
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
    match (method.as_str(), target) {
        (
            "GET",
            Target::Collection {
                resource,
                namespace,
            },
        ) => {
            let watching = params.get("watch").is_some_and(|v| v == "true" || v == "1");
            let verb = if watching { "watch" } else { "list" };
            if !user.may(verb, &resource.plural, namespace.as_deref()) {
                return forbidden(user, verb, resource, None, namespace.as_deref());
            }
            if watching {
                watch(
                    server,
                    resource.clone(),
                    namespace,
                    &params,
                    wants_table(&headers),
                )
            } else {
                list(
                    server,
                    resource,
                    namespace.as_deref(),
                    &params,
                    wants_table(&headers),
                )
            }
        }
        (
            "GET",
            Target::Item {
                resource,
                namespace,
                name,
                ..
            },
        ) => {
            if !user.may("get", &resource.plural, Some(&namespace)) {
                return forbidden(user, "get", resource, Some(&name), Some(&namespace));
            }
            match server.store.get(resource, &namespace, &name) {
                Ok(object) if wants_table(&headers) => {
                    let rv = object
                        .pointer("/metadata/resourceVersion")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_owned();
                    respond(
                        200,
                        &table::table(resource, &[&object], &rv, Utc::now(), true),
                    )
                }
                Ok(object) => respond(200, &object),
                Err(e) => error(&e),
            }
        }
        (
            "POST",
            Target::Collection {
                resource,
                namespace,
            },
        ) => {
            if !user.may("create", &resource.plural, namespace.as_deref()) {
                return forbidden(user, "create", resource, None, namespace.as_deref());
            }
            let object = match parse_body(&headers, &body) {
                Ok(v) => v,
                Err(e) => return error(&e),
            };
            let namespace = namespace
                .or_else(|| {
                    object
                        .pointer("/metadata/namespace")
                        .and_then(Value::as_str)
                        .map(str::to_owned)
                })
                .unwrap_or_default();
            if let Err(refused) = super::admission::admit(&server.store, resource, None, &object) {
                return error(&refused);
            }
            let created = server.store.create(resource, &namespace, object, dry_run);
            if let Ok(created) = &created
                && !dry_run
            {
                let name = created
                    .pointer("/metadata/name")
                    .and_then(Value::as_str)
                    .unwrap_or("");
                server
                    .store
                    .changed_by_hand(&resource.kind, &namespace, name);
            }
            reply(201, created)
        }
        (
            "PUT",
            Target::Item {
                resource,
                namespace,
                name,
                status,
            },
        ) => {
            if !user.may("update", &resource.plural, Some(&namespace)) {
                return forbidden(user, "update", resource, Some(&name), Some(&namespace));
            }
            let object = match parse_body(&headers, &body) {
                Ok(v) => v,
                Err(e) => return error(&e),
            };
            if !status {
                // The object as it would be stored, checked against the stored one.
                let admitted = server
                    .store
                    .update(resource, &namespace, &name, object.clone(), false, true)
                    .and_then(|next| {
                        let current = server.store.get(resource, &namespace, &name)?;
                        super::admission::admit(&server.store, resource, Some(&current), &next)
                    });
                if let Err(refused) = admitted {
                    return error(&refused);
                }
            }
            let updated = server
                .store
                .update(resource, &namespace, &name, object, status, dry_run);
            by_hand(
                server,
                resource,
                &namespace,
                &name,
                updated.is_ok() && !dry_run,
            );
            reply(200, updated)
        }
        (
            "PATCH",
            Target::Item {
                resource,
                namespace,
                name,
                status,
            },
        ) => {
            if !user.may("patch", &resource.plural, Some(&namespace)) {
                return forbidden(user, "patch", resource, Some(&name), Some(&namespace));
            }
            let content_type = headers
                .get(header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            let body = match parse_body(&headers, &body) {
                Ok(v) => v,
                Err(e) => return error(&e),
            };
            let patch = if content_type.starts_with("application/json-patch+json") {
                Patch::Json(body)
            } else if content_type.starts_with("application/merge-patch+json")
                || content_type.starts_with("application/strategic-merge-patch+json")
                || content_type.starts_with("application/apply-patch")
            {
                Patch::Merge(body)
            } else {
                return error(&ApiError::new(
                    415,
                    "UnsupportedMediaType",
                    format!("the patch type {content_type:?} is not supported"),
                ));
            };
            if !status {
                let admitted = server
                    .store
                    .patch(resource, &namespace, &name, &patch, false, true)
                    .and_then(|next| {
                        let current = server.store.get(resource, &namespace, &name)?;
                        super::admission::admit(&server.store, resource, Some(&current), &next)
                    });
                if let Err(refused) = admitted {
                    return error(&refused);
                }
            }
            let before = server.store.get(resource, &namespace, &name).ok();
            let patched = server
                .store
                .patch(resource, &namespace, &name, &patch, status, dry_run);
            // Pausing or resuming is not a change the story must leave alone: the controller
            // skips a paused pool anyway, and one resumed is reconciled again.
            let only_paused = match (&before, &patched) {
                (Some(before), Ok(after)) => only_the_pause_label(before, after),
                _ => false,
            };
            by_hand(
                server,
                resource,
                &namespace,
                &name,
                patched.is_ok() && !dry_run && !only_paused,
            );
            reply(200, patched)
        }
        (
            "DELETE",
            Target::Item {
                resource,
                namespace,
                name,
                status: false,
            },
        ) => {
            if !user.may("delete", &resource.plural, Some(&namespace)) {
                return forbidden(user, "delete", resource, Some(&name), Some(&namespace));
            }
            let options = match parse_body(&headers, &body) {
                Ok(v) => v,
                Err(e) => return error(&e),
            };
            let text = |p: &str| {
                options
                    .pointer(p)
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            };
            let preconditions = Preconditions {
                uid: text("/preconditions/uid"),
                resource_version: text("/preconditions/resourceVersion"),
            };
            let dry_run = dry_run
                || options
                    .get("dryRun")
                    .and_then(Value::as_array)
                    .is_some_and(|d| d.iter().any(|v| v == "All"));
            let deleted = server
                .store
                .delete(resource, &namespace, &name, &preconditions, dry_run);
            by_hand(
                server,
                resource,
                &namespace,
                &name,
                deleted.is_ok() && !dry_run,
            );
            reply(200, deleted)
        }
        _ => error(&ApiError::new(
            405,
            "MethodNotAllowed",
            format!("the server does not allow this method on the requested resource ({method})"),
        )),
    }
}

/// Whether two versions of an object differ only in the pause label (and what the server
/// stamps on every write).
fn only_the_pause_label(before: &Value, after: &Value) -> bool {
    let plain = |object: &Value| {
        let mut object = object.clone();
        if let Some(metadata) = object.get_mut("metadata").and_then(Value::as_object_mut) {
            for stamped in ["resourceVersion", "generation", "managedFields"] {
                metadata.remove(stamped);
            }
            if let Some(labels) = metadata.get_mut("labels").and_then(Value::as_object_mut) {
                labels.remove(pooldeck_domain::model::pool::PAUSE_LABEL);
                if labels.is_empty() {
                    metadata.remove("labels");
                }
            }
        }
        object
    };
    plain(before) == plain(after)
}

/// Notes an object a client changed, when it was changed (not a dry run, not refused).
fn by_hand(
    server: &Server,
    resource: &crate::registry::Resource,
    namespace: &str,
    name: &str,
    changed: bool,
) {
    if changed {
        server
            .store
            .changed_by_hand(&resource.kind, namespace, name);
    }
}

fn list(
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
