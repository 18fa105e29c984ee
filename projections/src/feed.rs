//! Writing to users' live feeds from inside a projection's transaction.
//!
//! Each row has two numbers: `seq`, its place in that user's feed (what clients resume from),
//! and `feed_position`, its place among all feed rows (what the realtime hub scans with).
//!
//! A message that is the same for everyone (a notification to everyone, an app update, a
//! change of published content) is one row of the [`BROADCAST`] feed, numbered in its own
//! stream and expanded at delivery: every socket gets the same bytes, whatever the number of
//! users. A client resumes each stream from its own number.
//!
//! Writers of the feed are serialised: on SQLite by the engine itself, on PostgreSQL by a
//! transaction-level advisory lock taken before the first row is numbered. So `max(seq) + 1`
//! cannot race, and a row with a higher `feed_position` never becomes visible before a row with
//! a lower one (the lock is released only after the commit is visible), which lets a reader move
//! a cursor over `feed_position` without ever skipping a row. Normally only the projector writes
//! feeds; anything else that does (tests, load tools) must go through [`push`] as well.

use std::cell::Cell;
use std::future::Future;

use serde::Serialize;

use crate::db::{Db, DbKind, Tx};
use crate::{on_db, on_tx};

tokio::task_local! {
    /// Set when a feed row is written inside [`noting_writes`].
    static WRITTEN: Cell<bool>;
}

/// Notes that feed rows were written, for the [`noting_writes`] running (none: nothing).
pub(crate) fn note_written() {
    let _ = WRITTEN.try_with(|written| written.set(true));
}

/// Runs `work`, and tells whether it wrote feed rows (through [`push`] or the documents
/// projection's batch). The projector runs each round and each group commit so, and tells the
/// feed's readers only of those that did: a round that wrote none gives them nothing to read.
pub(crate) async fn noting_writes<F: Future>(work: F) -> (F::Output, bool) {
    WRITTEN
        .scope(Cell::new(false), async {
            let output = work.await;
            (output, WRITTEN.with(Cell::get))
        })
        .await
}

/// The PostgreSQL `NOTIFY` channel that announces new feed rows. The payload is the highest
/// `feed_position` committed, never the data: listeners read the rows from the table.
pub const FEED_CHANNEL: &str = "companion_feed";

/// Key of the transaction-level advisory lock that serialises feed writers on PostgreSQL. A
/// writer that does not use [`push`] must take it (`select pg_advisory_xact_lock(...)`) first.
pub const FEED_WRITE_LOCK: i64 = 0x636f_6d70_6665_6564; // "compfeed"

/// The `user_id` of the broadcast feed: rows every user receives. No user has this id (user ids
/// are generated, never a lone `*`).
pub const BROADCAST: &str = "*";

/// Appends a message of `kind` for everyone, numbered in the broadcast stream.
pub async fn push_broadcast<T: Serialize>(
    tx: &mut Tx,
    kind: &str,
    payload: &T,
    at_ms: i64,
) -> Result<(), sqlx::Error> {
    push(tx, BROADCAST, kind, payload, at_ms).await?;
    Ok(())
}

/// The number of the last broadcast written, as this transaction sees it once it holds the feed
/// write lock: a count written in the same transaction includes every broadcast up to it, and
/// none after (badges carry it as `through`, so clients add later broadcasts exactly once).
pub async fn broadcast_through(tx: &mut Tx) -> Result<i64, sqlx::Error> {
    take_write_lock(tx).await?;
    last_broadcast(tx).await
}

/// Takes the feed write lock on PostgreSQL (re-entrant within the transaction; released at
/// commit or rollback). SQLite serialises writers itself.
async fn take_write_lock(tx: &mut Tx) -> Result<(), sqlx::Error> {
    if tx.kind() == DbKind::Postgres {
        on_tx!(tx, c => sqlx::query("select pg_advisory_xact_lock($1)")
            .bind(FEED_WRITE_LOCK).execute(c).await.map(|r| r.rows_affected()))?;
    }
    Ok(())
}

/// The number of the last broadcast visible to `tx` (0 when there is none), without the lock:
/// for readers that take a snapshot.
pub async fn last_broadcast(tx: &mut Tx) -> Result<i64, sqlx::Error> {
    on_tx!(tx, c => sqlx::query_scalar(
        "select cast(coalesce(max(seq), 0) as bigint) from user_feed where user_id = $1")
        .bind(BROADCAST).fetch_one(c).await)
}

/// Appends a message of `kind` for `user_id`; returns its number in that user's feed.
pub async fn push<T: Serialize>(
    tx: &mut Tx,
    user_id: &str,
    kind: &str,
    payload: &T,
    at_ms: i64,
) -> Result<i64, sqlx::Error> {
    let payload = self::payload(payload)?;
    take_write_lock(tx).await?;
    // Numbered and written in one statement: the user's last number comes from the same
    // (user_id, seq) index the row goes into.
    let seq: i64 = on_tx!(tx, c => sqlx::query_scalar(
        "insert into user_feed (user_id, seq, kind, payload, created_at)
         select $1, cast(coalesce(max(seq), 0) + 1 as bigint), $2, $3, $4 from user_feed where user_id = $1
         returning seq")
        .bind(user_id).bind(kind).bind(&payload).bind(at_ms)
        .fetch_one(c).await)?;
    note_written();
    Ok(seq)
}

/// Serialises a feed payload to the JSON text stored in `user_feed.payload`.
pub fn payload<T: Serialize>(value: &T) -> Result<String, sqlx::Error> {
    serde_json::to_string(value).map_err(|e| sqlx::Error::Encode(Box::new(e)))
}

/// The highest `feed_position` committed so far (0 when the feed is empty).
pub async fn latest_position(db: &Db) -> Result<i64, sqlx::Error> {
    on_db!(db, pool => sqlx::query_scalar(
        "select cast(coalesce(max(feed_position), 0) as bigint) from user_feed")
        .fetch_one(pool).await)
}

/// Tells every node listening on PostgreSQL where the committed feed now ends, if that is past
/// `after`: the end read and the notification sent in one statement. Returns the end told,
/// `None` when nothing new was committed (nothing is sent then). `None` on SQLite, where the
/// only node learns of its rows in-process.
pub async fn announce_past(db: &Db, after: i64) -> Result<Option<i64>, sqlx::Error> {
    let Db::Postgres { pool } = db else {
        return Ok(None);
    };
    // The filter is applied to the end before the lateral part runs: no row past it, no
    // notification.
    sqlx::query_scalar(
        "select e.position from (select cast(coalesce(max(feed_position), 0) as bigint) as position
           from user_feed) as e, lateral (select pg_notify($1, cast(e.position as text))) as n
          where e.position > $2",
    )
    .bind(FEED_CHANNEL)
    .bind(after)
    .fetch_optional(pool)
    .await
}
