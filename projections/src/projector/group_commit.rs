//! Commands that share one transaction, and one commit, with the projections (group commit).
//!
//! Where the projector runs, a command's events are not appended in a transaction of their
//! own: they are handed to the projector's loop ([`ProjectorHandle::commit`]), which takes every
//! command waiting (up to [`COMMANDS_PER_BATCH`]), appends all their events in one statement of
//! one transaction, applies the projections to them in the same transaction and commits once.
//! A command is answered after that commit, so an answer means stored (a crash loses nothing
//! answered) and, in the usual case, projected: the command reads its own write without a
//! second transaction and without waking the projector.
//!
//! The loop is the one path every command takes in turn, so its transaction is kept short: on
//! PostgreSQL it runs on a connection of its own ([`Db::dedicated`], named
//! [`super::COMMIT_CONNECTION_NAME`]), whose prepared statements are always at hand and which
//! never waits for the shared pool; the server runs the projector on a thread of its own.
//!
//! What stays as before, by construction:
//! - A command that loses an optimistic-concurrency race (its sequence is taken, or its
//!   snapshot moved) has nothing stored and is answered [`CommitError::Conflict`]; the other
//!   commands of the batch commit. cqrs-es then retries it against the fresh state. (The
//!   statement skips a taken sequence rather than failing, and what the losing command did
//!   write is deleted in the same transaction; where that cannot tell the commands apart, each
//!   is appended in a savepoint of its own, see [`append_together`].)
//! - The projections' part runs after the appends, through the same code as a live round
//!   ([`Projector::apply_parts_at_once`]). Whatever is unusual (a poison event, a stopped
//!   projection, a backlog, a checkpoint another projector moved, a lost lease, and on
//!   PostgreSQL an older transaction still open, whose events could sort before these) rolls
//!   the transaction back and appends the commands again without it: the events commit alone,
//!   and the projector's own round applies them, as it applies events appended anywhere else.
//! - Where no projector runs (another node holds the lease, or the loop has ended), the command
//!   appends as before ([`CommitError::NotTaken`]).
//! - A command is answered within the server's wait for the projections, as before, also when
//!   the projector is slow: a command the loop has not taken within [`budget`] (the loop is busy
//!   with a long round) is withdrawn and appends on its own, and a round that takes longer than
//!   that in a command's transaction is undone, its commands committed without it (they then
//!   wait for the projector, and are answered "recorded, not visible yet" if it stays slow).

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use sqlx::Executor;
use tokio::sync::{mpsc, oneshot};

use super::{behind_in, savepoint, undo_to, PartsWritten, Projector};
use crate::db::{Db, DbKind, Tx};
use crate::documents::read::{self as documents_read, ItemRow};
use crate::on_tx;
use crate::stream::{self, Position, StoredEvent};

/// Commands one transaction takes at most.
pub const COMMANDS_PER_BATCH: usize = 64;
/// Commands waiting for the loop at most; past that a command appends on its own.
const QUEUE: usize = 1024;
/// The longest [`budget`], whatever the server's wait.
const BUDGET_MAX: Duration = Duration::from_secs(1);

/// How long a command waits for the loop to take it, and how long the projections may take in
/// its transaction: a quarter of the server's wait for the projections (`command_wait`), at
/// most [`BUDGET_MAX`], so a command stored without them still has time to be projected.
pub(super) fn budget(command_wait: Duration) -> Duration {
    (command_wait / 4).min(BUDGET_MAX)
}

/// Where a request is: waiting in the queue, taken by the loop, or withdrawn by its command.
const QUEUED: u8 = 0;
const TAKEN: u8 = 1;
const WITHDRAWN: u8 = 2;

pub mod metric_names {
    /// Counter: transactions of commands committed by the projector's loop, by whether the
    /// projections were applied in them (`projected`).
    pub const GROUP_COMMITS_TOTAL: &str = "companion_group_commits_total";
    /// Counter: commands committed in those transactions.
    pub const GROUP_COMMIT_COMMANDS_TOTAL: &str = "companion_group_commit_commands_total";
    /// Counter: commands whose answer was read in their group commit ([`super::ReadBack`]).
    pub const GROUP_COMMIT_READ_BACKS_TOTAL: &str = "companion_group_commit_read_backs_total";
}

/// One event to append, as cqrs-es serialises it (its payload and metadata as JSON text).
#[derive(Debug, Clone)]
pub struct NewEvent {
    pub aggregate_type: String,
    pub aggregate_id: String,
    pub sequence: i64,
    pub event_type: String,
    pub event_version: String,
    pub payload: String,
    pub metadata: String,
}

/// The snapshot a command writes with its events (cqrs-es's snapshot stores): the first one
/// (`current_snapshot` 1) is inserted, a later one replaces the previous one only if that is
/// still `current_snapshot - 1`.
#[derive(Debug, Clone)]
pub struct SnapshotUpdate {
    pub aggregate_type: String,
    pub aggregate_id: String,
    /// The sequence of the command's last event.
    pub last_sequence: i64,
    pub current_snapshot: i64,
    /// The aggregate as JSON text.
    pub payload: String,
}

/// One command's writes.
#[derive(Debug, Clone)]
pub struct Append {
    pub events: Vec<NewEvent>,
    pub snapshot: Option<SnapshotUpdate>,
    /// The command's answer, to be read in its transaction once the projections applied it.
    pub read_back: Option<ReadBack>,
}

/// A command's answer, read from the read models in the transaction that committed it, after
/// the projections applied it: the command reads its own write without a statement of its own
/// (the reads of every command of the transaction are one statement).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadBack {
    /// A documents item as `viewer_id` sees it ([`crate::documents::read::item_and_path_shares`]).
    DocumentItem { viewer_id: String, item_id: String },
}

/// What a [`ReadBack`] read.
#[derive(Debug, Clone)]
pub enum ReadBackRow {
    /// The item's row and the viewer's shares on its path; `None` when there is no such item.
    DocumentItem(Option<(ItemRow, HashSet<String>)>),
}

/// A command committed by the projector's loop.
#[derive(Debug, Clone)]
pub struct Committed {
    /// Where its last event sits in the global stream.
    pub at: Position,
    /// The projections applied it in the same transaction, and their progress is published.
    pub projected: bool,
    /// Its [`ReadBack`], when it asked for one and the projections were applied with it.
    pub read: Option<ReadBackRow>,
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum CommitError {
    /// Nothing was written: no projector loop runs here to take the command (or its queue is
    /// full). The caller appends the events itself.
    #[error("no projector here takes the command")]
    NotTaken,
    /// Nothing was written: another command took the sequence or moved the snapshot first.
    #[error("the aggregate was changed by another command")]
    Conflict,
    /// The transaction failed before its commit was asked; nothing of the command was
    /// committed. (A failure once it was asked is answered [`CommitError::Interrupted`].)
    #[error("database: {0}")]
    Database(String),
    /// The loop stopped while it held the command (it lost its lease, or the server is
    /// stopping), or its transaction failed at or after its commit: whether the command is
    /// stored is for the store to say, once the transaction is settled ([`settle`]). `Some`
    /// when the commit had been asked for: where the command's last event went.
    #[error("the projector stopped while it committed the command")]
    Interrupted(Option<Position>),
}

/// A command waiting for the loop.
pub(super) struct Request {
    append: Append,
    /// Seen by the command and the loop alike.
    shared: Arc<Shared>,
    reply: oneshot::Sender<Result<Committed, CommitError>>,
}

/// What a command and the loop both see of its request.
struct Shared {
    /// [`QUEUED`], then [`TAKEN`] by the loop (from then on its outcome is known only from the
    /// reply) or [`WITHDRAWN`] by its command (the loop skips it).
    state: AtomicU8,
    /// Set by the loop just before it asks for the commit: where the command's last event went.
    /// From then on only the database knows whether the command is stored.
    committing: OnceLock<Position>,
}

/// Where commands are handed to the projector's loop: open while the loop runs.
#[derive(Clone, Default)]
pub(super) struct CommitGate(Arc<Mutex<Option<mpsc::Sender<Request>>>>);

impl CommitGate {
    /// Opens the gate; the loop reads the commands from the receiver. Dropping the receiver
    /// drops every command still queued: their senders learn they were not taken.
    pub(super) fn open(&self) -> mpsc::Receiver<Request> {
        let (sender, receiver) = mpsc::channel(QUEUE);
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(sender);
        receiver
    }

    pub(super) fn close(&self) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// Hands `append` to the loop, withdrawn if the loop has not taken it within `patience`.
    pub(super) async fn submit(
        &self,
        append: Append,
        patience: Duration,
    ) -> Result<Committed, CommitError> {
        let Some(sender) = self.0.lock().unwrap_or_else(|e| e.into_inner()).clone() else {
            return Err(CommitError::NotTaken);
        };
        let (reply, mut answer) = oneshot::channel();
        let shared = Arc::new(Shared {
            state: AtomicU8::new(QUEUED),
            committing: OnceLock::new(),
        });
        let request = Request {
            append,
            shared: shared.clone(),
            reply,
        };
        if sender.try_send(request).is_err() {
            return Err(CommitError::NotTaken);
        }
        let answered = match tokio::time::timeout(patience, &mut answer).await {
            Ok(answered) => answered,
            Err(_) => {
                let withdrawn = shared
                    .state
                    .compare_exchange(QUEUED, WITHDRAWN, Ordering::AcqRel, Ordering::Acquire)
                    .is_ok();
                if withdrawn {
                    return Err(CommitError::NotTaken);
                }
                // Taken meanwhile: its outcome comes.
                answer.await
            }
        };
        let committing = shared.committing.get().copied();
        match answered {
            // The transaction failed once its commit was asked: whether it committed is not
            // known.
            Ok(Err(CommitError::Database(_))) if committing.is_some() => {
                Err(CommitError::Interrupted(committing))
            }
            Ok(outcome) => outcome,
            Err(_) if shared.state.load(Ordering::Acquire) != TAKEN => Err(CommitError::NotTaken),
            Err(_) => Err(CommitError::Interrupted(committing)),
        }
    }
}

/// How often [`settle`] asks PostgreSQL about a transaction.
const SETTLE_POLL: Duration = Duration::from_millis(20);

/// Waits until the transaction of a command answered [`CommitError::Interrupted`] has committed
/// or rolled back, so that what the store holds at the command's sequences is its outcome.
/// The dropped loop's connection closes, and the database ends its transaction in its own time:
/// read at once, the store could miss a commit still under way, and the command would be
/// appended a second time (refused by its taken sequence, then retried against a state that
/// holds its own change).
///
/// - PostgreSQL, the commit asked (`committing`): the transaction's status (`pg_xact_status`)
///   until it is no longer in progress; `false` if it still is after `patience`.
/// - PostgreSQL, the commit never asked: nothing of the command can commit (the closed
///   connection's transaction rolls back, and an append of the same sequence waits for it).
/// - SQLite: a write lock taken and given back (`begin immediate`), which waits for a commit
///   under way on another connection.
pub async fn settle(
    db: &Db,
    committing: Option<Position>,
    patience: Duration,
) -> Result<bool, sqlx::Error> {
    match db {
        Db::Postgres { pool } => {
            let Some(at) = committing else {
                return Ok(true);
            };
            let deadline = tokio::time::Instant::now() + patience;
            loop {
                // NULL for a transaction too old to be tracked: long settled.
                let status: Option<String> =
                    sqlx::query_scalar("select pg_xact_status(cast(cast($1 as text) as xid8))")
                        .bind(at.tx_id)
                        .fetch_one(pool)
                        .await?;
                if status.as_deref() != Some("in progress") {
                    return Ok(true);
                }
                if tokio::time::Instant::now() >= deadline {
                    return Ok(false);
                }
                tokio::time::sleep(SETTLE_POLL).await;
            }
        }
        Db::Sqlite { pool, .. } => {
            let _writer = db.write_guard().await;
            let mut conn = pool.acquire().await?;
            conn.execute("begin immediate").await?;
            conn.execute("rollback").await?;
            Ok(true)
        }
    }
}

/// Each command's outcome, whether the projections were applied, and each command's read-back.
type CommitAppends = (
    Vec<Result<Position, CommitError>>,
    bool,
    Vec<Option<ReadBackRow>>,
);

/// The [`ReadBack`]s of the commands written in `tx` (`outcomes`), after the projections were
/// applied: one read for all of them. Answered in the order of `appends`; `None` for a command
/// that asked for none or was not written.
async fn read_backs(
    tx: &mut Tx,
    appends: &[&Append],
    outcomes: &[Result<Position, CommitError>],
) -> Result<Vec<Option<ReadBackRow>>, sqlx::Error> {
    let mut asked = Vec::new();
    let mut pairs = Vec::new();
    for (i, (append, outcome)) in appends.iter().zip(outcomes).enumerate() {
        if let (Some(ReadBack::DocumentItem { viewer_id, item_id }), Ok(_)) =
            (&append.read_back, outcome)
        {
            asked.push(i);
            pairs.push((viewer_id.as_str(), item_id.as_str()));
        }
    }
    let mut reads = vec![None; appends.len()];
    if pairs.is_empty() {
        return Ok(reads);
    }
    let found = documents_read::items_and_path_shares(tx, &pairs).await?;
    for (i, found) in asked.into_iter().zip(found) {
        reads[i] = Some(ReadBackRow::DocumentItem(found));
    }
    Ok(reads)
}

/// What one transaction of commands did to the projections.
struct ProjectedRound<'p> {
    parts: PartsWritten<'p>,
    /// Every projection's checkpoint after it, in the projector's order.
    reached: Vec<Position>,
}

impl Projector {
    /// Commits `requests` (those not withdrawn) in one transaction and answers each. Returns
    /// whether it committed events the projections were not applied to in it (the projector's
    /// own round has them to apply).
    pub(super) async fn commit_batch(&self, requests: Vec<Request>) -> bool {
        self.telling_feed_readers(self.commit_batch_noted(requests))
            .await
    }

    async fn commit_batch_noted(&self, mut requests: Vec<Request>) -> bool {
        requests.retain(|r| {
            r.shared
                .state
                .compare_exchange(QUEUED, TAKEN, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
        });
        if requests.is_empty() {
            return false;
        }
        let (outcomes, projected, mut reads) = match self.commit_appends(&requests).await {
            Ok(done) => done,
            Err(e) => {
                tracing::error!(error = %e, commands = requests.len(), "group commit failed");
                let failed = (0..requests.len())
                    .map(|_| Err(CommitError::Database(e.to_string())))
                    .collect();
                (failed, false, Vec::new())
            }
        };
        reads.resize(requests.len(), None);
        let committed = outcomes.iter().filter(|o| o.is_ok()).count();
        if committed > 0 {
            let label = if projected { "true" } else { "false" };
            metrics::counter!(metric_names::GROUP_COMMITS_TOTAL, "projected" => label).increment(1);
            metrics::counter!(metric_names::GROUP_COMMIT_COMMANDS_TOTAL)
                .increment(committed as u64);
            let read_backs = reads.iter().filter(|r| r.is_some()).count();
            if read_backs > 0 {
                metrics::counter!(metric_names::GROUP_COMMIT_READ_BACKS_TOTAL)
                    .increment(read_backs as u64);
            }
        }
        for ((request, outcome), read) in requests.into_iter().zip(outcomes).zip(reads) {
            let outcome = outcome.map(|at| Committed {
                at,
                projected,
                read,
            });
            // A command whose caller is gone (its request was cancelled) is committed all the
            // same, like any append whose answer is lost.
            let _ = request.reply.send(outcome);
        }
        committed > 0 && !projected
    }

    /// The transaction: every command's writes (together, or each in a savepoint), then the
    /// projections and the commands' [`ReadBack`]s, one commit. Returns each command's outcome
    /// (the position of its last event), whether the projections were applied, and what each
    /// command's read-back read (empty when the projections were not applied). Before the
    /// commit is asked, each written command's position goes to its request's `committing`.
    ///
    /// The round has no savepoint of its own (one round trip fewer on every commit): when it
    /// cannot be done here, the transaction is rolled back and the commands are appended again
    /// in a new one, without it. That is rare (see the module's notes), and nothing of the
    /// first transaction was visible to anyone.
    async fn commit_appends(&self, requests: &[Request]) -> Result<CommitAppends, sqlx::Error> {
        let appends: &[&Append] = &requests.iter().map(|r| &r.append).collect::<Vec<_>>();
        let _guard = self.target.write_guard().await;
        let (mut tx, mut outcomes) = self.append_all(appends).await?;
        if outcomes.iter().all(|o| o.is_err()) {
            tx.rollback().await?;
            return Ok((outcomes, false, Vec::new()));
        }
        let budget = budget(self.command_wait);
        // A lock the round waits for (a rebuilt projection being swapped in) fails it at the
        // budget, rather than holding the commands' commit until it is free.
        let round_and_reads = async {
            let Some(round) = self.round_in(&mut tx, budget).await? else {
                return Ok(None);
            };
            let reads = read_backs(&mut tx, appends, &outcomes).await?;
            Ok::<_, super::ProjectionError>(Some((round, reads)))
        };
        let mut reads = Vec::new();
        let round = match tokio::time::timeout(budget, round_and_reads).await {
            Ok(Ok(Some((round, read)))) => {
                reads = read;
                Some(round)
            }
            Ok(Ok(None)) => None,
            Ok(Err(e)) => {
                tracing::debug!(error = %e, "projections left to the projector's round");
                None
            }
            Err(_) => {
                // A statement of the round still running finishes before the rollback.
                tracing::warn!(
                    ?budget,
                    "the projections took longer than their budget in a commands' transaction; \
                     left to the projector's round"
                );
                None
            }
        };
        if round.is_none() {
            // What a projection applied in this transaction is undone with it.
            self.settled(false);
            tx.rollback().await?;
            (tx, outcomes) = self.append_all(appends).await?;
            if outcomes.iter().all(|o| o.is_err()) {
                tx.rollback().await?;
                return Ok((outcomes, false, Vec::new()));
            }
        }
        for (outcome, request) in outcomes.iter().zip(requests) {
            if let Ok(at) = outcome {
                let _ = request.shared.committing.set(*at);
            }
        }
        let committed = tx.commit().await;
        if round.is_some() {
            self.settled(committed.is_ok());
        }
        committed?;
        let projected = round.is_some();
        if let Some(round) = round {
            // The commit stands whatever these say; the next round publishes again.
            if let Err(e) = self.applied_all(round.parts.done).await {
                tracing::warn!(error = %e, "after a group commit");
            }
            if let Err(e) = self.publish_progress(Some(round.reached)).await {
                tracing::warn!(error = %e, "publishing progress after a group commit");
            }
        }
        Ok((outcomes, projected, reads))
    }

    /// Every command's writes in a new transaction: together, or each in a savepoint when that
    /// cannot tell them apart or fails. Returns the transaction and each command's outcome.
    async fn append_all(
        &self,
        appends: &[&Append],
    ) -> Result<(Tx, Vec<Result<Position, CommitError>>), sqlx::Error> {
        let commit_target = self.commit_target();
        let mut tx = Tx::begin(commit_target).await?;
        let outcomes = match append_together(&mut tx, appends).await {
            Ok(Some(outcomes)) => outcomes,
            Ok(None) => append_one_by_one(&mut tx, appends).await?,
            Err(e) => {
                // Rolled back before the writer's turn is given up.
                let _ = tx.rollback().await;
                if appends.len() == 1 {
                    return Err(e);
                }
                // One command's failure must not fail the others: again, each in a savepoint.
                tracing::warn!(error = %e, commands = appends.len(), "a group commit's appends failed together; appending them one by one");
                tx = Tx::begin(commit_target).await?;
                append_one_by_one(&mut tx, appends).await?
            }
        };
        Ok((tx, outcomes))
    }

    /// What a round in a group commit starts from, on PostgreSQL in one round trip
    /// ([`POSTGRES_ROUND_START`]), which also sets the round's `lock_timeout`.
    async fn round_start_postgres(
        &self,
        conn: &mut sqlx::PgConnection,
        lock_timeout: Duration,
    ) -> Result<RoundStart, super::ProjectionError> {
        let names: Vec<&str> = self.projections.iter().map(|p| p.name()).collect();
        let rows: Vec<RoundStartRow> = sqlx::query_as(POSTGRES_ROUND_START)
            .bind(names)
            .bind(self.batch)
            .bind(format!("{}ms", lock_timeout.as_millis().max(1)))
            .fetch_all(conn)
            .await?;
        Ok(self.round_start_of(rows))
    }

    /// What a round in a group commit starts from, on SQLite in one statement
    /// ([`SQLITE_ROUND_START`]): each is a hand-over to the connection's thread and back.
    async fn round_start_sqlite(
        &self,
        conn: &mut sqlx::SqliteConnection,
    ) -> Result<RoundStart, super::ProjectionError> {
        let names: Vec<&str> = self.projections.iter().map(|p| p.name()).collect();
        let names = serde_json::to_string(&names).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
        let rows: Vec<RoundStartRow> = sqlx::query_as(SQLITE_ROUND_START)
            .bind(names)
            .bind(self.batch)
            .fetch_all(conn)
            .await?;
        Ok(self.round_start_of(rows))
    }

    /// The checkpoints, stopped projections and events a round start's statement read.
    fn round_start_of(&self, rows: Vec<RoundStartRow>) -> RoundStart {
        let mut named = Vec::new();
        let mut events = Vec::new();
        for row in rows {
            match row.part {
                PART_CHECKPOINT | PART_STOPPED => named.push(super::CheckpointOrStopped {
                    checkpoint: super::NamedCheckpoint {
                        name: row.name,
                        tx_id: row.tx_id,
                        position: row.position,
                        // A checkpoint's row carries its generation in the events' column.
                        generation: row.sequence.unwrap_or_default(),
                    },
                    stopped: i64::from(row.part == PART_STOPPED),
                }),
                PART_EVENT => events.push(StoredEvent::or_unreadable(stream::EventRow {
                    tx_id: row.tx_id,
                    position: row.position,
                    aggregate_type: row.name,
                    aggregate_id: row.aggregate_id.unwrap_or_default(),
                    sequence: row.sequence.unwrap_or_default(),
                    event_type: row.event_type.unwrap_or_default(),
                    event_version: row.event_version.unwrap_or_default(),
                    payload: row.payload.unwrap_or_default(),
                    metadata: row.metadata.unwrap_or_default(),
                    recorded_at: row.recorded_at.unwrap_or_default(),
                })),
                _ => {}
            }
        }
        let generations = super::generations_of(&named);
        let (checkpoints, stopped) = self.sort_checkpoints(named);
        RoundStart {
            checkpoints,
            stopped,
            generations,
            events,
        }
    }

    /// A live round inside `tx`, after its appends: `None` (the caller undoes the transaction
    /// and appends again without it) when the round cannot be done here, see the module's notes.
    async fn round_in(
        &self,
        tx: &mut Tx,
        lock_timeout: Duration,
    ) -> Result<Option<ProjectedRound<'_>>, super::ProjectionError> {
        if self.stop_at.is_some() {
            return Ok(None);
        }
        let RoundStart {
            checkpoints,
            stopped,
            generations,
            events,
        } = match tx {
            Tx::Sqlite(c) => self.round_start_sqlite(c).await?,
            Tx::Postgres(t) => self.round_start_postgres(t, lock_timeout).await?,
            Tx::PostgresReads(c) => self.round_start_postgres(c, lock_timeout).await?,
        };
        if *self.stopped.borrow() != stopped {
            // The projector's own round publishes the change of what is stopped.
            return Ok(None);
        }
        let running = self.running(&checkpoints, &stopped);
        if running.is_empty() {
            return Ok(None);
        }
        // Nothing readable (an older transaction is open) or a backlog: the projector's own
        // rounds, which read in batches as events become readable.
        if events.is_empty() || events.len() as i64 >= self.batch {
            return Ok(None);
        }
        let behind = behind_in(&running, &events);
        let Some(parts) = self
            .apply_parts_at_once(tx, &behind, Some(&generations))
            .await?
        else {
            return Ok(None);
        };
        if !parts.moved_all {
            return Ok(None);
        }
        // The checkpoints' statement found the lease, or it is checked here.
        if !parts.fence_held && !self.fenced_in(tx, "every projection").await? {
            return Ok(None);
        }
        let reached = self.reached_after(&checkpoints, &behind);
        Ok(Some(ProjectedRound { parts, reached }))
    }
}

/// Where a round in a group commit starts: every projection's checkpoint (in the projector's
/// order), the projections stopped, and the events after the lowest running checkpoint.
struct RoundStart {
    checkpoints: Vec<Position>,
    stopped: BTreeSet<String>,
    generations: super::Generations,
    events: Vec<StoredEvent>,
}

const PART_CHECKPOINT: i32 = 0;
const PART_STOPPED: i32 = 1;
const PART_EVENT: i32 = 3;

/// A row of [`POSTGRES_ROUND_START`]: a checkpoint (its generation in `sequence`), a stopped
/// projection, the setting, or an event (whose aggregate type is in `name`).
#[derive(sqlx::FromRow)]
struct RoundStartRow {
    part: i32,
    name: String,
    tx_id: i64,
    position: i64,
    aggregate_id: Option<String>,
    sequence: Option<i64>,
    event_type: Option<String>,
    event_version: Option<String>,
    payload: Option<String>,
    metadata: Option<String>,
    recorded_at: Option<i64>,
}

/// A group commit's round starts, after the appends, with one statement: the checkpoints and
/// the stopped projections (as [`super::CHECKPOINTS_AND_STOPPED`]), the round's `lock_timeout`
/// (`$3`, for this transaction only), and the events after the lowest checkpoint of the
/// projections named in `$1` that are not stopped, at most `$2`, by the statement of
/// [`stream::postgres_read_in`]: nothing while an older transaction is open.
const POSTGRES_ROUND_START: &str = concat!(
    "with checkpoint as (
        select name, tx_id, position, generation from projection_checkpoints
    ), stopped as (
        select distinct projection as name from projection_dead_letters where status = 'stopped'
    ), lowest as (
        select coalesce(c.tx_id, 0) as tx_id, coalesce(c.position, 0) as position
          from unnest($1::text[]) as n (name) left join checkpoint c on c.name = n.name
         where n.name not in (select name from stopped)
         order by 1, 2 limit 1
    )
    select 0 as part, tx_id, position, name, cast(null as text) as aggregate_id,
           generation as sequence, cast(null as text) as event_type,
           cast(null as text) as event_version, cast(null as text) as payload,
           cast(null as text) as metadata, cast(null as bigint) as recorded_at
      from checkpoint
    union all
    select 1, 0, 0, name, null, null, null, null, null, null, null from stopped
    union all
    select 2, 0, 0, set_config('lock_timeout', $3, true), null, null, null, null, null, null, null
    union all
    select 3, e.* from (",
    stream::postgres_read_in!(
        "(select tx_id from lowest)",
        "(select position from lowest)",
        "$2"
    ),
    ") e
    order by 1, 2, 3"
);

/// [`POSTGRES_ROUND_START`] on SQLite, in the same rows: the checkpoints, the stopped
/// projections, and the events after the lowest checkpoint of the projections named in `$1` (a
/// JSON array) that are not stopped, at most `$2`, by the statement of [`stream::read_after`].
/// No events when every named projection is stopped.
const SQLITE_ROUND_START: &str = concat!(
    "with checkpoint as (
        select name, tx_id, position, generation from projection_checkpoints
    ), stopped as (
        select distinct projection as name from projection_dead_letters where status = 'stopped'
    ), lowest as (
        select coalesce(c.position, 0) as position
          from json_each($1) as n left join checkpoint c on c.name = n.value
         where n.value not in (select name from stopped)
         order by 1 limit 1
    )
    select 0 as part, tx_id, position, name, null as aggregate_id, generation as sequence,
           null as event_type, null as event_version, null as payload, null as metadata,
           null as recorded_at
      from checkpoint
    union all
    select 1, 0, 0, name, null, null, null, null, null, null, null from stopped
    union all
    select 3, e.* from (",
    stream::sqlite_read!("(select position from lowest)", "$2"),
    ") e
    order by 1, 3"
);

enum AppendError {
    Conflict,
    Database(sqlx::Error),
}

impl From<sqlx::Error> for AppendError {
    fn from(e: sqlx::Error) -> Self {
        match &e {
            sqlx::Error::Database(db) if db.is_unique_violation() => AppendError::Conflict,
            _ => AppendError::Database(e),
        }
    }
}

/// Appends of a batch that are written together at most ([`append_together`]); more go one by
/// one. Seven parameters an event on SQLite, well under its limit of 32,766.
const EVENTS_TOGETHER: usize = 1_000;

/// Every command's events in one statement that skips a sequence already taken instead of
/// failing (`on conflict do nothing`), then each command's snapshot likewise. A command whose
/// event or snapshot was skipped lost a race: what it did write is deleted again, and it is
/// answered [`CommitError::Conflict`]. No savepoint is needed, so a batch costs one round trip
/// for its events however many commands it holds.
///
/// `None`, with nothing written, when two commands of the batch change the same aggregate (the
/// returned rows would not say whose event went in) or the batch is very large: the caller
/// appends them one by one. An error leaves the transaction to be rolled back.
pub async fn append_together(
    tx: &mut Tx,
    appends: &[&Append],
) -> Result<Option<Vec<Result<Position, CommitError>>>, sqlx::Error> {
    let mut aggregates = HashSet::new();
    let mut events = 0;
    for append in appends {
        let mine: HashSet<(&str, &str)> = append
            .events
            .iter()
            .map(|e| (e.aggregate_type.as_str(), e.aggregate_id.as_str()))
            .collect();
        if mine.iter().any(|a| aggregates.contains(a)) {
            return Ok(None);
        }
        aggregates.extend(mine);
        events += append.events.len();
    }
    if events > EVENTS_TOGETHER {
        return Ok(None);
    }
    let all: Vec<&NewEvent> = appends.iter().flat_map(|a| &a.events).collect();
    let written = insert_events_skipping_taken(tx, &all).await?;
    let mut outcomes = Vec::with_capacity(appends.len());
    for append in appends {
        let mut last = None;
        let mut mine = Vec::new();
        for e in &append.events {
            if let Some(at) = written.get(&(&*e.aggregate_type, &*e.aggregate_id, e.sequence)) {
                mine.push(e);
                last = Some(*at);
            }
        }
        let complete = mine.len() == append.events.len();
        let outcome = match (complete, last) {
            (true, Some(at)) => match &append.snapshot {
                Some(snapshot) if !write_snapshot(tx, snapshot).await? => None,
                _ => Some(at),
            },
            // A command with no events is never handed over; nothing to write, nothing to answer.
            (true, None) => Some(Position::default()),
            (false, _) => None,
        };
        match outcome {
            Some(at) => outcomes.push(Ok(at)),
            None => {
                delete_events(tx, &mine).await?;
                outcomes.push(Err(CommitError::Conflict));
            }
        }
    }
    Ok(Some(outcomes))
}

/// Each command in a savepoint of its own: its conflict or failure undoes only its writes.
async fn append_one_by_one(
    tx: &mut Tx,
    appends: &[&Append],
) -> Result<Vec<Result<Position, CommitError>>, sqlx::Error> {
    let mut outcomes = Vec::with_capacity(appends.len());
    for append in appends {
        savepoint(tx, "savepoint command").await?;
        match append_in(tx, append).await {
            Ok(at) => {
                savepoint(tx, "release savepoint command").await?;
                outcomes.push(Ok(at));
            }
            Err(e) => {
                let outcome = match e {
                    AppendError::Conflict => CommitError::Conflict,
                    AppendError::Database(e) => {
                        tracing::warn!(error = %e, "a command's append failed in a group commit");
                        CommitError::Database(e.to_string())
                    }
                };
                undo_to(tx, "command").await?;
                outcomes.push(Err(outcome));
            }
        }
    }
    Ok(outcomes)
}

/// Where each event `events` wrote went, by aggregate and sequence; an event whose sequence
/// was taken (by a command committed first, or by one before it in `events`) is not written
/// and not in the map. Written in the order of `events`, so a command's events sit in the
/// global stream in the order of their sequences.
async fn insert_events_skipping_taken<'e>(
    tx: &mut Tx,
    events: &[&'e NewEvent],
) -> Result<HashMap<(&'e str, &'e str, i64), Position>, sqlx::Error> {
    let rows = match tx {
        Tx::Postgres(t) => insert_events_postgres(t, events).await?,
        Tx::PostgresReads(c) => insert_events_postgres(c, events).await?,
        Tx::Sqlite(t) => insert_events_sqlite(t, events).await?,
    };
    let named: HashMap<(&str, &str, i64), &NewEvent> = events
        .iter()
        .map(|e| ((&*e.aggregate_type, &*e.aggregate_id, e.sequence), *e))
        .collect();
    let mut written = HashMap::with_capacity(rows.len());
    for (aggregate_type, aggregate_id, sequence, tx_id, position) in rows {
        // The key borrows from `events`; a row names one of them.
        if let Some(e) = named.get(&(&*aggregate_type, &*aggregate_id, sequence)) {
            written.insert(
                (&*e.aggregate_type, &*e.aggregate_id, sequence),
                Position { tx_id, position },
            );
        }
    }
    Ok(written)
}

/// An event [`insert_events_skipping_taken`] wrote: its aggregate, sequence and position.
type WrittenRow = (String, String, i64, i64, i64);

/// One text whatever the number of events: the columns go as arrays. The JSON goes through
/// `jsonb`, as postgres-es stores a bound `serde_json::Value`.
async fn insert_events_postgres(
    conn: &mut sqlx::PgConnection,
    events: &[&NewEvent],
) -> Result<Vec<WrittenRow>, sqlx::Error> {
    let column = |f: fn(&NewEvent) -> &str| -> Vec<&str> { events.iter().map(|e| f(e)).collect() };
    let sequences: Vec<i64> = events.iter().map(|e| e.sequence).collect();
    sqlx::query_as(
        "insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata)
         select t, i, s, et, ev, p::jsonb::json, m::jsonb::json
           from unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[])
                with ordinality as e (t, i, s, et, ev, p, m, n)
          order by n
         on conflict (aggregate_type, aggregate_id, sequence) do nothing
         returning aggregate_type, aggregate_id, sequence, tx_id::text::bigint, global_position",
    )
    .bind(column(|e| &e.aggregate_type))
    .bind(column(|e| &e.aggregate_id))
    .bind(sequences)
    .bind(column(|e| &e.event_type))
    .bind(column(|e| &e.event_version))
    .bind(column(|e| &e.payload))
    .bind(column(|e| &e.metadata))
    .fetch_all(conn)
    .await
}

async fn insert_events_sqlite(
    conn: &mut sqlx::SqliteConnection,
    events: &[&NewEvent],
) -> Result<Vec<WrittenRow>, sqlx::Error> {
    let mut sql = String::from(
        "insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata) values ",
    );
    for i in 0..events.len() {
        sql.push_str(if i == 0 {
            "(?, ?, ?, ?, ?, ?, ?)"
        } else {
            ", (?, ?, ?, ?, ?, ?, ?)"
        });
    }
    sql.push_str(
        " on conflict (aggregate_type, aggregate_id, sequence) do nothing
         returning aggregate_type, aggregate_id, sequence, cast(0 as bigint), rowid",
    );
    let mut query = sqlx::query_as(&sql);
    for e in events {
        query = query
            .bind(&e.aggregate_type)
            .bind(&e.aggregate_id)
            .bind(e.sequence)
            .bind(&e.event_type)
            .bind(&e.event_version)
            .bind(&e.payload)
            .bind(&e.metadata);
    }
    query.fetch_all(conn).await
}

/// Deletes events this transaction wrote for a command that then lost its race. They were
/// never visible to anyone else.
async fn delete_events(tx: &mut Tx, events: &[&NewEvent]) -> Result<(), sqlx::Error> {
    for e in events {
        on_tx!(tx, conn => sqlx::query(
            "delete from events where aggregate_type = $1 and aggregate_id = $2 and sequence = $3")
            .bind(&e.aggregate_type).bind(&e.aggregate_id).bind(e.sequence)
            .execute(conn).await.map(|r| r.rows_affected()))?;
    }
    Ok(())
}

/// Writes a command's snapshot as cqrs-es's snapshot stores do: the first one is inserted, a
/// later one replaces the previous one only if that is still `current_snapshot - 1`. False,
/// with nothing written, when another command got there first.
async fn write_snapshot(tx: &mut Tx, snapshot: &SnapshotUpdate) -> Result<bool, sqlx::Error> {
    let json = match tx.kind() {
        DbKind::Postgres => "$5::jsonb::json",
        DbKind::Sqlite => "$5",
    };
    let written = if snapshot.current_snapshot == 1 {
        let sql = format!(
            "insert into snapshots (aggregate_type, aggregate_id, last_sequence, current_snapshot, payload)
             values ($1, $2, $3, $4, {json})
             on conflict do nothing"
        );
        on_tx!(tx, conn => sqlx::query(&sql)
            .bind(&snapshot.aggregate_type).bind(&snapshot.aggregate_id)
            .bind(snapshot.last_sequence).bind(snapshot.current_snapshot).bind(&snapshot.payload)
            .execute(conn).await.map(|r| r.rows_affected()))?
    } else {
        let sql = format!(
            "update snapshots set last_sequence = $3, current_snapshot = $4, payload = {json}
             where aggregate_type = $1 and aggregate_id = $2 and current_snapshot = $6"
        );
        on_tx!(tx, conn => sqlx::query(&sql)
            .bind(&snapshot.aggregate_type).bind(&snapshot.aggregate_id)
            .bind(snapshot.last_sequence).bind(snapshot.current_snapshot).bind(&snapshot.payload)
            .bind(snapshot.current_snapshot - 1)
            .execute(conn).await.map(|r| r.rows_affected()))?
    };
    Ok(written == 1)
}

/// The events of one command, and its snapshot, written as postgres-es and sqlite-es write
/// them (the same columns and the same stored JSON). Returns where its last event sits.
async fn append_in(tx: &mut Tx, append: &Append) -> Result<Position, AppendError> {
    let events: Vec<&NewEvent> = append.events.iter().collect();
    let written = insert_events_skipping_taken(tx, &events).await?;
    // A sequence another command took first: the caller undoes what was written.
    if written.len() != events.len() {
        return Err(AppendError::Conflict);
    }
    let last = events
        .last()
        .and_then(|e| written.get(&(&*e.aggregate_type, &*e.aggregate_id, e.sequence)))
        .copied()
        .unwrap_or_default();
    // Another command replaced the snapshot first (the events' sequences did not clash).
    if let Some(snapshot) = &append.snapshot {
        if !write_snapshot(tx, snapshot).await? {
            return Err(AppendError::Conflict);
        }
    }
    Ok(last)
}
