//! A small OpenID Connect provider on loopback, enough for the authorization-code flow with PKCE:
//! discovery, authorize (signs in at once), token (checks the PKCE verifier), JWKS.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::{Form, Query, State};
use axum::response::{IntoResponse, Redirect};
use axum::routing::{get, post};
use axum::{Json, Router};
use base64::Engine;
use serde::Deserialize;
use serde_json::json;
use sha2::Digest;

const KEY_PEM: &[u8] = include_bytes!("../fixtures/oidc-test-key.pem");
const KEY_N: &str = include_str!("../fixtures/oidc-test-jwk-n.txt");

#[derive(Clone, Default)]
pub struct ProviderBehaviour {
    /// Put this nonce into the ID token instead of the one asked for.
    pub wrong_nonce: bool,
    /// Sign in as this e-mail.
    pub email: String,
}

struct Grant {
    nonce: String,
    challenge: String,
}

#[derive(Clone)]
struct ProviderState {
    issuer: String,
    behaviour: ProviderBehaviour,
    grants: Arc<Mutex<HashMap<String, Grant>>>,
}

pub struct Provider {
    pub issuer: String,
    handle: tokio::task::JoinHandle<()>,
}

impl Drop for Provider {
    fn drop(&mut self) {
        self.handle.abort();
    }
}

pub async fn start(behaviour: ProviderBehaviour) -> Provider {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let issuer = format!("http://{}", listener.local_addr().unwrap());
    let state = ProviderState {
        issuer: issuer.clone(),
        behaviour,
        grants: Default::default(),
    };
    let app = Router::new()
        .route("/.well-known/openid-configuration", get(discovery))
        .route("/authorize", get(authorize))
        .route("/token", post(token))
        .route("/jwks", get(jwks))
        .with_state(state);
    let handle = tokio::spawn(async move {
        axum::serve(listener, app).await.unwrap();
    });
    Provider { issuer, handle }
}

async fn discovery(State(s): State<ProviderState>) -> impl IntoResponse {
    Json(json!({
        "issuer": s.issuer,
        "authorization_endpoint": format!("{}/authorize", s.issuer),
        "token_endpoint": format!("{}/token", s.issuer),
        "jwks_uri": format!("{}/jwks", s.issuer),
        "response_types_supported": ["code"],
        "subject_types_supported": ["public"],
        "id_token_signing_alg_values_supported": ["RS256"],
        "code_challenge_methods_supported": ["S256"],
    }))
}

#[derive(Deserialize)]
struct AuthorizeQuery {
    redirect_uri: String,
    state: String,
    nonce: String,
    code_challenge: String,
    code_challenge_method: String,
}

async fn authorize(
    State(s): State<ProviderState>,
    Query(q): Query<AuthorizeQuery>,
) -> impl IntoResponse {
    assert_eq!(q.code_challenge_method, "S256");
    let code = uuid::Uuid::new_v4().to_string();
    s.grants.lock().unwrap().insert(
        code.clone(),
        Grant {
            nonce: q.nonce,
            challenge: q.code_challenge,
        },
    );
    Redirect::to(&format!("{}?code={code}&state={}", q.redirect_uri, q.state))
}

#[derive(Deserialize)]
struct TokenForm {
    code: String,
    code_verifier: String,
}

async fn token(
    State(s): State<ProviderState>,
    Form(form): Form<TokenForm>,
) -> axum::response::Response {
    let Some(grant) = s.grants.lock().unwrap().remove(&form.code) else {
        return (
            axum::http::StatusCode::BAD_REQUEST,
            Json(json!({ "error": "invalid_grant" })),
        )
            .into_response();
    };
    let computed = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(sha2::Sha256::digest(form.code_verifier.as_bytes()));
    if computed != grant.challenge {
        return (
            axum::http::StatusCode::BAD_REQUEST,
            Json(json!({ "error": "invalid_grant" })),
        )
            .into_response();
    }
    let now = chrono::Utc::now().timestamp();
    let nonce = if s.behaviour.wrong_nonce {
        "something-else".to_string()
    } else {
        grant.nonce
    };
    let claims = json!({
        "iss": s.issuer, "sub": "sso-subject-1", "aud": "companion", "exp": now + 300, "iat": now,
        "nonce": nonce, "email": s.behaviour.email, "given_name": "Sofia", "family_name": "Conti",
    });
    let mut header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::RS256);
    header.kid = Some("test-key".into());
    let key = jsonwebtoken::EncodingKey::from_rsa_pem(KEY_PEM).unwrap();
    let id_token = jsonwebtoken::encode(&header, &claims, &key).unwrap();
    Json(json!({ "access_token": "at-1", "token_type": "Bearer", "expires_in": 300, "id_token": id_token })).into_response()
}

async fn jwks() -> impl IntoResponse {
    Json(
        json!({ "keys": [{ "kty": "RSA", "use": "sig", "alg": "RS256", "kid": "test-key", "n": KEY_N.trim(), "e": "AQAB" }] }),
    )
}
