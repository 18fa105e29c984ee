//! Single sign-on against a real OpenID Connect provider (see `oidc_provider`), in both of its
//! modes: e-mail in the ID token, and e-mail only at the UserInfo endpoint.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{json_of, spawn_app_with, Engine, TestApp, ADMIN, PASSWORD};
use crate::oidc_provider::{self, browser, ClaimsMode, Provider};

const SOFIA: &str = "sofia.conti@sso.example.com";

/// The provider's accounts: login -> claims.
fn accounts() -> Value {
    json!({
        "sofia": { "sub": "sub-sofia", "email": SOFIA, "email_verified": true,
                   "given_name": "Sofia", "family_name": "Conti" },
        // Same e-mail as Sofia, another person at the provider.
        "sofia-twin": { "sub": "sub-twin", "email": SOFIA, "email_verified": true },
        // Asserts the admin's e-mail: not a single sign-on domain, and unverified.
        "mallory": { "sub": "sub-mallory", "email": ADMIN, "email_verified": false },
        // Asserts the admin's e-mail, "verified": still not a single sign-on domain.
        "mallory-verified": { "sub": "sub-mallory-2", "email": ADMIN, "email_verified": true },
        "eve": { "sub": "sub-eve", "email": "eve@sso.example.com", "email_verified": false },
        "frank": { "sub": "sub-frank", "email": "frank@elsewhere.example.org", "email_verified": true },
        "paula": { "sub": "sub-paula", "email": "paula@sso.example.com", "email_verified": true },
        "nomail": { "sub": "sub-nomail" },
    })
}

struct Sso {
    app: TestApp,
    provider: Provider,
    mode: ClaimsMode,
}

async fn app_with_provider(engine: Engine, mode: ClaimsMode) -> Option<Sso> {
    app_with_provider_and(engine, mode, |_| {}).await
}

async fn app_with_provider_and(
    engine: Engine,
    mode: ClaimsMode,
    adjust: impl FnOnce(&mut backend::Config),
) -> Option<Sso> {
    let port = oidc_provider::free_port();
    let base = format!("http://127.0.0.1:{port}");
    let provider = oidc_provider::start(
        mode,
        &format!("{base}/api/users/sso/callback"),
        &accounts(),
        0,
    )
    .await;
    let issuer = provider.issuer.clone();
    let app = spawn_app_with(engine, move |c| {
        c.port = port;
        c.public_url = Some(base);
        c.oidc_issuer = Some(issuer);
        c.oidc_client_secret = Some(oidc_provider::CLIENT_SECRET.into());
        adjust(c);
    })
    .await?;
    Some(Sso {
        app,
        provider,
        mode,
    })
}

fn location(res: &reqwest::Response) -> String {
    res.headers()
        .get(reqwest::header::LOCATION)
        .expect("redirect")
        .to_str()
        .unwrap()
        .to_string()
}

impl Sso {
    /// Goes through the provider as `login` and returns the provider's return address.
    async fn to_callback(&self, browser: &reqwest::Client, login: &str) -> String {
        let start = browser
            .get(
                self.app
                    .url(&format!("/users/login-azure-azure?email={login}")),
            )
            .send()
            .await
            .unwrap();
        assert_eq!(start.status(), StatusCode::SEE_OTHER);
        let to_provider = location(&start);
        assert!(
            to_provider.starts_with(&self.provider.issuer),
            "{to_provider}"
        );
        assert!(to_provider.contains("login_hint="));
        oidc_provider::sign_in_at_provider(browser, &to_provider, login, &self.app.base).await
    }

    /// The whole browser journey; returns where the app sends the browser (`/login?...`).
    async fn sign_in(&self, browser: &reqwest::Client, login: &str) -> String {
        let back = self.to_callback(browser, login).await;
        let done = browser.get(&back).send().await.unwrap();
        assert_eq!(done.status(), StatusCode::SEE_OTHER);
        location(&done)
    }

    async fn exchange(&self, browser: &reqwest::Client, code: &str) -> (StatusCode, Value) {
        json_of(
            browser
                .post(self.app.url("/users/sso/exchange"))
                .json(&json!({ "code": code }))
                .send()
                .await
                .unwrap(),
        )
        .await
    }

    /// Signs in as `login` and returns the session answer.
    async fn session_of(&self, login: &str) -> Value {
        let browser = browser();
        let end = self.sign_in(&browser, login).await;
        let code = end
            .strip_prefix("/login?token=")
            .unwrap_or_else(|| panic!("{:?}: ends on /login?token=, got {end}", self.mode));
        let (status, body) = self.exchange(&browser, code).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        body
    }

    async fn refused(&self, login: &str) -> String {
        let end = self.sign_in(&browser(), login).await;
        let message = end
            .strip_prefix("/login?error=")
            .unwrap_or_else(|| panic!("{login} is refused, got {end}"));
        url::form_urlencoded::parse(format!("m={message}").as_bytes())
            .next()
            .map(|(_, v)| v.to_string())
            .unwrap_or_default()
    }

    async fn users(&self) -> i64 {
        projections::on_db!(&self.app.state.db, pool => sqlx::query_scalar::<_, i64>("select count(*) from users").fetch_one(pool).await).unwrap()
    }

    async fn identities(&self) -> i64 {
        projections::on_db!(&self.app.state.db, pool => sqlx::query_scalar::<_, i64>("select count(*) from sso_identities").fetch_one(pool).await).unwrap()
    }
}

/// The colleague signs in, comes back to the same account, and has no password.
async fn colleague_signs_in(engine: Engine, mode: ClaimsMode) {
    let Some(sso) = app_with_provider(engine, mode).await else {
        return;
    };
    let body = sso.session_of("sofia").await;
    assert_eq!(body["user"]["email"], SOFIA);
    assert_eq!(body["user"]["first_name"], "Sofia");
    assert_eq!(body["user"]["last_name"], "Conti");
    assert_eq!(body["user"]["role"], "user");
    assert_eq!(body["need_accept_terms"], true);
    let token = body["jwt"].as_str().unwrap();
    let (status, data) = json_of(sso.app.get("/users/get-data", Some(token)).await).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(data["email"], SOFIA);

    // A second sign-in finds the same account, by (issuer, subject).
    let again = sso.session_of("sofia").await;
    assert_eq!(again["user"]["id"], body["user"]["id"]);
    assert_eq!(sso.identities().await, 1);

    // The account has no password: password sign-in is refused.
    assert_eq!(
        sso.app
            .login_response(SOFIA, "anything-at-all")
            .await
            .status(),
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_colleague_signs_in_with_the_email_only_at_userinfo_sqlite() {
    colleague_signs_in(Engine::Sqlite, ClaimsMode::UserInfoOnly).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_colleague_signs_in_with_the_email_only_at_userinfo_postgres() {
    colleague_signs_in(Engine::Postgres, ClaimsMode::UserInfoOnly).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_colleague_signs_in_with_the_email_in_the_id_token_sqlite() {
    colleague_signs_in(Engine::Sqlite, ClaimsMode::InIdToken).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_colleague_signs_in_with_the_email_in_the_id_token_postgres() {
    colleague_signs_in(Engine::Postgres, ClaimsMode::InIdToken).await;
}

/// Unverified, foreign-domain and password-account e-mails never create or reach an account.
async fn untrusted_emails_are_refused(engine: Engine, mode: ClaimsMode) {
    let Some(sso) = app_with_provider(engine, mode).await else {
        return;
    };
    // A password account at a single sign-on domain.
    backend::auth::accounts::add(
        &sso.app.state.db,
        backend::auth::accounts::NewAccount {
            email: "paula@sso.example.com".into(),
            first_name: "Paula".into(),
            last_name: String::new(),
            role: "user".into(),
            password: Some("Tall-Cedar-Window-88".into()),
        },
    )
    .await
    .unwrap();
    let users_before = sso.users().await;

    let m = sso.refused("mallory").await;
    assert!(
        m.contains("does not belong to a single sign-on domain"),
        "{m}"
    );
    let m = sso.refused("mallory-verified").await;
    assert!(
        m.contains("does not belong to a single sign-on domain"),
        "{m}"
    );
    let m = sso.refused("eve").await;
    assert_eq!(m, "Login failed: the provider has not verified this e-mail");
    let m = sso.refused("frank").await;
    assert!(
        m.contains("does not belong to a single sign-on domain"),
        "{m}"
    );
    let m = sso.refused("paula").await;
    assert_eq!(m, "Login failed: this account signs in with a password");
    let m = sso.refused("nomail").await;
    assert_eq!(m, "Login failed: the provider sent no e-mail");

    assert_eq!(sso.users().await, users_before, "nothing was created");
    assert_eq!(sso.identities().await, 0, "nothing was linked");

    // Once Sofia's identity is linked, another identity asserting her e-mail is refused.
    sso.session_of("sofia").await;
    let m = sso.refused("sofia-twin").await;
    assert_eq!(
        m,
        "Login failed: this account is linked to another identity"
    );
    assert_eq!(sso.identities().await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn untrusted_emails_are_refused_userinfo_mode_sqlite() {
    untrusted_emails_are_refused(Engine::Sqlite, ClaimsMode::UserInfoOnly).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn untrusted_emails_are_refused_id_token_mode_sqlite() {
    untrusted_emails_are_refused(Engine::Sqlite, ClaimsMode::InIdToken).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn untrusted_emails_are_refused_userinfo_mode_postgres() {
    untrusted_emails_are_refused(Engine::Postgres, ClaimsMode::UserInfoOnly).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unverified_email_is_accepted_only_when_configured() {
    let sso = app_with_provider_and(Engine::Sqlite, ClaimsMode::UserInfoOnly, |c| {
        c.sso_trust_unverified_email = true;
    })
    .await
    .unwrap();
    assert_eq!(
        sso.session_of("eve").await["user"]["email"],
        "eve@sso.example.com"
    );
    // The domain rule still holds: the admin's e-mail stays out of reach.
    let m = sso.refused("mallory").await;
    assert!(
        m.contains("does not belong to a single sign-on domain"),
        "{m}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_code_works_once_within_a_minute_and_only_in_the_browser_that_started() {
    let sso = app_with_provider(Engine::Sqlite, ClaimsMode::UserInfoOnly)
        .await
        .unwrap();

    // Single use.
    let browser_a = browser();
    let end = sso.sign_in(&browser_a, "sofia").await;
    let code = end.strip_prefix("/login?token=").unwrap().to_string();
    assert_eq!(sso.exchange(&browser_a, &code).await.0, StatusCode::OK);
    let (status, body) = sso.exchange(&browser_a, &code).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        body["message"],
        "Login failed: the sign-in link is invalid or has expired"
    );

    // Another browser (a crafted link, login CSRF) gets nothing.
    let end = sso.sign_in(&browser_a, "sofia").await;
    let code = end.strip_prefix("/login?token=").unwrap().to_string();
    assert_eq!(
        sso.exchange(&browser(), &code).await.0,
        StatusCode::UNAUTHORIZED
    );

    // Expired after a minute.
    let end = sso.sign_in(&browser_a, "sofia").await;
    let code = end.strip_prefix("/login?token=").unwrap().to_string();
    projections::on_db!(&sso.app.state.db, pool => sqlx::query("update sso_codes set created_at = created_at - 61000").execute(pool).await.map(|r| r.rows_affected())).unwrap();
    assert_eq!(
        sso.exchange(&browser_a, &code).await.0,
        StatusCode::UNAUTHORIZED
    );

    // A session token where a code is expected signs nobody in (the old token-in-URL).
    let token = sso.app.token(ADMIN).await;
    assert_eq!(
        sso.exchange(&browser_a, &token).await.0,
        StatusCode::UNAUTHORIZED
    );
    // Malformed bodies.
    assert_eq!(
        sso.exchange(&browser_a, "").await.0,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        sso.exchange(&browser_a, &"x".repeat(5000)).await.0,
        StatusCode::UNAUTHORIZED
    );
    let (status, _) = json_of(
        browser_a
            .post(sso.app.url("/users/sso/exchange"))
            .header("content-type", "application/json")
            .body("{not json")
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_callback_from_another_browser_a_forged_or_a_replayed_one_is_refused() {
    let sso = app_with_provider(Engine::Sqlite, ClaimsMode::InIdToken)
        .await
        .unwrap();
    let res = browser()
        .get(sso.app.url("/users/sso/callback?code=abc&state=made-up"))
        .send()
        .await
        .unwrap();
    assert!(location(&res).starts_with("/login?error="));

    // Started in one browser, finished in another: refused, nothing created.
    let users_before = sso.users().await;
    let started_in = browser();
    let back = sso.to_callback(&started_in, "sofia").await;
    let res = browser().get(&back).send().await.unwrap();
    assert_eq!(
        location(&res),
        "/login?error=Login+failed%3A+this+sign-in+was+started+in+another+browser"
    );
    assert_eq!(sso.users().await, users_before);

    // Replayed in the right browser: the state works once.
    let back = sso.to_callback(&started_in, "sofia").await;
    let first = started_in.get(&back).send().await.unwrap();
    assert!(location(&first).starts_with("/login?token="));
    let replay = started_in.get(&back).send().await.unwrap();
    assert!(
        location(&replay).starts_with("/login?error="),
        "a callback works once"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_provider_key_rotation_is_followed() {
    let mut sso = app_with_provider(Engine::Sqlite, ClaimsMode::UserInfoOnly)
        .await
        .unwrap();
    let first = sso.session_of("sofia").await;
    // The provider restarts on the same address with a new signing key.
    let port = sso.provider.port;
    let redirect = format!("{}/api/users/sso/callback", sso.app.base);
    sso.provider.stop().await;
    sso.provider = restart_on(port, &redirect).await;
    let second = sso.session_of("sofia").await;
    assert_eq!(first["user"]["id"], second["user"]["id"]);
}

async fn restart_on(port: u16, redirect: &str) -> Provider {
    // The old process may take a moment to free the port.
    for _ in 0..50 {
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    oidc_provider::start(ClaimsMode::UserInfoOnly, redirect, &accounts(), port).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn single_sign_on_without_a_provider_returns_to_login_and_bad_paths_404() {
    let app = crate::helpers::spawn_app(Engine::Sqlite).await.unwrap();
    let res = app.get("/users/login-azure-azure", None).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        location(&res),
        "/login?error=Single+sign-on+is+not+configured"
    );
    assert_eq!(
        json_of(app.get("/users/login-azure-", None).await).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        json_of(app.get("/users/whatever", None).await).await.0,
        StatusCode::NOT_FOUND
    );
    // A password account is never reached by single sign-on: the admin signs in with a password.
    assert_eq!(
        app.login_response(ADMIN, PASSWORD).await.status(),
        StatusCode::OK
    );
}
