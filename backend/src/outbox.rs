//! Outgoing e-mail. No SMTP transport is built in: every message is kept in the `outbox` table
//! (for a relay to send) and written to the log, so none is ever dropped.

use projections::{now_ms, on_db, Db};

use crate::error::AppResult;

/// Keeps a message for `recipient`; returns its id in the outbox.
pub async fn send(db: &Db, recipient: &str, subject: &str, body: &str) -> AppResult<i64> {
    let id: i64 = on_db!(db, pool => sqlx::query_scalar(
        "insert into outbox (recipient, subject, body, created_at) values ($1, $2, $3, $4) returning id")
        .bind(recipient).bind(subject).bind(body).bind(now_ms())
        .fetch_one(pool).await)?;
    tracing::info!(
        outbox_id = id,
        recipient,
        subject,
        // The body may hold a single-use link (password reset): never logged.
        "no SMTP server configured: e-mail kept in the outbox"
    );
    Ok(id)
}
