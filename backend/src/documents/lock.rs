//! One owner's tree at a time.
//!
//! Each item is its own aggregate, so optimistic concurrency alone cannot stop two structural
//! commands in one tree from passing their checks together (moving A into B while B moves into
//! A; a folder deleted while a file is uploaded into it). Structural commands (create, upload,
//! move, delete, copy into My Docs) therefore hold the tree's lock while they check and record,
//! and release it only once the read model shows their events. In-process the lock is one of a
//! fixed set of mutexes; on PostgreSQL a session advisory lock also serialises the nodes of a
//! cluster.
//!
//! The advisory locks live on a few connections of their own, each holding the locks of many
//! trees at once: a tree's lock is taken with `pg_try_advisory_lock` (a tree held by another
//! node is tried again after a short wait, so one waiting tree never stops the others that
//! share its connection) and released with `pg_advisory_unlock` on the same connection. How
//! many trees are changed at once is thus not bounded by connections, and the command's own
//! reads and appends never wait for a lock holder's connection (they use the main pool).
//!
//! A node that dies or is cut off loses its connections, and PostgreSQL releases their locks. A
//! node that freezes (a stuck VM) keeps its sockets: the lock connections are opened with
//! `idle_session_timeout`, so PostgreSQL ends one that stays silent that long, and its locks
//! with it, as the transaction-scoped locks these replace were ended by
//! `idle_in_transaction_session_timeout` after the same 10 s.

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use projections::Db;
use sqlx::postgres::{PgConnectOptions, PgConnection};
use sqlx::{ConnectOptions, Connection};
use tokio::sync::{Mutex, OwnedMutexGuard};

/// Advisory-lock class of document trees (the first key of `pg_advisory_lock(int, int)`).
const PG_LOCK_CLASS: i32 = 3001;
const STRIPES: usize = 64;
/// `application_name` of the lock connections, as `pg_stat_activity` shows them.
pub const LOCK_CONNECTION_NAME: &str = "companion tree locks";
/// PostgreSQL ends a lock connection that sends nothing for this long, releasing its locks.
const IDLE_SESSION_TIMEOUT: &str = "10s";
/// A lock connection idle this long and holding no lock is opened anew before it is used,
/// rather than found ended by [`IDLE_SESSION_TIMEOUT`] (half of it).
const REOPEN_IF_IDLE_FOR: Duration = Duration::from_secs(5);
/// How long a command waits for a tree another node holds; then it fails, as it failed when it
/// waited that long for a lock connection.
const WAIT_MAX: Duration = Duration::from_secs(30);
/// The first and the longest pause before a tree held elsewhere is tried again.
const RETRY_FIRST: Duration = Duration::from_millis(1);
const RETRY_MAX: Duration = Duration::from_millis(25);

/// Connections of a node's lock pool: a quarter of the main pool's, between 2 and 8, counted in
/// `docs/deploy.md`'s budget. Each holds the locks of any number of trees; more than one only
/// spreads the round trips that take and release them.
pub fn lock_connections(main_pool: u32) -> u32 {
    (main_pool / 4).clamp(2, 8)
}

pub struct TreeLocks {
    stripes: Vec<Arc<Mutex<()>>>,
    /// The lock connections, set up on first use from the main pool's options.
    pg: OnceLock<PgLocks>,
}

struct PgLocks {
    options: Arc<PgConnectOptions>,
    connections: Vec<Arc<Mutex<LockConnection>>>,
}

/// One lock connection, opened when first needed and again after it failed.
struct LockConnection {
    conn: Option<PgConnection>,
    /// Counts the connections opened in this slot: a lock taken on an earlier one went with it.
    generation: u64,
    /// Locks taken (or being taken) on the current connection and not released yet.
    held: usize,
    last_used: Instant,
}

/// Held while a structural command runs; dropping it releases the tree.
pub struct TreeGuard {
    local: Option<OwnedMutexGuard<()>>,
    pg: Option<HeldLock>,
}

/// A tree's advisory lock on a lock connection.
struct HeldLock {
    connection: Arc<Mutex<LockConnection>>,
    generation: u64,
    key: i32,
}

/// FNV-1a: a hash that is the same on every node and every run.
fn stable_hash(key: &str) -> u64 {
    key.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Where `owner`'s tree is locked: its stripe of the node's mutexes and its advisory lock's key.
fn stripe_and_key(owner: &str) -> (usize, i32) {
    let hash = stable_hash(owner);
    // The low 32 bits as the key; collisions only serialise a little more. Two trees with one
    // key also share a stripe (64 divides 2^32), so a node never takes one key twice at once.
    (
        usize::try_from(hash % STRIPES as u64).unwrap_or(0),
        hash as u32 as i32,
    )
}

/// The advisory lock of `owner`'s tree, as `(class, key)`: what `pg_locks` shows as `classid`
/// and `objid` while a node holds it.
pub fn tree_lock_key(owner: &str) -> (i32, i32) {
    (PG_LOCK_CLASS, stripe_and_key(owner).1)
}

/// `owner`'s stripe and the lock connection its tree's lock is taken on, on a node whose main
/// pool has `main_pool` connections.
pub fn stripe_and_lock_connection(owner: &str, main_pool: u32) -> (usize, usize) {
    let (stripe, _) = stripe_and_key(owner);
    let connections = usize::try_from(lock_connections(main_pool)).unwrap_or(2);
    (stripe, stripe % connections)
}

impl Default for TreeLocks {
    fn default() -> Self {
        Self {
            stripes: (0..STRIPES).map(|_| Arc::new(Mutex::new(()))).collect(),
            pg: OnceLock::new(),
        }
    }
}

impl TreeLocks {
    /// Waits for the tree of `owner`.
    pub async fn lock(&self, db: &Db, owner: &str) -> Result<TreeGuard, sqlx::Error> {
        let (stripe, key) = stripe_and_key(owner);
        let mut guard = TreeGuard {
            local: Some(self.stripes[stripe].clone().lock_owned().await),
            pg: None,
        };
        let Db::Postgres { pool } = db else {
            return Ok(guard);
        };
        let main_pool = pool.options().get_max_connections();
        let locks = self.pg.get_or_init(|| {
            let options = (*pool.connect_options())
                .clone()
                .application_name(LOCK_CONNECTION_NAME)
                .options([("idle_session_timeout", IDLE_SESSION_TIMEOUT)]);
            let count = lock_connections(main_pool);
            PgLocks {
                options: Arc::new(options),
                connections: (0..count)
                    .map(|_| {
                        Arc::new(Mutex::new(LockConnection {
                            conn: None,
                            generation: 0,
                            held: 0,
                            last_used: Instant::now(),
                        }))
                    })
                    .collect(),
            }
        });
        let (_, on) = stripe_and_lock_connection(owner, main_pool);
        let connection = locks.connections[on].clone();
        let deadline = Instant::now() + WAIT_MAX;
        let mut pause = RETRY_FIRST;
        let mut failed_once = false;
        loop {
            let mut slot = connection.clone().lock_owned().await;
            let result = async {
                slot.ready(&locks.options).await?;
                // From here a drop (the caller gone mid-statement) releases whatever this
                // statement took: the guard knows the lock before it is asked for.
                slot.held += 1;
                guard.pg = Some(HeldLock {
                    connection: connection.clone(),
                    generation: slot.generation,
                    key,
                });
                let conn = slot.conn.as_mut().ok_or(sqlx::Error::PoolClosed)?;
                let taken = sqlx::query_scalar::<_, bool>("select pg_try_advisory_lock($1, $2)")
                    .bind(PG_LOCK_CLASS)
                    .bind(key)
                    .fetch_one(conn)
                    .await;
                slot.last_used = Instant::now();
                taken
            }
            .await;
            match result {
                Ok(true) => return Ok(guard),
                Ok(false) => {
                    // Another node holds the tree: nothing taken here to release.
                    guard.pg = None;
                    slot.held -= 1;
                }
                Err(e) => {
                    guard.pg = None;
                    // Whatever that connection held went with it.
                    slot.close();
                    if failed_once {
                        return Err(e);
                    }
                    tracing::warn!(error = %e, "a tree lock connection failed; opening another");
                    failed_once = true;
                    continue;
                }
            }
            drop(slot);
            if Instant::now() + pause > deadline {
                return Err(sqlx::Error::PoolTimedOut);
            }
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(RETRY_MAX);
        }
    }
}

impl LockConnection {
    /// The open connection, opened anew when there is none or it may have been ended for
    /// silence while it held nothing.
    async fn ready(&mut self, options: &PgConnectOptions) -> Result<(), sqlx::Error> {
        if self.held == 0 && self.last_used.elapsed() >= REOPEN_IF_IDLE_FOR {
            if let Some(old) = self.conn.take() {
                // It holds no lock; a graceful goodbye, or none if it was already ended.
                let _ = old.close().await;
            }
        }
        if self.conn.is_none() {
            self.conn = Some(options.connect().await?);
            self.generation += 1;
            self.held = 0;
        }
        Ok(())
    }

    /// Drops the connection: PostgreSQL ends its session and releases every lock it held.
    fn close(&mut self) {
        self.conn = None;
        self.held = 0;
    }
}

impl HeldLock {
    async fn release(self) {
        let mut slot = self.connection.lock().await;
        if slot.generation != self.generation {
            // The session that held it has ended, and released it.
            return;
        }
        slot.held = slot.held.saturating_sub(1);
        let Some(conn) = slot.conn.as_mut() else {
            // Closed since (its `held` counted from nothing again): the lock went with it.
            return;
        };
        let released = sqlx::query_scalar::<_, bool>("select pg_advisory_unlock($1, $2)")
            .bind(PG_LOCK_CLASS)
            .bind(self.key)
            .fetch_one(conn)
            .await;
        slot.last_used = Instant::now();
        if let Err(e) = released {
            // The lock must not outlive its command: ending the session releases it.
            tracing::warn!(error = %e, "a tree lock was not released; closing its connection");
            slot.close();
        }
    }

    /// Where no runtime is left to release it on: the connection is dropped if it is free,
    /// which ends its session and its locks.
    fn abandon(self) {
        if let Ok(mut slot) = self.connection.try_lock() {
            if slot.generation == self.generation {
                slot.close();
            }
        }
    }
}

impl Drop for TreeGuard {
    fn drop(&mut self) {
        let Some(held) = self.pg.take() else {
            return;
        };
        // The node's own waiters for the tree wait until the lock is released in PostgreSQL
        // too, or they would find it still held and wait longer.
        let local = self.local.take();
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => {
                runtime.spawn(async move {
                    held.release().await;
                    drop(local);
                });
            }
            Err(_) => held.abandon(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lock_pool_is_a_quarter_of_the_main_pool_between_two_and_eight() {
        assert_eq!(lock_connections(3), 2);
        assert_eq!(lock_connections(10), 2);
        assert_eq!(lock_connections(16), 4);
        assert_eq!(lock_connections(32), 8);
        assert_eq!(lock_connections(200), 8);
    }

    #[test]
    fn a_tree_hashes_the_same_on_every_node() {
        // The advisory lock's key must agree between processes and releases.
        assert_eq!(stable_hash(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(stable_hash("a"), 0xaf63_dc4c_8601_ec8c);
    }
}
