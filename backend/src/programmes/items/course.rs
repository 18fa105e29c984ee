//! A course with its agenda, speakers, contacts and days.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

#[allow(unused_imports)]
use super::*;

/// A course with its agenda.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CourseDetail {
    pub id: i64,
    pub title: String,
    pub category: CourseCategory,
    pub start_date: String,
    pub end_date: String,
    pub language: String,
    pub typology: String,
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
    pub print_date: Option<Option<String>>,
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
    #[schema(value_type = Option<Vec<SegmentIcon>>)]
    pub segment: Option<Option<Vec<SegmentIcon>>>,
    /// Absent or null for online courses.
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub location: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub course_level: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<Vec<CourseVideo>>)]
    pub videos: Option<Option<Vec<CourseVideo>>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<Vec<String>>)]
    pub images: Option<Option<Vec<String>>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub description: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<Vec<CourseSpeaker>>)]
    pub speakers: Option<Option<Vec<CourseSpeaker>>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub preview: Option<Option<String>>,
    pub files: Vec<LibraryDocument>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<bool>)]
    pub show_tabs: Option<Option<bool>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<bool>)]
    pub show_register: Option<Option<bool>>,
    /// External registration link.
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub evenium: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<bool>)]
    pub show_learn_contact: Option<Option<bool>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<LearnContact>)]
    pub learn_contact: Option<Option<LearnContact>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<SaveOutlook>)]
    pub save_outlook: Option<Option<SaveOutlook>>,
    pub days: Vec<CourseDay>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CourseVideo {
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
    pub label: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub url: Option<Option<String>>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CourseSpeaker {
    pub name: String,
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
    pub country: Option<Option<String>>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

/// The learn team's mailbox for 'Ask for more information'.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LearnContact {
    pub email: String,
    pub subject: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SaveOutlook {
    pub start_date: DateAndTime,
    pub end_date: DateAndTime,
    /// The iCalendar file, or null when the course does not offer it.
    #[schema(required = true)]
    pub link: Option<String>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DateAndTime {
    pub date: String,
    pub time: String,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CourseDay {
    /// `yyyy-mm-dd`, what a registration sends.
    pub date_value: String,
    pub date_text: String,
    pub files: Vec<LibraryDocument>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub time: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub title: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<Vec<String>>)]
    pub speakers: Option<Option<Vec<String>>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub description: Option<Option<String>>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}
