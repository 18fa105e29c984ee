use std::sync::Once;

use backend::{AppState, Config, Server};
use reqwest::{Response, StatusCode};
use serde_json::{json, Value};
use tokio::sync::oneshot;

pub const PASSWORD: &str = "Companion-2026";
pub const ANNA: &str = "anna.rossi@example.com";
pub const JOHN: &str = "john.miller@example.com";
pub const MARCO: &str = "new.user@example.com";
pub const ADMIN: &str = "admin@example.com";
pub const AUDITOR: &str = "auditor@example.com";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Sqlite,
    Postgres,
}

/// Runs each test body once on SQLite and once on PostgreSQL (`name::sqlite`, `name::postgres`).
#[macro_export]
macro_rules! both_dbs {
    ($(async fn $name:ident($app:ident) $body:block)*) => {
        $(
            mod $name {
                #[allow(unused_imports)]
                use super::*;
                #[allow(unused_imports)]
                use $crate::helpers::*;

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite() {
                    let $app = $crate::helpers::spawn_app($crate::helpers::Engine::Sqlite).await.expect("sqlite app");
                    $body
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn postgres() {
                    let Some($app) = $crate::helpers::spawn_app($crate::helpers::Engine::Postgres).await else { return };
                    $body
                }
            }
        )*
    };
}

/// A running server and a client for it. Dropping it stops the server and drops its database.
pub struct TestApp {
    pub base: String,
    pub client: reqwest::Client,
    pub state: AppState,
    shutdown: Option<oneshot::Sender<()>>,
    server: Option<tokio::task::JoinHandle<()>>,
    pg_database: Option<(String, String)>,
    _data_dir: tempfile::TempDir,
}

fn admin_pg_url() -> String {
    std::env::var("TEST_DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into())
}

pub fn with_database(url: &str, database: &str) -> String {
    let mut parsed = url::Url::parse(url).expect("TEST_DATABASE_URL is a URL");
    parsed.set_path(&format!("/{database}"));
    parsed.to_string()
}

static PG_SKIP_WARNING: Once = Once::new();

pub async fn create_pg_database() -> Option<(String, String)> {
    create_pg_database_from(None).await
}

/// Like [`create_pg_database`], as a copy of `template` when one is given.
pub async fn create_pg_database_from(template: Option<&str>) -> Option<(String, String)> {
    use sqlx::Connection;
    let admin = admin_pg_url();
    let mut conn = match sqlx::PgConnection::connect(&admin).await {
        Ok(c) => c,
        Err(e) => {
            // Written straight to stderr: the test harness would swallow `eprintln!`.
            PG_SKIP_WARNING.call_once(|| {
                use std::io::Write;
                let line = format!("\n!!! PostgreSQL is not reachable at {admin} ({e}): PostgreSQL tests are SKIPPED !!!\n");
                let _ = std::io::stderr().write_all(line.as_bytes());
            });
            return None;
        }
    };
    let name = format!("companion_test_{}", uuid::Uuid::new_v4().simple());
    let template = template.map_or(String::new(), |t| format!(" template {t}"));
    sqlx::query(&format!("create database {name}{template}"))
        .execute(&mut conn)
        .await
        .expect("create test database");
    // A test database lives for one test: its commits need not wait for the disk (a crash of
    // PostgreSQL itself is not what the tests are about; the server's own crash tests kill it).
    sqlx::query(&format!(
        "alter database {name} set synchronous_commit = off"
    ))
    .execute(&mut conn)
    .await
    .expect("configure test database");
    Some((admin, name))
}

/// Copies the folder `from` into `to`, subfolders included.
pub fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

async fn pg_reachable() -> bool {
    use sqlx::Connection;
    match sqlx::PgConnection::connect(&admin_pg_url()).await {
        Ok(conn) => {
            let _ = conn.close().await;
            true
        }
        Err(_) => false,
    }
}

pub fn test_config(data_dir: &std::path::Path) -> Config {
    let mut config = Config::from_env_and_args(Vec::<String>::new()).expect("default config");
    config.port = 0;
    config.bind_address = "127.0.0.1".into();
    config.data_dir = data_dir.to_path_buf();
    config.database_url = None;
    // Six tests run at once beside the benchmarks' servers, on one PostgreSQL that accepts 100
    // connections in all: a server holds its pool, a quarter of it for the trees' locks, one for
    // LISTEN and one for its group commits (12), and a connection PostgreSQL refuses is waited
    // for until the pool's timeout, then a 500.
    config.database_pool_size = TEST_POOL_SIZE;
    config.jwt_secret = Some("test-secret-test-secret-test-secret-0123".into());
    config.content_dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../content").into();
    config.web_dir = data_dir.join("web");
    config.oidc_issuer = None;
    config.public_url = None;
    // The scenarios rely on the demo accounts.
    config.demo = true;
    // The demo courses are dated: the scenarios read their calendar before the first of them,
    // whatever day they run.
    config.calendar_now = Some(CALENDAR_NOW.parse().expect("calendar instant"));
    // The suite shares the machine with the browser and fuzz suites: a command's answer waits for
    // the read models as long as a loaded database needs, instead of the 503 a user would get
    // after 10 s (that answer has its own test in event_store.rs).
    config.read_your_write_seconds = 120;
    // Uploads must not depend on the machine's free disk (the guard has its own test).
    config.min_free_disk_mb = 0;
    config
}

/// The PostgreSQL pool of a test's server, and of the servers tests start as processes
/// (`DATABASE_POOL_SIZE`).
pub const TEST_POOL_SIZE: u32 = 8;

/// Gives a server a test starts as a process the tests' pool size.
pub fn use_test_pool(command: &mut std::process::Command) {
    command.env("DATABASE_POOL_SIZE", TEST_POOL_SIZE.to_string());
}

/// The instant the tests read the course calendar at: before every demo course of 2026.
pub const CALENDAR_NOW: &str = "2026-01-15T09:00:00Z";

pub async fn spawn_app(engine: Engine) -> Option<TestApp> {
    spawn_app_with(engine, |_| {}).await
}

pub async fn spawn_app_with(engine: Engine, adjust: impl FnOnce(&mut Config)) -> Option<TestApp> {
    spawn_app_with_projections(engine, adjust, Vec::new()).await
}

/// Like [`spawn_app_with`], with projections of the test's besides the server's own.
pub async fn spawn_app_with_projections(
    engine: Engine,
    adjust: impl FnOnce(&mut Config),
    extra: Vec<std::sync::Arc<dyn projections::Projection>>,
) -> Option<TestApp> {
    let data_dir = tempfile::tempdir().expect("temp dir");
    let mut config = test_config(data_dir.path());
    // A start like every other test's begins from the build's demo snapshot (seed_snapshot.rs).
    let default_start = format!("{config:?}");
    adjust(&mut config);
    let from_snapshot = extra.is_empty()
        && format!("{config:?}") == default_start
        && std::env::var("TEST_SEED_SNAPSHOT").as_deref() != Ok("0");
    let pg_database = match engine {
        Engine::Sqlite => {
            if from_snapshot {
                let snapshot = crate::seed_snapshot::snapshot(engine, &admin_pg_url()).await;
                copy_dir(&snapshot.data_dir, data_dir.path());
            }
            None
        }
        Engine::Postgres => {
            let template = if from_snapshot && pg_reachable().await {
                let snapshot = crate::seed_snapshot::snapshot(engine, &admin_pg_url()).await;
                copy_dir(&snapshot.data_dir, data_dir.path());
                snapshot.template
            } else {
                None
            };
            let (admin, name) = create_pg_database_from(template.as_deref()).await?;
            config.database_url = Some(with_database(&admin, &name));
            Some((admin, name))
        }
    };
    let server = Server::bind_with(config, extra)
        .await
        .expect("server starts");
    let base = format!("http://{}", server.addr);
    let state = server.state().clone();
    let (tx, rx) = oneshot::channel::<()>();
    let handle = tokio::spawn(async move {
        server
            .run(async {
                let _ = rx.await;
            })
            .await
            .expect("server runs");
    });
    Some(TestApp {
        base,
        client: reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client"),
        state,
        shutdown: Some(tx),
        server: Some(handle),
        pg_database,
        _data_dir: data_dir,
    })
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(handle) = self.server.take() {
            handle.abort();
        }
        if let Some((admin, name)) = self.pg_database.take() {
            drop_pg_database(admin, name);
        }
    }
}

/// Removes a test's database, from outside async code (a `Drop`): a short-lived runtime on its
/// own thread does it.
pub fn drop_pg_database(admin: String, name: String) {
    let _ = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        rt.block_on(async move {
            use sqlx::Connection;
            if let Ok(mut conn) = sqlx::PgConnection::connect(&admin).await {
                let _ = sqlx::query(&format!("drop database if exists {name} with (force)"))
                    .execute(&mut conn)
                    .await;
            }
        });
    })
    .join();
}

/// A PostgreSQL database of one test with no server on it (nothing else writes to it), dropped
/// with this guard.
pub struct PgDatabase {
    pub db: projections::Db,
    admin: String,
    name: String,
}

impl PgDatabase {
    /// A fresh, migrated database; `None` when PostgreSQL is not reachable.
    pub async fn create() -> Option<PgDatabase> {
        let (admin, name) = create_pg_database().await?;
        let db = projections::Db::connect(&with_database(&admin, &name))
            .await
            .expect("connect to the test database");
        Some(PgDatabase { db, admin, name })
    }

    /// Where it is, for a second connection.
    pub fn url(&self) -> String {
        with_database(&self.admin, &self.name)
    }
}

impl Drop for PgDatabase {
    fn drop(&mut self) {
        drop_pg_database(self.admin.clone(), self.name.clone());
    }
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}/api{}", self.base, path)
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Response {
        let mut req = self.client.get(self.url(path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        req.send().await.expect("request")
    }

    pub async fn post_json(&self, path: &str, token: Option<&str>, body: &Value) -> Response {
        let mut req = self.client.post(self.url(path)).json(body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        req.send().await.expect("request")
    }

    pub async fn post_raw(
        &self,
        path: &str,
        token: Option<&str>,
        content_type: &str,
        body: impl Into<reqwest::Body>,
    ) -> Response {
        let mut req = self
            .client
            .post(self.url(path))
            .header(reqwest::header::CONTENT_TYPE, content_type)
            .body(body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        req.send().await.expect("request")
    }

    pub async fn login_response(&self, email: &str, password: &str) -> Response {
        self.post_json(
            "/users/login",
            None,
            &json!({ "username": email, "password": password }),
        )
        .await
    }

    /// Signs in a demo account and returns its token, with the current terms accepted (content
    /// calls need them; `session_token` leaves them as they are).
    pub async fn token(&self, email: &str) -> String {
        let token = self.session_token(email).await;
        let res = self.get("/users/accept-terms", Some(&token)).await;
        assert_eq!(res.status(), StatusCode::OK, "terms of {email}");
        token
    }

    /// Signs in a demo account and returns its token.
    pub async fn session_token(&self, email: &str) -> String {
        let res = self.login_response(email, PASSWORD).await;
        assert_eq!(res.status(), StatusCode::OK, "login of {email}");
        let body: Value = res.json().await.expect("json");
        body["jwt"].as_str().expect("jwt").to_string()
    }
}

/// Reads a response as `(status, json)`, asserting that errors carry a message.
/// The value of a counter in `/metrics` text (0 when absent); `series` is its name and labels.
pub fn counter(metrics: &str, series: &str) -> f64 {
    metrics
        .lines()
        .find_map(|line| line.strip_prefix(series)?.trim().parse().ok())
        .unwrap_or(0.0)
}

pub async fn json_of(res: Response) -> (StatusCode, Value) {
    let status = res.status();
    let body: Value = res.json().await.unwrap_or(Value::Null);
    if !status.is_success() {
        assert!(
            body["message"].as_str().is_some_and(|m| !m.is_empty()),
            "error responses carry a message, got {status} {body}"
        );
    }
    (status, body)
}
