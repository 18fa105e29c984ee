//! `companion backup` of a running SQLite server under writes, and `companion restore` into a new
//! data folder: a server there shows the same data under a new feed epoch.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

use crate::documents::{list, new_file, PDF};
use crate::helpers::*;
use crate::poison::companion_in;

/// Opens the realtime channel with a resume point; returns the frames up to `ready`, and it.
async fn resume(
    base: &str,
    token: &str,
    last_seq: Option<i64>,
    epoch: Option<&str>,
) -> (Vec<Value>, Value) {
    let url = format!("{}/api/ws", base.replacen("http", "ws", 1));
    let (mut ws, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("websocket");
    let mut auth = json!({ "type": "auth", "token": token });
    if let (Some(seq), Some(epoch)) = (last_seq, epoch) {
        auth["last_seq"] = json!(seq);
        auth["epoch"] = json!(epoch);
    }
    ws.send(Message::text(auth.to_string()))
        .await
        .expect("auth");
    let mut before = Vec::new();
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a frame in time")
            .expect("open")
            .expect("frame");
        if let Message::Text(text) = frame {
            let v: Value = serde_json::from_str(text.as_str()).unwrap();
            match v["type"].as_str() {
                Some("ready") => return (before, v),
                Some("ping") => {}
                _ => before.push(v),
            }
        }
    }
}

fn titles(items: &[Value]) -> Vec<String> {
    items
        .iter()
        .map(|i| i["title"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_sqlite_server_is_backed_up_under_writes_and_restored_with_a_new_epoch() {
    let app = spawn_app(Engine::Sqlite).await.expect("app");
    let anna = app.token(ANNA).await;
    let file = new_file(&app, &anna, "Before the backup", None).await;

    // Folders keep being created while the copy is taken.
    let writing = Arc::new(AtomicBool::new(true));
    let writer = tokio::spawn({
        let (client, url, anna, writing) = (
            app.client.clone(),
            app.url("/folders"),
            anna.clone(),
            writing.clone(),
        );
        async move {
            let mut created = Vec::new();
            while writing.load(Ordering::Relaxed) {
                let name = format!("Busy {:04}", created.len());
                let res = client
                    .post(&url)
                    .bearer_auth(&anna)
                    .json(&json!({ "name": name, "type": "my", "parent": null }))
                    .send()
                    .await
                    .expect("create folder");
                assert_eq!(res.status(), StatusCode::CREATED);
                created.push(name);
            }
            created
        }
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let data_dir = app.state.config.data_dir.clone();
    let backups = tempfile::tempdir().unwrap();
    let copy = backups.path().join("copy");
    let copy_arg = copy.to_string_lossy().to_string();
    let (ok, out, err) = tokio::task::spawn_blocking({
        let (data_dir, copy_arg) = (data_dir.clone(), copy_arg.clone());
        move || companion_in(&data_dir, None, &["backup", &copy_arg])
    })
    .await
    .unwrap();
    assert!(ok, "{err}");
    assert!(out.contains("Backed up"), "{out}");
    tokio::time::sleep(Duration::from_millis(200)).await;
    writing.store(false, Ordering::Relaxed);
    let created = writer.await.unwrap();
    assert!(
        created.len() > 3,
        "writes went on during the backup: {}",
        created.len()
    );

    // Refusals: a backup into a folder that is not empty; a restore under a running server.
    let (ok, _, err) = companion_in(&data_dir, None, &["backup", &copy_arg]);
    assert!(!ok);
    assert!(err.contains("already exists and is not empty"), "{err}");
    let (ok, _, err) = companion_in(&data_dir, None, &["restore", &copy_arg, "--force"]);
    assert!(!ok);
    assert!(err.contains("is using the data folder"), "{err}");
    let (ok, _, err) = companion_in(&data_dir, None, &["restore", &data_dir.to_string_lossy()]);
    assert!(!ok);
    assert!(err.contains("is not a companion backup"), "{err}");

    // Restore into a new data folder: refused over an existing database without --force.
    let target = tempfile::tempdir().unwrap();
    let (ok, out, err) = companion_in(target.path(), None, &["restore", &copy_arg]);
    assert!(ok, "{err}");
    assert!(out.contains("the feed's new epoch is"), "{out}");
    let (ok, _, err) = companion_in(target.path(), None, &["restore", &copy_arg]);
    assert!(!ok);
    assert!(err.contains("add --force"), "{err}");
    let (ok, out, err) = companion_in(target.path(), None, &["restore", &copy_arg, "--force"]);
    assert!(ok, "{err}");
    let restored_epoch = out
        .rsplit("new epoch is ")
        .next()
        .unwrap()
        .split(',')
        .next()
        .unwrap()
        .to_string();

    let restored = spawn_app_with(Engine::Sqlite, |config| {
        config.data_dir = target.path().to_path_buf();
    })
    .await
    .expect("a server on the restored folder");
    assert_ne!(
        restored.state.realtime.epoch(),
        app.state.realtime.epoch(),
        "a new feed epoch"
    );
    assert_eq!(restored.state.realtime.epoch(), restored_epoch);

    // The same data: everything written before the backup, and a prefix of the writes during it.
    let anna_there = restored.token(ANNA).await;
    let mine = titles(&list(&restored, &anna_there, "/documents/my").await);
    assert!(mine.contains(&"Before the backup".to_string()), "{mine:?}");
    let busy: Vec<&String> = mine.iter().filter(|t| t.starts_with("Busy ")).collect();
    assert!(
        !busy.is_empty() && busy.len() <= created.len(),
        "{} of {}",
        busy.len(),
        created.len()
    );
    for (i, title) in busy.iter().enumerate() {
        assert_eq!(**title, created[i], "a consistent moment: no gap");
    }
    let original = titles(&list(&app, &anna, "/documents/my").await);
    for title in &mine {
        assert!(original.contains(title), "{title} was not in the original");
    }
    // The uploaded file came along.
    let res = restored
        .get(&format!("/documents/{file}/file"), Some(&anna_there))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.bytes().await.unwrap().as_ref(), PDF);
    // An app still holding a place in the old feed is told to reload, then carries on.
    let (_, old_ready) = resume(&app.base, &anna, None, None).await;
    let old_epoch = old_ready["epoch"].as_str().unwrap();
    let old_seq = old_ready["seq"].as_i64().unwrap();
    let (before, ready) = resume(&restored.base, &anna_there, Some(old_seq), Some(old_epoch)).await;
    assert_eq!(before, vec![json!({ "type": "reload" })]);
    assert_eq!(ready["epoch"], restored_epoch.as_str());
    // And the read models agree with the restored events.
    let report = backend::replay::run(&restored.state.db, &restored.state.config, &[])
        .await
        .unwrap();
    assert!(
        backend::replay::print(&report),
        "the restored read models match their events"
    );
}

#[test]
fn on_postgresql_backup_and_restore_refuse_and_print_the_pg_dump_line() {
    let dir = tempfile::tempdir().unwrap();
    let url = Some("postgres://postgres@127.0.0.1:5432/companion");
    for command in [
        vec!["backup", "/tmp/nowhere"],
        vec!["restore", "/tmp/nowhere"],
    ] {
        let (ok, out, err) = companion_in(dir.path(), url, &command);
        assert!(!ok, "{out}");
        assert!(
            err.contains("works on the embedded SQLite database only"),
            "{err}"
        );
        assert!(err.contains("pg_dump --format=custom"), "{err}");
        assert!(err.contains("update realtime_epoch set epoch"), "{err}");
    }
}
