//! `companion replay`: rebuild projections from position 0 into a fresh database and compare.

use std::sync::Arc;

use anyhow::Context;
use projections::replay::{rebuild_and_compare_reporting, RebuildProgress, ReplayReport};
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
            let db = Db::connect_scratch(url.as_str()).await?;
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

/// Rebuilds the named projections (all when `names` is empty) and compares them with `live`.
pub async fn run(live: &Db, config: &Config, names: &[String]) -> anyhow::Result<ReplayReport> {
    let all = crate::read_models::all();
    let chosen: Vec<Arc<dyn Projection>> = if names.is_empty() {
        all
    } else {
        let mut chosen = Vec::new();
        for name in names {
            let found = all.iter().find(|p| p.name() == name).with_context(|| {
                let known: Vec<_> = all.iter().map(|p| p.name()).collect();
                format!("no projection named {name}; known: {}", known.join(", "))
            })?;
            chosen.push(found.clone());
        }
        chosen
    };
    let fresh = fresh_like(live, config).await?;
    let spill_bytes = config.rebuild_spill_mib.saturating_mul(1 << 20);
    let report =
        rebuild_and_compare_reporting(live, &fresh.db, chosen, spill_bytes, &print_progress).await;
    if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        eprintln!();
    }
    fresh.remove().await;
    Ok(report?)
}

/// One line on standard error per second: rewritten in place on a terminal, one after the
/// other in a log.
fn print_progress(p: RebuildProgress) {
    use std::io::{IsTerminal, Write};
    let percent = p.applied as f64 * 100.0 / p.total.max(1) as f64;
    let left = p
        .left()
        .map_or_else(String::new, |d| format!(", about {} s left", d.as_secs()));
    let line = format!(
        "rebuilding {}: {} of {} events ({percent:.0} %), {:.0} events/s{left}",
        p.projection,
        p.applied,
        p.total,
        p.rate()
    );
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
