//! [`Library`]: the commands on library documents, the reads of their read model, the cascade
//! after a release or an end, and the scheduler's sweep.

use std::sync::Arc;
use std::time::Duration;

use events::documents::UserRef;
use events::library::{CascadeStep, DocMetadata, LibraryCommand, LibraryDocument, VersionFile};
use projections::library::{self as model, StateRow};
use projections::{now_ms, on_db, Db, ProjectorHandle, Tx};
use tokio_util::sync::CancellationToken;

use crate::documents::Documents;
use crate::documents::{CompanyFile, Withdrawal, WithdrawnItems, WithdrawnState};
use crate::error::{AppError, AppResult, Replacement};
use crate::event_store::{EventStore, Metadata};
use crate::notifications::{
    publish_notification, AudienceInput, LinkRequest, NotificationRequest, Notifications,
};

/// Console documents get ids from here up; the content folder's keep theirs.
pub const FIRST_CONSOLE_ID: i64 = 100_000;

/// How often the scheduler looks for releases and expiries due (and cascades to re-run).
pub const SWEEP_EVERY: Duration = Duration::from_secs(1);

/// Tries at a fresh id when another creator took the one chosen.
const ID_RETRIES: i64 = 5;

pub struct Library {
    pub db: Db,
    store: Arc<EventStore<LibraryDocument>>,
    pub documents: Arc<Documents>,
    notifications: Notifications,
    projector: ProjectorHandle,
    view: super::visibility::SharedCache,
    batches: tokio::sync::watch::Receiver<u64>,
}

/// Who is acting, as events record it.
pub type Who = UserRef;

impl Library {
    pub fn new(
        db: &Db,
        documents: Arc<Documents>,
        notifications: Notifications,
        projector: ProjectorHandle,
    ) -> Self {
        Self {
            db: db.clone(),
            store: Arc::new(EventStore::new(db, (), projector.clone())),
            documents,
            notifications,
            batches: projector.subscribe_batches(),
            projector,
            view: Default::default(),
        }
    }

    pub(super) fn view_cache(&self) -> &super::visibility::SharedCache {
        &self.view
    }

    pub(super) fn batches(&self) -> &tokio::sync::watch::Receiver<u64> {
        &self.batches
    }

    pub async fn tx(&self) -> AppResult<Tx> {
        Ok(Tx::begin(&self.db).await?)
    }

    /// The user `id` with the name events record.
    pub async fn who(&self, id: &str) -> AppResult<Who> {
        let row: Option<(String, String)> = on_db!(&self.db, pool => sqlx::query_as(
            "select first_name, last_name from users where id = $1")
            .bind(id).fetch_optional(pool).await)?;
        let name = row
            .map(|(first, last)| format!("{first} {last}").trim().to_string())
            .unwrap_or_default();
        Ok(UserRef {
            id: id.to_string(),
            name,
        })
    }

    /// The document `id`, or 404.
    pub async fn state(&self, id: i64) -> AppResult<StateRow> {
        let mut tx = self.tx().await?;
        let row = model::state(&mut tx, id).await?;
        tx.rollback().await?;
        row.ok_or_else(|| AppError::not_found("Library document not found"))
    }

    pub async fn execute(&self, id: i64, command: LibraryCommand, by: &str) -> AppResult<()> {
        self.store
            .execute(&id.to_string(), command, Metadata::by(by))
            .await?;
        Ok(())
    }

    /// The id a new console document gets: past every id known, from [`FIRST_CONSOLE_ID`] up.
    async fn next_id(&self) -> AppResult<i64> {
        let mut tx = self.tx().await?;
        let highest = model::highest_id(&mut tx).await?.unwrap_or(0);
        tx.rollback().await?;
        let folder: Option<i64> = on_db!(&self.db, pool => sqlx::query_scalar(
            "select max(id) from library_documents").fetch_one(pool).await)?;
        Ok(FIRST_CONSOLE_ID.max(highest.max(folder.unwrap_or(0)) + 1))
    }

    /// Creates a document with its first version (a draft); returns its id.
    pub async fn create(
        &self,
        by: Who,
        metadata: DocMetadata,
        file: VersionFile,
        note: Option<String>,
    ) -> AppResult<i64> {
        let mut id = self.next_id().await?;
        for _ in 0..ID_RETRIES {
            let command = LibraryCommand::Create {
                id,
                by: by.clone(),
                metadata: metadata.clone(),
                file: file.clone(),
                note: note.clone(),
                at: now_ms(),
            };
            match self.execute(id, command, &by.id.clone()).await {
                // Another creator took this id first: the next one.
                Err(AppError::Conflict(_)) => id += 1,
                other => return other.map(|()| id),
            }
        }
        Err(AppError::Conflict(
            "Too many documents are being created at once. Try again".into(),
        ))
    }

    /// Whether `id` is a released, live document (a valid replacement).
    pub async fn is_released(&self, id: i64) -> AppResult<bool> {
        let mut tx = self.tx().await?;
        let row = model::state(&mut tx, id).await?;
        tx.rollback().await?;
        Ok(row.is_some_and(|r| r.visible()))
    }

    pub async fn replacement(&self, id: Option<i64>) -> AppResult<Option<Replacement>> {
        let Some(id) = id else { return Ok(None) };
        let mut tx = self.tx().await?;
        let row = model::state(&mut tx, id).await?;
        tx.rollback().await?;
        Ok(row.map(|r| Replacement {
            id: r.id,
            title: r.title,
            url: model::file_url(r.id),
        }))
    }

    /// Runs the cascade still due for `id` (none: nothing to do), then records its completion.
    /// Safe to run again: every step it takes is idempotent.
    pub async fn cascade(&self, id: i64) -> AppResult<()> {
        let row = self.state(id).await?;
        let Some(step) = row.cascade_due() else {
            return Ok(());
        };
        let (items, holders) = match step {
            CascadeStep::Release { version } => self.cascade_release(&row, version).await?,
            CascadeStep::End => self.cascade_end(&row).await?,
        };
        let command = LibraryCommand::CompleteCascade {
            items,
            holders,
            at: now_ms(),
        };
        self.execute(id, command, crate::documents::SYSTEM_USER)
            .await
    }

    async fn cascade_release(
        &self,
        row: &StateRow,
        version: u32,
    ) -> AppResult<(Vec<String>, Vec<String>)> {
        // Only a document still released and for the US set has a company copy.
        if !row.visible() || row.audience != "us" {
            return Ok((vec![], vec![]));
        }
        let Some(file) = row.released_file() else {
            return Ok((vec![], vec![]));
        };
        if file.blob.is_empty() {
            // A content-folder document: its bytes are not in the blob storage.
            return Ok((vec![], vec![]));
        }
        let by = UserRef {
            id: row.author_id.clone(),
            name: row.author_name.clone(),
        };
        let company = CompanyFile {
            library_id: row.id,
            version,
            title: row.title.clone(),
            file_name: file.file_name,
            blob: file.blob,
            size: file.size,
            sha256: file.sha256,
            format: file.format,
            labels: row.labels(),
            subtitle: row.category.clone(),
        };
        let item = self.documents.release_company_file(&by, company).await?;
        let items = if item.is_empty() { vec![] } else { vec![item] };
        Ok((items, vec![]))
    }

    async fn cascade_end(&self, row: &StateRow) -> AppResult<(Vec<String>, Vec<String>)> {
        let state = match row.ended_state.as_deref() {
            Some("expired") => WithdrawnState::Expired,
            _ => WithdrawnState::Withdrawn,
        };
        let withdrawal = Withdrawal {
            state,
            reason: row.ended_reason.clone().unwrap_or_default(),
            at: row.ended_at.unwrap_or_else(now_ms),
            replacement: self.replacement(row.replacement).await?,
        };
        let by = row
            .ended_by_id
            .clone()
            .unwrap_or_else(|| crate::documents::SYSTEM_USER.to_string());
        let WithdrawnItems { items, holders } = self
            .documents
            .withdraw_company_file(&by, row.id, withdrawal)
            .await?;
        self.tell_holders(row, &holders).await?;
        Ok((items, holders))
    }

    /// A What's New notification naming the document to everyone who held it, linking to the
    /// replacement when there is one.
    async fn tell_holders(&self, row: &StateRow, company_holders: &[String]) -> AppResult<()> {
        let mut tx = self.tx().await?;
        let mut users: Vec<String> = model::holders_of(&mut tx, row.id)
            .await?
            .into_iter()
            .map(|h| h.user_id)
            .collect();
        tx.rollback().await?;
        users.extend(company_holders.iter().cloned());
        users.sort();
        users.dedup();
        if users.is_empty() {
            return Ok(());
        }
        let mut emails = Vec::new();
        for user in &users {
            let email: Option<String> = on_db!(&self.db, pool => sqlx::query_scalar(
                "select email from users where id = $1 and disabled_at is null")
                .bind(user).fetch_optional(pool).await)?;
            emails.extend(email);
        }
        if emails.is_empty() {
            return Ok(());
        }
        let what = if row.ended_state.as_deref() == Some("expired") {
            "has expired"
        } else {
            "was withdrawn"
        };
        let title = escape(&row.title);
        let mut message = format!("<p>The document <strong>{title}</strong> {what}.");
        if let Some(reason) = row.ended_reason.as_deref().filter(|r| !r.is_empty()) {
            message.push_str(&format!(" Reason: {}.", escape(reason)));
        }
        message.push_str(" Copies on your devices were removed.</p>");
        if let Some(r) = self.replacement(row.replacement).await? {
            message.push_str(&format!(
                "<p>It is replaced by <a href=\"{}\">{}</a>.</p>",
                r.url,
                escape(&r.title)
            ));
        }
        let request = NotificationRequest {
            title: format!("{} {what}", row.title).chars().take(200).collect(),
            message,
            preview: None,
            link: Some(LinkRequest {
                kind: "documents".into(),
                id: None,
            }),
            audience: Some(AudienceInput::Emails(emails)),
        };
        publish_notification(
            &self.notifications.db,
            &self.notifications.stores,
            request,
            None,
            now_ms(),
            Metadata::by(crate::documents::SYSTEM_USER),
        )
        .await?;
        Ok(())
    }

    /// One round of the scheduler: releases what is due, expires what is due, and re-runs
    /// cascades that did not record their completion. Only the node running the projector
    /// sweeps; the aggregate makes a repeat a no-op anyway.
    pub async fn sweep(&self) -> AppResult<usize> {
        if !self.projector.is_active() {
            return Ok(0);
        }
        let now = now_ms();
        let mut tx = self.tx().await?;
        let releases = model::due_to_release(&mut tx, now).await?;
        let expiries = model::due_to_expire(&mut tx, now).await?;
        tx.rollback().await?;
        let mut done = 0;
        for id in releases {
            self.execute(
                id,
                LibraryCommand::Release { at: now },
                crate::documents::SYSTEM_USER,
            )
            .await?;
            done += 1;
        }
        for id in expiries {
            self.execute(
                id,
                LibraryCommand::Expire { at: now },
                crate::documents::SYSTEM_USER,
            )
            .await?;
            done += 1;
        }
        let mut tx = self.tx().await?;
        let cascades = model::cascades_due(&mut tx).await?;
        tx.rollback().await?;
        for id in cascades {
            if let Err(e) = self.cascade(id).await {
                tracing::warn!(library = id, error = %e, "library cascade failed; trying again later");
            }
        }
        Ok(done)
    }
}

/// Runs [`Library::sweep`] every `every` until `stop`.
pub async fn sweep_periodically(library: Arc<Library>, every: Duration, stop: CancellationToken) {
    let mut tick = tokio::time::interval(every);
    loop {
        tokio::select! {
            _ = stop.cancelled() => break,
            _ = tick.tick() => {}
        }
        if let Err(e) = library.sweep().await {
            tracing::warn!(error = %e, "library scheduler failed; trying again later");
        }
    }
}

/// Text made safe inside HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

impl Library {
    /// The released current version of a document with a lifecycle, recording the open (or
    /// the download); `None` when `id` has no lifecycle (a content-folder document served as
    /// loaded). Unreleased: 404; withdrawn or expired: 410.
    pub async fn open_released(
        &self,
        id: i64,
        user: &str,
        download: bool,
    ) -> AppResult<Option<axum::response::Response>> {
        let mut tx = self.tx().await?;
        let row = model::state(&mut tx, id).await?;
        tx.rollback().await?;
        let Some(row) = row else { return Ok(None) };
        // A document for the US set is the US certificate's alone: anyone else is told it does
        // not exist, whatever its state.
        if row.audience == "us" {
            let shows_us = crate::auth::User::find_by_id(&self.db, user)
                .await?
                .is_some_and(|u| u.shows_us());
            if !shows_us {
                return Err(AppError::not_found("Document not found"));
            }
        }
        if let Some(state) = row.ended_state.as_deref() {
            let expired = state == "expired";
            return Err(AppError::Withdrawn(Box::new(crate::error::WithdrawnBody {
                message: if expired {
                    "This document has expired."
                } else {
                    "This document was withdrawn."
                }
                .into(),
                state: if expired { "expired" } else { "withdrawn" },
                reason: row.ended_reason.clone().unwrap_or_default(),
                at: row.ended_at.unwrap_or_default(),
                replacement: self.replacement(row.replacement).await?,
            })));
        }
        let file = row
            .released_file()
            .filter(|_| row.released_version.is_some())
            .ok_or_else(|| AppError::not_found("Document not found"))?;
        let response = self
            .file_response(id, &file, "private, max-age=300", download)
            .await?;
        // The open is recorded without holding the file back.
        let store = self.store_handle();
        let user = user.to_string();
        // The task keeps the request's id and execution, which its event records.
        tokio::spawn(crate::request_context::carry(async move {
            let command = LibraryCommand::RecordRead {
                by: user.clone(),
                download,
                at: now_ms(),
            };
            if let Err(e) = store
                .execute(&id.to_string(), command, Metadata::by(user))
                .await
            {
                tracing::warn!(library = id, error = %e, "recording a library read failed");
            }
        }));
        Ok(Some(response))
    }

    fn store_handle(&self) -> Arc<EventStore<LibraryDocument>> {
        self.store.clone()
    }
}
