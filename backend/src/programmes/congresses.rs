//! Congresses and events (spec 2.18): the list with its year filter, the home carousel, the tabbed
//! detail and the activity page.

use axum::extract::{Path, State};
use chrono::Utc;
use projections::on_db;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use super::{filters, load_data, parse_rows, route_id, selected_year, Table};
use crate::auth::AuthUser;
use crate::error::{AppError, AppJson, AppQuery, AppResult};
use crate::state::AppState;

/// Congresses shown in the Home carousel at most.
const HOME_LIMIT: i64 = 10;

#[derive(Debug, Deserialize, IntoParams)]
pub struct CongressQuery {
    /// Year of the first day; the current year when absent.
    pub year: Option<String>,
    /// `congress` or `event`; all when absent.
    #[serde(rename = "type")]
    #[param(rename = "type")]
    pub kind: Option<String>,
}

/// The selected filter values.
#[derive(Debug, Serialize, ToSchema)]
pub struct CongressSelection {
    pub year: String,
    #[serde(rename = "type")]
    pub kind: Option<String>,
}

/// A list with its filter options.
#[derive(Debug, Serialize, ToSchema)]
pub struct CongressList {
    /// Rows: id, name, subtitle, type (`event` or `congress`), dates, date, end_date, preview.
    #[schema(value_type = Vec<Object>)]
    pub list: Vec<Value>,
    /// `{year: [{value, label}], type: [...]}`.
    #[schema(value_type = Object)]
    pub filters: serde_json::Map<String, Value>,
    pub selected: CongressSelection,
}

/// Lists the congresses and events of a year, in date order.
#[utoipa::path(get, path = "/api/congresses", params(CongressQuery), tag = "programmes",
    responses((status = 200, body = CongressList), (status = 400, body = crate::error::ErrorBody),
        (status = 401, body = crate::error::ErrorBody)),
    security(("bearer" = [])))]
pub async fn list(
    State(state): State<AppState>,
    _user: AuthUser,
    AppQuery(query): AppQuery<CongressQuery>,
) -> AppResult<AppJson<CongressList>> {
    let year = selected_year(query.year.as_deref())?;
    let kind = query
        .kind
        .map(|k| k.trim().to_string())
        .filter(|k| !k.is_empty());
    let rows: Vec<String> = on_db!(&state.db, pool => sqlx::query_scalar(
        "select item from congresses where year = $1 and ($2 = '' or type = $2) order by start_date, id")
        .bind(year).bind(kind.clone().unwrap_or_default()).fetch_all(pool).await)?;
    Ok(AppJson(CongressList {
        list: parse_rows(rows)?,
        filters: filters(&state.db, "congresses", Table::Congresses).await?,
        selected: CongressSelection {
            year: year.to_string(),
            kind,
        },
    }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CongressHome {
    /// Congresses and events not over yet, soonest first (same rows as the list).
    #[schema(value_type = Vec<Object>)]
    pub list: Vec<Value>,
}

/// The upcoming congresses and events, for the Home carousel.
#[utoipa::path(get, path = "/api/congresses/home", tag = "programmes",
    responses((status = 200, body = CongressHome), (status = 401, body = crate::error::ErrorBody)),
    security(("bearer" = [])))]
pub async fn home(
    State(state): State<AppState>,
    _user: AuthUser,
) -> AppResult<AppJson<CongressHome>> {
    let today = Utc::now().date_naive().to_string();
    let rows: Vec<String> = on_db!(&state.db, pool => sqlx::query_scalar(
        "select item from congresses where end_date >= $1 order by start_date, id limit $2")
        .bind(&today).bind(HOME_LIMIT).fetch_all(pool).await)?;
    Ok(AppJson(CongressHome {
        list: parse_rows(rows)?,
    }))
}

/// A congress with its tabs: `tabs` maps each tab key (info, details, hotel, day, activities,
/// messages, media, downloads, contacts) to `{title, content}`. Activity groups hold the
/// activities themselves, downloads hold documents, and every 'Save in calendar' place has a
/// `calendar` address.
#[utoipa::path(get, path = "/api/congresses/{id}", tag = "programmes",
    params(("id" = i64, Path, description = "Congress id")),
    responses((status = 200, description = "The congress", body = Object),
        (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)),
    security(("bearer" = [])))]
pub async fn detail(
    State(state): State<AppState>,
    _user: AuthUser,
    Path(id): Path<String>,
) -> AppResult<AppJson<Value>> {
    const NOT_FOUND: &str = "Congress not found";
    let id = route_id(&id, NOT_FOUND)?;
    load_data(&state.db, Table::Congresses, id)
        .await?
        .map(AppJson)
        .ok_or_else(|| AppError::not_found(NOT_FOUND))
}

/// A congress activity: image, subtitles, location, dates, description, faculty (`experts`),
/// files, its congress (`parent_id`, `parent_name`) and a `calendar` address.
#[utoipa::path(get, path = "/api/congresses/activities/{id}", tag = "programmes",
    params(("id" = i64, Path, description = "Activity id")),
    responses((status = 200, description = "The activity", body = Object),
        (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)),
    security(("bearer" = [])))]
pub async fn activity(
    State(state): State<AppState>,
    _user: AuthUser,
    Path(id): Path<String>,
) -> AppResult<AppJson<Value>> {
    const NOT_FOUND: &str = "Activity not found";
    let id = route_id(&id, NOT_FOUND)?;
    load_data(&state.db, Table::Activities, id)
        .await?
        .map(AppJson)
        .ok_or_else(|| AppError::not_found(NOT_FOUND))
}
