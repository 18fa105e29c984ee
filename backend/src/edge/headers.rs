//! Security headers on every response.
//!
//! The app's policy allows only same-origin script, style, workers and connections (the built
//! app has no inline script or style), images and fonts also as `data:`/`blob:` (the PDF viewer
//! renders into them), media as `blob:` (HLS video), the service worker and the web app manifest
//! from the app's own origin, and no framing. A response that carries a
//! file (`Content-Disposition`) gets a policy of its own that sandboxes it: a PDF or an HTML file
//! opened from the API can never run script in the app's origin.

use axum::body::Body;
use axum::http::{header, HeaderName, HeaderValue, Response};
use axum::Router;
use tower_http::set_header::SetResponseHeaderLayer;

pub const APP_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
img-src 'self' data: blob:; font-src 'self' data:; media-src 'self' blob:; \
worker-src 'self' blob:; manifest-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; \
frame-ancestors 'none'; form-action 'self'";

/// The app's policy with the frames it may show: its own blob: documents (the PDF viewer) and
/// the video platform's embedded players (`CSP_FRAME_SOURCES`). A source that could break out of
/// the directive (quotes, `;`, `,`, spaces) is left out.
pub fn app_policy(frame_sources: &[String]) -> String {
    let extra: Vec<&str> = frame_sources
        .iter()
        .map(|s| s.trim())
        .filter(|s| {
            !s.is_empty()
                && s.bytes()
                    .all(|b| b.is_ascii_graphic() && !b"';,\"".contains(&b))
        })
        .collect();
    let mut policy = format!("{APP_POLICY}; frame-src 'self' blob:");
    for source in extra {
        policy.push(' ');
        policy.push_str(source);
    }
    policy
}

/// Files are shown as they are, with nothing active: no script, no plugin, no form, no framing.
pub const FILE_POLICY: &str = "sandbox; default-src 'none'; frame-ancestors 'none'";

pub const PERMISSIONS_POLICY: &str = "camera=(), microphone=(), geolocation=(), payment=(), \
usb=(), interest-cohort=()";

/// One year, as browsers' preload lists expect.
pub const HSTS: &str = "max-age=31536000; includeSubDomains";

fn policy_for<B>(app: &HeaderValue, response: &Response<B>) -> Option<HeaderValue> {
    if response.headers().contains_key(header::CONTENT_DISPOSITION) {
        Some(HeaderValue::from_static(FILE_POLICY))
    } else {
        Some(app.clone())
    }
}

/// Adds the security headers to every response of `router`; HSTS only when the server's
/// public address is https (a browser would otherwise refuse the plain-HTTP server for a year).
pub fn apply<S: Clone + Send + Sync + 'static>(
    router: Router<S>,
    https: bool,
    frame_sources: &[String],
) -> Router<S> {
    let hsts = https.then(|| HeaderValue::from_static(HSTS));
    let app = HeaderValue::from_str(&app_policy(frame_sources))
        .unwrap_or_else(|_| HeaderValue::from_static(APP_POLICY));
    router
        .layer(SetResponseHeaderLayer::overriding(
            header::CONTENT_SECURITY_POLICY,
            move |response: &Response<Body>| policy_for(&app, response),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::REFERRER_POLICY,
            // The external viewer's pages send no referrer at all (their address is the token).
            |response: &Response<Body>| {
                let own = response.headers().get(header::REFERRER_POLICY);
                Some(match own {
                    Some(v) if v == "no-referrer" => v.clone(),
                    _ => HeaderValue::from_static("strict-origin-when-cross-origin"),
                })
            },
        ))
        .layer(SetResponseHeaderLayer::overriding(
            HeaderName::from_static("permissions-policy"),
            HeaderValue::from_static(PERMISSIONS_POLICY),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("DENY"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::STRICT_TRANSPORT_SECURITY,
            move |_: &Response<Body>| hsts.clone(),
        ))
}
