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
