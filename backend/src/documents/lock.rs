//! One owner's tree at a time.
//!
//! Each item is its own aggregate, so optimistic concurrency alone cannot stop two structural
//! commands in one tree from passing their checks together (moving A into B while B moves into
//! A; a folder deleted while a file is uploaded into it). Structural commands (create, upload,
//! move, delete, copy into My Docs) therefore hold the tree's lock while they check and record,
//! and release it only once the read model shows their events. In-process the lock is one of a
//! fixed set of mutexes; on PostgreSQL a transaction-scoped advisory lock also serialises the
//! nodes of a cluster.
//!
//! The advisory lock's transaction holds a connection for the whole command, while the command
//! appends and reads on others. Were it taken from the server's pool, enough commands in
//! different trees at once would each hold a lock connection and wait for a second one that never
//! frees (until the pool's acquire timeout). So the lock connections come from a small pool of
//! their own, opened with the same options: a command waits for a lock connection before it
//! holds anything of the main pool, and the main pool is never held by lock waiters.

use std::sync::{Arc, OnceLock};

use projections::Db;
use sqlx::postgres::PgPool;
use tokio::sync::{Mutex, OwnedMutexGuard};

/// Advisory-lock class of document trees (the first key of `pg_advisory_xact_lock(int, int)`).
const PG_LOCK_CLASS: i32 = 3001;
const STRIPES: usize = 64;
/// Connections of a node's lock pool: at most this many trees are changed at once on one node
/// (the others wait for a connection, holding nothing). A quarter of the main pool's, between 2
/// and 8, counted in `docs/deploy.md`'s budget: a node set to a small pool (tests, several nodes
/// on one database) stays small in all. A lock is held for the whole command, its commit
/// included, so this also bounds how many structural commands share a group commit: with 4,
/// eight clients' commands shared commits by threes, with 8 by 3.5 (`docs/BENCHMARKS.md`).
pub fn lock_connections(main_pool: u32) -> u32 {
    (main_pool / 4).clamp(2, 8)
}

pub struct TreeLocks {
    stripes: Vec<Arc<Mutex<()>>>,
    /// The lock pool, opened on first use from the main pool's options.
    pg: OnceLock<PgPool>,
}

/// Held while a structural command runs; dropping it releases the tree.
pub struct TreeGuard {
    _local: OwnedMutexGuard<()>,
    /// The transaction holding the advisory lock; rolled back (and the lock released) on drop.
    _pg: Option<sqlx::Transaction<'static, sqlx::Postgres>>,
}

/// FNV-1a: a hash that is the same on every node and every run.
fn stable_hash(key: &str) -> u64 {
    key.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
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
        let hash = stable_hash(owner);
        let stripe = usize::try_from(hash % STRIPES as u64).unwrap_or(0);
        let local = self.stripes[stripe].clone().lock_owned().await;
        let pg = match db {
            Db::Postgres { pool } => {
                let locks = self.pg.get_or_init(|| {
                    projections::db::postgres_pool_options()
                        .max_connections(lock_connections(pool.options().get_max_connections()))
                        .min_connections(0)
                        .acquire_timeout(std::time::Duration::from_secs(30))
                        .idle_timeout(std::time::Duration::from_secs(60))
                        .connect_lazy_with((*pool.connect_options()).clone())
                });
                // The low 32 bits as the second key; collisions only serialise a little more.
                let key = hash as u32 as i32;
                // Begun and locked in one round trip: the lock is the transaction's first
                // statement. Both keys are numbers made here, so they can be written in the text.
                let tx = locks
                    .begin_with(format!(
                        "begin; select pg_advisory_xact_lock({PG_LOCK_CLASS}, {key})"
                    ))
                    .await?;
                Some(tx)
            }
            Db::Sqlite { .. } => None,
        };
        Ok(TreeGuard {
            _local: local,
            _pg: pg,
        })
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
