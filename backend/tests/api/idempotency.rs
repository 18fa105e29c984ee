//! Over 600 lines: one test per kind of command and per refusal, over one shared harness.
//!
//! `Idempotency-Key` on command calls, on both databases: a repeat answers the first result and
//! records nothing again, for every kind of command; racing repeats execute once; a key reused
//! for another request, a malformed key, another user's key, an expired key; and the crash
//! windows (events recorded but no answer kept; a claim abandoned before any event).

use projections::{now_ms, on_db};
use reqwest::StatusCode;
use serde_json::{json, Value};
use sha2::Sha256;

use crate::both_dbs;
use crate::documents::{id_of, list, my_item, new_folder, PDF};
use crate::helpers::{json_of, spawn_app_with, Engine, TestApp, ADMIN, ANNA, JOHN};

const KEY_REUSED: &str = "This Idempotency-Key was already used for a different request. Use a new key for a new request";
const INVALID_KEY: &str =
    "The Idempotency-Key header must be 1 to 255 visible ASCII characters (no spaces)";
const IN_PROGRESS: &str =
    "A request with this Idempotency-Key is still being processed. Try again in a moment";

/// What the server answered: status, the `Idempotency-Replayed` header, JSON body.
#[derive(Debug, Clone, PartialEq)]
struct Answer {
    status: StatusCode,
    replayed: Option<String>,
    body: Value,
}

impl Answer {
    async fn of(res: reqwest::Response) -> Answer {
        let replayed = res
            .headers()
            .get("idempotency-replayed")
            .map(|v| v.to_str().unwrap().to_string());
        let (status, body) = json_of(res).await;
        Answer {
            status,
            replayed,
            body,
        }
    }
}

fn new_key() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// `POST path` with a JSON body and, when given, an `Idempotency-Key`.
async fn command(
    app: &TestApp,
    token: Option<&str>,
    path: &str,
    key: Option<&str>,
    body: &Value,
) -> Answer {
    let mut req = app.client.post(app.url(path)).json(body);
    if let Some(token) = token {
        req = req.bearer_auth(token);
    }
    if let Some(key) = key {
        req = req.header("Idempotency-Key", key);
    }
    Answer::of(req.send().await.expect("request")).await
}

/// `command`, sent again while the server says the first request with its key is still running
/// (409), as the app's queue does: on a loaded machine the first may outlast a repeat's wait.
async fn command_until_answered(
    app: &TestApp,
    token: Option<&str>,
    path: &str,
    key: Option<&str>,
    body: &Value,
) -> Answer {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let answer = command(app, token, path, key, body).await;
        let running = answer.status == StatusCode::CONFLICT
            && answer.body["message"].as_str() == Some(IN_PROGRESS);
        if !running || std::time::Instant::now() > deadline {
            return answer;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

async fn upload(app: &TestApp, token: &str, key: &str, name: &str) -> Answer {
    // reqwest picks a new multipart boundary for every form, as a browser does on a retry.
    let form = reqwest::multipart::Form::new()
        .text("parent", "")
        .text("name", name.to_string())
        .part(
            "file",
            reqwest::multipart::Part::bytes(PDF.to_vec()).file_name("doc.pdf"),
        );
    let res = app
        .client
        .post(app.url("/documents/upload"))
        .bearer_auth(token)
        .header("Idempotency-Key", key)
        .multipart(form)
        .send()
        .await
        .expect("upload");
    Answer::of(res).await
}

async fn scalar(app: &TestApp, sql: &str) -> i64 {
    on_db!(&app.state.db, pool => sqlx::query_scalar::<_, i64>(sql).fetch_one(pool).await)
        .expect(sql)
}

async fn events(app: &TestApp) -> i64 {
    scalar(app, "select count(*) from events").await
}

/// Events whose metadata names the execution that recorded them.
async fn tagged_events(app: &TestApp) -> i64 {
    scalar(
        app,
        "select count(*) from events where cast(metadata as text) like '%idempotency_id%'",
    )
    .await
}

async fn key_rows(app: &TestApp) -> i64 {
    scalar(app, "select count(*) from idempotency_keys").await
}

async fn my_docs(app: &TestApp, token: &str) -> usize {
    list(app, token, "/documents/my").await.len()
}

/// Sends the same command twice with one key and checks that the repeat answers the first
/// answer without recording anything; returns the first answer and how many events it recorded.
async fn twice(app: &TestApp, token: &str, path: &str, body: &Value) -> (Answer, i64) {
    let key = new_key();
    let before = events(app).await;
    let tagged = tagged_events(app).await;
    let first = command(app, Some(token), path, Some(&key), body).await;
    assert!(first.status.is_success(), "{path}: {first:?}");
    assert_eq!(first.replayed, None, "{path}");
    let recorded = events(app).await - before;
    assert_eq!(
        tagged_events(app).await - tagged,
        recorded,
        "{path}: every event names its execution"
    );
    let repeat = command(app, Some(token), path, Some(&key), body).await;
    assert_eq!(repeat.status, first.status, "{path}");
    assert_eq!(repeat.body, first.body, "{path}");
    assert_eq!(repeat.replayed.as_deref(), Some("true"), "{path}");
    assert_eq!(
        events(app).await - before,
        recorded,
        "{path}: the repeat recorded nothing"
    );
    (first, recorded)
}

/// The fingerprint the server computes for a JSON command (method, path, body).
/// The fingerprint the server gives `POST path` with `body`: an HMAC keyed with its secret (made
/// here when the server has not made it yet; the server then uses it).
async fn fingerprint(app: &TestApp, path: &str, body: &Value) -> String {
    use hmac::{Hmac, Mac};
    on_db!(&app.state.db, pool => sqlx::query(
        "insert into server_secrets (name, value) values ('idempotency', $1) on conflict (name) do nothing")
        .bind(new_key()).execute(pool).await.map(|_| ())).unwrap();
    let secret: String = on_db!(&app.state.db, pool => sqlx::query_scalar(
        "select value from server_secrets where name = 'idempotency'").fetch_one(pool).await)
    .unwrap();
    let mut hash = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    hash.update(format!("POST\n/api{path}\n").as_bytes());
    hash.update(&serde_json::to_vec(body).unwrap());
    hash.finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

async fn user_id(app: &TestApp, token: &str) -> String {
    let (_, data) = json_of(app.get("/users/get-data", Some(token)).await).await;
    data["id"].as_str().expect("user id").to_string()
}

/// A row for (user, key) as a request that is running (or crashed) would leave it.
async fn claim_row(
    app: &TestApp,
    id: &str,
    user: &str,
    key: &str,
    fingerprint: &str,
    locked_until: i64,
) {
    let now = now_ms();
    on_db!(&app.state.db, pool => sqlx::query(
        "insert into idempotency_keys (id, user_id, key, fingerprint, created_at, expires_at, locked_until)
         values ($1, $2, $3, $4, $5, $6, $7)")
        .bind(id).bind(user).bind(key).bind(fingerprint).bind(now).bind(now + 86_400_000)
        .bind(locked_until).execute(pool).await.map(|_| ())).expect("claim row");
}

/// Whether an event naming `execution` can be appended (in a transaction rolled back after).
async fn records(app: &TestApp, execution: &str) -> bool {
    let metadata = json!({ "user_id": "probe", "idempotency_id": execution }).to_string();
    const INSERT: &str = "insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata)
                          values ('Probe', 'probe', 1, 'Probed', '1.0', '{}', $1)";
    match &app.state.db {
        projections::Db::Sqlite { pool, .. } => {
            let mut tx = pool.begin().await.unwrap();
            sqlx::query(INSERT)
                .bind(&metadata)
                .execute(&mut *tx)
                .await
                .is_ok()
        }
        projections::Db::Postgres { pool } => {
            let mut tx = pool.begin().await.unwrap();
            sqlx::query(&INSERT.replace("$1", "$1::json"))
                .bind(&metadata)
                .execute(&mut *tx)
                .await
                .is_ok()
        }
    }
}

both_dbs! {
    async fn document_commands_run_once_per_key(app) {
        let anna = app.token(ANNA).await;
        let docs = my_docs(&app, &anna).await;

        let (created, recorded) = twice(&app, &anna, "/folders", &json!({ "name": "Visits", "type": "my", "parent": null })).await;
        assert_eq!(created.status, StatusCode::CREATED);
        assert_eq!(recorded, 1);
        assert_eq!(my_docs(&app, &anna).await, docs + 1, "one folder");
        let folder = id_of(&created.body);
        let other = new_folder(&app, &anna, "Archive", None).await;

        let (_, recorded) = twice(&app, &anna, &format!("/folders/{folder}"), &json!({ "name": "Visits 2026" })).await;
        assert_eq!(recorded, 1);
        let (_, recorded) = twice(&app, &anna, "/folders/move", &json!({ "destination": other, "folder": folder })).await;
        assert!(recorded >= 1);
        let (_, recorded) = twice(&app, &anna, "/folders/share", &json!({ "email": JOHN, "folder": other })).await;
        assert!(recorded >= 1);

        // Saving a shared file to My Docs twice would make two copies.
        let john = app.token(JOHN).await;
        let arcadia = my_item(&app, &anna, "Expense policy summary").await;
        let (status, _) = crate::documents::post(&app, &anna, "/documents/share", json!({ "email": JOHN, "file": arcadia })).await;
        assert_eq!(status, StatusCode::OK);
        let johns = my_docs(&app, &john).await;
        let (copy, recorded) = twice(&app, &john, "/documents/favorite", &json!({ "folder": null, "file": arcadia })).await;
        assert!(recorded >= 1, "{copy:?}");
        assert_eq!(my_docs(&app, &john).await, johns + 1, "one copy");

        // An upload: a new multipart boundary on the retry, the same answer, one file.
        let docs = my_docs(&app, &anna).await;
        let key = new_key();
        let before = events(&app).await;
        let first = upload(&app, &anna, &key, "Offer").await;
        assert_eq!(first.status, StatusCode::CREATED, "{first:?}");
        let recorded = events(&app).await - before;
        let repeat = upload(&app, &anna, &key, "Offer").await;
        assert_eq!((repeat.status, &repeat.body, repeat.replayed.as_deref()), (first.status, &first.body, Some("true")));
        assert_eq!(events(&app).await - before, recorded);
        assert_eq!(my_docs(&app, &anna).await, docs + 1, "one file");
        let file = id_of(&first.body);

        let (_, recorded) = twice(&app, &anna, "/documents/remove", &json!({ "id": file })).await;
        assert!(recorded >= 1);
        let (_, recorded) = twice(&app, &anna, &format!("/folders/{other}/delete"), &json!({})).await;
        assert!(recorded >= 1);

        // The events name the execution that recorded them.
        let tagged = tagged_events(&app).await;
        assert!(tagged >= 8, "{tagged}");
    }

    async fn registrations_publications_and_account_calls_run_once_per_key(app) {
        let anna = app.token(ANNA).await;
        let form = json!({ "id": 1, "days": ["2026-03-19"], "name": "Anna Rossi", "email": ANNA,
            "hospital": "Ospedale Nord", "category": "surgeon", "newsletter": true,
            "privacy_consent": true, "data_consent": true });
        let (registered, recorded) = twice(&app, &anna, "/courses/1/register", &form).await;
        assert_eq!(registered.body["message"], "You have been registered to the course");
        assert_eq!(recorded, 1);
        // Without a key a repeat is refused as today.
        assert_eq!(command(&app, Some(&anna), "/courses/1/register", None, &form).await.status, StatusCode::CONFLICT);

        let admin = app.token(ADMIN).await;
        let john = app.token(JOHN).await;
        let (_, before) = json_of(app.get("/notifications", Some(&john)).await).await;
        let (published, recorded) = twice(&app, &admin, "/admin/notifications",
            &json!({ "title": "Price list", "message": "<p>New prices</p>" })).await;
        assert!(recorded >= 1);
        let (_, after) = json_of(app.get("/notifications", Some(&john)).await).await;
        assert_eq!(after.as_array().unwrap().len(), before.as_array().unwrap().len() + 1, "John got it once");
        assert!(after.as_array().unwrap().iter().any(|n| n["id"] == published.body["id"]));
        let (_, updates_before) = json_of(app.get("/updates", Some(&john)).await).await;
        let (_, recorded) = twice(&app, &admin, "/admin/updates", &json!({ "name": "Faster search",
            "release": "2.7.0", "preview": "/media/updates/update-1-preview.svg",
            "gallery": ["/media/updates/update-1-1.svg"], "url": "/app/news/15" })).await;
        assert!(recorded >= 1);
        let (_, updates_after) = json_of(app.get("/updates", Some(&john)).await).await;
        assert_eq!(updates_after.as_array().unwrap().len(), updates_before.as_array().unwrap().len() + 1);

        // Calls that write accounts and devices: the repeat answers the first answer.
        let new = json!({ "email": "carla.verdi@example.com", "first_name": "Carla", "role": "user", "password": "Quiet-Harbour-Lamp-7" });
        let (added, _) = twice(&app, &admin, "/admin/users", &new).await;
        assert_eq!(added.body["email"], "carla.verdi@example.com");
        let carla = added.body["id"].as_str().unwrap().to_string();
        twice(&app, &admin, &format!("/admin/users/{carla}/disable"), &json!({})).await;
        twice(&app, &admin, &format!("/admin/users/{carla}/enable"), &json!({})).await;
        let anna_id = user_id(&app, &anna).await;
        let devices = |app: &TestApp| {
            let anna_id = anna_id.clone();
            let db = app.state.db.clone();
            async move {
                on_db!(&db, pool => sqlx::query_scalar::<_, i64>("select count(*) from devices where user_id = $1")
                    .bind(&anna_id).fetch_one(pool).await).unwrap()
            }
        };
        let before = devices(&app).await;
        twice(&app, &anna, "/users/register-device", &json!({ "push_id": "p-1", "os": "android" })).await;
        assert_eq!(devices(&app).await, before + 1, "one device");
    }

    async fn racing_repeats_execute_once(app) {
        let anna = app.token(ANNA).await;
        let docs = my_docs(&app, &anna).await;
        let before = events(&app).await;
        let key = new_key();
        let body = json!({ "name": "Raced", "type": "my", "parent": null });
        let (a, b, c) = tokio::join!(
            command_until_answered(&app, Some(&anna), "/folders", Some(&key), &body),
            command_until_answered(&app, Some(&anna), "/folders", Some(&key), &body),
            command_until_answered(&app, Some(&anna), "/folders", Some(&key), &body),
        );
        for answer in [&a, &b, &c] {
            assert_eq!((answer.status, &answer.body), (StatusCode::CREATED, &a.body), "{answer:?}");
        }
        let executed = [&a, &b, &c].iter().filter(|x| x.replayed.is_none()).count();
        assert_eq!(executed, 1, "{a:?} {b:?} {c:?}");
        assert_eq!(events(&app).await - before, 1);
        assert_eq!(my_docs(&app, &anna).await, docs + 1);

        // A client that gives up before the answer and retries: still one folder.
        let key = new_key();
        let body = json!({ "name": "Lost answer", "type": "my", "parent": null });
        let lost = app.client.post(app.url("/folders")).bearer_auth(&anna).header("Idempotency-Key", &key)
            .json(&body).timeout(std::time::Duration::from_millis(5)).send().await;
        drop(lost);
        let retry = command_until_answered(&app, Some(&anna), "/folders", Some(&key), &body).await;
        assert_eq!(retry.status, StatusCode::CREATED, "{retry:?}");
        assert_eq!(my_docs(&app, &anna).await, docs + 2);
    }

    async fn a_key_means_one_request_of_one_user(app) {
        let anna = app.token(ANNA).await;
        let john = app.token(JOHN).await;
        let key = new_key();
        let first = command(&app, Some(&anna), "/folders", Some(&key), &json!({ "name": "One", "type": "my", "parent": null })).await;
        assert_eq!(first.status, StatusCode::CREATED);
        let folder = id_of(&first.body);
        let before = events(&app).await;

        // Another body, or another call, with the same key: refused, nothing recorded.
        let other = command(&app, Some(&anna), "/folders", Some(&key), &json!({ "name": "Two", "type": "my", "parent": null })).await;
        assert_eq!((other.status, other.body["message"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some(KEY_REUSED)));
        let other = command(&app, Some(&anna), &format!("/folders/{folder}"), Some(&key), &json!({ "name": "Two" })).await;
        assert_eq!((other.status, other.body["message"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some(KEY_REUSED)));
        assert_eq!(events(&app).await, before);
        let metrics = backend::http::metrics::render(&app.state);
        for outcome in ["executed", "mismatch"] {
            assert!(metrics.contains(&format!("companion_idempotency_requests_total{{outcome=\"{outcome}\"}}")), "{outcome}: {metrics}");
        }

        // John's key of the same name is his own.
        let johns = command(&app, Some(&john), "/folders", Some(&key), &json!({ "name": "One", "type": "my", "parent": null })).await;
        assert_eq!((johns.status, johns.replayed.as_deref()), (StatusCode::CREATED, None));
        assert_ne!(johns.body["id"], first.body["id"]);
        assert_eq!(events(&app).await, before + 1);

        // A refusal is an answer too, except refusals that may pass on a retry.
        let missing = json!({ "name": "Nowhere" });
        let key = new_key();
        let refused = command(&app, Some(&anna), "/folders/no-such-folder", Some(&key), &missing).await;
        assert_eq!(refused.status, StatusCode::NOT_FOUND);
        let again = command(&app, Some(&anna), "/folders/no-such-folder", Some(&key), &missing).await;
        assert_eq!((again.status, again.body.clone(), again.replayed.as_deref()), (StatusCode::NOT_FOUND, refused.body, Some("true")));
        let form = json!({ "id": 1, "days": ["2026-03-19"], "name": "Anna Rossi", "email": ANNA,
            "hospital": "Ospedale Nord", "category": "surgeon", "newsletter": true,
            "privacy_consent": true, "data_consent": true });
        assert_eq!(command(&app, Some(&anna), "/courses/1/register", None, &form).await.status, StatusCode::OK);
        let rows = key_rows(&app).await;
        let conflict = command(&app, Some(&anna), "/courses/1/register", Some(&new_key()), &form).await;
        assert_eq!(conflict.status, StatusCode::CONFLICT);
        assert_eq!(key_rows(&app).await, rows, "a 409 gives the key back");
    }

    async fn malformed_keys_are_refused_and_no_key_behaves_as_before(app) {
        let anna = app.token(ANNA).await;
        let body = json!({ "name": "Keyed", "type": "my", "parent": null });
        let before = events(&app).await;
        let long = "k".repeat(256);
        for key in ["", "two words", long.as_str(), "tab\there"] {
            let answer = command(&app, Some(&anna), "/folders", Some(key), &body).await;
            assert_eq!((answer.status, answer.body["message"].as_str()), (StatusCode::BAD_REQUEST, Some(INVALID_KEY)), "{key:?}");
        }
        let answer = Answer::of(app.client.post(app.url("/folders")).bearer_auth(&anna)
            .header("Idempotency-Key", reqwest::header::HeaderValue::from_bytes(b"caf\xc3\xa9").unwrap())
            .json(&body).send().await.unwrap()).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST);
        let answer = Answer::of(app.client.post(app.url("/folders")).bearer_auth(&anna)
            .header("Idempotency-Key", "a").header("Idempotency-Key", "b").json(&body).send().await.unwrap()).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST);
        assert_eq!(events(&app).await, before, "nothing recorded");
        assert!(command(&app, Some(&anna), "/folders", Some(&"k".repeat(255)), &body).await.status.is_success());

        // Without a key, a repeat executes again, as it always did.
        let docs = my_docs(&app, &anna).await;
        for _ in 0..2 {
            assert_eq!(command(&app, Some(&anna), "/folders", None, &body).await.status, StatusCode::CREATED);
        }
        assert_eq!(my_docs(&app, &anna).await, docs + 2);

        // Not signed in, signing in, reads: the key is not kept.
        let rows = key_rows(&app).await;
        let key = new_key();
        assert_eq!(command(&app, None, "/folders", Some(&key), &body).await.status, StatusCode::UNAUTHORIZED);
        let login = json!({ "username": ANNA, "password": crate::helpers::PASSWORD });
        let a = command(&app, None, "/users/login", Some(&key), &login).await;
        let b = command(&app, Some(&anna), "/users/login", Some(&key), &login).await;
        assert_eq!((a.status, b.status, b.replayed), (StatusCode::OK, StatusCode::OK, None));
        assert_ne!(a.body["jwt"], b.body["jwt"], "every sign-in opens its own session");
        let welcome = command(&app, Some(&anna), "/users/welcome", Some(&key), &json!({})).await;
        assert_eq!((welcome.status, welcome.replayed), (StatusCode::OK, None));
        let res = app.client.get(app.url("/documents/my")).bearer_auth(&anna).header("Idempotency-Key", "x y").send().await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "reads ignore the header");
        assert_eq!(key_rows(&app).await, rows);
    }

    async fn a_crash_after_the_events_answers_without_executing_again(app) {
        let anna = app.token(ANNA).await;
        let key = new_key();
        let body = json!({ "name": "Crash", "type": "my", "parent": null });
        let first = command(&app, Some(&anna), "/folders", Some(&key), &body).await;
        assert_eq!(first.status, StatusCode::CREATED);
        let recorded = scalar(&app, &format!("select count(*) from idempotency_keys where key = '{key}' and events_recorded = true")).await;
        assert_eq!(recorded, 1, "the events' transaction marked the key");
        // As a node that died after the events and before keeping the answer leaves it.
        on_db!(&app.state.db, pool => sqlx::query(
            "update idempotency_keys set completed_at = null, status = null, content_type = null, body = null,
                    locked_until = $2 where key = $1")
            .bind(&key).bind(now_ms() - 1).execute(pool).await.map(|_| ())).unwrap();
        let docs = my_docs(&app, &anna).await;
        let before = events(&app).await;
        for _ in 0..2 {
            let repeat = command(&app, Some(&anna), "/folders", Some(&key), &body).await;
            assert_eq!((repeat.status, repeat.replayed.as_deref(), &repeat.body["result"]),
                (StatusCode::OK, Some("reconstructed"), &json!(true)), "{repeat:?}");
        }
        assert_eq!(events(&app).await, before);
        assert_eq!(my_docs(&app, &anna).await, docs);
    }

    async fn a_claim_abandoned_before_any_event_runs_once_more_and_fences_the_old_run(app) {
        let anna = app.token(ANNA).await;
        let anna_id = user_id(&app, &anna).await;
        let key = new_key();
        let body = json!({ "name": "Abandoned", "type": "my", "parent": null });
        claim_row(&app, "stale-run", &anna_id, &key, &fingerprint(&app, "/folders", &body).await, now_ms() - 1).await;
        let docs = my_docs(&app, &anna).await;
        let answer = command(&app, Some(&anna), "/folders", Some(&key), &body).await;
        assert_eq!((answer.status, answer.replayed.as_deref()), (StatusCode::CREATED, None), "{answer:?}");
        assert_eq!(my_docs(&app, &anna).await, docs + 1);
        // The abandoned run, were it still alive, can record nothing any more.
        let current: String = on_db!(&app.state.db, pool => sqlx::query_scalar(
            "select id from idempotency_keys where key = $1").bind(&key).fetch_one(pool).await).unwrap();
        assert_ne!(current, "stale-run");
        assert!(records(&app, &current).await, "the current run records");
        assert!(!records(&app, "stale-run").await, "events of a stale run are refused");
    }

    async fn expired_keys_match_nothing_and_are_purged(app) {
        let anna = app.token(ANNA).await;
        let key = new_key();
        let body = json!({ "name": "Yesterday", "type": "my", "parent": null });
        assert_eq!(command(&app, Some(&anna), "/folders", Some(&key), &body).await.status, StatusCode::CREATED);
        let kept_for = scalar(&app, &format!("select expires_at - created_at from idempotency_keys where key = '{key}'")).await;
        assert_eq!(kept_for, 24 * 3_600_000, "IDEMPOTENCY_TTL_HOURS defaults to 24");
        let age = |app: &TestApp| {
            let db = app.state.db.clone();
            let key = key.clone();
            async move {
                on_db!(&db, pool => sqlx::query(
                    "update idempotency_keys set created_at = created_at - 90000000, expires_at = $2 where key = $1")
                    .bind(&key).bind(now_ms() - 1).execute(pool).await.map(|_| ())).unwrap();
            }
        };
        age(&app).await;
        let docs = my_docs(&app, &anna).await;
        let again = command(&app, Some(&anna), "/folders", Some(&key), &body).await;
        assert_eq!((again.status, again.replayed), (StatusCode::CREATED, None), "an expired key is new");
        assert_eq!(my_docs(&app, &anna).await, docs + 1);
        assert_eq!(command(&app, Some(&anna), "/folders", Some(&key), &body).await.replayed.as_deref(), Some("true"));

        let rows = key_rows(&app).await;
        assert_eq!(backend::idempotency::purge_expired(&app.state.db).await.unwrap(), 0);
        age(&app).await;
        assert_eq!(backend::idempotency::purge_expired(&app.state.db).await.unwrap(), 1);
        assert_eq!(key_rows(&app).await, rows - 1);
    }

    async fn reads_that_mark_something_record_it_once_without_a_key(app) {
        let admin = app.token(ADMIN).await;
        let john = app.token(JOHN).await;
        let (_, published) = json_of(app.post_json("/admin/notifications", Some(&admin),
            &json!({ "title": "Read me", "message": "<p>x</p>" })).await).await;
        let (_, update) = json_of(app.post_json("/admin/updates", Some(&admin), &json!({ "name": "Viewed",
            "release": "2.8.0", "preview": "/media/updates/update-1-preview.svg",
            "gallery": ["/media/updates/update-1-1.svg"], "url": "/app/news/15" })).await).await;
        for path in [format!("/push/{}", published["id"]), format!("/updates/{}", update["id"]), "/users/accept-terms".to_string()] {
            let before = events(&app).await;
            let (a, b) = tokio::join!(app.get(&path, Some(&john)), app.get(&path, Some(&john)));
            assert_eq!((a.status(), b.status()), (StatusCode::OK, StatusCode::OK), "{path}");
            assert_eq!(app.get(&path, Some(&john)).await.status(), StatusCode::OK);
            assert!(events(&app).await - before <= 1, "{path}: marked once");
        }
    }

    async fn the_key_is_in_the_api_document(app) {
        let (_, doc) = json_of(app.get("/openapi.json", None).await).await;
        let has_key = |path: &str| doc["paths"][path]["post"]["parameters"].as_array()
            .is_some_and(|ps| ps.iter().any(|p| p["name"] == "Idempotency-Key" && p["in"] == "header"));
        for path in ["/api/folders", "/api/documents/upload", "/api/courses/{id}/register", "/api/admin/notifications", "/api/admin/users"] {
            assert!(has_key(path), "{path}");
        }
        for path in ["/api/users/login", "/api/users/welcome", "/api/users/password-reset"] {
            assert!(!has_key(path), "{path}");
        }
    }
}

/// A repeat that arrives while the first request runs waits for its answer, and gives up with
/// 409 after the request timeout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repeat_waits_for_the_first_answer_sqlite() {
    a_repeat_waits_for_the_first_answer(Engine::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repeat_waits_for_the_first_answer_postgres() {
    a_repeat_waits_for_the_first_answer(Engine::Postgres).await;
}

async fn a_repeat_waits_for_the_first_answer(engine: Engine) {
    let Some(app) = spawn_app_with(engine, |c| c.request_timeout_seconds = 2).await else {
        return;
    };
    let anna = app.token(ANNA).await;
    let anna_id = user_id(&app, &anna).await;
    let body = json!({ "name": "Slow", "type": "my", "parent": null });
    let print = fingerprint(&app, "/folders", &body).await;
    let key = new_key();
    claim_row(&app, "running", &anna_id, &key, &print, now_ms() + 60_000).await;
    let repeat = {
        let (client, url, anna, key, body) = (
            app.client.clone(),
            app.url("/folders"),
            anna.clone(),
            key.clone(),
            body.clone(),
        );
        tokio::spawn(async move {
            Answer::of(
                client
                    .post(url)
                    .bearer_auth(anna)
                    .header("Idempotency-Key", key)
                    .json(&body)
                    .send()
                    .await
                    .unwrap(),
            )
            .await
        })
    };
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    on_db!(&app.state.db, pool => sqlx::query(
        "update idempotency_keys set status = 201, content_type = 'application/json', body = $1, completed_at = $2 where id = 'running'")
        .bind(br#"{"id":"first"}"#.to_vec()).bind(now_ms()).execute(pool).await.map(|_| ())).unwrap();
    let answer = repeat.await.unwrap();
    assert_eq!(
        (answer.status, answer.replayed.as_deref(), answer.body),
        (StatusCode::CREATED, Some("true"), json!({ "id": "first" }))
    );

    let key = new_key();
    claim_row(&app, "stuck", &anna_id, &key, &print, now_ms() + 60_000).await;
    let docs = my_docs(&app, &anna).await;
    let answer = command(&app, Some(&anna), "/folders", Some(&key), &body).await;
    assert_eq!(
        (answer.status, answer.body["message"].as_str()),
        (StatusCode::CONFLICT, Some(IN_PROGRESS))
    );
    assert_eq!(my_docs(&app, &anna).await, docs);
}

/// Past `IDEMPOTENCY_KEYS_PER_HOUR` new keys a user is refused (429); repeats still answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn new_keys_per_user_and_hour_are_bounded() {
    let app = spawn_app_with(Engine::Sqlite, |c| {
        c.idempotency_keys_per_hour = 2;
        c.idempotency_ttl_hours = 48;
    })
    .await
    .expect("app");
    let anna = app.token(ANNA).await;
    let body = |name: &str| json!({ "name": name, "type": "my", "parent": null });
    let first = new_key();
    assert_eq!(
        command(&app, Some(&anna), "/folders", Some(&first), &body("A"))
            .await
            .status,
        StatusCode::CREATED
    );
    assert_eq!(
        command(&app, Some(&anna), "/folders", Some(&new_key()), &body("B"))
            .await
            .status,
        StatusCode::CREATED
    );
    let refused = command(&app, Some(&anna), "/folders", Some(&new_key()), &body("C")).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        command(&app, Some(&anna), "/folders", Some(&first), &body("A"))
            .await
            .replayed
            .as_deref(),
        Some("true")
    );
    let john = app.token(JOHN).await;
    assert_eq!(
        command(&app, Some(&john), "/folders", Some(&new_key()), &body("J"))
            .await
            .status,
        StatusCode::CREATED
    );
    let kept_for = scalar(
        &app,
        &format!("select expires_at - created_at from idempotency_keys where key = '{first}'"),
    )
    .await;
    assert_eq!(kept_for, 48 * 3_600_000, "IDEMPOTENCY_TTL_HOURS");
}
