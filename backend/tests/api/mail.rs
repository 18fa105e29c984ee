//! E-mail through a real SMTP server: aiosmtpd (PyPI), started by each test as its own process.
//!
//! The Python that has aiosmtpd is `SMTP_TEST_PYTHON` (`.ci/run` installs it into a venv and
//! sets it), else `python3`. Without aiosmtpd these tests fail when `SMTP_TEST_PYTHON` or `CI`
//! is set, and are skipped with a loud line otherwise.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use backend::outbox::relay::{self, RelaySettings};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::documents::{new_file, post, PDF};
use crate::helpers::*;

const SMTP_USER: &str = "mailer";
const SMTP_PASSWORD: &str = "s3cret-pw";
const FROM: &str = "Companion <no-reply@companion.test>";

/// The Python with aiosmtpd, or None (skip) outside CI.
fn smtp_python() -> Option<String> {
    let configured = std::env::var("SMTP_TEST_PYTHON").ok();
    let python = configured.clone().unwrap_or_else(|| "python3".into());
    let usable = Command::new(&python)
        .args(["-c", "import aiosmtpd"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if usable {
        return Some(python);
    }
    let message = format!(
        "{python} cannot import aiosmtpd: set SMTP_TEST_PYTHON to a Python with aiosmtpd \
         (`.ci/run` makes one in $HOME/.cache/companion-venv)"
    );
    // In CI, or when a Python was named for these tests, a missing aiosmtpd is a failure.
    if configured.is_some()
        || std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
    {
        panic!("{message}");
    }
    static WARNED: std::sync::Once = std::sync::Once::new();
    WARNED.call_once(|| {
        let _ = std::io::stderr()
            .write_all(format!("\n!!! {message}: the SMTP tests are SKIPPED !!!\n").as_bytes());
    });
    None
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .expect("free port")
        .local_addr()
        .expect("address")
        .port()
}

/// A running aiosmtpd, killed when dropped.
struct SmtpServer {
    child: Child,
    mailbox: PathBuf,
}

impl SmtpServer {
    fn start(python: &str, port: u16, mailbox: PathBuf) -> SmtpServer {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/api/smtp_server.py");
        let mut child = Command::new(python)
            .arg(script)
            .arg(port.to_string())
            .arg(&mailbox)
            .args([SMTP_USER, SMTP_PASSWORD])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start aiosmtpd");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("aiosmtpd output");
        assert_eq!(line.trim(), "ready", "aiosmtpd did not start");
        SmtpServer { child, mailbox }
    }

    /// Every message received so far.
    fn messages(&self) -> Vec<Value> {
        std::fs::read_to_string(&self.mailbox)
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).expect("mailbox line"))
            .collect()
    }

    async fn wait_for_messages(&self, n: usize) -> Vec<Value> {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let messages = self.messages();
            if messages.len() >= n {
                return messages;
            }
            assert!(
                Instant::now() < deadline,
                "{n} messages expected, {} arrived",
                messages.len()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Every log line of this test process, so a test can check what never appears in it.
fn captured_logs() -> Arc<Mutex<Vec<u8>>> {
    static LOGS: OnceLock<Arc<Mutex<Vec<u8>>>> = OnceLock::new();
    LOGS.get_or_init(|| {
        let logs = Arc::new(Mutex::new(Vec::new()));
        let sink = logs.clone();
        let installed = tracing_subscriber::fmt()
            .with_env_filter("info,sqlx=warn")
            .with_ansi(false)
            .with_writer(move || Capture(sink.clone()))
            .try_init();
        assert!(installed.is_ok(), "the log capture is the only subscriber");
        logs
    })
    .clone()
}

struct Capture(Arc<Mutex<Vec<u8>>>);

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("logs").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn smtp_url(port: u16, password: &str) -> String {
    format!("smtp://{SMTP_USER}:{password}@127.0.0.1:{port}")
}

async fn app_sending_to(engine: Engine, url: String) -> Option<TestApp> {
    spawn_app_with(engine, move |config| {
        config.smtp_url = Some(url);
        config.smtp_from = FROM.into();
        config.outbox_poll_ms = 100;
        config.outbox_retry_base_ms = 200;
    })
    .await
}

/// Anna shares a new file with someone outside; returns the outbox id.
async fn share_externally(app: &TestApp, to: &str) -> i64 {
    let anna = app.token(ANNA).await;
    let file = new_file(app, &anna, "Handout", None).await;
    let (status, body) = post(
        app,
        &anna,
        "/documents/external-share",
        json!({ "email": to, "file": file }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    projections::on_db!(&app.state.db, pool => sqlx::query_scalar("select max(id) from outbox")
        .fetch_one(pool).await)
    .unwrap()
}

#[derive(Debug, sqlx::FromRow)]
struct Row {
    state: String,
    attempts: i64,
    smtp_response: Option<String>,
    last_error: Option<String>,
}

async fn outbox_row(app: &TestApp, id: i64) -> Row {
    projections::on_db!(&app.state.db, pool => sqlx::query_as(
        "select state, cast(attempts as bigint) as attempts, smtp_response, last_error from outbox where id = $1")
        .bind(id).fetch_one(pool).await)
    .unwrap()
}

async fn wait_for_row(app: &TestApp, id: i64, what: &str, done: impl Fn(&Row) -> bool) -> Row {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let row = outbox_row(app, id).await;
        if done(&row) {
            return row;
        }
        assert!(Instant::now() < deadline, "{what}: {row:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn link_in(message: &Value) -> String {
    let body = message["body"].as_str().expect("body");
    let link = body
        .split_whitespace()
        .find(|w| w.contains("/s/"))
        .expect("the message carries the link to the viewer");
    // `/s/{token}`: the viewer's page, and under `/api` its information.
    format!("/s/{}", link.rsplit("/s/").next().expect("token"))
}

macro_rules! each_engine {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite() {
                    super::$name(crate::helpers::Engine::Sqlite).await
                }
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn postgres() {
                    super::$name(crate::helpers::Engine::Postgres).await
                }
            }
        )*
    };
}

each_engine!(
    a_message_whose_link_expired_before_delivery_is_given_up,
    an_external_share_arrives_once_and_its_link_opens_the_file,
    a_message_is_retried_until_the_smtp_server_is_up,
    a_restarted_relay_never_sends_again_and_relays_never_share_a_message,
    without_smtp_url_messages_stay_queued_and_are_listed,
    wrong_credentials_fail_the_message_for_good,
    after_a_fix_outbox_retry_sends_failed_messages,
);

async fn an_external_share_arrives_once_and_its_link_opens_the_file(engine: Engine) {
    let Some(python) = smtp_python() else { return };
    let logs = captured_logs();
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let smtp = SmtpServer::start(&python, port, dir.path().join("mailbox.jsonl"));
    let Some(app) = app_sending_to(engine, smtp_url(port, SMTP_PASSWORD)).await else {
        return;
    };
    let id = share_externally(&app, "Dr.Who@Clinic.example").await;

    let messages = smtp.wait_for_messages(1).await;
    let message = &messages[0];
    assert_eq!(message["to"], json!(["dr.who@clinic.example"]));
    assert_eq!(message["from"], "no-reply@companion.test");
    assert_eq!(message["subject"], "Anna Rossi shared a document with you");
    let data = message["data"].as_str().unwrap();
    assert!(
        data.contains("From: Companion <no-reply@companion.test>"),
        "{data}"
    );
    let body = message["body"].as_str().unwrap();
    assert!(
        body.contains("(anna.rossi@example.com) shared the document \"Handout\" with you"),
        "{body}"
    );
    let row = wait_for_row(&app, id, "marked sent", |r| r.state == "sent").await;
    assert_eq!(row.attempts, 1);
    let answer = row.smtp_response.expect("the SMTP answer is kept");
    assert!(answer.starts_with("250"), "{answer}");

    // The link opens the tracked viewer, without signing in, until it expires.
    let path = link_in(message);
    let page = app
        .client
        .get(format!("{}{path}", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    for view in ["view-000000000001", "view-000000000002"] {
        let res = app.get(&format!("{path}/file?view={view}"), None).await;
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(res.bytes().await.unwrap().as_ref(), PDF);
    }
    projections::on_db!(&app.state.db, pool => sqlx::query("update share_engagement set expires_at = 1")
        .execute(pool).await.map(|r| r.rows_affected()))
    .unwrap();
    let (status, body) = json_of(app.get(&path, None).await).await;
    assert_eq!(status, StatusCode::GONE);
    assert_eq!(body["error"], "This link is no longer available.");

    // Delivered once: several more relay rounds send nothing.
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(smtp.messages().len(), 1, "delivered exactly once");

    // Neither the link nor its token is in the logs.
    let token = path.rsplit('/').next().unwrap();
    let logs = String::from_utf8_lossy(&logs.lock().unwrap()).to_string();
    assert!(logs.contains("e-mail sent"), "the relay logs its work");
    assert!(!logs.contains(token), "the link's token is never logged");
    assert!(
        !logs.contains(SMTP_PASSWORD),
        "the SMTP password is never logged"
    );
}

async fn a_message_is_retried_until_the_smtp_server_is_up(engine: Engine) {
    let Some(python) = smtp_python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    // Nothing listens on the port yet.
    let Some(app) = app_sending_to(engine, smtp_url(port, SMTP_PASSWORD)).await else {
        return;
    };
    let id = share_externally(&app, "dr.who@clinic.example").await;
    let failed = wait_for_row(&app, id, "a failed attempt", |r| {
        r.attempts >= 2 && r.last_error.is_some()
    })
    .await;
    assert_eq!(failed.state, "queued", "a connection failure is retried");

    let smtp = SmtpServer::start(&python, port, dir.path().join("mailbox.jsonl"));
    let messages = smtp.wait_for_messages(1).await;
    assert!(link_in(&messages[0]).starts_with("/s/"));
    let sent = wait_for_row(&app, id, "marked sent", |r| r.state == "sent").await;
    assert!(sent.attempts > failed.attempts);
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(smtp.messages().len(), 1);
}

async fn a_restarted_relay_never_sends_again_and_relays_never_share_a_message(engine: Engine) {
    let Some(python) = smtp_python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let smtp = SmtpServer::start(&python, port, dir.path().join("mailbox.jsonl"));
    let url = smtp_url(port, SMTP_PASSWORD);
    let Some(app) = app_sending_to(engine, url.clone()).await else {
        return;
    };
    let id = share_externally(&app, "dr.who@clinic.example").await;
    smtp.wait_for_messages(1).await;
    wait_for_row(&app, id, "marked sent", |r| r.state == "sent").await;

    // Three more relays (as after restarts, or on other nodes) and a burst of messages: each
    // goes out exactly once, and the shared message is not sent again.
    let settings = RelaySettings {
        smtp_url: Some(url),
        from: FROM.into(),
        poll: Duration::from_millis(20),
        retry_base_ms: 200,
        max_attempts: 5,
        timeout: Duration::from_secs(10),
        lease: Duration::from_secs(60),
        held_for_at_most_ms: 3_600_000,
    };
    let stop = tokio_util::sync::CancellationToken::new();
    let relays: Vec<_> = (0..3)
        .map(|_| relay::start(app.state.db.clone(), settings.clone(), stop.clone()).unwrap())
        .collect();
    for n in 0..20 {
        backend::outbox::send(
            &app.state.db,
            &format!("reader{n}@clinic.example"),
            "Burst",
            "Hello",
        )
        .await
        .unwrap();
    }
    let messages = smtp.wait_for_messages(21).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    let messages = if smtp.messages().len() > messages.len() {
        smtp.messages()
    } else {
        messages
    };
    let mut recipients: Vec<String> = messages
        .iter()
        .map(|m| m["to"][0].as_str().unwrap().to_string())
        .collect();
    assert_eq!(recipients.len(), 21, "no message sent twice");
    recipients.sort();
    recipients.dedup();
    assert_eq!(recipients.len(), 21);
    stop.cancel();
    for relay in relays {
        relay.await.unwrap();
    }
    let unsent: i64 = projections::on_db!(&app.state.db, pool => sqlx::query_scalar(
        "select count(*) from outbox where state <> 'sent' or smtp_response is null")
        .fetch_one(pool).await)
    .unwrap();
    assert_eq!(unsent, 0);
}

async fn without_smtp_url_messages_stay_queued_and_are_listed(engine: Engine) {
    let Some(app) = spawn_app_with(engine, |config| {
        config.smtp_url = None;
        config.outbox_poll_ms = 50;
    })
    .await
    else {
        return;
    };
    let id = share_externally(&app, "dr.who@clinic.example").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let row = outbox_row(&app, id).await;
    assert_eq!((row.state.as_str(), row.attempts), ("queued", 0));

    let body: String = projections::on_db!(&app.state.db, pool => sqlx::query_scalar(
        "select body from outbox where id = $1").bind(id).fetch_one(pool).await)
    .unwrap();
    let token = link_in(&json!({ "body": body }))
        .rsplit('/')
        .next()
        .unwrap()
        .to_string();
    let config = &app.state.config;
    let mut command = Command::new(env!("CARGO_BIN_EXE_companion"));
    command
        .args(["outbox", "list"])
        .env("DATA_DIR", &config.data_dir)
        .env("RUST_LOG", "warn");
    match &config.database_url {
        Some(url) => command.env("DATABASE_URL", url),
        None => command.env_remove("DATABASE_URL"),
    };
    let out = command.output().expect("companion outbox list");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let line = stdout
        .lines()
        .find(|l| l.contains("dr.who@clinic.example"))
        .unwrap_or_else(|| panic!("the queued message is listed: {stdout}"));
    assert!(line.contains("queued"), "{line}");
    assert!(
        line.contains("Anna Rossi shared a document with you"),
        "{line}"
    );
    assert!(
        !stdout.contains(&token),
        "bodies (and their links) are not listed"
    );
}

async fn wrong_credentials_fail_the_message_for_good(engine: Engine) {
    let Some(python) = smtp_python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let smtp = SmtpServer::start(&python, port, dir.path().join("mailbox.jsonl"));
    let Some(app) = app_sending_to(engine, smtp_url(port, "not-the-password")).await else {
        return;
    };
    let id = share_externally(&app, "dr.who@clinic.example").await;
    let row = wait_for_row(&app, id, "given up", |r| r.state == "failed").await;
    assert_eq!(row.attempts, 1, "a 5xx answer is not retried");
    let error = row.last_error.unwrap();
    assert!(error.contains("535"), "{error}");
    assert!(!error.contains("not-the-password"));
    assert!(smtp.messages().is_empty());
    let (ok, out, _) = crate::poison::companion(&app, &["outbox", "list"]);
    assert!(ok);
    assert!(out.contains("failed") && out.contains("535"), "{out}");
}

async fn after_a_fix_outbox_retry_sends_failed_messages(engine: Engine) {
    let Some(python) = smtp_python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let smtp = SmtpServer::start(&python, port, dir.path().join("mailbox.jsonl"));
    // The server itself sends nothing here: the relays of this test do.
    let Some(app) = spawn_app_with(engine, |config| config.smtp_url = None).await else {
        return;
    };
    let run_relay = |password: &str| {
        let mut settings = RelaySettings::from_config(&app.state.config);
        settings.smtp_url = Some(smtp_url(port, password));
        settings.poll = Duration::from_millis(50);
        let stop = tokio_util::sync::CancellationToken::new();
        let task = relay::start(app.state.db.clone(), settings, stop.clone()).unwrap();
        (stop, task)
    };
    let id = share_externally(&app, "dr.who@clinic.example").await;
    let (stop, task) = run_relay("not-the-password");
    wait_for_row(&app, id, "given up", |r| r.state == "failed").await;
    stop.cancel();
    task.await.unwrap();

    let (ok, _, err) = crate::poison::companion(&app, &["outbox", "retry", "999999"]);
    assert!(!ok);
    assert!(err.contains("no failed message to retry"), "{err}");
    let (ok, out, err) = crate::poison::companion(&app, &["outbox", "retry", &id.to_string()]);
    assert!(ok, "{err}");
    assert!(out.contains("1 message(s) queued again"), "{out}");
    assert_eq!(outbox_row(&app, id).await.state, "queued");

    let (stop, task) = run_relay(SMTP_PASSWORD);
    smtp.wait_for_messages(1).await;
    let row = wait_for_row(&app, id, "marked sent", |r| r.state == "sent").await;
    assert_eq!(row.attempts, 1, "attempts count again from the retry");
    stop.cancel();
    task.await.unwrap();
    assert_eq!(smtp.messages().len(), 1);
}

#[tokio::test]
async fn a_bad_smtp_address_or_sender_stops_the_server_from_starting() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(dir.path());
    config.smtp_url = Some("http://user:hunter2@mail.example.com".into());
    let error = backend::Server::bind(config.clone())
        .await
        .err()
        .expect("refused")
        .to_string();
    assert!(error.contains("SMTP_URL"), "{error}");
    assert!(!error.contains("hunter2"), "{error}");

    config.smtp_url = Some("smtp://127.0.0.1:2525".into());
    config.smtp_from = "not an address".into();
    let error = backend::Server::bind(config)
        .await
        .err()
        .expect("refused")
        .to_string();
    assert!(error.contains("SMTP_FROM"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_server_does_not_send_again() {
    let Some(python) = smtp_python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    let port = free_port();
    let smtp = SmtpServer::start(&python, port, dir.path().join("mailbox.jsonl"));
    let start = || {
        let (url, data) = (smtp_url(port, SMTP_PASSWORD), data.path().to_path_buf());
        spawn_app_with(Engine::Sqlite, move |config| {
            config.smtp_url = Some(url);
            config.outbox_poll_ms = 50;
            config.data_dir = data;
        })
    };
    let app = start().await.expect("app");
    let id = share_externally(&app, "dr.who@clinic.example").await;
    smtp.wait_for_messages(1).await;
    wait_for_row(&app, id, "marked sent", |r| r.state == "sent").await;
    drop(app);

    let again = start().await.expect("the server starts again");
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(smtp.messages().len(), 1, "not sent again after the restart");
    assert_eq!(outbox_row(&again, id).await.state, "sent");
}

async fn a_message_whose_link_expired_before_delivery_is_given_up(engine: Engine) {
    // Nothing listens: the message waits for its next attempt, a minute away.
    let url = smtp_url(free_port(), SMTP_PASSWORD);
    let Some(app) = spawn_app_with(engine, move |config| {
        config.smtp_url = Some(url);
        config.outbox_poll_ms = 50;
        config.outbox_retry_base_ms = 60_000;
    })
    .await
    else {
        return;
    };
    let id = share_externally(&app, "dr.who@clinic.example").await;
    wait_for_row(&app, id, "a failed attempt", |r| r.last_error.is_some()).await;
    projections::on_db!(&app.state.db, pool => sqlx::query("update doc_external_links set expires_at = 1")
        .execute(pool).await.map(|r| r.rows_affected()))
    .unwrap();
    let row = wait_for_row(&app, id, "given up", |r| r.state == "failed").await;
    assert_eq!(
        row.last_error.as_deref(),
        Some(backend::outbox::relay::LINK_EXPIRED)
    );
}
