//! Table statistics where autovacuum does not keep them.
//!
//! PostgreSQL plans a statement a connection keeps prepared from the tables' statistics, and
//! keeps a generic plan while it costs no more than a plan made for each run. Where autovacuum
//! runs, it analyzes a table once enough of it changed (50 rows and a tenth of it), and every
//! connection plans again. Where it is off (a setting of the PostgreSQL server), a database that
//! starts empty keeps the plans its connections made on empty tables: the group commits' reads of
//! a batch's rows by id scanned whole tables, in the one transaction every command waits for.
//!
//! So, only where autovacuum is off, the server analyzes the read models' tables that changed
//! by autovacuum's own measure, every [`ANALYZE_EVERY`], gathering statistics for the columns a
//! rebuild gathers them for ([`Projection::analyzed_columns`]: those queries use, not text only
//! shown). `ANALYZE` takes a lock that lets reads and writes go on; a table another node is
//! analyzing is skipped (`SKIP_LOCKED`).

use std::time::Duration;

use projections::{Db, Projection};
use tokio_util::sync::CancellationToken;

/// How often the tables' changes are looked at.
pub const ANALYZE_EVERY: Duration = Duration::from_secs(5);

/// The tables of the current schema among `$1`, with their id, their changes since their last
/// full analyze and their rows; none where autovacuum runs.
const TABLE_CHANGES: &str = "
select s.relname::text, s.relid::bigint, s.n_mod_since_analyze, s.n_live_tup
  from pg_stat_user_tables s
 where current_setting('autovacuum') = 'off'
   and s.schemaname = current_schema()
   and s.relname = any($1)
 order by s.relname";

/// A table to keep analyzed: its name and `analyze`'s column list for it (empty: every column),
/// both the server's own text.
pub type AnalyzedTable = (&'static str, &'static str);

/// The read models' tables with their column lists.
pub fn read_model_tables(projections: &[std::sync::Arc<dyn Projection>]) -> Vec<AnalyzedTable> {
    projections
        .iter()
        .flat_map(|p| {
            p.tables()
                .iter()
                .map(|t| (t.name, p.analyzed_columns(t.name)))
        })
        .collect()
}

/// Tables kept analyzed, and how many changes each had when this node last analyzed it: an
/// `ANALYZE` of some columns only leaves PostgreSQL's count of changes as it was, so the
/// changes since are counted from there. Kept by the table's id, not its name: a rebuild swaps
/// in a new table of the same name, whose count starts again.
pub struct TableStatistics {
    tables: Vec<AnalyzedTable>,
    changes_when_analyzed: std::collections::HashMap<i64, i64>,
}

impl TableStatistics {
    pub fn new(tables: Vec<AnalyzedTable>) -> Self {
        Self {
            tables,
            changes_when_analyzed: Default::default(),
        }
    }

    /// Analyzes the tables that changed by more than 50 rows and a tenth of their rows since
    /// they were last analyzed, where autovacuum is off; returns their names. Nothing on
    /// SQLite, whose planner does without statistics.
    pub async fn analyze_changed(&mut self, db: &Db) -> Result<Vec<String>, sqlx::Error> {
        let Db::Postgres { pool } = db else {
            return Ok(Vec::new());
        };
        let names: Vec<&str> = self.tables.iter().map(|(name, _)| *name).collect();
        let counts: Vec<(String, i64, i64, i64)> = sqlx::query_as(TABLE_CHANGES)
            .bind(names)
            .fetch_all(pool)
            .await?;
        let mut changed = Vec::new();
        let mut listed = Vec::new();
        for (name, columns) in &self.tables {
            let Some((_, relid, changes, rows)) = counts.iter().find(|(n, ..)| n == name) else {
                continue;
            };
            let before = self.changes_when_analyzed.get(relid).copied().unwrap_or(0);
            // A full analyze (autovacuum's, a rebuild's) started the count again.
            let since = if *changes >= before {
                changes - before
            } else {
                *changes
            };
            if since as f64 > 50.0 + 0.1 * (*rows).max(0) as f64 {
                changed.push((*name, *relid, *changes));
                listed.push(format!("{name}{columns}"));
            }
        }
        if listed.is_empty() {
            return Ok(Vec::new());
        }
        // The names and column lists are the server's own constants, matched to the catalog.
        sqlx::raw_sql(&format!("analyze (skip_locked) {}", listed.join(", ")))
            .execute(pool)
            .await?;
        for (_, relid, changes) in &changed {
            self.changes_when_analyzed.insert(*relid, *changes);
        }
        Ok(changed
            .into_iter()
            .map(|(name, ..)| name.to_string())
            .collect())
    }
}

/// [`TableStatistics::analyze_changed`] of the read models' tables every [`ANALYZE_EVERY`]
/// until `stop`.
pub async fn analyze_periodically(db: Db, stop: CancellationToken) {
    if !matches!(db, Db::Postgres { .. }) {
        return;
    }
    let mut statistics = TableStatistics::new(read_model_tables(&crate::read_models::all()));
    loop {
        match statistics.analyze_changed(&db).await {
            Ok(changed) if changed.is_empty() => {}
            Ok(changed) => tracing::debug!(tables = ?changed, "tables analyzed"),
            Err(e) => tracing::warn!(error = %e, "could not analyze the changed tables"),
        }
        tokio::select! {
            _ = stop.cancelled() => return,
            _ = tokio::time::sleep(ANALYZE_EVERY) => {}
        }
    }
}
