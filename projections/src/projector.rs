//! Runs projections over the global event stream.
//!
//! Each projection keeps its own checkpoint in `projection_checkpoints`, written in the same
//! transaction as the rows a batch of events produced: a crash leaves either the whole batch and
//! its checkpoint or neither. Projections must derive everything from the events (use
//! `recorded_at`, never the clock) so a rebuild gives the same rows as the live run.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use tokio::sync::{watch, Notify};

use crate::db::{Db, Tx};
use crate::stream::{self, Position, StoredEvent, StreamError};
use crate::{now_ms, on_tx};

/// A table a projection owns, and the columns that order its rows for comparison.
#[derive(Debug, Clone, Copy)]
pub struct TableSpec {
    pub name: &'static str,
    pub order_by: &'static str,
}

#[derive(Debug, thiserror::Error)]
pub enum ProjectionError {
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error(transparent)]
    Stream(#[from] StreamError),
    #[error("event {event_type} at {position:?} cannot be read: {reason}")]
    BadEvent {
        event_type: String,
        position: Position,
        reason: String,
    },
}

impl ProjectionError {
    pub fn bad_event(event: &StoredEvent, reason: impl ToString) -> Self {
        ProjectionError::BadEvent {
            event_type: event.event_type.clone(),
            position: event.at,
            reason: reason.to_string(),
        }
    }
}

/// A read model built from events.
#[async_trait]
pub trait Projection: Send + Sync {
    /// Unique, stable name: the checkpoint's key.
    fn name(&self) -> &'static str;
    /// The tables this projection writes (compared after a rebuild).
    fn tables(&self) -> &'static [TableSpec];
    /// Applies one event inside the batch's transaction. Events it does not care about are ignored.
    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> Result<(), ProjectionError>;
}

/// How many events one transaction applies at most.
const BATCH: i64 = 500;
/// How often the projector looks for events when nobody wakes it (other nodes' writes).
const POLL: Duration = Duration::from_millis(500);

/// Reads events from `source` and writes read models into `target` (the same database when
/// running live; a fresh one when rebuilding).
pub struct Projector {
    source: Db,
    target: Db,
    projections: Vec<Arc<dyn Projection>>,
    wake: Arc<Notify>,
    progress: watch::Sender<Position>,
    stop_at: Option<Position>,
}

/// What the rest of the server holds: wake the projector after a write, wait for it to catch up.
#[derive(Clone)]
pub struct ProjectorHandle {
    wake: Arc<Notify>,
    progress: watch::Receiver<Position>,
}

impl ProjectorHandle {
    /// Tells the projector new events were appended.
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// Waits (up to `timeout`) until every projection has applied the event at `target`, so a
    /// caller reads its own write. Returns false on timeout.
    pub async fn wait_for(&self, target: Position, timeout: Duration) -> bool {
        self.wake();
        let mut rx = self.progress.clone();
        tokio::time::timeout(timeout, rx.wait_for(|p| *p >= target))
            .await
            .is_ok_and(|r| r.is_ok())
    }

    /// Where every projection has got to.
    pub fn progress(&self) -> Position {
        *self.progress.borrow()
    }

    /// A receiver that changes each time the projector commits a batch.
    pub fn subscribe(&self) -> watch::Receiver<Position> {
        self.progress.clone()
    }
}

impl Projector {
    pub fn new(db: Db, projections: Vec<Arc<dyn Projection>>) -> Self {
        Self::rebuilding(db.clone(), db, projections, None)
    }

    /// A projector reading `source` and writing `target`, stopping once it has passed `stop_at`.
    pub fn rebuilding(
        source: Db,
        target: Db,
        projections: Vec<Arc<dyn Projection>>,
        stop_at: Option<Position>,
    ) -> Self {
        let (progress, _) = watch::channel(Position::default());
        Self {
            source,
            target,
            projections,
            wake: Arc::new(Notify::new()),
            progress,
            stop_at,
        }
    }

    pub fn handle(&self) -> ProjectorHandle {
        ProjectorHandle {
            wake: self.wake.clone(),
            progress: self.progress.subscribe(),
        }
    }

    async fn checkpoints(&self) -> Result<Vec<Position>, ProjectionError> {
        let mut out = Vec::with_capacity(self.projections.len());
        for p in &self.projections {
            out.push(checkpoint_of(&self.target, p.name()).await?);
        }
        Ok(out)
    }

    /// Applies at most one batch to each projection that is behind. Returns how many events
    /// were applied in all.
    pub async fn run_once(&self) -> Result<usize, ProjectionError> {
        let checkpoints = self.checkpoints().await?;
        let Some(lowest) = checkpoints.iter().min().copied() else {
            return Ok(0);
        };
        let mut events = stream::read_after(&self.source, lowest, BATCH).await?;
        if let Some(stop) = self.stop_at {
            events.retain(|e| e.at <= stop);
        }
        let mut applied = 0;
        if !events.is_empty() {
            for (projection, checkpoint) in self.projections.iter().zip(&checkpoints) {
                let pending: Vec<&StoredEvent> =
                    events.iter().filter(|e| e.at > *checkpoint).collect();
                let Some(last) = pending.last().map(|e| e.at) else {
                    continue;
                };
                let _guard = self.target.write_guard().await;
                let mut tx = Tx::begin(&self.target).await?;
                // Writing the checkpoint first takes SQLite's write lock before any read, so
                // the transaction never has to upgrade from a stale read snapshot.
                save_checkpoint(&mut tx, projection.name(), last).await?;
                for event in &pending {
                    projection.apply(&mut tx, event).await?;
                }
                tx.commit().await?;
                applied += pending.len();
            }
        }
        let reached = self
            .checkpoints()
            .await?
            .into_iter()
            .min()
            .unwrap_or_default();
        self.progress.send_if_modified(|p| {
            if *p != reached {
                *p = reached;
                true
            } else {
                false
            }
        });
        Ok(applied)
    }

    /// Runs until there is nothing left (or `stop_at` is passed). Used by rebuilds and tests.
    pub async fn run_to_end(&self) -> Result<usize, ProjectionError> {
        let mut total = 0;
        loop {
            let n = self.run_once().await?;
            total += n;
            if n == 0 {
                return Ok(total);
            }
        }
    }

    /// Runs until every projection has passed `target` (true), or `timeout` has passed (false).
    /// On PostgreSQL an event becomes readable only once every older transaction of the cluster
    /// has ended, so [`Projector::run_to_end`] alone may stop short of a just-written event.
    pub async fn run_until(
        &self,
        target: Position,
        timeout: Duration,
    ) -> Result<bool, ProjectionError> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            self.run_to_end().await?;
            if self.projections.is_empty() || *self.progress.borrow() >= target {
                return Ok(true);
            }
            if tokio::time::Instant::now() >= deadline {
                return Ok(false);
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Runs for ever: after each wake-up, and every [`POLL`] in case another node wrote.
    pub async fn run(self, shutdown: impl std::future::Future<Output = ()>) {
        tokio::pin!(shutdown);
        loop {
            match self.run_once().await {
                Ok(n) if n > 0 => continue,
                Ok(_) => {}
                Err(e) => {
                    tracing::error!(error = %e, "projection batch failed; retrying");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
            tokio::select! {
                _ = &mut shutdown => return,
                _ = self.wake.notified() => {}
                _ = tokio::time::sleep(POLL) => {}
            }
        }
    }
}

#[derive(sqlx::FromRow)]
struct CheckpointRow {
    tx_id: i64,
    position: i64,
}

pub async fn checkpoint_of(db: &Db, name: &str) -> Result<Position, sqlx::Error> {
    let row: Option<CheckpointRow> = crate::on_db!(db, pool => sqlx::query_as(
        "select tx_id, position from projection_checkpoints where name = $1")
        .bind(name).fetch_optional(pool).await)?;
    Ok(row
        .map(|r| Position {
            tx_id: r.tx_id,
            position: r.position,
        })
        .unwrap_or_default())
}

async fn save_checkpoint(tx: &mut Tx, name: &str, at: Position) -> Result<(), sqlx::Error> {
    on_tx!(tx, conn => sqlx::query(
        "insert into projection_checkpoints (name, tx_id, position, updated_at) values ($1, $2, $3, $4)
         on conflict (name) do update set tx_id = excluded.tx_id, position = excluded.position, updated_at = excluded.updated_at")
        .bind(name).bind(at.tx_id).bind(at.position).bind(now_ms())
        .execute(conn).await.map(|r| r.rows_affected()))?;
    Ok(())
}
