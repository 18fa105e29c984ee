//! The company's documents in the documents area, on both databases: a released US library
//! document is a US item, a new version replaces it in place, and a withdrawal reaches the item,
//! every copy of it, its shares and its external links; running either twice changes nothing.

use backend::documents::company::{CompanyFile, Withdrawal, WithdrawnState};
use backend::error::Replacement;
use events::documents::{FileFormat, Labels, UserRef};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::both_dbs;
use crate::documents::{id_of, list, post, PDF};
use crate::helpers::{json_of, TestApp};

const PUBLISHER: &str = "publisher@example.com";
const V2: &[u8] = b"%PDF-1.7\n% the second edition\ntrailer << >>\n%%EOF\n";

async fn user_id(app: &TestApp, email: &str) -> String {
    backend::auth::User::find_by_email(&app.state.db, email)
        .await
        .expect("users")
        .expect("demo user")
        .id
}

async fn publisher(app: &TestApp) -> UserRef {
    UserRef {
        id: user_id(app, PUBLISHER).await,
        name: "Paula Publisher".into(),
    }
}

/// Stores `bytes` as the blob storage would for the library, and describes them as a version.
async fn company_file(
    app: &TestApp,
    library_id: i64,
    version: u32,
    title: &str,
    bytes: &[u8],
) -> CompanyFile {
    let mut writer = app.state.documents.storage.writer();
    writer.write(bytes).await.expect("store");
    let stored = writer.finish().await.expect("stored");
    CompanyFile {
        library_id,
        version,
        title: title.into(),
        file_name: format!("{title}.pdf"),
        blob: stored.blob,
        size: stored.size,
        sha256: Some(stored.sha256),
        format: FileFormat::Pdf,
        labels: Labels::default(),
        subtitle: None,
    }
}

async fn release(app: &TestApp, file: CompanyFile) -> String {
    let by = publisher(app).await;
    app.state
        .documents
        .release_company_file(&by, file)
        .await
        .expect("released")
}

fn find<'a>(items: &'a [Value], id: &str) -> Option<&'a Value> {
    items.iter().find(|i| i["id"] == id)
}

async fn bytes_of(app: &TestApp, token: &str, id: &str) -> (StatusCode, Vec<u8>) {
    let res = app.get(&format!("/documents/{id}/file"), Some(token)).await;
    let status = res.status();
    (status, res.bytes().await.expect("body").to_vec())
}

async fn events_recorded(app: &TestApp) -> i64 {
    projections::on_db!(&app.state.db, pool => sqlx::query_scalar("select count(*) from events")
        .fetch_one(pool).await)
    .expect("count")
}

async fn history_actions(app: &TestApp, token: &str, id: &str) -> Vec<String> {
    let (status, body) = json_of(
        app.get(&format!("/documents/{id}/history"), Some(token))
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| e["action"].as_str().unwrap_or_default().to_string())
        .collect()
}

async fn replay_equals_live(app: &TestApp) {
    let report = backend::replay::run(&app.state.db, &app.state.config, &["documents".into()])
        .await
        .expect("replay");
    assert!(report.differences.is_empty(), "{:?}", report.differences);
}

fn replacement() -> Replacement {
    Replacement {
        id: 100_003,
        title: "Revision guide 2027".into(),
        url: "/api/library/100003/file".into(),
    }
}

both_dbs! {
    async fn a_released_us_document_is_a_us_item_and_a_new_version_replaces_it_in_place(app) {
        let john = app.token(JOHN).await;
        let anna = app.token(ANNA).await;
        let v1 = company_file(&app, 100_001, 1, "Revision guide", PDF).await;
        let id = release(&app, v1.clone()).await;

        // In the US set for a US user, unread; not for others.
        let us = list(&app, &john, "/usadocs").await;
        let item = find(&us, &id).expect("the US item").clone();
        assert_eq!((item["title"].as_str(), item["unread"].as_bool()), (Some("Revision guide"), Some(true)));
        assert!(item["withdrawn"].is_null());
        assert_eq!(json_of(app.get("/usadocs", Some(&anna)).await).await.0, StatusCode::FORBIDDEN);
        assert!(find(&list(&app, &anna, "/documents/shared").await, &id).is_none());
        assert_eq!(bytes_of(&app, &anna, &id).await.0, StatusCode::NOT_FOUND);

        // Released again (a re-run after a crash): the same item, nothing recorded.
        let before = events_recorded(&app).await;
        assert_eq!(release(&app, v1).await, id);
        assert_eq!(events_recorded(&app).await, before);

        // John reads it and passes it on to Anna.
        assert_eq!(bytes_of(&app, &john, &id).await, (StatusCode::OK, PDF.to_vec()));
        assert_eq!(find(&list(&app, &john, "/usadocs").await, &id).unwrap()["unread"], false);
        let (status, body) = post(&app, &john, "/documents/storage-share", json!({ "email": ANNA, "file": id })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(bytes_of(&app, &anna, &id).await.0, StatusCode::OK);
        assert_eq!(find(&list(&app, &anna, "/documents/shared").await, &id).unwrap()["unread"], false);

        // A new version: the same item with the new title and bytes, unread again for both.
        let v2 = company_file(&app, 100_001, 2, "Revision guide 2027", V2).await;
        assert_eq!(release(&app, v2.clone()).await, id);
        let mine = find(&list(&app, &john, "/usadocs").await, &id).unwrap().clone();
        assert_eq!((mine["title"].as_str(), mine["unread"].as_bool(), mine["size"].as_i64()),
            (Some("Revision guide 2027"), Some(true), Some(V2.len() as i64)));
        let hers = find(&list(&app, &anna, "/documents/shared").await, &id).unwrap().clone();
        assert_eq!((hers["title"].as_str(), hers["unread"].as_bool()), (Some("Revision guide 2027"), Some(true)));
        assert_eq!(bytes_of(&app, &john, &id).await, (StatusCode::OK, V2.to_vec()));
        assert!(history_actions(&app, &john, &id).await.contains(&"file_replaced".to_string()));

        // The same version again, or an older one arriving late, changes nothing.
        let before = events_recorded(&app).await;
        assert_eq!(release(&app, v2).await, id);
        let late = company_file(&app, 100_001, 1, "Revision guide", PDF).await;
        assert_eq!(release(&app, late).await, id);
        assert_eq!(events_recorded(&app).await, before);
        assert_eq!(bytes_of(&app, &john, &id).await, (StatusCode::OK, V2.to_vec()));

        replay_equals_live(&app).await;
    }

    async fn a_withdrawal_reaches_the_item_every_copy_its_shares_and_its_links(app) {
        let john = app.token(JOHN).await;
        let anna = app.token(ANNA).await;
        let marco = app.token(MARCO).await;
        let id = release(&app, company_file(&app, 100_002, 1, "Knee implant IFU", PDF).await).await;

        // John saves a copy and shares it with Marco, who saves a copy of that; John passes the
        // US item to Anna and sends it outside.
        let (status, copy) = post(&app, &john, "/documents/favorite", json!({ "file": id })).await;
        assert_eq!(status, StatusCode::CREATED, "{copy}");
        let copy = id_of(&copy);
        let (status, body) = post(&app, &john, "/documents/share", json!({ "email": MARCO, "file": copy })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let (status, copy2) = post(&app, &marco, "/documents/favorite", json!({ "file": copy })).await;
        assert_eq!(status, StatusCode::CREATED, "{copy2}");
        let copy2 = id_of(&copy2);
        let (status, body) = post(&app, &john, "/documents/storage-share", json!({ "email": ANNA, "file": id })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let (status, body) = post(&app, &john, "/documents/external-share", json!({ "email": "surgeon@clinic.example", "file": id })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let token = last_link_token(&app).await;
        assert_eq!(viewer_file(&app, &token).await.0, StatusCode::OK);

        let withdrawal = || Withdrawal {
            state: WithdrawnState::Withdrawn,
            reason: "Superseded by the 2027 edition".into(),
            at: 1_800_000_000_000,
            replacement: Some(replacement()),
        };
        let publisher = user_id(&app, PUBLISHER).await;
        let reached = app.state.documents.withdraw_company_file(&publisher, 100_002, withdrawal()).await.expect("withdrawn");
        let mut items = reached.items.clone();
        items.sort();
        let mut expected = vec![id.clone(), copy.clone(), copy2.clone()];
        expected.sort();
        assert_eq!(items, expected);
        for who in [JOHN, ANNA, MARCO] {
            assert!(reached.holders.contains(&user_id(&app, who).await), "{who} held it: {reached:?}");
        }

        // Gone from the US set and from every Shared with me.
        assert!(find(&list(&app, &john, "/usadocs").await, &id).is_none());
        assert!(find(&list(&app, &anna, "/documents/shared").await, &id).is_none());
        assert!(find(&list(&app, &marco, "/documents/shared").await, &copy).is_none());
        // Copies stay in their owners' My Docs, marked, with nothing to do.
        for (token, copy) in [(&john, &copy), (&marco, &copy2)] {
            let mine = list(&app, token, "/documents/my").await;
            let item = find(&mine, copy).expect("the copy stays").clone();
            assert_eq!(item["withdrawn"]["state"], "withdrawn");
            assert_eq!(item["withdrawn"]["reason"], "Superseded by the 2027 edition");
            assert_eq!(item["withdrawn"]["replacement"]["title"], "Revision guide 2027");
            assert_eq!(item["actions"], json!([]));
        }

        // Every file route answers why, never a byte.
        for (token, item) in [(&john, &copy), (&john, &id), (&anna, &id), (&marco, &copy2)] {
            for suffix in ["", "?download=1"] {
                let res = app.get(&format!("/documents/{item}/file{suffix}"), Some(token)).await;
                assert_eq!(res.headers().get("cache-control").and_then(|v| v.to_str().ok()), Some("no-store"));
                let (status, body) = json_of(res).await;
                assert_eq!(status, StatusCode::GONE, "{body}");
                assert_eq!(body["message"], "This document was withdrawn.");
                assert_eq!(body["state"], "withdrawn");
                assert_eq!(body["reason"], "Superseded by the 2027 edition");
                assert_eq!(body["replacement"]["id"], 100_003);
            }
        }
        let (status, body) = viewer_file(&app, &token).await;
        assert_eq!(status, StatusCode::GONE);
        let body: Value = serde_json::from_slice(&body).expect("json");
        assert_eq!(body["replacement"], "Revision guide 2027", "{body}");

        // Every command on them is refused with the same message.
        let refusals = [
            (&john, format!("/folders/{copy}"), json!({ "name": "Mine now" })),
            (&john, "/documents/move".to_string(), json!({ "file": copy, "folder": null })),
            (&john, "/documents/share".to_string(), json!({ "email": ANNA, "file": copy })),
            (&john, "/documents/external-share".to_string(), json!({ "email": "x@clinic.example", "file": copy })),
            (&john, "/documents/favorite".to_string(), json!({ "file": id })),
            (&john, "/documents/storage-share".to_string(), json!({ "email": MARCO, "file": id })),
            (&anna, "/documents/favorite".to_string(), json!({ "file": id })),
        ];
        for (token, path, body) in refusals {
            let (status, answer) = post(&app, token, &path, body.clone()).await;
            assert_eq!((status, answer["message"].as_str()), (StatusCode::GONE, Some("This document was withdrawn.")), "{path} {body}");
        }

        // A second withdrawal changes nothing and reaches the same.
        let before = events_recorded(&app).await;
        let again = app.state.documents.withdraw_company_file(&publisher, 100_002, withdrawal()).await.expect("again");
        assert_eq!(events_recorded(&app).await, before);
        let mut again_items = again.items.clone();
        again_items.sort();
        assert_eq!(again_items, expected);
        assert_eq!(again.holders, reached.holders);

        // The history tells it; the owner may still remove the copy.
        assert!(history_actions(&app, &john, &copy).await.contains(&"withdrawn".to_string()));
        let (status, body) = post(&app, &john, "/documents/remove", json!({ "id": copy })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert!(find(&list(&app, &john, "/documents/my").await, &copy).is_none());

        replay_equals_live(&app).await;
    }

    async fn nothing_of_a_document_never_released_here_is_withdrawn(app) {
        let reached = app.state.documents.withdraw_company_file("publisher", 999_999, Withdrawal {
            state: WithdrawnState::Expired, reason: String::new(), at: 1_800_000_000_000, replacement: None,
        }).await.expect("nothing to do");
        assert!(reached.items.is_empty() && reached.holders.is_empty());
    }
}

/// The token of the link in the last e-mail queued.
async fn last_link_token(app: &TestApp) -> String {
    let body: String = projections::on_db!(&app.state.db, pool => sqlx::query_scalar(
        "select body from outbox order by id desc limit 1").fetch_one(pool).await)
    .expect("a message");
    let link = body
        .split_whitespace()
        .find(|w| w.contains("/s/"))
        .expect("the message links the viewer");
    link.rsplit("/s/").next().unwrap_or_default().to_string()
}

/// The external viewer's file of a link.
async fn viewer_file(app: &TestApp, token: &str) -> (StatusCode, Vec<u8>) {
    let res = app
        .client
        .get(app.url(&format!("/s/{token}/file?view=view-0123456789abcdef")))
        .header(
            "user-agent",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148",
        )
        .send()
        .await
        .expect("request");
    let status = res.status();
    (status, res.bytes().await.expect("body").to_vec())
}
