//! Session tokens: HS256 JWTs carrying the user's id and the id of their server-side session
//! (see [`super::sessions`]), with an expiry. The role is never in the token: it is read from the
//! database on each request.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, RwLock};

use anyhow::Context;
use jsonwebtoken::{decode, decode_header, encode, DecodingKey, EncodingKey, Header, Validation};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use sqlx::PgPool;

use crate::error::AppError;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Claims {
    /// The user's id.
    pub sub: String,
    /// The server-side session this token belongs to.
    pub sid: String,
    /// Expiry, seconds since the Unix epoch.
    pub exp: i64,
    pub iat: i64,
}

/// The keys a node signs and checks tokens with: one secret (SQLite, or `JWT_SECRET`), or on
/// PostgreSQL the cluster's keys from `signing_keys`, each named by the token's `kid`.
struct KeyRing {
    /// The key new tokens are signed with, and its id (none for a single secret).
    signing: (Option<String>, EncodingKey),
    /// Keys by id, for tokens that name one.
    by_id: HashMap<String, DecodingKey>,
    /// The single secret, for tokens without a `kid`.
    unnamed: Option<DecodingKey>,
}

#[derive(Clone)]
pub struct JwtKeys {
    ring: Arc<RwLock<KeyRing>>,
    ttl_seconds: i64,
}

/// One row of `signing_keys`.
#[derive(sqlx::FromRow)]
struct StoredKey {
    kid: String,
    secret: String,
    /// True once it may sign (every node has had time to learn it).
    active: bool,
}

/// How often a node reads the cluster's keys again (a rotated key is published
/// [`KEY_PUBLISH_SECONDS`] before it signs, so every node knows it by then).
pub const KEY_REFRESH: std::time::Duration = std::time::Duration::from_secs(2);
/// Delay between `companion keys rotate` and the first token signed with the new key.
pub const KEY_PUBLISH_SECONDS: i64 = 10;

fn new_secret() -> String {
    let mut bytes = [0u8; 48];
    rand::thread_rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}

impl JwtKeys {
    pub fn new(secret: &[u8], ttl_seconds: i64) -> Self {
        Self {
            ring: Arc::new(RwLock::new(KeyRing {
                signing: (None, EncodingKey::from_secret(secret)),
                by_id: HashMap::new(),
                unnamed: Some(DecodingKey::from_secret(secret)),
            })),
            ttl_seconds,
        }
    }

    /// The cluster's keys (PostgreSQL): made on the first start, then read from the database.
    pub async fn from_database(pool: &PgPool, ttl_seconds: i64) -> anyhow::Result<Self> {
        sqlx::query(
            "insert into signing_keys (kid, secret, active_from)
             select $1, $2, now() - interval '1 second'
             where not exists (select 1 from signing_keys)",
        )
        .bind(uuid::Uuid::new_v4().simple().to_string())
        .bind(new_secret())
        .execute(pool)
        .await
        .context("creating the first signing key")?;
        let keys = Self::new(b"", ttl_seconds);
        keys.reload(pool).await?;
        Ok(keys)
    }

    /// Reads the cluster's keys again: signs with the newest active one, checks with all.
    pub async fn reload(&self, pool: &PgPool) -> anyhow::Result<()> {
        let rows: Vec<StoredKey> = sqlx::query_as(
            "select kid, secret, active_from <= now() as active from signing_keys
             where retire_at is null or retire_at > now()
             order by active_from desc, created_at desc",
        )
        .fetch_all(pool)
        .await
        .context("reading the signing keys")?;
        let signing = rows
            .iter()
            .find(|k| k.active)
            .ok_or_else(|| anyhow::anyhow!("no active signing key in signing_keys"))?;
        let ring = KeyRing {
            signing: (
                Some(signing.kid.clone()),
                EncodingKey::from_secret(signing.secret.as_bytes()),
            ),
            by_id: rows
                .iter()
                .map(|k| (k.kid.clone(), DecodingKey::from_secret(k.secret.as_bytes())))
                .collect(),
            unnamed: None,
        };
        *self.ring.write().unwrap_or_else(|e| e.into_inner()) = ring;
        Ok(())
    }

    /// Keeps reading the cluster's keys (a rotation on any node reaches every node).
    pub fn keep_fresh(&self, pool: PgPool) {
        let keys = self.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(KEY_REFRESH).await;
                if let Err(e) = keys.reload(&pool).await {
                    tracing::warn!(error = %e, "cannot read the signing keys");
                }
            }
        });
    }

    /// `companion keys rotate`: a new key, signing after [`KEY_PUBLISH_SECONDS`]; the others
    /// check tokens until the last one they signed has expired, then are deleted.
    pub async fn rotate(pool: &PgPool, ttl_seconds: i64) -> anyhow::Result<String> {
        let kid = uuid::Uuid::new_v4().simple().to_string();
        let mut tx = pool.begin().await?;
        sqlx::query(
            "update signing_keys
             set retire_at = now() + make_interval(secs => $1)
             where retire_at is null",
        )
        .bind((KEY_PUBLISH_SECONDS + ttl_seconds.max(0)) as f64)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "insert into signing_keys (kid, secret, active_from)
             values ($1, $2, now() + make_interval(secs => $3))",
        )
        .bind(&kid)
        .bind(new_secret())
        .bind(KEY_PUBLISH_SECONDS as f64)
        .execute(&mut *tx)
        .await?;
        let removed = sqlx::query("delete from signing_keys where retire_at <= now()")
            .execute(&mut *tx)
            .await?
            .rows_affected();
        tx.commit().await?;
        Ok(format!(
            "New signing key {kid}: it signs new tokens in {KEY_PUBLISH_SECONDS} s; the previous \
             keys check tokens until theirs expire ({ttl_seconds} s). {removed} expired keys removed."
        ))
    }

    /// The configured secret, or one generated on first start and kept in the data folder so
    /// sessions survive a restart.
    pub fn load_or_generate_secret(
        configured: Option<&str>,
        data_dir: &Path,
    ) -> anyhow::Result<Vec<u8>> {
        if let Some(secret) = configured.filter(|s| !s.is_empty()) {
            // A short secret can be guessed offline from any token.
            if secret.len() < MIN_SECRET_BYTES {
                anyhow::bail!(
                    "JWT_SECRET is {} bytes long; it must be at least {MIN_SECRET_BYTES} bytes \
                     (e.g. `openssl rand -hex 32`), or unset to have one generated",
                    secret.len()
                );
            }
            return Ok(secret.as_bytes().to_vec());
        }
        let path = data_dir.join("jwt-secret");
        if let Ok(existing) = std::fs::read_to_string(&path) {
            let existing = existing.trim();
            if existing.len() >= MIN_SECRET_BYTES {
                // A file written by an earlier version may be readable by every local user.
                if let Err(e) = make_private(&path) {
                    tracing::warn!(error = %e, path = %path.display(), "could not make the signing secret private");
                }
                return Ok(existing.as_bytes().to_vec());
            }
        }
        let mut bytes = [0u8; 48];
        rand::thread_rng().fill_bytes(&mut bytes);
        let secret = hex::encode(bytes);
        write_private(&path, secret.as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
        Ok(secret.into_bytes())
    }

    pub fn ttl_seconds(&self) -> i64 {
        self.ttl_seconds
    }

    /// A token for `session_id`, valid for the configured lifetime but never past `not_after`
    /// (the session's absolute end, seconds since the epoch).
    pub fn issue(
        &self,
        user_id: &str,
        session_id: &str,
        not_after: i64,
    ) -> Result<String, AppError> {
        let now = chrono::Utc::now().timestamp();
        let exp = (now + self.ttl_seconds).min(not_after);
        self.issue_with_expiry(user_id, session_id, now, exp)
    }

    pub fn issue_with_expiry(
        &self,
        user_id: &str,
        session_id: &str,
        iat: i64,
        exp: i64,
    ) -> Result<String, AppError> {
        let claims = Claims {
            sub: user_id.to_string(),
            sid: session_id.to_string(),
            exp,
            iat,
        };
        let ring = self.ring.read().unwrap_or_else(|e| e.into_inner());
        let header = Header {
            kid: ring.signing.0.clone(),
            ..Header::default()
        };
        encode(&header, &claims, &ring.signing.1)
            .map_err(|e| AppError::Internal(anyhow::Error::new(e).context("signing token")))
    }

    pub fn verify(&self, token: &str) -> Result<Claims, TokenError> {
        let mut validation = Validation::default();
        validation.leeway = 0;
        let kid = decode_header(token).map_err(|_| TokenError::Invalid)?.kid;
        let ring = self.ring.read().unwrap_or_else(|e| e.into_inner());
        let key = match &kid {
            Some(kid) => ring.by_id.get(kid),
            None => ring.unnamed.as_ref(),
        }
        .ok_or(TokenError::Invalid)?;
        decode::<Claims>(token, key, &validation)
            .map(|data| data.claims)
            .map_err(|e| match e.kind() {
                jsonwebtoken::errors::ErrorKind::ExpiredSignature => TokenError::Expired,
                _ => TokenError::Invalid,
            })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    #[error("Your session has expired. Please sign in again.")]
    Expired,
    #[error("Invalid session. Please sign in again.")]
    Invalid,
}

/// The shortest signing secret accepted (`JWT_SECRET`), in bytes.
pub const MIN_SECRET_BYTES: usize = 32;

/// Makes `path` readable and writable by the server's own user only (0600).
fn make_private(path: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// Writes `contents` to `path`, readable and writable by the server's own user only (0600).
fn write_private(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
        // A file left by an earlier version keeps its mode on open: narrowed first.
        if path.exists() {
            make_private(path)?;
        }
    }
    let mut file = options.open(path)?;
    file.write_all(contents)?;
    file.sync_all()
}
