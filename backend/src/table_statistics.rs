//! Table statistics where autovacuum does not keep them.
//!
//! PostgreSQL plans a statement a connection keeps prepared from the tables' statistics, and
//! keeps a generic plan while it costs no more than a plan made for each run. Where autovacuum
//! runs, it analyzes a table once enough of it changed (50 rows and a tenth of it), and every
//! connection plans again. Where it is off (a setting of the PostgreSQL server), a database that
//! starts empty keeps the plans its connections made on empty tables: the group commits' reads of
//! a batch's rows by id scanned whole tables, in the one transaction every command waits for.
//!
//! So, only where autovacuum is off, the server analyzes the tables that changed by
//! autovacuum's own measure, every [`ANALYZE_EVERY`]. `ANALYZE` takes a lock that lets reads and
//! writes go on; a table another node is analyzing is skipped (`SKIP_LOCKED`).

use std::time::Duration;

use projections::Db;
use tokio_util::sync::CancellationToken;

/// How often the tables' changes are looked at.
pub const ANALYZE_EVERY: Duration = Duration::from_secs(5);

/// The tables of the current schema that changed by more than 50 rows and a tenth of their
/// rows since they were last analyzed, each quoted; none where autovacuum runs.
const CHANGED_TABLES: &str = "
select quote_ident(s.schemaname) || '.' || quote_ident(s.relname)
  from pg_stat_user_tables s
 where current_setting('autovacuum') = 'off'
   and s.schemaname = current_schema()
   and s.n_mod_since_analyze > 50 + 0.1 * greatest(s.n_live_tup, 0)
 order by s.relname";

/// Analyzes the tables that changed enough since they were last analyzed, where autovacuum is
/// off; returns their names. Nothing on SQLite, whose planner does without statistics.
pub async fn analyze_changed_tables(db: &Db) -> Result<Vec<String>, sqlx::Error> {
    let Db::Postgres { pool } = db else {
        return Ok(Vec::new());
    };
    let tables: Vec<String> = sqlx::query_scalar(CHANGED_TABLES).fetch_all(pool).await?;
    if !tables.is_empty() {
        // Every name is the catalog's, quoted by `quote_ident`.
        sqlx::raw_sql(&format!("analyze (skip_locked) {}", tables.join(", ")))
            .execute(pool)
            .await?;
    }
    Ok(tables)
}

/// [`analyze_changed_tables`] every [`ANALYZE_EVERY`] until `stop`.
pub async fn analyze_periodically(db: Db, stop: CancellationToken) {
    if !matches!(db, Db::Postgres { .. }) {
        return;
    }
    loop {
        match analyze_changed_tables(&db).await {
            Ok(tables) if tables.is_empty() => {}
            Ok(tables) => tracing::debug!(?tables, "tables analyzed"),
            Err(e) => tracing::warn!(error = %e, "could not analyze the changed tables"),
        }
        tokio::select! {
            _ = stop.cancelled() => return,
            _ = tokio::time::sleep(ANALYZE_EVERY) => {}
        }
    }
}
