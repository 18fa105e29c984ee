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

use serde::Serialize;

use crate::db::{Db, DbKind, Tx};
use crate::{on_db, on_tx};

/// The PostgreSQL `NOTIFY` channel that announces new feed rows. The payload is the highest
/// `feed_position` committed, never the data: listeners read the rows from the table.
pub const FEED_CHANNEL: &str = "companion_feed";

/// Key of the transaction-level advisory lock that serialises feed writers on PostgreSQL. A
/// writer that does not use [`push`] must take it (`select pg_advisory_xact_lock(...)`) first.
pub const FEED_WRITE_LOCK: i64 = 0x636f_6d70_6665_6564; // "compfeed"

/// The `user_id` of the broadcast feed: rows every user receives. No user has this id (user ids
/// are generated, never a lone `*`).
pub const BROADCAST: &str = "*";

/// Appends a message of `kind` for everyone; returns its number in the broadcast stream.
pub async fn push_broadcast<T: Serialize>(
    tx: &mut Tx,
    kind: &str,
    payload: &T,
    at_ms: i64,
) -> Result<i64, sqlx::Error> {
    push(tx, BROADCAST, kind, payload, at_ms).await
}

/// The number of the last broadcast written, as this transaction sees it once it holds the feed
/// write lock: a count written in the same transaction includes every broadcast up to it, and
/// none after (badges carry it as `through`, so clients add later broadcasts exactly once).
pub async fn broadcast_through(tx: &mut Tx) -> Result<i64, sqlx::Error> {
    if tx.kind() == DbKind::Postgres {
        on_tx!(tx, c => sqlx::query("select pg_advisory_xact_lock($1)")
            .bind(FEED_WRITE_LOCK).execute(c).await.map(|r| r.rows_affected()))?;
    }
    last_broadcast(tx).await
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
    let payload = serde_json::to_string(payload).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    if tx.kind() == DbKind::Postgres {
        // Re-entrant within the transaction; released at commit or rollback.
        on_tx!(tx, c => sqlx::query("select pg_advisory_xact_lock($1)")
            .bind(FEED_WRITE_LOCK).execute(c).await.map(|r| r.rows_affected()))?;
    }
    // Numbered and written in one statement: the user's last number comes from the same
    // (user_id, seq) index the row goes into.
    let seq: i64 = on_tx!(tx, c => sqlx::query_scalar(
        "insert into user_feed (user_id, seq, kind, payload, created_at)
         select $1, cast(coalesce(max(seq), 0) + 1 as bigint), $2, $3, $4 from user_feed where user_id = $1
         returning seq")
        .bind(user_id).bind(kind).bind(&payload).bind(at_ms)
        .fetch_one(c).await)?;
    Ok(seq)
}

/// One message for [`push_many`]: the user, its kind and its JSON payload.
pub struct Entry<'a> {
    pub user_id: &'a str,
    pub kind: &'a str,
    pub payload: String,
}

/// Rows per multi-row insert (5 parameters each, well under both engines' limits).
const ROWS_PER_INSERT: usize = 400;

/// Appends many messages at once, in order, numbering each user's rows after their last one:
/// the same rows as calling [`push`] for each entry in turn, in a few statements instead of
/// three per message (a publication for everyone writes two rows for every user).
pub async fn push_many(tx: &mut Tx, entries: &[Entry<'_>], at_ms: i64) -> Result<(), sqlx::Error> {
    if entries.is_empty() {
        return Ok(());
    }
    if tx.kind() == DbKind::Postgres {
        on_tx!(tx, c => sqlx::query("select pg_advisory_xact_lock($1)")
            .bind(FEED_WRITE_LOCK).execute(c).await.map(|r| r.rows_affected()))?;
    }
    let mut next = last_numbers(tx).await?;
    let numbered: Vec<(&Entry<'_>, i64)> = entries
        .iter()
        .map(|entry| {
            let seq = next.entry(entry.user_id.to_string()).or_insert(0);
            *seq += 1;
            (entry, *seq)
        })
        .collect();
    if let Tx::Postgres(c) = tx {
        // One statement of constant text (prepared once per connection) whatever the count.
        let (mut users, mut seqs, mut kinds, mut payloads) = (vec![], vec![], vec![], vec![]);
        for (entry, seq) in &numbered {
            users.push(entry.user_id);
            seqs.push(*seq);
            kinds.push(entry.kind);
            payloads.push(entry.payload.as_str());
        }
        sqlx::query(
            "insert into user_feed (user_id, seq, kind, payload, created_at)
             select u, s, k, p, $5
             from unnest($1::text[], $2::bigint[], $3::text[], $4::text[]) with ordinality as t(u, s, k, p, n)
             order by n",
        )
        .bind(&users)
        .bind(&seqs)
        .bind(&kinds)
        .bind(&payloads)
        .bind(at_ms)
        .execute(&mut **c)
        .await?;
        return Ok(());
    }
    for chunk in numbered.chunks(ROWS_PER_INSERT) {
        let mut sql =
            String::from("insert into user_feed (user_id, seq, kind, payload, created_at) values ");
        for i in 0..chunk.len() {
            let p = i * 5;
            if i > 0 {
                sql.push_str(", ");
            }
            sql.push_str(&format!(
                "(${}, ${}, ${}, ${}, ${})",
                p + 1,
                p + 2,
                p + 3,
                p + 4,
                p + 5
            ));
        }
        on_tx!(tx, c => {
            let mut query = sqlx::query(&sql);
            for (entry, seq) in chunk {
                query = query
                    .bind(entry.user_id)
                    .bind(*seq)
                    .bind(entry.kind)
                    .bind(&entry.payload)
                    .bind(at_ms);
            }
            query.execute(c).await.map(|r| r.rows_affected())
        })?;
    }
    Ok(())
}

/// The number of each user's last feed row (users without rows are not in it).
pub async fn last_numbers(
    tx: &mut Tx,
) -> Result<std::collections::HashMap<String, i64>, sqlx::Error> {
    let last: Vec<(String, i64)> = on_tx!(tx, c => sqlx::query_as(
        "select user_id, cast(max(seq) as bigint) from user_feed group by user_id")
        .fetch_all(c).await)?;
    Ok(last.into_iter().collect())
}

/// Serialises a payload for [`push_many`].
pub fn payload<T: Serialize>(value: &T) -> Result<String, sqlx::Error> {
    serde_json::to_string(value).map_err(|e| sqlx::Error::Encode(Box::new(e)))
}

/// The highest `feed_position` committed so far (0 when the feed is empty).
pub async fn latest_position(db: &Db) -> Result<i64, sqlx::Error> {
    on_db!(db, pool => sqlx::query_scalar(
        "select cast(coalesce(max(feed_position), 0) as bigint) from user_feed")
        .fetch_one(pool).await)
}

/// Tells every node listening on PostgreSQL that feed rows up to `position` are committed.
/// A no-op on SQLite, where the only node learns of them in-process.
pub async fn announce(db: &Db, position: i64) -> Result<(), sqlx::Error> {
    if let Db::Postgres { pool } = db {
        sqlx::query("select pg_notify($1, $2)")
            .bind(FEED_CHANNEL)
            .bind(position.to_string())
            .execute(pool)
            .await?;
    }
    Ok(())
}
