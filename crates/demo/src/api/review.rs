//! SelfSubjectAccessReview: whether the caller may do something, as kubectl asks it (in
//! protobuf) before `auth can-i` and some writes.

use axum::body::Bytes;
use std::sync::Arc;

use axum::extract::{Extension, State};
use axum::http::{HeaderMap, header};
use axum::response::Response;
use serde_json::{Value, json};

use super::{Server, User, error, parse_body, respond};
use crate::store::ApiError;

pub(super) async fn access_review(
    State(server): State<Arc<Server>>,
    Extension(user): Extension<User>,
    headers: HeaderMap,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Response {
    match body {
        Ok(body) => answer(user, server.frozen.is_some(), &headers, &body),
        Err(rejected) => error(&super::body_error(&rejected)),
    }
}

/// `frozen`: a served bundle, where no one may change anything.
fn answer(user: User, frozen: bool, headers: &HeaderMap, body: &Bytes) -> Response {
    let protobuf = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|c| c.contains("protobuf"));
    let review = if protobuf {
        match crate::protobuf::access_review(body) {
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
    let resource = review
        .pointer("/spec/resourceAttributes/resource")
        .and_then(Value::as_str)
        .unwrap_or("");
    let reads = matches!(verb, "get" | "list" | "watch");
    let allowed = user.may(verb, resource, namespace) && (reads || !frozen);
    let mut answer = review.clone();
    answer["kind"] = json!("SelfSubjectAccessReview");
    answer["apiVersion"] = json!("authorization.k8s.io/v1");
    answer["status"] = json!({
        "allowed": allowed,
        "reason": if allowed {
            format!("user {} may {verb}", user.name())
        } else if frozen && !reads {
            crate::frozen::REFUSED.to_owned()
        } else {
            format!("user {} may {}", user.name(), user.rights())
        },
    });
    respond(201, &answer)
}
