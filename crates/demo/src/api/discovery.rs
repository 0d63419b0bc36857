//! Discovery: the version, the API groups and their resource lists, and the OpenAPI v3
//! documents kubectl reads before `apply`.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::response::Response;
use serde_json::json;

use super::{Server, error, not_found_error, respond};
use crate::store::ApiError;

pub(super) async fn version(State(server): State<Arc<Server>>) -> Response {
    let mut version = json!({
        "major": "1", "minor": "32", "gitVersion": "v1.32.0-pooldeck-demo",
        "gitCommit": "0000000000000000000000000000000000000000", "gitTreeState": "clean",
        "buildDate": "2026-01-01T00:00:00Z", "goVersion": "go1.23", "compiler": "gc",
        "platform": "linux/amd64"
    });
    if server.speed.is_finite() && server.speed > 1.0 {
        version["pooldeckDemoSpeed"] = json!(server.speed);
    }
    // A served bundle: when it was taken, so that waits and ages are read as they were then.
    if let Some(frozen) = &server.frozen {
        version["pooldeckBundleTakenAt"] = json!(frozen.taken_at);
        version["pooldeckBundleHub"] = json!(frozen.hub);
    }
    respond(200, &version)
}

/// A discovery answer, or 404 when the server has no such thing.
fn found(document: Option<serde_json::Value>) -> Response {
    match document {
        Some(document) => respond(200, &document),
        None => error(&not_found_error()),
    }
}

/// The path's segments by name.
type Segments = HashMap<String, String>;

/// A route's parameters; a path that is not UTF-8 is a path the API does not serve.
type Params = Result<Path<Segments>, axum::extract::rejection::PathRejection>;

fn param<'p>(params: &'p HashMap<String, String>, name: &str) -> &'p str {
    params.get(name).map_or("", String::as_str)
}

pub(super) async fn core_versions(State(server): State<Arc<Server>>) -> Response {
    respond(200, &server.store.registry.core_versions())
}

pub(super) async fn groups(State(server): State<Arc<Server>>) -> Response {
    respond(200, &server.store.registry.group_list())
}

pub(super) async fn core_resources(State(server): State<Arc<Server>>, params: Params) -> Response {
    let Ok(Path(params)) = params else {
        return error(&not_found_error());
    };
    found(
        server
            .store
            .registry
            .resource_list("", param(&params, "version")),
    )
}

pub(super) async fn group(State(server): State<Arc<Server>>, params: Params) -> Response {
    let Ok(Path(params)) = params else {
        return error(&not_found_error());
    };
    found(server.store.registry.group(param(&params, "group")))
}

pub(super) async fn group_resources(State(server): State<Arc<Server>>, params: Params) -> Response {
    let Ok(Path(params)) = params else {
        return error(&not_found_error());
    };
    found(
        server
            .store
            .registry
            .resource_list(param(&params, "group"), param(&params, "version")),
    )
}

pub(super) async fn openapi_index(State(server): State<Arc<Server>>) -> Response {
    respond(200, &server.store.registry.openapi_index())
}

/// An OpenAPI v3 document, or 404.
fn openapi(server: &Server, group: &str, version: &str) -> Response {
    match server.store.registry.openapi_document(group, version) {
        Some(document) => respond(200, &document),
        None => error(&ApiError::new(404, "NotFound", "no such OpenAPI document")),
    }
}

pub(super) async fn openapi_core(State(server): State<Arc<Server>>, params: Params) -> Response {
    let Ok(Path(params)) = params else {
        return error(&not_found_error());
    };
    openapi(&server, "", param(&params, "version"))
}

pub(super) async fn openapi_group(State(server): State<Arc<Server>>, params: Params) -> Response {
    let Ok(Path(params)) = params else {
        return error(&not_found_error());
    };
    openapi(&server, param(&params, "group"), param(&params, "version"))
}
