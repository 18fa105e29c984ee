//! The served shapes of congresses, activities, training and courses: what the importer stores
//! (`programmes::import`) and the API sends, typed from content to API.
//!
//! Content files may leave an optional field out or set it to `null`, and the app tells the two
//! apart, so optional fields are `Option<Option<T>>`: `None` absent, `Some(None)` null. Fields a
//! content file adds beyond these are passed through as written (`more`).

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

mod course;
mod tab_content;
mod tabs;

pub use course::*;
pub use tab_content::*;
pub use tabs::*;

/// Reads a present field, `null` included, as `Some`; an absent one is `None` (serde's default).
pub(crate) fn kept<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

/// A congress or event of the list and of the Home carousel.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CongressRow {
    pub id: i64,
    pub name: String,
    pub subtitle: String,
    /// `congress` or `event`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The dates as written (`12-14 May 2026`).
    pub dates: String,
    /// First day, `yyyy-mm-dd`.
    pub date: String,
    /// Last day, `yyyy-mm-dd`.
    pub end_date: String,
    /// Always present; `null` when the content has none.
    #[schema(required = true)]
    pub preview: Option<String>,
}

/// A sales training of the list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TrainingRow {
    pub id: i64,
    pub name: String,
    pub subtitle: String,
    pub dates: String,
    pub start_date: String,
    pub end_date: String,
    /// Always present; `null` when the content has none.
    #[schema(required = true)]
    pub preview: Option<String>,
}

/// A card of the course list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CourseCard {
    pub id: i64,
    pub title: String,
    pub subtitle: String,
    pub typology: String,
    /// Always present; `null` when the content has none.
    #[schema(required = true)]
    pub print_date: Option<String>,
    pub start_date: String,
    pub end_date: String,
    pub language: String,
    /// The product segments, with their icons.
    #[schema(required = true)]
    pub segment: Option<Vec<SegmentIcon>>,
    pub speakers: Vec<SpeakerCard>,
    pub category: CourseCategory,
    /// Always present; `null` when the content has none.
    #[schema(required = true)]
    pub preview: Option<String>,
}

/// A product segment of a course, with its icon.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SegmentIcon {
    pub id: i64,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub image: Option<Option<String>>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

/// A speaker on a course card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SpeakerCard {
    pub name: String,
    /// Always present; `null` when the content has none.
    #[schema(required = true)]
    pub image: Option<String>,
}

/// The class of a course and its label.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CourseCategory {
    /// `course`, `online`, `third` or `other`.
    pub class: String,
    pub label: String,
}

/// A library document as programmes list it; `url` is where the signed-in app fetches the file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LibraryDocument {
    pub id: i64,
    /// Always `file`.
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    pub url: String,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub name: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub subtitle: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub size: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub languages_in_file: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub code_points: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<bool>)]
    pub for_internal_use: Option<Option<bool>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<bool>)]
    pub controlled_release: Option<Option<bool>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<bool>)]
    pub upon_request: Option<Option<bool>>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

/// A congress with its tabs. Every 'Save in calendar' place has a `calendar` address.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CongressDetail {
    pub id: i64,
    pub name: String,
    /// `congress` or `event`.
    #[serde(rename = "type")]
    pub kind: String,
    pub dates: String,
    pub date: String,
    pub end_date: String,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub subtitle: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub preview: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub timezone: Option<Option<String>>,
    pub tabs: ProgrammeTabs,
    /// The tab keys in the order of the content file.
    #[schema(required = true)]
    pub tab_order: Option<Vec<String>>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

/// A sales training with its tabs, and `title` (its name).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TrainingDetail {
    pub id: i64,
    pub name: String,
    /// The training's name again (the detail screen's heading).
    #[serde(default)]
    pub title: String,
    pub dates: String,
    pub start_date: String,
    pub end_date: String,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub subtitle: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub preview: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub timezone: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub text_over_website: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub website: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub link: Option<Option<String>>,
    pub tabs: ProgrammeTabs,
    /// Always present; `null` when the content has none.
    #[schema(required = true)]
    pub tab_order: Option<Vec<String>>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}
