//! The HTTP server: the API under `/api`, media under `/media`, the web app everywhere else, and
//! the edge every request passes through (see [`crate::edge`]).
//!
//! Layers, from the outside in: request id (set, then echoed), the request's span and log line,
//! metrics by route, security headers, panic catching, compression; then on the API the rate
//! limits, `Idempotency-Key` (see [`crate::idempotency`]), and per route class a timeout and a
//! body limit.

pub mod metrics;

use std::sync::LazyLock;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{middleware, Router};
use tower::util::MapRequestLayer;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::{SetResponseHeader, SetResponseHeaderLayer};
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::edge::limits::{self, Quota, Scope};
use crate::edge::{headers, observe, panic, request_id};
use crate::error::AppError;
use crate::state::AppState;

/// Largest JSON body the API reads; uploads have their own limit.
const JSON_BODY_LIMIT: usize = 256 * 1024;
/// Room for the multipart framing and the small fields around an uploaded file.
const UPLOAD_FORM_SLACK: u64 = 64 * 1024;

pub fn router(state: AppState) -> Router {
    router_with(state, Router::new())
}

/// The server's router with `extra` routes merged into the API, behind the same edge (tests
/// use it to reach the edge with handlers of their own, e.g. one that panics).
pub fn router_with(state: AppState, extra: Router<AppState>) -> Router {
    let config = state.config.clone();
    let stop = state.realtime.shutdown_token();
    let trust_proxy = config.trust_proxy_headers;
    let prefixes = crate::edge::network::Prefixes::from_config(&config);
    let timeout = |seconds: u64| {
        TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            Duration::from_secs(seconds.max(1)),
        )
    };

    let recipient_lookups = limits::PerUser::new(
        "recipient_lookup",
        Quota::per_minute(config.recipient_lookups_per_minute),
        stop.clone(),
    );
    let routes = api_routes(Some(recipient_lookups));
    let calls = Router::from(routes.calls)
        .merge(extra)
        .layer(DefaultBodyLimit::max(JSON_BODY_LIMIT))
        .layer(RequestBodyLimitLayer::new(JSON_BODY_LIMIT))
        .layer(middleware::from_fn_with_state(
            JSON_BODY_LIMIT,
            crate::edge::linger::refuse_oversized,
        ))
        .layer(timeout(config.request_timeout_seconds));
    let upload_limit = config.upload_max_bytes.saturating_add(UPLOAD_FORM_SLACK);
    let upload_limit = usize::try_from(upload_limit).unwrap_or(usize::MAX);
    let uploads = Router::from(routes.uploads)
        .layer(RequestBodyLimitLayer::new(upload_limit))
        .layer(middleware::from_fn_with_state(
            upload_limit,
            crate::edge::linger::refuse_oversized,
        ))
        .layer(timeout(config.upload_timeout_seconds));
    // Per session inside per address: a refused address never reaches the session buckets.
    // A request refused by a limit never reaches the idempotency keys.
    let api = calls
        .merge(uploads)
        .layer(middleware::from_fn_with_state(
            crate::idempotency::Idempotency {
                auth: state.auth.clone(),
                body_limit: JSON_BODY_LIMIT,
                fingerprint_key: Default::default(),
            },
            crate::idempotency::layer,
        ))
        .layer(limits::layer(
            "session",
            Scope::Session,
            Quota::per_second(
                config.rate_limit_session_per_second,
                config.rate_limit_session_burst,
            ),
            trust_proxy,
            prefixes,
            stop.clone(),
        ))
        .layer(limits::layer(
            "address",
            Scope::Address,
            Quota::per_second(
                config.rate_limit_address_per_second,
                config.rate_limit_address_burst,
            ),
            trust_proxy,
            prefixes,
            stop,
        ))
        .merge(Router::from(routes.probes))
        .fallback(api_not_found)
        .layer(middleware::map_response(crate::edge::json_errors))
        // Answers are the user's own: never kept by a browser's or a proxy's HTTP cache, unless
        // a route sets its own policy (the library's shared files). The service worker keeps
        // what the app needs offline (docs/offline.md).
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-store"),
        ));

    let web_dir = &config.web_dir;
    let index = web_dir.join("index.html");
    // Hashed build assets never change; everything else is revalidated.
    let assets = Router::new()
        .nest_service("/assets", ServeDir::new(web_dir.join("assets")))
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=31536000, immutable"),
        ));
    // The service worker and the manifest are checked on every load: a worker kept in the HTTP
    // cache would go on serving the previous version of the app.
    let pwa = Router::new()
        .route_service("/sw.js", ServeFile::new(web_dir.join("sw.js")))
        .route_service(
            "/manifest.webmanifest",
            SetResponseHeader::overriding(
                ServeFile::new(web_dir.join("manifest.webmanifest")),
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/manifest+json"),
            ),
        )
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-cache"),
        ));
    let media = ServeDir::new(config.content_dir.join("media"));
    let spa = ServeDir::new(web_dir).fallback(ServeFile::new(index));

    let https = config
        .public_url
        .as_deref()
        .is_some_and(|url| url.starts_with("https://"));
    let app = Router::new()
        .nest("/api", api)
        .route("/metrics", get(metrics::on_main_port))
        // The external link's viewer: the web app's page, with the link's status.
        .route("/s/{token}", get(crate::documents::viewer::page))
        .nest_service("/media", media)
        .merge(assets)
        .merge(pwa)
        .fallback_service(spa)
        .layer(CompressionLayer::new())
        .layer(CatchPanicLayer::custom(panic::response_for_panic));
    headers::apply(app, https, &config.csp_frame_sources)
        .layer(middleware::from_fn(observe::record))
        .layer(middleware::from_fn(request_id::scope))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(observe::make_span)
                .on_response(observe::log_response),
        )
        .layer(PropagateRequestIdLayer::new(request_id::HEADER.clone()))
        .layer(SetRequestIdLayer::new(
            request_id::HEADER.clone(),
            MakeRequestUuid,
        ))
        .layer(MapRequestLayer::new(request_id::untrusted_ids_dropped(
            trust_proxy,
        )))
        .with_state(state)
}

async fn api_not_found() -> AppError {
    AppError::not_found("Not found")
}

/// The API's calls relative to `/api`, each registered once together with its OpenAPI operation
/// (the document is built from these routers, see [`api_document`]).
pub struct ApiRoutes {
    /// Under the JSON body limit and the request timeout.
    pub calls: OpenApiRouter<AppState>,
    /// The upload, with its own body limit and timeout.
    pub uploads: OpenApiRouter<AppState>,
    /// Liveness and readiness, outside the rate limits.
    pub probes: OpenApiRouter<AppState>,
}

impl ApiRoutes {
    /// The operations of every route, relative to `/api`.
    pub fn document(&self) -> utoipa::openapi::OpenApi {
        let mut document = self.calls.get_openapi().clone();
        document.merge(self.uploads.get_openapi().clone());
        document.merge(self.probes.get_openapi().clone());
        document
    }
}

/// Every API route. `recipient_lookups` is the share list's own rate limit (none when only the
/// document is wanted).
pub fn api_routes(recipient_lookups: Option<limits::PerUser>) -> ApiRoutes {
    let calls = OpenApiRouter::new()
        .routes(routes!(openapi_json))
        .merge(crate::auth::login::router())
        .merge(crate::auth::own_account::router())
        .merge(crate::auth::devices::router())
        .merge(crate::auth::sso::router())
        .merge(crate::auth::admin::router())
        .merge(crate::auth::terms::router())
        .merge(crate::auth::reset::router())
        .merge(crate::catalogue::router())
        .merge(crate::guide::router())
        .merge(crate::programmes::router())
        .merge(crate::notifications::router())
        .merge(crate::realtime::router())
        .merge(crate::documents::router(recipient_lookups))
        .merge(crate::library::router())
        .merge(crate::audit::router())
        .merge(crate::search::api::router());
    ApiRoutes {
        calls,
        uploads: crate::documents::upload_router().merge(crate::library::upload_router()),
        probes: crate::health::router(),
    }
}

/// The OpenAPI document of every route (see [`crate::openapi`]).
pub fn api_document() -> utoipa::openapi::OpenApi {
    crate::openapi::document(api_routes(None).document())
}

/// The document as served, built once.
static DOCUMENT_JSON: LazyLock<String> = LazyLock::new(|| {
    api_document()
        .to_json()
        .unwrap_or_else(|e| format!("{{\"message\": \"OpenAPI document: {e}\"}}"))
});

/// This document.
#[utoipa::path(get, path = "/openapi.json", tag = "operations",
    responses((status = 200, description = "The OpenAPI 3.1 document of the API", body = Object)))]
pub async fn openapi_json() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "application/json")],
        DOCUMENT_JSON.as_str(),
    )
}

/// Waits for Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
    tracing::info!("shutting down");
}
