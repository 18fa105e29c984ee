use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::both_dbs;

fn now_s() -> i64 {
    chrono::Utc::now().timestamp()
}

async fn login_body(app: &crate::helpers::TestApp, email: &str) -> Value {
    let (status, body) =
        crate::helpers::json_of(app.login_response(email, crate::helpers::PASSWORD).await).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body
}

both_dbs! {
    async fn check_domain_tells_password_from_single_sign_on(app) {
        let (status, body) = json_of(app.get("/users/check-domain-new?email=anna.rossi@example.com", None).await).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body, json!({ "azure": false, "source": null }));

        let (status, body) = json_of(app.get("/users/check-domain-new?email=Someone@SSO.example.com", None).await).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body, json!({ "azure": true, "source": "azure" }));
    }

    async fn check_domain_refuses_missing_or_malformed_email(app) {
        for path in ["/users/check-domain-new", "/users/check-domain-new?email=", "/users/check-domain-new?email=not-an-email",
                     "/users/check-domain-new?email=a@b", "/users/check-domain-new?email=@example.com"] {
            let (status, _) = json_of(app.get(path, None).await).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{path}");
        }
        let long = format!("/users/check-domain-new?email={}@example.com", "a".repeat(300));
        assert_eq!(json_of(app.get(&long, None).await).await.0, StatusCode::BAD_REQUEST);
    }

    async fn demo_accounts_sign_in_with_their_flags(app) {
        let anna = login_body(&app, ANNA).await;
        assert_eq!(anna["user"]["first_name"], "Anna");
        assert_eq!(anna["need_accept_terms"], false);
        assert_eq!(anna["onboarding"], false);
        assert_eq!(anna["user"]["show_us"], false);
        assert_eq!(anna["update_id"], Value::Null);
        assert!(anna["jwt"].as_str().is_some_and(|t| t.split('.').count() == 3));
        assert!(anna["user"].get("password_hash").is_none());

        let john = login_body(&app, JOHN).await;
        assert_eq!(john["user"]["first_name"], "John");
        assert_eq!(john["user"]["certificate"], "US");
        assert_eq!(john["user"]["show_us"], true);

        let marco = login_body(&app, MARCO).await;
        assert_eq!(marco["user"]["first_name"], "Marco");
        assert_eq!(marco["need_accept_terms"], true);
        assert_eq!(marco["onboarding"], true);

        assert_eq!(login_body(&app, ADMIN).await["user"]["role"], "admin");
        let audrey = login_body(&app, AUDITOR).await;
        assert_eq!(audrey["user"]["role"], "auditor");
        assert_eq!(audrey["user"]["first_name"], "Audrey");

        // E-mails are matched without regard to case or surrounding spaces.
        let (status, _) = json_of(app.login_response("  Anna.Rossi@Example.com ", PASSWORD).await).await;
        assert_eq!(status, StatusCode::OK);
    }

    async fn wrong_password_and_unknown_email_look_the_same(app) {
        let (s1, b1) = json_of(app.login_response(ANNA, "wrong-password").await).await;
        let (s2, b2) = json_of(app.login_response("nobody@example.com", "wrong-password").await).await;
        assert_eq!(s1, StatusCode::UNAUTHORIZED);
        assert_eq!(s2, StatusCode::UNAUTHORIZED);
        assert_eq!(b1, b2);
        assert_eq!(b1["message"], "Login failed");
    }

    async fn repeated_failures_are_refused_then_other_accounts_still_work(app) {
        for _ in 0..5 {
            assert_eq!(app.login_response(ANNA, "guess").await.status(), StatusCode::UNAUTHORIZED);
        }
        // Even the right password is refused while the e-mail is throttled.
        let (status, body) = json_of(app.login_response(ANNA, PASSWORD).await).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
        assert!(body["message"].as_str().unwrap().contains("Too many"));
        assert_eq!(app.login_response(JOHN, PASSWORD).await.status(), StatusCode::OK);
    }

    async fn a_success_clears_earlier_failures(app) {
        for _ in 0..4 {
            app.login_response(ANNA, "guess").await;
        }
        assert_eq!(app.login_response(ANNA, PASSWORD).await.status(), StatusCode::OK);
        for _ in 0..4 {
            app.login_response(ANNA, "guess").await;
        }
        assert_eq!(app.login_response(ANNA, PASSWORD).await.status(), StatusCode::OK);
    }

    async fn bad_login_bodies_get_a_clear_400(app) {
        let cases: Vec<(&str, String)> = vec![
            ("application/json", "{not json".into()),
            ("application/json", "[]".into()),
            ("application/json", json!({ "username": 5, "password": "x" }).to_string()),
            ("application/json", json!({ "password": "x" }).to_string()),
            ("application/json", json!({ "username": ANNA }).to_string()),
            ("application/json", json!({ "username": ANNA, "password": "" }).to_string()),
            ("application/json", json!({ "username": ANNA, "password": "x".repeat(5000) }).to_string()),
            ("text/plain", json!({ "username": ANNA, "password": PASSWORD }).to_string()),
        ];
        for (content_type, body) in cases {
            let (status, reply) = json_of(app.post_raw("/users/login", None, content_type, body.clone()).await).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{body} -> {reply}");
        }
        let huge = json!({ "username": ANNA, "password": "x".repeat(400_000) }).to_string();
        let (status, _) = json_of(app.post_raw("/users/login", None, "application/json", huge).await).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
        // None of it counted as a failed sign-in.
        assert_eq!(app.login_response(ANNA, PASSWORD).await.status(), StatusCode::OK);
    }

    async fn welcome_restores_the_session_with_a_fresh_token(app) {
        let token = app.token(ANNA).await;
        let (status, body) = json_of(app.post_json("/users/welcome", Some(&token), &json!({})).await).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body["user"]["email"], ANNA);
        assert!(body["jwt"].as_str().is_some());
        let (status, body) = json_of(app.client.post(app.url("/users/welcome")).bearer_auth(&token).send().await.unwrap()).await;
        assert_eq!(status, StatusCode::OK, "welcome needs no body: {body}");
    }

    async fn missing_forged_and_expired_tokens_are_401(app) {
        let (status, _) = json_of(app.get("/users/get-data", None).await).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        let (status, _) = json_of(app.get("/users/get-data", Some("not.a.token")).await).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);

        // Signed with another secret.
        let other = backend::auth::jwt::JwtKeys::new(b"another-secret-another-secret-0000", 3600);
        let anna_id = backend::auth::User::find_by_email(&app.state.db, ANNA).await.unwrap().unwrap().id;
        let forged = other.issue(&anna_id, "any-session", now_s() + 3600).unwrap();
        assert_eq!(json_of(app.get("/users/get-data", Some(&forged)).await).await.0, StatusCode::UNAUTHORIZED);

        let now = chrono::Utc::now().timestamp();
        let expired = app.state.auth.jwt.issue_with_expiry(&anna_id, "any-session", now - 7200, now - 60).unwrap();
        let (status, body) = json_of(app.get("/users/get-data", Some(&expired)).await).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert_eq!(body["message"], "Your session has expired. Please sign in again.");

        let (status, body) = json_of(app.get("/users/get-data", Some(&app.token(ANNA).await)).await).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body["first_name"], "Anna");
    }

    async fn a_token_of_a_deleted_user_is_401(app) {
        let token = app.token(ANNA).await;
        projections::on_db!(&app.state.db, pool => sqlx::query("delete from users where email = $1").bind(ANNA).execute(pool).await.map(|r| r.rows_affected())).unwrap();
        assert_eq!(json_of(app.get("/users/get-data", Some(&token)).await).await.0, StatusCode::UNAUTHORIZED);
    }

    async fn accepting_terms_and_finishing_onboarding_change_the_next_session(app) {
        let token = app.token(MARCO).await;
        let (status, body) = json_of(app.get("/users/accept-terms", Some(&token)).await).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body, json!({ "result": true }));
        let after_terms = login_body(&app, MARCO).await;
        assert_eq!(after_terms["need_accept_terms"], false);
        assert_eq!(after_terms["onboarding"], true);

        let (status, body) = json_of(app.get("/users/onboarding", Some(&token)).await).await;
        assert_eq!(status, StatusCode::OK);
        let slides = body["slides"].as_array().expect("slides");
        assert!(!slides.is_empty());
        assert!(slides.iter().all(|s| s["image"].as_str().is_some_and(|i| i.starts_with("/media/"))));

        assert_eq!(json_of(app.post_json("/users/onboarding", Some(&token), &json!({})).await).await.0, StatusCode::OK);
        assert_eq!(login_body(&app, MARCO).await["onboarding"], false);

        assert_eq!(json_of(app.get("/users/accept-terms", None).await).await.0, StatusCode::UNAUTHORIZED);
        assert_eq!(json_of(app.get("/users/onboarding", None).await).await.0, StatusCode::UNAUTHORIZED);
    }

    async fn registering_a_device_with_a_push_id_turns_push_on(app) {
        let token = app.token(ANNA).await;
        assert_eq!(login_body(&app, ANNA).await["push"], false);
        let device = json!({ "push_id": null, "os": "web", "uuid": "u-1", "app_version": "1.0.0", "browser": "Chromium", "device": "desktop" });
        assert_eq!(json_of(app.post_json("/users/register-device", Some(&token), &device).await).await.0, StatusCode::OK);
        assert_eq!(login_body(&app, ANNA).await["push"], false);
        let device = json!({ "push_id": "push-abc", "os": "android", "uuid": "u-1" });
        assert_eq!(json_of(app.post_json("/users/register-device", Some(&token), &device).await).await.0, StatusCode::OK);
        assert_eq!(login_body(&app, ANNA).await["push"], true);

        let rows: i64 = projections::on_db!(&app.state.db, pool => sqlx::query_scalar("select count(*) from devices").fetch_one(pool).await).unwrap();
        assert_eq!(rows, 1, "re-registering the same device replaces it");

        // A web push subscription may be long (up to 4096 characters); the other fields 512.
        let too_long = json!({ "push_id": "x".repeat(5000) });
        assert_eq!(json_of(app.post_json("/users/register-device", Some(&token), &too_long).await).await.0, StatusCode::BAD_REQUEST);
        let too_long = json!({ "os": "x".repeat(600) });
        assert_eq!(json_of(app.post_json("/users/register-device", Some(&token), &too_long).await).await.0, StatusCode::BAD_REQUEST);
        assert_eq!(json_of(app.post_json("/users/register-device", None, &json!({})).await).await.0, StatusCode::UNAUTHORIZED);
    }

    async fn unknown_api_paths_are_json_404(app) {
        let (status, _) = json_of(app.get("/no/such/call", None).await).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(json_of(app.get("/health", None).await).await.0, StatusCode::OK);
    }
}
