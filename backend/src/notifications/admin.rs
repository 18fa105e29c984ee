//! Publishing notifications and app updates: admin role only (403 for everyone else).

use axum::extract::State;
use axum::http::StatusCode;
use projections::now_ms;

use super::publish::{self, NotificationRequest, Published, UpdateRequest};
use super::Notifications;
use crate::auth::{Authorized, Role};
use crate::error::{AppJson, AppResult, ErrorBody};
use crate::event_store::Metadata;

crate::auth::role_policy!(
    /// Who may publish notifications and app updates.
    pub Publisher: [Role::Admin],
    "Only administrators can publish notifications and app updates"
);

/// Publishes a notification to everyone or to chosen users. The message HTML is sanitised; the
/// addressees get it at once in their list, badge and live feed.
#[utoipa::path(post, path = "/admin/notifications", tag = "notifications", security(("bearer" = [])),
    request_body = NotificationRequest,
    responses((status = 201, body = Published), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn publish_notification(
    State(state): State<Notifications>,
    auth: Authorized<Publisher>,
    AppJson(request): AppJson<NotificationRequest>,
) -> AppResult<(StatusCode, AppJson<Published>)> {
    let (id, _) = publish::notification(
        &state.db,
        &state.stores,
        request,
        None,
        now_ms(),
        Metadata::by(&auth.id),
    )
    .await?;
    tracing::info!(id, by = %auth.id, "notification published");
    Ok((StatusCode::CREATED, AppJson(Published { id })))
}

/// Publishes an app update to everyone. It becomes the `update_id` of every user's next sign-in
/// until they view it.
#[utoipa::path(post, path = "/admin/updates", tag = "notifications", security(("bearer" = [])),
    request_body = UpdateRequest,
    responses((status = 201, body = Published), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn publish_update(
    State(state): State<Notifications>,
    auth: Authorized<Publisher>,
    AppJson(request): AppJson<UpdateRequest>,
) -> AppResult<(StatusCode, AppJson<Published>)> {
    let (id, _) = publish::update(
        &state.db,
        &state.stores,
        request,
        None,
        now_ms(),
        Metadata::by(&auth.id),
    )
    .await?;
    tracing::info!(id, by = %auth.id, "app update published");
    Ok((StatusCode::CREATED, AppJson(Published { id })))
}
