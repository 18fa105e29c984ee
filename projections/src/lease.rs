//! The projector lease (PostgreSQL): one node projects at a time, and a node that lost the
//! lease without noticing (frozen, partitioned) can never write a batch again.
//!
//! The owner renews a row every [`RENEW_EVERY`]; once it has not for [`LEASE_TTL`], any node
//! takes it over and raises the fencing number. Every batch checks the owner and fencing number
//! in the transaction that moves its checkpoint ("How to do distributed locking", Kleppmann).

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use sqlx::PgPool;

use crate::db::Tx;

/// How long a lease lasts without renewal.
pub const LEASE_TTL: Duration = Duration::from_secs(5);
/// How often the owner renews it (and a standby node tries to take it).
pub const RENEW_EVERY: Duration = Duration::from_secs(1);
/// The lease of the projector.
pub const PROJECTOR_LEASE: &str = "projector";

pub mod metric_names {
    /// Fencing number this node holds (0: not the owner).
    pub const FENCING: &str = "companion_projector_lease_fencing";
    /// 1 on the node that owns the projector lease.
    pub const OWNER: &str = "companion_projector_lease_owner";
    /// Times this node took the lease over.
    pub const TAKEOVERS_TOTAL: &str = "companion_projector_lease_takeovers_total";
    /// Batches refused because this node no longer held the lease.
    pub const FENCED_BATCHES_TOTAL: &str = "companion_projector_fenced_batches_total";
    pub const ALL: &[&str] = &[FENCING, OWNER, TAKEOVERS_TOTAL, FENCED_BATCHES_TOTAL];
}

/// This node's claim: its id and the fencing number it holds (0 while it holds none).
#[derive(Clone, Debug)]
pub struct Fence {
    owner: Arc<str>,
    number: Arc<AtomicI64>,
}

impl Fence {
    pub fn new(owner: &str) -> Self {
        Fence {
            owner: owner.into(),
            number: Arc::new(AtomicI64::new(0)),
        }
    }

    pub fn owner(&self) -> &str {
        &self.owner
    }

    pub fn number(&self) -> i64 {
        self.number.load(Ordering::Acquire)
    }

    pub fn set(&self, number: i64) {
        self.number.store(number, Ordering::Release);
        metrics::gauge!(metric_names::FENCING).set(number as f64);
        metrics::gauge!(metric_names::OWNER).set(if number > 0 { 1.0 } else { 0.0 });
    }

    /// True when this node still owns the lease with its fencing number, as seen by `tx`.
    pub async fn holds(&self, tx: &mut Tx) -> Result<bool, sqlx::Error> {
        let number = self.number();
        let t: &mut sqlx::PgConnection = match tx {
            Tx::Postgres(t) => t,
            Tx::PostgresReads(c) => c,
            // SQLite serves one node: there is no lease to lose.
            Tx::Sqlite(_) => return Ok(true),
        };
        if number == 0 {
            return Ok(false);
        }
        let held: Option<i64> = sqlx::query_scalar(
            "select fencing from projector_lease
             where name = $1 and owner = $2 and fencing = $3 and expires_at > now()",
        )
        .bind(PROJECTOR_LEASE)
        .bind(&*self.owner)
        .bind(number)
        .fetch_optional(&mut *t)
        .await?;
        Ok(held.is_some())
    }
}

/// Takes the lease when it is free or expired; returns the new fencing number.
pub async fn try_take(pool: &PgPool, owner: &str) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "insert into projector_lease (name, owner, fencing, expires_at, taken_at)
         values ($1, $2, 1, now() + make_interval(secs => $3), now())
         on conflict (name) do update
            set owner = excluded.owner, fencing = projector_lease.fencing + 1,
                expires_at = excluded.expires_at, taken_at = now()
            where projector_lease.expires_at < now()
         returning fencing",
    )
    .bind(PROJECTOR_LEASE)
    .bind(owner)
    .bind(LEASE_TTL.as_secs_f64())
    .fetch_optional(pool)
    .await
}

/// Extends the lease this node holds with `fencing`; false when it is no longer ours.
pub async fn renew(pool: &PgPool, owner: &str, fencing: i64) -> Result<bool, sqlx::Error> {
    let renewed = sqlx::query(
        "update projector_lease set expires_at = now() + make_interval(secs => $4)
         where name = $1 and owner = $2 and fencing = $3 and expires_at > now()",
    )
    .bind(PROJECTOR_LEASE)
    .bind(owner)
    .bind(fencing)
    .bind(LEASE_TTL.as_secs_f64())
    .execute(pool)
    .await?
    .rows_affected();
    Ok(renewed == 1)
}

/// Gives the lease up at once (a clean shutdown), so another node need not wait for it to expire.
pub async fn release(pool: &PgPool, owner: &str, fencing: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "update projector_lease set expires_at = now() - interval '1 second'
         where name = $1 and owner = $2 and fencing = $3",
    )
    .bind(PROJECTOR_LEASE)
    .bind(owner)
    .bind(fencing)
    .execute(pool)
    .await?;
    Ok(())
}

/// Who holds the lease now: (owner, fencing, still valid).
pub async fn holder(pool: &PgPool) -> Result<Option<(String, i64, bool)>, sqlx::Error> {
    sqlx::query_as("select owner, fencing, expires_at > now() from projector_lease where name = $1")
        .bind(PROJECTOR_LEASE)
        .fetch_optional(pool)
        .await
}
