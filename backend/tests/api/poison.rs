//! Poison events: an event the documents projection cannot apply stops that projection alone
//! (commands on documents answer 503 at once), the other projections carry on, and
//! `companion projections status|retry|skip` repair it.

use std::process::Command;
use std::time::{Duration, Instant};

use projections::dead_letters;
use reqwest::StatusCode;
use serde_json::Value;

use crate::both_dbs;
use crate::documents::{list, new_file, new_folder, post, titled};
use crate::helpers::*;

const STOPPED_MESSAGE: &str = "The documents are temporarily unavailable: an error is being repaired. Your change was recorded and will show once it is fixed. Please try again later.";

/// Runs the `companion` binary against the app's database; returns (success, stdout, stderr).
pub fn companion(app: &TestApp, args: &[&str]) -> (bool, String, String) {
    let config = &app.state.config;
    let policy = config.projection_poison_policy.join(",");
    run_companion(
        &config.data_dir,
        config.database_url.as_deref(),
        &[("PROJECTION_POISON_POLICY", policy.as_str())],
        args,
    )
}

/// Runs the `companion` binary on a data folder (and a database, PostgreSQL's when given).
pub fn companion_in(
    data_dir: &std::path::Path,
    database_url: Option<&str>,
    args: &[&str],
) -> (bool, String, String) {
    run_companion(data_dir, database_url, &[], args)
}

fn run_companion(
    data_dir: &std::path::Path,
    database_url: Option<&str>,
    envs: &[(&str, &str)],
    args: &[&str],
) -> (bool, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_companion"));
    command
        .args(args)
        .env("DATA_DIR", data_dir)
        .env("RUST_LOG", "warn")
        .envs(envs.iter().copied());
    match database_url {
        Some(url) => command.env("DATABASE_URL", url),
        None => command.env_remove("DATABASE_URL"),
    };
    crate::helpers::use_test_pool(&mut command);
    let out = command.output().expect("run companion");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The `FolderCreated` payload of a folder Anna makes now, re-aimed at the item `id` named `name`.
async fn folder_payload(app: &TestApp, anna: &str, id: &str, name: &str) -> Value {
    let template = new_folder(app, anna, &format!("Template for {name}"), None).await;
    let payload: String = projections::on_db!(&app.state.db, pool => sqlx::query_scalar(
        "select cast(payload as text) from events where aggregate_id = $1 and event_type = 'FolderCreated'")
        .bind(&template).fetch_one(pool).await)
    .unwrap();
    let mut payload: Value = serde_json::from_str(&payload).unwrap();
    payload["FolderCreated"]["id"] = id.into();
    payload["FolderCreated"]["name"] = name.into();
    payload
}

/// Appends an event straight into the store, as a buggy writer or a bad migration would.
async fn append_raw(app: &TestApp, id: &str, payload: &Value) {
    let payload = payload.to_string();
    match &app.state.db {
        projections::Db::Sqlite { pool, .. } => sqlx::query(
            "insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata)
             values ('document_item', $1, 1, 'FolderCreated', '1.0', $2, '{}')")
            .bind(id).bind(&payload).execute(pool).await.map(|_| ()),
        projections::Db::Postgres { pool } => sqlx::query(
            "insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata)
             values ('document_item', $1, 1, 'FolderCreated', '1.0', $2::json, '{}'::json)")
            .bind(id).bind(&payload).execute(pool).await.map(|_| ()),
    }
    .unwrap();
    app.state.projector.wake();
}

/// A payload the documents projection cannot read (a required field is missing).
fn broken(payload: &Value) -> Value {
    let mut broken = payload.clone();
    broken["FolderCreated"]
        .as_object_mut()
        .unwrap()
        .remove("name");
    broken
}

/// The dead letters of the documents projection (the audit projection, which reads the same
/// events, skips them and records its own).
async fn documents_letters(app: &TestApp) -> Vec<dead_letters::DeadLetter> {
    dead_letters::list(&app.state.db, 20)
        .await
        .unwrap()
        .into_iter()
        .filter(|d| d.projection == "documents")
        .collect()
}

/// Whether the audit projection skips a poison event (its default policy) within a few seconds.
async fn audit_skipped(app: &TestApp) -> bool {
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        let letters = dead_letters::list(&app.state.db, 20).await.unwrap();
        if letters
            .iter()
            .any(|d| d.projection == "audit" && d.status == "skipped")
        {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

async fn wait_until_stopped(app: &TestApp, stopped: bool) {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let now = dead_letters::stopped(&app.state.db)
            .await
            .unwrap()
            .contains("documents");
        if now == stopped {
            return;
        }
        assert!(Instant::now() < deadline, "documents stopped: {now}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn checkpoint(app: &TestApp, name: &str) -> projections::Position {
    projections::projector::checkpoint_of(&app.state.db, name)
        .await
        .unwrap()
}

async fn head(app: &TestApp) -> projections::Position {
    projections::stream::head(&app.state.db)
        .await
        .unwrap()
        .unwrap()
}

async fn create_folder_status(
    app: &TestApp,
    anna: &str,
    name: &str,
) -> (StatusCode, Value, Option<String>) {
    let res = app
        .post_json(
            "/folders",
            Some(anna),
            &serde_json::json!({ "name": name, "type": "my", "parent": null }),
        )
        .await;
    let retry_after = res
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_string());
    let (status, body) = json_of(res).await;
    (status, body, retry_after)
}

fn titles(items: &[Value]) -> Vec<String> {
    items
        .iter()
        .map(|i| i["title"].as_str().unwrap_or_default().to_string())
        .collect()
}

both_dbs! {
    async fn a_poison_event_stops_documents_alone_and_retry_applies_it_once_fixed(app) {
        let anna = app.token(ANNA).await;
        let handout = new_file(&app, &anna, "Handout", None).await;
        let good = folder_payload(&app, &anna, "poison-folder", "Repaired").await;
        append_raw(&app, "poison-folder", &broken(&good)).await;
        wait_until_stopped(&app, true).await;

        // An external share is recorded, but its e-mail is held until the share is applied.
        let (status, body) = post(&app, &anna, "/documents/external-share",
            serde_json::json!({ "email": "dr.who@clinic.example", "file": handout })).await;
        assert_eq!((status, body["message"].as_str()), (StatusCode::SERVICE_UNAVAILABLE, Some(STOPPED_MESSAGE)));
        let mail = backend::outbox::list(&app.state.db, true, 10).await.unwrap();
        assert_eq!(mail.len(), 1);
        assert!(mail[0].held, "held while the share is not applied");

        // A documents command is recorded but answered 503 at once, not after the 10 s wait.
        let started = Instant::now();
        let (status, body, retry_after) = create_folder_status(&app, &anna, "Made while stopped").await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
        assert_eq!(body["message"], STOPPED_MESSAGE);
        assert_eq!(retry_after.as_deref(), Some("60"));
        assert!(started.elapsed() < Duration::from_secs(5), "answered at once: {:?}", started.elapsed());
        // Reads still work (from where the projection stopped).
        assert!(!titles(&list(&app, &anna, "/documents/my").await).contains(&"Made while stopped".to_string()));

        // The other projections carry on past the poison event.
        let head = head(&app).await;
        let deadline = Instant::now() + Duration::from_secs(10);
        while checkpoint(&app, "notifications").await < head {
            assert!(Instant::now() < deadline, "notifications carry on");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(checkpoint(&app, "documents").await < head);

        // The operator sees it.
        let (ok, out, err) = companion(&app, &["projections", "status"]);
        assert!(ok, "{err}");
        let documents = out.lines().find(|l| l.starts_with("documents")).expect("documents line");
        assert!(documents.contains("STOPPED"), "{out}");
        assert!(out.lines().any(|l| l.starts_with("notifications") && l.contains("running")), "{out}");
        assert!(out.contains("documents STOPPED") && out.contains("document_item/poison-folder #1"), "{out}");
        assert!(out.contains("missing field `name`"), "the error is shown: {out}");
        let (ok, json, _) = companion(&app, &["projections", "status", "--json"]);
        assert!(ok);
        let report: Value = serde_json::from_str(&json).unwrap();
        let letter = report["dead_letters"].as_array().unwrap().iter().find(|d| d["projection"] == "documents").unwrap();
        assert_eq!(letter["status"], "stopped");
        assert_eq!(letter["event_type"], "FolderCreated");
        assert!(audit_skipped(&app).await, "the audit projection steps over it");
        let documents = report["projections"].as_array().unwrap().iter().find(|p| p["name"] == "documents").unwrap();
        assert_eq!(documents["stopped"], true);
        assert_eq!(documents["on_poison"], "stop");
        assert!(documents["lag"]["events"].as_i64().unwrap() >= 2, "{json}");

        // Retrying without a fix stops it again, with a second letter.
        let (ok, out, err) = companion(&app, &["projections", "retry", "documents"]);
        assert!(ok, "{err}");
        assert!(out.contains("documents will apply its failed event again"), "{out}");
        let deadline = Instant::now() + Duration::from_secs(10);
        while documents_letters(&app).await.len() < 2 {
            assert!(Instant::now() < deadline, "the retry fails again");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        wait_until_stopped(&app, true).await;

        // Fixed (here: the event repaired in place), then retried: applied, with what came after.
        let fixed = good.to_string();
        projections::on_db!(&app.state.db, pool => sqlx::query(
            if matches!(app.state.db, projections::Db::Postgres { .. }) {
                "update events set payload = $1::json where aggregate_id = 'poison-folder'"
            } else {
                "update events set payload = $1 where aggregate_id = 'poison-folder'"
            })
            .bind(&fixed).execute(pool).await.map(|_| ())).unwrap();
        let (ok, _, err) = companion(&app, &["projections", "retry", "documents"]);
        assert!(ok, "{err}");
        wait_until_stopped(&app, false).await;
        let (status, body, _) = create_folder_status(&app, &anna, "After the repair").await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        let mine = titles(&list(&app, &anna, "/documents/my").await);
        for title in ["Repaired", "Made while stopped", "After the repair"] {
            assert!(mine.contains(&title.to_string()), "{title} in {mine:?}");
        }
        let mail = backend::outbox::list(&app.state.db, true, 10).await.unwrap();
        assert!(!mail[0].held, "released once the share is applied");
        let statuses: Vec<String> = documents_letters(&app).await.into_iter().map(|d| d.status).collect();
        assert_eq!(statuses, ["retried", "retried"]);

        // Nothing is stopped any more: retry and skip say so.
        let (ok, _, err) = companion(&app, &["projections", "retry", "documents"]);
        assert!(!ok);
        assert!(err.contains("the projection documents is not stopped"), "{err}");
        let (ok, _, err) = companion(&app, &["projections", "skip", "nonsense"]);
        assert!(!ok);
        assert!(err.contains("there is no projection \"nonsense\""), "{err}");
    }

    async fn skip_steps_over_a_poison_event_and_the_projection_carries_on(app) {
        let anna = app.token(ANNA).await;
        let good = folder_payload(&app, &anna, "poison-folder", "Never shown").await;
        append_raw(&app, "poison-folder", &broken(&good)).await;
        wait_until_stopped(&app, true).await;
        let (status, _, _) = create_folder_status(&app, &anna, "Made while stopped").await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);

        let (ok, out, err) = companion(&app, &["projections", "skip", "documents"]);
        assert!(ok, "{err}");
        assert!(out.contains("documents skipped FolderCreated document_item/poison-folder #1"), "{out}");
        wait_until_stopped(&app, false).await;
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let mine = titles(&list(&app, &anna, "/documents/my").await);
            if mine.contains(&"Made while stopped".to_string()) {
                assert!(!mine.contains(&"Never shown".to_string()));
                break;
            }
            assert!(Instant::now() < deadline, "the projection carries on: {mine:?}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let (status, body, _) = create_folder_status(&app, &anna, "After the skip").await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        titled(&list(&app, &anna, "/documents/my").await, "After the skip");
        let letters = documents_letters(&app).await;
        assert_eq!(letters.len(), 1);
        assert_eq!(letters[0].status, "skipped");
        assert!(letters[0].resolved_at.is_some());
        let (ok, _, err) = companion(&app, &["projections", "skip", "documents"]);
        assert!(!ok);
        assert!(err.contains("not stopped"), "{err}");
        // A rebuild steps over the event too: it matches the live read model.
        let report = backend::replay::run(&app.state.db, &app.state.config, &["documents".into()])
            .await
            .unwrap();
        assert!(backend::replay::print(&report), "the rebuild matches after a skip");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_skip_policy_records_the_event_and_never_stops() {
    let app = spawn_app_with(Engine::Sqlite, |config| {
        config.projection_poison_policy = vec!["documents=skip".into()];
    })
    .await
    .expect("app");
    let anna = app.token(ANNA).await;
    let good = folder_payload(&app, &anna, "poison-folder", "Never shown").await;
    append_raw(&app, "poison-folder", &broken(&good)).await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while documents_letters(&app).await.is_empty() {
        assert!(Instant::now() < deadline, "the poison event is recorded");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let letters = documents_letters(&app).await;
    assert_eq!(
        (letters[0].projection.as_str(), letters[0].status.as_str()),
        ("documents", "skipped")
    );
    assert!(dead_letters::stopped(&app.state.db)
        .await
        .unwrap()
        .is_empty());
    let (status, body, _) = create_folder_status(&app, &anna, "Still working").await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let (ok, out, _) = companion(&app, &["projections", "status"]);
    assert!(ok);
    assert!(
        out.lines()
            .any(|l| l.starts_with("documents") && l.contains("running") && l.contains("skip")),
        "{out}"
    );
}

#[tokio::test]
async fn an_unknown_poison_policy_stops_the_server_from_starting() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(dir.path());
    config.projection_poison_policy = vec!["documents=maybe".into()];
    let error = backend::Server::bind(config)
        .await
        .err()
        .expect("refused")
        .to_string();
    assert!(error.contains("unknown poison policy \"maybe\""), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_whose_json_is_damaged_stops_only_the_projection_that_reads_it() {
    let app = spawn_app(Engine::Sqlite).await.expect("app");
    projections::on_db!(&app.state.db, pool => sqlx::query(
        "insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata)
         values ('document_item', 'damaged', 1, 'FolderCreated', '1.0', '{\"FolderCreated\": {', '{}')")
        .execute(pool).await.map(|_| ()))
    .unwrap();
    app.state.projector.wake();
    wait_until_stopped(&app, true).await;
    let letters = documents_letters(&app).await;
    assert_eq!(
        (letters[0].aggregate_id.as_str(), letters[0].status.as_str()),
        ("damaged", "stopped")
    );
    assert!(
        audit_skipped(&app).await,
        "the audit projection steps over it"
    );
    assert!(
        letters[0].error.contains("cannot be read"),
        "{}",
        letters[0].error
    );
    let head = head(&app).await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while checkpoint(&app, "notifications").await < head {
        assert!(
            Instant::now() < deadline,
            "notifications carry on past the damaged event"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
