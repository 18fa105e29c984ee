//! An item's history by role and in pages (`GET /api/documents/{id}/history`): auditors and the
//! owner read every line; anyone else the item's own facts, shares made to them and their own
//! actions, with folders they cannot see named 'a private folder'. Pages walk the stream by
//! its sequence, newest first, each entry exactly once while new events arrive.

use std::collections::HashSet;

use events::documents::ITEM_TYPE;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::both_dbs;
use crate::documents::{new_file, new_folder, post};
use crate::helpers::{json_of, TestApp};

const SURGEON: &str = "dr.who@clinic.example";
const PRIVATE_NAME: &str = "Salaries 2027";

async fn history(app: &TestApp, token: &str, id: &str, query: &str) -> (StatusCode, Value) {
    json_of(
        app.get(&format!("/documents/{id}/history{query}"), Some(token))
            .await,
    )
    .await
}

fn entries(page: &Value) -> &Vec<Value> {
    page["entries"].as_array().expect("entries")
}

async fn csv(app: &TestApp, token: &str, id: &str) -> (StatusCode, String) {
    let res = app
        .get(&format!("/documents/{id}/history.csv"), Some(token))
        .await;
    (res.status(), res.text().await.unwrap())
}

both_dbs! {
    async fn a_recipient_reads_only_what_is_theirs_in_a_history(app) {
        let anna = app.token(ANNA).await;
        let john = app.token(JOHN).await;
        let marco = app.token(MARCO).await;
        let auditor = app.token(AUDITOR).await;
        // Uploaded into a private folder, then moved into a folder shared with John.
        let private = new_folder(&app, &anna, PRIVATE_NAME, None).await;
        let shared = new_folder(&app, &anna, "Shared work", None).await;
        let (status, body) = post(&app, &anna, "/folders/share", json!({ "email": JOHN, "folder": shared })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let file = new_file(&app, &anna, "Board report", Some(&private)).await;
        let (status, body) = post(&app, &anna, "/documents/move", json!({ "folder": shared, "file": file })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        for (path, email) in [("/documents/share", JOHN), ("/documents/share", MARCO), ("/documents/external-share", SURGEON)] {
            let (status, body) = post(&app, &anna, path, json!({ "email": email, "file": file })).await;
            assert!(status.is_success(), "{path} {email}: {body}");
        }
        for (token, times) in [(&marco, 2), (&john, 1)] {
            for _ in 0..times {
                let res = app.get(&format!("/documents/{file}/file"), Some(token)).await;
                assert_eq!(res.status(), StatusCode::OK);
            }
        }

        // John: the item's facts, his share, his own read; nobody else's.
        let (status, page) = history(&app, &john, &file, "").await;
        assert_eq!(status, StatusCode::OK, "{page}");
        let text = page.to_string();
        for secret in [MARCO, SURGEON, PRIVATE_NAME, "Marco Bianchi"] {
            assert!(!text.contains(secret), "John's history shows '{secret}': {page}");
        }
        let actions: Vec<&str> = entries(&page).iter().map(|e| e["action"].as_str().unwrap()).collect();
        assert_eq!(actions, ["opened", "shared", "moved", "uploaded"], "{page}");
        assert_eq!(entries(&page)[0]["actor_email"], JOHN);
        assert_eq!(entries(&page)[1]["to"], "John Miller");
        assert_eq!(entries(&page)[2]["detail"], "Moved from 'a private folder' to 'Shared work'");
        assert_eq!(entries(&page)[3]["to"], "a private folder");
        assert_eq!(page["next"], Value::Null);
        // His own reads only, counted by the read model.
        assert_eq!(page["item"]["reads"]["opens"], 1, "{page}");
        assert_eq!(page["item"]["reads"]["readers"], 1, "{page}");

        // The owner and the auditor: every line.
        for token in [&anna, &auditor] {
            let (status, page) = history(&app, token, &file, "").await;
            assert_eq!(status, StatusCode::OK, "{page}");
            let text = page.to_string();
            for fact in [MARCO, SURGEON, PRIVATE_NAME, JOHN] {
                assert!(text.contains(fact), "'{fact}' missing: {page}");
            }
            assert_eq!(entries(&page).len(), 8, "{page}");
            assert_eq!(page["item"]["reads"]["opens"], 3, "{page}");
            assert_eq!(page["item"]["reads"]["readers"], 2, "{page}");
            assert!(page["item"]["reads"]["last_at"].as_i64().is_some(), "{page}");
        }

        // The CSV: the auditor's alone, with every line.
        let (status, text) = csv(&app, &auditor, &file).await;
        assert_eq!(status, StatusCode::OK);
        for fact in [MARCO, SURGEON, PRIVATE_NAME] {
            assert!(text.contains(fact), "'{fact}' missing from the CSV: {text}");
        }
        assert_eq!(text.lines().count(), 9, "{text}");
        for token in [&john, &marco] {
            let (status, text) = csv(&app, token, &file).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{text}");
            assert!(!text.contains(SURGEON));
        }

        // The external shares: the owner and the auditor see the recipient; the colleagues it
        // is shared with see none of them (their own, which they have not made).
        for token in [&anna, &auditor] {
            let (status, body) = json_of(app.get(&format!("/documents/{file}/shares"), Some(token)).await).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            assert_eq!(body[0]["recipient"], SURGEON, "{body}");
        }
        for token in [&john, &marco] {
            let (status, body) = json_of(app.get(&format!("/documents/{file}/shares"), Some(token)).await).await;
            assert_eq!((status, body.clone()), (StatusCode::OK, json!([])), "{body}");
            let (_, sent) = json_of(app.get("/documents/shares", Some(token)).await).await;
            assert!(!sent.to_string().contains(SURGEON), "{sent}");
        }

        // Who could see it: the auditor's and the owner's, never a recipient's.
        let now = (chrono::Utc::now() + chrono::Duration::seconds(1)).to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        let at = format!("/items/{file}/access-as-of?at={now}");
        for token in [&anna, &auditor] {
            let (status, body) = json_of(app.get(&at, Some(token)).await).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            assert!(body.to_string().contains(MARCO), "{body}");
        }
        let (status, body) = json_of(app.get(&at, Some(&john)).await).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
        assert!(!body.to_string().contains(MARCO));
        // The folder as it was: John sees the folder shared with him as it was, by name only.
        let (status, body) = json_of(app.get(&format!("/folders/{shared}/as-of?at={now}"), Some(&john)).await).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        for secret in [MARCO, SURGEON, PRIVATE_NAME] {
            assert!(!body.to_string().contains(secret), "{body}");
        }

        // Rebuilt from the events, the read counts equal the live ones.
        let report = backend::replay::run(&app.state.db, &app.state.config, &["item_reads".into()]).await.expect("replay");
        assert!(report.differences.is_empty(), "{:?}", report.differences);
        assert!(report.rows_compared > 0);
    }

    async fn pages_of_200_walk_10000_events_exactly_once_while_more_arrive(app) {
        let anna = app.token(ANNA).await;
        let john = app.token(JOHN).await;
        let auditor = app.token(AUDITOR).await;
        let file = new_file(&app, &anna, "Catalogue", None).await;
        let (status, body) = post(&app, &anna, "/documents/share", json!({ "email": JOHN, "file": file })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let anna_id = backend::auth::User::find_by_email(&app.state.db, ANNA).await.unwrap().unwrap().id;
        let (last, version): (i64, String) = projections::on_db!(&app.state.db, pool => sqlx::query_as(
            "select sequence, event_version from events where aggregate_type = $1 and aggregate_id = $2
              order by sequence desc limit 1")
            .bind(ITEM_TYPE).bind(&file).fetch_one(pool).await).unwrap();

        // 10,000 opens by the owner, appended as the open command appends them; each recorded
        // at its own millisecond (far in the past) so every entry can be told apart.
        const OPENS: i64 = 10_000;
        const EPOCH: i64 = 100_000_000_000;
        let payload = json!({ "Opened": { "by": anna_id } }).to_string();
        let metadata = json!({ "user_id": anna_id }).to_string();
        let insert = |payload_type: &str| format!(
            "with recursive n(i) as (select cast($1 as bigint) union all select i + 1 from n where i < $2)
             insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata, recorded_at)
             select $3, $4, i, 'Opened', $5, {payload_type}, {}, $8 + i from n",
            payload_type.replace("$6", "$7"));
        match &app.state.db {
            projections::Db::Sqlite { pool, .. } => sqlx::query(&insert("$6"))
                .bind(last + 1).bind(last + OPENS).bind(ITEM_TYPE).bind(&file).bind(&version).bind(&payload).bind(&metadata).bind(EPOCH)
                .execute(pool).await.unwrap().rows_affected(),
            projections::Db::Postgres { pool } => sqlx::query(&insert("cast($6 as json)"))
                .bind(last + 1).bind(last + OPENS).bind(ITEM_TYPE).bind(&file).bind(&version).bind(&payload).bind(&metadata).bind(EPOCH)
                .execute(pool).await.unwrap().rows_affected(),
        };
        let total = (last + OPENS) as usize;

        // Walk the pages; John opens the file while the walk goes on.
        let mut seen: Vec<i64> = Vec::new();
        let mut before: Option<String> = None;
        let mut pages = 0;
        loop {
            let query = match &before {
                None => "?limit=200".to_string(),
                Some(cursor) => format!("?limit=200&before={cursor}"),
            };
            let (status, page) = history(&app, &anna, &file, &query).await;
            assert_eq!(status, StatusCode::OK, "{page}");
            let got = entries(&page);
            assert!(got.len() <= 200);
            seen.extend(got.iter().map(|e| e["at"].as_i64().unwrap()));
            pages += 1;
            if pages % 10 == 1 {
                let res = app.get(&format!("/documents/{file}/file"), Some(&john)).await;
                assert_eq!(res.status(), StatusCode::OK);
            }
            match page["next"].as_str() {
                Some(cursor) => before = Some(cursor.to_string()),
                None => break,
            }
        }
        assert_eq!(seen.len(), total, "every entry of the stream as it was when the walk began");
        assert_eq!(pages, total.div_ceil(200));
        let opens: Vec<i64> = seen.iter().copied().filter(|at| (EPOCH..EPOCH + 1_000_000).contains(at)).collect();
        let distinct: HashSet<i64> = opens.iter().copied().collect();
        assert_eq!(distinct.len(), OPENS as usize, "each of the 10,000 opens exactly once");
        let expected: HashSet<i64> = ((last + 1)..=(last + OPENS)).map(|i| EPOCH + i).collect();
        assert_eq!(distinct, expected);
        assert!(opens.windows(2).all(|w| w[0] > w[1]), "newest first");

        // The opens made during the walk head the next walk.
        let (_, page) = history(&app, &anna, &file, "?limit=5").await;
        let newest: Vec<(&str, &str)> = entries(&page).iter()
            .map(|e| (e["action"].as_str().unwrap(), e["actor_email"].as_str().unwrap())).collect();
        assert!(newest.iter().take(3).all(|n| *n == ("opened", JOHN)), "{page}");
        assert!(page["next"].is_string());

        // John is told of his own opens, his share and the upload, never the owner's 10,000.
        let (status, page) = history(&app, &john, &file, "").await;
        assert_eq!(status, StatusCode::OK);
        let told = entries(&page);
        assert!(told.iter().all(|e| e["actor_email"] != ANNA || e["action"] == "uploaded" || e["action"] == "shared"), "{page}");
        assert_eq!(told.len(), 2 + pages.div_ceil(10), "{page}");
        assert_eq!(page["next"], Value::Null);

        // The auditor's CSV streams every entry.
        let (status, text) = csv(&app, &auditor, &file).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(text.lines().count(), 1 + total + pages.div_ceil(10), "the header and every entry");
    }

    async fn bad_pages_are_refused_with_a_message(app) {
        let anna = app.token(ANNA).await;
        let file = new_file(&app, &anna, "Catalogue", None).await;
        for query in ["?limit=0", "?limit=201", "?limit=-5"] {
            let (status, body) = history(&app, &anna, &file, query).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {body}");
            assert_eq!(body["message"], "'limit' must be between 1 and 200", "{query}");
        }
        let (status, body) = history(&app, &anna, &file, "?limit=ten").await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()), "{body}");
        for query in ["?before=garbage", "?before=", "?before=0"] {
            let (status, body) = history(&app, &anna, &file, query).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {body}");
            assert_eq!(body["message"], "'before' is not a cursor this server gave", "{query}");
        }
        // One entry per page: the cursor leads to the next, and the last has none.
        let (_, first) = history(&app, &anna, &file, "?limit=1").await;
        assert_eq!(entries(&first).len(), 1);
        assert_eq!(first["next"], Value::Null, "{first}");
        let (status, body) = history(&app, &anna, &uuid::Uuid::new_v4().to_string(), "").await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    }
}
