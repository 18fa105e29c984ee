//! Commands through cqrs-es on either database, with read-your-own-write.
//!
//! Events are appended with optimistic concurrency. A conflicting append is retried against the
//! fresh state a few times, then answered 409; nothing is ever half-applied. Where the live
//! projector runs, a command's events are committed by the projector's loop, with other
//! commands' and with the projections applied to them, in one transaction (see
//! `projections::projector::group_commit`); elsewhere postgres-es or sqlite-es append them. Either
//! way the caller answers only once the projections have applied its events, so the response and
//! the next read show the change.

mod recent;

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::Arc;

use cqrs_es::persist::{
    PersistedEventRepository, PersistedEventStore, PersistenceError, ReplayStream, SerializedEvent,
    SerializedSnapshot,
};
use cqrs_es::{Aggregate, AggregateError, CqrsFramework};
use postgres_es::PostgresEventRepository;
use projections::projector::{
    settle, Append, CommitError, Committed, NewEvent, ReadBack, ReadBackRow, SnapshotUpdate,
};
use projections::stream::last_position_of;
use projections::{Db, Position, ProjectorHandle, WaitOutcome};
use serde_json::Value;
use sqlite_es::SqliteEventRepository;

use crate::error::AppError;
use recent::{Loaded, Recent};

type SqliteCqrs<A> =
    CqrsFramework<A, PersistedEventStore<CommitWithProjections<SqliteEventRepository>, A>>;
type PostgresCqrs<A> =
    CqrsFramework<A, PersistedEventStore<CommitWithProjections<PostgresEventRepository>, A>>;

enum Framework<A: Aggregate> {
    Sqlite(SqliteCqrs<A>),
    Postgres(PostgresCqrs<A>),
}

/// How many times a command is retried after losing an optimistic-concurrency race.
const CONFLICT_RETRIES: usize = 5;
/// How long a command whose commit was interrupted waits for the database to end that
/// transaction before it is answered that its outcome is not known.
const SETTLE_PATIENCE: std::time::Duration = std::time::Duration::from_secs(15);

/// Who did it and where from; stored as each event's metadata.
#[derive(Debug, Clone, Default)]
pub struct Metadata {
    pub user_id: String,
    pub user_email: Option<String>,
    pub request_id: Option<String>,
}

impl Metadata {
    pub fn by(user_id: impl Into<String>) -> Self {
        Self {
            user_id: user_id.into(),
            ..Default::default()
        }
    }

    fn into_map(self) -> HashMap<String, String> {
        let mut map = HashMap::new();
        map.insert("user_id".into(), self.user_id);
        if let Some(email) = self.user_email {
            map.insert("user_email".into(), email);
        }
        // The HTTP request that caused the events; commands run outside a request (seeding,
        // the command line) get an id of their own.
        map.insert(
            "request_id".into(),
            self.request_id
                .or_else(crate::request_context::request_id)
                .filter(|id| !id.is_empty())
                .unwrap_or_else(|| uuid::Uuid::new_v4().to_string()),
        );
        map.insert("at".into(), chrono::Utc::now().to_rfc3339());
        // A command sent with an `Idempotency-Key`: its events name the execution (see
        // `crate::idempotency`).
        if let Some(execution) = crate::request_context::execution() {
            map.insert(
                crate::request_context::IDEMPOTENCY_METADATA_ENTRY.into(),
                execution,
            );
        }
        map
    }
}

/// The command side of one aggregate type.
pub struct EventStore<A: Aggregate> {
    framework: Framework<A>,
    db: Db,
    /// None: append only, nobody to wait for (see [`EventStore::append_only`]).
    projector: Option<ProjectorHandle>,
    /// The aggregates kept between commands (snapshot stores), shared with the repository.
    recent: Option<Arc<Recent>>,
}

impl<A> EventStore<A>
where
    A: Aggregate + 'static,
    A::Command: Clone,
    A::Error: Into<AppError>,
{
    pub fn new(db: &Db, services: A::Services, projector: ProjectorHandle) -> Self {
        Self::build(db, services, Some(projector), None)
    }

    /// Like [`EventStore::new`], loading each aggregate from its latest snapshot (cqrs-es keeps
    /// one every `every` events, in the `snapshots` table) plus the events after it: a command
    /// on an aggregate with a long stream reads at most `every` events. The aggregates its
    /// commands load are kept between commands (see [`recent`]): a command on one of them
    /// reads nothing before it decides.
    pub fn with_snapshots(
        db: &Db,
        services: A::Services,
        projector: ProjectorHandle,
        every: usize,
    ) -> Self {
        Self::build(db, services, Some(projector), Some(every))
    }

    /// A store whose commands return as soon as their events are stored, without waiting for
    /// projections: for seeding at start-up (before the projector runs) and for command-line
    /// tools (the server's projector, or the next start, applies the events).
    pub fn append_only(db: &Db, services: A::Services) -> Self {
        Self::build(db, services, None, None)
    }

    fn build(
        db: &Db,
        services: A::Services,
        projector: Option<ProjectorHandle>,
        snapshot_every: Option<usize>,
    ) -> Self {
        let recent = snapshot_every.map(|_| Arc::new(Recent::default()));
        let framework = match db {
            Db::Sqlite { pool, .. } => {
                let repo = CommitWithProjections {
                    inner: SqliteEventRepository::new(pool.clone()),
                    db: db.clone(),
                    projector: projector.clone(),
                    recent: recent.clone(),
                };
                let store = match snapshot_every {
                    None => PersistedEventStore::new_event_store(repo),
                    Some(every) => PersistedEventStore::new_snapshot_store(repo, every),
                };
                Framework::Sqlite(CqrsFramework::new(store, vec![], services))
            }
            Db::Postgres { pool } => {
                let repo = CommitWithProjections {
                    inner: PostgresEventRepository::new(pool.clone()),
                    db: db.clone(),
                    projector: projector.clone(),
                    recent: recent.clone(),
                };
                let store = match snapshot_every {
                    None => PersistedEventStore::new_event_store(repo),
                    Some(every) => PersistedEventStore::new_snapshot_store(repo, every),
                };
                Framework::Postgres(CqrsFramework::new(store, vec![], services))
            }
        };
        Self {
            framework,
            db: db.clone(),
            projector,
            recent,
        }
    }

    /// Tells a store that keeps aggregates that aggregate `id` has no events: its name was just
    /// made (a new UUID), so nothing can have been stored under it. Its first command then
    /// reads nothing before it decides (and a refusal is decided again on the store, as for any
    /// kept aggregate).
    pub fn is_new(&self, id: &str) {
        if let Some(recent) = &self.recent {
            recent.keep(id, Loaded::new_aggregate(id));
        }
    }

    /// Runs `command` on aggregate `id`; returns where its last event sits in the global stream
    /// once the projections have applied it.
    pub async fn execute(
        &self,
        id: &str,
        command: A::Command,
        metadata: Metadata,
    ) -> Result<Position, AppError> {
        self.execute_reading(id, command, metadata, None)
            .await
            .map(|(position, _)| position)
    }

    /// Like [`EventStore::execute`]; where the projector's loop commits the command with the
    /// projections applied, `read_back` (the command's answer) is read in that transaction
    /// too, and returned. `None` when it was not: the caller reads its answer itself.
    pub async fn execute_reading(
        &self,
        id: &str,
        command: A::Command,
        metadata: Metadata,
        read_back: Option<ReadBack>,
    ) -> Result<(Position, Option<ReadBackRow>), AppError> {
        let metadata = metadata.into_map();
        let mut attempt = 0;
        // Whether this attempt may start from the aggregate kept in `recent`: the first may; one
        // that follows a lost race, or an answer decided on the kept aggregate, reads the store.
        let mut may_use_recent = self.recent.is_some();
        let committed = loop {
            attempt += 1;
            // The loop's answer for the append, when the projector's loop committed it.
            let (result, committed, done) = COMMITTED
                .scope(
                    Cell::new(None),
                    PRELOADED.scope(
                        RefCell::new(None),
                        ATTEMPT.scope(
                            RefCell::new(Attempt::new(may_use_recent, read_back.clone())),
                            async {
                                let result = match &self.framework {
                                    Framework::Sqlite(f) => {
                                        f.execute_with_metadata(
                                            id,
                                            command.clone(),
                                            metadata.clone(),
                                        )
                                        .await
                                    }
                                    Framework::Postgres(f) => {
                                        f.execute_with_metadata(
                                            id,
                                            command.clone(),
                                            metadata.clone(),
                                        )
                                        .await
                                    }
                                };
                                let done = ATTEMPT.with(|a| {
                                    let a = a.borrow();
                                    (a.from_recent, a.stored)
                                });
                                (result, COMMITTED.with(Cell::take), done)
                            },
                        ),
                    ),
                )
                .await;
            may_use_recent = false;
            let (from_recent, stored) = done;
            // A refusal, or nothing to record, decided on a kept aggregate that may be behind the
            // store: decided again on the store's.
            let decided_on_recent = from_recent
                && match &result {
                    Ok(()) => !stored,
                    Err(AggregateError::UserError(_)) => true,
                    Err(_) => false,
                };
            if decided_on_recent {
                continue;
            }
            match result {
                Ok(()) => break committed,
                Err(AggregateError::UserError(e)) => return Err(e.into()),
                Err(AggregateError::AggregateConflict) if attempt <= CONFLICT_RETRIES => {
                    tracing::debug!(
                        aggregate = A::TYPE,
                        id,
                        attempt,
                        "concurrent change, retrying"
                    );
                    continue;
                }
                Err(AggregateError::AggregateConflict) => {
                    return Err(AppError::Conflict(
                        "This item was changed by someone else at the same time. Try again".into(),
                    ));
                }
                Err(other) => {
                    return Err(AppError::Internal(anyhow::anyhow!(
                        "{} command failed: {other}",
                        A::TYPE
                    )));
                }
            }
        };
        let position = match committed {
            // Committed with the projections: read-your-own-write holds already, unless a
            // projection of these events is stopped (answered below, as for any command).
            Some(c) if c.projected => match &self.projector {
                Some(projector) if projector.stopped_reader_of(A::TYPE).is_none() => {
                    return Ok((c.at, c.read));
                }
                _ => c.at,
            },
            Some(c) => c.at,
            None => {
                // A command that recorded nothing leaves nothing to wait for.
                match last_position_of(&self.db, A::TYPE, id).await? {
                    Some(position) => position,
                    None => return Ok((Position::default(), None)),
                }
            }
        };
        let Some(projector) = &self.projector else {
            return Ok((position, None));
        };
        match projector
            .wait_for_command(position, Some(A::TYPE), projector.command_wait())
            .await
        {
            WaitOutcome::Reached => {}
            WaitOutcome::TimedOut => {
                tracing::warn!(
                    aggregate = A::TYPE,
                    id,
                    ?position,
                    "projections did not catch up in time"
                );
                // Never a success (or a 404) for what the lists do not show yet.
                return Err(AppError::ProjectionsBehind(BEHIND_MESSAGE.into()));
            }
            WaitOutcome::Stopped(projection) => {
                // Projection names are snake_case (`course_registrations`); the message says them
                // in words.
                return Err(AppError::ProjectionStopped(stopped_message(
                    &projection.replace('_', " "),
                )));
            }
        }
        Ok((position, None))
    }
}

tokio::task_local! {
    /// Set by [`CommitWithProjections::persist`] when the projector's loop committed the append
    /// of the command [`EventStore::execute`] is running.
    static COMMITTED: Cell<Option<Committed>>;
    /// The events after the snapshot, read with it by [`CommitWithProjections::get_snapshot`]
    /// and taken by the `get_last_events` that follows it.
    static PRELOADED: RefCell<Option<Preloaded>>;
    /// What one attempt of a command loaded, and whether it stored events.
    static ATTEMPT: RefCell<Attempt>;
}

/// One attempt of [`EventStore::execute`], as its repository saw it.
struct Attempt {
    /// It may start from the aggregate kept in [`Recent`].
    may_use_recent: bool,
    /// It did.
    from_recent: bool,
    /// The aggregate as loaded, while it is the state cqrs-es decides on: kept again, with the
    /// new events, once they are stored.
    loaded: Option<Loaded>,
    /// Its events were stored.
    stored: bool,
    /// The command's answer, read in its commit's transaction where the loop commits it.
    read_back: Option<ReadBack>,
}

impl Attempt {
    fn new(may_use_recent: bool, read_back: Option<ReadBack>) -> Self {
        Self {
            may_use_recent,
            from_recent: false,
            loaded: None,
            stored: false,
            read_back,
        }
    }
}

/// An aggregate's events after its snapshot (or all of them, with none), read in the same
/// statement as the snapshot.
struct Preloaded {
    aggregate_type: &'static str,
    aggregate_id: String,
    after: usize,
    events: Vec<SerializedEvent>,
}

/// A snapshot row (`kind` 0) and the events after it (`kind` 1), in order: one statement, so
/// one round trip and one consistent view where cqrs-es reads the snapshot and then the events.
/// (postgres-es's own read of the events puts the sequence into the text, which made a new
/// statement to prepare for every sequence.)
const SNAPSHOT_AND_EVENTS_POSTGRES: &str = "
select cast(0 as bigint) as kind, last_sequence as sequence, current_snapshot,
       cast(null as text) as event_type, cast(null as text) as event_version,
       payload::text as payload, cast(null as text) as metadata
  from snapshots where aggregate_type = $1 and aggregate_id = $2
union all
select 1, sequence, 0, event_type, event_version, payload::text, metadata::text
  from events
 where aggregate_type = $1 and aggregate_id = $2
   and sequence > coalesce((select max(last_sequence) from snapshots
                             where aggregate_type = $1 and aggregate_id = $2), 0)
order by 1, 2";

/// [`SNAPSHOT_AND_EVENTS_POSTGRES`] on SQLite (JSON is stored as text there).
const SNAPSHOT_AND_EVENTS_SQLITE: &str = "
select 0 as kind, last_sequence as sequence, current_snapshot,
       null as event_type, null as event_version, payload, null as metadata
  from snapshots where aggregate_type = $1 and aggregate_id = $2
union all
select 1, sequence, 0, event_type, event_version, payload, metadata
  from events
 where aggregate_type = $1 and aggregate_id = $2
   and sequence > coalesce((select max(last_sequence) from snapshots
                             where aggregate_type = $1 and aggregate_id = $2), 0)
order by 1, 2";

type SnapshotOrEventRow = (
    i64,
    i64,
    i64,
    Option<String>,
    Option<String>,
    String,
    Option<String>,
);

/// Reads aggregate `id`'s snapshot and the events after it in one statement.
async fn snapshot_and_events<A: Aggregate>(
    db: &Db,
    id: &str,
) -> Result<(Option<SerializedSnapshot>, Preloaded, usize), PersistenceError> {
    let rows: Vec<SnapshotOrEventRow> = match db {
        Db::Postgres { pool } => sqlx::query_as(SNAPSHOT_AND_EVENTS_POSTGRES)
            .bind(A::TYPE)
            .bind(id)
            .fetch_all(pool)
            .await
            .map_err(|e| PersistenceError::ConnectionError(Box::new(e)))?,
        Db::Sqlite { pool, .. } => sqlx::query_as(SNAPSHOT_AND_EVENTS_SQLITE)
            .bind(A::TYPE)
            .bind(id)
            .fetch_all(pool)
            .await
            .map_err(|e| PersistenceError::ConnectionError(Box::new(e)))?,
    };
    let json = |text: &str| {
        serde_json::from_str::<Value>(text)
            .map_err(|e| PersistenceError::DeserializationError(Box::new(e)))
    };
    let mut snapshot = None;
    let mut events = Vec::with_capacity(rows.len());
    let mut bytes = 0;
    for (kind, sequence, current_snapshot, event_type, event_version, payload, metadata) in rows {
        bytes += payload.len() + metadata.as_ref().map_or(0, String::len);
        if kind == 0 {
            snapshot = Some(SerializedSnapshot {
                aggregate_id: id.to_string(),
                aggregate: json(&payload)?,
                current_sequence: sequence as usize,
                current_snapshot: current_snapshot as usize,
            });
        } else {
            events.push(SerializedEvent::new(
                id.to_string(),
                sequence as usize,
                A::TYPE.to_string(),
                event_type.unwrap_or_default(),
                event_version.unwrap_or_default(),
                json(&payload)?,
                json(metadata.as_deref().unwrap_or("null"))?,
            ));
        }
    }
    let after = snapshot.as_ref().map_or(0, |s| s.current_sequence);
    let preloaded = Preloaded {
        aggregate_type: A::TYPE,
        aggregate_id: id.to_string(),
        after,
        events,
    };
    Ok((snapshot, preloaded, bytes))
}

/// A command store's repository: appends are handed to the live projector's loop, committed
/// there with other commands' and with the projections applied to them; where no loop takes
/// them (another node runs the projector, or none runs), `inner` (postgres-es's or sqlite-es's
/// repository) appends them on its own. Reads go to `inner`.
///
/// On SQLite such an append waits its turn with the server's other writers
/// ([`Db::write_guard`]). SQLite lets one connection write at a time; an append that meets
/// another writer (the projector's round, a read-then-write transaction) is otherwise refused
/// SQLITE_BUSY and left to SQLite's busy handler, which sleeps 1, 2, 5, 10 … up to 100 ms
/// between tries and can miss one free moment after another while the projector keeps writing.
/// Waiting in line for the lock instead, an append starts the moment the writer before it ends.
pub struct CommitWithProjections<R> {
    inner: R,
    /// The database `inner` writes to.
    db: Db,
    projector: Option<ProjectorHandle>,
    /// The aggregates kept between commands, if this store keeps them.
    recent: Option<Arc<Recent>>,
}

/// What the store holds at the sequences of a command whose commit was interrupted.
#[derive(Debug)]
enum StoredOutcome {
    /// Its events, named by their metadata (the request, the moment): it committed.
    Ours,
    /// Another command's: it lost the race, and is retried against the fresh state.
    Taken,
    /// Nothing: it was rolled back, and appends on its own.
    Absent,
}

impl<R: PersistedEventRepository> CommitWithProjections<R> {
    async fn stored_outcome<A: Aggregate>(
        &self,
        events: &[SerializedEvent],
    ) -> Result<StoredOutcome, PersistenceError> {
        let Some(first) = events.first() else {
            return Ok(StoredOutcome::Absent);
        };
        let stored = self
            .inner
            .get_last_events::<A>(&first.aggregate_id, first.sequence.saturating_sub(1))
            .await?;
        let outcome = match stored.iter().find(|e| e.sequence == first.sequence) {
            None => StoredOutcome::Absent,
            Some(e) if e.event_type == first.event_type && e.metadata == first.metadata => {
                StoredOutcome::Ours
            }
            Some(_) => StoredOutcome::Taken,
        };
        tracing::warn!(
            aggregate = A::TYPE,
            id = %first.aggregate_id,
            sequence = first.sequence,
            ?outcome,
            "a command's commit was interrupted; its outcome read from the store"
        );
        Ok(outcome)
    }

    /// Stores a command's events: through the projector's loop where it takes them, else
    /// through `inner`.
    async fn store_events<A: Aggregate>(
        &self,
        events: &[SerializedEvent],
        snapshot_update: Option<(String, Value, usize)>,
    ) -> Result<(), PersistenceError> {
        if let (Some(projector), Some(last)) = (&self.projector, events.last()) {
            let append = Append {
                events: events
                    .iter()
                    .map(|e| NewEvent {
                        aggregate_type: A::TYPE.to_string(),
                        aggregate_id: e.aggregate_id.clone(),
                        sequence: e.sequence as i64,
                        event_type: e.event_type.clone(),
                        event_version: e.event_version.clone(),
                        payload: e.payload.to_string(),
                        metadata: e.metadata.to_string(),
                    })
                    .collect(),
                snapshot: snapshot_update
                    .as_ref()
                    .map(|(aggregate_id, aggregate, current)| SnapshotUpdate {
                        aggregate_type: A::TYPE.to_string(),
                        aggregate_id: aggregate_id.clone(),
                        last_sequence: last.sequence as i64,
                        current_snapshot: *current as i64,
                        payload: aggregate.to_string(),
                    }),
                read_back: ATTEMPT
                    .try_with(|a| a.borrow().read_back.clone())
                    .ok()
                    .flatten(),
            };
            match projector.commit(append).await {
                Ok(committed) => {
                    // Outside `EventStore::execute` (no scope) there is nobody to tell.
                    let _ = COMMITTED.try_with(|c| c.set(Some(committed)));
                    return Ok(());
                }
                Err(CommitError::NotTaken) => {}
                Err(CommitError::Conflict) => return Err(PersistenceError::OptimisticLockError),
                Err(CommitError::Interrupted(committing)) => {
                    // The loop stopped while it held the command (its lease lost, the server
                    // stopping), or its commit failed: once the transaction is settled, the
                    // store says whether it committed.
                    let settled = settle(&self.db, committing, SETTLE_PATIENCE)
                        .await
                        .map_err(|e| PersistenceError::ConnectionError(Box::new(e)))?;
                    if !settled {
                        return Err(PersistenceError::ConnectionError(Box::new(
                            CommitError::Interrupted(committing),
                        )));
                    }
                    match self.stored_outcome::<A>(events).await? {
                        StoredOutcome::Ours => {
                            if let Some(at) = committing {
                                let committed = Committed {
                                    at,
                                    projected: false,
                                    read: None,
                                };
                                let _ = COMMITTED.try_with(|c| c.set(Some(committed)));
                            }
                            return Ok(());
                        }
                        StoredOutcome::Taken => return Err(PersistenceError::OptimisticLockError),
                        StoredOutcome::Absent => {}
                    }
                }
                Err(e) => return Err(PersistenceError::ConnectionError(Box::new(e))),
            }
        }
        let _writer = self.db.write_guard().await;
        self.inner.persist::<A>(events, snapshot_update).await
    }

    /// After a command's events are stored: the attempt stored them, and the aggregate it
    /// loaded, with them, is kept for the next command (unless the command wrote a snapshot:
    /// the next command reads that).
    fn remember(&self, events: &[SerializedEvent], snapshot: bool) {
        let Some(last) = events.last() else {
            return;
        };
        let loaded = ATTEMPT
            .try_with(|a| {
                let mut a = a.borrow_mut();
                a.stored = true;
                a.loaded.take()
            })
            .ok()
            .flatten();
        let Some(recent) = &self.recent else {
            return;
        };
        match loaded {
            // The state these events were decided on, and them: the aggregate as stored.
            Some(mut loaded)
                if !snapshot
                    && events.first().map(|e| e.sequence) == Some(loaded.sequence() + 1) =>
            {
                loaded.extend(events);
                recent.keep(&last.aggregate_id, loaded);
            }
            _ => recent.forget(&last.aggregate_id),
        }
    }
}

impl<R: PersistedEventRepository> PersistedEventRepository for CommitWithProjections<R> {
    async fn get_events<A: Aggregate>(
        &self,
        aggregate_id: &str,
    ) -> Result<Vec<SerializedEvent>, PersistenceError> {
        self.inner.get_events::<A>(aggregate_id).await
    }

    async fn get_last_events<A: Aggregate>(
        &self,
        aggregate_id: &str,
        last_sequence: usize,
    ) -> Result<Vec<SerializedEvent>, PersistenceError> {
        // Read with the snapshot just before, unless that snapshot was not used (cqrs-es reads
        // every event when it cannot decode it).
        let preloaded = PRELOADED
            .try_with(|p| {
                let mut p = p.borrow_mut();
                let matches = p.as_ref().is_some_and(|p| {
                    p.aggregate_type == A::TYPE
                        && p.aggregate_id == aggregate_id
                        && p.after == last_sequence
                });
                if matches {
                    p.take()
                } else {
                    None
                }
            })
            .ok()
            .flatten();
        if let Some(preloaded) = preloaded {
            return Ok(preloaded.events);
        }
        // cqrs-es reads the whole stream: what was loaded is not the state it decides on.
        let _ = ATTEMPT.try_with(|a| a.borrow_mut().loaded = None);
        self.inner
            .get_last_events::<A>(aggregate_id, last_sequence)
            .await
    }

    async fn get_snapshot<A: Aggregate>(
        &self,
        aggregate_id: &str,
    ) -> Result<Option<SerializedSnapshot>, PersistenceError> {
        // Inside `EventStore::execute`: the events after the snapshot come with it.
        if PRELOADED.try_with(|_| ()).is_err() {
            return self.inner.get_snapshot::<A>(aggregate_id).await;
        }
        let may_use_recent = ATTEMPT.try_with(|a| a.borrow().may_use_recent) == Ok(true);
        if let Some(recent) = self.recent.as_ref().filter(|_| may_use_recent) {
            if let Some(loaded) = recent.take(aggregate_id) {
                let snapshot = loaded.snapshot_copy();
                let preloaded = Preloaded {
                    aggregate_type: A::TYPE,
                    aggregate_id: aggregate_id.to_string(),
                    after: snapshot.as_ref().map_or(0, |s| s.current_sequence),
                    events: loaded.events.clone(),
                };
                let _ = PRELOADED.try_with(|p| *p.borrow_mut() = Some(preloaded));
                let _ = ATTEMPT.try_with(|a| {
                    let mut a = a.borrow_mut();
                    a.from_recent = true;
                    a.loaded = Some(loaded);
                });
                return Ok(snapshot);
            }
        }
        let (mut snapshot, preloaded, bytes) =
            snapshot_and_events::<A>(&self.db, aggregate_id).await?;
        if self.recent.is_some() {
            let loaded = Loaded {
                snapshot,
                events: preloaded.events.clone(),
                bytes,
            };
            snapshot = loaded.snapshot_copy();
            let _ = ATTEMPT.try_with(|a| a.borrow_mut().loaded = Some(loaded));
        }
        let _ = PRELOADED.try_with(|p| *p.borrow_mut() = Some(preloaded));
        Ok(snapshot)
    }

    async fn persist<A: Aggregate>(
        &self,
        events: &[SerializedEvent],
        snapshot_update: Option<(String, Value, usize)>,
    ) -> Result<(), PersistenceError> {
        let snapshot = snapshot_update.is_some();
        let result = self.store_events::<A>(events, snapshot_update).await;
        if result.is_ok() && !events.is_empty() {
            self.remember(events, snapshot);
        }
        result
    }

    async fn stream_events<A: Aggregate>(
        &self,
        aggregate_id: &str,
    ) -> Result<ReplayStream, PersistenceError> {
        self.inner.stream_events::<A>(aggregate_id).await
    }

    async fn stream_all_events<A: Aggregate>(&self) -> Result<ReplayStream, PersistenceError> {
        self.inner.stream_all_events::<A>().await
    }
}

/// The 503 text when a change was recorded but not projected within the wait.
pub const BEHIND_MESSAGE: &str = "Your change was recorded but is not visible yet: the server is \
     catching up. Please try again in a few seconds.";

/// The 503 text while `projection` is stopped on an event it cannot apply.
pub fn stopped_message(projection: &str) -> String {
    format!(
        "The {projection} are temporarily unavailable: an error is being repaired. Your change was \
         recorded and will show once it is fixed. Please try again later."
    )
}
