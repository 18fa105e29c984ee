//! The operator's commands: `companion projections`, `companion outbox`, `companion backup` and
//! `companion restore`.
//!
//! A backup of the embedded SQLite database is a folder: a consistent copy of the database taken
//! with `VACUUM INTO` while the server runs (one read transaction: writers carry on), the uploaded
//! files, the signing secret and a `backup.json` manifest. A restore needs the server stopped
//! (the data folder's lock tells) and gives the feed a new epoch, so connected apps reload their
//! lists instead of resuming at a place of the old feed.

use std::fs::File;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use projections::dead_letters::{self, DeadLetter, Lag};
use projections::{on_db, Db, PoisonPolicy, Position, Projection};
use serde::Serialize;

use crate::config::Config;

/// The data folder's lock file: held by a running server on SQLite, and by a restore.
pub const LOCK_FILE: &str = "companion.lock";
/// The SQLite file inside a data folder and inside a backup.
pub const DATABASE_FILE: &str = "companion.db";
const MANIFEST_FILE: &str = "backup.json";
const FILES_DIR: &str = "files";
const SECRET_FILE: &str = "jwt-secret";

fn open_lock_file(data_dir: &Path) -> anyhow::Result<File> {
    std::fs::create_dir_all(data_dir)
        .with_context(|| format!("creating data folder {}", data_dir.display()))?;
    let path = data_dir.join(LOCK_FILE);
    File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .with_context(|| format!("opening {}", path.display()))
}

/// What a server holds on its data folder while it runs: a shared lock (several servers may
/// share a folder; a restore may not start under them).
pub fn share_data_dir(data_dir: &Path) -> anyhow::Result<File> {
    let file = open_lock_file(data_dir)?;
    match file.try_lock_shared() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => bail!(
            "a restore is writing the data folder {}: start the server once it has finished",
            data_dir.display()
        ),
        Err(std::fs::TryLockError::Error(e)) => Err(e).context("locking the data folder"),
    }
}

/// Takes the data folder for a restore, or says that a server runs on it.
pub fn lock_data_dir(data_dir: &Path) -> anyhow::Result<File> {
    let file = open_lock_file(data_dir)?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => bail!(
            "a companion server (or another restore) is using the data folder {}: stop it first",
            data_dir.display()
        ),
        Err(std::fs::TryLockError::Error(e)) => Err(e).context("locking the data folder"),
    }
}

// ---- projections ----

/// One projection as `companion projections status` shows it.
#[derive(Debug, Serialize)]
pub struct ProjectionStatus {
    pub name: String,
    pub checkpoint: Position,
    pub lag: Lag,
    pub stopped: bool,
    pub on_poison: PoisonPolicy,
}

#[derive(Debug, Serialize)]
pub struct ProjectionsReport {
    pub projections: Vec<ProjectionStatus>,
    /// Newest first.
    pub dead_letters: Vec<DeadLetter>,
}

fn policy_of(config: &Config, projection: &dyn Projection) -> anyhow::Result<PoisonPolicy> {
    Ok(config
        .poison_policies()?
        .into_iter()
        .find(|(name, _)| name == projection.name())
        .map(|(_, policy)| policy)
        .unwrap_or_else(|| projection.on_poison()))
}

pub async fn projections_status(db: &Db, config: &Config) -> anyhow::Result<ProjectionsReport> {
    let stopped = dead_letters::stopped(db).await?;
    let mut projections = Vec::new();
    for projection in crate::read_models::all() {
        let name = projection.name();
        let checkpoint = projections::projector::checkpoint_of(db, name).await?;
        projections.push(ProjectionStatus {
            name: name.to_string(),
            checkpoint,
            lag: dead_letters::lag(db, checkpoint).await?,
            stopped: stopped.contains(name),
            on_poison: policy_of(config, projection.as_ref())?,
        });
    }
    Ok(ProjectionsReport {
        projections,
        dead_letters: dead_letters::list(db, 50).await?,
    })
}

pub fn print_projections(report: &ProjectionsReport) {
    println!(
        "{:<16} {:<8} {:<8} {:>12} {:>14} {:>12}",
        "projection", "state", "poison", "checkpoint", "events behind", "seconds"
    );
    for p in &report.projections {
        println!(
            "{:<16} {:<8} {:<8} {:>12} {:>14} {:>12.1}",
            p.name,
            if p.stopped { "STOPPED" } else { "running" },
            match p.on_poison {
                PoisonPolicy::Stop => "stop",
                PoisonPolicy::Skip => "skip",
            },
            format!("{}:{}", p.checkpoint.tx_id, p.checkpoint.position),
            p.lag.events,
            p.lag.seconds
        );
    }
    if report.dead_letters.is_empty() {
        println!("\nNo dead letters.");
        return;
    }
    println!("\nDead letters (newest first):");
    for d in &report.dead_letters {
        let at = chrono::DateTime::from_timestamp_millis(d.recorded_at)
            .map(|t| t.to_rfc3339())
            .unwrap_or_default();
        println!(
            "#{} {} {} at {}:{} {} {}/{} #{} ({at}): {}",
            d.id,
            d.projection,
            d.status.to_uppercase(),
            d.tx_id,
            d.position,
            d.event_type,
            d.aggregate_type,
            d.aggregate_id,
            d.sequence,
            d.error
        );
    }
}

fn known_projection(name: &str) -> anyhow::Result<()> {
    let names: Vec<&str> = crate::read_models::all().iter().map(|p| p.name()).collect();
    if !names.contains(&name) {
        bail!(
            "there is no projection {name:?}; the projections are {}",
            names.join(", ")
        );
    }
    Ok(())
}

/// Asks the running projector (on PostgreSQL, whichever node runs it) to look now.
async fn wake_projector(db: &Db) {
    if let Db::Postgres { pool } = db {
        let _ = sqlx::query("select pg_notify($1, '')")
            .bind(projections::projector::WAKE_CHANNEL)
            .execute(pool)
            .await;
    }
}

/// `companion projections retry NAME`.
pub async fn retry_projection(db: &Db, name: &str) -> anyhow::Result<String> {
    known_projection(name)?;
    if dead_letters::retry(db, name).await? == 0 {
        bail!("the projection {name} is not stopped: nothing to retry");
    }
    wake_projector(db).await;
    Ok(format!(
        "{name} will apply its failed event again (see `companion projections status`)"
    ))
}

/// `companion projections skip NAME`.
pub async fn skip_projection(db: &Db, name: &str) -> anyhow::Result<String> {
    known_projection(name)?;
    let Some(letter) = dead_letters::skip(db, name).await? else {
        bail!("the projection {name} is not stopped: nothing to skip");
    };
    wake_projector(db).await;
    Ok(format!(
        "{name} skipped {} {}/{} #{} and carries on after it",
        letter.event_type, letter.aggregate_type, letter.aggregate_id, letter.sequence
    ))
}

// ---- outbox ----

pub async fn print_outbox(db: &Db, all: bool, limit: i64) -> anyhow::Result<()> {
    let entries = crate::outbox::list(db, all, limit).await?;
    if entries.is_empty() {
        println!(
            "{}",
            if all {
                "The outbox is empty."
            } else {
                "No e-mail waiting to be sent."
            }
        );
        return Ok(());
    }
    println!(
        "{:>6} {:<8} {:>8} {:<25} {:<32} subject / answer",
        "id", "state", "attempts", "created", "recipient"
    );
    for e in entries {
        let created = chrono::DateTime::from_timestamp_millis(e.created_at)
            .map(|t| t.format("%Y-%m-%d %H:%M:%S").to_string())
            .unwrap_or_default();
        let state = if e.held && e.state == "queued" {
            "held"
        } else {
            e.state.as_str()
        };
        println!(
            "{:>6} {:<8} {:>8} {:<25} {:<32} {}",
            e.id, state, e.attempts, created, e.recipient, e.subject
        );
        if let Some(answer) = e.smtp_response.as_deref().or(e.last_error.as_deref()) {
            println!("{:>6} {answer}", "");
        }
    }
    Ok(())
}

/// `companion outbox retry [ID...]`.
pub async fn retry_outbox(db: &Db, ids: &[i64]) -> anyhow::Result<String> {
    let requeued = crate::outbox::requeue_failed(db, ids).await?;
    if requeued == 0 {
        bail!("no failed message to retry");
    }
    Ok(format!(
        "{requeued} message(s) queued again; the relays send them at their next look"
    ))
}

// ---- backup and restore ----

#[derive(Debug, Serialize, serde::Deserialize)]
struct Manifest {
    /// When the copy was taken (RFC 3339).
    created_at: String,
    /// The feed epoch of the copy (a restore gives the feed a new one).
    epoch: String,
    version: String,
}

fn postgres_refusal(config: &Config, what: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "companion {what} works on the embedded SQLite database only. On PostgreSQL use its own tools:\n  \
         pg_dump --format=custom --file=companion.pgdump \"$DATABASE_URL\"\n  \
         pg_restore --clean --if-exists --no-owner --dbname=\"$DATABASE_URL\" companion.pgdump\n  \
         psql \"$DATABASE_URL\" -c \"update realtime_epoch set epoch = md5(random()::text)\"\n\
         (the last line gives the restored feed a new epoch), and copy {}/files alongside.",
        config.data_dir.display()
    )
}

fn is_postgres(config: &Config) -> bool {
    let url = config.database_url();
    url.starts_with("postgres://") || url.starts_with("postgresql://")
}

/// A string as an SQL literal.
fn sql_literal(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// `companion backup PATH`: a consistent copy of a running (or stopped) SQLite server.
pub async fn backup(config: &Config, target: &Path) -> anyhow::Result<String> {
    if is_postgres(config) {
        return Err(postgres_refusal(config, "backup"));
    }
    let database = config.data_dir.join(DATABASE_FILE);
    if !database.is_file() {
        bail!("there is no database to back up at {}", database.display());
    }
    if target.exists()
        && std::fs::read_dir(target)
            .map(|mut d| d.next().is_some())
            .unwrap_or(true)
    {
        bail!(
            "{} already exists and is not empty: give a new folder",
            target.display()
        );
    }
    std::fs::create_dir_all(target).with_context(|| format!("creating {}", target.display()))?;
    let db = Db::connect(&config.database_url()).await?;
    let copy = target.join(DATABASE_FILE);
    // One read transaction: a snapshot of every table at one moment; writers are not blocked.
    let vacuum = format!("vacuum into {}", sql_literal(&copy.to_string_lossy()));
    let epoch: String = on_db!(&db, pool => sqlx::query_scalar("select epoch from realtime_epoch where id = 1")
        .fetch_one(pool).await)?;
    on_db!(&db, pool => sqlx::query(&vacuum).execute(pool).await.map(|_| ()))
        .context("copying the database")?;
    db.close().await;
    // Files are written before the events that name them and never changed: copying them
    // after the snapshot gives every file the copy refers to.
    let files = copy_dir(&config.data_dir.join(FILES_DIR), &target.join(FILES_DIR))?;
    // The session secret, and the VAPID key the stored push subscriptions are bound to.
    for name in [SECRET_FILE, crate::push::keys::KEY_FILE] {
        let secret = config.data_dir.join(name);
        if secret.is_file() {
            std::fs::copy(&secret, target.join(name))?;
        }
    }
    let manifest = Manifest {
        created_at: chrono::Utc::now().to_rfc3339(),
        epoch,
        version: env!("CARGO_PKG_VERSION").into(),
    };
    std::fs::write(
        target.join(MANIFEST_FILE),
        serde_json::to_vec_pretty(&manifest)?,
    )?;
    let size = std::fs::metadata(&copy)?.len();
    Ok(format!(
        "Backed up {} ({size} bytes) and {files} files into {}",
        database.display(),
        target.display()
    ))
}

/// `companion restore PATH`: puts a backup in place of the data folder's database (the server
/// must be stopped) and gives the feed a new epoch.
pub async fn restore(config: &Config, source: &Path, force: bool) -> anyhow::Result<String> {
    if is_postgres(config) {
        return Err(postgres_refusal(config, "restore"));
    }
    let backup_db = source.join(DATABASE_FILE);
    if !backup_db.is_file() || !source.join(MANIFEST_FILE).is_file() {
        bail!(
            "{} is not a companion backup (no {DATABASE_FILE} and {MANIFEST_FILE})",
            source.display()
        );
    }
    let _lock = lock_data_dir(&config.data_dir)?;
    let database = config.data_dir.join(DATABASE_FILE);
    if database.exists() && !force {
        bail!(
            "{} already holds a database: add --force to replace it with the backup",
            database.display()
        );
    }
    // Prepared beside the live file, then swapped in: a failure leaves the old one whole.
    let staging = config.data_dir.join("companion.db.restoring");
    remove_database_files(&staging)?;
    std::fs::copy(&backup_db, &staging)
        .with_context(|| format!("copying {}", backup_db.display()))?;
    let epoch = new_epoch();
    {
        let db = Db::connect(&format!("sqlite://{}", staging.display())).await?;
        let check: String = on_db!(&db, pool => sqlx::query_scalar("pragma quick_check")
            .fetch_one(pool).await)?;
        if check != "ok" {
            db.close().await;
            remove_database_files(&staging)?;
            bail!("the backup's database is damaged: {check}");
        }
        on_db!(&db, pool => sqlx::query("update realtime_epoch set epoch = $1 where id = 1")
            .bind(&epoch).execute(pool).await.map(|_| ()))?;
        // Fold the WAL back in so the single file is the whole database.
        on_db!(&db, pool => sqlx::query("pragma wal_checkpoint(truncate)").execute(pool).await.map(|_| ()))?;
        db.close().await;
    }
    remove_database_files(&database)?;
    std::fs::rename(&staging, &database)?;
    remove_database_files(&staging)?;
    let files_dir = config.data_dir.join(FILES_DIR);
    if files_dir.exists() {
        std::fs::remove_dir_all(&files_dir)?;
    }
    let files = copy_dir(&source.join(FILES_DIR), &files_dir)?;
    for name in [SECRET_FILE, crate::push::keys::KEY_FILE] {
        let secret = source.join(name);
        if secret.is_file() {
            std::fs::copy(&secret, config.data_dir.join(name))?;
        }
    }
    Ok(format!(
        "Restored {} and {files} files into {}; the feed's new epoch is {epoch}, so open apps reload",
        source.display(),
        config.data_dir.display()
    ))
}

fn new_epoch() -> String {
    uuid::Uuid::new_v4().simple().to_string()[..16].to_string()
}

/// Removes an SQLite file with its `-wal` and `-shm` companions.
fn remove_database_files(path: &Path) -> std::io::Result<()> {
    for suffix in ["", "-wal", "-shm"] {
        let file = PathBuf::from(format!("{}{suffix}", path.display()));
        match std::fs::remove_file(&file) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Copies the regular files of `from` (one level: the storage folder is flat) into `to`.
fn copy_dir(from: &Path, to: &Path) -> anyhow::Result<usize> {
    std::fs::create_dir_all(to)?;
    if !from.is_dir() {
        return Ok(0);
    }
    let mut copied = 0;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        if entry.file_type()?.is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name()))
                .with_context(|| format!("copying {}", entry.path().display()))?;
            copied += 1;
        }
    }
    Ok(copied)
}
