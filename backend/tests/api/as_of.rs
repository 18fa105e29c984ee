//! A folder as of a past time, answered from the temporal tables of the documents read model:
//! equal to what the live folder showed then, reading the folder's own rows only, and only for
//! those who could see it then.

use std::time::Duration;

use projections::documents::temporal;
use projections::Tx;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::both_dbs;
use crate::documents::{list, new_file, new_folder, post};
use crate::helpers::*;

/// (title, kind) of a list, in its order.
fn shown(items: &[Value]) -> Vec<(String, String)> {
    items
        .iter()
        .map(|i| {
            (
                i["title"].as_str().unwrap_or_default().to_string(),
                i["type"]
                    .as_str()
                    .or(i["kind"].as_str())
                    .unwrap_or_default()
                    .to_string(),
            )
        })
        .collect()
}

fn rfc3339(at: chrono::DateTime<chrono::Utc>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

async fn as_of(app: &TestApp, token: &str, folder: &str, at: &str) -> (StatusCode, Value) {
    json_of(
        app.get(&format!("/folders/{folder}/as-of?at={at}"), Some(token))
            .await,
    )
    .await
}

/// Reads the live folder now and returns what it showed with the time it showed it.
async fn live_now(
    app: &TestApp,
    token: &str,
    folder: &str,
    list_type: &str,
) -> (String, Vec<(String, String)>) {
    let items = list(app, token, &format!("/folders/{folder}?type={list_type}")).await;
    let at = rfc3339(chrono::Utc::now());
    // The next change is recorded in a later millisecond.
    tokio::time::sleep(Duration::from_millis(5)).await;
    (at, shown(&items))
}

async fn user_id(app: &TestApp, email: &str) -> String {
    backend::auth::User::find_by_email(&app.state.db, email)
        .await
        .unwrap()
        .unwrap()
        .id
}

fn ms(at: &str) -> i64 {
    chrono::DateTime::parse_from_rfc3339(at)
        .unwrap()
        .timestamp_millis()
}

both_dbs! {
    async fn as_of_at_several_past_times_equals_what_the_live_folder_showed_then(app) {
        let anna = app.token(ANNA).await;
        let auditor = app.token(AUDITOR).await;
        let folder = new_folder(&app, &anna, "Audit trail", None).await;
        let mut seen = vec![live_now(&app, &anna, &folder, "my").await];

        let first = new_file(&app, &anna, "First", Some(&folder)).await;
        let inner = new_folder(&app, &anna, "Inner", Some(&folder)).await;
        seen.push(live_now(&app, &anna, &folder, "my").await);

        assert_eq!(post(&app, &anna, &format!("/folders/{first}"), json!({ "name": "First, renamed" })).await.0, StatusCode::OK);
        let second = new_file(&app, &anna, "Second", Some(&folder)).await;
        seen.push(live_now(&app, &anna, &folder, "my").await);

        assert_eq!(post(&app, &anna, "/documents/move", json!({ "folder": inner, "file": second })).await.0, StatusCode::OK);
        new_file(&app, &anna, "Third", Some(&inner)).await;
        seen.push(live_now(&app, &anna, &folder, "my").await);

        assert_eq!(post(&app, &anna, &format!("/folders/{inner}/delete"), json!({})).await.0, StatusCode::OK);
        seen.push(live_now(&app, &anna, &folder, "my").await);

        for (at, then) in &seen {
            for token in [&anna, &auditor] {
                let (status, body) = as_of(&app, token, &folder, at).await;
                assert_eq!(status, StatusCode::OK, "{at}: {body}");
                assert_eq!(body["name"], "Audit trail");
                let list = body["list"].as_array().unwrap();
                assert_eq!(&shown(list), then, "as of {at}");
                assert!(list.iter().all(|i| i["actions"] == json!([])), "{body}");
            }
        }
        // The children counts of then: Inner held Second and Third before it went.
        let (_, body) = as_of(&app, &auditor, &folder, &seen[3].0).await;
        let inner_then = body["list"].as_array().unwrap().iter().find(|i| i["title"] == "Inner").unwrap().clone();
        assert_eq!(as_of(&app, &auditor, &inner, &seen[3].0).await.1["list"].as_array().unwrap().len(), 2, "{inner_then}");
        // A deleted folder is still there as of before its deletion, and gone after.
        assert_eq!(as_of(&app, &auditor, &inner, &seen[4].0).await.0, StatusCode::NOT_FOUND);

        // Rebuilt from the events, the temporal tables equal the live ones.
        let report = backend::replay::run(&app.state.db, &app.state.config, &["documents".into()]).await.expect("replay");
        assert!(report.differences.is_empty(), "{:?}", report.differences);
    }

    async fn as_of_reads_the_folder_rows_only_whatever_the_other_history(app) {
        let anna = app.token(ANNA).await;
        let john = app.token(JOHN).await;
        let folder = new_folder(&app, &anna, "Small", None).await;
        for name in ["A", "B", "C"] {
            new_file(&app, &anna, name, Some(&folder)).await;
        }
        let (at, then) = live_now(&app, &anna, &folder, "my").await;
        let rows_read = |app: &TestApp, folder: String, at: i64| {
            let db = app.state.db.clone();
            async move {
                let mut tx = Tx::begin(&db).await.unwrap();
                temporal::rows_read_as_of(&mut tx, &folder, at).await.unwrap()
            }
        };
        let before = rows_read(&app, folder.clone(), ms(&at)).await;
        assert_eq!(before, 4, "the folder's own row and its three children");

        // Someone else's history grows: folders, files, renames, moves.
        let mut last = new_folder(&app, &john, "Elsewhere", None).await;
        for i in 0..40 {
            let next = new_folder(&app, &john, &format!("Unrelated {i}"), Some(&last)).await;
            post(&app, &john, &format!("/folders/{next}"), json!({ "name": format!("Renamed {i}") })).await;
            if i % 5 == 0 {
                new_file(&app, &john, &format!("File {i}"), Some(&next)).await;
            }
            if i < 3 {
                last = next;
            }
        }
        let versions: i64 = projections::on_db!(&app.state.db, pool =>
            sqlx::query_scalar("select count(*) from doc_item_versions").fetch_one(pool).await).unwrap();
        assert!(versions > 80, "{versions} versions in all");
        assert_eq!(rows_read(&app, folder.clone(), ms(&at)).await, before);
        assert_eq!(rows_read(&app, folder.clone(), ms(&rfc3339(chrono::Utc::now()))).await, before);
        let (status, body) = as_of(&app, &anna, &folder, &at).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(shown(body["list"].as_array().unwrap()), then);

        // SQLite's plan: the children come from the parent index, never a scan of every version.
        if let projections::Db::Sqlite { pool, .. } = &app.state.db {
            use sqlx::Row;
            let sql = format!("explain query plan {}", temporal::children_as_of_sql());
            let plan: Vec<String> = sqlx::query(&sql).bind(ms(&at)).bind(&folder).fetch_all(pool).await.unwrap()
                .iter().map(|r| r.get::<String, _>("detail")).collect();
            assert!(plan.iter().any(|d| d.contains("USING INDEX doc_item_versions_parent")), "{plan:?}");
            assert!(!plan.iter().any(|d| d.starts_with("SCAN")), "{plan:?}");
        }
    }

    async fn as_of_shows_each_caller_only_what_they_could_see_then(app) {
        let anna = app.token(ANNA).await;
        let john = app.token(JOHN).await;
        let marco = app.token(MARCO).await;
        let auditor = app.token(AUDITOR).await;
        let folder = new_folder(&app, &anna, "Confidential", None).await;
        new_file(&app, &anna, "Before sharing", Some(&folder)).await;
        let sub = new_folder(&app, &anna, "Sub", Some(&folder)).await;
        let (before_share, _) = live_now(&app, &anna, &folder, "my").await;

        let (status, body) = post(&app, &anna, "/folders/share", json!({ "email": JOHN, "folder": folder })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        new_file(&app, &anna, "After sharing", Some(&folder)).await;
        let (after_share, then) = live_now(&app, &john, &folder, "shared").await;

        // Who could see the folder (and what is inside) through a share, then and later.
        let john_id = user_id(&app, JOHN).await;
        let mut tx = Tx::begin(&app.state.db).await.unwrap();
        assert!(temporal::shared_with_as_of(&mut tx, &folder, ms(&before_share)).await.unwrap().is_empty());
        assert_eq!(temporal::shared_with_as_of(&mut tx, &folder, ms(&after_share)).await.unwrap(), vec![john_id.clone()]);
        assert_eq!(temporal::shared_with_as_of(&mut tx, &sub, ms(&after_share)).await.unwrap(), vec![john_id]);
        drop(tx);

        // John: not before it was shared with him, as he saw it after.
        let (status, body) = as_of(&app, &john, &folder, &before_share).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
        assert_eq!(body["message"], "You could not see this folder at that time");
        assert_eq!(as_of(&app, &john, &sub, &before_share).await.0, StatusCode::FORBIDDEN);
        let (status, body) = as_of(&app, &john, &folder, &after_share).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(shown(body["list"].as_array().unwrap()), then);
        assert_eq!(as_of(&app, &john, &sub, &after_share).await.0, StatusCode::OK);

        // The owner and the auditor: any time it existed.
        for token in [&anna, &auditor] {
            let (status, body) = as_of(&app, token, &folder, &before_share).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            assert_eq!(body["list"].as_array().unwrap().len(), 2);
        }
        // The history screen offers the picker to the owner and the auditor only.
        for (token, offered) in [(&anna, true), (&auditor, true), (&john, false)] {
            let (status, body) = json_of(app.get(&format!("/documents/{folder}/history"), Some(token)).await).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            assert_eq!(body["item"]["as_of"], offered, "{body}");
        }

        // Someone it was never shared with: as if it did not exist.
        let (status, body) = as_of(&app, &marco, &folder, &after_share).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{body}");

        // Before it existed, bad times, unknown folders.
        assert_eq!(as_of(&app, &auditor, &folder, "2020-01-01T00:00:00Z").await.1["message"], "The folder did not exist at that time");
        for bad in ["yesterday", "2026-13-01T00:00:00Z", ""] {
            assert_eq!(as_of(&app, &auditor, &folder, bad).await.0, StatusCode::BAD_REQUEST, "{bad}");
        }
        assert_eq!(as_of(&app, &auditor, "no-such-folder", &after_share).await.0, StatusCode::NOT_FOUND);
        assert_eq!(json_of(app.get(&format!("/folders/{folder}/as-of?at={after_share}"), None).await).await.0, StatusCode::UNAUTHORIZED);
    }
}
