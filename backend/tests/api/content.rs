//! The content import refuses a folder with one defect, naming the file and the entry, and
//! changes nothing: every check (the catalogue's, the programmes', the links of the demo
//! notifications and the folder as a whole) runs before anything is written.
//!
//! And what the demo content promises beyond being a valid folder: enough of every kind to show
//! each screen, and the cases the walkthroughs rely on. A folder without these is still imported;
//! the demo would only look thin.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use backend::content::import_all;
use projections::on_db;
use serde_json::{json, Value};

use crate::both_dbs;
use crate::helpers::{copy_dir, TestApp};

fn repo_content() -> PathBuf {
    concat!(env!("CARGO_MANIFEST_DIR"), "/../content").into()
}

/// Rewrites a JSON file keeping its layout style (keys in their order do not matter here).
fn edit_json(path: &Path, edit: impl FnOnce(&mut Value)) {
    let mut value: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json");
    edit(&mut value);
    std::fs::write(path, serde_json::to_string(&value).expect("ser")).expect("write");
}

/// Every table the import writes, with its row count.
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
    "congresses",
    "congress_activities",
    "trainings",
    "courses",
    "course_segments",
    "course_speakers",
    "course_days",
    "programme_filters",
];

async fn counts(app: &TestApp) -> Vec<(&'static str, i64)> {
    let mut out = Vec::new();
    for table in TABLES {
        let sql = format!("select count(*) from {table}");
        let n: i64 = on_db!(&app.state.db, pool => sqlx::query_scalar(&sql).fetch_one(pool).await)
            .expect("count");
        out.push((*table, n));
    }
    out
}

/// What one defect does to a copy of the content.
type Defect = Box<dyn Fn(&Path)>;

fn write(path: PathBuf, bytes: impl AsRef<[u8]>) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, bytes).expect("write");
}

/// Each defect, the file and entry its refusal names, and the end of the reason.
fn defects() -> Vec<(&'static str, Defect, &'static str, &'static str)> {
    vec![
        (
            "a library document whose file is missing",
            Box::new(|d: &Path| edit_json(&d.join("documents/library.json"), |v| {
                v[0]["file"] = json!("/files/catalogue/gone.pdf");
                v[0]["name"] = json!("gone.pdf");
            })),
            "documents/library.json: library[0].file",
            "file /files/catalogue/gone.pdf does not exist",
        ),
        (
            "a library document whose size is not its file's",
            Box::new(|d: &Path| edit_json(&d.join("documents/library.json"), |v| v[0]["size"] = json!("99 KB"))),
            "documents/library.json: library[0].size",
            "'99 KB' must be '5.3 KB', the size of /files/catalogue/shoulder-product-catalogue-2026.pdf",
        ),
        (
            "a library document whose file is not its name",
            Box::new(|d: &Path| edit_json(&d.join("documents/library.json"), |v| v[0]["name"] = json!("other.pdf"))),
            "documents/library.json: library[0].file",
            "must end with the name 'other.pdf'",
        ),
        (
            "two component variants with one code",
            Box::new(|d: &Path| edit_json(&d.join("catalogue/components.json"), |v| {
                v[1]["variants"][0]["variants"][0]["code"] = json!("MO-SH-1001-101");
            })),
            "catalogue/components.json: components[1].variants[0].variants[0].code",
            "code 'MO-SH-1001-101' is also a variant of component 1001",
        ),
        (
            "a course in a segment the catalogue does not have",
            Box::new(|d: &Path| edit_json(&d.join("courses/courses.json"), |v| {
                v[0]["segment"][0]["id"] = json!(999);
            })),
            "courses/courses.json: id 1.segment",
            "segment 999 does not exist in catalogue/segments.json",
        ),
        (
            "an activity whose congress name is not its congress's",
            Box::new(|d: &Path| edit_json(&d.join("congresses/activities.json"), |v| {
                v[0]["parent_name"] = json!("Another meeting");
            })),
            "congresses/activities.json: id 1.parent_name",
            "must be 'Alpine Arthroplasty Meeting 2026', the name of congress 1",
        ),
        (
            "a training whose info tab names another training",
            Box::new(|d: &Path| edit_json(&d.join("training/trainings.json"), |v| {
                v[0]["tabs"]["info"]["content"]["name"] = json!("Another academy");
            })),
            "training/trainings.json: [0] id 1.tabs.info.content.name",
            "must be 'Shoulder Portfolio Sales Academy', the training's name",
        ),
        (
            "a notification linking to a product that does not exist",
            Box::new(|d: &Path| edit_json(&d.join("notifications/notifications.json"), |v| {
                v[0]["link"] = json!({"type": "products", "id": 99999});
            })),
            "notifications/notifications.json: notifications[0].link",
            "products 99999 does not exist",
        ),
        (
            "an app update pointing to news that does not exist",
            Box::new(|d: &Path| edit_json(&d.join("notifications/updates.json"), |v| {
                v[0]["url"] = json!("/app/news/99999");
            })),
            "notifications/updates.json: updates[0].url",
            "news 99999 does not exist",
        ),
        (
            "an image path that leaves the media folder",
            Box::new(|d: &Path| edit_json(&d.join("onboarding/slides.json"), |v| {
                v[0]["image"] = json!("/media/../catalogue/products.json");
            })),
            "onboarding/slides.json: slides[0].image",
            "'/media/../catalogue/products.json' must be a path under /media/",
        ),
        (
            "an image that does not exist, in a file no feature reads",
            Box::new(|d: &Path| edit_json(&d.join("onboarding/slides.json"), |v| {
                v[1]["image"] = json!("/media/onboarding/missing.svg");
            })),
            "onboarding/slides.json: slides[1].image",
            "image /media/onboarding/missing.svg does not exist",
        ),
        (
            "rich text with a tag the app does not keep",
            Box::new(|d: &Path| edit_json(&d.join("congresses/activities.json"), |v| {
                v[2]["description"] = json!("<p>Hello</p><script>alert(1)</script>");
            })),
            "congresses/activities.json: activities[2].description",
            "tag <script> is not allowed",
        ),
        (
            "rich text with unbalanced tags",
            Box::new(|d: &Path| edit_json(&d.join("courses/courses.json"), |v| {
                v[0]["description"] = json!("<p><strong>Hello</p></strong>");
            })),
            "courses/courses.json: courses[0].description",
            "unbalanced </p>",
        ),
        (
            "rich text with a bare ampersand",
            Box::new(|d: &Path| edit_json(&d.join("news/news.json"), |v| {
                v[0]["description"] = json!("<p>Hip & knee</p>");
            })),
            "news/news.json: news[0].description",
            "bare '&' (write &amp;)",
        ),
        (
            "an image that is not an SVG drawing",
            Box::new(|d: &Path| write(d.join("media/onboarding/photo.png"), b"\x89PNG")),
            "media/onboarding/photo.png: -",
            "only SVG images are accepted",
        ),
        (
            "an SVG image over the size limit",
            Box::new(|d: &Path| {
                let padding = " ".repeat(4096);
                write(
                    d.join("media/onboarding/slide-1.svg"),
                    format!("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1 1\">{padding}</svg>"),
                )
            }),
            "media/onboarding/slide-1.svg: -",
            "bytes, over the 3072 an image may have",
        ),
        (
            "an SVG image without a viewBox",
            Box::new(|d: &Path| {
                write(d.join("media/onboarding/slide-1.svg"), "<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>")
            }),
            "media/onboarding/slide-1.svg: -",
            "not an SVG drawing with a viewBox",
        ),
        (
            "a document of another kind",
            Box::new(|d: &Path| write(d.join("files/catalogue/notes.txt"), "notes")),
            "files/catalogue/notes.txt: -",
            "only .pdf and .xls documents are accepted",
        ),
        (
            "a PDF cut short",
            Box::new(|d: &Path| {
                let path = d.join("files/catalogue/shoulder-product-catalogue-2026.pdf");
                let mut pdf = std::fs::read(&path).expect("pdf");
                let end = pdf.windows(5).rposition(|w| w == b"%%EOF").expect("%%EOF");
                // Same length: the library's size still holds.
                pdf[end + 4] = b'X';
                std::fs::write(&path, pdf).expect("write");
            }),
            "files/catalogue/shoulder-product-catalogue-2026.pdf: -",
            "no %%EOF at the end",
        ),
        (
            "a content folder over its size limit",
            Box::new(|d: &Path| write(d.join("tools/padding.bin"), vec![0u8; 1024 * 1024])),
            "content: -",
            "the content folder may hold",
        ),
    ]
}

both_dbs! {
    async fn every_defect_is_refused_naming_file_and_entry_and_nothing_is_written(app) {
        let before = counts(&app).await;
        assert!(before.iter().all(|(_, n)| *n > 0), "the demo content is imported: {before:?}");
        for (what, defect, place, reason) in defects() {
            let tmp = tempfile::tempdir().expect("tmp");
            let dir = tmp.path().join("content");
            copy_dir(&repo_content(), &dir);
            // A valid change that must not be applied either.
            edit_json(&dir.join("news/news.json"), |v| {
                v.as_array_mut().expect("array").retain(|n| n["id"] != 26);
            });
            defect(&dir);
            let err = import_all(&app.state.db, &dir).await.expect_err(what).to_string();
            let shown = err.replace(&format!("{}/", dir.display()), "").replace(&dir.display().to_string(), "content");
            assert!(shown.starts_with(place), "{what}: {shown}");
            assert!(shown.ends_with(reason), "{what}: {shown}");
            assert_eq!(counts(&app).await, before, "{what}: nothing is written");
        }
        // The same copy without a defect is accepted.
        let tmp = tempfile::tempdir().expect("tmp");
        let dir = tmp.path().join("content");
        copy_dir(&repo_content(), &dir);
        let report = import_all(&app.state.db, &dir).await.expect("the demo content imports");
        assert_eq!(report.programmes.map(|p| p.congresses), Some(10));
    }
}

// ---------------------------------------------------------------------------------------------
// What the demo content promises
// ---------------------------------------------------------------------------------------------

fn json(relative: &str) -> Value {
    let text = std::fs::read_to_string(repo_content().join(relative)).expect(relative);
    serde_json::from_str(&text).expect(relative)
}

fn list(relative: &str) -> Vec<Value> {
    json(relative).as_array().cloned().unwrap_or_default()
}

#[test]
fn every_screen_has_enough_to_show() {
    for (file, least) in [
        ("catalogue/segments.json", 5),
        ("catalogue/products.json", 30),
        ("catalogue/components.json", 40),
        ("news/news.json", 24),
        ("congresses/congresses.json", 8),
        ("training/trainings.json", 5),
        ("courses/courses.json", 12),
        ("useful/links.json", 8),
        ("notifications/notifications.json", 5),
        ("notifications/updates.json", 2),
        ("onboarding/slides.json", 4),
    ] {
        assert!(list(file).len() >= least, "{file}: at least {least} items");
    }
}

#[test]
fn the_catalogue_shows_its_walkthrough_cases() {
    let shoulder = list("catalogue/segments.json")
        .into_iter()
        .find(|s| s["name"] == "Shoulder")
        .expect("a Shoulder segment");
    let categories: Vec<i64> = shoulder["categories"]
        .as_array()
        .expect("categories")
        .iter()
        .filter_map(Value::as_i64)
        .collect();
    assert!(
        categories.contains(&37) && categories.contains(&42) && categories.len() >= 4,
        "Shoulder needs categories 37 and 42 plus at least two others"
    );
    let orders: HashSet<String> = json("catalogue/filters.json")["order"]
        .as_array()
        .expect("order")
        .iter()
        .filter_map(|o| o["value"].as_str().map(str::to_string))
        .collect();
    for order in ["featured", "az", "newest"] {
        assert!(
            orders.contains(order),
            "catalogue/filters.json: order {order}"
        );
    }
    let upon_request = list("catalogue/components.json").iter().any(|c| {
        c["variants"].as_array().into_iter().flatten().any(|g| {
            g["variants"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|v| v["upon_request"] == true)
        })
    });
    assert!(upon_request, "some variant is upon request");
}

#[test]
fn the_programmes_show_their_walkthrough_cases() {
    let classes: HashSet<String> = list("courses/courses.json")
        .iter()
        .filter_map(|c| c["category"]["class"].as_str().map(str::to_string))
        .collect();
    for class in ["course", "online", "third", "other"] {
        assert!(classes.contains(class), "a course of class {class}");
    }
    let lunch = list("training/trainings.json").iter().any(|t| {
        t["tabs"]["activities"]["content"]["activities"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|g| g["events"].as_array().into_iter().flatten())
            .any(|e| e["type"] == "lunch")
    });
    assert!(lunch, "a training activity of type 'lunch'");
    let congresses = list("congresses/congresses.json");
    let long_transfers = congresses
        .iter()
        .filter(|c| {
            let info = c["tabs"]["hotel"]["content"]["transfer"]["info"]
                .as_str()
                .unwrap_or_default();
            backend::html::plain_text(info).chars().count() > 400
        })
        .count();
    assert!(
        long_transfers * 2 > congresses.len(),
        "most congresses have a long transfer text (the 'read more' case)"
    );
}

#[test]
fn the_notifications_and_documents_show_their_walkthrough_cases() {
    for update in list("notifications/updates.json") {
        let images = update["gallery"].as_array().map_or(0, Vec::len);
        assert!(
            (3..=4).contains(&images),
            "update {}: 3 or 4 images",
            update["id"]
        );
    }
    let seed = json("documents/seed.json");
    fn shared(nodes: &Value) -> bool {
        nodes.as_array().into_iter().flatten().any(|n| {
            n["shared_with"].as_array().is_some_and(|s| !s.is_empty()) || shared(&n["children"])
        })
    }
    let users = seed["users"].as_array().cloned().unwrap_or_default();
    assert!(
        shared(&seed["us"]) || users.iter().any(|u| shared(&u["my"])),
        "documents/seed.json: an item shared between users"
    );
}
