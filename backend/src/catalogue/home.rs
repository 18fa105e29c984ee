//! The home screen in one call (spec 2.4, 3 "Home data").

use axum::extract::State;
use projections::Db;
use serde::Serialize;
use serde_json::value::RawValue;
use utoipa::ToSchema;

use crate::auth::AuthUser;
use crate::catalogue::products::SegmentTile;
use crate::error::{AppJson, AppResult, ErrorBody};

/// The three document groups of the home carousel, the first items of each.
#[derive(Serialize, ToSchema, Default)]
pub struct HomeDocuments {
    pub my: Vec<serde_json::Value>,
    pub shared: Vec<serde_json::Value>,
    pub us: Vec<serde_json::Value>,
}

#[derive(Serialize, ToSchema)]
pub struct HomeData {
    /// One entry per product segment.
    #[schema(value_type = Vec<SegmentTile>)]
    pub products: Box<RawValue>,
    /// The latest news.
    #[schema(value_type = Vec<crate::catalogue::news::NewsItem>)]
    pub news: Box<RawValue>,
    /// Upcoming congresses and events. Placeholder: the congresses feature fills it.
    pub congresses: Vec<serde_json::Value>,
    /// My Docs, Shared with me and US (3 each). Placeholder: the documents feature fills it.
    pub documents: HomeDocuments,
}

/// Everything the home screen shows.
#[utoipa::path(get, path = "/home", tag = "content", security(("bearer" = [])),
    responses((status = 200, body = HomeData), (status = 401, body = ErrorBody)))]
pub async fn home(State(db): State<Db>, _auth: AuthUser) -> AppResult<AppJson<HomeData>> {
    let (products, news) = tokio::try_join!(
        crate::catalogue::products::segment_tiles(&db),
        crate::catalogue::news::latest(&db, crate::catalogue::news::HOME_NEWS),
    )?;
    Ok(AppJson(HomeData {
        products,
        news,
        // Filled by the congresses feature (its home selection).
        congresses: Vec::new(),
        // Filled by the documents feature (first 3 of each group; `us` only with the US flag).
        documents: HomeDocuments::default(),
    }))
}
