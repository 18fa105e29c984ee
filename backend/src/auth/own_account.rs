//! What a signed-in user does with their own account: see their open sessions (device, signed
//! in at, last used), end any of them, and change their password (which ends every other
//! session).

use axum::extract::{FromRef, Path, State};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::accounts::{self, User};
use super::extractor::AuthUser;
use super::throttle::{self, Attempt, Limit};
use super::{password, sessions, Auth};
use crate::error::{AppError, AppJson, AppResult};

pub fn router<S>() -> OpenApiRouter<S>
where
    S: Clone + Send + Sync + 'static,
    Auth: FromRef<S>,
{
    OpenApiRouter::new()
        .routes(routes!(own_sessions))
        .routes(routes!(end_own_session))
        .routes(routes!(change_password))
}

const NO_SUCH_SESSION: &str = "No open session of yours with that id";
const WRONG_PASSWORD: &str = "The current password is not correct";
const THROTTLED: &str = "Too many wrong passwords. Try again in a few minutes.";

/// One of the caller's open sessions.
#[derive(Debug, Serialize, ToSchema)]
pub struct OwnSession {
    pub id: String,
    /// The browser's user agent when it signed in, if it sent one.
    pub device: Option<String>,
    /// When it signed in, ms since the epoch.
    pub signed_in_at: i64,
    /// Its last recorded use, ms since the epoch (written at most about once a minute).
    pub last_used_at: i64,
    /// Its absolute end, ms since the epoch.
    pub expires_at: i64,
    /// True for the session of this request.
    pub current: bool,
}

/// The caller's open sessions, the most recently used first.
#[utoipa::path(get, path = "/users/sessions", tag = "session", security(("bearer" = [])),
    responses((status = 200, body = Vec<OwnSession>), (status = 401, body = crate::error::ErrorBody)))]
pub async fn own_sessions(
    State(state): State<Auth>,
    auth: AuthUser,
) -> AppResult<AppJson<Vec<OwnSession>>> {
    let idle_ms = sessions::idle_ms(&state.config);
    let open = sessions::list_open(&state.db, &auth.id, idle_ms).await?;
    Ok(AppJson(
        open.into_iter()
            .map(|s| OwnSession {
                current: s.id == auth.session_id,
                id: s.id,
                device: s.device,
                signed_in_at: s.created_at,
                last_used_at: s.last_seen_at,
                expires_at: s.expires_at,
            })
            .collect(),
    ))
}

#[derive(Serialize, ToSchema)]
pub struct EndSessionResponse {
    pub result: bool,
}

/// Ends one of the caller's sessions: its next request answers 401 and its sockets close with
/// 4401. Another user's session, or one already ended, is 404.
#[utoipa::path(delete, path = "/users/sessions/{id}", tag = "session", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 200, body = EndSessionResponse), (status = 401, body = crate::error::ErrorBody),
        (status = 404, body = crate::error::ErrorBody)))]
pub async fn end_own_session(
    State(state): State<Auth>,
    auth: AuthUser,
    Path(id): Path<String>,
) -> AppResult<AppJson<EndSessionResponse>> {
    if id.len() > 64 || !sessions::revoke_own(&state.db, &auth.id, &id).await? {
        return Err(AppError::not_found(NO_SUCH_SESSION));
    }
    state.sessions.clear();
    // This node's sockets hear it at once; the others through the cluster channel.
    state.feed.poke();
    tracing::info!(session = %id, "session ended by its user");
    Ok(AppJson(EndSessionResponse { result: true }))
}

#[derive(Deserialize, ToSchema)]
pub struct ChangePasswordRequest {
    pub current_password: Option<String>,
    pub new_password: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct ChangePasswordResponse {
    pub result: bool,
}

/// Changes the caller's password (the policy applies). This session stays signed in; every
/// other session of the account ends.
///
/// Wrong current passwords are throttled per account like sign-in (`LOGIN_MAX_FAILURES`).
#[utoipa::path(post, path = "/users/password", tag = "session", security(("bearer" = [])),
    request_body = ChangePasswordRequest,
    responses((status = 200, body = ChangePasswordResponse), (status = 400, body = crate::error::ErrorBody),
        (status = 401, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
pub async fn change_password(
    State(state): State<Auth>,
    auth: AuthUser,
    AppJson(body): AppJson<ChangePasswordRequest>,
) -> AppResult<AppJson<ChangePasswordResponse>> {
    let current = body
        .current_password
        .filter(|p| !p.is_empty())
        .ok_or_else(|| AppError::bad_request("The current password is required"))?;
    let new = body
        .new_password
        .filter(|p| !p.is_empty())
        .ok_or_else(|| AppError::bad_request("The new password is required"))?;
    if current.len() > password::MAX_PASSWORD_LEN || new.len() > password::MAX_PASSWORD_LEN {
        return Err(AppError::bad_request("The password is too long"));
    }
    let user = User::find_by_id(&state.db, &auth.id)
        .await?
        .ok_or_else(|| AppError::Unauthorized("Please sign in".into()))?;
    let Some(stored) = user.password_hash.clone() else {
        return Err(accounts::AccountError::SingleSignOnAccount.into());
    };
    // Recorded before the password is checked, so parallel guesses cannot outrun the limit.
    let key = format!("password-change:{}", user.id);
    let window_ms = state.config.login_window_seconds.max(1) * 1000;
    let limit = Limit {
        max: state.config.login_max_failures,
        window_ms,
        base_ms: 30_000.min(window_ms),
    };
    if let Attempt::Blocked { .. } = throttle::attempt(&state.db, &key, limit).await? {
        return Err(AppError::TooManyRequests(THROTTLED.into()));
    }
    if !password::verify(current, stored).await? {
        return Err(AppError::bad_request(WRONG_PASSWORD));
    }
    throttle::clear(&state.db, &key).await?;
    accounts::change_password(&state.db, &user.id, new, &auth.session_id).await?;
    state.sessions.clear();
    state.feed.poke();
    tracing::info!("password changed; the other sessions ended");
    Ok(AppJson(ChangePasswordResponse { result: true }))
}
