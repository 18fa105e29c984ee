//! Over 600 lines: the projector loop, its lease, retries and dead letters share one batch state.
//!
//! Runs projections over the global event stream.
//!
//! Each projection keeps its own checkpoint in `projection_checkpoints`, written in the same
//! transaction as the rows a batch of events produced: a crash leaves either the whole batch and
//! its checkpoint or neither. Projections must derive everything from the events (use
//! `recorded_at`, never the clock) so a rebuild gives the same rows as the live run.
//!
//! Several server processes may share one PostgreSQL database; only one of them runs the
//! projector at a time: the one holding the lease ([`crate::lease`]). Every batch checks the
//! lease's fencing number in the transaction that moves its checkpoint, and checkpoints move by
//! compare-and-set, so a projector that lost its lease without noticing (a frozen node) can
//! never write a batch: its transaction finds the lease or the checkpoint moved and rolls back.
//! [`ProjectorHandle::wait_for`] works on every node: where the local projector is not the one
//! running, it asks the running one to wake up (`NOTIFY`) and reads the checkpoints.

use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use tokio::sync::{watch, Notify};

use crate::catch_up::{self, Speed};
use crate::db::{Db, Tx};
use crate::dead_letters::{self, metric_names, PoisonPolicy};
use crate::lease::{self, Fence};
use crate::stream::{self, Position, StoredEvent, StreamError};
use crate::{now_ms, on_db, on_tx};

mod group_commit;
mod kept;
mod light_rounds;
mod read_ahead;
use group_commit::CommitGate;
pub use group_commit::{
    append_together, metric_names as group_commit_metric_names, settle, Append, CommitError,
    Committed, NewEvent, ReadBack, ReadBackRow, SnapshotUpdate, COMMANDS_PER_BATCH,
};
pub use kept::Kept;
use read_ahead::ReadAhead;

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

    /// True when applying the same event again would fail the same way (a poison event), false
    /// for failures of the moment (connection lost, lock timeout, serialization conflict).
    pub fn is_poison(&self) -> bool {
        match self {
            ProjectionError::BadEvent { .. } => true,
            ProjectionError::Stream(StreamError::Corrupt { .. }) => true,
            ProjectionError::Stream(StreamError::Database(e)) | ProjectionError::Database(e) => {
                deterministic(e)
            }
        }
    }
}

/// Whether a database error comes from the statement and its data rather than the moment.
fn deterministic(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Database(db) => {
            let code = db.code().unwrap_or_default();
            // PostgreSQL: serialization/deadlock (40), resources (53), operator (57),
            // connection (08). SQLite: BUSY (5), LOCKED (6), and their extended codes.
            let transient = ["40", "53", "57", "08"]
                .iter()
                .any(|class| code.starts_with(class))
                || code.parse::<i64>().is_ok_and(|c| matches!(c & 0xff, 5 | 6));
            !transient
        }
        sqlx::Error::ColumnDecode { .. }
        | sqlx::Error::Decode(_)
        | sqlx::Error::ColumnNotFound(_)
        | sqlx::Error::TypeNotFound { .. }
        | sqlx::Error::RowNotFound => true,
        _ => false,
    }
}

/// Why a batch could not be applied: the error, and the event that caused it when known.
#[derive(Debug)]
pub struct BatchFailure {
    /// Index in the batch of the event that failed; `None` when the failure came from the
    /// batch as a whole (its final writes).
    pub index: Option<usize>,
    pub error: ProjectionError,
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
    /// Applies `events` in order inside the batch's transaction. The default applies them one
    /// by one; a projection may instead read and write the batch as a whole.
    async fn apply_all(&self, tx: &mut Tx, events: &[&StoredEvent]) -> Result<(), BatchFailure> {
        for (index, event) in events.iter().enumerate() {
            self.apply(tx, event).await.map_err(|error| BatchFailure {
                index: Some(index),
                error,
            })?;
        }
        Ok(())
    }
    /// Whether this projection keeps what it knows of its rows from one live round to the
    /// next ([`Projection::apply_from`], [`Projection::settled`]). `false`, the default.
    fn keeps_rows(&self) -> bool {
        false
    }
    /// [`Projection::apply_all`] in a live round whose transaction commits all of its parts or
    /// none, with where this projection's checkpoint was in that transaction (`from`). The
    /// projector then tells [`Projection::settled`] whether that transaction committed. A
    /// projection that [`Projection::keeps_rows`] is given every round its checkpoint moves
    /// in, also one with none of its events. The default is [`Projection::apply_all`].
    async fn apply_from(
        &self,
        tx: &mut Tx,
        from: CheckpointState,
        events: &[&StoredEvent],
    ) -> Result<(), BatchFailure> {
        let _ = from;
        self.apply_all(tx, events).await
    }
    /// After a transaction [`Projection::apply_from`] may have written in: whether it
    /// committed. The default does nothing.
    fn settled(&self, committed: bool) {
        let _ = committed;
    }
    /// What to do with an event this projection cannot apply (the server's configuration may
    /// say otherwise).
    fn on_poison(&self) -> PoisonPolicy {
        PoisonPolicy::Skip
    }
    /// Whether events of `aggregate_type` change this projection: commands on such aggregates
    /// wait for it, and are refused while it is stopped.
    fn reads(&self, aggregate_type: &str) -> bool {
        let _ = aggregate_type;
        true
    }
    /// Whether `event` can change this projection, a finer [`Projection::reads`]: in a live
    /// round none of whose events it applies, its checkpoint only moves, in one statement with
    /// the other such checkpoints and without a savepoint of its own. True for every event its
    /// [`Projection::apply`] writes anything for or may refuse.
    fn applies_to(&self, event: &StoredEvent) -> bool {
        self.reads(&event.aggregate_type)
    }
    /// A fresh instance made for a rebuild from position 0 into an empty database (one that
    /// keeps its state in memory and writes it at [`Projection::finish_rebuild`]), holding at
    /// most about `spill_bytes` of rows it could already write; `None`: a rebuild runs this
    /// projection as it is.
    fn rebuilder(&self, target: &Db, spill_bytes: usize) -> Option<Arc<dyn Projection>> {
        let _ = (target, spill_bytes);
        None
    }
    /// Whether a rebuild reads this projection's rows back as it goes (the default), so that
    /// PostgreSQL's statistics on its growing tables are refreshed on the way. `false` for one
    /// that only writes until the end.
    fn rebuild_reads_back(&self) -> bool {
        true
    }
    /// Whether a rebuild may run this projection beside the others, on a core of its own: it
    /// reads no other projection's rows and writes no table another one writes (the users'
    /// feeds, which the feed writers number in turn). `false`, the default, rebuilds it in the
    /// shared lane, in turn with the others there, in the order given.
    fn rebuilds_alone(&self) -> bool {
        false
    }
    /// The columns of `table` whose planner statistics are gathered once the table is rebuilt,
    /// as `analyze`'s column list (empty, the default: every column).
    fn analyzed_columns(&self, table: &str) -> &'static str {
        let _ = table;
        ""
    }
    /// Events per transaction this projection prefers in a rebuild (`None`: the projector's).
    fn rebuild_batch(&self) -> Option<i64> {
        None
    }
    /// Work on a rebuild's next batch that needs nothing from the batches before it (decoding
    /// the events, say), done in the task that reads that batch ahead, on another core while
    /// the batch before is applied. What it keeps is for [`Projection::apply_all`] to use or
    /// do again: a batch read ahead can still be thrown away. The default does nothing.
    fn prepare_ahead(&self, events: &[StoredEvent]) {
        let _ = events;
    }
    /// Whether a rebuild's round, from now on, writes nothing through the transaction it is
    /// given: the projection keeps its state for [`Projection::finish_rebuild`] and writes
    /// anything else on connections of its own. A round of such projections only moves their
    /// checkpoints, in one statement (see `projector/light_rounds.rs`). A projection saying so
    /// must also leave its state as it was when it refuses a batch on a poison event. `false`,
    /// the default: every round has a transaction of its own.
    fn rebuild_round_writes_nothing(&self) -> bool {
        false
    }
    /// Called once a rebuild has applied its last event, in a transaction of its own.
    async fn finish_rebuild(&self, tx: &mut Tx) -> Result<(), ProjectionError> {
        let _ = tx;
        Ok(())
    }
}

/// A projection's checkpoint as a live round's transaction read it: the position, and the
/// generation of the rows, which a swap of rebuilt rows moves while the position stays.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CheckpointState {
    pub position: Position,
    pub generation: i64,
}

impl CheckpointState {
    /// Where a round from here leaves the checkpoint once it has applied `events` (all the
    /// events after it; the generation stays).
    pub fn after(self, events: &[&StoredEvent]) -> Self {
        Self {
            position: events.last().map_or(self.position, |e| e.at),
            generation: self.generation,
        }
    }
}

/// How a command's wait for the projections ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WaitOutcome {
    /// Every running projection has applied the event.
    Reached,
    /// The time ran out.
    TimedOut,
    /// This projection, which reads the command's events, is stopped on a poison event.
    Stopped(String),
}

/// How many events one transaction applies at most, live.
const BATCH: i64 = 500;
/// The same for a rebuild (`stop_at` set): fewer, larger transactions. What a batch holds in
/// memory grows with it (the documents projection's working set).
const REBUILD_BATCH: i64 = 2_000;
/// Batches between refreshes of the planner statistics during a rebuild on PostgreSQL.
const ANALYZE_EVERY: u64 = 40;
/// How often the projector looks for events when nobody wakes it (other nodes' writes).
const POLL: Duration = Duration::from_millis(500);
/// While committed events are held back from reading (PostgreSQL), how soon the projector looks
/// again: 2 ms at first, doubling up to 64 ms while they stay held back.
const HELD_BACK_FIRST: Duration = Duration::from_millis(2);
const HELD_BACK_MAX: Duration = Duration::from_millis(64);
/// How often the lag gauges are measured while the projector runs.
const LAG_SAMPLE: Duration = Duration::from_secs(1);

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
    /// Counts rounds and group commits that wrote feed rows, for the feed's readers.
    feed_batches: watch::Sender<u64>,
    /// Counts the events checkpoints moved past (all projections), for a rebuild's progress.
    events_applied: watch::Sender<u64>,
    stop_at: Option<Position>,
    /// True while [`Projector::run_until`] runs in this process.
    active: Arc<AtomicBool>,
    /// Per-projection overrides of [`Projection::on_poison`].
    policies: HashMap<String, PoisonPolicy>,
    /// Projections stopped on a poison event (read from the database every round).
    stopped: watch::Sender<BTreeSet<String>>,
    /// On several nodes: the lease this projector must hold to write a batch.
    fence: Option<Fence>,
    /// Events per batch at most.
    batch: i64,
    /// How long a command's response waits for the projections (see [`ProjectorHandle::command_wait`]).
    command_wait: Duration,
    /// During a rebuild: the reader of the batches after the one being applied.
    read_ahead: tokio::sync::Mutex<Option<ReadAhead>>,
    /// Per projection: the events its checkpoint moved past in this process, and its speed as
    /// last sampled (for the catch-up gauges, [`Projector::record_lag`]).
    speeds: std::sync::Mutex<HashMap<&'static str, (u64, Speed)>>,
    /// The last live round read everything it could, and committed events after it could not
    /// be read yet ([`stream::held_back`]): the projector looks again soon instead of waiting
    /// for its next wake-up or poll.
    held_back: AtomicBool,
    /// Where commands are handed to the live loop, to be committed with the projections.
    commits: CommitGate,
    /// A rebuild's rounds that only move checkpoints (see `projector/light_rounds.rs`).
    light: std::sync::Mutex<light_rounds::LightRounds>,
    /// The group commits' own connection on PostgreSQL ([`Db::dedicated`]), made by the first
    /// one, on the projector's runtime.
    commit_target: std::sync::OnceLock<Db>,
}

/// What a committed round did.
struct Round<'a, 'e> {
    /// Events the checkpoints moved past, summed over the projections.
    applied: usize,
    /// The parts that held a poison event, rolled back, to be applied on their own.
    failed: Vec<&'a Behind<'a, 'e>>,
    /// Every part's checkpoint was moved by this round (none by another projector).
    moved_all: bool,
}

/// What [`Projector::apply_parts_at_once`] wrote: the projections whose checkpoints moved, with
/// the events each passed, and whether that was every part.
struct PartsWritten<'a> {
    done: Vec<(&'a dyn Projection, usize)>,
    moved_all: bool,
    /// The checkpoints' statement found this node's lease ([`move_checkpoints`]).
    fence_held: bool,
}

/// How a round ended: events applied, and whether it read a full batch (more may be waiting).
struct RoundEnd {
    applied: usize,
    full: bool,
}

/// How one try at a batch ended.
enum Attempt {
    /// Committed: the checkpoint moved past this many events (0: another projector's batch won).
    Applied(usize),
    /// Rolled back on a poison event.
    Failed(BatchFailure),
}

/// What the rest of the server holds: wake the projector after a write, wait for it to catch up.
#[derive(Clone)]
pub struct ProjectorHandle {
    wake: Arc<Notify>,
    progress: watch::Receiver<Position>,
    batches: watch::Receiver<u64>,
    feed_batches: watch::Receiver<u64>,
    active: Arc<AtomicBool>,
    db: Db,
    names: Arc<[&'static str]>,
    projections: Arc<[Arc<dyn Projection>]>,
    stopped: watch::Receiver<BTreeSet<String>>,
    command_wait: Duration,
    commits: CommitGate,
}

/// The `application_name` of the group commits' connection on PostgreSQL.
pub const COMMIT_CONNECTION_NAME: &str = "companion group commits";

/// How long a command waits for its own write to be projected unless the server says otherwise.
pub const DEFAULT_COMMAND_WAIT: Duration = Duration::from_secs(10);

/// How often a node that does not run the projector reads the checkpoints while it waits, at most.
const REMOTE_POLL_MAX: Duration = Duration::from_millis(100);
/// While a command waits on this node's projector, how long before it wakes the projector again
/// (doubling, up to a fifth of a second), in case its event could not be read yet when it first
/// did.
const ACTIVE_REWAKE_FIRST: Duration = Duration::from_millis(25);
const ACTIVE_REWAKE_MAX: Duration = Duration::from_millis(200);

impl ProjectorHandle {
    /// How long a command's response waits for the projections (the server's setting).
    pub fn command_wait(&self) -> Duration {
        self.command_wait
    }

    /// Appends a command's events in the live projector's next transaction, with the
    /// projections applied to them there (see `group_commit`). [`CommitError::NotTaken`]: no
    /// live projector runs in this process; nothing was written and the caller appends itself.
    pub async fn commit(&self, append: Append) -> Result<Committed, CommitError> {
        self.commits
            .submit(append, group_commit::budget(self.command_wait))
            .await
    }

    /// A running projection that reads `aggregate_type` and is stopped on a poison event, as
    /// this node's projector last saw them.
    pub fn stopped_reader_of(&self, aggregate_type: &str) -> Option<String> {
        self.stopped_reader(&self.stopped.borrow(), Some(aggregate_type))
    }

    /// Tells the projector new events were appended.
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// True while the projector of this process is running (on PostgreSQL, while this node holds
    /// the projector lock).
    pub fn is_active(&self) -> bool {
        self.active.load(Ordering::Acquire)
    }

    /// Waits (up to `timeout`) until every running projection has applied the event at `target`,
    /// so a caller reads its own write. Returns false on timeout.
    pub async fn wait_for(&self, target: Position, timeout: Duration) -> bool {
        self.wait_for_command(target, None, timeout).await == WaitOutcome::Reached
    }

    /// Like [`ProjectorHandle::wait_for`] for a command on `aggregate_type`: answers
    /// [`WaitOutcome::Stopped`] at once when a projection reading that type is stopped on a
    /// poison event (it will not get there until an operator acts).
    ///
    /// When the projector runs in this process its progress is watched; otherwise (another node
    /// runs it) the running one is woken through `NOTIFY` and the checkpoints are polled.
    pub async fn wait_for_command(
        &self,
        target: Position,
        aggregate_type: Option<&str>,
        timeout: Duration,
    ) -> WaitOutcome {
        if self.names.is_empty() {
            return WaitOutcome::Reached;
        }
        self.wake();
        let deadline = tokio::time::Instant::now() + timeout;
        let mut rx = self.progress.clone();
        let mut stopped_rx = self.stopped.clone();
        let mut poll = Duration::from_millis(5);
        let mut rewake = ACTIVE_REWAKE_FIRST;
        let mut woke_remote = false;
        let mut sender_gone = false;
        loop {
            // Progress first: the projector publishes a stop before the progress it allows.
            let reached = *rx.borrow_and_update() >= target;
            if self.is_active() {
                let stopped = stopped_rx.borrow_and_update().clone();
                if let Some(name) = self.stopped_reader(&stopped, aggregate_type) {
                    // An operator may have just retried or skipped it (another process): the
                    // database tells, and the projector picks that up when woken.
                    match dead_letters::stopped(&self.db).await {
                        Ok(now) if self.stopped_reader(&now, aggregate_type).is_none() => {
                            self.wake()
                        }
                        _ => return WaitOutcome::Stopped(name),
                    }
                } else if reached {
                    return WaitOutcome::Reached;
                }
            } else {
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
                match self.remote_state(target, aggregate_type).await {
                    Ok(Some(outcome)) => return outcome,
                    Ok(None) => {}
                    Err(e) => tracing::warn!(error = %e, "reading projection checkpoints"),
                }
            }
            let active = self.is_active();
            let wait = if active { rewake } else { poll };
            tokio::select! {
                changed = rx.changed(), if !sender_gone => {
                    // The projector was dropped: only the checkpoints can tell from now on.
                    sender_gone = changed.is_err();
                }
                _ = stopped_rx.changed(), if !sender_gone => {}
                _ = tokio::time::sleep(wait) => {
                    if active {
                        // On PostgreSQL an event committed while an older transaction of the
                        // cluster is still open cannot be read yet (see `stream`): the round
                        // this command woke may have found nothing and gone back to sleep
                        // until its next poll. Waking it again, soon at first, reads the event
                        // as soon as it can be read.
                        self.wake();
                        rewake = (rewake * 2).min(ACTIVE_REWAKE_MAX);
                    } else {
                        poll = (poll * 2).min(REMOTE_POLL_MAX);
                    }
                }
                _ = tokio::time::sleep_until(deadline) => return WaitOutcome::TimedOut,
            }
        }
    }

    /// A stopped projection that reads `aggregate_type` (any, when none is given).
    fn stopped_reader(
        &self,
        stopped: &BTreeSet<String>,
        aggregate_type: Option<&str>,
    ) -> Option<String> {
        let aggregate_type = aggregate_type?;
        self.projections
            .iter()
            .find(|p| stopped.contains(p.name()) && p.reads(aggregate_type))
            .map(|p| p.name().to_string())
    }

    /// Where another node's projector has got to, from the database.
    async fn remote_state(
        &self,
        target: Position,
        aggregate_type: Option<&str>,
    ) -> Result<Option<WaitOutcome>, sqlx::Error> {
        let stopped = dead_letters::stopped(&self.db).await?;
        if let Some(name) = self.stopped_reader(&stopped, aggregate_type) {
            return Ok(Some(WaitOutcome::Stopped(name)));
        }
        let running: Vec<&'static str> = self
            .names
            .iter()
            .copied()
            .filter(|n| !stopped.contains(*n))
            .collect();
        let reached = lowest_checkpoint(&self.db, &running).await?;
        Ok((running.is_empty() || reached >= target).then_some(WaitOutcome::Reached))
    }

    /// The projections stopped on a poison event, as this node's projector last saw them.
    pub fn stopped(&self) -> BTreeSet<String> {
        self.stopped.borrow().clone()
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

    /// Changes after each committed round or group commit that wrote feed rows (see
    /// [`crate::feed`]); a round that wrote none leaves the feed's readers asleep.
    pub fn subscribe_feed_batches(&self) -> watch::Receiver<u64> {
        self.feed_batches.clone()
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
        let (feed_batches, _) = watch::channel(0);
        let (events_applied, _) = watch::channel(0);
        let batch = match stop_at {
            // The smallest the projections ask for.
            Some(_) => projections
                .iter()
                .map(|p| p.rebuild_batch().unwrap_or(REBUILD_BATCH))
                .min()
                .unwrap_or(REBUILD_BATCH),
            None => BATCH,
        };
        let (stopped, _) = watch::channel(BTreeSet::new());
        Self {
            source,
            target,
            projections,
            wake: Arc::new(Notify::new()),
            progress,
            batches,
            feed_batches,
            events_applied,
            stop_at,
            active: Arc::new(AtomicBool::new(false)),
            policies: HashMap::new(),
            stopped,
            fence: None,
            command_wait: DEFAULT_COMMAND_WAIT,
            batch,
            read_ahead: tokio::sync::Mutex::new(None),
            held_back: AtomicBool::new(false),
            speeds: Default::default(),
            commits: CommitGate::default(),
            light: Default::default(),
            commit_target: std::sync::OnceLock::new(),
        }
    }

    /// Where group commits write: a connection of their own on PostgreSQL (one transaction at a
    /// time, so its prepared statements are always at hand).
    fn commit_target(&self) -> &Db {
        self.commit_target
            .get_or_init(|| self.target.dedicated(COMMIT_CONNECTION_NAME))
    }

    /// Sets the most events one batch applies (at least 1).
    pub fn with_batch_size(mut self, events: i64) -> Self {
        self.batch = events.max(1);
        self
    }

    /// Makes every batch check, in its transaction, that this node still holds the lease.
    pub fn with_fence(mut self, fence: Fence) -> Self {
        self.fence = Some(fence);
        self
    }

    /// False (and counted) when this node's lease is gone: the batch must not be written.
    async fn fenced_in(&self, tx: &mut Tx, projection: &str) -> Result<bool, sqlx::Error> {
        let Some(fence) = &self.fence else {
            return Ok(true);
        };
        if fence.holds(tx).await? {
            return Ok(true);
        }
        metrics::counter!(lease::metric_names::FENCED_BATCHES_TOTAL).increment(1);
        tracing::warn!(
            projection,
            fencing = fence.number(),
            "batch refused: this node no longer holds the projector lease"
        );
        Ok(false)
    }

    /// Overrides the poison policy of the named projections (unknown names are ignored).
    pub fn with_poison_policies(mut self, policies: &[(String, PoisonPolicy)]) -> Self {
        self.policies.extend(policies.iter().cloned());
        self
    }

    fn policy(&self, projection: &dyn Projection) -> PoisonPolicy {
        self.policies
            .get(projection.name())
            .copied()
            .unwrap_or_else(|| projection.on_poison())
    }

    pub fn handle(&self) -> ProjectorHandle {
        ProjectorHandle {
            wake: self.wake.clone(),
            progress: self.progress.subscribe(),
            batches: self.batches.subscribe(),
            feed_batches: self.feed_batches.subscribe(),
            active: self.active.clone(),
            db: self.target.clone(),
            names: self.projections.iter().map(|p| p.name()).collect(),
            projections: self.projections.iter().cloned().collect(),
            stopped: self.stopped.subscribe(),
            command_wait: self.command_wait,
            commits: self.commits.clone(),
        }
    }

    /// How long a command's response waits for its events to be projected before it answers
    /// that the change is recorded but not visible yet.
    pub fn with_command_wait(mut self, wait: Duration) -> Self {
        self.command_wait = wait;
        self
    }

    /// Every projection's checkpoint, in the order of `self.projections` (one query).
    async fn checkpoints(&self) -> Result<Vec<Position>, ProjectionError> {
        let rows: Vec<NamedCheckpoint> = crate::on_db!(&self.target, pool => sqlx::query_as(
            "select name, tx_id, position from projection_checkpoints")
            .fetch_all(pool).await)?;
        Ok(in_order_of(
            &rows,
            self.projections.iter().map(|p| p.name()),
        ))
    }

    /// Every projection's checkpoint, in the order of `self.projections`, and the projections
    /// stopped on a poison event: one query, at the start of each round.
    async fn checkpoints_and_stopped(
        &self,
    ) -> Result<(Vec<Position>, BTreeSet<String>), ProjectionError> {
        let rows: Vec<CheckpointOrStopped> = crate::on_db!(&self.target, pool =>
            sqlx::query_as(CHECKPOINTS_AND_STOPPED).fetch_all(pool).await)?;
        Ok(self.sort_checkpoints(rows))
    }

    fn sort_checkpoints(
        &self,
        rows: Vec<CheckpointOrStopped>,
    ) -> (Vec<Position>, BTreeSet<String>) {
        let mut checkpoints = Vec::new();
        let mut stopped = BTreeSet::new();
        for row in rows {
            if row.stopped == 1 {
                stopped.insert(row.checkpoint.name);
            } else {
                checkpoints.push(row.checkpoint);
            }
        }
        let in_order = in_order_of(&checkpoints, self.projections.iter().map(|p| p.name()));
        (in_order, stopped)
    }

    /// Applies at most one batch to each running projection that is behind. Returns how many
    /// events were applied (or stepped over) in all.
    pub async fn run_once(&self) -> Result<usize, ProjectionError> {
        Ok(self.run_round().await?.applied)
    }

    /// One round (see [`Projector::run_once`]), and whether it read a full batch; the feed's
    /// readers are told when it wrote feed rows.
    async fn run_round(&self) -> Result<RoundEnd, ProjectionError> {
        self.telling_feed_readers(self.run_round_noted()).await
    }

    /// Runs `work` (a round or a group commit) and, when it wrote feed rows, tells the feed's
    /// readers once it is done (committed, or rolled back: then they read nothing new).
    async fn telling_feed_readers<T>(&self, work: impl std::future::Future<Output = T>) -> T {
        let (output, wrote_feed) = crate::feed::noting_writes(work).await;
        if wrote_feed {
            self.feed_batches.send_modify(|n| *n += 1);
        }
        output
    }

    async fn run_round_noted(&self) -> Result<RoundEnd, ProjectionError> {
        self.held_back.store(false, Ordering::Release);
        let (checkpoints, stopped) = match self.light_checkpoints()? {
            Some(known) => known,
            None => self.checkpoints_and_stopped().await?,
        };
        self.stopped.send_if_modified(|s| {
            if *s != stopped {
                *s = stopped.clone();
                true
            } else {
                false
            }
        });
        let running = self.running(&checkpoints, &stopped);
        let mut applied = 0;
        let mut full = false;
        // Every checkpoint once the round has committed, when the round itself moved each one it
        // tried to (the usual case): then nothing needs reading back to publish the progress.
        let mut reached = Some(checkpoints.clone());
        let mut held_back_after = None;
        if let Some(lowest) = running.iter().map(|(_, c)| *c).min() {
            let mut reader = self.read_ahead.lock().await;
            let ahead = match reader.as_mut() {
                Some(r) => r.next_after(lowest).await,
                None => None,
            };
            let mut events = match ahead {
                Some(events) => events,
                None => {
                    *reader = None;
                    stream::read_after(&self.source, lowest, self.batch).await?
                }
            };
            let next_after = events.last().map(|e| e.at);
            full = events.len() as i64 == self.batch;
            // A rebuild reads the batches after this one while it is applied (the stream after
            // the last event read only grows at its end, so those reads stay right).
            if let (Some(stop), None) = (self.stop_at, reader.as_ref()) {
                if let Some(after) = read_ahead::read_after_batch(&events, self.batch, stop) {
                    *reader = Some(ReadAhead::start(
                        self.source.clone(),
                        after,
                        self.batch,
                        stop,
                        self.projections.clone(),
                    ));
                }
            }
            drop(reader);
            // The live projector read to the end of what it can read: anything committed after
            // that is held back by an older transaction, and is looked for again soon (asked
            // once the round is published, so no command waits on the question).
            held_back_after =
                (!full && self.stop_at.is_none()).then(|| next_after.unwrap_or(lowest));
            if let Some(stop) = self.stop_at {
                events.retain(|e| e.at <= stop);
            }
            let apply = async {
                let behind = behind_in(&running, &events);
                let (round, light) = match self.light_round(&behind).await? {
                    Some(round) => (round, true),
                    None => (self.apply_round(&behind).await?, false),
                };
                let mut applied = round.applied;
                let moved_all = round.moved_all && round.failed.is_empty();
                // A projection whose part held a poison event goes the careful way alone.
                for b in round.failed {
                    applied += self
                        .apply_batch(b.projection, b.checkpoint, &b.pending)
                        .await?;
                }
                let reached = moved_all.then(|| self.reached_after(&checkpoints, &behind));
                if let Some(reached) = reached.as_ref().filter(|_| light) {
                    self.light_reached(reached.clone(), stopped.clone());
                }
                if self.stop_at.is_some() {
                    let light = if light { "true" } else { "false" };
                    metrics::counter!(crate::rebuild_progress::metric_names::ROUNDS_TOTAL, "light" => light)
                        .increment(1);
                }
                Ok::<_, ProjectionError>((applied, reached))
            };
            (applied, reached) = apply.await?;
            // A rebuild's batch is freed on a thread of the blocking pool: its ten thousand
            // events, each a few allocations, are otherwise freed by the applying thread
            // between two rounds, and it is the one the rebuild waits on.
            if self.stop_at.is_some() {
                drop(tokio::task::spawn_blocking(move || drop(events)));
            }
        }
        self.publish_progress(reached).await?;
        if let Some(after) = held_back_after {
            let held_back = stream::held_back(&self.source, after).await?;
            self.held_back.store(held_back, Ordering::Release);
        }
        Ok(RoundEnd { applied, full })
    }

    /// The projections not stopped, each with its checkpoint (`checkpoints` in the order of
    /// `self.projections`).
    fn running(
        &self,
        checkpoints: &[Position],
        stopped: &BTreeSet<String>,
    ) -> Vec<(&dyn Projection, Position)> {
        self.projections
            .iter()
            .zip(checkpoints.iter().copied())
            .filter(|(p, _)| !stopped.contains(p.name()))
            .map(|(p, c)| (p.as_ref(), c))
            .collect()
    }

    /// Every projection's checkpoint once `behind` is applied, in the order of
    /// `self.projections`, from where they were (`checkpoints`).
    fn reached_after(&self, checkpoints: &[Position], behind: &[Behind]) -> Vec<Position> {
        self.projections
            .iter()
            .zip(checkpoints)
            .map(|(p, at)| {
                behind
                    .iter()
                    .find(|b| b.projection.name() == p.name())
                    .and_then(|b| b.pending.last())
                    .map_or(*at, |e| e.at)
            })
            .collect()
    }

    /// Applies every projection's pending events in one transaction (one commit for the round,
    /// however many projections there are). The round is first tried at once: every checkpoint
    /// in one compare-and-set statement, then each part with no savepoint. A poison event rolls
    /// that try back, and the round is done again part by part, each in a savepoint (see
    /// [`Projector::apply_round_in_parts`]). A failure of the moment rolls back the whole round.
    async fn apply_round<'a, 'e>(
        &self,
        behind: &'a [Behind<'a, 'e>],
    ) -> Result<Round<'a, 'e>, ProjectionError> {
        if behind.is_empty() {
            return Ok(Round {
                applied: 0,
                failed: Vec::new(),
                moved_all: true,
            });
        }
        let _guard = self.target.write_guard().await;
        match self.apply_round_at_once(behind).await? {
            Some(round) => Ok(round),
            None => self.apply_round_in_parts(behind).await,
        }
    }

    /// The round in one go, with no savepoint: `None` when a part held a poison event (nothing
    /// is written; the caller does the round again part by part).
    async fn apply_round_at_once<'a, 'e>(
        &self,
        behind: &'a [Behind<'a, 'e>],
    ) -> Result<Option<Round<'a, 'e>>, ProjectionError> {
        let mut tx = Tx::begin(&self.target).await?;
        let parts = match self.apply_parts_at_once(&mut tx, behind, None).await {
            Ok(Some(parts)) => parts,
            Ok(None) => {
                tx.rollback().await?;
                return Ok(None);
            }
            Err(e) => {
                tx.rollback().await?;
                return Err(e);
            }
        };
        // The checkpoints' statement found the lease, or it is checked here.
        if !parts.fence_held && !self.fenced_in(&mut tx, "every projection").await? {
            tx.rollback().await?;
            return Ok(Some(Round {
                applied: 0,
                failed: Vec::new(),
                moved_all: false,
            }));
        }
        tx.commit().await?;
        Ok(Some(Round {
            applied: self.applied_all(parts.done).await?,
            failed: Vec::new(),
            moved_all: parts.moved_all,
        }))
    }

    /// Every part of a round written in `tx`: every checkpoint in one compare-and-set
    /// statement, then each part with no savepoint. `None` when a part held a poison event
    /// (the caller undoes what was written); an error of the moment is returned as such.
    ///
    /// With `generations` (a group commit's round, which reads them in its transaction), each
    /// part is applied with [`Projection::apply_from`], and a projection that
    /// [`Projection::keeps_rows`] is given its part even when none of its events apply.
    async fn apply_parts_at_once<'p>(
        &self,
        tx: &mut Tx,
        behind: &[Behind<'p, '_>],
        generations: Option<&Generations>,
    ) -> Result<Option<PartsWritten<'p>>, ProjectionError> {
        // Every checkpoint first: on SQLite that takes the write lock before any read, so the
        // transaction never upgrades from a stale snapshot.
        let all: Vec<&Behind> = behind.iter().collect();
        let CheckpointsMoved {
            moved: done,
            fence_held,
        } = move_checkpoints(tx, &all, self.fence.as_ref()).await?;
        let moved_all = done.len() == behind.len();
        for b in behind {
            // A part whose checkpoint another projector moved since we read it is left to it.
            let moved = done.iter().any(|(p, _)| p.name() == b.projection.name());
            let keeps = generations.is_some() && b.projection.keeps_rows();
            if !moved || !(keeps || b.pending.iter().any(|e| b.projection.applies_to(e))) {
                continue;
            }
            let applied = match generations {
                Some(generations) => {
                    let generation = generations
                        .iter()
                        .find(|(name, _)| name == b.projection.name())
                        .map_or(0, |(_, g)| *g);
                    let from = CheckpointState {
                        position: b.checkpoint,
                        generation,
                    };
                    b.projection.apply_from(tx, from, &b.pending).await
                }
                None => b.projection.apply_all(tx, &b.pending).await,
            };
            if let Err(failure) = applied {
                if !failure.error.is_poison() {
                    return Err(failure.error);
                }
                tracing::debug!(
                    projection = b.projection.name(),
                    error = %failure.error,
                    "poison event in a round: done again part by part"
                );
                return Ok(None);
            }
        }
        Ok(Some(PartsWritten {
            done,
            moved_all,
            fence_held,
        }))
    }

    /// The round with each projection's part in a savepoint with its checkpoint: a poison
    /// event rolls back only its projection's part, returned to be applied on its own (see
    /// [`Projector::apply_batch`]). The caller holds the write guard.
    async fn apply_round_in_parts<'a, 'e>(
        &self,
        behind: &'a [Behind<'a, 'e>],
    ) -> Result<Round<'a, 'e>, ProjectionError> {
        let mut tx = Tx::begin(&self.target).await?;
        let mut moved_all = true;
        // A projection that applies none of the round's events only has its checkpoint moved:
        // all such checkpoints in one statement, with no savepoint (nothing of theirs to undo).
        // Written first, like every checkpoint (see below).
        let (idle, busy): (Vec<&Behind>, Vec<&Behind>) = behind
            .iter()
            .partition(|b| !b.pending.iter().any(|e| b.projection.applies_to(e)));
        // The fence is checked once at the end, after every part.
        let mut done = move_checkpoints(&mut tx, &idle, None).await?.moved;
        moved_all &= done.len() == idle.len();
        let mut failed = Vec::new();
        for b in busy {
            let Some(last) = b.pending.last().map(|e| e.at) else {
                continue;
            };
            savepoint(&mut tx, "savepoint projection").await?;
            // The checkpoint is written first: on SQLite it takes the write lock before any
            // read, so the transaction never upgrades from a stale snapshot.
            if !move_checkpoint(&mut tx, b.projection.name(), b.checkpoint, last).await? {
                // Another projector moved it since we read it: its batch stands.
                tracing::debug!(
                    projection = b.projection.name(),
                    "checkpoint moved by another projector"
                );
                undo_to(&mut tx, "projection").await?;
                moved_all = false;
                continue;
            }
            match b.projection.apply_all(&mut tx, &b.pending).await {
                Ok(()) => {
                    savepoint(&mut tx, "release savepoint projection").await?;
                    done.push((b.projection, b.pending.len()));
                }
                Err(failure) if !failure.error.is_poison() => {
                    tx.rollback().await?;
                    return Err(failure.error);
                }
                Err(_) => {
                    undo_to(&mut tx, "projection").await?;
                    failed.push(b);
                }
            }
        }
        if !self.fenced_in(&mut tx, "every projection").await? {
            tx.rollback().await?;
            return Ok(Round {
                applied: 0,
                failed: Vec::new(),
                moved_all: false,
            });
        }
        tx.commit().await?;
        Ok(Round {
            applied: self.applied_all(done).await?,
            failed,
            moved_all,
        })
    }

    /// Tells every projection whether the transaction a live round applied them in committed
    /// ([`Projection::settled`]).
    fn settled(&self, committed: bool) {
        for projection in &self.projections {
            projection.settled(committed);
        }
    }

    /// Counts what a committed round moved past, projection by projection.
    async fn applied_all(
        &self,
        done: Vec<(&dyn Projection, usize)>,
    ) -> Result<usize, ProjectionError> {
        let mut applied = 0;
        for (projection, moved) in done {
            applied += self.applied(projection, moved).await?;
        }
        Ok(applied)
    }

    /// Applies `pending` to one projection in one transaction with its checkpoint; a poison
    /// event among them is quarantined. Returns how many events the checkpoint moved past.
    async fn apply_batch(
        &self,
        projection: &dyn Projection,
        checkpoint: Position,
        pending: &[&StoredEvent],
    ) -> Result<usize, ProjectionError> {
        let failed = match self
            .try_batch(projection, checkpoint, pending, false)
            .await?
        {
            Attempt::Applied(n) => return self.applied(projection, n).await,
            Attempt::Failed(failed) => failed,
        };
        // The batch failed as a whole without naming an event: applied one event at a time,
        // the same events find the one that fails (or all go through).
        let failed = match failed {
            BatchFailure {
                index: None,
                error: _,
            } => match self
                .try_batch(projection, checkpoint, pending, true)
                .await?
            {
                Attempt::Applied(n) => return self.applied(projection, n).await,
                Attempt::Failed(failed) => failed,
            },
            named => named,
        };
        let index = failed.index.unwrap_or(0);
        let moved = self
            .quarantine(projection, checkpoint, pending, index, &failed.error)
            .await?;
        self.applied(projection, moved).await
    }

    async fn applied(
        &self,
        projection: &dyn Projection,
        moved: usize,
    ) -> Result<usize, ProjectionError> {
        if moved > 0 {
            self.batches.send_modify(|n| *n += 1);
            self.events_applied.send_modify(|n| *n += moved as u64);
            self.speeds
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .entry(projection.name())
                .or_default()
                .0 += moved as u64;
            self.refresh_statistics(projection).await?;
        }
        Ok(moved)
    }

    /// One transaction: the checkpoint and `pending` (as one batch, or event after event when
    /// `singly`). A failure of the moment is returned as an error, a poison event as
    /// [`Attempt::Failed`] (rolled back).
    async fn try_batch(
        &self,
        projection: &dyn Projection,
        checkpoint: Position,
        pending: &[&StoredEvent],
        singly: bool,
    ) -> Result<Attempt, ProjectionError> {
        let Some(last) = pending.last().map(|e| e.at) else {
            return Ok(Attempt::Applied(0));
        };
        let _guard = self.target.write_guard().await;
        let mut tx = Tx::begin(&self.target).await?;
        // Writing the checkpoint first takes SQLite's write lock before any read, so
        // the transaction never has to upgrade from a stale read snapshot.
        if !move_checkpoint(&mut tx, projection.name(), checkpoint, last).await? {
            // Another projector moved it since we read it: its batch stands, ours is
            // dropped (the transaction rolls back) and the next round starts from there.
            tracing::debug!(
                projection = projection.name(),
                "checkpoint moved by another projector"
            );
            tx.rollback().await?;
            return Ok(Attempt::Applied(0));
        }
        if !self.fenced_in(&mut tx, projection.name()).await? {
            tx.rollback().await?;
            return Ok(Attempt::Applied(0));
        }
        let result = if singly {
            let mut result = Ok(());
            for (index, event) in pending.iter().enumerate() {
                if let Err(failure) = projection.apply_all(&mut tx, &[event]).await {
                    result = Err(BatchFailure {
                        index: Some(index),
                        error: failure.error,
                    });
                    break;
                }
            }
            result
        } else {
            projection.apply_all(&mut tx, pending).await
        };
        match result {
            Ok(()) => {
                tx.commit().await?;
                Ok(Attempt::Applied(pending.len()))
            }
            Err(failure) if !failure.error.is_poison() => Err(failure.error),
            Err(failure) => {
                tx.rollback().await?;
                Ok(Attempt::Failed(failure))
            }
        }
    }

    /// Records `pending[failed]` as a dead letter, with the events before it applied, in one
    /// transaction; then stops the projection there or steps over the event, by its policy.
    /// Returns how many events the checkpoint moved past.
    async fn quarantine(
        &self,
        projection: &dyn Projection,
        checkpoint: Position,
        pending: &[&StoredEvent],
        failed: usize,
        error: &ProjectionError,
    ) -> Result<usize, ProjectionError> {
        let name = projection.name();
        let event = pending[failed];
        let policy = self.policy(projection);
        let (to, status, moved) = match policy {
            PoisonPolicy::Skip => (Some(event.at), dead_letters::SKIPPED, failed + 1),
            PoisonPolicy::Stop => (
                failed.checked_sub(1).map(|i| pending[i].at),
                dead_letters::STOPPED,
                failed,
            ),
        };
        {
            let _guard = self.target.write_guard().await;
            let mut tx = Tx::begin(&self.target).await?;
            if let Some(to) = to {
                if !move_checkpoint(&mut tx, name, checkpoint, to).await? {
                    tx.rollback().await?;
                    return Ok(0);
                }
            }
            if !self.fenced_in(&mut tx, name).await? {
                tx.rollback().await?;
                return Ok(0);
            }
            if failed > 0 {
                projection
                    .apply_all(&mut tx, &pending[..failed])
                    .await
                    .map_err(|f| f.error)?;
            }
            dead_letters::record(&mut tx, name, event, &error.to_string(), status).await?;
            tx.commit().await?;
        }
        metrics::counter!(metric_names::DEAD_LETTERS_TOTAL, "projection" => name).increment(1);
        tracing::error!(
            projection = name,
            aggregate_type = %event.aggregate_type,
            aggregate_id = %event.aggregate_id,
            sequence = event.sequence,
            event_type = %event.event_type,
            position = ?event.at,
            policy = ?policy,
            error = %error,
            "poison event: the projection cannot apply it"
        );
        if policy == PoisonPolicy::Stop {
            self.stopped.send_modify(|s| {
                s.insert(name.to_string());
            });
        }
        Ok(moved)
    }

    /// Publishes the lowest checkpoint of the running projections: from `known` (every
    /// projection's, in order) when the round knows them, else read.
    async fn publish_progress(&self, known: Option<Vec<Position>>) -> Result<(), ProjectionError> {
        let stopped = self.stopped.borrow().clone();
        let checkpoints = match known {
            Some(known) => known,
            None => self.checkpoints().await?,
        };
        let reached = self
            .projections
            .iter()
            .zip(checkpoints)
            .filter(|(p, _)| !stopped.contains(p.name()))
            .map(|(_, c)| c)
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
        Ok(())
    }

    /// Sets the lag, speed and stop gauges of every projection.
    pub async fn record_lag(&self) -> Result<(), ProjectionError> {
        let stopped = self.stopped.borrow().clone();
        for (projection, checkpoint) in self.projections.iter().zip(self.checkpoints().await?) {
            let name = projection.name();
            let lag = dead_letters::lag(&self.source, checkpoint).await?;
            let per_second = {
                let mut speeds = self.speeds.lock().unwrap_or_else(|e| e.into_inner());
                let (applied, speed) = speeds.entry(name).or_default();
                speed.sample(*applied, Instant::now())
            };
            metrics::gauge!(metric_names::EVENTS_BEHIND, "projection" => name)
                .set(lag.events as f64);
            metrics::gauge!(metric_names::SECONDS_BEHIND, "projection" => name).set(lag.seconds);
            metrics::gauge!(metric_names::EVENTS_PER_SECOND, "projection" => name).set(per_second);
            metrics::gauge!(metric_names::SECONDS_LEFT, "projection" => name)
                .set(catch_up::seconds_left(lag.events, per_second));
            metrics::gauge!(metric_names::STOPPED, "projection" => name)
                .set(if stopped.contains(name) { 1.0 } else { 0.0 });
        }
        // Rebuilds of these projections running in another process (`companion rebuild`).
        let names: Vec<&'static str> = self.projections.iter().map(|p| p.name()).collect();
        let running = crate::rebuild_progress::running(&self.source, now_ms()).await?;
        crate::rebuild_progress::publish(&names, &running);
        Ok(())
    }

    /// A rebuild on PostgreSQL fills empty tables from scratch: their planner statistics are
    /// refreshed every [`ANALYZE_EVERY`] batches, so the projection's queries keep using their
    /// indexes as the tables grow, even where autovacuum is off or has not come round yet.
    async fn refresh_statistics(&self, projection: &dyn Projection) -> Result<(), ProjectionError> {
        let Db::Postgres { pool } = &self.target else {
            return Ok(());
        };
        if self.stop_at.is_none()
            || !projection.rebuild_reads_back()
            || !self.batches.borrow().is_multiple_of(ANALYZE_EVERY)
        {
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

    /// How many events the checkpoints have moved past so far (summed over the projections).
    pub fn subscribe_events_applied(&self) -> watch::Receiver<u64> {
        self.events_applied.subscribe()
    }

    /// Runs until there is nothing left (or `stop_at` is passed). Used by rebuilds and tests.
    /// A rebuild then lets each projection write what it kept for the end.
    pub async fn run_to_end(&self) -> Result<usize, ProjectionError> {
        let mut total = 0;
        loop {
            let n = self.run_once().await?;
            total += n;
            if n == 0 {
                break;
            }
        }
        self.end_light_rounds();
        // Its last batch was read: nothing is left for it to read.
        *self.read_ahead.lock().await = None;
        if self.stop_at.is_some() {
            for projection in &self.projections {
                let _guard = self.target.write_guard().await;
                let mut tx = Tx::begin(&self.target).await?;
                projection.finish_rebuild(&mut tx).await?;
                tx.commit().await?;
            }
        }
        Ok(total)
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
        // The lag is sampled beside the rounds, not between them: its queries (one per
        // projection) would otherwise delay the round a command is waiting for.
        let sample_lag = async {
            loop {
                if let Err(e) = self.record_lag().await {
                    tracing::warn!(error = %e, "cannot measure projection lag");
                }
                tokio::time::sleep(LAG_SAMPLE).await;
            }
        };
        tokio::select! {
            _ = self.run_rounds(shutdown) => {}
            _ = sample_lag => {}
        }
    }

    /// The live projector's rounds: one after each wake-up, at once while a round was full,
    /// soon while events are held back, and every [`POLL`] in case another node wrote. Returns
    /// on `shutdown` between rounds (a round under way is finished).
    async fn run_rounds(&self, shutdown: impl std::future::Future<Output = ()>) {
        tokio::pin!(shutdown);
        // Commands are taken while this loop runs; queued ones are dropped with the receiver
        // when it ends, and append on their own.
        struct Closing<'a>(&'a CommitGate);
        impl Drop for Closing<'_> {
            fn drop(&mut self) {
                self.0.close();
            }
        }
        let mut commits = self.commits.open();
        let _closing = Closing(&self.commits);
        let mut requests = Vec::with_capacity(COMMANDS_PER_BATCH);
        let mut held_back_pause = HELD_BACK_FIRST;
        let mut round_needed = true;
        loop {
            if round_needed {
                match self.run_round().await {
                    // A round that read a full batch goes on at once, after appending the
                    // commands waiting meanwhile (a backlog does not hold them back). One that
                    // read to the end of what it could has nothing more unless a command wakes
                    // it or hands it its events, another node notifies, or events are held
                    // back (all four end the wait below).
                    Ok(round) if round.full && round.applied > 0 => {
                        while requests.len() < COMMANDS_PER_BATCH {
                            match commits.try_recv() {
                                Ok(request) => requests.push(request),
                                Err(_) => break,
                            }
                        }
                        if !requests.is_empty() {
                            self.commit_batch(std::mem::take(&mut requests)).await;
                        }
                        continue;
                    }
                    Ok(_) => {}
                    Err(e) => {
                        tracing::error!(error = %e, "projection batch failed; retrying");
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                }
            }
            round_needed = true;
            let pause = if self.held_back.load(Ordering::Acquire) {
                let pause = held_back_pause;
                held_back_pause = (held_back_pause * 2).min(HELD_BACK_MAX);
                pause
            } else {
                held_back_pause = HELD_BACK_FIRST;
                POLL
            };
            tokio::select! {
                _ = &mut shutdown => return,
                taken = commits.recv_many(&mut requests, COMMANDS_PER_BATCH) => {
                    if taken > 0 {
                        // Projected with their commit: no round is needed for them.
                        round_needed = self.commit_batch(std::mem::take(&mut requests)).await;
                    }
                }
                _ = self.wake.notified() => {}
                _ = tokio::time::sleep(pause) => {}
            }
        }
    }
}

/// Every checkpoint and every stopped projection, in one query.
const CHECKPOINTS_AND_STOPPED: &str =
    "select name, tx_id, position, generation, cast(0 as bigint) as stopped
       from projection_checkpoints
     union all
     select distinct projection, cast(0 as bigint), cast(0 as bigint), cast(0 as bigint),
            cast(1 as bigint)
     from projection_dead_letters where status = 'stopped'";

/// Each projection's checkpoint generation, by name (see [`CheckpointState`]).
type Generations = Vec<(String, i64)>;

fn generations_of(rows: &[CheckpointOrStopped]) -> Generations {
    rows.iter()
        .filter(|r| r.stopped == 0)
        .map(|r| (r.checkpoint.name.clone(), r.checkpoint.generation))
        .collect()
}

/// A row of [`CHECKPOINTS_AND_STOPPED`].
#[derive(sqlx::FromRow)]
struct CheckpointOrStopped {
    #[sqlx(flatten)]
    checkpoint: NamedCheckpoint,
    /// 1: the row names a stopped projection, not a checkpoint.
    stopped: i64,
}

/// A row of `projection_checkpoints`, as read with `select tx_id, position`; none is the start.
#[derive(sqlx::FromRow)]
pub(crate) struct CheckpointRow {
    tx_id: i64,
    position: i64,
}

impl From<Option<CheckpointRow>> for Position {
    fn from(row: Option<CheckpointRow>) -> Self {
        row.map(|r| Position {
            tx_id: r.tx_id,
            position: r.position,
        })
        .unwrap_or_default()
    }
}

pub async fn checkpoint_of(db: &Db, name: &str) -> Result<Position, sqlx::Error> {
    let row: Option<CheckpointRow> = crate::on_db!(db, pool => sqlx::query_as(
        "select tx_id, position from projection_checkpoints where name = $1")
        .bind(name).fetch_optional(pool).await)?;
    Ok(Position::from(row))
}

/// The lowest checkpoint among `names` (a projection without one has reached nothing yet).
async fn lowest_checkpoint(db: &Db, names: &[&'static str]) -> Result<Position, sqlx::Error> {
    let rows: Vec<NamedCheckpoint> = on_db!(db, pool => sqlx::query_as(
        "select name, tx_id, position from projection_checkpoints")
        .fetch_all(pool).await)?;
    Ok(in_order_of(&rows, names.iter().copied())
        .into_iter()
        .min()
        .unwrap_or_default())
}

/// A row of `projection_checkpoints` with its projection's name.
#[derive(sqlx::FromRow)]
struct NamedCheckpoint {
    name: String,
    tx_id: i64,
    position: i64,
    /// Read only where a live round needs it (0 otherwise).
    #[sqlx(default)]
    generation: i64,
}

/// The checkpoint of each of `names`, in their order, from `rows` (a name without a row has
/// reached nothing yet).
fn in_order_of<'n>(
    rows: &[NamedCheckpoint],
    names: impl IntoIterator<Item = &'n str>,
) -> Vec<Position> {
    names
        .into_iter()
        .map(|name| {
            rows.iter()
                .find(|r| r.name == name)
                .map(|r| Position {
                    tx_id: r.tx_id,
                    position: r.position,
                })
                .unwrap_or_default()
        })
        .collect()
}

/// One projection's part of a round: its checkpoint and the events after it.
struct Behind<'a, 'e> {
    projection: &'a dyn Projection,
    checkpoint: Position,
    pending: Vec<&'e StoredEvent>,
}

/// Each of `running`'s part of `events`: the events after its checkpoint, for those that have any.
fn behind_in<'p, 'e>(
    running: &[(&'p dyn Projection, Position)],
    events: &'e [StoredEvent],
) -> Vec<Behind<'p, 'e>> {
    running
        .iter()
        .filter_map(|(projection, checkpoint)| {
            let pending: Vec<&StoredEvent> = events.iter().filter(|e| e.at > *checkpoint).collect();
            (!pending.is_empty()).then_some(Behind {
                projection: *projection,
                checkpoint: *checkpoint,
                pending,
            })
        })
        .collect()
}

/// A savepoint statement (`savepoint`, `release savepoint`, `rollback to savepoint`), the same
/// on both engines.
async fn savepoint(tx: &mut Tx, statement: &'static str) -> Result<(), sqlx::Error> {
    on_tx!(tx, conn => sqlx::query(statement).execute(conn).await.map(|_| ()))
}

/// Drops what was written since savepoint `name`, and the savepoint.
async fn undo_to(tx: &mut Tx, name: &str) -> Result<(), sqlx::Error> {
    for sql in [
        format!("rollback to savepoint {name}"),
        format!("release savepoint {name}"),
    ] {
        on_tx!(tx, conn => sqlx::query(&sql).execute(conn).await.map(|_| ()))?;
    }
    Ok(())
}

/// The checkpoints [`move_checkpoints`] moved.
struct CheckpointsMoved<'a> {
    /// The projections moved and how many events each passed; one missing was moved by
    /// another projector first, or the fence did not hold.
    moved: Vec<(&'a dyn Projection, usize)>,
    /// Every checkpoint was moved by a statement that also found this node's lease (its
    /// fence): the transaction needs no check of its own for it.
    fence_held: bool,
}

/// Moves the checkpoints of the projections of `parts` past their pending events: one
/// compare-and-set statement for all that were at the same place (the usual case: they move
/// together), each alone otherwise. With a `fence`, on PostgreSQL, the grouped statement moves
/// nothing unless this node still holds the lease with its number: one round trip for both.
async fn move_checkpoints<'a>(
    tx: &mut Tx,
    parts: &[&Behind<'a, '_>],
    fence: Option<&Fence>,
) -> Result<CheckpointsMoved<'a>, sqlx::Error> {
    let fence = fence.filter(|_| tx.kind() == crate::db::DbKind::Postgres);
    let mut moved = Vec::new();
    // Whether every checkpoint went through the fenced statement.
    let mut all_fenced = fence.is_some();
    let mut groups: Vec<(Position, Position, Vec<&Behind<'a, '_>>)> = Vec::new();
    for b in parts {
        let Some(last) = b.pending.last().map(|e| e.at) else {
            continue;
        };
        if b.checkpoint == Position::default() {
            // No row yet: inserted on its own.
            all_fenced = false;
            if move_checkpoint(tx, b.projection.name(), b.checkpoint, last).await? {
                moved.push((b.projection, b.pending.len()));
            }
            continue;
        }
        match groups
            .iter_mut()
            .find(|(from, to, _)| *from == b.checkpoint && *to == last)
        {
            Some((_, _, members)) => members.push(b),
            None => groups.push((b.checkpoint, last, vec![b])),
        }
    }
    for (from, to, members) in groups {
        let mut sql = String::from(
            "update projection_checkpoints set tx_id = $1, position = $2, updated_at = $3
             where tx_id = $4 and position = $5 and name in (",
        );
        for i in 0..members.len() {
            if i > 0 {
                sql.push_str(", ");
            }
            sql.push_str(&format!("${}", i + 6));
        }
        sql.push(')');
        if fence.is_some() {
            let first = members.len() + 6;
            sql.push_str(&format!(
                " and exists (select 1 from projector_lease where name = ${first} and owner = ${}
                   and fencing = ${} and expires_at > now())",
                first + 1,
                first + 2
            ));
        }
        sql.push_str(" returning name");
        let names: Vec<String> = on_tx!(tx, conn => {
            let mut query = sqlx::query_scalar(&sql)
                .bind(to.tx_id)
                .bind(to.position)
                .bind(now_ms())
                .bind(from.tx_id)
                .bind(from.position);
            for b in &members {
                query = query.bind(b.projection.name());
            }
            if let Some(fence) = fence {
                query = query
                    .bind(crate::lease::PROJECTOR_LEASE)
                    .bind(fence.owner())
                    .bind(fence.number());
            }
            query.fetch_all(conn).await
        })?;
        for b in members {
            if names.iter().any(|n| n == b.projection.name()) {
                moved.push((b.projection, b.pending.len()));
            } else {
                tracing::debug!(
                    projection = b.projection.name(),
                    "checkpoint moved by another projector, or the lease lost"
                );
            }
        }
    }
    let fence_held = all_fenced && !moved.is_empty() && moved.len() == parts.len();
    Ok(CheckpointsMoved { moved, fence_held })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_events_are_poison_and_failures_of_the_moment_are_not() {
        let bad = ProjectionError::BadEvent {
            event_type: "FolderCreated".into(),
            position: Position::default(),
            reason: "missing field `name`".into(),
        };
        assert!(bad.is_poison());
        assert!(ProjectionError::Database(sqlx::Error::RowNotFound).is_poison());
        assert!(!ProjectionError::Database(sqlx::Error::PoolTimedOut).is_poison());
        assert!(
            !ProjectionError::Database(sqlx::Error::Io(std::io::Error::other("reset"))).is_poison()
        );
        assert!(
            !ProjectionError::Stream(StreamError::Database(sqlx::Error::PoolClosed)).is_poison()
        );
    }

    /// A test projection that reads one aggregate type (applying only the events of type
    /// `applies`, when given), counts every event it is given, and refuses as unreadable the
    /// events of type `refuses`, when given.
    struct Reader {
        name: &'static str,
        reads: &'static str,
        applies: Option<&'static str>,
        refuses: Option<&'static str>,
        given: std::sync::atomic::AtomicUsize,
    }

    impl Reader {
        fn new(name: &'static str, reads: &'static str) -> Arc<Self> {
            Arc::new(Self {
                name,
                reads,
                applies: None,
                refuses: None,
                given: Default::default(),
            })
        }

        /// Reads `reads` but applies only its events of type `applies`.
        fn picky(name: &'static str, reads: &'static str, applies: &'static str) -> Arc<Self> {
            Arc::new(Self {
                name,
                reads,
                applies: Some(applies),
                refuses: None,
                given: Default::default(),
            })
        }

        /// Reads `reads` and refuses its events of type `refuses` (a poison event).
        fn refusing(name: &'static str, reads: &'static str, refuses: &'static str) -> Arc<Self> {
            Arc::new(Self {
                name,
                reads,
                applies: None,
                refuses: Some(refuses),
                given: Default::default(),
            })
        }

        fn given(&self) -> usize {
            self.given.load(Ordering::Relaxed)
        }
    }

    #[async_trait]
    impl Projection for Reader {
        fn name(&self) -> &'static str {
            self.name
        }
        fn tables(&self) -> &'static [TableSpec] {
            &[]
        }
        async fn apply(&self, _tx: &mut Tx, event: &StoredEvent) -> Result<(), ProjectionError> {
            self.given.fetch_add(1, Ordering::Relaxed);
            if self.refuses == Some(event.event_type.as_str()) {
                return Err(ProjectionError::bad_event(event, "refused"));
            }
            Ok(())
        }
        fn reads(&self, aggregate_type: &str) -> bool {
            aggregate_type == self.reads
        }
        fn applies_to(&self, event: &StoredEvent) -> bool {
            self.reads(&event.aggregate_type) && self.applies.is_none_or(|t| event.event_type == t)
        }
    }

    /// A fresh SQLite database in its own folder.
    async fn fresh_db() -> (tempfile::TempDir, Db) {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::connect(&format!("sqlite://{}", dir.path().join("p.db").display()))
            .await
            .unwrap();
        (dir, db)
    }

    /// A fresh SQLite database and a projector over readers "a", "b" and "c" of the aggregate
    /// types "A", "B" and "C".
    async fn three_readers() -> (tempfile::TempDir, Db, [Arc<Reader>; 3], Projector) {
        let (dir, db) = fresh_db().await;
        let readers = [
            Reader::new("a", "A"),
            Reader::new("b", "B"),
            Reader::new("c", "C"),
        ];
        let list: Vec<Arc<dyn Projection>> = readers
            .iter()
            .map(|r| r.clone() as Arc<dyn Projection>)
            .collect();
        let projector = Projector::new(db.clone(), list);
        (dir, db, readers, projector)
    }

    /// A fresh SQLite database and a projector over two readers of "A": "good", and "bad", which
    /// refuses events of type "Unreadable".
    async fn good_and_bad() -> (tempfile::TempDir, Db, Arc<Reader>, Arc<Reader>, Projector) {
        let (dir, db) = fresh_db().await;
        let good = Reader::new("good", "A");
        let bad = Reader::refusing("bad", "A", "Unreadable");
        let projector = Projector::new(
            db.clone(),
            vec![
                good.clone() as Arc<dyn Projection>,
                bad.clone() as Arc<dyn Projection>,
            ],
        );
        (dir, db, good, bad, projector)
    }

    async fn append(db: &Db, aggregate_type: &str, sequence: i64) {
        append_typed(db, aggregate_type, sequence, "Happened").await;
    }

    async fn append_typed(db: &Db, aggregate_type: &str, sequence: i64, event_type: &str) {
        on_db!(db, pool => sqlx::query(
            "insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata)
             values ($1, 'x', $2, $3, '1.0', '{}', '{}')")
            .bind(aggregate_type).bind(sequence).bind(event_type)
            .execute(pool).await.map(|_| ())).unwrap();
    }

    /// A rebuild's reader hands over the batches after the one it was started after, each once
    /// and in order, stops at the rebuild's end, and hands nothing over to a round that asks
    /// for the batch after another position.
    #[tokio::test]
    async fn a_rebuilds_reader_hands_over_the_next_batches_in_order_and_stops_at_its_end() {
        let (_dir, db) = fresh_db().await;
        for sequence in 1..=10 {
            append(&db, "A", sequence).await;
        }
        let at: Vec<Position> = stream::read_after(&db, Position::default(), 100)
            .await
            .unwrap()
            .iter()
            .map(|e| e.at)
            .collect();
        assert_eq!(at.len(), 10);
        let readers = || vec![Reader::new("a", "A") as Arc<dyn Projection>];
        let positions = |events: Vec<StoredEvent>| events.iter().map(|e| e.at).collect::<Vec<_>>();

        let mut reader = ReadAhead::start(db.clone(), at[2], 3, at[7], readers());
        let first = reader
            .next_after(at[2])
            .await
            .expect("the batch after the third");
        assert_eq!(positions(first), at[3..6]);
        let second = reader
            .next_after(at[5])
            .await
            .expect("the batch after the sixth");
        assert_eq!(positions(second), at[6..9]);
        // That batch passed the end: nothing more was read.
        assert!(reader.next_after(at[8]).await.is_none());

        // Asked for the batch after another position: none.
        let mut reader = ReadAhead::start(db.clone(), at[2], 3, at[9], readers());
        assert!(reader.next_after(at[4]).await.is_none());

        // A batch that is not full is the last one.
        let mut reader = ReadAhead::start(db.clone(), at[6], 5, at[9], readers());
        let last = reader.next_after(at[6]).await.expect("the last three");
        assert_eq!(positions(last), at[7..10]);
        assert!(reader.next_after(at[9]).await.is_none());
    }

    /// A projection that writes the position of each event it applies in its transaction, and
    /// refuses the events of type "Bad" (a poison event).
    struct Recorder;

    #[async_trait]
    impl Projection for Recorder {
        fn name(&self) -> &'static str {
            "recorder"
        }
        fn tables(&self) -> &'static [TableSpec] {
            &[]
        }
        async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> Result<(), ProjectionError> {
            if event.event_type == "Bad" {
                return Err(ProjectionError::bad_event(event, "refused"));
            }
            let position = event.at.position;
            on_tx!(tx, c => sqlx::query("insert into recorded (position) values ($1)")
                .bind(position).execute(c).await.map(|_| ()))?;
            Ok(())
        }
        fn reads(&self, aggregate_type: &str) -> bool {
            aggregate_type == "A"
        }
    }

    /// A rebuild whose round steps over a poison event goes on from just after it, not from
    /// the batch its reader read ahead: every other event is applied exactly once.
    #[tokio::test]
    async fn a_rebuild_stepping_over_a_poison_event_applies_every_other_event_once() {
        let (_dir, db) = fresh_db().await;
        on_db!(&db, pool => sqlx::query("create table recorded (position bigint not null)")
            .execute(pool).await.map(|_| ()))
        .unwrap();
        for sequence in 1..=20 {
            let kind = if sequence == 5 { "Bad" } else { "Happened" };
            append_typed(&db, "A", sequence, kind).await;
        }
        let events = stream::read_after(&db, Position::default(), 100)
            .await
            .unwrap();
        let head = events.last().map(|e| e.at);
        let projector =
            Projector::rebuilding(db.clone(), db.clone(), vec![Arc::new(Recorder)], head)
                .with_batch_size(3);
        projector.run_to_end().await.unwrap();

        let recorded: Vec<i64> = on_db!(&db, pool => sqlx::query_scalar(
            "select position from recorded order by position").fetch_all(pool).await)
        .unwrap();
        let expected: Vec<i64> = events
            .iter()
            .filter(|e| e.event_type != "Bad")
            .map(|e| e.at.position)
            .collect();
        assert_eq!(recorded, expected);
        assert_eq!(checkpoint_of(&db, "recorder").await.unwrap(), head.unwrap());
        assert_eq!(dead_letters::list(&db, 10).await.unwrap().len(), 1);
    }

    /// A projection far behind (a new one catching up from its first event) is told how far
    /// past the count's cap, from the stream's positions, and its speed and time left follow
    /// what it applies.
    #[tokio::test]
    async fn a_projection_far_behind_is_measured_past_the_count_cap() {
        let (_dir, db, [a, _, _], projector) = three_readers().await;
        let events = dead_letters::LAG_COUNT_CAP + 5_000;
        on_db!(&db, pool => sqlx::query(
            "with recursive n(i) as (select 1 union all select i + 1 from n where i < $1)
             insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata)
             select 'A', 'x', i, 'Happened', '1.0', '{}', '{}' from n")
            .bind(events).execute(pool).await.map(|_| ())).unwrap();
        let lag = dead_letters::lag(&db, Position::default()).await.unwrap();
        assert_eq!(lag.events, events, "past the cap, the positions tell");
        let from = Position {
            tx_id: 0,
            position: 3,
        };
        assert_eq!(
            dead_letters::lag(&db, from).await.unwrap().events,
            events - 3
        );

        projector.record_lag().await.unwrap();
        let batches = 4;
        for _ in 0..batches {
            projector.run_once().await.unwrap();
        }
        assert_eq!(a.given(), (batches * BATCH) as usize);
        let speeds = projector.speeds.lock().unwrap().clone();
        // Counted per projection, as far as its checkpoint moved: "b" reads none of them, yet
        // it is as far along (the events behind count every event after the checkpoint).
        assert_eq!(speeds["a"].0, (batches * BATCH) as u64);
        assert_eq!(speeds["b"].0, (batches * BATCH) as u64);
        let behind = dead_letters::lag(&db, checkpoint_of(&db, "a").await.unwrap())
            .await
            .unwrap();
        assert_eq!(behind.events, events - batches * BATCH);
    }

    /// Projections that read none of a round's events are never given them, and their
    /// checkpoints still move with the others' (one statement), so a command waiting on the
    /// lowest checkpoint is not held up.
    #[tokio::test]
    async fn projections_idle_in_a_round_only_move_their_checkpoints() {
        let (_dir, db, [a, b, c], projector) = three_readers().await;
        append(&db, "A", 1).await;
        append(&db, "A", 2).await;
        projector.run_to_end().await.unwrap();
        append(&db, "B", 1).await;
        projector.run_to_end().await.unwrap();
        append(&db, "A", 3).await;
        projector.run_to_end().await.unwrap();
        // The first round inserts every checkpoint, the next ones move the idle ones together.
        assert_eq!((a.given(), b.given(), c.given()), (3, 1, 0));
        for name in ["a", "b", "c"] {
            assert_eq!(
                checkpoint_of(&db, name).await.unwrap().position,
                4,
                "{name}"
            );
        }
        assert_eq!(projector.handle().progress().position, 4);
        db.close().await;
    }

    /// A round whose events a projection reads by type but applies none of is an idle round
    /// for it: no savepoint, its checkpoint moved with the others; a round with one it applies
    /// runs it as before.
    #[tokio::test]
    async fn a_round_of_events_a_projection_does_not_apply_only_moves_its_checkpoint() {
        let (_dir, db) = fresh_db().await;
        let picky = Reader::picky("picky", "A", "Wanted");
        let projector = Projector::new(db.clone(), vec![picky.clone() as Arc<dyn Projection>]);
        append(&db, "A", 1).await;
        projector.run_to_end().await.unwrap();
        append(&db, "A", 2).await;
        projector.run_to_end().await.unwrap();
        // Never given the two `Happened` events, yet past them.
        assert_eq!(picky.given(), 0);
        assert_eq!(checkpoint_of(&db, "picky").await.unwrap().position, 2);
        append_typed(&db, "A", 3, "Wanted").await;
        projector.run_to_end().await.unwrap();
        assert_eq!(picky.given(), 1);
        assert_eq!(checkpoint_of(&db, "picky").await.unwrap().position, 3);
        db.close().await;
    }

    /// The idle projections' checkpoints move by compare-and-set: one that another projector
    /// moved since it was read is left where that projector put it, and not counted.
    #[tokio::test]
    async fn an_idle_checkpoint_moved_meanwhile_is_left_alone() {
        let (_dir, db, [a, b, c], projector) = three_readers().await;
        append(&db, "A", 1).await;
        projector.run_to_end().await.unwrap();
        append(&db, "A", 2).await;
        let events = stream::read_after(&db, Position::default(), 10)
            .await
            .unwrap();
        let pending: Vec<&StoredEvent> = events.iter().skip(1).collect();
        let at_one = Position {
            tx_id: 0,
            position: 1,
        };
        // Another projector has moved "c" far ahead meanwhile.
        on_db!(&db, pool => sqlx::query(
            "update projection_checkpoints set position = 9 where name = 'c'")
            .execute(pool).await.map(|_| ()))
        .unwrap();
        let behind: Vec<Behind> = [&a, &b, &c]
            .into_iter()
            .map(|p| Behind {
                projection: p.as_ref(),
                checkpoint: at_one,
                pending: pending.clone(),
            })
            .collect();
        let round = projector.apply_round(&behind).await.unwrap();
        assert!(round.failed.is_empty());
        assert_eq!(round.applied, 2, "a (busy) and b (idle) moved; c was not");
        assert!(!round.moved_all, "the progress is read back, not assumed");
        assert_eq!(checkpoint_of(&db, "a").await.unwrap().position, 2);
        assert_eq!(checkpoint_of(&db, "b").await.unwrap().position, 2);
        assert_eq!(checkpoint_of(&db, "c").await.unwrap().position, 9);
        projector.publish_progress(None).await.unwrap();
        assert_eq!(projector.handle().progress().position, 2);
        db.close().await;
    }

    /// A round is tried at once, with no savepoint; a poison event in one projection's part
    /// rolls that try back, and the round is done again part by part: the other projections'
    /// parts commit, the refused event is set aside as a dead letter of its projection alone.
    #[tokio::test]
    async fn a_poison_event_in_a_round_at_once_is_done_again_part_by_part() {
        let (_dir, db, good, bad, projector) = good_and_bad().await;
        append(&db, "A", 1).await;
        projector.run_to_end().await.unwrap();
        assert_eq!((good.given(), bad.given()), (1, 1), "one try, at once");
        append(&db, "A", 2).await;
        append_typed(&db, "A", 3, "Unreadable").await;
        append(&db, "A", 4).await;
        projector.run_to_end().await.unwrap();
        // At once (rolled back on the third event), then part by part: "good" in its savepoint,
        // "bad" rolled back there and applied on its own (twice: as a batch, then singly).
        assert_eq!(good.given(), 1 + 3 + 3);
        assert_eq!(checkpoint_of(&db, "good").await.unwrap().position, 4);
        assert_eq!(
            checkpoint_of(&db, "bad").await.unwrap().position,
            4,
            "stepped over"
        );
        let letters = dead_letters::list(&db, 10).await.unwrap();
        assert_eq!(letters.len(), 1);
        assert_eq!(letters[0].projection, "bad");
        assert_eq!(letters[0].event_type, "Unreadable");
        assert_eq!(projector.handle().progress().position, 4);
        db.close().await;
    }

    /// A bad documents event: documents stop (gauge, counter), notifications carry on.
    #[test]
    fn a_poison_event_is_counted_and_stops_only_its_projection() {
        use metrics_util::debugging::{DebugValue, DebuggingRecorder};
        let recorder = DebuggingRecorder::new();
        let snapshotter = recorder.snapshotter();
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("p.db").display());
        metrics::with_local_recorder(&recorder, || {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap()
                .block_on(async {
                    let db = Db::connect(&url).await.unwrap();
                    on_db!(&db, pool => sqlx::query(
                        "insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata)
                         values ('document_item', 'x', 1, 'FolderCreated', '1.0', '{\"FolderCreated\":{}}', '{}')")
                        .execute(pool).await.map(|_| ())).unwrap();
                    let projector = Projector::new(
                        db.clone(),
                        vec![
                            Arc::new(crate::notifications::NotificationsProjection),
                            Arc::new(crate::documents::DocumentsProjection),
                        ],
                    );
                    projector.run_to_end().await.unwrap();
                    projector.record_lag().await.unwrap();
                    let stopped = dead_letters::stopped(&db).await.unwrap();
                    assert_eq!(stopped.into_iter().collect::<Vec<_>>(), ["documents"]);
                    assert_eq!(checkpoint_of(&db, "notifications").await.unwrap().position, 1);
                    assert_eq!(checkpoint_of(&db, "documents").await.unwrap(), Position::default());
                    assert!(projector.handle().stopped().contains("documents"));
                    db.close().await;
                })
        });
        let values: Vec<(String, Vec<String>, DebugValue)> = snapshotter
            .snapshot()
            .into_vec()
            .into_iter()
            .map(|(key, _, _, value)| {
                let key = key.key();
                let labels = key
                    .labels()
                    .map(|l| format!("{}={}", l.key(), l.value()))
                    .collect();
                (key.name().to_string(), labels, value)
            })
            .collect();
        let value_of = |name: &str, projection: &str| {
            values
                .iter()
                .find(|(n, l, _)| n == name && l == &[format!("projection={projection}")])
                .map(|(_, _, v)| v)
        };
        assert_eq!(
            value_of(metric_names::DEAD_LETTERS_TOTAL, "documents"),
            Some(&DebugValue::Counter(1))
        );
        assert_eq!(
            value_of(metric_names::STOPPED, "documents"),
            Some(&DebugValue::Gauge(1.0.into()))
        );
        assert_eq!(
            value_of(metric_names::STOPPED, "notifications"),
            Some(&DebugValue::Gauge(0.0.into()))
        );
        assert_eq!(
            value_of(metric_names::EVENTS_BEHIND, "documents"),
            Some(&DebugValue::Gauge(1.0.into()))
        );
        assert_eq!(
            value_of(metric_names::EVENTS_BEHIND, "notifications"),
            Some(&DebugValue::Gauge(0.0.into()))
        );
        // Stopped, it will not catch up; current, there is nothing left.
        assert_eq!(
            value_of(metric_names::SECONDS_LEFT, "documents"),
            Some(&DebugValue::Gauge(f64::INFINITY.into()))
        );
        assert_eq!(
            value_of(metric_names::SECONDS_LEFT, "notifications"),
            Some(&DebugValue::Gauge(0.0.into()))
        );
        assert_eq!(
            value_of(metric_names::EVENTS_PER_SECOND, "notifications"),
            Some(&DebugValue::Gauge(0.0.into())),
            "one sample tells no speed"
        );
    }

    /// One event of aggregate `aggregate_type` "x"…, as a command hands it to the loop.
    fn one_event(aggregate_type: &str, id: &str, sequence: i64, event_type: &str) -> Append {
        Append {
            events: vec![NewEvent {
                aggregate_type: aggregate_type.into(),
                aggregate_id: id.into(),
                sequence,
                event_type: event_type.into(),
                event_version: "1.0".into(),
                payload: r#"{"Happened":{"n":1}}"#.into(),
                metadata: r#"{"user_id":"u"}"#.into(),
            }],
            snapshot: None,
            read_back: None,
        }
    }

    async fn events_stored(db: &Db) -> i64 {
        on_db!(db, pool => sqlx::query_scalar("select count(*) from events").fetch_one(pool).await)
            .unwrap()
    }

    /// The live loop, running until the returned sender is dropped or sent to.
    fn run_loop(
        projector: &Arc<Projector>,
    ) -> (
        tokio::sync::oneshot::Sender<()>,
        tokio::task::JoinHandle<()>,
    ) {
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let running = tokio::spawn({
            let projector = projector.clone();
            async move {
                projector
                    .run_until_shutdown(async {
                        let _ = stopped.await;
                    })
                    .await
            }
        });
        (stop, running)
    }

    /// A command handed to the running loop is stored and projected in one transaction: its
    /// answer comes with its place in the stream, the projection has applied it, and the
    /// published progress is there already (nothing left for a round to do).
    #[tokio::test]
    async fn a_command_handed_to_the_loop_is_stored_and_projected_in_one_commit() {
        let (_dir, db, [a, b, _c], projector) = three_readers().await;
        let projector = Arc::new(projector);
        let handle = projector.handle();
        let (stop, running) = run_loop(&projector);
        let mut committed = None;
        // The loop opens its gate as it starts.
        for _ in 0..500 {
            match handle.commit(one_event("A", "x", 1, "Happened")).await {
                Err(CommitError::NotTaken) => tokio::time::sleep(Duration::from_millis(2)).await,
                other => {
                    committed = Some(other.unwrap());
                    break;
                }
            }
        }
        let committed = committed.expect("the loop took the command");
        assert!(committed.projected);
        assert_eq!(committed.at.position, 1);
        assert_eq!((a.given(), b.given()), (1, 0));
        assert_eq!(checkpoint_of(&db, "a").await.unwrap(), committed.at);
        assert_eq!(checkpoint_of(&db, "b").await.unwrap(), committed.at);
        assert_eq!(handle.progress(), committed.at);
        let stored: (String, String) = on_db!(&db, pool => sqlx::query_as(
            "select payload, metadata from events where aggregate_id = 'x'").fetch_one(pool).await)
        .unwrap();
        assert_eq!(
            stored,
            (
                r#"{"Happened":{"n":1}}"#.into(),
                r#"{"user_id":"u"}"#.into()
            )
        );
        let _ = stop.send(());
        running.await.unwrap();
        // The loop has ended: the next command appends on its own.
        assert!(matches!(
            handle.commit(one_event("A", "x", 2, "Happened")).await,
            Err(CommitError::NotTaken)
        ));
        assert_eq!(events_stored(&db).await, 1);
        db.close().await;
    }

    /// With no loop running, nothing is written and the command is told to append itself.
    #[tokio::test]
    async fn with_no_loop_running_a_command_is_not_taken() {
        let (_dir, db, _readers, projector) = three_readers().await;
        assert!(matches!(
            projector
                .handle()
                .commit(one_event("A", "x", 1, "Happened"))
                .await,
            Err(CommitError::NotTaken)
        ));
        assert_eq!(events_stored(&db).await, 0);
        db.close().await;
    }

    /// Commands taken together: each in its savepoint, so the one that lost its sequence to an
    /// earlier one is refused alone, and the others commit, projected, in one transaction.
    #[tokio::test]
    async fn commands_taken_together_commit_once_and_a_conflict_fails_alone() {
        let (_dir, db, [a, b, _c], projector) = three_readers().await;
        let handle = projector.handle();
        let mut queue = projector.commits.open();
        let sent: Vec<_> = [
            one_event("A", "x", 1, "Happened"),
            one_event("A", "x", 1, "Happened"),
            one_event("B", "y", 1, "Happened"),
        ]
        .into_iter()
        .map(|append| {
            let handle = handle.clone();
            tokio::spawn(async move { handle.commit(append).await })
        })
        .collect();
        let mut requests = Vec::new();
        while requests.len() < 3 {
            queue.recv_many(&mut requests, 10).await;
        }
        assert!(!projector.commit_batch(requests).await, "projected");
        let mut answers = Vec::new();
        for task in sent {
            answers.push(task.await.unwrap());
        }
        let refused = answers
            .iter()
            .filter(|a| matches!(a, Err(CommitError::Conflict)))
            .count();
        let committed: Vec<Committed> = answers.into_iter().filter_map(Result::ok).collect();
        assert_eq!((refused, committed.len()), (1, 2));
        assert!(committed.iter().all(|c| c.projected));
        assert_eq!(events_stored(&db).await, 2);
        // One round for both commands: each reader is given both events (and skips the other's).
        assert_eq!((a.given(), b.given()), (2, 2));
        let last = committed.iter().map(|c| c.at).max().unwrap();
        assert_eq!(projector.handle().progress(), last);
        db.close().await;
    }

    /// A command alone that lost its sequence is refused, nothing of it stays, and the loop's
    /// next transaction is not affected.
    #[tokio::test]
    async fn a_conflict_alone_rolls_back_and_the_next_command_commits() {
        let (_dir, db, [a, _b, _c], projector) = three_readers().await;
        append(&db, "A", 1).await;
        let handle = projector.handle();
        let mut queue = projector.commits.open();
        for (sequence, expected_ok) in [(1, false), (2, true)] {
            let task = tokio::spawn({
                let handle = handle.clone();
                async move {
                    handle
                        .commit(one_event("A", "x", sequence, "Happened"))
                        .await
                }
            });
            let request = queue.recv().await.unwrap();
            projector.commit_batch(vec![request]).await;
            let answer = task.await.unwrap();
            assert_eq!(answer.is_ok(), expected_ok, "{answer:?}");
            if !expected_ok {
                assert!(matches!(answer, Err(CommitError::Conflict)));
            }
        }
        assert_eq!(events_stored(&db).await, 2);
        assert_eq!(
            a.given(),
            2,
            "the event appended before, and the second command's"
        );
        db.close().await;
    }

    /// A command whose event a projection refuses: the command's events commit without the
    /// projections (it is answered, not projected), and the projector's own round deals with
    /// the poison event as with any other (a dead letter, the checkpoint stepped over).
    #[tokio::test]
    async fn a_poison_event_commits_the_command_and_is_left_to_the_round() {
        let (_dir, db, _good, _bad, projector) = good_and_bad().await;
        let handle = projector.handle();
        let mut queue = projector.commits.open();
        let task =
            tokio::spawn(async move { handle.commit(one_event("A", "x", 1, "Unreadable")).await });
        let request = queue.recv().await.unwrap();
        assert!(
            projector.commit_batch(vec![request]).await,
            "left to the round"
        );
        let committed = task.await.unwrap().unwrap();
        assert!(!committed.projected);
        assert_eq!(events_stored(&db).await, 1);
        assert_eq!(
            checkpoint_of(&db, "good").await.unwrap(),
            Position::default()
        );
        projector.run_to_end().await.unwrap();
        assert_eq!(checkpoint_of(&db, "good").await.unwrap(), committed.at);
        assert_eq!(checkpoint_of(&db, "bad").await.unwrap(), committed.at);
        let letters = dead_letters::list(&db, 10).await.unwrap();
        assert_eq!(letters.len(), 1);
        assert_eq!(letters[0].projection, "bad");
        db.close().await;
    }

    /// A snapshot is written with its command's events: the first inserted, a later one only
    /// over the one before it; a command that meets a snapshot moved by another is refused
    /// whole (its events too).
    #[tokio::test]
    async fn a_snapshot_moves_with_its_command_or_the_command_is_refused() {
        let (_dir, db, _readers, projector) = three_readers().await;
        let handle = projector.handle();
        let mut queue = projector.commits.open();
        let with_snapshot = |sequence: i64, current_snapshot: i64| {
            let mut append = one_event("A", "x", sequence, "Happened");
            append.snapshot = Some(SnapshotUpdate {
                aggregate_type: "A".into(),
                aggregate_id: "x".into(),
                last_sequence: sequence,
                current_snapshot,
                payload: format!(r#"{{"total":{sequence}}}"#),
            });
            append
        };
        for (append, expected_ok) in [
            (with_snapshot(1, 1), true),
            (with_snapshot(2, 2), true),
            // Its events' sequence is free, but the snapshot it replaces is not the current one.
            (with_snapshot(3, 2), false),
            (with_snapshot(3, 3), true),
        ] {
            let task = tokio::spawn({
                let handle = handle.clone();
                async move { handle.commit(append).await }
            });
            let request = queue.recv().await.unwrap();
            projector.commit_batch(vec![request]).await;
            let answer = task.await.unwrap();
            assert_eq!(answer.is_ok(), expected_ok, "{answer:?}");
        }
        let snapshot: (i64, i64, String) = on_db!(&db, pool => sqlx::query_as(
            "select last_sequence, current_snapshot, payload from snapshots where aggregate_id = 'x'")
            .fetch_one(pool).await)
            .unwrap();
        assert_eq!(snapshot, (3, 3, r#"{"total":3}"#.into()));
        assert_eq!(events_stored(&db).await, 3);
        db.close().await;
    }

    /// A command the loop has not taken within its budget (the loop busy with a long round) is
    /// withdrawn and told to append on its own; the loop then skips it, writing nothing.
    #[tokio::test]
    async fn a_command_the_loop_does_not_take_in_time_is_withdrawn() {
        let (_dir, db, _readers, projector) = three_readers().await;
        let projector = projector.with_command_wait(Duration::from_millis(40));
        let mut queue = projector.commits.open();
        let started = Instant::now();
        let answer = projector
            .handle()
            .commit(one_event("A", "x", 1, "Happened"))
            .await;
        assert!(matches!(answer, Err(CommitError::NotTaken)), "{answer:?}");
        assert!(started.elapsed() >= group_commit::budget(Duration::from_millis(40)));
        let request = queue.recv().await.unwrap();
        assert!(
            !projector.commit_batch(vec![request]).await,
            "nothing to do"
        );
        assert_eq!(events_stored(&db).await, 0);
        db.close().await;
    }

    /// Applies nothing, slowly.
    struct Slow;

    #[async_trait]
    impl Projection for Slow {
        fn name(&self) -> &'static str {
            "slow"
        }
        fn tables(&self) -> &'static [TableSpec] {
            &[]
        }
        async fn apply(&self, _tx: &mut Tx, _event: &StoredEvent) -> Result<(), ProjectionError> {
            tokio::time::sleep(Duration::from_secs(5)).await;
            Ok(())
        }
    }

    /// Projections slower than the budget in a command's transaction are undone there: the
    /// command commits without them at the budget, answered not projected, and the projector's
    /// own round applies it later (the command then waits for it, as any command would).
    #[tokio::test]
    async fn a_round_slower_than_its_budget_commits_the_command_without_it() {
        let (_dir, db) = fresh_db().await;
        let projector = Projector::new(db.clone(), vec![Arc::new(Slow) as Arc<dyn Projection>])
            .with_command_wait(Duration::from_millis(400));
        let handle = projector.handle();
        let mut queue = projector.commits.open();
        let task =
            tokio::spawn(async move { handle.commit(one_event("A", "x", 1, "Happened")).await });
        let request = queue.recv().await.unwrap();
        let started = Instant::now();
        assert!(projector.commit_batch(vec![request]).await);
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "waited for the round"
        );
        let committed = task.await.unwrap().unwrap();
        assert!(!committed.projected);
        assert_eq!(events_stored(&db).await, 1);
        assert_eq!(
            checkpoint_of(&db, "slow").await.unwrap(),
            Position::default()
        );
        db.close().await;
    }
}
