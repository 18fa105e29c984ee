//! The auditor's workspace: `GET /api/audit/items` (every item, deleted ones included) and
//! `GET /api/audit/activity` (+ `.csv`), read from the `audit` projection; auditors only.

use std::collections::HashSet;
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::both_dbs;
use crate::documents::{new_file, new_folder, post};
use crate::helpers::*;

/// Now, as RFC 3339; the next change is recorded in a later millisecond.
async fn moment() -> String {
    tokio::time::sleep(Duration::from_millis(5)).await;
    let at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    tokio::time::sleep(Duration::from_millis(5)).await;
    at
}

fn ms(rfc3339: &str) -> i64 {
    chrono::DateTime::parse_from_rfc3339(rfc3339)
        .unwrap()
        .timestamp_millis()
}

/// `value` made safe inside a query string.
fn enc(value: &str) -> String {
    url::form_urlencoded::byte_serialize(value.as_bytes()).collect()
}

async fn items(app: &TestApp, token: &str, query: &str) -> Vec<Value> {
    let (status, body) =
        json_of(app.get(&format!("/audit/items?{query}"), Some(token)).await).await;
    assert_eq!(status, StatusCode::OK, "{query}: {body}");
    body.as_array().cloned().expect("an array")
}

async fn activity(app: &TestApp, token: &str, query: &str) -> Value {
    let (status, body) = json_of(
        app.get(&format!("/audit/activity?{query}"), Some(token))
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{query}: {body}");
    body
}

fn ids(items: &[Value]) -> Vec<String> {
    items
        .iter()
        .map(|i| i["id"].as_str().unwrap().to_string())
        .collect()
}

both_dbs! {
    async fn audit_search_finds_a_deleted_folder_with_its_owner_and_deletion(app) {
        let anna = app.token(ANNA).await;
        let auditor = app.token(AUDITOR).await;
        let anna_id = backend::auth::User::find_by_email(&app.state.db, ANNA).await.unwrap().unwrap().id;

        let t0 = moment().await;
        let folder = new_folder(&app, &anna, "Board Pack Q3", None).await;
        let file = new_file(&app, &anna, "Board Minutes", Some(&folder)).await;
        let kept = new_folder(&app, &anna, "Board Pack Q4", None).await;
        let t1 = moment().await;
        let (status, body) = post(&app, &anna, &format!("/folders/{folder}/delete"), json!({})).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let t2 = moment().await;

        // By name, in any case: the deleted folder is there, marked, with when and by whom.
        let found = items(&app, &auditor, "q=bOaRd%20pack").await;
        assert_eq!(ids(&found), [folder.clone(), kept.clone()], "by name: {found:?}");
        let gone = &found[0];
        assert_eq!(gone["name"], "Board Pack Q3");
        assert_eq!(gone["type"], "folder");
        assert_eq!(gone["space"], "my");
        assert_eq!(gone["deleted"], true);
        let deleted_at = gone["deleted_at"].as_i64().expect("deleted_at");
        assert!(deleted_at >= ms(&t1) && deleted_at <= ms(&t2), "{gone}");
        assert_eq!(gone["owner"]["id"], anna_id.as_str());
        assert_eq!(gone["owner"]["name"], "Anna Rossi");
        assert_eq!(gone["owner"]["email"], ANNA);
        assert_eq!(gone["deleted_by"]["email"], ANNA);
        let live = &found[1];
        assert_eq!(live["deleted"], false);
        assert_eq!(live["deleted_at"], Value::Null);
        assert_eq!(live["deleted_by"], Value::Null);

        // Filters: deleted only, current only, type, owner, dates.
        assert_eq!(ids(&items(&app, &auditor, "q=board&deleted=true").await), [file.as_str(), folder.as_str()]);
        assert_eq!(ids(&items(&app, &auditor, "q=board&deleted=false").await), [kept.as_str()]);
        assert_eq!(ids(&items(&app, &auditor, "q=board&type=file").await), [file.as_str()]);
        assert_eq!(ids(&items(&app, &auditor, "q=board&type=pdf").await), [file.as_str()]);
        assert!(items(&app, &auditor, "q=board&type=xls").await.is_empty());
        assert_eq!(ids(&items(&app, &auditor, "q=board&type=folder").await), [folder.as_str(), kept.as_str()]);
        assert_eq!(items(&app, &auditor, &format!("q=board&owner={}", enc(ANNA))).await.len(), 3);
        assert!(items(&app, &auditor, &format!("q=board&owner={}", enc(JOHN))).await.is_empty());
        assert_eq!(items(&app, &auditor, &format!("q=board&from={}", enc(&t0))).await.len(), 3);
        assert!(items(&app, &auditor, &format!("q=board&to={}", enc(&t0))).await.is_empty());
        assert_eq!(ids(&items(&app, &auditor, &format!("q=board&date=deleted&from={}&to={}", enc(&t1), enc(&t2))).await),
            [file.as_str(), folder.as_str()]);
        assert!(items(&app, &auditor, &format!("q=board&date=deleted&to={}", enc(&t1))).await.is_empty());
        // A bounded answer, paged by offset.
        assert_eq!(ids(&items(&app, &auditor, "q=board&limit=1").await), [file.as_str()]);
        assert_eq!(ids(&items(&app, &auditor, "q=board&limit=1&offset=1").await), [folder.as_str()]);
        // LIKE wildcards are plain characters.
        assert!(items(&app, &auditor, "q=%25").await.is_empty());

        // The US set has no owner.
        let us = items(&app, &auditor, "space=us").await;
        assert!(!us.is_empty(), "the demo's US set");
        assert!(us.iter().all(|i| i["owner"].is_null()), "{us:?}");

        // Its history and CSV stay open to the auditor after the deletion.
        let (status, history) = json_of(app.get(&format!("/documents/{folder}/history"), Some(&auditor)).await).await;
        assert_eq!(status, StatusCode::OK, "{history}");
        assert_eq!(history["entries"][0]["action"], "deleted", "newest first");
        let res = app.get(&format!("/documents/{folder}/history.csv"), Some(&auditor)).await;
        assert_eq!(res.status(), StatusCode::OK);
        assert!(res.text().await.unwrap().contains("Folder deleted with the 1 item inside"));

        // Rebuilt from the events, the audit tables equal the live ones.
        let report = backend::replay::run(&app.state.db, &app.state.config, &["audit".into()]).await.expect("replay");
        assert!(report.differences.is_empty(), "{:?}", report.differences);
        assert!(report.rows_compared > 0);
    }

    async fn audit_calls_are_for_auditors_only(app) {
        let anna = app.token(ANNA).await;
        let admin = app.token(ADMIN).await;
        let auditor = app.token(AUDITOR).await;
        for path in ["/audit/items?q=a", "/audit/activity", "/audit/activity.csv"] {
            for (who, token) in [("rep", &anna), ("admin", &admin)] {
                let (status, body) = json_of(app.get(path, Some(token)).await).await;
                assert_eq!(status, StatusCode::FORBIDDEN, "{who} {path}: {body}");
                assert!(body["message"].as_str().unwrap().starts_with("Only auditors can"), "{body}");
            }
            assert_eq!(app.get(path, None).await.status(), StatusCode::UNAUTHORIZED, "{path}");
            assert_eq!(app.get(path, Some(&auditor)).await.status(), StatusCode::OK, "{path}");
        }
    }

    async fn activity_pages_are_walked_exactly_once_while_events_arrive(app) {
        let anna = app.token(ANNA).await;
        let auditor = app.token(AUDITOR).await;
        let t0 = moment().await;
        let mut made = HashSet::new();
        for n in 0..7 {
            made.insert(new_folder(&app, &anna, &format!("Walk {n}"), None).await);
        }
        let query = format!("user={}&from={}&limit=3", enc(ANNA), enc(&t0));
        let mut seen: Vec<String> = Vec::new();
        let mut before: Option<String> = None;
        let mut pages = 0;
        loop {
            let q = match &before {
                Some(c) => format!("{query}&before={}", enc(c)),
                None => query.clone(),
            };
            let page = activity(&app, &auditor, &q).await;
            pages += 1;
            let entries = page["entries"].as_array().unwrap();
            assert!(entries.len() <= 3, "{page}");
            for e in entries {
                assert_eq!(e["action"], "created", "{e}");
                assert_eq!(e["actor"]["email"], ANNA, "{e}");
                assert_eq!(e["actor"]["name"], "Anna Rossi", "{e}");
                assert_eq!(e["item"]["type"], "folder", "{e}");
                assert!(e["item"]["name"].as_str().unwrap().starts_with("Walk "), "{e}");
                seen.push(e["item"]["id"].as_str().unwrap().to_string());
            }
            // New events arrive between the pages: newer than the walk, they never enter it.
            new_folder(&app, &anna, &format!("Later {pages}"), None).await;
            match page["next"].as_str() {
                Some(next) => before = Some(next.to_string()),
                None => break,
            }
            assert!(pages < 10, "the walk ends");
        }
        assert_eq!(pages, 3);
        assert_eq!(seen.len(), 7, "each entry once: {seen:?}");
        assert_eq!(seen.iter().cloned().collect::<HashSet<_>>(), made);
        // Newest first.
        let first = activity(&app, &auditor, &format!("user={}&from={}", enc(ANNA), enc(&t0))).await;
        let entries = first["entries"].as_array().unwrap();
        assert_eq!(entries.len(), 10, "{first}");
        assert_eq!(first["next"], Value::Null);
        let ats: Vec<i64> = entries.iter().map(|e| e["at"].as_i64().unwrap()).collect();
        assert!(ats.windows(2).all(|w| w[0] >= w[1]), "{ats:?}");
        assert_eq!(entries[0]["item"]["name"], "Later 3");
    }

    async fn activity_filters_by_user_action_and_period_and_exports_csv(app) {
        let anna = app.token(ANNA).await;
        let john = app.token(JOHN).await;
        let auditor = app.token(AUDITOR).await;
        let t0 = moment().await;
        let folder = new_folder(&app, &anna, "Audit Trail", None).await;
        let (status, body) = post(&app, &anna, &format!("/folders/{folder}"), json!({ "name": "Audit Trail 2" })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let t1 = moment().await;
        let (status, body) = post(&app, &anna, "/folders/share", json!({ "email": JOHN, "folder": folder })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        new_folder(&app, &john, "Johns Own", None).await;
        let t2 = moment().await;

        let since = format!("from={}", enc(&t0));
        let all = activity(&app, &auditor, &since).await;
        let actions: Vec<&str> = all["entries"].as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap()).collect();
        assert_eq!(actions, ["created", "shared", "renamed", "created"], "{all}");
        let renamed = &all["entries"][2];
        assert_eq!(renamed["detail"], "Renamed from 'Audit Trail' to 'Audit Trail 2'");
        assert_eq!(renamed["item"]["name"], "Audit Trail 2");
        assert_eq!(renamed["item"]["id"], folder.as_str());

        let by_john = activity(&app, &auditor, &format!("{since}&user={}", enc(JOHN))).await;
        assert_eq!(by_john["entries"].as_array().unwrap().len(), 1, "{by_john}");
        assert_eq!(by_john["entries"][0]["item"]["name"], "Johns Own");
        let shares = activity(&app, &auditor, &format!("{since}&action=shared")).await;
        assert_eq!(shares["entries"].as_array().unwrap().len(), 1, "{shares}");
        assert_eq!(shares["entries"][0]["detail"], "Shared with John Miller");
        let window = activity(&app, &auditor, &format!("from={}&to={}", enc(&t0), enc(&t1))).await;
        let actions: Vec<&str> = window["entries"].as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap()).collect();
        assert_eq!(actions, ["renamed", "created"], "{window}");
        assert!(activity(&app, &auditor, &format!("from={}", enc(&t2))).await["entries"].as_array().unwrap().is_empty());

        // The CSV holds the same entries, newest first.
        let res = app.get(&format!("/audit/activity.csv?{since}"), Some(&auditor)).await;
        assert_eq!(res.status(), StatusCode::OK);
        assert!(res.headers()["content-type"].to_str().unwrap().starts_with("text/csv"));
        let csv = res.text().await.unwrap();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], "at,actor,actor_email,action,item_id,item_type,item,detail");
        assert_eq!(lines.len(), 5, "{csv}");
        assert!(lines[1].contains("\"John Miller\"") && lines[1].contains("\"created\""), "{csv}");
        assert!(lines[3].contains("\"Renamed from 'Audit Trail' to 'Audit Trail 2'\""), "{csv}");
        let res = app.get(&format!("/audit/activity.csv?{since}&action=renamed"), Some(&auditor)).await;
        assert_eq!(res.text().await.unwrap().lines().count(), 2);
        // As a browser asks for it: compressed, and complete.
        let res = app.client.get(app.url("/audit/activity.csv"))
            .bearer_auth(&auditor)
            .header("accept-encoding", "gzip, br")
            .send().await.expect("compressed export");
        assert_eq!(res.status(), StatusCode::OK);
        assert!(res.headers().contains_key("content-encoding"), "{:?}", res.headers());
        let bytes = res.bytes().await.expect("the whole compressed body");
        assert!(!bytes.is_empty());
    }

    async fn audit_calls_refuse_bad_input_with_a_message(app) {
        let auditor = app.token(AUDITOR).await;
        for (query, message) in [
            ("from=yesterday", "'from' must be a date and time in RFC 3339"),
            ("to=2026-13-01T00:00:00Z", "'to' must be a date and time in RFC 3339"),
            ("from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z", "'from' must be before 'to'"),
            ("limit=0", "'limit' must be between 1 and 200"),
            ("limit=201", "'limit' must be between 1 and 200"),
            ("limit=many", "Invalid query"),
            ("before=not-a-cursor", "'before' is not a cursor this server gave"),
            ("before=MTIz", "'before' is not a cursor this server gave"),
            ("user=nobody%40example.com", "No user has the e-mail in 'user'"),
            ("action=eaten", "'action' must be one of created,"),
        ] {
            for path in ["/audit/activity", "/audit/activity.csv"] {
                if path.ends_with(".csv") && (query.starts_with("limit") || query.starts_with("before")) {
                    continue;
                }
                let (status, body) = json_of(app.get(&format!("{path}?{query}"), Some(&auditor)).await).await;
                assert_eq!(status, StatusCode::BAD_REQUEST, "{path}?{query}: {body}");
                assert!(body["message"].as_str().unwrap().starts_with(message), "{path}?{query}: {body}");
            }
        }
        for (query, message) in [
            ("type=zip", "'type' must be folder, file, pdf or xls"),
            ("space=eu", "'space' must be my or us"),
            ("date=born", "'date' must be created, changed or deleted"),
            ("owner=nobody%40example.com", "No user has the e-mail in 'owner'"),
            ("limit=500", "'limit' must be between 1 and 200"),
            ("offset=-1", "'offset' must be between 0 and 10000"),
            ("from=soon", "'from' must be a date and time in RFC 3339"),
            ("deleted=maybe", "Invalid query"),
        ] {
            let (status, body) = json_of(app.get(&format!("/audit/items?{query}"), Some(&auditor)).await).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {body}");
            assert!(body["message"].as_str().unwrap().starts_with(message), "{query}: {body}");
        }
    }
}
