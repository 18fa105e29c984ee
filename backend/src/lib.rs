//! The companion app's server: an axum HTTP API, the web app and the realtime channel on one
//! origin, over SQLite (embedded default) or PostgreSQL. The modules stand on three layers; a
//! layer uses those below it, and a feature uses another only through what that feature's
//! `mod.rs` re-exports (`tests/boundaries.rs` checks it; `docs/architecture.md` tells more).
//!
//! Foundation:
//! - [`config`] - what `companion serve` reads from the environment.
//! - [`error`] - the one error type and its mapping to HTTP.
//! - [`ids`] - the typed ids of paths and queries.
//! - [`edge`] - what every request passes through: headers, ids, limits, timeouts, logs.
//! - [`metrics`] - the Prometheus metrics: their names and the recorder.
//! - [`request_context`] - the request id and `Idempotency-Key` execution of the running task.
//! - [`feed`] - the kinds of feed message, writing one directly, poking the realtime hub.
//! - [`html`] - rich text of the content: sanitising, plain text.
//! - [`content_folder`] - the content folder's files, dates, document kinds and table rows.
//! - [`nodes`] - the registry of server nodes sharing a PostgreSQL database.
//! - [`outbox`] - outgoing e-mail: the outbox table and its SMTP relay.
//! - [`paging`] - the cursor and limit of paged lists walked newest first.
//! - [`event_store`] - the one command path: cqrs-es, retries, metadata, read-your-write.
//!
//! Features (each with its routes and the handles it needs, got from the state by `FromRef`):
//! - [`auth`] - accounts, sign-in, sessions, tokens, devices, single sign-on, the `AuthUser`
//!   and `Authorized<P>` extractors, the demo accounts.
//! - [`catalogue`] - home, products, library documents, news, contacts, useful links, multimedia.
//! - [`programmes`] - congresses, sales training, medical-education courses and registration.
//! - [`documents`] - documents and folders: event-sourced items, lists, files, history.
//! - [`library`] - library documents' lifecycle: console, scheduler, cascade, withdrawal report.
//! - [`audit`] - the auditor's search of every item and the company's document activity.
//! - [`notifications`] - notifications, app updates, survey messages; publishing them.
//! - [`guide`] - the guided tour of the main screens behind the info buttons.
//! - [`search`] - search across everything: an in-memory tantivy index kept current.
//! - [`realtime`] - the WebSocket channel, its hub, and projector ownership across nodes.
//! - [`push`] - Web Push to devices whose app is closed: subscriptions, queue, delivery.
//! - [`health`] - liveness and readiness probes.
//!
//! Assembly:
//! - [`content`] - the one content import: every feature's reader, all checked before writing.
//! - [`read_models`] - every projection the server runs.
//! - [`idempotency`] - `Idempotency-Key` on command calls: a retry answers the first result.
//! - [`state`] - the server's state: the handles of the foundation and of each feature.
//! - [`openapi`] - the OpenAPI document's info, tags and security scheme.
//! - [`http`] - the router: every feature's routes behind the edge; `/metrics`; `/openapi.json`.
//! - [`operations`] - the operator's commands: projections, outbox, backup and restore.
//! - [`replay`] - rebuilding projections into a fresh database and comparing.
//! - [`allocator`] - when each command's allocator gives the memory it freed back.
//! - this file - preparing the state ([`prepare`]) and running the [`Server`].

pub mod allocator;
pub mod audit;
pub mod auth;
pub mod catalogue;
pub mod config;
pub mod content;
pub mod content_folder;
pub mod documents;
pub mod edge;
pub mod error;
pub mod event_store;
pub mod feed;
pub mod guide;
pub mod health;
pub mod html;
pub mod http;
pub mod idempotency;
pub mod ids;
pub mod library;
pub mod metrics;
pub mod nodes;
pub mod notifications;
pub mod openapi;
pub mod operations;
pub mod outbox;
pub mod paging;
pub mod programmes;
pub mod push;
pub mod read_models;
pub mod realtime;
pub mod replay;
pub mod request_context;
pub mod search;
pub mod state;
pub mod table_statistics;

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
    let db = Db::connect_sized(&config.database_url(), config.database_pool_size)
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
        auth::demo::claim_demo_database(&db).await?;
        let created = auth::demo::demo_accounts(&db, &config.terms_version)
            .await
            .context("creating demo accounts")?;
        if created > 0 {
            tracing::info!(created, "demo accounts created");
        }
    } else if auth::demo::is_demo_database(&db).await? {
        tracing::warn!("this database served the demo: its demo accounts keep their published password; do not expose it");
    }
    // First start: load the content folder so the app has a catalogue at once.
    if content::catalogue_is_empty(&db)
        .await
        .context("checking the catalogue")?
    {
        let started = std::time::Instant::now();
        let report =
            content::import_as(&db, &config.content_dir, &content::operator("first-start"))
                .await
                .with_context(|| {
                    format!("importing content from {}", config.content_dir.display())
                })?;
        tracing::info!(
            elapsed_ms = started.elapsed().as_millis() as u64,
            "content recorded on first start:\n{report}"
        );
    }
    if config.demo {
        let published = notifications::demo::seed(&db, &config.content_dir)
            .await
            .context("publishing the demo notifications and app updates")?;
        if published.notifications + published.updates > 0 {
            tracing::info!(?published, "demo notifications and app updates published");
        }
        documents::demo::on_first_start(&db, &config, read_models::all())
            .await
            .context("loading the demo documents")?;
    }
    let mut projections = read_models::all();
    projections.extend(extra_projections);
    let projector = Projector::new(db.clone(), projections)
        .with_poison_policies(&config.poison_policies()?)
        .with_command_wait(std::time::Duration::from_secs(
            config.read_your_write_seconds,
        ));
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
    let push = push::Push::new(&db, &config, realtime.presence().clone())
        .await
        .context("preparing Web Push")?;
    let documents = Arc::new(documents::Documents::new(&db, &config, projector.handle())?);
    let search = search::Search::build(&db)
        .await
        .context("building the search index")?;
    let notifications = notifications::Notifications {
        db: db.clone(),
        stores: Arc::new(notifications::services::Stores::live(
            &db,
            &projector.handle(),
        )),
    };
    let config = Arc::new(config);
    let auth = auth::Auth {
        db: db.clone(),
        config: config.clone(),
        jwt,
        sessions: Arc::new(auth::sessions::SessionCache::default()),
        sso: Arc::new(auth::sso::Sso::default()),
        feed: realtime.poker(),
        projector: projector.handle(),
        on_disabled: documents.clone(),
    };
    let library = Arc::new(library::Library::new(
        &db,
        documents.clone(),
        notifications.clone(),
        projector.handle(),
    ));
    let programmes = programmes::Programmes {
        db: db.clone(),
        config: config.clone(),
        registrations: Arc::new(programmes::registration::store(
            &db,
            &config,
            projector.handle(),
        )),
        library: library.clone(),
    };
    let state = AppState {
        library,
        documents,
        search,
        notifications,
        programmes,
        auth,
        db,
        config,
        projector: projector.handle(),
        realtime,
        push,
    };
    Ok((state, projector))
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
        // The metrics listener has no sign-in: it binds `METRICS_BIND` (the loopback unless told
        // otherwise), never `BIND_ADDRESS`.
        let metrics_listener = match config.metrics_port {
            Some(port) => Some(
                TcpListener::bind((config.metrics_bind.as_str(), port))
                    .await
                    .with_context(|| {
                        format!("binding the metrics port {}:{port}", config.metrics_bind)
                    })?,
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
        let push_stop = realtime.shutdown_token().child_token();
        let push = self.state.push.start(
            self.state.db.clone(),
            config.data_dir.clone(),
            projector_handle.clone(),
            realtime.settings().node_id.clone(),
            push_stop.clone(),
        );
        realtime.start(self.state.db.clone(), self.projector);
        let stopping = realtime.shutdown_token();
        let search_stop = stopping.clone();
        // Ends with the server (it waits on `stopping`).
        tokio::spawn(documents::orphans::collect_periodically(
            self.state.db.clone(),
            self.state.documents.storage.clone(),
            documents::orphans::retention(&config),
            projector_handle.clone(),
            stopping.clone(),
        ));
        tokio::spawn(idempotency::purge_periodically(
            self.state.db.clone(),
            stopping.clone(),
        ));
        // Expired links recorded as such, engagement past its retention purged.
        tokio::spawn(documents::shares::sweep_periodically(
            self.state.documents.clone(),
            std::time::Duration::from_secs(60),
            stopping.clone(),
        ));
        // Library documents released and expired at their time, cascades re-run.
        tokio::spawn(library::sweep_periodically(
            self.state.library.clone(),
            library::SWEEP_EVERY,
            stopping.clone(),
        ));
        // Scheduled news releases and expiries.
        tokio::spawn(catalogue::news_admin::schedule_periodically(
            self.state.db.clone(),
            projector_handle.clone(),
            std::time::Duration::from_secs(15),
            stopping.clone(),
        ));
        // Plans that follow the tables' growth where autovacuum is off.
        tokio::spawn(table_statistics::analyze_periodically(
            self.state.db.clone(),
            stopping.clone(),
        ));
        tokio::spawn(auth::purge_ended_sessions_periodically(
            self.state.db.clone(),
            config.ended_session_retention_days,
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
            let app = http::metrics::port_router(self.state.clone());
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
            push_stop.cancel();
            let _ = push.await;
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
