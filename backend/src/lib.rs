//! The companion app's server: an axum HTTP API, the web app and the realtime channel on one
//! origin, over SQLite (embedded default) or PostgreSQL.
//!
//! Layout:
//! - [`config`] - what `companion serve` reads from the environment.
//! - [`http`] - the router; each feature module exposes its own `router()`.
//! - [`auth`] - sign-in, tokens, the `AuthUser` extractor, single sign-on.
//! - [`users`] - the accounts.
//! - [`error`] - the one error type and its mapping to HTTP.
//! - [`seed`] - demo accounts and content loaded on first start.
//! - [`content`] - importing reference content (catalogue, news, ...) from a content folder.
//! - [`catalogue`] - home, products, library documents, news, contacts, useful links, multimedia.
//! - [`guide`] - the guided tour of the main screens behind the info buttons.
//! - [`programmes`] - congresses, sales training, medical-education courses and registration.
//! - [`notifications`] - notifications, app updates, survey messages; publishing them.
//! - [`realtime`] - the WebSocket channel, its hub, and projector ownership across nodes.
//! - [`documents`] - documents and folders: event-sourced items, lists, files, history.
//! - [`outbox`] - outgoing e-mail, kept in a table.
//! - [`search`] - search across everything: an in-memory tantivy index kept current.

pub mod auth;
pub mod catalogue;
pub mod config;
pub mod content;
pub mod documents;
pub mod error;
pub mod event_store;
pub mod guide;
pub mod http;
pub mod notifications;
pub mod openapi;
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

use anyhow::Context;
use projections::{Db, Projection, Projector};
use tokio::net::TcpListener;

pub use config::Config;
pub use state::AppState;

/// Connects to the database, applies migrations, loads demo data on first start, and returns the
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
    let secret = auth::jwt::JwtKeys::load_or_generate_secret(
        config.jwt_secret.as_deref(),
        &config.data_dir,
    )?;
    let jwt = auth::jwt::JwtKeys::new(&secret, config.jwt_ttl_seconds);
    let created = seed::demo_accounts(&db)
        .await
        .context("creating demo accounts")?;
    if created > 0 {
        tracing::info!(created, "demo accounts created");
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
    let published = notifications::demo::seed(&db, &config.content_dir)
        .await
        .context("publishing the demo notifications and app updates")?;
    if published.notifications + published.updates > 0 {
        tracing::info!(?published, "demo notifications and app updates published");
    }
    documents::seed::on_first_start(&db, &config)
        .await
        .context("loading the demo documents")?;
    let mut projections = read_models::all();
    projections.extend(extra_projections);
    let projector = Projector::new(db.clone(), projections);
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
    let state = AppState {
        documents,
        search,
        db,
        config: Arc::new(config),
        jwt,
        sso: Arc::new(auth::sso::Sso::default()),
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
    listener: TcpListener,
    state: AppState,
    projector: Projector,
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
        let mut config = config;
        // With port 0 the real port is known only now; links built from it must use it.
        config.port = addr.port();
        let (state, projector) = prepare_with(config, extra_projections).await?;
        Ok(Server {
            addr,
            listener,
            state,
            projector,
        })
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Serves until `shutdown` completes, then closes the WebSockets (1001) and waits up to
    /// `SHUTDOWN_GRACE_SECONDS` for them and the background tasks.
    ///
    /// The projector runs here on SQLite; on PostgreSQL it runs while this node holds the
    /// projector lock (see [`realtime::cluster`]), so any number of nodes can share a database.
    pub async fn run(
        self,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let app = http::router(self.state.clone());
        let realtime = self.state.realtime.clone();
        let projector_handle = self.projector.handle();
        realtime.start(self.state.db.clone(), self.projector);
        let stopping = realtime.shutdown_token();
        let search_stop = stopping.clone();
        let search_follower = tokio::spawn(
            self.state
                .search
                .clone()
                .follow(projector_handle, search_stop.clone()),
        );
        // axum's graceful shutdown does not wait for upgraded connections: the sockets are
        // closed as soon as it starts, and drained (with the background tasks, once requests
        // have finished) by `realtime.stop()`.
        let served = axum::serve(self.listener, app)
            .with_graceful_shutdown(async move {
                tokio::select! {
                    _ = shutdown => {}
                    _ = stopping.cancelled() => {}
                }
                stopping.cancel();
            })
            .await
            .context("serving");
        realtime.stop().await;
        search_stop.cancel();
        let _ = search_follower.await;
        self.state.db.close().await;
        served?;
        Ok(())
    }
}
