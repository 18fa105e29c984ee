//! Search across everything (`GET /search-new`), on both databases: the term rules, grouping,
//! ranking, prefixes, typos and accents, document permissions, and live indexing of document
//! changes and content imports.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::both_dbs;
use crate::documents::{my_item, new_file, new_folder, post};
use crate::helpers::{json_of, TestApp};

const TOO_SHORT: &str = "Search at least 2 characters";
const GROUPS: [&str; 11] = [
    "products",
    "components",
    "news",
    "congresses",
    "activities",
    "training",
    "learn",
    "contacts",
    "links",
    "library",
    "documents",
];

async fn search(app: &TestApp, token: &str, term: &str) -> (StatusCode, Value) {
    let res = app
        .client
        .get(app.url("/search-new"))
        .query(&[("term", term)])
        .bearer_auth(token)
        .send()
        .await
        .expect("search");
    json_of(res).await
}

async fn results(app: &TestApp, token: &str, term: &str) -> Value {
    let (status, body) = search(app, token, term).await;
    assert_eq!(status, StatusCode::OK, "{term}: {body}");
    body
}

fn names(body: &Value, group: &str) -> Vec<String> {
    body[group]
        .as_array()
        .map(|items| {
            items
                .iter()
                .map(|i| i["name"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

fn ids(body: &Value, group: &str) -> Vec<String> {
    body[group]
        .as_array()
        .map(|items| {
            items
                .iter()
                .map(|i| i["id"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// Searches until `check` holds. The index follows the read model within a poll (250 ms) on an
/// idle machine; the limit is far above that, so a loaded machine fails nothing.
async fn eventually(
    app: &TestApp,
    token: &str,
    term: &str,
    check: impl Fn(&Value) -> bool,
) -> Value {
    let started = Instant::now();
    loop {
        let body = results(app, token, term).await;
        if check(&body) {
            return body;
        }
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "{term}: still {body} after 15 s"
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

fn has_document(body: &Value, id: &str) -> bool {
    ids(body, "documents").iter().any(|d| d == id)
}

both_dbs! {
    async fn terms_shorter_than_two_characters_get_the_spec_message(app) {
        let anna = app.token(ANNA).await;
        for term in ["", "a", "  b  ", "é"] {
            let (status, body) = search(&app, &anna, term).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{term:?}");
            assert_eq!(body["message"], TOO_SHORT);
        }
        let (status, body) = json_of(app.get("/search-new", Some(&anna)).await).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(body["message"], TOO_SHORT);
        let (status, _) = search(&app, "not-a-token", "shoulder").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }

    async fn odd_input_gets_a_clean_answer(app) {
        let anna = app.token(ANNA).await;
        // Query syntax is plain text here.
        for term in ["+-&&||!(){}[]^\"~*?:\\/", "title:arcadia", "\"shoulder", "shoulder*", "AND OR NOT", "%_'; drop table news;--"] {
            let body = results(&app, &anna, term).await;
            assert!(body.is_object(), "{term}: {body}");
        }
        let body = results(&app, &anna, "(arcadia)*").await;
        assert!(names(&body, "products").iter().any(|n| n.contains("Arcadia")), "{body}");
        // 10,000 characters: the first words are searched, the rest ignored.
        let long = format!("arcadia {}", "x".repeat(10_000));
        let body = results(&app, &anna, &long).await;
        assert!(body.is_object());
        let body = results(&app, &anna, "zzqxj").await;
        assert_eq!(body, json!({}));
    }

    async fn results_are_grouped_by_type_with_the_spec_fields(app) {
        let anna = app.token(ANNA).await;
        let body = results(&app, &anna, "arcadia").await;
        let keys: Vec<&str> = body.as_object().unwrap().keys().map(String::as_str).collect();
        let mut in_order: Vec<&str> = GROUPS.iter().copied().filter(|g| keys.contains(g)).collect();
        in_order.sort_by_key(|g| GROUPS.iter().position(|x| x == g));
        assert_eq!(keys.len(), in_order.len(), "unknown groups in {keys:?}");
        assert!(keys.contains(&"products") && keys.contains(&"components"), "{keys:?}");
        for group in &keys {
            let items = body[*group].as_array().unwrap();
            assert!(!items.is_empty(), "empty group {group} is sent");
            for item in items {
                for field in ["id", "name", "subtitle", "preview", "date"] {
                    assert!(item.get(field).is_some(), "{group} item without {field}: {item}");
                }
                assert!(item["id"].is_string() && item["name"].is_string());
            }
        }
        // Shorter names that hold the word rank first.
        assert!(names(&body, "products")[0].starts_with("Arcadia "), "{body}");
        let product = body["products"].as_array().unwrap().iter().find(|p| p["id"] == "101").expect("101");
        assert_eq!(product["name"], "Arcadia Anatomic Shoulder System");
        assert!(product["preview"].as_str().unwrap().starts_with("/media/"));
        assert_eq!(product["date"], "2021-03-01");

        // Each reference type is found by its own words.
        let body = results(&app, &anna, "Alpine Arthroplasty Meeting").await;
        assert!(names(&body, "congresses").contains(&"Alpine Arthroplasty Meeting 2026".to_string()), "{body}");
        assert_eq!(body["congresses"][0]["date"], "2026-01-22");
        let body = results(&app, &anna, "Cementless knee fixation").await;
        assert!(names(&body, "activities").contains(&"Cementless knee fixation: when and how".to_string()), "{body}");
        let body = results(&app, &anna, "Brightline shaver").await;
        assert_eq!(names(&body, "news")[0], "Brightline arthroscopic shaver range now available in Europe");
        assert_eq!(body["news"][0]["date"], "2026-11-16");
        let body = results(&app, &anna, "Cadaver Course").await;
        assert!(names(&body, "learn").contains(&"Reverse Shoulder Arthroplasty: Cadaver Course".to_string()), "{body}");
        let body = results(&app, &anna, "Customer Service").await;
        assert!(names(&body, "contacts").contains(&"Customer Service".to_string()), "{body}");
        let body = results(&app, &anna, "Meridian website").await;
        assert!(names(&body, "links").contains(&"Meridian Orthopaedics website".to_string()), "{body}");
        // A component is found by its product code.
        let body = results(&app, &anna, "MO-SH-1001-101").await;
        assert_eq!(ids(&body, "components")[0], "1001");
    }

    async fn ranking_prefixes_typos_accents_and_case(app) {
        let anna = app.token(ANNA).await;
        // Names rank above descriptions: every product named after the word comes first.
        let body = results(&app, &anna, "shoulder").await;
        let products = names(&body, "products");
        let named = products.iter().take_while(|n| n.to_lowercase().contains("shoulder")).count();
        assert!(named > 0, "{products:?}");
        assert!(products[named..].iter().all(|n| !n.to_lowercase().contains("shoulder")), "{products:?}");
        assert!(products.len() > named, "some products mention shoulders only in their text: {products:?}");

        // While typing: the start of a word finds it.
        let body = results(&app, &anna, "arcad").await;
        assert!(ids(&body, "products").contains(&"101".to_string()), "{body}");
        assert!(names(&body, "products")[0].starts_with("Arcadia "), "{body}");
        let body = results(&app, &anna, "arcadia anat").await;
        assert_eq!(ids(&body, "products")[0], "101", "{body}");
        // One typo in a word of five letters or more.
        for typo in ["arcdia", "arcadai", "arcadiq", "shouldr"] {
            let body = results(&app, &anna, typo).await;
            assert!(ids(&body, "products").contains(&"101".to_string()), "{typo}: {body}");
        }
        // Two typos, or a typo in a short word, find nothing.
        assert!(ids(&results(&app, &anna, "arqdiq").await, "products").is_empty());
        assert!(results(&app, &anna, "hup").await.get("products").is_none());
        // Case and accents do not matter.
        let plain = ids(&results(&app, &anna, "arcadia").await, "products");
        for folded in ["ARCADIA", "Árcadiá", "arcádia"] {
            assert_eq!(ids(&results(&app, &anna, folded).await, "products"), plain, "{folded}");
        }
        // Every word must be found.
        assert!(results(&app, &anna, "arcadia zzqxj").await.get("products").is_none());
    }

    async fn documents_are_found_only_by_those_who_see_them(app) {
        let anna = app.token(ANNA).await;
        let john = app.token(JOHN).await;

        // US documents: John (US certificate) finds them; Anna does not.
        let body = results(&app, &john, "Reimbursement Guide").await;
        let item = body["documents"].as_array().unwrap().iter()
            .find(|i| i["name"] == "US Reimbursement Guide 2026").expect("John finds the US guide").clone();
        assert_eq!(item["list"], "us");
        assert_eq!(item["document"]["id"], item["id"]);
        assert_eq!(item["document"]["type"], "file");
        assert!(item["document"]["actions"].is_array());
        let us_id = item["id"].as_str().unwrap().to_string();
        let body = results(&app, &anna, "Reimbursement Guide").await;
        assert!(!has_document(&body, &us_id), "{body}");
        assert!(names(&body, "documents").iter().all(|n| !n.starts_with("US ")), "{body}");

        // Anna's own file: hers only, with her actions.
        let body = results(&app, &anna, "Price list Italy").await;
        let item = &body["documents"][0];
        assert_eq!(item["name"], "Price list Italy 2026");
        assert_eq!(item["list"], "my");
        assert!(item["document"]["actions"].as_array().unwrap().contains(&json!("rename")));
        let price_id = item["id"].as_str().unwrap().to_string();
        assert!(!has_document(&results(&app, &john, "Price list Italy").await, &price_id));

        // Shared with John: found by him as shared, read-only, and what is inside a shared folder too.
        let body = results(&app, &john, "Arcadia case notes").await;
        let item = body["documents"].as_array().unwrap().iter()
            .find(|i| i["name"] == "Arcadia case notes").expect("shared file").clone();
        assert_eq!(item["list"], "shared");
        assert!(!item["document"]["actions"].as_array().unwrap().contains(&json!("rename")));
        let body = results(&app, &john, "Booth layout draft").await;
        assert!(names(&body, "documents").contains(&"Booth layout draft".to_string()), "{body}");
        // ... but not Anna's other files next to the shared one.
        let body = results(&app, &john, "competitive comparison").await;
        assert!(!names(&body, "documents").iter().any(|n| n.contains("competitive comparison")), "{body}");

        // Marco has no documents: none of the others' come up.
        let marco = app.token(MARCO).await;
        for term in ["visit report", "account plan", "US Product Catalogue", "shoulder"] {
            assert!(results(&app, &marco, term).await.get("documents").is_none(), "{term}");
        }
    }

    async fn the_folder_of_a_result_is_shown_to_its_owner_only(app) {
        let anna = app.token(ANNA).await;
        let john = app.token(JOHN).await;
        // Anna's file in Customer visits / 2026 carries that folder; a file at her root none.
        let body = results(&app, &anna, "Clinica del Lago").await;
        let item = &body["documents"][0];
        assert_eq!(item["name"], "Visit report - Clinica del Lago, March 2026");
        let parent = item["document"]["parent"].as_str().expect("the owner sees the folder");
        let (status, folder) = json_of(app.get(&format!("/folders/{parent}?type=my"), Some(&anna)).await).await;
        assert_eq!(status, StatusCode::OK, "{folder}");
        assert!(folder["list"].as_array().unwrap().iter().any(|i| i["id"] == item["id"]), "{folder}");
        let body = results(&app, &anna, "Price list Italy").await;
        assert!(body["documents"][0]["document"].get("parent").is_none(), "{body}");
        // John reaches a file inside a folder Anna shared: her folders stay hers.
        let body = results(&app, &john, "Booth layout draft").await;
        let item = body["documents"].as_array().unwrap().iter()
            .find(|i| i["name"] == "Booth layout draft").expect("shared file").clone();
        assert!(item["document"].get("parent").is_none(), "{item}");
    }

    async fn document_changes_are_findable_eventually(app) {
        let anna = app.token(ANNA).await;
        let john = app.token(JOHN).await;

        // Upload: found at once by its title.
        let file = new_file(&app, &anna, "Zephyrine dossier", None).await;
        eventually(&app, &anna, "zephyrine", |b| has_document(b, &file)).await;
        assert!(!has_document(&results(&app, &john, "zephyrine").await, &file));

        // Rename: the new words find it, the old ones no longer do.
        let (status, body) = post(&app, &anna, &format!("/folders/{file}"), json!({ "name": "Quillonade dossier" })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        eventually(&app, &anna, "quillonade", |b| has_document(b, &file)).await;
        eventually(&app, &anna, "zephyrine", |b| !has_document(b, &file)).await;

        // Share: John finds it, as shared.
        let (status, body) = post(&app, &anna, "/documents/share", json!({ "email": JOHN, "file": file })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let body = eventually(&app, &john, "quillonade", |b| has_document(b, &file)).await;
        assert_eq!(body["documents"][0]["list"], "shared");

        // Into a folder, and the folder renamed: still found, folder too.
        let folder = new_folder(&app, &anna, "Vantablue archive", None).await;
        let (status, body) = post(&app, &anna, "/documents/move", json!({ "folder": folder, "file": file })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let (status, body) = post(&app, &anna, &format!("/folders/{folder}"), json!({ "name": "Marigoldia archive" })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        eventually(&app, &anna, "marigoldia", |b| has_document(b, &folder)).await;
        eventually(&app, &anna, "quillonade", |b| has_document(b, &file)).await;
        assert!(has_document(&results(&app, &john, "quillonade").await, &file));

        // Deleting the folder takes the file with it, for everyone.
        let (status, body) = post(&app, &anna, &format!("/folders/{folder}/delete"), json!({})).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        eventually(&app, &anna, "quillonade", |b| !has_document(b, &file)).await;
        eventually(&app, &anna, "marigoldia", |b| !has_document(b, &folder)).await;
        assert!(!has_document(&results(&app, &john, "quillonade").await, &file));

        // Removing a file from My Docs.
        let other = my_item(&app, &anna, "Expense policy summary").await;
        eventually(&app, &anna, "expense policy", |b| has_document(b, &other)).await;
        let (status, body) = post(&app, &anna, "/documents/remove", json!({ "id": other })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        eventually(&app, &anna, "expense policy", |b| !has_document(b, &other)).await;
    }

    async fn a_folder_moved_into_a_shared_folder_is_found_with_what_it_holds(app) {
        let anna = app.token(ANNA).await;
        let john = app.token(JOHN).await;
        let shared = new_folder(&app, &anna, "Orpiment shared", None).await;
        let (status, body) = post(&app, &anna, "/documents/share", json!({ "email": JOHN, "file": shared })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let binder = new_folder(&app, &anna, "Inner binder", None).await;
        let file = new_file(&app, &anna, "Xylocarpa notes", Some(&binder)).await;
        eventually(&app, &anna, "xylocarpa", |b| has_document(b, &file)).await;
        assert!(!has_document(&results(&app, &john, "xylocarpa").await, &file));

        // Only the folder's own event is recorded: the index takes what it holds along.
        let (status, body) = post(&app, &anna, "/folders/move", json!({ "folder": binder, "destination": shared })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let body = eventually(&app, &john, "xylocarpa", |b| has_document(b, &file)).await;
        assert_eq!(body["documents"][0]["list"], "shared");
        // And back out: John no longer finds it.
        let (status, body) = post(&app, &anna, "/folders/move", json!({ "folder": binder, "destination": null })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        eventually(&app, &john, "xylocarpa", |b| !has_document(b, &file)).await;
    }

    async fn a_content_import_elsewhere_reaches_the_index(app) {
        let anna = app.token(ANNA).await;
        assert!(results(&app, &anna, "Ultrabrillance").await.get("news").is_none());
        // What `companion import` does from another process: new rows, then a new version.
        let db = &app.state.db;
        projections::on_db!(db, pool => sqlx::query(
            "update news set item = replace(item, 'Brightline arthroscopic shaver', 'Ultrabrillance arthroscopic shaver') where id = 26")
            .execute(pool).await.map(|r| r.rows_affected())).expect("update");
        backend::search::bump_content_version(db).await.expect("bump");
        let body = eventually(&app, &anna, "Ultrabrillance", |b| b.get("news").is_some()).await;
        assert_eq!(ids(&body, "news"), vec!["26"]);
    }
}
