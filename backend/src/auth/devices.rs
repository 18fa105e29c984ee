//! The devices a user signs in from: their registration (`POST /users/register-device`), the
//! Web Push subscription that comes with it, and the key browsers subscribe with.

use std::sync::Arc;

use axum::extract::{FromRef, State};
use projections::{now_ms, on_db, Db};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::login::{current_user, ResultResponse};
use super::{Auth, AuthUser};
use crate::error::{AppError, AppJson, AppResult, ErrorBody};
use crate::push::Push;

pub fn router<S>() -> OpenApiRouter<S>
where
    S: Clone + Send + Sync + 'static,
    Auth: FromRef<S>,
    Arc<Push>: FromRef<S>,
{
    OpenApiRouter::new()
        .routes(routes!(register_device))
        .routes(routes!(public_key))
}

#[derive(Deserialize, ToSchema)]
pub struct DeviceRequest {
    /// The web app's push subscription as JSON (`{"endpoint": "https://...", "keys": {"p256dh":
    /// "...", "auth": "..."}}`, endpoint on one of `PUSH_SERVICES`, else 400): stored for this
    /// device (`uuid`) and session, replacing the previous one; absent or empty: this device's
    /// subscription is removed (push turned off).
    pub push_id: Option<String>,
    pub os: Option<String>,
    pub uuid: Option<String>,
    pub app_version: Option<String>,
    pub browser: Option<String>,
    pub device: Option<String>,
}

const MAX_DEVICE_FIELD_LEN: usize = 512;
/// A push subscription's JSON (endpoints of some push services are long).
const MAX_PUSH_ID_LEN: usize = 4096;

/// Registers the device the app runs on (for push notifications). A web push subscription in
/// `push_id` is checked first (400 when it is not one, or its endpoint is not on a known push
/// service) and kept for this device and session until sign-out, revocation, or the push
/// service says it is gone.
#[utoipa::path(post, path = "/users/register-device", request_body = DeviceRequest, tag = "session",
    security(("bearer" = [])),
    responses((status = 200, body = ResultResponse), (status = 400, body = crate::error::ErrorBody),
        (status = 401, body = crate::error::ErrorBody)))]
pub async fn register_device(
    State(state): State<Auth>,
    State(push): State<Arc<Push>>,
    auth: AuthUser,
    AppJson(body): AppJson<DeviceRequest>,
) -> AppResult<AppJson<ResultResponse>> {
    if body
        .push_id
        .as_ref()
        .is_some_and(|p| p.len() > MAX_PUSH_ID_LEN)
    {
        return Err(AppError::bad_request(format!(
            "push_id must be at most {MAX_PUSH_ID_LEN} characters"
        )));
    }
    let fields = [
        &body.os,
        &body.uuid,
        &body.app_version,
        &body.browser,
        &body.device,
    ];
    if fields
        .iter()
        .any(|f| f.as_ref().is_some_and(|v| v.len() > MAX_DEVICE_FIELD_LEN))
    {
        return Err(AppError::bad_request(format!(
            "Device fields must be at most {MAX_DEVICE_FIELD_LEN} characters"
        )));
    }
    let user = current_user(&state, &auth).await?;
    register_subscription(
        &state.db,
        &push,
        &user.id,
        &auth.session_id,
        body.uuid.as_deref(),
        body.push_id.as_deref(),
    )
    .await?;
    let _guard = state.db.write_guard().await;
    on_db!(&state.db, pool => async {
        let mut tx = pool.begin().await?;
        // One row per device: a re-registration replaces the earlier one.
        if let Some(uuid) = body.uuid.as_deref().filter(|u| !u.is_empty()) {
            sqlx::query("delete from devices where user_id = $1 and uuid = $2")
                .bind(&user.id).bind(uuid).execute(&mut *tx).await?;
        }
        sqlx::query("insert into devices (user_id, push_id, os, uuid, app_version, browser, device, registered_at)
                     values ($1, $2, $3, $4, $5, $6, $7, $8)")
            .bind(&user.id).bind(&body.push_id).bind(&body.os).bind(&body.uuid)
            .bind(&body.app_version).bind(&body.browser).bind(&body.device).bind(now_ms())
            .execute(&mut *tx).await?;
        tx.commit().await
    }.await)?;
    Ok(AppJson(ResultResponse { result: true }))
}

/// The key browsers subscribe with.
#[derive(Serialize, ToSchema)]
pub struct PushKey {
    /// The VAPID public key (`applicationServerKey`), base64url of the uncompressed P-256 point.
    pub public_key: String,
    /// False when the server pushes nothing (`PUSH_ENABLED=false`): the app offers no push.
    pub enabled: bool,
}

/// The public key the app subscribes to push with (`pushManager.subscribe`); the subscription
/// then goes to `POST /users/register-device` as `push_id`.
#[utoipa::path(get, path = "/web-push/key", tag = "session", security(("bearer" = [])),
    responses((status = 200, body = PushKey), (status = 401, body = ErrorBody)))]
pub async fn public_key(
    State(push): State<Arc<Push>>,
    _auth: AuthUser,
) -> AppResult<AppJson<PushKey>> {
    Ok(AppJson(PushKey {
        public_key: push.keys.public_key(),
        enabled: push.settings.enabled,
    }))
}

/// `push_id` of a device registration: a subscription stored for this device and session, or
/// (no `push_id`) that device's subscription removed. Refusals are 400s.
async fn register_subscription(
    db: &Db,
    push: &Push,
    user_id: &str,
    session_id: &str,
    device: Option<&str>,
    push_id: Option<&str>,
) -> AppResult<()> {
    let push_id = push_id.map(str::trim).filter(|p| !p.is_empty());
    let device = device.map(str::trim).filter(|d| !d.is_empty());
    let subscription = match push_id {
        // A native app's token, or nothing: no web subscription.
        Some(p) if p.starts_with('{') => Some(
            crate::push::parse_subscription(p, &push.settings.services)
                .map_err(|e| AppError::bad_request(e.to_string()))?,
        ),
        _ => None,
    };
    let Some(device) = device else {
        if subscription.is_some() {
            return Err(AppError::bad_request(
                crate::push::SubscriptionError::NoDevice.to_string(),
            ));
        }
        return Ok(());
    };
    crate::push::store_subscription(db, user_id, session_id, device, subscription.as_ref()).await?;
    Ok(())
}
