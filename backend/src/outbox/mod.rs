//! Outgoing e-mail: the `outbox` table and the relay that sends it through SMTP.
//!
//! A message is written to the table before the command that causes it runs, held back by the
//! external link it carries (`link_token_hash`): it becomes sendable only once that link is in
//! the read model, that is once the share's event was recorded and applied. A command that is
//! refused deletes its held message; one lost to a crash stays held and is purged once its link
//! would have expired. So a message goes out if and only if its event exists.
//!
//! The [`relay`] claims due messages with a lease (no two nodes send one at the same time),
//! sends them with `lettre`, and marks each sent with the server's answer: at-least-once, and
//! never again once marked. Without `SMTP_URL` messages stay queued (`companion outbox list`).
//! Message bodies carry secret links: they are never logged.

pub mod relay;

use projections::{now_ms, on_db, Db};
use serde::Serialize;
use tokio::sync::Notify;

use crate::error::AppResult;

/// Wakes the relays of this process after a message was queued (others poll).
static QUEUED: Notify = Notify::const_new();

/// The metrics of the outbox and its relay.
pub mod metric_names {
    /// Gauge: messages waiting to be sent (held ones included).
    pub const QUEUED: &str = "companion_outbox_queued";
    /// Counter: messages the SMTP server accepted.
    pub const SENT_TOTAL: &str = "companion_outbox_sent_total";
    /// Counter: messages given up (refused for good, or out of attempts).
    pub const FAILED_TOTAL: &str = "companion_outbox_failed_total";
    /// Counter: attempts that failed for the moment and will be tried again.
    pub const RETRIES_TOTAL: &str = "companion_outbox_retries_total";
    pub const ALL: &[&str] = &[QUEUED, SENT_TOTAL, FAILED_TOTAL, RETRIES_TOTAL];
}

/// Queues a message for `recipient`; returns its id in the outbox.
pub async fn send(db: &Db, recipient: &str, subject: &str, body: &str) -> AppResult<i64> {
    queue(db, recipient, subject, body, None).await
}

/// Queues a message that waits until the external link whose token hashes to `token_hash` is
/// recorded (see the module's documentation). Delete it with [`discard`] if the command fails.
pub async fn send_with_link(
    db: &Db,
    recipient: &str,
    subject: &str,
    body: &str,
    token_hash: &str,
) -> AppResult<i64> {
    queue(db, recipient, subject, body, Some(token_hash)).await
}

async fn queue(
    db: &Db,
    recipient: &str,
    subject: &str,
    body: &str,
    link_token_hash: Option<&str>,
) -> AppResult<i64> {
    let _guard = db.write_guard().await;
    let id: i64 = on_db!(db, pool => sqlx::query_scalar(
        "insert into outbox (recipient, subject, body, created_at, link_token_hash)
         values ($1, $2, $3, $4, $5) returning id")
        .bind(recipient).bind(subject).bind(body).bind(now_ms()).bind(link_token_hash)
        .fetch_one(pool).await)?;
    tracing::info!(outbox_id = id, subject, "e-mail queued");
    QUEUED.notify_waiters();
    Ok(id)
}

/// Deletes a held message whose command was refused.
pub async fn discard(db: &Db, id: i64) -> AppResult<()> {
    let _guard = db.write_guard().await;
    on_db!(db, pool => sqlx::query("delete from outbox where id = $1 and state = 'queued'")
        .bind(id).execute(pool).await.map(|_| ()))?;
    Ok(())
}

/// One message as `companion outbox list` shows it (never its body: it holds the link).
#[derive(Debug, Clone, Serialize, sqlx::FromRow)]
pub struct OutboxEntry {
    pub id: i64,
    pub recipient: String,
    pub subject: String,
    /// queued, sent or failed.
    pub state: String,
    pub attempts: i64,
    pub created_at: i64,
    pub next_attempt_at: i64,
    pub sent_at: Option<i64>,
    /// What the SMTP server answered when it accepted the message.
    pub smtp_response: Option<String>,
    pub last_error: Option<String>,
    /// True while the message waits for the event that causes it.
    pub held: bool,
}

/// The messages not sent yet (queued or failed), or all of them, oldest first.
pub async fn list(
    db: &Db,
    include_sent: bool,
    limit: i64,
) -> Result<Vec<OutboxEntry>, sqlx::Error> {
    on_db!(db, pool => sqlx::query_as(
        "select o.id, o.recipient, o.subject, o.state, cast(o.attempts as bigint) as attempts, o.created_at,
                o.next_attempt_at, o.sent_at, o.smtp_response, o.last_error,
                (o.link_token_hash is not null and not exists
                    (select 1 from doc_external_links l where l.token_hash = o.link_token_hash)) as held
         from outbox o where $1 or o.state <> 'sent' order by o.id limit $2")
        .bind(include_sent).bind(limit).fetch_all(pool).await)
}

/// Messages waiting to be sent.
pub async fn queued_count(db: &Db) -> Result<i64, sqlx::Error> {
    on_db!(db, pool => sqlx::query_scalar("select count(*) from outbox where state = 'queued'")
        .fetch_one(pool).await)
}

/// Queues failed messages again (`ids`, or every failed one when empty), for after a fix of the
/// SMTP settings. Returns how many. A message whose link has expired meanwhile fails again.
pub async fn requeue_failed(db: &Db, ids: &[i64]) -> Result<u64, sqlx::Error> {
    const REQUEUE: &str = "update outbox set state = 'queued', attempts = 0, next_attempt_at = 0,
             claimed_by = null, claimed_until = null
         where state = 'failed' and ($1 is null or id = $1)";
    let _guard = db.write_guard().await;
    let targets: Vec<Option<i64>> = if ids.is_empty() {
        vec![None]
    } else {
        ids.iter().copied().map(Some).collect()
    };
    let mut requeued = 0;
    for id in targets {
        requeued += on_db!(db, pool => sqlx::query(REQUEUE)
            .bind(id).execute(pool).await.map(|r| r.rows_affected()))?;
    }
    if requeued > 0 {
        QUEUED.notify_waiters();
    }
    Ok(requeued)
}
