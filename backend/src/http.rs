//! The HTTP server: the API under `/api`, media under `/media`, the web app everywhere else.

use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderValue};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};
use tower_http::compression::CompressionLayer;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::TraceLayer;
use utoipa::OpenApi;

use crate::error::AppError;
use crate::state::AppState;

/// Largest JSON body the API reads; uploads have their own limit.
const JSON_BODY_LIMIT: usize = 256 * 1024;

pub fn router(state: AppState) -> Router {
    let api = Router::new()
        .route("/health", get(health))
        .route("/openapi.json", get(openapi))
        .merge(crate::auth::session::router())
        .merge(crate::auth::sso::router())
        .merge(crate::catalogue::router())
        .merge(crate::guide::router())
        .merge(crate::programmes::router())
        .merge(crate::notifications::router())
        .merge(crate::realtime::router())
        .merge(crate::documents::router())
        .merge(crate::search::api::router())
        .fallback(api_not_found)
        .layer(DefaultBodyLimit::max(JSON_BODY_LIMIT));

    let web_dir = &state.config.web_dir;
    let index = web_dir.join("index.html");
    // Hashed build assets never change; everything else is revalidated.
    let assets = Router::new()
        .nest_service("/assets", ServeDir::new(web_dir.join("assets")))
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=31536000, immutable"),
        ));
    let media = ServeDir::new(state.config.content_dir.join("media"));
    let spa = ServeDir::new(web_dir).fallback(ServeFile::new(index));

    Router::new()
        .nest("/api", api)
        .nest_service("/media", media)
        .merge(assets)
        .fallback_service(spa)
        .layer(CompressionLayer::new())
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

async fn health() -> impl IntoResponse {
    Json(serde_json::json!({ "status": "ok" }))
}

async fn api_not_found() -> AppError {
    AppError::not_found("Not found")
}

async fn openapi() -> impl IntoResponse {
    Json(crate::openapi::ApiDoc::openapi())
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
