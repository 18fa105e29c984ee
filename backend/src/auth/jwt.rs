//! Session tokens: HS256 JWTs carrying the user's id and the id of their server-side session
//! (see [`super::sessions`]), with an expiry. The role is never in the token: it is read from the
//! database on each request.

use std::path::Path;

use anyhow::Context;
use jsonwebtoken::{decode, encode, DecodingKey, EncodingKey, Header, Validation};
use rand::RngCore;
use serde::{Deserialize, Serialize};

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

#[derive(Clone)]
pub struct JwtKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    ttl_seconds: i64,
}

impl JwtKeys {
    pub fn new(secret: &[u8], ttl_seconds: i64) -> Self {
        Self {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            ttl_seconds,
        }
    }

    /// The configured secret, or one generated on first start and kept in the data folder so
    /// sessions survive a restart.
    pub fn load_or_generate_secret(
        configured: Option<&str>,
        data_dir: &Path,
    ) -> anyhow::Result<Vec<u8>> {
        if let Some(secret) = configured.filter(|s| !s.is_empty()) {
            return Ok(secret.as_bytes().to_vec());
        }
        let path = data_dir.join("jwt-secret");
        if let Ok(existing) = std::fs::read_to_string(&path) {
            let existing = existing.trim();
            if existing.len() >= 32 {
                return Ok(existing.as_bytes().to_vec());
            }
        }
        let mut bytes = [0u8; 48];
        rand::thread_rng().fill_bytes(&mut bytes);
        let secret = hex::encode(bytes);
        std::fs::write(&path, &secret).with_context(|| format!("writing {}", path.display()))?;
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
        encode(&Header::default(), &claims, &self.encoding)
            .map_err(|e| AppError::Internal(anyhow::Error::new(e).context("signing token")))
    }

    pub fn verify(&self, token: &str) -> Result<Claims, TokenError> {
        let mut validation = Validation::default();
        validation.leeway = 0;
        decode::<Claims>(token, &self.decoding, &validation)
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
