//! The demo notifications, app updates and messages of `content/notifications/`, published on
//! first start as events (through the same commands as the admin's publications).
//!
//! Demo items keep the ids of the content files; an item whose aggregate already has events is
//! left alone, so every start after the first changes nothing. The demo app updates are recorded
//! as viewed by every account that exists when they are published: the demo users land on /home
//! after sign-in, and only an update published later is offered by the update wizard.

use std::collections::HashSet;
use std::path::Path;

use anyhow::Context;
use cqrs_es::Aggregate;
use events::notifications::{AppUpdate, Inbox, InboxCommand, Notification};
use projections::stream::events_of;
use projections::{now_ms, on_db, Db};
use serde::Deserialize;

use super::publish::{self, GalleryInput, LinkRequest, NotificationRequest, UpdateRequest};
use super::services::Stores;
use crate::content_folder::dates::parse_instant_ms;
use crate::content_folder::file::{ContentError, ContentFile};
use crate::error::AppError;
use crate::event_store::Metadata;

/// Who the demo publications are recorded as.
const SEED_ACTOR: &str = "seed";

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

/// The items the demo notifications and app updates may link to, by the kind of their links.
#[derive(Debug, Default)]
pub struct LinkTargets {
    pub products: HashSet<i64>,
    pub news: HashSet<i64>,
    pub congresses: HashSet<i64>,
    pub courses: HashSet<i64>,
    pub trainings: HashSet<i64>,
}

impl LinkTargets {
    /// `None` for a kind that names no item (`useful`, `home`...): any id goes.
    fn of(&self, kind: &str) -> Option<&HashSet<i64>> {
        match kind {
            "products" => Some(&self.products),
            "news" => Some(&self.news),
            "congress" => Some(&self.congresses),
            "learn" => Some(&self.courses),
            "training" => Some(&self.trainings),
            _ => None,
        }
    }
}

/// Every link of `notifications/notifications.json` and `notifications/updates.json` lands on
/// an item of the content, checked at import so the demo never publishes a dead link.
pub fn check_links(content_dir: &Path, targets: &LinkTargets) -> Result<(), ContentError> {
    let file = ContentFile::new(content_dir, "notifications/notifications.json");
    if file.path.is_file() {
        let notifications: Vec<DemoNotification> = file.read()?;
        for (i, n) in notifications.iter().enumerate() {
            let Some(link) = &n.link else { continue };
            let (Some(ids), Some(id)) = (targets.of(&link.kind), link.id) else {
                continue;
            };
            if !ids.contains(&id) {
                return Err(file.invalid(
                    format!("[{i}].link"),
                    format!("{} {id} does not exist", link.kind),
                ));
            }
        }
    }
    let file = ContentFile::new(content_dir, "notifications/updates.json");
    if file.path.is_file() {
        let updates: Vec<DemoUpdate> = file.read()?;
        for (i, u) in updates.iter().enumerate() {
            let Some(url) = &u.url else { continue };
            if !url.starts_with("/app/") {
                return Err(file.invalid(
                    format!("[{i}].url"),
                    format!("'{url}' must be an address of the app (/app/...)"),
                ));
            }
            let news = url.strip_prefix("/app/news/").and_then(|n| n.parse().ok());
            if let Some(id) = news.filter(|id| !targets.news.contains(id)) {
                return Err(file.invalid(format!("[{i}].url"), format!("news {id} does not exist")));
            }
        }
    }
    Ok(())
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
        let published_at =
            parse_instant_ms(&n.date).with_context(|| format!("notification {}", n.id))?;
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
        let published_at = parse_instant_ms(&u.date).with_context(|| format!("update {}", u.id))?;
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
