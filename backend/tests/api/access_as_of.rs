//! Who could see an item at a past time (`GET /api/items/{id}/access-as-of`), answered from
//! `doc_share_versions` and the folders as they were then; for auditors and the item's owner.

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

async fn access(app: &TestApp, token: &str, item: &str, at: &str) -> (StatusCode, Value) {
    json_of(
        app.get(&format!("/items/{item}/access-as-of?at={at}"), Some(token))
            .await,
    )
    .await
}

/// (email, through, direct) of each share of an answer, by e-mail.
fn shared_with(body: &Value) -> Vec<(String, String, bool)> {
    let mut out: Vec<(String, String, bool)> = body["shared_with"]
        .as_array()
        .unwrap_or(&Vec::new())
        .iter()
        .map(|s| {
            (
                s["user"]["email"].as_str().unwrap_or_default().to_string(),
                s["through"].as_str().unwrap_or_default().to_string(),
                s["direct"].as_bool().unwrap_or_default(),
            )
        })
        .collect();
    out.sort();
    out
}

fn share(email: &str, through: &str, direct: bool) -> (String, String, bool) {
    (email.to_string(), through.to_string(), direct)
}

both_dbs! {
    async fn access_as_of_answers_the_owner_and_the_shares_valid_then(app) {
        let anna = app.token(ANNA).await;
        let john = app.token(JOHN).await;
        let auditor = app.token(AUDITOR).await;
        let anna_id = backend::auth::User::find_by_email(&app.state.db, ANNA).await.unwrap().unwrap().id;

        let folder = new_folder(&app, &anna, "Projects", None).await;
        let file = new_file(&app, &anna, "Plan", Some(&folder)).await;
        let t0 = moment().await;

        let (status, body) = post(&app, &anna, "/folders/share", json!({ "email": JOHN, "folder": folder })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let t1 = moment().await;

        // The file leaves the shared folder: John no longer sees it through the folder.
        assert_eq!(post(&app, &anna, "/documents/move", json!({ "folder": null, "file": file })).await.0, StatusCode::OK);
        let t2 = moment().await;

        let (status, body) = post(&app, &anna, "/documents/share", json!({ "email": MARCO, "file": file })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let t3 = moment().await;

        // John moves the shared folder to his My Docs: its share with him ends.
        let (status, body) = post(&app, &john, "/folders/mydocs", json!({ "type": "folder", "source": folder })).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        let t4 = moment().await;

        // The file: nobody but Anna, then John through the folder, nobody, then Marco directly.
        let expected_file = [
            (&t0, vec![]),
            (&t1, vec![share(JOHN, &folder, false)]),
            (&t2, vec![]),
            (&t3, vec![share(MARCO, &file, true)]),
            (&t4, vec![share(MARCO, &file, true)]),
        ];
        for (at, expected) in &expected_file {
            for token in [&anna, &auditor] {
                let (status, body) = access(&app, token, &file, at).await;
                assert_eq!(status, StatusCode::OK, "{at}: {body}");
                assert_eq!(&shared_with(&body), expected, "file as of {at}: {body}");
                assert_eq!(body["owner"]["id"], anna_id.as_str(), "{body}");
                assert_eq!(body["owner"]["name"], "Anna Rossi", "{body}");
                assert_eq!(body["type"], "file");
                assert_eq!(body["title"], "Plan");
                assert_eq!(body["us_set"], false);
            }
        }
        // The folder: John from t1 until he moved it to his My Docs.
        for (at, expected) in [
            (&t0, vec![]),
            (&t1, vec![share(JOHN, &folder, true)]),
            (&t3, vec![share(JOHN, &folder, true)]),
            (&t4, vec![]),
        ] {
            let (status, body) = access(&app, &auditor, &folder, at).await;
            assert_eq!(status, StatusCode::OK, "{at}: {body}");
            assert_eq!(shared_with(&body), expected, "folder as of {at}: {body}");
        }
        let (_, body) = access(&app, &auditor, &file, &t3).await;
        let marco = &body["shared_with"][0];
        assert_eq!(marco["via"], "internal", "{body}");
        assert!(marco["since"].as_i64().unwrap() > 0, "{body}");
        assert!(marco["user"]["name"].as_str().is_some_and(|n| !n.is_empty()), "{body}");
    }

    async fn access_as_of_is_refused_to_others_and_checks_its_input(app) {
        let anna = app.token(ANNA).await;
        let john = app.token(JOHN).await;
        let marco = app.token(MARCO).await;
        let auditor = app.token(AUDITOR).await;
        let before = moment().await;
        let folder = new_folder(&app, &anna, "Private", None).await;
        let (status, body) = post(&app, &anna, "/folders/share", json!({ "email": JOHN, "folder": folder })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let now = moment().await;

        // Not the owner, not an auditor: refused, also to the user it is shared with.
        for token in [&john, &marco] {
            let (status, body) = access(&app, token, &folder, &now).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
            assert_eq!(body["message"], "Only auditors and the item's owner can see who could see it");
        }
        // Before the item existed.
        let (status, body) = access(&app, &auditor, &folder, &before).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
        assert_eq!(body["message"], "The item did not exist at that time");
        // Unknown items, bad times, no session.
        for unknown in ["no-such-item", "7d8c2a04-5a34-4f0e-9d6e-0d9e8e6f1a11"] {
            assert_eq!(access(&app, &auditor, unknown, &now).await.0, StatusCode::NOT_FOUND, "{unknown}");
            assert_eq!(access(&app, &anna, unknown, &now).await.0, StatusCode::NOT_FOUND, "{unknown}");
        }
        for bad in ["yesterday", "2026-13-01T00:00:00Z", ""] {
            let (status, body) = access(&app, &auditor, &folder, bad).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {body}");
            assert_eq!(body["message"], "Give the time as RFC 3339, e.g. 2026-11-20T10:00:00Z");
        }
        let (status, _) = json_of(app.get(&format!("/items/{folder}/access-as-of"), Some(&auditor)).await).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        let (status, _) = json_of(app.get(&format!("/items/{folder}/access-as-of?at={now}"), None).await).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
}
