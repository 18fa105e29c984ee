//! Web Push against a push service started by the test (`backend/tests/push/endpoint.mjs`),
//! which decrypts each push with the `http_ece` package and checks its VAPID token with Node's
//! crypto: an implementation independent of the server's.

use std::process::Stdio;
use std::time::Duration;

use backend::{Config, Server};
use futures::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::oneshot;

use crate::helpers::*;

const CONTACT: &str = "mailto:push-team@meridian.example";
const WAIT: Duration = Duration::from_secs(60);

/// The push service of a test.
struct Endpoint {
    origin: String,
    http: reqwest::Client,
    _child: Child,
}

/// A subscription the endpoint handed out.
struct Sub {
    id: String,
    push_id: String,
}

impl Endpoint {
    async fn start() -> Endpoint {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/push/endpoint.mjs");
        let mut child = Command::new("node")
            .arg(script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("node runs backend/tests/push/endpoint.mjs (npm ci installs http_ece)");
        let stdout = child.stdout.take().expect("stdout");
        let mut lines = BufReader::new(stdout).lines();
        let first = tokio::time::timeout(WAIT, lines.next_line())
            .await
            .expect("the push endpoint starts")
            .expect("its output")
            .expect("a first line");
        let port = serde_json::from_str::<Value>(&first).expect("json")["port"]
            .as_u64()
            .expect("port");
        Endpoint {
            origin: format!("http://127.0.0.1:{port}"),
            http: reqwest::Client::new(),
            _child: child,
        }
    }

    async fn subscribe(&self) -> Sub {
        let body: Value = self
            .http
            .post(format!("{}/subscriptions", self.origin))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        Sub {
            id: body["id"].as_str().unwrap().to_string(),
            push_id: json!({"endpoint": body["endpoint"], "keys": body["keys"]}).to_string(),
        }
    }

    /// The next answers to pushes for `sub` (then 201 again).
    async fn answer(&self, sub: &Sub, statuses: &[u16], retry_after: Option<&str>) {
        self.http
            .post(format!("{}/answers/{}", self.origin, sub.id))
            .json(&json!({"statuses": statuses, "retry_after": retry_after}))
            .send()
            .await
            .unwrap();
    }

    async fn received(&self) -> Vec<Value> {
        self.http
            .get(format!("{}/received", self.origin))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }

    async fn received_by(&self, sub: &Sub) -> Vec<Value> {
        self.received()
            .await
            .into_iter()
            .filter(|r| r["subscription"] == sub.id)
            .collect()
    }

    /// Waits until `sub` received at least `n` pushes.
    async fn wait_for(&self, sub: &Sub, n: usize) -> Vec<Value> {
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            let got = self.received_by(sub).await;
            if got.len() >= n {
                return got;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "{n} pushes expected, got {got:?}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

fn push_config(config: &mut Config, endpoint: &Endpoint) {
    config.push_services = vec![endpoint.origin.clone()];
    config.push_contact = CONTACT.into();
    config.push_retry_base_ms = 50;
    config.feed_poll_ms = 50;
}

async fn app_pushing_to(engine: Engine, endpoint: &Endpoint) -> Option<TestApp> {
    let origin = endpoint.origin.clone();
    spawn_app_with(engine, move |config| {
        config.push_services = vec![origin];
        config.push_contact = CONTACT.into();
        config.push_retry_base_ms = 50;
        config.feed_poll_ms = 50;
    })
    .await
}

async fn register(
    app: &TestApp,
    token: &str,
    device: &str,
    push_id: Option<&str>,
) -> (StatusCode, Value) {
    json_of(
        app.post_json(
            "/users/register-device",
            Some(token),
            &json!({"push_id": push_id, "os": "Android", "uuid": device, "app_version": "1.0.0",
                    "browser": "Chrome", "device": "web-mobile"}),
        )
        .await,
    )
    .await
}

async fn subscriptions_of(app: &TestApp, email: &str) -> i64 {
    let db = &app.state.db;
    projections::on_db!(db, pool => sqlx::query_scalar(
        "select count(*) from push_subscriptions p join users u on u.id = p.user_id where u.email = $1")
        .bind(email).fetch_one(pool).await)
    .unwrap()
}

/// Anna shares the `nth` file of her My Docs she can share with John; returns its id and title.
async fn share_with_john(
    base: &str,
    client: &reqwest::Client,
    anna: &str,
    nth: usize,
) -> (String, String) {
    let mine: Value = client
        .get(format!("{base}/api/documents/my"))
        .bearer_auth(anna)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let file = mine["list"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| {
            i["type"] == "file"
                && i["actions"]
                    .as_array()
                    .is_some_and(|a| a.iter().any(|x| x == "internal_share"))
        })
        .nth(nth)
        .expect("a file Anna can share")
        .clone();
    let res = client
        .post(format!("{base}/api/documents/share"))
        .bearer_auth(anna)
        .json(&json!({"email": JOHN, "file": file["id"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(
        res.status(),
        StatusCode::OK,
        "{}",
        res.text().await.unwrap()
    );
    (
        file["id"].as_str().unwrap().to_string(),
        file["title"].as_str().unwrap().to_string(),
    )
}

async fn share(app: &TestApp, anna: &str) -> (String, String) {
    share_with_john(&app.base, &app.client, anna, 0).await
}

macro_rules! on_both {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                use super::*;
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite() { super::$name(Engine::Sqlite).await }
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn postgres() { super::$name(Engine::Postgres).await }
            }
        )*
    };
}

on_both!(
    a_share_is_pushed_once_decrypts_to_its_title_and_link_and_is_signed_for_the_origin,
    a_subscription_the_push_service_says_is_gone_is_deleted,
    a_push_service_that_answers_503_twice_gets_the_message_on_the_third_try,
    a_device_whose_app_is_open_gets_no_push,
    subscriptions_off_known_push_services_are_refused,
    sign_out_revocation_and_disabling_delete_the_subscriptions,
    a_restart_in_the_middle_loses_nothing_and_sends_nothing_twice,
    a_user_gets_at_most_push_user_per_hour_pushes,
    with_push_turned_off_nothing_is_pushed,
    a_course_registration_is_confirmed_by_a_push,
);

async fn a_course_registration_is_confirmed_by_a_push(engine: Engine) {
    let endpoint = Endpoint::start().await;
    let Some(app) = app_pushing_to(engine, &endpoint).await else {
        return;
    };
    // Anna registers from her laptop; her phone, app closed, is told.
    let phone = app.token(ANNA).await;
    let laptop = app.token(ANNA).await;
    let sub = endpoint.subscribe().await;
    register(&app, &phone, "annas-phone", Some(&sub.push_id)).await;
    let form = json!({"id": 1, "days": ["2026-03-19"], "name": "Anna Rossi",
        "email": ANNA, "hospital": "Ospedale Nord", "category": "surgeon", "newsletter": false,
        "privacy_consent": true, "data_consent": true});
    let (status, body) = json_of(
        app.post_json("/courses/1/register", Some(&laptop), &form)
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let got = endpoint.wait_for(&sub, 1).await;
    let payload = &got[0]["payload"];
    assert_eq!(payload["title"], "Course registration confirmed");
    assert!(
        payload["body"]
            .as_str()
            .unwrap()
            .starts_with("You have been registered to the course “"),
        "{payload}"
    );
    assert_eq!(payload["link"], json!({"type": "learn", "id": 1}));
    assert_eq!(payload["url"], "/learn/1");
}

async fn a_user_gets_at_most_push_user_per_hour_pushes(engine: Engine) {
    let endpoint = Endpoint::start().await;
    let origin = endpoint.origin.clone();
    let Some(app) = spawn_app_with(engine, move |config| {
        config.push_services = vec![origin];
        config.feed_poll_ms = 50;
        config.push_user_per_hour = 1;
    })
    .await
    else {
        return;
    };
    let john = app.token(JOHN).await;
    let anna = app.token(ANNA).await;
    let sub = endpoint.subscribe().await;
    register(&app, &john, "johns-phone", Some(&sub.push_id)).await;
    share_with_john(&app.base, &app.client, &anna, 0).await;
    share_with_john(&app.base, &app.client, &anna, 1).await;
    endpoint.wait_for(&sub, 1).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(
        endpoint.received_by(&sub).await.len(),
        1,
        "the second is over the hour's limit"
    );
    assert!(
        backend::http::metrics::render(&app.state).contains("companion_push_rate_limited_total")
    );
}

async fn with_push_turned_off_nothing_is_pushed(engine: Engine) {
    let endpoint = Endpoint::start().await;
    let origin = endpoint.origin.clone();
    let Some(app) = spawn_app_with(engine, move |config| {
        config.push_services = vec![origin];
        config.feed_poll_ms = 50;
        config.push_enabled = false;
    })
    .await
    else {
        return;
    };
    let john = app.token(JOHN).await;
    let anna = app.token(ANNA).await;
    let (status, key) = json_of(app.get("/web-push/key", Some(&john)).await).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(key["enabled"], false, "the app offers no push");
    let sub = endpoint.subscribe().await;
    register(&app, &john, "johns-phone", Some(&sub.push_id)).await;
    share(&app, &anna).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert!(endpoint.received_by(&sub).await.is_empty());
}

async fn a_share_is_pushed_once_decrypts_to_its_title_and_link_and_is_signed_for_the_origin(
    engine: Engine,
) {
    let endpoint = Endpoint::start().await;
    let Some(app) = app_pushing_to(engine, &endpoint).await else {
        return;
    };
    let john = app.token(JOHN).await;
    let anna = app.token(ANNA).await;
    let sub = endpoint.subscribe().await;
    let (status, body) = register(&app, &john, "johns-phone", Some(&sub.push_id)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, key) = json_of(app.get("/web-push/key", Some(&john)).await).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(key["enabled"], true);

    let (id, title) = share(&app, &anna).await;
    let got = endpoint.wait_for(&sub, 1).await;
    let push = &got[0];
    assert_eq!(push["status"], 201);
    assert_eq!(
        push["payload"],
        json!({
            "title": "Shared with you",
            "body": format!("Anna Rossi shared “{title}” with you."),
            "link": {"type": "documents", "id": id},
            "url": "/documents?tab=shared",
            "tag": format!("shared-{id}"),
        })
    );
    assert_eq!(push["content_encoding"], "aes128gcm");
    assert_eq!(push["ttl"], "86400");
    assert_eq!(push["urgency"], "normal");
    let vapid = &push["vapid"];
    assert_eq!(vapid["valid"], true, "{vapid}");
    assert_eq!(vapid["aud"], endpoint.origin.as_str());
    assert_eq!(vapid["sub"], CONTACT);
    assert_eq!(
        vapid["k"], key["public_key"],
        "signed with the key the app subscribes with"
    );

    // Once: nothing more arrives, and the queue is empty.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(endpoint.received_by(&sub).await.len(), 1);
    let db = &app.state.db;
    let queued: i64 = projections::on_db!(db, pool =>
        sqlx::query_scalar("select count(*) from push_queue").fetch_one(pool).await)
    .unwrap();
    assert_eq!(queued, 0);
    let metrics = backend::http::metrics::render(&app.state);
    for name in ["companion_push_sent_total", "companion_push_queued"] {
        assert!(metrics.contains(name), "{name} in /metrics");
    }

    // A renewed subscription of the same device replaces the old one.
    let renewed = endpoint.subscribe().await;
    let (status, _) = register(&app, &john, "johns-phone", Some(&renewed.push_id)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(subscriptions_of(&app, JOHN).await, 1);
    share(&app, &anna).await;
    endpoint.wait_for(&renewed, 1).await;
    assert_eq!(
        endpoint.received_by(&sub).await.len(),
        1,
        "not to the old one"
    );
}

async fn a_subscription_the_push_service_says_is_gone_is_deleted(engine: Engine) {
    let endpoint = Endpoint::start().await;
    let Some(app) = app_pushing_to(engine, &endpoint).await else {
        return;
    };
    let john = app.token(JOHN).await;
    let anna = app.token(ANNA).await;
    let sub = endpoint.subscribe().await;
    register(&app, &john, "johns-phone", Some(&sub.push_id)).await;
    endpoint.answer(&sub, &[410], None).await;
    share(&app, &anna).await;
    let got = endpoint.wait_for(&sub, 1).await;
    assert_eq!(got[0]["status"], 410);
    let deadline = tokio::time::Instant::now() + WAIT;
    while subscriptions_of(&app, JOHN).await > 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the subscription is deleted"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    share(&app, &anna).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        endpoint.received_by(&sub).await.len(),
        1,
        "nothing more is sent to it"
    );
    assert!(backend::http::metrics::render(&app.state)
        .contains("companion_push_expired_subscriptions_total"));
}

async fn a_push_service_that_answers_503_twice_gets_the_message_on_the_third_try(engine: Engine) {
    let endpoint = Endpoint::start().await;
    let Some(app) = app_pushing_to(engine, &endpoint).await else {
        return;
    };
    let john = app.token(JOHN).await;
    let anna = app.token(ANNA).await;
    let sub = endpoint.subscribe().await;
    register(&app, &john, "johns-phone", Some(&sub.push_id)).await;
    endpoint.answer(&sub, &[503, 503], Some("0")).await;
    share(&app, &anna).await;
    let got = endpoint.wait_for(&sub, 3).await;
    let statuses: Vec<_> = got.iter().map(|r| r["status"].clone()).collect();
    assert_eq!(statuses, [json!(503), json!(503), json!(201)]);
    assert!(
        got.iter().all(|r| r["payload"] == got[0]["payload"]),
        "the same message each time"
    );
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(
        endpoint.received_by(&sub).await.len(),
        3,
        "not again after the success"
    );
}

async fn a_device_whose_app_is_open_gets_no_push(engine: Engine) {
    let endpoint = Endpoint::start().await;
    let Some(app) = app_pushing_to(engine, &endpoint).await else {
        return;
    };
    let anna = app.token(ANNA).await;
    // John's phone has the app open (a socket); his tablet does not.
    let phone_token = app.token(JOHN).await;
    let tablet_token = app.token(JOHN).await;
    let phone = endpoint.subscribe().await;
    let tablet = endpoint.subscribe().await;
    register(&app, &phone_token, "phone", Some(&phone.push_id)).await;
    register(&app, &tablet_token, "tablet", Some(&tablet.push_id)).await;
    let ws_url = format!("{}/api/ws", app.base.replace("http://", "ws://"));
    let (mut ws, _) = tokio_tungstenite::connect_async(&ws_url)
        .await
        .expect("socket");
    ws.send(tokio_tungstenite::tungstenite::Message::text(
        json!({"type": "auth", "token": phone_token}).to_string(),
    ))
    .await
    .unwrap();
    // Ready: the socket is registered.
    loop {
        let msg = tokio::time::timeout(WAIT, ws.next())
            .await
            .expect("ready")
            .expect("open")
            .unwrap();
        if msg.to_text().unwrap_or_default().contains("\"ready\"") {
            break;
        }
    }
    share(&app, &anna).await;
    endpoint.wait_for(&tablet, 1).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        endpoint.received_by(&phone).await.is_empty(),
        "the open app shows the live dot instead"
    );

    // Once the app is closed (the close handshake done, so the server has let the socket go),
    // the phone is pushed to again.
    ws.close(None).await.expect("close");
    while let Ok(Some(Ok(_))) = tokio::time::timeout(WAIT, ws.next()).await {}
    tokio::time::sleep(Duration::from_millis(300)).await;
    share(&app, &anna).await;
    endpoint.wait_for(&phone, 1).await;
}

async fn subscriptions_off_known_push_services_are_refused(engine: Engine) {
    let endpoint = Endpoint::start().await;
    let Some(app) = app_pushing_to(engine, &endpoint).await else {
        return;
    };
    let john = app.token(JOHN).await;
    let sub = endpoint.subscribe().await;
    let keys: Value = serde_json::from_str::<Value>(&sub.push_id).unwrap()["keys"].clone();
    for (push_id, message) in [
        (
            json!({"endpoint": "http://127.0.0.1:1/steal", "keys": keys}).to_string(),
            "The push subscription's endpoint is not on a known push service",
        ),
        (
            json!({"endpoint": "https://fcm.googleapis.com/fcm/send/x", "keys": keys}).to_string(),
            "The push subscription's endpoint is not on a known push service",
        ),
        (
            json!({"endpoint": format!("{}/push/x", endpoint.origin), "keys": {"p256dh": "AAAA", "auth": "AAAA"}}).to_string(),
            "The push subscription's keys are not valid (p256dh: a P-256 public key, auth: 16 bytes, both base64url)",
        ),
        ("{not json".to_string(), "push_id must be a push subscription"),
    ] {
        let (status, body) = register(&app, &john, "johns-phone", Some(&push_id)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{push_id}");
        assert!(body["message"].as_str().unwrap().starts_with(message), "{body}");
    }
    assert_eq!(subscriptions_of(&app, JOHN).await, 0);
    let (status, _) = register(&app, &john, "johns-phone", Some(&"x".repeat(5000))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // A device without push, and the switch turned off, store nothing.
    register(&app, &john, "johns-phone", Some(&sub.push_id)).await;
    assert_eq!(subscriptions_of(&app, JOHN).await, 1);
    let (status, _) = register(&app, &john, "johns-phone", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        subscriptions_of(&app, JOHN).await,
        0,
        "push turned off on this device"
    );
}

async fn sign_out_revocation_and_disabling_delete_the_subscriptions(engine: Engine) {
    let endpoint = Endpoint::start().await;
    let Some(app) = app_pushing_to(engine, &endpoint).await else {
        return;
    };
    let admin = app.token(ADMIN).await;
    // Sign-out: that device's subscription only.
    let phone = app.token(JOHN).await;
    let tablet = app.token(JOHN).await;
    register(
        &app,
        &phone,
        "phone",
        Some(&endpoint.subscribe().await.push_id),
    )
    .await;
    register(
        &app,
        &tablet,
        "tablet",
        Some(&endpoint.subscribe().await.push_id),
    )
    .await;
    assert_eq!(subscriptions_of(&app, JOHN).await, 2);
    let res = app
        .post_json("/users/logout", Some(&phone), &json!({}))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(
        subscriptions_of(&app, JOHN).await,
        1,
        "the tablet keeps its own"
    );

    // Revocation of the tablet's session.
    let db = &app.state.db;
    let session: String = projections::on_db!(db, pool => sqlx::query_scalar(
        "select p.session_id from push_subscriptions p join users u on u.id = p.user_id where u.email = $1")
        .bind(JOHN).fetch_one(pool).await).unwrap();
    assert!(backend::auth::sessions::revoke(db, &session).await.unwrap());
    assert_eq!(subscriptions_of(&app, JOHN).await, 0);

    // Disabling the account.
    let anna = app.token(ANNA).await;
    register(
        &app,
        &anna,
        "annas-phone",
        Some(&endpoint.subscribe().await.push_id),
    )
    .await;
    assert_eq!(subscriptions_of(&app, ANNA).await, 1);
    let users: Value = app
        .get("/admin/users", Some(&admin))
        .await
        .json()
        .await
        .unwrap();
    let anna_id = users["users"]
        .as_array()
        .or(users.as_array())
        .unwrap()
        .iter()
        .find(|u| u["email"] == ANNA)
        .expect("anna")["id"]
        .as_str()
        .unwrap()
        .to_string();
    let res = app
        .post_json(
            &format!("/admin/users/{anna_id}/disable"),
            Some(&admin),
            &json!({}),
        )
        .await;
    assert_eq!(
        res.status(),
        StatusCode::OK,
        "{}",
        res.text().await.unwrap()
    );
    assert_eq!(subscriptions_of(&app, ANNA).await, 0);
}

/// A server on `data_dir` (and `database_url`), stopped gracefully by [`Running::stop`].
struct Running {
    base: String,
    stop: oneshot::Sender<()>,
    handle: tokio::task::JoinHandle<()>,
}

async fn run_server(config: Config) -> Running {
    let server = Server::bind(config).await.expect("server starts");
    let base = format!("http://{}", server.addr);
    let (stop, rx) = oneshot::channel::<()>();
    let handle = tokio::spawn(async move {
        server
            .run(async {
                let _ = rx.await;
            })
            .await
            .expect("server runs");
    });
    Running { base, stop, handle }
}

impl Running {
    async fn stop(self) {
        let _ = self.stop.send(());
        let _ = self.handle.await;
    }
}

async fn login(base: &str, client: &reqwest::Client, email: &str) -> String {
    let body: Value = client
        .post(format!("{base}/api/users/login"))
        .json(&json!({"username": email, "password": PASSWORD}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let token = body["jwt"].as_str().expect("jwt").to_string();
    client
        .get(format!("{base}/api/users/accept-terms"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    token
}

async fn a_restart_in_the_middle_loses_nothing_and_sends_nothing_twice(engine: Engine) {
    let endpoint = Endpoint::start().await;
    let data = tempfile::tempdir().unwrap();
    let mut config = test_config(data.path());
    let pg = match engine {
        Engine::Sqlite => None,
        Engine::Postgres => {
            let Some((admin, name)) = create_pg_database().await else {
                return;
            };
            config.database_url = Some(with_database(&admin, &name));
            Some((admin, name))
        }
    };
    push_config(&mut config, &endpoint);
    let client = reqwest::Client::new();

    let first = run_server(config.clone()).await;
    let john = login(&first.base, &client, JOHN).await;
    let anna = login(&first.base, &client, ANNA).await;
    let sub = endpoint.subscribe().await;
    let res = client
        .post(format!("{}/api/users/register-device", first.base))
        .bearer_auth(&john)
        .json(&json!({"push_id": sub.push_id, "uuid": "johns-phone"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    // The first share meets a push service that is down: it waits in the queue for a retry.
    endpoint.answer(&sub, &[503], Some("1")).await;
    let (one, _) = share_with_john(&first.base, &client, &anna, 0).await;
    endpoint.wait_for(&sub, 1).await;
    // The second share is stopped in the middle: queued or not yet, sent or not yet.
    let (two, _) = share_with_john(&first.base, &client, &anna, 1).await;
    first.stop().await;

    let second = run_server(config.clone()).await;
    let deadline = tokio::time::Instant::now() + WAIT;
    let delivered = |got: &[Value], id: &str| {
        got.iter()
            .filter(|r| r["status"] == 201 && r["payload"]["link"]["id"] == id)
            .count()
    };
    loop {
        let got = endpoint.received_by(&sub).await;
        if delivered(&got, &one) >= 1 && delivered(&got, &two) >= 1 {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "both delivered after the restart: {got:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let got = endpoint.received_by(&sub).await;
    assert_eq!(delivered(&got, &one), 1, "{got:?}");
    assert_eq!(delivered(&got, &two), 1, "{got:?}");
    second.stop().await;
    if let Some((admin, name)) = pg {
        use sqlx::Connection;
        if let Ok(mut conn) = sqlx::PgConnection::connect(&admin).await {
            let _ = sqlx::query(&format!("drop database if exists {name} with (force)"))
                .execute(&mut conn)
                .await;
        }
    }
}

/// On PostgreSQL each node writes which sessions have a socket open on it, for the node that
/// sends pushes. Only what changed is written, in short transactions, and a session counts only
/// while its node says it still runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn presence_across_nodes_writes_only_what_changed_postgres() {
    use backend::push::presence::{PresenceSync, SyncRound, FORGET_MS, ROWS_PER_TRANSACTION};
    use backend::push::Presence;

    // A database with no server on it: a server's own presence sync would remove the rows
    // this test leaves without a node row, and forget the gone node before node A does.
    let Some(database) = PgDatabase::create().await else {
        return;
    };
    let db = database.db.clone();
    let projections::Db::Postgres { pool } = &db else {
        unreachable!("a PostgreSQL app")
    };
    let rows_of = |node: &'static str| {
        let pool = pool.clone();
        async move {
            sqlx::query_scalar::<_, i64>("select count(*) from push_presence where node_id = $1")
                .bind(node)
                .fetch_one(&pool)
                .await
                .unwrap()
        }
    };
    // Node A has the sockets; `elsewhere` is the view of another node (it has none).
    let a = Presence::new();
    let elsewhere = Presence::new();
    let mut sync_a = PresenceSync::new(a.clone(), "node-a".into());

    // A row left by an earlier run of node A is removed by its first round.
    sqlx::query(
        "insert into push_presence (node_id, session_id, seen_at) values ('node-a', 'old', 0)",
    )
    .execute(pool)
    .await
    .unwrap();
    let phone = a.enter("phone");
    let first = sync_a.round(&db).await.unwrap();
    assert_eq!((first.inserted, first.deleted), (1, 1), "{first:?}");
    assert!(elsewhere.is_open(&db, "phone").await.unwrap());
    assert!(!elsewhere.is_open(&db, "old").await.unwrap());

    // Nothing changed: nothing but the node's own row is written.
    let steady = sync_a.round(&db).await.unwrap();
    assert_eq!(steady, SyncRound::default());

    // Many sockets at once: every session is written, a bounded number of rows a transaction.
    let sessions: Vec<String> = (0..1_000).map(|i| format!("s{i}")).collect();
    let guards: Vec<_> = sessions.iter().map(|s| a.enter(s)).collect();
    let many = sync_a.round(&db).await.unwrap();
    assert_eq!(many.inserted, 1_000);
    assert_eq!(many.transactions, 1_000usize.div_ceil(ROWS_PER_TRANSACTION));
    assert_eq!(rows_of("node-a").await, 1_001);
    assert!(elsewhere.is_open(&db, "s999").await.unwrap());

    // A socket closed: its row alone goes; a second socket of a session keeps it.
    let phone_again = a.enter("phone");
    drop(phone);
    drop(guards);
    let closed = sync_a.round(&db).await.unwrap();
    assert_eq!((closed.inserted, closed.deleted), (0, 1_000), "{closed:?}");
    assert!(elsewhere.is_open(&db, "phone").await.unwrap());
    assert!(!elsewhere.is_open(&db, "s0").await.unwrap());

    // A node that stopped saying it runs no longer counts, though its rows are there.
    sqlx::query("update push_presence_nodes set seen_at = 0 where node_id = 'node-a'")
        .execute(pool)
        .await
        .unwrap();
    assert!(!elsewhere.is_open(&db, "phone").await.unwrap());
    sync_a.round(&db).await.unwrap();
    assert!(elsewhere.is_open(&db, "phone").await.unwrap());

    // Another node gone for longer than FORGET_MS is removed, rows and all, by a node's first
    // round; node A, forgotten while it was silent, writes its sessions again.
    sqlx::query("insert into push_presence_nodes (node_id, seen_at) values ('node-b', $1)")
        .bind(projections::now_ms() - FORGET_MS - 1)
        .execute(pool)
        .await
        .unwrap();
    sqlx::query(
        "insert into push_presence (node_id, session_id, seen_at) values ('node-b', 'tablet', 0)",
    )
    .execute(pool)
    .await
    .unwrap();
    sqlx::query("delete from push_presence_nodes where node_id = 'node-a'")
        .execute(pool)
        .await
        .unwrap();
    let mut restarted = PresenceSync::new(a.clone(), "node-a".into());
    let back = restarted.round(&db).await.unwrap();
    assert_eq!(back.nodes_forgotten, 1, "{back:?}");
    assert_eq!(rows_of("node-b").await, 0);
    assert_eq!(rows_of("node-a").await, 1);
    assert!(elsewhere.is_open(&db, "phone").await.unwrap());

    // Leaving: the node's sessions stop counting and its rows go.
    restarted.leave(&db).await.unwrap();
    assert!(!elsewhere.is_open(&db, "phone").await.unwrap());
    assert_eq!(rows_of("node-a").await, 0);
    drop(phone_again);
}
