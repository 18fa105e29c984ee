//! Which sessions have a WebSocket open right now: a device whose app is open gets the live
//! dot, not a push. Each node knows its own sockets; on PostgreSQL it also writes them into
//! `push_presence` every [`SYNC_EVERY`] so the node that sends pushes knows the others'.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use projections::{now_ms, Db};
use tokio_util::sync::CancellationToken;

/// How often a node writes its sockets' sessions (PostgreSQL).
pub const SYNC_EVERY: Duration = Duration::from_secs(1);
/// A node's rows older than this are a node that stopped: ignored.
const STALE_MS: i64 = 5_000;

#[derive(Default)]
pub struct Presence {
    sessions: Mutex<HashMap<String, usize>>,
    /// This node's id in `push_presence`, once its sync runs: its own rows are never read back,
    /// since the map above already says, at once, when one of its sockets closes.
    node_id: std::sync::OnceLock<String>,
}

/// Keeps a session present while it lives (one per authenticated socket).
pub struct Present {
    presence: Arc<Presence>,
    session_id: String,
}

impl Drop for Present {
    fn drop(&mut self) {
        let mut sessions = self
            .presence
            .sessions
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(count) = sessions.get_mut(&self.session_id) {
            *count -= 1;
            if *count == 0 {
                sessions.remove(&self.session_id);
            }
        }
    }
}

impl Presence {
    pub fn new() -> Arc<Self> {
        Arc::default()
    }

    /// Marks `session_id` as having a socket open on this node until the guard is dropped.
    pub fn enter(self: &Arc<Self>, session_id: &str) -> Present {
        *self
            .sessions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(session_id.to_string())
            .or_default() += 1;
        Present {
            presence: self.clone(),
            session_id: session_id.to_string(),
        }
    }

    /// Whether `session_id` has a socket open on this node.
    pub fn is_local(&self, session_id: &str) -> bool {
        self.sessions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains_key(session_id)
    }

    fn local(&self) -> Vec<String> {
        self.sessions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .keys()
            .cloned()
            .collect()
    }

    /// Whether `session_id` has a socket open on this node or (PostgreSQL) on another.
    pub async fn is_open(&self, db: &Db, session_id: &str) -> Result<bool, sqlx::Error> {
        if self.is_local(session_id) {
            return Ok(true);
        }
        match db {
            Db::Sqlite { .. } => Ok(false),
            Db::Postgres { pool } => {
                let own = self.node_id.get().map(String::as_str).unwrap_or_default();
                let found: Option<i32> = sqlx::query_scalar(
                    "select 1 from push_presence
                     where session_id = $1 and seen_at > $2 and node_id <> $3 limit 1",
                )
                .bind(session_id)
                .bind(now_ms() - STALE_MS)
                .bind(own)
                .fetch_optional(pool)
                .await?;
                Ok(found.is_some())
            }
        }
    }

    /// PostgreSQL: writes this node's sessions every [`SYNC_EVERY`] until `stop`, then removes
    /// them.
    pub async fn sync(self: Arc<Self>, db: Db, node_id: String, stop: CancellationToken) {
        let Db::Postgres { pool } = db else { return };
        let _ = self.node_id.set(node_id.clone());
        loop {
            let sessions = self.local();
            let written = async {
                let mut tx = pool.begin().await?;
                sqlx::query("delete from push_presence where node_id = $1")
                    .bind(&node_id)
                    .execute(&mut *tx)
                    .await?;
                if !sessions.is_empty() {
                    sqlx::query(
                        "insert into push_presence (node_id, session_id, seen_at)
                         select $1, s, $3 from unnest($2::text[]) as t(s)",
                    )
                    .bind(&node_id)
                    .bind(&sessions)
                    .bind(now_ms())
                    .execute(&mut *tx)
                    .await?;
                }
                tx.commit().await
            }
            .await;
            if let Err(e) = written {
                tracing::warn!(error = %e, "cannot write which sessions have a socket here");
            }
            tokio::select! {
                _ = stop.cancelled() => break,
                _ = tokio::time::sleep(SYNC_EVERY) => {}
            }
        }
        let _ = sqlx::query("delete from push_presence where node_id = $1")
            .bind(&node_id)
            .execute(&pool)
            .await;
    }
}
