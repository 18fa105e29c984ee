//! Sales training (spec 2.19): the list with its year filter and the tabbed detail.

use axum::extract::State;
use projections::on_db;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::items::{TrainingDetail, TrainingRow};
use super::Programmes;
use super::{filters, load_item, parse_rows, selected_year, Filters, Table};
use crate::auth::AuthUser;
use crate::error::{AppError, AppJson, AppQuery, AppResult};
use crate::ids::TrainingId;

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
    pub list: Vec<TrainingRow>,
    /// `{year: [{value, label}]}`.
    pub filters: Filters,
    pub selected: TrainingSelection,
}

/// Lists the sales training of a year, in date order.
#[utoipa::path(get, path = "/training", params(TrainingQuery), tag = "programmes",
    responses((status = 200, body = TrainingList), (status = 400, body = crate::error::ErrorBody),
        (status = 401, body = crate::error::ErrorBody)),
    security(("bearer" = [])))]
pub async fn list(
    State(state): State<Programmes>,
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
#[utoipa::path(get, path = "/training/{id}", tag = "programmes",
    params(("id" = i64, Path, description = "Training id")),
    responses((status = 200, description = "The training", body = TrainingDetail),
        (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)),
    security(("bearer" = [])))]
pub async fn detail(
    State(state): State<Programmes>,
    _user: AuthUser,
    TrainingId(id): TrainingId,
) -> AppResult<AppJson<TrainingDetail>> {
    let mut training: TrainingDetail = load_item(&state, Table::Trainings, id)
        .await?
        .ok_or_else(|| AppError::not_found(TrainingId::NOT_FOUND))?;
    training.title = training.name.clone();
    Ok(AppJson(training))
}
