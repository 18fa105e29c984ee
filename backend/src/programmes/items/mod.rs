//! The served shapes of congresses, activities, training and courses: what the importer stores
//! (`programmes::import`) and the API sends, typed from content to API.
//!
//! Content files may leave an optional field out or set it to `null`, and the app tells the two
//! apart, so optional fields are `Option<Option<T>>`: `None` absent, `Some(None)` null. Fields a
//! content file adds beyond these are passed through as written (`more`).

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

/// Declares a served shape. A field written `pub name: kept T` is one the content may leave
/// out or set to `null`, kept as written: `None` when absent (and not served), `Some(None)` for
/// `null`; its serde and schema attributes are written here, once.
macro_rules! shape {
    (
        $(#[$meta:meta])*
        pub struct $name:ident { $($fields:tt)* }
    ) => {
        shape!(@fields [$(#[$meta])* pub struct $name] [] $($fields)*);
    };
    (@fields [$($head:tt)*] [$($done:tt)*]
        $(#[$field_meta:meta])* pub $field:ident : kept $ty:ty, $($rest:tt)*
    ) => {
        shape!(@fields [$($head)*] [$($done)*
            $(#[$field_meta])*
            #[serde(default, deserialize_with = "kept", skip_serializing_if = "Option::is_none")]
            #[schema(value_type = Option<$ty>)]
            pub $field: Option<Option<$ty>>,
        ] $($rest)*);
    };
    (@fields [$($head:tt)*] [$($done:tt)*]
        $(#[$field_meta:meta])* pub $field:ident : $ty:ty, $($rest:tt)*
    ) => {
        shape!(@fields [$($head)*] [$($done)* $(#[$field_meta])* pub $field: $ty,] $($rest)*);
    };
    (@fields [$($head:tt)*] [$($done:tt)*]) => {
        $($head)* { $($done)* }
    };
}

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
    /// True once the course's last day has ended where it takes place (set when served).
    #[serde(default)]
    pub ended: bool,
}

shape! {
    /// A product segment of a course, with its icon.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
    pub struct SegmentIcon {
        pub id: i64,
        pub image: kept String,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
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

shape! {
    /// A library document as programmes list it; `url` is where the signed-in app fetches the file.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
    pub struct LibraryDocument {
        pub id: i64,
        /// Always `file`.
        #[serde(rename = "type")]
        pub kind: String,
        pub title: String,
        pub url: String,
        pub name: kept String,
        pub subtitle: kept String,
        pub size: kept String,
        pub languages_in_file: kept String,
        pub code_points: kept String,
        pub for_internal_use: kept bool,
        pub controlled_release: kept bool,
        pub upon_request: kept bool,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
}

shape! {
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
        pub subtitle: kept String,
        pub preview: kept String,
        pub timezone: kept String,
        pub tabs: ProgrammeTabs,
        /// The tab keys in the order of the content file.
        #[schema(required = true)]
        pub tab_order: Option<Vec<String>>,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
}

shape! {
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
        pub subtitle: kept String,
        pub preview: kept String,
        pub timezone: kept String,
        pub text_over_website: kept String,
        pub website: kept String,
        pub link: kept String,
        pub tabs: ProgrammeTabs,
        /// Always present; `null` when the content has none.
        #[schema(required = true)]
        pub tab_order: Option<Vec<String>>,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
}
