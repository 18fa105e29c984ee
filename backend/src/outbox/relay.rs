//! The outbox relay: sends queued messages through SMTP with `lettre`.
//!
//! Every node runs one. A relay claims a few due messages at a time by writing its id and a lease
//! end into them (on PostgreSQL with `FOR UPDATE SKIP LOCKED`), so no two relays send the same
//! message at the same time; a relay that dies leaves its claims to expire. After the server
//! answers, the message is marked sent with that answer (never claimed again), retried later with
//! exponential back-off (a 4xx answer, a connection or TLS failure, a timeout), or marked failed
//! (a 5xx answer, an address that cannot be used, or no attempts left).

use std::sync::Arc;
use std::time::Duration;

use lettre::message::header::ContentType;
use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use projections::{now_ms, on_db, Db};
use tokio_util::sync::CancellationToken;

use super::metric_names;
use crate::config::Config;

/// How many messages one claim takes at most.
const CLAIM_BATCH: i64 = 10;
/// Polls between two looks for messages that can no longer be useful (60 s at the default poll).
const TIDY_EVERY_POLLS: u32 = 30;
/// What a message whose link expired before it could go out is marked failed with.
pub const LINK_EXPIRED: &str = "the link expired before the message could be delivered";
/// The longest wait between two attempts at one message.
const MAX_BACKOFF_MS: i64 = 3_600_000;

/// What the relay needs from the configuration.
#[derive(Debug, Clone)]
pub struct RelaySettings {
    /// `smtp://`, `smtps://` (with `?tls=required` for STARTTLS), credentials in the address.
    /// None: messages stay queued.
    pub smtp_url: Option<String>,
    pub from: String,
    pub poll: Duration,
    pub retry_base_ms: i64,
    pub max_attempts: i64,
    pub timeout: Duration,
    /// How long a claim lasts: longer than any one send can take.
    pub lease: Duration,
    /// Held messages older than this never got their event: purged.
    pub held_for_at_most_ms: i64,
}

impl RelaySettings {
    pub fn from_config(config: &Config) -> Self {
        let timeout = Duration::from_secs(config.smtp_timeout_seconds.max(1));
        Self {
            smtp_url: config.smtp_url.clone().filter(|u| !u.trim().is_empty()),
            from: config.smtp_from.clone(),
            poll: Duration::from_millis(config.outbox_poll_ms.max(10)),
            retry_base_ms: config.outbox_retry_base_ms.max(1),
            max_attempts: config.outbox_max_attempts.max(1),
            timeout,
            lease: timeout * CLAIM_BATCH as u32 + Duration::from_secs(60),
            held_for_at_most_ms: config.shared_link_ttl_hours.max(1) * 3_600_000,
        }
    }
}

/// Why the relay cannot start.
#[derive(Debug, thiserror::Error)]
pub enum RelayError {
    #[error("SMTP_URL is not a usable SMTP address (smtp://host:port, smtps://host:port, credentials as user:password@): {0}")]
    Url(String),
    #[error("SMTP_FROM is not an e-mail address: {0}")]
    From(String),
}

struct Transport {
    smtp: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

/// Checks the settings; the server refuses to start with a bad `SMTP_URL` or `SMTP_FROM`.
fn transport(settings: &RelaySettings) -> Result<Option<Transport>, RelayError> {
    let Some(url) = &settings.smtp_url else {
        return Ok(None);
    };
    let from: Mailbox = settings
        .from
        .parse()
        .map_err(|e: lettre::address::AddressError| RelayError::From(e.to_string()))?;
    // The error text of lettre may repeat the address (with its password): keep it out.
    let smtp = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
        .map_err(|_| RelayError::Url(redact(url)))?
        .timeout(Some(settings.timeout))
        .build();
    Ok(Some(Transport { smtp, from }))
}

/// An SMTP address without its password, for messages.
fn redact(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) => {
            if parsed.password().is_some() {
                let _ = parsed.set_password(Some("***"));
            }
            parsed.to_string()
        }
        Err(_) => "(unparsable)".into(),
    }
}

/// Refuses settings the relay could not work with (the server does not start then).
pub fn check(settings: &RelaySettings) -> Result<(), RelayError> {
    transport(settings).map(|_| ())
}

/// A started relay: stop it with the token given to [`start`], then await it.
pub type RelayTask = tokio::task::JoinHandle<()>;

/// Checks the settings and starts the relay of this node.
pub fn start(
    db: Db,
    settings: RelaySettings,
    shutdown: CancellationToken,
) -> Result<RelayTask, RelayError> {
    let transport = transport(&settings)?;
    match &settings.smtp_url {
        Some(url) => tracing::info!(smtp = %redact(url), "e-mail is sent through SMTP"),
        None => tracing::warn!(
            "SMTP_URL is not set: e-mail stays queued in the outbox (see `companion outbox list`)"
        ),
    }
    let relay = Relay {
        db,
        settings,
        transport: transport.map(Arc::new),
        node: uuid::Uuid::new_v4().to_string(),
    };
    Ok(tokio::spawn(relay.run(shutdown)))
}

struct Relay {
    db: Db,
    settings: RelaySettings,
    transport: Option<Arc<Transport>>,
    /// This relay's claim mark.
    node: String,
}

#[derive(sqlx::FromRow)]
struct Claimed {
    id: i64,
    recipient: String,
    subject: String,
    body: String,
    attempts: i64,
}

/// What became of one attempt.
enum Outcome {
    Sent(String),
    Retry(String),
    Failed(String),
}

impl Relay {
    async fn run(self, shutdown: CancellationToken) {
        let mut tidied_at: Option<std::time::Instant> = None;
        loop {
            if tidied_at.is_none_or(|t| t.elapsed() >= self.settings.poll * TIDY_EVERY_POLLS) {
                tidied_at = Some(std::time::Instant::now());
                if let Err(e) = self.tidy().await {
                    tracing::warn!(error = %e, "cannot tidy the outbox");
                }
            }
            // Registered before the round, so a message queued during it is not missed.
            let queued = super::QUEUED.notified();
            tokio::pin!(queued);
            queued.as_mut().enable();
            let busy = match self.round().await {
                Ok(busy) => busy,
                Err(e) => {
                    tracing::warn!(error = %e, "outbox relay round failed; trying again");
                    false
                }
            };
            if busy {
                continue;
            }
            tokio::select! {
                _ = shutdown.cancelled() => return,
                _ = &mut queued => {}
                _ = tokio::time::sleep(self.settings.poll) => {}
            }
        }
    }

    /// One pass: measure, send what is due. True when a full batch was claimed (more
    /// may be due).
    async fn round(&self) -> Result<bool, sqlx::Error> {
        metrics::gauge!(metric_names::QUEUED).set(super::queued_count(&self.db).await? as f64);
        let Some(transport) = &self.transport else {
            return Ok(false);
        };
        let claimed = self.claim().await?;
        let full = claimed.len() as i64 == CLAIM_BATCH;
        for message in claimed {
            let outcome = self.deliver(transport, &message).await;
            self.settle(&message, outcome).await?;
        }
        Ok(full)
    }

    /// Deletes held messages whose event never came (a crash between the message and its
    /// command): by now their link would have expired anyway. Gives up messages whose link has
    /// expired while they waited (an SMTP server down for days): they could only disappoint.
    async fn tidy(&self) -> Result<(), sqlx::Error> {
        let now = now_ms();
        let cutoff = now - self.settings.held_for_at_most_ms;
        let _guard = self.db.write_guard().await;
        let expired = on_db!(&self.db, pool => sqlx::query(
            "update outbox set state = 'failed', last_error = $2
             where state = 'queued' and link_token_hash is not null and (claimed_until is null or claimed_until < $1)
               and exists (select 1 from doc_external_links l
                           where l.token_hash = outbox.link_token_hash and l.expires_at <= $1)")
            .bind(now).bind(LINK_EXPIRED).execute(pool).await.map(|r| r.rows_affected()))?;
        if expired > 0 {
            metrics::counter!(metric_names::FAILED_TOTAL).increment(expired);
            tracing::error!(expired, "e-mail given up: {LINK_EXPIRED}");
        }
        let purged = on_db!(&self.db, pool => sqlx::query(
            "delete from outbox where state = 'queued' and link_token_hash is not null and created_at < $1
               and not exists (select 1 from doc_external_links l where l.token_hash = outbox.link_token_hash)")
            .bind(cutoff).execute(pool).await.map(|r| r.rows_affected()))?;
        if purged > 0 {
            tracing::warn!(
                purged,
                "outbox messages whose share was never recorded were purged"
            );
        }
        Ok(())
    }

    /// Takes up to [`CLAIM_BATCH`] due messages for this relay until its lease ends.
    async fn claim(&self) -> Result<Vec<Claimed>, sqlx::Error> {
        let now = now_ms();
        let until = now + self.settings.lease.as_millis() as i64;
        let _guard = self.db.write_guard().await;
        match &self.db {
            Db::Sqlite { pool, .. } => sqlx::query_as(
                "update outbox set claimed_by = $1, claimed_until = $2, attempts = attempts + 1
                 where id in (
                     select o.id from outbox o
                     where o.state = 'queued' and o.next_attempt_at <= $3
                       and (o.claimed_until is null or o.claimed_until < $3)
                       and (o.link_token_hash is null or exists
                            (select 1 from doc_external_links l where l.token_hash = o.link_token_hash))
                     order by o.id limit $4)
                 returning id, recipient, subject, body, cast(attempts as bigint) as attempts",
            )
            .bind(&self.node)
            .bind(until)
            .bind(now)
            .bind(CLAIM_BATCH)
            .fetch_all(pool)
            .await,
            // SKIP LOCKED: two relays claiming at once take different rows; the repeated
            // conditions are checked again on rows another relay changed meanwhile.
            Db::Postgres { pool } => sqlx::query_as(
                "update outbox set claimed_by = $1, claimed_until = $2, attempts = attempts + 1
                 where state = 'queued' and (claimed_until is null or claimed_until < $3)
                   and id in (
                     select o.id from outbox o
                     where o.state = 'queued' and o.next_attempt_at <= $3
                       and (o.claimed_until is null or o.claimed_until < $3)
                       and (o.link_token_hash is null or exists
                            (select 1 from doc_external_links l where l.token_hash = o.link_token_hash))
                     order by o.id limit $4 for update skip locked)
                 returning id, recipient, subject, body, attempts",
            )
            .bind(&self.node)
            .bind(until)
            .bind(now)
            .bind(CLAIM_BATCH)
            .fetch_all(pool)
            .await,
        }
    }

    async fn deliver(&self, transport: &Transport, message: &Claimed) -> Outcome {
        let to: Mailbox = match message.recipient.parse() {
            Ok(to) => to,
            Err(e) => return Outcome::Failed(format!("the recipient is not an address: {e}")),
        };
        let email = match Message::builder()
            .from(transport.from.clone())
            .to(to)
            .subject(&message.subject)
            .header(ContentType::TEXT_PLAIN)
            .body(message.body.clone())
        {
            Ok(email) => email,
            Err(e) => return Outcome::Failed(format!("the message cannot be built: {e}")),
        };
        match transport.smtp.send(email).await {
            Ok(response) => {
                let text: Vec<&str> = response.message().collect();
                Outcome::Sent(format!("{} {}", response.code(), text.join(" ")))
            }
            Err(e) if e.is_permanent() => Outcome::Failed(e.to_string()),
            Err(e) => Outcome::Retry(e.to_string()),
        }
    }

    async fn settle(&self, message: &Claimed, outcome: Outcome) -> Result<(), sqlx::Error> {
        let now = now_ms();
        let outcome = match outcome {
            Outcome::Retry(error) if message.attempts >= self.settings.max_attempts => {
                Outcome::Failed(format!(
                    "gave up after {} attempts: {error}",
                    message.attempts
                ))
            }
            other => other,
        };
        let _guard = self.db.write_guard().await;
        match &outcome {
            Outcome::Sent(answer) => {
                on_db!(&self.db, pool => sqlx::query(
                    "update outbox set state = 'sent', sent_at = $2, smtp_response = $3, last_error = null,
                         claimed_by = null, claimed_until = null
                     where id = $1 and claimed_by = $4")
                    .bind(message.id).bind(now).bind(answer).bind(&self.node)
                    .execute(pool).await.map(|_| ()))?;
                metrics::counter!(metric_names::SENT_TOTAL).increment(1);
                tracing::info!(outbox_id = message.id, answer = %answer, "e-mail sent");
            }
            Outcome::Retry(error) => {
                let next = now + backoff_ms(self.settings.retry_base_ms, message.attempts);
                on_db!(&self.db, pool => sqlx::query(
                    "update outbox set next_attempt_at = $2, last_error = $3, claimed_by = null, claimed_until = null
                     where id = $1 and claimed_by = $4")
                    .bind(message.id).bind(next).bind(error).bind(&self.node)
                    .execute(pool).await.map(|_| ()))?;
                metrics::counter!(metric_names::RETRIES_TOTAL).increment(1);
                tracing::warn!(
                    outbox_id = message.id,
                    attempts = message.attempts,
                    retry_in_ms = next - now,
                    error = %error,
                    "e-mail not sent; will retry"
                );
            }
            Outcome::Failed(error) => {
                on_db!(&self.db, pool => sqlx::query(
                    "update outbox set state = 'failed', last_error = $2, claimed_by = null, claimed_until = null
                     where id = $1 and claimed_by = $3")
                    .bind(message.id).bind(error).bind(&self.node)
                    .execute(pool).await.map(|_| ()))?;
                metrics::counter!(metric_names::FAILED_TOTAL).increment(1);
                tracing::error!(outbox_id = message.id, error = %error, "e-mail given up");
            }
        }
        Ok(())
    }
}

/// Wait before the next attempt after `attempts` failed ones: base, 2 x base, 4 x base, ...
/// up to an hour.
pub fn backoff_ms(base_ms: i64, attempts: i64) -> i64 {
    let doublings = (attempts - 1).clamp(0, 30) as u32;
    base_ms
        .saturating_mul(1i64 << doublings)
        .min(MAX_BACKOFF_MS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_an_hour() {
        assert_eq!(backoff_ms(1000, 1), 1000);
        assert_eq!(backoff_ms(1000, 2), 2000);
        assert_eq!(backoff_ms(1000, 5), 16000);
        assert_eq!(backoff_ms(1000, 40), MAX_BACKOFF_MS);
    }

    #[test]
    fn passwords_are_kept_out_of_messages() {
        assert_eq!(
            redact("smtp://mailer:s3cret@mail.example.com:587"),
            "smtp://mailer:***@mail.example.com:587"
        );
        assert!(!redact("smtps://u:pw@h").contains("pw"));
    }
}
