//! `companion files check` and the hourly collection: files history refers to that the store
//! lacks, stored files no event refers to (orphans: uploads refused half-way, writes cut off
//! before their event), and removed files past their retention.
//!
//! Orphans older than a grace period (an upload in flight is stored before its event) can be
//! collected. A file no live item names any more is kept `DELETED_FILE_RETENTION_DAYS` after
//! the last one was removed (for the audit trail), then deleted; while another live item names
//! it (a copy in someone's My Docs), it stays. The check reads the store's listing and the
//! `stored_files` read model a page at a time, never the events.

use std::collections::HashMap;
use std::time::Duration;

use futures::StreamExt;
use projections::projector::checkpoint_of;
use projections::stored_files::{self, stored_files_after};
use projections::Db;
use serde::Serialize;

use super::storage::{Storage, StorageError};
use crate::config::Config;
use crate::metrics::ORPHANS_COLLECTED;

/// How often the node running the projections collects orphans.
pub const COLLECT_EVERY: Duration = Duration::from_secs(3600);

/// Orphans younger than this may belong to an upload whose event is being written.
pub const ORPHAN_GRACE: Duration = Duration::from_secs(3600);

/// How long a removed file is kept (`DELETED_FILE_RETENTION_DAYS`).
pub fn retention(config: &Config) -> Duration {
    Duration::from_secs(u64::from(config.deleted_file_retention_days) * 24 * 3600)
}

/// How long a check waits for the read model to reach the events written before it.
const READ_MODEL_WAIT: Duration = Duration::from_secs(30);

/// Stored files read from the read model at a time.
const PAGE: i64 = 1000;

#[derive(Debug, Serialize)]
pub struct FilesReport {
    /// Objects in the store.
    pub stored: usize,
    /// Distinct files the events refer to.
    pub referenced: usize,
    /// Named by a live item, or removed within the retention, but not in the store.
    pub missing: Vec<String>,
    /// In the store, referred to by no event.
    pub orphans: Vec<String>,
    /// Orphans past the grace period (collectable).
    pub collectable: Vec<String>,
    /// In the store, named by no live item, removed longer ago than the retention (deleted by a
    /// collection).
    pub expired: Vec<String>,
}

/// Waits until the stored-files read model has applied every event written before the check
/// began: a file whose upload it has not read yet would look like an orphan.
async fn wait_for_read_model(db: &Db) -> anyhow::Result<()> {
    let Some(head) = projections::stream::head(db).await? else {
        return Ok(());
    };
    let deadline = tokio::time::Instant::now() + READ_MODEL_WAIT;
    while checkpoint_of(db, stored_files::NAME).await? < head {
        if tokio::time::Instant::now() > deadline {
            anyhow::bail!(
                "the stored files read model has not applied the latest events yet: \
                 let the server run and check again"
            );
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    Ok(())
}

/// Compares the store with the stored files of the read model; `retention` is how long a file
/// no live item names is kept.
pub async fn check(db: &Db, storage: &Storage, retention: Duration) -> anyhow::Result<FilesReport> {
    wait_for_read_model(db).await?;
    // Only names and dates of the store's objects are held, not what events say of them.
    let mut in_store: HashMap<String, chrono::DateTime<chrono::Utc>> = HashMap::new();
    let mut listing = storage.listing();
    while let Some(listed) = listing.next().await {
        let listed = listed?;
        in_store.insert(listed.blob, listed.last_modified);
    }
    let stored = in_store.len();
    let now = chrono::Utc::now();
    let kept_since =
        now.timestamp_millis() - i64::try_from(retention.as_millis()).unwrap_or(i64::MAX);
    let mut report = FilesReport {
        stored,
        referenced: 0,
        missing: Vec::new(),
        orphans: Vec::new(),
        collectable: Vec::new(),
        expired: Vec::new(),
    };
    let mut after = String::new();
    loop {
        let page = stored_files_after(db, &after, PAGE).await?;
        let Some(last) = page.last() else { break };
        after = last.blob.clone();
        for file in page {
            report.referenced += 1;
            let present = in_store.remove(&file.blob).is_some();
            let kept = file.live_items > 0 || file.released_at.is_none_or(|at| at > kept_since);
            match (kept, present) {
                (true, false) => report.missing.push(file.blob),
                (false, true) => report.expired.push(file.blob),
                _ => {}
            }
        }
    }
    let grace =
        chrono::Duration::from_std(ORPHAN_GRACE).unwrap_or_else(|_| chrono::Duration::hours(1));
    let mut orphans: Vec<_> = in_store.into_iter().collect();
    orphans.sort();
    for (blob, modified) in orphans {
        if modified < now - grace {
            report.collectable.push(blob.clone());
        }
        report.orphans.push(blob);
    }
    Ok(report)
}

/// Deletes the collectable orphans and the expired files of `report`; returns how many went.
pub async fn collect(storage: &Storage, report: &FilesReport) -> Result<usize, StorageError> {
    let mut removed = 0;
    for blob in &report.collectable {
        storage.delete(blob).await?;
        removed += 1;
    }
    metrics::counter!(ORPHANS_COLLECTED).increment(removed as u64);
    for blob in &report.expired {
        storage.delete(blob).await?;
        removed += 1;
    }
    Ok(removed)
}

/// One check and collection, as the hourly task runs it; how many files went.
pub async fn check_and_collect(
    db: &Db,
    storage: &Storage,
    retention: Duration,
) -> anyhow::Result<usize> {
    let report = check(db, storage, retention).await?;
    Ok(collect(storage, &report).await?)
}

/// The report as an operator reads it.
pub fn print(report: &FilesReport, collected: Option<usize>) {
    println!(
        "{} stored files, {} referred to by history",
        report.stored, report.referenced
    );
    println!("missing from the store: {}", report.missing.len());
    for blob in &report.missing {
        println!("  {blob}");
    }
    println!("removed past their retention: {}", report.expired.len());
    for blob in &report.expired {
        println!("  {blob}");
    }
    println!(
        "orphans: {} ({} older than {} s)",
        report.orphans.len(),
        report.collectable.len(),
        ORPHAN_GRACE.as_secs()
    );
    for blob in &report.orphans {
        println!("  {blob}");
    }
    if let Some(n) = collected {
        println!(
            "collected {} orphans and {} files past their retention",
            n - report.expired.len(),
            report.expired.len()
        );
    }
}

/// Collects orphans every [`COLLECT_EVERY`] on the node that runs the projections (one node of
/// a cluster; each node on SQLite), until `stop`.
pub async fn collect_periodically(
    db: Db,
    storage: Storage,
    retention: Duration,
    projector: projections::ProjectorHandle,
    stop: tokio_util::sync::CancellationToken,
) {
    loop {
        tokio::select! {
            _ = stop.cancelled() => return,
            _ = tokio::time::sleep(COLLECT_EVERY) => {}
        }
        if matches!(db, Db::Postgres { .. }) && !projector.is_active() {
            continue;
        }
        match check_and_collect(&db, &storage, retention).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(collected = n, "orphan and expired files collected"),
            Err(e) => tracing::warn!(error = %e, "cannot collect the stored files"),
        }
    }
}
