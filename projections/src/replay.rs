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

/// Rebuilds `projections` from the events of `live` into `fresh` (an empty, migrated database)
/// up to where the live projections are, then compares every table.
pub async fn rebuild_and_compare(
    live: &Db,
    fresh: &Db,
    projections: Vec<Arc<dyn Projection>>,
) -> Result<ReplayReport, ProjectionError> {
    let mut report = ReplayReport::default();
    for projection in projections {
        // The same instance for every attempt: once its rebuild is written out, it goes on
        // batch by batch from where it is.
        let rebuilder = projection.rebuilder().unwrap_or_else(|| projection.clone());
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
            report.events_applied += projector.run_to_end().await?;
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
