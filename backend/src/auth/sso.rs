//! Single sign-on: the OpenID Connect authorization-code flow (with PKCE and a nonce) against a
//! configurable issuer. `GET /users/login-azure-{provider}` sends the browser to the provider;
//! the provider returns to `/users/sso/callback`, which signs the user in and goes back to the
//! app at `/login?token=...`.

use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::Router;
use openidconnect::core::{CoreAuthenticationFlow, CoreClient, CoreProviderMetadata};
use openidconnect::{
    AuthorizationCode, ClientId, ClientSecret, CsrfToken, IssuerUrl, Nonce, PkceCodeChallenge,
    PkceCodeVerifier, RedirectUrl, Scope, TokenResponse,
};
use projections::{now_ms, on_db};
use serde::Deserialize;
use tokio::sync::RwLock;
use utoipa::IntoParams;

use crate::error::{AppError, AppResult};
use crate::state::AppState;
use crate::users::{self, NewUser};

/// How long a started sign-in may take before its state is refused.
const SSO_LOGIN_TTL_MS: i64 = 10 * 60 * 1000;

/// The provider's discovered metadata, fetched once and kept.
#[derive(Default)]
pub struct Sso {
    metadata: RwLock<Option<CoreProviderMetadata>>,
}

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/users/sso/callback", get(callback))
        // `/users/login-azure-{provider}`: the provider is the suffix of one path segment.
        .route("/users/{segment}", get(start))
}

fn http_client() -> AppResult<openidconnect::reqwest::Client> {
    openidconnect::reqwest::ClientBuilder::new()
        // Following redirects would open the token exchange to request forgery.
        .redirect(openidconnect::reqwest::redirect::Policy::none())
        .build()
        .map_err(|e| AppError::Internal(anyhow::Error::new(e).context("building http client")))
}

impl Sso {
    async fn metadata(&self, state: &AppState) -> AppResult<CoreProviderMetadata> {
        if let Some(m) = self.metadata.read().await.as_ref() {
            return Ok(m.clone());
        }
        let issuer = state
            .config
            .oidc_issuer
            .clone()
            .ok_or_else(|| AppError::Unavailable("Single sign-on is not configured".into()))?;
        let issuer = IssuerUrl::new(issuer)
            .map_err(|e| AppError::Internal(anyhow::anyhow!("invalid OIDC_ISSUER: {e}")))?;
        let discovered = CoreProviderMetadata::discover_async(issuer, &http_client()?)
            .await
            .map_err(|e| {
                tracing::warn!(error = %e, "single sign-on discovery failed");
                AppError::Unavailable(
                    "The single sign-on provider cannot be reached. Retry later".into(),
                )
            })?;
        *self.metadata.write().await = Some(discovered.clone());
        Ok(discovered)
    }
}

fn redirect_url(state: &AppState) -> AppResult<RedirectUrl> {
    let base = state.config.public_url(state.config.port);
    RedirectUrl::new(format!("{base}/api/users/sso/callback"))
        .map_err(|e| AppError::Internal(anyhow::anyhow!("invalid PUBLIC_URL: {e}")))
}

#[derive(Deserialize, IntoParams)]
pub struct StartQuery {
    /// Passed to the provider as a login hint.
    pub email: Option<String>,
}

/// The browser comes here by navigation, so a failure goes back to the login screen with its
/// message rather than showing raw JSON.
fn back_to_login_with(err: AppError) -> Response {
    tracing::warn!(error = %err, "single sign-on failed");
    let message = match err {
        AppError::Internal(_) => "Login failed".to_string(),
        other => other.to_string(),
    };
    let encoded: String = url::form_urlencoded::byte_serialize(message.as_bytes()).collect();
    Redirect::to(&format!("/login?error={encoded}")).into_response()
}

/// Starts single sign-on with the provider named by the check-domain `source`.
#[utoipa::path(get, path = "/api/users/login-azure-{provider}", tag = "session",
    params(("provider" = String, Path, description = "the `source` of the domain check"), StartQuery),
    responses((status = 303, description = "to the provider's sign-in page, or to `/login?error=...` when single sign-on is unavailable"),
        (status = 404, body = crate::error::ErrorBody), (status = 503, body = crate::error::ErrorBody)))]
pub async fn start(
    State(state): State<AppState>,
    Path(segment): Path<String>,
    Query(query): Query<StartQuery>,
) -> AppResult<Response> {
    let provider = segment
        .strip_prefix("login-azure-")
        .filter(|p| {
            !p.is_empty()
                && p.len() <= 64
                && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
        .ok_or_else(|| AppError::not_found("Not found"))?;
    Ok(redirect_to_provider(&state, provider, query)
        .await
        .unwrap_or_else(back_to_login_with))
}

async fn redirect_to_provider(
    state: &AppState,
    provider: &str,
    query: StartQuery,
) -> AppResult<Response> {
    let metadata = state.sso.metadata(state).await?;
    let client = CoreClient::from_provider_metadata(
        metadata,
        ClientId::new(state.config.oidc_client_id.clone()),
        state
            .config
            .oidc_client_secret
            .clone()
            .map(ClientSecret::new),
    )
    .set_redirect_uri(redirect_url(state)?);
    let (pkce_challenge, pkce_verifier) = PkceCodeChallenge::new_random_sha256();
    let mut request = client
        .authorize_url(
            CoreAuthenticationFlow::AuthorizationCode,
            CsrfToken::new_random,
            Nonce::new_random,
        )
        .add_scope(Scope::new("email".into()))
        .add_scope(Scope::new("profile".into()))
        .set_pkce_challenge(pkce_challenge);
    if let Some(email) = query
        .email
        .as_deref()
        .filter(|e| !e.is_empty() && e.len() <= 254)
    {
        request = request.add_extra_param("login_hint", email.to_string());
    }
    let (url, csrf, nonce) = request.url();

    on_db!(&state.db, pool => async {
        // Abandoned sign-ins are forgotten after their time is up.
        sqlx::query("delete from sso_logins where created_at < $1")
            .bind(now_ms() - SSO_LOGIN_TTL_MS).execute(pool).await?;
        sqlx::query("insert into sso_logins (state, nonce, pkce_verifier, provider, created_at) values ($1, $2, $3, $4, $5)")
            .bind(csrf.secret()).bind(nonce.secret()).bind(pkce_verifier.secret())
            .bind(provider).bind(now_ms()).execute(pool).await.map(|r| r.rows_affected())
    }.await)?;
    Ok(Redirect::to(url.as_str()).into_response())
}

#[derive(Deserialize, IntoParams)]
pub struct CallbackQuery {
    pub code: Option<String>,
    pub state: Option<String>,
    pub error: Option<String>,
    pub error_description: Option<String>,
}

#[derive(sqlx::FromRow)]
struct PendingLogin {
    nonce: String,
    pkce_verifier: String,
    created_at: i64,
}

/// Where the provider returns: signs the user in and goes back to the app with a token.
#[utoipa::path(get, path = "/api/users/sso/callback", tag = "session", params(CallbackQuery),
    responses((status = 303, description = "to `/login?token=...`, or `/login?error=...`")))]
pub async fn callback(
    State(state): State<AppState>,
    Query(query): Query<CallbackQuery>,
) -> Response {
    match finish(&state, query).await {
        Ok(token) => Redirect::to(&format!("/login?token={token}")).into_response(),
        Err(err) => {
            tracing::warn!(error = %err, "single sign-on failed");
            let message = match err {
                AppError::Internal(_) => "Login failed".to_string(),
                other => other.to_string(),
            };
            let encoded: String =
                url::form_urlencoded::byte_serialize(message.as_bytes()).collect();
            Redirect::to(&format!("/login?error={encoded}")).into_response()
        }
    }
}

async fn finish(state: &AppState, query: CallbackQuery) -> AppResult<String> {
    if let Some(error) = query.error {
        let description = query.error_description.unwrap_or(error);
        return Err(AppError::Unauthorized(format!(
            "Login failed: {description}"
        )));
    }
    let (Some(code), Some(csrf)) = (query.code, query.state) else {
        return Err(AppError::bad_request(
            "Login failed: the sign-in response is incomplete",
        ));
    };
    // The state is single-use: taking it out makes a replayed callback fail.
    let pending: Option<PendingLogin> = on_db!(&state.db, pool => async {
        let row = sqlx::query_as::<_, PendingLogin>("select nonce, pkce_verifier, created_at from sso_logins where state = $1")
            .bind(&csrf).fetch_optional(pool).await?;
        sqlx::query("delete from sso_logins where state = $1").bind(&csrf).execute(pool).await?;
        Ok::<_, sqlx::Error>(row)
    }.await)?;
    let pending = pending
        .filter(|p| now_ms() - p.created_at <= SSO_LOGIN_TTL_MS)
        .ok_or_else(|| {
            AppError::Unauthorized("Login failed: the sign-in has expired, start again".into())
        })?;

    let metadata = state.sso.metadata(state).await?;
    let client = CoreClient::from_provider_metadata(
        metadata,
        ClientId::new(state.config.oidc_client_id.clone()),
        state
            .config
            .oidc_client_secret
            .clone()
            .map(ClientSecret::new),
    )
    .set_redirect_uri(redirect_url(state)?);
    let http = http_client()?;
    let token_response = client
        .exchange_code(AuthorizationCode::new(code))
        .map_err(|e| AppError::Internal(anyhow::anyhow!("token endpoint: {e}")))?
        .set_pkce_verifier(PkceCodeVerifier::new(pending.pkce_verifier))
        .request_async(&http)
        .await
        .map_err(|e| {
            AppError::Unauthorized(format!(
                "Login failed: the provider refused the sign-in ({e})"
            ))
        })?;
    let id_token = token_response.id_token().ok_or_else(|| {
        AppError::Unauthorized("Login failed: the provider sent no identity".into())
    })?;
    let claims = id_token
        .claims(&client.id_token_verifier(), &Nonce::new(pending.nonce))
        .map_err(|e| {
            AppError::Unauthorized(format!(
                "Login failed: the identity could not be verified ({e})"
            ))
        })?;
    let email = claims
        .email()
        .map(|e| e.as_str().to_string())
        .ok_or_else(|| {
            AppError::Unauthorized("Login failed: the provider sent no e-mail".into())
        })?;

    let user = match users::find_by_email(&state.db, &email).await? {
        Some(user) => user,
        None => {
            // First single sign-on of a colleague: their account is made from the identity.
            let given = claims
                .given_name()
                .and_then(|n| n.get(None))
                .map(|n| n.as_str().to_string());
            let family = claims
                .family_name()
                .and_then(|n| n.get(None))
                .map(|n| n.as_str().to_string());
            let first_name =
                given.unwrap_or_else(|| email.split('@').next().unwrap_or_default().to_string());
            users::insert(
                &state.db,
                NewUser {
                    email: &email,
                    first_name: &first_name,
                    last_name: family.as_deref().unwrap_or_default(),
                    password_hash: None,
                    role: "user",
                    certificate: None,
                    terms_accepted: false,
                    onboarding_done: false,
                },
            )
            .await?;
            users::find_by_email(&state.db, &email)
                .await?
                .ok_or_else(|| AppError::Internal(anyhow::anyhow!("user vanished after insert")))?
        }
    };
    state.jwt.issue(&user.id, &user.role)
}
