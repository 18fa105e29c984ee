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

use axum::routing::{get, post};
use axum::Router;
use events::notifications::{InboxError, PublishError};

use crate::error::AppError;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/notifications", get(api::list_notifications))
        .route("/push/{id}", get(api::open_notification))
        .route("/updates", get(api::list_updates))
        .route("/updates/{id}", get(api::open_update))
        .route("/badges", get(api::badges))
        .route("/admin/notifications", post(admin::publish_notification))
        .route("/admin/updates", post(admin::publish_update))
        .route(
            "/messages",
            get(messages::list_messages).post(messages::set_status),
        )
        .route("/messages/reply", post(messages::reply))
        .route("/url-cta", get(cta::url_cta))
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
