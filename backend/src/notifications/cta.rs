//! Call-to-action urls (`GET /url-cta`): named addresses the app opens from its buttons (support
//! mailbox, forgotten password, privacy policy, education contact...). They come from
//! `content/notifications/url-cta.json`, so they change without a new build of the app.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::State;

use crate::auth::AuthUser;
use crate::config::Config;
use crate::error::{AppError, AppJson, AppResult, ErrorBody};

/// Name -> url, e.g. `{"support": "mailto:support@example.com", "whats_new": "/app/new"}`.
#[utoipa::path(get, path = "/url-cta", tag = "notifications", security(("bearer" = [])),
    responses((status = 200, body = BTreeMap<String, String>), (status = 401, body = ErrorBody)))]
pub async fn url_cta(
    State(config): State<Arc<Config>>,
    _auth: AuthUser,
) -> AppResult<AppJson<BTreeMap<String, String>>> {
    let path = config
        .content_dir
        .join("notifications")
        .join("url-cta.json");
    let urls = match tokio::fs::read(&path).await {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map_err(|e| AppError::Internal(anyhow::anyhow!("{}: {e}", path.display())))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => BTreeMap::new(),
        Err(e) => {
            return Err(AppError::Internal(
                anyhow::Error::new(e).context("reading the call-to-action urls"),
            ))
        }
    };
    Ok(AppJson(urls))
}
