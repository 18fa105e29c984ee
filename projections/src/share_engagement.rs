//! Read model of tracked external links: per share (the item's `SharedExternally`) its terms and
//! the figures of its engagement stream (`events::share_link`), and the seconds per page.
//!
//! Feed messages, written in the same transaction, to the sender and the item's owner:
//! - `share_opened {share, item, title, recipient, at, first}` on every open;
//! - `share_engagement {share, item}` whenever pages, a download, a revocation or an expiry change
//!   the figures (the last one is never held back: an open Shares screen always ends up current;
//!   the beacons' own per-link bound keeps the count small). `notified_at` is when it last was.

use async_trait::async_trait;
use events::documents::{ItemEvent, ITEM_TYPE};
use events::share_link::{ShareEvent, SHARE_TYPE};
use serde::Serialize;

use crate::{feed, on_tx, Projection, ProjectionError, StoredEvent, TableSpec, Tx};

pub struct ShareEngagementProjection;

pub const NAME: &str = "share_engagement";
/// Feed kind of an open.
pub const OPENED_KIND: &str = "share_opened";
/// Feed kind of other changes of a share's figures.
pub const ENGAGEMENT_KIND: &str = "share_engagement";

const TABLES: &[TableSpec] = &[
    TableSpec {
        name: "share_engagement",
        order_by: "share_id",
    },
    TableSpec {
        name: "share_engagement_pages",
        order_by: "share_id, page",
    },
];

/// One share as stored.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ShareRow {
    pub share_id: String,
    pub token_hash: String,
    pub item_id: String,
    pub sender_id: String,
    pub owner_id: Option<String>,
    pub recipient: String,
    pub title: String,
    pub sent_at: i64,
    pub expires_at: i64,
    pub allow_download: i64,
    pub max_opens: Option<i64>,
    pub opens: i64,
    pub last_opened_at: Option<i64>,
    pub downloads: i64,
    pub devices: i64,
    pub revoked_at: Option<i64>,
    pub revoked_by: Option<String>,
    pub revoked_reason: Option<String>,
    pub expired_at: Option<i64>,
    pub notified_at: i64,
    /// The item replacing the document when its links ended because it was superseded.
    pub replacement: Option<String>,
}

impl ShareRow {
    /// `active`, `expired`, `revoked`, `used_up` or `ended` at `now`.
    pub fn state(&self, now: i64) -> &'static str {
        match self.revoked_reason.as_deref() {
            Some("document_ended") => return "ended",
            Some(_) => return "revoked",
            None => {}
        }
        if self.expired_at.is_some() || self.expires_at <= now {
            "expired"
        } else if self.max_opens.is_some_and(|max| self.opens >= max) {
            "used_up"
        } else {
            "active"
        }
    }

    /// The users told of this share's engagement: the sender, and the owner when another.
    fn watchers(&self) -> Vec<&str> {
        let mut users = vec![self.sender_id.as_str()];
        if let Some(owner) = self.owner_id.as_deref().filter(|o| *o != self.sender_id) {
            users.push(owner);
        }
        users
    }
}

#[derive(Serialize)]
struct OpenedMessage<'a> {
    share: &'a str,
    item: &'a str,
    title: &'a str,
    recipient: &'a str,
    at: i64,
    first: bool,
}

#[derive(Serialize)]
struct EngagementMessage<'a> {
    share: &'a str,
    item: &'a str,
}

const COLUMNS: &str =
    "share_id, token_hash, item_id, sender_id, owner_id, recipient, title, sent_at, \
     expires_at, allow_download, max_opens, opens, last_opened_at, downloads, devices, revoked_at, \
     revoked_by, revoked_reason, expired_at, notified_at, replacement";

async fn row(tx: &mut Tx, share: &str) -> Result<Option<ShareRow>, sqlx::Error> {
    let sql = format!("select {COLUMNS} from share_engagement where share_id = $1");
    on_tx!(tx, c => sqlx::query_as(&sql).bind(share).fetch_optional(c).await)
}

async fn record_share(tx: &mut Tx, event: &StoredEvent) -> Result<(), ProjectionError> {
    let ItemEvent::SharedExternally {
        by,
        email,
        token_hash,
        expires_at,
        share,
        allow_download,
        max_opens,
        title,
        owner,
    } = event
        .decode()
        .map_err(|e| ProjectionError::bad_event(event, e))?
    else {
        return Ok(());
    };
    let share = if share.is_empty() {
        token_hash.clone()
    } else {
        share
    };
    on_tx!(tx, c => sqlx::query(
        "insert into share_engagement (share_id, token_hash, item_id, sender_id, owner_id, recipient,
             title, sent_at, expires_at, allow_download, max_opens)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) on conflict (share_id) do nothing")
        .bind(&share).bind(&token_hash).bind(&event.aggregate_id).bind(&by).bind(&owner)
        .bind(&email).bind(&title).bind(event.recorded_at).bind(expires_at)
        .bind(i64::from(allow_download)).bind(max_opens.map(i64::from))
        .execute(c).await.map(|r| r.rows_affected()))?;
    Ok(())
}

/// Tells the sender (and owner) that the figures changed.
async fn announce_change(tx: &mut Tx, share: &ShareRow, at: i64) -> Result<(), sqlx::Error> {
    on_tx!(tx, c => sqlx::query("update share_engagement set notified_at = $2 where share_id = $1")
        .bind(&share.share_id).bind(at).execute(c).await.map(|r| r.rows_affected()))?;
    let message = EngagementMessage {
        share: &share.share_id,
        item: &share.item_id,
    };
    for user in share.watchers() {
        feed::push(tx, user, ENGAGEMENT_KIND, &message, at).await?;
    }
    Ok(())
}

async fn record_engagement(tx: &mut Tx, event: &StoredEvent) -> Result<(), ProjectionError> {
    let decoded: ShareEvent = event
        .decode()
        .map_err(|e| ProjectionError::bad_event(event, e))?;
    // A share whose item event is unknown (purged past its retention) has nothing to update.
    let Some(share) = row(tx, &event.aggregate_id).await? else {
        return Ok(());
    };
    let id = share.share_id.as_str();
    match decoded {
        ShareEvent::LinkOpened { new_device, at, .. } => {
            on_tx!(tx, c => sqlx::query(
                "update share_engagement set opens = opens + 1,
                     last_opened_at = case when last_opened_at is null or last_opened_at < $2 then $2 else last_opened_at end,
                     devices = devices + $3
                 where share_id = $1")
                .bind(id).bind(at).bind(i64::from(new_device))
                .execute(c).await.map(|r| r.rows_affected()))?;
            let message = OpenedMessage {
                share: id,
                item: &share.item_id,
                title: &share.title,
                recipient: &share.recipient,
                at,
                first: share.opens == 0,
            };
            for user in share.watchers() {
                feed::push(tx, user, OPENED_KIND, &message, at).await?;
            }
        }
        ShareEvent::PagesViewed { pages, at, .. } => {
            for page in pages {
                // Milliseconds as integers: sums are exact and a replay adds them the same way.
                let millis = (page.seconds * 1000.0).round() as i64;
                on_tx!(tx, c => sqlx::query(
                    "insert into share_engagement_pages (share_id, page, millis) values ($1, $2, $3)
                     on conflict (share_id, page) do update set millis = share_engagement_pages.millis + excluded.millis")
                    .bind(id).bind(i64::from(page.page)).bind(millis)
                    .execute(c).await.map(|r| r.rows_affected()))?;
            }
            announce_change(tx, &share, at).await?;
        }
        ShareEvent::LinkDownloaded { at, .. } => {
            on_tx!(tx, c => sqlx::query("update share_engagement set downloads = downloads + 1 where share_id = $1")
                .bind(id).execute(c).await.map(|r| r.rows_affected()))?;
            announce_change(tx, &share, at).await?;
        }
        ShareEvent::LinkRevoked {
            by,
            reason,
            at,
            replacement,
        } => {
            on_tx!(tx, c => sqlx::query(
                "update share_engagement set revoked_at = $2, revoked_by = $3, revoked_reason = $4, replacement = $5
                 where share_id = $1")
                .bind(id).bind(at).bind(&by).bind(reason.as_str()).bind(&replacement)
                .execute(c).await.map(|r| r.rows_affected()))?;
            announce_change(tx, &share, at).await?;
        }
        ShareEvent::LinkExpired { at } => {
            on_tx!(tx, c => sqlx::query("update share_engagement set expired_at = $2 where share_id = $1")
                .bind(id).bind(at).execute(c).await.map(|r| r.rows_affected()))?;
            announce_change(tx, &share, at).await?;
        }
    }
    Ok(())
}

#[async_trait]
impl Projection for ShareEngagementProjection {
    fn name(&self) -> &'static str {
        NAME
    }

    fn tables(&self) -> &'static [TableSpec] {
        TABLES
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> Result<(), ProjectionError> {
        if !self.applies_to(event) {
            Ok(())
        } else if event.aggregate_type == SHARE_TYPE {
            record_engagement(tx, event).await
        } else {
            record_share(tx, event).await
        }
    }

    fn reads(&self, aggregate_type: &str) -> bool {
        aggregate_type == ITEM_TYPE || aggregate_type == SHARE_TYPE
    }

    fn applies_to(&self, event: &StoredEvent) -> bool {
        (event.aggregate_type == ITEM_TYPE && event.event_type == "SharedExternally")
            || event.aggregate_type == SHARE_TYPE
    }
}

// ---- reads ----

/// The share whose link token hashes to `token_hash`.
pub async fn by_token(tx: &mut Tx, token_hash: &str) -> Result<Option<ShareRow>, sqlx::Error> {
    let sql = format!("select {COLUMNS} from share_engagement where token_hash = $1");
    on_tx!(tx, c => sqlx::query_as(&sql).bind(token_hash).fetch_optional(c).await)
}

/// The share `share_id`.
pub async fn by_id(tx: &mut Tx, share_id: &str) -> Result<Option<ShareRow>, sqlx::Error> {
    row(tx, share_id).await
}

/// Every share of `item`, newest first.
pub async fn of_item(tx: &mut Tx, item: &str) -> Result<Vec<ShareRow>, sqlx::Error> {
    let sql = format!(
        "select {COLUMNS} from share_engagement where item_id = $1 order by sent_at desc, share_id desc"
    );
    on_tx!(tx, c => sqlx::query_as(&sql).bind(item).fetch_all(c).await)
}

/// Up to `limit` shares `sender` made, newest first, sent before `before` (ms) when given.
pub async fn of_sender(
    tx: &mut Tx,
    sender: &str,
    before: Option<i64>,
    limit: i64,
) -> Result<Vec<ShareRow>, sqlx::Error> {
    let sql = format!(
        "select {COLUMNS} from share_engagement where sender_id = $1 and sent_at < $2
         order by sent_at desc, share_id desc limit $3"
    );
    on_tx!(tx, c => sqlx::query_as(&sql).bind(sender).bind(before.unwrap_or(i64::MAX)).bind(limit).fetch_all(c).await)
}

/// The live shares (not revoked) of `sender`.
pub async fn live_of_sender(tx: &mut Tx, sender: &str) -> Result<Vec<ShareRow>, sqlx::Error> {
    let sql = format!(
        "select {COLUMNS} from share_engagement where sender_id = $1 and revoked_at is null order by share_id"
    );
    on_tx!(tx, c => sqlx::query_as(&sql).bind(sender).fetch_all(c).await)
}

/// Live shares (not revoked) whose sender's account is disabled, a batch at a time.
pub async fn live_of_disabled_senders(tx: &mut Tx) -> Result<Vec<ShareRow>, sqlx::Error> {
    let sql = format!(
        "select {COLUMNS} from share_engagement s where revoked_at is null
           and exists (select 1 from users u where u.id = s.sender_id and u.disabled_at is not null)
         order by share_id limit 500"
    );
    on_tx!(tx, c => sqlx::query_as(&sql).fetch_all(c).await)
}

/// Shares not yet revoked or marked expired whose time is over at `now`.
pub async fn due_to_expire(tx: &mut Tx, now: i64) -> Result<Vec<ShareRow>, sqlx::Error> {
    let sql = format!(
        "select {COLUMNS} from share_engagement where revoked_at is null and expired_at is null
           and expires_at <= $1 order by expires_at limit 500"
    );
    on_tx!(tx, c => sqlx::query_as(&sql).bind(now).fetch_all(c).await)
}

/// Seconds per page (whole seconds) of each of `shares`: `(share, page, millis)`, by page.
pub async fn pages_of(tx: &mut Tx, share: &str) -> Result<Vec<(i64, i64)>, sqlx::Error> {
    on_tx!(tx, c => sqlx::query_as(
        "select page, millis from share_engagement_pages where share_id = $1 order by page")
        .bind(share).fetch_all(c).await)
}

/// Shares sent before `cutoff` whose engagement is past its retention: their ids.
pub async fn past_retention(tx: &mut Tx, cutoff: i64) -> Result<Vec<String>, sqlx::Error> {
    on_tx!(tx, c => sqlx::query_scalar(
        "select share_id from share_engagement
         where expires_at < $1 and (opens > 0 or downloads > 0 or revoked_at is not null or expired_at is not null
             or exists (select 1 from share_engagement_pages p where p.share_id = share_engagement.share_id))
         order by share_id limit 500")
        .bind(cutoff).fetch_all(c).await)
}

/// Forgets the engagement of `share` (its retention is over): figures back to none, pages gone;
/// the share itself (who sent what to whom, when) stays with the item's history.
pub async fn forget_engagement(tx: &mut Tx, share: &str) -> Result<(), sqlx::Error> {
    on_tx!(tx, c => sqlx::query("delete from share_engagement_pages where share_id = $1")
        .bind(share).execute(c).await.map(|r| r.rows_affected()))?;
    on_tx!(tx, c => sqlx::query(
        "update share_engagement set opens = 0, last_opened_at = null, downloads = 0, devices = 0,
             revoked_at = null, revoked_by = null, revoked_reason = null, expired_at = null, notified_at = 0,
             replacement = null
         where share_id = $1")
        .bind(share).execute(c).await.map(|r| r.rows_affected()))?;
    Ok(())
}
