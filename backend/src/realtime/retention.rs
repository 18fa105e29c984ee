//! Deleting feed entries older than `FEED_RETENTION_SECONDS`.
//!
//! The newest entry of each user (and the newest broadcast, whose `user_id` is `*`) is always
//! kept, whatever its age: feed numbers are `max(seq) + 1`, so deleting it would hand out its
//! number again and a client holding that number would skip the new entry. A client whose number
//! is older than the oldest kept entry is told to reload (see `socket::resume_plan`).

use std::time::Duration;

use projections::{now_ms, Bound, Db, DELETE_BATCH_ROWS};
use tokio_util::sync::CancellationToken;

/// Deletes entries created before `cutoff_ms`, except each user's newest, a batch at a time.
/// Returns how many.
pub async fn purge(db: &Db, cutoff_ms: i64) -> Result<u64, sqlx::Error> {
    db.delete_in_batches(
        "user_feed",
        "created_at < $1
           and seq < (select max(f.seq) from user_feed f where f.user_id = user_feed.user_id)",
        &[Bound::Int(cutoff_ms)],
        DELETE_BATCH_ROWS,
    )
    .await
    .map(|deleted| deleted.rows)
}

/// Purges every tenth of the retention period (between one second and one hour).
pub async fn run(db: Db, retention: Duration, shutdown: CancellationToken) {
    let every = (retention / 10).clamp(Duration::from_secs(1), Duration::from_secs(3600));
    loop {
        let cutoff = now_ms() - retention.as_millis() as i64;
        match purge(&db, cutoff).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(deleted = n, "old feed entries deleted"),
            Err(e) => tracing::warn!(error = %e, "deleting old feed entries failed"),
        }
        tokio::select! {
            _ = shutdown.cancelled() => return,
            _ = tokio::time::sleep(every) => {}
        }
    }
}
