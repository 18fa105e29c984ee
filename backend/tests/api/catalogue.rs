//! Catalogue calls (home, products, library files, news, contacts, useful links, multimedia) and
//! the content importer.

use std::path::{Path, PathBuf};

use backend::content::{import_all, ContentError};
use chrono::Datelike;
use projections::on_db;
use reqwest::StatusCode;
use serde_json::Value;

use crate::both_dbs;
use crate::helpers::{copy_dir, TestApp};

/// Every catalogue call, for the 401 check.
const CALLS: &[&str] = &[
    "/home",
    "/products/categories",
    "/products",
    "/products/segment/1",
    "/products/category/37",
    "/product/101/details",
    "/product/101/attachments",
    "/product/101/indepth",
    "/product/101/components",
    "/component/1001",
    "/library/1/file",
    "/news",
    "/news/home",
    "/news/26",
    "/contacts",
    "/contacts/1",
    "/useful-links-new",
    "/multimedia/video",
    "/multimedia/images",
];

fn repo_content() -> PathBuf {
    concat!(env!("CARGO_MANIFEST_DIR"), "/../content").into()
}

async fn get_ok(app: &TestApp, token: &str, path: &str) -> Value {
    let (status, body) = crate::helpers::json_of(app.get(path, Some(token)).await).await;
    assert_eq!(status, StatusCode::OK, "{path}: {body}");
    body
}

async fn status_of(app: &TestApp, token: &str, path: &str) -> (StatusCode, Value) {
    crate::helpers::json_of(app.get(path, Some(token)).await).await
}

fn ids(list: &Value) -> Vec<i64> {
    list.as_array()
        .expect("array")
        .iter()
        .map(|v| v["id"].as_i64().expect("id"))
        .collect()
}

/// A writable copy of the demo content folder.
fn content_copy() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("content");
    copy_dir(&repo_content(), &dir);
    (tmp, dir)
}

fn edit_json(path: &Path, edit: impl FnOnce(&mut Value)) {
    let mut value: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json");
    edit(&mut value);
    std::fs::write(path, serde_json::to_string_pretty(&value).expect("ser")).expect("write");
}

async fn count(app: &TestApp, table: &str) -> i64 {
    let sql = format!("select count(*) from {table}");
    on_db!(&app.state.db, pool => sqlx::query_scalar(&sql).fetch_one(pool).await).expect("count")
}

const TABLES: &[&str] = &[
    "library_documents",
    "catalogue_segments",
    "catalogue_categories",
    "catalogue_products",
    "catalogue_components",
    "catalogue_meta",
    "news",
    "contact_sections",
    "contact_subsidiaries",
    "useful_links",
    "multimedia_videos",
    "multimedia_images",
];

/// Calls whose answers must not change across a repeated import.
const SNAPSHOT: &[&str] = &[
    "/home",
    "/products",
    "/products/segment/1",
    "/products/category/37?order=za",
    "/product/101/details",
    "/product/101/attachments",
    "/product/101/indepth",
    "/component/1001",
    "/news?year=2025",
    "/contacts",
    "/contacts/2",
    "/useful-links-new",
    "/multimedia/video",
    "/multimedia/images",
];

async fn snapshot(app: &TestApp, token: &str) -> Vec<(Vec<i64>, Vec<Value>)> {
    let mut counts = Vec::new();
    for t in TABLES {
        counts.push(count(app, t).await);
    }
    let mut bodies = Vec::new();
    for p in SNAPSHOT {
        bodies.push(get_ok(app, token, p).await);
    }
    vec![(counts, bodies)]
}

both_dbs! {
    async fn every_catalogue_call_needs_a_signed_in_user(app) {
        for path in CALLS {
            let (status, _) = json_of(app.get(path, None).await).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED, "{path}");
            let (status, _) = json_of(app.get(path, Some("not-a-token")).await).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED, "{path} with a forged token");
        }
        // And every one answers a signed-in user.
        let token = app.token(ANNA).await;
        for path in CALLS {
            let res = app.get(path, Some(&token)).await;
            assert_eq!(res.status(), StatusCode::OK, "{path}");
        }
    }

    async fn home_has_segments_latest_news_and_empty_placeholders(app) {
        let token = app.token(ANNA).await;
        let home = get_ok(&app, &token, "/home").await;
        assert_eq!(ids(&home["products"]), vec![1, 2, 3, 4, 5, 6]);
        assert_eq!(home["products"][0]["name"], "Shoulder");
        assert_eq!(home["products"][5]["red_label"], "New in 2026");
        let news = home["news"].as_array().expect("news");
        assert_eq!(news.len(), 6);
        let dates: Vec<&str> = news.iter().map(|n| n["date"].as_str().expect("date")).collect();
        let mut sorted = dates.clone();
        sorted.sort_by(|a, b| b.cmp(a));
        assert_eq!(dates, sorted, "newest first");
        assert_eq!(news[0]["id"], 26);
        assert_eq!(home["congresses"], serde_json::json!([]));
        assert_eq!(home["documents"], serde_json::json!({"my": [], "shared": [], "us": []}));

        let news_home = get_ok(&app, &token, "/news/home").await;
        assert_eq!(news_home["list"], home["news"]);
        let categories = get_ok(&app, &token, "/products/categories").await;
        assert_eq!(categories["categories"], home["products"]);
    }

    async fn products_overview_lists_segments_and_catalogue_documents(app) {
        let token = app.token(ANNA).await;
        let body = get_ok(&app, &token, "/products").await;
        assert_eq!(ids(&body["categories"]).len(), 6);
        assert_eq!(body["catalogues"]["title"], "Catalogues");
        let docs = &body["catalogues"]["documents"];
        assert_eq!(ids(docs), vec![7, 1, 2, 3, 4, 5, 6, 8], "content order");
        assert_eq!(docs[1]["title"], "Shoulder Product Catalogue 2026");
        assert_eq!(docs[1]["type"], "file");
        assert_eq!(docs[1]["url"], "/api/library/1/file");
    }

    async fn shoulder_segment_puts_categories_37_and_42_first(app) {
        let token = app.token(ANNA).await;
        let body = get_ok(&app, &token, "/products/segment/1").await;
        assert_eq!(body["name"], "Shoulder");
        assert_eq!(body["grouped"], true);
        let groups = body["groups"].as_array().expect("groups");
        assert_eq!(groups.len(), 2);
        assert_eq!(ids(&groups[0]["list"]), vec![37, 42]);
        assert_eq!(ids(&groups[1]["list"]), vec![38, 39, 40]);
        assert_eq!(ids(&body["list"]), vec![37, 42, 38, 39, 40]);
        assert_eq!(body["list"][2]["red_label"], "Limited release");
        assert_eq!(body["list"][0]["type"], "category");
        assert_eq!(ids(&body["thinkclinical"]), vec![9, 10, 11]);

        // Another segment: one group, with products straight under the segment.
        let sports = get_ok(&app, &token, "/products/segment/6").await;
        assert_eq!(sports["grouped"], false);
        assert_eq!(sports["groups"].as_array().expect("groups").len(), 1);
        assert_eq!(sports["red_label"], "New in 2026");
        let list = sports["list"].as_array().expect("list");
        assert_eq!(list[0]["type"], "category");
        assert!(list.iter().any(|i| i["type"] == "product" && i["id"] == 163));

        let knee = get_ok(&app, &token, "/products/segment/2").await;
        assert_eq!(knee["list"][1]["red_label"], "Upon request");

        for missing in ["/products/segment/999", "/products/segment/abc", "/products/segment/37"] {
            let (status, body) = status_of(&app, &token, missing).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{missing}");
            assert_eq!(body["message"], "Segment not found");
        }
    }

    async fn category_page_orders_and_filters_by_subcategory(app) {
        let token = app.token(ANNA).await;
        let body = get_ok(&app, &token, "/products/category/37").await;
        assert_eq!(body["category_name"], "Anatomic Shoulder");
        assert_eq!(body["parent_id"], 1);
        assert_eq!(body["parent_first_level"], true);
        assert_eq!(body["order"], "featured");
        assert_eq!(ids(&body["list"]), vec![101, 102, 103]);
        assert_eq!(body["list"][0]["category"], "Stemmed");
        let orders: Vec<&str> = body["filters"]["order"].as_array().expect("order").iter()
            .map(|o| o["value"].as_str().expect("value")).collect();
        assert_eq!(orders, vec!["featured", "az", "za", "newest", "oldest"]);
        let subs: Vec<&str> = body["filters"]["subcategory"].as_array().expect("subs").iter()
            .map(|o| o["value"].as_str().expect("value")).collect();
        assert_eq!(subs, vec!["stemmed", "stemless", "glenoid"]);

        let az = get_ok(&app, &token, "/products/category/37?order=az").await;
        let names: Vec<String> = az["list"].as_array().expect("list").iter()
            .map(|p| p["name"].as_str().expect("name").to_lowercase()).collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted);
        let za = get_ok(&app, &token, "/products/category/37?order=za").await;
        let mut reversed = ids(&az["list"]);
        reversed.reverse();
        assert_eq!(ids(&za["list"]), reversed);
        let newest = get_ok(&app, &token, "/products/category/11?order=newest").await;
        let oldest = get_ok(&app, &token, "/products/category/11?order=oldest").await;
        let mut flipped = ids(&oldest["list"]);
        flipped.reverse();
        assert_eq!(ids(&newest["list"]), flipped);
        assert_ne!(ids(&newest["list"]), ids(&oldest["list"]));

        let stemless = get_ok(&app, &token, "/products/category/37?subcategory=stemless").await;
        assert_eq!(ids(&stemless["list"]), vec![102]);
        assert_eq!(stemless["subcategory"], "stemless");
        let all = get_ok(&app, &token, "/products/category/37?order=&subcategory=").await;
        assert_eq!(ids(&all["list"]).len(), 3);

        let red = get_ok(&app, &token, "/products/category/38").await;
        assert_eq!(red["red_label"], "Limited release");

        for (bad, message) in [
            ("/products/category/37?order=cheapest", "Unknown order 'cheapest'"),
            ("/products/category/37?subcategory=augmented", "Unknown subcategory 'augmented' for this category"),
            ("/products/category/39?subcategory=stemmed", "Unknown subcategory 'stemmed' for this category"),
        ] {
            let (status, body) = status_of(&app, &token, bad).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
            assert_eq!(body["message"], message);
        }
        for missing in ["/products/category/999", "/products/category/1", "/products/category/x"] {
            let (status, body) = status_of(&app, &token, missing).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{missing}");
            assert_eq!(body["message"], "Category not found");
        }
    }

    async fn product_details_are_complete_and_sanitised(app) {
        let token = app.token(ANNA).await;
        let p = get_ok(&app, &token, "/product/101/details").await;
        assert_eq!(p["name"], "Arcadia Anatomic Shoulder System");
        assert_eq!(p["parent_id"], 37);
        assert_eq!(p["parent_first_level"], false);
        assert_eq!(p["parent_name"], "Anatomic Shoulder");
        let description = p["description"].as_str().expect("description");
        assert!(description.starts_with("<p><strong>Arcadia"), "{description}");
        for empty in ["<p></p>", "<p>&nbsp;</p>", "<p><br></p>"] {
            assert!(!description.contains(empty), "{empty} in {description}");
        }
        assert_eq!(p["images"].as_array().expect("images").len(), 4);
        assert_eq!(p["videos"][0]["code"], "mo101anim");
        assert_eq!(p["videos"][1]["url"], "https://video.example.com/embed/mo101int?autoplay=0");
        assert_eq!(p["benefits"].as_array().expect("benefits").len(), 3);
        assert!(p["disclaimers"].as_str().expect("disclaimers").starts_with("<p>"));
        assert_eq!(p["banner"]["link"], "/learn");
        assert_eq!(ids(&p["relatedProducts"]["products"]), vec![102, 103, 109]);
        assert_eq!(p["inDepth"]["carousel"]["items"][0]["link"]["path"], "info");
        assert_eq!(p["has_components"], true);
        assert_eq!(p["has_attachments"], true);

        // A product straight under a segment, and one without an in-depth page.
        let first_level = get_ok(&app, &token, "/product/163/details").await;
        assert_eq!(first_level["parent_first_level"], true);
        assert_eq!(first_level["parent_name"], "Sports Medicine");
        let plain = get_ok(&app, &token, "/product/102/details").await;
        assert_eq!(plain["inDepth"], Value::Null);
        let (status, body) = status_of(&app, &token, "/product/102/indepth").await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(body["message"], "This product has no in-depth page");

        let docs = get_ok(&app, &token, "/product/101/attachments").await;
        let groups: Vec<&str> = docs["attachments"].as_array().expect("groups").iter()
            .map(|g| g["name"].as_str().expect("name")).collect();
        assert_eq!(groups, vec!["Surgical technique", "Brochures", "Instructions for use"]);
        assert_eq!(docs["attachments"][0]["files"][0]["id"], 22);
        assert_eq!(docs["attachments"][0]["files"][0]["url"], "/api/library/22/file");

        let indepth = get_ok(&app, &token, "/product/101/indepth").await;
        assert_eq!(indepth["title"], "Arcadia Anatomic Shoulder System");
        let paths: Vec<&str> = indepth["sections"].as_array().expect("sections").iter()
            .map(|s| s["path"].as_str().expect("path")).collect();
        assert!(paths.contains(&"info") && paths.contains(&"faq"));
        assert_eq!(indepth["sections"][0]["features"][0]["anchor"], "anatomic-reconstruction");
        assert!(indepth["sections"][0]["content"]["mainText"].as_str().expect("main").starts_with("<p>"));

        let comps = get_ok(&app, &token, "/product/101/components").await;
        assert_eq!(ids(&comps["list"]), vec![1001, 1002, 1003]);
        assert_eq!(comps["list"][0]["sterile"], true);

        for path in ["/product/999/details", "/product/abc/attachments", "/product/0/indepth", "/product/37/components"] {
            let (status, body) = status_of(&app, &token, path).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
            assert_eq!(body["message"], "Product not found");
        }
    }

    async fn component_detail_has_material_sterility_and_variants(app) {
        let token = app.token(ANNA).await;
        let c = get_ok(&app, &token, "/component/1001").await;
        assert_eq!(c["title"], "Arcadia Humeral Stem");
        assert_eq!(c["parent_id"], 101);
        assert_eq!(c["parent_name"], "Arcadia Anatomic Shoulder System");
        assert_eq!(c["sterile"], true);
        assert!(c["material"].as_str().expect("material").starts_with("Titanium"));
        assert_eq!(c["gallery"][0]["big"], "/media/components/component-1001-1.svg");
        assert_eq!(c["variants"][0]["title"], "Standard length");
        assert_eq!(c["variants"][0]["variants"][0], serde_json::json!({"size": "6", "code": "MO-SH-1001-101", "upon_request": false}));
        assert_eq!(c["variants"][0]["variants"][5]["upon_request"], true);
        for path in ["/component/9999", "/component/abc"] {
            let (status, body) = status_of(&app, &token, path).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
            assert_eq!(body["message"], "Component not found");
        }
    }

    async fn library_file_is_served_as_pdf(app) {
        let token = app.token(ANNA).await;
        let res = app.get("/library/1/file", Some(&token)).await;
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(res.headers()["content-type"], "application/pdf");
        assert!(res.headers()["content-disposition"].to_str().expect("cd").contains("shoulder-product-catalogue-2026.pdf"));
        let bytes = res.bytes().await.expect("bytes");
        let on_disk = std::fs::read(repo_content().join("files/catalogue/shoulder-product-catalogue-2026.pdf")).expect("file");
        assert_eq!(bytes.as_ref(), on_disk.as_slice());
        for path in ["/library/9999/file", "/library/abc/file"] {
            let (status, body) = status_of(&app, &token, path).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
            assert_eq!(body["message"], "Document not found");
        }
    }

    async fn news_list_defaults_to_the_current_year_and_filters(app) {
        let token = app.token(ANNA).await;
        let current = chrono::Utc::now().year();
        let body = get_ok(&app, &token, "/news").await;
        assert_eq!(body["year"], current);
        assert_eq!(body["category"], Value::Null);
        let list = body["list"].as_array().expect("list");
        assert!(list.iter().all(|n| n["date"].as_str().expect("date").starts_with(&current.to_string())));
        let years: Vec<&str> = body["filters"]["year"].as_array().expect("years").iter()
            .map(|y| y["value"].as_str().expect("value")).collect();
        assert_eq!(years[0], current.to_string(), "current year first");
        let cats: Vec<&str> = body["filters"]["category"].as_array().expect("categories").iter()
            .map(|y| y["value"].as_str().expect("value")).collect();
        assert_eq!(cats, vec!["Company", "Products", "Clinical", "Events", "Education"]);

        let last = get_ok(&app, &token, "/news?year=2025").await;
        let list = last["list"].as_array().expect("list");
        assert!(!list.is_empty());
        assert!(list.iter().all(|n| n["date"].as_str().expect("date").starts_with("2025")));
        let dates: Vec<&str> = list.iter().map(|n| n["date"].as_str().expect("date")).collect();
        let mut sorted = dates.clone();
        sorted.sort_by(|a, b| b.cmp(a));
        assert_eq!(dates, sorted);

        let products = get_ok(&app, &token, "/news?year=2025&category=Products").await;
        assert_eq!(ids(&products["list"]), vec![8, 3]);
        assert_eq!(products["category"], "Products");
        let none = get_ok(&app, &token, "/news?year=2001").await;
        assert_eq!(none["list"], serde_json::json!([]));

        for (bad, message) in [
            ("/news?year=last", "Invalid year 'last'"),
            ("/news?year=99999", "Invalid year '99999'"),
            ("/news?category=Gossip", "Unknown news category 'Gossip'"),
        ] {
            let (status, body) = status_of(&app, &token, bad).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
            assert_eq!(body["message"], message);
        }
    }

    async fn news_detail_is_sanitised_and_missing_ids_are_404(app) {
        let token = app.token(ANNA).await;
        let n = get_ok(&app, &token, "/news/25").await;
        assert_eq!(n["title"], "Registration open for the Sports Medicine Winter Summit");
        let d = n["description"].as_str().expect("description");
        assert!(d.contains(r#"<a href="https://www.meridian-ortho.example/news" rel="noopener noreferrer">"#), "{d}");
        for path in ["/news/999", "/news/abc", "/news/0"] {
            let (status, body) = status_of(&app, &token, path).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
            assert_eq!(body["message"], "News not found");
        }
    }

    async fn contacts_have_sections_and_entries_with_present_fields_only(app) {
        let token = app.token(ANNA).await;
        let sections = get_ok(&app, &token, "/contacts").await;
        let tabs: Vec<&str> = sections.as_array().expect("sections").iter()
            .map(|s| s["tab"].as_str().expect("tab")).collect();
        assert_eq!(tabs[0], "Headquarters");
        assert!(tabs.len() >= 3);
        assert_eq!(sections[0]["voices"][0], serde_json::json!({"id": 1, "title": "Meridian Orthopaedics Headquarters", "subtitle": "Milan, Italy"}));

        let hq = get_ok(&app, &token, "/contacts/1").await;
        assert_eq!(hq["phone"], "+39 02 5550 1000");
        assert_eq!(hq["address"], "<p>Via dei Tessitori 18<br>20121 Milan<br>Italy</p>");
        let support = get_ok(&app, &token, "/contacts/5").await;
        let keys: Vec<&String> = support.as_object().expect("object").keys().collect();
        assert_eq!(keys, vec!["email", "id", "title"], "absent fields are left out");
        for path in ["/contacts/999", "/contacts/abc"] {
            let (status, body) = status_of(&app, &token, path).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
            assert_eq!(body["message"], "Contact not found");
        }
    }

    async fn useful_links_come_in_content_order(app) {
        let token = app.token(ANNA).await;
        let links = get_ok(&app, &token, "/useful-links-new").await;
        assert_eq!(ids(&links), (1..=8).collect::<Vec<i64>>());
        assert_eq!(links[0]["link"], "https://www.meridian-ortho.example");
        assert_eq!(links[0]["image"], "/media/useful/link-1.svg");
    }

    async fn multimedia_lists_filter_and_refuse_unknown_values(app) {
        let token = app.token(ANNA).await;
        let videos = get_ok(&app, &token, "/multimedia/video").await;
        assert_eq!(videos["hero"]["hero"], true);
        let hero_id = videos["hero"]["id"].as_i64().expect("hero");
        assert!(!ids(&videos["list"]).contains(&hero_id), "the hero is not repeated");
        assert_eq!(ids(&videos["list"]).len(), 12);
        assert_eq!(videos["filters"]["segment"][0], serde_json::json!({"value": 1, "label": "Shoulder"}));

        let knee = get_ok(&app, &token, "/multimedia/video?segment=2").await;
        assert!(!ids(&knee["list"]).is_empty());
        assert_eq!(knee["hero"], Value::Null);
        assert!(ids(&knee["list"]).contains(&4));
        let filtered = get_ok(&app, &token, "/multimedia/video?segment=1&category=surgical-technique&year=2026").await;
        assert_eq!(ids(&filtered["list"]), vec![1]);

        let images = get_ok(&app, &token, "/multimedia/images").await;
        assert_eq!(ids(&images["list"]).len(), 12);
        assert_eq!(images["list"][0]["hd"], "/media/multimedia/image-1-hd.svg");
        let shoulder = get_ok(&app, &token, "/multimedia/images?segment=1&category=product").await;
        assert!(ids(&shoulder["list"]).contains(&1));
        assert!(!ids(&shoulder["list"]).contains(&3));

        for (bad, message) in [
            ("/multimedia/video?segment=99", "Unknown segment '99'"),
            ("/multimedia/video?year=1999", "Unknown year '1999'"),
            ("/multimedia/images?category=selfie", "Unknown category 'selfie'"),
            ("/multimedia/images?segment=abc", "Unknown segment 'abc'"),
        ] {
            let (status, body) = status_of(&app, &token, bad).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
            assert_eq!(body["message"], message);
        }
    }

    async fn importing_twice_gives_the_same_state(app) {
        let token = app.token(ANNA).await;
        // The server imported the demo content on its first start.
        let before = snapshot(&app, &token).await;
        let report = import_all(&app.state.db, &repo_content()).await.expect("import");
        assert!(backend::content::wait_for(&app.state.projector, &report).await);
        // Nothing differs from what is recorded: nothing new is recorded.
        assert_eq!(report.recorded, 0, "{report}");
        for t in &report.tables {
            assert_eq!(t.inserted, 0, "{t:?}");
            assert_eq!(t.deleted, 0, "{t:?}");
            if t.table != "library_documents" {
                assert_eq!(t.updated, 0, "{t:?}");
            }
        }
        assert_eq!(snapshot(&app, &token).await, before);
        let again = import_all(&app.state.db, &repo_content()).await.expect("import again");
        assert_eq!(again.recorded, 0);
        assert_eq!(snapshot(&app, &token).await, before);
        assert_eq!(count(&app, "catalogue_products").await, 35);
        assert_eq!(count(&app, "news").await, 26);
    }

    async fn import_removes_rows_no_longer_in_the_content(app) {
        let token = app.token(ANNA).await;
        let (_tmp, dir) = content_copy();
        edit_json(&dir.join("news/news.json"), |v| {
            v.as_array_mut().expect("array").retain(|n| n["id"] != 26);
        });
        edit_json(&dir.join("useful/links.json"), |v| {
            v[0]["title"] = Value::String("Renamed link".into());
        });
        let report = import_all(&app.state.db, &dir).await.expect("import");
        assert!(backend::content::wait_for(&app.state.projector, &report).await);
        let news = report.tables.iter().find(|t| t.table == "news").expect("news report");
        assert_eq!((news.rows, news.deleted, news.inserted), (25, 1, 0));
        assert_eq!(count(&app, "news").await, 25);
        assert_eq!(status_of(&app, &token, "/news/26").await.0, StatusCode::NOT_FOUND);
        assert_eq!(get_ok(&app, &token, "/useful-links-new").await[0]["title"], "Renamed link");
        // And back.
        let back = import_all(&app.state.db, &repo_content()).await.expect("import");
        assert!(backend::content::wait_for(&app.state.projector, &back).await);
        assert_eq!(count(&app, "news").await, 26);
        assert_eq!(get_ok(&app, &token, "/news/26").await["id"], 26);
    }

    async fn a_bad_file_is_refused_with_file_field_and_reason_and_changes_nothing(app) {
        let token = app.token(ANNA).await;
        let before = snapshot(&app, &token).await;
        let (_tmp, dir) = content_copy();
        // A valid change to another file must not be applied either.
        edit_json(&dir.join("news/news.json"), |v| {
            v.as_array_mut().expect("array").retain(|n| n["id"] != 26);
        });
        edit_json(&dir.join("catalogue/products.json"), |v| {
            v[3]["parent_id"] = Value::from(999);
        });
        let err = import_all(&app.state.db, &dir).await.expect_err("refused");
        let expected_file = dir.join("catalogue/products.json").display().to_string();
        match &err {
            ContentError::Invalid { file, field, reason } => {
                assert_eq!(file, &expected_file);
                assert_eq!(field, "products[3].parent_id");
                assert_eq!(reason, "category 999 does not exist");
            }
            other => panic!("unexpected error {other:?}"),
        }
        assert_eq!(err.to_string(), format!("{expected_file}: products[3].parent_id: category 999 does not exist"));
        assert_eq!(snapshot(&app, &token).await, before, "nothing changed");

        // A shape error names the field too.
        let (_tmp2, dir2) = content_copy();
        edit_json(&dir2.join("catalogue/components.json"), |v| {
            v[2]["sterile"] = Value::String("yes".into());
        });
        let err = import_all(&app.state.db, &dir2).await.expect_err("refused");
        let text = err.to_string();
        assert!(text.starts_with(&format!("{}: components[2].sterile: invalid type", dir2.join("catalogue/components.json").display())), "{text}");

        // A broken reference to a document, and a missing image.
        let (_tmp3, dir3) = content_copy();
        edit_json(&dir3.join("catalogue/segments.json"), |v| {
            v[0]["thinkclinical"][1] = Value::from(5000);
        });
        let err = import_all(&app.state.db, &dir3).await.expect_err("refused").to_string();
        assert!(err.ends_with("segments[0].thinkclinical[1]: document 5000 does not exist in documents/library.json"), "{err}");
        let (_tmp4, dir4) = content_copy();
        edit_json(&dir4.join("news/news.json"), |v| {
            v[1]["preview"] = Value::String("/media/news/missing.svg".into());
        });
        let err = import_all(&app.state.db, &dir4).await.expect_err("refused").to_string();
        assert!(err.ends_with("news[1].preview: image /media/news/missing.svg does not exist"), "{err}");
        assert_eq!(snapshot(&app, &token).await, before, "still nothing changed");
    }
}
