//! Each verb on a resource: checked against the user's permissions, admitted, and carried
//! out by the store with the API server's rules.

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::http::{HeaderMap, header};
use axum::response::Response;
use chrono::Utc;
use serde_json::Value;

use super::resources::list;
use super::{Server, User, error, forbidden, parse_body, reply, respond, wants_table};
use crate::registry::Resource;
use crate::store::{ApiError, Patch, Preconditions};
use crate::table;
use crate::watch::watch;

/// A request as every verb reads it: who asks, the query, whether a dry run, the headers
/// and the body.
pub(super) struct Call<'a> {
    pub(super) server: &'a Arc<Server>,
    pub(super) user: User,
    pub(super) params: HashMap<String, String>,
    pub(super) dry_run: bool,
    pub(super) headers: HeaderMap,
    pub(super) body: Bytes,
}

impl Call<'_> {
    /// Read a collection: a list, or a watch.
    pub(super) fn read_collection(
        &self,
        resource: &Resource,
        namespace: Option<String>,
    ) -> Response {
        let Call {
            server,
            user,
            params,
            headers,
            ..
        } = self;
        let user = *user;
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
                params,
                wants_table(headers),
            )
        } else {
            list(
                server,
                resource,
                namespace.as_deref(),
                params,
                wants_table(headers),
            )
        }
    }

    /// Get one object (as a Table when asked).
    pub(super) fn get(&self, resource: &Resource, namespace: String, name: String) -> Response {
        let Call {
            server,
            user,
            headers,
            ..
        } = self;
        let user = *user;
        if !user.may("get", &resource.plural, Some(&namespace)) {
            return forbidden(user, "get", resource, Some(&name), Some(&namespace));
        }
        match server.store.get(resource, &namespace, &name) {
            Ok(object) if wants_table(headers) => {
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

    /// Create an object, admitted first; the namespace is the path's, else the object's.
    pub(super) fn create(&self, resource: &Resource, namespace: Option<String>) -> Response {
        let Call {
            server,
            user,
            dry_run,
            headers,
            body,
            ..
        } = self;
        let (user, dry_run) = (*user, *dry_run);
        if !user.may("create", &resource.plural, namespace.as_deref()) {
            return forbidden(user, "create", resource, None, namespace.as_deref());
        }
        let object = match parse_body(headers, body) {
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
        let mut by_hand = server.store.by_hand();
        let created = server.store.create(resource, &namespace, object, dry_run);
        if let Ok(created) = &created
            && !dry_run
        {
            let name = created
                .pointer("/metadata/name")
                .and_then(Value::as_str)
                .unwrap_or("");
            by_hand.note(&resource.kind, &namespace, name);
        }
        drop(by_hand);
        reply(201, created)
    }

    /// Replace an object (or its status), admitted first.
    pub(super) fn replace(
        &self,
        resource: &Resource,
        namespace: String,
        name: String,
        status: bool,
    ) -> Response {
        let Call {
            server,
            user,
            dry_run,
            headers,
            body,
            ..
        } = self;
        let (user, dry_run) = (*user, *dry_run);
        if !user.may("update", &resource.plural, Some(&namespace)) {
            return forbidden(user, "update", resource, Some(&name), Some(&namespace));
        }
        let object = match parse_body(headers, body) {
            Ok(v) => v,
            Err(e) => return error(&e),
        };
        if !status {
            let next =
                (server.store).update(resource, &namespace, &name, object.clone(), false, true);
            if let Err(refused) = admitted(server, resource, &namespace, &name, next) {
                return error(&refused);
            }
        }
        let noted = server.store.by_hand();
        let updated = server
            .store
            .update(resource, &namespace, &name, object, status, dry_run);
        by_hand(
            noted,
            resource,
            &namespace,
            &name,
            updated.is_ok() && !dry_run,
        );
        reply(200, updated)
    }

    /// Patch an object (or its status): JSON patches and merge patches, admitted first.
    pub(super) fn patch(
        &self,
        resource: &Resource,
        namespace: String,
        name: String,
        status: bool,
    ) -> Response {
        let Call {
            server,
            user,
            dry_run,
            headers,
            body,
            ..
        } = self;
        let (user, dry_run) = (*user, *dry_run);
        if !user.may("patch", &resource.plural, Some(&namespace)) {
            return forbidden(user, "patch", resource, Some(&name), Some(&namespace));
        }
        let content_type = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        let body = match parse_body(headers, body) {
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
            let next = (server.store).patch(resource, &namespace, &name, &patch, false, true);
            if let Err(refused) = admitted(server, resource, &namespace, &name, next) {
                return error(&refused);
            }
        }
        let noted = server.store.by_hand();
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
            noted,
            resource,
            &namespace,
            &name,
            patched.is_ok() && !dry_run && !only_paused,
        );
        reply(200, patched)
    }

    /// Delete an object, with its preconditions and dry run from the options sent.
    pub(super) fn delete(&self, resource: &Resource, namespace: String, name: String) -> Response {
        let Call {
            server,
            user,
            dry_run,
            headers,
            body,
            ..
        } = self;
        let (user, dry_run) = (*user, *dry_run);
        if !user.may("delete", &resource.plural, Some(&namespace)) {
            return forbidden(user, "delete", resource, Some(&name), Some(&namespace));
        }
        let options = match parse_body(headers, body) {
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
        let noted = server.store.by_hand();
        let deleted = server
            .store
            .delete(resource, &namespace, &name, &preconditions, dry_run);
        by_hand(
            noted,
            resource,
            &namespace,
            &name,
            deleted.is_ok() && !dry_run,
        );
        reply(200, deleted)
    }
}

/// Whether a change passes admission: the object as it would be stored (`next`, worked out
/// as a dry run), checked against the stored one.
fn admitted(
    server: &Server,
    resource: &Resource,
    namespace: &str,
    name: &str,
    next: Result<Value, ApiError>,
) -> Result<(), ApiError> {
    let next = next?;
    let current = server.store.get(resource, namespace, name)?;
    super::admission::admit(&server.store, resource, Some(&current), &next)
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

/// Notes an object a client changed, when it was changed (not a dry run, not refused), under
/// the lock taken before the write.
fn by_hand(
    mut noted: crate::store::ByHand<'_>,
    resource: &crate::registry::Resource,
    namespace: &str,
    name: &str,
    changed: bool,
) {
    if changed {
        noted.note(&resource.kind, namespace, name);
    }
}
