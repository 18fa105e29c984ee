//! Runs projections over the global event stream.
//!
//! Each projection keeps its own checkpoint in `projection_checkpoints`, written in the same
//! transaction as the rows a batch of events produced: a crash leaves either the whole batch and
//! its checkpoint or neither. Projections must derive everything from the events (use
//! `recorded_at`, never the clock) so a rebuild gives the same rows as the live run.
//!
//! Several server processes may share one PostgreSQL database; only one of them runs the
//! projector at a time (the server holds an advisory lock for that). Checkpoints are still moved
//! by compare-and-set, so a projector that lost its lock without noticing (a stalled node) can
//! never apply a batch twice: its transaction finds the checkpoint moved and rolls back.
//! [`ProjectorHandle::wait_for`] works on every node: where the local projector is not the one
//! running, it asks the running one to wake up (`NOTIFY`) and reads the checkpoints.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use tokio::sync::{watch, Notify};

use crate::db::{Db, Tx};
use crate::stream::{self, Position, StoredEvent, StreamError};
use crate::{now_ms, on_db, on_tx};

/// The PostgreSQL `NOTIFY` channel that asks the node running the projector to look for new
/// events now (sent by commands on the other nodes).
pub const WAKE_CHANNEL: &str = "companion_events";

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
/// Batches between refreshes of the planner statistics during a rebuild on PostgreSQL.
const ANALYZE_EVERY: u64 = 40;
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
    /// Counts committed batches (any projection), for listeners of new read-model rows.
    batches: watch::Sender<u64>,
    stop_at: Option<Position>,
    /// True while [`Projector::run_until`] runs in this process.
    active: Arc<AtomicBool>,
}

/// What the rest of the server holds: wake the projector after a write, wait for it to catch up.
#[derive(Clone)]
pub struct ProjectorHandle {
    wake: Arc<Notify>,
    progress: watch::Receiver<Position>,
    batches: watch::Receiver<u64>,
    active: Arc<AtomicBool>,
    db: Db,
    names: Arc<[&'static str]>,
}

/// How often a node that does not run the projector reads the checkpoints while it waits, at most.
const REMOTE_POLL_MAX: Duration = Duration::from_millis(100);

impl ProjectorHandle {
    /// Tells the projector new events were appended.
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// True while the projector of this process is running (on PostgreSQL, while this node holds
    /// the projector lock).
    pub fn is_active(&self) -> bool {
        self.active.load(Ordering::Acquire)
    }

    /// Waits (up to `timeout`) until every projection has applied the event at `target`, so a
    /// caller reads its own write. Returns false on timeout.
    ///
    /// When the projector runs in this process its progress is watched; otherwise (another node
    /// runs it) the running one is woken through `NOTIFY` and the checkpoints are polled.
    pub async fn wait_for(&self, target: Position, timeout: Duration) -> bool {
        if self.names.is_empty() {
            return true;
        }
        self.wake();
        let deadline = tokio::time::Instant::now() + timeout;
        let mut rx = self.progress.clone();
        let mut poll = Duration::from_millis(5);
        let mut woke_remote = false;
        let mut sender_gone = false;
        loop {
            if *rx.borrow_and_update() >= target {
                return true;
            }
            if !self.is_active() {
                if !woke_remote {
                    woke_remote = true;
                    if let Db::Postgres { pool } = &self.db {
                        if let Err(e) = sqlx::query("select pg_notify($1, '')")
                            .bind(WAKE_CHANNEL)
                            .execute(pool)
                            .await
                        {
                            tracing::warn!(error = %e, "could not wake the projector node");
                        }
                    }
                }
                match lowest_checkpoint(&self.db, &self.names).await {
                    Ok(reached) if reached >= target => return true,
                    Ok(_) => {}
                    Err(e) => tracing::warn!(error = %e, "reading projection checkpoints"),
                }
            }
            let wait = if self.is_active() {
                Duration::from_millis(250)
            } else {
                poll
            };
            tokio::select! {
                changed = rx.changed(), if !sender_gone => {
                    // The projector was dropped: only the checkpoints can tell from now on.
                    sender_gone = changed.is_err();
                }
                _ = tokio::time::sleep(wait) => poll = (poll * 2).min(REMOTE_POLL_MAX),
                _ = tokio::time::sleep_until(deadline) => return false,
            }
        }
    }

    /// Where every projection has got to.
    pub fn progress(&self) -> Position {
        *self.progress.borrow()
    }

    /// Where every projection has got to, read from their checkpoints: right on any node, also
    /// one whose projector runs elsewhere.
    pub async fn applied(&self) -> Result<Position, sqlx::Error> {
        lowest_checkpoint(&self.db, &self.names).await
    }

    /// A receiver that changes each time every projection has got further.
    pub fn subscribe(&self) -> watch::Receiver<Position> {
        self.progress.clone()
    }

    /// A receiver that changes after every committed batch of any projection (the lowest
    /// checkpoint, [`ProjectorHandle::subscribe`], may stay put while one projection catches up).
    pub fn subscribe_batches(&self) -> watch::Receiver<u64> {
        self.batches.clone()
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
        let (batches, _) = watch::channel(0);
        Self {
            source,
            target,
            projections,
            wake: Arc::new(Notify::new()),
            progress,
            batches,
            stop_at,
            active: Arc::new(AtomicBool::new(false)),
        }
    }

    pub fn handle(&self) -> ProjectorHandle {
        ProjectorHandle {
            wake: self.wake.clone(),
            progress: self.progress.subscribe(),
            batches: self.batches.subscribe(),
            active: self.active.clone(),
            db: self.target.clone(),
            names: self.projections.iter().map(|p| p.name()).collect(),
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
                if !move_checkpoint(&mut tx, projection.name(), *checkpoint, last).await? {
                    // Another projector moved it since we read it: its batch stands, ours is
                    // dropped (the transaction rolls back) and the next round starts from there.
                    tracing::debug!(
                        projection = projection.name(),
                        "checkpoint moved by another projector"
                    );
                    continue;
                }
                for event in &pending {
                    projection.apply(&mut tx, event).await?;
                }
                tx.commit().await?;
                applied += pending.len();
                self.batches.send_modify(|n| *n += 1);
                self.refresh_statistics(projection.as_ref()).await?;
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

    /// A rebuild on PostgreSQL fills empty tables from scratch: their planner statistics are
    /// refreshed every [`ANALYZE_EVERY`] batches, so the projection's queries keep using their
    /// indexes as the tables grow, even where autovacuum is off or has not come round yet.
    async fn refresh_statistics(&self, projection: &dyn Projection) -> Result<(), ProjectionError> {
        let Db::Postgres { pool } = &self.target else {
            return Ok(());
        };
        if self.stop_at.is_none() || !self.batches.borrow().is_multiple_of(ANALYZE_EVERY) {
            return Ok(());
        }
        for table in projection.tables() {
            sqlx::query(&format!("analyze {}", table.name))
                .execute(pool)
                .await?;
        }
        sqlx::query("analyze user_feed").execute(pool).await?;
        Ok(())
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
        self.run_until_shutdown(shutdown).await
    }

    /// Like [`Projector::run`], without giving the projector up: the server runs it again after
    /// it regains the projector lock.
    pub async fn run_until_shutdown(&self, shutdown: impl std::future::Future<Output = ()>) {
        struct Active<'a>(&'a AtomicBool);
        impl Drop for Active<'_> {
            fn drop(&mut self) {
                self.0.store(false, Ordering::Release);
            }
        }
        self.active.store(true, Ordering::Release);
        let _active = Active(&self.active);
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

/// The lowest checkpoint among `names` (a projection without one has reached nothing yet).
async fn lowest_checkpoint(db: &Db, names: &[&'static str]) -> Result<Position, sqlx::Error> {
    #[derive(sqlx::FromRow)]
    struct Row {
        name: String,
        tx_id: i64,
        position: i64,
    }
    let rows: Vec<Row> = on_db!(db, pool => sqlx::query_as(
        "select name, tx_id, position from projection_checkpoints")
        .fetch_all(pool).await)?;
    Ok(names
        .iter()
        .map(|name| {
            rows.iter()
                .find(|r| r.name == *name)
                .map(|r| Position {
                    tx_id: r.tx_id,
                    position: r.position,
                })
                .unwrap_or_default()
        })
        .min()
        .unwrap_or_default())
}

/// Moves a checkpoint from `from` to `to` if it is still at `from` (compare-and-set). Returns
/// false when another transaction moved it first; on PostgreSQL a concurrent mover blocks here
/// until the other commits, then finds the row changed.
async fn move_checkpoint(
    tx: &mut Tx,
    name: &str,
    from: Position,
    to: Position,
) -> Result<bool, sqlx::Error> {
    let changed = if from == Position::default() {
        on_tx!(tx, conn => sqlx::query(
            "insert into projection_checkpoints (name, tx_id, position, updated_at) values ($1, $2, $3, $4)
             on conflict (name) do nothing")
            .bind(name).bind(to.tx_id).bind(to.position).bind(now_ms())
            .execute(conn).await.map(|r| r.rows_affected()))?
    } else {
        on_tx!(tx, conn => sqlx::query(
            "update projection_checkpoints set tx_id = $2, position = $3, updated_at = $4
             where name = $1 and tx_id = $5 and position = $6")
            .bind(name).bind(to.tx_id).bind(to.position).bind(now_ms())
            .bind(from.tx_id).bind(from.position)
            .execute(conn).await.map(|r| r.rows_affected()))?
    };
    Ok(changed == 1)
}
