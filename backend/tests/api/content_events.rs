//! The content import as a producer of events, and the console's news lifecycle: each import
//! records per entity `Created`, `Changed` or `Removed` with the operator as actor, the tables
//! are built from those events (equal to a replay), and console news reach reps only while
//! released, unexpired and not withdrawn.

use std::path::{Path, PathBuf};

use backend::content::{import_as, wait_for};
use projections::{now_ms, on_db};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::both_dbs;
use crate::helpers::{copy_dir, TestApp};

const PUBLISHER: &str = "publisher@example.com";
const APPROVER: &str = "approver@example.com";

fn repo_content() -> PathBuf {
    concat!(env!("CARGO_MANIFEST_DIR"), "/../content").into()
}

fn edit_json(path: &Path, edit: impl FnOnce(&mut Value)) {
    let mut value: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json");
    edit(&mut value);
    std::fs::write(path, serde_json::to_string(&value).expect("ser")).expect("write");
}

/// The event types and actors recorded on one entity's stream, oldest first.
async fn stream_of(app: &TestApp, id: &str) -> Vec<(String, String)> {
    let rows: Vec<(String, String)> = on_db!(&app.state.db, pool => sqlx::query_as(
        "select event_type, cast(metadata as text) from events
         where aggregate_type = 'content_entity' and aggregate_id = $1 order by sequence")
        .bind(id).fetch_all(pool).await)
    .expect("events");
    rows.into_iter()
        .map(|(t, m)| {
            let m: Value = serde_json::from_str(&m).expect("metadata");
            (t, m["user_id"].as_str().unwrap_or_default().to_string())
        })
        .collect()
}

async fn content_events(app: &TestApp) -> i64 {
    on_db!(&app.state.db, pool => sqlx::query_scalar::<_, i64>(
        "select count(*) from events where aggregate_type = 'content_entity'")
        .fetch_one(pool).await)
    .expect("count")
}

async fn get(app: &TestApp, token: &str, path: &str) -> (StatusCode, Value) {
    let res = app.get(path, Some(token)).await;
    let status = res.status();
    (status, res.json().await.unwrap_or(Value::Null))
}

async fn post(app: &TestApp, token: &str, path: &str, body: Value) -> (StatusCode, Value) {
    let res = app.post_json(path, Some(token), &body).await;
    let status = res.status();
    (status, res.json().await.unwrap_or(Value::Null))
}

async fn replay_is_equal(app: &TestApp) {
    let report = backend::replay::run(&app.state.db, &app.state.config, &["content".into()])
        .await
        .expect("replay");
    assert!(report.differences.is_empty(), "{:?}", report.differences);
    assert!(report.rows_compared > 0);
}

both_dbs! {
    async fn an_import_records_a_change_and_a_removal_with_the_operator(app) {
        let anna = app.token(crate::helpers::ANNA).await;
        // The first start recorded every entity of the demo folder.
        assert_eq!(stream_of(&app, "products:162").await, vec![("Created".to_string(), "operator:first-start".to_string())]);
        let before = content_events(&app).await;

        let tmp = tempfile::tempdir().expect("tmp");
        let dir = tmp.path().join("content");
        copy_dir(&repo_content(), &dir);
        edit_json(&dir.join("catalogue/products.json"), |v| {
            for p in v.as_array_mut().expect("array") {
                if p["id"] == 162 {
                    p["description"] = json!("<p>Revised for 2026</p>");
                }
            }
        });
        let report = import_as(&app.state.db, &dir, "operator:maria").await.expect("import");
        assert_eq!(report.recorded, 1, "{report}");
        assert!(wait_for(&app.state.projector, &report).await);
        assert_eq!(content_events(&app).await, before + 1);
        assert_eq!(stream_of(&app, "products:162").await[1], ("Changed".to_string(), "operator:maria".to_string()));
        let (status, details) = get(&app, &anna, "/product/162/details").await;
        assert_eq!(status, StatusCode::OK);
        assert!(details.to_string().contains("Revised for 2026"), "{details}");

        // The same folder again records nothing.
        let again = import_as(&app.state.db, &dir, "operator:maria").await.expect("import");
        assert_eq!(again.recorded, 0);
        assert_eq!(content_events(&app).await, before + 1);

        // Removed: the product, its component and the link to it.
        edit_json(&dir.join("catalogue/products.json"), |v| {
            let list = v.as_array_mut().expect("array");
            list.retain(|p| p["id"] != 162);
            for p in list.iter_mut() {
                if let Some(related) = p["relatedProducts"]["products"].as_array_mut() {
                    related.retain(|r| r["id"] != 162);
                }
            }
        });
        edit_json(&dir.join("catalogue/components.json"), |v| {
            v.as_array_mut().expect("array").retain(|c| c["parent_id"] != 162);
        });
        let removed = import_as(&app.state.db, &dir, "operator:luca").await.expect("import");
        assert!(wait_for(&app.state.projector, &removed).await);
        let products = removed.tables.iter().find(|t| t.table == "catalogue_products").expect("products");
        assert_eq!(products.deleted, 1);
        assert_eq!(stream_of(&app, "products:162").await.last().cloned(), Some(("Removed".to_string(), "operator:luca".to_string())));
        assert_eq!(get(&app, &anna, "/product/162/details").await.0, StatusCode::NOT_FOUND);

        // Open apps were told which products changed: broadcasts, one row each for everyone.
        let feed: Vec<String> = on_db!(&app.state.db, pool => sqlx::query_scalar(
            "select payload from user_feed where kind = 'content_changed' and user_id = $1 order by feed_position")
            .bind(projections::feed::BROADCAST).fetch_all(pool).await).expect("feed");
        assert!(feed.iter().any(|p| p.contains("\"products\"") && p.contains("\"162\"")), "{feed:?}");
        let per_user: i64 = on_db!(&app.state.db, pool => sqlx::query_scalar(
            "select count(*) from user_feed where kind = 'content_changed' and user_id <> $1")
            .bind(projections::feed::BROADCAST).fetch_one(pool).await).expect("count");
        assert_eq!(per_user, 0);

        replay_is_equal(&app).await;
    }

    async fn news_go_through_review_and_reach_reps_only_when_released(app) {
        let anna = app.token(crate::helpers::ANNA).await;
        let publisher = app.token(PUBLISHER).await;
        let approver = app.token(APPROVER).await;
        let body = json!({"title": "New shoulder course", "category": "events",
            "body_html": "<p>Join us<script>x()</script></p>", "preview": "/media/news/news-1.svg"});

        // Roles.
        assert_eq!(post(&app, &anna, "/admin/news", body.clone()).await.0, StatusCode::FORBIDDEN);
        assert_eq!(post(&app, &approver, "/admin/news", body.clone()).await.0, StatusCode::FORBIDDEN);
        assert_eq!(post(&app, &publisher, "/admin/news", json!({"title": " ", "category": "events", "body_html": "<p>x</p>"})).await.0, StatusCode::BAD_REQUEST);

        let (status, created) = post(&app, &publisher, "/admin/news", body.clone()).await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        assert_eq!(created["status"], "draft");
        assert_eq!(created["version"], 1);
        let id = created["id"].as_i64().expect("id");
        assert!(id >= 100_000);
        assert_eq!(get(&app, &anna, &format!("/news/{id}")).await.0, StatusCode::NOT_FOUND);

        // Only a version in review can be approved; only approvers approve.
        assert_eq!(post(&app, &approver, &format!("/admin/news/{id}/approve"), json!({})).await.0, StatusCode::CONFLICT);
        let (status, submitted) = post(&app, &publisher, &format!("/admin/news/{id}/submit"), json!({})).await;
        assert_eq!((status, submitted["status"].as_str()), (StatusCode::OK, Some("in_review")));
        assert_eq!(post(&app, &publisher, &format!("/admin/news/{id}/approve"), json!({})).await.0, StatusCode::FORBIDDEN);
        let (status, approved) = post(&app, &approver, &format!("/admin/news/{id}/approve"), json!({"comment": "Fine"})).await;
        assert_eq!((status, approved["status"].as_str()), (StatusCode::OK, Some("released")), "{approved}");

        let (status, shown) = get(&app, &anna, &format!("/news/{id}")).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(shown["title"], "New shoulder course");
        assert!(!shown["description"].as_str().unwrap_or_default().contains("script"), "sanitised");
        let year = shown["date"].as_str().expect("date")[..4].to_string();
        let (_, list) = get(&app, &anna, &format!("/news?year={year}")).await;
        assert!(list["list"].as_array().expect("list").iter().any(|n| n["id"] == id));

        // Withdrawn: gone from the reps' news, and a second withdrawal is refused.
        assert_eq!(post(&app, &publisher, &format!("/admin/news/{id}/withdraw"), json!({"reason": " "})).await.0, StatusCode::BAD_REQUEST);
        let (status, withdrawn) = post(&app, &approver, &format!("/admin/news/{id}/withdraw"), json!({"reason": "Dates changed"})).await;
        assert_eq!((status, withdrawn["status"].as_str()), (StatusCode::OK, Some("withdrawn")));
        assert_eq!(get(&app, &anna, &format!("/news/{id}")).await.0, StatusCode::NOT_FOUND);
        let (_, list) = get(&app, &anna, &format!("/news?year={year}")).await;
        assert!(!list["list"].as_array().expect("list").iter().any(|n| n["id"] == id));
        assert_eq!(post(&app, &approver, &format!("/admin/news/{id}/withdraw"), json!({"reason": "Again"})).await.0, StatusCode::CONFLICT);

        // The console's list, detail and history.
        let auditor = app.token(crate::helpers::AUDITOR).await;
        let (status, listed) = get(&app, &auditor, "/admin/news?status=withdrawn").await;
        assert_eq!(status, StatusCode::OK);
        assert!(listed["items"].as_array().expect("items").iter().any(|n| n["id"] == id));
        assert_eq!(get(&app, &anna, "/admin/news").await.0, StatusCode::FORBIDDEN);
        let (_, detail) = get(&app, &publisher, &format!("/admin/news/{id}")).await;
        assert_eq!(detail["versions"][0]["status"], "released");
        assert_eq!(detail["withdrawn"]["reason"], "Dates changed");
        let (_, history) = get(&app, &auditor, &format!("/admin/news/{id}/history")).await;
        let actions: Vec<&str> = history.as_array().expect("history").iter().filter_map(|h| h["action"].as_str()).collect();
        assert_eq!(actions, ["created", "submitted", "approved", "released", "withdrawn"]);
        assert_eq!(history[2]["detail"], "v1: Fine");

        replay_is_equal(&app).await;
    }

    async fn news_are_released_and_expire_at_their_time_exactly_once(app) {
        let anna = app.token(crate::helpers::ANNA).await;
        let publisher = app.token(PUBLISHER).await;
        let approver = app.token(APPROVER).await;
        let hour = 3_600_000;
        let now = now_ms();
        let (status, created) = post(&app, &publisher, "/admin/news", json!({"title": "Later", "category": "events",
            "body_html": "<p>Soon</p>", "release_at": now + hour, "expires_at": now + 3 * hour})).await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        let id = created["id"].as_i64().expect("id");
        // Expiry before release is refused.
        let (status, refused) = post(&app, &publisher, "/admin/news", json!({"title": "Bad", "category": "events",
            "body_html": "<p>x</p>", "release_at": now + 2 * hour, "expires_at": now + hour})).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(refused["message"], "expires_at must be after release_at and after now.");

        post(&app, &publisher, &format!("/admin/news/{id}/submit"), json!({})).await;
        let (_, approved) = post(&app, &approver, &format!("/admin/news/{id}/approve"), json!({})).await;
        assert_eq!(approved["status"], "approved");
        assert_eq!(get(&app, &anna, &format!("/news/{id}")).await.0, StatusCode::NOT_FOUND);

        let run = backend::catalogue::news_admin::run_due;
        assert_eq!(run(&app.state.db, &app.state.projector, now + hour / 2).await.expect("run"), 0);
        assert_eq!(run(&app.state.db, &app.state.projector, now + 2 * hour).await.expect("run"), 1);
        assert_eq!(get(&app, &anna, &format!("/news/{id}")).await.0, StatusCode::OK);
        // A second node's run at the same time records nothing more.
        run(&app.state.db, &app.state.projector, now + 2 * hour).await.expect("run");
        let released: i64 = on_db!(&app.state.db, pool => sqlx::query_scalar(
            "select count(*) from events where aggregate_type = 'news_item' and aggregate_id = $1 and event_type = 'Released'")
            .bind(id.to_string()).fetch_one(pool).await).expect("count");
        assert_eq!(released, 1);

        assert_eq!(run(&app.state.db, &app.state.projector, now + 4 * hour).await.expect("run"), 1);
        assert_eq!(get(&app, &anna, &format!("/news/{id}")).await.0, StatusCode::NOT_FOUND);
        let (_, detail) = get(&app, &publisher, &format!("/admin/news/{id}")).await;
        assert_eq!(detail["status"], "expired");
        assert_eq!(run(&app.state.db, &app.state.projector, now + 5 * hour).await.expect("run"), 0);
    }
}
