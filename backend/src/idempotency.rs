//! Over 600 lines: the middleware, its claim table and the recovery of the crash windows belong
//! together.
//!
//! `Idempotency-Key` on command calls: a retried command answers its first result and records
//! nothing again (see `docs/offline.md`, "Idempotent commands").
//!
//! One middleware on the API. A command call (any method but GET, HEAD, OPTIONS and TRACE) of a
//! signed-in user that carries the header claims the row (user, key) of `idempotency_keys`
//! before its handler runs, and stores the handler's answer in it afterwards. A repeat of the
//! same request answers the stored answer; a repeat while the first still runs waits for it.
//!
//! The row's `id` names this execution; every event the command records carries it in its
//! metadata (`idempotency_id`), and a trigger in the events' own transaction marks the row
//! `events_recorded` or, when the row no longer carries that id (the claim expired and another
//! request took it over), refuses the events. So after a crash at any point a repeat either
//! finds the events recorded (and answers a success without executing again), or finds none
//! and executes, while the first execution, if it is still alive somewhere, can record nothing.
//!
//! On SQLite each write to the table waits its turn with the server's other writers
//! ([`projections::Db::write_guard`]) rather than in SQLite's busy handler, which sleeps up to
//! 100 ms between tries while the projector writes (see `crate::event_store`).

use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{FromRequestParts, OriginalUri, Request, State};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use futures::StreamExt;
use hmac::{Hmac, Mac};
use projections::{now_ms, on_db, Bound, Db, DELETE_BATCH_ROWS};
use sha2::Sha256;
use tokio::sync::OnceCell;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use crate::auth::Auth;
use crate::auth::AuthUser;
use crate::error::AppError;

/// The request header.
pub static HEADER: HeaderName = HeaderName::from_static("idempotency-key");
/// Set on an answer that was not executed again: `true` for a stored answer, `reconstructed`
/// when the command had recorded its events but its answer was not kept.
pub static REPLAYED: HeaderName = HeaderName::from_static("idempotency-replayed");

/// Longest key accepted.
pub const MAX_KEY_LEN: usize = 255;
/// Largest answer body kept; a larger one is not stored, and the key still blocks a second
/// execution.
pub const MAX_STORED_BODY: usize = 64 * 1024;

/// What a claim lasts beyond the route's own timeout before another request may recover it.
const CLAIM_MARGIN_MS: i64 = 5_000;
/// How often a repeat looks whether the first request has finished.
const POLL_FIRST: Duration = Duration::from_millis(25);
const POLL_MAX: Duration = Duration::from_millis(500);
/// How often expired keys are deleted.
const PURGE_EVERY: Duration = Duration::from_secs(10 * 60);
const HOUR_MS: i64 = 3_600_000;

pub const INVALID_KEY: &str =
    "The Idempotency-Key header must be 1 to 255 visible ASCII characters (no spaces)";
pub const SEVERAL_KEYS: &str = "Send one Idempotency-Key header, not several";
pub const KEY_REUSED: &str = "This Idempotency-Key was already used for a different request. \
     Use a new key for a new request";
pub const IN_PROGRESS: &str = "A request with this Idempotency-Key is still being processed. \
     Try again in a moment";
pub const TOO_MANY_KEYS: &str = "Too many requests with an Idempotency-Key in the last hour. \
     Try again later";
/// The answer to a repeat whose first answer was not kept.
pub const ALREADY_DONE: &str = "This request was already carried out; its answer was not kept";

/// Outcomes counted in [`crate::metrics::IDEMPOTENCY_REQUESTS`] (`outcome` label).
pub mod outcome {
    /// A new key: the command ran (a miss).
    pub const EXECUTED: &str = "executed";
    /// A repeat answered with the stored answer (a hit).
    pub const REPLAYED: &str = "replayed";
    /// A repeat of a command whose events were recorded but whose answer was not kept (a hit).
    pub const RECONSTRUCTED: &str = "reconstructed";
    /// An abandoned claim (crashed node, lost connection) taken over: the command ran.
    pub const RECOVERED: &str = "recovered";
    /// The key was used for a different request: 422 (a conflict).
    pub const MISMATCH: &str = "mismatch";
    /// The first request was still running when the repeat stopped waiting: 409 (a conflict).
    pub const IN_PROGRESS: &str = "in_progress";
    /// Over `IDEMPOTENCY_KEYS_PER_HOUR`: 429.
    pub const REFUSED: &str = "refused";
}

fn count(outcome: &'static str) {
    metrics::counter!(crate::metrics::IDEMPOTENCY_REQUESTS, "outcome" => outcome).increment(1);
}

/// The middleware's state: the signed-in caller's handles (which also hold the database and
/// the configuration), the largest body it reads to fingerprint, and the fingerprints' key.
#[derive(Clone)]
pub struct Idempotency {
    pub auth: Auth,
    pub body_limit: usize,
    pub fingerprint_key: FingerprintKey,
}

/// The HMAC key of the fingerprints: a request body may hold a password, and a plain hash of it
/// could be checked against guesses by anyone who reads the table. Kept in `server_secrets`
/// (the same on every node), read on first use.
#[derive(Clone, Default)]
pub struct FingerprintKey(std::sync::Arc<OnceCell<Vec<u8>>>);

const FINGERPRINT_SECRET: &str = "idempotency";

impl FingerprintKey {
    async fn get(&self, db: &Db) -> Result<&[u8], sqlx::Error> {
        let key = self
            .0
            .get_or_try_init(|| async {
                let mut fresh = [0u8; 32];
                rand::RngCore::fill_bytes(&mut rand::thread_rng(), &mut fresh);
                // The first node to get here decides; the others read its key.
                on_db!(db, pool => sqlx::query(
                    "insert into server_secrets (name, value) values ($1, $2) on conflict (name) do nothing")
                    .bind(FINGERPRINT_SECRET).bind(hex::encode(fresh))
                    .execute(pool).await.map(|r| r.rows_affected()))?;
                let stored: String = on_db!(db, pool => sqlx::query_scalar(
                    "select value from server_secrets where name = $1")
                    .bind(FINGERPRINT_SECRET).fetch_one(pool).await)?;
                Ok::<_, sqlx::Error>(stored.into_bytes())
            })
            .await?;
        Ok(key.as_slice())
    }
}

/// Calls whose key is ignored: they hand out session tokens, which must not be kept at rest
/// (sign-in, session restore, single sign-on), or they end the session the key is scoped to
/// (sign-out); password reset is not signed in. A repeat of these does no harm: a second
/// sign-in opens a second session, a second sign-out finds none.
fn ignored(path: &str) -> bool {
    let path = path.strip_prefix("/api").unwrap_or(path);
    matches!(path, "/users/login" | "/users/welcome" | "/users/logout")
        || path.starts_with("/users/password-reset")
        || path.starts_with("/users/sso/")
}

/// Whether the key applies to calls with `method` and `path` (also used for the OpenAPI document).
pub fn applies_to(method: &Method, path: &str) -> bool {
    !matches!(
        *method,
        Method::GET | Method::HEAD | Method::OPTIONS | Method::TRACE
    ) && !ignored(path)
}

/// The key of a request: none, or 1 to 255 visible ASCII characters.
pub fn key_of(headers: &HeaderMap) -> Result<Option<String>, AppError> {
    let mut values = headers.get_all(&HEADER).iter();
    let Some(value) = values.next() else {
        return Ok(None);
    };
    if values.next().is_some() {
        return Err(AppError::bad_request(SEVERAL_KEYS));
    }
    let bytes = value.as_bytes();
    if bytes.is_empty()
        || bytes.len() > MAX_KEY_LEN
        || !bytes.iter().all(|b| (0x21..=0x7e).contains(b))
    {
        return Err(AppError::bad_request(INVALID_KEY));
    }
    // Only visible ASCII: valid UTF-8.
    Ok(Some(String::from_utf8_lossy(bytes).into_owned()))
}

/// A row of `idempotency_keys`.
#[derive(Debug, Clone, sqlx::FromRow)]
struct KeyRow {
    id: String,
    fingerprint: String,
    expires_at: i64,
    locked_until: i64,
    events_recorded: bool,
    completed_at: Option<i64>,
    status: Option<i64>,
    content_type: Option<String>,
    location: Option<String>,
    body: Option<Vec<u8>>,
}

/// What a request with a key does.
enum Claim {
    /// Run the command as execution `id`.
    Execute { id: String },
    /// Answer what the first request answered.
    Replay(Box<KeyRow>),
}

/// The middleware (`from_fn_with_state`), applied to the API router.
pub async fn layer(State(this): State<Idempotency>, request: Request, next: Next) -> Response {
    let path = request
        .extensions()
        .get::<OriginalUri>()
        .map_or_else(|| request.uri().clone(), |o| o.0.clone());
    if !applies_to(request.method(), path.path()) {
        return next.run(request).await;
    }
    let key = match key_of(request.headers()) {
        Ok(Some(key)) => key,
        Ok(None) => return next.run(request).await,
        Err(refusal) => return refusal.into_response(),
    };
    let (mut parts, body) = request.into_parts();
    // Not signed in: the handler refuses it, and there is nobody to keep the key for.
    let Ok(user) = AuthUser::from_request_parts(&mut parts, &this.auth).await else {
        return next.run(Request::from_parts(parts, body)).await;
    };
    let announced = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    // Refused further in (413) without reading it.
    if announced.is_some_and(|length| length > this.body_limit as u64) {
        return next.run(Request::from_parts(parts, body)).await;
    }
    let multipart = parts
        .headers
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"multipart/"));
    let key_bytes = match this.fingerprint_key.get(&this.auth.db).await {
        Ok(key_bytes) => key_bytes,
        Err(e) => return AppError::from(e).into_response(),
    };
    let Ok(mut fingerprint) = Hmac::<Sha256>::new_from_slice(key_bytes) else {
        // HMAC takes a key of any length.
        return AppError::Internal(anyhow::anyhow!("idempotency: unusable fingerprint key"))
            .into_response();
    };
    fingerprint.update(parts.method.as_str().as_bytes());
    fingerprint.update(b"\n");
    fingerprint.update(
        path.path_and_query()
            .map_or(path.path(), |p| p.as_str())
            .as_bytes(),
    );
    fingerprint.update(b"\n");
    // An upload streams on as it arrives; its multipart framing (the boundary) differs on every
    // retry, so its fingerprint is the method and the address.
    let body = if multipart {
        fingerprint.update(b"multipart");
        body
    } else {
        match axum::body::to_bytes(body, this.body_limit).await {
            Ok(bytes) => {
                fingerprint.update(&bytes);
                Body::from(bytes)
            }
            Err(_) => {
                return AppError::PayloadTooLarge("The request body is too large".into())
                    .into_response()
            }
        }
    };
    let fingerprint = hex::encode(fingerprint.finalize().into_bytes());
    let config = &this.auth.config;
    let timeout_seconds = if multipart {
        config.upload_timeout_seconds
    } else {
        config.request_timeout_seconds
    };
    let rules = Rules {
        ttl_ms: i64::from(config.idempotency_ttl_hours) * HOUR_MS,
        claim_ms: i64::try_from(timeout_seconds.max(1))
            .unwrap_or(i64::MAX / 2000)
            .saturating_mul(1000)
            .saturating_add(CLAIM_MARGIN_MS),
        wait: Duration::from_secs(config.request_timeout_seconds.max(1)),
        keys_per_hour: i64::from(config.idempotency_keys_per_hour),
    };
    let db = this.auth.db.clone();
    match claim(&db, &user.id, &key, &fingerprint, &rules).await {
        Ok(Claim::Execute { id }) => execute(db, id, Request::from_parts(parts, body), next).await,
        Ok(Claim::Replay(row)) => replay(&row),
        Err(refusal) => refusal.into_response(),
    }
}

/// The numbers a claim follows.
struct Rules {
    ttl_ms: i64,
    claim_ms: i64,
    wait: Duration,
    keys_per_hour: i64,
}

async fn find(db: &Db, user_id: &str, key: &str) -> Result<Option<KeyRow>, sqlx::Error> {
    on_db!(db, pool => sqlx::query_as::<_, KeyRow>(
        "select id, fingerprint, expires_at, locked_until, events_recorded, completed_at, status,
                content_type, location, body
           from idempotency_keys where user_id = $1 and key = $2")
        .bind(user_id).bind(key).fetch_optional(pool).await)
}

/// Refuses a new key past the user's hourly allowance.
async fn check_allowance(db: &Db, user_id: &str, rules: &Rules) -> Result<(), AppError> {
    let since = now_ms() - HOUR_MS;
    let recent: i64 = on_db!(db, pool => sqlx::query_scalar(
        "select count(*) from idempotency_keys where user_id = $1 and created_at > $2")
        .bind(user_id).bind(since).fetch_one(pool).await)?;
    if recent >= rules.keys_per_hour {
        count(outcome::REFUSED);
        return Err(AppError::RateLimited {
            message: TOO_MANY_KEYS.into(),
            retry_after_seconds: 60,
        });
    }
    Ok(())
}

/// Finds what to do with (user, key): execute, replay, or refuse.
async fn claim(
    db: &Db,
    user_id: &str,
    key: &str,
    fingerprint: &str,
    rules: &Rules,
) -> Result<Claim, AppError> {
    let deadline = tokio::time::Instant::now() + rules.wait;
    let mut pause = POLL_FIRST;
    loop {
        let now = now_ms();
        let row = find(db, user_id, key).await?;
        let id = uuid::Uuid::new_v4().to_string();
        match row {
            None => {
                check_allowance(db, user_id, rules).await?;
                let writer = db.write_guard().await;
                let inserted = on_db!(db, pool => sqlx::query(
                    "insert into idempotency_keys
                       (id, user_id, key, fingerprint, created_at, expires_at, locked_until)
                     values ($1, $2, $3, $4, $5, $6, $7)
                     on conflict (user_id, key) do nothing")
                    .bind(&id).bind(user_id).bind(key).bind(fingerprint).bind(now)
                    .bind(now + rules.ttl_ms).bind(now + rules.claim_ms)
                    .execute(pool).await.map(|r| r.rows_affected()))?;
                drop(writer);
                if inserted == 1 {
                    count(outcome::EXECUTED);
                    return Ok(Claim::Execute { id });
                }
                // Another request claimed it first: look again.
            }
            // An expired key matches nothing: the request is new.
            Some(row) if row.expires_at <= now => {
                check_allowance(db, user_id, rules).await?;
                if renew(db, &row.id, &id, fingerprint, now, rules).await? {
                    count(outcome::EXECUTED);
                    return Ok(Claim::Execute { id });
                }
            }
            // An empty fingerprint was kept before fingerprints were keyed: the key alone tells.
            Some(row) if !row.fingerprint.is_empty() && row.fingerprint != fingerprint => {
                count(outcome::MISMATCH);
                return Err(AppError::Unprocessable(KEY_REUSED.into()));
            }
            Some(row) if row.completed_at.is_some() => {
                count(if row.status.is_some() {
                    outcome::REPLAYED
                } else {
                    outcome::RECONSTRUCTED
                });
                return Ok(Claim::Replay(Box::new(row)));
            }
            // Still running past its claim: its node crashed, or lost it.
            Some(row) if row.locked_until <= now => {
                if row.events_recorded {
                    settle(db, &row.id).await?;
                    count(outcome::RECONSTRUCTED);
                    return Ok(Claim::Replay(Box::new(row)));
                }
                // Nothing recorded: run it again under a new id; the trigger refuses any
                // event of the old execution from now on.
                let writer = db.write_guard().await;
                let taken = on_db!(db, pool => sqlx::query(
                    "update idempotency_keys set id = $1, locked_until = $2
                      where id = $3 and completed_at is null and events_recorded = false
                        and locked_until <= $4")
                    .bind(&id).bind(now + rules.claim_ms).bind(&row.id).bind(now)
                    .execute(pool).await.map(|r| r.rows_affected()))?;
                drop(writer);
                if taken == 1 {
                    tracing::info!(
                        key_id = row.id,
                        "an abandoned Idempotency-Key claim was taken over"
                    );
                    count(outcome::RECOVERED);
                    return Ok(Claim::Execute { id });
                }
            }
            // The first request is still running: wait for its answer.
            Some(_) => {
                let left = deadline.saturating_duration_since(tokio::time::Instant::now());
                if left.is_zero() {
                    count(outcome::IN_PROGRESS);
                    return Err(AppError::Conflict(IN_PROGRESS.into()));
                }
                tokio::time::sleep(pause.min(left)).await;
                pause = (pause * 2).min(POLL_MAX);
                continue;
            }
        }
        if tokio::time::Instant::now() >= deadline {
            count(outcome::IN_PROGRESS);
            return Err(AppError::Conflict(IN_PROGRESS.into()));
        }
    }
}

/// Starts an expired row afresh as execution `id`.
async fn renew(
    db: &Db,
    old: &str,
    id: &str,
    fingerprint: &str,
    now: i64,
    rules: &Rules,
) -> Result<bool, sqlx::Error> {
    let _writer = db.write_guard().await;
    let renewed = on_db!(db, pool => sqlx::query(
        "update idempotency_keys set id = $1, fingerprint = $2, created_at = $3, expires_at = $4,
                locked_until = $5, events_recorded = false, completed_at = null, status = null,
                content_type = null, location = null, body = null
          where id = $6 and expires_at <= $3")
        .bind(id).bind(fingerprint).bind(now).bind(now + rules.ttl_ms)
        .bind(now + rules.claim_ms).bind(old)
        .execute(pool).await.map(|r| r.rows_affected()))?;
    Ok(renewed == 1)
}

/// Marks execution `id` finished without a kept answer.
async fn settle(db: &Db, id: &str) -> Result<(), sqlx::Error> {
    let _writer = db.write_guard().await;
    on_db!(db, pool => sqlx::query(
        "update idempotency_keys set completed_at = $2 where id = $1 and completed_at is null")
        .bind(id).bind(now_ms()).execute(pool).await.map(|_| ()))
}

/// Gives the key back after an answer that is not kept: deleted when the command recorded
/// nothing (a retry runs it afresh), else settled (a retry answers that it was done).
async fn release(db: &Db, id: &str) -> Result<(), sqlx::Error> {
    let deleted = {
        let _writer = db.write_guard().await;
        on_db!(db, pool => sqlx::query(
            "delete from idempotency_keys where id = $1 and events_recorded = false")
            .bind(id).execute(pool).await.map(|r| r.rows_affected()))?
    };
    if deleted == 0 {
        settle(db, id).await?;
    }
    Ok(())
}

/// Whether an answer is kept for repeats. Refusals that may pass on a retry are not: no
/// session (401), not allowed yet (403: the terms), timeouts (408), a concurrent change (409),
/// rate limits (429) and server errors; other client errors are, as the draft on the
/// `Idempotency-Key` header field asks.
fn kept(status: StatusCode) -> bool {
    !(status.is_server_error()
        || matches!(
            status,
            StatusCode::UNAUTHORIZED
                | StatusCode::FORBIDDEN
                | StatusCode::REQUEST_TIMEOUT
                | StatusCode::CONFLICT
                | StatusCode::TOO_MANY_REQUESTS
        ))
}

/// Runs the command as execution `id` and keeps its answer. The work runs in a task of its
/// own: a client that hangs up does not stop it, so the answer its retry gets is the real one.
async fn execute(db: Db, id: String, request: Request, next: Next) -> Response {
    let work = {
        let db = db.clone();
        let id = id.clone();
        async move {
            let response =
                crate::request_context::with_execution(Some(id.clone()), next.run(request)).await;
            keep(&db, &id, response).await
        }
    };
    let task =
        tokio::spawn(crate::request_context::carry(work).instrument(tracing::Span::current()));
    match task.await {
        Ok(response) => response,
        Err(failure) => {
            if let Err(e) = release(&db, &id).await {
                tracing::warn!(error = %e, "could not release an Idempotency-Key");
            }
            match failure.try_into_panic() {
                Ok(panic) => crate::edge::panic::response_for_panic(panic),
                Err(e) => {
                    AppError::Internal(anyhow::anyhow!("command task failed: {e}")).into_response()
                }
            }
        }
    }
}

/// Stores `response` as execution `id`'s answer, or releases the key; passes the response on.
async fn keep(db: &Db, id: &str, response: Response) -> Response {
    let status = response.status();
    if !kept(status) {
        if let Err(e) = release(db, id).await {
            tracing::warn!(error = %e, "could not release an Idempotency-Key");
        }
        return response;
    }
    let (parts, body) = response.into_parts();
    let (stored, body) = capture(body, MAX_STORED_BODY).await;
    let text = |name: &HeaderName| {
        parts
            .headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let writer = db.write_guard().await;
    let written = on_db!(db, pool => sqlx::query(
        "update idempotency_keys
            set status = $2, content_type = $3, location = $4, body = $5, completed_at = $6
          where id = $1")
        .bind(id).bind(i64::from(status.as_u16())).bind(text(&header::CONTENT_TYPE))
        .bind(text(&header::LOCATION)).bind(stored.as_deref()).bind(now_ms())
        .execute(pool).await.map(|r| r.rows_affected()));
    drop(writer);
    match written {
        Ok(1) => {}
        Ok(_) => tracing::warn!("an Idempotency-Key was taken over before its answer was kept"),
        Err(e) => tracing::warn!(error = %e, "could not keep the answer of an Idempotency-Key"),
    }
    Response::from_parts(parts, body)
}

/// Reads `body` up to `limit` bytes: the bytes when it fits, and a body that gives the client
/// everything either way.
async fn capture(body: Body, limit: usize) -> (Option<Bytes>, Body) {
    let mut stream = body.into_data_stream();
    let mut chunks: Vec<Bytes> = Vec::new();
    let mut size = 0usize;
    while let Some(next) = stream.next().await {
        match next {
            Ok(chunk) => {
                size = size.saturating_add(chunk.len());
                chunks.push(chunk);
                if size > limit {
                    let head = futures::stream::iter(chunks.into_iter().map(Ok));
                    return (None, Body::from_stream(head.chain(stream)));
                }
            }
            Err(e) => {
                let head = futures::stream::iter(chunks.into_iter().map(Ok));
                return (
                    None,
                    Body::from_stream(head.chain(futures::stream::once(async { Err(e) }))),
                );
            }
        }
    }
    let bytes = Bytes::from(chunks.concat());
    (Some(bytes.clone()), Body::from(bytes))
}

#[derive(serde::Serialize)]
struct AlreadyDone {
    result: bool,
    message: &'static str,
}

/// The first request's answer, as kept.
fn replay(row: &KeyRow) -> Response {
    let status = row
        .status
        .and_then(|s| u16::try_from(s).ok())
        .and_then(|s| StatusCode::from_u16(s).ok());
    let mut response = match (status, &row.body) {
        (Some(status), Some(body)) => {
            let mut response = (status, Body::from(body.clone())).into_response();
            let headers = response.headers_mut();
            for (name, value) in [
                (header::CONTENT_TYPE, &row.content_type),
                (header::LOCATION, &row.location),
            ] {
                if let Some(value) = value.as_deref().and_then(|v| HeaderValue::from_str(v).ok()) {
                    headers.insert(name, value);
                }
            }
            headers.insert(REPLAYED.clone(), HeaderValue::from_static("true"));
            return response;
        }
        // The answer was too large to keep: its status, and that it was done.
        (Some(status), None) => (
            status,
            Json(AlreadyDone {
                result: status.is_success(),
                message: ALREADY_DONE,
            }),
        )
            .into_response(),
        // The command recorded its events, but its answer was lost (a crash, a server error
        // after the events): it succeeded.
        (None, _) => Json(AlreadyDone {
            result: true,
            message: ALREADY_DONE,
        })
        .into_response(),
    };
    response
        .headers_mut()
        .insert(REPLAYED.clone(), HeaderValue::from_static("reconstructed"));
    response
}

/// Deletes the keys past their time, a batch at a time; returns how many.
pub async fn purge_expired(db: &Db) -> Result<u64, sqlx::Error> {
    db.delete_in_batches(
        "idempotency_keys",
        "expires_at <= $1",
        &[Bound::Int(now_ms())],
        DELETE_BATCH_ROWS,
    )
    .await
    .map(|deleted| deleted.rows)
}

/// Deletes expired keys every [`PURGE_EVERY`] until `stop`; every node does (it is idempotent).
pub async fn purge_periodically(db: Db, stop: CancellationToken) {
    loop {
        match purge_expired(&db).await {
            Ok(0) => {}
            Ok(purged) => tracing::debug!(purged, "expired Idempotency-Keys deleted"),
            Err(e) => tracing::warn!(error = %e, "could not delete expired Idempotency-Keys"),
        }
        tokio::select! {
            _ = stop.cancelled() => return,
            _ = tokio::time::sleep(PURGE_EVERY) => {}
        }
    }
}

/// Adds the `Idempotency-Key` header parameter to every command of the OpenAPI document.
pub struct OpenApiHeader;

impl utoipa::Modify for OpenApiHeader {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::path::{ParameterBuilder, ParameterIn};
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        use utoipa::openapi::Required;
        let parameter = ParameterBuilder::new()
            .name("Idempotency-Key")
            .parameter_in(ParameterIn::Header)
            .required(Required::False)
            .description(Some(
                "Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) \
                 answers the first result without executing again (header `Idempotency-Replayed`). \
                 400 for a malformed key, 422 when the key was used for a different request, 409 \
                 while the first request is still being processed.",
            ))
            .schema(Some(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .min_length(Some(1))
                    .max_length(Some(MAX_KEY_LEN))
                    .pattern(Some("^[!-~]+$")),
            ))
            .build();
        for (path, item) in openapi.paths.paths.iter_mut() {
            for (method, operation) in [
                (Method::POST, &mut item.post),
                (Method::PUT, &mut item.put),
                (Method::PATCH, &mut item.patch),
                (Method::DELETE, &mut item.delete),
            ] {
                if let Some(operation) = operation.as_mut().filter(|_| applies_to(&method, path)) {
                    operation
                        .parameters
                        .get_or_insert_with(Vec::new)
                        .push(parameter.clone());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(values: &[&[u8]]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for v in values {
            map.append(&HEADER, HeaderValue::from_bytes(v).expect("header value"));
        }
        map
    }

    #[test]
    fn keys_are_one_to_255_visible_ascii_characters() {
        assert_eq!(key_of(&headers(&[])).ok(), Some(None));
        assert_eq!(
            key_of(&headers(&[b"8e03978e-40d5-43e8-bc93-6894a57f9324"])).ok(),
            Some(Some("8e03978e-40d5-43e8-bc93-6894a57f9324".into()))
        );
        assert!(key_of(&headers(&["k".repeat(255).as_bytes()])).is_ok());
        assert!(key_of(&headers(&["k".repeat(256).as_bytes()])).is_err());
        assert!(key_of(&headers(&[b""])).is_err());
        assert!(key_of(&headers(&[b"two words"])).is_err());
        assert!(key_of(&headers(&[b"tab\there"])).is_err());
        assert!(key_of(&headers(&[b"caf\xc3\xa9"])).is_err());
        assert!(key_of(&headers(&[b"a", b"b"])).is_err());
    }

    #[test]
    fn reads_sign_in_and_password_reset_are_left_alone() {
        for path in [
            "/api/users/login",
            "/users/welcome",
            "/api/users/logout",
            "/api/users/password-reset",
            "/api/users/password-reset/confirm",
            "/api/users/sso/exchange",
        ] {
            assert!(!applies_to(&Method::POST, path), "{path}");
        }
        assert!(!applies_to(&Method::GET, "/api/folders"));
        assert!(applies_to(&Method::POST, "/api/folders"));
        assert!(applies_to(&Method::POST, "/api/users/register-device"));
        assert!(applies_to(&Method::DELETE, "/api/anything"));
    }

    #[tokio::test]
    async fn answers_over_the_limit_are_passed_on_whole_but_not_kept() {
        let small = Bytes::from(vec![b'a'; MAX_STORED_BODY]);
        let (kept, body) = capture(Body::from(small.clone()), MAX_STORED_BODY).await;
        assert_eq!(kept.as_ref(), Some(&small));
        assert_eq!(axum::body::to_bytes(body, usize::MAX).await.unwrap(), small);

        let chunks: Vec<Result<Bytes, std::io::Error>> = (0..20)
            .map(|i| Ok(Bytes::from(vec![i as u8; 8 * 1024])))
            .collect();
        let (kept, body) = capture(
            Body::from_stream(futures::stream::iter(chunks)),
            MAX_STORED_BODY,
        )
        .await;
        assert_eq!(kept, None);
        let whole = axum::body::to_bytes(body, usize::MAX).await.unwrap();
        assert_eq!(whole.len(), 20 * 8 * 1024);
        assert_eq!(whole[19 * 8 * 1024], 19);
    }

    #[test]
    fn transient_refusals_are_not_kept() {
        for status in [401, 403, 408, 409, 429, 500, 502, 503] {
            assert!(!kept(StatusCode::from_u16(status).unwrap()), "{status}");
        }
        for status in [200, 201, 204, 400, 404, 413, 415, 422] {
            assert!(kept(StatusCode::from_u16(status).unwrap()), "{status}");
        }
    }
}
