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

shape! {
    /// A congress activity (also served alone) or a training's activity event.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
    pub struct Activity {
        pub id: i64,
        pub title: String,
        pub start_date: String,
        pub end_date: String,
        pub subtitle1: kept String,
        pub subtitle2: kept String,
        pub location: kept String,
        pub image: kept String,
        pub start_date_time: kept String,
        pub end_date_time: kept String,
        pub description: kept String,
        pub experts: kept Vec<Expert>,
        pub files: kept Vec<LibraryDocument>,
        /// e.g. workshop, lunch, dinner.
        #[serde(rename = "type")]
        pub kind: kept String,
        pub googlemaps: kept String,
        pub calendar: kept String,
        /// The congress of a congress activity.
        pub parent_id: kept i64,
        pub parent_name: kept String,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
}

shape! {
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
    pub struct Expert {
        pub name: String,
        pub subtitle: kept String,
        pub preview: kept String,
        pub image: kept String,
        pub description: kept String,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
}

shape! {
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
    pub struct MessagesContent {
        pub messages: kept Vec<KeyMessage>,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
}

shape! {
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
    pub struct KeyMessage {
        pub title: String,
        pub description: kept String,
        pub images: kept Vec<String>,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
}

shape! {
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
    pub struct MediaContent {
        pub accordions: kept Vec<MediaAccordion>,
        pub general_images: kept Vec<String>,
        pub general_videos: kept Vec<MediaVideo>,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
}

shape! {
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
    pub struct MediaAccordion {
        pub title: String,
        pub images: kept Vec<String>,
        pub videos: kept Vec<MediaVideo>,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
}

shape! {
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
    pub struct MediaVideo {
        pub label: kept String,
        pub title: kept String,
        pub preview: kept String,
        pub url: kept String,
        pub code: kept String,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DownloadsContent {
    pub files: Vec<LibraryDocument>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

shape! {
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
    pub struct ContactsContent {
        pub name: kept String,
        pub phone: kept String,
        pub email: kept String,
        pub website: kept String,
        pub congress_venue: kept ContactCard,
        pub hotel: kept ContactCard,
        pub staff: kept Vec<StaffContact>,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
}

shape! {
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
    pub struct ContactCard {
        pub name: kept String,
        pub address: kept String,
        pub phone: kept String,
        pub email: kept String,
        pub website: kept String,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
}

shape! {
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
    pub struct StaffContact {
        pub name: kept String,
        pub role: kept String,
        pub phone: kept String,
        pub email: kept String,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
}
