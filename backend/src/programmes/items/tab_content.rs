//! The contents of the later programme tabs: activities, key messages, media, downloads, contacts.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

#[allow(unused_imports)]
use super::*;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ActivitiesContent {
    pub activities: Vec<ActivityGroup>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ActivityGroup {
    pub label: String,
    pub events: Vec<Activity>,
}

/// A congress activity (also served alone) or a training's activity event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Activity {
    pub id: i64,
    pub title: String,
    pub start_date: String,
    pub end_date: String,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub subtitle1: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub subtitle2: Option<Option<String>>,
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
    pub image: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub start_date_time: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub end_date_time: Option<Option<String>>,
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
    #[schema(value_type = Option<Vec<Expert>>)]
    pub experts: Option<Option<Vec<Expert>>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<Vec<LibraryDocument>>)]
    pub files: Option<Option<Vec<LibraryDocument>>>,
    /// e.g. workshop, lunch, dinner.
    #[serde(rename = "type")]
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub kind: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub googlemaps: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub calendar: Option<Option<String>>,
    /// The congress of a congress activity.
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<i64>)]
    pub parent_id: Option<Option<i64>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub parent_name: Option<Option<String>>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Expert {
    pub name: String,
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
    pub image: Option<Option<String>>,
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct MessagesContent {
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<Vec<KeyMessage>>)]
    pub messages: Option<Option<Vec<KeyMessage>>>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct KeyMessage {
    pub title: String,
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
    #[schema(value_type = Option<Vec<String>>)]
    pub images: Option<Option<Vec<String>>>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct MediaContent {
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<Vec<MediaAccordion>>)]
    pub accordions: Option<Option<Vec<MediaAccordion>>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<Vec<String>>)]
    pub general_images: Option<Option<Vec<String>>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<Vec<MediaVideo>>)]
    pub general_videos: Option<Option<Vec<MediaVideo>>>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct MediaAccordion {
    pub title: String,
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
    #[schema(value_type = Option<Vec<MediaVideo>>)]
    pub videos: Option<Option<Vec<MediaVideo>>>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct MediaVideo {
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
    pub title: Option<Option<String>>,
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
    pub url: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub code: Option<Option<String>>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DownloadsContent {
    pub files: Vec<LibraryDocument>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ContactsContent {
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
    pub phone: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub email: Option<Option<String>>,
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
    #[schema(value_type = Option<ContactCard>)]
    pub congress_venue: Option<Option<ContactCard>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<ContactCard>)]
    pub hotel: Option<Option<ContactCard>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<Vec<StaffContact>>)]
    pub staff: Option<Option<Vec<StaffContact>>>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ContactCard {
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
    pub address: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub phone: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub email: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub website: Option<Option<String>>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct StaffContact {
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
    pub role: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub phone: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub email: Option<Option<String>>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}
