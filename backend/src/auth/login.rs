//! Spec section 7 "Session and user": domain check, sign-in, session restore, user data, terms,
//! onboarding and device registration.

use std::sync::Arc;

use axum::extract::FromRef;
use axum::extract::State;
use projections::on_db;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::accounts::{Email, User, UserData};
use super::client::{ClientAddress, ClientNetwork};
use super::extractor::AuthUser;
use super::throttle::{self, Attempt, Limit};
use super::Auth;
use super::{password, sessions};
use crate::config::Config;
use crate::error::{AppError, AppJson, AppQuery, AppResult};

pub fn router<S>() -> OpenApiRouter<S>
where
    S: Clone + Send + Sync + 'static,
    Auth: FromRef<S>,
    Arc<Config>: FromRef<S>,
{
    OpenApiRouter::new()
        .routes(routes!(check_domain))
        .routes(routes!(login))
        .routes(routes!(welcome))
        .routes(routes!(logout))
        .routes(routes!(get_data))
        .routes(routes!(accept_terms))
        .routes(routes!(onboarding_slides, onboarding_done))
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

fn valid_email(raw: Option<&str>) -> AppResult<Email> {
    let raw = raw.unwrap_or_default();
    if raw.trim().is_empty() {
        return Err(AppError::bad_request("The e-mail is required"));
    }
    Email::parse(raw).ok_or_else(|| AppError::bad_request("Enter a valid e-mail address"))
}

/// Tells whether an e-mail signs in with a password or through single sign-on.
#[utoipa::path(get, path = "/users/check-domain-new", params(CheckDomainQuery), tag = "session",
    responses((status = 200, body = CheckDomainResponse), (status = 400, body = crate::error::ErrorBody)))]
pub async fn check_domain(
    State(state): State<Auth>,
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
    state: &Auth,
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
        // The newest app update when the user has not viewed it yet.
        update_id: projections::notifications::latest_update_unviewed(&state.db, &user.id).await?,
        jwt,
    })
}

/// Opens a session for `user` and answers as sign-in does.
pub async fn open_session(
    state: &Auth,
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
/// Throttled per account and client network (`LOGIN_MAX_FAILURES`, then an exponential back-off)
/// and per client network (`LOGIN_ADDRESS_MAX_FAILURES`): failures elsewhere never lock the owner
/// out of their own network, and the addresses of one network count as one.
#[utoipa::path(post, path = "/users/login", request_body = LoginRequest, tag = "session",
    responses((status = 200, body = SessionResponse), (status = 400, body = crate::error::ErrorBody),
        (status = 401, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody),
        (status = 503, body = crate::error::ErrorBody)))]
pub async fn login(
    State(state): State<Auth>,
    client: ClientAddress,
    network: ClientNetwork,
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
    let account_key = throttle::account_key(&email, &network.0);
    let address_key = throttle::address_key(&network.0);
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

    let user = User::find_by_email(&state.db, &email).await?;
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

pub(super) async fn current_user(state: &Auth, auth: &AuthUser) -> AppResult<User> {
    User::find_by_id(&state.db, &auth.id)
        .await?
        .ok_or_else(|| AppError::Unauthorized("Please sign in".into()))
}

/// Restores a session from a stored token and hands out a fresh one.
#[utoipa::path(post, path = "/users/welcome", tag = "session", security(("bearer" = [])),
    responses((status = 200, body = SessionResponse), (status = 401, body = crate::error::ErrorBody)))]
pub async fn welcome(
    State(state): State<Auth>,
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
    State(state): State<Auth>,
    auth: AuthUser,
) -> AppResult<AppJson<ResultResponse>> {
    sessions::revoke(&state.db, &auth.session_id).await?;
    state.sessions.clear();
    // This node's sockets hear it at once; the others through the cluster channel.
    state.feed.poke();
    Ok(AppJson(ResultResponse { result: true }))
}

/// The signed-in user's data.
#[utoipa::path(get, path = "/users/get-data", tag = "session", security(("bearer" = [])),
    responses((status = 200, body = UserData), (status = 401, body = crate::error::ErrorBody)))]
pub async fn get_data(State(state): State<Auth>, auth: AuthUser) -> AppResult<AppJson<UserData>> {
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
    State(state): State<Auth>,
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
    User::set_terms_accepted(&state.db, &user.id).await?;
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
    State(state): State<Auth>,
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
    State(state): State<Auth>,
    auth: AuthUser,
) -> AppResult<AppJson<ResultResponse>> {
    let user = current_user(&state, &auth).await?;
    User::set_onboarding_done(&state.db, &user.id).await?;
    Ok(AppJson(ResultResponse { result: true }))
}
