//! The HTTP edge: what every request passes through before and after a handler.
//!
//! - [`headers`] - security headers, with a stricter policy for served files.
//! - [`request_id`] - an id per request, echoed to the client, in the logs and in the events the
//!   request records.
//! - [`network`] - the network a client address counts in, for every per-address limit.
//! - [`linger`] - a body announced over its limit is refused without resetting the client.
//! - [`limits`] - rate limits per client address and per session, 429 with `Retry-After`.
//! - [`observe`] - one log line and the metrics of each request, by route template.
//! - [`panic`] - a handler that panics answers 500 in the API's error shape.
//! - [`serve`] - the connection loop: header-read and keep-alive timeouts, graceful shutdown
//!   bounded by its grace period.
//!
//! `http.rs` assembles these layers; the numbers come from [`crate::config::Config`].

pub mod headers;
pub mod limits;
pub mod linger;
pub mod network;
pub mod observe;
pub mod panic;
pub mod request_id;
pub mod serve;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::error::ErrorBody;

/// Gives the API's `{"message": ...}` body to the refusals of tower layers (an empty 408 from a
/// timeout, a plain-text 413 from a body limit), so clients handle every error the same way.
///
/// A 408 or 413 is answered before the request body was read, so the connection cannot carry
/// another request: it is marked `Connection: close`, or a client would reuse it and lose its
/// next request.
pub async fn json_errors(mut response: Response) -> Response {
    let status = response.status();
    if matches!(
        status,
        StatusCode::REQUEST_TIMEOUT | StatusCode::PAYLOAD_TOO_LARGE
    ) {
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
    if is_json || !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let message = match status {
        StatusCode::REQUEST_TIMEOUT => "The request took too long. Try again",
        StatusCode::PAYLOAD_TOO_LARGE => "The request body is too large",
        StatusCode::TOO_MANY_REQUESTS => "Too many requests. Try again later",
        _ => status.canonical_reason().unwrap_or("Request refused"),
    };
    let (mut parts, _) = response.into_parts();
    let body = axum::Json(ErrorBody {
        message: message.to_string(),
        code: None,
    })
    .into_response();
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, body.into_body())
}
