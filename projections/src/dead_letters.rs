//! Poison events: events a projection cannot apply.
//!
//! The projector records each one in `projection_dead_letters` (event, projection, error, time),
//! raises the `companion_projection_dead_letters_total` counter and logs an ERROR. By the
//! projection's policy it then either stops that projection alone (its checkpoint stays just
//! before the event; every other projection carries on) or steps over the event. An operator
//! lists, retries or skips stopped projections with `companion projections status|retry|skip`.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::db::{Db, Tx};
use crate::stream::{Position, StoredEvent};
use crate::{now_ms, on_db, on_tx};

/// The metrics the projector emits, each labelled with `projection`.
pub mod metric_names {
    /// Gauge: events recorded after the projection's checkpoint (counted up to 100,000, then
    /// estimated from the stream's positions).
    pub const EVENTS_BEHIND: &str = "companion_projection_events_behind";
    /// Gauge: age in seconds of the oldest event the projection has not applied (0 when current).
    pub const SECONDS_BEHIND: &str = "companion_projection_seconds_behind";
    /// Gauge: 1 while the projection is stopped on a poison event.
    pub const STOPPED: &str = "companion_projection_stopped";
    /// Counter: poison events recorded (stopped or skipped).
    pub const DEAD_LETTERS_TOTAL: &str = "companion_projection_dead_letters_total";
    /// Gauge: events applied per second, averaged over the last ten seconds or so.
    pub const EVENTS_PER_SECOND: &str = "companion_projection_events_per_second";
    /// Gauge: estimated seconds until the projection is current at that speed (0 when it is,
    /// `+Inf` while it does not move).
    pub const SECONDS_LEFT: &str = "companion_projection_seconds_left";
    pub const ALL: &[&str] = &[
        EVENTS_BEHIND,
        SECONDS_BEHIND,
        STOPPED,
        DEAD_LETTERS_TOTAL,
        EVENTS_PER_SECOND,
        SECONDS_LEFT,
    ];
}

/// What a projection does with an event it cannot apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PoisonPolicy {
    /// Stop this projection (its read model would be wrong without the event) until an operator
    /// retries or skips it.
    Stop,
    /// Record the event and carry on after it.
    Skip,
}

impl std::str::FromStr for PoisonPolicy {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "stop" => Ok(PoisonPolicy::Stop),
            "skip" => Ok(PoisonPolicy::Skip),
            other => Err(format!("unknown poison policy {other:?} (stop or skip)")),
        }
    }
}

/// Status of a dead letter.
pub const STOPPED: &str = "stopped";
pub const SKIPPED: &str = "skipped";
pub const RETRIED: &str = "retried";

/// One recorded poison event.
#[derive(Debug, Clone, Serialize, sqlx::FromRow)]
pub struct DeadLetter {
    pub id: i64,
    pub projection: String,
    pub tx_id: i64,
    pub position: i64,
    pub aggregate_type: String,
    pub aggregate_id: String,
    pub sequence: i64,
    pub event_type: String,
    pub error: String,
    pub status: String,
    /// When it was recorded (ms since the epoch).
    pub recorded_at: i64,
    pub resolved_at: Option<i64>,
}

/// Records `event` as poison for `projection`, inside the transaction that moves (or keeps) the
/// projection's checkpoint.
pub async fn record(
    tx: &mut Tx,
    projection: &str,
    event: &StoredEvent,
    error: &str,
    status: &str,
) -> Result<(), sqlx::Error> {
    let resolved_at = (status != STOPPED).then(now_ms);
    on_tx!(tx, c => sqlx::query(
        "insert into projection_dead_letters
            (projection, tx_id, position, aggregate_type, aggregate_id, sequence, event_type, error, status, recorded_at, resolved_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)")
        .bind(projection).bind(event.at.tx_id).bind(event.at.position)
        .bind(&event.aggregate_type).bind(&event.aggregate_id).bind(event.sequence)
        .bind(&event.event_type).bind(error).bind(status).bind(now_ms()).bind(resolved_at)
        .execute(c).await.map(|_| ()))
}

/// The projections stopped on a poison event.
pub async fn stopped(db: &Db) -> Result<BTreeSet<String>, sqlx::Error> {
    let names: Vec<String> = on_db!(db, pool => sqlx::query_scalar(
        "select distinct projection from projection_dead_letters where status = 'stopped'")
        .fetch_all(pool).await)?;
    Ok(names.into_iter().collect())
}

/// Every dead letter, newest first (at most `limit`).
pub async fn list(db: &Db, limit: i64) -> Result<Vec<DeadLetter>, sqlx::Error> {
    on_db!(db, pool => sqlx::query_as(
        "select id, projection, tx_id, position, aggregate_type, aggregate_id, sequence, event_type, error,
                status, recorded_at, resolved_at
         from projection_dead_letters order by id desc limit $1")
        .bind(limit).fetch_all(pool).await)
}

/// Hands a stopped projection back to the projector, which applies its failed event again.
/// Returns how many letters were reopened (0: the projection was not stopped).
pub async fn retry(db: &Db, projection: &str) -> Result<u64, sqlx::Error> {
    let _guard = db.write_guard().await;
    on_db!(db, pool => sqlx::query(
        "update projection_dead_letters set status = 'retried', resolved_at = $2
         where projection = $1 and status = 'stopped'")
        .bind(projection).bind(now_ms()).execute(pool).await.map(|r| r.rows_affected()))
}

/// Steps a stopped projection over its failed event: the letter is marked skipped and the
/// checkpoint moves past the event, in one transaction. Returns the skipped letter, if any.
pub async fn skip(db: &Db, projection: &str) -> Result<Option<DeadLetter>, sqlx::Error> {
    let _guard = db.write_guard().await;
    let mut tx = Tx::begin(db).await?;
    let letter: Option<DeadLetter> = on_tx!(&mut tx, c => sqlx::query_as(
        "update projection_dead_letters set status = 'skipped', resolved_at = $2
         where projection = $1 and status = 'stopped'
         returning id, projection, tx_id, position, aggregate_type, aggregate_id, sequence, event_type, error,
                   status, recorded_at, resolved_at")
        .bind(projection).bind(now_ms()).fetch_optional(c).await)?;
    let Some(letter) = letter else {
        return Ok(None);
    };
    // Only forwards: a checkpoint already past the event (another projector) stays.
    on_tx!(&mut tx, c => sqlx::query(
        "insert into projection_checkpoints (name, tx_id, position, updated_at) values ($1, $2, $3, $4)
         on conflict (name) do update set tx_id = excluded.tx_id, position = excluded.position,
             updated_at = excluded.updated_at
         where (projection_checkpoints.tx_id, projection_checkpoints.position) < (excluded.tx_id, excluded.position)")
        .bind(projection).bind(letter.tx_id).bind(letter.position).bind(now_ms())
        .execute(c).await.map(|_| ()))?;
    tx.commit().await?;
    Ok(Some(letter))
}

/// How far a projection at `checkpoint` is behind the stream.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Lag {
    /// Events after the checkpoint, counted up to [`LAG_COUNT_CAP`], estimated past it.
    pub events: i64,
    /// Age of the oldest of them in seconds (0 when there is none).
    pub seconds: f64,
}

/// Counting stops here, so a projection far behind costs a bounded query.
pub const LAG_COUNT_CAP: i64 = 100_000;

pub async fn lag(db: &Db, checkpoint: Position) -> Result<Lag, sqlx::Error> {
    #[derive(sqlx::FromRow)]
    struct Row {
        events: i64,
        oldest: Option<i64>,
    }
    let row: Row = match db {
        Db::Sqlite { pool, .. } => {
            sqlx::query_as(
                "select count(*) as events, min(recorded_at) as oldest
             from (select recorded_at from events where rowid > $1 order by rowid limit $2)",
            )
            .bind(checkpoint.position)
            .bind(LAG_COUNT_CAP)
            .fetch_one(pool)
            .await?
        }
        Db::Postgres { pool } => {
            sqlx::query_as(
                "select count(*) as events, min(recorded_at) as oldest
             from (select recorded_at from events
                   where (tx_id, global_position) > ($1::text::xid8, $2)
                   order by tx_id, global_position limit $3) behind",
            )
            .bind(checkpoint.tx_id.to_string())
            .bind(checkpoint.position)
            .bind(LAG_COUNT_CAP)
            .fetch_one(pool)
            .await?
        }
    };
    // Past the cap, the distance between the newest event's position and the checkpoint's
    // (exact on SQLite, whose positions are consecutive; near on PostgreSQL).
    let events = if row.events >= LAG_COUNT_CAP {
        let newest: Option<i64> = match db {
            Db::Sqlite { pool, .. } => {
                sqlx::query_scalar("select max(rowid) from events")
                    .fetch_one(pool)
                    .await?
            }
            Db::Postgres { pool } => {
                sqlx::query_scalar("select max(global_position) from events")
                    .fetch_one(pool)
                    .await?
            }
        };
        newest.map_or(row.events, |n| (n - checkpoint.position).max(row.events))
    } else {
        row.events
    };
    Ok(Lag {
        events,
        seconds: row
            .oldest
            .map(|t| ((now_ms() - t).max(0) as f64) / 1000.0)
            .unwrap_or(0.0),
    })
}
