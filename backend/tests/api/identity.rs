//! Sessions, throttling, account administration and the demo switch.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::both_dbs;
use crate::helpers::{json_of, spawn_app_with, Engine, TestApp, ADMIN, ANNA, JOHN, PASSWORD};

/// A sign-in attempt as from `address` (the app trusts `X-Forwarded-For` in these tests).
async fn login_from(app: &TestApp, address: &str, email: &str, password: &str) -> StatusCode {
    app.client
        .post(app.url("/users/login"))
        .header("x-forwarded-for", address)
        .json(&json!({ "username": email, "password": password }))
        .send()
        .await
        .unwrap()
        .status()
}

async fn behind_proxy(engine: Engine) -> Option<TestApp> {
    spawn_app_with(engine, |c| c.trust_proxy_headers = true).await
}

async fn forty_parallel_guesses(engine: Engine) {
    let Some(app) = behind_proxy(engine).await else {
        return;
    };
    let app = std::sync::Arc::new(app);
    let guesses = (0..40).map(|i| {
        let app = app.clone();
        tokio::spawn(async move {
            login_from(&app, "198.51.100.7", ANNA, &format!("wrong-guess-{i}")).await
        })
    });
    let statuses = futures::future::join_all(guesses).await;
    let checked = statuses
        .iter()
        .filter(|s| *s.as_ref().unwrap() == StatusCode::UNAUTHORIZED)
        .count();
    let throttled = statuses
        .iter()
        .filter(|s| *s.as_ref().unwrap() == StatusCode::TOO_MANY_REQUESTS)
        .count();
    assert!(checked <= 5, "at most the limit was checked, got {checked}");
    assert_eq!(checked + throttled, 40);

    // The attacker's address stays blocked, even with the right password.
    assert_eq!(
        login_from(&app, "198.51.100.7", ANNA, PASSWORD).await,
        StatusCode::TOO_MANY_REQUESTS
    );
    // The owner, from their own address, is not locked out.
    assert_eq!(
        login_from(&app, "203.0.113.20", ANNA, PASSWORD).await,
        StatusCode::OK
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forty_parallel_wrong_passwords_check_at_most_the_limit_sqlite() {
    forty_parallel_guesses(Engine::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forty_parallel_wrong_passwords_check_at_most_the_limit_postgres() {
    forty_parallel_guesses(Engine::Postgres).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_guessing_many_accounts_is_throttled_too() {
    let app = spawn_app_with(Engine::Sqlite, |c| {
        c.trust_proxy_headers = true;
        c.login_address_max_failures = 8;
    })
    .await
    .unwrap();
    for i in 0..8 {
        let email = format!("nobody{i}@example.com");
        assert_eq!(
            login_from(&app, "192.0.2.9", &email, "whatever-1234").await,
            StatusCode::UNAUTHORIZED
        );
    }
    assert_eq!(
        login_from(&app, "192.0.2.9", JOHN, PASSWORD).await,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(
        login_from(&app, "192.0.2.10", JOHN, PASSWORD).await,
        StatusCode::OK
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarded_addresses_are_ignored_unless_trusted() {
    // Without TRUST_PROXY_HEADERS a client cannot pick a fresh address per guess.
    let app = crate::helpers::spawn_app(Engine::Sqlite).await.unwrap();
    for i in 0..5 {
        login_from(&app, &format!("10.0.0.{i}"), ANNA, "wrong-guess").await;
    }
    assert_eq!(
        login_from(&app, "10.0.0.99", ANNA, PASSWORD).await,
        StatusCode::TOO_MANY_REQUESTS
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_back_off_doubles_and_ends() {
    let app = spawn_app_with(Engine::Sqlite, |c| {
        c.trust_proxy_headers = true;
        c.login_max_failures = 2;
    })
    .await
    .unwrap();
    let db = &app.state.db;
    for _ in 0..2 {
        login_from(&app, "192.0.2.1", ANNA, "wrong-guess").await;
    }
    let blocked_for = || async {
        let (until,): (i64,) = projections::on_db!(db, pool => sqlx::query_as(
            "select blocked_until from login_throttle where key like 'account:%'")
            .fetch_one(pool).await)
        .unwrap();
        until - projections::now_ms()
    };
    let first = blocked_for().await;
    assert!((25_000..=30_000).contains(&first), "{first}");
    // The block ends: one more attempt is checked, and its failure doubles the block.
    projections::on_db!(db, pool => sqlx::query("update login_throttle set blocked_until = 1")
        .execute(pool).await.map(|r| r.rows_affected()))
    .unwrap();
    assert_eq!(
        login_from(&app, "192.0.2.1", ANNA, "wrong-guess").await,
        StatusCode::UNAUTHORIZED
    );
    let second = blocked_for().await;
    assert!((55_000..=60_000).contains(&second), "{second}");
}

both_dbs! {
    async fn signing_out_ends_the_session_on_the_server(app) {
        let token = app.token(ANNA).await;
        let other_device = app.token(ANNA).await;
        let (status, body) = json_of(app.post_json("/users/logout", Some(&token), &json!({})).await).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body, json!({ "result": true }));
        let (status, body) = json_of(app.get("/users/get-data", Some(&token)).await).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert_eq!(body["message"], "Your session has ended. Please sign in again.");
        // Renewal does not bring it back; signing out twice is 401.
        assert_eq!(app.post_json("/users/welcome", Some(&token), &json!({})).await.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(app.post_json("/users/logout", Some(&token), &json!({})).await.status(), StatusCode::UNAUTHORIZED);
        // The same user's other session is untouched.
        assert_eq!(app.get("/users/get-data", Some(&other_device)).await.status(), StatusCode::OK);
        assert_eq!(app.post_json("/users/logout", None, &json!({})).await.status(), StatusCode::UNAUTHORIZED);
    }

    async fn a_demotion_takes_effect_on_the_next_request(app) {
        let admin = app.token(ADMIN).await;
        let john_id = backend::auth::User::find_by_email(&app.state.db, JOHN).await.unwrap().unwrap().id;
        // John made admin, then demoted: his token never carried the role.
        let john = app.token(JOHN).await;
        assert_eq!(app.get("/admin/users", Some(&john)).await.status(), StatusCode::FORBIDDEN);
        let (status, body) = json_of(app.post_json(&format!("/admin/users/{john_id}/role"), Some(&admin), &json!({ "role": "admin" })).await).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["role"], "admin");
        assert_eq!(app.get("/admin/users", Some(&john)).await.status(), StatusCode::OK);
        assert_eq!(json_of(app.post_json(&format!("/admin/users/{john_id}/role"), Some(&admin), &json!({ "role": "user" })).await).await.0, StatusCode::OK);
        let (status, body) = json_of(app.get("/admin/users", Some(&john)).await).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert_eq!(body["message"], "Only administrators may manage accounts");

        // A change made elsewhere (another node, the `users` command) is seen within the cache time.
        backend::auth::accounts::set_role(&app.state.db, JOHN, "admin").await.unwrap();
        tokio::time::sleep(backend::auth::sessions::CACHE_TTL).await;
        assert_eq!(app.get("/admin/users", Some(&john)).await.status(), StatusCode::OK);
    }

    async fn administrators_manage_accounts_with_clear_refusals(app) {
        let admin = app.token(ADMIN).await;
        let anna = app.token(ANNA).await;
        let (status, list) = json_of(app.get("/admin/users", Some(&admin)).await).await;
        assert_eq!(status, StatusCode::OK);
        assert!(list.as_array().unwrap().iter().any(|u| u["email"] == ANNA && u["sign_in"] == "password"));
        assert_eq!(app.get("/admin/users", Some(&anna)).await.status(), StatusCode::FORBIDDEN);
        assert_eq!(app.get("/admin/users", None).await.status(), StatusCode::UNAUTHORIZED);

        let new = json!({ "email": "Carla.Verdi@Example.com", "first_name": "Carla", "role": "auditor", "password": "Quiet-Harbour-Lamp-7" });
        let (status, carla) = json_of(app.post_json("/admin/users", Some(&admin), &new).await).await;
        assert_eq!(status, StatusCode::OK, "{carla}");
        assert_eq!(carla["email"], "carla.verdi@example.com");
        assert_eq!(carla["role"], "auditor");
        assert_eq!(json_of(app.post_json("/admin/users", Some(&admin), &new).await).await.0, StatusCode::CONFLICT);
        assert_eq!(app.login_response("carla.verdi@example.com", "Quiet-Harbour-Lamp-7").await.status(), StatusCode::OK);

        let refusals: Vec<(Value, &str)> = vec![
            (json!({ "email": "x@example.com", "first_name": "X", "password": "short" }), "The password must be at least 10 characters long"),
            (json!({ "email": "x@example.com", "first_name": "X", "password": "password123" }), "This password is too common. Choose another one"),
            (json!({ "email": "x@example.com", "first_name": "X", "role": "root" }), "The role must be user, admin or auditor"),
            (json!({ "email": "not-an-email", "first_name": "X" }), "Enter a valid e-mail address"),
            (json!({ "email": "x@example.com", "first_name": "" }), "The first name is required (at most 100 characters)"),
        ];
        for (body, message) in refusals {
            let (status, reply) = json_of(app.post_json("/admin/users", Some(&admin), &body).await).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
            assert_eq!(reply["message"], message);
        }
        assert_eq!(json_of(app.post_json("/admin/users", Some(&admin), &json!({ "first_name": "X" })).await).await.0, StatusCode::BAD_REQUEST);
        assert!(backend::auth::User::find_by_email(&app.state.db, "x@example.com").await.unwrap().is_none(), "nothing half-made");

        // Unknown ids, other users' sessions.
        assert_eq!(json_of(app.post_json("/admin/users/no-such-id/disable", Some(&admin), &json!({})).await).await.0, StatusCode::NOT_FOUND);
        assert_eq!(json_of(app.post_json("/admin/sessions/no-such-session/revoke", Some(&admin), &json!({})).await).await.0, StatusCode::NOT_FOUND);
        let anna_id = backend::auth::User::find_by_email(&app.state.db, ANNA).await.unwrap().unwrap().id;
        let (status, sessions) = json_of(app.get(&format!("/admin/users/{anna_id}/sessions"), Some(&admin)).await).await;
        assert_eq!(status, StatusCode::OK);
        let session_id = sessions[0]["id"].as_str().unwrap().to_string();
        assert_eq!(app.get(&format!("/admin/users/{anna_id}/sessions"), Some(&anna)).await.status(), StatusCode::FORBIDDEN);
        assert_eq!(app.post_json(&format!("/admin/sessions/{session_id}/revoke"), Some(&anna), &json!({})).await.status(), StatusCode::FORBIDDEN);
        assert_eq!(json_of(app.post_json(&format!("/admin/sessions/{session_id}/revoke"), Some(&admin), &json!({})).await).await.0, StatusCode::OK);
        assert_eq!(app.get("/users/get-data", Some(&anna)).await.status(), StatusCode::UNAUTHORIZED);

        // Disabling: sign-in refused, sessions ended; enabling lets the account back in.
        let john_id = backend::auth::User::find_by_email(&app.state.db, JOHN).await.unwrap().unwrap().id;
        let john = app.token(JOHN).await;
        assert_eq!(json_of(app.post_json(&format!("/admin/users/{john_id}/disable"), Some(&admin), &json!({})).await).await.0, StatusCode::OK);
        assert_eq!(app.get("/users/get-data", Some(&john)).await.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(app.login_response(JOHN, PASSWORD).await.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(json_of(app.post_json(&format!("/admin/users/{john_id}/enable"), Some(&admin), &json!({})).await).await.0, StatusCode::OK);
        assert_eq!(app.login_response(JOHN, PASSWORD).await.status(), StatusCode::OK);

        // The last administrator cannot lock everyone out.
        let admin_id = backend::auth::User::find_by_email(&app.state.db, ADMIN).await.unwrap().unwrap().id;
        let (status, body) = json_of(app.post_json(&format!("/admin/users/{admin_id}/role"), Some(&admin), &json!({ "role": "user" })).await).await;
        assert_eq!(status, StatusCode::CONFLICT);
        assert_eq!(body["message"], "The last enabled administrator cannot be disabled or lose the role");
        assert_eq!(json_of(app.post_json(&format!("/admin/users/{admin_id}/disable"), Some(&admin), &json!({})).await).await.0, StatusCode::CONFLICT);
    }

    async fn renewal_stops_at_the_absolute_lifetime(app) {
        let token = app.token(ANNA).await;
        let (_, body) = json_of(app.post_json("/users/welcome", Some(&token), &json!({})).await).await;
        let renewed = body["jwt"].as_str().unwrap().to_string();
        // The session reaches its absolute end: neither token works, renewal included.
        projections::on_db!(&app.state.db, pool => sqlx::query("update sessions set expires_at = $1")
            .bind(projections::now_ms() - 1).execute(pool).await.map(|r| r.rows_affected())).unwrap();
        app.state.auth.sessions.clear();
        for t in [&token, &renewed] {
            assert_eq!(app.post_json("/users/welcome", Some(t), &json!({})).await.status(), StatusCode::UNAUTHORIZED);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_never_outlives_its_session() {
    let app = spawn_app_with(Engine::Sqlite, |c| {
        c.session_max_age_seconds = 120;
    })
    .await
    .unwrap();
    let token = app.token(ANNA).await;
    let claims = app.state.auth.jwt.verify(&token).unwrap();
    assert!(claims.exp - claims.iat <= 120, "{claims:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_start_without_demo_has_no_demo_account_and_demo_refuses_a_real_database() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = crate::helpers::test_config(dir.path());
    config.demo = false;
    let (state, _projector) = backend::prepare(config.clone()).await.unwrap();
    let users: i64 = projections::on_db!(&state.db, pool => sqlx::query_scalar("select count(*) from users").fetch_one(pool).await).unwrap();
    assert_eq!(users, 0, "no account at all");
    assert!(backend::auth::User::find_by_email(&state.db, ADMIN)
        .await
        .unwrap()
        .is_none());

    // The first administrator, as `companion users add --role admin` makes it.
    backend::auth::accounts::add(
        &state.db,
        backend::auth::accounts::NewAccount {
            email: "it@meridian.example".into(),
            first_name: "Ida".into(),
            last_name: "Tech".into(),
            role: "admin".into(),
            password: Some("Granite-Meadow-Signal-4".into()),
        },
    )
    .await
    .unwrap();
    state.db.close().await;

    // The demo on this database would add accounts with a published password: refused.
    let mut demo = config.clone();
    demo.demo = true;
    let refused = backend::prepare(demo).await.err().expect("refused");
    assert!(
        refused
            .to_string()
            .contains("refused: this database holds 1 account(s)"),
        "{refused:#}"
    );
    let (state, _projector) = backend::prepare(config).await.unwrap();
    assert!(backend::auth::User::find_by_email(&state.db, ANNA)
        .await
        .unwrap()
        .is_none());
    state.db.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_comes_back_on_a_demo_database_only() {
    let dir = tempfile::tempdir().unwrap();
    let config = crate::helpers::test_config(dir.path());
    let (state, _p) = backend::prepare(config.clone()).await.unwrap();
    assert!(backend::auth::User::find_by_email(&state.db, ANNA)
        .await
        .unwrap()
        .is_some());
    state.db.close().await;
    // Restarting the demo (accounts added meanwhile included) is fine.
    let (state, _p) = backend::prepare(config).await.unwrap();
    assert!(backend::auth::User::find_by_email(&state.db, ADMIN)
        .await
        .unwrap()
        .is_some());
    state.db.close().await;
}

both_dbs! {
    async fn content_waits_for_the_terms_and_auditors_read_the_acceptances(app) {
        let marco = app.session_token(crate::helpers::MARCO).await;
        let (status, body) = json_of(app.get("/home", Some(&marco)).await).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert_eq!(body["code"], "terms_not_accepted");
        assert_eq!(body["message"], "Accept the terms and conditions to continue");
        // The session calls work meanwhile.
        assert_eq!(app.get("/users/get-data", Some(&marco)).await.status(), StatusCode::OK);
        assert_eq!(app.get("/users/onboarding", Some(&marco)).await.status(), StatusCode::OK);

        assert_eq!(app.get("/users/accept-terms", Some(&marco)).await.status(), StatusCode::OK);
        assert_eq!(app.get("/home", Some(&marco)).await.status(), StatusCode::OK);
        // Accepting again records nothing new.
        assert_eq!(app.get("/users/accept-terms", Some(&marco)).await.status(), StatusCode::OK);

        let auditor = app.token(crate::helpers::AUDITOR).await;
        let marco_id = backend::auth::User::find_by_email(&app.state.db, crate::helpers::MARCO).await.unwrap().unwrap().id;
        let (status, history) = json_of(app.get(&format!("/admin/terms-acceptances?user={marco_id}"), Some(&auditor)).await).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(history.as_array().unwrap().len(), 1, "{history}");
        assert_eq!(history[0]["email"], crate::helpers::MARCO);
        assert_eq!(history[0]["version"], "2021-01");
        let (status, all) = json_of(app.get("/admin/terms-acceptances", Some(&auditor)).await).await;
        assert_eq!(status, StatusCode::OK);
        assert!(all.as_array().unwrap().len() >= 5);
        let anna = app.token(ANNA).await;
        assert_eq!(app.get("/admin/terms-acceptances", Some(&anna)).await.status(), StatusCode::FORBIDDEN);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn new_terms_are_asked_again() {
    let dir = tempfile::tempdir().unwrap();
    let config = crate::helpers::test_config(dir.path());
    let (state, _projector) = backend::prepare(config.clone()).await.unwrap();
    state.db.close().await;

    let mut newer = config;
    newer.terms_version = "2026-02".into();
    let server = backend::Server::bind(newer).await.unwrap();
    let base = format!("http://{}/api", server.addr);
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(server.run(async {
        let _ = stopped.await;
    }));
    let client = reqwest::Client::new();
    let login: Value = client
        .post(format!("{base}/users/login"))
        .json(&json!({ "username": ANNA, "password": PASSWORD }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(login["need_accept_terms"], true, "{login}");
    let token = login["jwt"].as_str().unwrap();
    let home = |t: String| {
        let client = client.clone();
        let url = format!("{base}/home");
        async move {
            client
                .get(url)
                .bearer_auth(t)
                .send()
                .await
                .unwrap()
                .status()
        }
    };
    assert_eq!(home(token.to_string()).await, StatusCode::FORBIDDEN);
    let accepted = client
        .get(format!("{base}/users/accept-terms"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    assert_eq!(accepted.status(), StatusCode::OK);
    assert_eq!(home(token.to_string()).await, StatusCode::OK);
    let _ = stop.send(());
    running.await.unwrap().unwrap();
}

async fn outbox_bodies(app: &TestApp, recipient: &str) -> Vec<String> {
    projections::on_db!(&app.state.db, pool => sqlx::query_scalar::<_, String>(
        "select body from outbox where recipient = $1 and subject = $2 order by id")
        .bind(recipient).bind(backend::auth::reset::RESET_SUBJECT).fetch_all(pool).await)
    .unwrap()
}

fn reset_token(body: &str) -> String {
    let at = body.find("reset=").expect("a reset link") + "reset=".len();
    body[at..]
        .chars()
        .take_while(|c| c.is_ascii_hexdigit())
        .collect()
}

both_dbs! {
    async fn a_password_is_reset_once_by_the_emailed_link(app) {
        let old_session = app.token(ANNA).await;
        for email in [ANNA, "nobody@example.com"] {
            let (status, body) = json_of(app.post_json("/users/password-reset", None, &json!({ "email": email })).await).await;
            assert_eq!(status, StatusCode::OK);
            assert_eq!(body, json!({ "result": true }), "the same answer for an unknown e-mail");
        }
        assert!(outbox_bodies(&app, "nobody@example.com").await.is_empty());
        let bodies = outbox_bodies(&app, ANNA).await;
        assert_eq!(bodies.len(), 1);
        let token = reset_token(&bodies[0]);
        assert_eq!(token.len(), 64);

        let confirm = |password: &str, token: &str| json!({ "token": token, "password": password });
        let (status, body) = json_of(app.post_json("/users/password-reset/confirm", None, &confirm("short", &token)).await).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(body["message"], "The password must be at least 10 characters long");
        // Still usable after a refused password.
        assert_eq!(json_of(app.post_json("/users/password-reset/confirm", None, &confirm("Amber-Lighthouse-31", &token)).await).await.0, StatusCode::OK);
        assert_eq!(app.get("/users/get-data", Some(&old_session)).await.status(), StatusCode::UNAUTHORIZED, "sessions ended");
        assert_eq!(app.login_response(ANNA, PASSWORD).await.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(app.login_response(ANNA, "Amber-Lighthouse-31").await.status(), StatusCode::OK);
        // Once only; made-up tokens and missing fields are refused.
        let (status, body) = json_of(app.post_json("/users/password-reset/confirm", None, &confirm("Another-Lighthouse-32", &token)).await).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(body["message"], "This reset link is invalid, used or expired. Ask for a new one");
        assert_eq!(json_of(app.post_json("/users/password-reset/confirm", None, &confirm("Another-Lighthouse-32", &"0".repeat(64))).await).await.0, StatusCode::BAD_REQUEST);
        assert_eq!(json_of(app.post_json("/users/password-reset/confirm", None, &json!({})).await).await.0, StatusCode::BAD_REQUEST);
        assert_eq!(json_of(app.post_json("/users/password-reset", None, &json!({ "email": "" })).await).await.0, StatusCode::BAD_REQUEST);

        // An expired link.
        app.post_json("/users/password-reset", None, &json!({ "email": JOHN })).await;
        let token = reset_token(&outbox_bodies(&app, JOHN).await[0]);
        projections::on_db!(&app.state.db, pool => sqlx::query("update password_resets set created_at = created_at - 1900000")
            .execute(pool).await.map(|r| r.rows_affected())).unwrap();
        assert_eq!(json_of(app.post_json("/users/password-reset/confirm", None, &confirm("Amber-Lighthouse-31", &token)).await).await.0, StatusCode::BAD_REQUEST);
        assert_eq!(app.login_response(JOHN, PASSWORD).await.status(), StatusCode::OK);

        // Three requests an hour per account.
        for _ in 0..2 {
            assert_eq!(app.post_json("/users/password-reset", None, &json!({ "email": JOHN })).await.status(), StatusCode::OK);
        }
        assert_eq!(app.post_json("/users/password-reset", None, &json!({ "email": JOHN })).await.status(), StatusCode::TOO_MANY_REQUESTS);
    }
}

both_dbs! {
    async fn a_caller_without_the_role_gets_403_whatever_the_body_or_query(app) {
        let anna = app.token(ANNA).await;
        let admin = app.token(ADMIN).await;
        // A body that is not JSON at all: the role is answered first.
        let forbidden = [
            ("/admin/users", "Only administrators may manage accounts"),
            ("/admin/notifications", "Only administrators can publish notifications and app updates"),
            ("/admin/updates", "Only administrators can publish notifications and app updates"),
        ];
        for (path, message) in forbidden {
            let (status, body) = json_of(app.post_raw(path, Some(&anna), "application/json", "{not json").await).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{path}: {body}");
            assert_eq!(body["message"], message, "{path}");
            // Someone with the role gets the body's own answer.
            let (status, body) = json_of(app.post_raw(path, Some(&admin), "application/json", "{not json").await).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {body}");
        }
        // A query that cannot be read: the role is answered first too.
        let (status, body) = json_of(app.get("/audit/items?limit=many", Some(&anna)).await).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
        assert_eq!(body["message"], "Only auditors can search every document");
        let auditor = app.token(crate::helpers::AUDITOR).await;
        let (status, body) = json_of(app.get("/audit/items?limit=many", Some(&auditor)).await).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    }
}
