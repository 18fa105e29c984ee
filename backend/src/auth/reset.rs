//! Password reset by e-mail, for password accounts: `POST /users/password-reset` sends a link
//! (through the outbox) valid for [`RESET_TTL_MS`] and usable once; `POST
//! /users/password-reset/confirm` sets the new password (the policy applies), ends every
//! session of the account and every other outstanding link of it. The answer never tells whether an account exists; links and tokens
//! are never logged, and only their hashes are stored.

use axum::extract::FromRef;
use axum::extract::State;
use projections::{now_ms, on_db};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::sync::Arc;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::accounts::{self, Email, User};
use super::client::ClientNetwork;
use super::throttle::{self, Attempt, Limit};
use super::Auth;
use crate::config::Config;
use crate::error::{AppError, AppJson, AppResult};

pub const RESET_TTL_MS: i64 = 30 * 60 * 1000;
/// Reset requests per client network within an hour.
const REQUESTS_PER_ADDRESS: i64 = 10;
const REQUESTS_PER_ACCOUNT: i64 = 3;
pub const RESET_SUBJECT: &str = "Reset your Companion password";
const LINK_REFUSED: &str = "This reset link is invalid, used or expired. Ask for a new one";

pub fn router<S>() -> OpenApiRouter<S>
where
    S: Clone + Send + Sync + 'static,
    Auth: FromRef<S>,
    Arc<Config>: FromRef<S>,
{
    OpenApiRouter::new()
        .routes(routes!(request))
        .routes(routes!(confirm))
}

fn digest(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

#[derive(Deserialize, ToSchema)]
pub struct ResetRequest {
    pub email: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct ResetResponse {
    pub result: bool,
}

/// Sends a reset link to a password account. Answers the same whether or not the account exists.
#[utoipa::path(post, path = "/users/password-reset", tag = "session", request_body = ResetRequest,
    responses((status = 200, body = ResetResponse), (status = 400, body = crate::error::ErrorBody),
        (status = 429, body = crate::error::ErrorBody)))]
pub async fn request(
    State(state): State<Auth>,
    network: ClientNetwork,
    AppJson(body): AppJson<ResetRequest>,
) -> AppResult<AppJson<ResetResponse>> {
    let email = body
        .email
        .as_deref()
        .map(|e| String::from(Email::normalised(e)))
        .filter(|e| e.contains('@') && e.len() <= 254)
        .ok_or_else(|| AppError::bad_request("Enter a valid e-mail address"))?;
    let hour = 3_600_000;
    for (key, max) in [
        (format!("reset-address:{}", network.0), REQUESTS_PER_ADDRESS),
        (format!("reset-account:{email}"), REQUESTS_PER_ACCOUNT),
    ] {
        let limit = Limit {
            max,
            window_ms: hour,
            base_ms: hour,
        };
        if let Attempt::Blocked { .. } = throttle::attempt(&state.db, &key, limit).await? {
            return Err(AppError::TooManyRequests(
                "Too many reset requests. Try again later.".into(),
            ));
        }
    }
    let user = User::find_by_email(&state.db, &email)
        .await?
        .filter(|u| u.password_hash.is_some() && u.disabled_at.is_none());
    if let Some(user) = user {
        let mut bytes = [0u8; 32];
        rand::thread_rng().fill_bytes(&mut bytes);
        let token = hex::encode(bytes);
        on_db!(&state.db, pool => sqlx::query(
            "insert into password_resets (token_hash, user_id, created_at) values ($1, $2, $3)")
            .bind(digest(&token)).bind(&user.id).bind(now_ms())
            .execute(pool).await.map(|r| r.rows_affected()))?;
        let link = format!(
            "{}/login?reset={token}",
            state.config.public_url(state.config.port)
        );
        let body = format!(
            "Hello {},\n\nto choose a new password for Companion, open this link within 30 minutes:\n\n{link}\n\nIf you did not ask for it, ignore this e-mail: your password stays as it is.\n",
            user.first_name
        );
        crate::outbox::send(&state.db, &user.email, RESET_SUBJECT, &body).await?;
        tracing::info!(user = %user.id, "password reset link sent");
    }
    Ok(AppJson(ResetResponse { result: true }))
}

#[derive(Deserialize, ToSchema)]
pub struct ConfirmRequest {
    pub token: Option<String>,
    pub password: Option<String>,
}

/// Sets a new password with a reset link's token; every session of the account ends.
#[utoipa::path(post, path = "/users/password-reset/confirm", tag = "session", request_body = ConfirmRequest,
    responses((status = 200, body = ResetResponse), (status = 400, body = crate::error::ErrorBody)))]
pub async fn confirm(
    State(state): State<Auth>,
    AppJson(body): AppJson<ConfirmRequest>,
) -> AppResult<AppJson<ResetResponse>> {
    let token = body
        .token
        .filter(|t| !t.is_empty() && t.len() <= 128)
        .ok_or_else(|| AppError::bad_request(LINK_REFUSED))?;
    let password = body
        .password
        .filter(|p| !p.is_empty())
        .ok_or_else(|| AppError::bad_request("The password is required"))?;
    #[derive(sqlx::FromRow)]
    struct Reset {
        user_id: String,
        created_at: i64,
    }
    let reset: Option<Reset> = on_db!(&state.db, pool => sqlx::query_as::<_, Reset>(
        "select user_id, created_at from password_resets where token_hash = $1 and used_at is null")
        .bind(digest(&token)).fetch_optional(pool).await)?;
    let reset = reset
        .filter(|r| now_ms() - r.created_at <= RESET_TTL_MS)
        .ok_or_else(|| AppError::bad_request(LINK_REFUSED))?;
    let user = User::find_by_id(&state.db, &reset.user_id)
        .await?
        .ok_or_else(|| AppError::bad_request(LINK_REFUSED))?;
    // The policy first: a refused password leaves the link usable.
    super::password::check_policy(&password, &user.email)?;
    // Taken once, even by two requests at the same moment.
    let taken = on_db!(&state.db, pool => sqlx::query(
        "update password_resets set used_at = $1 where token_hash = $2 and used_at is null")
        .bind(now_ms()).bind(digest(&token)).execute(pool).await.map(|r| r.rows_affected()))?;
    if taken == 0 {
        return Err(AppError::bad_request(LINK_REFUSED));
    }
    // Also ends every session of the account.
    accounts::set_password(&state.db, &user.id, password).await?;
    // The account's other links stop working: a link mailed before the reset must not undo it.
    on_db!(&state.db, pool => sqlx::query(
        "update password_resets set used_at = $1 where user_id = $2 and used_at is null")
        .bind(now_ms()).bind(&user.id).execute(pool).await.map(|r| r.rows_affected()))?;
    state.sessions.clear();
    state.feed.poke();
    Ok(AppJson(ResetResponse { result: true }))
}
