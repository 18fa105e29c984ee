// Over 600 lines: one test per documents rule and refusal, over one shared HTTP harness.
//! Documents and folders through the HTTP API, on both databases: every command, every rule
//! and every refusal, the demo seed, files, shares, copies, history and as-of.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::both_dbs;
use crate::helpers::{json_of, TestApp};

pub const PDF: &[u8] = b"%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n";
pub const XLS: &[u8] = &[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1, 0, 0, 0, 0];
const EXE: &[u8] = b"MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff";
const DEPTH_MESSAGE: &str = "You cannot create further folders, you have reached max depth level";
const RECIPIENT_MESSAGE: &str = "The user associated with that e-mail was not found. Check again the e-mail or try an external share.";

pub async fn list(app: &TestApp, token: &str, path: &str) -> Vec<Value> {
    let (status, body) = json_of(app.get(path, Some(token)).await).await;
    assert_eq!(status, StatusCode::OK, "{path}: {body}");
    body["list"].as_array().cloned().unwrap_or_default()
}

pub fn titled<'a>(items: &'a [Value], title: &str) -> &'a Value {
    items
        .iter()
        .find(|i| i["title"] == title)
        .unwrap_or_else(|| panic!("no item titled {title} in {items:?}"))
}

pub fn id_of(item: &Value) -> String {
    item["id"].as_str().expect("id").to_string()
}

/// The id of an item at the root of Anna's (or anyone's) My Docs.
pub async fn my_item(app: &TestApp, token: &str, title: &str) -> String {
    id_of(titled(&list(app, token, "/documents/my").await, title))
}

pub async fn create_folder(
    app: &TestApp,
    token: &str,
    name: &str,
    parent: Option<&str>,
) -> (StatusCode, Value) {
    json_of(
        app.post_json(
            "/folders",
            Some(token),
            &json!({ "name": name, "type": "my", "parent": parent }),
        )
        .await,
    )
    .await
}

pub async fn new_folder(app: &TestApp, token: &str, name: &str, parent: Option<&str>) -> String {
    let (status, body) = create_folder(app, token, name, parent).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    id_of(&body)
}

pub async fn upload(
    app: &TestApp,
    token: &str,
    name: Option<&str>,
    file: Option<(&str, &[u8])>,
    parent: &str,
) -> (StatusCode, Value) {
    let mut form = reqwest::multipart::Form::new().text("parent", parent.to_string());
    if let Some(name) = name {
        form = form.text("name", name.to_string());
    }
    if let Some((file_name, bytes)) = file {
        form = form.part(
            "file",
            reqwest::multipart::Part::bytes(bytes.to_vec()).file_name(file_name.to_string()),
        );
    }
    let res = app
        .client
        .post(app.url("/documents/upload"))
        .bearer_auth(token)
        .multipart(form)
        .send()
        .await
        .expect("upload");
    json_of(res).await
}

pub async fn new_file(app: &TestApp, token: &str, name: &str, parent: Option<&str>) -> String {
    let (status, body) = upload(
        app,
        token,
        Some(name),
        Some(("doc.pdf", PDF)),
        parent.unwrap_or(""),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    id_of(&body)
}

pub async fn post(app: &TestApp, token: &str, path: &str, body: Value) -> (StatusCode, Value) {
    json_of(app.post_json(path, Some(token), &body).await).await
}

async fn feed(app: &TestApp, email: &str) -> Vec<(String, Value)> {
    let user = backend::auth::User::find_by_email(&app.state.db, email)
        .await
        .unwrap()
        .unwrap();
    let rows: Vec<(String, String)> = projections::on_db!(&app.state.db, pool => sqlx::query_as(
        "select kind, payload from user_feed where user_id = $1 order by seq")
        .bind(&user.id).fetch_all(pool).await)
    .unwrap();
    rows.into_iter()
        .map(|(k, p)| (k, serde_json::from_str(&p).unwrap()))
        .collect()
}

fn last_badge(feed: &[(String, Value)]) -> i64 {
    feed.iter()
        .rev()
        .find(|(k, p)| k == "badge" && p["name"] == "shared")
        .map(|(_, p)| p["count"].as_i64().unwrap())
        .unwrap_or(0)
}

async fn stored_files(app: &TestApp) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(app.state.config.data_dir.join("files"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    names.sort();
    names
}

/// An item's first page of history, its entries turned oldest first (the API answers newest
/// first) so the checks below read in the order things happened.
async fn history(app: &TestApp, token: &str, id: &str) -> (StatusCode, Value) {
    let (status, mut body) = json_of(
        app.get(&format!("/documents/{id}/history"), Some(token))
            .await,
    )
    .await;
    if let Some(entries) = body["entries"].as_array_mut() {
        entries.reverse();
    }
    (status, body)
}

/// The `shared` count of `GET /badges`.
async fn shared_badge(app: &TestApp, token: &str) -> i64 {
    let (status, body) = json_of(app.get("/badges", Some(token)).await).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["shared"].as_i64().expect("shared count")
}

fn actions(item: &Value) -> Vec<&str> {
    item["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect()
}

both_dbs! {
    async fn the_demo_documents_are_seeded_as_commands(app) {
        let anna = app.token(ANNA).await;
        let john = app.token(JOHN).await;
        let my = list(&app, &anna, "/documents/my").await;
        let titles: Vec<&str> = my.iter().map(|i| i["title"].as_str().unwrap()).collect();
        assert_eq!(titles, ["Congress planning with John", "Customer visits", "Product notes",
            "Expense policy summary", "Price list Italy 2026"], "folders first, then files, by title");
        let folder = titled(&my, "Customer visits");
        assert_eq!(folder["type"], "folder");
        assert_eq!(folder["children"], 2);
        assert_eq!(actions(folder), ["rename", "internal_share", "move", "delete"]);
        assert!(folder.get("url").is_none() && folder.get("size").is_none());
        let price = titled(&my, "Price list Italy 2026");
        assert_eq!(price["type"], "file");
        assert_eq!(price["label"], "For internal use");
        assert_eq!(price["for_internal_use"], true);
        assert_eq!(price["controlled_release"], true);
        assert_eq!(price["name"], "price-list-italy-2026.pdf");
        assert_eq!(price["url"], format!("/api/documents/{}/file", id_of(price)));
        assert!(price["size"].as_i64().unwrap() > 1000, "bytes of the real file");
        assert_eq!(actions(price), ["rename", "internal_share", "move", "delete"], "no external share for internal use");
        let expense = titled(&my, "Expense policy summary");
        assert_eq!(actions(expense), ["rename", "internal_share", "external_share", "move", "delete"]);
        assert_eq!(expense["unread"], false);
        assert_eq!(expense["owner"], "Anna Rossi");
        assert!(expense["updated_at"].as_i64().unwrap() > 1_700_000_000_000);

        // What John shared with Anna, unread, read-only.
        let shared = list(&app, &anna, "/documents/shared").await;
        assert_eq!(shared.len(), 2, "{shared:?}");
        let notes = titled(&shared, "Shoulder Academy notes");
        assert_eq!(notes["unread"], true);
        assert_eq!(notes["owner"], "John Miller");
        assert_eq!(actions(notes), ["save_to_mydocs", "move_to_mydocs"]);

        // The US set: John (certificate US) only, unread until opened, labels.
        let us = list(&app, &john, "/usadocs").await;
        assert_eq!(us.iter().filter(|i| i["type"] == "folder").count(), 2);
        let policy = titled(&us, "US Surgeon Consulting Policy");
        assert_eq!(policy["label"], "For internal use");
        assert_eq!(policy["unread"], true);
        assert!(policy.get("owner").is_none());
        assert_eq!(actions(policy), ["storage_internal_share", "save_to_mydocs"]);
        assert_eq!(actions(titled(&us, "US Product Catalogue 2026")),
            ["storage_internal_share", "external_share", "save_to_mydocs"]);
        let (status, body) = json_of(app.get("/usadocs", Some(&anna)).await).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");

        // The history shows who created them; the company created the US set.
        let (_, h) = history(&app, &anna, &id_of(price)).await;
        assert_eq!(h["entries"][0]["action"], "uploaded");
        assert_eq!(h["entries"][0]["actor"], "Anna Rossi");
        let (_, h) = history(&app, &john, &id_of(policy)).await;
        assert_eq!(h["entries"][0]["actor"], "Meridian Orthopaedics");
        let (_, h) = history(&app, &john, &id_of(titled(&list(&app, &john, "/documents/shared").await, "Arcadia case notes"))).await;
        let shared_entry = &h["entries"][1];
        assert_eq!(shared_entry["action"], "shared");
        assert_eq!(shared_entry["to"], "John Miller");

        // A second start adds nothing.
        backend::documents::demo::on_first_start(
            &app.state.db,
            &app.state.config,
            backend::read_models::all(),
        )
        .await
        .unwrap();
        assert_eq!(list(&app, &anna, "/documents/my").await.len(), 5);
    }

    async fn lists_are_also_served_by_type(app) {
        let john = app.token(JOHN).await;
        let direct = list(&app, &john, "/documents/shared").await;
        assert_eq!(list(&app, &john, "/documents?type=shared").await, direct);
        assert_eq!(list(&app, &john, "/folders?type=shared").await, direct);
        let (_, body) = json_of(app.get("/folders?type=us", Some(&john)).await).await;
        assert_eq!(body["type"], "us");
        for path in ["/documents?type=nope", "/documents", "/folders?type="] {
            let (status, _) = json_of(app.get(path, Some(&john)).await).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{path}");
        }
        let marco = app.token(MARCO).await;
        assert_eq!(json_of(app.get("/folders?type=us", Some(&marco)).await).await.0, StatusCode::FORBIDDEN);
        assert_eq!(json_of(app.get("/documents/my", None).await).await.0, StatusCode::UNAUTHORIZED);
        assert!(list(&app, &marco, "/documents/my").await.is_empty());
        assert!(list(&app, &marco, "/documents/shared").await.is_empty());
    }

    async fn a_folder_shows_its_contents_and_the_way_back(app) {
        let anna = app.token(ANNA).await;
        let john = app.token(JOHN).await;
        let visits = my_item(&app, &anna, "Customer visits").await;
        let (status, body) = json_of(app.get(&format!("/folders/{visits}?type=my"), Some(&anna)).await).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["name"], "Customer visits");
        assert_eq!(body["type"], "my");
        assert_eq!(body["back"], Value::Null);
        let year = id_of(titled(body["list"].as_array().unwrap(), "2026"));
        let (_, body) = json_of(app.get(&format!("/folders/{year}?type=my"), Some(&anna)).await).await;
        assert_eq!(body["back"], json!({ "id": visits, "name": "Customer visits" }));

        // John sees Anna's shared folder under shared only, with no way above it.
        let shared = list(&app, &john, "/documents/shared").await;
        let planning = id_of(titled(&shared, "Congress planning with John"));
        let (status, body) = json_of(app.get(&format!("/folders/{planning}?type=shared"), Some(&john)).await).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body["back"], Value::Null);
        let inside = body["list"].as_array().unwrap();
        assert_eq!(inside.len(), 2);
        assert!(inside.iter().all(|i| actions(i) == ["save_to_mydocs"]), "read-only for John: {inside:?}");
        for path in [format!("/folders/{planning}?type=my"), format!("/folders/{planning}?type=us"),
                     format!("/folders/{visits}?type=shared")] {
            let (status, _) = json_of(app.get(&path, Some(&john)).await).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        }
        for path in [format!("/folders/{visits}?type=mine"), format!("/folders/{visits}")] {
            assert_eq!(json_of(app.get(&path, Some(&anna)).await).await.0, StatusCode::BAD_REQUEST, "{path}");
        }
        assert_eq!(json_of(app.get("/folders/not-an-id?type=my", Some(&anna)).await).await.0, StatusCode::NOT_FOUND);
        let file = my_item(&app, &anna, "Expense policy summary").await;
        assert_eq!(json_of(app.get(&format!("/folders/{file}?type=my"), Some(&anna)).await).await.0, StatusCode::NOT_FOUND);
        // US folders in the us list.
        let us = list(&app, &john, "/usadocs").await;
        let regulatory = id_of(titled(&us, "US Regulatory"));
        let (status, body) = json_of(app.get(&format!("/folders/{regulatory}?type=us"), Some(&john)).await).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body["list"].as_array().unwrap().len(), 2);
        assert_eq!(json_of(app.get(&format!("/folders/{regulatory}?type=us"), Some(&anna)).await).await.0, StatusCode::NOT_FOUND);
    }

    async fn folders_are_created_in_my_docs_only(app) {
        let anna = app.token(ANNA).await;
        let john = app.token(JOHN).await;
        let (status, body) = create_folder(&app, &anna, "  Plans 2027 ", None).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        assert_eq!(body["title"], "Plans 2027");
        assert_eq!(body["type"], "folder");
        assert_eq!(body["children"], 0);
        assert_eq!(actions(&body), ["rename", "internal_share", "move", "delete"]);
        let plans = id_of(&body);
        let sub = new_folder(&app, &anna, "Sub", Some(&plans)).await;
        let (_, contents) = json_of(app.get(&format!("/folders/{plans}?type=my"), Some(&anna)).await).await;
        assert_eq!(id_of(&contents["list"][0]), sub);
        assert_eq!(titled(&list(&app, &anna, "/documents/my").await, "Plans 2027")["children"], 1);

        // Names: required, at most 200 characters.
        for name in [json!(""), json!("   "), Value::Null] {
            let (status, body) = post(&app, &anna, "/folders", json!({ "name": name, "type": "my", "parent": null })).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{name}");
            assert_eq!(body["message"], "The name is required");
        }
        let (status, _) = create_folder(&app, &anna, &"x".repeat(201), None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        // Not in shared or US folders, not in someone else's.
        let planning = id_of(titled(&list(&app, &john, "/documents/shared").await, "Congress planning with John"));
        let (status, body) = create_folder(&app, &john, "Mine", Some(&planning)).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
        let regulatory = id_of(titled(&list(&app, &john, "/usadocs").await, "US Regulatory"));
        assert_eq!(create_folder(&app, &john, "Mine", Some(&regulatory)).await.0, StatusCode::FORBIDDEN);
        let (status, _) = post(&app, &anna, "/folders", json!({ "name": "X", "type": "shared", "parent": null })).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        let marco = app.token(MARCO).await;
        assert_eq!(create_folder(&app, &marco, "Mine", Some(&plans)).await.0, StatusCode::NOT_FOUND);
        let file = my_item(&app, &anna, "Expense policy summary").await;
        assert_eq!(create_folder(&app, &anna, "In a file", Some(&file)).await.0, StatusCode::BAD_REQUEST);
        // Malformed requests.
        let res = app.post_raw("/folders", Some(&anna), "application/json", "{\"name\": ").await;
        assert_eq!(json_of(res).await.0, StatusCode::BAD_REQUEST);
        let res = app.post_raw("/folders", Some(&anna), "text/plain", "{\"name\": \"x\"}").await;
        assert_eq!(json_of(res).await.0, StatusCode::BAD_REQUEST);
        let res = app.post_raw("/folders", Some(&anna), "application/json", "{\"name\": 5}").await;
        assert_eq!(json_of(res).await.0, StatusCode::BAD_REQUEST);
        assert_eq!(json_of(app.post_json("/folders", None, &json!({ "name": "x" })).await).await.0, StatusCode::UNAUTHORIZED);
    }

    async fn folders_stop_at_the_depth_limit_with_the_spec_message(app) {
        let anna = app.token(ANNA).await;
        let mut parent: Option<String> = None;
        for level in 1..=5 {
            parent = Some(new_folder(&app, &anna, &format!("Level {level}"), parent.as_deref()).await);
        }
        let (status, body) = create_folder(&app, &anna, "Level 6", parent.as_deref()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(body["message"], DEPTH_MESSAGE);
        // A file still goes into the deepest folder.
        new_file(&app, &anna, "Deep file", parent.as_deref()).await;
    }

    async fn renames_change_folders_and_files(app) {
        let anna = app.token(ANNA).await;
        let john = app.token(JOHN).await;
        let folder = my_item(&app, &anna, "Customer visits").await;
        let (status, body) = post(&app, &anna, &format!("/folders/{folder}"), json!({ "name": "Accounts visits" })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["title"], "Accounts visits");
        assert_eq!(body["name"], "Accounts visits");
        let file = my_item(&app, &anna, "Expense policy summary").await;
        let (_, body) = post(&app, &anna, &format!("/folders/{file}"), json!({ "name": "Expenses 2027" })).await;
        assert_eq!(body["title"], "Expenses 2027");
        assert_eq!(body["name"], "Expenses 2027.pdf", "the download name follows");
        for name in [json!(""), json!("  "), Value::Null] {
            let (status, body) = post(&app, &anna, &format!("/folders/{file}"), json!({ "name": name })).await;
            assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some("The name is required")));
        }
        let (status, _) = post(&app, &anna, &format!("/folders/{file}"), json!({})).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        // John may not rename what Anna shared with him; Marco does not see it at all.
        let arcadia = id_of(titled(&list(&app, &john, "/documents/shared").await, "Arcadia case notes"));
        let (status, body) = post(&app, &john, &format!("/folders/{arcadia}"), json!({ "name": "Mine" })).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
        assert_eq!(body["message"], "You are not allowed to rename this item");
        let marco = app.token(MARCO).await;
        assert_eq!(post(&app, &marco, &format!("/folders/{arcadia}"), json!({ "name": "x" })).await.0, StatusCode::NOT_FOUND);
        let us_file = id_of(titled(&list(&app, &john, "/usadocs").await, "US Product Catalogue 2026"));
        assert_eq!(post(&app, &john, &format!("/folders/{us_file}"), json!({ "name": "x" })).await.0, StatusCode::FORBIDDEN);
        let unknown = uuid::Uuid::new_v4();
        assert_eq!(post(&app, &anna, &format!("/folders/{unknown}"), json!({ "name": "x" })).await.0, StatusCode::NOT_FOUND);
        // Nothing changed for the refused ones.
        assert_eq!(titled(&list(&app, &john, "/documents/shared").await, "Arcadia case notes")["title"], "Arcadia case notes");
    }

    async fn moves_keep_the_tree_sound(app) {
        let anna = app.token(ANNA).await;
        let a = new_folder(&app, &anna, "A", None).await;
        let b = new_folder(&app, &anna, "B", Some(&a)).await;
        let c = new_folder(&app, &anna, "C", Some(&b)).await;
        let file = new_file(&app, &anna, "Memo", Some(&c)).await;
        // Into itself or below itself: never.
        for destination in [&a, &b, &c] {
            let (status, body) = post(&app, &anna, "/folders/move", json!({ "destination": destination, "folder": a })).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
            assert_eq!(body["message"], "A folder cannot be moved into itself or into one of its subfolders");
        }
        // To the root and into another folder.
        let (status, body) = post(&app, &anna, "/folders/move", json!({ "destination": null, "folder": c })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert!(list(&app, &anna, "/documents/my").await.iter().any(|i| id_of(i) == c));
        let (status, _) = post(&app, &anna, "/documents/move", json!({ "folder": a, "file": file })).await;
        assert_eq!(status, StatusCode::OK);
        let (_, contents) = json_of(app.get(&format!("/folders/{a}?type=my"), Some(&anna)).await).await;
        let ids: Vec<String> = contents["list"].as_array().unwrap().iter().map(id_of).collect();
        assert!(ids.contains(&file) && ids.contains(&b) && !ids.contains(&c));
        // The tree of the move dialog follows.
        let (_, tree) = json_of(app.get("/folders/list", Some(&anna)).await).await;
        let node_a = tree.as_array().unwrap().iter().find(|n| n["id"] == a.as_str()).unwrap();
        assert_eq!(node_a["folders"][0]["id"], b.as_str());
        assert!(tree.as_array().unwrap().iter().any(|n| n["id"] == c.as_str()));
        // The depth limit holds for moves: A/B plus a 4-level chain would be 6 deep.
        let mut deep = None;
        for level in 1..=4 {
            deep = Some(new_folder(&app, &anna, &format!("D{level}"), deep.as_deref()).await);
        }
        let top = id_of(titled(&list(&app, &anna, "/documents/my").await, "D1"));
        let (status, body) = post(&app, &anna, "/folders/move", json!({ "destination": b, "folder": top })).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(body["message"], "The folder cannot be moved there: it would go past the max depth level");
        // Only into own folders; missing fields; not others' items.
        let john = app.token(JOHN).await;
        let johns = new_folder(&app, &john, "John's", None).await;
        assert_eq!(post(&app, &anna, "/documents/move", json!({ "folder": johns, "file": file })).await.0, StatusCode::NOT_FOUND);
        assert_eq!(post(&app, &anna, "/documents/move", json!({ "folder": file, "file": file })).await.0, StatusCode::BAD_REQUEST);
        assert_eq!(post(&app, &anna, "/folders/move", json!({ "destination": null })).await.0, StatusCode::BAD_REQUEST);
        assert_eq!(post(&app, &anna, "/documents/move", json!({ "folder": null })).await.0, StatusCode::BAD_REQUEST);
        let arcadia = id_of(titled(&list(&app, &john, "/documents/shared").await, "Arcadia case notes"));
        let (status, body) = post(&app, &john, "/documents/move", json!({ "folder": johns, "file": arcadia })).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
        assert_eq!(post(&app, &john, "/folders/move", json!({ "destination": null, "folder": a })).await.0, StatusCode::NOT_FOUND);
        // History says from where to where.
        let (_, h) = history(&app, &anna, &file).await;
        let moved = h["entries"].as_array().unwrap().iter().find(|e| e["action"] == "moved").unwrap();
        assert_eq!((moved["from"].as_str(), moved["to"].as_str()), (Some("C"), Some("A")));
    }

    async fn deleting_a_folder_takes_its_contents_and_records_it(app) {
        let anna = app.token(ANNA).await;
        let john = app.token(JOHN).await;
        let auditor = app.token(AUDITOR).await;
        let top = new_folder(&app, &anna, "Old", None).await;
        let inner = new_folder(&app, &anna, "Older", Some(&top)).await;
        let file = new_file(&app, &anna, "Ancient", Some(&inner)).await;
        let (status, body) = post(&app, &anna, &format!("/folders/{top}/delete"), json!({})).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let mut removed: Vec<String> = body["removed"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect();
        removed.sort();
        let mut expected = vec![inner.clone(), file.clone()];
        expected.sort();
        assert_eq!(removed, expected);
        assert!(!list(&app, &anna, "/documents/my").await.iter().any(|i| id_of(i) == top));
        assert_eq!(json_of(app.get(&format!("/folders/{inner}?type=my"), Some(&anna)).await).await.0, StatusCode::NOT_FOUND);
        assert_eq!(json_of(app.get(&format!("/documents/{file}/file"), Some(&anna)).await).await.0, StatusCode::NOT_FOUND);
        // Gone for Anna, but the auditor reads every step, the contents included.
        assert_eq!(history(&app, &anna, &file).await.0, StatusCode::NOT_FOUND);
        let (status, h) = history(&app, &auditor, &file).await;
        assert_eq!(status, StatusCode::OK);
        let last = h["entries"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(last["action"], "deleted");
        assert_eq!(last["detail"], "Deleted with the folder 'Old'");
        let (_, h) = history(&app, &auditor, &top).await;
        assert_eq!(h["entries"][1]["detail"], "Folder deleted with the 2 items inside");

        // Files are removed from My Docs; the receiver of a shared folder may not delete it.
        let expense = my_item(&app, &anna, "Expense policy summary").await;
        let (status, body) = post(&app, &anna, "/documents/remove", json!({ "id": expense })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert!(!list(&app, &anna, "/documents/my").await.iter().any(|i| id_of(i) == expense));
        assert_eq!(post(&app, &anna, "/documents/remove", json!({ "id": expense })).await.0, StatusCode::NOT_FOUND);
        assert_eq!(post(&app, &anna, "/documents/remove", json!({})).await.0, StatusCode::BAD_REQUEST);
        let planning = id_of(titled(&list(&app, &john, "/documents/shared").await, "Congress planning with John"));
        let (status, body) = post(&app, &john, &format!("/folders/{planning}/delete"), json!({})).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
        assert_eq!(body["message"], "You are not allowed to delete this item");
        let marco = app.token(MARCO).await;
        assert_eq!(post(&app, &marco, &format!("/folders/{planning}/delete"), json!({})).await.0, StatusCode::NOT_FOUND);
        // John, who saw the deleted item... does not: Anna's deletion of the shared folder
        // removes it from his Shared with me and tells him.
        let (status, _) = post(&app, &anna, &format!("/folders/{planning}/delete"), json!({})).await;
        assert_eq!(status, StatusCode::OK);
        assert!(!list(&app, &john, "/documents/shared").await.iter().any(|i| id_of(i) == planning));
        let john_feed = feed(&app, JOHN).await;
        assert!(john_feed.iter().any(|(k, p)| k == "shared_change" && p["change"] == "removed"
            && p["item_id"] == planning.as_str() && p["folder_id"].is_null() && p["item"].is_null()), "{john_feed:?}");
    }

    async fn internal_shares_reach_the_colleague(app) {
        let anna = app.token(ANNA).await;
        let marco = app.token(MARCO).await;
        let folder = new_folder(&app, &anna, "For Marco", None).await;
        new_file(&app, &anna, "Inside", Some(&folder)).await;
        let (status, body) = post(&app, &anna, "/folders/share", json!({ "email": " New.User@example.com ", "folder": folder })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["recipient"], "new.user@example.com");
        let shared = list(&app, &marco, "/documents/shared").await;
        let item = titled(&shared, "For Marco");
        assert_eq!(item["unread"], true);
        assert_eq!(item["owner"], "Anna Rossi");
        assert_eq!(actions(item), ["move_to_mydocs"]);
        let marco_feed = feed(&app, MARCO).await;
        // Earlier entries (demo notifications) may precede it; the share brings exactly one arrival.
        let arrivals: Vec<_> = marco_feed.iter().filter(|(kind, _)| kind == "shared_arrival").collect();
        assert_eq!(arrivals.len(), 1, "{marco_feed:?}");
        assert_eq!(arrivals[0].1["item"]["id"], folder.as_str());
        assert_eq!(last_badge(&marco_feed), 1);
        // Something added inside reaches Marco too, unread, with a change message.
        let late = new_file(&app, &anna, "Added later", Some(&folder)).await;
        let marco_feed = feed(&app, MARCO).await;
        let change = marco_feed.iter().find(|(k, p)| k == "shared_change" && p["change"] == "added").expect("added");
        assert_eq!(change.1["folder_id"], folder.as_str());
        assert_eq!(change.1["item_id"], late.as_str());
        assert_eq!(change.1["item"]["unread"], true);
        let (_, contents) = json_of(app.get(&format!("/folders/{folder}?type=shared"), Some(&marco)).await).await;
        assert_eq!(contents["list"].as_array().unwrap().len(), 2);
        // Opening the folder clears its dot and the badge.
        assert_eq!(titled(&list(&app, &marco, "/documents/shared").await, "For Marco")["unread"], false);
        assert_eq!(last_badge(&feed(&app, MARCO).await), 0);
        // A rename inside tells him as well.
        post(&app, &anna, &format!("/folders/{late}"), json!({ "name": "Renamed later" })).await;
        assert!(feed(&app, MARCO).await.iter().any(|(k, p)| k == "shared_change" && p["change"] == "renamed" && p["item"]["title"] == "Renamed later"));

        // Refusals: unknown colleague (spec text), oneself, no e-mail, receivers re-sharing.
        let (status, body) = post(&app, &anna, "/folders/share", json!({ "email": "nobody@example.com", "folder": folder })).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(body["message"], RECIPIENT_MESSAGE);
        let (status, body) = post(&app, &anna, "/folders/share", json!({ "email": ANNA, "folder": folder })).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(post(&app, &anna, "/folders/share", json!({ "folder": folder })).await.0, StatusCode::BAD_REQUEST);
        assert_eq!(post(&app, &anna, "/folders/share", json!({ "email": JOHN })).await.0, StatusCode::BAD_REQUEST);
        let (status, body) = post(&app, &marco, "/folders/share", json!({ "email": JOHN, "folder": folder })).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
        let john = app.token(JOHN).await;
        assert_eq!(post(&app, &john, "/folders/share", json!({ "email": MARCO, "folder": folder })).await.0, StatusCode::NOT_FOUND);
        // Internal shares ignore labels: the internal-use price list goes to John.
        let price = my_item(&app, &anna, "Price list Italy 2026").await;
        let (status, _) = post(&app, &anna, "/documents/share", json!({ "email": JOHN, "file": price })).await;
        assert_eq!(status, StatusCode::OK);
        assert!(list(&app, &john, "/documents/shared").await.iter().any(|i| id_of(i) == price));
    }

    async fn the_shared_badge_counts_unopened_items_shared_with_me(app) {
        let anna = app.token(ANNA).await;
        let john = app.token(JOHN).await;
        let before = shared_badge(&app, &john).await;
        // The demo shares unread items with John; the badge pushed to his feed says the same.
        assert!(before > 0);
        assert_eq!(before, last_badge(&feed(&app, JOHN).await));
        let file = new_file(&app, &anna, "Badge file", None).await;
        let folder = new_folder(&app, &anna, "Badge folder", None).await;
        new_file(&app, &anna, "Inside the badge folder", Some(&folder)).await;
        let (status, body) = post(&app, &anna, "/documents/share", json!({ "email": JOHN, "file": file })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let (status, body) = post(&app, &anna, "/folders/share", json!({ "email": JOHN, "folder": folder })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        // Two items arrived (what the folder holds is not counted: it is not at the root).
        assert_eq!(shared_badge(&app, &john).await, before + 2);
        assert_eq!(last_badge(&feed(&app, JOHN).await), before + 2);
        // Someone else's badge did not move.
        let marco = app.token(MARCO).await;
        assert_eq!(shared_badge(&app, &marco).await, 0);
        // Opening one lowers it by one.
        assert_eq!(app.get(&format!("/documents/{file}/file"), Some(&john)).await.status(), StatusCode::OK);
        assert_eq!(shared_badge(&app, &john).await, before + 1);
        assert_eq!(last_badge(&feed(&app, JOHN).await), before + 1);
        // Opening it again changes nothing.
        assert_eq!(app.get(&format!("/documents/{file}/file"), Some(&john)).await.status(), StatusCode::OK);
        assert_eq!(shared_badge(&app, &john).await, before + 1);
    }

    async fn the_shared_badge_follows_each_change_without_recounting(app) {
        // Each step is a command of its own, so each batch finds the shares and marks of the
        // earlier ones in the database and moves the stored badge by what it changed.
        let anna = app.token(ANNA).await;
        let john = app.token(JOHN).await;
        let before = shared_badge(&app, &john).await;
        let (app, john) = (&app, &john);
        let expect = |step: &'static str, count: i64| async move {
            assert_eq!(shared_badge(app, john).await, count, "{step}: the badge");
            assert_eq!(last_badge(&feed(app, JOHN).await), count, "{step}: the badge pushed");
        };
        let files: Vec<String> = {
            let mut files = Vec::new();
            for name in ["Badge one", "Badge two", "Badge three"] {
                files.push(new_file(app, &anna, name, None).await);
            }
            files
        };
        let folder = new_folder(app, &anna, "Badge shelf", None).await;
        let inside = new_file(app, &anna, "On the badge shelf", Some(&folder)).await;
        for file in &files {
            let (status, body) = post(app, &anna, "/documents/share", json!({ "email": JOHN, "file": file })).await;
            assert_eq!(status, StatusCode::OK, "{body}");
        }
        expect("three files shared", before + 3).await;
        // A file inside a folder not shared with him, then the folder: both count, the file
        // stays unread (it is shared with him directly).
        let (status, body) = post(app, &anna, "/documents/share", json!({ "email": JOHN, "file": inside })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        expect("the file on the shelf shared", before + 4).await;
        let (status, body) = post(app, &anna, "/folders/share", json!({ "email": JOHN, "folder": folder })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        expect("the shelf shared", before + 5).await;
        // Opened: one less; opened again: nothing.
        for _ in 0..2 {
            let res = app.get(&format!("/documents/{}/file", files[0]), Some(john)).await;
            assert_eq!(res.status(), StatusCode::OK);
            expect("the first file opened", before + 4).await;
        }
        // Deleted by its owner while unread: it leaves the count.
        let (status, body) = post(app, &anna, "/documents/remove", json!({ "id": files[1] })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        expect("the second file deleted", before + 3).await;
        let res = app.get(&format!("/documents/{inside}/file"), Some(john)).await;
        assert_eq!(res.status(), StatusCode::OK);
        expect("the file on the shelf opened", before + 2).await;
        // Moved to his My Docs while unread: no longer shared with him.
        let (status, body) = post(app, john, "/folders/mydocs", json!({ "type": "file", "source": files[2] })).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        expect("the third file moved to My Docs", before + 1).await;
        // The shelf, unread, deleted with what it holds.
        let (status, body) = post(app, &anna, &format!("/folders/{folder}/delete"), json!({})).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        expect("the shelf deleted", before).await;
    }

    async fn storage_shares_pass_us_documents_on(app) {
        let john = app.token(JOHN).await;
        let anna = app.token(ANNA).await;
        let catalogue = id_of(titled(&list(&app, &john, "/usadocs").await, "US Product Catalogue 2026"));
        let (status, body) = post(&app, &john, "/documents/storage-share", json!({ "email": ANNA, "file": catalogue })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let got = titled(&list(&app, &anna, "/documents/shared").await, "US Product Catalogue 2026").clone();
        assert_eq!(actions(&got), ["save_to_mydocs", "move_to_mydocs"]);
        let (_, h) = history(&app, &anna, &catalogue).await;
        assert_eq!(h["entries"].as_array().unwrap().last().unwrap()["detail"], "Shared with Anna Rossi from the company storage");
        // Not for one's own documents, not for folders, not by users outside the US set.
        let own = my_item(&app, &anna, "Expense policy summary").await;
        assert_eq!(post(&app, &anna, "/documents/storage-share", json!({ "email": JOHN, "file": own })).await.0, StatusCode::FORBIDDEN);
        let regulatory = id_of(titled(&list(&app, &john, "/usadocs").await, "US Regulatory"));
        assert_eq!(post(&app, &john, "/documents/storage-share", json!({ "email": ANNA, "file": regulatory })).await.0, StatusCode::FORBIDDEN);
        let marco = app.token(MARCO).await;
        assert_eq!(post(&app, &marco, "/documents/storage-share", json!({ "email": ANNA, "file": catalogue })).await.0, StatusCode::NOT_FOUND);
        let (status, body) = post(&app, &john, "/documents/storage-share", json!({ "email": "ghost@example.com", "file": catalogue })).await;
        assert_eq!((status, body["message"].as_str()), (StatusCode::NOT_FOUND, Some(RECIPIENT_MESSAGE)));
    }

    async fn external_shares_send_an_expiring_link_through_the_outbox(app) {
        let anna = app.token(ANNA).await;
        let file = new_file(&app, &anna, "Handout", None).await;
        let (status, body) = post(&app, &anna, "/documents/external-share", json!({ "email": "Dr.Who@Clinic.example", "file": file })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["recipient"], "dr.who@clinic.example");
        assert!(body["expires_at"].as_i64().unwrap() > projections::now_ms());
        let mails: Vec<(String, String)> = projections::on_db!(&app.state.db, pool => sqlx::query_as(
            "select recipient, body from outbox order by id").fetch_all(pool).await).unwrap();
        assert_eq!(mails.len(), 1);
        assert_eq!(mails[0].0, "dr.who@clinic.example");
        let link = mails[0].1.split_whitespace().find(|w| w.contains("/s/")).expect("link").to_string();
        let token = link.rsplit("/s/").next().unwrap().to_string();
        // The link opens the tracked viewer, which serves the file without signing in.
        let res = app.get(&format!("/s/{token}/file?view=view-000000000001"), None).await;
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(res.headers()["content-type"], "application/pdf");
        assert_eq!(res.bytes().await.unwrap().as_ref(), PDF);
        // The token itself is nowhere in the event store.
        let leaked: i64 = projections::on_db!(&app.state.db, pool => sqlx::query_scalar(
            "select count(*) from events where cast(payload as text) like $1")
            .bind(format!("%{token}%")).fetch_one(pool).await).unwrap();
        assert_eq!(leaked, 0);
        // Expired: gone; unknown: not found.
        projections::on_db!(&app.state.db, pool => sqlx::query("update share_engagement set expires_at = 1")
            .execute(pool).await.map(|r| r.rows_affected())).unwrap();
        assert_eq!(json_of(app.get(&format!("/s/{token}"), None).await).await.0, StatusCode::GONE);
        assert_eq!(json_of(app.get(&format!("/s/{}", "A".repeat(43)), None).await).await.0, StatusCode::NOT_FOUND);
        // History.
        let (_, h) = history(&app, &anna, &file).await;
        let entry = h["entries"].as_array().unwrap().last().unwrap().clone();
        assert_eq!((entry["action"].as_str(), entry["to"].as_str()), (Some("shared_externally"), Some("dr.who@clinic.example")));

        // Labels: internal use never, controlled release / upon request only internally.
        let price = my_item(&app, &anna, "Price list Italy 2026").await;
        let (status, body) = post(&app, &anna, "/documents/external-share", json!({ "email": "x@clinic.example", "file": price })).await;
        assert_eq!((status, body["message"].as_str()), (StatusCode::FORBIDDEN, Some("Documents for internal use cannot be shared externally")));
        let john = app.token(JOHN).await;
        let us = list(&app, &john, "/usadocs").await;
        let regulatory = id_of(titled(&us, "US Regulatory"));
        let (_, contents) = json_of(app.get(&format!("/folders/{regulatory}?type=us"), Some(&john)).await).await;
        let addendum = contents["list"].as_array().unwrap().iter().find(|i| i["controlled_release"] == true).unwrap().clone();
        assert!(!actions(&addendum).contains(&"external_share"));
        let (status, body) = post(&app, &john, "/documents/external-share", json!({ "email": "x@clinic.example", "file": id_of(&addendum) })).await;
        assert_eq!((status, body["message"].as_str()), (StatusCode::FORBIDDEN, Some("This document can be shared only internally")));
        // Folders, received items, bad e-mails.
        let folder = my_item(&app, &anna, "Customer visits").await;
        assert_eq!(post(&app, &anna, "/documents/external-share", json!({ "email": "x@clinic.example", "file": folder })).await.0, StatusCode::FORBIDDEN);
        let arcadia = id_of(titled(&list(&app, &john, "/documents/shared").await, "Arcadia case notes"));
        assert_eq!(post(&app, &john, "/documents/external-share", json!({ "email": "x@clinic.example", "file": arcadia })).await.0, StatusCode::FORBIDDEN);
        assert_eq!(post(&app, &anna, "/documents/external-share", json!({ "email": "not an e-mail", "file": file })).await.0, StatusCode::BAD_REQUEST);
        assert_eq!(post(&app, &anna, "/documents/external-share", json!({ "file": file })).await.0, StatusCode::BAD_REQUEST);
        let mails: i64 = projections::on_db!(&app.state.db, pool => sqlx::query_scalar("select count(*) from outbox").fetch_one(pool).await).unwrap();
        assert_eq!(mails, 1, "refused shares send nothing");
    }

    async fn shared_files_are_saved_to_my_docs_as_copies(app) {
        let john = app.token(JOHN).await;
        let anna = app.token(ANNA).await;
        let arcadia = id_of(titled(&list(&app, &john, "/documents/shared").await, "Arcadia case notes"));
        let (status, copy) = post(&app, &john, "/documents/favorite", json!({ "folder": null, "file": arcadia })).await;
        assert_eq!(status, StatusCode::CREATED, "{copy}");
        assert_ne!(id_of(&copy), arcadia);
        assert_eq!(copy["title"], "Arcadia case notes");
        assert_eq!(copy["owner"], "John Miller");
        assert_eq!(actions(&copy), ["rename", "internal_share", "external_share", "move", "delete"]);
        assert!(list(&app, &john, "/documents/my").await.iter().any(|i| id_of(i) == id_of(&copy)));
        assert!(list(&app, &john, "/documents/shared").await.iter().any(|i| id_of(i) == arcadia), "the original stays");
        let res = app.get(&format!("/documents/{}/file", id_of(&copy)), Some(&john)).await;
        assert_eq!(res.status(), StatusCode::OK);
        assert!(res.bytes().await.unwrap().starts_with(b"%PDF-"));
        let (_, h) = history(&app, &anna, &arcadia).await;
        let entry = h["entries"].as_array().unwrap().iter().find(|e| e["action"] == "saved_to_mydocs").unwrap().clone();
        assert_eq!(entry["actor"], "John Miller");
        // Into one of his folders; US files too; not his own items, not folders, not others' folders.
        let folder = new_folder(&app, &john, "Saved", None).await;
        let catalogue = id_of(titled(&list(&app, &john, "/usadocs").await, "US Product Catalogue 2026"));
        let (status, _) = post(&app, &john, "/documents/favorite", json!({ "folder": folder, "file": catalogue })).await;
        assert_eq!(status, StatusCode::CREATED);
        let (_, contents) = json_of(app.get(&format!("/folders/{folder}?type=my"), Some(&john)).await).await;
        assert_eq!(contents["list"][0]["title"], "US Product Catalogue 2026");
        assert_eq!(post(&app, &john, "/documents/favorite", json!({ "folder": null, "file": id_of(&copy) })).await.0, StatusCode::FORBIDDEN);
        let planning = id_of(titled(&list(&app, &john, "/documents/shared").await, "Congress planning with John"));
        assert_eq!(post(&app, &john, "/documents/favorite", json!({ "folder": null, "file": planning })).await.0, StatusCode::FORBIDDEN);
        assert_eq!(post(&app, &john, "/documents/favorite", json!({ "folder": planning, "file": arcadia })).await.0, StatusCode::FORBIDDEN);
        let marco = app.token(MARCO).await;
        assert_eq!(post(&app, &marco, "/documents/favorite", json!({ "folder": null, "file": arcadia })).await.0, StatusCode::NOT_FOUND);
        assert_eq!(post(&app, &john, "/documents/favorite", json!({ "folder": null })).await.0, StatusCode::BAD_REQUEST);
    }

    async fn a_shared_folder_moves_to_my_docs_with_its_contents(app) {
        let john = app.token(JOHN).await;
        let anna = app.token(ANNA).await;
        let planning = id_of(titled(&list(&app, &john, "/documents/shared").await, "Congress planning with John"));
        let (status, copy) = post(&app, &john, "/folders/mydocs", json!({ "type": "folder", "source": planning })).await;
        assert_eq!(status, StatusCode::CREATED, "{copy}");
        assert_eq!(copy["title"], "Congress planning with John");
        assert_eq!(copy["children"], 2);
        let (_, contents) = json_of(app.get(&format!("/folders/{}?type=my", id_of(&copy)), Some(&john)).await).await;
        let titles: Vec<&str> = contents["list"].as_array().unwrap().iter().map(|i| i["title"].as_str().unwrap()).collect();
        assert_eq!(titles, ["Booth layout draft", "Q4 congress plan"]);
        // It left his Shared with me, and he was told; Anna keeps hers.
        assert!(!list(&app, &john, "/documents/shared").await.iter().any(|i| id_of(i) == planning));
        assert!(feed(&app, JOHN).await.iter().any(|(k, p)| k == "shared_change" && p["change"] == "removed" && p["item_id"] == planning.as_str()));
        assert!(list(&app, &anna, "/documents/my").await.iter().any(|i| id_of(i) == planning));
        let (_, h) = history(&app, &anna, &planning).await;
        assert_eq!(h["entries"].as_array().unwrap().last().unwrap()["action"], "moved_to_mydocs");
        // Again: it is no longer his to move. Other refusals.
        assert_eq!(post(&app, &john, "/folders/mydocs", json!({ "type": "folder", "source": planning })).await.0, StatusCode::NOT_FOUND);
        let own = my_item(&app, &anna, "Customer visits").await;
        assert_eq!(post(&app, &anna, "/folders/mydocs", json!({ "type": "folder", "source": own })).await.0, StatusCode::FORBIDDEN);
        assert_eq!(post(&app, &anna, "/folders/mydocs", json!({ "type": "folder" })).await.0, StatusCode::BAD_REQUEST);
        assert_eq!(post(&app, &anna, "/folders/mydocs", json!({ "type": "weird", "source": own })).await.0, StatusCode::BAD_REQUEST);
        // A shared file moves too.
        let notes = id_of(titled(&list(&app, &anna, "/documents/shared").await, "Shoulder Academy notes"));
        let (status, _) = post(&app, &anna, "/folders/mydocs", json!({ "type": "file", "source": notes })).await;
        assert_eq!(status, StatusCode::CREATED);
        assert!(titled(&list(&app, &anna, "/documents/my").await, "Shoulder Academy notes")["owner"] == "Anna Rossi");
    }

    async fn uploads_take_pdf_and_xls_only_checked_by_content_and_name(app) {
        let anna = app.token(ANNA).await;
        let before = stored_files(&app).await;
        let (status, body) = upload(&app, &anna, Some("Visit plan"), Some(("plan.pdf", PDF)), "").await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        assert_eq!(body["title"], "Visit plan");
        assert_eq!(body["name"], "Visit plan.pdf");
        assert_eq!(body["size"], PDF.len());
        assert_eq!(body["unread"], false);
        let folder = my_item(&app, &anna, "Customer visits").await;
        let (status, body) = upload(&app, &anna, Some("Accounts"), Some(("accounts.XLS", XLS)), &folder).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        let xls = id_of(&body);
        let res = app.get(&format!("/documents/{xls}/file?download=1"), Some(&anna)).await;
        assert_eq!(res.headers()["content-type"], "application/vnd.ms-excel");
        assert_eq!(res.headers()["content-disposition"], "attachment; filename=\"Accounts.xls\"; filename*=UTF-8''Accounts.xls");
        assert_eq!(res.bytes().await.unwrap().as_ref(), XLS);
        let after_good = stored_files(&app).await;
        assert_eq!(after_good.len(), before.len() + 2);
        // Stored under server-made names, whatever the client called the file.
        let (status, body) = upload(&app, &anna, Some("Sneaky"), Some(("../../../etc/passwd.pdf", PDF)), "").await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        let now = stored_files(&app).await;
        let new: Vec<&String> = now.iter().filter(|n| !after_good.contains(n)).collect();
        assert_eq!(new.len(), 1);
        assert!(new[0].len() == 36 && new[0].ends_with(".pdf") && new[0][..32].chars().all(|c| c.is_ascii_hexdigit()), "{new:?}");
        assert!(!app.state.config.data_dir.join("etc").exists());
        let stored_count = now.len();

        // Wrong types: an .exe renamed .pdf, a PDF named .xls, text.
        for (name, bytes) in [("setup.pdf", EXE), ("sheet.xls", PDF), ("notes.txt", b"hello".as_slice()), ("plan", PDF)] {
            let (status, body) = upload(&app, &anna, Some("Bad"), Some((name, bytes)), "").await;
            assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{name}: {body}");
            assert_eq!(body["message"], "Only PDF and XLS files can be uploaded");
        }
        // Missing parts, shared or unknown folders.
        let (status, body) = upload(&app, &anna, Some("No file"), None, "").await;
        assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some("The file is required")));
        let (status, body) = upload(&app, &anna, None, Some(("plan.pdf", PDF)), "").await;
        assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some("The name is required")));
        let (status, _) = upload(&app, &anna, Some("  "), Some(("plan.pdf", PDF)), "").await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        let john = app.token(JOHN).await;
        let planning = id_of(titled(&list(&app, &john, "/documents/shared").await, "Congress planning with John"));
        assert_eq!(upload(&app, &john, Some("Mine"), Some(("m.pdf", PDF)), &planning).await.0, StatusCode::FORBIDDEN);
        assert_eq!(upload(&app, &anna, Some("Lost"), Some(("m.pdf", PDF)), &uuid::Uuid::new_v4().to_string()).await.0, StatusCode::NOT_FOUND);
        assert_eq!(upload(&app, &anna, Some("Lost"), Some(("m.pdf", PDF)), "not-an-id").await.0, StatusCode::NOT_FOUND);
        let res = app.post_raw("/documents/upload", Some(&anna), "application/json", "{}").await;
        assert_eq!(json_of(res).await.0, StatusCode::BAD_REQUEST);
        let res = app.post_raw("/documents/upload", Some(&anna), "multipart/form-data; boundary=x", "garbage").await;
        assert_eq!(json_of(res).await.0, StatusCode::BAD_REQUEST);
        // Nothing refused stays in storage.
        assert_eq!(stored_files(&app).await.len(), stored_count);
    }

    async fn files_open_and_download_for_those_who_see_them(app) {
        let john = app.token(JOHN).await;
        let arcadia = titled(&list(&app, &john, "/documents/shared").await, "Arcadia case notes").clone();
        assert_eq!(arcadia["unread"], true);
        let badge_before = last_badge(&feed(&app, JOHN).await);
        let url = arcadia["url"].as_str().unwrap().trim_start_matches("/api").to_string();
        let res = app.get(&url, Some(&john)).await;
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(res.headers()["content-disposition"], "inline; filename=\"arcadia-case-notes.pdf\"; filename*=UTF-8''arcadia-case-notes.pdf");
        assert_eq!(res.headers()["x-content-type-options"], "nosniff");
        assert!(res.bytes().await.unwrap().starts_with(b"%PDF-"));
        assert_eq!(titled(&list(&app, &john, "/documents/shared").await, "Arcadia case notes")["unread"], false);
        assert_eq!(last_badge(&feed(&app, JOHN).await), badge_before - 1);
        let res = app.get(&format!("{url}?download=1"), Some(&john)).await;
        assert!(res.headers()["content-disposition"].to_str().unwrap().starts_with("attachment;"));
        // US files are unread for John until he opens one.
        let catalogue = titled(&list(&app, &john, "/usadocs").await, "US Product Catalogue 2026").clone();
        assert_eq!(catalogue["unread"], true);
        assert_eq!(app.get(&format!("/documents/{}/file", id_of(&catalogue)), Some(&john)).await.status(), StatusCode::OK);
        assert_eq!(titled(&list(&app, &john, "/usadocs").await, "US Product Catalogue 2026")["unread"], false);
        // Same authorisation as the lists.
        for who in [MARCO, AUDITOR] {
            let token = app.token(who).await;
            assert_eq!(json_of(app.get(&url, Some(&token)).await).await.0, StatusCode::NOT_FOUND, "{who}");
        }
        let anna = app.token(ANNA).await;
        assert_eq!(json_of(app.get(&format!("/documents/{}/file", id_of(&catalogue)), Some(&anna)).await).await.0, StatusCode::NOT_FOUND);
        assert_eq!(json_of(app.get(&url, None).await).await.0, StatusCode::UNAUTHORIZED);
        let folder = my_item(&app, &anna, "Customer visits").await;
        assert_eq!(json_of(app.get(&format!("/documents/{folder}/file?download=1"), Some(&anna)).await).await.0, StatusCode::BAD_REQUEST);
        // History: who read what.
        let (_, h) = history(&app, &anna, &id_of(&arcadia)).await;
        let reads: Vec<(String, String)> = h["entries"].as_array().unwrap().iter()
            .filter(|e| e["action"] == "opened" || e["action"] == "downloaded")
            .map(|e| (e["action"].as_str().unwrap().to_string(), e["actor"].as_str().unwrap().to_string())).collect();
        assert_eq!(reads, [("opened".to_string(), "John Miller".to_string()), ("downloaded".to_string(), "John Miller".to_string())]);
    }

    async fn recipients_are_looked_up_by_e_mail(app) {
        let anna = app.token(ANNA).await;
        let (status, body) = json_of(app.get("/users/share-list?search=JOHN", Some(&anna)).await).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body, json!(["john.miller@example.com"]));
        let (_, body) = json_of(app.get("/users/share-list?search=e", Some(&anna)).await).await;
        let emails: Vec<&str> = body.as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
        assert!(!emails.contains(&ANNA), "never oneself");
        assert!(emails.contains(&JOHN) && emails.len() <= 20);
        for i in 0..25 {
            backend::auth::User::insert(&app.state.db, backend::auth::NewUser {
                email: &format!("colleague{i:02}@example.com"), first_name: "C", last_name: "L", password_hash: None,
                role: backend::auth::Role::User, certificate: None, terms_accepted: true, onboarding_done: true,
            }).await.unwrap();
        }
        let (_, body) = json_of(app.get("/users/share-list?search=colleague", Some(&anna)).await).await;
        assert_eq!(body.as_array().unwrap().len(), 20, "at most 20");
        for path in ["/users/share-list", "/users/share-list?search=", "/users/share-list?search=%20%20"] {
            assert_eq!(json_of(app.get(path, Some(&anna)).await).await.0, StatusCode::BAD_REQUEST, "{path}");
        }
        assert_eq!(json_of(app.get("/users/share-list?search=jo", None).await).await.0, StatusCode::UNAUTHORIZED);
    }

    async fn history_is_for_those_who_see_the_item_and_the_auditor(app) {
        let anna = app.token(ANNA).await;
        let john = app.token(JOHN).await;
        let marco = app.token(MARCO).await;
        let auditor = app.token(AUDITOR).await;
        let folder = new_folder(&app, &anna, "Audit me", None).await;
        let file = new_file(&app, &anna, "Report", Some(&folder)).await;
        post(&app, &anna, &format!("/folders/{file}"), json!({ "name": "Report v2" })).await;
        post(&app, &anna, "/documents/move", json!({ "folder": null, "file": file })).await;
        post(&app, &anna, "/documents/share", json!({ "email": JOHN, "file": file })).await;
        app.get(&format!("/documents/{file}/file"), Some(&john)).await;
        let (status, h) = history(&app, &anna, &file).await;
        assert_eq!(status, StatusCode::OK, "{h}");
        assert_eq!((&h["item"]["id"], &h["item"]["name"], &h["item"]["type"], &h["item"]["as_of"]),
            (&json!(file), &json!("Report v2"), &json!("file"), &json!(false)));
        assert_eq!((&h["item"]["reads"]["opens"], &h["item"]["reads"]["readers"]), (&json!(1), &json!(1)));
        let steps: Vec<&str> = h["entries"].as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap()).collect();
        assert_eq!(steps, ["uploaded", "renamed", "moved", "shared", "opened"]);
        let renamed = &h["entries"][1];
        assert_eq!((renamed["from"].as_str(), renamed["to"].as_str()), (Some("Report"), Some("Report v2")));
        assert_eq!(h["entries"][2]["to"], "My docs");
        assert_eq!(h["entries"][0]["actor_email"], ANNA);
        let times: Vec<i64> = h["entries"].as_array().unwrap().iter().map(|e| e["at"].as_i64().unwrap()).collect();
        assert!(times.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(history(&app, &john, &file).await.0, StatusCode::OK);
        assert_eq!(history(&app, &marco, &file).await.0, StatusCode::NOT_FOUND);
        assert_eq!(history(&app, &auditor, &file).await.0, StatusCode::OK);
        assert_eq!(history(&app, &anna, &folder).await.1["item"]["type"], "folder");
        assert_eq!(history(&app, &auditor, &uuid::Uuid::new_v4().to_string()).await.0, StatusCode::NOT_FOUND);
        // CSV for the auditor only.
        let res = app.get(&format!("/documents/{file}/history.csv"), Some(&auditor)).await;
        assert_eq!(res.status(), StatusCode::OK);
        assert!(res.headers()["content-type"].to_str().unwrap().starts_with("text/csv"));
        let csv = res.text().await.unwrap();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], "at,actor,actor_email,action,detail,from,to");
        assert_eq!(lines.len(), 6);
        // Newest first, as the history.
        assert!(lines[4].contains("\"renamed\"") && lines[4].contains("\"Report\",\"Report v2\""), "{csv}");
        for who in [&anna, &john] {
            assert_eq!(json_of(app.get(&format!("/documents/{file}/history.csv"), Some(who)).await).await.0, StatusCode::FORBIDDEN);
        }
    }

    async fn a_folder_is_shown_as_it_was_at_a_past_time(app) {
        let anna = app.token(ANNA).await;
        let auditor = app.token(AUDITOR).await;
        let folder = new_folder(&app, &anna, "Timeline", None).await;
        let first = new_file(&app, &anna, "First", Some(&folder)).await;
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        let then = chrono::Utc::now();
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        post(&app, &anna, &format!("/folders/{first}"), json!({ "name": "First, renamed" })).await;
        new_file(&app, &anna, "Second", Some(&folder)).await;
        let at = then.to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        let (status, body) = json_of(app.get(&format!("/folders/{folder}/as-of?at={at}"), Some(&auditor)).await).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["name"], "Timeline");
        let titles: Vec<&str> = body["list"].as_array().unwrap().iter().map(|i| i["title"].as_str().unwrap()).collect();
        assert_eq!(titles, ["First"]);
        assert_eq!(body["list"][0]["actions"], json!([]));
        // Now, for the owner.
        let now = (chrono::Utc::now() + chrono::Duration::seconds(1)).to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        let (_, body) = json_of(app.get(&format!("/folders/{folder}/as-of?at={now}"), Some(&anna)).await).await;
        assert_eq!(body["list"].as_array().unwrap().len(), 2);
        // Before it existed; bad times; not for others.
        assert_eq!(json_of(app.get(&format!("/folders/{folder}/as-of?at=2020-01-01T00:00:00Z"), Some(&auditor)).await).await.0, StatusCode::NOT_FOUND);
        for bad in ["", "?at=yesterday", "?at=2026-13-01T00:00:00Z"] {
            assert_eq!(json_of(app.get(&format!("/folders/{folder}/as-of{bad}"), Some(&auditor)).await).await.0, StatusCode::BAD_REQUEST, "{bad}");
        }
        let marco = app.token(MARCO).await;
        assert_eq!(json_of(app.get(&format!("/folders/{folder}/as-of?at={now}"), Some(&marco)).await).await.0, StatusCode::NOT_FOUND);
    }

    async fn concurrent_renames_of_one_item_are_never_half_applied(app) {
        let anna = app.token(ANNA).await;
        let file = new_file(&app, &anna, "Contended", None).await;
        let mut tasks = Vec::new();
        for i in 0..16 {
            let (client, url, token) = (app.client.clone(), app.url(&format!("/folders/{file}")), anna.clone());
            tasks.push(tokio::spawn(async move {
                let res = client.post(url).bearer_auth(token).json(&json!({ "name": format!("Name {i}") })).send().await.unwrap();
                res.status()
            }));
        }
        let mut ok = 0;
        for t in tasks {
            let status = t.await.unwrap();
            assert!(status == StatusCode::OK || status == StatusCode::CONFLICT, "{status}");
            if status == StatusCode::OK { ok += 1; }
        }
        let events = projections::stream::events_of(&app.state.db, "document_item", &file).await.unwrap();
        let renames: Vec<String> = events.iter().filter(|e| e.event_type == "Renamed")
            .map(|e| e.payload_value().unwrap()["Renamed"]["to"].as_str().unwrap().to_string()).collect();
        assert_eq!(renames.len(), ok, "one event per accepted rename, none for refused ones");
        let (_, h) = history(&app, &anna, &file).await;
        assert_eq!(h["item"]["name"].as_str(), renames.last().map(String::as_str));
        let shown = list(&app, &anna, "/documents/my").await;
        assert!(shown.iter().any(|i| id_of(i) == file && i["title"].as_str() == renames.last().map(String::as_str)));
    }
}

mod limits {
    use super::*;
    use crate::helpers::{spawn_app_with, Engine, ANNA};

    async fn check(app: TestApp) {
        let anna = app.token(ANNA).await;
        // MAX_FOLDER_DEPTH=2.
        let one = new_folder(&app, &anna, "One", None).await;
        let two = new_folder(&app, &anna, "Two", Some(&one)).await;
        let (status, body) = create_folder(&app, &anna, "Three", Some(&two)).await;
        assert_eq!(
            (status, body["message"].as_str()),
            (StatusCode::BAD_REQUEST, Some(DEPTH_MESSAGE))
        );
        // UPLOAD_MAX_BYTES=1024.
        let before = stored_files(&app).await.len();
        let mut big = PDF.to_vec();
        big.resize(1025, b' ');
        let (status, body) = upload(&app, &anna, Some("Big"), Some(("big.pdf", &big)), "").await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{body}");
        assert!(body["message"]
            .as_str()
            .unwrap()
            .starts_with("The file is too large"));
        let mut fits = PDF.to_vec();
        fits.resize(1024, b' ');
        assert_eq!(
            upload(&app, &anna, Some("Fits"), Some(("fits.pdf", &fits)), "")
                .await
                .0,
            StatusCode::CREATED
        );
        // Far past the limit: refused from the announced length.
        let huge = vec![b'%'; 2 * 1024 * 1024];
        assert_eq!(
            upload(&app, &anna, Some("Huge"), Some(("huge.pdf", &huge)), "")
                .await
                .0,
            StatusCode::PAYLOAD_TOO_LARGE
        );
        assert_eq!(stored_files(&app).await.len(), before + 1);
    }

    fn small(config: &mut backend::Config) {
        config.max_folder_depth = 2;
        config.upload_max_bytes = 1024;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn depth_and_size_limits_are_configurable_sqlite() {
        check(spawn_app_with(Engine::Sqlite, small).await.unwrap()).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn depth_and_size_limits_are_configurable_postgres() {
        let Some(app) = spawn_app_with(Engine::Postgres, small).await else {
            return;
        };
        check(app).await;
    }
}
