use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{json_of, spawn_app_with, Engine, TestApp};
use crate::oidc_provider::{self, ProviderBehaviour};

fn location(res: &reqwest::Response) -> String {
    res.headers()
        .get(reqwest::header::LOCATION)
        .expect("redirect")
        .to_str()
        .unwrap()
        .to_string()
}

/// Follows the browser's path through the flow and returns where it ends in the app.
async fn sign_in(app: &TestApp, email: &str) -> String {
    let start = app
        .get(&format!("/users/login-azure-azure?email={email}"), None)
        .await;
    assert_eq!(start.status(), StatusCode::SEE_OTHER);
    let to_provider = location(&start);
    assert!(to_provider.contains("login_hint="));
    let provider = app.client.get(&to_provider).send().await.unwrap();
    // The app names itself `localhost` in its redirect address; the test server listens on 127.0.0.1.
    let back = location(&provider).replace("http://localhost:", "http://127.0.0.1:");
    assert!(
        back.starts_with(&app.base),
        "provider returns to the app: {back}"
    );
    let done = app.client.get(&back).send().await.unwrap();
    assert_eq!(done.status(), StatusCode::SEE_OTHER);
    location(&done)
}

async fn app_with_provider(
    engine: Engine,
    behaviour: ProviderBehaviour,
) -> Option<(TestApp, oidc_provider::Provider)> {
    let provider = oidc_provider::start(behaviour).await;
    let issuer = provider.issuer.clone();
    let app = spawn_app_with(engine, move |c| {
        c.oidc_issuer = Some(issuer);
        c.oidc_client_secret = Some("client-secret".into());
    })
    .await?;
    Some((app, provider))
}

async fn full_flow(engine: Engine) {
    let Some((app, _provider)) = app_with_provider(
        engine,
        ProviderBehaviour {
            email: "sofia.conti@sso.example.com".into(),
            ..Default::default()
        },
    )
    .await
    else {
        return;
    };
    let end = sign_in(&app, "sofia.conti@sso.example.com").await;
    let token = end
        .strip_prefix("/login?token=")
        .unwrap_or_else(|| panic!("ends on /login?token=, got {end}"));
    let (status, body) = json_of(
        app.post_json("/users/welcome", Some(token), &json!({}))
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["user"]["email"], "sofia.conti@sso.example.com");
    assert_eq!(body["user"]["first_name"], "Sofia");
    assert_eq!(body["need_accept_terms"], true);

    // A second sign-in finds the same account.
    let end = sign_in(&app, "sofia.conti@sso.example.com").await;
    let token = end.strip_prefix("/login?token=").unwrap();
    let (_, again) = json_of(
        app.post_json("/users/welcome", Some(token), &json!({}))
            .await,
    )
    .await;
    assert_eq!(again["user"]["id"], body["user"]["id"]);

    // The account has no password: password sign-in is refused.
    assert_eq!(
        app.login_response("sofia.conti@sso.example.com", "")
            .await
            .status(),
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        app.login_response("sofia.conti@sso.example.com", "anything")
            .await
            .status(),
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn single_sign_on_signs_in_through_the_provider_sqlite() {
    full_flow(Engine::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn single_sign_on_signs_in_through_the_provider_postgres() {
    full_flow(Engine::Postgres).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_id_token_with_the_wrong_nonce_is_refused() {
    let (app, _p) = app_with_provider(
        Engine::Sqlite,
        ProviderBehaviour {
            email: "x@sso.example.com".into(),
            wrong_nonce: true,
        },
    )
    .await
    .unwrap();
    let end = sign_in(&app, "x@sso.example.com").await;
    assert!(end.starts_with("/login?error="), "{end}");
    assert!(
        backend::users::find_by_email(&app.state.db, "x@sso.example.com")
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forged_or_replayed_callback_is_refused() {
    let (app, _p) = app_with_provider(
        Engine::Sqlite,
        ProviderBehaviour {
            email: "y@sso.example.com".into(),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let res = app
        .get("/users/sso/callback?code=abc&state=made-up", None)
        .await;
    assert!(location(&res).starts_with("/login?error="));

    let start = app.get("/users/login-azure-azure", None).await;
    let provider = app.client.get(location(&start)).send().await.unwrap();
    let back = location(&provider).replace("http://localhost:", "http://127.0.0.1:");
    let first = app.client.get(&back).send().await.unwrap();
    assert!(location(&first).starts_with("/login?token="));
    let replay = app.client.get(&back).send().await.unwrap();
    assert!(
        location(&replay).starts_with("/login?error="),
        "a callback works once"
    );
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
}
