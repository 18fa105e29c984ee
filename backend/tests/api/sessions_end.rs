//! Sessions that end: idle sessions are refused and their sockets closed, active ones are kept;
//! a user lists and ends their own sessions; a password change or reset ends the others; a
//! socket gets nothing before the terms are accepted.

use std::time::Duration;

use futures::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::both_dbs;
use crate::helpers::{json_of, spawn_app_with, Engine, TestApp, ANNA, JOHN, MARCO, PASSWORD};

/// The idle limit of the tests that wait for it.
const IDLE_SECONDS: i64 = 2;

/// Runs each body on SQLite and PostgreSQL with `SESSION_IDLE_SECONDS` = [`IDLE_SECONDS`].
macro_rules! both_dbs_idle {
    ($(async fn $name:ident($app:ident) $body:block)*) => {
        $(
            mod $name {
                #[allow(unused_imports)]
                use super::*;

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite() {
                    let $app = spawn_app_with(Engine::Sqlite, |c| c.session_idle_seconds = IDLE_SECONDS)
                        .await.expect("sqlite app");
                    $body
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn postgres() {
                    let Some($app) = spawn_app_with(Engine::Postgres, |c| c.session_idle_seconds = IDLE_SECONDS)
                        .await else { return };
                    $body
                }
            }
        )*
    };
}

const WAIT: Duration = Duration::from_secs(15);

/// A WebSocket client of `/api/ws`.
struct Socket {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

#[derive(Debug)]
enum Frame {
    Json(Value),
    Closed(u16, String),
    Gone,
}

impl Socket {
    /// Connects and sends the `auth` message.
    async fn connect(app: &TestApp, token: &str) -> Socket {
        Socket::connect_from(app, token, None).await
    }

    /// Connects and sends the `auth` message, resuming after `last_seq` when given.
    async fn connect_from(app: &TestApp, token: &str, last_seq: Option<i64>) -> Socket {
        let url = format!("{}/api/ws", app.base.replacen("http", "ws", 1));
        let (mut ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("websocket connects");
        let mut auth = json!({ "type": "auth", "token": token });
        if let Some(seq) = last_seq {
            auth["last_seq"] = json!(seq);
        }
        ws.send(Message::text(auth.to_string()))
            .await
            .expect("send auth");
        Socket { ws }
    }

    /// Connects, authenticates and waits for `ready`.
    async fn open(app: &TestApp, token: &str) -> Socket {
        let mut socket = Socket::connect(app, token).await;
        match socket.next_within(WAIT).await {
            Some(Frame::Json(v)) if v["type"] == "ready" => socket,
            other => panic!("expected ready, got {other:?}"),
        }
    }

    /// The next frame other than a ping, if one comes within `wait`.
    async fn next_within(&mut self, wait: Duration) -> Option<Frame> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let frame = tokio::time::timeout_at(deadline, self.ws.next())
                .await
                .ok()?;
            return Some(match frame {
                None | Some(Err(_)) => Frame::Gone,
                Some(Ok(Message::Text(text))) => {
                    let v: Value = serde_json::from_str(text.as_str()).expect("json frame");
                    if v["type"] == "ping" {
                        // Answered, as the app does: heartbeats are not what these tests wait for.
                        let _ = self
                            .ws
                            .send(Message::text(json!({ "type": "pong" }).to_string()))
                            .await;
                        continue;
                    }
                    Frame::Json(v)
                }
                Some(Ok(Message::Close(frame))) => match frame {
                    Some(f) => Frame::Closed(u16::from(f.code), f.reason.to_string()),
                    None => Frame::Closed(1005, String::new()),
                },
                Some(Ok(_)) => continue,
            });
        }
    }

    /// The close code and reason, asserting that no data came before it.
    async fn closed_without_data(&mut self) -> (u16, String) {
        match self.next_within(WAIT).await {
            Some(Frame::Closed(code, reason)) => (code, reason),
            other => panic!("expected the socket to close, got {other:?}"),
        }
    }
}

/// Signs in with a user agent of its own and returns the token (terms accepted).
async fn sign_in_from(app: &TestApp, email: &str, password: &str, agent: &str) -> String {
    let res = app
        .client
        .post(app.url("/users/login"))
        .header(reqwest::header::USER_AGENT, agent)
        .json(&json!({ "username": email, "password": password }))
        .send()
        .await
        .expect("request");
    let (status, body) = json_of(res).await;
    assert_eq!(status, StatusCode::OK, "login of {email}: {body}");
    let token = body["jwt"].as_str().expect("jwt").to_string();
    assert_eq!(
        app.get("/users/accept-terms", Some(&token)).await.status(),
        StatusCode::OK
    );
    token
}

async fn status_of(app: &TestApp, token: &str) -> StatusCode {
    app.get("/users/get-data", Some(token)).await.status()
}

async fn delete(app: &TestApp, path: &str, token: &str) -> (StatusCode, Value) {
    json_of(
        app.client
            .delete(app.url(path))
            .bearer_auth(token)
            .send()
            .await
            .expect("request"),
    )
    .await
}

const PHONE: &str = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";
const LAPTOP: &str = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15";

both_dbs_idle! {
    async fn a_session_idle_past_the_limit_is_refused_and_its_socket_closed(app) {
        let token = app.token(ANNA).await;
        let mut socket = Socket::open(&app, &token).await;
        // Nothing uses the session for longer than SESSION_IDLE_SECONDS.
        let (code, reason) = socket.closed_without_data().await;
        assert_eq!(code, 4401, "{reason}");
        let (status, body) = json_of(app.get("/users/get-data", Some(&token)).await).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert_eq!(body["message"], "Your session ended after a time without use. Please sign in again.");
        // Ended for good: a new socket of it is refused at once.
        let mut again = Socket::connect(&app, &token).await;
        assert_eq!(again.closed_without_data().await.0, 4401);
        // Signing in again opens a new session.
        assert_eq!(status_of(&app, &app.token(ANNA).await).await, StatusCode::OK);
    }

    async fn a_session_in_use_is_kept_past_the_idle_limit(app) {
        let token = app.token(ANNA).await;
        let mut socket = Socket::open(&app, &token).await;
        let started = tokio::time::Instant::now();
        // A request every half second for more than twice the idle limit.
        while started.elapsed() < Duration::from_secs(IDLE_SECONDS as u64 * 2 + 1) {
            assert_eq!(status_of(&app, &token).await, StatusCode::OK, "after {:?}", started.elapsed());
            if let Some(frame) = socket.next_within(Duration::from_millis(500)).await {
                panic!("the socket of a session in use got {frame:?}");
            }
        }
        // Its use was recorded, recently enough.
        let last_seen: i64 = projections::on_db!(&app.state.db, pool => sqlx::query_scalar(
            "select max(last_seen_at) from sessions where revoked_at is null")
            .fetch_one(pool).await).unwrap();
        assert!(projections::now_ms() - last_seen < IDLE_SECONDS * 1000);
    }
}

both_dbs! {
    async fn a_user_lists_and_ends_their_own_sessions_only(app) {
        let phone = sign_in_from(&app, ANNA, PASSWORD, PHONE).await;
        let laptop = sign_in_from(&app, ANNA, PASSWORD, LAPTOP).await;
        let john = sign_in_from(&app, JOHN, PASSWORD, LAPTOP).await;

        let (status, list) = json_of(app.get("/users/sessions", Some(&phone)).await).await;
        assert_eq!(status, StatusCode::OK);
        let list = list.as_array().expect("a list").clone();
        assert_eq!(list.len(), 2, "{list:?}");
        let current: Vec<&Value> = list.iter().filter(|s| s["current"] == true).collect();
        assert_eq!(current.len(), 1);
        assert_eq!(current[0]["device"], PHONE);
        let other = list.iter().find(|s| s["current"] == false).expect("the laptop");
        assert_eq!(other["device"], LAPTOP);
        assert!(other["signed_in_at"].as_i64().is_some() && other["last_used_at"].as_i64().is_some());
        let laptop_id = other["id"].as_str().unwrap().to_string();
        let phone_id = current[0]["id"].as_str().unwrap().to_string();

        // Another user's session is not theirs to see or end.
        let (status, johns) = json_of(app.get("/users/sessions", Some(&john)).await).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(johns.as_array().unwrap().len(), 1);
        assert!(!johns.to_string().contains(&phone_id));
        let (status, body) = delete(&app, &format!("/users/sessions/{phone_id}"), &john).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(body["message"], "No open session of yours with that id");
        assert_eq!(status_of(&app, &phone).await, StatusCode::OK);
        assert_eq!(delete(&app, &format!("/users/sessions/{}", "x".repeat(65)), &john).await.0, StatusCode::NOT_FOUND);

        // Ending the laptop's session from the phone: its requests and its socket end.
        let mut laptop_socket = Socket::open(&app, &laptop).await;
        let (status, body) = delete(&app, &format!("/users/sessions/{laptop_id}"), &phone).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body["result"], true);
        assert_eq!(laptop_socket.closed_without_data().await.0, 4401);
        assert_eq!(status_of(&app, &laptop).await, StatusCode::UNAUTHORIZED);
        assert_eq!(status_of(&app, &phone).await, StatusCode::OK);
        assert_eq!(delete(&app, &format!("/users/sessions/{laptop_id}"), &phone).await.0, StatusCode::NOT_FOUND);

        let (_, list) = json_of(app.get("/users/sessions", Some(&phone)).await).await;
        assert_eq!(list.as_array().unwrap().len(), 1);
        assert_eq!(list[0]["id"], phone_id.as_str());
        assert_eq!(app.client.get(app.url("/users/sessions")).send().await.unwrap().status(), StatusCode::UNAUTHORIZED);
    }

    async fn a_password_change_ends_the_other_sessions_and_keeps_this_one(app) {
        let phone = sign_in_from(&app, ANNA, PASSWORD, PHONE).await;
        let laptop = sign_in_from(&app, ANNA, PASSWORD, LAPTOP).await;
        let mut laptop_socket = Socket::open(&app, &laptop).await;
        let change = |current: &str, new: &str| json!({ "current_password": current, "new_password": new });

        let (status, body) = json_of(app.post_json("/users/password", Some(&phone), &change("Wrong-Password-1", "Amber-Lighthouse-31")).await).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(body["message"], "The current password is not correct");
        assert_eq!(json_of(app.post_json("/users/password", Some(&phone), &change(PASSWORD, "short")).await).await.0, StatusCode::BAD_REQUEST);
        assert_eq!(json_of(app.post_json("/users/password", Some(&phone), &json!({})).await).await.0, StatusCode::BAD_REQUEST);
        // Refusals change nothing.
        assert_eq!(status_of(&app, &laptop).await, StatusCode::OK);

        let (status, _) = json_of(app.post_json("/users/password", Some(&phone), &change(PASSWORD, "Amber-Lighthouse-31")).await).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(status_of(&app, &phone).await, StatusCode::OK, "this session stays");
        assert_eq!(status_of(&app, &laptop).await, StatusCode::UNAUTHORIZED, "the others end");
        assert_eq!(laptop_socket.closed_without_data().await.0, 4401);
        assert_eq!(app.login_response(ANNA, PASSWORD).await.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(app.login_response(ANNA, "Amber-Lighthouse-31").await.status(), StatusCode::OK);
    }

    async fn a_reset_ends_every_session_and_the_other_links(app) {
        let session = sign_in_from(&app, JOHN, PASSWORD, LAPTOP).await;
        let mut socket = Socket::open(&app, &session).await;
        for _ in 0..2 {
            assert_eq!(app.post_json("/users/password-reset", None, &json!({ "email": JOHN })).await.status(), StatusCode::OK);
        }
        let bodies: Vec<String> = projections::on_db!(&app.state.db, pool => sqlx::query_scalar(
            "select body from outbox where recipient = $1 and subject = $2 order by id")
            .bind(JOHN).bind(backend::auth::reset::RESET_SUBJECT).fetch_all(pool).await).unwrap();
        assert_eq!(bodies.len(), 2);
        let links: Vec<String> = bodies.iter().map(|b| reset_token(b)).collect();
        assert_ne!(links[0], links[1]);
        let confirm = |token: &str, password: &str| json!({ "token": token, "password": password });

        let (status, _) = json_of(app.post_json("/users/password-reset/confirm", None, &confirm(&links[0], "Amber-Lighthouse-31")).await).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(status_of(&app, &session).await, StatusCode::UNAUTHORIZED);
        assert_eq!(socket.closed_without_data().await.0, 4401);

        // The second link of the same account no longer works.
        let (status, body) = json_of(app.post_json("/users/password-reset/confirm", None, &confirm(&links[1], "Another-Lighthouse-32")).await).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(body["message"], "This reset link is invalid, used or expired. Ask for a new one");
        assert_eq!(app.login_response(JOHN, "Amber-Lighthouse-31").await.status(), StatusCode::OK);
    }

    async fn a_socket_gets_nothing_before_the_terms_are_accepted(app) {
        // The demo account that has not accepted the terms yet.
        let res = app.login_response(MARCO, PASSWORD).await;
        let (_, body) = json_of(res).await;
        assert_eq!(body["need_accept_terms"], true);
        let token = body["jwt"].as_str().unwrap().to_string();
        // Something is waiting in the user's feed: it must not be sent.
        let user_id = body["user"]["id"].as_str().expect("user id").to_string();
        backend::feed::push_direct(&app.state.db, &user_id, backend::feed::FeedKind::Badge,
            &json!({ "name": "shared", "count": 1 })).await.unwrap();
        let mut socket = Socket::connect_from(&app, &token, Some(0)).await;
        let (code, reason) = socket.closed_without_data().await;
        assert_eq!(code, 4403);
        assert_eq!(reason, "Accept the terms and conditions to continue");
        // The API answers the same way.
        let (status, body) = json_of(app.get("/home", Some(&token)).await).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert_eq!(body["code"], "terms_not_accepted");

        assert_eq!(app.get("/users/accept-terms", Some(&token)).await.status(), StatusCode::OK);
        Socket::open(&app, &token).await;
    }
}

fn reset_token(body: &str) -> String {
    let at = body.find("reset=").expect("a reset link") + "reset=".len();
    body[at..]
        .chars()
        .take_while(|c| c.is_ascii_hexdigit())
        .collect()
}

both_dbs! {
    async fn ended_sessions_and_spent_reset_links_are_deleted_after_their_retention(app) {
        let db = app.state.db.clone();
        let anna = app.token(ANNA).await;
        let user_id: String = projections::on_db!(&db, pool => sqlx::query_scalar(
            "select id from users where email = $1").bind(ANNA).fetch_one(pool).await).unwrap();
        let now = projections::now_ms();
        let day = 24 * 3600 * 1000_i64;
        // (id, created, expires, revoked): ended 91 days ago, ended 89 days ago, expired 91 days
        // ago, still live.
        let rows = [
            ("old-revoked", now - 120 * day, now + day, Some(now - 91 * day)),
            ("recent-revoked", now - 120 * day, now + day, Some(now - 89 * day)),
            ("old-expired", now - 121 * day, now - 91 * day, None),
            ("live", now - day, now + 29 * day, None),
        ];
        for (id, created, expires, revoked) in rows {
            projections::on_db!(&db, pool => sqlx::query(
                "insert into sessions (id, user_id, created_at, last_seen_at, expires_at, device, client_address, revoked_at)
                 values ($1, $2, $3, $3, $4, 'Firefox', '192.0.2.7', $5)")
                .bind(id).bind(&user_id).bind(created).bind(expires).bind(revoked)
                .execute(pool).await.map(|r| r.rows_affected())).unwrap();
        }
        for (hash, created) in [("spent", now - 2 * day), ("fresh", now - 60_000)] {
            projections::on_db!(&db, pool => sqlx::query(
                "insert into password_resets (token_hash, user_id, created_at) values ($1, $2, $3)")
                .bind(hash).bind(&user_id).bind(created)
                .execute(pool).await.map(|r| r.rows_affected())).unwrap();
        }

        let purged = backend::auth::purge_ended_sessions(&db, 90, now).await.unwrap();
        assert_eq!(purged, 2, "the two sessions ended over 90 days ago");
        let left: Vec<String> = projections::on_db!(&db, pool => sqlx::query_scalar(
            "select id from sessions where id in ('old-revoked', 'recent-revoked', 'old-expired', 'live') order by id")
            .fetch_all(pool).await).unwrap();
        assert_eq!(left, vec!["live".to_string(), "recent-revoked".to_string()]);
        let resets: Vec<String> = projections::on_db!(&db, pool => sqlx::query_scalar(
            "select token_hash from password_resets where token_hash in ('spent', 'fresh')")
            .fetch_all(pool).await).unwrap();
        assert_eq!(resets, vec!["fresh".to_string()]);
        // The signed-in session of the test itself still works.
        let (status, _) = json_of(app.get("/users/sessions", Some(&anna)).await).await;
        assert_eq!(status, StatusCode::OK);
    }
}
