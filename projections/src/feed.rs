//! Writing to users' live feeds from inside a projection's transaction.
//!
//! Only the projector writes feeds, one batch at a time, so numbering by `max(seq) + 1` inside the
//! batch's transaction cannot race. The message becomes visible when the batch commits, together
//! with the read-model rows it announces.

use serde::Serialize;

use crate::db::Tx;
use crate::on_tx;

/// Appends a message of `kind` for `user_id`; returns its number in that user's feed.
pub async fn push<T: Serialize>(
    tx: &mut Tx,
    user_id: &str,
    kind: &str,
    payload: &T,
    at_ms: i64,
) -> Result<i64, sqlx::Error> {
    let payload = serde_json::to_string(payload).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    let seq: i64 = on_tx!(tx, c => sqlx::query_scalar(
        "select cast(coalesce(max(seq), 0) + 1 as bigint) from user_feed where user_id = $1")
        .bind(user_id).fetch_one(c).await)?;
    on_tx!(tx, c => sqlx::query(
        "insert into user_feed (user_id, seq, kind, payload, created_at) values ($1, $2, $3, $4, $5)")
        .bind(user_id).bind(seq).bind(kind).bind(&payload).bind(at_ms)
        .execute(c).await.map(|r| r.rows_affected()))?;
    Ok(seq)
}
