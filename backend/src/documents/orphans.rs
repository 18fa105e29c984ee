//! `companion files check`: files history refers to that the store lacks, and stored files no
//! event refers to (orphans: uploads refused half-way, writes cut off before their event).
//! Orphans older than a grace period (an upload in flight is stored before its event) can be
//! collected; a file any event ever named is kept, so history and replays keep their files.

use std::collections::BTreeSet;
use std::time::Duration;

use events::documents::ITEM_TYPE;
use projections::{on_db, Db};
use serde::Serialize;

use super::storage::{Storage, StorageError};

pub const ORPHANS_COLLECTED: &str = "companion_files_orphans_collected_total";
/// How often the node running the projections collects orphans.
pub const COLLECT_EVERY: Duration = Duration::from_secs(3600);

/// Orphans younger than this may belong to an upload whose event is being written.
pub const ORPHAN_GRACE: Duration = Duration::from_secs(3600);

#[derive(Debug, Serialize)]
pub struct FilesReport {
    /// Objects in the store.
    pub stored: usize,
    /// Distinct files the events refer to.
    pub referenced: usize,
    /// Referred to, but not in the store.
    pub missing: Vec<String>,
    /// In the store, referred to by no event.
    pub orphans: Vec<String>,
    /// Orphans past the grace period (collectable).
    pub collectable: Vec<String>,
}

/// Every `"blob"` string anywhere in an event's JSON.
fn blobs_in(value: &serde_json::Value, out: &mut BTreeSet<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, value) in map {
                match value {
                    serde_json::Value::String(s) if key == "blob" => {
                        out.insert(s.clone());
                    }
                    other => blobs_in(other, out),
                }
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| blobs_in(v, out)),
        _ => {}
    }
}

/// The files every documents event ever named.
pub async fn referenced(db: &Db) -> anyhow::Result<BTreeSet<String>> {
    let payloads: Vec<String> = on_db!(db, pool => sqlx::query_scalar(
        "select cast(payload as text) from events where aggregate_type = $1")
        .bind(ITEM_TYPE).fetch_all(pool).await)?;
    let mut out = BTreeSet::new();
    for payload in payloads {
        // A damaged event names nothing we can read; the projections report it.
        if let Ok(value) = serde_json::from_str::<serde_json::Value>(&payload) {
            blobs_in(&value, &mut out);
        }
    }
    Ok(out)
}

pub async fn check(db: &Db, storage: &Storage) -> anyhow::Result<FilesReport> {
    let referenced = referenced(db).await?;
    let listed = storage.list().await?;
    let stored: BTreeSet<&str> = listed.iter().map(|l| l.blob.as_str()).collect();
    let cutoff = chrono::Utc::now()
        - chrono::Duration::from_std(ORPHAN_GRACE).unwrap_or_else(|_| chrono::Duration::hours(1));
    let orphans: Vec<_> = listed
        .iter()
        .filter(|l| !referenced.contains(&l.blob))
        .collect();
    Ok(FilesReport {
        stored: listed.len(),
        referenced: referenced.len(),
        missing: referenced
            .iter()
            .filter(|b| !stored.contains(b.as_str()))
            .cloned()
            .collect(),
        collectable: orphans
            .iter()
            .filter(|l| l.last_modified < cutoff)
            .map(|l| l.blob.clone())
            .collect(),
        orphans: orphans.iter().map(|l| l.blob.clone()).collect(),
    })
}

/// Deletes the collectable orphans of `report`; returns how many went.
pub async fn collect(storage: &Storage, report: &FilesReport) -> Result<usize, StorageError> {
    let mut removed = 0;
    for blob in &report.collectable {
        storage.delete(blob).await?;
        removed += 1;
    }
    metrics::counter!(ORPHANS_COLLECTED).increment(removed as u64);
    Ok(removed)
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
        println!("collected {n} orphans");
    }
}

/// Collects orphans every [`COLLECT_EVERY`] on the node that runs the projections (one node of
/// a cluster; each node on SQLite), until `stop`.
pub async fn collect_periodically(
    db: Db,
    storage: Storage,
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
        match check(&db, &storage).await {
            Ok(report) => match collect(&storage, &report).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(collected = n, "orphan files collected"),
                Err(e) => tracing::warn!(error = %e, "cannot collect orphan files"),
            },
            Err(e) => tracing::warn!(error = %e, "cannot check the stored files"),
        }
    }
}
