//! Storage quotas, the retention of removed files and the free-disk guard, on both databases:
//! an upload past `USER_STORAGE_QUOTA_MB` is refused before anything is kept, a removed file
//! stops counting at once and leaves the store after `DELETED_FILE_RETENTION_DAYS` unless
//! another live item names it, `MIN_FREE_DISK_MB` pauses uploads, and `companion files usage`
//! lists users by usage.

use std::process::{Command, Output};

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::documents::{id_of, list, post, upload, PDF};
use crate::helpers::{json_of, TestApp, ANNA, JOHN};

/// Like `both_dbs!`, on a server whose configuration `$adjust` changes.
macro_rules! both_dbs_configured {
    ($(async fn $name:ident($app:ident) with $adjust:expr; $body:block)*) => {
        $(
            mod $name {
                #[allow(unused_imports)]
                use super::*;
                use $crate::helpers::{spawn_app_with, Engine};

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite() {
                    let $app = spawn_app_with(Engine::Sqlite, $adjust).await.expect("sqlite app");
                    $body
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn postgres() {
                    let Some($app) = spawn_app_with(Engine::Postgres, $adjust).await else { return };
                    $body
                }
            }
        )*
    };
}

const MB: u64 = 1024 * 1024;

/// A PDF of exactly `size` bytes.
fn pdf_of(size: usize) -> Vec<u8> {
    let mut bytes = b"%PDF-1.4\n".to_vec();
    bytes.resize(size, b'0');
    bytes
}

async fn usage(app: &TestApp, token: &str) -> (u64, u64) {
    let (status, body) = json_of(app.get("/documents/usage", Some(token)).await).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    (
        body["used_bytes"].as_u64().expect("used_bytes"),
        body["quota_bytes"].as_u64().expect("quota_bytes"),
    )
}

/// The names of the files in the local file store's folder.
fn store_files(app: &TestApp) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(app.state.config.data_dir.join("files"))
        .expect("the file store's folder")
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The stored file an item names (kept in the read model after the item is removed).
async fn blob_of(app: &TestApp, item: &str) -> String {
    projections::on_db!(&app.state.db, pool => sqlx::query_scalar(
        "select blob from stored_file_items where item_id = $1")
        .bind(item).fetch_one(pool).await)
    .expect("the item's stored file")
}

/// Uploads through a form of unknown length (sent chunked, without `Content-Length`), so only
/// the count of the streamed bytes can stop it.
async fn upload_chunked(app: &TestApp, token: &str, bytes: Vec<u8>) -> (StatusCode, Value) {
    let part = reqwest::multipart::Part::stream(bytes).file_name("streamed.pdf");
    let form = reqwest::multipart::Form::new()
        .text("name", "Streamed")
        .part("file", part);
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

/// `companion <args>` on the test server's database and file store.
fn companion(app: &TestApp, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_companion"));
    command
        .args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("DATA_DIR", &app.state.config.data_dir)
        .env("RUST_LOG", "warn");
    if let Some(url) = &app.state.config.database_url {
        command.env("DATABASE_URL", url);
    }
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().expect("companion runs")
}

both_dbs_configured! {
    async fn a_user_at_quota_gets_413_and_nothing_is_stored(app) with |c| c.user_storage_quota_mb = 1; {
        let anna = app.token(ANNA).await;
        let (used, quota) = usage(&app, &anna).await;
        assert_eq!(quota, MB);
        // Up to the quota exactly is allowed.
        let fill = pdf_of(usize::try_from(quota - used).unwrap());
        let (status, body) = upload(&app, &anna, Some("Fills it"), Some(("fill.pdf", &fill)), "").await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        assert_eq!(usage(&app, &anna).await, (MB, MB));
        let files = store_files(&app);
        let mine = list(&app, &anna, "/documents/my").await;

        // At the quota, any file is refused with the product's message.
        let (status, body) = upload(&app, &anna, Some("One more"), Some(("more.pdf", PDF)), "").await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{body}");
        assert_eq!(body["message"], "Your documents use 1 MB of 1 MB. Remove some to upload more.");
        // A file announced larger than the room left is refused before it is read.
        let removed = id_of(&mine.iter().find(|i| i["title"] == "Fills it").unwrap().clone());
        let (status, _) = post(&app, &anna, "/documents/remove", json!({ "id": removed })).await;
        assert_eq!(status, StatusCode::OK);
        let big = pdf_of(usize::try_from(MB - used + 100 * 1024).unwrap());
        let (status, body) = upload(&app, &anna, Some("Too big"), Some(("big.pdf", &big)), "").await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{body}");
        assert!(body["message"].as_str().unwrap().starts_with("Your documents use "), "{body}");
        // Refused before it is read, a body larger than the connection's buffers is read out
        // before the answer (`edge::linger::drain_form`), and the answer is the same.
        let bigger = pdf_of(6 * 1024 * 1024);
        let (status, body) = upload(&app, &anna, Some("Much too big"), Some(("bigger.pdf", &bigger)), "").await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{body}");
        assert!(body["message"].as_str().unwrap().starts_with("Your documents use "), "{body}");

        // Nothing of the refused files is kept: not in the lists, the usage or the store.
        let titles: Vec<Value> = list(&app, &anna, "/documents/my").await.iter().map(|i| i["title"].clone()).collect();
        assert!(!titles.contains(&json!("One more")) && !titles.contains(&json!("Too big"))
            && !titles.contains(&json!("Much too big")), "{titles:?}");
        assert_eq!(usage(&app, &anna).await, (used, MB));
        assert_eq!(store_files(&app), files, "the removed file is retained, nothing else was added");
    }

    async fn an_upload_past_the_quota_stops_while_streaming(app) with |c| c.user_storage_quota_mb = 1; {
        let anna = app.token(ANNA).await;
        let (used, _) = usage(&app, &anna).await;
        let files = store_files(&app);
        let half = pdf_of(600 * 1024);
        let (status, body) = upload_chunked(&app, &anna, half.clone()).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        let after_one = used + 600 * 1024;
        assert_eq!(usage(&app, &anna).await.0, after_one);
        // Without a length to judge by, the server counts: the second one passes the quota.
        let (status, body) = upload_chunked(&app, &anna, half).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{body}");
        assert_eq!(
            body["message"],
            format!("Your documents use {} of 1 MB. Remove some to upload more.",
                backend::documents::usage::human_size(after_one))
        );
        assert_eq!(usage(&app, &anna).await.0, after_one);
        assert_eq!(store_files(&app).len(), files.len() + 1, "only the first file is stored");
    }

    async fn of_two_uploads_at_once_that_fit_alone_but_not_together_one_is_kept(app) with |c| c.user_storage_quota_mb = 1; {
        let anna = app.token(ANNA).await;
        let (used, quota) = usage(&app, &anna).await;
        let files = store_files(&app);
        // Each fits the room left on its own; the two together do not.
        let size = usize::try_from((quota - used) / 2 + 1024).unwrap();
        let (first, second) = tokio::join!(
            upload_chunked(&app, &anna, pdf_of(size)),
            upload_chunked(&app, &anna, pdf_of(size))
        );
        let mut statuses = [first.0, second.0];
        statuses.sort();
        assert_eq!(
            statuses,
            [StatusCode::CREATED, StatusCode::PAYLOAD_TOO_LARGE],
            "{} / {}", first.1, second.1
        );
        let refused = if first.0 == StatusCode::CREATED { second.1 } else { first.1 };
        let after_one = used + u64::try_from(size).unwrap();
        assert_eq!(
            refused["message"],
            format!("Your documents use {} of 1 MB. Remove some to upload more.",
                backend::documents::usage::human_size(after_one))
        );
        assert_eq!(usage(&app, &anna).await.0, after_one);
        assert_eq!(store_files(&app).len(), files.len() + 1, "the refused file is not kept");
    }

    async fn a_full_disk_pauses_uploads_with_507(app) with |c| c.min_free_disk_mb = u64::MAX / (1024 * 1024); {
        let anna = app.token(ANNA).await;
        let files = store_files(&app);
        let (status, body) = upload(&app, &anna, Some("Plan"), Some(("plan.pdf", PDF)), "").await;
        assert_eq!(status, StatusCode::INSUFFICIENT_STORAGE, "{body}");
        assert_eq!(
            body["message"],
            "The server is short of storage space, so uploads are paused. Please try again later."
        );
        assert_eq!(store_files(&app), files);
        // Reading goes on as before.
        let (status, _) = json_of(app.get("/documents/my", Some(&anna)).await).await;
        assert_eq!(status, StatusCode::OK);
    }
}

crate::both_dbs! {
    async fn a_removed_file_stops_counting_at_once(app) {
        let anna = app.token(ANNA).await;
        let (used, quota) = usage(&app, &anna).await;
        assert_eq!(quota, 2048 * MB, "USER_STORAGE_QUOTA_MB is 2048 by default");
        let (status, file) = upload(&app, &anna, Some("Plan"), Some(("plan.pdf", PDF)), "").await;
        assert_eq!(status, StatusCode::CREATED, "{file}");
        let size = PDF.len() as u64;
        assert_eq!(usage(&app, &anna).await.0, used + size);
        let (status, _) = post(&app, &anna, "/documents/remove", json!({ "id": id_of(&file) })).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(usage(&app, &anna).await.0, used, "removed: no longer counted");

        // Files deleted with their folder, at any level, too.
        let folder = crate::documents::new_folder(&app, &anna, "Visits", None).await;
        let inner = crate::documents::new_folder(&app, &anna, "2026", Some(&folder)).await;
        for parent in [&folder, &inner] {
            let (status, body) = upload(&app, &anna, Some("Report"), Some(("r.pdf", PDF)), parent).await;
            assert_eq!(status, StatusCode::CREATED, "{body}");
        }
        assert_eq!(usage(&app, &anna).await.0, used + 2 * size);
        let (status, _) = post(&app, &anna, &format!("/folders/{folder}/delete"), json!({})).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(usage(&app, &anna).await.0, used);

        // Rebuilt from the events, the usage and the stored files equal the live ones.
        let report = backend::replay::run(&app.state.db, &app.state.config, &["stored_files".into()])
            .await
            .expect("replay");
        assert!(report.differences.is_empty(), "{:?}", report.differences);
        assert!(report.rows_compared > 0);
    }
}

both_dbs_configured! {
    async fn removed_files_leave_the_store_after_their_retention(app) with |_| {}; {
        let anna = app.token(ANNA).await;
        let john = app.token(JOHN).await;
        // A file Anna removes while John keeps a copy of it.
        let (_, shared) = upload(&app, &anna, Some("Shared"), Some(("s.pdf", PDF)), "").await;
        let shared = id_of(&shared);
        let (status, body) = post(&app, &anna, "/documents/share", json!({ "email": JOHN, "file": shared })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let (status, copy) = post(&app, &john, "/documents/favorite", json!({ "folder": null, "file": shared })).await;
        assert_eq!(status, StatusCode::CREATED, "{copy}");
        // A file nobody else keeps.
        let (_, alone) = upload(&app, &anna, Some("Alone"), Some(("a.pdf", PDF)), "").await;
        let alone = id_of(&alone);
        let (shared_blob, alone_blob) = (blob_of(&app, &shared).await, blob_of(&app, &alone).await);
        assert_eq!(blob_of(&app, &id_of(&copy)).await, shared_blob, "the copy names the same file");
        for id in [&shared, &alone] {
            let (status, _) = post(&app, &anna, "/documents/remove", json!({ "id": id })).await;
            assert_eq!(status, StatusCode::OK);
        }
        let in_store = |app: &TestApp, blob: &str| store_files(app).contains(&blob.to_string());

        // Within the retention (30 days by default) both are kept for the audit trail.
        let output = companion(&app, &["files", "check", "--collect"], &[]);
        assert!(output.status.success(), "{output:?}");
        assert!(in_store(&app, &shared_blob) && in_store(&app, &alone_blob));

        // With no retention, the collection deletes the removed file; the copy keeps the other.
        let none = [("DELETED_FILE_RETENTION_DAYS", "0")];
        let output = companion(&app, &["files", "check", "--json"], &none);
        let report: Value = serde_json::from_slice(&output.stdout).expect("json report");
        assert_eq!(report["expired"], json!([alone_blob]), "{report}");
        assert_eq!(report["missing"], json!([]), "{report}");
        let output = companion(&app, &["files", "check", "--collect"], &none);
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{text}");
        assert!(text.contains("1 files past their retention"), "{text}");
        assert!(!in_store(&app, &alone_blob), "past its retention");
        assert!(in_store(&app, &shared_blob), "still named by John's copy");
        // John's copy still opens.
        let res = app.get(&format!("/documents/{}/file", id_of(&copy)), Some(&john)).await;
        assert_eq!(res.status(), StatusCode::OK);

        // Once the copy is removed too, the file goes; the report shows nothing missing.
        let (status, _) = post(&app, &john, "/documents/remove", json!({ "id": id_of(&copy) })).await;
        assert_eq!(status, StatusCode::OK);
        let output = companion(&app, &["files", "check", "--collect"], &none);
        assert!(output.status.success(), "{output:?}");
        assert!(!in_store(&app, &shared_blob));
        let output = companion(&app, &["files", "check", "--json"], &none);
        assert!(output.status.success(), "{output:?}");
        let report: Value = serde_json::from_slice(&output.stdout).expect("json report");
        assert_eq!(report["expired"], json!([]), "{report}");
        assert_eq!(report["orphans"], json!([]), "{report}");
    }

    async fn files_usage_lists_users_by_usage(app) with |_| {}; {
        let anna = app.token(ANNA).await;
        let john = app.token(JOHN).await;
        let (status, body) = upload(&app, &anna, Some("Plan"), Some(("plan.pdf", PDF)), "").await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        let (anna_used, _) = usage(&app, &anna).await;
        let (john_used, _) = usage(&app, &john).await;
        // John takes the lead with a larger file.
        let big = pdf_of(usize::try_from(anna_used + 300 * 1024).unwrap());
        let (status, body) = upload(&app, &john, Some("Big"), Some(("big.pdf", &big)), "").await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        let output = companion(&app, &["files", "usage"], &[]);
        let text = String::from_utf8_lossy(&output.stdout).into_owned();
        assert!(output.status.success(), "{output:?}");
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].contains("files") && lines[0].contains("size"), "{text}");
        let john_line = lines.iter().position(|l| l.starts_with(JOHN)).expect(&text);
        let anna_line = lines.iter().position(|l| l.starts_with(ANNA)).expect(&text);
        assert!(john_line < anna_line, "largest first:\n{text}");
        let john_size = backend::documents::usage::human_size(john_used + big.len() as u64);
        assert!(lines[john_line].trim_end().ends_with(&john_size), "{text}");
    }
}
