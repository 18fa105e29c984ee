//! The catalogue a rep opens every day: home, products, library documents, news, contacts,
//! useful links and multimedia.
//!
//! All of it is reference data loaded from the content folder by [`import::read`] (through
//! [`crate::content::import_all`]). The import builds, checks and sanitises the JSON each call
//! answers with and stores it next to the columns the calls filter on, so a read is one or two
//! indexed queries and no rebuilding.
//!
//! Layout:
//! - [`import`] - reads and checks the content files, builds the rows.
//! - [`html`] - rich-text sanitising.
//! - [`products`], [`library`], [`news`], [`contacts`], [`useful`], [`multimedia`], [`home`] -
//!   the calls, one module per screen family.

pub mod contacts;
pub mod home;
pub mod html;
pub mod import;
pub mod library;
pub mod multimedia;
pub mod news;
pub mod products;
pub mod useful;

use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use utoipa::ToSchema;

use crate::error::AppError;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/home", get(home::home))
        .route("/products/categories", get(products::categories))
        .route("/products", get(products::overview))
        .route("/products/segment/{id}", get(products::segment))
        .route("/products/category/{id}", get(products::category))
        .route("/product/{id}/details", get(products::details))
        .route("/product/{id}/attachments", get(products::attachments))
        .route("/product/{id}/indepth", get(products::indepth))
        .route("/product/{id}/components", get(products::components))
        .route("/component/{id}", get(products::component))
        .route("/library/{id}/file", get(library::file))
        .route("/news", get(news::list))
        .route("/news/home", get(news::home))
        .route("/news/{id}", get(news::detail))
        .route("/contacts", get(contacts::sections))
        .route("/contacts/{id}", get(contacts::subsidiary))
        .route("/useful-links-new", get(useful::links))
        .route("/multimedia/video", get(multimedia::videos))
        .route("/multimedia/images", get(multimedia::images))
}

/// A JSON document stored ready to send.
pub struct RawJson(pub String);

impl IntoResponse for RawJson {
    fn into_response(self) -> Response {
        ([(header::CONTENT_TYPE, "application/json")], self.0).into_response()
    }
}

/// Parses stored JSON for embedding in a bigger answer without rebuilding it.
pub(crate) fn raw(json: String) -> Result<Box<RawValue>, AppError> {
    RawValue::from_string(json)
        .map_err(|e| AppError::Internal(anyhow::Error::new(e).context("stored JSON")))
}

/// Reads a numeric path id; anything else is a 404 with the feature's message.
pub(crate) fn path_id(raw: &str, what: &str) -> Result<i64, AppError> {
    raw.parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .ok_or_else(|| AppError::not_found(format!("{what} not found")))
}

/// An entry of a filter list (spec 3: value/id and label/name).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct FilterOption {
    /// The value sent back in the query (a string or a number).
    #[schema(value_type = Object)]
    pub value: serde_json::Value,
    pub label: String,
}

impl FilterOption {
    /// The value as it appears in a query string.
    pub fn query_value(&self) -> String {
        match &self.value {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        }
    }
}

/// A library document as lists show it (catalogues, #ThinkClinical, attachments, downloads).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct DocumentItem {
    pub id: i64,
    /// Always `file`.
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    /// The file name.
    pub name: String,
    pub subtitle: String,
    pub size: String,
    pub languages_in_file: String,
    pub code_points: String,
    /// Where the signed-in app opens the file (`/api/library/{id}/file`).
    pub url: String,
    /// Extra actions offered on the item; open and download are always available.
    pub actions: Vec<String>,
    pub for_internal_use: bool,
    pub controlled_release: bool,
    pub upon_request: bool,
}
