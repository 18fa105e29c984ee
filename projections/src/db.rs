//! One handle over the two supported databases.
//!
//! SQL in this project is written once, in a dialect both engines accept (`$1` placeholders,
//! `bigint` milliseconds for times, text for JSON), and run through [`on_db!`], which expands the
//! same code for the SQLite pool and for the PostgreSQL pool.

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{PgPool, SqlitePool};
use tokio::sync::{Mutex, MutexGuard};

mod wal_checkpoints;
pub use wal_checkpoints::{WalCheckpoints, CHECKPOINTS_TOTAL as WAL_CHECKPOINTS_TOTAL};

/// Runs the same block against whichever pool the [`Db`] holds.
///
/// ```ignore
/// let n: i64 = on_db!(&db, pool => sqlx::query_scalar("select count(*) from users").fetch_one(pool).await)?;
/// ```
#[macro_export]
macro_rules! on_db {
    ($db:expr, $pool:ident => $body:expr) => {
        match $db {
            $crate::db::Db::Sqlite { pool: $pool, .. } => $body,
            $crate::db::Db::Postgres { pool: $pool } => $body,
        }
    };
}

/// Statements the group commit's own SQLite connection keeps prepared (sqlx keeps 100): a live
/// batch's writes go as one text of statements (`documents::out`), one text for each mix of
/// tables and rows a batch has, and one prepared again at every batch would cost more than the
/// hand-over it saves. Some hundred bytes to a few KiB each.
const DEDICATED_SQLITE_STATEMENTS: usize = 1_024;

/// The page cache of a SQLite connection of its own ([`Db::dedicated`]), as `cache_size`
/// counts it: negative, in KiB.
const DEDICATED_SQLITE_CACHE_KIB: i64 = -16 * 1024;

/// Where the SQLite connection of its own keeps its temporary data, as `temp_store` names it:
/// in memory. A group commit's multi-row statements change more pages than a statement journal
/// keeps in memory by default (64 KiB), and past that SQLite creates, writes and deletes a file
/// for it: about one file a commit. What it holds is bounded by the batch's statements.
const DEDICATED_SQLITE_TEMP_STORE: &str = "memory";

/// Which engine a [`Db`] talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DbKind {
    Sqlite,
    Postgres,
}

/// Whether a database's commits must survive a crash (see [`Db::connect_scratch`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Durability {
    Durable,
    Scratch,
}

/// A connection pool to SQLite or PostgreSQL.
#[derive(Clone, Debug)]
pub enum Db {
    Sqlite {
        pool: SqlitePool,
        /// SQLite allows one writer at a time; transactions that read before they write take
        /// this lock first so they never fail with SQLITE_BUSY on upgrade.
        write_lock: Arc<Mutex<()>>,
        /// A durable database's log checkpoints, off the commits' path (see
        /// [`WalCheckpoints`]); `None` for a scratch database, which has no log.
        wal_checkpoints: Option<Arc<WalCheckpoints>>,
        /// The pools of one connection made by [`Db::dedicated`], closed with this one.
        dedicated: Arc<std::sync::Mutex<Vec<SqlitePool>>>,
    },
    Postgres {
        pool: PgPool,
    },
}

/// Held while a write transaction runs; a no-op on PostgreSQL.
pub struct WriteGuard<'a>(#[allow(dead_code)] Option<MutexGuard<'a, ()>>);

/// Rows a background purge deletes per statement with [`Db::delete_in_batches`].
pub const DELETE_BATCH_ROWS: u64 = 1_000;

/// A value bound to a placeholder of [`Db::delete_in_batches`]'s condition.
#[derive(Clone, Copy, Debug)]
pub enum Bound<'a> {
    Int(i64),
    Text(&'a str),
}

/// What [`Db::delete_in_batches`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Deleted {
    pub rows: u64,
    /// Statements run, each its own transaction (the last one deleted fewer than a batch).
    pub statements: usize,
}

/// The PostgreSQL pool's size unless the server says otherwise (`DATABASE_POOL_SIZE`).
pub const POSTGRES_POOL_SIZE: u32 = 32;

/// Statements whose text grows with their rows (`in (…)` lists, multi-row inserts) stay
/// prepared on their connection up to this many rows, the size of a live round: on PostgreSQL a
/// prepared statement runs in one round trip, where one prepared for a single use takes two
/// (prepare, then run). There is one text per size, so few are kept; a larger statement (a
/// rebuild's, up to thousands of parameters) is prepared for its one use and dropped.
pub const PREPARED_UP_TO_ROWS: usize = 4;

/// Whether a statement of `rows` rows (or listed values) stays prepared; see
/// [`PREPARED_UP_TO_ROWS`].
pub fn keep_prepared(rows: usize) -> bool {
    rows <= PREPARED_UP_TO_ROWS
}

/// Prepared statements each connection keeps (sqlx's default is 100): the server's own
/// statements plus the small sizes of the statements above.
const STATEMENT_CACHE: usize = 250;

/// A PostgreSQL connection back in the pool for less than this is handed out without a ping:
/// the pool pinged it when it came back, and a request's statements each take a connection, so
/// a ping on every take was a second round trip for each of them. One idle for longer is
/// pinged first, so a restarted server still costs no failed request (HikariCP's bypass window).
pub const PING_IF_IDLE_FOR: Duration = Duration::from_millis(500);

/// A PostgreSQL pool's options with the ping of [`PING_IF_IDLE_FOR`]: every pool of the server
/// starts from these.
pub fn postgres_pool_options() -> PgPoolOptions {
    PgPoolOptions::new()
        .test_before_acquire(false)
        .before_acquire(|conn, meta| {
            Box::pin(async move {
                if meta.idle_for >= PING_IF_IDLE_FOR {
                    sqlx::Connection::ping(conn).await?;
                }
                Ok(true)
            })
        })
}

/// The server's PostgreSQL pools of `max_connections`: a connection is recycled after a minute
/// idle and after five minutes in any case, giving back the buffers a large message grew (see
/// `Db::connect_with`).
fn server_pool_options(max_connections: u32) -> PgPoolOptions {
    postgres_pool_options()
        .max_connections(max_connections)
        .acquire_timeout(Duration::from_secs(10))
        .idle_timeout(Duration::from_secs(60))
        .max_lifetime(Duration::from_secs(300))
}

static SQLITE_MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("migrations/sqlite");
static POSTGRES_MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("migrations/postgres");

impl Db {
    /// Connects to `url` (`sqlite://path` or `postgres://...`) and applies the migrations, with
    /// up to [`POSTGRES_POOL_SIZE`] connections on PostgreSQL.
    pub async fn connect(url: &str) -> Result<Db, sqlx::Error> {
        Self::connect_sized(url, POSTGRES_POOL_SIZE).await
    }

    /// Like [`Db::connect`], with at most `postgres_pool_size` connections on PostgreSQL (a
    /// server's setting: PostgreSQL serves a limited number in all, shared by every node).
    pub async fn connect_sized(url: &str, postgres_pool_size: u32) -> Result<Db, sqlx::Error> {
        Self::connect_with(url, postgres_pool_size, Durability::Durable).await
    }

    /// Connects to a database a rebuild owns from start to end and that nothing else writes
    /// (`companion replay`'s fresh database): nothing in it is worth an `fsync`, and a crash
    /// means starting the rebuild again. On SQLite, no write-ahead log (a new page is written
    /// once, not to the log and then again at the checkpoint) and no `fsync`; a rollback
    /// journal is kept, so a failed savepoint can still be undone. On PostgreSQL, a commit
    /// does not wait for its WAL to reach the disk.
    pub async fn connect_scratch(url: &str) -> Result<Db, sqlx::Error> {
        Self::connect_scratch_with_pool(url, POSTGRES_POOL_SIZE).await
    }

    /// Like [`Db::connect_scratch`], with at most `pool_size` connections on PostgreSQL (a
    /// rebuild beside a server takes no more than the server's own pool).
    pub async fn connect_scratch_with_pool(url: &str, pool_size: u32) -> Result<Db, sqlx::Error> {
        Self::connect_with(url, pool_size, Durability::Scratch).await
    }

    async fn connect_with(
        url: &str,
        postgres_pool_size: u32,
        durability: Durability,
    ) -> Result<Db, sqlx::Error> {
        let db = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            // A node frozen inside a transaction (a stuck VM) must not hold its row and
            // advisory locks for ever: PostgreSQL ends such a session after a while.
            let mut options = PgConnectOptions::from_str(url)?
                .options([("idle_in_transaction_session_timeout", "10s")])
                .statement_cache_capacity(STATEMENT_CACHE);
            if durability == Durability::Scratch {
                options = options.options([("synchronous_commit", "off")]);
            }
            // A connection keeps send and receive buffers as large as the largest message it
            // ever carried (a projector's multi-row write, a seed): recycling connections after
            // a few idle minutes, and every connection after a while, gives that memory back
            // instead of holding it in up to 32 connections for the pool's life.
            let pool = server_pool_options(postgres_pool_size.max(2))
                .connect_with(options)
                .await?;
            Db::Postgres { pool }
        } else {
            let (journal, synchronous) = match durability {
                Durability::Durable => (SqliteJournalMode::Wal, SqliteSynchronous::Normal),
                // A journal in a file rather than in memory: a rebuild's batches rewrite
                // pages all over the feed's key, and the journal would hold each of them.
                Durability::Scratch => (SqliteJournalMode::Truncate, SqliteSynchronous::Off),
            };
            let mut options = SqliteConnectOptions::from_str(url)?
                .create_if_missing(true)
                .journal_mode(journal)
                .synchronous(synchronous)
                .busy_timeout(Duration::from_secs(10))
                .foreign_keys(true)
                .statement_cache_capacity(STATEMENT_CACHE);
            if durability == Durability::Durable {
                // The log is checkpointed by a connection of its own, not by the commit that
                // fills it; commits do it only if that falls behind.
                options = options.pragma(
                    "wal_autocheckpoint",
                    wal_checkpoints::FALLBACK_PAGES.to_string(),
                );
            }
            if durability == Durability::Scratch {
                // A rebuild builds its indexes at the end: SQLite may sort them on the other
                // core too.
                options = options.pragma("threads", "2");
            }
            // A file in this process has no server to lose: no ping before each use (it is a
            // round trip to the connection's thread).
            let pool = SqlitePoolOptions::new()
                .max_connections(8)
                .test_before_acquire(false)
                .connect_with(options.clone())
                .await?;
            let wal_checkpoints =
                (durability == Durability::Durable).then(|| WalCheckpoints::start(options));
            Db::Sqlite {
                pool,
                write_lock: Arc::new(Mutex::new(())),
                wal_checkpoints,
                dedicated: Arc::default(),
            }
        };
        db.migrate().await?;
        Ok(db)
    }

    async fn migrate(&self) -> Result<(), sqlx::Error> {
        match self {
            Db::Sqlite { pool, .. } => SQLITE_MIGRATOR.run(pool).await?,
            Db::Postgres { pool } => POSTGRES_MIGRATOR.run(pool).await?,
        }
        Ok(())
    }

    /// On PostgreSQL, a pool of one connection of its own, named `application_name` (as
    /// `pg_stat_activity` shows it), for a path that runs one transaction after another: its
    /// prepared statements stay on it, and it never waits for the shared pool. The connection
    /// is opened at its first use, and again after a failure, like any of the pool's.
    ///
    /// On SQLite also a connection of its own, sharing the writers' turn: a connection's page
    /// cache is emptied whenever another connection has written since its last transaction, so
    /// a path that writes one transaction after another on whichever pooled connection is free
    /// reads every page it touches from the file again, each time. On one connection of its own
    /// its cache stays warm between its transactions.
    pub fn dedicated(&self, application_name: &str) -> Db {
        match self {
            Db::Sqlite {
                pool,
                write_lock,
                wal_checkpoints,
                dedicated,
            } => {
                let options = pool
                    .connect_options()
                    .as_ref()
                    .clone()
                    .pragma("cache_size", DEDICATED_SQLITE_CACHE_KIB.to_string())
                    .pragma("temp_store", DEDICATED_SQLITE_TEMP_STORE)
                    .statement_cache_capacity(DEDICATED_SQLITE_STATEMENTS);
                let own = SqlitePoolOptions::new()
                    .max_connections(1)
                    .test_before_acquire(false)
                    .connect_lazy_with(options);
                dedicated
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(own.clone());
                Db::Sqlite {
                    pool: own,
                    write_lock: write_lock.clone(),
                    wal_checkpoints: wal_checkpoints.clone(),
                    dedicated: dedicated.clone(),
                }
            }
            Db::Postgres { pool } => {
                let options = pool
                    .connect_options()
                    .as_ref()
                    .clone()
                    .application_name(application_name);
                Db::Postgres {
                    pool: server_pool_options(1).connect_lazy_with(options),
                }
            }
        }
    }

    pub fn kind(&self) -> DbKind {
        match self {
            Db::Sqlite { .. } => DbKind::Sqlite,
            Db::Postgres { .. } => DbKind::Postgres,
        }
    }

    /// Serialises writers on SQLite (see [`Db::Sqlite::write_lock`]).
    pub async fn write_guard(&self) -> WriteGuard<'_> {
        match self {
            Db::Sqlite { write_lock, .. } => WriteGuard(Some(write_lock.lock().await)),
            Db::Postgres { .. } => WriteGuard(None),
        }
    }

    /// Deletes the rows of `table` that `condition` selects (its `$1`, `$2`… bound to `binds`
    /// in order), at most `rows_per_statement` to a statement, each its own transaction and on
    /// SQLite each in its turn for the writer.
    ///
    /// For background purges: on PostgreSQL events committed while a transaction with writes is
    /// open cannot be read by the projector until it ends (see [`crate::stream`]), and on SQLite
    /// a write holds every other writer back, so one large delete would stall commands.
    pub async fn delete_in_batches(
        &self,
        table: &str,
        condition: &str,
        binds: &[Bound<'_>],
        rows_per_statement: u64,
    ) -> Result<Deleted, sqlx::Error> {
        let rows_per_statement = rows_per_statement.max(1);
        let statement = match self.kind() {
            DbKind::Postgres => format!(
                "delete from {table} where ctid = any(array(
                    select ctid from {table} where {condition} limit {rows_per_statement}))"
            ),
            DbKind::Sqlite => format!(
                "delete from {table} where rowid in (
                    select rowid from {table} where {condition} limit {rows_per_statement})"
            ),
        };
        let mut deleted = Deleted::default();
        loop {
            let _writer = self.write_guard().await;
            let n = on_db!(self, pool => {
                let mut query = sqlx::query(&statement);
                for bound in binds {
                    query = match *bound {
                        Bound::Int(value) => query.bind(value),
                        Bound::Text(value) => query.bind(value),
                    };
                }
                query.execute(pool).await.map(|r| r.rows_affected())
            })?;
            deleted.rows += n;
            deleted.statements += 1;
            if n < rows_per_statement {
                return Ok(deleted);
            }
        }
    }

    /// Closes every connection, and on SQLite stops the log's checkpoints and closes their
    /// connection too: once this returns, no connection holds the database's files.
    pub async fn close(&self) {
        on_db!(self, pool => pool.close().await);
        if let Db::Sqlite {
            wal_checkpoints,
            dedicated,
            ..
        } = self
        {
            let pools = std::mem::take(&mut *dedicated.lock().unwrap_or_else(|e| e.into_inner()));
            for pool in pools {
                pool.close().await;
            }
            if let Some(checkpoints) = wal_checkpoints {
                checkpoints.stop().await;
            }
        }
    }
}

/// Milliseconds since the Unix epoch, the project's portable timestamp.
pub fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// An open transaction on either engine. Projections write their rows through it.
pub enum Tx {
    Sqlite(sqlx::Transaction<'static, sqlx::Sqlite>),
    Postgres(sqlx::Transaction<'static, sqlx::Postgres>),
    /// Statements that only read, on one PostgreSQL connection outside a transaction block
    /// ([`Tx::read`]).
    PostgresReads(sqlx::pool::PoolConnection<sqlx::Postgres>),
}

/// Runs the same block against the connection of whichever transaction a [`Tx`] holds.
///
/// ```ignore
/// on_tx!(tx, conn => sqlx::query("insert ...").bind(x).execute(conn).await.map(|r| r.rows_affected()))?;
/// ```
#[macro_export]
macro_rules! on_tx {
    ($tx:expr, $conn:ident => $body:expr) => {
        match $tx {
            $crate::db::Tx::Sqlite(t) => {
                let $conn = &mut **t;
                $body
            }
            $crate::db::Tx::Postgres(t) => {
                let $conn = &mut **t;
                $body
            }
            $crate::db::Tx::PostgresReads(t) => {
                let $conn = &mut **t;
                $body
            }
        }
    };
}

impl Tx {
    pub async fn begin(db: &Db) -> Result<Tx, sqlx::Error> {
        Ok(match db {
            Db::Sqlite { pool, .. } => Tx::Sqlite(pool.begin().await?),
            Db::Postgres { pool } => Tx::Postgres(pool.begin().await?),
        })
    }

    /// For statements that only read. On SQLite a transaction, so they all read one snapshot.
    /// On PostgreSQL a pooled connection without `BEGIN`: at READ COMMITTED, the isolation of
    /// every transaction here, each statement takes its own snapshot inside a transaction too,
    /// so the block would only add a round trip for its `BEGIN` and another for its end.
    /// Nothing may be written through it: each statement would commit on its own.
    pub async fn read(db: &Db) -> Result<Tx, sqlx::Error> {
        Ok(match db {
            Db::Sqlite { pool, .. } => Tx::Sqlite(pool.begin().await?),
            Db::Postgres { pool } => Tx::PostgresReads(pool.acquire().await?),
        })
    }

    pub async fn commit(self) -> Result<(), sqlx::Error> {
        match self {
            Tx::Sqlite(t) => t.commit().await,
            Tx::Postgres(t) => t.commit().await,
            Tx::PostgresReads(_) => Ok(()),
        }
    }

    /// Ends the transaction without its changes, before the connection goes back to the pool.
    pub async fn rollback(self) -> Result<(), sqlx::Error> {
        match self {
            Tx::Sqlite(t) => t.rollback().await,
            Tx::Postgres(t) => t.rollback().await,
            Tx::PostgresReads(_) => Ok(()),
        }
    }

    pub fn kind(&self) -> DbKind {
        match self {
            Tx::Sqlite(_) => DbKind::Sqlite,
            Tx::Postgres(_) | Tx::PostgresReads(_) => DbKind::Postgres,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn text(pool: &SqlitePool, statement: &str) -> String {
        let row: (String,) = sqlx::query_as(statement).fetch_one(pool).await.unwrap();
        row.0
    }

    #[tokio::test]
    async fn a_scratch_sqlite_database_keeps_no_log_and_never_syncs_yet_undoes_a_savepoint() {
        let dir = tempfile::tempdir().unwrap();
        let url = |name: &str| format!("sqlite://{}", dir.path().join(name).display());
        let live = Db::connect(&url("live.db")).await.unwrap();
        let scratch = Db::connect_scratch(&url("scratch.db")).await.unwrap();
        let (Db::Sqlite { pool: live, .. }, Db::Sqlite { pool, .. }) = (&live, &scratch) else {
            unreachable!("SQLite URLs")
        };
        assert_eq!(text(live, "pragma journal_mode").await, "wal");
        assert_eq!(text(pool, "pragma journal_mode").await, "truncate");
        let synchronous: (i64,) = sqlx::query_as("pragma synchronous")
            .fetch_one(pool)
            .await
            .unwrap();
        assert_eq!(synchronous.0, 0, "synchronous = off");

        // The projector undoes a failed projection's part of a round with its savepoint.
        let mut c = pool.acquire().await.unwrap();
        for statement in [
            "create table t (x integer)",
            "begin",
            "insert into t values (1)",
            "savepoint part",
            "insert into t values (2)",
            "rollback to part",
            "release part",
            "commit",
        ] {
            sqlx::query(statement).execute(&mut *c).await.unwrap();
        }
        let kept: Vec<i64> = sqlx::query_scalar("select x from t")
            .fetch_all(&mut *c)
            .await
            .unwrap();
        assert_eq!(kept, [1]);
        assert!(!dir.path().join("scratch.db-wal").exists());
    }

    #[tokio::test]
    async fn a_dedicated_sqlite_connection_is_one_of_its_own_shares_the_writers_turn_and_closes_with_the_database(
    ) {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::connect(&format!(
            "sqlite://{}",
            dir.path().join("live.db").display()
        ))
        .await
        .unwrap();
        let own = db.dedicated("commits");
        let (
            Db::Sqlite {
                pool, write_lock, ..
            },
            Db::Sqlite {
                pool: own_pool,
                write_lock: own_lock,
                ..
            },
        ) = (&db, &own)
        else {
            unreachable!("SQLite URLs")
        };
        assert!(Arc::ptr_eq(write_lock, own_lock), "one writer at a time");
        assert_eq!(own_pool.options().get_max_connections(), 1);
        let cache: i64 = sqlx::query_scalar("pragma cache_size")
            .fetch_one(own_pool)
            .await
            .unwrap();
        assert_eq!(cache, DEDICATED_SQLITE_CACHE_KIB);
        let shared: i64 = sqlx::query_scalar("pragma cache_size")
            .fetch_one(pool)
            .await
            .unwrap();
        assert_ne!(
            shared, DEDICATED_SQLITE_CACHE_KIB,
            "the shared pool keeps the default"
        );
        // 2 is `memory`; the shared pool keeps the default (0), so a rebuild's index sorts
        // and large reads may still use files.
        let temp_store = |pool: &SqlitePool| {
            let pool = pool.clone();
            async move {
                sqlx::query_scalar::<_, i64>("pragma temp_store")
                    .fetch_one(&pool)
                    .await
                    .unwrap()
            }
        };
        assert_eq!(temp_store(own_pool).await, 2);
        assert_eq!(temp_store(pool).await, 0);

        // One connection across transactions: its page cache is not another connection's.
        let connection_of = |pool: &SqlitePool| {
            let pool = pool.clone();
            async move {
                let mut c = pool.acquire().await.unwrap();
                sqlx::query("create temp table if not exists mine (x integer)")
                    .execute(&mut *c)
                    .await
                    .unwrap();
                let n: i64 = sqlx::query_scalar("select count(*) from temp.mine")
                    .fetch_one(&mut *c)
                    .await
                    .unwrap();
                sqlx::query("insert into temp.mine values (1)")
                    .execute(&mut *c)
                    .await
                    .unwrap();
                n
            }
        };
        for expected in 0..3 {
            assert_eq!(connection_of(own_pool).await, expected);
        }

        db.close().await;
        assert!(own_pool.is_closed(), "closed with the database");
    }

    #[tokio::test]
    async fn a_durable_sqlite_log_is_checkpointed_by_its_own_connection_not_by_the_commits() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("live.db");
        let db = Db::connect(&format!("sqlite://{}", file.display()))
            .await
            .unwrap();
        let Db::Sqlite { pool, .. } = &db else {
            unreachable!("a SQLite URL")
        };
        // A commit checkpoints only past the fallback, far above SQLite's 1,000 pages.
        let pages: i64 = sqlx::query_scalar("pragma wal_autocheckpoint")
            .fetch_one(pool)
            .await
            .unwrap();
        assert_eq!(pages, i64::from(wal_checkpoints::FALLBACK_PAGES));
        sqlx::query("create table t (x blob)")
            .execute(pool)
            .await
            .unwrap();
        let size = || std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
        let before = size();
        // Some 2 MiB in 64 commits: fewer log pages than any commit would checkpoint at, so only
        // the checkpoints' own connection copies them into the database file.
        for _ in 0..64 {
            sqlx::query("insert into t values (randomblob(32768))")
                .execute(pool)
                .await
                .unwrap();
        }
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while size() < before + 2_000_000 {
            assert!(
                tokio::time::Instant::now() < deadline,
                "the database file stayed at {} bytes (was {before}): the log was not checkpointed",
                size()
            );
            tokio::time::sleep(wal_checkpoints::EVERY / 4).await;
        }
    }
}
