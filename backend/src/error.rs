//! The API's one error type and its mapping to HTTP.
//!
//! Clients always get `{"message": "..."}` with the right status. Unexpected failures become an
//! opaque 500 while their cause is logged inside the request's span.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// 400: the request is malformed or breaks a rule; the message says which.
    #[error("{0}")]
    BadRequest(String),
    /// 401: no valid session; the app signs out and asks to sign in again.
    #[error("{0}")]
    Unauthorized(String),
    /// 403: signed in, but not allowed to do this.
    #[error("{0}")]
    Forbidden(String),
    /// 403 with the code `terms_not_accepted`: the current terms must be accepted first; the app
    /// opens its terms screen.
    #[error("Accept the terms and conditions to continue")]
    TermsNotAccepted,
    /// 404: nothing with that id (or nothing this user may see).
    #[error("{0}")]
    NotFound(String),
    /// 409: a concurrent change won; nothing was applied.
    #[error("{0}")]
    Conflict(String),
    /// 413: the body is larger than allowed.
    #[error("{0}")]
    PayloadTooLarge(String),
    /// 422: the request is well formed but cannot be processed as sent (an `Idempotency-Key`
    /// reused for a different request).
    #[error("{0}")]
    Unprocessable(String),
    /// 415: the uploaded file is not of an accepted type.
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// 429: too many attempts; try again later.
    #[error("{0}")]
    TooManyRequests(String),
    /// 429 with `Retry-After`: a rate limit or quota; the client may retry after that long.
    #[error("{message}")]
    RateLimited {
        message: String,
        retry_after_seconds: u64,
    },
    /// 507: the server is short of room to store what was sent.
    #[error("{0}")]
    InsufficientStorage(String),
    /// 503: a dependency (e.g. the single sign-on provider) is not configured or unreachable.
    #[error("{0}")]
    Unavailable(String),
    /// 503 with `Retry-After`: a read model is stopped on an event it cannot apply (see
    /// `companion projections`); the change was recorded and shows once it is repaired.
    #[error("{0}")]
    ProjectionStopped(String),
    /// 503 with `Retry-After`: the change was recorded but no node has projected it within the
    /// wait (the projector's owner is changing hands, or the database is slow).
    #[error("{0}")]
    ProjectionsBehind(String),
    /// 404 of an external link's viewer: no link has this token (`{error, message}`).
    #[error("This link does not exist.")]
    LinkNotFound,
    /// 410 of an external link's viewer: revoked, expired, used up or ended (`{error, message,
    /// state, replacement}`); nothing of the document is served.
    #[error("This link is no longer available.")]
    LinkGone {
        state: &'static str,
        /// The item that replaces a superseded document.
        replacement: Option<String>,
    },
    /// 500: anything unexpected; the cause is logged, the client sees a generic message.
    /// A withdrawn or expired company document (or a copy of one): 410, never a byte of it.
    #[error("{}", .0.message)]
    Withdrawn(Box<WithdrawnBody>),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

/// The JSON body of a 410 for a withdrawn or expired document: why and since when, and what
/// replaces it when something does.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct WithdrawnBody {
    /// 'This document was withdrawn.' or 'This document has expired.'
    pub message: String,
    /// `withdrawn` or `expired`.
    pub state: &'static str,
    /// The reason the withdrawal gave (empty for an expiry).
    pub reason: String,
    /// When, in milliseconds since the epoch.
    pub at: i64,
    /// The library document that replaces it.
    pub replacement: Option<Replacement>,
}

/// The document that replaces a withdrawn one.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Replacement {
    /// Its library id.
    pub id: i64,
    pub title: String,
    /// Where the signed-in app opens it (`/api/library/{id}/file`).
    pub url: String,
}

pub type AppResult<T> = Result<T, AppError>;

/// `Retry-After` of a 503 for a stopped projection: an operator has to act, so not seconds.
pub const PROJECTION_STOPPED_RETRY_AFTER_SECONDS: u32 = 60;
/// `Retry-After` of a 503 for a change not projected in time: a new projector owner is
/// normally in place within a lease (a few seconds).
pub const PROJECTIONS_BEHIND_RETRY_AFTER_SECONDS: u64 = 5;

impl AppError {
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::BadRequest(message.into())
    }
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::NotFound(message.into())
    }
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::Forbidden(message.into())
    }

    pub fn status(&self) -> StatusCode {
        match self {
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            Self::Forbidden(_) | Self::TermsNotAccepted => StatusCode::FORBIDDEN,
            Self::NotFound(_) | Self::LinkNotFound => StatusCode::NOT_FOUND,
            Self::LinkGone { .. } | Self::Withdrawn(_) => StatusCode::GONE,
            Self::Conflict(_) => StatusCode::CONFLICT,
            Self::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Self::TooManyRequests(_) | Self::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            Self::Unavailable(_) | Self::ProjectionStopped(_) | Self::ProjectionsBehind(_) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            Self::InsufficientStorage(_) => StatusCode::INSUFFICIENT_STORAGE,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl From<sqlx::Error> for AppError {
    fn from(err: sqlx::Error) -> Self {
        Self::Internal(anyhow::Error::new(err).context("database"))
    }
}

/// A lookup an aggregate needed (a user, a publication, a course) failed: the server's fault,
/// logged, never shown.
impl From<events::lookup::LookupError> for AppError {
    fn from(err: events::lookup::LookupError) -> Self {
        Self::Internal(anyhow::Error::new(err).context("lookup for a command"))
    }
}

/// The JSON body of every error response.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    pub message: String,
    /// A machine-readable reason, when the app acts on it (`terms_not_accepted`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<&'static str>,
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let status = self.status();
        let message = match &self {
            Self::Internal(cause) => {
                tracing::error!(error = ?cause, "request failed");
                "An error occurred while getting all the informations".to_string()
            }
            other => other.to_string(),
        };
        match &self {
            Self::LinkNotFound => {
                return (
                    status,
                    Json(serde_json::json!({ "error": message, "message": message })),
                )
                    .into_response();
            }
            Self::LinkGone { state, replacement } => {
                let body = serde_json::json!({
                    "error": message, "message": message, "state": state, "replacement": replacement,
                });
                return (status, Json(body)).into_response();
            }
            Self::Withdrawn(body) => {
                let mut response = (status, Json(body.as_ref())).into_response();
                // Never kept by a cache or the service worker.
                response.headers_mut().insert(
                    axum::http::header::CACHE_CONTROL,
                    axum::http::HeaderValue::from_static("no-store"),
                );
                return response;
            }
            _ => {}
        }
        let code = matches!(self, Self::TermsNotAccepted).then_some("terms_not_accepted");
        let mut response = (status, Json(ErrorBody { message, code })).into_response();
        let retry_after = match &self {
            Self::RateLimited {
                retry_after_seconds,
                ..
            } => Some((*retry_after_seconds).max(1)),
            Self::ProjectionStopped(_) => Some(u64::from(PROJECTION_STOPPED_RETRY_AFTER_SECONDS)),
            Self::ProjectionsBehind(_) => Some(PROJECTIONS_BEHIND_RETRY_AFTER_SECONDS),
            _ => None,
        };
        if let Some(seconds) = retry_after {
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(seconds),
            );
        }
        response
    }
}

impl From<JsonRejection> for AppError {
    fn from(rejection: JsonRejection) -> Self {
        match rejection {
            JsonRejection::BytesRejection(_) => {
                Self::PayloadTooLarge("The request body is too large".into())
            }
            JsonRejection::MissingJsonContentType(_) => {
                Self::bad_request("The request body must be JSON (Content-Type: application/json)")
            }
            other => Self::bad_request(format!("Invalid request body: {}", other.body_text())),
        }
    }
}

impl From<QueryRejection> for AppError {
    fn from(rejection: QueryRejection) -> Self {
        Self::bad_request(format!("Invalid query: {}", rejection.body_text()))
    }
}

/// `Json` whose rejections answer in the API's error shape.
#[derive(FromRequest)]
#[from_request(via(axum::Json), rejection(AppError))]
pub struct AppJson<T>(pub T);

impl<T: Serialize> IntoResponse for AppJson<T> {
    fn into_response(self) -> Response {
        Json(self.0).into_response()
    }
}

/// `Query` whose rejections answer in the API's error shape.
#[derive(FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(AppError))]
pub struct AppQuery<T>(pub T);
