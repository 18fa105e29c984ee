//! Rebuilding projections from position 0 into a fresh database and comparing the result with
//! the live tables, row by row.

use std::sync::Arc;

use sqlx::{Column, Row};

use crate::db::Db;
use crate::dead_letters::PoisonPolicy;
use crate::projector::{checkpoint_of, Projection, ProjectionError, Projector, TableSpec};

/// A difference between a rebuilt table and the live one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    pub projection: &'static str,
    pub table: &'static str,
    /// Rows only in the live table, shown as `col=value` lists.
    pub only_live: Vec<String>,
    /// Rows only in the rebuilt table.
    pub only_rebuilt: Vec<String>,
}

/// How far a projection's rebuild is, reported about once a second.
#[derive(Debug, Clone, Copy)]
pub struct RebuildProgress {
    pub projection: &'static str,
    /// Events applied so far, of `total`.
    pub applied: u64,
    pub total: u64,
    pub elapsed: std::time::Duration,
}

impl RebuildProgress {
    /// Events per second so far.
    pub fn rate(&self) -> f64 {
        self.applied as f64 / self.elapsed.as_secs_f64().max(0.001)
    }

    /// The time left at the rate so far (`None` before the first event).
    pub fn left(&self) -> Option<std::time::Duration> {
        (self.applied > 0).then(|| {
            std::time::Duration::from_secs_f64(
                self.total.saturating_sub(self.applied) as f64 / self.rate(),
            )
        })
    }
}

/// What a rebuild found.
#[derive(Debug, Default)]
pub struct ReplayReport {
    pub events_applied: usize,
    pub tables_compared: usize,
    pub rows_compared: usize,
    pub differences: Vec<Difference>,
}

/// Every row of a table as text, in a stable order.
pub(crate) async fn table_rows(db: &Db, table: &TableSpec) -> Result<Vec<String>, sqlx::Error> {
    let sql = format!("select * from {} order by {}", table.name, table.order_by);
    macro_rules! render {
        ($rows:expr) => {
            $rows
                .iter()
                .map(|row| {
                    row.columns()
                        .iter()
                        .map(|col| {
                            let i = col.ordinal();
                            let value = row
                                .try_get::<Option<i64>, _>(i)
                                .map(|v| v.map(|v| v.to_string()))
                                .or_else(|_| row.try_get::<Option<String>, _>(i))
                                .or_else(|_| {
                                    row.try_get::<Option<bool>, _>(i)
                                        .map(|v| v.map(|v| v.to_string()))
                                })
                                .or_else(|_| {
                                    row.try_get::<Option<f64>, _>(i)
                                        .map(|v| v.map(|v| v.to_string()))
                                })
                                .unwrap_or_else(|_| Some("<unreadable>".into()));
                            format!("{}={}", col.name(), value.unwrap_or_else(|| "null".into()))
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .collect()
        };
    }
    Ok(match db {
        Db::Sqlite { pool, .. } => {
            let rows = sqlx::query(&sql).fetch_all(pool).await?;
            render!(rows)
        }
        Db::Postgres { pool } => {
            let rows = sqlx::query(&sql).fetch_all(pool).await?;
            render!(rows)
        }
    })
}

/// How many events the stream holds.
async fn events_in_stream(db: &Db) -> Result<u64, sqlx::Error> {
    let n: i64 = crate::on_db!(db, pool => sqlx::query_scalar(
        "select cast(count(*) as bigint) from events").fetch_one(pool).await)?;
    Ok(n.max(0) as u64)
}

/// Runs a rebuild to its end, calling `report` about once a second.
async fn run_reporting(
    projector: &Projector,
    projection: &'static str,
    total: u64,
    report: &(dyn Fn(RebuildProgress) + Sync),
) -> Result<usize, ProjectionError> {
    let applied = projector.subscribe_events_applied();
    let started = std::time::Instant::now();
    let run = projector.run_to_end();
    tokio::pin!(run);
    let mut tick = tokio::time::interval(std::time::Duration::from_secs(1));
    tick.tick().await;
    loop {
        tokio::select! {
            done = &mut run => return done,
            _ = tick.tick() => report(RebuildProgress {
                projection,
                applied: *applied.borrow(),
                total,
                elapsed: started.elapsed(),
            }),
        }
    }
}

/// Rebuilds `projections` from the events of `live` into `fresh` (an empty, migrated database)
/// up to where the live projections are, then compares every table.
pub async fn rebuild_and_compare(
    live: &Db,
    fresh: &Db,
    projections: Vec<Arc<dyn Projection>>,
) -> Result<ReplayReport, ProjectionError> {
    rebuild_and_compare_reporting(live, fresh, projections, DEFAULT_SPILL_BYTES, &|_| {}).await
}

/// What a rebuild holds of the rows it could already write, unless configured
/// (`REBUILD_SPILL_MIB`).
pub const DEFAULT_SPILL_BYTES: usize = 16 << 20;

/// [`rebuild_and_compare`], telling `report` how far each rebuild is about once a second.
pub async fn rebuild_and_compare_reporting(
    live: &Db,
    fresh: &Db,
    projections: Vec<Arc<dyn Projection>>,
    spill_bytes: usize,
    report_progress: &(dyn Fn(RebuildProgress) + Sync),
) -> Result<ReplayReport, ProjectionError> {
    let total = events_in_stream(live).await?;
    let mut report = ReplayReport::default();
    for projection in projections {
        // The same instance for every attempt: once its rebuild is written out, it goes on
        // batch by batch from where it is.
        let rebuilder = projection
            .rebuilder(spill_bytes)
            .unwrap_or_else(|| projection.clone());
        // The live projection may move on while we work; compare at a point it had reached, and
        // try again if it moved during the comparison.
        let mut attempts = 0;
        loop {
            attempts += 1;
            let live_at = checkpoint_of(live, projection.name()).await?;
            // A rebuild steps over poison events (recording them in `fresh`), as the live
            // projection did if it got past them, so both end at the same place.
            let projector = Projector::rebuilding(
                live.clone(),
                fresh.clone(),
                vec![rebuilder.clone()],
                Some(live_at),
            )
            .with_poison_policies(&[(projection.name().to_string(), PoisonPolicy::Skip)]);
            report.events_applied +=
                run_reporting(&projector, projection.name(), total, report_progress).await?;
            let mut differences = Vec::new();
            let mut rows = 0;
            for table in projection.tables() {
                let live_rows = table_rows(live, table).await?;
                let rebuilt_rows = table_rows(fresh, table).await?;
                rows += live_rows.len();
                if live_rows != rebuilt_rows {
                    let only_live = live_rows
                        .iter()
                        .filter(|r| !rebuilt_rows.contains(r))
                        .cloned()
                        .collect();
                    let only_rebuilt = rebuilt_rows
                        .iter()
                        .filter(|r| !live_rows.contains(r))
                        .cloned()
                        .collect();
                    differences.push(Difference {
                        projection: projection.name(),
                        table: table.name,
                        only_live,
                        only_rebuilt,
                    });
                }
            }
            let moved = checkpoint_of(live, projection.name()).await? != live_at;
            if moved && attempts < 5 {
                continue;
            }
            report.tables_compared += projection.tables().len();
            report.rows_compared += rows;
            report.differences.extend(differences);
            break;
        }
    }
    Ok(report)
}
