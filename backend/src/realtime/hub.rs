//! The hub of one node: which users have sockets here, and the loop that reads new feed rows
//! and hands each to the sockets of its user.
//!
//! The loop keeps one cursor over `user_feed.feed_position` (feed writers are serialised, so the
//! cursor never passes a row that is not yet visible). It wakes after each local projector batch,
//! on a poke (a `NOTIFY` from the node running the projector), and every `FEED_POLL_MS` in case a
//! notification was lost. Each row is encoded once; its sockets get a cheap clone, written by the
//! hub itself to each socket whose task waits (see `outlet`), queued for the others. Queues are
//! bounded: a socket whose queue is full is told to close as "slow" and the hub moves on.

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use projections::{feed, on_db, Db};
use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;

use super::outlet::{Offer, Outlet};
use super::protocol::{broadcast_message, feed_message, Close};

/// Rows read per query while scanning.
const SCAN_PAGE: i64 = 1000;
/// A broadcast to fewer sockets than this is written by the hub's thread alone.
const SHARE_OUT_FROM: usize = 512;

/// One feed entry on its way to a socket.
#[derive(Debug, Clone)]
pub struct Live {
    /// Its number in its stream: the user's own, or the broadcasts'.
    pub seq: i64,
    /// A broadcast (the same for every user) rather than an entry of the user's own feed.
    pub broadcast: bool,
    /// Its place among all feed rows (orders the two streams against each other).
    pub position: i64,
    pub text: Utf8Bytes,
    /// For a session revocation: its payload, so the sockets of that session close.
    pub revocation: Option<std::sync::Arc<serde_json::Value>>,
}

/// Tells a socket to close, once, with a reason.
#[derive(Debug, Clone, Default)]
pub struct Stopper {
    token: CancellationToken,
    reason: Arc<OnceLock<Close>>,
}

impl Stopper {
    pub fn child_of(parent: &CancellationToken) -> Self {
        Self {
            token: parent.child_token(),
            reason: Arc::default(),
        }
    }

    /// Asks the socket to close with `reason` (the first reason given wins).
    pub fn stop(&self, reason: Close) {
        let _ = self.reason.set(reason);
        self.token.cancel();
    }

    /// Stops without a reason: the other side is gone.
    pub fn stop_silently(&self) {
        self.token.cancel();
    }

    pub fn reason(&self) -> Option<Close> {
        self.reason.get().copied()
    }

    pub async fn stopped(&self) {
        self.token.cancelled().await
    }

    pub fn is_stopped(&self) -> bool {
        self.token.is_cancelled()
    }
}

struct Conn {
    id: u64,
    user_id: String,
    tx: mpsc::Sender<Live>,
    stopper: Stopper,
    outlet: Arc<Outlet>,
}

#[derive(Default)]
struct Counters {
    delivered: AtomicU64,
    queued: AtomicU64,
    slow: AtomicU64,
}

pub struct Hub {
    conns: Mutex<HashMap<String, Vec<Arc<Conn>>>>,
    next_id: AtomicU64,
    queue: usize,
    poke: crate::feed::Poke,
    /// The highest `feed_position` dispatched (readable for diagnostics).
    cursor: AtomicI64,
    counters: Counters,
    /// True once the cursor holds where the feed ended when the hub started.
    started: watch::Sender<bool>,
}

/// A socket's place in the hub; dropping it removes the socket.
pub struct Registration {
    hub: Arc<Hub>,
    user_id: String,
    id: u64,
    pub rx: mpsc::Receiver<Live>,
}

impl Drop for Registration {
    fn drop(&mut self) {
        let mut conns = self.hub.conns.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(list) = conns.get_mut(&self.user_id) {
            list.retain(|c| c.id != self.id);
            if list.is_empty() {
                conns.remove(&self.user_id);
            }
        }
    }
}

/// What the hub has done so far (for tests and the load tool).
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct HubStats {
    pub sockets: usize,
    pub users: usize,
    pub delivered: u64,
    /// Of those, the ones queued for the socket's task rather than written by the hub.
    pub queued: u64,
    pub cut_off_slow: u64,
    pub cursor: i64,
}

impl Hub {
    pub fn new(queue: usize) -> Arc<Hub> {
        Arc::new(Hub {
            conns: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
            queue: queue.max(1),
            poke: crate::feed::Poke::default(),
            cursor: AtomicI64::new(0),
            counters: Counters::default(),
            started: watch::channel(false).0,
        })
    }

    /// Adds a socket of `user_id`. Register before reading the replay, so nothing committed in
    /// between is missed (the socket drops what it already sent by `seq`).
    ///
    /// Waits until the hub knows where the feed ended when it started: a row committed between
    /// a socket's replay and the hub's first reading of the feed's end would otherwise reach it
    /// neither way.
    pub async fn register(
        self: &Arc<Self>,
        user_id: &str,
        stopper: Stopper,
        outlet: Arc<Outlet>,
    ) -> Registration {
        let mut started = self.started.subscribe();
        // An error means the hub is gone, and with it the server: nothing to wait for.
        let _ = started.wait_for(|s| *s).await;
        let (tx, rx) = mpsc::channel(self.queue);
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        self.conns
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(user_id.to_string())
            .or_default()
            .push(Arc::new(Conn {
                id,
                user_id: user_id.to_string(),
                tx,
                stopper,
                outlet,
            }));
        Registration {
            hub: self.clone(),
            user_id: user_id.to_string(),
            id,
            rx,
        }
    }

    /// Makes the loop look for new rows now.
    pub fn poke(&self) {
        self.poke.poke();
    }

    /// A handle on [`Hub::poke`].
    pub fn poker(&self) -> crate::feed::Poke {
        self.poke.clone()
    }

    /// Like [`Hub::poke`], unless rows up to `position` were dispatched already.
    pub fn poke_at(&self, position: i64) {
        if position > self.cursor.load(Ordering::Acquire) {
            self.poke();
        }
    }

    pub fn stats(&self) -> HubStats {
        let conns = self.conns.lock().unwrap_or_else(|e| e.into_inner());
        HubStats {
            sockets: conns.values().map(Vec::len).sum(),
            users: conns.len(),
            delivered: self.counters.delivered.load(Ordering::Relaxed),
            queued: self.counters.queued.load(Ordering::Relaxed),
            cut_off_slow: self.counters.slow.load(Ordering::Relaxed),
            cursor: self.cursor.load(Ordering::Acquire),
        }
    }

    fn has_sockets(&self) -> bool {
        !self
            .conns
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_empty()
    }

    /// Scans and dispatches until `shutdown`.
    pub async fn run(
        self: Arc<Self>,
        db: Db,
        mut batches: watch::Receiver<u64>,
        poll: Duration,
        shutdown: CancellationToken,
    ) {
        // Sockets replay what was committed before they registered; the hub starts at the end.
        loop {
            match feed::latest_position(&db).await {
                Ok(p) => {
                    self.cursor.store(p, Ordering::Release);
                    self.started.send_replace(true);
                    break;
                }
                Err(e) => {
                    tracing::error!(error = %e, "realtime hub cannot read the feed; retrying");
                    tokio::select! {
                        _ = shutdown.cancelled() => return,
                        _ = tokio::time::sleep(Duration::from_secs(1)) => {}
                    }
                }
            }
        }
        let mut batches_open = true;
        loop {
            // Without the runtime's budget: past 128 writes in one go it would answer every
            // further write "not now", and each socket's task would be woken to do it instead.
            if let Err(e) = tokio::task::unconstrained(self.scan(&db)).await {
                tracing::error!(error = %e, "realtime hub scan failed; retrying");
                tokio::select! {
                    _ = shutdown.cancelled() => return,
                    _ = tokio::time::sleep(Duration::from_secs(1)) => {}
                }
                continue;
            }
            tokio::select! {
                _ = shutdown.cancelled() => return,
                _ = self.poke.poked() => {}
                changed = batches.changed(), if batches_open => batches_open = changed.is_ok(),
                _ = tokio::time::sleep(poll) => {}
            }
        }
    }

    /// Writes `live` to `conn` if it waits for it, or queues it; a socket whose queue is full is
    /// told to close as slow, without holding up the others. Whether it was delivered.
    fn hand_over(&self, conn: &Conn, live: &Live) -> bool {
        if conn.stopper.is_stopped() {
            return false;
        }
        match conn.outlet.offer(live, &conn.tx) {
            Offer::Written => true,
            Offer::Queued => {
                self.counters.queued.fetch_add(1, Ordering::Relaxed);
                true
            }
            Offer::Full => {
                self.counters.slow.fetch_add(1, Ordering::Relaxed);
                tracing::info!(user = %conn.user_id, "realtime client too slow; disconnecting");
                conn.stopper.stop(Close::Slow);
                false
            }
            Offer::Failed => {
                conn.stopper.stop_silently();
                false
            }
            Offer::Closed => false,
        }
    }

    fn hand_over_each(&self, conns: &[Arc<Conn>], live: &Live) {
        let delivered = conns.iter().filter(|c| self.hand_over(c, live)).count();
        self.counters
            .delivered
            .fetch_add(delivered as u64, Ordering::Relaxed);
    }

    /// Hands a broadcast to every socket of the node, the sockets shared out among the
    /// runtime's threads: each write runs the kernel's send, so one thread alone would leave
    /// the other cores idle while a change for everyone goes out. Returns once all are done,
    /// so the next row comes after it on every socket.
    async fn hand_over_to_all(self: &Arc<Self>, live: Live) {
        let everyone: Arc<[Arc<Conn>]> = {
            let conns = self.conns.lock().unwrap_or_else(|e| e.into_inner());
            conns.values().flatten().cloned().collect()
        };
        let threads = tokio::runtime::Handle::current().metrics().num_workers();
        if threads < 2 || everyone.len() < SHARE_OUT_FROM {
            self.hand_over_each(&everyone, &live);
            return;
        }
        let hub = self.clone();
        share_out(everyone.len(), threads, move |part| {
            hub.hand_over_each(&everyone[part], &live);
        })
        .await;
    }

    /// Dispatches every row after the cursor.
    async fn scan(self: &Arc<Self>, db: &Db) -> Result<(), sqlx::Error> {
        #[derive(sqlx::FromRow)]
        struct Row {
            feed_position: i64,
            user_id: String,
            seq: i64,
            kind: String,
            payload: String,
            created_at: i64,
        }
        loop {
            let cursor = self.cursor.load(Ordering::Acquire);
            if !self.has_sockets() {
                // Nobody to tell: skip ahead. Read the end first, then check again: a socket
                // registered after that read replays every row up to it from the table.
                let latest = feed::latest_position(db).await?;
                if !self.has_sockets() {
                    self.cursor.store(latest.max(cursor), Ordering::Release);
                    return Ok(());
                }
            }
            let rows: Vec<Row> = on_db!(db, pool => sqlx::query_as(
                "select feed_position, user_id, seq, kind, payload, created_at from user_feed
                 where feed_position > $1 order by feed_position limit $2")
                .bind(cursor).bind(SCAN_PAGE).fetch_all(pool).await)?;
            let Some(last) = rows.last().map(|r| r.feed_position) else {
                return Ok(());
            };
            for row in &rows {
                if row.user_id == feed::BROADCAST {
                    // Encoded once; every socket of the node gets the same bytes.
                    let live = Live {
                        seq: row.seq,
                        broadcast: true,
                        position: row.feed_position,
                        text: broadcast_message(row.seq, &row.kind, &row.payload, row.created_at),
                        revocation: None,
                    };
                    self.hand_over_to_all(live).await;
                    continue;
                }
                let live = Live {
                    seq: row.seq,
                    broadcast: false,
                    position: row.feed_position,
                    text: feed_message(row.seq, &row.kind, &row.payload, row.created_at),
                    revocation: (row.kind == crate::feed::FeedKind::SessionRevoked.as_str())
                        .then(|| serde_json::from_str(&row.payload).ok())
                        .flatten()
                        .map(std::sync::Arc::new),
                };
                let conns = self.conns.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(list) = conns.get(&row.user_id) {
                    self.hand_over_each(list, &live);
                }
            }
            self.cursor.store(last, Ordering::Release);
            if (rows.len() as i64) < SCAN_PAGE {
                return Ok(());
            }
        }
    }
}

/// Runs `work` on `parts` contiguous ranges of `0..len` at once, one task each, and returns
/// when all are done. Every part is a task of its own, the caller's share too: a task spawned
/// on a worker waits in that worker's next-task slot, which the other workers cannot take, so
/// one part spawned beside work done in place would only run after it, on the same thread.
/// Each later spawn moves the one before it to the queue the other workers take from, and
/// wakes one of them.
async fn share_out<F>(len: usize, parts: usize, work: F)
where
    F: Fn(std::ops::Range<usize>) + Send + Sync + 'static,
{
    let work = Arc::new(work);
    let size = len.div_ceil(parts.max(1)).max(1);
    let tasks: Vec<_> = (0..len)
        .step_by(size)
        .map(|start| {
            let work = work.clone();
            let part = start..(start + size).min(len);
            // Outside the runtime's budget: past it every write would answer "not now".
            tokio::spawn(tokio::task::unconstrained(async move { work(part) }))
        })
        .collect();
    for task in tasks {
        if let Err(e) = task.await {
            tracing::error!(error = %e, "realtime hand-over failed");
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    use super::share_out;

    /// Called from a task on a worker, as the hub's scan is, the two parts run at the same
    /// time: each waits (up to a bound, so a failure does not hang) until both have begun.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_parts_run_at_once_on_the_runtimes_threads() {
        let begun = Arc::new(AtomicUsize::new(0));
        let met = Arc::new(Mutex::new(Vec::new()));
        let parts = Arc::new(Mutex::new(Vec::new()));
        let (b, m, p) = (begun.clone(), met.clone(), parts.clone());
        tokio::spawn(async move {
            share_out(10, 2, move |part| {
                b.fetch_add(1, Ordering::SeqCst);
                let until = Instant::now() + Duration::from_secs(5);
                while b.load(Ordering::SeqCst) < 2 && Instant::now() < until {
                    std::thread::yield_now();
                }
                m.lock().unwrap().push(b.load(Ordering::SeqCst) == 2);
                p.lock().unwrap().push(part);
            })
            .await;
        })
        .await
        .unwrap();
        assert_eq!(*met.lock().unwrap(), vec![true, true]);
        let mut parts = parts.lock().unwrap().clone();
        parts.sort_by_key(|r| r.start);
        assert_eq!(parts, vec![0..5, 5..10]);
    }

    #[tokio::test]
    async fn every_index_is_in_exactly_one_part() {
        for (len, parts) in [(0, 2), (1, 2), (7, 3), (9, 3), (10_000, 2), (5, 8)] {
            let seen = Arc::new(Mutex::new(vec![0u32; len]));
            let s = seen.clone();
            share_out(len, parts, move |part| {
                for i in part {
                    s.lock().unwrap()[i] += 1;
                }
            })
            .await;
            assert!(
                seen.lock().unwrap().iter().all(|&n| n == 1),
                "{len} in {parts}"
            );
        }
    }
}
