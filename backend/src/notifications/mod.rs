//! Notifications, app updates, survey messages and call-to-action urls (spec 2.9, 2.10, 7).
//!
//! - [`api`] - what a signed-in user reads: the notification list and detail (opening one marks
//!   it read), the app updates (opening one records the view), the unread badges.
//! - [`admin`] - publishing, for the admin role only.
//! - [`publish`] - the one publishing path shared by the API, the command line and the demo seed.
//! - [`services`] - what the aggregates look up: users by e-mail, and publications straight from
//!   the event store.
//! - [`messages`] - survey-style messages addressed to users, and the users' answers.
//! - [`cta`] - the call-to-action urls.
//! - [`demo`] - the demo notifications, updates and messages published on first start.
//! - [`cli`] - `companion publish notification|update`.

pub mod admin;
pub mod api;
pub mod cli;
pub mod cta;
pub mod demo;
pub mod messages;
pub mod publish;
pub mod services;

/// Publishes a notification (see [`publish::notification`]).
pub use publish::notification as publish_notification;
pub use publish::{AudienceInput, LinkRequest, NotificationRequest};

use std::sync::Arc;

use axum::extract::FromRef;
use events::notifications::{InboxError, PublishError};
use projections::Db;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::Auth;
use crate::config::Config;
use crate::error::AppError;

/// What the notification calls work with.
#[derive(Clone)]
pub struct Notifications {
    pub db: Db,
    /// The command side of notifications, app updates and inboxes.
    pub stores: Arc<services::Stores>,
}

pub fn router<S>() -> OpenApiRouter<S>
where
    S: Clone + Send + Sync + 'static,
    Notifications: FromRef<S>,
    Arc<Config>: FromRef<S>,
    Auth: FromRef<S>,
{
    OpenApiRouter::new()
        .routes(routes!(api::list_notifications))
        .routes(routes!(api::open_notification))
        .routes(routes!(api::list_updates))
        .routes(routes!(api::open_update))
        .routes(routes!(api::badges))
        .routes(routes!(admin::publish_notification))
        .routes(routes!(admin::publish_update))
        .routes(routes!(messages::list_messages, messages::set_status))
        .routes(routes!(messages::reply))
        .routes(routes!(cta::url_cta))
}

impl From<PublishError> for AppError {
    fn from(e: PublishError) -> Self {
        match e {
            PublishError::AlreadyPublished => AppError::Conflict(e.to_string()),
            PublishError::Directory(cause) => cause.into(),
            other => AppError::BadRequest(other.to_string()),
        }
    }
}

impl From<InboxError> for AppError {
    fn from(e: InboxError) -> Self {
        match e {
            // Someone else's notification is answered exactly like a missing one.
            InboxError::NotificationNotFound | InboxError::NotAddressed => {
                AppError::not_found("Notification not found")
            }
            InboxError::UpdateNotFound => AppError::not_found("App update not found"),
            InboxError::AlreadyRead | InboxError::AlreadyViewed => {
                AppError::Conflict(e.to_string())
            }
            InboxError::WrongInbox => AppError::forbidden(e.to_string()),
            InboxError::Lookup(cause) => cause.into(),
        }
    }
}
