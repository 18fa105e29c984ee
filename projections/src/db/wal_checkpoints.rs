//! SQLite's write-ahead log copied into the database by a connection of its own.
//!
//! By default SQLite checkpoints in the commit that takes the log past 1,000 pages: that commit
//! copies every page of the log into the database and syncs both files before it returns. On
//! a server every write goes through one writer in turn (the group commits), so each such
//! commit stalls every command behind it. Here the pool's connections leave that to a task
//! with a connection of its own, which runs a passive checkpoint (it never waits for a reader
//! or the writer, and they never wait for it) every [`EVERY`], on that connection's thread.
//!
//! Should that task fall behind (or stop), a commit still checkpoints once the log passes
//! [`FALLBACK_PAGES`]: the log stays bounded whatever happens to the task.

use std::sync::Mutex;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};
use sqlx::{ConnectOptions, Connection};
use tokio::sync::watch;

/// How often the task checkpoints.
pub(super) const EVERY: Duration = Duration::from_millis(200);

/// Log pages past which a commit checkpoints by itself, as SQLite does at 1,000 pages by
/// default (some 64 MiB of log with 4 KiB pages).
pub(super) const FALLBACK_PAGES: u32 = 16_000;

/// How long the task waits after a failure before it connects again.
const AFTER_FAILURE: Duration = Duration::from_secs(1);

/// Counter: passive checkpoints run by the task, by `outcome` (`done`, `failed`).
pub const CHECKPOINTS_TOTAL: &str = "companion_sqlite_wal_checkpoints_total";

/// The task. [`WalCheckpoints::stop`] ends it with its connection closed; dropping the last
/// handle on its database ends it too.
#[derive(Debug)]
pub struct WalCheckpoints {
    stop: watch::Sender<bool>,
    task: Mutex<Option<tokio::task::JoinHandle<()>>>,
}

impl Drop for WalCheckpoints {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
        if let Some(task) = self.task.lock().unwrap_or_else(|e| e.into_inner()).take() {
            task.abort();
        }
    }
}

impl WalCheckpoints {
    /// Starts the task for the database the pool's `options` open.
    pub(super) fn start(options: SqliteConnectOptions) -> std::sync::Arc<WalCheckpoints> {
        let (stop, mut stopped) = watch::channel(false);
        let task = tokio::spawn(async move {
            let options = options.disable_statement_logging();
            loop {
                match checkpoints(&options, &mut stopped).await {
                    Ok(()) => return,
                    Err(e) => {
                        metrics::counter!(CHECKPOINTS_TOTAL, "outcome" => "failed").increment(1);
                        tracing::warn!(error = %e, "checkpointing the SQLite write-ahead log");
                    }
                }
                tokio::select! {
                    _ = stopped.changed() => return,
                    _ = tokio::time::sleep(AFTER_FAILURE) => {}
                }
            }
        });
        std::sync::Arc::new(WalCheckpoints {
            stop,
            task: Mutex::new(Some(task)),
        })
    }

    /// Ends the task and waits until its connection is closed.
    pub(super) async fn stop(&self) {
        let _ = self.stop.send(true);
        let task = self.task.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(task) = task {
            let _ = task.await;
        }
    }
}

/// Checkpoints every [`EVERY`] on one connection until told to stop (then closes it) or a
/// statement fails.
async fn checkpoints(
    options: &SqliteConnectOptions,
    stopped: &mut watch::Receiver<bool>,
) -> Result<(), sqlx::Error> {
    let mut conn: SqliteConnection = options.connect().await?;
    let mut every = tokio::time::interval(EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = stopped.changed() => return conn.close().await,
            _ = every.tick() => {}
        }
        sqlx::query("pragma wal_checkpoint(passive)")
            .execute(&mut conn)
            .await?;
        metrics::counter!(CHECKPOINTS_TOTAL, "outcome" => "done").increment(1);
    }
}
