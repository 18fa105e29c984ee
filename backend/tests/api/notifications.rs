//! Notifications, app updates, badges, messages and publishing (API and command line).

use std::time::Duration;

use backend::notifications::cli::{self, Publication, PublishCommand};
use clap::Parser;
use projections::on_db;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::both_dbs;
use crate::helpers::{json_of, TestApp, ADMIN, ANNA, AUDITOR, JOHN, MARCO, PASSWORD};

async fn get(app: &TestApp, path: &str, token: &str) -> (StatusCode, Value) {
    json_of(app.get(path, Some(token)).await).await
}

async fn post(app: &TestApp, path: &str, token: &str, body: Value) -> (StatusCode, Value) {
    json_of(app.post_json(path, Some(token), &body).await).await
}

async fn login(app: &TestApp, email: &str) -> Value {
    let (status, body) = json_of(app.login_response(email, PASSWORD).await).await;
    assert_eq!(status, StatusCode::OK, "login of {email}");
    body
}

fn notification(title: &str) -> Value {
    json!({ "title": title, "message": "<p>Hello</p>" })
}

fn update(name: &str) -> Value {
    json!({
        "name": name,
        "release": "2.7.0",
        "preview": "/media/updates/update-1-preview.svg",
        "gallery": ["/media/updates/update-1-1.svg", { "image": "/media/updates/update-1-2.svg", "title": "Two" }],
        "url": "/app/news/15"
    })
}

async fn badges(app: &TestApp, token: &str) -> (i64, i64, i64) {
    let (status, body) = get(app, "/badges", token).await;
    assert_eq!(status, StatusCode::OK);
    (
        body["notifications"].as_i64().unwrap(),
        body["updates"].as_i64().unwrap(),
        body["shared"].as_i64().unwrap(),
    )
}

async fn count_events(app: &TestApp, aggregate_type: &str, event_type: &str) -> i64 {
    on_db!(&app.state.db, pool => sqlx::query_scalar::<_, i64>(
        "select count(*) from events where aggregate_type = $1 and event_type = $2")
        .bind(aggregate_type).bind(event_type).fetch_one(pool).await)
    .unwrap()
}

/// The kinds and payloads of a user's live feed, oldest first.
async fn feed(app: &TestApp, user_id: &str) -> Vec<(String, Value)> {
    let rows: Vec<(String, String)> = on_db!(&app.state.db, pool => sqlx::query_as(
        "select kind, payload from user_feed where user_id = $1 order by seq")
        .bind(user_id).fetch_all(pool).await)
    .unwrap();
    rows.into_iter()
        .map(|(kind, payload)| (kind, serde_json::from_str(&payload).unwrap()))
        .collect()
}

/// The broadcasts (one row for everyone): number, kind and payload, oldest first.
async fn broadcasts(app: &TestApp) -> Vec<(i64, String, Value)> {
    let rows: Vec<(i64, String, String)> = on_db!(&app.state.db, pool => sqlx::query_as(
        "select seq, kind, payload from user_feed where user_id = $1 order by seq")
        .bind(projections::feed::BROADCAST).fetch_all(pool).await)
    .unwrap();
    rows.into_iter()
        .map(|(seq, kind, payload)| (seq, kind, serde_json::from_str(&payload).unwrap()))
        .collect()
}

/// The number of the last broadcast.
async fn last_broadcast(app: &TestApp) -> i64 {
    broadcasts(app).await.last().map_or(0, |b| b.0)
}

fn ids(list: &Value) -> Vec<i64> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|n| n["id"].as_i64().unwrap())
        .collect()
}

both_dbs! {
    async fn demo_content_is_published_on_first_start(app) {
        let anna = app.token(ANNA).await;
        let (status, list) = get(&app, "/notifications", &anna).await;
        assert_eq!(status, StatusCode::OK);
        // Newest first, by the dates of the content.
        assert_eq!(ids(&list), vec![5, 3, 4, 1, 2]);
        assert!(list.as_array().unwrap().iter().all(|n| n["read"] == json!(false)));
        let by_id = |id: i64| list.as_array().unwrap().iter().find(|n| n["id"] == json!(id)).unwrap().clone();
        assert_eq!(by_id(1)["link"], json!({ "type": "products", "id": 163 }));
        assert_eq!(by_id(2)["link"], json!({ "type": "news", "id": 15 }));
        assert_eq!(by_id(3)["preview"], json!("/media/notifications/notification-3.svg"));
        assert_eq!(by_id(5)["link"], Value::Null);
        assert_eq!(by_id(1)["date"], json!("2026-04-20T09:00:00Z"));

        let (status, updates) = get(&app, "/updates", &anna).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(ids(&updates), vec![2, 1]);
        assert_eq!(updates[1]["gallery"].as_array().unwrap().len(), 4);
        assert_eq!(updates[1]["gallery"][0]["big"], json!("/media/updates/update-1-1.svg"));
        // The demo updates count as seen, so the demo users land on /home.
        assert!(updates.as_array().unwrap().iter().all(|u| u["read"] == json!(true)));
        // `shared`: the two demo items shared with Anna, not opened yet.
        assert_eq!(badges(&app, &anna).await, (5, 0, 2));
        for email in [ANNA, JOHN, MARCO, ADMIN, AUDITOR] {
            assert_eq!(login(&app, email).await["update_id"], Value::Null, "{email}");
        }
    }

    async fn only_the_admin_publishes(app) {
        let anna = app.token(ANNA).await;
        let auditor = app.token(AUDITOR).await;
        let admin = app.token(ADMIN).await;
        for path in ["/admin/notifications", "/admin/updates"] {
            let res = app.post_json(path, None, &notification("x")).await;
            assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
            for token in [&anna, &auditor] {
                let (status, body) = post(&app, path, token, notification("Sneaky")).await;
                assert_eq!(status, StatusCode::FORBIDDEN, "{path}: {body}");
                // The role is checked before the body.
                let res = app.post_raw(path, Some(token), "application/json", "{not json").await;
                assert_eq!(res.status(), StatusCode::FORBIDDEN);
            }
        }
        assert_eq!(count_events(&app, "Notification", "NotificationPublished").await, 5);
        assert_eq!(count_events(&app, "AppUpdate", "AppUpdatePublished").await, 2);

        let (status, body) = post(&app, "/admin/notifications", &admin, notification("Welcome")).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        assert_eq!(body["id"], json!(6));
        let (status, body) = post(&app, "/admin/updates", &admin, update("Faster search")).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        assert_eq!(body["id"], json!(3));
        // The admin's publication reaches the others at once (read-your-write).
        let (_, list) = get(&app, "/notifications", &anna).await;
        assert_eq!(list[0]["title"], json!("Welcome"));
        assert_eq!(badges(&app, &anna).await, (6, 1, 2));
    }

    async fn the_message_is_sanitised_on_the_server(app) {
        let admin = app.token(ADMIN).await;
        let anna = app.token(ANNA).await;
        let (status, body) = post(&app, "/admin/notifications", &admin, json!({
            "title": "Careful",
            "message": "<p onclick=\"steal()\">Hi <strong>all</strong></p><script>alert('x')</script><img src=x onerror=alert(1)><a href=\"javascript:alert(2)\">bad</a> <a href=\"/news/3\">good</a>",
        })).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        let (status, item) = get(&app, &format!("/push/{}", body["id"]), &anna).await;
        assert_eq!(status, StatusCode::OK);
        let message = item["message"].as_str().unwrap();
        assert!(!message.contains("script") && !message.contains("alert"), "{message}");
        assert!(!message.contains("onclick") && !message.contains("onerror"), "{message}");
        assert!(message.starts_with("<p>Hi <strong>all</strong></p>"), "{message}");
        assert!(message.contains("<a href=\"/news/3\" rel=\"noopener noreferrer\">good</a>"), "{message}");
    }

    async fn bad_publications_are_refused_and_record_nothing(app) {
        let admin = app.token(ADMIN).await;
        let cases = [
            (json!({ "title": "   ", "message": "<p>x</p>" }), "The title is required"),
            (json!({ "message": "<p>x</p>" }), "The title is required"),
            (json!({ "title": "T", "message": "<script>alert(1)</script>" }), "The message is required"),
            (json!({ "title": "T", "message": "x", "link": { "type": "javascript", "id": 1 } }), "Unknown link type 'javascript'"),
            (json!({ "title": "T", "message": "x", "link": { "type": "login" } }), "Unknown link type 'login'"),
            (json!({ "title": "T", "message": "x", "link": { "type": "useful", "id": 4 } }), "A link to useful takes no id"),
            (json!({ "title": "T", "message": "x", "link": { "type": "news", "id": -1 } }), "The link id must be a positive number"),
            (json!({ "title": "T", "message": "x", "preview": "javascript:alert(1)" }), "The preview must be a path of this app (/...) or an http(s) address"),
            (json!({ "title": "T", "message": "x", "audience": ["nobody@example.com"] }), "No user with the e-mail nobody@example.com"),
            (json!({ "title": "T", "message": "x", "audience": [] }), "Choose at least one recipient"),
            (json!({ "title": "T", "message": "x", "audience": "some" }), "The audience is \"everyone\" or a list of e-mails"),
        ];
        for (body, message) in cases {
            let (status, answer) = post(&app, "/admin/notifications", &admin, body.clone()).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
            assert_eq!(answer["message"], json!(message), "{body}");
        }
        let cases = [
            (json!({ "name": "", "release": "1", "gallery": ["/media/a.svg"] }), "The name is required"),
            (json!({ "name": "N", "release": " ", "gallery": ["/media/a.svg"] }), "The release is required"),
            (json!({ "name": "N", "release": "1", "gallery": [] }), "The gallery needs at least one image"),
            (json!({ "name": "N", "release": "1", "gallery": ["//evil.example/a.svg"] }), "The gallery image must be a path of this app (/...) or an http(s) address"),
            (json!({ "name": "N", "release": "1", "gallery": ["/a.svg"], "url": "javascript:x" }), "The url must be a path of this app (/...) or an http(s) address"),
        ];
        for (body, message) in cases {
            let (status, answer) = post(&app, "/admin/updates", &admin, body.clone()).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
            assert_eq!(answer["message"], json!(message), "{body}");
        }
        let res = app.post_raw("/admin/notifications", Some(&admin), "application/json", "{\"title\": 3}").await;
        assert_eq!(res.status(), StatusCode::BAD_REQUEST);
        assert_eq!(count_events(&app, "Notification", "NotificationPublished").await, 5);
        assert_eq!(count_events(&app, "AppUpdate", "AppUpdatePublished").await, 2);
    }

    async fn chosen_recipients_alone_see_a_notification(app) {
        let admin = app.token(ADMIN).await;
        let anna = app.token(ANNA).await;
        let john = app.token(JOHN).await;
        let (status, body) = post(&app, "/admin/notifications", &admin, json!({
            "title": "For John", "message": "<p>US only</p>", "audience": [" John.Miller@example.com "],
            "link": { "type": "Products", "id": 120 },
        })).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        let id = body["id"].as_i64().unwrap();
        let (_, list) = get(&app, "/notifications", &john).await;
        assert_eq!(list[0]["id"], json!(id));
        assert_eq!(list[0]["link"], json!({ "type": "products", "id": 120 }));
        let (_, list) = get(&app, "/notifications", &anna).await;
        assert!(!ids(&list).contains(&id));
        assert_eq!(badges(&app, &john).await.0, 6);
        assert_eq!(badges(&app, &anna).await.0, 5);
        // Someone else's notification is not found, and cannot be marked read.
        let (status, _) = get(&app, &format!("/push/{id}"), &anna).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(count_events(&app, "Inbox", "NotificationRead").await, 0);
        let (status, item) = get(&app, &format!("/push/{id}"), &john).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(item["read"], json!(true));
    }

    async fn opening_a_notification_marks_it_read_once(app) {
        let anna = app.token(ANNA).await;
        let john = app.token(JOHN).await;
        let anna_id = login(&app, ANNA).await["user"]["id"].as_str().unwrap().to_string();
        let (status, item) = get(&app, "/push/3", &anna).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(item["read"], json!(true));
        assert_eq!(item["title"], json!("Sports Medicine Winter Summit: programme online"));
        assert_eq!(item["link"], json!({ "type": "congress", "id": 7 }));
        assert_eq!(badges(&app, &anna).await, (4, 0, 2));
        let (_, list) = get(&app, "/notifications", &anna).await;
        let read: Vec<i64> = list.as_array().unwrap().iter().filter(|n| n["read"] == json!(true)).map(|n| n["id"].as_i64().unwrap()).collect();
        assert_eq!(read, vec![3]);

        // Opening again changes nothing.
        let (status, again) = get(&app, "/push/3", &anna).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(again["read"], json!(true));
        assert_eq!(count_events(&app, "Inbox", "NotificationRead").await, 1);
        assert_eq!(badges(&app, &anna).await.0, 4);
        // Another user's read flags are their own.
        assert_eq!(badges(&app, &john).await.0, 5);

        for missing in ["/push/999", "/push/0", "/push/abc"] {
            let (status, body) = get(&app, missing, &anna).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{missing}");
            assert_eq!(body["message"], json!("Notification not found"));
        }
        let res = app.get("/push/3", None).await;
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED);

        // The live feed told Anna about the read and her new count.
        let messages = feed(&app, &anna_id).await;
        let (kind, payload) = &messages[messages.len() - 2];
        assert_eq!(kind, "notification");
        assert_eq!(payload["notification"]["id"], json!(3));
        assert_eq!(payload["notification"]["read"], json!(true));
        // The count includes every broadcast so far (the demo's notifications for everyone).
        let through = last_broadcast(&app).await;
        assert!(through > 0);
        assert_eq!(messages.last().unwrap(), &("badge".to_string(), json!({ "name": "notifications", "count": 4, "through": through })));
    }

    async fn publishing_pushes_to_every_addressee(app) {
        let admin = app.token(ADMIN).await;
        let anna_id = login(&app, ANNA).await["user"]["id"].as_str().unwrap().to_string();
        let john_id = login(&app, JOHN).await["user"]["id"].as_str().unwrap().to_string();
        let before = feed(&app, &anna_id).await.len();
        let (_, body) = post(&app, "/admin/notifications", &admin, json!({
            "title": "For John", "message": "<p>x</p>", "audience": [JOHN],
        })).await;
        assert_eq!(feed(&app, &anna_id).await.len(), before, "Anna is not an addressee");
        let john_feed = feed(&app, &john_id).await;
        let n = john_feed.len();
        assert_eq!(john_feed[n - 2].0, "notification");
        assert_eq!(john_feed[n - 2].1["notification"]["id"], body["id"]);
        assert_eq!(john_feed[n - 2].1["notification"]["read"], json!(false));
        let through = last_broadcast(&app).await;
        assert_eq!(john_feed[n - 1].1, json!({ "name": "notifications", "count": 6, "through": through }));

        // An app update is for everyone: one broadcast, nothing in the users' own feeds.
        let (anna_before, john_before) = (feed(&app, &anna_id).await.len(), feed(&app, &john_id).await.len());
        let (_, body) = post(&app, "/admin/updates", &admin, update("Faster search")).await;
        let (seq, kind, payload) = broadcasts(&app).await.pop().unwrap();
        assert_eq!(seq, through + 1);
        assert_eq!(kind, "app_update");
        assert_eq!(payload["update"]["id"], body["id"]);
        assert_eq!(payload["update"]["name"], json!("Faster search"));
        assert_eq!(payload["update"]["read"], json!(false));
        assert_eq!(feed(&app, &anna_id).await.len(), anna_before);
        assert_eq!(feed(&app, &john_id).await.len(), john_before);
        // The count as of that broadcast includes it.
        let anna = app.token(ANNA).await;
        let (_, counts) = get(&app, "/badges", &anna).await;
        assert_eq!((counts["updates"].clone(), counts["broadcast_seq"].clone()), (json!(1), json!(seq)));

        // Viewing it: the viewer's own badge, counted as of the same broadcast.
        let id = body["id"].as_i64().unwrap();
        assert_eq!(get(&app, &format!("/updates/{id}"), &anna).await.0, StatusCode::OK);
        let messages = feed(&app, &anna_id).await;
        assert_eq!(messages.last().unwrap().1, json!({ "name": "updates", "count": 0, "through": seq }));
    }

    async fn a_notification_for_everyone_is_one_broadcast(app) {
        let admin = app.token(ADMIN).await;
        // Anna reads one first, so the users' unread counts differ.
        let anna = app.token(ANNA).await;
        assert_eq!(get(&app, "/push/3", &anna).await.0, StatusCode::OK);
        let mut users = Vec::new();
        for email in [ANNA, JOHN, MARCO, ADMIN] {
            let token = app.token(email).await;
            let user_id = login(&app, email).await["user"]["id"].as_str().unwrap().to_string();
            let before = (feed(&app, &user_id).await.len(), badges(&app, &token).await.0);
            users.push((email, token, user_id, before));
        }
        let through = last_broadcast(&app).await;
        let (status, body) = post(&app, "/admin/notifications", &admin, json!({
            "title": "For everyone", "message": "<p>x</p>", "audience": "everyone",
        })).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");

        // One row, whatever the number of users, read for nobody in particular.
        let all = broadcasts(&app).await;
        let (seq, kind, payload) = all.last().unwrap().clone();
        assert_eq!(seq, through + 1);
        assert_eq!(kind, "notification");
        assert_eq!(payload["notification"]["id"], body["id"]);
        assert_eq!(payload["notification"]["title"], json!("For everyone"));
        assert_eq!(payload["notification"]["read"], json!(false));
        // The broadcasts' numbers run on without a gap or a repeat.
        assert_eq!(all.iter().map(|b| b.0).collect::<Vec<_>>(), (1..=seq).collect::<Vec<_>>());
        for (email, token, user_id, (feed_before, unread_before)) in &users {
            // Nothing in the users' own feeds; each count, as of this broadcast, includes it.
            assert_eq!(feed(&app, user_id).await.len(), *feed_before, "{email}");
            let (_, counts) = get(&app, "/badges", token).await;
            assert_eq!(counts["notifications"], json!(unread_before + 1), "{email}");
            assert_eq!(counts["broadcast_seq"], json!(seq), "{email}");
        }
    }

    async fn a_new_update_is_offered_until_viewed(app) {
        let admin = app.token(ADMIN).await;
        let anna = app.token(ANNA).await;
        let (_, body) = post(&app, "/admin/updates", &admin, update("Faster search")).await;
        let id = body["id"].as_i64().unwrap();
        assert_eq!(login(&app, ANNA).await["update_id"], json!(id));
        assert_eq!(login(&app, JOHN).await["update_id"], json!(id));
        let res = app.post_json("/users/welcome", Some(&anna), &json!({})).await;
        assert_eq!(json_of(res).await.1["update_id"], json!(id));
        let (_, list) = get(&app, "/updates", &anna).await;
        assert_eq!(list[0]["id"], json!(id));
        assert_eq!(list[0]["read"], json!(false));
        assert_eq!(badges(&app, &anna).await.1, 1);

        let (status, detail) = get(&app, &format!("/updates/{id}"), &anna).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(detail["read"], json!(true));
        assert_eq!(detail["url"], json!("/app/news/15"));
        assert_eq!(detail["gallery"], json!([
            { "big": "/media/updates/update-1-1.svg", "title": null },
            { "big": "/media/updates/update-1-2.svg", "title": "Two" },
        ]));
        assert_eq!(login(&app, ANNA).await["update_id"], Value::Null);
        assert_eq!(badges(&app, &anna).await.1, 0);
        // Still pending for John, who has not seen it.
        assert_eq!(login(&app, JOHN).await["update_id"], json!(id));

        let (status, _) = get(&app, &format!("/updates/{id}"), &anna).await;
        assert_eq!(status, StatusCode::OK);
        // The seed's views of the two demo updates (one per demo user) plus Anna's, once.
        let demo_users = on_db!(&app.state.db, pool => sqlx::query_scalar::<_, i64>(
            "select count(*) from users").fetch_one(pool).await).unwrap();
        assert_eq!(count_events(&app, "Inbox", "UpdateViewed").await, 2 * demo_users + 1);
        for missing in ["/updates/99", "/updates/x"] {
            let (status, body) = get(&app, missing, &anna).await;
            assert_eq!(status, StatusCode::NOT_FOUND);
            assert_eq!(body["message"], json!("App update not found"));
        }
    }

    async fn messages_are_listed_marked_and_answered(app) {
        let anna = app.token(ANNA).await;
        let marco = app.token(MARCO).await;
        let (status, body) = get(&app, "/messages", &anna).await;
        assert_eq!(status, StatusCode::OK);
        let ids: Vec<i64> = body["data"].as_array().unwrap().iter().map(|m| m["messageId"].as_i64().unwrap()).collect();
        assert_eq!(ids, vec![4, 3, 2, 1]);
        assert_eq!(body["data"][0]["status"], json!(0));
        // Round 2's survey is for Anna and John only.
        let (_, body) = get(&app, "/messages?roundId=2", &marco).await;
        assert_eq!(body["data"].as_array().unwrap().len(), 1);
        let (_, body) = get(&app, "/messages?roundId=1", &anna).await;
        assert_eq!(body["data"].as_array().unwrap().len(), 2);
        let (status, _) = get(&app, "/messages?roundId=abc", &anna).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);

        let (status, item) = post(&app, "/messages", &anna, json!({ "messageId": 1 })).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(item["status"], json!(1));
        let (status, _) = post(&app, "/messages", &anna, json!({ "messageId": 1, "status": 7 })).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        let (status, _) = post(&app, "/messages", &marco, json!({ "messageId": 3 })).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (status, _) = post(&app, "/messages", &anna, json!({})).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);

        let (status, item) = post(&app, "/messages/reply", &anna, json!({ "messageId": 1, "reply": "  Surgical techniques " })).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(item["status"], json!(2));
        assert_eq!(item["reply"], json!("Surgical techniques"));
        // Marking it seen again keeps the answer.
        let (_, item) = post(&app, "/messages", &anna, json!({ "messageId": 1, "status": 1 })).await;
        assert_eq!(item["status"], json!(2));
        assert_eq!(item["reply"], json!("Surgical techniques"));
        let (status, body) = post(&app, "/messages/reply", &anna, json!({ "messageId": 1, "reply": " " })).await;
        assert_eq!((status, body["message"].clone()), (StatusCode::BAD_REQUEST, json!("The reply is required")));
        let (status, body) = post(&app, "/messages/reply", &anna, json!({ "messageId": 4, "reply": "ok" })).await;
        assert_eq!((status, body["message"].clone()), (StatusCode::BAD_REQUEST, json!("This message takes no reply")));
        let (status, _) = post(&app, "/messages/reply", &anna, json!({ "messageId": 1, "reply": "x".repeat(2001) })).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        // Answers are per user.
        let (_, body) = get(&app, "/messages?roundId=1", &marco).await;
        assert!(body["data"].as_array().unwrap().iter().all(|m| m["status"] == json!(0) && m["reply"].is_null()));
    }

    async fn call_to_action_urls_come_from_the_content(app) {
        let anna = app.token(ANNA).await;
        let (status, body) = get(&app, "/url-cta", &anna).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body["support"], json!("mailto:support@example.com"));
        assert_eq!(body["whats_new"], json!("/app/new"));
        assert_eq!(app.get("/url-cta", None).await.status(), StatusCode::UNAUTHORIZED);
    }

    async fn the_command_line_publishes(app) {
        let john = app.token(JOHN).await;
        let run = |args: Vec<String>| async move {
            #[derive(Parser)]
            struct Companion {
                #[command(subcommand)]
                what: PublishCommand,
            }
            cli::run(Companion::try_parse_from(args).expect("arguments").what).await
        };
        let config = &app.state.config;
        let common = vec![
            "--database-url".to_string(), config.database_url(),
            "--data-dir".to_string(), config.data_dir.display().to_string(),
            "--content-dir".to_string(), config.content_dir.display().to_string(),
        ];
        let with = |args: &[&str]| {
            let mut all = vec!["companion".to_string()];
            all.extend(args.iter().map(|a| a.to_string()));
            all.extend(common.clone());
            all
        };

        let published = run(with(&["notification", "--title", "From the desk", "--message", "<p>Hi<script>x()</script></p>",
            "--link-type", "news", "--link-id", "15", "--to", JOHN])).await.expect("published");
        assert_eq!(published, Publication::Notification(6));
        let refused = run(with(&["notification", "--title", " ", "--message", "x"])).await.unwrap_err();
        assert_eq!(refused.to_string(), "The title is required");

        let file = config.data_dir.join("update.json");
        std::fs::write(&file, json!({
            "name": "From a file", "release": "3.0.0",
            "gallery": [{ "image": "/media/updates/update-2-1.svg", "title": "One" }], "url": "/app/learn"
        }).to_string()).unwrap();
        let published = run(with(&["update", "--file", file.to_str().unwrap(), "--release", "3.0.1"])).await.expect("published");
        assert_eq!(published, Publication::Update(3));

        // The server's projector picks the events up (on PostgreSQL once older transactions end).
        app.state.projector.wake();
        let mut seen = (Value::Null, Value::Null);
        for _ in 0..100 {
            let (_, list) = get(&app, "/notifications", &john).await;
            let (_, updates) = get(&app, "/updates", &john).await;
            seen = (list[0].clone(), updates[0].clone());
            if seen.0["id"] == json!(6) && seen.1["id"] == json!(3) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let (notification, update) = seen;
        assert_eq!(notification["id"], json!(6), "the notification reaches the list");
        assert_eq!(notification["message"], json!("<p>Hi</p>"));
        assert_eq!(notification["link"], json!({ "type": "news", "id": 15 }));
        assert_eq!(update["name"], json!("From a file"));
        assert_eq!(update["release"], json!("3.0.1"));
        assert_eq!(login(&app, JOHN).await["update_id"], json!(3));
    }

    async fn a_rebuild_equals_the_live_read_models(app) {
        let admin = app.token(ADMIN).await;
        let anna = app.token(ANNA).await;
        post(&app, "/admin/notifications", &admin, json!({ "title": "T", "message": "m", "audience": [ANNA] })).await;
        post(&app, "/admin/updates", &admin, update("U")).await;
        get(&app, "/push/6", &anna).await;
        get(&app, "/push/1", &anna).await;
        get(&app, "/updates/3", &anna).await;
        let report = backend::replay::run(&app.state.db, &app.state.config, &["notifications".to_string()])
            .await
            .expect("replay");
        assert!(report.differences.is_empty(), "{:?}", report.differences);
        assert!(report.rows_compared > 20, "{}", report.rows_compared);
    }
}
