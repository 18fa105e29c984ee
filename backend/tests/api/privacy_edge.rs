//! Fair limits and the small hardening points: throttles by network, the recipient look-up, the
//! provider's error text, `Cache-Control`, the metrics listener, the external-share and
//! last-administrator races, the signing secret and the idempotency fingerprints.

use std::sync::Arc;

use backend::auth::{NewUser, Role, User};
use backend::Server;
use reqwest::StatusCode;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::documents::new_file;
use crate::helpers::{
    json_of, spawn_app_with, test_config, Engine, TestApp, ADMIN, ANNA, AUDITOR, JOHN, MARCO,
    PASSWORD,
};

/// Runs `scenario(engine)` once on SQLite and once on PostgreSQL (`name::sqlite`,
/// `name::postgres`), for scenarios that need settings of their own.
macro_rules! on_both_dbs {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite() {
                    super::$name(crate::helpers::Engine::Sqlite).await;
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn postgres() {
                    super::$name(crate::helpers::Engine::Postgres).await;
                }
            }
        )*
    };
}

on_both_dbs!(
    forty_guesses_from_one_ipv6_network_check_at_most_the_limit,
    the_recipient_lookup_waits_for_the_terms,
    a_fresh_token_does_not_reset_the_lookup_limit,
    the_recipient_lookup_lists_only_enabled_users,
    parallel_external_shares_stop_at_the_daily_limit,
    two_admins_demoting_each_other_at_once_leave_one,
    idempotency_fingerprints_are_keyed,
);

/// A sign-in attempt as from `address` (the app trusts `X-Forwarded-For` in these tests).
async fn login_from(app: &TestApp, address: &str, email: &str, password: &str) -> StatusCode {
    app.client
        .post(app.url("/users/login"))
        .header("x-forwarded-for", address)
        .json(&json!({ "username": email, "password": password }))
        .send()
        .await
        .expect("sign-in")
        .status()
}

async fn forty_guesses_from_one_ipv6_network_check_at_most_the_limit(engine: Engine) {
    let Some(app) = spawn_app_with(engine, |c| c.trust_proxy_headers = true).await else {
        return;
    };
    let app = Arc::new(app);
    // Forty addresses of one /64: each guess from a fresh one.
    let guesses = (0..40).map(|i| {
        let app = app.clone();
        tokio::spawn(async move {
            let address = format!("2001:db8:7:7::{:x}", i + 1);
            login_from(&app, &address, ANNA, &format!("wrong-guess-{i}")).await
        })
    });
    let statuses: Vec<StatusCode> = futures::future::join_all(guesses)
        .await
        .into_iter()
        .map(|s| s.expect("guess"))
        .collect();
    let checked = statuses
        .iter()
        .filter(|s| **s == StatusCode::UNAUTHORIZED)
        .count();
    let throttled = statuses
        .iter()
        .filter(|s| **s == StatusCode::TOO_MANY_REQUESTS)
        .count();
    let limit = app.state.config.login_max_failures as usize;
    assert!(checked <= limit, "at most {limit} checked, got {checked}");
    assert_eq!(checked + throttled, 40);
    // Yet another address of that network is blocked too, even with the right password.
    assert_eq!(
        login_from(&app, "2001:db8:7:7:abcd::1", ANNA, PASSWORD).await,
        StatusCode::TOO_MANY_REQUESTS
    );
    // The owner, from another network, is not locked out.
    assert_eq!(
        login_from(&app, "2001:db8:7:8::1", ANNA, PASSWORD).await,
        StatusCode::OK
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_rate_limit_counts_an_ipv6_network_as_one_client() {
    let app = spawn_app_with(Engine::Sqlite, |c| {
        c.trust_proxy_headers = true;
        c.rate_limit_address_per_second = 1;
        c.rate_limit_address_burst = 3;
    })
    .await
    .expect("sqlite app");
    let from = |address: String| {
        app.client
            .get(app.url("/badges"))
            .header("x-forwarded-for", address)
            .send()
    };
    for i in 1..=3 {
        let res = from(format!("2001:db8:5:5::{i}")).await.expect("call");
        assert_ne!(res.status(), StatusCode::TOO_MANY_REQUESTS, "call {i}");
    }
    let res = from("2001:db8:5:5:ffff::9".into()).await.expect("call");
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    // Another network has its own bucket.
    let res = from("2001:db8:5:6::1".into()).await.expect("call");
    assert_ne!(res.status(), StatusCode::TOO_MANY_REQUESTS);
}

async fn lookup(app: &TestApp, token: &str, search: &str) -> (StatusCode, Value) {
    json_of(
        app.get(&format!("/users/share-list?search={search}"), Some(token))
            .await,
    )
    .await
}

async fn the_recipient_lookup_waits_for_the_terms(engine: Engine) {
    let Some(app) = spawn_app_with(engine, |_| {}).await else {
        return;
    };
    // The demo's new user has not accepted the terms yet.
    let marco = app.session_token(MARCO).await;
    let (status, body) = lookup(&app, &marco, "john").await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(body["code"], "terms_not_accepted");
    let res = app.get("/users/accept-terms", Some(&marco)).await;
    assert_eq!(res.status(), StatusCode::OK);
    let (status, body) = lookup(&app, &marco, "john").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, json!([JOHN]));
}

async fn a_fresh_token_does_not_reset_the_lookup_limit(engine: Engine) {
    let Some(app) = spawn_app_with(engine, |c| c.recipient_lookups_per_minute = 2).await else {
        return;
    };
    let anna = app.token(ANNA).await;
    for _ in 0..2 {
        assert_eq!(lookup(&app, &anna, "john").await.0, StatusCode::OK);
    }
    let res = app.get("/users/share-list?search=john", Some(&anna)).await;
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(res.headers().contains_key("retry-after"));
    // A renewed token of the same session (issued a second later, so another token)...
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let renewed = app
        .post_json("/users/welcome", Some(&anna), &json!({}))
        .await;
    let (status, body) = json_of(renewed).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let renewed = body["jwt"].as_str().expect("jwt").to_string();
    assert_ne!(renewed, anna);
    assert_eq!(
        lookup(&app, &renewed, "john").await.0,
        StatusCode::TOO_MANY_REQUESTS
    );
    // ...or a new sign-in count against the same user.
    let again = app.token(ANNA).await;
    assert_eq!(
        lookup(&app, &again, "john").await.0,
        StatusCode::TOO_MANY_REQUESTS
    );
    // Another user has their own allowance.
    let john = app.token(JOHN).await;
    assert_eq!(lookup(&app, &john, "anna").await.0, StatusCode::OK);
}

async fn the_recipient_lookup_lists_only_enabled_users(engine: Engine) {
    let Some(app) = spawn_app_with(engine, |_| {}).await else {
        return;
    };
    let anna = app.token(ANNA).await;
    let emails = |body: Value| -> Vec<String> {
        body.as_array()
            .expect("a list")
            .iter()
            .map(|e| e.as_str().expect("an e-mail").to_string())
            .collect()
    };
    let (status, body) = lookup(&app, &anna, "example.com").await;
    assert_eq!(status, StatusCode::OK);
    let listed = emails(body);
    assert!(listed.contains(&JOHN.to_string()), "{listed:?}");
    for never in [ADMIN, AUDITOR, ANNA] {
        assert!(
            !listed.contains(&never.to_string()),
            "{never} in {listed:?}"
        );
    }
    // A disabled account is no recipient.
    let john = User::find_by_email(&app.state.db, JOHN)
        .await
        .expect("db")
        .expect("john");
    let admin = app.token(ADMIN).await;
    let res = app
        .post_json(
            &format!("/admin/users/{}/disable", john.id),
            Some(&admin),
            &json!({}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let (_, body) = lookup(&app, &anna, "john").await;
    assert_eq!(body, json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_providers_error_text_never_reaches_the_login_page() {
    let app = spawn_app_with(Engine::Sqlite, |_| {})
        .await
        .expect("sqlite app");
    let res = app
        .client
        .get(app.url("/users/sso/callback"))
        .query(&[
            ("error", "access_denied"),
            (
                "error_description",
                "Your account is locked.\nCall +1 555 0100 to unlock it",
            ),
        ])
        .send()
        .await
        .expect("callback");
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        res.headers()["location"],
        "/login?error=Login+failed%3A+the+provider+refused+the+sign-in"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn api_answers_are_kept_by_no_http_cache() {
    let app = spawn_app_with(Engine::Sqlite, |_| {})
        .await
        .expect("sqlite app");
    let anna = app.token(ANNA).await;
    for (path, token) in [
        ("/badges", Some(anna.as_str())),
        ("/users/share-list?search=john", Some(anna.as_str())),
        ("/badges", None),
        ("/no-such-call", Some(anna.as_str())),
        ("/health", None),
    ] {
        let res = app.get(path, token).await;
        assert_eq!(
            res.headers()
                .get("cache-control")
                .map(|v| v.to_str().unwrap_or_default()),
            Some("no-store"),
            "{path} ({})",
            res.status()
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_metrics_port_listens_on_the_loopback_unless_told() {
    let data_dir = tempfile::tempdir().expect("temp dir");
    let mut config = test_config(data_dir.path());
    config.bind_address = "0.0.0.0".into();
    config.metrics_port = Some(0);
    let server = Server::bind_with(config.clone(), Vec::new())
        .await
        .expect("server starts");
    let metrics = server.metrics_addr.expect("metrics listener");
    assert!(metrics.ip().is_loopback(), "{metrics}");
    drop(server);

    let data_dir = tempfile::tempdir().expect("temp dir");
    let mut config = test_config(data_dir.path());
    config.metrics_port = Some(0);
    config.metrics_bind = "0.0.0.0".into();
    let server = Server::bind_with(config, Vec::new())
        .await
        .expect("server starts");
    let metrics = server.metrics_addr.expect("metrics listener");
    assert!(metrics.ip().is_unspecified(), "{metrics}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_signing_secret_stops_the_start() {
    let data_dir = tempfile::tempdir().expect("temp dir");
    let mut config = test_config(data_dir.path());
    config.jwt_secret = Some("too-short-a-secret".into());
    let refused = match Server::bind_with(config, Vec::new()).await {
        Ok(_) => panic!("a 18-byte secret was accepted"),
        Err(e) => format!("{e:#}"),
    };
    assert!(
        refused.contains("JWT_SECRET is 18 bytes long; it must be at least 32 bytes"),
        "{refused}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_generated_signing_secret_is_readable_by_the_server_only() {
    use std::os::unix::fs::PermissionsExt;
    let data_dir = tempfile::tempdir().expect("temp dir");
    let mut config = test_config(data_dir.path());
    config.jwt_secret = None;
    let server = Server::bind_with(config, Vec::new())
        .await
        .expect("server starts");
    let file = data_dir.path().join("jwt-secret");
    let mode = std::fs::metadata(&file)
        .expect("secret file")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    assert!(std::fs::read_to_string(&file).expect("secret").len() >= 32);
    drop(server);
}

async fn parallel_external_shares_stop_at_the_daily_limit(engine: Engine) {
    let Some(app) = spawn_app_with(engine, |c| c.external_shares_per_day = 5).await else {
        return;
    };
    let app = Arc::new(app);
    let anna = app.token(ANNA).await;
    let file = new_file(&app, &anna, "Handout", None).await;
    let shares = (0..20).map(|n| {
        let (app, anna, file) = (app.clone(), anna.clone(), file.clone());
        tokio::spawn(async move {
            app.post_json(
                "/documents/external-share",
                Some(&anna),
                &json!({ "email": format!("dr{n}@clinic.example"), "file": file }),
            )
            .await
            .status()
        })
    });
    let statuses: Vec<StatusCode> = futures::future::join_all(shares)
        .await
        .into_iter()
        .map(|s| s.expect("share"))
        .collect();
    let shared = statuses.iter().filter(|s| **s == StatusCode::OK).count();
    let refused = statuses
        .iter()
        .filter(|s| **s == StatusCode::TOO_MANY_REQUESTS)
        .count();
    assert_eq!((shared, refused), (5, 15), "{statuses:?}");
    let links: i64 = projections::on_db!(&app.state.db, pool => sqlx::query_scalar(
        "select count(*) from doc_external_links").fetch_one(pool).await)
    .expect("count");
    assert_eq!(links, 5);
}

async fn enabled_admins(app: &TestApp) -> i64 {
    projections::on_db!(&app.state.db, pool => sqlx::query_scalar(
        "select count(*) from users where role = 'admin' and disabled_at is null")
        .fetch_one(pool).await)
    .expect("count")
}

async fn new_admin(app: &TestApp, n: usize) -> String {
    User::insert(
        &app.state.db,
        NewUser {
            email: &format!("admin{n}@example.com"),
            first_name: "Second",
            last_name: "Admin",
            password_hash: None,
            role: Role::Admin,
            certificate: None,
            terms_accepted: true,
            onboarding_done: true,
        },
    )
    .await
    .expect("admin added")
}

async fn two_admins_demoting_each_other_at_once_leave_one(engine: Engine) {
    use backend::auth::accounts::{set_disabled, set_role};
    let Some(app) = spawn_app_with(engine, |_| {}).await else {
        return;
    };
    let db = app.state.db.clone();
    let mut remaining = User::find_by_email(&db, ADMIN)
        .await
        .expect("db")
        .expect("admin")
        .id;
    assert_eq!(enabled_admins(&app).await, 1);
    for round in 0..8 {
        let other = new_admin(&app, round).await;
        let (a, b) = (remaining.clone(), other.clone());
        let (db_a, db_b) = (db.clone(), db.clone());
        // Half the rounds disable one of them instead of demoting it.
        let first = tokio::spawn(async move { set_role(&db_a, &a, "user").await.is_ok() });
        let second = tokio::spawn(async move {
            if round % 2 == 0 {
                set_role(&db_b, &b, "user").await.is_ok()
            } else {
                set_disabled(&db_b, &b, true).await.is_ok()
            }
        });
        let (first, second) = (first.await.expect("first"), second.await.expect("second"));
        assert!(first ^ second, "round {round}: exactly one change passes");
        assert_eq!(enabled_admins(&app).await, 1, "round {round}");
        if first {
            remaining = other;
        }
    }
}

async fn idempotency_fingerprints_are_keyed(engine: Engine) {
    let Some(app) = spawn_app_with(engine, |_| {}).await else {
        return;
    };
    let anna = app.token(ANNA).await;
    let body = json!({ "name": "Keyed", "type": "my", "parent": null });
    let send = || {
        app.client
            .post(app.url("/folders"))
            .bearer_auth(&anna)
            .header("Idempotency-Key", "keyed-fingerprint-1")
            .json(&body)
            .send()
    };
    let (status, answer) = json_of(send().await.expect("first")).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    let stored: String = projections::on_db!(&app.state.db, pool => sqlx::query_scalar(
        "select fingerprint from idempotency_keys where key = 'keyed-fingerprint-1'")
        .fetch_one(pool).await)
    .expect("row");
    // Not the plain hash of what was sent.
    let mut plain = Sha256::new();
    plain.update(b"POST\n/api/folders\n");
    plain.update(serde_json::to_vec(&body).expect("json"));
    assert_ne!(stored, hex::encode(plain.finalize()));
    assert_eq!(stored.len(), 64);
    // The same request is still recognised.
    let repeat = send().await.expect("repeat");
    assert_eq!(repeat.status(), StatusCode::CREATED);
    assert_eq!(repeat.headers()["idempotency-replayed"], "true");
}
