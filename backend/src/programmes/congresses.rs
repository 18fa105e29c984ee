//! Congresses and events (spec 2.18): the list with its year filter, the home carousel, the tabbed
//! detail and the activity page.

use axum::extract::State;
use chrono::Utc;
use projections::on_db;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::items::{Activity, CongressDetail, CongressRow};
use super::Programmes;
use super::{filters, load_item, parse_rows, selected_year, Filters, Table};
use crate::auth::AuthUser;
use crate::error::{AppError, AppJson, AppQuery, AppResult};
use crate::ids::{ActivityId, CongressId};

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
    pub list: Vec<CongressRow>,
    /// `{year: [{value, label}], type: [...]}`.
    pub filters: Filters,
    pub selected: CongressSelection,
}

/// Lists the congresses and events of a year, in date order.
#[utoipa::path(get, path = "/congresses", params(CongressQuery), tag = "programmes",
    responses((status = 200, body = CongressList), (status = 400, body = crate::error::ErrorBody),
        (status = 401, body = crate::error::ErrorBody)),
    security(("bearer" = [])))]
pub async fn list(
    State(state): State<Programmes>,
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
    pub list: Vec<CongressRow>,
}

/// The upcoming congresses and events, for the Home carousel.
#[utoipa::path(get, path = "/congresses/home", tag = "programmes",
    responses((status = 200, body = CongressHome), (status = 401, body = crate::error::ErrorBody)),
    security(("bearer" = [])))]
pub async fn home(
    State(state): State<Programmes>,
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
#[utoipa::path(get, path = "/congresses/{id}", tag = "programmes",
    params(("id" = i64, Path, description = "Congress id")),
    responses((status = 200, description = "The congress", body = CongressDetail),
        (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)),
    security(("bearer" = [])))]
pub async fn detail(
    State(state): State<Programmes>,
    _user: AuthUser,
    CongressId(id): CongressId,
) -> AppResult<AppJson<CongressDetail>> {
    load_item(&state, Table::Congresses, id)
        .await?
        .map(AppJson)
        .ok_or_else(|| AppError::not_found(CongressId::NOT_FOUND))
}

/// A congress activity: image, subtitles, location, dates, description, faculty (`experts`),
/// files, its congress (`parent_id`, `parent_name`) and a `calendar` address.
#[utoipa::path(get, path = "/congresses/activities/{id}", tag = "programmes",
    params(("id" = i64, Path, description = "Activity id")),
    responses((status = 200, description = "The activity", body = Activity),
        (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)),
    security(("bearer" = [])))]
pub async fn activity(
    State(state): State<Programmes>,
    _user: AuthUser,
    ActivityId(id): ActivityId,
) -> AppResult<AppJson<Activity>> {
    load_item(&state, Table::Activities, id)
        .await?
        .map(AppJson)
        .ok_or_else(|| AppError::not_found(ActivityId::NOT_FOUND))
}
