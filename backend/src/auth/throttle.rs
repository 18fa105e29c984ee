//! Sign-in throttling, shared by every node through the database.
//!
//! Each attempt is recorded *before* its password is checked, in one atomic statement that also
//! says whether the key was blocked when it arrived. So 40 parallel guesses cannot all be checked:
//! only the first `max` are, then the key is blocked for `base`, and each further failed attempt
//! once the block is over doubles it (up to the window). A success clears its key.

use projections::{now_ms, on_db, Db};

/// Keys untouched for this long (and not blocked) are removed.
const STALE_AFTER_MS: i64 = 24 * 3_600_000;

/// The answer for one attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attempt {
    /// Check the password.
    Allowed,
    /// Refuse without checking; try again in this many seconds.
    Blocked { retry_after_seconds: i64 },
}

/// Limits of one kind of key.
#[derive(Debug, Clone, Copy)]
pub struct Limit {
    /// Attempts checked before the first block.
    pub max: i64,
    /// Failures older than this are forgotten (ms); also the longest block.
    pub window_ms: i64,
    /// First block (ms); doubled for each attempt past `max`.
    pub base_ms: i64,
}

/// Records an attempt for `key` and decides whether it may be checked.
pub async fn attempt(db: &Db, key: &str, limit: Limit) -> Result<Attempt, sqlx::Error> {
    let now = now_ms();
    let max = limit.max.max(1);
    // The failure count this attempt makes: 1 again when the last failure is out of the window.
    let count = "(case when login_throttle.last_failure_at < $3 then 1 else login_throttle.failures + 1 end)";
    let blocked = "login_throttle.blocked_until > $2";
    let sql = format!(
        "insert into login_throttle (key, failures, last_failure_at, blocked_until, prev_blocked_until)
         values ($1, 1, $2, $6, 0)
         on conflict (key) do update set
           failures = case when {blocked} then login_throttle.failures else {count} end,
           blocked_until = case
             when {blocked} then login_throttle.blocked_until
             when {count} >= $4 then $2 + (case
                 when $5 * (cast(1 as bigint) << cast(case when {count} - $4 > 20 then 20 else {count} - $4 end as integer)) > $7 then $7
                 else $5 * (cast(1 as bigint) << cast(case when {count} - $4 > 20 then 20 else {count} - $4 end as integer)) end)
             else 0 end,
           prev_blocked_until = login_throttle.blocked_until,
           last_failure_at = case when {blocked} then login_throttle.last_failure_at else $2 end
         returning prev_blocked_until, blocked_until"
    );
    let first_block = if max <= 1 { now + limit.base_ms } else { 0 };
    let (prev, until): (i64, i64) = on_db!(db, pool => sqlx::query_as(&sql)
        .bind(key).bind(now).bind(now - limit.window_ms).bind(max).bind(limit.base_ms)
        .bind(first_block).bind(limit.window_ms)
        .fetch_one(pool).await)?;
    // Now and then, forget keys whose failures are out of the window and not blocked, so
    // guesses at made-up e-mails do not grow the table for ever.
    if rand::random::<u8>() == 0 {
        on_db!(db, pool => sqlx::query(
            "delete from login_throttle where last_failure_at < $1 and blocked_until < $2")
            .bind(now - limit.window_ms.max(STALE_AFTER_MS)).bind(now).execute(pool).await.map(|r| r.rows_affected()))?;
    }
    if prev > now {
        let retry_after_seconds = ((until.max(prev) - now) + 999) / 1000;
        log_blocked(key);
        return Ok(Attempt::Blocked {
            retry_after_seconds,
        });
    }
    Ok(Attempt::Allowed)
}

/// Forgets the failures of `key` (after a successful sign-in).
pub async fn clear(db: &Db, key: &str) -> Result<(), sqlx::Error> {
    on_db!(db, pool => sqlx::query("delete from login_throttle where key = $1")
        .bind(key).execute(pool).await.map(|r| r.rows_affected()))?;
    Ok(())
}

/// Takes back one recorded attempt of `key` (a success from a shared address must not count
/// against the next person behind it).
pub async fn forgive_one(db: &Db, key: &str) -> Result<(), sqlx::Error> {
    on_db!(db, pool => sqlx::query(
        "update login_throttle set failures = failures - 1 where key = $1 and failures > 0 and blocked_until = 0")
        .bind(key).execute(pool).await.map(|r| r.rows_affected()))?;
    Ok(())
}

fn log_blocked(key: &str) {
    // The key holds an e-mail: log only its kind.
    let kind = key.split(':').next().unwrap_or_default();
    tracing::warn!(kind, "sign-in throttled");
}

/// The key of one account's attempts from one client network.
pub fn account_key(email: &str, network: &str) -> String {
    format!("account:{email}|{network}")
}

/// The key of every attempt from one client network.
pub fn address_key(network: &str) -> String {
    format!("address:{network}")
}
