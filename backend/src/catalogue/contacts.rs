//! The contacts directory (spec 2.14).

use axum::extract::State;
use projections::{on_db, Db};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::RawJson;
use crate::auth::AuthUser;
use crate::error::{AppError, AppResult, ErrorBody};
use crate::ids::ContactId;

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Voice {
    pub id: i64,
    pub title: String,
    pub subtitle: String,
}

/// A tab of the directory and its entries.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ContactSection {
    pub tab: String,
    pub voices: Vec<Voice>,
}

/// A directory entry's detail; absent fields are left out.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Subsidiary {
    pub id: i64,
    pub title: String,
    /// Sanitised HTML.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fax: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
}

/// The sections of the directory, each with its tab label and entries.
#[utoipa::path(get, path = "/contacts", tag = "content", security(("bearer" = [])),
    responses((status = 200, body = Vec<ContactSection>), (status = 401, body = ErrorBody)))]
pub async fn sections(State(db): State<Db>, _auth: AuthUser) -> AppResult<RawJson> {
    let rows: Vec<String> = on_db!(&db, pool => sqlx::query_scalar(
        "select data from contact_sections order by position, id")
        .fetch_all(pool).await)?;
    Ok(RawJson(format!("[{}]", rows.join(","))))
}

/// One entry (subsidiary, office) of the directory.
#[utoipa::path(get, path = "/contacts/{id}", tag = "content", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Entry (voice) id")),
    responses((status = 200, body = Subsidiary), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn subsidiary(
    State(db): State<Db>,
    _auth: AuthUser,
    ContactId(id): ContactId,
) -> AppResult<RawJson> {
    let row: Option<String> = on_db!(&db, pool => sqlx::query_scalar(
        "select data from contact_subsidiaries where id = $1")
        .bind(id).fetch_optional(pool).await)?;
    row.map(RawJson)
        .ok_or_else(|| AppError::not_found("Contact not found"))
}
