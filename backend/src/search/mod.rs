//! Search across everything (spec 2.6, `GET /search-new`): products, components, news,
//! congresses, activities, training, courses, contacts, useful links, and the documents the
//! signed-in user may see.
//!
//! - [`index`] - the tantivy index: folded words, prefixes, one typo, ranking, per-user filter.
//! - [`content`] - entries of the reference content (rebuilt at import).
//! - [`documents`] - entries of the documents read model, kept current from document events.
//! - [`api`] - the HTTP call.
//!
//! The index lives in memory and is built at start-up: reference content is small, and the
//! documents are rebuilt from their read model in one pass. Each node keeps its own index: it
//! follows the document events up to the documents read model's checkpoint (woken by its own
//! projector, else every [`POLL`]), and reloads the reference content when an import elsewhere
//! bumps the content version.

pub mod api;
pub mod content;
pub mod documents;
pub mod index;
pub mod kinds;
pub mod library;
pub mod query;

use std::sync::Arc;
use std::time::{Duration, Instant};

use projections::stream::Position;
use projections::{on_db, Db, ProjectorHandle};
use tokio::sync::Mutex;
use tokio_util::sync::CancellationToken;

pub use documents::{node_key, owner_key, US_KEY};
pub use index::{Entry, Hit, IndexChange, IndexError, SearchIndex};
pub use kinds::Kind;

use crate::error::AppError;
use crate::read_models::AFTER_BATCH;

/// How often a node checks for document events and content imports made elsewhere.
pub const POLL: Duration = Duration::from_millis(250);
/// The shortest time between two catch-up rounds that changed the index. Under a steady stream
/// of changes the index takes them in about one commit a second rather than one per projector
/// batch: each commit builds a segment and restarts the writer's indexing thread. The first
/// change after a quiet spell is indexed [`AFTER_BATCH`] after its batch.
pub const BUSY_ROUND_GAP: Duration = Duration::from_secs(1);
/// Document events read per catch-up round.
const EVENTS_PER_ROUND: i64 = 2_000;

#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    #[error(transparent)]
    Index(#[from] IndexError),
    #[error("reading what to index: {0}")]
    Database(#[from] sqlx::Error),
    #[error("reading document events: {0}")]
    Stream(#[from] projections::stream::StreamError),
    #[error("search task failed: {0}")]
    Task(#[from] tokio::task::JoinError),
}

impl From<SearchError> for AppError {
    fn from(e: SearchError) -> Self {
        AppError::Internal(anyhow::Error::new(e))
    }
}

/// The search index of this node and how far it has followed the documents.
pub struct Search {
    index: Arc<SearchIndex>,
    db: Db,
    /// The last document event whose changes are in the index.
    documents_at: Mutex<Position>,
    /// The content version whose reference content is in the index.
    content_version: Mutex<i64>,
    /// The library documents' lifecycle as last indexed.
    library_seen: Mutex<Option<library::Signature>>,
}

impl Search {
    /// Builds the index from the reference content and the documents read model.
    pub async fn build(db: &Db) -> Result<Arc<Search>, SearchError> {
        let search = Arc::new(Search {
            index: Arc::new(SearchIndex::new()?),
            db: db.clone(),
            documents_at: Mutex::new(Position::default()),
            content_version: Mutex::new(-1),
            library_seen: Mutex::new(None),
        });
        search.reload_content().await?;
        search.reload_documents().await?;
        Ok(search)
    }

    pub fn index(&self) -> &SearchIndex {
        &self.index
    }

    /// Replaces every reference-content entry with what the content tables hold now.
    pub async fn reload_content(&self) -> Result<usize, SearchError> {
        let mut version = self.content_version.lock().await;
        let current = content_version(&self.db).await?;
        let entries = content::entries(&self.db).await?;
        let count = entries.len();
        self.apply(IndexChange {
            replace_kinds: Some(Kind::CONTENT.to_vec()),
            upsert: entries,
            ..IndexChange::default()
        })
        .await?;
        *version = current;
        tracing::info!(entries = count, "search: reference content indexed");
        drop(version);
        // The folder's library documents come with the content.
        self.reload_library().await?;
        Ok(count)
    }

    /// Replaces every library entry with the documents reps may open now.
    async fn reload_library(&self) -> Result<(), SearchError> {
        let mut seen = self.library_seen.lock().await;
        let current = library::signature(&self.db).await?;
        let entries = library::entries(&self.db).await?;
        self.apply(IndexChange {
            replace_kinds: Some(vec![Kind::Library]),
            upsert: entries,
            ..IndexChange::default()
        })
        .await?;
        *seen = Some(current);
        Ok(())
    }

    /// Reloads the library entries when a document was released, changed or ended (on any
    /// node). Returns whether it did.
    pub async fn catch_up_library(&self) -> Result<bool, SearchError> {
        let seen = *self.library_seen.lock().await;
        if seen == Some(library::signature(&self.db).await?) {
            return Ok(false);
        }
        self.reload_library().await?;
        Ok(true)
    }

    /// Replaces every document entry with what the documents read model holds now.
    async fn reload_documents(&self) -> Result<usize, SearchError> {
        let mut at = self.documents_at.lock().await;
        // Events after this checkpoint may be in the rows read below: they are applied again
        // by the next catch-up, which is harmless (each refresh re-reads the read model).
        let checkpoint = projections::projector::checkpoint_of(
            &self.db,
            projections::documents::projection::NAME,
        )
        .await?;
        let entries = documents::entries(&self.db).await?;
        let count = entries.len();
        self.apply(IndexChange {
            replace_kinds: Some(vec![Kind::Documents]),
            upsert: entries,
            ..IndexChange::default()
        })
        .await?;
        *at = checkpoint;
        tracing::info!(entries = count, "search: documents indexed");
        Ok(count)
    }

    async fn apply(&self, change: IndexChange) -> Result<(), SearchError> {
        let index = self.index.clone();
        tokio::task::spawn_blocking(move || index.update(change)).await??;
        Ok(())
    }

    /// Applies the document events the documents read model has taken in since the last call.
    /// Returns how many items were refreshed.
    pub async fn catch_up_documents(&self) -> Result<usize, SearchError> {
        let mut at = self.documents_at.lock().await;
        let until = projections::projector::checkpoint_of(
            &self.db,
            projections::documents::projection::NAME,
        )
        .await?;
        let mut refreshed = 0;
        while *at < until {
            let (ids, reached) = documents::touched(&self.db, *at, until, EVENTS_PER_ROUND).await?;
            if reached == *at {
                break;
            }
            if !ids.is_empty() {
                refreshed += ids.len();
                let change = documents::refresh(&self.db, &ids).await?;
                self.apply(change).await?;
            }
            *at = reached;
        }
        Ok(refreshed)
    }

    /// Reloads the reference content when an import (on any node) changed it.
    pub async fn catch_up_content(&self) -> Result<bool, SearchError> {
        let known = *self.content_version.lock().await;
        if content_version(&self.db).await? == known {
            return Ok(false);
        }
        self.reload_content().await?;
        Ok(true)
    }

    /// Keeps the index current until `stop` is cancelled: after each projector batch of this
    /// node, and every [`POLL`] for changes made by other nodes, at most one round that changes
    /// the index per [`BUSY_ROUND_GAP`].
    pub async fn follow(self: Arc<Self>, projector: ProjectorHandle, stop: CancellationToken) {
        let mut batches = projector.subscribe_batches();
        // On a node without a running projector nothing ever wakes it: it polls.
        let mut woken_by_projector = true;
        let mut last_change: Option<Instant> = None;
        loop {
            let rest = last_change.map_or(Duration::ZERO, |at| {
                BUSY_ROUND_GAP.saturating_sub(at.elapsed())
            });
            if !rest.is_zero() {
                tokio::select! {
                    _ = stop.cancelled() => return,
                    _ = tokio::time::sleep(rest) => {}
                }
            }
            let started = Instant::now();
            let mut changed = false;
            match self.catch_up_documents().await {
                Ok(refreshed) => changed |= refreshed > 0,
                Err(error) => {
                    tracing::warn!(%error, "search: following the documents failed; retrying");
                }
            }
            match self.catch_up_content().await {
                Ok(reloaded) => changed |= reloaded,
                Err(error) => {
                    tracing::warn!(%error, "search: reloading the content failed; retrying");
                }
            }
            match self.catch_up_library().await {
                Ok(reloaded) => changed |= reloaded,
                Err(error) => {
                    tracing::warn!(%error, "search: reloading the library failed; retrying");
                }
            }
            if changed {
                last_change = Some(started);
            }
            tokio::select! {
                _ = stop.cancelled() => return,
                changed = batches.changed(), if woken_by_projector => {
                    woken_by_projector = changed.is_ok();
                    if stop.run_until_cancelled(tokio::time::sleep(AFTER_BATCH)).await.is_none() {
                        return;
                    }
                }
                _ = tokio::time::sleep(POLL) => {}
            }
        }
    }
}

/// The version of the reference content, bumped by every import.
pub async fn content_version(db: &Db) -> Result<i64, sqlx::Error> {
    let version: Option<i64> = on_db!(db, pool => sqlx::query_scalar(
        "select version from search_content_version where id = 1").fetch_optional(pool).await)?;
    Ok(version.unwrap_or(0))
}

/// Tells every node that the reference content changed (after an import).
pub async fn bump_content_version(db: &Db) -> Result<(), sqlx::Error> {
    on_db!(db, pool => sqlx::query(
        "update search_content_version set version = version + 1 where id = 1")
        .execute(pool).await.map(|r| r.rows_affected()))?;
    Ok(())
}
