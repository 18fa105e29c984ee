//! The realtime channel: `GET /api/ws`, one WebSocket per open app, pushing each user's feed
//! (badges, shared-with-me arrivals, changes in shared folders, notifications, app updates).
//!
//! The projections write `user_feed` in the same transaction as their read models; this module
//! only reads it. Layout:
//! - [`protocol`] - the JSON messages and close codes (also in `docs/realtime.md`).
//! - [`socket`] - one socket: auth, replay, live messages, heartbeats.
//! - [`hub`] - the sockets of this node and the loop that hands them new feed rows.
//! - [`outlet`] - a socket's sink, written by the hub while the socket waits.
//! - [`cluster`] - PostgreSQL: the projector lock, `LISTEN/NOTIFY` between nodes.
//! - [`projector_thread`] - the thread the projector runs on, away from the requests.
//! - [`retention`] - deleting old feed entries.

pub mod cluster;
pub mod hub;
pub mod outlet;
pub mod projector_thread;
pub mod protocol;
pub mod retention;
pub mod socket;

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::{FromRef, State, WebSocketUpgrade};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use projections::{on_db, Db, Projector};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::Auth;
use crate::config::Config;
use crate::error::AppError;
use hub::{Hub, HubStats};

/// Largest message a client may send (its messages are a token and two numbers).
const MAX_CLIENT_MESSAGE: usize = 16 * 1024;
/// What a socket reads at a time: a client sends a pong every 25 s and a token now and then
/// (a few hundred bytes), so a small buffer that grows for the rare larger message keeps every
/// open socket's memory down.
const READ_BUFFER: usize = 1024;

pub fn router<S>() -> OpenApiRouter<S>
where
    S: Clone + Send + Sync + 'static,
    Realtime: FromRef<S>,
    Auth: FromRef<S>,
{
    // Any method, as before: the upgrade itself answers 400 to what is not a WebSocket handshake.
    let (schemas, paths, _) = routes!(upgrade);
    OpenApiRouter::new().routes((schemas, paths, any(upgrade)))
}

/// Timings and limits of the channel (from [`Config`]).
#[derive(Debug, Clone)]
pub struct Settings {
    pub queue: usize,
    pub ping_interval: Duration,
    pub idle_timeout: Duration,
    pub auth_timeout: Duration,
    pub poll: Duration,
    pub retention: Duration,
    pub grace: Duration,
    pub lock_retry: Duration,
    /// This node's id in the projector lease and the node registry.
    pub node_id: String,
}

impl Settings {
    pub fn from_config(config: &Config) -> Self {
        Self {
            queue: config.realtime_queue.max(1),
            ping_interval: Duration::from_secs(config.realtime_ping_seconds.max(1)),
            idle_timeout: Duration::from_secs(config.realtime_idle_seconds.max(1)),
            auth_timeout: Duration::from_secs(config.realtime_auth_seconds.max(1)),
            poll: Duration::from_millis(config.feed_poll_ms.max(10)),
            retention: Duration::from_secs(config.feed_retention_seconds.max(1) as u64),
            grace: Duration::from_secs(config.shutdown_grace_seconds),
            lock_retry: Duration::from_secs(1),
            node_id: crate::nodes::node_id(&config.data_dir),
        }
    }
}

/// The channel of one node: its hub, settings, and the tasks that run it.
#[derive(Clone)]
pub struct Realtime {
    inner: Arc<Inner>,
}

struct Inner {
    hub: Arc<Hub>,
    /// Which sessions have a socket here (they are not sent Web Push).
    presence: Arc<crate::push::Presence>,
    settings: Settings,
    epoch: String,
    /// Closes the sockets (cancelled as soon as the server starts shutting down).
    shutdown: CancellationToken,
    /// Stops the hub, projector, listener and retention (after HTTP requests have drained, so
    /// commands in flight still see their projections run).
    background: CancellationToken,
    tracker: TaskTracker,
}

impl Realtime {
    /// Reads the feed's epoch; starts nothing yet (see [`Realtime::start`]).
    pub async fn new(db: &Db, config: &Config) -> Result<Self, sqlx::Error> {
        let epoch: String = on_db!(db, pool => sqlx::query_scalar(
            "select epoch from realtime_epoch where id = 1").fetch_one(pool).await)?;
        let settings = Settings::from_config(config);
        Ok(Self {
            inner: Arc::new(Inner {
                hub: Hub::new(settings.queue),
                presence: crate::push::Presence::new(),
                settings,
                epoch,
                shutdown: CancellationToken::new(),
                background: CancellationToken::new(),
                tracker: TaskTracker::new(),
            }),
        })
    }

    pub fn settings(&self) -> &Settings {
        &self.inner.settings
    }

    pub fn epoch(&self) -> &str {
        &self.inner.epoch
    }

    pub fn hub(&self) -> &Arc<Hub> {
        &self.inner.hub
    }

    pub fn presence(&self) -> &Arc<crate::push::Presence> {
        &self.inner.presence
    }

    pub fn stats(&self) -> HubStats {
        self.inner.hub.stats()
    }

    /// Makes the hub look for new feed rows now (after writing rows outside the projector).
    pub fn poke(&self) {
        self.inner.hub.poke();
    }

    /// A handle that pokes the hub, for the features that write feed rows themselves.
    pub fn poker(&self) -> crate::feed::Poke {
        self.inner.hub.poker()
    }

    pub fn shutdown_token(&self) -> CancellationToken {
        self.inner.shutdown.clone()
    }

    pub fn tracker(&self) -> &TaskTracker {
        &self.inner.tracker
    }

    /// Starts the hub, the projector (on PostgreSQL only while this node holds the projector
    /// lock), the `LISTEN` loop and retention. They run until [`Realtime::stop`].
    pub fn start(&self, db: Db, projector: Projector) {
        let settings = &self.inner.settings;
        let shutdown = self.inner.background.clone();
        let tracker = &self.inner.tracker;
        let handle = projector.handle();
        tracker.spawn(self.inner.hub.clone().run(
            db.clone(),
            handle.subscribe_feed_batches(),
            settings.poll,
            shutdown.clone(),
        ));
        tracker.spawn(retention::run(
            db.clone(),
            settings.retention,
            shutdown.clone(),
        ));
        match &db {
            Db::Sqlite { .. } => {
                let stop = shutdown.clone();
                tracker.spawn(projector_thread::run(async move {
                    projector.run_until_shutdown(stop.cancelled()).await
                }));
            }
            Db::Postgres { pool } => {
                tracker.spawn(projector_thread::run(cluster::run_projector(
                    projector,
                    pool.clone(),
                    settings.node_id.clone(),
                    settings.lock_retry,
                    shutdown.clone(),
                )));
                tracker.spawn(cluster::announce_feed(
                    db.clone(),
                    handle.subscribe_feed_batches(),
                    handle.clone(),
                    shutdown.clone(),
                ));
                tracker.spawn(cluster::listen(
                    pool.clone(),
                    self.inner.hub.clone(),
                    handle,
                    shutdown,
                ));
            }
        }
    }

    /// Closes every socket with 1001 and waits (up to `SHUTDOWN_GRACE_SECONDS`) for sockets and
    /// background tasks to finish.
    pub async fn stop(&self) {
        self.inner.shutdown.cancel();
        self.inner.background.cancel();
        self.inner.tracker.close();
        if tokio::time::timeout(self.inner.settings.grace, self.inner.tracker.wait())
            .await
            .is_err()
        {
            tracing::warn!(
                left = self.inner.tracker.len(),
                "realtime tasks still running at the end of the shutdown grace period"
            );
        }
    }
}

/// The realtime channel (WebSocket).
///
/// Upgrade to a WebSocket, then send `{"type":"auth","token":"<session token>","last_seq":n,"epoch":"e"}`
/// within 10 s (`last_seq` and `epoch` from the last `ready`/`message`; omit both on a first
/// connection). The server answers with the entries missed since `last_seq` (or `{"type":"reload"}`
/// when they are no longer kept), then `{"type":"ready","seq":n,"epoch":"e"}`, then live
/// `{"type":"message","seq":n,"kind":"...","payload":{...},"at":ms}` frames and a
/// `{"type":"ping"}` every 25 s (answer `{"type":"pong"}`; a socket silent for 60 s is closed).
/// Send the auth message again with a new token whenever the app's token is replaced.
///
/// Close codes: 4401 session expired, invalid or ended (signed out, revoked or unused for
/// `SESSION_IDLE_SECONDS`, on every node; also when the token expires while connected;
/// the app signs out), 4403 the current terms are not accepted yet (nothing is sent before they
/// are), 4400 first message was not `auth`, 4408 timed out, 1013 `slow` (the
/// client fell behind; reconnect and resume), 1001 server shutting down, 1011 server error.
/// Message kinds: `badge` `{name: notifications|updates|shared, count}`, `shared_arrival`
/// `{item}`, `shared_change` `{folder_id, change: added|renamed|moved|removed, item_id, item}`,
/// `notification` `{notification}`, `app_update` `{update}`, `session_revoked` `{session}` (the
/// server itself closes that session's sockets with 4401). See `docs/realtime.md`.
#[utoipa::path(get, path = "/ws", tag = "realtime",
    responses(
        (status = 101, description = "Switching to the WebSocket protocol; frames are `ClientMessage` and `ServerMessage`"),
        (status = 400, body = crate::error::ErrorBody, description = "Not a WebSocket upgrade request")))]
pub async fn upgrade(
    State(realtime): State<Realtime>,
    State(auth): State<Auth>,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let ws = match ws {
        Ok(ws) => ws,
        Err(rejection) => {
            return AppError::bad_request(format!(
                "Expected a WebSocket upgrade: {}",
                rejection.body_text()
            ))
            .into_response()
        }
    };
    ws.read_buffer_size(READ_BUFFER)
        .max_message_size(MAX_CLIENT_MESSAGE)
        .max_frame_size(MAX_CLIENT_MESSAGE)
        .on_upgrade(move |socket| socket::serve(realtime, auth, socket))
}
