//! Push subscriptions: one per device of a user, tied to the session that registered it.
//!
//! The app registers its device with `POST /users/register-device`; its `push_id` carries the
//! browser's subscription as JSON (`{"endpoint": "...", "keys": {"p256dh": "...", "auth": "..."}}`).
//! A new registration of the same device replaces its subscription (browsers renew them); one
//! without a `push_id` removes it (push turned off on that device). The endpoint must be on one
//! of `PUSH_SERVICES`: the server never sends requests to an address a user chose.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use projections::{now_ms, on_db, Db};
use serde::Deserialize;

/// Why a `push_id` is refused (400).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SubscriptionError {
    #[error("push_id must be a push subscription: {{\"endpoint\": \"https://...\", \"keys\": {{\"p256dh\": \"...\", \"auth\": \"...\"}}}}")]
    NotASubscription,
    #[error("The push subscription's keys are not valid (p256dh: a P-256 public key, auth: 16 bytes, both base64url)")]
    BadKeys,
    #[error("The push subscription's endpoint is not on a known push service")]
    UnknownService,
    #[error("A push subscription needs the device's uuid")]
    NoDevice,
}

#[derive(Deserialize)]
struct Raw {
    endpoint: String,
    keys: RawKeys,
}

#[derive(Deserialize)]
struct RawKeys {
    p256dh: String,
    auth: String,
}

/// A checked subscription.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscription {
    pub endpoint: String,
    pub p256dh: String,
    pub auth: String,
}

fn b64(text: &str) -> Option<Vec<u8>> {
    let text = text.trim().trim_end_matches('=');
    URL_SAFE_NO_PAD.decode(text).ok()
}

/// Whether `origin` (`scheme://host[:port]`) is one of `services` (a `*.` host matches any
/// subdomain of the rest, never the rest itself).
pub fn allowed(origin: &url::Url, services: &[String]) -> bool {
    let Some(host) = origin.host_str() else {
        return false;
    };
    let port = origin.port_or_known_default();
    services.iter().any(|service| {
        let service = service.trim().trim_end_matches('/');
        let Some((scheme, rest)) = service.split_once("://") else {
            return false;
        };
        if !scheme.eq_ignore_ascii_case(origin.scheme()) {
            return false;
        }
        let (pattern, wildcard) = match rest.strip_prefix("*.") {
            Some(rest) => (rest, true),
            None => (rest, false),
        };
        // The pattern's port, or the scheme's default.
        let Ok(parsed) = url::Url::parse(&format!("{scheme}://{pattern}")) else {
            return false;
        };
        let Some(pattern_host) = parsed.host_str() else {
            return false;
        };
        if parsed.port_or_known_default() != port {
            return false;
        }
        if wildcard {
            host.len() > pattern_host.len() + 1
                && host
                    .to_ascii_lowercase()
                    .ends_with(&format!(".{}", pattern_host.to_ascii_lowercase()))
        } else {
            host.eq_ignore_ascii_case(pattern_host)
        }
    })
}

/// Checks a `push_id`: a subscription JSON whose endpoint is on a known push service.
pub fn parse(push_id: &str, services: &[String]) -> Result<Subscription, SubscriptionError> {
    let raw: Raw =
        serde_json::from_str(push_id).map_err(|_| SubscriptionError::NotASubscription)?;
    let endpoint =
        url::Url::parse(raw.endpoint.trim()).map_err(|_| SubscriptionError::NotASubscription)?;
    if !matches!(endpoint.scheme(), "https" | "http")
        || endpoint.username() != ""
        || endpoint.password().is_some()
    {
        return Err(SubscriptionError::NotASubscription);
    }
    if !allowed(&endpoint, services) {
        return Err(SubscriptionError::UnknownService);
    }
    let p256dh = b64(&raw.keys.p256dh).ok_or(SubscriptionError::BadKeys)?;
    let auth = b64(&raw.keys.auth).ok_or(SubscriptionError::BadKeys)?;
    if auth.len() != 16 || web_push_native::p256::PublicKey::from_sec1_bytes(&p256dh).is_err() {
        return Err(SubscriptionError::BadKeys);
    }
    Ok(Subscription {
        endpoint: endpoint.to_string(),
        p256dh: URL_SAFE_NO_PAD.encode(p256dh),
        auth: URL_SAFE_NO_PAD.encode(auth),
    })
}

/// Stores (or replaces) the subscription of `device` for `user_id`, registered by `session_id`;
/// `None` removes that device's subscription. An endpoint moves with its latest registration.
pub async fn store(
    db: &Db,
    user_id: &str,
    session_id: &str,
    device: &str,
    subscription: Option<&Subscription>,
) -> Result<(), sqlx::Error> {
    let _guard = db.write_guard().await;
    on_db!(db, pool => async {
        let mut tx = pool.begin().await?;
        sqlx::query("delete from push_subscriptions where user_id = $1 and device_uuid = $2")
            .bind(user_id).bind(device).execute(&mut *tx).await?;
        if let Some(s) = subscription {
            sqlx::query("delete from push_subscriptions where endpoint = $1")
                .bind(&s.endpoint).execute(&mut *tx).await?;
            sqlx::query("insert into push_subscriptions
                           (id, user_id, session_id, device_uuid, endpoint, p256dh, auth, created_at)
                         values ($1, $2, $3, $4, $5, $6, $7, $8)")
                .bind(uuid::Uuid::new_v4().to_string()).bind(user_id).bind(session_id).bind(device)
                .bind(&s.endpoint).bind(&s.p256dh).bind(&s.auth).bind(now_ms())
                .execute(&mut *tx).await?;
        }
        // Messages queued for a subscription that is gone are not sent.
        sqlx::query("delete from push_queue where subscription_id not in (select id from push_subscriptions)")
            .execute(&mut *tx).await?;
        tx.commit().await
    }.await)
}

/// Deletes the subscriptions registered by `session_id` (sign-out, revocation).
pub async fn delete_for_session(db: &Db, session_id: &str) -> Result<u64, sqlx::Error> {
    delete_where(db, "session_id = $1", session_id).await
}

/// Deletes every subscription of `user_id` (account disabled, every session ended).
pub async fn delete_for_user(db: &Db, user_id: &str) -> Result<u64, sqlx::Error> {
    delete_where(db, "user_id = $1", user_id).await
}

async fn delete_where(db: &Db, condition: &str, value: &str) -> Result<u64, sqlx::Error> {
    let subs = format!("delete from push_subscriptions where {condition}");
    let queued = format!(
        "delete from push_queue where subscription_id in (select id from push_subscriptions where {condition})"
    );
    let _guard = db.write_guard().await;
    on_db!(db, pool => async {
        let mut tx = pool.begin().await?;
        sqlx::query(&queued).bind(value).execute(&mut *tx).await?;
        let removed = sqlx::query(&subs).bind(value).execute(&mut *tx).await?.rows_affected();
        tx.commit().await?;
        Ok::<u64, sqlx::Error>(removed)
    }.await)
}

/// Deletes a subscription the push service said is gone (404/410), with what was queued for it.
pub async fn delete_gone(db: &Db, id: &str) -> Result<(), sqlx::Error> {
    delete_where(db, "id = $1", id).await.map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn services() -> Vec<String> {
        [
            "https://fcm.googleapis.com",
            "https://*.notify.windows.com",
            "http://127.0.0.1:9000",
        ]
        .map(String::from)
        .to_vec()
    }

    fn ok(origin: &str) -> bool {
        allowed(&url::Url::parse(origin).unwrap(), &services())
    }

    #[test]
    fn only_the_listed_origins_are_push_services() {
        assert!(ok("https://fcm.googleapis.com/fcm/send/abc"));
        assert!(ok("https://FCM.googleapis.com:443/x"));
        assert!(ok("https://wns2-par02p.notify.windows.com/w/?token=1"));
        assert!(ok("http://127.0.0.1:9000/push/1"));
        assert!(
            !ok("https://notify.windows.com/x"),
            "a wildcard needs a subdomain"
        );
        assert!(!ok("http://fcm.googleapis.com/x"), "another scheme");
        assert!(!ok("https://fcm.googleapis.com:8443/x"), "another port");
        assert!(!ok("https://fcm.googleapis.com.evil.example/x"));
        assert!(!ok("https://evil.example/fcm.googleapis.com"));
        assert!(!ok("http://127.0.0.1:9001/push/1"));
        assert!(!ok("http://localhost:9000/push/1"));
    }

    const P256DH: &str =
        "BLn9b-VR0ca83knDNZ32dCHGyjJp-1riX9ZTN40MqV8K_LpQmLqxC_DoHvqvFXO_nGdAB4W9dogZb_sM-uV4JbY";
    const AUTH: &str = "_ordMnz7uTCmrpBTeUV4Bw";

    fn sub(endpoint: &str, p256dh: &str, auth: &str) -> String {
        serde_json::json!({"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}})
            .to_string()
    }

    #[test]
    fn a_push_id_must_be_a_subscription_on_a_known_service() {
        let good = parse(
            &sub("https://fcm.googleapis.com/fcm/send/x", P256DH, AUTH),
            &services(),
        )
        .unwrap();
        assert_eq!(good.endpoint, "https://fcm.googleapis.com/fcm/send/x");
        assert_eq!(good.auth, AUTH);
        assert_eq!(
            parse("legacy-native-token", &services()),
            Err(SubscriptionError::NotASubscription)
        );
        assert_eq!(
            parse(&sub("https://evil.example/x", P256DH, AUTH), &services()),
            Err(SubscriptionError::UnknownService)
        );
        assert_eq!(
            parse(
                &sub("https://fcm.googleapis.com/x", "AAAA", AUTH),
                &services()
            ),
            Err(SubscriptionError::BadKeys)
        );
        assert_eq!(
            parse(
                &sub("https://fcm.googleapis.com/x", P256DH, "AAAA"),
                &services()
            ),
            Err(SubscriptionError::BadKeys)
        );
        assert_eq!(
            parse(&sub("file:///etc/passwd", P256DH, AUTH), &services()),
            Err(SubscriptionError::NotASubscription)
        );
    }
}
