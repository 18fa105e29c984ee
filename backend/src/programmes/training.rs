//! Sales training (spec 2.19): the list with its year filter and the tabbed detail.

use axum::extract::{Path, State};
use projections::on_db;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use super::{filters, load_data, parse_rows, route_id, selected_year, Table};
use crate::auth::AuthUser;
use crate::error::{AppError, AppJson, AppQuery, AppResult};
use crate::state::AppState;

#[derive(Debug, Deserialize, IntoParams)]
pub struct TrainingQuery {
    /// Year of the first day; the current year when absent.
    pub year: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TrainingSelection {
    pub year: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TrainingList {
    /// Rows: id, name, subtitle, dates, start_date, end_date, preview.
    #[schema(value_type = Vec<Object>)]
    pub list: Vec<Value>,
    /// `{year: [{value, label}]}`.
    #[schema(value_type = Object)]
    pub filters: serde_json::Map<String, Value>,
    pub selected: TrainingSelection,
}

/// Lists the sales training of a year, in date order.
#[utoipa::path(get, path = "/api/training", params(TrainingQuery), tag = "programmes",
    responses((status = 200, body = TrainingList), (status = 400, body = crate::error::ErrorBody),
        (status = 401, body = crate::error::ErrorBody)),
    security(("bearer" = [])))]
pub async fn list(
    State(state): State<AppState>,
    _user: AuthUser,
    AppQuery(query): AppQuery<TrainingQuery>,
) -> AppResult<AppJson<TrainingList>> {
    let year = selected_year(query.year.as_deref())?;
    let rows: Vec<String> = on_db!(&state.db, pool => sqlx::query_scalar(
        "select item from trainings where year = $1 order by start_date, id")
        .bind(year).fetch_all(pool).await)?;
    Ok(AppJson(TrainingList {
        list: parse_rows(rows)?,
        filters: filters(&state.db, "training", Table::Trainings).await?,
        selected: TrainingSelection {
            year: year.to_string(),
        },
    }))
}

/// A training with its tabs (`tabs` maps info, details, hotel, day, activities, key, downloads and
/// contacts to `{title, content}`), plus `title` (the training's name), text_over_website, website
/// and link. Activity events carry `type` and `googlemaps`.
#[utoipa::path(get, path = "/api/training/{id}", tag = "programmes",
    params(("id" = i64, Path, description = "Training id")),
    responses((status = 200, description = "The training", body = Object),
        (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)),
    security(("bearer" = [])))]
pub async fn detail(
    State(state): State<AppState>,
    _user: AuthUser,
    Path(id): Path<String>,
) -> AppResult<AppJson<Value>> {
    const NOT_FOUND: &str = "Training not found";
    let id = route_id(&id, NOT_FOUND)?;
    let mut data = load_data(&state.db, Table::Trainings, id)
        .await?
        .ok_or_else(|| AppError::not_found(NOT_FOUND))?;
    let title = data.get("name").cloned().unwrap_or(Value::Null);
    if let Some(m) = data.as_object_mut() {
        m.insert("title".into(), title);
    }
    Ok(AppJson(data))
}
