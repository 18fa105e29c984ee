//! Useful links (spec 2.11).

use axum::extract::State;
use projections::{on_db, Db};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::RawJson;
use crate::auth::AuthUser;
use crate::error::{AppResult, ErrorBody};

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct UsefulLink {
    pub id: i64,
    pub title: String,
    pub link: String,
    pub image: String,
}

/// The useful links, in content order.
#[utoipa::path(get, path = "/useful-links-new", tag = "content", security(("bearer" = [])),
    responses((status = 200, body = Vec<UsefulLink>), (status = 401, body = ErrorBody)))]
pub async fn links(State(db): State<Db>, _auth: AuthUser) -> AppResult<RawJson> {
    let rows: Vec<String> = on_db!(&db, pool => sqlx::query_scalar(
        "select data from useful_links order by position, id")
        .fetch_all(pool).await)?;
    Ok(RawJson(format!("[{}]", rows.join(","))))
}
