//! The tabs of a congress or a training and the contents of the first ones (info, details,
//! hotel, day by day).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

#[allow(unused_imports)]
use super::*;

/// The tabs of a congress or a training, by key; each is `{title, content}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ProgrammeTabs {
    pub info: InfoTab,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<DetailsTab>)]
    pub details: Option<Option<DetailsTab>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<HotelTab>)]
    pub hotel: Option<Option<HotelTab>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<DayTab>)]
    pub day: Option<Option<DayTab>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<ActivitiesTab>)]
    pub activities: Option<Option<ActivitiesTab>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<MessagesTab>)]
    pub messages: Option<Option<MessagesTab>>,
    /// Training's key messages.
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<MessagesTab>)]
    pub key: Option<Option<MessagesTab>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<MediaTab>)]
    pub media: Option<Option<MediaTab>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<DownloadsTab>)]
    pub downloads: Option<Option<DownloadsTab>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<DownloadsTab>)]
    pub download: Option<Option<DownloadsTab>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<ContactsTab>)]
    pub contacts: Option<Option<ContactsTab>>,
    /// Tabs of other keys, passed through as written.
    #[serde(flatten)]
    pub more: BTreeMap<String, OtherTab>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct InfoTab {
    pub title: String,
    pub content: InfoContent,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DetailsTab {
    pub title: String,
    pub content: DetailsContent,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct HotelTab {
    pub title: String,
    pub content: HotelContent,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DayTab {
    pub title: String,
    pub content: DayContent,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ActivitiesTab {
    pub title: String,
    pub content: ActivitiesContent,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct MessagesTab {
    pub title: String,
    pub content: MessagesContent,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct MediaTab {
    pub title: String,
    pub content: MediaContent,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DownloadsTab {
    pub title: String,
    pub content: DownloadsContent,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ContactsTab {
    pub title: String,
    pub content: ContactsContent,
}

/// A tab of a key the app does not know.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct OtherTab {
    pub title: String,
    pub content: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct InfoContent {
    pub first_date: String,
    pub last_date: String,
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
    pub image: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<IntroVideo>)]
    pub intro_video: Option<Option<IntroVideo>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub first_date_time: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub last_date_time: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub calendar: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub link: Option<Option<String>>,
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
    #[schema(value_type = Option<String>)]
    pub description_short: Option<Option<String>>,
    /// Training: 'Link for Registration'.
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<RegistrationLink>)]
    pub registration: Option<Option<RegistrationLink>>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct IntroVideo {
    pub preview_image: String,
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
pub struct RegistrationLink {
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub text: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub link: Option<Option<String>>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DetailsContent {
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<Venue>)]
    pub congress_venue: Option<Option<Venue>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<TimingDates>)]
    pub timing_dates: Option<Option<TimingDates>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<Described>)]
    pub useful_information: Option<Option<Described>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<Described>)]
    pub main_topics: Option<Option<Described>>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

/// A block of rich text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Described {
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
pub struct Venue {
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
    #[schema(value_type = Option<Vec<String>>)]
    pub gallery: Option<Option<Vec<String>>>,
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
    #[schema(value_type = Option<String>)]
    pub link_googlemaps: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub link_googlemaps_label: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub link_download: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub link_download_label: Option<Option<String>>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TimingDates {
    pub from_date: String,
    pub to_date: String,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub from_time: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub to_time: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub calendar: Option<Option<String>>,
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
    #[schema(value_type = Option<String>)]
    pub description_short: Option<Option<String>>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct HotelContent {
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<Hotel>)]
    pub hotel: Option<Option<Hotel>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<Transfer>)]
    pub transfer: Option<Option<Transfer>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<Vec<Hotel>>)]
    pub additional_hotels: Option<Option<Vec<Hotel>>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<Vec<Transfer>>)]
    pub additional_transfers: Option<Option<Vec<Transfer>>>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Hotel {
    pub name: String,
    pub checkin_date: String,
    pub checkout_date: String,
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
    pub address: Option<Option<String>>,
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
    pub info: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub calendar: Option<Option<String>>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Transfer {
    pub transfer_date: String,
    pub transfer_time: String,
    pub transfer_return_date: String,
    pub transfer_return_time: String,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub info: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub calendar: Option<Option<String>>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DayContent {
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<Vec<DaySchedule>>)]
    pub events: Option<Option<Vec<DaySchedule>>>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

/// The events of one day.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DaySchedule {
    pub date: String,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<Vec<DayEvent>>)]
    pub events: Option<Option<Vec<DayEvent>>>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DayEvent {
    pub time: String,
    pub title: String,
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
    pub description: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "kept",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub calendar: Option<Option<String>>,
    /// Further fields of the content, passed through as written.
    #[serde(flatten)]
    pub more: Map<String, Value>,
}
