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
//! - [`products`], [`library`], [`news`], [`contacts`], [`useful`], [`multimedia`], [`home`] -
//!   the calls, one module per screen family.

pub mod contacts;
pub mod home;
pub mod import;
pub mod library;
pub mod multimedia;
pub mod news;
pub mod news_admin;
pub mod products;
pub mod useful;

use axum::extract::FromRef;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use projections::Db;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::Auth;
use crate::error::AppError;

pub fn router<S>() -> OpenApiRouter<S>
where
    S: Clone + Send + Sync + 'static,
    Db: FromRef<S>,
    Auth: FromRef<S>,
    std::sync::Arc<crate::library::Library>: FromRef<S>,
    projections::ProjectorHandle: FromRef<S>,
{
    OpenApiRouter::new()
        .routes(routes!(home::home))
        .routes(routes!(products::categories))
        .routes(routes!(products::overview))
        .routes(routes!(products::segment))
        .routes(routes!(products::category))
        .routes(routes!(products::details))
        .routes(routes!(products::attachments))
        .routes(routes!(products::indepth))
        .routes(routes!(products::components))
        .routes(routes!(products::component))
        .routes(routes!(library::file))
        .routes(routes!(news::list))
        .routes(routes!(news::home))
        .routes(routes!(news::detail))
        .routes(routes!(news_admin::create, news_admin::list))
        .routes(routes!(news_admin::revise, news_admin::detail))
        .routes(routes!(news_admin::submit))
        .routes(routes!(news_admin::approve))
        .routes(routes!(news_admin::reject))
        .routes(routes!(news_admin::withdraw))
        .routes(routes!(news_admin::history))
        .routes(routes!(contacts::sections))
        .routes(routes!(contacts::subsidiary))
        .routes(routes!(useful::links))
        .routes(routes!(multimedia::videos))
        .routes(routes!(multimedia::images))
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

/// An entry of a filter list (spec 3: value/id and label/name).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct FilterOption {
    /// The value sent back in the query (a string or a number).
    #[schema(schema_with = text_or_number)]
    pub value: serde_json::Value,
    pub label: String,
}

/// The schema of a filter value: content files give texts or numbers.
fn text_or_number() -> utoipa::openapi::Schema {
    use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Schema, Type};
    Schema::OneOf(
        OneOfBuilder::new()
            .item(ObjectBuilder::new().schema_type(Type::String))
            .item(ObjectBuilder::new().schema_type(Type::Number))
            .build(),
    )
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
