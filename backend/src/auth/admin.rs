//! The administrators' account calls (`/api/admin/users...`), the API twin of `companion users`.

use axum::extract::FromRef;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::accounts::{self, AccountInfo, NewAccount};
use super::sessions::{self, SessionInfo};
use super::Auth;
use super::{Authorized, Role};
use crate::error::{AppError, AppJson, AppResult};

pub fn router<S>() -> OpenApiRouter<S>
where
    S: Clone + Send + Sync + 'static,
    Auth: FromRef<S>,
{
    OpenApiRouter::new()
        .routes(routes!(list_users, add_user))
        .routes(routes!(set_role))
        .routes(routes!(disable))
        .routes(routes!(enable))
        .routes(routes!(user_sessions))
        .routes(routes!(revoke_session))
}

crate::auth::role_policy!(
    /// Who may manage accounts and sessions.
    pub AccountAdmin: [Role::Admin],
    "Only administrators may manage accounts"
);

/// Every account.
#[utoipa::path(get, path = "/admin/users", tag = "admin", security(("bearer" = [])),
    responses((status = 200, body = Vec<AccountInfo>), (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody)))]
pub async fn list_users(
    State(state): State<Auth>,
    _auth: Authorized<AccountAdmin>,
) -> AppResult<AppJson<Vec<AccountInfo>>> {
    Ok(AppJson(accounts::list(&state.db).await?))
}

#[derive(Deserialize, ToSchema)]
pub struct AddUserRequest {
    pub email: String,
    pub first_name: String,
    #[serde(default)]
    pub last_name: String,
    /// `user` (default), `admin` or `auditor`.
    pub role: Option<String>,
    /// Omitted: the account signs in through single sign-on only.
    pub password: Option<String>,
}

/// Creates an account.
#[utoipa::path(post, path = "/admin/users", tag = "admin", security(("bearer" = [])), request_body = AddUserRequest,
    responses((status = 200, body = AccountInfo), (status = 400, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody)))]
pub async fn add_user(
    State(state): State<Auth>,
    auth: Authorized<AccountAdmin>,
    AppJson(body): AppJson<AddUserRequest>,
) -> AppResult<AppJson<AccountInfo>> {
    let user = accounts::add(
        &state.db,
        NewAccount {
            email: body.email,
            first_name: body.first_name,
            last_name: body.last_name,
            role: body.role.unwrap_or_else(|| "user".into()),
            password: body.password,
        },
    )
    .await?;
    tracing::info!(by = %auth.id, user = %user.id, role = %user.role, "account created");
    Ok(AppJson(AccountInfo::from(&user)))
}

#[derive(Deserialize, ToSchema)]
pub struct RoleRequest {
    pub role: String,
}

/// Changes an account's role; its next request runs with the new role.
#[utoipa::path(post, path = "/admin/users/{id}/role", tag = "admin", security(("bearer" = [])), request_body = RoleRequest,
    params(("id" = String, Path)),
    responses((status = 200, body = AccountInfo), (status = 400, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
        (status = 409, body = crate::error::ErrorBody)))]
pub async fn set_role(
    State(state): State<Auth>,
    auth: Authorized<AccountAdmin>,
    Path(id): Path<String>,
    AppJson(body): AppJson<RoleRequest>,
) -> AppResult<AppJson<AccountInfo>> {
    let user = accounts::set_role(&state.db, &by_id(&id)?, &body.role).await?;
    state.sessions.clear();
    tracing::info!(by = %auth.id, user = %user.id, role = %user.role, "role changed");
    Ok(AppJson(AccountInfo::from(&user)))
}

/// Ids only in the path: an e-mail there would be a second way to name an account.
fn by_id(id: &str) -> AppResult<String> {
    if id.is_empty() || id.len() > 64 || id.contains('@') {
        return Err(AppError::not_found("No account with that id or e-mail"));
    }
    Ok(id.to_string())
}

/// Disables an account and ends its sessions.
#[utoipa::path(post, path = "/admin/users/{id}/disable", tag = "admin", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 200, body = AccountInfo), (status = 403, body = crate::error::ErrorBody),
        (status = 404, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody)))]
pub async fn disable(
    State(state): State<Auth>,
    auth: Authorized<AccountAdmin>,
    Path(id): Path<String>,
) -> AppResult<AppJson<AccountInfo>> {
    let user = accounts::set_disabled(&state.db, &by_id(&id)?, true).await?;
    state.sessions.clear();
    state.feed.poke();
    // Their external links stop working with the account.
    state
        .on_disabled
        .account_disabled(&user.id, &auth.id)
        .await?;
    tracing::info!(by = %auth.id, user = %user.id, "account disabled");
    Ok(AppJson(AccountInfo::from(&user)))
}

/// Enables a disabled account again.
#[utoipa::path(post, path = "/admin/users/{id}/enable", tag = "admin", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 200, body = AccountInfo), (status = 403, body = crate::error::ErrorBody),
        (status = 404, body = crate::error::ErrorBody)))]
pub async fn enable(
    State(state): State<Auth>,
    auth: Authorized<AccountAdmin>,
    Path(id): Path<String>,
) -> AppResult<AppJson<AccountInfo>> {
    let user = accounts::set_disabled(&state.db, &by_id(&id)?, false).await?;
    tracing::info!(by = %auth.id, user = %user.id, "account enabled");
    Ok(AppJson(AccountInfo::from(&user)))
}

/// An account's sessions, newest first.
#[utoipa::path(get, path = "/admin/users/{id}/sessions", tag = "admin", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 200, body = Vec<SessionInfo>), (status = 403, body = crate::error::ErrorBody),
        (status = 404, body = crate::error::ErrorBody)))]
pub async fn user_sessions(
    State(state): State<Auth>,
    _auth: Authorized<AccountAdmin>,
    Path(id): Path<String>,
) -> AppResult<AppJson<Vec<SessionInfo>>> {
    let user = accounts::find(&state.db, &by_id(&id)?).await?;
    Ok(AppJson(sessions::list(&state.db, &user.id).await?))
}

#[derive(Serialize, ToSchema)]
pub struct RevokeResponse {
    pub result: bool,
}

/// Ends one session: its next request answers 401, its sockets close with 4401.
#[utoipa::path(post, path = "/admin/sessions/{id}/revoke", tag = "admin", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 200, body = RevokeResponse), (status = 403, body = crate::error::ErrorBody),
        (status = 404, body = crate::error::ErrorBody)))]
pub async fn revoke_session(
    State(state): State<Auth>,
    auth: Authorized<AccountAdmin>,
    Path(id): Path<String>,
) -> AppResult<AppJson<RevokeResponse>> {
    if id.len() > 64 || !sessions::revoke(&state.db, &id).await? {
        return Err(AppError::not_found("No open session with that id"));
    }
    state.sessions.clear();
    state.feed.poke();
    tracing::info!(by = %auth.id, session = %id, "session revoked");
    Ok(AppJson(RevokeResponse { result: true }))
}
