//! An id for every request: taken from `X-Request-Id` when a trusted proxy set one, made up
//! otherwise, sent back in the response, recorded in the request's log span and in the metadata
//! of every event the request records (through [`crate::request_context`]).

use axum::extract::Request;
use axum::http::HeaderName;
use axum::middleware::Next;
use axum::response::Response;
use tower_http::request_id::RequestId;

pub static HEADER: HeaderName = HeaderName::from_static("x-request-id");

/// Longest id accepted from a proxy; anything longer, or not plain text, is replaced.
const MAX_LEN: usize = 128;

/// Drops an `X-Request-Id` the client sent unless proxy headers are trusted (a client must not
/// choose what is written into the audit trail) or when it is not a short plain token.
pub fn untrusted_ids_dropped(trust_proxy: bool) -> impl Fn(Request) -> Request + Clone {
    move |mut request: Request| {
        let keep = trust_proxy
            && request
                .headers()
                .get(&HEADER)
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| {
                    !v.is_empty()
                        && v.len() <= MAX_LEN
                        && v.bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b"-_.:".contains(&b))
                });
        if !keep {
            request.headers_mut().remove(&HEADER);
        }
        request
    }
}

/// Makes the request's id (set by `SetRequestIdLayer`) the task's current id while the handler
/// runs, so the event store can write it into the events' metadata.
pub async fn scope(request: Request, next: Next) -> Response {
    let id = request
        .extensions()
        .get::<RequestId>()
        .and_then(|id| id.header_value().to_str().ok())
        .unwrap_or_default()
        .to_string();
    crate::request_context::with_request_id(id, next.run(request)).await
}
