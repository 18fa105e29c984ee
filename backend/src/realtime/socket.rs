//! One WebSocket: authentication by first message, replay of what the client missed, then live
//! messages, heartbeats and the close reasons of `protocol::Close`.
//!
//! A reader task takes what the client sends (pongs, fresh tokens, close) and keeps the token's
//! expiry; the writer (this task) writes through the socket's [`Outlet`], which the hub writes
//! live entries to itself while the writer waits. Either task ends both through the socket's
//! [`Stopper`], which also carries the reason the socket is closed with.

use std::time::Duration;

use axum::extract::ws::{Message, WebSocket};
use futures::stream::SplitStream;
use futures::{FutureExt, StreamExt};
use projections::{feed, now_ms, on_db, Db};
use tokio::time::Instant;

use super::hub::{Live, Registration, Stopper};
use super::outlet::{Cursors, Outlet};
use super::protocol::{broadcast_message, feed_message, ClientMessage, Close, ServerMessage};
use super::Realtime;
use crate::auth::{Auth, JwtKeys, TokenError};

/// More missed entries than this are not replayed: the client reloads its lists instead.
pub const MAX_REPLAY: i64 = 1000;
/// Rows read per query while replaying.
const REPLAY_PAGE: i64 = 500;
/// How long the closing handshake may take.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(2);

/// Why the writer stopped.
enum End {
    /// Stopped on purpose (see the stopper's reason) or the client went away.
    Stopped,
    /// Reading the feed failed.
    Database(sqlx::Error),
}

impl From<sqlx::Error> for End {
    fn from(e: sqlx::Error) -> Self {
        End::Database(e)
    }
}

/// A socket whose first message authenticated a session that may open it.
struct Admitted {
    socket: WebSocket,
    user_id: String,
    session_id: String,
    /// When its token expires (seconds since the epoch).
    exp: i64,
    idle_ms: i64,
    last_used: i64,
    resume: Resume,
}

/// Serves one upgraded socket until it closes.
///
/// The admission (first message, token, session checks) runs boxed, and so do the live loop's
/// rare database reads: a socket's task then keeps only the space of its live loop for its whole
/// life, not that of the largest query it once made (its state went from 5.1 to 2.3 KiB).
pub async fn serve(rt: Realtime, auth: Auth, socket: WebSocket) {
    let _tracked = rt.tracker().token();
    let shutdown = rt.shutdown_token();
    let Some(Admitted {
        socket,
        user_id,
        session_id,
        exp,
        idle_ms,
        last_used,
        resume,
    }) = Box::pin(admit(&rt, &auth, socket)).await
    else {
        return;
    };
    let Auth { db, jwt, .. } = auth;

    // 2. Register before reading the replay, so nothing committed in between is missed (the
    // hub may make a socket wait until it has read where the feed ended when it started).
    let stopper = Stopper::child_of(&shutdown);
    let (sink, stream) = socket.split();
    let outlet = Outlet::new(sink);
    let mut registration = tokio::select! {
        _ = shutdown.cancelled() => return,
        registration = rt.hub().register(&user_id, stopper.clone(), outlet.clone()) => registration,
    };
    // While the app is open on this device it gets the live dot, not a push.
    let _present = rt.presence().enter(&session_id);
    let reader = tokio::spawn(read_loop(
        stream,
        stopper.clone(),
        jwt,
        Holder {
            user_id: user_id.clone(),
            session_id: session_id.clone(),
            exp,
        },
        rt.settings().idle_timeout,
    ));

    let ended = write_loop(
        &rt,
        &db,
        Session {
            user_id: &user_id,
            session_id: &session_id,
            idle_ms,
            last_used,
        },
        &outlet,
        &mut registration,
        &stopper,
        resume,
    )
    .await;
    drop(registration);

    // 3. Close with the reason, unless the client is already gone.
    let reason = match ended {
        End::Database(e) => {
            tracing::error!(error = %e, user = %user_id, "realtime socket cannot read the feed");
            Some(Close::ServerError)
        }
        End::Stopped => stopper
            .reason()
            .or_else(|| shutdown.is_cancelled().then_some(Close::ShuttingDown)),
    };
    outlet.hold();
    if let Some(reason) = reason {
        let _ = tokio::time::timeout(
            CLOSE_TIMEOUT,
            outlet.write(Some(Message::Close(Some(reason.frame()))), true),
        )
        .await;
    }
    let _ = tokio::time::timeout(CLOSE_TIMEOUT, outlet.close()).await;
    reader.abort();
}

/// Reads the first message and checks its token and session; closes the socket with the
/// reason and returns `None` when it may not open.
async fn admit(rt: &Realtime, auth: &Auth, mut socket: WebSocket) -> Option<Admitted> {
    let shutdown = rt.shutdown_token();
    if shutdown.is_cancelled() {
        return refuse(socket, Close::ShuttingDown).await;
    }

    // 1. Authentication: the first message, within the deadline.
    let first = tokio::select! {
        _ = shutdown.cancelled() => return refuse(socket, Close::ShuttingDown).await,
        first = tokio::time::timeout(rt.settings().auth_timeout, first_text(&mut socket)) => first,
    };
    let text = match first {
        Err(_) => return refuse(socket, Close::Timeout).await,
        Ok(None) => return None,
        Ok(Some(text)) => text,
    };
    let Ok(ClientMessage::Auth {
        token,
        last_seq,
        last_broadcast_seq,
        epoch,
    }) = serde_json::from_str::<ClientMessage>(&text)
    else {
        return refuse(socket, Close::BadRequest).await;
    };
    let claims = match auth.jwt.verify(&token) {
        Ok(claims) => claims,
        Err(TokenError::Expired) => return refuse(socket, Close::Expired).await,
        Err(TokenError::Invalid) => return refuse(socket, Close::InvalidToken).await,
    };
    // A signed-out, revoked or idle session, or a disabled account, gets no socket; an account
    // that has not accepted the current terms gets nothing either (as the API's 403).
    let idle_ms = crate::auth::session_idle_ms(&auth.config);
    let last_used = match open_checks(
        &auth.db,
        &claims.sid,
        &claims.sub,
        idle_ms,
        &auth.config.terms_version,
    )
    .await
    {
        Ok(Ok(last_used)) => last_used,
        Ok(Err(reason)) => return refuse(socket, reason).await,
        Err(e) => {
            tracing::error!(error = %e, "realtime socket cannot read its session");
            return refuse(socket, Close::ServerError).await;
        }
    };
    Some(Admitted {
        socket,
        user_id: claims.sub,
        session_id: claims.sid,
        exp: claims.exp,
        idle_ms,
        last_used,
        resume: Resume {
            last_seq,
            last_broadcast_seq,
            epoch: epoch.filter(|e| !e.is_empty()),
        },
    })
}

/// Closes a socket that may not open with the reason.
async fn refuse(socket: WebSocket, reason: Close) -> Option<Admitted> {
    close_unsplit(socket, reason).await;
    None
}

/// Whether an authenticated socket may open: the last use of its session (opening it counts as
/// one), or why not.
async fn open_checks(
    db: &Db,
    session_id: &str,
    user_id: &str,
    idle_ms: i64,
    terms_version: &str,
) -> Result<Result<i64, Close>, sqlx::Error> {
    let Some(session) =
        crate::auth::load_active_session(db, session_id, user_id, idle_ms, Some(terms_version))
            .await?
    else {
        return Ok(Err(Close::Revoked));
    };
    if !session.terms_accepted {
        return Ok(Err(Close::TermsNotAccepted));
    }
    Ok(Ok(crate::auth::record_session_use(
        db,
        &session,
        idle_ms,
        now_ms(),
    )
    .await?))
}

/// The session a socket serves.
struct Session<'a> {
    user_id: &'a str,
    session_id: &'a str,
    idle_ms: i64,
    /// Its last recorded use, ms since the epoch.
    last_used: i64,
}

/// The first text message; `None` when the client leaves first.
async fn first_text(socket: &mut WebSocket) -> Option<String> {
    loop {
        match socket.recv().await? {
            Ok(Message::Text(text)) => return Some(text.to_string()),
            Ok(Message::Binary(_)) => return Some(String::new()),
            Ok(Message::Ping(_) | Message::Pong(_)) => continue,
            Ok(Message::Close(_)) | Err(_) => return None,
        }
    }
}

async fn close_unsplit(mut socket: WebSocket, reason: Close) {
    let _ = tokio::time::timeout(
        CLOSE_TIMEOUT,
        socket.send(Message::Close(Some(reason.frame()))),
    )
    .await;
    // Wait briefly for the client's answer so the close frame is not lost to a reset.
    let _ = tokio::time::timeout(CLOSE_TIMEOUT, async {
        while let Some(Ok(msg)) = socket.recv().await {
            if matches!(msg, Message::Close(_)) {
                break;
            }
        }
    })
    .await;
}

/// Where the client says it is.
struct Resume {
    last_seq: Option<i64>,
    last_broadcast_seq: Option<i64>,
    epoch: Option<String>,
}

#[allow(clippy::too_many_arguments)]
async fn write_loop(
    rt: &Realtime,
    db: &Db,
    session: Session<'_>,
    sink: &Outlet,
    registration: &mut Registration,
    stopper: &Stopper,
    resume: Resume,
) -> End {
    let Session {
        user_id,
        session_id,
        idle_ms,
        last_used,
    } = session;
    let settings = rt.settings();
    let mut sent = match Box::pin(replay(db, user_id, &resume, rt.epoch(), sink, stopper)).await {
        Ok(sent) => sent,
        Err(end) => return end,
    };
    let ready = ServerMessage::Ready {
        seq: sent.user,
        broadcast_seq: sent.broadcast,
        epoch: rt.epoch().to_string(),
    };
    if let Err(end) = send(sink, Message::Text(ready.to_text()), stopper).await {
        return end;
    }

    let ping_text = ServerMessage::Ping.to_text();
    let mut ping = tokio::time::interval_at(
        Instant::now() + settings.ping_interval,
        settings.ping_interval,
    );
    ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // The session is read again when it would fall idle: used meanwhile (a request, another
    // socket), the check moves on; unused, it ends and the socket closes with 4401.
    let idle_check = tokio::time::sleep_until(idle_deadline(last_used, idle_ms));
    tokio::pin!(idle_check);
    // One wait for the stop, kept across the loop.
    let stopped = stopper.stopped();
    tokio::pin!(stopped);

    // While the task waits, the hub writes each next entry itself (see `outlet`); the task is
    // woken for what it queued, to finish a write it began, and for the heartbeat.
    sink.release(sent, &registration.rx);
    loop {
        let woken = tokio::select! {
            biased;
            _ = &mut stopped => return End::Stopped,
            _ = &mut idle_check => {
                match Box::pin(crate::auth::load_active_session(db, session_id, user_id, idle_ms, None)).await {
                    Ok(Some(active)) => idle_check
                        .as_mut()
                        .reset(idle_deadline(active.last_seen_at, idle_ms)),
                    Ok(None) => {
                        stopper.stop(Close::Revoked);
                        return End::Stopped;
                    }
                    Err(e) => return End::Database(e),
                }
                continue;
            }
            live = registration.rx.recv() => match live {
                Some(live) => Woken::Live(live),
                None => return End::Stopped,
            },
            _ = sink.woken() => Woken::Outlet,
            _ = ping.tick() => Woken::Ping,
        };
        sent = sink.hold();
        let mut next = match woken {
            Woken::Live(live) => Some(live),
            Woken::Outlet => None,
            Woken::Ping => {
                if let Err(end) = send(sink, Message::Text(ping_text.clone()), stopper).await {
                    return end;
                }
                None
            }
        };
        // Finish what the hub began, then everything queued, in order.
        if let Err(end) = flush(sink, stopper).await {
            return end;
        }
        loop {
            if let Some(live) = next.take() {
                match Box::pin(send_live(
                    db, user_id, session_id, live, sent, sink, stopper,
                ))
                .await
                {
                    Ok(now) => sent = now,
                    Err(end) => return end,
                }
            }
            match registration.rx.try_recv() {
                Ok(live) => next = Some(live),
                Err(_) if sink.release(sent, &registration.rx) => break,
                Err(_) => {}
            }
        }
    }
}

/// What woke a socket's task that waited with its outlet open.
enum Woken {
    /// An entry the hub queued.
    Live(Live),
    /// A write the hub began and could not finish.
    Outlet,
    /// The heartbeat is due.
    Ping,
}

/// Sends one queued entry unless it was sent already, after what is missing before it; returns
/// the last numbers sent.
async fn send_live(
    db: &Db,
    user_id: &str,
    session_id: &str,
    live: Live,
    mut sent: Cursors,
    sink: &Outlet,
    stopper: &Stopper,
) -> Result<Cursors, End> {
    let last = *sent.of(live.broadcast);
    if live.seq <= last {
        return Ok(sent);
    }
    if live
        .revocation
        .as_deref()
        .is_some_and(|p| crate::auth::revocation_ends(p, session_id))
    {
        stopper.stop(Close::Revoked);
        return Err(End::Stopped);
    }
    if live.seq > last + 1 {
        // Something between was not handed to us (this socket registered while the hub was
        // mid-scan): read it from the table, both streams up to this entry, so the order has
        // no hole.
        sent = send_rows(db, user_id, sent, Some(live.position), sink, stopper).await?;
    }
    send(sink, Message::Text(live.text), stopper).await?;
    *sent.of(live.broadcast) = live.seq;
    Ok(sent)
}

/// Just after a session last used at `last_seen_at` (ms) falls idle.
fn idle_deadline(last_seen_at: i64, idle_ms: i64) -> Instant {
    let remaining_ms = (last_seen_at + idle_ms + 50)
        .saturating_sub(now_ms())
        .max(50);
    Instant::now() + Duration::from_millis(remaining_ms as u64)
}

/// When a token with expiry `exp` (seconds since the epoch) stops being valid.
fn deadline_of(exp: i64) -> Instant {
    let remaining_ms = exp.saturating_mul(1000).saturating_sub(now_ms()).max(0);
    Instant::now() + Duration::from_millis(remaining_ms as u64)
}

/// Sends `message` unless the socket is stopped meanwhile (the outlet held).
async fn send(sink: &Outlet, message: Message, stopper: &Stopper) -> Result<(), End> {
    unless_stopped(sink.write(Some(message), true), stopper).await
}

/// Like [`send`], without flushing (replay pages are flushed once).
async fn feed_frame(sink: &Outlet, message: Message, stopper: &Stopper) -> Result<(), End> {
    unless_stopped(sink.write(Some(message), false), stopper).await
}

async fn flush(sink: &Outlet, stopper: &Stopper) -> Result<(), End> {
    unless_stopped(sink.write(None, true), stopper).await
}

/// Runs a write on the sink unless the socket is stopped meanwhile (a write blocked by a client
/// that does not read must not hold the socket open); a failed write stops the socket.
async fn unless_stopped<E>(
    write: impl std::future::Future<Output = Result<(), E>>,
    stopper: &Stopper,
) -> Result<(), End> {
    let failed = |_| {
        stopper.stop_silently();
        End::Stopped
    };
    let mut write = std::pin::pin!(write);
    // Most writes finish at once (the socket's buffer has room); only one that has to wait
    // watches the stopper.
    if let Some(written) = (&mut write).now_or_never() {
        return written.map_err(failed);
    }
    tokio::select! {
        written = write => written.map_err(failed),
        _ = stopper.stopped() => Err(End::Stopped),
    }
}

#[derive(sqlx::FromRow)]
struct FeedRow {
    user_id: String,
    seq: i64,
    kind: String,
    payload: String,
    created_at: i64,
}

/// Sends the user's rows and the broadcasts after `after` (each stream from its own number) and
/// before feed position `before` (all when `None`), in the order they were written; returns the
/// last numbers sent (`after`'s where none).
async fn send_rows(
    db: &Db,
    user_id: &str,
    after: Cursors,
    before: Option<i64>,
    sink: &Outlet,
    stopper: &Stopper,
) -> Result<Cursors, End> {
    let mut sent = after;
    let before = before.unwrap_or(i64::MAX);
    loop {
        let rows: Vec<FeedRow> = on_db!(db, pool => sqlx::query_as(
            "select user_id, seq, kind, payload, created_at from user_feed
             where ((user_id = $1 and seq > $2) or (user_id = $3 and seq > $4)) and feed_position < $5
             order by feed_position limit $6")
            .bind(user_id).bind(sent.user).bind(feed::BROADCAST).bind(sent.broadcast)
            .bind(before).bind(REPLAY_PAGE).fetch_all(pool).await)?;
        for row in &rows {
            let broadcast = row.user_id == feed::BROADCAST;
            let text = if broadcast {
                broadcast_message(row.seq, &row.kind, &row.payload, row.created_at)
            } else {
                feed_message(row.seq, &row.kind, &row.payload, row.created_at)
            };
            feed_frame(sink, Message::Text(text), stopper).await?;
            *sent.of(broadcast) = row.seq;
        }
        if !rows.is_empty() {
            flush(sink, stopper).await?;
        }
        if (rows.len() as i64) < REPLAY_PAGE {
            return Ok(sent);
        }
    }
}

/// What a client resuming from `last_seq` gets: `None` = nothing, `Some(true)` = reload,
/// `Some(false)` = the rows after it.
fn resume_plan(
    last_seq: Option<i64>,
    same_epoch: bool,
    oldest: Option<i64>,
    newest: i64,
) -> Option<bool> {
    let last = last_seq?;
    let reload = !same_epoch
        // From a feed that no longer exists (database reset) or a made-up number.
        || last > newest
        || last < 0
        // Entries after it were deleted by retention (the newest entry is always kept).
        || oldest.is_some_and(|oldest| last < oldest - 1)
        || oldest.is_none() && last > 0
        || newest - last > MAX_REPLAY;
    Some(reload)
}

/// Replays what the client missed in both streams (or tells it to reload); returns the last
/// numbers it has.
async fn replay(
    db: &Db,
    user_id: &str,
    resume: &Resume,
    epoch: &str,
    sink: &Outlet,
    stopper: &Stopper,
) -> Result<Cursors, End> {
    #[derive(sqlx::FromRow)]
    struct Bounds {
        user_id: String,
        oldest: Option<i64>,
        newest: Option<i64>,
    }
    let bounds: Vec<Bounds> = on_db!(db, pool => sqlx::query_as(
        "select user_id, cast(min(seq) as bigint) as oldest, cast(max(seq) as bigint) as newest
         from user_feed where user_id in ($1, $2) group by user_id")
        .bind(user_id).bind(feed::BROADCAST).fetch_all(pool).await)?;
    let of = |id: &str| {
        bounds
            .iter()
            .find(|b| b.user_id == id)
            .map(|b| (b.oldest, b.newest.unwrap_or(0)))
            .unwrap_or((None, 0))
    };
    let (user_oldest, user_newest) = of(user_id);
    let (broadcast_oldest, broadcast_newest) = of(feed::BROADCAST);
    let same_epoch = resume.epoch.as_deref().is_none_or(|e| e == epoch);
    let user_plan = resume_plan(resume.last_seq, same_epoch, user_oldest, user_newest);
    let broadcast_plan = resume_plan(
        resume.last_broadcast_seq,
        same_epoch,
        broadcast_oldest,
        broadcast_newest,
    );
    let newest = Cursors {
        user: user_newest,
        broadcast: broadcast_newest,
    };
    if user_plan == Some(true) || broadcast_plan == Some(true) {
        send(
            sink,
            Message::Text(ServerMessage::Reload.to_text()),
            stopper,
        )
        .await?;
        return Ok(newest);
    }
    // A stream the client has no number for starts at its end (a first connection, or an app
    // from before broadcasts).
    // (`resume_plan` is `None` exactly when the number is absent.)
    let from = Cursors {
        user: resume.last_seq.unwrap_or(user_newest),
        broadcast: resume.last_broadcast_seq.unwrap_or(broadcast_newest),
    };
    if user_plan.is_none() && broadcast_plan.is_none() {
        return Ok(from);
    }
    send_rows(db, user_id, from, None, sink, stopper).await
}

/// Whose socket it is, and until when its token is valid.
struct Holder {
    user_id: String,
    session_id: String,
    /// When the token expires (seconds since the epoch); a renewal moves it.
    exp: i64,
}

/// Takes what the client sends: pongs, fresh tokens, close. Silence ends the socket, and so
/// does the token's expiry unless a fresh token came first (kept here, beside the renewals,
/// so the writer's loop waits on nothing but what it sends).
async fn read_loop(
    mut stream: SplitStream<WebSocket>,
    stopper: Stopper,
    jwt: JwtKeys,
    holder: Holder,
    idle: Duration,
) {
    let Holder {
        user_id,
        session_id,
        exp,
    } = holder;
    let expires = tokio::time::sleep_until(deadline_of(exp));
    tokio::pin!(expires);
    loop {
        let next = tokio::select! {
            biased;
            _ = stopper.stopped() => return,
            _ = &mut expires => return stopper.stop(Close::Expired),
            next = tokio::time::timeout(idle, stream.next()) => next,
        };
        let message = match next {
            Err(_) => return stopper.stop(Close::Timeout),
            Ok(None) | Ok(Some(Err(_))) => return stopper.stop_silently(),
            Ok(Some(Ok(message))) => message,
        };
        match message {
            Message::Text(text) => match serde_json::from_str::<ClientMessage>(text.as_str()) {
                Ok(ClientMessage::Pong) => {}
                Ok(ClientMessage::Auth { token, .. }) => match jwt.verify(&token) {
                    // A fresh token of the same session (renewal); another session means
                    // the app signed in again and opens a new socket.
                    Ok(claims) if claims.sub == user_id && claims.sid == session_id => {
                        expires.as_mut().reset(deadline_of(claims.exp));
                    }
                    Ok(_) => return stopper.stop(Close::InvalidToken),
                    Err(TokenError::Expired) => return stopper.stop(Close::Expired),
                    Err(TokenError::Invalid) => return stopper.stop(Close::InvalidToken),
                },
                // Unknown messages are ignored, so newer clients can talk to older servers.
                Err(_) => {}
            },
            // The library answers the client's close; the writer stops without a reason.
            Message::Close(_) => return stopper.stop_silently(),
            Message::Binary(_) | Message::Ping(_) | Message::Pong(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::resume_plan;

    #[test]
    fn a_first_connection_replays_nothing() {
        assert_eq!(resume_plan(None, true, Some(1), 5), None);
    }

    #[test]
    fn a_client_within_the_kept_entries_gets_the_rest() {
        assert_eq!(resume_plan(Some(3), true, Some(1), 5), Some(false));
        assert_eq!(resume_plan(Some(5), true, Some(1), 5), Some(false));
        // Entries 4.. are kept: the client at 3 misses nothing.
        assert_eq!(resume_plan(Some(3), true, Some(4), 9), Some(false));
        assert_eq!(resume_plan(Some(0), true, Some(1), 2), Some(false));
        assert_eq!(resume_plan(Some(0), true, None, 0), Some(false));
    }

    #[test]
    fn a_client_behind_the_retention_or_from_another_feed_reloads() {
        assert_eq!(resume_plan(Some(2), true, Some(4), 9), Some(true));
        assert_eq!(resume_plan(Some(12), true, Some(1), 9), Some(true));
        assert_eq!(resume_plan(Some(3), false, Some(1), 9), Some(true));
        assert_eq!(resume_plan(Some(3), true, None, 0), Some(true));
        assert_eq!(resume_plan(Some(-1), true, Some(1), 9), Some(true));
        assert_eq!(
            resume_plan(Some(1), true, Some(1), 2 + super::MAX_REPLAY),
            Some(true)
        );
    }
}
