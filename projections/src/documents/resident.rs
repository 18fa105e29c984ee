//! The documents projection for a rebuild into an empty database.
//!
//! A live batch reads what its events touch, because the database holds what earlier batches
//! wrote. A rebuild starts from nothing and is the only writer, so one resident [`Batch`] for
//! the whole rebuild already knows every row there is: it never reads them back. Nor does it
//! write users' feed messages: the feed is the record of what was sent, which the live
//! projection keeps and a rebuild does not replace ([`Batch::keeps_feed`]). Rows no later
//! event changes (closed version rows) are written whenever they pass the memory setting; the
//! state itself (items, shares, marks, badges, links) is written once, at
//! [`Projection::finish_rebuild`], into tables whose indexes (on PostgreSQL, keys too) are
//! dropped at the start and built again at the end.
//!
//! On PostgreSQL a spill is written on a connection of its own while the events after it are
//! applied (one spill at a time: the next waits for it), so the database takes the rows on
//! one core while the projection works on the other. The final write is shared the same way:
//! the version rows on that connection, the items on the rebuild's own, the rest of the state
//! on a third. None waits for a lock another holds: they write different tables, and the
//! transaction that dropped the indexes commits before a spill of its own is waited for.
//!
//! Only for a database the rebuild owns: until the end, its checkpoint is ahead of its rows,
//! and on PostgreSQL the tables it fills are unlogged (the database is thrown away after).

use std::collections::VecDeque;

use async_trait::async_trait;
use events::documents::{ItemEvent, ITEM_TYPE};
use tokio::sync::Mutex;
use tokio::task::JoinHandle;

use super::batch::{Batch, Settled};
use super::projection::{apply_decoded, decode_batch_with, DocumentsProjection};
use crate::db::{Db, DbKind, Tx};
use crate::on_tx;
use crate::projector::{BatchFailure, Projection, ProjectionError, TableSpec};
use crate::stream::{Position, StoredEvent};

/// Events per transaction.
const REBUILD_BATCH: i64 = 10_000;

/// Where a resident rebuild is.
enum Stage {
    /// No event applied yet: the indexes are still there.
    Starting,
    /// Applying events; `indexes` holds the statements that build the dropped indexes again.
    Applying {
        batch: Box<Batch>,
        indexes: Vec<DroppedIndex>,
        /// The spill being written on a connection of its own (PostgreSQL).
        writing: Option<JoinHandle<Result<u64, ProjectionError>>>,
    },
    /// An event failed halfway: the state in memory is not to be trusted.
    Broken,
    /// Written out: later events (a rebuild that goes on) are applied batch by batch.
    Finished,
}

/// Events decoded ahead, in stream order, each boxed: the applying thread takes it as a pointer
/// rather than a copy of its 384 bytes.
type DecodedAhead = VecDeque<(Position, Box<ItemEvent>)>;

/// [`DocumentsProjection`] for a rebuild from position 0 into an empty database.
pub struct ResidentDocumentsProjection {
    stage: Mutex<Stage>,
    spill_bytes: usize,
    /// The rebuilt database, where it can take a spill beside the rebuild's own transaction
    /// (PostgreSQL; SQLite has one writer at a time, so its spills go in line).
    spill_to: Option<Db>,
    /// The next batch's events, decoded while this one is applied ([`Projection::prepare_ahead`]),
    /// in stream order. Taken by position: what is not found here is decoded when applied.
    /// `None` once written out: later batches are applied as the live projection does.
    ahead: std::sync::Mutex<Option<DecodedAhead>>,
}

impl ResidentDocumentsProjection {
    /// `target`: the database rebuilt. `spill_bytes`: how much memory the settled rows may
    /// take before they are written.
    pub fn new(target: &Db, spill_bytes: usize) -> Self {
        Self {
            stage: Mutex::new(Stage::Starting),
            spill_bytes,
            spill_to: (target.kind() == DbKind::Postgres).then(|| target.clone()),
            ahead: std::sync::Mutex::new(Some(VecDeque::new())),
        }
    }

    /// The events decoded ahead (a panic elsewhere while it was held leaves it as it was).
    fn ahead(&self) -> std::sync::MutexGuard<'_, Option<DecodedAhead>> {
        self.ahead.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `event` decoded ahead, if it was: entries before it are of batches thrown away or
    /// applied without them, and go.
    fn take_ahead(&self, event: &StoredEvent) -> Option<Box<ItemEvent>> {
        let mut held = self.ahead();
        let ahead = held.as_mut()?;
        while let Some((at, _)) = ahead.front() {
            if *at > event.at {
                return None;
            }
            let (at, item) = ahead.pop_front()?;
            if at == event.at {
                return Some(item);
            }
        }
        None
    }
}

/// Writes `settled` in a transaction of its own on `db`, in a task of its own.
fn write_beside(db: Db, settled: Settled) -> JoinHandle<Result<u64, ProjectionError>> {
    tokio::spawn(async move {
        let mut tx = Tx::begin(&db).await?;
        let writes = settled.write(&mut tx).await?;
        tx.commit().await?;
        Ok(writes)
    })
}

/// Waits for the spill being written, if any; returns the statements it ran.
async fn written(
    writing: &mut Option<JoinHandle<Result<u64, ProjectionError>>>,
) -> Result<u64, ProjectionError> {
    match writing.take() {
        None => Ok(0),
        Some(task) => task.await.map_err(|e| {
            ProjectionError::Database(sqlx::Error::Protocol(format!(
                "a rebuild's spill ended abnormally: {e}"
            )))
        })?,
    }
}

/// The tables whose secondary indexes are built at the end: the projection's (a rebuild
/// writes no feed, see [`Batch::keeps_feed`]).
fn indexed_tables() -> impl Iterator<Item = &'static str> {
    DocumentsProjection.tables().iter().map(|t| t.name)
}

/// An index dropped for the rebuild: its table and the statement that creates it again.
struct DroppedIndex {
    table: &'static str,
    create: String,
}

/// Drops the indexes of the tables and returns what makes them again. On PostgreSQL that is
/// every index, keys too: the resident batch only appends (`COPY`, no conflict clause), so a
/// key or index kept up to date row by row as the rows arrive (in no order of its own) costs
/// the database several times what building it once from the sorted rows at the end does. On
/// SQLite the keys are part of the table and back the multi-row inserts' conflict clauses:
/// only the other indexes go.
async fn drop_secondary_indexes(tx: &mut Tx) -> Result<Vec<DroppedIndex>, sqlx::Error> {
    let mut rebuild = Vec::new();
    for table in indexed_tables() {
        // (drop, create) statements, keys first: they are built again in this order.
        let found: Vec<(String, String)> = match tx.kind() {
            DbKind::Sqlite => on_tx!(tx, c => sqlx::query_as(
                "select 'drop index ' || name, sql from sqlite_master
                 where type = 'index' and tbl_name = $1
                   and sql is not null and upper(sql) not like 'CREATE UNIQUE%'")
                .bind(table).fetch_all(c).await)?,
            DbKind::Postgres => on_tx!(tx, c => sqlx::query_as(
                "select case when k.conname is null
                            then format('drop index %s', i.indexrelid::regclass)
                            else format('alter table %I drop constraint %I', $1::text, k.conname) end,
                        case when k.conname is null
                            then pg_get_indexdef(i.indexrelid)
                            else format('alter table %I add constraint %I %s',
                                        $1::text, k.conname, pg_get_constraintdef(k.oid)) end
                 from pg_index i
                 left join pg_constraint k on k.conindid = i.indexrelid
                                          and k.conrelid = i.indrelid and k.contype in ('p', 'u')
                 where i.indrelid = format('%I.%I', current_schema(), $1::text)::regclass
                 order by k.conname is null, i.indexrelid")
                .bind(table).fetch_all(c).await)?,
        };
        for (drop, create) in found {
            on_tx!(tx, c => sqlx::query(&drop).execute(c).await.map(|r| r.rows_affected()))?;
            rebuild.push(DroppedIndex { table, create });
        }
    }
    Ok(rebuild)
}

/// On PostgreSQL, takes the tables out of the write-ahead log. The database is the rebuild's,
/// thrown away once compared or swapped in: its rows need not go through the log as well as
/// into the table (the log would carry every row and every index page again). A crash of the
/// database empties an unlogged table, and a crashed rebuild starts again from the first
/// event anyway.
async fn unlog_tables(tx: &mut Tx) -> Result<(), sqlx::Error> {
    if tx.kind() != DbKind::Postgres {
        return Ok(());
    }
    for table in indexed_tables() {
        let unlogged = format!("alter table {table} set unlogged");
        on_tx!(tx, c => sqlx::query(&unlogged).execute(c).await.map(|r| r.rows_affected()))?;
    }
    Ok(())
}

/// Writes the state and builds the dropped indexes. On PostgreSQL (`beside`) the work is
/// shared by three transactions at once, about even: the version rows, most of the rows, are
/// written, indexed and analysed on a connection of their own; the items on this transaction;
/// and the rest of the state (shares, marks, badges, links) on a third (when the pool has one
/// to spare: otherwise after the items, on this one).
async fn write_out(
    tx: &mut Tx,
    batch: &mut Batch,
    indexes: Vec<DroppedIndex>,
    beside: Option<&Db>,
) -> Result<(), ProjectionError> {
    let Some(db) = beside else {
        batch.flush(tx).await?;
        let tables: Vec<&str> = indexed_tables().collect();
        return build_indexes(tx, &indexes, &tables).await;
    };
    let last = batch.take_last_rows();
    let (theirs, ours): (Vec<DroppedIndex>, Vec<DroppedIndex>) = indexes
        .into_iter()
        .partition(|i| Settled::TABLES.contains(&i.table));
    let (items_indexes, rest_indexes): (Vec<DroppedIndex>, Vec<DroppedIndex>) =
        ours.into_iter().partition(|i| i.table == ITEMS);
    let versions_db = db.clone();
    let mut writing = Some(tokio::spawn(async move {
        let mut tx = Tx::begin(&versions_db).await?;
        let writes = last.write(&mut tx).await?;
        build_indexes(&mut tx, &theirs, &Settled::TABLES).await?;
        tx.commit().await?;
        Ok(writes)
    }));
    let state: &Batch = batch;
    let ours_done = if spares_a_third_connection(db) {
        let items = async {
            let writes = state.write_resident_items(tx).await?;
            build_indexes(tx, &items_indexes, &[ITEMS]).await?;
            Ok::<_, ProjectionError>(writes)
        };
        let rest = async {
            let mut rest_tx = Tx::begin(db).await?;
            let writes = state.write_resident_rest(&mut rest_tx).await?;
            build_indexes(&mut rest_tx, &rest_indexes, &Batch::RESIDENT_REST).await?;
            rest_tx.commit().await?;
            Ok::<_, ProjectionError>(writes)
        };
        // Both run to their end, even when one fails.
        let (items_done, rest_done) = tokio::join!(items, rest);
        items_done.and_then(|i| rest_done.map(|r| i + r))
    } else {
        async {
            let mut writes = state.write_resident_items(tx).await?;
            writes += state.write_resident_rest(tx).await?;
            build_indexes(tx, &items_indexes, &[ITEMS]).await?;
            build_indexes(tx, &rest_indexes, &Batch::RESIDENT_REST).await?;
            Ok(writes)
        }
        .await
    };
    // Waited for even when ours failed: nothing is left running.
    let theirs_done = written(&mut writing).await;
    let ours_writes = ours_done?;
    batch.count_writes(ours_writes + theirs_done?);
    Ok(())
}

/// The items' table, written on the rebuild's own transaction at the end.
const ITEMS: &str = "doc_items";

/// Whether the pool of `db` has a connection for a third writer at the end, beside the
/// rebuild's transaction and the version rows' (a pool set to two would make it wait).
fn spares_a_third_connection(db: &Db) -> bool {
    match db {
        Db::Postgres { pool } => pool.options().get_max_connections() >= 3,
        _ => false,
    }
}

/// The sort memory of this transaction's index builds. With the server's default (64 MB,
/// shared by the build's parallel workers) the versions' indexes are sorted
/// through temporary files; with this they are sorted in memory. Only for the end of a
/// rebuild, three transactions at most, and given back when they commit.
const INDEX_BUILD_MEMORY: &str = "set local maintenance_work_mem = '256MB'";

/// Runs `creates`, then on PostgreSQL gathers the statistics of `tables`: the queries that
/// follow (a swap, a comparison, the live projection going on) are planned from them, and the
/// tables had none while they filled.
async fn build_indexes(
    tx: &mut Tx,
    creates: &[DroppedIndex],
    tables: &[&str],
) -> Result<(), ProjectionError> {
    if tx.kind() == DbKind::Postgres && !creates.is_empty() {
        on_tx!(tx, c => sqlx::query(INDEX_BUILD_MEMORY).execute(c).await.map(|r| r.rows_affected()))?;
    }
    for index in creates {
        on_tx!(tx, c => sqlx::query(&index.create).execute(c).await.map(|r| r.rows_affected()))?;
    }
    if tx.kind() == DbKind::Postgres {
        for table in tables {
            let columns = super::projection::analyzed_columns(table);
            on_tx!(tx, c => sqlx::query(&format!("analyze {table}{columns}"))
                .execute(c).await.map(|r| r.rows_affected()))?;
        }
    }
    Ok(())
}

fn broken() -> ProjectionError {
    ProjectionError::Database(sqlx::Error::Protocol(
        "the resident rebuild failed halfway through a batch".into(),
    ))
}

#[async_trait]
impl Projection for ResidentDocumentsProjection {
    fn name(&self) -> &'static str {
        DocumentsProjection.name()
    }

    fn tables(&self) -> &'static [TableSpec] {
        DocumentsProjection.tables()
    }

    fn on_poison(&self) -> crate::PoisonPolicy {
        DocumentsProjection.on_poison()
    }

    fn reads(&self, aggregate_type: &str) -> bool {
        DocumentsProjection.reads(aggregate_type)
    }

    /// Its rows are not read until the end: statistics gathered on the way would go unused.
    fn rebuild_reads_back(&self) -> bool {
        false
    }

    /// Once started on PostgreSQL, a round only changes the state in memory (its spills go on
    /// connections of their own), and a batch refused on a poison event was refused while
    /// decoding, before anything changed. Asked between rounds, when no round holds the stage;
    /// were it held, the answer is no, and the round has a transaction as before.
    fn rebuild_round_writes_nothing(&self) -> bool {
        self.spill_to.is_some()
            && self
                .stage
                .try_lock()
                .is_ok_and(|stage| matches!(*stage, Stage::Applying { .. }))
    }

    /// Larger transactions: a batch's size no longer bounds what it holds.
    fn rebuild_batch(&self) -> Option<i64> {
        Some(REBUILD_BATCH)
    }

    /// Decodes the batch read ahead, so that the thread applying events only applies them.
    /// An event that does not decode is left out: applied, it is decoded again and refused.
    fn prepare_ahead(&self, events: &[StoredEvent]) {
        if self.ahead().is_none() {
            return;
        }
        let mut decoded: Vec<(Position, Box<ItemEvent>)> = Vec::with_capacity(events.len());
        decoded.extend(
            events
                .iter()
                .filter(|e| e.aggregate_type == ITEM_TYPE)
                .filter_map(|e| Some((e.at, Box::new(e.decode().ok()?)))),
        );
        let mut held = self.ahead();
        // The end may have come while this batch was decoded.
        let Some(ahead) = held.as_mut() else {
            return;
        };
        // Stream order: a batch read ahead comes after whatever is still held.
        if ahead
            .back()
            .is_some_and(|(at, _)| decoded.first().is_some_and(|(first, _)| first <= at))
        {
            ahead.clear();
        }
        ahead.extend(decoded);
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> Result<(), ProjectionError> {
        self.apply_all(tx, &[event]).await.map_err(|f| f.error)
    }

    async fn apply_all(&self, tx: &mut Tx, events: &[&StoredEvent]) -> Result<(), BatchFailure> {
        let unplaced = |error| BatchFailure { index: None, error };
        let mut stage = self.stage.lock().await;
        if matches!(*stage, Stage::Finished) {
            return DocumentsProjection.apply_all(tx, events).await;
        }
        // Decoded before anything changes: a poison event leaves the state as it was.
        let decoded = decode_batch_with(events, |event| self.take_ahead(event))?;
        if matches!(*stage, Stage::Starting) {
            let batch = Batch::resident();
            let indexes = drop_secondary_indexes(tx)
                .await
                .map_err(|e| unplaced(e.into()))?;
            unlog_tables(tx).await.map_err(|e| unplaced(e.into()))?;
            *stage = Stage::Applying {
                batch: Box::new(batch),
                indexes,
                writing: None,
            };
        }
        let Stage::Applying { batch, writing, .. } = &mut *stage else {
            return Err(unplaced(broken()));
        };
        if let Err(error) = apply_decoded(tx, batch, decoded).await {
            *stage = Stage::Broken;
            return Err(unplaced(error));
        }
        // Written beside, a spill is held until written while the next one gathers: each
        // gets half the memory.
        let spill_at = match self.spill_to {
            Some(_) => self.spill_bytes / 2,
            None => self.spill_bytes,
        };
        if batch.settled_bytes() > spill_at {
            let spilled = match &self.spill_to {
                Some(db) => match written(writing).await {
                    Ok(writes) => {
                        batch.count_writes(writes);
                        *writing = Some(write_beside(db.clone(), batch.take_settled()));
                        Ok(())
                    }
                    Err(error) => Err(error),
                },
                None => batch.spill(tx).await,
            };
            if let Err(error) = spilled {
                *stage = Stage::Broken;
                return Err(unplaced(error));
            }
        }
        Ok(())
    }

    async fn finish_rebuild(&self, tx: &mut Tx) -> Result<(), ProjectionError> {
        let mut stage = self.stage.lock().await;
        *self.ahead() = None;
        match std::mem::replace(&mut *stage, Stage::Finished) {
            Stage::Starting | Stage::Finished => Ok(()),
            Stage::Broken => {
                *stage = Stage::Broken;
                Err(broken())
            }
            Stage::Applying {
                mut batch,
                indexes,
                mut writing,
            } => {
                let done = match written(&mut writing).await {
                    Ok(writes) => {
                        batch.count_writes(writes);
                        write_out(tx, &mut batch, indexes, self.spill_to.as_ref()).await
                    }
                    Err(error) => Err(error),
                };
                if done.is_err() {
                    *stage = Stage::Broken;
                }
                super::projection::count_statements(&batch);
                // Hundreds of megabytes of maps and strings: freed on a thread of their own,
                // not before the rebuild's commit.
                tokio::task::spawn_blocking(move || drop(batch));
                done
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::value::RawValue;

    use super::*;

    fn opened(position: i64, payload: &str) -> StoredEvent {
        StoredEvent {
            at: Position { tx_id: 0, position },
            aggregate_type: ITEM_TYPE.to_string(),
            aggregate_id: format!("item-{position}"),
            sequence: 1,
            event_type: "Opened".into(),
            event_version: "1".into(),
            payload: RawValue::from_string(payload.to_string()).expect("JSON"),
            metadata: RawValue::from_string("{}".into()).expect("JSON"),
            recorded_at: 0,
        }
    }

    fn by(item: Option<Box<ItemEvent>>) -> Option<String> {
        match item.map(|boxed| *boxed) {
            Some(ItemEvent::Opened { by }) => Some(by),
            Some(other) => panic!("decoded as {other:?}"),
            None => None,
        }
    }

    #[tokio::test]
    async fn events_decoded_ahead_are_taken_by_position_and_the_rest_decoded_when_applied() {
        let dir = tempfile::tempdir().expect("temporary folder");
        let url = format!("sqlite://{}", dir.path().join("t.db").display());
        let db = Db::connect(&url).await.expect("database");
        let resident = ResidentDocumentsProjection::new(&db, 1 << 20);
        let good = |n: i64| opened(n, &format!(r#"{{"Opened":{{"by":"u{n}"}}}}"#));
        let first = [good(1), opened(2, r#"{"Opened":{}}"#), good(3)];
        resident.prepare_ahead(&first);
        // Not decoded ahead: left for the applying thread, which refuses it.
        assert_eq!(by(resident.take_ahead(&first[1])), None);
        assert_eq!(by(resident.take_ahead(&first[2])), Some("u3".into()));
        // Passed by: gone, not handed to a later event.
        assert_eq!(by(resident.take_ahead(&first[0])), None);

        let second = [good(4), good(5)];
        resident.prepare_ahead(&second);
        // An event before what is held does not consume it.
        assert_eq!(by(resident.take_ahead(&good(0))), None);
        assert_eq!(by(resident.take_ahead(&second[1])), Some("u5".into()));
        assert_eq!(by(resident.take_ahead(&second[0])), None);

        // A batch read again from further back replaces what is held.
        resident.prepare_ahead(&[good(6), good(7)]);
        resident.prepare_ahead(&[good(6)]);
        assert_eq!(by(resident.take_ahead(&good(6))), Some("u6".into()));
        assert_eq!(by(resident.take_ahead(&good(7))), None);

        // Written out: nothing more is decoded ahead.
        let mut tx = Tx::begin(&db).await.expect("transaction");
        resident.finish_rebuild(&mut tx).await.expect("finished");
        resident.prepare_ahead(&[good(8)]);
        assert_eq!(by(resident.take_ahead(&good(8))), None);
    }
}
