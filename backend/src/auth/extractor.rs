//! The `AuthUser` extractor: a request is signed in when it carries a valid bearer token whose
//! session is still open; the role is the account's current one.

use axum::extract::{FromRef, FromRequestParts};
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;

use super::{Auth, Role};
use crate::error::AppError;

/// The signed-in caller. Extracting it fails with 401 for a missing, expired or forged token.
#[derive(Debug, Clone)]
pub struct AuthUser {
    pub id: String,
    pub role: Role,
    /// The server-side session of the token.
    pub session_id: String,
    /// The session's absolute end, ms since the epoch.
    pub session_expires_at: i64,
    /// The account, read with the session.
    pub account: super::Account,
}

/// The bearer token of a request, if any.
pub fn bearer_token(parts: &Parts) -> Option<&str> {
    parts
        .headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            v.strip_prefix("Bearer ")
                .or_else(|| v.strip_prefix("bearer "))
        })
        .map(str::trim)
        .filter(|t| !t.is_empty())
}

/// On any state that holds the [`Auth`] handles.
impl<S> FromRequestParts<S> for AuthUser
where
    S: Send + Sync,
    Auth: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let state = &Auth::from_ref(state);
        let token =
            bearer_token(parts).ok_or_else(|| AppError::Unauthorized("Please sign in".into()))?;
        let claims = state
            .jwt
            .verify(token)
            .map_err(|e| AppError::Unauthorized(e.to_string()))?;
        let session = super::sessions::check(state, &claims).await?;
        if !session.terms_accepted && !super::terms::allowed_before_acceptance(parts.uri.path()) {
            return Err(AppError::TermsNotAccepted);
        }
        // The request's log line says who made it.
        tracing::Span::current().record("user_id", session.user_id.as_str());
        Ok(AuthUser {
            id: session.user_id,
            role: session.role,
            session_id: session.session_id,
            session_expires_at: session.expires_at,
            account: session.account,
        })
    }
}
