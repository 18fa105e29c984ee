//! News (spec 2.15): list with year and category filters, detail, and the home selection.

use axum::extract::State;
use chrono::Datelike;
use projections::{on_db, Db};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use utoipa::{IntoParams, ToSchema};

use super::{raw, FilterOption, RawJson};
use crate::auth::AuthUser;
use crate::error::{AppError, AppJson, AppQuery, AppResult, ErrorBody};
use crate::ids::NewsId;

/// How many news items the home carousel shows.
pub const HOME_NEWS: i64 = 6;

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct NewsItem {
    pub id: i64,
    pub title: String,
    /// `YYYY-MM-DD`.
    pub date: String,
    pub preview: String,
    pub category: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct NewsDetail {
    pub id: i64,
    pub title: String,
    pub date: String,
    pub preview: String,
    pub category: String,
    /// Sanitised HTML.
    pub description: String,
}

#[derive(Serialize, ToSchema)]
pub struct NewsFilters {
    pub year: Vec<FilterOption>,
    pub category: Vec<FilterOption>,
}

#[derive(Serialize, ToSchema)]
pub struct NewsList {
    #[schema(value_type = Vec<NewsItem>)]
    pub list: Box<RawValue>,
    pub filters: NewsFilters,
    /// The applied filters.
    pub year: i32,
    pub category: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct NewsHome {
    /// The latest news, newest first.
    #[schema(value_type = Vec<NewsItem>)]
    pub list: Box<RawValue>,
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct NewsQuery {
    /// Four-digit year; default the current year.
    pub year: Option<String>,
    /// One of `filters.category`; empty means all.
    pub category: Option<String>,
}

/// Parses a year filter; empty means the current year.
pub fn parse_year(raw: Option<&str>) -> Result<i32, AppError> {
    match raw.map(str::trim).filter(|s| !s.is_empty()) {
        None => Ok(chrono::Utc::now().year()),
        Some(s) => s
            .parse::<i32>()
            .ok()
            .filter(|y| (1900..=9999).contains(y))
            .ok_or_else(|| AppError::bad_request(format!("Invalid year '{s}'"))),
    }
}

/// The condition that keeps a news row inside its window (`release_at`, `expires_at`) at the
/// time bound as `now` (a parameter such as `$2`).
pub(crate) fn shown(now: &str) -> String {
    format!("(release_at is null or release_at <= {now}) and (expires_at is null or expires_at > {now})")
}

/// The latest news as a JSON array, newest first.
pub(crate) async fn latest(db: &Db, limit: i64) -> AppResult<Box<RawValue>> {
    let rows: Vec<String> = on_db!(&db, pool => sqlx::query_scalar(
        &format!("select item from news where {} order by date desc, id desc limit $1", shown("$2")))
        .bind(limit).bind(projections::now_ms()).fetch_all(pool).await)?;
    raw(format!("[{}]", rows.join(",")))
}

/// The news of one year (default the current one), optionally of one category.
#[utoipa::path(get, path = "/news", tag = "content", security(("bearer" = [])), params(NewsQuery),
    responses((status = 200, body = NewsList), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
pub async fn list(
    State(db): State<Db>,
    _auth: AuthUser,
    AppQuery(query): AppQuery<NewsQuery>,
) -> AppResult<AppJson<NewsList>> {
    let year = parse_year(query.year.as_deref())?;
    let categories: Vec<FilterOption> = match on_db!(&db, pool => sqlx::query_scalar::<_, String>(
        "select data from catalogue_meta where key = 'news.categories'")
        .fetch_optional(pool).await)?
    {
        Some(json) => serde_json::from_str(&json).map_err(|e| {
            AppError::Internal(anyhow::Error::new(e).context("stored news filters"))
        })?,
        None => Vec::new(),
    };
    let category = query.category.filter(|c| !c.is_empty());
    if let Some(c) = &category {
        if !categories.iter().any(|o| &o.query_value() == c) {
            return Err(AppError::bad_request(format!(
                "Unknown news category '{c}'"
            )));
        }
    }
    let mut years: Vec<i32> = on_db!(&db, pool => sqlx::query_scalar::<_, i32>(
        &format!("select distinct year from news where {} order by year desc", shown("$1")))
        .bind(projections::now_ms()).fetch_all(pool).await)?;
    let current = chrono::Utc::now().year();
    if !years.contains(&current) {
        years.insert(0, current);
        years.sort_unstable_by(|a, b| b.cmp(a));
    }
    let rows: Vec<String> = on_db!(&db, pool => sqlx::query_scalar(
        &format!("select item from news where year = $1 and ($2 = '' or category = $2) and {} order by date desc, id desc", shown("$3")))
        .bind(year).bind(category.clone().unwrap_or_default()).bind(projections::now_ms()).fetch_all(pool).await)?;
    Ok(AppJson(NewsList {
        list: raw(format!("[{}]", rows.join(",")))?,
        filters: NewsFilters {
            year: years
                .into_iter()
                .map(|y| FilterOption {
                    value: serde_json::Value::String(y.to_string()),
                    label: y.to_string(),
                })
                .collect(),
            category: categories,
        },
        year,
        category,
    }))
}

/// One news item with its rich-text description.
#[utoipa::path(get, path = "/news/{id}", tag = "content", security(("bearer" = [])),
    params(("id" = i64, Path, description = "News id")),
    responses((status = 200, body = NewsDetail), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn detail(
    State(db): State<Db>,
    _auth: AuthUser,
    NewsId(id): NewsId,
) -> AppResult<RawJson> {
    let row: Option<String> = on_db!(&db, pool => sqlx::query_scalar(
        &format!("select details from news where id = $1 and {}", shown("$2")))
        .bind(id).bind(projections::now_ms()).fetch_optional(pool).await)?;
    row.map(RawJson)
        .ok_or_else(|| AppError::not_found("News not found"))
}

/// The latest news for the home carousel.
#[utoipa::path(get, path = "/news/home", tag = "content", security(("bearer" = [])),
    responses((status = 200, body = NewsHome), (status = 401, body = ErrorBody)))]
pub async fn home(State(db): State<Db>, _auth: AuthUser) -> AppResult<AppJson<NewsHome>> {
    Ok(AppJson(NewsHome {
        list: latest(&db, HOME_NEWS).await?,
    }))
}
