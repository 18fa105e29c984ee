//! Congresses and events (spec 2.18), sales training (2.19), medical-education courses (2.20) and
//! course registration (sections 3 to 5).
//!
//! Layout:
//! - [`import`] - reads `content/congresses`, `content/training`, `content/courses` into tables;
//!   [`import()`] is run by [`crate::prepare`] when the tables are empty.
//! - [`congresses`], [`training`], [`courses`] - the lists (with server-given filters, default year
//!   = the current year) and the tabbed details, read with plain queries.
//! - [`calendar`] - the 'Save in calendar' iCalendar files.
//! - [`registration`] - course registration: a command on the `CourseRegistration` aggregate
//!   (events crate), stored by cqrs-es, with the `course_registrations` read model and the course
//!   team's list and CSV export.
//!
//! Every call requires a signed-in user.

pub mod calendar;
pub mod congresses;
pub mod courses;
pub mod import;
pub mod registration;
pub mod training;

use axum::routing::{get, post};
use axum::Router;
use chrono::Datelike;
use projections::{on_db, Db};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::error::{AppError, AppResult};
use crate::state::AppState;

pub use import::{import, is_empty, ImportError, ImportReport};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/congresses", get(congresses::list))
        .route("/congresses/home", get(congresses::home))
        .route("/congresses/{id}", get(congresses::detail))
        .route("/congresses/activities/{id}", get(congresses::activity))
        .route("/training", get(training::list))
        .route("/training/{id}", get(training::detail))
        .route("/courses", get(courses::list))
        .route("/courses/{id}", get(courses::detail))
        .route("/courses/{id}/register", post(registration::register))
        .route("/courses/{id}/registrations", get(registration::list))
        .route(
            "/courses/{id}/registrations.csv",
            get(registration::export_csv),
        )
        .route("/calendar/{kind}/{file}", get(calendar::calendar_file))
}

/// The tables of served items (`data` column, JSON).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Table {
    Congresses,
    Activities,
    Trainings,
    Courses,
}

impl Table {
    fn name(self) -> &'static str {
        match self {
            Table::Congresses => "congresses",
            Table::Activities => "congress_activities",
            Table::Trainings => "trainings",
            Table::Courses => "courses",
        }
    }
}

/// The served item `id` of `table`, if any.
pub async fn load_data(db: &Db, table: Table, id: i64) -> AppResult<Option<Value>> {
    let sql = format!("select data from {} where id = $1", table.name());
    let data: Option<String> =
        on_db!(db, pool => sqlx::query_scalar(&sql).bind(id).fetch_optional(pool).await)?;
    data.map(|d| serde_json::from_str(&d))
        .transpose()
        .map_err(|e| AppError::Internal(anyhow::Error::new(e).context("stored programme item")))
}

/// Parses a route id; anything that is not a positive number is simply not found.
pub fn route_id(raw: &str, not_found: &str) -> AppResult<i64> {
    raw.parse::<i64>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| AppError::not_found(not_found))
}

/// Parses stored JSON rows.
fn parse_rows(rows: Vec<String>) -> AppResult<Vec<Value>> {
    rows.iter()
        .map(|r| serde_json::from_str(r))
        .collect::<Result<_, _>>()
        .map_err(|e| AppError::Internal(anyhow::Error::new(e).context("stored programme list")))
}

/// One choice of a filter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize, ToSchema)]
pub struct FilterOption {
    pub value: String,
    pub label: String,
}

/// The year of a list: the `year` query value, or the current year when absent (spec 9).
pub fn selected_year(raw: Option<&str>) -> AppResult<i64> {
    match raw.map(str::trim).filter(|y| !y.is_empty()) {
        None => Ok(i64::from(chrono::Utc::now().year())),
        Some(y) => y
            .parse::<i64>()
            .ok()
            .filter(|y| (1900..=2999).contains(y))
            .ok_or_else(|| AppError::bad_request("The year must be a year such as 2026")),
    }
}

/// The filter options of a list (`programme_filters`), as `{kind: [{value, label}]}`. The year
/// options also hold every year with items and the current year, newest first.
pub async fn filters(
    db: &Db,
    kind: &str,
    table: Table,
) -> AppResult<serde_json::Map<String, Value>> {
    let stored: Option<String> = on_db!(db, pool => sqlx::query_scalar(
        "select data from programme_filters where kind = $1").bind(kind).fetch_optional(pool).await)?;
    let mut filters: serde_json::Map<String, Value> = match stored {
        Some(s) => serde_json::from_str(&s)
            .map_err(|e| AppError::Internal(anyhow::Error::new(e).context("stored filters")))?,
        None => serde_json::Map::new(),
    };
    let sql = format!("select distinct year from {}", table.name());
    let years: Vec<i64> = on_db!(db, pool => sqlx::query_scalar(&sql).fetch_all(pool).await)?;
    let mut all: std::collections::BTreeSet<i64> = years.into_iter().collect();
    all.insert(i64::from(chrono::Utc::now().year()));
    if let Some(options) = filters.get("year").and_then(Value::as_array) {
        all.extend(
            options
                .iter()
                .filter_map(|o| o.get("value").and_then(Value::as_str))
                .filter_map(|v| v.parse::<i64>().ok()),
        );
    }
    let year_options: Vec<Value> = all
        .iter()
        .rev()
        .map(|y| serde_json::json!({ "value": y.to_string(), "label": y.to_string() }))
        .collect();
    filters.insert("year".into(), Value::Array(year_options));
    Ok(filters)
}
