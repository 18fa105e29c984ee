//! Tracked external links: the recipient's viewer (no account), the engagement the sender sees
//! (opens, pages, downloads, devices), revocation, expiry, open limits, the end of a document's
//! links, replay, privacy, the live message to the sender and the viewer's rate limits.

use std::time::Duration;

use futures::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

use crate::both_dbs;
use crate::documents::{new_file, post, PDF};
use crate::helpers::*;

const SURGEON: &str = "dr.who@clinic.example";
const GONE: &str = "This link is no longer available.";
const WAIT: Duration = Duration::from_secs(60);

/// A view id as the page makes one (16-64 URL-safe characters).
fn view(n: u32) -> String {
    format!("view-{n:0>12}")
}

/// Anna's new PDF, shared with the surgeon with `options`; returns (file, share id, token).
async fn shared(app: &TestApp, anna: &str, options: Value) -> (String, String, String) {
    let file = new_file(app, anna, "Surgical technique", None).await;
    let (share, token) = share_file(app, anna, &file, options).await;
    (file, share, token)
}

async fn share_file(app: &TestApp, token: &str, file: &str, options: Value) -> (String, String) {
    let mut body = json!({ "email": SURGEON, "file": file });
    if let (Some(body), Some(options)) = (body.as_object_mut(), options.as_object()) {
        body.extend(options.clone());
    }
    let (status, answer) = post(app, token, "/documents/external-share", body).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let share = answer["id"].as_str().expect("the share's id").to_string();
    (share, last_link_token(app).await)
}

/// The token of the link in the last e-mail queued.
async fn last_link_token(app: &TestApp) -> String {
    let body: String = projections::on_db!(&app.state.db, pool => sqlx::query_scalar(
        "select body from outbox order by id desc limit 1").fetch_one(pool).await)
    .unwrap();
    let link = body
        .split_whitespace()
        .find(|w| w.contains("/s/"))
        .expect("the message links the viewer");
    link.rsplit("/s/").next().unwrap().to_string()
}

async fn viewer(app: &TestApp, path: &str) -> reqwest::Response {
    app.client
        .get(app.url(path))
        .header(
            "user-agent",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148",
        )
        .send()
        .await
        .expect("request")
}

async fn page(app: &TestApp, token: &str) -> reqwest::Response {
    app.client
        .get(format!("{}/s/{token}", app.base))
        .send()
        .await
        .expect("request")
}

async fn open(app: &TestApp, token: &str, view_id: &str) -> reqwest::Response {
    viewer(app, &format!("/s/{token}/file?view={view_id}")).await
}

async fn beacon(app: &TestApp, token: &str, body: &Value) -> StatusCode {
    app.post_raw(
        &format!("/s/{token}/beacon"),
        None,
        "text/plain;charset=UTF-8",
        body.to_string(),
    )
    .await
    .status()
}

async fn shares_of(app: &TestApp, token: &str, file: &str) -> (StatusCode, Value) {
    json_of(
        app.get(&format!("/documents/{file}/shares"), Some(token))
            .await,
    )
    .await
}

async fn the_share(app: &TestApp, token: &str, file: &str) -> Value {
    let (status, body) = shares_of(app, token, file).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body.as_array().map(Vec::len), Some(1), "{body}");
    body[0].clone()
}

async fn events_of_type(app: &TestApp, share: &str, event_type: &str) -> i64 {
    projections::on_db!(&app.state.db, pool => sqlx::query_scalar(
        "select count(*) from events where aggregate_id = $1 and event_type = $2")
        .bind(share).bind(event_type).fetch_one(pool).await)
    .unwrap()
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The next frame on the socket, as JSON (`null` for one that is not).
async fn next_json(ws: &mut Socket) -> Value {
    let frame = tokio::time::timeout(WAIT, ws.next())
        .await
        .expect("a frame in time")
        .expect("open")
        .unwrap();
    serde_json::from_str(frame.to_text().unwrap_or("")).unwrap_or(Value::Null)
}

/// The next feed message of `kind` on the socket (pings and other kinds skipped).
async fn next_of_kind(ws: &mut Socket, kind: &str) -> Value {
    loop {
        let v = next_json(ws).await;
        if v["type"] == "ping" {
            let _ = ws
                .send(Message::text(json!({"type": "pong"}).to_string()))
                .await;
        }
        if v["type"] == "message" && v["kind"] == kind {
            return v;
        }
    }
}

/// Every refusal of a gone link: the page, its information, its file (no byte of it) and its
/// beacon answer 410.
async fn all_gone(app: &TestApp, token: &str, state: &str) {
    assert_eq!(page(app, token).await.status(), StatusCode::GONE);
    let (status, body) = json_of(viewer(app, &format!("/s/{token}")).await).await;
    assert_eq!(
        (status, body["error"].as_str(), body["state"].as_str()),
        (StatusCode::GONE, Some(GONE), Some(state)),
        "{body}"
    );
    assert!(body["replacement"].is_null());
    let res = open(app, token, &view(99)).await;
    assert_eq!(res.status(), StatusCode::GONE);
    let bytes = res.bytes().await.unwrap();
    assert!(!bytes.starts_with(b"%PDF"), "no byte of the file");
    let res = viewer(
        app,
        &format!("/s/{token}/file?view={}&download=1", view(98)),
    )
    .await;
    assert_eq!(res.status(), StatusCode::GONE);
    assert_eq!(
        beacon(
            app,
            token,
            &json!({"view": view(1), "seq": 77, "pages": [{"page": 1, "seconds": 1}]})
        )
        .await,
        StatusCode::GONE
    );
}

both_dbs! {
    async fn a_link_is_opened_once_per_view_and_its_information_is_no_open(app) {
        let anna = app.token(ANNA).await;
        let (file, share, token) = shared(&app, &anna, json!({})).await;
        assert_eq!(token.len(), 43, "32 random bytes");
        // The page and its information, without an account; neither counts.
        let res = page(&app, &token).await;
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(res.headers()["cache-control"], "no-store");
        assert_eq!(res.headers()["referrer-policy"], "no-referrer");
        assert_eq!(res.headers()["x-robots-tag"], "noindex");
        assert!(res.text().await.unwrap().contains("<div id=\"root\">"));
        let (status, info) = json_of(viewer(&app, &format!("/s/{token}")).await).await;
        assert_eq!(status, StatusCode::OK, "{info}");
        assert_eq!(info["company"], "Meridian Orthopaedics");
        assert_eq!(info["sender"], json!({"name": "Anna Rossi"}));
        assert_eq!((info["title"].as_str(), info["kind"].as_str()), (Some("Surgical technique"), Some("pdf")));
        assert_eq!(info["allow_download"], true);
        assert_eq!(info["size"].as_i64(), Some(PDF.len() as i64));
        assert!(!info.to_string().contains(ANNA), "never the sender's e-mail");
        assert_eq!(the_share(&app, &anna, &file).await["opens"], 0);

        // The file is the open: once per view.
        let res = open(&app, &token, &view(1)).await;
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(res.headers()["x-content-type-options"], "nosniff");
        assert!(res.headers()["content-security-policy"].to_str().unwrap().contains("sandbox"));
        assert!(res.headers()["cache-control"].to_str().unwrap().contains("no-store"));
        assert!(res.headers()["content-disposition"].to_str().unwrap().starts_with("inline"));
        assert_eq!(res.bytes().await.unwrap().as_ref(), PDF);
        assert_eq!(open(&app, &token, &view(1)).await.status(), StatusCode::OK);
        let s = the_share(&app, &anna, &file).await;
        assert_eq!((s["id"].as_str(), s["opens"].as_i64(), s["state"].as_str()), (Some(share.as_str()), Some(1), Some("active")));
        assert!(s["last_opened_at"].as_i64().is_some());
        assert_eq!(s["recipient"], SURGEON);
        assert_eq!(s["sender"]["name"], "Anna Rossi");
        assert_eq!(s["possibly_forwarded"], false, "one device");
        assert_eq!(open(&app, &token, &view(2)).await.status(), StatusCode::OK);
        assert_eq!(the_share(&app, &anna, &file).await["opens"], 2);
        assert_eq!(events_of_type(&app, &share, "LinkOpened").await, 2);

        // A view id is required; unknown tokens are 404.
        let (status, _) = json_of(viewer(&app, &format!("/s/{token}/file")).await).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        let (status, _) = json_of(open(&app, &token, "short").await).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        let unknown = "A".repeat(43);
        let (status, body) = json_of(viewer(&app, &format!("/s/{unknown}")).await).await;
        assert_eq!((status, body["error"].as_str()), (StatusCode::NOT_FOUND, Some("This link does not exist.")));
        assert_eq!(page(&app, &unknown).await.status(), StatusCode::NOT_FOUND);
        assert_eq!(open(&app, &unknown, &view(1)).await.status(), StatusCode::NOT_FOUND);
        // The token is nowhere in the events, nor an address or a user agent.
        let leaked: i64 = projections::on_db!(&app.state.db, pool => sqlx::query_scalar(
            "select count(*) from events where cast(payload as text) like $1 or cast(payload as text) like '%127.0.0.1%'
                or cast(payload as text) like '%iPhone%' or cast(metadata as text) like '%iPhone%'")
            .bind(format!("%{token}%")).fetch_one(pool).await).unwrap();
        assert_eq!(leaked, 0);
    }

    async fn pages_are_summed_and_beacons_are_idempotent(app) {
        let anna = app.token(ANNA).await;
        let (file, _, token) = shared(&app, &anna, json!({})).await;
        // Before the file loaded, a view has nothing to report.
        assert_eq!(beacon(&app, &token, &json!({"view": view(1), "seq": 1, "pages": [{"page": 1, "seconds": 1}]})).await, StatusCode::BAD_REQUEST);
        assert_eq!(open(&app, &token, &view(1)).await.status(), StatusCode::OK);
        let first = json!({"view": view(1), "seq": 1, "pages": [{"page": 1, "seconds": 2.4}, {"page": 2, "seconds": 3}]});
        assert_eq!(beacon(&app, &token, &first).await, StatusCode::NO_CONTENT);
        assert_eq!(beacon(&app, &token, &first).await, StatusCode::NO_CONTENT, "a repeat changes nothing");
        let res = app.post_json(&format!("/s/{token}/beacon"), None,
            &json!({"view": view(1), "seq": 2, "pages": [{"page": 1, "seconds": 1.6}, {"page": 3, "seconds": 0}]})).await;
        assert_eq!(res.status(), StatusCode::NO_CONTENT, "as JSON too");
        let s = the_share(&app, &anna, &file).await;
        assert_eq!(s["pages"], json!([{"page": 1, "seconds": 4}, {"page": 2, "seconds": 3}, {"page": 3, "seconds": 0}]));
        // Malformed reports.
        for bad in [
            json!({"view": view(1), "seq": 3, "pages": [{"page": 0, "seconds": 1}]}),
            json!({"view": view(1), "seq": 3, "pages": [{"page": 1, "seconds": 3601}]}),
            json!({"view": view(1), "seq": 3, "pages": [{"page": 1, "seconds": -1}]}),
            json!({"view": view(1), "seq": 3, "pages": (1..=51).map(|p| json!({"page": p, "seconds": 1})).collect::<Vec<_>>()}),
            json!({"view": "x", "seq": 3, "pages": []}),
            json!({"seq": 3, "pages": []}),
        ] {
            assert_eq!(beacon(&app, &token, &bad).await, StatusCode::BAD_REQUEST, "{bad}");
        }
        let res = app.post_raw(&format!("/s/{token}/beacon"), None, "text/plain", "not json").await;
        assert_eq!(res.status(), StatusCode::BAD_REQUEST);
        assert_eq!(the_share(&app, &anna, &file).await["pages"], s["pages"], "nothing half-recorded");
    }

    async fn downloads_are_recorded_and_refused_for_view_only_links(app) {
        let anna = app.token(ANNA).await;
        let (file, _, token) = shared(&app, &anna, json!({})).await;
        let res = viewer(&app, &format!("/s/{token}/file?download=1&view={}", view(1))).await;
        assert_eq!(res.status(), StatusCode::OK);
        assert!(res.headers()["content-disposition"].to_str().unwrap().starts_with("attachment"));
        assert_eq!(res.bytes().await.unwrap().as_ref(), PDF);
        let s = the_share(&app, &anna, &file).await;
        assert_eq!((s["downloads"].as_i64(), s["opens"].as_i64()), (Some(1), Some(1)), "a download of a new view opens it");

        let other = new_file(&app, &anna, "Clinical study", None).await;
        let (_, token) = share_file(&app, &anna, &other, json!({"allow_download": false})).await;
        let (_, info) = json_of(viewer(&app, &format!("/s/{token}")).await).await;
        assert_eq!(info["allow_download"], false);
        let (status, body) = json_of(viewer(&app, &format!("/s/{token}/file?download=1&view={}", view(1))).await).await;
        assert_eq!((status, body["message"].as_str()), (StatusCode::FORBIDDEN, Some("The sender allowed viewing only.")));
        assert_eq!(open(&app, &token, &view(1)).await.status(), StatusCode::OK, "viewing is allowed");
        let s = the_share(&app, &anna, &other).await;
        assert_eq!((s["downloads"].as_i64(), s["allow_download"].as_bool()), (Some(0), Some(false)));
    }

    async fn a_revoked_link_answers_410_everywhere_and_refuses_beacons(app) {
        let anna = app.token(ANNA).await;
        let (file, share, token) = shared(&app, &anna, json!({})).await;
        assert_eq!(open(&app, &token, &view(1)).await.status(), StatusCode::OK);
        // Only the sender, the owner or an admin.
        let john = app.token(JOHN).await;
        let (status, _) = post(&app, &john, &format!("/documents/shares/{share}/revoke"), json!({})).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (status, s) = post(&app, &anna, &format!("/documents/shares/{share}/revoke"), json!({})).await;
        assert_eq!((status, s["state"].as_str()), (StatusCode::OK, Some("revoked")), "{s}");
        let revoked_at = s["revoked_at"].as_i64().expect("revoked_at");
        let (status, again) = post(&app, &anna, &format!("/documents/shares/{share}/revoke"), json!({})).await;
        assert_eq!((status, again["revoked_at"].as_i64()), (StatusCode::OK, Some(revoked_at)));
        assert_eq!(events_of_type(&app, &share, "LinkRevoked").await, 1, "no second event");
        all_gone(&app, &token, "revoked").await;
        assert_eq!(the_share(&app, &anna, &file).await["opens"], 1);

        // An admin revokes anyone's link.
        let (_, share, token) = shared(&app, &anna, json!({})).await;
        let admin = app.token(ADMIN).await;
        let (status, s) = post(&app, &admin, &format!("/documents/shares/{share}/revoke"), json!({})).await;
        assert_eq!((status, s["state"].as_str()), (StatusCode::OK, Some("revoked")));
        all_gone(&app, &token, "revoked").await;
        let (status, _) = post(&app, &anna, "/documents/shares/no-such-share/revoke", json!({})).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
    }

    async fn an_expired_link_answers_410_and_its_expiry_is_recorded_once(app) {
        let anna = app.token(ANNA).await;
        let (file, share, token) = shared(&app, &anna, json!({"expires_in_days": 2})).await;
        assert_eq!(open(&app, &token, &view(1)).await.status(), StatusCode::OK);
        projections::on_db!(&app.state.db, pool => sqlx::query("update share_engagement set expires_at = 1 where share_id = $1")
            .bind(&share).execute(pool).await.map(|r| r.rows_affected())).unwrap();
        all_gone(&app, &token, "expired").await;
        assert_eq!(app.state.documents.expire_due_links().await.unwrap(), 1);
        assert_eq!(app.state.documents.expire_due_links().await.unwrap(), 0);
        assert_eq!(events_of_type(&app, &share, "LinkExpired").await, 1);
        assert_eq!(the_share(&app, &anna, &file).await["state"], "expired");
    }

    async fn a_link_over_its_open_limit_answers_410(app) {
        let anna = app.token(ANNA).await;
        let (file, _, token) = shared(&app, &anna, json!({"max_opens": 1})).await;
        assert_eq!(open(&app, &token, &view(1)).await.status(), StatusCode::OK);
        let s = the_share(&app, &anna, &file).await;
        assert_eq!((s["state"].as_str(), s["max_opens"].as_i64()), (Some("used_up"), Some(1)));
        assert_eq!(page(&app, &token).await.status(), StatusCode::GONE);
        let (status, body) = json_of(viewer(&app, &format!("/s/{token}")).await).await;
        assert_eq!((status, body["state"].as_str()), (StatusCode::GONE, Some("used_up")));
        let res = open(&app, &token, &view(2)).await;
        assert_eq!(res.status(), StatusCode::GONE);
        assert!(!res.bytes().await.unwrap().starts_with(b"%PDF"));
        // The view that was counted may still load it and report its pages.
        assert_eq!(open(&app, &token, &view(1)).await.status(), StatusCode::OK);
        assert_eq!(beacon(&app, &token, &json!({"view": view(1), "seq": 1, "pages": [{"page": 1, "seconds": 5}]})).await, StatusCode::NO_CONTENT);
        assert_eq!(the_share(&app, &anna, &file).await["opens"], 1);
    }

    async fn disabling_the_sender_revokes_their_links(app) {
        let anna = app.token(ANNA).await;
        let (file, share, token) = shared(&app, &anna, json!({})).await;
        let anna_id = backend::auth::User::find_by_email(&app.state.db, ANNA).await.unwrap().unwrap().id;
        let admin = app.token(ADMIN).await;
        let (status, _) = post(&app, &admin, &format!("/admin/users/{anna_id}/disable"), json!({})).await;
        assert_eq!(status, StatusCode::OK);
        all_gone(&app, &token, "revoked").await;
        let auditor = app.token(AUDITOR).await;
        let s = the_share(&app, &auditor, &file).await;
        assert_eq!(s["state"], "revoked");
        let reason: String = projections::on_db!(&app.state.db, pool => sqlx::query_scalar(
            "select revoked_reason from share_engagement where share_id = $1").bind(&share).fetch_one(pool).await).unwrap();
        assert_eq!(reason, "account_disabled");
    }

    async fn a_sender_disabled_from_the_command_line_loses_their_links_at_the_next_sweep(app) {
        let anna = app.token(ANNA).await;
        let (file, share, token) = shared(&app, &anna, json!({})).await;
        // `companion users disable` writes the account alone; the links' sweep catches up.
        backend::auth::accounts::set_disabled(&app.state.db, ANNA, true).await.unwrap();
        assert_eq!(app.state.documents.revoke_links_of_disabled_senders().await.unwrap(), 1);
        assert_eq!(app.state.documents.revoke_links_of_disabled_senders().await.unwrap(), 0);
        all_gone(&app, &token, "revoked").await;
        let auditor = app.token(AUDITOR).await;
        assert_eq!(the_share(&app, &auditor, &file).await["state"], "revoked");
        let reason: String = projections::on_db!(&app.state.db, pool => sqlx::query_scalar(
            "select revoked_reason from share_engagement where share_id = $1").bind(&share).fetch_one(pool).await).unwrap();
        assert_eq!(reason, "account_disabled");
    }

    async fn deleting_the_document_ends_its_links(app) {
        let anna = app.token(ANNA).await;
        let (file, _, token) = shared(&app, &anna, json!({})).await;
        let (status, body) = post(&app, &anna, "/documents/remove", json!({"id": file})).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        all_gone(&app, &token, "ended").await;
        let auditor = app.token(AUDITOR).await;
        assert_eq!(the_share(&app, &auditor, &file).await["state"], "ended");
    }

    async fn engagement_is_the_same_after_a_replay(app) {
        let anna = app.token(ANNA).await;
        let (_, share, token) = shared(&app, &anna, json!({})).await;
        assert_eq!(open(&app, &token, &view(1)).await.status(), StatusCode::OK);
        assert_eq!(open(&app, &token, &view(2)).await.status(), StatusCode::OK);
        assert_eq!(beacon(&app, &token, &json!({"view": view(1), "seq": 1, "pages": [{"page": 1, "seconds": 2.5}, {"page": 2, "seconds": 7}]})).await, StatusCode::NO_CONTENT);
        assert_eq!(beacon(&app, &token, &json!({"view": view(2), "seq": 1, "pages": [{"page": 1, "seconds": 0.5}]})).await, StatusCode::NO_CONTENT);
        let res = viewer(&app, &format!("/s/{token}/file?download=1&view={}", view(2))).await;
        assert_eq!(res.status(), StatusCode::OK);
        let (status, _) = post(&app, &anna, &format!("/documents/shares/{share}/revoke"), json!({})).await;
        assert_eq!(status, StatusCode::OK);
        let report = backend::replay::run(&app.state.db, &app.state.config, &["share_engagement".into()])
            .await
            .unwrap();
        assert!(report.differences.is_empty(), "{:?}", report.differences);
        assert_eq!(report.tables_compared, 2);
        assert!(report.rows_compared >= 3, "{}", report.rows_compared);
        // A damaged live row is found.
        projections::on_db!(&app.state.db, pool => sqlx::query("update share_engagement set opens = 9")
            .execute(pool).await.map(|r| r.rows_affected())).unwrap();
        let report = backend::replay::run(&app.state.db, &app.state.config, &["share_engagement".into()])
            .await
            .unwrap();
        assert_eq!(report.differences.len(), 1);
    }

    async fn engagement_past_its_retention_is_purged(app) {
        let anna = app.token(ANNA).await;
        let (file, share, token) = shared(&app, &anna, json!({})).await;
        assert_eq!(open(&app, &token, &view(1)).await.status(), StatusCode::OK);
        assert_eq!(beacon(&app, &token, &json!({"view": view(1), "seq": 1, "pages": [{"page": 2, "seconds": 4}]})).await, StatusCode::NO_CONTENT);
        // A live link's engagement is kept.
        assert_eq!(app.state.documents.purge_old_engagement().await.unwrap(), 0);
        assert_eq!(the_share(&app, &anna, &file).await["opens"], 1);
        // Expired longer ago than SHARE_ANALYTICS_RETENTION_DAYS: its stream and figures go.
        projections::on_db!(&app.state.db, pool => sqlx::query("update share_engagement set expires_at = 1 where share_id = $1")
            .bind(&share).execute(pool).await.map(|r| r.rows_affected())).unwrap();
        assert_eq!(app.state.documents.purge_old_engagement().await.unwrap(), 1);
        assert_eq!(events_of_type(&app, &share, "LinkOpened").await, 0);
        assert_eq!(events_of_type(&app, &share, "PagesViewed").await, 0);
        let s = the_share(&app, &anna, &file).await;
        assert_eq!((s["opens"].as_i64(), s["pages"].clone(), s["recipient"].as_str()), (Some(0), json!([]), Some(SURGEON)), "the share itself stays");
        assert_eq!(app.state.documents.purge_old_engagement().await.unwrap(), 0, "nothing left to purge");
    }

    async fn only_the_sender_the_owner_and_auditors_see_the_recipient(app) {
        let anna = app.token(ANNA).await;
        let (file, _, token) = shared(&app, &anna, json!({})).await;
        assert_eq!(open(&app, &token, &view(1)).await.status(), StatusCode::OK);
        let john = app.token(JOHN).await;
        let marco = app.token(MARCO).await;
        // Someone who cannot see the item: 404, as for the item itself.
        let (status, body) = shares_of(&app, &marco, &file).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert!(!body.to_string().contains(SURGEON));
        // A colleague it is shared with sees the item, not its external recipients.
        let (status, _) = post(&app, &anna, "/documents/share", json!({"email": JOHN, "file": file})).await;
        assert_eq!(status, StatusCode::OK);
        let (status, body) = shares_of(&app, &john, &file).await;
        assert_eq!((status, body.clone()), (StatusCode::OK, json!([])));
        let (status, history) = json_of(app.get(&format!("/documents/{file}/history"), Some(&john)).await).await;
        assert_eq!(status, StatusCode::OK);
        assert!(!history.to_string().contains(SURGEON), "{history}");
        let (_, sent) = json_of(app.get("/documents/shares", Some(&john)).await).await;
        assert_eq!(sent["shares"], json!([]));
        // The auditor sees every share with its engagement, in the history and its CSV.
        let auditor = app.token(AUDITOR).await;
        assert_eq!(the_share(&app, &auditor, &file).await["recipient"], SURGEON);
        let (_, history) = json_of(app.get(&format!("/documents/{file}/history"), Some(&auditor)).await).await;
        let line = history["entries"].as_array().unwrap().iter().find(|e| e["action"] == "shared_externally").unwrap().clone();
        assert_eq!(line["to"], SURGEON);
        assert!(line["detail"].as_str().unwrap().contains("opened once"), "{line}");
        let csv = app.get(&format!("/documents/{file}/history.csv"), Some(&auditor)).await.text().await.unwrap();
        assert!(csv.contains(SURGEON) && csv.contains("opened once"), "{csv}");
        // The sender's "Sent" list names the document.
        let (status, sent) = json_of(app.get("/documents/shares?limit=1", Some(&anna)).await).await;
        assert_eq!(status, StatusCode::OK, "{sent}");
        assert_eq!(sent["shares"][0]["item"], json!({"id": file, "title": "Surgical technique"}));
        assert!(sent["next"].is_null());
        let other = new_file(&app, &anna, "Second study", None).await;
        share_file(&app, &anna, &other, json!({})).await;
        let (_, first) = json_of(app.get("/documents/shares?limit=1", Some(&anna)).await).await;
        assert_eq!(first["shares"][0]["item"]["id"], other.as_str(), "newest first");
        let next = first["next"].as_str().expect("a next page").to_string();
        let (_, second) = json_of(app.get(&format!("/documents/shares?limit=1&before={next}"), Some(&anna)).await).await;
        assert_eq!(second["shares"][0]["item"]["id"], file.as_str());
        assert_eq!(json_of(app.get("/documents/shares?limit=500", Some(&anna)).await).await.0, StatusCode::BAD_REQUEST);
    }

    async fn share_options_are_checked(app) {
        let anna = app.token(ANNA).await;
        let file = new_file(&app, &anna, "Handout", None).await;
        let queued = || async {
            projections::on_db!(&app.state.db, pool => sqlx::query_scalar::<_, i64>("select count(*) from outbox").fetch_one(pool).await).unwrap()
        };
        let before = queued().await;
        for (options, message) in [
            (json!({"expires_in_days": 0}), "A link can last from 1 to 30 days"),
            (json!({"expires_in_days": 31}), "A link can last from 1 to 30 days"),
            (json!({"max_opens": 0}), "The number of opens must be between 1 and 1000"),
            (json!({"max_opens": 1001}), "The number of opens must be between 1 and 1000"),
        ] {
            let mut body = json!({"email": SURGEON, "file": file});
            body.as_object_mut().unwrap().extend(options.as_object().unwrap().clone());
            let (status, answer) = post(&app, &anna, "/documents/external-share", body).await;
            assert_eq!((status, answer["message"].as_str()), (StatusCode::BAD_REQUEST, Some(message)), "{options}");
        }
        assert_eq!(queued().await, before, "nothing sent");
        let (status, answer) = post(&app, &anna, "/documents/external-share",
            json!({"email": SURGEON, "file": file, "expires_in_days": 30, "max_opens": 1000, "allow_download": false})).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        let lasts = answer["expires_at"].as_i64().unwrap() - projections::now_ms();
        assert!(lasts > 29 * 86_400_000 && lasts <= 30 * 86_400_000, "{lasts}");
        let (_, answer) = post(&app, &anna, "/documents/external-share", json!({"email": SURGEON, "file": file})).await;
        let lasts = answer["expires_at"].as_i64().unwrap() - projections::now_ms();
        assert!(lasts > 6 * 86_400_000 && lasts <= 7 * 86_400_000, "7 days by default: {lasts}");
        // The e-mail links the viewer and says until when.
        let mail: String = projections::on_db!(&app.state.db, pool => sqlx::query_scalar(
            "select body from outbox order by id desc limit 1").fetch_one(pool).await).unwrap();
        let link = mail.split_whitespace().find(|w| w.starts_with("http")).unwrap_or_default();
        assert!(link.contains("/s/") && mail.contains("The link works until"), "{mail}");
        assert!(!mail.contains("/api/shared-links/"));
    }

    async fn old_links_redirect_to_the_viewer(app) {
        let anna = app.token(ANNA).await;
        let (_, _, token) = shared(&app, &anna, json!({})).await;
        let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
        let res = client.get(app.url(&format!("/shared-links/{token}"))).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::PERMANENT_REDIRECT);
        assert_eq!(res.headers()["location"], format!("/s/{token}"));
    }

    async fn the_sender_hears_of_an_open_over_the_socket(app) {
        let anna = app.token(ANNA).await;
        let (file, share, token) = shared(&app, &anna, json!({})).await;
        let mut ws = ready_socket(&app, &anna).await;
        assert_eq!(open(&app, &token, &view(1)).await.status(), StatusCode::OK);
        let opened = next_of_kind(&mut ws, "share_opened").await;
        assert_eq!(opened["payload"]["share"], share.as_str());
        assert_eq!(opened["payload"]["item"], file.as_str());
        assert_eq!(opened["payload"]["recipient"], SURGEON);
        assert_eq!(opened["payload"]["title"], "Surgical technique");
        assert_eq!(opened["payload"]["first"], true);
        assert_eq!(beacon(&app, &token, &json!({"view": view(1), "seq": 1, "pages": [{"page": 1, "seconds": 3}]})).await, StatusCode::NO_CONTENT);
        let changed = next_of_kind(&mut ws, "share_engagement").await;
        assert_eq!(changed["payload"], json!({"share": share, "item": file}));
        // A second open is not the first.
        assert_eq!(open(&app, &token, &view(2)).await.status(), StatusCode::OK);
        let again = next_of_kind(&mut ws, "share_opened").await;
        assert_eq!(again["payload"]["first"], false);
    }
}

async fn the_viewer_is_rate_limited_per_link(engine: Engine) {
    let Some(app) = spawn_app_with(engine, |c| c.share_viewer_link_per_minute = 3).await else {
        return;
    };
    let anna = app.token(ANNA).await;
    let (_, _, token) = shared(&app, &anna, json!({})).await;
    for _ in 0..3 {
        assert_eq!(
            viewer(&app, &format!("/s/{token}")).await.status(),
            StatusCode::OK
        );
    }
    let res = viewer(&app, &format!("/s/{token}")).await;
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(res.headers().contains_key("retry-after"));
    assert_eq!(
        beacon(
            &app,
            &token,
            &json!({"view": view(1), "seq": 1, "pages": []})
        )
        .await,
        StatusCode::TOO_MANY_REQUESTS
    );
    // Another link is counted apart.
    let (_, _, other) = shared(&app, &anna, json!({})).await;
    assert_eq!(
        viewer(&app, &format!("/s/{other}")).await.status(),
        StatusCode::OK
    );
}

async fn the_viewer_is_rate_limited_per_network(engine: Engine) {
    let Some(app) = spawn_app_with(engine, |c| c.share_viewer_network_per_minute = 2).await else {
        return;
    };
    let anna = app.token(ANNA).await;
    let (_, _, token) = shared(&app, &anna, json!({})).await;
    let (_, _, other) = shared(&app, &anna, json!({})).await;
    assert_eq!(
        viewer(&app, &format!("/s/{token}")).await.status(),
        StatusCode::OK
    );
    assert_eq!(
        viewer(&app, &format!("/s/{other}")).await.status(),
        StatusCode::OK
    );
    assert_eq!(
        viewer(&app, &format!("/s/{other}")).await.status(),
        StatusCode::TOO_MANY_REQUESTS
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_viewer_is_rate_limited_per_link_sqlite() {
    the_viewer_is_rate_limited_per_link(Engine::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_viewer_is_rate_limited_per_link_postgres() {
    the_viewer_is_rate_limited_per_link(Engine::Postgres).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_viewer_is_rate_limited_per_network_sqlite() {
    the_viewer_is_rate_limited_per_network(Engine::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_viewer_is_rate_limited_per_network_postgres() {
    the_viewer_is_rate_limited_per_network(Engine::Postgres).await;
}

/// A socket of `token` that has said it is ready: registered with the hub, so what follows
/// reaches it live, not in the replay of what it missed.
async fn ready_socket(app: &TestApp, token: &str) -> Socket {
    let url = format!("{}/api/ws", app.base.replacen("http", "ws", 1));
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.expect("socket");
    ws.send(Message::text(
        json!({"type": "auth", "token": token}).to_string(),
    ))
    .await
    .unwrap();
    while next_json(&mut ws).await["type"] != "ready" {}
    ws
}

/// With the feed's poll far longer than the test waits for a frame, only the projector's word
/// that a round or a group commit wrote feed rows wakes the hub. Both ways a projection writes
/// them arrive: the documents projection's badge of an internal share, and `share_opened`,
/// which the engagement projection writes through `feed::push`.
async fn feed_rows_a_round_writes_wake_the_socket_without_the_poll(engine: Engine) {
    let Some(app) = spawn_app_with(engine, |c| c.feed_poll_ms = 600_000).await else {
        return;
    };
    let anna = app.token(ANNA).await;
    let john = app.token(JOHN).await;
    let file = new_file(&app, &anna, "Surgical technique", None).await;
    let shared_before = {
        let (status, body) = crate::helpers::json_of(app.get("/badges", Some(&john)).await).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        body["shared"].as_i64().expect("shared count")
    };

    let mut johns = ready_socket(&app, &john).await;
    let (status, body) = post(
        &app,
        &anna,
        "/documents/share",
        json!({"file": file, "email": JOHN}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // One deadline for the whole wait: the socket's pings would keep a wait per frame going.
    let badge = tokio::time::timeout(WAIT, async {
        loop {
            let badge = next_of_kind(&mut johns, "badge").await;
            if badge["payload"]["name"] == "shared" {
                return badge;
            }
        }
    })
    .await
    .expect("the share's badge arrives without the poll");
    assert_eq!(badge["payload"]["count"], shared_before + 1, "{badge}");

    let mut annas = ready_socket(&app, &anna).await;
    let (share, token) = share_file(&app, &anna, &file, json!({})).await;
    assert_eq!(open(&app, &token, &view(1)).await.status(), StatusCode::OK);
    let opened = tokio::time::timeout(WAIT, next_of_kind(&mut annas, "share_opened"))
        .await
        .expect("the open arrives without the poll");
    assert_eq!(opened["payload"]["share"], share.as_str());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn feed_rows_a_round_writes_wake_the_socket_without_the_poll_sqlite() {
    feed_rows_a_round_writes_wake_the_socket_without_the_poll(Engine::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn feed_rows_a_round_writes_wake_the_socket_without_the_poll_postgres() {
    feed_rows_a_round_writes_wake_the_socket_without_the_poll(Engine::Postgres).await;
}
