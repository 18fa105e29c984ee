//! What each request leaves behind: a span (request id, route template, user id) with one log line
//! at its end, and its count and latency in the metrics.
//!
//! Routes are named by their template (`/api/documents/{id}/file`), never by the raw path: raw
//! paths would carry ids and the tokens of shared links into logs and metric labels.

use std::time::{Duration, Instant};

use axum::extract::{MatchedPath, Request};
use axum::http::{Method, Response};
use axum::middleware::Next;
use tower_http::request_id::RequestId;
use tracing::Span;

use crate::metrics::{HTTP_REQUESTS, HTTP_REQUEST_DURATION};

/// The route template of a request, or a fixed name for what no route matched.
pub fn route_of<B>(request: &axum::http::Request<B>) -> String {
    match request.extensions().get::<MatchedPath>() {
        Some(path) => path.as_str().to_string(),
        None if request.uri().path().starts_with("/api/") => "unmatched".into(),
        None => "static".into(),
    }
}

/// The request's span: `TraceLayer::make_span_with`.
pub fn make_span<B>(request: &axum::http::Request<B>) -> Span {
    let request_id = request
        .extensions()
        .get::<RequestId>()
        .and_then(|id| id.header_value().to_str().ok())
        .unwrap_or_default();
    tracing::info_span!(
        "request",
        method = %request.method(),
        route = %route_of(request),
        request_id,
        // Filled in by the `AuthUser` extractor once the token is checked.
        user_id = tracing::field::Empty,
    )
}

/// One line per request: `TraceLayer::on_response`.
pub fn log_response<B>(response: &Response<B>, latency: Duration, _span: &Span) {
    tracing::info!(
        status = response.status().as_u16(),
        ms = latency.as_secs_f64() * 1000.0,
        "request done"
    );
}

/// Counts the request and records its latency by method, route and status.
pub async fn record(request: Request, next: Next) -> axum::response::Response {
    let route = route_of(&request);
    let method = method_label(request.method());
    let started = Instant::now();
    let response = next.run(request).await;
    let status = response.status().as_u16().to_string();
    metrics::counter!(HTTP_REQUESTS, "method" => method, "route" => route.clone(), "status" => status)
        .increment(1);
    metrics::histogram!(HTTP_REQUEST_DURATION, "method" => method, "route" => route)
        .record(started.elapsed().as_secs_f64());
    response
}

/// A bounded set of labels: unknown methods are not echoed into the metrics.
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        _ => "other",
    }
}

/// Longest text from outside (e.g. an identity provider's error) written into a log line.
pub const UNTRUSTED_LOG_CHARS: usize = 200;

/// Text that came from outside, fit for a log line: control and direction-changing characters
/// escaped (a line break could forge a log line in the text format, an escape sequence could
/// rewrite a terminal), and cut to [`UNTRUSTED_LOG_CHARS`] characters.
pub fn untrusted(text: &str) -> String {
    let mut out = String::new();
    for (n, c) in text.chars().enumerate() {
        if n == UNTRUSTED_LOG_CHARS {
            out.push('…');
            break;
        }
        let invisible = matches!(c, '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}');
        if c.is_control() || invisible {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn untrusted_text_cannot_break_or_flood_a_log_line() {
        assert_eq!(
            untrusted("denied\nINFO forged line\u{1b}[2J"),
            "denied\\u{a}INFO forged line\\u{1b}[2J"
        );
        assert_eq!(untrusted("a\u{202e}b"), "a\\u{202e}b");
        let long = "x".repeat(5000);
        assert_eq!(untrusted(&long).chars().count(), UNTRUSTED_LOG_CHARS + 1);
        assert_eq!(untrusted("Access denied"), "Access denied");
    }
}
