//! `companion replay`: rebuild projections from position 0 into a fresh database and compare.
//! `companion rebuild`: the same rebuild, then put in place of the live tables (blue/green).

use std::sync::Arc;

use anyhow::Context;
use projections::replay::{
    rebuild_and_compare_reporting, rebuild_and_swap, RebuildProgress, ReplayReport,
};
use projections::swap::SwapReport;
use projections::{Db, Projection};

use crate::config::Config;

/// A throw-away database of the same engine as the live one; dropped after the comparison.
struct FreshDb {
    db: Db,
    cleanup: Cleanup,
}

enum Cleanup {
    SqliteFile(std::path::PathBuf),
    PostgresDatabase { admin_url: String, name: String },
}

async fn fresh_like(live: &Db, config: &Config) -> anyhow::Result<FreshDb> {
    let suffix = uuid::Uuid::new_v4().simple().to_string();
    match live {
        Db::Sqlite { .. } => {
            let path = config.data_dir.join(format!("replay-{suffix}.db"));
            let db = Db::connect_scratch(&format!("sqlite://{}", path.display())).await?;
            Ok(FreshDb {
                db,
                cleanup: Cleanup::SqliteFile(path),
            })
        }
        Db::Postgres { pool } => {
            let name = format!("companion_replay_{suffix}");
            sqlx::query(&format!("create database {name}"))
                .execute(pool)
                .await
                .context("creating the replay database")?;
            let live_url = config.database_url();
            let mut url = url::Url::parse(&live_url).context("DATABASE_URL")?;
            url.set_path(&format!("/{name}"));
            // No more connections than the server's own pool: the database server's limit is
            // shared with the live nodes.
            let db = Db::connect_scratch_with_pool(url.as_str(), config.database_pool_size).await?;
            Ok(FreshDb {
                db,
                cleanup: Cleanup::PostgresDatabase {
                    admin_url: live_url,
                    name,
                },
            })
        }
    }
}

impl FreshDb {
    async fn remove(self) {
        self.db.close().await;
        match self.cleanup {
            Cleanup::SqliteFile(path) => {
                for ext in ["", "-wal", "-shm"] {
                    let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
                }
            }
            Cleanup::PostgresDatabase { admin_url, name } => {
                if let Ok(admin) = Db::connect(&admin_url).await {
                    let _ = projections::on_db!(&admin, pool => sqlx::query(&format!("drop database if exists {name} with (force)"))
                        .execute(pool).await.map(|r| r.rows_affected()));
                    admin.close().await;
                }
            }
        }
    }
}

/// The named projections (all when `names` is empty), in the server's order.
fn chosen(names: &[String]) -> anyhow::Result<Vec<Arc<dyn Projection>>> {
    let all = crate::read_models::all();
    if names.is_empty() {
        return Ok(all);
    }
    let mut chosen: Vec<Arc<dyn Projection>> = Vec::new();
    for name in names {
        if chosen.iter().any(|p| p.name() == name) {
            continue;
        }
        let found = all.iter().find(|p| p.name() == name).with_context(|| {
            let known: Vec<_> = all.iter().map(|p| p.name()).collect();
            format!("no projection named {name}; known: {}", known.join(", "))
        })?;
        chosen.push(found.clone());
    }
    Ok(chosen)
}

/// Rebuilds the named projections (all when `names` is empty) and compares them with `live`.
pub async fn run(live: &Db, config: &Config, names: &[String]) -> anyhow::Result<ReplayReport> {
    let chosen = chosen(names)?;
    let fresh = fresh_like(live, config).await?;
    let spill_bytes = config.rebuild_spill_mib.saturating_mul(1 << 20);
    let report =
        rebuild_and_compare_reporting(live, &fresh.db, chosen, spill_bytes, progress_printer())
            .await;
    end_progress();
    fresh.remove().await;
    Ok(report?)
}

/// Rebuilds the named projections (all when `names` is empty) beside the live projector and
/// puts each in place of its live tables, one transaction each.
pub async fn rebuild(
    live: &Db,
    config: &Config,
    names: &[String],
) -> anyhow::Result<(ReplayReport, Vec<SwapReport>)> {
    let chosen = chosen(names)?;
    let fresh = fresh_like(live, config).await?;
    let spill_bytes = config.rebuild_spill_mib.saturating_mul(1 << 20);
    let done = rebuild_and_swap(live, &fresh.db, chosen, spill_bytes, progress_printer()).await;
    end_progress();
    fresh.remove().await;
    Ok(done?)
}

/// Prints what `companion rebuild` did.
pub fn print_swaps(report: &ReplayReport, swaps: &[SwapReport]) {
    println!("rebuilt {} events", report.events_applied);
    for swap in swaps {
        println!(
            "{}: swapped in {} rows at position {}, {} events caught up, live projector held {} ms",
            swap.projection,
            swap.rows,
            swap.at.position,
            swap.caught_up,
            swap.held.as_millis()
        );
    }
}

fn end_progress() {
    if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        eprintln!();
    }
}

/// A reporter for the rebuild's lanes: one line for all of them together.
fn progress_printer() -> projections::replay::Reporter {
    let seen = std::sync::Mutex::new(std::collections::BTreeMap::new());
    Arc::new(move |p: RebuildProgress| {
        let mut seen = seen.lock().unwrap_or_else(|e| e.into_inner());
        seen.insert(p.projection, p);
        print_progress(seen.values().copied());
    })
}

/// One line on standard error per second, naming every projection being rebuilt: rewritten in
/// place on a terminal, one after the other in a log.
fn print_progress(rebuilding: impl Iterator<Item = RebuildProgress>) {
    use std::io::{IsTerminal, Write};
    let parts: Vec<String> = rebuilding
        .map(|p| {
            let percent = p.applied as f64 * 100.0 / p.total.max(1) as f64;
            let left = p
                .left()
                .map_or_else(String::new, |d| format!(", about {} s left", d.as_secs()));
            format!(
                "{}: {} of {} events ({percent:.0} %), {:.0} events/s{left}",
                p.projection,
                p.applied,
                p.total,
                p.rate()
            )
        })
        .collect();
    let line = format!("rebuilding {}", parts.join("; "));
    let mut err = std::io::stderr();
    let _ = if err.is_terminal() {
        write!(err, "\r\x1b[2K{line}")
    } else {
        writeln!(err, "{line}")
    };
}

/// Prints a report; true when the rebuild equals the live tables.
pub fn print(report: &ReplayReport) -> bool {
    println!(
        "replayed {} events; compared {} tables, {} rows",
        report.events_applied, report.tables_compared, report.rows_compared
    );
    if report.differences.is_empty() {
        println!("rebuild == live: no differences");
        return true;
    }
    for d in &report.differences {
        println!("DIFFERENCE in {} / {}:", d.projection, d.table);
        for row in &d.only_live {
            println!("  only live:    {row}");
        }
        for row in &d.only_rebuilt {
            println!("  only rebuilt: {row}");
        }
    }
    false
}
