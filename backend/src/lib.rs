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
//! - [`documents`] - documents and folders: event-sourced items, lists, files, history.
//! - [`outbox`] - outgoing e-mail, kept in a table.

pub mod auth;
pub mod config;
pub mod documents;
pub mod error;
pub mod event_store;
pub mod http;
pub mod openapi;
pub mod outbox;
pub mod read_models;
pub mod replay;
pub mod seed;
pub mod state;
pub mod updates_hook;
pub mod users;

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::Context;
use projections::{Db, Projector};
use tokio::net::TcpListener;

pub use config::Config;
pub use state::AppState;

/// Connects to the database, applies migrations, loads demo data on first start, and returns the
/// state the server runs on with the projector that keeps its read models current.
pub async fn prepare(config: Config) -> anyhow::Result<(AppState, Projector)> {
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
    documents::seed::on_first_start(&db, &config)
        .await
        .context("loading the demo documents")?;
    let projector = Projector::new(db.clone(), read_models::all());
    // Read models must be current before the first request is served.
    projector
        .run_to_end()
        .await
        .context("bringing the read models up to date")?;
    let documents = Arc::new(documents::Documents::new(&db, &config, projector.handle())?);
    let state = AppState {
        documents,
        db,
        config: Arc::new(config),
        jwt,
        sso: Arc::new(auth::sso::Sso::default()),
        projector: projector.handle(),
    };
    Ok((state, projector))
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
        let listener = TcpListener::bind((config.bind_address.as_str(), config.port))
            .await
            .with_context(|| format!("binding {}:{}", config.bind_address, config.port))?;
        let addr = listener.local_addr()?;
        let mut config = config;
        // With port 0 the real port is known only now; links built from it must use it.
        config.port = addr.port();
        let (state, projector) = prepare(config).await?;
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

    /// Serves until `shutdown` completes.
    pub async fn run(
        self,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let app = http::router(self.state.clone());
        let (stop_projector, projector_stopped) = tokio::sync::oneshot::channel::<()>();
        let projector = tokio::spawn(self.projector.run(async {
            let _ = projector_stopped.await;
        }));
        let served = axum::serve(self.listener, app)
            .with_graceful_shutdown(shutdown)
            .await
            .context("serving");
        let _ = stop_projector.send(());
        let _ = projector.await;
        self.state.db.close().await;
        served?;
        Ok(())
    }
}
