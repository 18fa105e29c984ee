//! Server-side sessions. A session token names one row of `sessions`; every request reads that
//! row and the account behind it (cached for [`CACHE_TTL`]), so sign-out, revocation, disabling
//! and demotion act on the next request. Revocations also reach the WebSockets of every node
//! through the users' feeds (message kind [`REVOKED_KIND`]).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use projections::{now_ms, on_db, Db};
use serde::Serialize;

use super::jwt::Claims;
use super::Role;
use crate::error::{AppError, AppResult};
use crate::realtime::protocol::FeedKind;
use crate::state::AppState;

/// How long a request may rely on what an earlier one read of its session. Changes made on this
/// node clear the cache at once; changes made elsewhere (another node, the `users` command) are
/// seen within this time.
pub const CACHE_TTL: Duration = Duration::from_secs(2);
/// Entries kept at most; past it the cache starts over.
const CACHE_MAX: usize = 50_000;
/// `last_seen_at` is written at most this often per session.
const TOUCH_EVERY_MS: i64 = 60_000;

/// Feed message kind telling sockets that a session ended: payload `{"session": id}` or
/// `{"all": true}` for every session of the user.
pub const REVOKED_KIND: FeedKind = FeedKind::SessionRevoked;

pub const SESSION_ENDED: &str = "Your session has ended. Please sign in again.";

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
    last_seen_at: i64,
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
    state: &AppState,
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
    state: &AppState,
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
}

/// The session of a verified token, if it is still active.
pub async fn check(state: &AppState, claims: &Claims) -> AppResult<ActiveSession> {
    if let Some(session) = state.sessions.get(&claims.sid) {
        if session.user_id == claims.sub && session.expires_at > now_ms() {
            return Ok(session);
        }
    }
    let mut session = load_active(&state.db, &claims.sid, &claims.sub)
        .await?
        .ok_or_else(|| AppError::Unauthorized(SESSION_ENDED.into()))?;
    session.terms_accepted =
        super::terms::has_accepted(&state.db, &session.user_id, &state.config.terms_version)
            .await?;
    let now = now_ms();
    if now - session.last_seen_at > TOUCH_EVERY_MS {
        on_db!(&state.db, pool => sqlx::query("update sessions set last_seen_at = $1 where id = $2")
            .bind(now).bind(&session.session_id).execute(pool).await.map(|r| r.rows_affected()))?;
    }
    state.sessions.put(ActiveSession {
        last_seen_at: now.max(session.last_seen_at),
        ..session.clone()
    });
    Ok(session)
}

/// The session `session_id` of `user_id` when it is open, not past its end, and its account is
/// enabled. Read from the database, never from a cache (the WebSocket checks with it).
pub async fn load_active(
    db: &Db,
    session_id: &str,
    user_id: &str,
) -> Result<Option<ActiveSession>, sqlx::Error> {
    let row: Option<SessionRow> = on_db!(db, pool => sqlx::query_as(
        "select s.user_id, u.role, s.expires_at, s.last_seen_at, s.revoked_at, u.disabled_at
         from sessions s join users u on u.id = s.user_id where s.id = $1")
        .bind(session_id).fetch_optional(pool).await)?;
    Ok(row
        .filter(|r| {
            r.user_id == user_id
                && r.revoked_at.is_none()
                && r.disabled_at.is_none()
                && r.expires_at > now_ms()
        })
        .map(|r| ActiveSession {
            session_id: session_id.to_string(),
            user_id: r.user_id,
            role: r.role,
            expires_at: r.expires_at,
            terms_accepted: false,
            last_seen_at: r.last_seen_at,
        }))
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
    crate::realtime::push_direct(
        db,
        &user_id,
        REVOKED_KIND,
        &serde_json::json!({ "session": session_id }),
    )
    .await?;
    Ok(true)
}

/// Ends every session of a user (disabling, password change); returns how many were open.
pub async fn revoke_all(db: &Db, user_id: &str) -> Result<u64, sqlx::Error> {
    let ended = on_db!(db, pool => sqlx::query(
        "update sessions set revoked_at = $1 where user_id = $2 and revoked_at is null")
        .bind(now_ms()).bind(user_id).execute(pool).await.map(|r| r.rows_affected()))?;
    crate::realtime::push_direct(
        db,
        user_id,
        REVOKED_KIND,
        &serde_json::json!({ "all": true }),
    )
    .await?;
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

/// Whether a revocation message (payload of [`REVOKED_KIND`]) ends `session_id`.
pub fn revocation_ends(payload: &serde_json::Value, session_id: &str) -> bool {
    payload.get("all").and_then(|v| v.as_bool()) == Some(true)
        || payload.get("session").and_then(|v| v.as_str()) == Some(session_id)
}
