//! The companion app's server: an axum HTTP API, the web app and the realtime channel on one
//! origin, over SQLite (embedded default) or PostgreSQL.
//!
//! Layout:
//! - [`config`] - what `companion serve` reads from the environment.
//! - [`http`] - the router; each feature module exposes its own `router()`.
//! - [`edge`] - what every request passes through: headers, ids, limits, timeouts, logs.
//! - [`metrics`] - the Prometheus metrics and their names.
//! - [`health`] - liveness and readiness probes.
//! - [`idempotency`] - `Idempotency-Key` on command calls: a retry answers the first result.
//! - [`auth`] - sign-in, tokens, the `AuthUser` extractor, single sign-on.
//! - [`users`] - the accounts.
//! - [`error`] - the one error type and its mapping to HTTP.
//! - [`seed`] - the demo accounts, loaded only with `--demo`.
//! - [`content`] - importing reference content (catalogue, news, ...) from a content folder.
//! - [`catalogue`] - home, products, library documents, news, contacts, useful links, multimedia.
//! - [`guide`] - the guided tour of the main screens behind the info buttons.
//! - [`programmes`] - congresses, sales training, medical-education courses and registration.
//! - [`notifications`] - notifications, app updates, survey messages; publishing them.
//! - [`realtime`] - the WebSocket channel, its hub, and projector ownership across nodes.
//! - [`documents`] - documents and folders: event-sourced items, lists, files, history.
//! - [`outbox`] - outgoing e-mail: the outbox table and its SMTP relay.
//! - [`operations`] - the operator's commands: projections, outbox, backup and restore.
//! - [`search`] - search across everything: an in-memory tantivy index kept current.

pub mod auth;
pub mod catalogue;
pub mod config;
pub mod content;
pub mod documents;
pub mod edge;
pub mod error;
pub mod event_store;
pub mod guide;
pub mod health;
pub mod http;
pub mod idempotency;
pub mod ids;
pub mod metrics;
pub mod nodes;
pub mod notifications;
pub mod openapi;
pub mod operations;
pub mod outbox;
pub mod programmes;
pub mod read_models;
pub mod realtime;
pub mod replay;
pub mod search;
pub mod seed;
pub mod shared_badge_hook;
pub mod state;
pub mod updates_hook;
pub mod users;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use projections::{Db, Projection, Projector};
use tokio::net::TcpListener;

pub use config::Config;
pub use state::AppState;

/// Connects to the database, applies migrations, loads the demo when `--demo` is set, and returns the
/// state the server runs on with the projector that keeps its read models current.
pub async fn prepare(config: Config) -> anyhow::Result<(AppState, Projector)> {
    prepare_with(config, Vec::new()).await
}

/// Like [`prepare`], with projections of the caller's besides the server's own (tests use it to
/// write feed entries through a real projection).
pub async fn prepare_with(
    config: Config,
    extra_projections: Vec<Arc<dyn Projection>>,
) -> anyhow::Result<(AppState, Projector)> {
    std::fs::create_dir_all(&config.data_dir)
        .with_context(|| format!("creating data folder {}", config.data_dir.display()))?;
    let db = Db::connect(&config.database_url())
        .await
        .context("connecting to the database")?;
    let jwt = match &db {
        // Several nodes: the keys live in the database, unless a secret was given by hand.
        Db::Postgres { pool } if config.jwt_secret.as_deref().is_none_or(str::is_empty) => {
            let keys = auth::jwt::JwtKeys::from_database(pool, config.jwt_ttl_seconds).await?;
            keys.keep_fresh(pool.clone());
            keys
        }
        _ => {
            let secret = auth::jwt::JwtKeys::load_or_generate_secret(
                config.jwt_secret.as_deref(),
                &config.data_dir,
            )?;
            auth::jwt::JwtKeys::new(&secret, config.jwt_ttl_seconds)
        }
    };
    if config.demo {
        seed::claim_demo_database(&db).await?;
        let created = seed::demo_accounts(&db, &config.terms_version)
            .await
            .context("creating demo accounts")?;
        if created > 0 {
            tracing::info!(created, "demo accounts created");
        }
    } else if seed::is_demo_database(&db).await? {
        tracing::warn!("this database served the demo: its demo accounts keep their published password; do not expose it");
    }
    // First start: load the content folder so the app has a catalogue at once.
    if content::catalogue_is_empty(&db)
        .await
        .context("checking the catalogue")?
    {
        let report = content::import_all(&db, &config.content_dir)
            .await
            .with_context(|| format!("importing content from {}", config.content_dir.display()))?;
        tracing::info!("content imported on first start:\n{report}");
    }
    import_programmes(&db, &config.content_dir).await?;
    if config.demo {
        let published = notifications::demo::seed(&db, &config.content_dir)
            .await
            .context("publishing the demo notifications and app updates")?;
        if published.notifications + published.updates > 0 {
            tracing::info!(?published, "demo notifications and app updates published");
        }
        documents::seed::on_first_start(&db, &config)
            .await
            .context("loading the demo documents")?;
    }
    let mut projections = read_models::all();
    projections.extend(extra_projections);
    let projector =
        Projector::new(db.clone(), projections).with_poison_policies(&config.poison_policies()?);
    // Read models must be current before the first request is served.
    projector
        .run_to_end()
        .await
        .context("bringing the read models up to date")?;
    // Including the events just written by the seed, which PostgreSQL may not show the reader yet.
    if let Some(head) = projections::stream::head(&db).await? {
        if !projector
            .run_until(head, std::time::Duration::from_secs(30))
            .await
            .context("bringing the read models up to date")?
        {
            tracing::warn!(
                ?head,
                "read models are still catching up with the event store"
            );
        }
    }
    let realtime = realtime::Realtime::new(&db, &config)
        .await
        .context("reading the feed epoch")?;
    let documents = Arc::new(documents::Documents::new(&db, &config, projector.handle())?);
    let search = search::Search::build(&db)
        .await
        .context("building the search index")?;
    let notifications = Arc::new(notifications::services::Stores::live(
        &db,
        &projector.handle(),
    ));
    let state = AppState {
        documents,
        search,
        notifications,
        db,
        config: Arc::new(config),
        jwt,
        sso: Arc::new(auth::sso::Sso::default()),
        sessions: Arc::new(auth::sessions::SessionCache::default()),
        projector: projector.handle(),
        realtime,
    };
    Ok((state, projector))
}

/// Loads congresses, training and courses from the content folder when none are loaded yet.
async fn import_programmes(db: &Db, content_dir: &std::path::Path) -> anyhow::Result<()> {
    if !content_dir.join("congresses").is_dir() {
        tracing::warn!(dir = %content_dir.display(), "no programme content to import");
        return Ok(());
    }
    if !programmes::is_empty(db).await? {
        return Ok(());
    }
    let report = programmes::import(db, content_dir)
        .await
        .context("importing congresses, training and courses")?;
    tracing::info!(?report, "programme content imported");
    Ok(())
}

/// A server bound to its port, ready to run.
pub struct Server {
    pub addr: SocketAddr,
    /// Where `GET /metrics` is served when `METRICS_PORT` is set.
    pub metrics_addr: Option<SocketAddr>,
    listener: TcpListener,
    metrics_listener: Option<TcpListener>,
    state: AppState,
    projector: Projector,
    /// Keeps `companion restore` off the data folder while this server runs.
    _data_dir_lock: std::fs::File,
}

impl Server {
    pub async fn bind(config: Config) -> anyhow::Result<Server> {
        Self::bind_with(config, Vec::new()).await
    }

    /// Like [`Server::bind`], with extra projections (see [`prepare_with`]).
    pub async fn bind_with(
        config: Config,
        extra_projections: Vec<Arc<dyn Projection>>,
    ) -> anyhow::Result<Server> {
        let listener = TcpListener::bind((config.bind_address.as_str(), config.port))
            .await
            .with_context(|| format!("binding {}:{}", config.bind_address, config.port))?;
        let addr = listener.local_addr()?;
        outbox::relay::check(&outbox::relay::RelaySettings::from_config(&config))?;
        let data_dir_lock = operations::share_data_dir(&config.data_dir)?;
        let metrics_listener = match config.metrics_port {
            Some(port) => Some(
                TcpListener::bind((config.bind_address.as_str(), port))
                    .await
                    .with_context(|| format!("binding the metrics port {port}"))?,
            ),
            None => None,
        };
        let metrics_addr = match &metrics_listener {
            Some(l) => Some(l.local_addr()?),
            None => None,
        };
        crate::metrics::install();
        let mut config = config;
        // With port 0 the real port is known only now; links built from it must use it.
        config.port = addr.port();
        let (state, projector) = prepare_with(config, extra_projections).await?;
        if let Db::Postgres { pool } = &state.db {
            let config = &state.config;
            let node_id = nodes::node_id(&config.data_dir);
            let local = state.documents.storage.kind() == &documents::storage::StoreKind::Local;
            let store = nodes::store_label(local, config.file_store_url.as_deref());
            nodes::register(
                pool,
                &node_id,
                &config.data_dir,
                &store,
                config.allow_local_file_store_with_nodes,
            )
            .await?;
            nodes::keep_registered(pool.clone(), node_id);
        }
        Ok(Server {
            addr,
            metrics_addr,
            listener,
            metrics_listener,
            state,
            projector,
            _data_dir_lock: data_dir_lock,
        })
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Serves until `shutdown` completes, then closes the WebSockets (1001), lets requests in
    /// flight finish and stops the background tasks, all within `SHUTDOWN_GRACE_SECONDS` (plus
    /// a second for the background tasks when the requests used it all).
    ///
    /// The projector runs here on SQLite; on PostgreSQL it runs while this node holds the
    /// projector lock (see [`realtime::cluster`]), so any number of nodes can share a database.
    pub async fn run(
        self,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let app = http::router(self.state.clone());
        self.run_with(app, shutdown).await
    }

    /// Like [`Server::run`], serving `app` (built with [`http::router_with`]).
    pub async fn run_with(
        self,
        app: axum::Router,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let config = self.state.config.clone();
        let realtime = self.state.realtime.clone();
        let relay_stop = realtime.shutdown_token().child_token();
        let relay = outbox::relay::start(
            self.state.db.clone(),
            outbox::relay::RelaySettings::from_config(&self.state.config),
            relay_stop.clone(),
        )?;
        let projector_handle = self.projector.handle();
        realtime.start(self.state.db.clone(), self.projector);
        let stopping = realtime.shutdown_token();
        let search_stop = stopping.clone();
        // Ends with the server (it waits on `stopping`).
        tokio::spawn(documents::orphans::collect_periodically(
            self.state.db.clone(),
            self.state.documents.storage.clone(),
            projector_handle.clone(),
            stopping.clone(),
        ));
        tokio::spawn(idempotency::purge_periodically(
            self.state.db.clone(),
            stopping.clone(),
        ));
        let search_follower = tokio::spawn(
            self.state
                .search
                .clone()
                .follow(projector_handle, search_stop.clone()),
        );
        let metrics_server = self.metrics_listener.map(|listener| {
            let stop = stopping.clone();
            let app = metrics::port_router(self.state.clone());
            tokio::spawn(async move {
                let served = axum::serve(listener, app)
                    .with_graceful_shutdown(async move { stop.cancelled().await })
                    .await;
                if let Err(e) = served {
                    tracing::error!(error = %e, "the metrics port stopped");
                }
            })
        });
        let grace = Duration::from_secs(config.shutdown_grace_seconds);
        let socket_stop = stopping.clone();
        // The sockets are told to close as soon as the shutdown starts (upgraded connections
        // are not the HTTP server's to drain); requests in flight get the grace period.
        let deadline = edge::serve::serve(
            self.listener,
            app,
            Duration::from_secs(config.header_read_timeout_seconds.max(1)),
            grace,
            async move {
                tokio::select! {
                    _ = shutdown => {}
                    _ = socket_stop.cancelled() => {}
                }
                socket_stop.cancel();
            },
        )
        .await;
        let background = async {
            realtime.stop().await;
            // A send in progress gets what is left of the grace period; its claim expires
            // otherwise and another node (or the next start) sends it.
            relay_stop.cancel();
            let _ = relay.await;
            search_stop.cancel();
            let _ = search_follower.await;
            if let Some(metrics_server) = metrics_server {
                let _ = metrics_server.await;
            }
            self.state.db.close().await;
        };
        let until = deadline.max(tokio::time::Instant::now() + BACKGROUND_STOP_MIN);
        if tokio::time::timeout_at(until, background).await.is_err() {
            tracing::warn!(
                "background tasks still running at the end of the shutdown grace period"
            );
        }
        Ok(())
    }
}

/// What the background tasks get to stop even when requests used the whole grace period.
const BACKGROUND_STOP_MIN: Duration = Duration::from_secs(1);
