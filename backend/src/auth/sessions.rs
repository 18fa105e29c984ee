//! Server-side sessions. A session token names one row of `sessions`; every request reads that
//! row and the account behind it (cached for [`CACHE_TTL`]), so sign-out, revocation, disabling
//! and demotion act on the next request. Revocations also reach the WebSockets of every node
//! through the users' feeds (message kind [`FeedKind::SessionRevoked`]).
//!
//! A session ends at its absolute end (`SESSION_MAX_AGE_SECONDS`) or after
//! `SESSION_IDLE_SECONDS` without use (authenticated requests, a socket opening); the first
//! request or socket that finds it idle revokes it, so its sockets close everywhere. Use is
//! written at most every [`touch_every_ms`], not on every request.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use projections::{now_ms, on_db, Bound, Db, DELETE_BATCH_ROWS};
use serde::Serialize;

use super::jwt::Claims;
use super::Auth;
use super::Role;
use crate::error::{AppError, AppResult};
use crate::feed::{self, FeedKind};

/// How long a request may rely on what an earlier one read of its session. Changes made on this
/// node clear the cache at once; changes made elsewhere (another node, the `users` command) are
/// seen within this time.
pub const CACHE_TTL: Duration = Duration::from_secs(2);
/// Entries kept at most; past it the cache starts over.
const CACHE_MAX: usize = 50_000;
/// `last_seen_at` is written at most this often per session.
const TOUCH_EVERY_MS: i64 = 60_000;

/// How long a session may go unused, in ms.
pub fn idle_ms(config: &crate::config::Config) -> i64 {
    config.session_idle_seconds.max(1).saturating_mul(1000)
}

/// How often use is written for an idle limit of `idle_ms`: at most once a minute, and often
/// enough that a session in use never looks idle.
fn touch_every_ms(idle_ms: i64) -> i64 {
    (idle_ms / 4).clamp(100, TOUCH_EVERY_MS)
}

/// Feed message kind telling sockets that a session ended: payload `{"session": id}` or
/// `{"all": true}` for every session of the user.
pub const REVOKED_KIND: FeedKind = FeedKind::SessionRevoked;

pub const SESSION_ENDED: &str = "Your session has ended. Please sign in again.";
pub const SESSION_IDLE: &str = "Your session ended after a time without use. Please sign in again.";

/// What a request learns from its session.
#[derive(Debug, Clone)]
pub struct ActiveSession {
    pub session_id: String,
    pub user_id: String,
    pub role: Role,
    /// Absolute end of the session, ms since the epoch.
    pub expires_at: i64,
    /// Whether the account accepted the current terms.
    pub terms_accepted: bool,
    /// Last recorded use, ms since the epoch.
    pub last_seen_at: i64,
    /// The account as the request's handlers name it, read with the session.
    pub account: Account,
}

/// What a request's handlers need of the caller's account, read in the session's statement so
/// that a handler naming the caller (the documents area: owner names, share senders) reads no
/// account of its own. As current as the role beside it.
#[derive(Debug, Clone)]
pub struct Account {
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    /// e.g. `US`: such users see the US documents.
    pub certificate: Option<String>,
}

#[derive(Default)]
pub struct SessionCache {
    entries: Mutex<HashMap<String, (Instant, ActiveSession)>>,
}

impl SessionCache {
    fn get(&self, session_id: &str) -> Option<ActiveSession> {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries
            .get(session_id)
            .filter(|(at, _)| at.elapsed() < CACHE_TTL)
            .map(|(_, s)| s.clone())
    }

    fn put(&self, session: ActiveSession) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= CACHE_MAX {
            entries.clear();
        }
        entries.insert(session.session_id.clone(), (Instant::now(), session));
    }

    /// Forgets everything: after a change to any account or session on this node.
    pub fn clear(&self) {
        self.entries
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }
}

/// Opens a session for `user_id` and returns its id and absolute end (ms).
pub async fn open(
    state: &Auth,
    user_id: &str,
    device: Option<&str>,
    client_address: Option<&str>,
) -> AppResult<(String, i64)> {
    let max_age_ms = state.config.session_max_age_seconds.max(60) * 1000;
    Ok(open_on(&state.db, user_id, max_age_ms, device, client_address).await?)
}

/// [`open`] on a database, for a session lasting `max_age_ms`.
pub async fn open_on(
    db: &Db,
    user_id: &str,
    max_age_ms: i64,
    device: Option<&str>,
    client_address: Option<&str>,
) -> Result<(String, i64), sqlx::Error> {
    let id = uuid::Uuid::new_v4().to_string();
    let now = now_ms();
    let expires_at = now + max_age_ms;
    let device = device.map(|d| d.chars().take(200).collect::<String>());
    on_db!(db, pool => sqlx::query(
        "insert into sessions (id, user_id, created_at, last_seen_at, expires_at, device, client_address)
         values ($1, $2, $3, $3, $4, $5, $6)")
        .bind(&id).bind(user_id).bind(now).bind(expires_at).bind(&device).bind(client_address)
        .execute(pool).await.map(|r| r.rows_affected()))?;
    Ok((id, expires_at))
}

/// A token for an open session, valid for `JWT_TTL_SECONDS` but never past the session's end.
pub fn token_for(
    state: &Auth,
    user_id: &str,
    session_id: &str,
    expires_at_ms: i64,
) -> AppResult<String> {
    state.jwt.issue(user_id, session_id, expires_at_ms / 1000)
}

#[derive(sqlx::FromRow)]
struct SessionRow {
    user_id: String,
    #[sqlx(try_from = "String")]
    role: Role,
    expires_at: i64,
    last_seen_at: i64,
    revoked_at: Option<i64>,
    disabled_at: Option<i64>,
    email: String,
    first_name: String,
    last_name: String,
    certificate: Option<String>,
    terms_accepted: bool,
}

/// The session of a verified token, if it is still active; records its use.
pub async fn check(state: &Auth, claims: &Claims) -> AppResult<ActiveSession> {
    let idle_ms = idle_ms(&state.config);
    let now = now_ms();
    // A cached session that looks idle is read again: another node may have seen it used.
    let cached = state.sessions.get(&claims.sid).filter(|s| {
        s.user_id == claims.sub && s.expires_at > now && now - s.last_seen_at <= idle_ms
    });
    let mut session = match cached {
        Some(session) => session,
        None => match load(
            &state.db,
            &claims.sid,
            &claims.sub,
            idle_ms,
            Some(&state.config.terms_version),
        )
        .await?
        {
            Loaded::Active(session) => {
                state.sessions.put(session.clone());
                session
            }
            Loaded::Idle { just_ended } => {
                if just_ended {
                    state.sessions.clear();
                    // This node's sockets of the session close at once.
                    state.feed.poke();
                }
                return Err(AppError::Unauthorized(SESSION_IDLE.into()));
            }
            Loaded::Gone => return Err(AppError::Unauthorized(SESSION_ENDED.into())),
        },
    };
    let used = record_use(&state.db, &session, idle_ms, now).await?;
    if used != session.last_seen_at {
        session.last_seen_at = used;
        state.sessions.put(session.clone());
    }
    Ok(session)
}

/// Records that `session` was used at `now` when its last recorded use is older than
/// [`touch_every_ms`] allows; returns its last recorded use afterwards.
pub async fn record_use(
    db: &Db,
    session: &ActiveSession,
    idle_ms: i64,
    now: i64,
) -> Result<i64, sqlx::Error> {
    if now - session.last_seen_at <= touch_every_ms(idle_ms) {
        return Ok(session.last_seen_at);
    }
    on_db!(db, pool => sqlx::query(
        "update sessions set last_seen_at = $1 where id = $2 and last_seen_at < $1")
        .bind(now).bind(&session.session_id).execute(pool).await.map(|r| r.rows_affected()))?;
    Ok(now)
}

/// What the database says of a session.
enum Loaded {
    Active(ActiveSession),
    /// It ended unused past the idle limit (`just_ended`: now, by this call).
    Idle {
        just_ended: bool,
    },
    /// Unknown, another user's, signed out, revoked, past its end, or its account disabled.
    Gone,
}

/// Reads the session, its account and (for `terms_version`; false for `None`) whether the account
/// accepted those terms, in one statement.
async fn load(
    db: &Db,
    session_id: &str,
    user_id: &str,
    idle_ms: i64,
    terms_version: Option<&str>,
) -> Result<Loaded, sqlx::Error> {
    let row: Option<SessionRow> = on_db!(db, pool => sqlx::query_as(
        "select s.user_id, u.role, s.expires_at, s.last_seen_at, s.revoked_at, u.disabled_at,
                u.email, u.first_name, u.last_name, u.certificate,
                exists (select 1 from terms_acceptances t
                        where t.user_id = s.user_id and t.version = $2) as terms_accepted
         from sessions s join users u on u.id = s.user_id where s.id = $1")
        .bind(session_id).bind(terms_version).fetch_optional(pool).await)?;
    let now = now_ms();
    let Some(row) = row.filter(|r| r.user_id == user_id) else {
        return Ok(Loaded::Gone);
    };
    match row.revoked_at {
        // Revoked when it was already idle: it ended for want of use.
        Some(revoked_at) if revoked_at - row.last_seen_at > idle_ms => {
            return Ok(Loaded::Idle { just_ended: false })
        }
        Some(_) => return Ok(Loaded::Gone),
        None => {}
    }
    if row.disabled_at.is_some() || row.expires_at <= now {
        return Ok(Loaded::Gone);
    }
    if now - row.last_seen_at > idle_ms {
        // Ended here, once for every node: its sockets hear it through the user's feed.
        revoke(db, session_id).await?;
        return Ok(Loaded::Idle { just_ended: true });
    }
    Ok(Loaded::Active(ActiveSession {
        session_id: session_id.to_string(),
        user_id: row.user_id,
        role: row.role,
        expires_at: row.expires_at,
        terms_accepted: row.terms_accepted,
        last_seen_at: row.last_seen_at,
        account: Account {
            email: row.email,
            first_name: row.first_name,
            last_name: row.last_name,
            certificate: row.certificate,
        },
    }))
}

/// The session `session_id` of `user_id` when it is open, not past its end nor idle past
/// `idle_ms` (then it is ended), and its account is enabled, with whether the account accepted
/// `terms_version` (false for `None`). Read from the database, never from a cache (the WebSocket
/// checks with it).
pub async fn load_active(
    db: &Db,
    session_id: &str,
    user_id: &str,
    idle_ms: i64,
    terms_version: Option<&str>,
) -> Result<Option<ActiveSession>, sqlx::Error> {
    Ok(
        match load(db, session_id, user_id, idle_ms, terms_version).await? {
            Loaded::Active(session) => Some(session),
            Loaded::Idle { .. } | Loaded::Gone => None,
        },
    )
}

/// Ends one session; its sockets on every node close with 4401. Returns false when there was no
/// open session with that id.
pub async fn revoke(db: &Db, session_id: &str) -> Result<bool, sqlx::Error> {
    let user: Option<String> = on_db!(db, pool => sqlx::query_scalar(
        "update sessions set revoked_at = $1 where id = $2 and revoked_at is null returning user_id")
        .bind(now_ms()).bind(session_id).fetch_optional(pool).await)?;
    let Some(user_id) = user else {
        return Ok(false);
    };
    // The device signed out: it gets no more pushes.
    crate::push::delete_subscriptions_of_session(db, session_id).await?;
    feed::push_direct(
        db,
        &user_id,
        REVOKED_KIND,
        &serde_json::json!({ "session": session_id }),
    )
    .await?;
    Ok(true)
}

/// Ends every session of a user (disabling, password reset); returns how many were open.
pub async fn revoke_all(db: &Db, user_id: &str) -> Result<u64, sqlx::Error> {
    let ended = on_db!(db, pool => sqlx::query(
        "update sessions set revoked_at = $1 where user_id = $2 and revoked_at is null")
        .bind(now_ms()).bind(user_id).execute(pool).await.map(|r| r.rows_affected()))?;
    crate::push::delete_subscriptions_of_user(db, user_id).await?;
    feed::push_direct(
        db,
        user_id,
        REVOKED_KIND,
        &serde_json::json!({ "all": true }),
    )
    .await?;
    Ok(ended)
}

/// Ends every session of a user but `keep` (a password change keeps the session it was made
/// from); returns how many were ended.
pub async fn revoke_others(db: &Db, user_id: &str, keep: &str) -> Result<u64, sqlx::Error> {
    let others: Vec<String> = on_db!(db, pool => sqlx::query_scalar(
        "select id from sessions where user_id = $1 and revoked_at is null and id <> $2")
        .bind(user_id).bind(keep).fetch_all(pool).await)?;
    let mut ended = 0;
    for id in others {
        if revoke(db, &id).await? {
            ended += 1;
        }
    }
    Ok(ended)
}

/// A session as administrators see it.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct SessionInfo {
    pub id: String,
    pub created_at: i64,
    pub last_seen_at: i64,
    pub expires_at: i64,
    pub device: Option<String>,
    pub client_address: Option<String>,
    pub revoked_at: Option<i64>,
}

/// The sessions of a user, newest first (the 100 latest).
pub async fn list(db: &Db, user_id: &str) -> Result<Vec<SessionInfo>, sqlx::Error> {
    on_db!(db, pool => sqlx::query_as::<_, SessionInfo>(
        "select id, created_at, last_seen_at, expires_at, device, client_address, revoked_at
         from sessions where user_id = $1 order by created_at desc limit 100")
        .bind(user_id).fetch_all(pool).await)
}

/// One open session as its own user sees it.
#[derive(Debug, sqlx::FromRow)]
pub struct OpenSession {
    pub id: String,
    pub created_at: i64,
    pub last_seen_at: i64,
    pub expires_at: i64,
    pub device: Option<String>,
}

/// The open sessions of a user (not ended, not past their end nor idle past `idle_ms`), the
/// most recently used first (the 100 latest).
pub async fn list_open(
    db: &Db,
    user_id: &str,
    idle_ms: i64,
) -> Result<Vec<OpenSession>, sqlx::Error> {
    let now = now_ms();
    on_db!(db, pool => sqlx::query_as::<_, OpenSession>(
        "select id, created_at, last_seen_at, expires_at, device from sessions
         where user_id = $1 and revoked_at is null and expires_at > $2 and last_seen_at >= $3
         order by last_seen_at desc, created_at desc limit 100")
        .bind(user_id).bind(now).bind(now - idle_ms).fetch_all(pool).await)
}

/// Ends the open session `session_id` of `user_id` only; false when the user has no such open
/// session (another user's id included).
pub async fn revoke_own(db: &Db, user_id: &str, session_id: &str) -> Result<bool, sqlx::Error> {
    let owner: Option<String> = on_db!(db, pool => sqlx::query_scalar(
        "select user_id from sessions where id = $1 and revoked_at is null")
        .bind(session_id).fetch_optional(pool).await)?;
    if owner.as_deref() != Some(user_id) {
        return Ok(false);
    }
    revoke(db, session_id).await
}

/// Whether a revocation message (payload of [`REVOKED_KIND`]) ends `session_id`.
pub fn revocation_ends(payload: &serde_json::Value, session_id: &str) -> bool {
    payload.get("all").and_then(|v| v.as_bool()) == Some(true)
        || payload.get("session").and_then(|v| v.as_str()) == Some(session_id)
}

/// How often ended sessions and spent reset links are deleted.
const PURGE_EVERY: Duration = Duration::from_secs(3600);
/// A reset link is valid 30 minutes; a used or expired one is kept a day, then deleted.
const SPENT_RESET_KEPT_MS: i64 = 24 * 3600 * 1000;

/// Deletes the sessions that ended more than `retention_days` ago (signed out, revoked, or past
/// their absolute end), with the device and address they were used from, and the reset links
/// spent or expired more than a day ago. Returns how many sessions went.
pub async fn purge_ended(db: &Db, retention_days: u32, now: i64) -> Result<u64, sqlx::Error> {
    let before = now - i64::from(retention_days) * 24 * 3600 * 1000;
    let sessions = db
        .delete_in_batches(
            "sessions",
            "coalesce(revoked_at, expires_at) < $1",
            &[Bound::Int(before)],
            DELETE_BATCH_ROWS,
        )
        .await?
        .rows;
    on_db!(db, pool => sqlx::query("delete from password_resets where created_at < $1")
        .bind(now - SPENT_RESET_KEPT_MS).execute(pool).await.map(|r| r.rows_affected()))?;
    Ok(sessions)
}

/// Runs [`purge_ended`] every hour until `stop`.
pub async fn purge_ended_periodically(
    db: Db,
    retention_days: u32,
    stop: tokio_util::sync::CancellationToken,
) {
    loop {
        match purge_ended(&db, retention_days, now_ms()).await {
            Ok(0) => {}
            Ok(purged) => tracing::debug!(purged, "ended sessions deleted"),
            Err(e) => tracing::warn!(error = %e, "could not delete ended sessions"),
        }
        tokio::select! {
            _ = stop.cancelled() => return,
            _ = tokio::time::sleep(PURGE_EVERY) => {}
        }
    }
}
