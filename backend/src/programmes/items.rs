//! The served shapes of congresses, activities, training and courses: what the importer stores
//! (`programmes::import`) and the API sends, typed from content to API.
//!
//! Content files may leave an optional field out or set it to `null`, and the app tells the two
//! apart, so optional fields are `Option<Option<T>>`: `None` absent, `Some(None)` null. Fields a
//! content file adds beyond these are passed through as written (`more`).

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

/// Reads a present field, `null` included, as `Some`; an absent one is `None` (serde's default).
fn kept<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
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
