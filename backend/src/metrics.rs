//! Metrics in the Prometheus text format, from the `metrics` crate's macros.
//!
//! Every metric's name is a constant here, so the list below is the list of what is exported;
//! add new ones here and record them with `metrics::counter!` / `gauge!` / `histogram!` anywhere.
//! `GET /metrics` is served on `METRICS_PORT`, or on the main port to `METRICS_TOKEN`'s bearer.

use std::sync::OnceLock;

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use sha2::{Digest, Sha256};

use crate::error::AppError;
use crate::state::AppState;

/// Requests answered, by `method`, `route` (template) and `status`.
pub const HTTP_REQUESTS: &str = "companion_http_requests_total";
/// Time to answer, by `method` and `route`, in seconds (histogram).
pub const HTTP_REQUEST_DURATION: &str = "companion_http_request_duration_seconds";
/// TCP connections open on the HTTP port.
pub const HTTP_CONNECTIONS_OPEN: &str = "companion_http_connections_open";
/// Handlers that panicked (each answered 500).
pub const HTTP_PANICS: &str = "companion_http_panics_total";
/// Requests refused by a rate limit or quota, by `limit`.
pub const RATE_LIMIT_REFUSALS: &str = "companion_rate_limit_refusals_total";
/// WebSockets open on this node.
pub const REALTIME_SOCKETS_OPEN: &str = "companion_realtime_sockets_open";
/// Feed messages sent over this node's WebSockets.
pub const REALTIME_MESSAGES_SENT: &str = "companion_realtime_messages_sent_total";
/// Failed sign-ins (wrong e-mail or password).
pub const LOGIN_FAILURES: &str = "companion_login_failures_total";
/// Command calls with an `Idempotency-Key`, by `outcome`: `executed` and `recovered` (misses),
/// `replayed` and `reconstructed` (hits), `mismatch` and `in_progress` (conflicts), `refused`.
pub const IDEMPOTENCY_REQUESTS: &str = "companion_idempotency_requests_total";

/// Latency buckets in seconds: from a cached read to a large upload.
const DURATION_BUCKETS: &[f64] = &[
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 120.0,
];

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// Installs the process-wide recorder once (every server of the process shares it) and returns
/// its handle.
pub fn install() -> &'static PrometheusHandle {
    HANDLE.get_or_init(|| {
        let recorder = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), DURATION_BUCKETS)
            .map(PrometheusBuilder::build_recorder);
        let recorder = match recorder {
            Ok(recorder) => recorder,
            // Only an empty bucket list fails.
            Err(e) => unreachable!("metric buckets: {e}"),
        };
        let handle = recorder.handle();
        if metrics::set_global_recorder(recorder).is_err() {
            tracing::warn!("a metrics recorder was already installed: /metrics shows only ours");
        }
        describe();
        handle
    })
}

fn describe() {
    metrics::describe_counter!(
        HTTP_REQUESTS,
        "Requests answered, by method, route and status"
    );
    metrics::describe_histogram!(
        HTTP_REQUEST_DURATION,
        metrics::Unit::Seconds,
        "Time to answer a request, by method and route"
    );
    metrics::describe_gauge!(
        HTTP_CONNECTIONS_OPEN,
        "TCP connections open on the HTTP port"
    );
    metrics::describe_counter!(HTTP_PANICS, "Handlers that panicked");
    metrics::describe_counter!(
        RATE_LIMIT_REFUSALS,
        "Requests refused by a rate limit, by limit"
    );
    metrics::describe_gauge!(REALTIME_SOCKETS_OPEN, "WebSockets open on this node");
    metrics::describe_counter!(
        REALTIME_MESSAGES_SENT,
        "Feed messages sent over this node's WebSockets"
    );
    metrics::describe_counter!(LOGIN_FAILURES, "Failed sign-ins");
    metrics::describe_counter!(
        IDEMPOTENCY_REQUESTS,
        "Command calls with an Idempotency-Key, by outcome"
    );
    use projections::lease::metric_names as lease;
    metrics::describe_gauge!(lease::OWNER, "1 on the node holding the projector lease");
    metrics::describe_gauge!(
        lease::FENCING,
        "Fencing number of the lease this node holds (0: none)"
    );
    metrics::describe_counter!(
        lease::TAKEOVERS_TOTAL,
        "Times this node took the projector lease"
    );
    metrics::describe_counter!(
        lease::FENCED_BATCHES_TOTAL,
        "Projector batches refused because this node had lost the lease"
    );
    metrics::describe_counter!(
        projections::documents::projection::STATEMENTS_TOTAL,
        "Statements the documents projection ran for its batches, by kind (read, write)"
    );
    metrics::describe_counter!(
        crate::documents::orphans::ORPHANS_COLLECTED,
        "Stored files no event refers to, deleted"
    );
}

/// The text exposition, with the values read at scrape time brought up to date.
pub fn render(state: &AppState) -> String {
    let stats = state.realtime.stats();
    metrics::gauge!(REALTIME_SOCKETS_OPEN).set(stats.sockets as f64);
    metrics::counter!(REALTIME_MESSAGES_SENT).absolute(stats.delivered);
    install().render()
}

fn exposition(state: &AppState) -> Response {
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        render(state),
    )
        .into_response()
}

/// `GET /metrics` on the main port: only with `METRICS_TOKEN` as bearer token.
pub async fn on_main_port(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let Some(expected) = state
        .config
        .metrics_token
        .as_deref()
        .filter(|t| !t.is_empty())
    else {
        return AppError::not_found("Not found").into_response();
    };
    let given = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or_default();
    // Compared as hashes: equal-length inputs, so the comparison's time tells nothing.
    if Sha256::digest(given.as_bytes()) != Sha256::digest(expected.as_bytes()) {
        let mut response =
            AppError::Unauthorized("A valid metrics token is required".into()).into_response();
        response.headers_mut().insert(
            header::WWW_AUTHENTICATE,
            header::HeaderValue::from_static("Bearer"),
        );
        return response;
    }
    exposition(&state)
}

/// `GET /metrics` on `METRICS_PORT`: open (the port is for the monitoring network only).
pub async fn on_metrics_port(State(state): State<AppState>) -> Response {
    exposition(&state)
}

/// The router of the metrics port.
pub fn port_router(state: AppState) -> axum::Router {
    axum::Router::new()
        .route("/metrics", axum::routing::get(on_metrics_port))
        .fallback(|| async { StatusCode::NOT_FOUND })
        .with_state(state)
}
