//! Password hashing with argon2id on a bounded pool, and the password policy.
//!
//! Each argon2 computation takes about 19 MiB and a core for a while: at most
//! [`max_concurrent_hashes`] run at once, the rest wait their turn (up to [`QUEUE_WAIT`], then
//! 503), so 500 parallel sign-ins cannot exhaust memory. A sign-in's check reuses the working
//! memory of the one before ([`MEMORY`]): a fresh 19 MiB block per sign-in left the allocator
//! holding more and more of the pages it had touched once.

use std::sync::{LazyLock, Mutex};
use std::time::Duration;

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{Output, PasswordHash, PasswordHasher, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
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
    on_pool(move || matches(password.as_bytes(), &stored)).await
}

/// Argon2 working memory kept between checks: at most one block per hashing slot.
static MEMORY: Mutex<Vec<Vec<Block>>> = Mutex::new(Vec::new());

/// What `PasswordVerifier::verify_password` does for an argon2 PHC string, with the working
/// memory taken from [`MEMORY`] instead of allocated: the same parameters, salt and output
/// length as stored, and the outputs compared in constant time ([`Output`]'s equality).
fn matches(password: &[u8], stored: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(stored) else {
        return false;
    };
    let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else {
        return false;
    };
    let Ok(algorithm) = Algorithm::try_from(parsed.algorithm) else {
        return false;
    };
    let version = match parsed.version.map(Version::try_from).transpose() {
        Ok(version) => version.unwrap_or_default(),
        Err(_) => return false,
    };
    let Ok(params) = Params::try_from(&parsed) else {
        return false;
    };
    let mut salt_bytes = [0u8; 64];
    let Ok(salt) = salt.decode_b64(&mut salt_bytes) else {
        return false;
    };
    let mut memory = MEMORY
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .pop()
        .unwrap_or_default();
    memory.resize(params.block_count(), Block::default());
    let mut computed = vec![0u8; expected.len()];
    let hashed = Argon2::new(algorithm, version, params).hash_password_into_with_memory(
        password,
        salt,
        &mut computed,
        &mut memory,
    );
    // Wiped before it goes back: it held values derived from the password.
    memory.fill(Block::default());
    MEMORY
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .push(memory);
    hashed.is_ok() && Output::new(&computed).is_ok_and(|computed| computed == expected)
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

    #[test]
    fn a_check_with_reused_memory_agrees_with_the_library() {
        let salt = SaltString::generate(&mut OsRng);
        let small = Params::new(1024, 2, 1, Some(24)).expect("params");
        let hashes = [
            Argon2::default()
                .hash_password(b"correct horse 1", &salt)
                .expect("hash")
                .to_string(),
            Argon2::new(Algorithm::Argon2id, Version::V0x13, small.clone())
                .hash_password(b"correct horse 1", &salt)
                .expect("hash")
                .to_string(),
            Argon2::new(Algorithm::Argon2i, Version::V0x10, small)
                .hash_password(b"correct horse 1", &salt)
                .expect("hash")
                .to_string(),
        ];
        // Twice over, so that the second round runs on memory the first left behind.
        for _ in 0..2 {
            for stored in &hashes {
                assert!(matches(b"correct horse 1", stored), "{stored}");
                assert!(!matches(b"correct horse 2", stored), "{stored}");
                assert!(!matches(b"", stored), "{stored}");
            }
        }
        assert!(!matches(b"correct horse 1", "not a hash"));
        assert!(!matches(
            b"correct horse 1",
            "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ"
        ));
        let cut = &hashes[0][..hashes[0].len() - 4];
        assert!(!matches(b"correct horse 1", cut));
    }
}
