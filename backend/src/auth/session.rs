//! Spec section 7 "Session and user": domain check, sign-in, session restore, user data, terms,
//! onboarding and device registration.

use axum::extract::State;
use projections::{now_ms, on_db};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::client::ClientAddress;
use super::extractor::AuthUser;
use super::throttle::{self, Attempt, Limit};
use super::{password, sessions};
use crate::error::{AppError, AppJson, AppQuery, AppResult};
use crate::state::AppState;
use crate::users::{self, User, UserData};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(check_domain))
        .routes(routes!(login))
        .routes(routes!(welcome))
        .routes(routes!(logout))
        .routes(routes!(get_data))
        .routes(routes!(accept_terms))
        .routes(routes!(onboarding_slides, onboarding_done))
        .routes(routes!(register_device))
}

const MAX_PASSWORD_LEN: usize = password::MAX_PASSWORD_LEN;

#[derive(Deserialize, IntoParams)]
pub struct CheckDomainQuery {
    pub email: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct CheckDomainResponse {
    /// True when the e-mail's domain signs in through single sign-on.
    pub azure: bool,
    /// The single sign-on provider to open (`/users/login-azure-{source}`), when `azure`.
    pub source: Option<String>,
}

fn valid_email(raw: Option<&str>) -> AppResult<String> {
    let email = raw.map(str::trim).unwrap_or_default();
    if email.is_empty() {
        return Err(AppError::bad_request("The e-mail is required"));
    }
    if !events::email::is_valid(email) {
        return Err(AppError::bad_request("Enter a valid e-mail address"));
    }
    Ok(users::normalise_email(email))
}

/// Tells whether an e-mail signs in with a password or through single sign-on.
#[utoipa::path(get, path = "/users/check-domain-new", params(CheckDomainQuery), tag = "session",
    responses((status = 200, body = CheckDomainResponse), (status = 400, body = crate::error::ErrorBody)))]
pub async fn check_domain(
    State(state): State<AppState>,
    AppQuery(query): AppQuery<CheckDomainQuery>,
) -> AppResult<AppJson<CheckDomainResponse>> {
    let email = valid_email(query.email.as_deref())?;
    let domain = events::email::domain(&email).unwrap_or_default();
    let azure = state
        .config
        .sso_domains
        .iter()
        .any(|d| d.trim().eq_ignore_ascii_case(domain));
    Ok(AppJson(CheckDomainResponse {
        azure,
        source: azure.then(|| "azure".to_string()),
    }))
}

#[derive(Deserialize, ToSchema)]
pub struct LoginRequest {
    pub username: Option<String>,
    pub password: Option<String>,
}

/// What sign-in and session restore answer.
#[derive(Serialize, ToSchema)]
pub struct SessionResponse {
    pub user: UserData,
    /// True when the terms must be accepted before anything else.
    pub need_accept_terms: bool,
    /// True when the onboarding slides must be shown.
    pub onboarding: bool,
    /// True when a device with a push id is registered for this user.
    pub push: bool,
    /// An app update the user has not seen yet.
    pub update_id: Option<i64>,
    /// The session token; replaces the one the app holds.
    pub jwt: String,
}

pub async fn session_response(
    state: &AppState,
    user: &User,
    jwt: String,
) -> AppResult<SessionResponse> {
    let push: Option<i64> = on_db!(&state.db, pool => sqlx::query_scalar(
        "select count(*) from devices where user_id = $1 and push_id is not null and push_id <> ''")
        .bind(&user.id).fetch_optional(pool).await)?;
    Ok(SessionResponse {
        user: user.data(),
        need_accept_terms: !super::terms::has_accepted(
            &state.db,
            &user.id,
            &state.config.terms_version,
        )
        .await?,
        onboarding: user.onboarding_done_at.is_none(),
        push: push.unwrap_or(0) > 0,
        update_id: crate::updates_hook::pending_update_id(state, &user.id).await?,
        jwt,
    })
}

/// Opens a session for `user` and answers as sign-in does.
pub async fn open_session(
    state: &AppState,
    user: &User,
    device: Option<&str>,
    client: &ClientAddress,
) -> AppResult<SessionResponse> {
    let (session_id, expires_at) = sessions::open(state, &user.id, device, Some(&client.0)).await?;
    let jwt = sessions::token_for(state, &user.id, &session_id, expires_at)?;
    session_response(state, user, jwt).await
}

const LOGIN_FAILED: &str = "Login failed";
const THROTTLED: &str = "Too many failed sign-in attempts. Try again in a few minutes.";

/// Signs in with e-mail and password.
///
/// Throttled per account and client address (`LOGIN_MAX_FAILURES`, then an exponential back-off)
/// and per client address (`LOGIN_ADDRESS_MAX_FAILURES`): failures elsewhere never lock the owner
/// out of their own address.
#[utoipa::path(post, path = "/users/login", request_body = LoginRequest, tag = "session",
    responses((status = 200, body = SessionResponse), (status = 400, body = crate::error::ErrorBody),
        (status = 401, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody),
        (status = 503, body = crate::error::ErrorBody)))]
pub async fn login(
    State(state): State<AppState>,
    client: ClientAddress,
    headers: axum::http::HeaderMap,
    AppJson(body): AppJson<LoginRequest>,
) -> AppResult<AppJson<SessionResponse>> {
    let email = valid_email(body.username.as_deref())?;
    let password = body.password.unwrap_or_default();
    if password.is_empty() {
        return Err(AppError::bad_request("The password is required"));
    }
    if password.len() > MAX_PASSWORD_LEN {
        return Err(AppError::bad_request("The password is too long"));
    }
    let window_ms = state.config.login_window_seconds.max(1) * 1000;
    let account_key = throttle::account_key(&email, &client.0);
    let address_key = throttle::address_key(&client.0);
    // Recorded before the password is checked, so parallel guesses cannot outrun the limit.
    for (key, max) in [
        (&account_key, state.config.login_max_failures),
        (&address_key, state.config.login_address_max_failures),
    ] {
        let limit = Limit {
            max,
            window_ms,
            base_ms: 30_000.min(window_ms),
        };
        if let Attempt::Blocked {
            retry_after_seconds,
        } = throttle::attempt(&state.db, key, limit).await?
        {
            tracing::info!(retry_after_seconds, "sign-in refused while throttled");
            return Err(AppError::TooManyRequests(THROTTLED.into()));
        }
    }

    let user = users::find_by_email(&state.db, &email).await?;
    let stored = user
        .as_ref()
        .and_then(|u| u.password_hash.clone())
        .unwrap_or_else(|| password::DUMMY_HASH.clone());
    let matches = password::verify(password, stored).await?;
    match user {
        Some(user) if matches && user.password_hash.is_some() && user.disabled_at.is_none() => {
            throttle::clear(&state.db, &account_key).await?;
            throttle::forgive_one(&state.db, &address_key).await?;
            let device = headers
                .get(axum::http::header::USER_AGENT)
                .and_then(|v| v.to_str().ok());
            Ok(AppJson(open_session(&state, &user, device, &client).await?))
        }
        _ => {
            tracing::info!(address = %client.0, "failed sign-in");
            metrics::counter!(crate::metrics::LOGIN_FAILURES).increment(1);
            Err(AppError::Unauthorized(LOGIN_FAILED.into()))
        }
    }
}

async fn current_user(state: &AppState, auth: &AuthUser) -> AppResult<User> {
    users::find_by_id(&state.db, &auth.id)
        .await?
        .ok_or_else(|| AppError::Unauthorized("Please sign in".into()))
}

/// Restores a session from a stored token and hands out a fresh one.
#[utoipa::path(post, path = "/users/welcome", tag = "session", security(("bearer" = [])),
    responses((status = 200, body = SessionResponse), (status = 401, body = crate::error::ErrorBody)))]
pub async fn welcome(
    State(state): State<AppState>,
    auth: AuthUser,
) -> AppResult<AppJson<SessionResponse>> {
    let user = current_user(&state, &auth).await?;
    // Renewal keeps the session: the new token never outlives its absolute end.
    let jwt = sessions::token_for(&state, &user.id, &auth.session_id, auth.session_expires_at)?;
    Ok(AppJson(session_response(&state, &user, jwt).await?))
}

/// Signs out: ends this session on the server (its token stops working at once, its sockets
/// close with 4401).
#[utoipa::path(post, path = "/users/logout", tag = "session", security(("bearer" = [])),
    responses((status = 200, body = ResultResponse), (status = 401, body = crate::error::ErrorBody)))]
pub async fn logout(
    State(state): State<AppState>,
    auth: AuthUser,
) -> AppResult<AppJson<ResultResponse>> {
    sessions::revoke(&state.db, &auth.session_id).await?;
    state.sessions.clear();
    // This node's sockets hear it at once; the others through the cluster channel.
    state.realtime.poke();
    Ok(AppJson(ResultResponse { result: true }))
}

/// The signed-in user's data.
#[utoipa::path(get, path = "/users/get-data", tag = "session", security(("bearer" = [])),
    responses((status = 200, body = UserData), (status = 401, body = crate::error::ErrorBody)))]
pub async fn get_data(
    State(state): State<AppState>,
    auth: AuthUser,
) -> AppResult<AppJson<UserData>> {
    Ok(AppJson(current_user(&state, &auth).await?.data()))
}

#[derive(Serialize, ToSchema)]
pub struct ResultResponse {
    pub result: bool,
}

/// Records that the user accepted the current version of the terms and conditions (an event);
/// content calls work from the next request on.
#[utoipa::path(get, path = "/users/accept-terms", tag = "session", security(("bearer" = [])),
    responses((status = 200, body = ResultResponse), (status = 401, body = crate::error::ErrorBody)))]
pub async fn accept_terms(
    State(state): State<AppState>,
    auth: AuthUser,
) -> AppResult<AppJson<ResultResponse>> {
    let user = current_user(&state, &auth).await?;
    super::terms::accept(
        &state.db,
        Some(state.projector.clone()),
        &user.id,
        &state.config.terms_version,
    )
    .await?;
    users::set_terms_accepted(&state.db, &user.id).await?;
    state.sessions.clear();
    Ok(AppJson(ResultResponse { result: true }))
}

#[derive(Serialize, Deserialize, ToSchema, Clone)]
pub struct Slide {
    pub image: String,
}

#[derive(Serialize, ToSchema)]
pub struct OnboardingResponse {
    pub slides: Vec<Slide>,
}

/// The onboarding slides (from `content/onboarding/slides.json`).
#[utoipa::path(get, path = "/users/onboarding", tag = "session", security(("bearer" = [])),
    responses((status = 200, body = OnboardingResponse), (status = 401, body = crate::error::ErrorBody)))]
pub async fn onboarding_slides(
    State(state): State<AppState>,
    _auth: AuthUser,
) -> AppResult<AppJson<OnboardingResponse>> {
    let path = state
        .config
        .content_dir
        .join("onboarding")
        .join("slides.json");
    let slides = match tokio::fs::read(&path).await {
        Ok(bytes) => {
            #[derive(Deserialize)]
            #[serde(untagged)]
            enum SlidesFile {
                Wrapped { slides: Vec<Slide> },
                Bare(Vec<Slide>),
            }
            match serde_json::from_slice::<SlidesFile>(&bytes) {
                Ok(SlidesFile::Wrapped { slides }) | Ok(SlidesFile::Bare(slides)) => slides,
                Err(e) => {
                    return Err(AppError::Internal(anyhow::anyhow!(
                        "{}: {e}",
                        path.display()
                    )));
                }
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => {
            return Err(AppError::Internal(
                anyhow::Error::new(e).context("reading slides"),
            ))
        }
    };
    Ok(AppJson(OnboardingResponse { slides }))
}

/// Records that the user went through the onboarding slides.
#[utoipa::path(post, path = "/users/onboarding", tag = "session", security(("bearer" = [])),
    responses((status = 200, body = ResultResponse), (status = 401, body = crate::error::ErrorBody)))]
pub async fn onboarding_done(
    State(state): State<AppState>,
    auth: AuthUser,
) -> AppResult<AppJson<ResultResponse>> {
    let user = current_user(&state, &auth).await?;
    users::set_onboarding_done(&state.db, &user.id).await?;
    Ok(AppJson(ResultResponse { result: true }))
}

#[derive(Deserialize, ToSchema)]
pub struct DeviceRequest {
    pub push_id: Option<String>,
    pub os: Option<String>,
    pub uuid: Option<String>,
    pub app_version: Option<String>,
    pub browser: Option<String>,
    pub device: Option<String>,
}

const MAX_DEVICE_FIELD_LEN: usize = 512;

/// Registers the device the app runs on (for push notifications).
#[utoipa::path(post, path = "/users/register-device", request_body = DeviceRequest, tag = "session",
    security(("bearer" = [])),
    responses((status = 200, body = ResultResponse), (status = 400, body = crate::error::ErrorBody),
        (status = 401, body = crate::error::ErrorBody)))]
pub async fn register_device(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<DeviceRequest>,
) -> AppResult<AppJson<ResultResponse>> {
    let fields = [
        &body.push_id,
        &body.os,
        &body.uuid,
        &body.app_version,
        &body.browser,
        &body.device,
    ];
    if fields
        .iter()
        .any(|f| f.as_ref().is_some_and(|v| v.len() > MAX_DEVICE_FIELD_LEN))
    {
        return Err(AppError::bad_request(format!(
            "Device fields must be at most {MAX_DEVICE_FIELD_LEN} characters"
        )));
    }
    let user = current_user(&state, &auth).await?;
    let _guard = state.db.write_guard().await;
    on_db!(&state.db, pool => async {
        let mut tx = pool.begin().await?;
        // One row per device: a re-registration replaces the earlier one.
        if let Some(uuid) = body.uuid.as_deref().filter(|u| !u.is_empty()) {
            sqlx::query("delete from devices where user_id = $1 and uuid = $2")
                .bind(&user.id).bind(uuid).execute(&mut *tx).await?;
        }
        sqlx::query("insert into devices (user_id, push_id, os, uuid, app_version, browser, device, registered_at)
                     values ($1, $2, $3, $4, $5, $6, $7, $8)")
            .bind(&user.id).bind(&body.push_id).bind(&body.os).bind(&body.uuid)
            .bind(&body.app_version).bind(&body.browser).bind(&body.device).bind(now_ms())
            .execute(&mut *tx).await?;
        tx.commit().await
    }.await)?;
    Ok(AppJson(ResultResponse { result: true }))
}
