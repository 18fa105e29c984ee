//! Over 600 lines: the two engines' swaps share the catch-up, the checks and their tests.
//!
//! Putting a rebuilt projection in place of the live one (blue/green).
//!
//! A rebuild runs beside the live projector, into a database of its own (see [`crate::replay`]),
//! up to where the live projection was. [`swap_in`] then replaces the live projection's tables
//! with the rebuilt rows in one transaction of the live database:
//!
//! 1. It locks the live projection's checkpoint row. The projector writes a projection's
//!    checkpoint (compare-and-set) before it reads or writes any of its rows, so a round already
//!    past that point finishes first, and the next one waits for the swap's commit.
//! 2. It brings the rebuild up to that checkpoint (the events since the rebuild ended: a few).
//! 3. It puts the rebuilt rows in place of the live ones, then checks that every table holds as
//!    many rows as the rebuild's. On PostgreSQL the rows are streamed (`COPY`) from the
//!    rebuild's database into new tables of a schema of their own, with no index until they
//!    are in; keys, indexes and foreign keys are then made as the live tables have them, and
//!    the live tables are dropped and the new ones moved into their place (index and
//!    constraint names are per schema, so they keep the migrations' names). On SQLite, with
//!    the rebuild's file attached, the indexes that are not keys are dropped, the rows deleted
//!    and copied, and the indexes built again; readers keep the snapshot they started with.
//!
//! The checkpoint itself does not move: the rebuilt rows are at exactly the live position, so
//! the live projector carries on from there, and nothing the live projection already wrote
//! elsewhere (the users' feeds) is written twice. Readers see the old rows until the commit and
//! the new ones after; the projector, and the commands that wait on it, pause meanwhile (on
//! PostgreSQL, readers of the swapped tables wait too, for the last statements only).

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt;
use sqlx::Connection;

use crate::db::Db;
use crate::projector::{CheckpointRow, Projection, ProjectionError};
use crate::stream::Position;

/// What a swap did.
#[derive(Debug, Clone)]
pub struct SwapReport {
    pub projection: &'static str,
    /// The live checkpoint the rebuilt rows are at.
    pub at: Position,
    /// Events the rebuild applied under the lock (written since it first ended).
    pub caught_up: usize,
    /// Rows written into the live tables.
    pub rows: u64,
    /// How long the live projection's checkpoint was locked.
    pub held: Duration,
}

#[derive(Debug, thiserror::Error)]
pub enum SwapError {
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error(transparent)]
    Projection(#[from] ProjectionError),
    #[error("the rebuild and the live database are not the same engine")]
    MixedEngines,
    #[error("table {table} has no columns in the live database")]
    UnknownTable { table: String },
    #[error("table {table}: {written} rows written, the rebuild holds {rebuilt}")]
    RowCount {
        table: String,
        written: u64,
        rebuilt: u64,
    },
    #[error("table {table}: column {column:?} is not a plain name")]
    OddColumn { table: String, column: String },
    #[error("the rebuild of {projection} could not reach the live checkpoint")]
    ShortOfLive { projection: &'static str },
    #[error("the rebuild of {projection} is past the live checkpoint")]
    RebuildAhead { projection: &'static str },
}

/// Replaces the live tables of `projection` with those `rebuilder` built in `scratch` from the
/// events of `live` (see the module's comment). `rebuilder` is the instance the rebuild ran,
/// so that it goes on from where it is.
pub async fn swap_in(
    live: &Db,
    scratch: &Db,
    projection: &Arc<dyn Projection>,
    rebuilder: &Arc<dyn Projection>,
) -> Result<SwapReport, SwapError> {
    match (live, scratch) {
        (Db::Sqlite { pool, .. }, Db::Sqlite { pool: from, .. }) => {
            swap_sqlite(live, scratch, (pool, from), projection, rebuilder).await
        }
        (Db::Postgres { pool }, Db::Postgres { pool: from }) => {
            swap_postgres(live, scratch, (pool, from), projection, rebuilder).await
        }
        _ => Err(SwapError::MixedEngines),
    }
}

/// Applies the events up to `at` that the rebuild has not applied yet.
async fn catch_up(
    live: &Db,
    scratch: &Db,
    projection: &Arc<dyn Projection>,
    rebuilder: &Arc<dyn Projection>,
    at: Position,
) -> Result<usize, SwapError> {
    let rebuilt_at = crate::projector::checkpoint_of(scratch, projection.name()).await?;
    if rebuilt_at > at {
        return Err(SwapError::RebuildAhead {
            projection: projection.name(),
        });
    }
    if rebuilt_at == at {
        return Ok(0);
    }
    let projector = crate::replay::rebuild_projector(live, scratch, projection, rebuilder, at);
    let mut applied = projector.run_to_end().await?;
    // On PostgreSQL an event is read only once the older transactions of the cluster have
    // ended; the rows go in at exactly `at`, or not at all.
    for _ in 0..CATCH_UP_TRIES {
        if crate::projector::checkpoint_of(scratch, projection.name()).await? == at {
            return Ok(applied);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        applied += projector.run_to_end().await?;
    }
    Err(SwapError::ShortOfLive {
        projection: projection.name(),
    })
}

/// How often a catch-up that stopped short of the live checkpoint is tried again (20 ms apart).
const CATCH_UP_TRIES: usize = 100;

/// How often the swap stages the rebuilt tables without holding the live checkpoint, in the
/// hope that no event of the projection arrives meanwhile, before it stages them holding it.
const STAGED_TRIES: usize = 3;

/// `pools`: the live database's, and the rebuild's.
async fn swap_postgres(
    live: &Db,
    scratch: &Db,
    (pool, scratch_pool): (&sqlx::PgPool, &sqlx::PgPool),
    projection: &Arc<dyn Projection>,
    rebuilder: &Arc<dyn Projection>,
) -> Result<SwapReport, SwapError> {
    let name = projection.name();
    // First without the lock: the rebuild brought to the live checkpoint, its tables staged,
    // then the checkpoint locked. If it has not moved meanwhile, the staged tables are the
    // live projection at that point and are moved into place at once.
    for _ in 0..STAGED_TRIES {
        let at = crate::projector::checkpoint_of(live, name).await?;
        let caught_up = catch_up(live, scratch, projection, rebuilder, at).await?;
        let mut tx = pool.begin().await?;
        let staged = stage(&mut tx, scratch_pool, projection).await;
        let staged = match staged {
            Ok(staged) => {
                tx.commit().await?;
                staged
            }
            Err(e) => {
                tx.rollback().await.ok();
                return Err(e);
            }
        };
        let mut tx = pool.begin().await?;
        let started = Instant::now();
        let now_at = lock_checkpoint(&mut tx, name).await?;
        if now_at == at {
            let moved = async {
                move_in(&mut tx, &staged, projection.tables()).await?;
                touch(&mut tx, name).await
            }
            .await;
            let finished = match moved {
                Ok(()) => tx.commit().await.map_err(SwapError::from),
                Err(e) => {
                    tx.rollback().await.ok();
                    Err(e)
                }
            };
            // Whatever failed, the staged tables are not left behind.
            if let Err(e) = finished {
                drop_staging(pool, &staged.schema).await;
                return Err(e);
            }
            return Ok(SwapReport {
                projection: name,
                at,
                caught_up,
                rows: staged.rows,
                held: started.elapsed(),
            });
        }
        tx.rollback().await?;
        drop_staging(pool, &staged.schema).await;
    }
    // The projection kept moving: staged while holding the checkpoint.
    let mut tx = pool.begin().await?;
    let started = Instant::now();
    let at = lock_checkpoint(&mut tx, name).await?;
    let caught_up = catch_up(live, scratch, projection, rebuilder, at).await?;
    let staged = stage(&mut tx, scratch_pool, projection).await?;
    move_in(&mut tx, &staged, projection.tables()).await?;
    touch(&mut tx, name).await?;
    tx.commit().await?;
    Ok(SwapReport {
        projection: name,
        at,
        caught_up,
        rows: staged.rows,
        held: started.elapsed(),
    })
}

/// Locks the live checkpoint row of `name` until the transaction ends and reads it.
async fn lock_checkpoint(c: &mut sqlx::PgConnection, name: &str) -> Result<Position, SwapError> {
    let row: Option<CheckpointRow> = sqlx::query_as(
        "select tx_id, position from projection_checkpoints where name = $1 for update",
    )
    .bind(name)
    .fetch_optional(&mut *c)
    .await?;
    Ok(Position::from(row))
}

async fn touch(c: &mut sqlx::PgConnection, name: &str) -> Result<(), SwapError> {
    sqlx::query(TOUCH_CHECKPOINT)
        .bind(crate::now_ms())
        .bind(name)
        .execute(&mut *c)
        .await?;
    Ok(())
}

/// Removes a staging schema left by a swap that did not go through.
async fn drop_staging(pool: &sqlx::PgPool, schema: &str) {
    if let Err(e) = sqlx::query(&format!("drop schema if exists {schema} cascade"))
        .execute(pool)
        .await
    {
        tracing::warn!(schema, error = %e, "a swap's staging schema was not removed");
    }
}

/// Rebuilt tables written into a schema of their own.
struct Staged {
    schema: String,
    live_schema: String,
    rows: u64,
}

/// Writes the rebuilt tables of `projection` into new tables of a new schema, with the keys,
/// indexes and foreign keys of the live ones.
async fn stage(
    c: &mut sqlx::PgConnection,
    scratch_pool: &sqlx::PgPool,
    projection: &Arc<dyn Projection>,
) -> Result<Staged, SwapError> {
    let name = projection.name();
    let mut source = scratch_pool.acquire().await?;
    let tables = projection.tables();
    let live_schema: String = sqlx::query_scalar("select current_schema()::text")
        .fetch_one(&mut *c)
        .await?;
    // The rebuilt tables are written into new tables of a schema of their own, with no
    // index until their rows are in (an index built at once from sorted rows costs a fraction
    // of one kept up row by row). Readers keep reading the live tables meanwhile; those are
    // dropped and the new ones moved into their place only at the end. Index and constraint
    // names are per schema, so the moved tables keep the names the migrations gave.
    let staging = staging_schema(name);
    let live_schema = quote_ident(&live_schema);
    sqlx::query(&format!("create schema {staging}"))
        .execute(&mut *c)
        .await?;
    let mut rows = 0;
    for table in tables {
        let identity: i64 = sqlx::query_scalar(
            "select count(*) from information_schema.columns
             where table_schema = current_schema() and table_name = $1 and is_identity = 'YES'",
        )
        .bind(table.name)
        .fetch_one(&mut *c)
        .await?;
        if identity > 0 {
            return Err(SwapError::OddColumn {
                table: table.name.into(),
                column: "an identity column (its sequence would not follow the rows)".into(),
            });
        }
        let columns: Vec<String> = sqlx::query_scalar(
            "select quote_ident(column_name::text) from information_schema.columns
             where table_schema = current_schema() and table_name = $1
               and is_generated = 'NEVER'
             order by ordinal_position",
        )
        .bind(table.name)
        .fetch_all(&mut *c)
        .await?;
        if columns.is_empty() {
            return Err(SwapError::UnknownTable {
                table: table.name.into(),
            });
        }
        let columns = columns.join(", ");
        // Columns, defaults, not-null and check constraints; keys and indexes come after.
        sqlx::query(&format!(
            "create table {staging}.{t} (like {live_schema}.{t} including defaults \
             including constraints including generated including storage)",
            t = table.name
        ))
        .execute(&mut *c)
        .await?;
        // The rebuild's side first: a refusal there leaves no copy open on the live side.
        let mut rebuilt = source
            .copy_out_raw(&format!("copy {} ({columns}) to stdout", table.name))
            .await?;
        let mut sink = c
            .copy_in_raw(&format!(
                "copy {staging}.{} ({columns}) from stdin",
                table.name
            ))
            .await?;
        let mut failed = None;
        while let Some(chunk) = rebuilt.next().await {
            match chunk {
                Ok(chunk) => {
                    if let Err(e) = sink.send(chunk).await {
                        failed = Some(e);
                        break;
                    }
                }
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            }
        }
        drop(rebuilt);
        if let Some(e) = failed {
            sink.abort("the rebuilt rows could not be read").await.ok();
            return Err(e.into());
        }
        rows += sink.finish().await?;
    }
    // Keys and indexes as the live tables have them, by the same names. Their definitions are
    // read first, as seen from the live schema; they are made with the staging schema looked in
    // first, so that a foreign key naming another swapped table points at its new copy.
    let mut definitions = Vec::with_capacity(tables.len());
    for table in tables {
        let constraints: Vec<(String, String)> = sqlx::query_as(
            "select conname::text, pg_get_constraintdef(c.oid)
             from pg_constraint c
             where conrelid = format('%I.%I', current_schema(), $1::text)::regclass
               and contype in ('p', 'u', 'f', 'x')
             order by contype = 'f', conname",
        )
        .bind(table.name)
        .fetch_all(&mut *c)
        .await?;
        let indexes: Vec<String> = sqlx::query_scalar(
            "select pg_get_indexdef(i.indexrelid)
             from pg_index i
             where i.indrelid = format('%I.%I', current_schema(), $1::text)::regclass
               and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)",
        )
        .bind(table.name)
        .fetch_all(&mut *c)
        .await?;
        definitions.push((table, constraints, indexes));
    }
    sqlx::query("select set_config('search_path', $1, true)")
        .bind(format!("{staging}, {live_schema}"))
        .execute(&mut *c)
        .await?;
    for (table, constraints, indexes) in &definitions {
        for (constraint, definition) in constraints {
            sqlx::query(&format!(
                "alter table {staging}.{} add constraint {} {definition}",
                table.name,
                quote_ident(constraint)
            ))
            .execute(&mut *c)
            .await?;
        }
        for index in indexes {
            let qualified = format!(" ON {live_schema}.{} ", table.name);
            let moved = index.replacen(&qualified, &format!(" ON {staging}.{} ", table.name), 1);
            if moved == *index {
                return Err(SwapError::UnknownTable {
                    table: format!("{} (index {index})", table.name),
                });
            }
            sqlx::query(&moved).execute(&mut *c).await?;
        }
        let columns = projection.analyzed_columns(table.name);
        sqlx::query(&format!("analyze {staging}.{}{columns}", table.name))
            .execute(&mut *c)
            .await?;
    }
    sqlx::query("select set_config('search_path', $1, true)")
        .bind(&live_schema)
        .execute(&mut *c)
        .await?;
    for table in tables {
        let count = format!("select count(*) from {}", table.name);
        let written: i64 =
            sqlx::query_scalar(&format!("select count(*) from {staging}.{}", table.name))
                .fetch_one(&mut *c)
                .await?;
        let rebuilt: i64 = sqlx::query_scalar(&count).fetch_one(&mut *source).await?;
        if written != rebuilt {
            return Err(SwapError::RowCount {
                table: table.name.into(),
                written: written as u64,
                rebuilt: rebuilt as u64,
            });
        }
    }
    Ok(Staged {
        schema: staging,
        live_schema,
        rows,
    })
}

/// Drops the live tables and moves the staged ones into their place.
async fn move_in(
    c: &mut sqlx::PgConnection,
    staged: &Staged,
    tables: &[crate::projector::TableSpec],
) -> Result<(), SwapError> {
    let (staging, live_schema) = (&staged.schema, &staged.live_schema);
    // The swap itself: children before parents (a table another one still references cannot
    // go; a reference from outside the projection refuses the swap).
    for table in tables.iter().rev() {
        sqlx::query(&format!("drop table {live_schema}.{}", table.name))
            .execute(&mut *c)
            .await?;
    }
    for table in tables {
        sqlx::query(&format!(
            "alter table {staging}.{} set schema {live_schema}",
            table.name
        ))
        .execute(&mut *c)
        .await?;
    }
    sqlx::query(&format!("drop schema {staging}"))
        .execute(&mut *c)
        .await?;
    Ok(())
}

/// `pools`: the live database's, and the rebuild's.
async fn swap_sqlite(
    live: &Db,
    scratch: &Db,
    (pool, scratch_pool): (&sqlx::SqlitePool, &sqlx::SqlitePool),
    projection: &Arc<dyn Projection>,
    rebuilder: &Arc<dyn Projection>,
) -> Result<SwapReport, SwapError> {
    let file: String =
        sqlx::query_scalar("select file from pragma_database_list where name = 'main'")
            .fetch_one(scratch_pool)
            .await?;
    let name = projection.name();
    // In this process the projector's rounds take the same turn; another process's wait in
    // SQLite's busy handler.
    let _writer = live.write_guard().await;
    let mut conn = pool.acquire().await?;
    sqlx::query("attach database $1 as rebuilt")
        .bind(&file)
        .execute(&mut *conn)
        .await?;
    let swapped = async {
        let mut tx = conn.begin().await?;
        let started = Instant::now();
        // A write first: the transaction holds SQLite's write lock before it reads anything.
        sqlx::query(TOUCH_CHECKPOINT)
            .bind(crate::now_ms())
            .bind(name)
            .execute(&mut *tx)
            .await?;
        let row: Option<CheckpointRow> =
            sqlx::query_as("select tx_id, position from projection_checkpoints where name = $1")
                .bind(name)
                .fetch_optional(&mut *tx)
                .await?;
        let at = Position::from(row);
        let caught_up = catch_up(live, scratch, projection, rebuilder, at).await?;
        let tables = projection.tables();
        // Per table: its columns, and its key's columns in key order.
        let mut columns_of = Vec::with_capacity(tables.len());
        for table in tables {
            // `table_xinfo` names computed columns too (hidden 2 and 3): computed again.
            let found: Vec<(String, i64, i64)> = sqlx::query_as(
                "select name, hidden, pk from pragma_table_xinfo($1, 'main') order by cid",
            )
            .bind(table.name)
            .fetch_all(&mut *tx)
            .await?;
            let columns: Vec<&str> = found
                .iter()
                .filter(|(_, hidden, _)| *hidden == 0)
                .map(|(name, _, _)| name.as_str())
                .collect();
            // Written bare: SQLite reads a double-quoted name that the other table lacks as a
            // string, which would fill the column with its own name instead of failing.
            if let Some(odd) = columns.iter().find(|c| !plain_identifier(c)) {
                return Err(SwapError::OddColumn {
                    table: table.name.into(),
                    column: odd.to_string(),
                });
            }
            if columns.is_empty() {
                return Err(SwapError::UnknownTable {
                    table: table.name.into(),
                });
            }
            let mut key: Vec<(i64, &str)> = found
                .iter()
                .filter(|(_, _, pk)| *pk > 0)
                .map(|(name, _, pk)| (*pk, name.as_str()))
                .collect();
            key.sort_unstable();
            let key: Vec<&str> = key.into_iter().map(|(_, name)| name).collect();
            columns_of.push((columns.join(", "), key.join(", ")));
        }
        // The indexes that are not keys go while the rows are written, and are built again
        // after, at once from the rows (readers keep the snapshot they started with).
        let mut indexes = Vec::new();
        for table in tables {
            let found: Vec<(String, String)> = sqlx::query_as(
                "select name, sql from main.sqlite_master
                 where type = 'index' and tbl_name = $1 and sql is not null",
            )
            .bind(table.name)
            .fetch_all(&mut *tx)
            .await?;
            for (index, create) in found {
                sqlx::query(&format!(
                    "drop index main.\"{}\"",
                    index.replace('"', "\"\"")
                ))
                .execute(&mut *tx)
                .await?;
                indexes.push(create);
            }
        }
        // Children before parents, so that no cascade reaches rows already written.
        for table in tables.iter().rev() {
            sqlx::query(&format!("delete from main.{}", table.name))
                .execute(&mut *tx)
                .await?;
        }
        let mut rows = 0;
        for (table, (columns, key)) in tables.iter().zip(&columns_of) {
            // In key order, each row lands after the last one in the key's index instead of
            // somewhere in the middle of it.
            let order = if key.is_empty() {
                String::new()
            } else {
                format!(" order by {key}")
            };
            rows += sqlx::query(&format!(
                "insert into main.{t} ({columns}) select {columns} from rebuilt.{t}{order}",
                t = table.name
            ))
            .execute(&mut *tx)
            .await?
            .rows_affected();
        }
        for create in &indexes {
            sqlx::query(create).execute(&mut *tx).await?;
        }
        for table in tables {
            let (written, rebuilt): (i64, i64) = sqlx::query_as(&format!(
                "select (select count(*) from main.{t}), (select count(*) from rebuilt.{t})",
                t = table.name
            ))
            .fetch_one(&mut *tx)
            .await?;
            if written != rebuilt {
                return Err(SwapError::RowCount {
                    table: table.name.into(),
                    written: written as u64,
                    rebuilt: rebuilt as u64,
                });
            }
        }
        tx.commit().await?;
        Ok(SwapReport {
            projection: name,
            at,
            caught_up,
            rows,
            held: started.elapsed(),
        })
    }
    .await;
    // A connection that could not let go of the rebuild's file is not given back to the pool.
    if sqlx::query("detach database rebuilt")
        .execute(&mut *conn)
        .await
        .is_err()
    {
        conn.close_on_drop();
    }
    swapped
}

/// The schema a swap writes its new tables into: the projection's name and the time, short
/// enough for PostgreSQL's 63-byte names.
fn staging_schema(projection: &str) -> String {
    let clean: String = projection
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .take(24)
        .collect();
    format!("swap_{}_{}", clean.to_ascii_lowercase(), crate::now_ms())
}

/// `name` as a PostgreSQL identifier, quoted when it is not a plain lower-case one.
fn quote_ident(name: &str) -> String {
    if plain_identifier(name) && !name.chars().any(|c| c.is_ascii_uppercase()) {
        name.to_string()
    } else {
        format!("\"{}\"", name.replace('"', "\"\""))
    }
}

/// Letters, digits and underscores, not starting with a digit.
fn plain_identifier(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Marks the checkpoint row as written by the swap, its position unchanged (on SQLite the
/// write that takes the lock), and moves its generation: the rows are not those a live
/// projection may have kept in memory ([`crate::projector::CheckpointState`]).
const TOUCH_CHECKPOINT: &str =
    "update projection_checkpoints set updated_at = $1, generation = generation + 1 where name = $2";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::Tx;
    use crate::projector::TableSpec;
    use crate::stream::StoredEvent;

    /// Owns `terms_acceptances` and writes nothing: its rebuild is an empty table.
    struct Empty;

    #[async_trait::async_trait]
    impl Projection for Empty {
        fn name(&self) -> &'static str {
            "empty"
        }
        fn tables(&self) -> &'static [TableSpec] {
            &[TableSpec {
                name: "terms_acceptances",
                order_by: "user_id, version",
            }]
        }
        async fn apply(&self, _tx: &mut Tx, _event: &StoredEvent) -> Result<(), ProjectionError> {
            Ok(())
        }
    }

    async fn count(db: &Db) -> i64 {
        crate::on_db!(db, pool => sqlx::query_scalar("select count(*) from terms_acceptances")
            .fetch_one(pool).await)
        .unwrap()
    }

    #[tokio::test]
    async fn sqlite_swaps_the_rows_in_and_refuses_a_live_table_of_another_shape() {
        let dir = tempfile::tempdir().unwrap();
        let url = |name: &str| format!("sqlite://{}", dir.path().join(name).display());
        let live = Db::connect(&url("live.db")).await.unwrap();
        let scratch = Db::connect_scratch(&url("scratch.db")).await.unwrap();
        let Db::Sqlite { pool, .. } = &live else {
            unreachable!("SQLite")
        };
        sqlx::query(
            "insert into terms_acceptances (user_id, version, accepted_at) values ('u', '1', 5)",
        )
        .execute(pool)
        .await
        .unwrap();
        sqlx::query(
            "insert into projection_checkpoints (name, tx_id, position, updated_at)
             values ('empty', 0, 0, 0)",
        )
        .execute(pool)
        .await
        .unwrap();
        let projection: Arc<dyn Projection> = Arc::new(Empty);
        let report = swap_in(&live, &scratch, &projection, &projection)
            .await
            .unwrap();
        assert_eq!((report.rows, report.caught_up), (0, 0));
        assert_eq!(count(&live).await, 0, "the rebuilt table is empty");
        // The rows are new: a live projection keeping rows from before must not use them.
        let generation: i64 =
            sqlx::query_scalar("select generation from projection_checkpoints where name = $1")
                .bind(projection.name())
                .fetch_one(pool)
                .await
                .unwrap();
        assert_eq!(generation, 1, "the swap moves the checkpoint's generation");

        sqlx::query(
            "insert into terms_acceptances (user_id, version, accepted_at) values ('u', '1', 5)",
        )
        .execute(pool)
        .await
        .unwrap();
        sqlx::query("alter table terms_acceptances add column note text not null default 'x'")
            .execute(pool)
            .await
            .unwrap();
        let refused = swap_in(&live, &scratch, &projection, &projection).await;
        let error = refused
            .expect_err("the rebuilt table has no `note`")
            .to_string();
        assert!(error.contains("note"), "{error}");
        assert_eq!(count(&live).await, 1, "nothing swapped");
    }

    #[test]
    fn only_plain_column_names_are_written_bare() {
        for plain in ["user_id", "a", "_x9"] {
            assert!(plain_identifier(plain), "{plain}");
        }
        for odd in ["", "9a", "a b", "a\"b", "é", "a;drop"] {
            assert!(!plain_identifier(odd), "{odd}");
        }
    }
}
