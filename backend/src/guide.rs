//! The guided tour of the main screens (`GET /guide`), shown at `/wizard` when a screen's info
//! button is tapped. The steps are content (`content/guide/tour.json`), so the tour changes
//! without a new build of the app.
//!
//! The file is read at each call (it is small and rarely read); a file that breaks the rules is
//! a content error, logged and answered with a 500, never half shown.

use std::sync::Arc;

use axum::extract::FromRef;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::Auth;
use crate::auth::AuthUser;
use crate::config::Config;
use crate::error::{AppError, AppJson, AppResult, ErrorBody};

/// Most steps a tour may have; a longer file is refused as a content error.
pub const MAX_STEPS: usize = 30;

pub fn router<S>() -> OpenApiRouter<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<Config>: FromRef<S>,
    Auth: FromRef<S>,
{
    OpenApiRouter::new().routes(routes!(tour))
}

/// One step of the tour: the screen it explains and what to know about it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GuideStep {
    /// The screen's key (`home`, `products`, `documents`...): an info button opens the tour here.
    pub screen: String,
    pub title: String,
    /// Plain text.
    pub text: String,
    /// In-app path of the screen, offered as "Go to" (`/documents`).
    pub path: String,
    /// Optional picture (`/media/...`).
    #[serde(default)]
    pub image: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct GuideResponse {
    pub steps: Vec<GuideStep>,
}

/// Why a tour file is refused.
#[derive(Debug, thiserror::Error)]
pub enum GuideError {
    #[error("{0}: invalid JSON: {1}")]
    Json(String, serde_json::Error),
    #[error("{file}: [{index}].{field}: {reason}")]
    Invalid {
        file: String,
        index: usize,
        field: &'static str,
        reason: &'static str,
    },
    #[error("{0}: more than {MAX_STEPS} steps")]
    TooLong(String),
}

/// Reads and checks a tour file's text.
pub fn parse(file: &str, bytes: &[u8]) -> Result<Vec<GuideStep>, GuideError> {
    let steps: Vec<GuideStep> =
        serde_json::from_slice(bytes).map_err(|e| GuideError::Json(file.into(), e))?;
    if steps.len() > MAX_STEPS {
        return Err(GuideError::TooLong(file.into()));
    }
    let invalid = |index, field, reason| GuideError::Invalid {
        file: file.into(),
        index,
        field,
        reason,
    };
    let mut screens = std::collections::HashSet::new();
    for (i, s) in steps.iter().enumerate() {
        if s.screen.trim().is_empty()
            || !s.screen.chars().all(|c| c.is_ascii_lowercase() || c == '-')
        {
            return Err(invalid(i, "screen", "must be a lower-case key"));
        }
        if !screens.insert(s.screen.as_str()) {
            return Err(invalid(i, "screen", "appears twice"));
        }
        if s.title.trim().is_empty() {
            return Err(invalid(i, "title", "is empty"));
        }
        if s.text.trim().is_empty() {
            return Err(invalid(i, "text", "is empty"));
        }
        if !s.path.starts_with('/') || s.path.starts_with("//") {
            return Err(invalid(i, "path", "must be an in-app path"));
        }
        if s.image
            .as_deref()
            .is_some_and(|img| !img.starts_with("/media/"))
        {
            return Err(invalid(i, "image", "must be under /media/"));
        }
    }
    Ok(steps)
}

/// The tour's steps, in order.
#[utoipa::path(get, path = "/guide", tag = "content", security(("bearer" = [])),
    responses((status = 200, body = GuideResponse), (status = 401, body = ErrorBody)))]
pub async fn tour(
    State(config): State<Arc<Config>>,
    _auth: AuthUser,
) -> AppResult<AppJson<GuideResponse>> {
    let path = config.content_dir.join("guide").join("tour.json");
    let steps = match tokio::fs::read(&path).await {
        Ok(bytes) => parse("guide/tour.json", &bytes)
            .map_err(|e| AppError::Internal(anyhow::Error::new(e).context("the guided tour")))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => {
            return Err(AppError::Internal(
                anyhow::Error::new(e).context("reading the guided tour"),
            ))
        }
    };
    Ok(AppJson(GuideResponse { steps }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_tour_is_accepted() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../content/guide/tour.json");
        let steps = parse("guide/tour.json", &std::fs::read(path).unwrap()).unwrap();
        assert!(steps.len() >= 5);
    }

    #[test]
    fn broken_tours_are_refused_with_the_step_and_field() {
        let step = |screen: &str, path: &str| serde_json::json!({"screen": screen, "title": "T", "text": "X", "path": path});
        let check = |v: serde_json::Value| {
            parse("guide/tour.json", v.to_string().as_bytes())
                .map(|s| s.len())
                .map_err(|e| e.to_string())
        };
        assert_eq!(check(serde_json::json!([step("home", "/home")])), Ok(1));
        assert_eq!(
            check(serde_json::json!([
                step("home", "/home"),
                step("home", "/menu")
            ])),
            Err("guide/tour.json: [1].screen: appears twice".into())
        );
        assert_eq!(
            check(serde_json::json!([step("home", "https://evil.example")])),
            Err("guide/tour.json: [0].path: must be an in-app path".into())
        );
        assert_eq!(
            check(serde_json::json!([step("Home!", "/home")])),
            Err("guide/tour.json: [0].screen: must be a lower-case key".into())
        );
        let many: Vec<_> = (0..=MAX_STEPS)
            .map(|i| step(&"a".repeat(i + 1), "/home"))
            .collect();
        assert_eq!(
            check(serde_json::Value::Array(many)),
            Err(format!("guide/tour.json: more than {MAX_STEPS} steps"))
        );
        assert!(check(serde_json::json!([{"screen": "home"}]))
            .unwrap_err()
            .contains("invalid JSON"));
    }
}
