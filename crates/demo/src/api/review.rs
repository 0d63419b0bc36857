//! SelfSubjectAccessReview: whether the caller may do something, as kubectl asks it (in
//! protobuf) before `auth can-i` and some writes.

use axum::body::Bytes;
use axum::extract::Extension;
use axum::http::{HeaderMap, header};
use axum::response::Response;
use serde_json::{Value, json};

use super::{User, error, parse_body, respond};
use crate::store::ApiError;

pub(super) async fn access_review(
    Extension(user): Extension<User>,
    headers: HeaderMap,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Response {
    match body {
        Ok(body) => answer(user, &headers, &body),
        Err(rejected) => error(&super::body_error(&rejected)),
    }
}

fn answer(user: User, headers: &HeaderMap, body: &Bytes) -> Response {
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
    let allowed = user.may(verb, resource, namespace);
    let mut answer = review.clone();
    answer["kind"] = json!("SelfSubjectAccessReview");
    answer["apiVersion"] = json!("authorization.k8s.io/v1");
    answer["status"] = json!({
        "allowed": allowed,
        "reason": if allowed { format!("user {} may {verb}", user.name()) } else { format!("user {} may {}", user.name(), user.rights()) },
    });
    respond(201, &answer)
}
