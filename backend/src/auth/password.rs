//! Password hashing with argon2id on a bounded pool, and the password policy.
//!
//! Each argon2 computation takes about 19 MiB and a core for a while: at most
//! [`max_concurrent_hashes`] run at once, the rest wait their turn (up to [`QUEUE_WAIT`], then
//! 503), so 500 parallel sign-ins cannot exhaust memory.

use std::sync::LazyLock;
use std::time::Duration;

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use tokio::sync::Semaphore;

use crate::error::AppError;

/// The most a request waits for a free hashing slot.
const QUEUE_WAIT: Duration = Duration::from_secs(15);

pub const MIN_PASSWORD_LEN: usize = 10;
pub const MAX_PASSWORD_LEN: usize = 1024;

/// Hashing slots: the number of cores, at least 2.
pub fn max_concurrent_hashes() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .max(2)
}

static SLOTS: LazyLock<Semaphore> = LazyLock::new(|| Semaphore::new(max_concurrent_hashes()));

async fn on_pool<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, AppError> {
    let _permit = tokio::time::timeout(QUEUE_WAIT, SLOTS.acquire())
        .await
        .map_err(|_| {
            tracing::warn!("password hashing queue full");
            AppError::Unavailable("The server is busy. Try again in a moment.".into())
        })?
        .map_err(|e| AppError::Internal(anyhow::Error::new(e).context("hashing pool closed")))?;
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| AppError::Internal(anyhow::Error::new(e).context("password hashing task")))
}

pub async fn hash(password: String) -> Result<String, AppError> {
    on_pool(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| anyhow::anyhow!("hashing password: {e}"))
    })
    .await?
    .map_err(AppError::Internal)
}

/// True when `password` matches `stored`. A malformed stored hash never matches.
pub async fn verify(password: String, stored: String) -> Result<bool, AppError> {
    on_pool(move || {
        let Ok(parsed) = PasswordHash::new(&stored) else {
            return false;
        };
        Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok()
    })
    .await
}

/// A valid argon2id hash of a random password, verified against when the e-mail is unknown so
/// that a wrong e-mail and a wrong password take the same time.
pub static DUMMY_HASH: LazyLock<String> = LazyLock::new(|| {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(b"not-a-real-password-0f9a", &salt)
        .map(|h| h.to_string())
        .unwrap_or_default()
});

static COMMON: LazyLock<std::collections::HashSet<&'static str>> = LazyLock::new(|| {
    include_str!("common-passwords.txt")
        .lines()
        .map(str::trim)
        .collect()
});

/// Why a new password is refused; each message is shown as is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PasswordRejected {
    #[error("The password must be at least 10 characters long")]
    TooShort,
    #[error("The password is too long")]
    TooLong,
    #[error("This password is too common. Choose another one")]
    TooCommon,
    #[error("The password must not contain the e-mail address")]
    ContainsEmail,
}

/// Checks a new password against the policy: length, the commonest passwords, the e-mail.
pub fn check_policy(password: &str, email: &str) -> Result<(), PasswordRejected> {
    let length = password.chars().count();
    if length < MIN_PASSWORD_LEN {
        return Err(PasswordRejected::TooShort);
    }
    if password.len() > MAX_PASSWORD_LEN {
        return Err(PasswordRejected::TooLong);
    }
    let lower = password.to_lowercase();
    if COMMON.contains(lower.as_str()) {
        return Err(PasswordRejected::TooCommon);
    }
    let local = email.split('@').next().unwrap_or_default().to_lowercase();
    if local.len() >= 4 && lower.contains(&local) {
        return Err(PasswordRejected::ContainsEmail);
    }
    Ok(())
}

impl From<PasswordRejected> for AppError {
    fn from(e: PasswordRejected) -> Self {
        AppError::bad_request(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_refuses_short_common_and_self_naming_passwords() {
        assert_eq!(
            check_policy("short", "a@b.co"),
            Err(PasswordRejected::TooShort)
        );
        assert_eq!(
            check_policy("Password123", "a@b.co"),
            Err(PasswordRejected::TooCommon)
        );
        assert_eq!(
            check_policy("anna.rossi-2026!", "anna.rossi@example.com"),
            Err(PasswordRejected::ContainsEmail)
        );
        assert_eq!(
            check_policy(&"x".repeat(2000), "a@b.co"),
            Err(PasswordRejected::TooLong)
        );
        assert_eq!(
            check_policy("Companion-2026", "anna.rossi@example.com"),
            Ok(())
        );
    }
}
