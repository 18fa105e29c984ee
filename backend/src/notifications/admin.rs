//! Publishing notifications and app updates: admin role only (403 for everyone else).

use axum::extract::State;
use axum::http::StatusCode;
use projections::now_ms;

use super::publish::{self, NotificationRequest, Published, UpdateRequest};
use crate::auth::AuthUser;
use crate::error::{AppError, AppJson, AppResult, ErrorBody};
use crate::event_store::Metadata;
use crate::state::AppState;

fn require_admin(auth: &AuthUser) -> AppResult<()> {
    if auth.is_admin() {
        Ok(())
    } else {
        Err(AppError::forbidden(
            "Only administrators can publish notifications and app updates",
        ))
    }
}

/// Publishes a notification to everyone or to chosen users. The message HTML is sanitised; the
/// addressees get it at once in their list, badge and live feed.
#[utoipa::path(post, path = "/admin/notifications", tag = "notifications", security(("bearer" = [])),
    request_body = NotificationRequest,
    responses((status = 201, body = Published), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn publish_notification(
    State(state): State<AppState>,
    auth: AuthUser,
    body: Result<AppJson<NotificationRequest>, AppError>,
) -> AppResult<(StatusCode, AppJson<Published>)> {
    // The role is checked before the body, so a non-admin always gets 403.
    require_admin(&auth)?;
    let AppJson(request) = body?;
    let (id, _) = publish::notification(
        &state.db,
        &state.notifications,
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
    State(state): State<AppState>,
    auth: AuthUser,
    body: Result<AppJson<UpdateRequest>, AppError>,
) -> AppResult<(StatusCode, AppJson<Published>)> {
    require_admin(&auth)?;
    let AppJson(request) = body?;
    let (id, _) = publish::update(
        &state.db,
        &state.notifications,
        request,
        None,
        now_ms(),
        Metadata::by(&auth.id),
    )
    .await?;
    tracing::info!(id, by = %auth.id, "app update published");
    Ok((StatusCode::CREATED, AppJson(Published { id })))
}
