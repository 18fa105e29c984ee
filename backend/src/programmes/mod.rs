//! Congresses and events (spec 2.18), sales training (2.19), medical-education courses (2.20) and
//! course registration (sections 3 to 5).
//!
//! Layout:
//! - [`import`] - reads `content/congresses`, `content/training`, `content/courses` into tables;
//!   [`import()`] is run by `prepare` (`lib.rs`) when the tables are empty.
//! - [`congresses`], [`training`], [`courses`] - the lists (with server-given filters, default year
//!   = the current year) and the tabbed details, read with plain queries.
//! - [`items`] - the served shapes of the items, typed from content to API.
//! - [`calendar`] - the 'Save in calendar' iCalendar files.
//! - [`registration`] - course registration: a command on the `CourseRegistration` aggregate
//!   (events crate) through the event store, the `course_registrations` read model
//!   (`projections::course_registrations`), and the course team's list and CSV export.
//!
//! Every call requires a signed-in user.

pub mod calendar;
pub mod congresses;
pub mod course_time;
pub mod courses;
pub mod import;
pub mod items;
pub mod registration;
pub mod training;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use axum::extract::FromRef;
use chrono::Datelike;
use events::course_registration::CourseRegistration;
use projections::{on_db, Db};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::Auth;
use crate::config::Config;
use crate::error::{AppError, AppResult};
use crate::event_store::EventStore;

/// What the programme calls work with.
#[derive(Clone)]
pub struct Programmes {
    pub db: Db,
    pub config: Arc<Config>,
    /// The command side of course registrations.
    pub registrations: Arc<EventStore<CourseRegistration>>,
    /// What reps see of library documents: downloads never list an unreleased, withdrawn or
    /// expired one.
    pub library: Arc<crate::library::Library>,
}

pub use import::{import, is_empty, ImportError, ImportReport};

pub fn router<S>() -> OpenApiRouter<S>
where
    S: Clone + Send + Sync + 'static,
    Programmes: FromRef<S>,
    Auth: FromRef<S>,
{
    OpenApiRouter::new()
        .routes(routes!(congresses::list))
        .routes(routes!(congresses::home))
        .routes(routes!(congresses::detail))
        .routes(routes!(congresses::activity))
        .routes(routes!(training::list))
        .routes(routes!(training::detail))
        .routes(routes!(courses::list))
        .routes(routes!(courses::detail))
        .routes(routes!(registration::register))
        .routes(routes!(registration::list))
        .routes(routes!(registration::export_csv))
        .routes(routes!(calendar::calendar_file))
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

/// The served item `id` of `table`, typed, if any, its downloads as reps may see them now.
pub async fn load_item<T: DeserializeOwned>(
    state: &Programmes,
    table: Table,
    id: i64,
) -> AppResult<Option<T>> {
    let sql = format!("select data from {} where id = $1", table.name());
    let data: Option<String> =
        on_db!(&state.db, pool => sqlx::query_scalar(&sql).bind(id).fetch_optional(pool).await)?;
    let data = match data {
        Some(data) => Some(state.library.filter_list_json(data, None).await?),
        None => None,
    };
    data.map(|d| serde_json::from_str(&d))
        .transpose()
        .map_err(|e| AppError::Internal(anyhow::Error::new(e).context("stored programme item")))
}

/// The served item `id` of `table` as JSON, if any (the calendar files read single fields).
pub async fn load_data(db: &Db, table: Table, id: i64) -> AppResult<Option<Value>> {
    let sql = format!("select data from {} where id = $1", table.name());
    let data: Option<String> =
        on_db!(db, pool => sqlx::query_scalar(&sql).bind(id).fetch_optional(pool).await)?;
    data.map(|d| serde_json::from_str(&d))
        .transpose()
        .map_err(|e| AppError::Internal(anyhow::Error::new(e).context("stored programme item")))
}

/// Parses stored JSON rows.
fn parse_rows<T: DeserializeOwned>(rows: Vec<String>) -> AppResult<Vec<T>> {
    rows.iter()
        .map(|r| serde_json::from_str(r))
        .collect::<Result<_, _>>()
        .map_err(|e| AppError::Internal(anyhow::Error::new(e).context("stored programme list")))
}

/// One choice of a filter of a programme list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize, ToSchema)]
#[schema(as = ProgrammeFilterOption)]
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

/// The options of each filter of a list, by filter (`year`, `type`, `month`...).
pub type Filters = BTreeMap<String, Vec<FilterOption>>;

/// The filter options of a list (`programme_filters`), as `{kind: [{value, label}]}`. The year
/// options also hold every year with items and the current year, newest first.
pub async fn filters(db: &Db, kind: &str, table: Table) -> AppResult<Filters> {
    let stored: Option<String> = on_db!(db, pool => sqlx::query_scalar(
        "select data from programme_filters where kind = $1").bind(kind).fetch_optional(pool).await)?;
    let mut filters: Filters = match stored {
        Some(s) => serde_json::from_str(&s)
            .map_err(|e| AppError::Internal(anyhow::Error::new(e).context("stored filters")))?,
        None => Filters::new(),
    };
    let sql = format!("select distinct year from {}", table.name());
    let years: Vec<i64> = on_db!(db, pool => sqlx::query_scalar(&sql).fetch_all(pool).await)?;
    let mut all: BTreeSet<i64> = years.into_iter().collect();
    all.insert(i64::from(chrono::Utc::now().year()));
    if let Some(options) = filters.get("year") {
        all.extend(options.iter().filter_map(|o| o.value.parse::<i64>().ok()));
    }
    let year_options = all
        .iter()
        .rev()
        .map(|y| FilterOption {
            value: y.to_string(),
            label: y.to_string(),
        })
        .collect();
    filters.insert("year".into(), year_options);
    Ok(filters)
}
