//! What the load tools share: their throw-away users with accepted terms and open sessions,
//! the tokens those users present, the real sign-in of a demo account, and percentiles.

use anyhow::{bail, Context};
use serde_json::{json, Value};
use sqlx::PgPool;

/// The key tokens are signed with: on PostgreSQL the cluster's active key (`signing_keys`, named
/// by `kid`), else the `JWT_SECRET`.
pub async fn signing_key(pool: &PgPool, secret: &str) -> anyhow::Result<(Option<String>, String)> {
    let key: Option<(String, String)> = sqlx::query_as(
        "select kid, secret from signing_keys where active_from <= now()
           and (retire_at is null or retire_at > now()) order by active_from desc limit 1",
    )
    .fetch_optional(pool)
    .await?;
    Ok(match key {
        Some((kid, secret)) => (Some(kid), secret),
        None => (None, secret.to_string()),
    })
}

pub fn token(key: &(Option<String>, String), user: &str, tag: &str) -> anyhow::Result<String> {
    #[derive(serde::Serialize)]
    struct Claims<'a> {
        sub: &'a str,
        sid: String,
        exp: i64,
        iat: i64,
    }
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)?
        .as_secs() as i64;
    let header = jsonwebtoken::Header {
        kid: key.0.clone(),
        ..jsonwebtoken::Header::default()
    };
    Ok(jsonwebtoken::encode(
        &header,
        &Claims {
            sub: user,
            sid: format!("{tag}-{user}"),
            exp: now + 3 * 3600,
            iat: now,
        },
        &jsonwebtoken::EncodingKey::from_secret(key.1.as_bytes()),
    )?)
}

/// The users, their accepted terms and their open sessions (setup, not measured).
pub async fn create_users(pool: &PgPool, users: &[String], tag: &str) -> anyhow::Result<()> {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)?
        .as_millis() as i64;
    sqlx::query(
        "insert into users (id, email, first_name, last_name, role, created_at)
         select u, u || '@' || $3 || '.invalid', 'Load', u, 'user', $2 from unnest($1::text[]) as u
         on conflict do nothing",
    )
    .bind(users)
    .bind(now)
    .bind(tag)
    .execute(pool)
    .await?;
    sqlx::query(
        "insert into terms_acceptances (user_id, version, accepted_at)
         select u, '2021-01', $2 from unnest($1::text[]) as u on conflict do nothing",
    )
    .bind(users)
    .bind(now)
    .execute(pool)
    .await?;
    sqlx::query(
        "insert into sessions (id, user_id, created_at, last_seen_at, expires_at)
         select $3 || '-' || u, u, $2, $2, $2 + 86400000 from unnest($1::text[]) as u
         on conflict do nothing",
    )
    .bind(users)
    .bind(now)
    .bind(tag)
    .execute(pool)
    .await?;
    Ok(())
}

pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

/// A demo account's session token, from the real sign-in.
pub async fn sign_in(
    http: &reqwest::Client,
    api: &str,
    email: &str,
    password: &str,
) -> anyhow::Result<String> {
    let res = http
        .post(format!("{api}/api/users/login"))
        .json(&json!({ "username": email, "password": password }))
        .send()
        .await
        .with_context(|| format!("signing {email} in"))?;
    if !res.status().is_success() {
        bail!("sign-in of {email} failed: {}", res.status());
    }
    let body: Value = res.json().await?;
    body["jwt"]
        .as_str()
        .map(str::to_string)
        .context("no jwt in the sign-in answer")
}

/// Why the server closed a socket: its close code and reason, which say whether the token, the
/// session, a slow reader or the server itself was the cause.
pub fn closed_by_server(
    frame: Option<tokio_tungstenite::tungstenite::protocol::CloseFrame>,
) -> String {
    match frame {
        Some(frame) => format!(
            "the server closed the connection: {} {}",
            u16::from(frame.code),
            frame.reason
        ),
        None => "the server closed the connection without a reason".to_string(),
    }
}
