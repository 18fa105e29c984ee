//! Several nodes on one PostgreSQL database.
//!
//! - Exactly one node runs the projector: the one holding a session advisory lock on a connection
//!   of its own. The others try again every second; a node that dies closes that connection and
//!   PostgreSQL releases the lock, so another takes over. Checkpoints move by compare-and-set,
//!   so even a node that lost its lock without noticing cannot apply a batch twice.
//! - The node running the projector sends one `NOTIFY companion_feed, '<position>'` per
//!   committed batch that added feed rows. Every node listens and scans the table; a slow poll
//!   covers notifications lost while a listener reconnects.
//! - Commands on the other nodes send `NOTIFY companion_events` so the projector runs at once.

use std::sync::Arc;
use std::time::Duration;

use projections::feed::{self, FEED_CHANNEL};
use projections::projector::WAKE_CHANNEL;
use projections::{Projector, ProjectorHandle};
use sqlx::postgres::PgListener;
use sqlx::{Connection, PgConnection, PgPool};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use super::hub::Hub;

/// Key of the session advisory lock held by the node that runs the projector.
const PROJECTOR_LOCK: i64 = 0x636f_6d70_7072_6f6a; // "compproj"
/// How often the lock holder checks that its lock connection is alive.
const LOCK_HEARTBEAT: Duration = Duration::from_secs(2);

/// Runs `projector` whenever this node holds the projector lock, until `shutdown`.
pub async fn run_projector(
    projector: Projector,
    pool: PgPool,
    retry: Duration,
    shutdown: CancellationToken,
) {
    let options = pool.connect_options().as_ref().clone();
    let mut announced_standby = false;
    loop {
        if shutdown.is_cancelled() {
            return;
        }
        let mut conn = match PgConnection::connect_with(&options).await {
            Ok(conn) => conn,
            Err(e) => {
                tracing::warn!(error = %e, "cannot open the projector lock connection; retrying");
                if sleep_or_stop(retry, &shutdown).await {
                    return;
                }
                continue;
            }
        };
        // Try until we hold it (or the connection breaks).
        let held = loop {
            match sqlx::query_scalar::<_, bool>("select pg_try_advisory_lock($1)")
                .bind(PROJECTOR_LOCK)
                .fetch_one(&mut conn)
                .await
            {
                Ok(true) => break true,
                Ok(false) => {
                    if !announced_standby {
                        announced_standby = true;
                        tracing::info!("another node runs the projections; standing by");
                    }
                }
                Err(e) => {
                    tracing::warn!(error = %e, "projector lock connection failed");
                    break false;
                }
            }
            if sleep_or_stop(retry, &shutdown).await {
                return;
            }
        };
        if !held {
            continue;
        }
        announced_standby = false;
        tracing::info!("this node runs the projections");
        let lost = tokio::select! {
            _ = projector.run_until_shutdown(shutdown.cancelled()) => false,
            _ = watch_connection(&mut conn) => true,
        };
        if !lost {
            let _ = sqlx::query("select pg_advisory_unlock($1)")
                .bind(PROJECTOR_LOCK)
                .execute(&mut conn)
                .await;
            let _ = conn.close().await;
            return;
        }
        tracing::warn!("lost the projector lock (its connection broke); standing by");
    }
}

/// Returns when the connection stops answering.
async fn watch_connection(conn: &mut PgConnection) {
    loop {
        tokio::time::sleep(LOCK_HEARTBEAT).await;
        if let Err(e) = sqlx::query("select 1").execute(&mut *conn).await {
            tracing::warn!(error = %e, "projector lock connection lost");
            return;
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
        match feed::latest_position(&db).await {
            Ok(position) if position > last => match feed::announce(&db, position).await {
                Ok(()) => last = position,
                Err(e) => tracing::warn!(error = %e, "cannot announce new feed entries"),
            },
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "cannot read the feed position"),
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
