//! A demo start done once per test build and engine, then copied for each test.
//!
//! Every test starts a server with the demo: migrations, the content import, the demo
//! accounts, notifications and documents, and the projections over all of it. That is the same
//! work for every test and most of a test's time. The first test of a build that needs it does
//! it once, under a file lock shared by every test process, and keeps the result: a PostgreSQL
//! database that later tests use as the template of theirs (`create database … template`), or
//! a SQLite data folder they copy. The start that follows finds everything in place and only
//! checks it (the demo steps are idempotent, as on any restart).
//!
//! Only a start whose configuration is the tests' default, with no projection of the test's
//! own, uses a snapshot: a test that changes what the start does starts from an empty database.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use backend::Config;

use crate::helpers::{with_database, Engine};

/// Snapshots older than this are removed by the next build's first test (a snapshot is never
/// reused across builds, and a test run lasts well under this).
const KEEP_OLD_SNAPSHOTS: Duration = Duration::from_secs(6 * 3600);

const PG_PREFIX: &str = "companion_seed_";

/// Where the snapshots and their lock live (shared by every test process of the machine).
fn folder() -> PathBuf {
    std::env::temp_dir().join("companion-test-seeds")
}

/// Names this build of the test binary: a snapshot is made by the code that uses it.
fn build_key() -> String {
    let exe = std::env::current_exe().expect("test binary path");
    let meta = std::fs::metadata(&exe).expect("test binary metadata");
    let modified = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    use sha2::Digest;
    let digest = sha2::Sha256::digest(format!("{}|{}|{modified}", exe.display(), meta.len()));
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// A demo start ready to be copied: its data folder (the SQLite file, the stored files, the
/// node's keys) and, on PostgreSQL, the template database. Made on first use.
pub struct Snapshot {
    pub data_dir: PathBuf,
    pub template: Option<String>,
}

/// The snapshot for `engine`, making it under the shared lock when this build has none yet.
/// `admin` is PostgreSQL's maintenance URL (for PostgreSQL).
pub async fn snapshot(engine: Engine, admin: &str) -> Snapshot {
    let dir = folder();
    std::fs::create_dir_all(&dir).expect("snapshot folder");
    let key = build_key();
    let lock = File::create(dir.join("lock")).expect("snapshot lock file");
    // Blocking, on purpose: the test cannot go on without it, and the holder is seeding.
    let lock = tokio::task::spawn_blocking(move || lock.lock().map(|()| lock))
        .await
        .expect("lock task")
        .expect("snapshot lock");
    let made = match engine {
        Engine::Postgres => postgres_snapshot(&dir, &key, admin).await,
        Engine::Sqlite => sqlite_snapshot(&dir, &key).await,
    };
    drop(lock);
    made
}

async fn postgres_snapshot(dir: &Path, key: &str, admin: &str) -> Snapshot {
    use sqlx::Connection;
    let data_dir = dir.join(format!("{key}.postgres"));
    let marker = dir.join(format!("{key}.postgres.ready"));
    let mut conn = sqlx::PgConnection::connect(admin)
        .await
        .expect("PostgreSQL for the snapshot");
    if let Ok(template) = std::fs::read_to_string(&marker) {
        let exists: bool =
            sqlx::query_scalar("select exists (select 1 from pg_database where datname = $1)")
                .bind(&template)
                .fetch_one(&mut conn)
                .await
                .expect("look for the snapshot");
        if exists {
            return Snapshot {
                data_dir,
                template: Some(template),
            };
        }
    }
    drop_old_postgres_snapshots(&mut conn).await;
    drop_old_folders(dir);
    let template = format!("{PG_PREFIX}{key}_{}", now_secs());
    sqlx::query(&format!("create database {template}"))
        .execute(&mut conn)
        .await
        .expect("create the snapshot database");
    fresh_folder(&data_dir);
    let mut config = crate::helpers::test_config(&data_dir);
    config.database_url = Some(with_database(admin, &template));
    demo_start(config).await;
    std::fs::write(&marker, &template).expect("snapshot marker");
    Snapshot {
        data_dir,
        template: Some(template),
    }
}

async fn sqlite_snapshot(dir: &Path, key: &str) -> Snapshot {
    let data_dir = dir.join(format!("{key}.sqlite"));
    let ready = dir.join(format!("{key}.sqlite.ready"));
    if !ready.exists() {
        drop_old_folders(dir);
        fresh_folder(&data_dir);
        demo_start(crate::helpers::test_config(&data_dir)).await;
        std::fs::write(&ready, b"").expect("snapshot marker");
    }
    Snapshot {
        data_dir,
        template: None,
    }
}

fn fresh_folder(path: &Path) {
    let _ = std::fs::remove_dir_all(path);
    std::fs::create_dir_all(path).expect("snapshot data folder");
}

/// What `companion serve --demo` does before it serves, then every connection closed (a
/// template database must have none, and SQLite folds its journal into the file).
async fn demo_start(config: Config) {
    let (state, projector) = backend::prepare(config).await.expect("demo start");
    drop(projector);
    state.db.close().await;
}

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The creation time written into a snapshot's database name.
fn made_at(name: &str) -> Option<u64> {
    name.rsplit('_').next()?.parse().ok()
}

async fn drop_old_postgres_snapshots(conn: &mut sqlx::PgConnection) {
    let names: Vec<String> =
        sqlx::query_scalar("select datname from pg_database where datname like $1")
            .bind(format!("{PG_PREFIX}%"))
            .fetch_all(&mut *conn)
            .await
            .unwrap_or_default();
    let cutoff = now_secs().saturating_sub(KEEP_OLD_SNAPSHOTS.as_secs());
    for name in names {
        if made_at(&name).is_some_and(|at| at < cutoff) {
            let _ = sqlx::query(&format!("drop database if exists {name} with (force)"))
                .execute(&mut *conn)
                .await;
        }
    }
}

fn drop_old_folders(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > KEEP_OLD_SNAPSHOTS);
        if old && entry.file_name() != "lock" {
            let path = entry.path();
            let _ = std::fs::remove_dir_all(&path).or_else(|_| std::fs::remove_file(&path));
        }
    }
}
