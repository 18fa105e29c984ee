//! How far the rebuilds running beside the server are, for `/metrics`.
//!
//! The process that rebuilds (`companion rebuild`, `companion replay`) writes one row per
//! projection into the live database about once a second and removes it at the end; the node
//! running the projector reads them when it samples its lag and sets the gauges below. A row
//! older than [`STALE_AFTER_MS`] is a rebuild whose process died: it counts as not running.

use crate::db::Db;
use crate::on_db;
use crate::replay::RebuildProgress;

/// A row not written for this long is no longer a running rebuild.
pub const STALE_AFTER_MS: i64 = 10_000;

pub mod metric_names {
    /// Gauge: 1 while a rebuild of the projection runs beside the server.
    pub const RUNNING: &str = "companion_rebuild_running";
    /// Gauge: events the running rebuild has applied.
    pub const EVENTS_APPLIED: &str = "companion_rebuild_events_applied";
    /// Gauge: events in the stream when the rebuild started.
    pub const EVENTS_TOTAL: &str = "companion_rebuild_events_total";
    /// Gauge: estimated seconds until the rebuild has applied them all, at its speed so far
    /// (0 when none runs).
    pub const SECONDS_LEFT: &str = "companion_rebuild_seconds_left";
    /// Counter: rounds of rebuilds run in this process, by whether the round only moved its
    /// checkpoints in one statement (`light="true"`) or had a transaction of its own.
    pub const ROUNDS_TOTAL: &str = "companion_rebuild_rounds_total";
}

/// Records how far a rebuild is (`now_ms` is when it was measured).
pub async fn record(db: &Db, progress: &RebuildProgress, now_ms: i64) -> Result<(), sqlx::Error> {
    let started_at = now_ms - progress.elapsed.as_millis() as i64;
    on_db!(db, pool => sqlx::query(
        "insert into rebuild_progress (projection, applied, total, started_at, updated_at)
         values ($1, $2, $3, $4, $5)
         on conflict (projection) do update set applied = excluded.applied,
             total = excluded.total, started_at = excluded.started_at,
             updated_at = excluded.updated_at")
        .bind(progress.projection)
        .bind(progress.applied as i64)
        .bind(progress.total as i64)
        .bind(started_at)
        .bind(now_ms)
        .execute(pool).await.map(|_| ()))
}

/// Removes a rebuild's row once it has ended.
pub async fn clear(db: &Db, projection: &str) -> Result<(), sqlx::Error> {
    on_db!(db, pool => sqlx::query("delete from rebuild_progress where projection = $1")
        .bind(projection).execute(pool).await.map(|_| ()))
}

/// A rebuild running beside the server, as last recorded.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct Running {
    pub projection: String,
    pub applied: i64,
    pub total: i64,
    pub started_at: i64,
    pub updated_at: i64,
}

impl Running {
    /// Seconds left at the rate so far; infinite before the first event.
    pub fn seconds_left(&self) -> f64 {
        let elapsed = (self.updated_at - self.started_at).max(1) as f64 / 1000.0;
        crate::catch_up::seconds_left(self.total - self.applied, self.applied as f64 / elapsed)
    }
}

/// The rebuilds recorded within [`STALE_AFTER_MS`] of `now_ms`.
pub async fn running(db: &Db, now_ms: i64) -> Result<Vec<Running>, sqlx::Error> {
    on_db!(db, pool => sqlx::query_as(
        "select projection, applied, total, started_at, updated_at from rebuild_progress
         where updated_at > $1 order by projection")
        .bind(now_ms - STALE_AFTER_MS)
        .fetch_all(pool).await)
}

/// Sets the gauges of every projection in `names` from `running`.
pub fn publish(names: &[&'static str], running: &[Running]) {
    for &name in names {
        let found = running.iter().find(|r| r.projection == name);
        let (on, applied, total, left) = match found {
            Some(r) => (1.0, r.applied as f64, r.total as f64, r.seconds_left()),
            None => (0.0, 0.0, 0.0, 0.0),
        };
        metrics::gauge!(metric_names::RUNNING, "projection" => name).set(on);
        metrics::gauge!(metric_names::EVENTS_APPLIED, "projection" => name).set(applied);
        metrics::gauge!(metric_names::EVENTS_TOTAL, "projection" => name).set(total);
        metrics::gauge!(metric_names::SECONDS_LEFT, "projection" => name).set(left);
    }
}
