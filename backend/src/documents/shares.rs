//! Over 400 lines: the tracked external links' commands, reads and routes share one set of rules.
//!
//! Tracked external links: the engagement of each external share (its own `share_link` stream,
//! see `events::share_link`) and what the sender, the item's owner, auditors and admins do with
//! it. The recipient's viewer is [`super::viewer`].
//!
//! - `GET /api/documents/{id}/shares`: the item's external shares (owner: all; sender: theirs;
//!   auditors: all; anyone else 404).
//! - `GET /api/documents/shares`: the caller's own shares ("Sent"), paged.
//! - `POST /api/documents/shares/{share_id}/revoke`: the sender, the item's owner or an admin.
//! - [`Documents::end_links_of_item`]: the hook that ends an item's links (deletion today, a
//!   withdrawal or a superseding version of the document tomorrow).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path, State};
use events::share_link::{LinkTerms, RevokeReason, ShareCommand};
use projections::share_engagement::{self as engagement, ShareRow};
use projections::{now_ms, Tx};
use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;
use utoipa::{IntoParams, ToSchema};

use super::operations::{Actor, Documents};
use super::services::full_name;
use crate::auth::User;
use crate::error::{AppError, AppJson, AppQuery, AppResult, ErrorBody};
use crate::event_store::Metadata;
use crate::ids::ItemId;

/// Shares per page of the "Sent" list, and the most.
const SENT_PAGE: i64 = 50;
const SENT_MAX: i64 = 200;
const SENT_CURSOR: &str = "s1";

impl From<events::share_link::ShareError> for AppError {
    fn from(e: events::share_link::ShareError) -> Self {
        use events::share_link::ShareError as E;
        match e {
            E::Revoked | E::Ended | E::Expired | E::UsedUp => AppError::LinkGone {
                state: e.gone_state().unwrap_or("revoked"),
                replacement: None,
            },
            E::ViewOnly => AppError::Forbidden(e.to_string()),
            E::UnknownView | E::BadPages => AppError::BadRequest(e.to_string()),
            E::TooManyBeacons => AppError::RateLimited {
                message: e.to_string(),
                retry_after_seconds: 3_600,
            },
        }
    }
}

/// The terms of a stored share, as its stream's commands carry them.
pub(super) fn terms_of(row: &ShareRow) -> LinkTerms {
    LinkTerms {
        expires_at: row.expires_at,
        max_opens: row.max_opens.and_then(|m| u32::try_from(m).ok()),
        allow_download: row.allow_download != 0,
    }
}

/// Seconds a page was viewed.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PageSeconds {
    pub page: i64,
    /// Whole seconds.
    pub seconds: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ShareSender {
    pub id: String,
    pub name: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ShareItem {
    pub id: String,
    pub title: String,
}

/// One external share and its engagement.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ShareView {
    pub id: String,
    /// The recipient's e-mail (only the sender, the item's owner and auditors see it).
    pub recipient: String,
    /// ms since the epoch.
    pub sent_at: i64,
    pub expires_at: i64,
    pub revoked_at: Option<i64>,
    pub opens: i64,
    pub last_opened_at: Option<i64>,
    pub downloads: i64,
    pub pages: Vec<PageSeconds>,
    /// Opened from more than one device (network and device class).
    pub possibly_forwarded: bool,
    pub allow_download: bool,
    pub max_opens: Option<i64>,
    /// `active`, `expired`, `revoked`, `used_up` or `ended`.
    pub state: String,
    pub sender: ShareSender,
    /// The document (in the "Sent" list only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub item: Option<ShareItem>,
}

/// A page of the caller's own external shares.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SentShares {
    pub shares: Vec<ShareView>,
    /// Pass as `before` for the next (older) page; null on the last.
    pub next: Option<String>,
}

impl Documents {
    async fn share_views(&self, rows: Vec<ShareRow>, with_item: bool) -> AppResult<Vec<ShareView>> {
        let now = now_ms();
        let mut names: HashMap<String, String> = HashMap::new();
        let mut views = Vec::with_capacity(rows.len());
        let mut tx = Tx::read(self.db()).await?;
        for row in rows {
            let name = match names.get(&row.sender_id) {
                Some(name) => name.clone(),
                None => {
                    let name = User::find_by_id(self.db(), &row.sender_id)
                        .await?
                        .map(|u| full_name(&u))
                        .unwrap_or_else(|| "Former user".into());
                    names.insert(row.sender_id.clone(), name.clone());
                    name
                }
            };
            let pages = engagement::pages_of(&mut tx, &row.share_id)
                .await?
                .into_iter()
                .map(|(page, millis)| PageSeconds {
                    page,
                    seconds: (millis + 500) / 1000,
                })
                .collect();
            views.push(ShareView {
                state: row.state(now).to_string(),
                id: row.share_id,
                recipient: row.recipient,
                sent_at: row.sent_at,
                expires_at: row.expires_at,
                revoked_at: row.revoked_at,
                opens: row.opens,
                last_opened_at: row.last_opened_at,
                downloads: row.downloads,
                pages,
                possibly_forwarded: row.devices > 1,
                allow_download: row.allow_download != 0,
                max_opens: row.max_opens,
                sender: ShareSender {
                    id: row.sender_id,
                    name,
                },
                item: with_item.then_some(ShareItem {
                    id: row.item_id,
                    title: row.title,
                }),
            });
        }
        Ok(views)
    }

    /// The external shares of `item` the actor may see: all for its owner and auditors, their
    /// own for a sender; 404 for anyone else.
    pub async fn shares_of_item(&self, actor: &Actor, item: &str) -> AppResult<Vec<ShareView>> {
        let rows = {
            let mut tx = Tx::read(self.db()).await?;
            engagement::of_item(&mut tx, item).await?
        };
        let owner = match self.visible(actor, item).await {
            Ok((row, _)) => row.owner_id.as_deref() == Some(actor.id.as_str()),
            Err(_) => rows
                .iter()
                .any(|r| r.owner_id.as_deref() == Some(actor.id.as_str())),
        };
        let sees_all = owner || actor.auditor;
        let sent_some = rows.iter().any(|r| r.sender_id == actor.id);
        if !sees_all && !sent_some && self.visible(actor, item).await.is_err() {
            return Err(AppError::not_found("The folder or file was not found"));
        }
        let rows = rows
            .into_iter()
            .filter(|r| sees_all || r.sender_id == actor.id)
            .collect();
        self.share_views(rows, false).await
    }

    /// The actor's own external shares, newest first, `limit` at a time.
    pub async fn sent_shares(
        &self,
        actor: &Actor,
        before: Option<&str>,
        limit: Option<i64>,
    ) -> AppResult<SentShares> {
        let limit = crate::paging::limit(limit, SENT_PAGE, SENT_MAX)?;
        let before = before
            .map(|b| crate::paging::parse_cursor(SENT_CURSOR, b))
            .transpose()?;
        let mut rows = {
            let mut tx = Tx::read(self.db()).await?;
            engagement::of_sender(&mut tx, &actor.id, before, limit + 1).await?
        };
        let next = if rows.len() as i64 > limit {
            rows.truncate(limit as usize);
            rows.last()
                .map(|r| crate::paging::cursor(SENT_CURSOR, r.sent_at))
        } else {
            None
        };
        Ok(SentShares {
            shares: self.share_views(rows, true).await?,
            next,
        })
    }

    /// Takes a link back at once: its sender, the item's owner or an admin; 404 for anyone
    /// else. A second revocation changes nothing.
    pub async fn revoke_share(&self, actor: &Actor, share: &str) -> AppResult<ShareView> {
        let row = {
            let mut tx = Tx::read(self.db()).await?;
            engagement::by_id(&mut tx, share).await?
        };
        let not_found = || AppError::not_found("The share was not found");
        let row = row.ok_or_else(not_found)?;
        let reason =
            if row.sender_id == actor.id || row.owner_id.as_deref() == Some(actor.id.as_str()) {
                RevokeReason::Sender
            } else if actor.admin {
                RevokeReason::Admin
            } else {
                return Err(not_found());
            };
        self.revoke(&row, &actor.id, reason, None, actor.metadata())
            .await?;
        let row = {
            let mut tx = Tx::read(self.db()).await?;
            engagement::by_id(&mut tx, share).await?
        };
        let mut views = self.share_views(row.into_iter().collect(), false).await?;
        views.pop().ok_or_else(not_found)
    }

    async fn revoke(
        &self,
        row: &ShareRow,
        by: &str,
        reason: RevokeReason,
        replacement: Option<String>,
        metadata: Metadata,
    ) -> AppResult<()> {
        let command = ShareCommand::Revoke {
            by: by.to_string(),
            reason,
            at: now_ms(),
            replacement,
        };
        self.tracking
            .store
            .execute(&row.share_id, command, metadata)
            .await
            .map(|_| ())
    }

    /// Ends every live link of `item` (reason `document_ended`, or another given): the hook a
    /// deletion calls today, and a withdrawal or a superseding version of the document will
    /// call (with `replacement`, the item that replaces it, which the viewer's 410 names).
    pub async fn end_links_of_item(
        &self,
        item: &str,
        by: &str,
        reason: RevokeReason,
        replacement: Option<String>,
    ) -> AppResult<usize> {
        let rows = {
            let mut tx = Tx::read(self.db()).await?;
            engagement::of_item(&mut tx, item).await?
        };
        let mut ended = 0;
        for row in rows.iter().filter(|r| r.revoked_at.is_none()) {
            self.revoke(row, by, reason, replacement.clone(), Metadata::by(by))
                .await?;
            ended += 1;
        }
        Ok(ended)
    }

    /// Ends the links of `items` (those deleted with a folder, or a file removed).
    pub(super) async fn end_links_of_items(&self, items: &[String], by: &str) -> AppResult<()> {
        for item in items {
            self.end_links_of_item(item, by, RevokeReason::DocumentEnded, None)
                .await?;
        }
        Ok(())
    }

    /// Revokes every live link `user` sent (their account was disabled by `by`).
    pub async fn revoke_links_of_user(&self, user: &str, by: &str) -> AppResult<usize> {
        let rows = {
            let mut tx = Tx::read(self.db()).await?;
            engagement::live_of_sender(&mut tx, user).await?
        };
        for row in &rows {
            self.revoke(
                row,
                by,
                RevokeReason::AccountDisabled,
                None,
                Metadata::by(by),
            )
            .await?;
        }
        Ok(rows.len())
    }

    /// Revokes the live links of senders whose account is disabled: those disabled from the
    /// command line, and any the API's own revocation missed (a crash in between).
    pub async fn revoke_links_of_disabled_senders(&self) -> AppResult<usize> {
        let rows = {
            let mut tx = Tx::read(self.db()).await?;
            engagement::live_of_disabled_senders(&mut tx).await?
        };
        for row in &rows {
            self.revoke(
                row,
                "operator",
                RevokeReason::AccountDisabled,
                None,
                Metadata::by("operator"),
            )
            .await?;
        }
        Ok(rows.len())
    }

    /// Records `LinkExpired` on links whose time is over (once each: the stream refuses a
    /// second one).
    pub async fn expire_due_links(&self) -> AppResult<usize> {
        let now = now_ms();
        let rows = {
            let mut tx = Tx::read(self.db()).await?;
            engagement::due_to_expire(&mut tx, now).await?
        };
        for row in &rows {
            let command = ShareCommand::Expire {
                at: now,
                terms: terms_of(row),
            };
            self.tracking
                .store
                .execute(&row.share_id, command, Metadata::by(super::SYSTEM_USER))
                .await?;
        }
        Ok(rows.len())
    }

    /// Forgets the engagement of links that ended more than `SHARE_ANALYTICS_RETENTION_DAYS`
    /// ago: their streams' events and the read model's figures, in one transaction per link.
    pub async fn purge_old_engagement(&self) -> AppResult<usize> {
        let cutoff = now_ms() - self.tracking.retention_ms;
        let shares = {
            let mut tx = Tx::read(self.db()).await?;
            engagement::past_retention(&mut tx, cutoff).await?
        };
        for share in &shares {
            let _guard = self.db().write_guard().await;
            let mut tx = Tx::begin(self.db()).await?;
            projections::on_tx!(&mut tx, c => sqlx::query(
                "delete from events where aggregate_type = $1 and aggregate_id = $2")
                .bind(events::share_link::SHARE_TYPE).bind(share)
                .execute(c).await.map(|r| r.rows_affected()))?;
            engagement::forget_engagement(&mut tx, share).await?;
            tx.commit().await?;
        }
        if !shares.is_empty() {
            tracing::info!(links = shares.len(), "engagement past its retention purged");
        }
        Ok(shares.len())
    }
}

/// Expires links, purges old engagement and prunes the viewer's rate limits, every `every`,
/// until `stop`.
pub async fn sweep_periodically(
    documents: Arc<Documents>,
    every: Duration,
    stop: CancellationToken,
) {
    let mut tick = tokio::time::interval(every);
    loop {
        tokio::select! {
            _ = stop.cancelled() => break,
            _ = tick.tick() => {}
        }
        documents.tracking.per_link.prune();
        documents.tracking.per_network.prune();
        if let Err(e) = documents.revoke_links_of_disabled_senders().await {
            tracing::warn!(error = %e, "revoking the links of disabled accounts failed; trying again later");
        }
        if let Err(e) = documents.expire_due_links().await {
            tracing::warn!(error = %e, "expiring links failed; trying again later");
        }
        if let Err(e) = documents.purge_old_engagement().await {
            tracing::warn!(error = %e, "purging old engagement failed; trying again later");
        }
    }
}

#[async_trait::async_trait]
impl crate::auth::OnAccountDisabled for Documents {
    async fn account_disabled(&self, user: &str, by: &str) -> AppResult<()> {
        let revoked = self.revoke_links_of_user(user, by).await?;
        if revoked > 0 {
            tracing::info!(
                user,
                links = revoked,
                "external links of a disabled account revoked"
            );
        }
        Ok(())
    }
}

// ---- routes ----

/// The external shares of a document, newest first: every one for its owner and auditors,
/// their own for a sender.
#[utoipa::path(get, path = "/documents/{id}/shares", tag = "documents", params(("id" = String, Path)),
    security(("bearer" = [])),
    responses((status = 200, body = Vec<ShareView>), (status = 404, body = ErrorBody)))]
pub async fn item_shares(
    State(documents): State<Arc<Documents>>,
    actor: Actor,
    ItemId(id): ItemId,
) -> AppResult<AppJson<Vec<ShareView>>> {
    Ok(AppJson(documents.shares_of_item(&actor, &id).await?))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct SentQuery {
    /// 1 to 200, default 50.
    pub limit: Option<i64>,
    /// The `next` of the previous page.
    pub before: Option<String>,
}

/// The caller's own external shares ("Sent"), newest first, with their documents.
#[utoipa::path(get, path = "/documents/shares", tag = "documents", params(SentQuery),
    security(("bearer" = [])),
    responses((status = 200, body = SentShares), (status = 400, body = ErrorBody)))]
pub async fn sent_shares(
    State(documents): State<Arc<Documents>>,
    actor: Actor,
    AppQuery(query): AppQuery<SentQuery>,
) -> AppResult<AppJson<SentShares>> {
    Ok(AppJson(
        documents
            .sent_shares(&actor, query.before.as_deref(), query.limit)
            .await?,
    ))
}

/// Takes a link back at once (the sender, the item's owner or an admin): its page, file and
/// beacon answer 410 from then on. Revoking again changes nothing.
#[utoipa::path(post, path = "/documents/shares/{share_id}/revoke", tag = "documents",
    params(("share_id" = String, Path)), security(("bearer" = [])),
    responses((status = 200, body = ShareView), (status = 404, body = ErrorBody)))]
pub async fn revoke_share(
    State(documents): State<Arc<Documents>>,
    actor: Actor,
    Path(share_id): Path<String>,
) -> AppResult<AppJson<ShareView>> {
    if share_id.is_empty() || share_id.len() > 100 {
        return Err(AppError::not_found("The share was not found"));
    }
    Ok(AppJson(documents.revoke_share(&actor, &share_id).await?))
}
