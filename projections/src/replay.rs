//! Rebuilding projections from position 0 into a fresh database, then comparing the result
//! with the live tables row by row, or putting it in their place ([`crate::swap`]).

use std::sync::Arc;

use sqlx::{Column, Row};

use crate::db::Db;
use crate::dead_letters::PoisonPolicy;
use crate::projector::{checkpoint_of, Projection, ProjectionError, Projector, TableSpec};
use crate::rebuild_progress;
use crate::stream::Position;
use crate::swap::{self, SwapError, SwapReport};

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
pub async fn table_rows(db: &Db, table: &TableSpec) -> Result<Vec<String>, sqlx::Error> {
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

/// Where a rebuild reports how far it is, about once a second per projection; called from
/// every lane at once.
pub type Reporter = Arc<dyn Fn(RebuildProgress) + Send + Sync>;

/// Runs a rebuild to its end, calling `report` about once a second and recording how far it
/// is in `live` (for the server's `/metrics`, [`crate::rebuild_progress`]).
async fn run_reporting(
    live: &Db,
    projector: &Projector,
    projection: &'static str,
    total: u64,
    report: &Reporter,
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
            _ = tick.tick() => {
                let progress = RebuildProgress {
                    projection,
                    applied: *applied.borrow(),
                    total,
                    elapsed: started.elapsed(),
                };
                report(progress);
                // Only for the operator's eyes: a failed write does not stop the rebuild.
                if let Err(e) = rebuild_progress::record(live, &progress, crate::now_ms()).await {
                    tracing::warn!(projection, error = %e, "rebuild progress not recorded");
                }
            }
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
    rebuild_and_compare_reporting(
        live,
        fresh,
        projections,
        DEFAULT_SPILL_BYTES,
        Arc::new(|_| {}),
    )
    .await
}

/// What a rebuild holds of the rows it could already write, unless configured
/// (`REBUILD_SPILL_MIB`).
pub const DEFAULT_SPILL_BYTES: usize = 16 << 20;

/// The lanes `projections` rebuild in, side by side: first the shared lane (every projection
/// that does not rebuild alone, in the order given), then one lane for each that does
/// ([`Projection::rebuilds_alone`]).
pub fn lanes(projections: Vec<Arc<dyn Projection>>) -> Vec<Vec<Arc<dyn Projection>>> {
    let (alone, shared): (Vec<_>, Vec<_>) =
        projections.into_iter().partition(|p| p.rebuilds_alone());
    std::iter::once(shared)
        .filter(|lane| !lane.is_empty())
        .chain(alone.into_iter().map(|p| vec![p]))
        .collect()
}

/// [`rebuild_and_compare`], telling `report` how far each rebuild is about once a second.
/// Projections in different [`lanes`] rebuild at the same time.
pub async fn rebuild_and_compare_reporting(
    live: &Db,
    fresh: &Db,
    projections: Vec<Arc<dyn Projection>>,
    spill_bytes: usize,
    report_progress: Reporter,
) -> Result<ReplayReport, ProjectionError> {
    let (report, _) = run_lanes(
        live,
        fresh,
        projections,
        spill_bytes,
        report_progress,
        Mode::Compare,
    )
    .await
    .map_err(into_projection_error)?;
    Ok(report)
}

/// Rebuilds `projections` into `fresh` beside the live projector, lanes side by side, and puts
/// each in place of its live tables as soon as it is rebuilt ([`swap::swap_in`]). The report
/// counts the events applied; nothing is compared.
pub async fn rebuild_and_swap(
    live: &Db,
    fresh: &Db,
    projections: Vec<Arc<dyn Projection>>,
    spill_bytes: usize,
    report_progress: Reporter,
) -> Result<(ReplayReport, Vec<SwapReport>), SwapError> {
    run_lanes(
        live,
        fresh,
        projections,
        spill_bytes,
        report_progress,
        Mode::Swap,
    )
    .await
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Compare,
    Swap,
}

fn into_projection_error(e: SwapError) -> ProjectionError {
    match e {
        SwapError::Projection(e) => e,
        SwapError::Database(e) => e.into(),
        other => ProjectionError::Database(sqlx::Error::Protocol(other.to_string())),
    }
}

/// One projection's rebuild: what it applied and what its comparison found.
#[derive(Default)]
struct Rebuilt {
    events_applied: usize,
    tables_compared: usize,
    rows_compared: usize,
    differences: Vec<Difference>,
    swapped: Option<SwapReport>,
}

async fn run_lanes(
    live: &Db,
    fresh: &Db,
    projections: Vec<Arc<dyn Projection>>,
    spill_bytes: usize,
    report_progress: Reporter,
    mode: Mode,
) -> Result<(ReplayReport, Vec<SwapReport>), SwapError> {
    let total = events_in_stream(live).await?;
    let order: Vec<&'static str> = projections.iter().map(|p| p.name()).collect();
    let mut running = Vec::new();
    for lane in lanes(projections) {
        let (live, fresh, report_progress) = (live.clone(), fresh.clone(), report_progress.clone());
        // A task per lane, so that the lanes' work runs on every core.
        running.push(tokio::spawn(async move {
            let mut done = Vec::new();
            for projection in lane {
                let rebuilt = rebuild_one(
                    &live,
                    &fresh,
                    &projection,
                    spill_bytes,
                    total,
                    &report_progress,
                    mode,
                )
                .await?;
                done.push((projection.name(), rebuilt));
            }
            Ok::<_, SwapError>(done)
        }));
    }
    let mut all = Vec::new();
    for lane in running {
        let done = lane.await.map_err(|e| {
            SwapError::Projection(ProjectionError::Database(sqlx::Error::Protocol(format!(
                "a rebuild lane ended abnormally: {e}"
            ))))
        })??;
        all.extend(done);
    }
    all.sort_by_key(|(name, _)| order.iter().position(|n| n == name));
    let mut report = ReplayReport::default();
    let mut swaps = Vec::new();
    for (_, rebuilt) in all {
        report.events_applied += rebuilt.events_applied;
        report.tables_compared += rebuilt.tables_compared;
        report.rows_compared += rebuilt.rows_compared;
        report.differences.extend(rebuilt.differences);
        swaps.extend(rebuilt.swapped);
    }
    Ok((report, swaps))
}

/// The projector that brings `rebuilder` (the rebuild of `projection` in `fresh`) up to `to`.
/// A rebuild steps over poison events (recording them in `fresh`), as the live projection did
/// if it got past them, so both end at the same place.
pub(crate) fn rebuild_projector(
    live: &Db,
    fresh: &Db,
    projection: &Arc<dyn Projection>,
    rebuilder: &Arc<dyn Projection>,
    to: Position,
) -> Projector {
    Projector::rebuilding(
        live.clone(),
        fresh.clone(),
        vec![rebuilder.clone()],
        Some(to),
    )
    .with_poison_policies(&[(projection.name().to_string(), PoisonPolicy::Skip)])
}

/// Rebuilds one projection to where the live one is, then compares it or swaps it in.
async fn rebuild_one(
    live: &Db,
    fresh: &Db,
    projection: &Arc<dyn Projection>,
    spill_bytes: usize,
    total: u64,
    report_progress: &Reporter,
    mode: Mode,
) -> Result<Rebuilt, SwapError> {
    let mut rebuilt = Rebuilt::default();
    // The same instance for every attempt: once its rebuild is written out, it goes on batch
    // by batch from where it is.
    let rebuilder = projection
        .rebuilder(fresh, spill_bytes)
        .unwrap_or_else(|| projection.clone());
    // The live projection may move on while we work; compare at a point it had reached, and
    // try again if it moved during the comparison.
    let mut attempts = 0;
    loop {
        attempts += 1;
        let live_at = checkpoint_of(live, projection.name()).await?;
        let projector = rebuild_projector(live, fresh, projection, &rebuilder, live_at);
        let applied =
            run_reporting(live, &projector, projection.name(), total, report_progress).await;
        if let Err(e) = rebuild_progress::clear(live, projection.name()).await {
            tracing::warn!(projection = projection.name(), error = %e, "rebuild progress not cleared");
        }
        rebuilt.events_applied += applied?;
        if mode == Mode::Swap {
            rebuilt.swapped = Some(swap::swap_in(live, fresh, projection, &rebuilder).await?);
            return Ok(rebuilt);
        }
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
        rebuilt.tables_compared += projection.tables().len();
        rebuilt.rows_compared += rows;
        rebuilt.differences.extend(differences);
        return Ok(rebuilt);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::Tx;
    use crate::stream::StoredEvent;

    struct Named(&'static str, bool);

    #[async_trait::async_trait]
    impl Projection for Named {
        fn name(&self) -> &'static str {
            self.0
        }
        fn tables(&self) -> &'static [TableSpec] {
            &[]
        }
        fn rebuilds_alone(&self) -> bool {
            self.1
        }
        async fn apply(&self, _tx: &mut Tx, _event: &StoredEvent) -> Result<(), ProjectionError> {
            Ok(())
        }
    }

    fn names(lanes: &[Vec<Arc<dyn Projection>>]) -> Vec<Vec<&'static str>> {
        lanes
            .iter()
            .map(|lane| lane.iter().map(|p| p.name()).collect())
            .collect()
    }

    #[test]
    fn projections_that_rebuild_alone_get_a_lane_each_and_the_rest_share_one_in_order() {
        let given: Vec<Arc<dyn Projection>> = vec![
            Arc::new(Named("notifications", false)),
            Arc::new(Named("terms", true)),
            Arc::new(Named("content", false)),
            Arc::new(Named("item_reads", true)),
            Arc::new(Named("course_registrations", false)),
        ];
        assert_eq!(
            names(&lanes(given)),
            [
                vec!["notifications", "content", "course_registrations"],
                vec!["terms"],
                vec!["item_reads"],
            ]
        );
        let alone: Vec<Arc<dyn Projection>> = vec![Arc::new(Named("terms", true))];
        assert_eq!(names(&lanes(alone)), [vec!["terms"]]);
        assert!(lanes(Vec::new()).is_empty());
    }
}
