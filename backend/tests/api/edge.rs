// Over 600 lines: each edge layer has its own tests, sharing one server harness.
//! The HTTP edge: security headers, request ids, timeouts, body limits, rate limits, the panic
//! layer, metrics, readiness and a bounded graceful shutdown.
//!
//! Most of these do not depend on the database and run on SQLite only; readiness runs on both.

use std::time::{Duration, Instant};

use axum::routing::get;
use backend::edge::headers::{app_policy, FILE_POLICY};
use backend::{AppState, Config, Server};
use futures::SinkExt;
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;

use crate::both_dbs;
use crate::documents::{new_file, post};
use crate::helpers::*;

/// A server of our own (not `TestApp`): tests here need the router with extra routes, the
/// metrics port, and to time the shutdown.
struct EdgeApp {
    base: String,
    addr: std::net::SocketAddr,
    metrics_addr: Option<std::net::SocketAddr>,
    state: AppState,
    client: reqwest::Client,
    shutdown: Option<oneshot::Sender<()>>,
    server: Option<tokio::task::JoinHandle<anyhow::Result<()>>>,
    _data_dir: tempfile::TempDir,
}

async fn spawn_edge(adjust: impl FnOnce(&mut Config), extra: axum::Router<AppState>) -> EdgeApp {
    let data_dir = tempfile::tempdir().expect("temp dir");
    let mut config = test_config(data_dir.path());
    adjust(&mut config);
    let server = Server::bind(config).await.expect("server starts");
    let addr = server.addr;
    let metrics_addr = server.metrics_addr;
    let state = server.state().clone();
    let app = backend::http::router_with(state.clone(), extra);
    let (tx, rx) = oneshot::channel::<()>();
    let handle = tokio::spawn(server.run_with(app, async {
        let _ = rx.await;
    }));
    EdgeApp {
        base: format!("http://{addr}"),
        addr,
        metrics_addr,
        state,
        client: reqwest::Client::new(),
        shutdown: Some(tx),
        server: Some(handle),
        _data_dir: data_dir,
    }
}

impl EdgeApp {
    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(self.url(path))
            .send()
            .await
            .expect("request")
    }

    async fn token(&self, email: &str) -> String {
        // A server of these tests may allow any request 1 s: on a machine loaded by other
        // suites a sign-in can take longer, which is not what they test, so it is tried again.
        let mut attempts = 0;
        let res = loop {
            attempts += 1;
            let res = self
                .client
                .post(self.url("/api/users/login"))
                .json(&json!({ "username": email, "password": PASSWORD }))
                .send()
                .await
                .expect("login");
            if res.status() != StatusCode::REQUEST_TIMEOUT || attempts == 5 {
                break res;
            }
        };
        assert_eq!(res.status(), StatusCode::OK);
        let body: Value = res.json().await.expect("json");
        body["jwt"].as_str().expect("jwt").to_string()
    }

    /// Starts the shutdown and returns how long the server took to stop.
    async fn stop(&mut self) -> Duration {
        let started = Instant::now();
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        let handle = self.server.take().expect("running");
        tokio::time::timeout(Duration::from_secs(30), handle)
            .await
            .expect("the server stops")
            .expect("server task")
            .expect("server runs");
        started.elapsed()
    }
}

impl Drop for EdgeApp {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(handle) = self.server.take() {
            handle.abort();
        }
    }
}

fn header<'a>(res: &'a reqwest::Response, name: &str) -> Option<&'a str> {
    res.headers().get(name).and_then(|v| v.to_str().ok())
}

/// True when the server closes `stream` within `within` (reading and discarding whatever it
/// sends first).
async fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
    let mut buf = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + within;
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            Ok(Ok(_)) => continue,
        }
    }
}

/// Reads one response's head and body from a raw connection (until `Content-Length` is met).
async fn read_response(stream: &mut TcpStream) -> (u16, String) {
    let mut data = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut buf))
            .await
            .expect("a response in time")
            .expect("read");
        assert!(
            n > 0,
            "connection closed before a response: {}",
            String::from_utf8_lossy(&data)
        );
        data.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&data).to_string();
        if let Some(end) = text.find("\r\n\r\n") {
            let head = &text[..end];
            let length = head
                .lines()
                .find_map(|l| {
                    let (k, v) = l.split_once(':')?;
                    k.eq_ignore_ascii_case("content-length")
                        .then(|| v.trim().parse::<usize>().ok())?
                })
                .unwrap_or(0);
            if data.len() >= end + 4 + length {
                let status = head[9..12].parse().expect("status");
                return (status, text[end + 4..end + 4 + length].to_string());
            }
        }
    }
}

async fn metrics_text(app: &EdgeApp, token: &str) -> String {
    let res = app
        .client
        .get(app.url("/metrics"))
        .bearer_auth(token)
        .send()
        .await
        .expect("metrics");
    assert_eq!(res.status(), StatusCode::OK);
    res.text().await.expect("text")
}

/// The value of the first sample of `name` whose labels contain every one of `labels`.
fn sample(text: &str, name: &str, labels: &[&str]) -> Option<f64> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter(|l| l.starts_with(name) && l[name.len()..].starts_with(['{', ' ']))
        .find(|l| labels.iter().all(|label| l.contains(label)))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
}

// ---- headers ----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_response_carries_the_security_headers() {
    let app = spawn_edge(|_| {}, axum::Router::new()).await;
    let expected = app_policy(&app.state.config.csp_frame_sources);
    for path in ["/api/health", "/api/nothing-here", "/", "/login"] {
        let res = app.get(path).await;
        assert_eq!(
            header(&res, "content-security-policy"),
            Some(expected.as_str()),
            "{path}"
        );
        assert_eq!(
            header(&res, "x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
        assert_eq!(
            header(&res, "referrer-policy"),
            Some("strict-origin-when-cross-origin"),
            "{path}"
        );
        let permissions = header(&res, "permissions-policy").expect("permissions-policy");
        assert!(permissions.contains("camera=()") && permissions.contains("geolocation=()"));
        assert_eq!(header(&res, "x-frame-options"), Some("DENY"), "{path}");
        // Plain-HTTP public address: no HSTS.
        assert_eq!(header(&res, "strict-transport-security"), None, "{path}");
    }
    // The policy forbids inline script, plugins and framing.
    assert!(expected.contains("script-src 'self';"));
    assert!(!expected.contains("unsafe-inline"));
    assert!(expected.contains("frame-ancestors 'none'"));
    assert!(expected.contains("object-src 'none'"));
    assert!(expected.ends_with("; frame-src 'self' blob: https://video.example.com"));
    // Frame sources that would break out of their directive are left out.
    let hostile = app_policy(&[
        "https://ok.example".into(),
        "x; script-src *".into(),
        "'unsafe-inline'".into(),
    ]);
    assert!(
        hostile.ends_with("frame-src 'self' blob: https://ok.example"),
        "{hostile}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hsts_only_when_the_public_address_is_https() {
    let app = spawn_edge(
        |c| c.public_url = Some("https://companion.example.com".into()),
        axum::Router::new(),
    )
    .await;
    let res = app.get("/api/health").await;
    let hsts = header(&res, "strict-transport-security").expect("HSTS");
    assert!(hsts.starts_with("max-age=31536000"), "{hsts}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn served_files_are_sandboxed_and_named() {
    let app = spawn_edge(|_| {}, axum::Router::new()).await;
    let anna = app.token(ANNA).await;
    // A library document of the catalogue.
    let library: i64 = projections::on_db!(&app.state.db, pool => sqlx::query_scalar(
        "select id from library_documents order by id limit 1").fetch_one(pool).await)
    .expect("a library document");
    let res = app
        .client
        .get(app.url(&format!("/api/library/{library}/file")))
        .bearer_auth(&anna)
        .send()
        .await
        .expect("file");
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(header(&res, "content-security-policy"), Some(FILE_POLICY));
    assert!(header(&res, "content-disposition").is_some_and(|d| d.contains("filename=")));
    assert_eq!(header(&res, "x-content-type-options"), Some("nosniff"));
    assert!(FILE_POLICY.starts_with("sandbox;"));
    // An uploaded document, opened and downloaded.
    let uploaded = {
        let res = app
            .client
            .post(app.url("/api/documents/upload"))
            .bearer_auth(&anna)
            .multipart(
                reqwest::multipart::Form::new()
                    .text("name", "Sandboxed")
                    .text("parent", "")
                    .part(
                        "file",
                        reqwest::multipart::Part::bytes(crate::documents::PDF.to_vec())
                            .file_name("x.pdf"),
                    ),
            )
            .send()
            .await
            .expect("upload");
        assert_eq!(res.status(), StatusCode::CREATED);
        let body: Value = res.json().await.expect("json");
        body["id"].as_str().expect("id").to_string()
    };
    for query in ["", "?download=1"] {
        let res = app
            .client
            .get(app.url(&format!("/api/documents/{uploaded}/file{query}")))
            .bearer_auth(&anna)
            .send()
            .await
            .expect("file");
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(
            header(&res, "content-security-policy"),
            Some(FILE_POLICY),
            "{query}"
        );
        assert!(header(&res, "content-disposition").is_some(), "{query}");
    }
}

// ---- request ids ----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_request_gets_an_id_that_its_events_record() {
    let app = spawn_edge(|_| {}, axum::Router::new()).await;
    let anna = app.token(ANNA).await;
    // A client cannot choose its id (the proxy is not trusted).
    let res = app
        .client
        .post(app.url("/api/folders"))
        .bearer_auth(&anna)
        .header("x-request-id", "chosen-by-client")
        .json(&json!({ "name": "Request ids", "parent": null }))
        .send()
        .await
        .expect("create folder");
    assert_eq!(res.status(), StatusCode::CREATED);
    let id = header(&res, "x-request-id")
        .expect("x-request-id")
        .to_string();
    assert_ne!(id, "chosen-by-client");
    assert!(uuid::Uuid::parse_str(&id).is_ok(), "{id}");
    let recorded: i64 = projections::on_db!(&app.state.db, pool => sqlx::query_scalar(
        "select count(*) from events where metadata like $1")
        .bind(format!("%\"request_id\":\"{id}\"%")).fetch_one(pool).await)
    .expect("events");
    assert!(
        recorded >= 1,
        "the folder's event records the request id {id}"
    );
    // Each request its own id.
    let other = app.get("/api/health").await;
    assert_ne!(header(&other, "x-request-id"), Some(id.as_str()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_trusted_proxy_its_request_id_is_kept() {
    let app = spawn_edge(|c| c.trust_proxy_headers = true, axum::Router::new()).await;
    let res = app
        .client
        .get(app.url("/api/health"))
        .header("x-request-id", "proxy-42.a")
        .send()
        .await
        .expect("health");
    assert_eq!(header(&res, "x-request-id"), Some("proxy-42.a"));
    // Not a plain token: replaced.
    let res = app
        .client
        .get(app.url("/api/health"))
        .header("x-request-id", "a b\"c")
        .send()
        .await
        .expect("health");
    assert_ne!(header(&res, "x-request-id"), Some("a b\"c"));
}

// ---- timeouts ----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_slow_to_send_its_headers_is_cut_off() {
    let app = spawn_edge(|c| c.header_read_timeout_seconds = 1, axum::Router::new()).await;
    let mut slow = TcpStream::connect(app.addr).await.expect("connect");
    slow.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
        .await
        .expect("write");
    // Still open well before the timeout...
    assert!(!closed_within(&mut slow, Duration::from_millis(300)).await);
    // ...closed after it.
    assert!(closed_within(&mut slow, Duration::from_secs(3)).await);
    // A client that sends nothing at all, too.
    let mut silent = TcpStream::connect(app.addr).await.expect("connect");
    assert!(closed_within(&mut silent, Duration::from_secs(3)).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_keep_alive_connection_is_closed() {
    let app = spawn_edge(|c| c.header_read_timeout_seconds = 1, axum::Router::new()).await;
    let mut conn = TcpStream::connect(app.addr).await.expect("connect");
    conn.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .expect("write");
    let (status, _) = read_response(&mut conn).await;
    assert_eq!(status, 200);
    // Kept alive for a next request...
    conn.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .expect("write");
    let (status, _) = read_response(&mut conn).await;
    assert_eq!(status, 200);
    // ...until it idles longer than the timeout.
    assert!(closed_within(&mut conn, Duration::from_secs(3)).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_slower_than_its_timeout_gets_408() {
    let app = spawn_edge(
        |c| {
            c.request_timeout_seconds = 1;
            c.upload_timeout_seconds = 30;
        },
        axum::Router::new(),
    )
    .await;
    // A JSON body that never completes.
    let mut conn = TcpStream::connect(app.addr).await.expect("connect");
    conn.write_all(
        b"POST /api/users/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"username\":",
    )
    .await
    .expect("write");
    let started = Instant::now();
    let (status, body) = read_response(&mut conn).await;
    assert_eq!(status, 408, "{body}");
    assert!(started.elapsed() < Duration::from_secs(5));
    let body: Value = serde_json::from_str(&body).expect("json error");
    assert_eq!(body["message"], "The request took too long. Try again");

    // An upload gets longer: one that takes 2 s goes through.
    let anna = app.token(ANNA).await;
    let boundary = "edgeboundary";
    let head = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nSlow upload\r\n--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"slow.pdf\"\r\nContent-Type: application/pdf\r\n\r\n"
    );
    let tail = format!("\r\n--{boundary}--\r\n");
    let pdf = crate::documents::PDF;
    let length = head.len() + pdf.len() + tail.len();
    let mut conn = TcpStream::connect(app.addr).await.expect("connect");
    conn.write_all(format!(
        "POST /api/documents/upload HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {anna}\r\nContent-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: {length}\r\n\r\n{head}"
    ).as_bytes()).await.expect("write");
    tokio::time::sleep(Duration::from_secs(2)).await;
    conn.write_all(pdf).await.expect("write");
    conn.write_all(tail.as_bytes()).await.expect("write");
    let (status, body) = read_response(&mut conn).await;
    assert_eq!(status, 201, "{body}");
}

// ---- body limits ----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_over_their_route_limit_get_413() {
    let app = spawn_edge(|c| c.upload_max_bytes = 1024, axum::Router::new()).await;
    let big = "x".repeat(300 * 1024);
    let res = app
        .client
        .post(app.url("/api/users/login"))
        .json(&json!({ "username": big, "password": "x" }))
        .send()
        .await
        .expect("login");
    assert_eq!(res.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let body: Value = res.json().await.expect("json error");
    assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()));
    // The upload's limit is its file limit plus the form's framing: 200 KB is refused before
    // anything is read, whatever the form says.
    let anna = app.token(ANNA).await;
    let res = app
        .client
        .post(app.url("/api/documents/upload"))
        .bearer_auth(&anna)
        .header("content-type", "multipart/form-data; boundary=x")
        .body(vec![b'x'; 200 * 1024])
        .send()
        .await
        .expect("upload");
    assert_eq!(res.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let body: Value = res.json().await.expect("json error");
    assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()));
}

// ---- rate limits ----

async fn assert_refused(res: reqwest::Response) {
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry: u64 = header(&res, "retry-after")
        .expect("Retry-After")
        .parse()
        .expect("seconds");
    assert!(retry >= 1);
    let body: Value = res.json().await.expect("json error");
    assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn too_many_requests_from_one_address_get_429_with_retry_after() {
    let app = spawn_edge(
        |c| {
            c.rate_limit_address_burst = 3;
            c.rate_limit_address_per_second = 1;
            c.metrics_token = Some("scrape".into());
        },
        axum::Router::new(),
    )
    .await;
    for _ in 0..3 {
        assert_ne!(
            app.get("/api/home").await.status(),
            StatusCode::TOO_MANY_REQUESTS
        );
    }
    assert_refused(app.get("/api/home").await).await;
    // Probes are not limited.
    assert_eq!(app.get("/api/health").await.status(), StatusCode::OK);
    assert_eq!(app.get("/api/ready").await.status(), StatusCode::OK);
    // The bucket refills.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_ne!(
        app.get("/api/home").await.status(),
        StatusCode::TOO_MANY_REQUESTS
    );
    let metrics = metrics_text(&app, "scrape").await;
    assert!(
        sample(
            &metrics,
            "companion_rate_limit_refusals_total",
            &["limit=\"address\""]
        )
        .is_some_and(|v| v >= 1.0),
        "{metrics}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarded_addresses_count_only_behind_a_trusted_proxy() {
    for trusted in [false, true] {
        let app = spawn_edge(
            |c| {
                c.rate_limit_address_burst = 2;
                c.rate_limit_address_per_second = 1;
                c.trust_proxy_headers = trusted;
            },
            axum::Router::new(),
        )
        .await;
        let from = |ip: &'static str| {
            app.client
                .get(app.url("/api/home"))
                .header("x-forwarded-for", format!("203.0.113.9, {ip}"))
                .send()
        };
        from("198.51.100.1").await.expect("request");
        from("198.51.100.1").await.expect("request");
        let other = from("198.51.100.2").await.expect("request");
        if trusted {
            // Another client behind the proxy has its own bucket.
            assert_ne!(other.status(), StatusCode::TOO_MANY_REQUESTS);
            assert_refused(from("198.51.100.1").await.expect("request")).await;
        } else {
            // The header is anyone's to write: all three came from one address.
            assert_refused(other).await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn too_many_requests_in_one_session_get_429() {
    let app = spawn_edge(
        |c| {
            c.rate_limit_session_burst = 3;
            c.rate_limit_session_per_second = 1;
        },
        axum::Router::new(),
    )
    .await;
    // Sign-ins count against their address's session-less bucket: take the tokens first, and
    // wait for that bucket to refill.
    let anna = app.token(ANNA).await;
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let john = app.token(JOHN).await;
    let call = |token: &str| {
        app.client
            .get(app.url("/api/badges"))
            .bearer_auth(token)
            .send()
    };
    for _ in 0..3 {
        assert_eq!(call(&anna).await.expect("badges").status(), StatusCode::OK);
    }
    assert_refused(call(&anna).await.expect("badges")).await;
    // Another session is not affected.
    assert_eq!(call(&john).await.expect("badges").status(), StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_recipient_lookup_is_limited_per_user() {
    let app = spawn_edge(|c| c.recipient_lookups_per_minute = 2, axum::Router::new()).await;
    let anna = app.token(ANNA).await;
    let lookup = || {
        app.client
            .get(app.url("/api/users/share-list?search=john"))
            .bearer_auth(&anna)
            .send()
    };
    assert_eq!(lookup().await.expect("lookup").status(), StatusCode::OK);
    assert_eq!(lookup().await.expect("lookup").status(), StatusCode::OK);
    let refused = lookup().await.expect("lookup");
    assert_refused(refused).await;
    // Other calls of the session go on.
    let res = app
        .client
        .get(app.url("/api/badges"))
        .bearer_auth(&anna)
        .send()
        .await
        .expect("badges");
    assert_eq!(res.status(), StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn external_shares_beyond_the_daily_limit_get_429() {
    let Some(app) = spawn_app_with(Engine::Sqlite, |c| c.external_shares_per_day = 2).await else {
        return;
    };
    let anna = app.token(ANNA).await;
    let file = new_file(&app, &anna, "Handout", None).await;
    for n in 0..2 {
        let (status, body) = post(
            &app,
            &anna,
            "/documents/external-share",
            json!({ "email": format!("dr{n}@clinic.example"), "file": file }),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let res = app
        .client
        .post(app.url("/documents/external-share"))
        .bearer_auth(&anna)
        .json(&json!({ "email": "dr3@clinic.example", "file": file }))
        .send()
        .await
        .expect("share");
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry: u64 = res.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(retry > 23 * 3600 && retry <= 24 * 3600, "{retry}");
    let body: Value = res.json().await.unwrap();
    assert_eq!(
        body["message"],
        "You can share at most 2 documents outside the company in 24 hours. Try again later"
    );
    // Nothing was sent for the refused share.
    let mails: i64 = projections::on_db!(&app.state.db, pool => sqlx::query_scalar(
        "select count(*) from outbox").fetch_one(pool).await)
    .unwrap();
    assert_eq!(mails, 2);
    // Another user has their own allowance.
    let john = app.token(JOHN).await;
    let johns = new_file(&app, &john, "Handout", None).await;
    let (status, body) = post(
        &app,
        &john,
        "/documents/external-share",
        json!({ "email": "dr@clinic.example", "file": johns }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

// ---- panics ----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_handler_answers_500_in_the_error_shape() {
    let extra = axum::Router::new().route(
        "/test-panic",
        get(|| async {
            if true {
                panic!("deliberate");
            }
            "never"
        }),
    );
    let app = spawn_edge(|c| c.metrics_token = Some("scrape".into()), extra).await;
    let res = app.get("/api/test-panic").await;
    assert_eq!(res.status(), StatusCode::INTERNAL_SERVER_ERROR);
    assert!(header(&res, "x-request-id").is_some());
    assert_eq!(
        header(&res, "content-security-policy"),
        Some(app_policy(&app.state.config.csp_frame_sources).as_str())
    );
    let body: Value = res.json().await.expect("json error");
    assert_eq!(
        body["message"],
        "An error occurred while getting all the informations"
    );
    // The connection survives: the next request on it is served.
    let mut conn = TcpStream::connect(app.addr).await.expect("connect");
    conn.write_all(b"GET /api/test-panic HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .expect("write");
    let (status, body) = read_response(&mut conn).await;
    assert_eq!(status, 500, "{body}");
    conn.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .expect("write");
    let (status, _) = read_response(&mut conn).await;
    assert_eq!(status, 200);
    let metrics = metrics_text(&app, "scrape").await;
    assert!(sample(&metrics, "companion_http_panics_total", &[]).is_some_and(|v| v >= 1.0));
    assert!(sample(
        &metrics,
        "companion_http_requests_total",
        &["route=\"/api/test-panic\"", "status=\"500\""]
    )
    .is_some_and(|v| v >= 1.0));
}

// ---- metrics ----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_need_their_token_and_name_routes_by_template() {
    let app = spawn_edge(
        |c| c.metrics_token = Some("scrape-token".into()),
        axum::Router::new(),
    )
    .await;
    let anna = app.token(ANNA).await;
    let library: i64 = projections::on_db!(&app.state.db, pool => sqlx::query_scalar(
        "select id from library_documents order by id limit 1").fetch_one(pool).await)
    .expect("a library document");
    let res = app
        .client
        .get(app.url(&format!("/api/library/{library}/file")))
        .bearer_auth(&anna)
        .send()
        .await
        .expect("file");
    assert_eq!(res.status(), StatusCode::OK);
    let failed = app
        .client
        .post(app.url("/api/users/login"))
        .json(&json!({ "username": ANNA, "password": "wrong" }))
        .send()
        .await
        .expect("login");
    assert_eq!(failed.status(), StatusCode::UNAUTHORIZED);

    assert_eq!(app.get("/metrics").await.status(), StatusCode::UNAUTHORIZED);
    let wrong = app
        .client
        .get(app.url("/metrics"))
        .bearer_auth("nope")
        .send()
        .await
        .expect("metrics");
    assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);

    let text = metrics_text(&app, "scrape-token").await;
    assert!(
        sample(
            &text,
            "companion_http_requests_total",
            &[
                "route=\"/api/library/{id}/file\"",
                "status=\"200\"",
                "method=\"GET\""
            ]
        )
        .is_some_and(|v| v >= 1.0),
        "{text}"
    );
    assert!(
        !text.contains(&format!("/api/library/{library}/")),
        "raw paths never become labels"
    );
    assert!(text.contains("companion_http_request_duration_seconds_bucket{"));
    assert!(sample(&text, "companion_login_failures_total", &[]).is_some_and(|v| v >= 1.0));
    assert!(sample(&text, "companion_http_connections_open", &[]).is_some_and(|v| v >= 1.0));
    assert!(sample(&text, "companion_realtime_sockets_open", &[]).is_some());
    assert!(sample(&text, "companion_realtime_messages_sent_total", &[]).is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_on_their_own_port_and_not_on_the_main_one_without_a_token() {
    let app = spawn_edge(|c| c.metrics_port = Some(0), axum::Router::new()).await;
    assert_eq!(app.get("/api/health").await.status(), StatusCode::OK);
    let addr = app.metrics_addr.expect("metrics port");
    let res = app
        .client
        .get(format!("http://{addr}/metrics"))
        .send()
        .await
        .expect("metrics");
    assert_eq!(res.status(), StatusCode::OK);
    assert!(header(&res, "content-type").is_some_and(|t| t.starts_with("text/plain")));
    let text = res.text().await.expect("text");
    assert!(text.contains("companion_http_requests_total{"), "{text}");
    // Without METRICS_TOKEN the main port does not serve them.
    assert_eq!(app.get("/metrics").await.status(), StatusCode::NOT_FOUND);
}

// ---- readiness ----

both_dbs! {
    async fn ready_reports_database_projections_and_role(app) {
        let (status, body) = json_of(app.get("/ready", None).await).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["status"], "ready");
        assert_eq!(body["database"], "ok");
        assert!(body["projection_lag"].as_i64().is_some_and(|lag| lag >= 0 && lag <= body["max_projection_lag"].as_i64().unwrap()));
        let role = body["role"].as_str().unwrap();
        assert!(matches!(role, "single" | "projector" | "follower"), "{role}");
        if app.state.db.kind() == projections::DbKind::Sqlite {
            assert_eq!(role, "single");
        }
        let (status, body) = json_of(app.get("/health", None).await).await;
        assert_eq!((status, body["status"].as_str()), (StatusCode::OK, Some("ok")));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn not_ready_while_the_projections_lag_beyond_the_bound() {
    let app = spawn_edge(|c| c.ready_max_projection_lag = -1, axum::Router::new()).await;
    let res = app.get("/api/ready").await;
    assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body: Value = res.json().await.expect("json");
    assert_eq!(body["status"], "not_ready");
    assert_eq!(body["database"], "ok");
    // Liveness is unaffected.
    assert_eq!(app.get("/api/health").await.status(), StatusCode::OK);
}

// ---- shutdown ----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_finishes_within_its_grace_period_despite_slow_clients_and_open_sockets() {
    let mut app = spawn_edge(
        |c| {
            c.shutdown_grace_seconds = 2;
            // Long enough that only the shutdown can end these clients.
            c.header_read_timeout_seconds = 120;
            c.request_timeout_seconds = 120;
        },
        axum::Router::new(),
    )
    .await;
    // A client stuck in its headers...
    let mut slow_headers = TcpStream::connect(app.addr).await.expect("connect");
    slow_headers
        .write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
        .await
        .expect("write");
    // ...one stuck in its body...
    let mut slow_body = TcpStream::connect(app.addr).await.expect("connect");
    slow_body
        .write_all(b"POST /api/users/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
        .await
        .expect("write");
    // ...and a signed-in WebSocket that never reads.
    let anna = backend::auth::User::find_by_email(&app.state.db, ANNA)
        .await
        .expect("users")
        .expect("anna");
    let (session, ends_ms) = backend::auth::sessions::open(&app.state.auth, &anna.id, None, None)
        .await
        .expect("session");
    let token = app
        .state
        .auth
        .jwt
        .issue(&anna.id, &session, ends_ms / 1000)
        .expect("token");
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{}/api/ws", app.addr))
        .await
        .expect("websocket");
    ws.send(tokio_tungstenite::tungstenite::Message::text(
        json!({ "type": "auth", "token": token }).to_string(),
    ))
    .await
    .expect("auth");
    tokio::time::sleep(Duration::from_millis(300)).await;

    let took = app.stop().await;
    assert!(took < Duration::from_millis(3500), "shutdown took {took:?}");
    // The slow clients were disconnected.
    assert!(closed_within(&mut slow_headers, Duration::from_secs(1)).await);
    assert!(closed_within(&mut slow_body, Duration::from_secs(1)).await);
}

// ---- installable web app ----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_service_worker_and_manifest_are_revalidated_with_their_types() {
    let web = tempfile::tempdir().expect("web dir");
    std::fs::write(
        web.path().join("index.html"),
        "<!doctype html><title>app</title>",
    )
    .unwrap();
    std::fs::write(
        web.path().join("sw.js"),
        "self.addEventListener('fetch', () => {});",
    )
    .unwrap();
    std::fs::write(
        web.path().join("manifest.webmanifest"),
        r#"{"name":"Companion","start_url":"/"}"#,
    )
    .unwrap();
    let dir = web.path().to_path_buf();
    let app = spawn_edge(move |c| c.web_dir = dir, axum::Router::new()).await;

    let sw = app.get("/sw.js").await;
    assert_eq!(sw.status(), StatusCode::OK);
    assert_eq!(header(&sw, "cache-control"), Some("no-cache"));
    let sw_type = header(&sw, "content-type").unwrap_or_default().to_owned();
    assert!(sw_type.contains("javascript"), "{sw_type}");
    assert_eq!(
        sw.text().await.unwrap(),
        "self.addEventListener('fetch', () => {});"
    );

    let manifest = app.get("/manifest.webmanifest").await;
    assert_eq!(manifest.status(), StatusCode::OK);
    assert_eq!(header(&manifest, "cache-control"), Some("no-cache"));
    assert_eq!(
        header(&manifest, "content-type"),
        Some("application/manifest+json")
    );
    let body: Value = manifest.json().await.unwrap();
    assert_eq!(body["name"], "Companion");

    // The policy lets the app's own origin provide both, and nothing else.
    let page = app.get("/").await;
    let policy = header(&page, "content-security-policy").unwrap_or_default();
    assert!(policy.contains("worker-src 'self' blob:;"), "{policy}");
    assert!(policy.contains("manifest-src 'self';"), "{policy}");
    // The rest of the app keeps its own caching: the shell is not marked no-cache here.
    assert_ne!(header(&page, "cache-control"), Some("no-cache"));
}
