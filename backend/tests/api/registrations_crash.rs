//! Course registrations through the projector: a server killed with SIGKILL while registrations
//! are under way loses no acknowledged registration, the retry of any of them is answered as a
//! success or as a clear duplicate, and the rebuilt read model equals the live one.

use std::collections::HashMap;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use backend::event_store::{EventStore, Metadata};
use backend::programmes::registration::DbCourseCatalog;
use events::course_registration::{CourseRegistration, RegistrationCommand, RegistrationServices};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::*;

const ALREADY: &str = "You are already registered to this course day";

/// Days of courses open for registration in the demo content (course id, day).
const DAYS: &[(i64, &str)] = &[
    (1, "2026-03-19"),
    (1, "2026-03-20"),
    (2, "2026-02-25"),
    (3, "2026-04-23"),
    (3, "2026-04-24"),
    (4, "2026-05-20"),
    (6, "2026-06-25"),
    (6, "2026-06-26"),
    (8, "2026-09-29"),
    (9, "2026-10-06"),
    (9, "2026-10-13"),
    (9, "2026-10-20"),
    (12, "2026-12-03"),
    (13, "2026-12-15"),
    (14, "2026-11-26"),
    (14, "2026-11-27"),
];

const USERS: &[&str] = &[ANNA, JOHN, MARCO, AUDITOR];

const JWT_SECRET: &str = "test-secret-test-secret-test-secret-0123";

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .expect("free port")
        .local_addr()
        .expect("address")
        .port()
}

/// A `companion serve` child process on a data folder and database that outlive it.
struct ServerProcess {
    child: Child,
    base: String,
}

impl ServerProcess {
    async fn start(data_dir: &std::path::Path, database_url: Option<&str>) -> ServerProcess {
        let port = free_port();
        let mut command = Command::new(env!("CARGO_BIN_EXE_companion"));
        command
            .arg("serve")
            .env("DEMO", "true")
            .env("PORT", port.to_string())
            .env("BIND_ADDRESS", "127.0.0.1")
            .env("DATA_DIR", data_dir)
            .env("JWT_SECRET", JWT_SECRET)
            .env("CALENDAR_NOW", CALENDAR_NOW)
            .env(
                "CONTENT_DIR",
                concat!(env!("CARGO_MANIFEST_DIR"), "/../content"),
            )
            .env("WEB_DIR", data_dir.join("web"))
            .env("RUST_LOG", "warn")
            .env_remove("OIDC_ISSUER")
            .env_remove("PUBLIC_URL")
            .env_remove("SMTP_URL")
            .stdout(Stdio::null())
            .stderr(Stdio::inherit());
        match database_url {
            Some(url) => command.env("DATABASE_URL", url),
            None => command.env_remove("DATABASE_URL"),
        };
        crate::helpers::use_test_pool(&mut command);
        let child = command.spawn().expect("start companion serve");
        let server = ServerProcess {
            child,
            base: format!("http://127.0.0.1:{port}/api"),
        };
        let client = reqwest::Client::new();
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Ok(res) = client.get(format!("{}/health", server.base)).send().await {
                if res.status() == StatusCode::OK {
                    return server;
                }
            }
            assert!(Instant::now() < deadline, "the server did not start");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// SIGKILL: no shutdown, no flush, whatever was in flight is cut.
    fn kill_9(mut self) {
        self.child.kill().expect("kill -9");
        self.child.wait().expect("reaped");
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn token(client: &reqwest::Client, base: &str, email: &str) -> String {
    let res = client
        .post(format!("{base}/users/login"))
        .json(&json!({ "username": email, "password": PASSWORD }))
        .send()
        .await
        .expect("login");
    assert_eq!(res.status(), StatusCode::OK, "login of {email}");
    let body: Value = res.json().await.expect("json");
    let token = body["jwt"].as_str().expect("jwt").to_string();
    // Content calls need the current terms accepted.
    let res = client
        .get(format!("{base}/users/accept-terms"))
        .bearer_auth(&token)
        .send()
        .await
        .expect("accept terms");
    assert_eq!(res.status(), StatusCode::OK, "terms of {email}");
    token
}

fn form(course: i64, day: &str, email: &str) -> Value {
    json!({
        "id": course, "days": [day], "name": "Crash Test", "email": email,
        "hospital": null, "category": "staff", "newsletter": false,
        "privacy_consent": true, "data_consent": true,
    })
}

/// POSTs a registration; None when the connection was cut (the server died).
async fn register(
    client: &reqwest::Client,
    base: &str,
    token: &str,
    email: &str,
    (course, day): (i64, &str),
) -> Option<(StatusCode, Value)> {
    let res = client
        .post(format!("{base}/courses/{course}/register"))
        .bearer_auth(token)
        .json(&form(course, day, email))
        .send()
        .await
        .ok()?;
    let status = res.status();
    let body = res.json().await.ok()?;
    Some((status, body))
}

/// (course, user id, day) of every row of the read model, through the API.
async fn listed(client: &reqwest::Client, base: &str, admin: &str) -> Vec<(i64, String, String)> {
    let mut rows = Vec::new();
    let mut courses: Vec<i64> = DAYS.iter().map(|(c, _)| *c).collect();
    courses.dedup();
    for course in courses {
        let res = client
            .get(format!("{base}/courses/{course}/registrations"))
            .bearer_auth(admin)
            .send()
            .await
            .expect("list");
        assert_eq!(res.status(), StatusCode::OK);
        let body: Value = res.json().await.expect("json");
        for r in body["registrations"].as_array().expect("rows") {
            rows.push((
                course,
                r["user_id"].as_str().expect("user").to_string(),
                r["day"].as_str().expect("day").to_string(),
            ));
        }
    }
    rows.sort();
    rows
}

/// The user id of each e-mail, read from the database.
async fn user_ids(db: &projections::Db, emails: &[&str]) -> HashMap<String, String> {
    let mut ids = HashMap::new();
    for email in emails {
        let user = backend::auth::User::find_by_email(db, email)
            .await
            .expect("read user")
            .expect("demo user");
        ids.insert(email.to_string(), user.id);
    }
    ids
}

/// A data folder and, on PostgreSQL, a database of its own: (folder, DATABASE_URL, pg to drop).
async fn place(
    engine: Engine,
) -> Option<(tempfile::TempDir, Option<String>, Option<(String, String)>)> {
    let data_dir = tempfile::tempdir().expect("temp dir");
    let pg = match engine {
        Engine::Sqlite => None,
        Engine::Postgres => Some(create_pg_database().await?),
    };
    let url = pg.as_ref().map(|(admin, name)| with_database(admin, name));
    Some((data_dir, url, pg))
}

async fn open_db(data_dir: &std::path::Path, url: Option<&str>) -> projections::Db {
    let url = url
        .map(str::to_string)
        .unwrap_or_else(|| format!("sqlite://{}", data_dir.join("companion.db").display()));
    projections::Db::connect(&url).await.expect("database")
}

async fn drop_pg(pg: Option<(String, String)>) {
    if let Some((admin_url, name)) = pg {
        use sqlx::Connection;
        if let Ok(mut conn) = sqlx::PgConnection::connect(&admin_url).await {
            let _ = sqlx::query(&format!("drop database if exists {name} with (force)"))
                .execute(&mut conn)
                .await;
        }
    }
}

/// Rebuilds the registrations read model from the events with `companion replay` and compares.
fn replay_matches(data_dir: &std::path::Path, database_url: Option<&str>) {
    let out = Command::new(env!("CARGO_BIN_EXE_companion"))
        .args(["replay", "--projection", "course_registrations"])
        .env("DATA_DIR", data_dir)
        .env("JWT_SECRET", JWT_SECRET)
        .env(
            "CONTENT_DIR",
            concat!(env!("CARGO_MANIFEST_DIR"), "/../content"),
        )
        .env("RUST_LOG", "warn")
        .envs(database_url.iter().map(|url| ("DATABASE_URL", *url)))
        .output()
        .expect("run companion replay");
    assert!(
        out.status.success(),
        "replay differs: {} {}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

async fn killed_during_registrations(engine: Engine) {
    let Some((data_dir, database_url, pg)) = place(engine).await else {
        return;
    };
    let client = reqwest::Client::new();

    let server = ServerProcess::start(data_dir.path(), database_url.as_deref()).await;
    let base = server.base.clone();
    let mut tokens = Vec::new();
    for email in USERS {
        tokens.push((email.to_string(), token(&client, &base, email).await));
    }
    let admin = token(&client, &base, ADMIN).await;
    let db = open_db(data_dir.path(), database_url.as_deref()).await;
    let ids = user_ids(&db, USERS).await;
    db.close().await;

    // Every user registers to every day, one request at a time per user, all users at once; the
    // server is killed once a third of them were answered.
    let total = USERS.len() * DAYS.len();
    let answered = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for (email, token) in tokens.clone() {
        let (client, base, answered) = (client.clone(), base.clone(), answered.clone());
        tasks.push(tokio::spawn(async move {
            let mut acknowledged = Vec::new();
            for &(course, day) in DAYS {
                match register(&client, &base, &token, &email, (course, day)).await {
                    Some((StatusCode::OK, _)) => {
                        acknowledged.push((course, day.to_string()));
                        answered.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    }
                    Some((status, body)) => panic!("{email} {course} {day}: {status} {body}"),
                    None => break,
                }
            }
            (email, acknowledged)
        }));
    }
    while answered.load(std::sync::atomic::Ordering::SeqCst) < total / 3 {
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    server.kill_9();
    let mut acknowledged = Vec::new();
    for task in tasks {
        let (email, days) = task.await.expect("task");
        for (course, day) in days {
            acknowledged.push((course, ids[&email].clone(), day));
        }
    }
    assert!(acknowledged.len() < total, "the kill came before the end");

    // A new server on the same database: every acknowledged registration is listed.
    let server = ServerProcess::start(data_dir.path(), database_url.as_deref()).await;
    let base = server.base.clone();
    let before_retry = listed(&client, &base, &admin).await;
    for row in &acknowledged {
        assert!(
            before_retry.contains(row),
            "acknowledged {row:?} lost: {before_retry:?}"
        );
    }

    // Every registration again: a success or a clear duplicate, never anything else.
    let mut duplicates = 0;
    for (email, token) in &tokens {
        for &(course, day) in DAYS {
            let (status, body) = register(&client, &base, token, email, (course, day))
                .await
                .expect("answered");
            match status {
                StatusCode::OK => {}
                StatusCode::CONFLICT => {
                    duplicates += 1;
                    let message = body["message"].as_str().expect("message");
                    assert!(message.starts_with(ALREADY), "{message}");
                }
                other => panic!("{email} {course} {day}: {other} {body}"),
            }
        }
    }
    assert!(
        duplicates >= acknowledged.len(),
        "acknowledged ones are duplicates"
    );
    assert_eq!(
        listed(&client, &base, &admin).await.len(),
        total,
        "everyone once on every day"
    );

    // Rebuilt from the events, the read model equals the live one.
    drop(server);
    replay_matches(data_dir.path(), database_url.as_deref());
    drop_pg(pg).await;
}

/// The exact window: the event is stored, the server dies before any read-model row is
/// written. The next server's projector writes the row, and the retry is a clear duplicate.
async fn stored_event_without_read_model_row(engine: Engine) {
    let Some((data_dir, database_url, pg)) = place(engine).await else {
        return;
    };
    let client = reqwest::Client::new();
    let server = ServerProcess::start(data_dir.path(), database_url.as_deref()).await;
    let admin = token(&client, &server.base, ADMIN).await;
    let anna_token = token(&client, &server.base, ANNA).await;
    server.kill_9();

    // Appended straight to the event store, as the request had done when the server died.
    let db = open_db(data_dir.path(), database_url.as_deref()).await;
    let anna_id = user_ids(&db, &[ANNA]).await[ANNA].clone();
    let command = RegistrationCommand::Register {
        course_id: 3,
        user_id: anna_id.clone(),
        days: vec!["2026-04-23".into()],
        name: "Anna Rossi".into(),
        email: ANNA.into(),
        hospital: None,
        category: Some("surgeon".into()),
        newsletter: false,
        privacy_consent: true,
        data_consent: true,
        registered_at: 1_790_000_000_000,
    };
    // The calendar read at CALENDAR_NOW, as the test servers do; nothing waits for a projector.
    let services = RegistrationServices::new(DbCourseCatalog {
        db: db.clone(),
        config: std::sync::Arc::new(test_config(data_dir.path())),
    });
    EventStore::<CourseRegistration>::append_only(&db, services)
        .execute(
            &CourseRegistration::aggregate_id(3, &anna_id),
            command,
            Metadata::by(&anna_id),
        )
        .await
        .expect("stored");
    let rows: i64 = projections::on_db!(&db, pool => sqlx::query_scalar(
        "select count(*) from course_registrations where course_id = 3")
        .fetch_one(pool).await)
    .expect("count");
    assert_eq!(rows, 0, "no read-model row: the server died first");
    db.close().await;

    // A new server on the same database: its projector writes the row.
    let server = ServerProcess::start(data_dir.path(), database_url.as_deref()).await;
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let rows = listed(&client, &server.base, &admin).await;
        if !rows.is_empty() {
            assert_eq!(rows, vec![(3, anna_id.clone(), "2026-04-23".to_string())]);
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the projector did not write the row"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // The retry of the cut request is a clear duplicate.
    let (status, body) = register(&client, &server.base, &anna_token, ANNA, (3, "2026-04-23"))
        .await
        .expect("answered");
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(
        body["message"].as_str().unwrap().starts_with(ALREADY),
        "{body}"
    );
    drop(server);
    replay_matches(data_dir.path(), database_url.as_deref());
    drop_pg(pg).await;
}

macro_rules! on_both {
    ($($name:ident),*) => {
        $(
            mod $name {
                use crate::helpers::Engine;
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite() {
                    super::$name(Engine::Sqlite).await
                }
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn postgres() {
                    super::$name(Engine::Postgres).await
                }
            }
        )*
    };
}

on_both!(
    killed_during_registrations,
    stored_event_without_read_model_row
);
