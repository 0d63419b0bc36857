//! The HTTP face of the demo cluster: routing Kubernetes API paths to the store, bearer-token
//! authentication (an admin and a read-only viewer), access reviews, Table responses, and
//! watch streams with bookmarks, timeouts and 410 Gone.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::Response;
use chrono::Utc;
use serde_json::{Value, json};

use super::registry::Resource;
use super::selector::{FieldSelector, LabelSelector};
use super::store::{ApiError, Patch, Preconditions, Store};
use super::table;
use super::watch::watch;

/// Who a bearer token belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum User {
    Admin,
    Viewer,
}

impl User {
    pub fn name(self) -> &'static str {
        match self {
            User::Admin => "admin",
            User::Viewer => "viewer",
        }
    }

    /// The viewer is a Project member: it may only read, and only inside a namespace (not
    /// across all namespaces, not cluster-scoped resources such as Tenants).
    pub fn may(self, verb: &str, namespace: Option<&str>) -> bool {
        match self {
            User::Admin => true,
            User::Viewer => {
                matches!(verb, "get" | "list" | "watch")
                    && namespace.is_some_and(|ns| !ns.is_empty())
            }
        }
    }
}

/// Shared state of the HTTP layer.
pub struct Server {
    pub store: Arc<Store>,
    pub tokens: HashMap<String, User>,
    pub bookmark_interval: Duration,
}

pub(crate) fn respond(code: u16, body: &Value) -> Response {
    let bytes = serde_json::to_vec(body).unwrap_or_default();
    Response::builder()
        .status(StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR))
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(bytes))
        .unwrap_or_default()
}

/// A store result as the API server answers it: the object with `code`, or
/// the error as a Status.
fn reply(code: u16, result: Result<Value, ApiError>) -> Response {
    match result {
        Ok(object) => respond(code, &object),
        Err(e) => error(&e),
    }
}

pub(crate) fn error(e: &ApiError) -> Response {
    respond(e.code, &e.status())
}

fn query(uri: &Uri) -> HashMap<String, String> {
    form_urlencoded::parse(uri.query().unwrap_or("").as_bytes())
        .into_owned()
        .collect()
}

fn wants_table(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| {
            v.split(',')
                .next()
                .is_some_and(|first| first.contains("as=Table"))
        })
}

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

fn route<'a>(server: &'a Server, segments: &[&str]) -> Option<Target<'a>> {
    let (group, version, rest) = match segments {
        ["api", version, rest @ ..] => ("", *version, rest),
        ["apis", group, version, rest @ ..] => (*group, *version, rest),
        _ => return None,
    };
    let find = |plural: &str| server.store.registry.find(group, version, plural);
    match rest {
        ["namespaces", ns, plural] => Some(Target::Collection {
            resource: find(plural)?,
            namespace: Some((*ns).to_owned()),
        }),
        ["namespaces", ns, plural, name] => Some(Target::Item {
            resource: find(plural)?,
            namespace: (*ns).to_owned(),
            name: (*name).to_owned(),
            status: false,
        }),
        ["namespaces", ns, plural, name, "status"] => Some(Target::Item {
            resource: find(plural)?,
            namespace: (*ns).to_owned(),
            name: (*name).to_owned(),
            status: true,
        }),
        [plural] => Some(Target::Collection {
            resource: find(plural)?,
            namespace: None,
        }),
        [plural, name] => Some(Target::Item {
            resource: find(plural)?,
            namespace: String::new(),
            name: (*name).to_owned(),
            status: false,
        }),
        [plural, name, "status"] => Some(Target::Item {
            resource: find(plural)?,
            namespace: String::new(),
            name: (*name).to_owned(),
            status: true,
        }),
        _ => None,
    }
}

fn forbidden(
    user: User,
    verb: &str,
    resource: &Resource,
    name: Option<&str>,
    namespace: Option<&str>,
) -> Response {
    let subject = match name {
        Some(name) => format!("{} \"{name}\" is forbidden", resource.qualified()),
        None => format!("{} is forbidden", resource.qualified()),
    };
    let scope = match namespace.filter(|n| !n.is_empty()) {
        Some(ns) => format!(" in the namespace \"{ns}\""),
        None => " at the cluster scope".to_owned(),
    };
    let error = ApiError::new(
        403,
        "Forbidden",
        format!(
            "{subject}: User \"{}\" cannot {verb} resource \"{}\" in API group \"{}\"{scope}",
            user.name(),
            resource.plural,
            resource.group
        ),
    );
    respond(403, &error.status())
}

fn parse_body(headers: &HeaderMap, body: &Bytes) -> Result<Value, ApiError> {
    if body.is_empty() {
        return Ok(Value::Null);
    }
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if content_type.contains("yaml") {
        let text = std::str::from_utf8(body)
            .map_err(|_| ApiError::bad_request("the body is not UTF-8"))?;
        return serde_saphyr::from_str::<Value>(text)
            .map_err(|e| ApiError::bad_request(format!("the YAML body could not be read: {e}")));
    }
    serde_json::from_slice(body)
        .map_err(|e| ApiError::bad_request(format!("the JSON body could not be read: {e}")))
}

/// The one handler: everything the demo cluster answers.
pub async fn handle(
    State(server): State<Arc<Server>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let path = uri.path().trim_end_matches('/').to_owned();
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    if segments == ["version"] {
        return respond(
            200,
            &json!({
                "major": "1", "minor": "32", "gitVersion": "v1.32.0-pooldeck-demo",
                "gitCommit": "0000000000000000000000000000000000000000", "gitTreeState": "clean",
                "buildDate": "2026-01-01T00:00:00Z", "goVersion": "go1.23", "compiler": "gc",
                "platform": "linux/amd64"
            }),
        );
    }
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim);
    let Some(user) = token.and_then(|t| server.tokens.get(t)).copied() else {
        return error(&ApiError::new(401, "Unauthorized", "Unauthorized"));
    };
    let registry = &server.store.registry;
    match segments.as_slice() {
        ["api"] => return respond(200, &registry.core_versions()),
        ["apis"] => return respond(200, &registry.group_list()),
        ["openapi", "v3"] => return respond(200, &registry.openapi_index()),
        ["openapi", "v3", "api", version] | ["openapi", "v3", "apis", "", version] => {
            return match registry.openapi_document("", version) {
                Some(doc) => respond(200, &doc),
                None => error(&ApiError::new(404, "NotFound", "no such OpenAPI document")),
            };
        }
        ["openapi", "v3", "apis", group, version] => {
            return match registry.openapi_document(group, version) {
                Some(doc) => respond(200, &doc),
                None => error(&ApiError::new(404, "NotFound", "no such OpenAPI document")),
            };
        }
        ["apis", group] => {
            return match registry.group(group) {
                Some(g) => respond(200, &g),
                None => error(&ApiError::new(
                    404,
                    "NotFound",
                    "the server could not find the requested resource",
                )),
            };
        }
        ["api", version] | ["apis", "", version] => {
            return match registry.resource_list("", version) {
                Some(list) => respond(200, &list),
                None => error(&ApiError::new(
                    404,
                    "NotFound",
                    "the server could not find the requested resource",
                )),
            };
        }
        ["apis", group, version] => {
            return match registry.resource_list(group, version) {
                Some(list) => respond(200, &list),
                None => error(&ApiError::new(
                    404,
                    "NotFound",
                    "the server could not find the requested resource",
                )),
            };
        }
        [
            "apis",
            "authorization.k8s.io",
            "v1",
            "selfsubjectaccessreviews",
        ] if method == Method::POST => {
            return access_review(user, &headers, &body);
        }
        _ => {}
    }
    let Some(target) = route(&server, &segments) else {
        return error(&ApiError::new(
            404,
            "NotFound",
            "the server could not find the requested resource",
        ));
    };
    let params = query(&uri);
    let dry_run = params.get("dryRun").is_some_and(|v| v == "All");
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
            if !user.may(verb, namespace.as_deref()) {
                return forbidden(user, verb, resource, None, namespace.as_deref());
            }
            if watching {
                watch(
                    &server,
                    resource.clone(),
                    namespace,
                    &params,
                    wants_table(&headers),
                )
            } else {
                list(
                    &server,
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
            if !user.may("get", Some(&namespace)) {
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
            if !user.may("create", None) {
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
            reply(
                201,
                server.store.create(resource, &namespace, object, dry_run),
            )
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
            if !user.may("update", None) {
                return forbidden(user, "update", resource, Some(&name), Some(&namespace));
            }
            let object = match parse_body(&headers, &body) {
                Ok(v) => v,
                Err(e) => return error(&e),
            };
            reply(
                200,
                server
                    .store
                    .update(resource, &namespace, &name, object, status, dry_run),
            )
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
            if !user.may("patch", None) {
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
            reply(
                200,
                server
                    .store
                    .patch(resource, &namespace, &name, &patch, status, dry_run),
            )
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
            if !user.may("delete", None) {
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
            reply(
                200,
                server
                    .store
                    .delete(resource, &namespace, &name, &preconditions, dry_run),
            )
        }
        _ => error(&ApiError::new(
            405,
            "MethodNotAllowed",
            format!("the server does not allow this method on the requested resource ({method})"),
        )),
    }
}

fn access_review(user: User, headers: &HeaderMap, body: &Bytes) -> Response {
    let protobuf = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|c| c.contains("protobuf"));
    let review = if protobuf {
        match super::protobuf::access_review(body) {
            Some(v) => v,
            None => {
                return error(&ApiError::bad_request(
                    "the protobuf SelfSubjectAccessReview could not be read",
                ));
            }
        }
    } else {
        match parse_body(headers, body) {
            Ok(v) => v,
            Err(e) => return error(&e),
        }
    };
    let verb = review
        .pointer("/spec/resourceAttributes/verb")
        .and_then(Value::as_str)
        .unwrap_or("");
    let namespace = review
        .pointer("/spec/resourceAttributes/namespace")
        .and_then(Value::as_str);
    let allowed = user.may(verb, namespace);
    let mut answer = review.clone();
    answer["kind"] = json!("SelfSubjectAccessReview");
    answer["apiVersion"] = json!("authorization.k8s.io/v1");
    answer["status"] = json!({
        "allowed": allowed,
        "reason": if allowed { format!("user {} may {verb}", user.name()) } else { format!("user {} may only get, list and watch, inside a namespace", user.name()) },
    });
    respond(201, &answer)
}

pub(crate) struct Filters {
    pub(crate) namespace: Option<String>,
    labels: LabelSelector,
    fields: FieldSelector,
}

impl Filters {
    pub(crate) fn parse(
        resource: &Resource,
        namespace: Option<String>,
        params: &HashMap<String, String>,
    ) -> Result<Filters, ApiError> {
        let labels = LabelSelector::parse(params.get("labelSelector").map_or("", String::as_str))
            .map_err(ApiError::bad_request)?;
        let fields = FieldSelector::parse(
            params.get("fieldSelector").map_or("", String::as_str),
            resource.plural == "events",
        )
        .map_err(ApiError::bad_request)?;
        Ok(Filters {
            namespace,
            labels,
            fields,
        })
    }

    pub(crate) fn matches(&self, object: &Value) -> bool {
        let in_namespace = self.namespace.as_deref().is_none_or(|ns| {
            object
                .pointer("/metadata/namespace")
                .and_then(Value::as_str)
                .unwrap_or("")
                == ns
        });
        in_namespace && self.labels.matches(object) && self.fields.matches(object)
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
    Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(bytes))
        .unwrap_or_default()
}
