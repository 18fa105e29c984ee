//! The auditor's workspace: every document and folder (deleted ones included) by name, owner,
//! type and date, and the company's document activity for a period, in pages or as CSV. For
//! auditors only (403 for anyone else). Read from the `audit` projection.
//!
//! - [`projection`] - `audit_items` and `audit_activity`, built from `document_item` events.
//! - [`api`] - `GET /audit/items`, `GET /audit/activity`, `GET /audit/activity.csv`.

pub mod api;
pub mod projection;

use axum::extract::FromRef;
use projections::Db;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::Auth;

pub use projection::AuditProjection;

pub fn router<S>() -> OpenApiRouter<S>
where
    S: Clone + Send + Sync + 'static,
    Db: FromRef<S>,
    Auth: FromRef<S>,
{
    OpenApiRouter::new()
        .routes(routes!(api::items))
        .routes(routes!(api::activity))
        .routes(routes!(api::activity_csv))
}
