//! `GET /metrics`: on `METRICS_PORT` (open: the port is for the monitoring network only), or on
//! the main port to `METRICS_TOKEN`'s bearer. The names are in [`crate::metrics`].

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

use crate::error::AppError;
use crate::metrics::{REALTIME_MESSAGES_SENT, REALTIME_SOCKETS_OPEN};
use crate::state::AppState;

/// The text exposition, with the values read at scrape time brought up to date.
pub fn render(state: &AppState) -> String {
    let stats = state.realtime.stats();
    metrics::gauge!(REALTIME_SOCKETS_OPEN).set(stats.sockets as f64);
    metrics::counter!(REALTIME_MESSAGES_SENT).absolute(stats.delivered);
    crate::metrics::install().render()
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
