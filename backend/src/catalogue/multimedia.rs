//! Multimedia (spec 2.12): videos and images with segment, category and year filters.

use axum::extract::State;
use projections::{on_db, Db};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use utoipa::{IntoParams, ToSchema};

use super::{raw, FilterOption};
use crate::auth::AuthUser;
use crate::error::{AppError, AppJson, AppQuery, AppResult, ErrorBody};

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MultimediaVideo {
    pub id: i64,
    pub label: String,
    pub title: String,
    pub preview: String,
    pub preview_image: String,
    /// The player is chosen from `code`, else from `url` (or its last path part).
    pub url: Option<String>,
    pub code: Option<String>,
    pub hero: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MultimediaImage {
    pub id: i64,
    pub preview: String,
    pub hd: String,
    pub image: String,
    pub img: String,
    pub label: String,
    pub text: String,
}

/// The filter lists of one section.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MultimediaFilters {
    pub segment: Vec<FilterOption>,
    pub category: Vec<FilterOption>,
    pub year: Vec<FilterOption>,
}

#[derive(Serialize, ToSchema)]
pub struct VideoList {
    /// The hero video, when it matches the filters; it is not repeated in `list`.
    #[schema(value_type = Option<MultimediaVideo>)]
    pub hero: Option<Box<RawValue>>,
    #[schema(value_type = Vec<MultimediaVideo>)]
    pub list: Box<RawValue>,
    #[schema(value_type = MultimediaFilters)]
    pub filters: Box<RawValue>,
}

#[derive(Serialize, ToSchema)]
pub struct ImageList {
    #[schema(value_type = Vec<MultimediaImage>)]
    pub list: Box<RawValue>,
    #[schema(value_type = MultimediaFilters)]
    pub filters: Box<RawValue>,
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct MultimediaQuery {
    /// A segment id of `filters.segment`.
    pub segment: Option<String>,
    /// A value of `filters.category`.
    pub category: Option<String>,
    /// A value of `filters.year`.
    pub year: Option<String>,
}

/// The checked filter values; empty strings mean "any".
struct Applied {
    segment: i64,
    category: String,
    year: i64,
}

fn check(query: MultimediaQuery, filters: &MultimediaFilters) -> Result<Applied, AppError> {
    fn pick(
        value: Option<String>,
        options: &[FilterOption],
        what: &str,
    ) -> Result<String, AppError> {
        match value
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
        {
            None => Ok(String::new()),
            Some(v) if options.iter().any(|o| o.query_value() == v) => Ok(v),
            Some(v) => Err(AppError::bad_request(format!("Unknown {what} '{v}'"))),
        }
    }
    let segment = pick(query.segment, &filters.segment, "segment")?;
    let category = pick(query.category, &filters.category, "category")?;
    let year = pick(query.year, &filters.year, "year")?;
    let number = |s: &str, what: &str| -> Result<i64, AppError> {
        if s.is_empty() {
            return Ok(0);
        }
        s.parse::<i64>()
            .map_err(|_| AppError::bad_request(format!("Invalid {what} '{s}'")))
    };
    Ok(Applied {
        segment: number(&segment, "segment")?,
        category,
        year: number(&year, "year")?,
    })
}

async fn filters(db: &Db, key: &str) -> AppResult<(MultimediaFilters, String)> {
    let json: Option<String> = on_db!(&db, pool => sqlx::query_scalar(
        "select data from catalogue_meta where key = $1")
        .bind(key).fetch_optional(pool).await)?;
    let json = json.unwrap_or_else(|| r#"{"segment":[],"category":[],"year":[]}"#.to_string());
    let parsed = serde_json::from_str(&json).map_err(|e| {
        AppError::Internal(anyhow::Error::new(e).context("stored multimedia filters"))
    })?;
    Ok((parsed, json))
}

const FILTER_SQL: &str =
    "($1 = 0 or segment = $1) and ($2 = '' or category = $2) and ($3 = 0 or year = $3)";

/// The videos (the default section), the hero video apart.
#[utoipa::path(get, path = "/multimedia/video", tag = "content", security(("bearer" = [])), params(MultimediaQuery),
    responses((status = 200, body = VideoList), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
pub async fn videos(
    State(db): State<Db>,
    _auth: AuthUser,
    AppQuery(query): AppQuery<MultimediaQuery>,
) -> AppResult<AppJson<VideoList>> {
    let (options, options_json) = filters(&db, "multimedia.videos.filters").await?;
    let f = check(query, &options)?;
    let sql = format!(
        "select hero, data from multimedia_videos where {FILTER_SQL} order by position, id"
    );
    let rows: Vec<(bool, String)> = on_db!(&db, pool => sqlx::query_as(&sql)
        .bind(f.segment).bind(f.category.clone()).bind(f.year).fetch_all(pool).await)?;
    let mut hero = None;
    let mut list = Vec::new();
    for (is_hero, data) in rows {
        if is_hero && hero.is_none() {
            hero = Some(raw(data)?);
        } else {
            list.push(data);
        }
    }
    Ok(AppJson(VideoList {
        hero,
        list: raw(format!("[{}]", list.join(",")))?,
        filters: raw(options_json)?,
    }))
}

/// The images, shown three per row.
#[utoipa::path(get, path = "/multimedia/images", tag = "content", security(("bearer" = [])), params(MultimediaQuery),
    responses((status = 200, body = ImageList), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
pub async fn images(
    State(db): State<Db>,
    _auth: AuthUser,
    AppQuery(query): AppQuery<MultimediaQuery>,
) -> AppResult<AppJson<ImageList>> {
    let (options, options_json) = filters(&db, "multimedia.images.filters").await?;
    let f = check(query, &options)?;
    let sql =
        format!("select data from multimedia_images where {FILTER_SQL} order by position, id");
    let rows: Vec<String> = on_db!(&db, pool => sqlx::query_scalar(&sql)
        .bind(f.segment).bind(f.category.clone()).bind(f.year).fetch_all(pool).await)?;
    Ok(AppJson(ImageList {
        list: raw(format!("[{}]", rows.join(",")))?,
        filters: raw(options_json)?,
    }))
}
