//! The server's database pool: connections the database ended while they sat idle.

use std::time::Duration;

use crate::helpers::PgDatabase;

/// A pooled connection idle for longer than `PING_IF_IDLE_FOR` is pinged before use: after the
/// database ended every connection (a restart, a failover, an administrator), the next
/// statements each get a working connection instead of an error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_ended_while_idle_are_replaced_before_use_postgres() {
    let Some(database) = PgDatabase::create().await else {
        return;
    };
    let projections::Db::Postgres { pool } = &database.db else {
        unreachable!("a PostgreSQL database")
    };
    // A few connections, all back in the pool.
    let held: Vec<_> = futures::future::join_all((0..3).map(|_| pool.acquire()))
        .await
        .into_iter()
        .map(|c| c.expect("a connection"))
        .collect();
    drop(held);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let before_end = pool.num_idle();
    assert!(before_end >= 3, "{before_end} idle connections");

    // Ended from outside, while idle.
    let outside = sqlx::PgPool::connect(&database.url()).await.expect("pool");
    let ended: i64 = sqlx::query_scalar(
        "select count(*) from (select pg_terminate_backend(pid) from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid()) as t",
    )
    .fetch_one(&outside)
    .await
    .expect("end the pool's connections");
    assert!(ended >= 3, "{ended} connections ended");
    outside.close().await;

    tokio::time::sleep(projections::db::PING_IF_IDLE_FOR + Duration::from_millis(200)).await;
    for round in 0..6 {
        let answer: i32 = sqlx::query_scalar("select 1")
            .fetch_one(pool)
            .await
            .unwrap_or_else(|e| panic!("statement {round} after the connections ended: {e}"));
        assert_eq!(answer, 1);
    }
}

/// `Tx::read` on PostgreSQL sends no `BEGIN`: each statement is its own transaction, so `now()`
/// (its transaction's start) is its own start, where a transaction block keeps the instant of
/// its `BEGIN` for every later statement. Both read what is committed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_run_without_a_transaction_block_on_postgres() {
    let Some(database) = PgDatabase::create().await else {
        return;
    };
    const PAUSE: Duration = Duration::from_millis(200);
    // How long before a statement made after a pause its transaction started, in ms.
    let transaction_age_after_a_pause = |tx| async move {
        let mut tx: projections::Tx = tx;
        let _: i64 = projections::on_tx!(&mut tx, c => sqlx::query_scalar(
            "select count(*) from events").fetch_one(c).await)
        .expect("the connection reads the tables");
        tokio::time::sleep(PAUSE).await;
        let age: f64 = projections::on_tx!(&mut tx, c => sqlx::query_scalar(
            "select cast(extract(epoch from statement_timestamp() - now()) * 1000 as float8)")
            .fetch_one(c).await)
        .expect("a later read");
        tx.commit().await.expect("commit");
        age
    };
    let reads = projections::Tx::read(&database.db).await.expect("read");
    assert_eq!(reads.kind(), projections::DbKind::Postgres);
    let age = transaction_age_after_a_pause(reads).await;
    assert!(
        age < PAUSE.as_millis() as f64,
        "a statement of its own: {age} ms"
    );
    let block = projections::Tx::begin(&database.db).await.expect("begin");
    let age = transaction_age_after_a_pause(block).await;
    assert!(
        age >= PAUSE.as_millis() as f64,
        "one transaction since BEGIN: {age} ms"
    );
}

/// `Tx::read` on SQLite is a transaction: its statements read one snapshot, so a row committed
/// by another connection between two of them is not seen by the second.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_share_one_snapshot_on_sqlite() {
    let dir = tempfile::tempdir().expect("a folder");
    let url = format!("sqlite://{}", dir.path().join("reads.db").display());
    let db = projections::Db::connect(&url).await.expect("database");
    let count = "select count(*) from events";
    let insert = "insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata)
                  values ('document_item', 'x', 1, 'FolderCreated', '1.0', '{}', '{}')";
    let mut reads = projections::Tx::read(&db).await.expect("read");
    let before: i64 =
        projections::on_tx!(&mut reads, c => sqlx::query_scalar(count).fetch_one(c).await)
            .expect("first read");
    projections::on_db!(&db, pool => sqlx::query(insert).execute(pool).await.map(|_| ()))
        .expect("a write on another connection");
    let after: i64 =
        projections::on_tx!(&mut reads, c => sqlx::query_scalar(count).fetch_one(c).await)
            .expect("second read");
    assert_eq!(after, before, "one snapshot");
    reads.commit().await.expect("end");
    let now: i64 =
        projections::on_db!(&db, pool => sqlx::query_scalar(count).fetch_one(pool).await)
            .expect("a fresh read");
    assert_eq!(now, before + 1);
}

/// Where autovacuum is off, the tables that changed by autovacuum's measure (50 rows and a
/// tenth) are analyzed, for the columns listed, and those that did not are left alone; where
/// it runs, nothing is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_that_changed_are_analyzed_where_autovacuum_is_off_postgres() {
    let Some(database) = PgDatabase::create().await else {
        return;
    };
    let projections::Db::Postgres { pool } = &database.db else {
        unreachable!("a PostgreSQL database")
    };
    let autovacuum: String = sqlx::query_scalar("select current_setting('autovacuum')")
        .fetch_one(pool)
        .await
        .unwrap();
    let mut conn = pool.acquire().await.unwrap();
    sqlx::raw_sql(
        "create table grown (id bigint primary key, note text);
         create table barely (id bigint primary key);
         insert into grown select n, 'shown only' from generate_series(1, 200) as n;
         insert into barely select generate_series(1, 10);",
    )
    .execute(&mut *conn)
    .await
    .unwrap();
    // The statistics of this session's changes are sent at once, not within the next second.
    sqlx::query("select pg_stat_force_next_flush()")
        .execute(&mut *conn)
        .await
        .unwrap();
    drop(conn);
    let changes = |table: &'static str| async move {
        sqlx::query_scalar::<_, i64>(
            "select n_mod_since_analyze from pg_stat_user_tables where relname = $1",
        )
        .bind(table)
        .fetch_optional(pool)
        .await
        .unwrap()
        .unwrap_or(0)
    };
    for _ in 0..100 {
        if changes("grown").await >= 200 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(changes("grown").await, 200, "the inserts are counted");
    let mut statistics =
        backend::table_statistics::TableStatistics::new(vec![("grown", "(id)"), ("barely", "")]);
    let analyzed = statistics.analyze_changed(&database.db).await.unwrap();
    let last_analyzed = |table: &'static str| async move {
        sqlx::query_scalar::<_, bool>(
            "select last_analyze is not null from pg_stat_user_tables where relname = $1",
        )
        .bind(table)
        .fetch_one(pool)
        .await
        .unwrap()
    };
    if autovacuum == "off" {
        assert_eq!(analyzed, ["grown"]);
        // Only the columns listed for it.
        let columns: Vec<String> = sqlx::query_scalar(
            "select attname::text from pg_stats where tablename = 'grown' order by 1",
        )
        .fetch_all(pool)
        .await
        .unwrap();
        assert_eq!(columns, ["id"]);
        assert!(last_analyzed("grown").await);
        assert!(!last_analyzed("barely").await);
        // Analyzed: nothing changed since.
        let again = statistics.analyze_changed(&database.db).await.unwrap();
        assert!(again.is_empty(), "{again:?}");
        // A table swapped in under the same name (as a rebuild does) is a new table: its
        // changes count from its own start.
        let mut conn = pool.acquire().await.unwrap();
        sqlx::raw_sql(
            "create table grown_new (id bigint primary key, note text);
             insert into grown_new select n, 'shown only' from generate_series(1, 200) as n;
             drop table grown;
             alter table grown_new rename to grown;",
        )
        .execute(&mut *conn)
        .await
        .unwrap();
        sqlx::query("select pg_stat_force_next_flush()")
            .execute(&mut *conn)
            .await
            .unwrap();
        drop(conn);
        for _ in 0..100 {
            if changes("grown").await >= 200 && !last_analyzed("grown").await {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let swapped = statistics.analyze_changed(&database.db).await.unwrap();
        assert_eq!(swapped, ["grown"]);
    } else {
        assert!(analyzed.is_empty(), "autovacuum analyzes: {analyzed:?}");
    }
}
