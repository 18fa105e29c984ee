//! What a signed-in user reads: notifications, app updates and the unread badges.
//!
//! Opening a notification (`GET /push/{id}`) marks it read, and opening an app update
//! (`GET /updates/{id}`) records the view: the spec has the app read the detail when the user opens
//! it ("unread -> read after opening"), so one call does both. The mark is an event recorded once;
//! opening again records nothing and answers the same.

use axum::extract::State;
use events::notifications::{GalleryImage, Inbox, InboxCommand};
use projections::notifications::{self as read, NotificationItem, UpdateItem};
use projections::now_ms;
use serde::Serialize;
use utoipa::ToSchema;

use super::Notifications;
use crate::auth::AuthUser;
use crate::error::{AppError, AppJson, AppResult, ErrorBody};
use crate::event_store::Metadata;
use crate::ids::{NotificationId, UpdateId};

#[derive(Debug, Serialize, ToSchema)]
pub struct LinkView {
    #[serde(rename = "type")]
    pub kind: String,
    pub id: Option<i64>,
}

/// A notification as the user sees it.
#[derive(Debug, Serialize, ToSchema)]
pub struct NotificationView {
    pub id: i64,
    pub title: String,
    /// Sanitised HTML.
    pub message: String,
    pub preview: Option<String>,
    pub link: Option<LinkView>,
    pub read: bool,
    /// Publication time, RFC 3339.
    pub date: String,
}

impl From<NotificationItem> for NotificationView {
    fn from(n: NotificationItem) -> Self {
        Self {
            id: n.id,
            title: n.title,
            message: n.message,
            preview: n.preview,
            link: n.link.map(|l| LinkView {
                kind: l.kind,
                id: l.id,
            }),
            read: n.read,
            date: n.date,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct GalleryView {
    /// The big image.
    pub big: String,
    pub title: Option<String>,
}

/// An app update as the user sees it.
#[derive(Debug, Serialize, ToSchema)]
pub struct UpdateView {
    pub id: i64,
    pub name: String,
    pub release: String,
    pub preview: Option<String>,
    pub gallery: Vec<GalleryView>,
    pub url: Option<String>,
    /// True once the user has viewed it.
    pub read: bool,
    pub date: String,
}

impl From<UpdateItem> for UpdateView {
    fn from(u: UpdateItem) -> Self {
        Self {
            id: u.id,
            name: u.name,
            release: u.release,
            preview: u.preview,
            gallery: u
                .gallery
                .into_iter()
                .map(|GalleryImage { big, title }| GalleryView { big, title })
                .collect(),
            url: u.url,
            read: u.read,
            date: u.date,
        }
    }
}

/// The user's unread counters.
#[derive(Debug, Serialize, ToSchema)]
pub struct BadgesView {
    /// Unread notifications.
    pub notifications: i64,
    /// App updates not viewed yet.
    pub updates: i64,
    /// New items shared with the user (from the documents feature).
    pub shared: i64,
    /// The number of the last realtime broadcast that `notifications` and `updates` include: a
    /// `broadcast` notification or app update with a higher number is not counted yet.
    pub broadcast_seq: i64,
}

/// The user's notifications, newest first, with read flags.
#[utoipa::path(get, path = "/notifications", tag = "notifications", security(("bearer" = [])),
    responses((status = 200, body = [NotificationView]), (status = 401, body = ErrorBody)))]
pub async fn list_notifications(
    State(state): State<Notifications>,
    auth: AuthUser,
) -> AppResult<AppJson<Vec<NotificationView>>> {
    let items = read::notifications_for(&state.db, &auth.id).await?;
    Ok(AppJson(items.into_iter().map(Into::into).collect()))
}

/// One notification. Opening it marks it read (once; later openings change nothing).
/// Notifications addressed to other users answer 404, like missing ones.
#[utoipa::path(get, path = "/push/{id}", tag = "notifications", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Notification id")),
    responses((status = 200, body = NotificationView), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub async fn open_notification(
    State(state): State<Notifications>,
    auth: AuthUser,
    NotificationId(id): NotificationId,
) -> AppResult<AppJson<NotificationView>> {
    let item = read::notification_for(&state.db, &auth.id, id)
        .await?
        .ok_or_else(|| AppError::not_found(NotificationId::NOT_FOUND))?;
    if item.read {
        return Ok(AppJson(item.into()));
    }
    let command = InboxCommand::MarkNotificationRead {
        user_id: auth.id.clone(),
        notification_id: id,
        at: now_ms(),
    };
    match state
        .stores
        .inboxes
        .execute(
            &Inbox::aggregate_id(&auth.id),
            command,
            Metadata::by(&auth.id),
        )
        .await
    {
        // A concurrent opening marked it first: it is read either way.
        Ok(_) | Err(AppError::Conflict(_)) => {}
        Err(e) => return Err(e),
    }
    let item = read::notification_for(&state.db, &auth.id, id)
        .await?
        .ok_or_else(|| AppError::not_found(NotificationId::NOT_FOUND))?;
    Ok(AppJson(item.into()))
}

/// Every app update, newest first, with the user's read flags.
#[utoipa::path(get, path = "/updates", tag = "notifications", security(("bearer" = [])),
    responses((status = 200, body = [UpdateView]), (status = 401, body = ErrorBody)))]
pub async fn list_updates(
    State(state): State<Notifications>,
    auth: AuthUser,
) -> AppResult<AppJson<Vec<UpdateView>>> {
    let items = read::updates_for(&state.db, &auth.id).await?;
    Ok(AppJson(items.into_iter().map(Into::into).collect()))
}

/// One app update, for the update wizard. Opening it records the view as an event (once), so
/// the newest update stops being offered after sign-in (`update_id`).
#[utoipa::path(get, path = "/updates/{id}", tag = "notifications", security(("bearer" = [])),
    params(("id" = i64, Path, description = "App update id")),
    responses((status = 200, body = UpdateView), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub async fn open_update(
    State(state): State<Notifications>,
    auth: AuthUser,
    UpdateId(id): UpdateId,
) -> AppResult<AppJson<UpdateView>> {
    let item = read::update_for(&state.db, &auth.id, id)
        .await?
        .ok_or_else(|| AppError::not_found(UpdateId::NOT_FOUND))?;
    if item.read {
        return Ok(AppJson(item.into()));
    }
    let command = InboxCommand::MarkUpdateViewed {
        user_id: auth.id.clone(),
        update_id: id,
        at: now_ms(),
    };
    match state
        .stores
        .inboxes
        .execute(
            &Inbox::aggregate_id(&auth.id),
            command,
            Metadata::by(&auth.id),
        )
        .await
    {
        Ok(_) | Err(AppError::Conflict(_)) => {}
        Err(e) => return Err(e),
    }
    let item = read::update_for(&state.db, &auth.id, id)
        .await?
        .ok_or_else(|| AppError::not_found(UpdateId::NOT_FOUND))?;
    Ok(AppJson(item.into()))
}

/// The user's unread counters: notifications, app updates and new shared documents.
#[utoipa::path(get, path = "/badges", tag = "notifications", security(("bearer" = [])),
    responses((status = 200, body = BadgesView), (status = 401, body = ErrorBody)))]
pub async fn badges(
    State(state): State<Notifications>,
    auth: AuthUser,
) -> AppResult<AppJson<BadgesView>> {
    let (counts, broadcast_seq) = read::unread_counts_through(&state.db, &auth.id).await?;
    // The same query as the `shared` badge the documents projection pushes to the feed, so the
    // two always agree.
    let mut tx = projections::Tx::read(&state.db).await?;
    let shared = projections::documents::read::shared_unread(&mut tx, &auth.id).await?;
    tx.commit().await?;
    Ok(AppJson(BadgesView {
        notifications: counts.notifications,
        updates: counts.updates,
        shared,
        broadcast_seq,
    }))
}
