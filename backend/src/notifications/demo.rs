//! The demo notifications, app updates and messages of `content/notifications/`, published on
//! first start as events (through the same commands as the admin's publications).
//!
//! Demo items keep the ids of the content files; an item whose aggregate already has events is
//! left alone, so every start after the first changes nothing. The demo app updates are recorded
//! as viewed by every account that exists when they are published: the demo users land on /home
//! after sign-in, and only an update published later is offered by the update wizard.

use std::path::Path;

use anyhow::Context;
use cqrs_es::Aggregate;
use events::notifications::{AppUpdate, Inbox, InboxCommand, Notification};
use projections::stream::events_of;
use projections::{now_ms, on_db, Db};
use serde::Deserialize;

use super::publish::{self, GalleryInput, LinkRequest, NotificationRequest, UpdateRequest};
use super::services::Stores;
use crate::error::AppError;
use crate::event_store::Metadata;

/// Who the demo publications are recorded as.
const SEED_ACTOR: &str = "seed";

/// `2026-04-20T09:00:00Z` or `2026-03-30` (midnight UTC), as milliseconds since the epoch.
pub fn parse_date(text: &str) -> anyhow::Result<i64> {
    if let Ok(at) = chrono::DateTime::parse_from_rfc3339(text) {
        return Ok(at.timestamp_millis());
    }
    let day = chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .with_context(|| format!("'{text}' is neither a date nor a date-time"))?;
    Ok(day
        .and_hms_opt(0, 0, 0)
        .context("midnight")?
        .and_utc()
        .timestamp_millis())
}

#[derive(Debug, Deserialize)]
struct DemoNotification {
    id: i64,
    title: String,
    date: String,
    message: String,
    preview: Option<String>,
    link: Option<LinkRequest>,
}

#[derive(Debug, Deserialize)]
struct DemoUpdate {
    id: i64,
    name: String,
    release: String,
    date: String,
    preview: Option<String>,
    gallery: Vec<GalleryInput>,
    url: Option<String>,
}

/// What a seed run published.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct SeedReport {
    pub notifications: usize,
    pub updates: usize,
    pub messages: usize,
}

async fn read_list<T: serde::de::DeserializeOwned>(path: &Path) -> anyhow::Result<Vec<T>> {
    match tokio::fs::read(path).await {
        Ok(bytes) => {
            serde_json::from_slice(&bytes).with_context(|| format!("parsing {}", path.display()))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
    }
}

async fn exists(db: &Db, aggregate_type: &str, id: &str) -> anyhow::Result<bool> {
    Ok(!events_of(db, aggregate_type, id).await?.is_empty())
}

/// Publishes what is not published yet. Commands only append: the projector, started after the
/// seed, builds the read models.
pub async fn seed(db: &Db, content_dir: &Path) -> anyhow::Result<SeedReport> {
    let folder = content_dir.join("notifications");
    let stores = Stores::append_only(db);
    let mut report = SeedReport::default();

    let notifications: Vec<DemoNotification> =
        read_list(&folder.join("notifications.json")).await?;
    for n in notifications {
        if exists(db, Notification::TYPE, &Notification::aggregate_id(n.id)).await? {
            continue;
        }
        let published_at = parse_date(&n.date).with_context(|| format!("notification {}", n.id))?;
        let request = NotificationRequest {
            title: n.title,
            message: n.message,
            preview: n.preview,
            link: n.link,
            audience: None,
        };
        publish::reserve_id(db, publish::NOTIFICATION, n.id).await?;
        publish::notification(
            db,
            &stores,
            request,
            Some(n.id),
            published_at,
            Metadata::by(SEED_ACTOR),
        )
        .await
        .with_context(|| format!("publishing demo notification {}", n.id))?;
        report.notifications += 1;
    }

    let updates: Vec<DemoUpdate> = read_list(&folder.join("updates.json")).await?;
    for u in updates {
        if exists(db, AppUpdate::TYPE, &AppUpdate::aggregate_id(u.id)).await? {
            continue;
        }
        let published_at = parse_date(&u.date).with_context(|| format!("update {}", u.id))?;
        let request = UpdateRequest {
            name: u.name,
            release: u.release,
            preview: u.preview,
            gallery: u.gallery,
            url: u.url,
        };
        publish::reserve_id(db, publish::UPDATE, u.id).await?;
        publish::update(
            db,
            &stores,
            request,
            Some(u.id),
            published_at,
            Metadata::by(SEED_ACTOR),
        )
        .await
        .with_context(|| format!("publishing demo update {}", u.id))?;
        let user_ids: Vec<String> = on_db!(db, pool => sqlx::query_scalar(
            "select id from users order by id").fetch_all(pool).await)?;
        for user_id in user_ids {
            let command = InboxCommand::MarkUpdateViewed {
                user_id: user_id.clone(),
                update_id: u.id,
                at: now_ms(),
            };
            match stores
                .inboxes
                .execute(
                    &Inbox::aggregate_id(&user_id),
                    command,
                    Metadata::by(SEED_ACTOR),
                )
                .await
            {
                Ok(_) | Err(AppError::Conflict(_)) => {}
                Err(e) => return Err(e).context("recording the demo update as viewed"),
            }
        }
        report.updates += 1;
    }

    report.messages = super::messages::load_content(db, content_dir).await?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_content_dates() {
        assert_eq!(parse_date("1970-01-02").unwrap(), 86_400_000);
        assert_eq!(parse_date("1970-01-01T00:00:01Z").unwrap(), 1_000);
        assert!(parse_date("yesterday").is_err());
    }
}
