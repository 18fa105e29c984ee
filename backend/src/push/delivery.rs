//! From the push queue to the push services (RFC 8030), on every node.
//!
//! A node claims a few due messages at a time by writing its mark and a lease end into them
//! (on PostgreSQL with `FOR UPDATE SKIP LOCKED`), so no two nodes send one message at the same
//! time; a node that dies leaves its claims to expire. Each message is encrypted for its
//! subscription (RFC 8291, `aes128gcm`) and signed with the deployment's VAPID key (RFC 8292),
//! with `TTL` and `Urgency`. The push service's answer decides: 2xx sent (deleted), 404/410 the
//! subscription is gone (deleted with its messages), 429/5xx or no answer tried again later
//! (honouring `Retry-After`, else doubling from `PUSH_RETRY_BASE_MS`), anything else failed.

use std::time::Duration;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use projections::{now_ms, on_db, Db};
use web_push_native::jwt_simple::algorithms::{
    ECDSAP256KeyPairLike, ECDSAP256PublicKeyLike, ES256KeyPair,
};
use web_push_native::jwt_simple::claims::Claims;

use super::keys::VapidKeys;
use super::metric_names;
use super::Settings;

const CLAIM_BATCH: i64 = 20;
/// How long a claim lasts: longer than a batch of sends can take.
const LEASE_MS: i64 = 5 * 60_000;
/// The longest wait between two attempts.
const MAX_BACKOFF_MS: i64 = 3_600_000;
/// VAPID tokens are valid this long (at most 24 h, RFC 8292).
const VAPID_VALIDITY: Duration = Duration::from_secs(12 * 3600);

#[derive(sqlx::FromRow)]
struct Claimed {
    id: i64,
    subscription_id: String,
    payload: String,
    urgency: String,
    attempts: i64,
    created_at: i64,
    endpoint: Option<String>,
    p256dh: Option<String>,
    auth: Option<String>,
}

enum Outcome {
    Sent,
    Gone(u16),
    Retry { after_ms: Option<i64>, why: String },
    Failed(String),
}

/// Claims and sends due messages until none is left; returns how many were tried.
pub async fn run_once(
    db: &Db,
    http: &reqwest::Client,
    keys: &VapidKeys,
    settings: &Settings,
    node: &str,
) -> Result<usize, sqlx::Error> {
    let mut tried = 0;
    loop {
        let claimed = claim(db, node).await?;
        if claimed.is_empty() {
            return Ok(tried);
        }
        let pair = keys.pair();
        for message in &claimed {
            tried += 1;
            let outcome = send(http, &pair, settings, message).await;
            settle(db, settings, message, outcome).await?;
        }
    }
}

async fn claim(db: &Db, node: &str) -> Result<Vec<Claimed>, sqlx::Error> {
    let now = now_ms();
    let until = now + LEASE_MS;
    let _guard = db.write_guard().await;
    let select = "select q.id, q.subscription_id, q.payload, q.urgency, cast(q.attempts as bigint) as attempts,
                         q.created_at, p.endpoint, p.p256dh, p.auth
                  from push_queue q left join push_subscriptions p on p.id = q.subscription_id
                  where q.claimed_by = $1 and q.claimed_until = $2 order by q.id";
    // PostgreSQL: nodes claiming at once skip each other's rows instead of waiting on them.
    let skip_locked = match db {
        Db::Sqlite { .. } => "",
        Db::Postgres { .. } => " for update skip locked",
    };
    let claim = format!(
        "update push_queue set claimed_by = $1, claimed_until = $2, attempts = attempts + 1
         where id in (select id from push_queue
                      where next_attempt_at <= $3 and (claimed_until is null or claimed_until < $3)
                      order by id limit $4{skip_locked})"
    );
    projections::on_db!(db, pool => async {
        sqlx::query(&claim)
            .bind(node)
            .bind(until)
            .bind(now)
            .bind(CLAIM_BATCH)
            .execute(pool)
            .await?;
        sqlx::query_as(select).bind(node).bind(until).fetch_all(pool).await
    }
    .await)
}

/// The origin of an endpoint (`scheme://host[:port]`), the VAPID token's audience.
pub fn origin(endpoint: &url::Url) -> String {
    endpoint.origin().ascii_serialization()
}

/// `Authorization: vapid t=<JWT>, k=<public key>` for `endpoint` (RFC 8292).
fn vapid_header(pair: &ES256KeyPair, endpoint: &url::Url, contact: &str) -> Result<String, String> {
    let claims = Claims::create(VAPID_VALIDITY.into())
        .with_audience(origin(endpoint))
        .with_subject(contact);
    let token = pair.sign(claims).map_err(|e| e.to_string())?;
    let key = URL_SAFE_NO_PAD.encode(pair.public_key().public_key().to_bytes_uncompressed());
    Ok(format!("vapid t={token}, k={key}"))
}

fn encrypt(message: &Claimed) -> Result<Vec<u8>, String> {
    let (Some(p256dh), Some(auth)) = (&message.p256dh, &message.auth) else {
        return Err("no subscription".into());
    };
    let public = URL_SAFE_NO_PAD.decode(p256dh).map_err(|e| e.to_string())?;
    let public =
        web_push_native::p256::PublicKey::from_sec1_bytes(&public).map_err(|e| e.to_string())?;
    let auth = URL_SAFE_NO_PAD.decode(auth).map_err(|e| e.to_string())?;
    if auth.len() != 16 {
        return Err("the auth secret is not 16 bytes".into());
    }
    let auth = web_push_native::Auth::clone_from_slice(&auth);
    web_push_native::encrypt(message.payload.as_bytes().to_vec(), &public, &auth)
        .map_err(|e| e.to_string())
}

/// Seconds or an HTTP date.
fn retry_after_ms(value: &str) -> Option<i64> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<i64>() {
        return Some(seconds.max(0) * 1000);
    }
    chrono::DateTime::parse_from_rfc2822(value)
        .ok()
        .map(|at| (at.timestamp_millis() - now_ms()).max(0))
}

async fn send(
    http: &reqwest::Client,
    pair: &ES256KeyPair,
    settings: &Settings,
    message: &Claimed,
) -> Outcome {
    let Some(endpoint) = message.endpoint.as_deref() else {
        return Outcome::Gone(0);
    };
    let Ok(url) = url::Url::parse(endpoint) else {
        return Outcome::Failed("the endpoint is not an address".into());
    };
    // Checked again: `PUSH_SERVICES` may have been narrowed since it was stored.
    if !super::subscriptions::allowed(&url, &settings.services) {
        return Outcome::Failed("the endpoint is no longer on a known push service".into());
    }
    let body = match encrypt(message) {
        Ok(body) => body,
        Err(e) => return Outcome::Failed(format!("cannot encrypt: {e}")),
    };
    let authorization = match vapid_header(pair, &url, &settings.contact) {
        Ok(header) => header,
        Err(e) => return Outcome::Failed(format!("cannot sign: {e}")),
    };
    let answer = http
        .post(url)
        .header("TTL", settings.ttl.as_secs().to_string())
        .header("Urgency", message.urgency.as_str())
        .header("Content-Encoding", "aes128gcm")
        .header("Content-Type", "application/octet-stream")
        .header("Authorization", authorization)
        .body(body)
        .send()
        .await;
    let answer = match answer {
        Ok(answer) => answer,
        Err(e) => {
            return Outcome::Retry {
                after_ms: None,
                why: format!("no answer: {e}"),
            }
        }
    };
    let status = answer.status().as_u16();
    match status {
        200..=299 => Outcome::Sent,
        404 | 410 => Outcome::Gone(status),
        429 | 500..=599 => Outcome::Retry {
            after_ms: answer
                .headers()
                .get("Retry-After")
                .and_then(|v| v.to_str().ok())
                .and_then(retry_after_ms),
            why: format!("the push service answered {status}"),
        },
        _ => Outcome::Failed(format!("the push service answered {status}")),
    }
}

async fn settle(
    db: &Db,
    settings: &Settings,
    message: &Claimed,
    outcome: Outcome,
) -> Result<(), sqlx::Error> {
    let now = now_ms();
    let delete = |db: &Db, id: i64| {
        let db = db.clone();
        async move {
            let _guard = db.write_guard().await;
            on_db!(&db, pool => sqlx::query("delete from push_queue where id = $1")
                .bind(id).execute(pool).await.map(|r| r.rows_affected()))
        }
    };
    match outcome {
        Outcome::Sent => {
            delete(db, message.id).await?;
            metrics::counter!(metric_names::SENT_TOTAL).increment(1);
        }
        Outcome::Gone(status) => {
            super::subscriptions::delete_gone(db, &message.subscription_id).await?;
            delete(db, message.id).await?;
            if status != 0 {
                metrics::counter!(metric_names::EXPIRED_SUBSCRIPTIONS_TOTAL).increment(1);
                tracing::info!(status, "push subscription gone; deleted");
            }
        }
        Outcome::Retry { after_ms, why }
            if message.attempts < settings.max_attempts
                && now - message.created_at < settings.ttl.as_millis() as i64 =>
        {
            let doubling = settings
                .retry_base_ms
                .saturating_mul(1_i64 << (message.attempts - 1).clamp(0, 20));
            let wait = after_ms.unwrap_or(doubling).clamp(0, MAX_BACKOFF_MS);
            let _guard = db.write_guard().await;
            on_db!(db, pool => sqlx::query(
                "update push_queue set next_attempt_at = $1, claimed_by = null, claimed_until = null where id = $2")
                .bind(now + wait).bind(message.id).execute(pool).await.map(|r| r.rows_affected()))?;
            metrics::counter!(metric_names::RETRIES_TOTAL).increment(1);
            tracing::info!(attempts = message.attempts, wait_ms = wait, %why, "push to be tried again");
        }
        Outcome::Retry { why, .. } | Outcome::Failed(why) => {
            delete(db, message.id).await?;
            metrics::counter!(metric_names::FAILED_TOTAL).increment(1);
            tracing::warn!(attempts = message.attempts, %why, "push given up");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vapid_audience_is_the_endpoint_origin_with_its_port() {
        let url = url::Url::parse("http://127.0.0.1:9100/push/abc?x=1").unwrap();
        assert_eq!(origin(&url), "http://127.0.0.1:9100");
        let url = url::Url::parse("https://fcm.googleapis.com:443/fcm/send/x").unwrap();
        assert_eq!(origin(&url), "https://fcm.googleapis.com");
    }

    #[test]
    fn retry_after_is_read_in_seconds_or_as_a_date() {
        assert_eq!(retry_after_ms("3"), Some(3000));
        assert_eq!(retry_after_ms("Wed, 21 Oct 2015 07:28:00 GMT"), Some(0));
        assert_eq!(retry_after_ms("soon"), None);
    }
}
