//! The HTTP face of the demo cluster: the Kubernetes API paths as axum routes, bearer-token
//! authentication (an admin and a read-only viewer) in front of all but `/version`. The
//! replies every handler shares (JSON bodies, Status errors) live in [`reply`], discovery in
//! [`discovery`], the routes of resources in [`resources`] and each verb on them in [`verbs`],
//! access reviews in [`review`]; watch streams in `demo::watch`.

mod admission;
mod discovery;
mod logs;
mod reply;
mod resources;
mod review;
mod verbs;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::{any, get, post};
use serde_json::Value;

pub(crate) use self::reply::Filters;
pub(crate) use self::reply::{error, forbidden, parse_body, query, reply, respond, wants_table};
use super::store::{ApiError, Store};

/// Who a bearer token belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum User {
    Admin,
    /// An operator: reads everything and may patch Compute Pools (pause, resume, finalizers),
    /// but not delete or create anything.
    Operator,
    Viewer,
    /// A Project member who may read inside a namespace, but not pods' logs.
    Reader,
}

impl User {
    pub fn name(self) -> &'static str {
        match self {
            User::Admin => "admin",
            User::Operator => "operator",
            User::Viewer => "viewer",
            User::Reader => "reader",
        }
    }

    /// The viewer is a Project member: it may only read, and only inside a namespace (not
    /// across all namespaces, not cluster-scoped resources such as Tenants). The operator
    /// reads everything and patches pools.
    pub fn may(self, verb: &str, plural: &str, namespace: Option<&str>) -> bool {
        let reads = matches!(verb, "get" | "list" | "watch");
        match self {
            User::Admin => true,
            User::Operator => reads || (verb == "patch" && plural == "computepools"),
            User::Viewer => reads && namespace.is_some_and(|ns| !ns.is_empty()),
            User::Reader => {
                reads && plural != "pods/log" && namespace.is_some_and(|ns| !ns.is_empty())
            }
        }
    }

    /// What it may do, for a refusal.
    pub fn rights(self) -> &'static str {
        match self {
            User::Admin => "everything",
            User::Operator => "get, list and watch, and patch computepools",
            User::Viewer => "only get, list and watch, inside a namespace",
            User::Reader => "only get, list and watch, inside a namespace, and no pods/log",
        }
    }
}

/// The API's routes. Resource paths come in two prefixes, core (`/api/{version}`) and
/// grouped (`/apis/{group}/{version}`), each cluster-wide or in a namespace, each for a
/// collection, an item or an item's status.
pub fn router(server: Arc<Server>) -> Router {
    let mut routes = Router::new()
        .route("/api", get(discovery::core_versions))
        .route("/apis", get(discovery::groups))
        .route("/api/{version}", get(discovery::core_resources))
        .route("/apis/{group}", get(discovery::group))
        .route("/apis/{group}/{version}", get(discovery::group_resources))
        .route("/openapi/v3", get(discovery::openapi_index))
        .route("/openapi/v3/api/{version}", get(discovery::openapi_core))
        .route(
            "/openapi/v3/apis/{group}/{version}",
            get(discovery::openapi_group),
        )
        .route(
            "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
            post(review::access_review),
        )
        .route("/pooldeck/requests", get(requests));
    routes = routes.route(
        "/api/{version}/namespaces/{namespace}/pods/{name}/log",
        get(logs::pod_log),
    );
    for prefix in ["/api/{version}", "/apis/{group}/{version}"] {
        routes = routes
            .route(&format!("{prefix}/{{plural}}"), any(resources::collection))
            .route(
                &format!("{prefix}/{{plural}}/{{name}}"),
                any(resources::item),
            )
            .route(
                &format!("{prefix}/{{plural}}/{{name}}/status"),
                any(resources::item),
            )
            .route(
                &format!("{prefix}/namespaces/{{namespace}}/{{plural}}"),
                any(resources::collection),
            )
            .route(
                &format!("{prefix}/namespaces/{{namespace}}/{{plural}}/{{name}}"),
                any(resources::item),
            )
            .route(
                &format!("{prefix}/namespaces/{{namespace}}/{{plural}}/{{name}}/status"),
                any(resources::item),
            );
    }
    routes
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::extract::DefaultBodyLimit::max(BODY_LIMIT))
        .layer(middleware::from_fn_with_state(server.clone(), read_body))
        .layer(middleware::from_fn_with_state(server.clone(), authenticate))
        // The version is public, as on a real API server.
        .route("/version", get(discovery::version))
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(server)
}

/// How many write requests the server has received (dry runs included) and how many of
/// them it refused with 403: the demo's own path, so tests can prove that read-only mode sends no
/// write and that forbidden actions are gated before they are sent.
async fn requests(State(server): State<Arc<Server>>) -> Response {
    let writes = server.writes.load(std::sync::atomic::Ordering::SeqCst);
    let forbidden = server.forbidden.load(std::sync::atomic::Ordering::SeqCst);
    respond(
        200,
        &serde_json::json!({"writes": writes, "forbiddenWrites": forbidden}),
    )
}

/// Resolves the bearer token to a [`User`] for the handlers, or answers 401.
async fn authenticate(
    State(server): State<Arc<Server>>,
    mut request: Request,
    next: Next,
) -> Response {
    let user = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .and_then(|t| server.tokens.get(t))
        .copied();
    match user {
        Some(user) => {
            request.extensions_mut().insert(user);
            let write = request.method() != axum::http::Method::GET;
            // A served bundle takes no write, whoever asks (an access review is a question).
            let review = request.method() == axum::http::Method::POST
                && request.uri().path() == "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";
            if write && !review && server.frozen.is_some() {
                return error(&ApiError::new(
                    405,
                    "MethodNotAllowed",
                    crate::frozen::REFUSED,
                ));
            }
            let response = next.run(request).await;
            if write && response.status() == StatusCode::FORBIDDEN {
                server
                    .forbidden
                    .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }
            response
        }
        None => error(&ApiError::new(401, "Unauthorized", "Unauthorized")),
    }
}

/// Reads the request's body before any handler sees it, within the server's deadline and
/// size limit: a client that sends half a body, or a trickle, gets 408 and the connection is
/// closed, instead of holding it (and a handler) open.
async fn read_body(State(server): State<Arc<Server>>, request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    let read = axum::body::to_bytes(body, BODY_LIMIT);
    let bytes = match tokio::time::timeout(server.body_deadline, read).await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(e)) => {
            let too_large = std::error::Error::source(&e)
                .is_some_and(|s| s.is::<http_body_util::LengthLimitError>());
            let problem = if too_large {
                too_large_error()
            } else {
                ApiError::bad_request(format!("the request body could not be read: {e}"))
            };
            return closing(error(&problem));
        }
        Err(_) => {
            let problem = ApiError::new(
                408,
                "Timeout",
                format!(
                    "the request body did not arrive within {} s",
                    server.body_deadline.as_secs_f64()
                ),
            );
            return closing(error(&problem));
        }
    };
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

/// The response, telling the client the server closes the connection after it (the rest of
/// a body it gave up on would otherwise be read as the next request).
fn closing(mut response: Response) -> Response {
    response.headers_mut().insert(
        header::CONNECTION,
        header::HeaderValue::from_static("close"),
    );
    response
}

fn too_large_error() -> ApiError {
    ApiError::new(
        413,
        "RequestEntityTooLarge",
        format!(
            "the request body is larger than {} MiB",
            BODY_LIMIT / (1024 * 1024)
        ),
    )
}

/// A request body the server would not take, as a Status: too large (413, after
/// authentication, as a real API server answers) or unreadable (400).
pub(crate) fn body_error(rejected: &axum::extract::rejection::BytesRejection) -> ApiError {
    if rejected.status() == StatusCode::PAYLOAD_TOO_LARGE {
        too_large_error()
    } else {
        ApiError::bad_request(format!("the request body could not be read: {rejected}"))
    }
}

/// The largest request body the demo accepts (a real API server's limit is 3 MiB).
pub const BODY_LIMIT: usize = 3 * 1024 * 1024;

/// What a path the API does not serve gets.
pub(crate) fn not_found_error() -> ApiError {
    ApiError::new(
        404,
        "NotFound",
        "the server could not find the requested resource",
    )
}

async fn not_found() -> Response {
    error(&not_found_error())
}

async fn method_not_allowed(method: axum::http::Method) -> Response {
    error(&ApiError::new(
        405,
        "MethodNotAllowed",
        format!("the server does not allow this method on the requested resource ({method})"),
    ))
}

/// Shared state of the HTTP layer.
pub struct Server {
    pub store: Arc<Store>,
    pub tokens: HashMap<String, User>,
    pub bookmark_interval: Duration,
    /// How long a request's body may take to arrive once its head has (408 after).
    pub body_deadline: Duration,
    /// Write requests received (dry runs included), for tests of read-only mode.
    pub writes: std::sync::atomic::AtomicU64,
    /// Write requests answered 403 Forbidden, for tests that an action is gated before it is
    /// sent (reads refused to a viewer, such as a cluster-wide list, are not counted).
    pub forbidden: std::sync::atomic::AtomicU64,
    /// The hue controller's scripted log lines (see `demo::logs`): the scenario's, replaced
    /// when another is played.
    pub controller_logs: std::sync::RwLock<Arc<Vec<Value>>>,
    /// How many times faster than real time the story plays: said in `/version`, so that a
    /// wait measured in the hub's time (unblock's) passes as fast as the demo's controller.
    pub speed: f64,
    /// How fast lists go out (see `demo::pace`).
    pub pace: Option<crate::pace::Pace>,
    /// Whether watch-lists (`sendInitialEvents`) are served, as on a 1.27+ server with the
    /// WatchList feature on, or refused, as with it off.
    pub watch_list: bool,
    /// Watches that asked for their initial events (served or refused), for tests that a
    /// client learns once whether a hub serves them.
    pub watch_lists_asked: std::sync::atomic::AtomicU64,
    /// Watches opened (watch-lists included; refused ones not), for tests that a watch-list's
    /// stream carries on with the changes instead of a second watch being opened.
    pub watches_opened: std::sync::atomic::AtomicU64,
    /// Watch-lists served (their initial events sent).
    pub watch_lists_served: std::sync::atomic::AtomicU64,
    /// The most objects one list answer carried, for tests that a client reads in pages.
    pub largest_list: std::sync::atomic::AtomicU64,
    /// A support bundle served back: every write refused, pods' logs its own.
    pub frozen: Option<Arc<crate::frozen::Frozen>>,
}
