//! Over 600 lines: the whole OpenID Connect flow (start, callback, exchange, discovery and key
//! refresh) kept in one place, so its security checks read in order.
//!
//! Single sign-on: the OpenID Connect authorization-code flow (with PKCE and a nonce) against a
//! configurable issuer.
//!
//! 1. `GET /users/login-azure-{provider}` sends the browser to the provider and sets a binding
//!    cookie (`companion_sso`, HttpOnly) that only this browser holds.
//! 2. The provider returns to `/users/sso/callback`. The e-mail and names are read from the ID
//!    token or, when it has none (a conformant provider puts scope claims at UserInfo only), from
//!    the UserInfo endpoint, whose `sub` must match. The identity is linked to an account by
//!    (issuer, subject); an e-mail claim may only create or link an account when its domain is
//!    one of `SSO_DOMAINS` and it is verified, and never reaches a password account.
//! 3. The browser goes back to the app at `/login?token=<code>`: a single-use code (not a
//!    session token) valid for [`CODE_TTL_MS`], which the app exchanges with
//!    `POST /users/sso/exchange`, from the browser holding the binding cookie, for its session.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::FromRef;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Redirect, Response};
use openidconnect::core::{
    CoreAuthenticationFlow, CoreClient, CoreIdTokenClaims, CoreProviderMetadata, CoreUserInfoClaims,
};
use openidconnect::{
    AuthorizationCode, ClaimsVerificationError, ClientId, ClientSecret, CsrfToken, IssuerUrl,
    Nonce, OAuth2TokenResponse, PkceCodeChallenge, PkceCodeVerifier, RedirectUrl, Scope,
    TokenResponse,
};
use projections::{now_ms, on_db};
use rand::RngCore;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use tokio::sync::RwLock;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::accounts::{Email, NewUser, User};
use super::client::ClientAddress;
use super::login::{open_session, SessionResponse};
use super::Auth;
use crate::config::Config;
use crate::error::{AppError, AppJson, AppResult};

/// How long a started sign-in may take before its state is refused.
const SSO_LOGIN_TTL_MS: i64 = 10 * 60 * 1000;
/// How long the code handed to the app works (once).
pub const CODE_TTL_MS: i64 = 60 * 1000;
/// The cookie binding a sign-in to the browser that started it.
pub const BINDING_COOKIE: &str = "companion_sso";
/// Discovery (with the provider's keys) is fetched again at most this often when an ID token is
/// signed with a key we do not know (the provider rotated its keys).
const REDISCOVER_AFTER: Duration = Duration::from_secs(30);
const HTTP_TIMEOUT: Duration = Duration::from_secs(10);
const HTTP_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// The provider's discovered metadata (with its keys), kept until a key id is unknown.
#[derive(Default)]
pub struct Sso {
    metadata: RwLock<Option<CoreProviderMetadata>>,
    rediscovered_at: std::sync::Mutex<Option<Instant>>,
}

pub fn router<S>() -> OpenApiRouter<S>
where
    S: Clone + Send + Sync + 'static,
    Auth: FromRef<S>,
    Arc<Config>: FromRef<S>,
{
    // `/users/login-azure-{provider}`: the provider is the suffix of one path segment, which the
    // router cannot match; it routes the whole segment and the handler checks the prefix.
    let (schemas, paths, start) = routes!(start);
    let mut router = OpenApiRouter::new()
        .routes(routes!(callback))
        .routes(routes!(exchange))
        .route("/users/{segment}", start);
    let doc = router.get_openapi_mut();
    doc.paths.paths.extend(paths.paths);
    doc.components
        .get_or_insert_with(Default::default)
        .schemas
        .extend(schemas);
    router
}

fn http_client() -> AppResult<openidconnect::reqwest::Client> {
    openidconnect::reqwest::ClientBuilder::new()
        // Following redirects would open the token exchange to request forgery.
        .redirect(openidconnect::reqwest::redirect::Policy::none())
        .timeout(HTTP_TIMEOUT)
        .connect_timeout(HTTP_CONNECT_TIMEOUT)
        .build()
        .map_err(|e| AppError::Internal(anyhow::Error::new(e).context("building http client")))
}

impl Sso {
    async fn metadata(&self, state: &Auth) -> AppResult<CoreProviderMetadata> {
        if let Some(m) = self.metadata.read().await.as_ref() {
            return Ok(m.clone());
        }
        self.discover(state).await
    }

    /// Fetches discovery and keys again (the provider rotated its keys), at most once per
    /// [`REDISCOVER_AFTER`]. Returns whether it did.
    async fn rediscover(&self, state: &Auth) -> AppResult<bool> {
        {
            let mut at = self
                .rediscovered_at
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            if at.is_some_and(|t| t.elapsed() < REDISCOVER_AFTER) {
                return Ok(false);
            }
            *at = Some(Instant::now());
        }
        tracing::info!("single sign-on key unknown: fetching the provider's keys again");
        self.discover(state).await.map(|_| true)
    }

    async fn discover(&self, state: &Auth) -> AppResult<CoreProviderMetadata> {
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

fn redirect_url(state: &Auth) -> AppResult<RedirectUrl> {
    let base = state.config.public_url(state.config.port);
    RedirectUrl::new(format!("{base}/api/users/sso/callback"))
        .map_err(|e| AppError::Internal(anyhow::anyhow!("invalid PUBLIC_URL: {e}")))
}

fn random_secret() -> String {
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}

fn digest(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// The binding cookie's value, if the request carries one.
fn binding_of(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == BINDING_COOKIE)
        .map(|(_, value)| value.trim().to_string())
        .filter(|v| !v.is_empty() && v.len() <= 128)
}

fn binding_cookie(state: &Auth, value: &str, max_age_seconds: i64) -> HeaderValue {
    let secure = if state
        .config
        .public_url(state.config.port)
        .starts_with("https://")
    {
        "; Secure"
    } else {
        ""
    };
    HeaderValue::from_str(&format!(
        "{BINDING_COOKIE}={value}; Path=/api/users/sso; HttpOnly; SameSite=Lax; Max-Age={max_age_seconds}{secure}"
    ))
    .unwrap_or_else(|_| HeaderValue::from_static(""))
}

#[derive(Deserialize, IntoParams)]
pub struct StartQuery {
    /// Passed to the provider as a login hint.
    pub email: Option<String>,
}

/// The browser comes here by navigation, so a failure goes back to the login screen with its
/// message rather than showing raw JSON.
fn back_to_login_with(err: AppError) -> Response {
    tracing::warn!(error = %err, "single sign-on refused");
    let message = match err {
        AppError::Internal(_) => "Login failed".to_string(),
        other => other.to_string(),
    };
    let encoded: String = url::form_urlencoded::byte_serialize(message.as_bytes()).collect();
    Redirect::to(&format!("/login?error={encoded}")).into_response()
}

/// Starts single sign-on with the provider named by the check-domain `source`.
#[utoipa::path(get, path = "/users/login-azure-{provider}", tag = "session",
    params(("provider" = String, Path, description = "the `source` of the domain check"), StartQuery),
    responses((status = 303, description = "to the provider's sign-in page (setting the `companion_sso` cookie), or to `/login?error=...` when single sign-on is unavailable"),
        (status = 404, body = crate::error::ErrorBody)))]
pub async fn start(
    State(state): State<Auth>,
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

fn client_of(state: &Auth, metadata: CoreProviderMetadata) -> AppResult<ProviderClient> {
    Ok(CoreClient::from_provider_metadata(
        metadata,
        ClientId::new(state.config.oidc_client_id.clone()),
        state
            .config
            .oidc_client_secret
            .clone()
            .map(ClientSecret::new),
    )
    .set_redirect_uri(redirect_url(state)?))
}

type ProviderClient = CoreClient<
    openidconnect::EndpointSet,
    openidconnect::EndpointNotSet,
    openidconnect::EndpointNotSet,
    openidconnect::EndpointNotSet,
    openidconnect::EndpointMaybeSet,
    openidconnect::EndpointMaybeSet,
>;

async fn redirect_to_provider(
    state: &Auth,
    provider: &str,
    query: StartQuery,
) -> AppResult<Response> {
    let client = client_of(state, state.sso.metadata(state).await?)?;
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
    let binding = random_secret();

    on_db!(&state.db, pool => async {
        // Abandoned sign-ins and codes are forgotten after their time is up.
        sqlx::query("delete from sso_logins where created_at < $1")
            .bind(now_ms() - SSO_LOGIN_TTL_MS).execute(pool).await?;
        sqlx::query("delete from sso_codes where created_at < $1")
            .bind(now_ms() - CODE_TTL_MS).execute(pool).await?;
        sqlx::query("insert into sso_logins (state, nonce, pkce_verifier, provider, created_at, binding_hash) values ($1, $2, $3, $4, $5, $6)")
            .bind(csrf.secret()).bind(nonce.secret()).bind(pkce_verifier.secret())
            .bind(provider).bind(now_ms()).bind(digest(&binding)).execute(pool).await.map(|r| r.rows_affected())
    }.await)?;
    let mut response = Redirect::to(url.as_str()).into_response();
    response.headers_mut().append(
        header::SET_COOKIE,
        binding_cookie(state, &binding, SSO_LOGIN_TTL_MS / 1000),
    );
    Ok(response)
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
    binding_hash: Option<String>,
}

/// Where the provider returns: checks the identity and goes back to the app with a single-use code.
#[utoipa::path(get, path = "/users/sso/callback", tag = "session", params(CallbackQuery),
    responses((status = 303, description = "to `/login?token=<single-use code>`, or `/login?error=...`")))]
pub async fn callback(
    State(state): State<Auth>,
    headers: HeaderMap,
    Query(query): Query<CallbackQuery>,
) -> Response {
    let binding = binding_of(&headers);
    match finish(&state, binding.as_deref(), query).await {
        Ok(code) => Redirect::to(&format!("/login?token={code}")).into_response(),
        Err(err) => back_to_login_with(err),
    }
}

/// What the login page says when the provider answers with an error of its own.
const PROVIDER_REFUSED: &str = "the provider refused the sign-in";

fn refused(message: &str) -> AppError {
    AppError::Unauthorized(format!("Login failed: {message}"))
}

/// What the provider says about the person.
struct Identity {
    issuer: String,
    subject: String,
    email: Option<String>,
    email_verified: bool,
    given_name: Option<String>,
    family_name: Option<String>,
}

async fn finish(state: &Auth, binding: Option<&str>, query: CallbackQuery) -> AppResult<String> {
    if let Some(error) = query.error {
        // The provider's words stay out of the login page (anyone can send a link with them);
        // the log gets them escaped and cut short.
        tracing::warn!(
            error = %crate::edge::observe::untrusted(&error),
            description = %crate::edge::observe::untrusted(query.error_description.as_deref().unwrap_or_default()),
            "the single sign-on provider refused the sign-in"
        );
        return Err(refused(PROVIDER_REFUSED));
    }
    let (Some(code), Some(csrf)) = (query.code, query.state) else {
        return Err(AppError::bad_request(
            "Login failed: the sign-in response is incomplete",
        ));
    };
    // The state is single-use: taking it out makes a replayed callback fail.
    let pending: Option<PendingLogin> = on_db!(&state.db, pool => sqlx::query_as::<_, PendingLogin>(
        "delete from sso_logins where state = $1 returning nonce, pkce_verifier, created_at, binding_hash")
        .bind(&csrf).fetch_optional(pool).await)?;
    let pending = pending
        .filter(|p| now_ms() - p.created_at <= SSO_LOGIN_TTL_MS)
        .ok_or_else(|| refused("the sign-in has expired, start again"))?;
    let binding = binding.ok_or_else(|| refused("this sign-in was started in another browser"))?;
    if pending.binding_hash.as_deref() != Some(digest(binding).as_str()) {
        return Err(refused("this sign-in was started in another browser"));
    }

    let identity = identity_from_provider(state, code, pending).await?;
    let user = account_for(state, &identity).await?;

    let code = random_secret();
    on_db!(&state.db, pool => sqlx::query(
        "insert into sso_codes (code_hash, user_id, binding_hash, created_at) values ($1, $2, $3, $4)")
        .bind(digest(&code)).bind(&user.id).bind(digest(binding)).bind(now_ms())
        .execute(pool).await.map(|r| r.rows_affected()))?;
    tracing::info!(user = %user.id, "single sign-on accepted");
    Ok(code)
}

async fn identity_from_provider(
    state: &Auth,
    code: String,
    pending: PendingLogin,
) -> AppResult<Identity> {
    let client = client_of(state, state.sso.metadata(state).await?)?;
    let http = http_client()?;
    let token_response = client
        .exchange_code(AuthorizationCode::new(code))
        .map_err(|e| AppError::Internal(anyhow::anyhow!("token endpoint: {e}")))?
        .set_pkce_verifier(PkceCodeVerifier::new(pending.pkce_verifier))
        .request_async(&http)
        .await
        .map_err(|e| {
            tracing::warn!(error = %e, "token endpoint refused the code");
            refused(PROVIDER_REFUSED)
        })?;
    let id_token = token_response
        .id_token()
        .ok_or_else(|| refused("the provider sent no identity"))?;
    let nonce = Nonce::new(pending.nonce);
    let verified: Result<CoreIdTokenClaims, _> = id_token
        .claims(&client.id_token_verifier(), &nonce)
        .cloned();
    let (claims, client) = match verified {
        Ok(claims) => (claims, client),
        // Signed with a key we do not know: the provider may have rotated its keys.
        Err(ClaimsVerificationError::SignatureVerification(_))
            if state.sso.rediscover(state).await? =>
        {
            let client = client_of(state, state.sso.metadata(state).await?)?;
            let claims = id_token
                .claims(&client.id_token_verifier(), &nonce)
                .cloned()
                .map_err(|e| {
                    tracing::warn!(error = %e, "ID token refused");
                    refused("the identity could not be verified")
                })?;
            (claims, client)
        }
        Err(e) => {
            tracing::warn!(error = %e, "ID token refused");
            return Err(refused("the identity could not be verified"));
        }
    };

    let mut identity = Identity {
        issuer: claims.issuer().as_str().to_string(),
        subject: claims.subject().as_str().to_string(),
        email: claims.email().map(|e| e.as_str().to_string()),
        email_verified: claims.email_verified().unwrap_or(false),
        given_name: claims
            .given_name()
            .and_then(|n| n.get(None))
            .map(|n| n.as_str().to_string()),
        family_name: claims
            .family_name()
            .and_then(|n| n.get(None))
            .map(|n| n.as_str().to_string()),
    };
    if identity.email.is_none() {
        // OpenID Connect Core 5.4: with an access token, scope claims come from UserInfo.
        let request = client
            .user_info(
                token_response.access_token().to_owned(),
                Some(claims.subject().clone()),
            )
            .map_err(|_| refused("the provider sent no e-mail"))?;
        let info: CoreUserInfoClaims = request.request_async(&http).await.map_err(|e| {
            tracing::warn!(error = %e, "UserInfo refused");
            refused("the provider's user information could not be read")
        })?;
        identity.email = info.email().map(|e| e.as_str().to_string());
        identity.email_verified = info.email_verified().unwrap_or(false);
        identity.given_name = identity.given_name.or_else(|| {
            info.given_name()
                .and_then(|n| n.get(None))
                .map(|n| n.as_str().to_string())
        });
        identity.family_name = identity.family_name.or_else(|| {
            info.family_name()
                .and_then(|n| n.get(None))
                .map(|n| n.as_str().to_string())
        });
    }
    Ok(identity)
}

#[derive(sqlx::FromRow)]
struct LinkedIdentity {
    user_id: String,
}

/// The account this identity signs into, linking or creating it when the rules allow.
async fn account_for(state: &Auth, identity: &Identity) -> AppResult<User> {
    let linked: Option<LinkedIdentity> = on_db!(&state.db, pool => sqlx::query_as(
        "select user_id from sso_identities where issuer = $1 and subject = $2")
        .bind(&identity.issuer).bind(&identity.subject).fetch_optional(pool).await)?;
    if let Some(linked) = linked {
        let user = User::find_by_id(&state.db, &linked.user_id)
            .await?
            .ok_or_else(|| refused("the account no longer exists"))?;
        if user.disabled_at.is_some() {
            return Err(refused("this account is disabled"));
        }
        if user.password_hash.is_some() {
            return Err(refused("this account signs in with a password"));
        }
        on_db!(&state.db, pool => sqlx::query(
            "update sso_identities set last_used_at = $1 where issuer = $2 and subject = $3")
            .bind(now_ms()).bind(&identity.issuer).bind(&identity.subject)
            .execute(pool).await.map(|r| r.rows_affected()))?;
        return Ok(user);
    }

    // First sign-in of this identity: only an e-mail the provider is authoritative for, and
    // verified, may name the account.
    let email = identity
        .email
        .as_deref()
        .map(|e| String::from(Email::normalised(e)))
        .ok_or_else(|| refused("the provider sent no e-mail"))?;
    let domain = email.rsplit_once('@').map(|(_, d)| d).unwrap_or_default();
    if !state
        .config
        .sso_domains
        .iter()
        .any(|d| d.trim().eq_ignore_ascii_case(domain))
    {
        return Err(refused(
            "this e-mail does not belong to a single sign-on domain",
        ));
    }
    if !identity.email_verified && !state.config.sso_trust_unverified_email {
        return Err(refused("the provider has not verified this e-mail"));
    }
    let user = match User::find_by_email(&state.db, &email).await? {
        Some(user) if user.password_hash.is_some() => {
            return Err(refused("this account signs in with a password"));
        }
        Some(user) if user.disabled_at.is_some() => {
            return Err(refused("this account is disabled"));
        }
        Some(user) => {
            let other: Option<i64> = on_db!(&state.db, pool => sqlx::query_scalar(
                "select count(*) from sso_identities where user_id = $1")
                .bind(&user.id).fetch_optional(pool).await)?;
            if other.unwrap_or(0) > 0 {
                return Err(refused("this account is linked to another identity"));
            }
            user
        }
        None => {
            let first_name = identity
                .given_name
                .clone()
                .unwrap_or_else(|| email.split('@').next().unwrap_or_default().to_string());
            let inserted = User::insert(
                &state.db,
                NewUser {
                    email: &email,
                    first_name: &first_name,
                    last_name: identity.family_name.as_deref().unwrap_or_default(),
                    password_hash: None,
                    role: super::Role::User,
                    certificate: None,
                    terms_accepted: false,
                    onboarding_done: false,
                },
            )
            .await;
            match inserted {
                Ok(_) => {}
                // The same person signing in twice at once: the other sign-in created it.
                Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {}
                Err(e) => return Err(e.into()),
            }
            User::find_by_email(&state.db, &email)
                .await?
                .ok_or_else(|| AppError::Internal(anyhow::anyhow!("user vanished after insert")))?
        }
    };
    let now = now_ms();
    let linked = on_db!(&state.db, pool => sqlx::query(
        "insert into sso_identities (issuer, subject, user_id, email, created_at, last_used_at)
         values ($1, $2, $3, $4, $5, $5) on conflict (issuer, subject) do nothing")
        .bind(&identity.issuer).bind(&identity.subject).bind(&user.id).bind(&email).bind(now)
        .execute(pool).await.map(|r| r.rows_affected()))?;
    if linked == 0 {
        return Err(refused(
            "this identity was linked at the same time; sign in again",
        ));
    }
    tracing::info!(user = %user.id, issuer = %identity.issuer, "single sign-on identity linked");
    Ok(user)
}

#[derive(Deserialize, ToSchema)]
pub struct ExchangeRequest {
    /// The `token` query parameter single sign-on returned to `/login` with.
    pub code: Option<String>,
}

const CODE_REFUSED: &str = "Login failed: the sign-in link is invalid or has expired";

/// Exchanges the single-use code of a finished single sign-on for a session. Works once, within a
/// minute, and only from the browser that started the sign-in (its `companion_sso` cookie).
#[utoipa::path(post, path = "/users/sso/exchange", tag = "session", request_body = ExchangeRequest,
    responses((status = 200, body = SessionResponse), (status = 400, body = crate::error::ErrorBody),
        (status = 401, body = crate::error::ErrorBody)))]
pub async fn exchange(
    State(state): State<Auth>,
    client: ClientAddress,
    headers: HeaderMap,
    AppJson(body): AppJson<ExchangeRequest>,
) -> AppResult<Response> {
    let code = body
        .code
        .filter(|c| !c.is_empty())
        .ok_or_else(|| AppError::bad_request("The code is required"))?;
    if code.len() > 128 {
        return Err(AppError::Unauthorized(CODE_REFUSED.into()));
    }
    #[derive(sqlx::FromRow)]
    struct Code {
        user_id: String,
        binding_hash: String,
        created_at: i64,
    }
    // Taken out whatever happens next: a code is tried once.
    let taken: Option<Code> = on_db!(&state.db, pool => sqlx::query_as::<_, Code>(
        "delete from sso_codes where code_hash = $1 returning user_id, binding_hash, created_at")
        .bind(digest(&code)).fetch_optional(pool).await)?;
    let taken = taken
        .filter(|c| now_ms() - c.created_at <= CODE_TTL_MS)
        .ok_or_else(|| {
            tracing::warn!(address = %client.0, "single sign-on code refused: unknown, used or expired");
            AppError::Unauthorized(CODE_REFUSED.into())
        })?;
    if binding_of(&headers).map(|b| digest(&b)).as_deref() != Some(taken.binding_hash.as_str()) {
        tracing::warn!(address = %client.0, "single sign-on code refused: another browser");
        return Err(AppError::Unauthorized(CODE_REFUSED.into()));
    }
    let user = User::find_by_id(&state.db, &taken.user_id)
        .await?
        .filter(|u| u.disabled_at.is_none())
        .ok_or_else(|| AppError::Unauthorized(CODE_REFUSED.into()))?;
    let device = headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok());
    let session = open_session(&state, &user, device, &client).await?;
    let mut response = AppJson(session).into_response();
    response
        .headers_mut()
        .append(header::SET_COOKIE, binding_cookie(&state, "", 0));
    Ok(response)
}
