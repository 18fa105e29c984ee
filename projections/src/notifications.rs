//! Read models of notifications and app updates, and the live messages they announce.
//!
//! Tables (all rebuilt from the events): `notifications` + `notification_recipients` (who a
//! notification is for when it is not for everyone), `notification_reads`, `app_updates`,
//! `app_update_views`. A user's list, its read flags and the unread counts are queries over these
//! tables ([`notifications_for`], [`updates_for`], [`unread_counts_through`]), so a notification
//! for everyone also reaches users created after it was published.
//!
//! Feed messages, written in the same transaction as the rows:
//! - publish to chosen users: `notification {notification}` and
//!   `badge {name: "notifications", count, through}` to each of them;
//! - publish to everyone, and every app update: one broadcast (`notification {notification}` or
//!   `app_update {update}`), the same bytes for every socket. It carries no count: nobody can
//!   have read it yet, so each app adds one to its unread count, unless the count it holds
//!   already includes that broadcast (`through`, below);
//! - read / view: the same two messages to the reader, with `read: true` and the new count.
//!
//! `through` on a `notifications` or `updates` badge, and `broadcast_seq` of `GET /badges`, is
//! the number of the last broadcast the count includes (see [`unread_counts_through`]).

use async_trait::async_trait;
use cqrs_es::Aggregate;
use events::notifications::{
    AppUpdate, AppUpdateEvent, Audience, GalleryImage, Inbox, InboxEvent, Link, Notification,
    NotificationEvent,
};
use serde::{Deserialize, Serialize};

use crate::db::{Db, Tx};
use crate::projector::{Projection, ProjectionError, TableSpec};
use crate::stream::StoredEvent;
use crate::{feed, on_db, on_tx};

/// A notification as a user sees it (list, detail and the `notification` feed message).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NotificationItem {
    pub id: i64,
    pub title: String,
    /// Sanitised HTML.
    pub message: String,
    pub preview: Option<String>,
    pub link: Option<Link>,
    pub read: bool,
    /// When it was published, RFC 3339 (UTC).
    pub date: String,
}

/// An app update as a user sees it (list, detail and the `app_update` feed message).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UpdateItem {
    pub id: i64,
    pub name: String,
    pub release: String,
    pub preview: Option<String>,
    pub gallery: Vec<GalleryImage>,
    pub url: Option<String>,
    /// True once the user has viewed it.
    pub read: bool,
    pub date: String,
}

/// Unread counts of one user.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct UnreadCounts {
    pub notifications: i64,
    pub updates: i64,
}

/// Milliseconds since the epoch as RFC 3339, e.g. `2026-04-20T09:00:00Z`.
pub fn rfc3339(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

#[derive(sqlx::FromRow)]
struct NotificationRow {
    id: i64,
    title: String,
    message: String,
    preview: Option<String>,
    link_type: Option<String>,
    link_id: Option<i64>,
    published_at: i64,
    read: bool,
}

impl From<NotificationRow> for NotificationItem {
    fn from(r: NotificationRow) -> Self {
        NotificationItem {
            id: r.id,
            title: r.title,
            message: r.message,
            preview: r.preview,
            link: r.link_type.map(|kind| Link {
                kind,
                id: r.link_id,
            }),
            read: r.read,
            date: rfc3339(r.published_at),
        }
    }
}

#[derive(sqlx::FromRow)]
struct UpdateRow {
    id: i64,
    name: String,
    release: String,
    preview: Option<String>,
    gallery: String,
    url: Option<String>,
    published_at: i64,
    read: bool,
}

impl From<UpdateRow> for UpdateItem {
    fn from(r: UpdateRow) -> Self {
        UpdateItem {
            id: r.id,
            name: r.name,
            release: r.release,
            preview: r.preview,
            // Written by this projection from a typed event: it always parses.
            gallery: serde_json::from_str(&r.gallery).unwrap_or_default(),
            url: r.url,
            read: r.read,
            date: rfc3339(r.published_at),
        }
    }
}

/// The notifications addressed to `$1`, newest first, with the user's read flag.
const NOTIFICATIONS_FOR: &str = "select n.id, n.title, n.message, n.preview, n.link_type, n.link_id, n.published_at,
        (r.user_id is not null) as read
    from notifications n
    left join notification_reads r on r.notification_id = n.id and r.user_id = $1
    where (n.everyone or exists (select 1 from notification_recipients x where x.notification_id = n.id and x.user_id = $1))";

const UPDATES_FOR: &str =
    "select u.id, u.name, u.release, u.preview, u.gallery, u.url, u.published_at,
        (v.user_id is not null) as read
    from app_updates u
    left join app_update_views v on v.update_id = u.id and v.user_id = $1";

const UNREAD_NOTIFICATIONS: &str = "select count(*) from notifications n
    where (n.everyone or exists (select 1 from notification_recipients x where x.notification_id = n.id and x.user_id = $1))
      and not exists (select 1 from notification_reads r where r.notification_id = n.id and r.user_id = $1)";

const UNREAD_UPDATES: &str = "select count(*) from app_updates u
    where not exists (select 1 from app_update_views v where v.update_id = u.id and v.user_id = $1)";

/// The user's notifications, newest first.
pub async fn notifications_for(
    db: &Db,
    user_id: &str,
) -> Result<Vec<NotificationItem>, sqlx::Error> {
    let sql = format!("{NOTIFICATIONS_FOR} order by n.published_at desc, n.id desc");
    let rows: Vec<NotificationRow> =
        on_db!(db, pool => sqlx::query_as(&sql).bind(user_id).fetch_all(pool).await)?;
    Ok(rows.into_iter().map(Into::into).collect())
}

/// One notification, when it exists and is addressed to the user.
pub async fn notification_for(
    db: &Db,
    user_id: &str,
    id: i64,
) -> Result<Option<NotificationItem>, sqlx::Error> {
    let sql = format!("{NOTIFICATIONS_FOR} and n.id = $2");
    let row: Option<NotificationRow> =
        on_db!(db, pool => sqlx::query_as(&sql).bind(user_id).bind(id).fetch_optional(pool).await)?;
    Ok(row.map(Into::into))
}

/// Every app update with the user's read flag, newest first.
pub async fn updates_for(db: &Db, user_id: &str) -> Result<Vec<UpdateItem>, sqlx::Error> {
    let sql = format!("{UPDATES_FOR} order by u.published_at desc, u.id desc");
    let rows: Vec<UpdateRow> =
        on_db!(db, pool => sqlx::query_as(&sql).bind(user_id).fetch_all(pool).await)?;
    Ok(rows.into_iter().map(Into::into).collect())
}

/// One app update with the user's read flag.
pub async fn update_for(
    db: &Db,
    user_id: &str,
    id: i64,
) -> Result<Option<UpdateItem>, sqlx::Error> {
    let sql = format!("{UPDATES_FOR} where u.id = $2");
    let row: Option<UpdateRow> =
        on_db!(db, pool => sqlx::query_as(&sql).bind(user_id).bind(id).fetch_optional(pool).await)?;
    Ok(row.map(Into::into))
}

/// The newest app update, when the user has not viewed it yet.
pub async fn latest_update_unviewed(db: &Db, user_id: &str) -> Result<Option<i64>, sqlx::Error> {
    let sql = format!("{UPDATES_FOR} order by u.published_at desc, u.id desc limit 1");
    let row: Option<UpdateRow> =
        on_db!(db, pool => sqlx::query_as(&sql).bind(user_id).fetch_optional(pool).await)?;
    Ok(row.filter(|r| !r.read).map(|r| r.id))
}

/// The user's unread counts and the number of the last broadcast they include, read from one
/// snapshot (a publication for everyone commits its row and its broadcast together, so the two
/// agree).
pub async fn unread_counts_through(
    db: &Db,
    user_id: &str,
) -> Result<(UnreadCounts, i64), sqlx::Error> {
    let mut tx = Tx::begin(db).await?;
    if let Tx::Postgres(c) = &mut tx {
        sqlx::query("set transaction isolation level repeatable read, read only")
            .execute(&mut **c)
            .await?;
    }
    let notifications: i64 = on_tx!(&mut tx, c => sqlx::query_scalar(UNREAD_NOTIFICATIONS)
        .bind(user_id).fetch_one(c).await)?;
    let updates: i64 = on_tx!(&mut tx, c => sqlx::query_scalar(UNREAD_UPDATES)
        .bind(user_id).fetch_one(c).await)?;
    let through = feed::last_broadcast(&mut tx).await?;
    tx.rollback().await?;
    Ok((
        UnreadCounts {
            notifications,
            updates,
        },
        through,
    ))
}

/// Builds the notification and app-update read models.
pub struct NotificationsProjection;

const TABLES: &[TableSpec] = &[
    TableSpec {
        name: "notifications",
        order_by: "id",
    },
    TableSpec {
        name: "notification_recipients",
        order_by: "notification_id, user_id",
    },
    TableSpec {
        name: "notification_reads",
        order_by: "notification_id, user_id",
    },
    TableSpec {
        name: "app_updates",
        order_by: "id",
    },
    TableSpec {
        name: "app_update_views",
        order_by: "update_id, user_id",
    },
];

#[derive(Serialize)]
struct NotificationMessage<'a> {
    notification: &'a NotificationItem,
}

#[derive(Serialize)]
struct UpdateMessage<'a> {
    update: &'a UpdateItem,
}

#[derive(Serialize)]
struct BadgeMessage {
    name: &'static str,
    count: i64,
    /// The last broadcast the count includes.
    through: i64,
}

async fn notification_in_tx(
    tx: &mut Tx,
    user_id: &str,
    id: i64,
) -> Result<Option<NotificationItem>, sqlx::Error> {
    let sql = format!("{NOTIFICATIONS_FOR} and n.id = $2");
    let row: Option<NotificationRow> =
        on_tx!(tx, c => sqlx::query_as(&sql).bind(user_id).bind(id).fetch_optional(c).await)?;
    Ok(row.map(Into::into))
}

async fn update_in_tx(
    tx: &mut Tx,
    user_id: &str,
    id: i64,
) -> Result<Option<UpdateItem>, sqlx::Error> {
    let sql = format!("{UPDATES_FOR} where u.id = $2");
    let row: Option<UpdateRow> =
        on_tx!(tx, c => sqlx::query_as(&sql).bind(user_id).bind(id).fetch_optional(c).await)?;
    Ok(row.map(Into::into))
}

/// Tells `user_id` about notification `id` and their new unread count.
async fn push_notification(
    tx: &mut Tx,
    user_id: &str,
    id: i64,
    at: i64,
) -> Result<(), sqlx::Error> {
    let Some(item) = notification_in_tx(tx, user_id, id).await? else {
        return Ok(());
    };
    feed::push(
        tx,
        user_id,
        "notification",
        &NotificationMessage {
            notification: &item,
        },
        at,
    )
    .await?;
    let count: i64 = on_tx!(tx, c => sqlx::query_scalar(UNREAD_NOTIFICATIONS)
        .bind(user_id).fetch_one(c).await)?;
    let through = feed::broadcast_through(tx).await?;
    feed::push(
        tx,
        user_id,
        "badge",
        &BadgeMessage {
            name: "notifications",
            count,
            through,
        },
        at,
    )
    .await?;
    Ok(())
}

/// Tells everyone about notification `id`: one broadcast. The item is read for no user in
/// particular: nobody can have read a notification in the event that publishes it.
async fn broadcast_notification(tx: &mut Tx, id: i64, at: i64) -> Result<(), sqlx::Error> {
    let Some(item) = notification_in_tx(tx, "", id).await? else {
        return Ok(());
    };
    feed::push_broadcast(
        tx,
        "notification",
        &NotificationMessage {
            notification: &item,
        },
        at,
    )
    .await
}

/// Tells everyone about app update `id`: one broadcast (nobody has viewed it yet).
async fn broadcast_update(tx: &mut Tx, id: i64, at: i64) -> Result<(), sqlx::Error> {
    let Some(item) = update_in_tx(tx, "", id).await? else {
        return Ok(());
    };
    feed::push_broadcast(tx, "app_update", &UpdateMessage { update: &item }, at).await
}

/// Tells `user_id` about app update `id` and their new unread count.
async fn push_update(tx: &mut Tx, user_id: &str, id: i64, at: i64) -> Result<(), sqlx::Error> {
    let Some(item) = update_in_tx(tx, user_id, id).await? else {
        return Ok(());
    };
    feed::push(
        tx,
        user_id,
        "app_update",
        &UpdateMessage { update: &item },
        at,
    )
    .await?;
    let count: i64 =
        on_tx!(tx, c => sqlx::query_scalar(UNREAD_UPDATES).bind(user_id).fetch_one(c).await)?;
    let through = feed::broadcast_through(tx).await?;
    feed::push(
        tx,
        user_id,
        "badge",
        &BadgeMessage {
            name: "updates",
            count,
            through,
        },
        at,
    )
    .await?;
    Ok(())
}

impl NotificationsProjection {
    async fn notification(&self, tx: &mut Tx, event: &StoredEvent) -> Result<(), ProjectionError> {
        let NotificationEvent::Published {
            id,
            title,
            message,
            preview,
            link,
            audience,
            published_at,
        } = event
            .decode()
            .map_err(|e| ProjectionError::bad_event(event, e))?;
        let everyone = matches!(audience, Audience::Everyone);
        let (link_type, link_id) = match link {
            Some(Link { kind, id }) => (Some(kind), id),
            None => (None, None),
        };
        on_tx!(tx, c => sqlx::query(
            "insert into notifications (id, title, message, preview, link_type, link_id, everyone, published_at, published_by)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9)")
            .bind(id).bind(&title).bind(&message).bind(&preview).bind(&link_type).bind(link_id)
            .bind(everyone).bind(published_at).bind(event.meta("user_id").unwrap_or_default())
            .execute(c).await.map(|r| r.rows_affected()))?;
        match audience {
            Audience::Everyone => broadcast_notification(tx, id, event.recorded_at).await?,
            Audience::Users { user_ids } => {
                for user_id in &user_ids {
                    on_tx!(tx, c => sqlx::query(
                        "insert into notification_recipients (notification_id, user_id) values ($1, $2)")
                        .bind(id).bind(user_id).execute(c).await.map(|r| r.rows_affected()))?;
                }
                for user_id in &user_ids {
                    push_notification(tx, user_id, id, event.recorded_at).await?;
                }
            }
        }
        Ok(())
    }

    async fn update(&self, tx: &mut Tx, event: &StoredEvent) -> Result<(), ProjectionError> {
        let AppUpdateEvent::Published {
            id,
            name,
            release,
            preview,
            gallery,
            url,
            published_at,
        } = event
            .decode()
            .map_err(|e| ProjectionError::bad_event(event, e))?;
        let gallery =
            serde_json::to_string(&gallery).map_err(|e| ProjectionError::bad_event(event, e))?;
        on_tx!(tx, c => sqlx::query(
            "insert into app_updates (id, name, release, preview, gallery, url, published_at, published_by)
             values ($1, $2, $3, $4, $5, $6, $7, $8)")
            .bind(id).bind(&name).bind(&release).bind(&preview).bind(&gallery).bind(&url)
            .bind(published_at).bind(event.meta("user_id").unwrap_or_default())
            .execute(c).await.map(|r| r.rows_affected()))?;
        broadcast_update(tx, id, event.recorded_at).await?;
        Ok(())
    }

    async fn inbox(&self, tx: &mut Tx, event: &StoredEvent) -> Result<(), ProjectionError> {
        match event
            .decode::<InboxEvent>()
            .map_err(|e| ProjectionError::bad_event(event, e))?
        {
            InboxEvent::NotificationRead {
                user_id,
                notification_id,
                at,
            } => {
                on_tx!(tx, c => sqlx::query(
                    "insert into notification_reads (notification_id, user_id, read_at) values ($1, $2, $3)")
                    .bind(notification_id).bind(&user_id).bind(at)
                    .execute(c).await.map(|r| r.rows_affected()))?;
                push_notification(tx, &user_id, notification_id, event.recorded_at).await?;
            }
            InboxEvent::UpdateViewed {
                user_id,
                update_id,
                at,
            } => {
                on_tx!(tx, c => sqlx::query(
                    "insert into app_update_views (update_id, user_id, viewed_at) values ($1, $2, $3)")
                    .bind(update_id).bind(&user_id).bind(at)
                    .execute(c).await.map(|r| r.rows_affected()))?;
                push_update(tx, &user_id, update_id, event.recorded_at).await?;
            }
        }
        Ok(())
    }
}

#[async_trait]
impl Projection for NotificationsProjection {
    fn name(&self) -> &'static str {
        "notifications"
    }

    fn tables(&self) -> &'static [TableSpec] {
        TABLES
    }

    fn reads(&self, aggregate_type: &str) -> bool {
        [Notification::TYPE, AppUpdate::TYPE, Inbox::TYPE].contains(&aggregate_type)
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> Result<(), ProjectionError> {
        match event.aggregate_type.as_str() {
            Notification::TYPE => self.notification(tx, event).await,
            AppUpdate::TYPE => self.update(tx, event).await,
            Inbox::TYPE => self.inbox(tx, event).await,
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_rfc3339_in_utc() {
        assert_eq!(rfc3339(1_776_675_600_000), "2026-04-20T09:00:00Z");
    }
}
