//! Several nodes on one PostgreSQL database.
//!
//! - Exactly one node runs the projector: the one holding the projector lease (a row renewed
//!   every second, see [`projections::lease`]). The others try to take it every second; once the
//!   owner has not renewed it for a few seconds (dead, frozen, cut off) another takes it over
//!   with a higher fencing number, which every batch checks in its transaction: a former owner
//!   that wakes up cannot write a batch.
//! - The node running the projector sends one `NOTIFY companion_feed, '<position>'` per
//!   committed batch that added feed rows. Every node listens and scans the table; a slow poll
//!   covers notifications lost while a listener reconnects.
//! - Commands on the other nodes send `NOTIFY companion_events` so the projector runs at once.

use std::sync::Arc;
use std::time::Duration;

use projections::feed::{self, FEED_CHANNEL};
use projections::lease::{self, Fence};
use projections::projector::WAKE_CHANNEL;
use projections::{Projector, ProjectorHandle};
use sqlx::postgres::PgListener;
use sqlx::PgPool;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use super::hub::Hub;

/// Runs `projector` whenever this node (`node_id`) holds the projector lease, until `shutdown`.
/// The lease is renewed every second; when a renewal fails or is late (this node was frozen,
/// or cut off from the database), the projector is told to stop and finishes the batch under
/// way, whose projections are refused by the fencing number.
pub async fn run_projector(
    projector: Projector,
    pool: PgPool,
    node_id: String,
    retry: Duration,
    shutdown: CancellationToken,
) {
    let fence = Fence::new(&node_id);
    let projector = projector.with_fence(fence.clone());
    fence.set(0);
    let mut announced_standby = false;
    loop {
        if shutdown.is_cancelled() {
            return;
        }
        let fencing = match lease::try_take(&pool, &node_id).await {
            Ok(Some(fencing)) => fencing,
            Ok(None) => {
                if !announced_standby {
                    announced_standby = true;
                    tracing::info!("another node runs the projections; standing by");
                }
                if sleep_or_stop(retry, &shutdown).await {
                    return;
                }
                continue;
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot read the projector lease; retrying");
                if sleep_or_stop(retry, &shutdown).await {
                    return;
                }
                continue;
            }
        };
        announced_standby = false;
        fence.set(fencing);
        metrics::counter!(lease::metric_names::TAKEOVERS_TOTAL).increment(1);
        tracing::info!(
            fencing,
            "this node runs the projections (projector lease taken)"
        );
        let stop_projector = shutdown.child_token();
        let run = projector.run_until_shutdown(stop_projector.cancelled());
        tokio::pin!(run);
        let stopped = tokio::select! {
            _ = &mut run => true,
            _ = keep_lease(&pool, &node_id, fencing) => false,
        };
        fence.set(0);
        if !stopped {
            // Stopped, not dropped: dropping the projector in the middle of a group commit
            // would drop the commands it took, their outcome unknown to them. With the fence
            // down, the batch under way commits the commands' events without the projections
            // (the new owner applies them) and answers them; then the loop ends. A projector
            // stuck past a lease time is dropped after all: the fence refuses its batches.
            stop_projector.cancel();
            if tokio::time::timeout(lease::LEASE_TTL, &mut run)
                .await
                .is_err()
            {
                tracing::warn!("the projector did not stop within a lease time; dropped");
            }
        }
        if stopped || shutdown.is_cancelled() {
            if let Err(e) = lease::release(&pool, &node_id, fencing).await {
                tracing::warn!(error = %e, "cannot release the projector lease");
            }
            return;
        }
        tracing::warn!(fencing, "lost the projector lease; standing by");
        // Let the new owner settle before trying again.
        if sleep_or_stop(retry, &shutdown).await {
            return;
        }
    }
}

/// Renews the lease until it is lost: a renewal refused, or none for a whole lease time (a
/// node that was frozen must not trust a lease whose time ran out while it slept).
async fn keep_lease(pool: &PgPool, node_id: &str, fencing: i64) {
    let mut renewed_at = std::time::Instant::now();
    loop {
        tokio::time::sleep(lease::RENEW_EVERY).await;
        if renewed_at.elapsed() >= lease::LEASE_TTL {
            tracing::warn!("the projector lease ran out before it could be renewed");
            return;
        }
        let attempt = std::time::Instant::now();
        match lease::renew(pool, node_id, fencing).await {
            Ok(true) => renewed_at = attempt,
            Ok(false) => {
                tracing::warn!(fencing, "another node took the projector lease over");
                return;
            }
            Err(e) => tracing::warn!(error = %e, "cannot renew the projector lease"),
        }
    }
}

/// True when stopped before `wait` passed.
async fn sleep_or_stop(wait: Duration, shutdown: &CancellationToken) -> bool {
    tokio::select! {
        _ = shutdown.cancelled() => true,
        _ = tokio::time::sleep(wait) => false,
    }
}

/// On the node running the projector: after each committed batch that added feed rows, tells
/// every node where the feed now ends.
pub async fn announce_feed(
    db: projections::Db,
    mut batches: watch::Receiver<u64>,
    handle: ProjectorHandle,
    shutdown: CancellationToken,
) {
    let mut last = feed::latest_position(&db).await.unwrap_or(0);
    loop {
        tokio::select! {
            _ = shutdown.cancelled() => return,
            changed = batches.changed() => if changed.is_err() { return },
        }
        if !handle.is_active() {
            continue;
        }
        match feed::announce_past(&db, last).await {
            Ok(Some(position)) => last = position,
            Ok(None) => {}
            Err(e) => tracing::warn!(error = %e, "cannot announce new feed entries"),
        }
    }
}

/// Listens for new feed entries and wake-up calls for the projector, until `shutdown`.
pub async fn listen(
    pool: PgPool,
    hub: Arc<Hub>,
    projector: ProjectorHandle,
    shutdown: CancellationToken,
) {
    loop {
        let mut listener = match PgListener::connect_with(&pool).await {
            Ok(listener) => listener,
            Err(e) => {
                tracing::warn!(error = %e, "cannot listen for feed notifications; retrying");
                if sleep_or_stop(Duration::from_secs(1), &shutdown).await {
                    return;
                }
                continue;
            }
        };
        if let Err(e) = listener.listen_all([FEED_CHANNEL, WAKE_CHANNEL]).await {
            tracing::warn!(error = %e, "cannot listen for feed notifications; retrying");
            if sleep_or_stop(Duration::from_secs(1), &shutdown).await {
                return;
            }
            continue;
        }
        // Whatever was announced before we listened is read by one scan now.
        hub.poke();
        loop {
            let received = tokio::select! {
                _ = shutdown.cancelled() => return,
                received = listener.try_recv() => received,
            };
            match received {
                Ok(Some(notification)) if notification.channel() == FEED_CHANNEL => {
                    hub.poke_at(notification.payload().parse().unwrap_or(i64::MAX));
                }
                Ok(Some(_)) => projector.wake(),
                Ok(None) => {
                    // Reconnected: notifications sent meanwhile are lost, so look now.
                    tracing::info!("feed listener reconnected");
                    hub.poke();
                    projector.wake();
                }
                Err(e) => {
                    tracing::warn!(error = %e, "feed listener failed; reconnecting");
                    if sleep_or_stop(Duration::from_secs(1), &shutdown).await {
                        return;
                    }
                    break;
                }
            }
        }
    }
}
