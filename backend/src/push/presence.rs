//! Which sessions have a WebSocket open right now: a device whose app is open gets the live
//! dot, not a push. Each node knows its own sockets; on PostgreSQL it also writes them into
//! `push_presence` (see [`PresenceSync`]) so the node that sends pushes knows the others'.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use projections::{now_ms, Bound, Db, DbKind};
use tokio_util::sync::CancellationToken;

/// How often a node writes what changed in its sockets' sessions and says it still runs
/// (PostgreSQL).
pub const SYNC_EVERY: Duration = Duration::from_secs(1);
/// A node whose row is older than this stopped: its sessions are ignored.
const STALE_MS: i64 = 5_000;
/// A node whose row is older than this is gone: its rows are deleted.
pub const FORGET_MS: i64 = 10 * 60 * 1_000;
/// How often a node looks for gone nodes.
const FORGET_EVERY: Duration = Duration::from_secs(60);
/// Session rows written per transaction, at most.
pub const ROWS_PER_TRANSACTION: usize = 250;

#[derive(Default)]
pub struct Presence {
    open: Mutex<OpenSessions>,
    /// This node's id in `push_presence`, once its sync runs: its own rows are never read back,
    /// since the map above already says, at once, when one of its sockets closes.
    node_id: std::sync::OnceLock<String>,
}

/// The sessions with a socket open here (how many sockets each), and how many times one opened
/// or closed so far: a sync round with nothing new skips comparing thousands of sessions with
/// what it wrote.
#[derive(Default)]
struct OpenSessions {
    sockets: HashMap<String, usize>,
    changes: u64,
}

/// Keeps a session present while it lives (one per authenticated socket).
pub struct Present {
    presence: Arc<Presence>,
    session_id: String,
}

impl Drop for Present {
    fn drop(&mut self) {
        let mut open = self.presence.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = open.sockets.get_mut(&self.session_id) {
            *count -= 1;
            if *count == 0 {
                open.sockets.remove(&self.session_id);
                open.changes += 1;
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
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let count = open.sockets.entry(session_id.to_string()).or_default();
        *count += 1;
        if *count == 1 {
            open.changes += 1;
        }
        drop(open);
        Present {
            presence: self.clone(),
            session_id: session_id.to_string(),
        }
    }

    /// Whether `session_id` has a socket open on this node.
    pub fn is_local(&self, session_id: &str) -> bool {
        self.open
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .sockets
            .contains_key(session_id)
    }

    /// How many times a session opened or closed here so far.
    fn changes_made(&self) -> u64 {
        self.open.lock().unwrap_or_else(|e| e.into_inner()).changes
    }

    /// The sessions open here and not in `written`, those in `written` no longer open here, and
    /// [`Presence::changes_made`] as of that comparison. Only those are copied: a steady node
    /// holds thousands of sessions.
    fn changes(&self, written: &HashSet<String>) -> (Vec<String>, Vec<String>, u64) {
        let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let opened = open
            .sockets
            .keys()
            .filter(|s| !written.contains(*s))
            .cloned()
            .collect();
        let closed = written
            .iter()
            .filter(|s| !open.sockets.contains_key(*s))
            .cloned()
            .collect();
        (opened, closed, open.changes)
    }

    /// Whether `session_id` has a socket open on this node or (PostgreSQL) on another whose
    /// row in `push_presence_nodes` is fresh.
    pub async fn is_open(&self, db: &Db, session_id: &str) -> Result<bool, sqlx::Error> {
        if self.is_local(session_id) {
            return Ok(true);
        }
        match db {
            Db::Sqlite { .. } => Ok(false),
            Db::Postgres { pool } => {
                let own = self.node_id.get().map(String::as_str).unwrap_or_default();
                let found: Option<i32> = sqlx::query_scalar(
                    "select 1 from push_presence p
                     join push_presence_nodes n on n.node_id = p.node_id
                     where p.session_id = $1 and n.seen_at > $2 and p.node_id <> $3 limit 1",
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

    /// PostgreSQL: keeps this node's sessions in `push_presence` (a round every
    /// [`SYNC_EVERY`]) until `stop`, then removes them.
    pub async fn sync(self: Arc<Self>, db: Db, node_id: String, stop: CancellationToken) {
        if db.kind() != DbKind::Postgres {
            return;
        }
        let mut sync = PresenceSync::new(self, node_id);
        loop {
            if let Err(e) = sync.round(&db).await {
                tracing::warn!(error = %e, "cannot write which sessions have a socket here");
            }
            tokio::select! {
                _ = stop.cancelled() => break,
                _ = tokio::time::sleep(SYNC_EVERY) => {}
            }
        }
        if let Err(e) = sync.leave(&db).await {
            tracing::warn!(error = %e, "cannot remove this node's sessions with a socket");
        }
    }
}

/// What one round of [`PresenceSync`] wrote.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct SyncRound {
    pub inserted: usize,
    pub deleted: usize,
    /// Transactions that wrote session rows (the heartbeat's not counted).
    pub transactions: usize,
    /// Other nodes found gone and removed.
    pub nodes_forgotten: usize,
}

/// One node's writer of `push_presence` (PostgreSQL).
///
/// Only what changed is written: a session whose first socket opened since the last round is
/// inserted, one whose last socket closed is deleted, and the node's own row in
/// `push_presence_nodes` is refreshed. Session rows are written at most
/// [`ROWS_PER_TRANSACTION`] to a transaction: while a transaction with writes is open, events
/// committed after it began cannot be read by the projector (see `projections::stream`), so
/// no background write may hold one open for long.
pub struct PresenceSync {
    presence: Arc<Presence>,
    node_id: String,
    /// The sessions this node's rows say, as far as this process knows; `None` until its rows
    /// are known (at start, and when another node forgot this one).
    written: Option<HashSet<String>>,
    /// [`Presence::changes_made`] when `written` last matched the sessions open here.
    written_as_of: Option<u64>,
    forgot_at: Option<Instant>,
}

impl PresenceSync {
    pub fn new(presence: Arc<Presence>, node_id: String) -> Self {
        let _ = presence.node_id.set(node_id.clone());
        PresenceSync {
            presence,
            node_id,
            written: None,
            written_as_of: None,
            forgot_at: None,
        }
    }

    /// Refreshes this node's row, writes the sessions that opened or closed since the last
    /// round, and now and then removes nodes gone for [`FORGET_MS`].
    /// PostgreSQL only: on SQLite (one node) it writes nothing.
    pub async fn round(&mut self, db: &Db) -> Result<SyncRound, sqlx::Error> {
        let mut round = SyncRound::default();
        let Db::Postgres { pool } = db else {
            return Ok(round);
        };
        let refreshed =
            sqlx::query("update push_presence_nodes set seen_at = $2 where node_id = $1")
                .bind(&self.node_id)
                .bind(now_ms())
                .execute(pool)
                .await?
                .rows_affected();
        if refreshed == 0 {
            // First round of this process, or this node was silent long enough to be forgotten:
            // rows of an earlier run may be left. The node's row comes first, so a forgetting
            // node (which removes only rows of nodes without one) leaves the new rows alone.
            sqlx::query(
                "insert into push_presence_nodes (node_id, seen_at) values ($1, $2)
                 on conflict (node_id) do update set seen_at = excluded.seen_at",
            )
            .bind(&self.node_id)
            .bind(now_ms())
            .execute(pool)
            .await?;
            self.written = None;
        }
        if self.written.is_none() {
            let old = db
                .delete_in_batches(
                    "push_presence",
                    "node_id = $1",
                    &[Bound::Text(&self.node_id)],
                    ROWS_PER_TRANSACTION as u64,
                )
                .await?;
            round.deleted += old.rows as usize;
            round.transactions += old.statements;
            self.written = Some(HashSet::new());
            self.written_as_of = None;
        }
        if self
            .written_as_of
            .is_some_and(|as_of| as_of == self.presence.changes_made())
        {
            // No session opened or closed here since the rows were last made to match.
            return self.forget_now_and_then(db, round).await;
        }
        let written = self.written.get_or_insert_with(HashSet::new);
        let (opened, closed, as_of) = self.presence.changes(written);
        for chunk in opened.chunks(ROWS_PER_TRANSACTION) {
            // `on conflict`: a round whose commit went through but whose answer was lost is
            // written again.
            sqlx::query(
                "insert into push_presence (node_id, session_id, seen_at)
                 select $1, s, $3 from unnest($2::text[]) as t(s)
                 on conflict (node_id, session_id) do nothing",
            )
            .bind(&self.node_id)
            .bind(chunk)
            .bind(now_ms())
            .execute(pool)
            .await?;
            written.extend(chunk.iter().cloned());
            round.inserted += chunk.len();
            round.transactions += 1;
        }
        for chunk in closed.chunks(ROWS_PER_TRANSACTION) {
            sqlx::query("delete from push_presence where node_id = $1 and session_id = any($2)")
                .bind(&self.node_id)
                .bind(chunk)
                .execute(pool)
                .await?;
            for session in chunk {
                written.remove(session);
            }
            round.deleted += chunk.len();
            round.transactions += 1;
        }
        self.written_as_of = Some(as_of);
        self.forget_now_and_then(db, round).await
    }

    /// Removes the nodes gone for [`FORGET_MS`], once every [`FORGET_EVERY`].
    async fn forget_now_and_then(
        &mut self,
        db: &Db,
        mut round: SyncRound,
    ) -> Result<SyncRound, sqlx::Error> {
        if self.forgot_at.is_none_or(|at| at.elapsed() >= FORGET_EVERY) {
            self.forgot_at = Some(Instant::now());
            round.nodes_forgotten = forget_gone_nodes(db).await?;
        }
        Ok(round)
    }

    /// Removes this node: its row first (its sessions stop counting at once), then its rows.
    pub async fn leave(&mut self, db: &Db) -> Result<(), sqlx::Error> {
        let Db::Postgres { pool } = db else {
            return Ok(());
        };
        sqlx::query("delete from push_presence_nodes where node_id = $1")
            .bind(&self.node_id)
            .execute(pool)
            .await?;
        self.written = None;
        self.written_as_of = None;
        delete_orphan_rows(db).await?;
        Ok(())
    }
}

/// Removes the rows of nodes not seen for [`FORGET_MS`] (a node that stopped without leaving).
async fn forget_gone_nodes(db: &Db) -> Result<usize, sqlx::Error> {
    let Db::Postgres { pool } = db else {
        return Ok(0);
    };
    let forgotten = sqlx::query("delete from push_presence_nodes where seen_at < $1")
        .bind(now_ms() - FORGET_MS)
        .execute(pool)
        .await?
        .rows_affected() as usize;
    delete_orphan_rows(db).await?;
    Ok(forgotten)
}

/// Deletes session rows whose node has no row, [`ROWS_PER_TRANSACTION`] at a time.
async fn delete_orphan_rows(db: &Db) -> Result<(), sqlx::Error> {
    db.delete_in_batches(
        "push_presence",
        "not exists (select 1 from push_presence_nodes n where n.node_id = push_presence.node_id)",
        &[],
        ROWS_PER_TRANSACTION as u64,
    )
    .await?;
    Ok(())
}
