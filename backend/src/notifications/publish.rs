//! Publishing a notification or an app update: the request shapes (the admin API, the command
//! line's JSON file and the demo content share them), id allocation, and the command.

use events::notifications::AppUpdate;
use events::notifications::{
    AppUpdateCommand, AudienceRequest, GalleryImage, Link, Notification, NotificationCommand,
};
use projections::{on_db, Db, Position};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::services::Stores;
use crate::error::{AppError, AppResult};
use crate::event_store::Metadata;

/// A notification to publish.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct NotificationRequest {
    /// Required, at most 200 characters.
    #[serde(default)]
    pub title: String,
    /// HTML; sanitised on the server (scripts, styles, event handlers and unknown tags go).
    #[serde(default)]
    pub message: String,
    /// Preview image: a path of this app (`/media/...`) or an http(s) address.
    pub preview: Option<String>,
    pub link: Option<LinkRequest>,
    /// `"everyone"` (the default) or a list of user e-mails.
    pub audience: Option<AudienceInput>,
}

/// Where a notification leads (spec 2.9): `products`, `training`, `learn`, `congress`, `news` with
/// an optional id, or a section of the app without id (`useful`, `documents`, `contacts`, ...).
#[derive(Debug, Clone, Default, Deserialize, Serialize, ToSchema)]
pub struct LinkRequest {
    #[serde(rename = "type", default)]
    pub kind: String,
    pub id: Option<i64>,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum AudienceInput {
    /// `"everyone"`.
    Keyword(String),
    /// User e-mails.
    Emails(Vec<String>),
}

impl AudienceInput {
    fn into_request(self) -> AppResult<AudienceRequest> {
        match self {
            AudienceInput::Keyword(k) if k.trim().eq_ignore_ascii_case("everyone") => {
                Ok(AudienceRequest::Everyone)
            }
            AudienceInput::Keyword(_) => Err(AppError::bad_request(
                "The audience is \"everyone\" or a list of e-mails",
            )),
            AudienceInput::Emails(emails) => Ok(AudienceRequest::Emails(emails)),
        }
    }
}

/// An app update to publish.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct UpdateRequest {
    /// Required, at most 200 characters.
    #[serde(default)]
    pub name: String,
    /// e.g. `2.7.0`; required.
    #[serde(default)]
    pub release: String,
    pub preview: Option<String>,
    /// The big images of the wizard, in order: at least one.
    #[serde(default)]
    pub gallery: Vec<GalleryInput>,
    /// Where 'Discover more' leads (`/app/...` paths lose the `/app` prefix in the app); none
    /// shows 'Close'.
    pub url: Option<String>,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum GalleryInput {
    /// The image address alone.
    Url(String),
    Image {
        #[serde(alias = "image")]
        big: String,
        title: Option<String>,
    },
}

impl From<GalleryInput> for GalleryImage {
    fn from(input: GalleryInput) -> Self {
        match input {
            GalleryInput::Url(big) => GalleryImage { big, title: None },
            GalleryInput::Image { big, title } => GalleryImage { big, title },
        }
    }
}

/// The answer to a publication.
#[derive(Debug, Serialize, ToSchema)]
pub struct Published {
    pub id: i64,
}

pub const NOTIFICATION: &str = "notification";
pub const UPDATE: &str = "update";

/// Hands out the next id of `kind` (one statement, atomic on both engines).
///
/// On PostgreSQL the statement's commit does not wait for the log to reach the disk
/// (`synchronous_commit` off for its own transaction only): an id is used only by a later
/// command, whose commit flushes the log up to and past this increment, so a crash can undo an
/// increment only when no publication took its id. A publication then waits for one flush, not
/// two.
pub async fn next_id(db: &Db, kind: &str) -> AppResult<i64> {
    /// The counter's upsert, with the row it inserts when `kind` has none yet.
    macro_rules! bump {
        ($first_row:literal) => {
            concat!(
                "insert into publication_counters (kind, last_id) ",
                $first_row,
                " on conflict (kind) do update set last_id = publication_counters.last_id + 1
                 returning last_id"
            )
        };
    }
    let id: i64 = match db {
        Db::Sqlite { pool, .. } => {
            sqlx::query_scalar(bump!("values ($1, 1)"))
                .bind(kind)
                .fetch_one(pool)
                .await?
        }
        Db::Postgres { pool } => {
            sqlx::query_scalar(bump!(
                "select $1, 1 from (select set_config('synchronous_commit', 'off', true)) as commit_without_flush"
            ))
            .bind(kind)
            .fetch_one(pool)
            .await?
        }
    };
    Ok(id)
}

/// Makes sure ids up to `id` are never handed out again (the demo content keeps its own ids).
pub async fn reserve_id(db: &Db, kind: &str, id: i64) -> AppResult<()> {
    on_db!(db, pool => sqlx::query(
        "insert into publication_counters (kind, last_id) values ($1, $2)
         on conflict (kind) do update set last_id =
           case when publication_counters.last_id < $2 then $2 else publication_counters.last_id end")
        .bind(kind).bind(id).execute(pool).await.map(|r| r.rows_affected()))?;
    Ok(())
}

/// Publishes a notification under `id` (a new one when none); returns its id.
pub async fn notification(
    db: &Db,
    stores: &Stores,
    request: NotificationRequest,
    id: Option<i64>,
    published_at: i64,
    metadata: Metadata,
) -> AppResult<(i64, Position)> {
    let audience = request
        .audience
        .map(AudienceInput::into_request)
        .transpose()?
        .unwrap_or(AudienceRequest::Everyone);
    let id = match id {
        Some(id) => id,
        None => next_id(db, NOTIFICATION).await?,
    };
    let command = NotificationCommand::Publish {
        id,
        title: request.title,
        message: request.message,
        preview: request.preview,
        link: request.link.map(|l| Link {
            kind: l.kind,
            id: l.id,
        }),
        audience,
        published_at,
    };
    let position = stores
        .notifications
        .execute(&Notification::aggregate_id(id), command, metadata)
        .await?;
    Ok((id, position))
}

/// Publishes an app update under `id` (a new one when none); returns its id.
pub async fn update(
    db: &Db,
    stores: &Stores,
    request: UpdateRequest,
    id: Option<i64>,
    published_at: i64,
    metadata: Metadata,
) -> AppResult<(i64, Position)> {
    let id = match id {
        Some(id) => id,
        None => next_id(db, UPDATE).await?,
    };
    let command = AppUpdateCommand::Publish {
        id,
        name: request.name,
        release: request.release,
        preview: request.preview,
        gallery: request.gallery.into_iter().map(Into::into).collect(),
        url: request.url,
        published_at,
    };
    let position = stores
        .updates
        .execute(&AppUpdate::aggregate_id(id), command, metadata)
        .await?;
    Ok((id, position))
}
