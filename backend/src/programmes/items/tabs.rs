//! The tabs of a congress or a training and the contents of the first ones (info, details,
//! hotel, day by day).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

#[allow(unused_imports)]
use super::*;

shape! {
    /// The tabs of a congress or a training, by key; each is `{title, content}`.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
    pub struct ProgrammeTabs {
        pub info: InfoTab,
        pub details: kept DetailsTab,
        pub hotel: kept HotelTab,
        pub day: kept DayTab,
        pub activities: kept ActivitiesTab,
        pub messages: kept MessagesTab,
        /// Training's key messages.
        pub key: kept MessagesTab,
        pub media: kept MediaTab,
        pub downloads: kept DownloadsTab,
        pub download: kept DownloadsTab,
        pub contacts: kept ContactsTab,
        /// Tabs of other keys, passed through as written.
        #[serde(flatten)]
        pub more: BTreeMap<String, OtherTab>,
    }
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

shape! {
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
    pub struct InfoContent {
        pub first_date: String,
        pub last_date: String,
        pub name: kept String,
        pub subtitle: kept String,
        pub image: kept String,
        pub intro_video: kept IntroVideo,
        pub first_date_time: kept String,
        pub last_date_time: kept String,
        pub calendar: kept String,
        pub link: kept String,
        pub description: kept String,
        pub description_short: kept String,
        /// Training: 'Link for Registration'.
        pub registration: kept RegistrationLink,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
}

shape! {
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
    pub struct IntroVideo {
        pub preview_image: String,
        pub url: kept String,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
}

shape! {
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
    pub struct RegistrationLink {
        pub text: kept String,
        pub link: kept String,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
}

shape! {
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
    pub struct DetailsContent {
        pub congress_venue: kept Venue,
        pub timing_dates: kept TimingDates,
        pub useful_information: kept Described,
        pub main_topics: kept Described,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
}

shape! {
    /// A block of rich text.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
    pub struct Described {
        pub description: kept String,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
}

shape! {
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
    pub struct Venue {
        pub name: kept String,
        pub gallery: kept Vec<String>,
        pub description: kept String,
        pub link_googlemaps: kept String,
        pub link_googlemaps_label: kept String,
        pub link_download: kept String,
        pub link_download_label: kept String,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
}

shape! {
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
    pub struct TimingDates {
        pub from_date: String,
        pub to_date: String,
        pub from_time: kept String,
        pub to_time: kept String,
        pub calendar: kept String,
        pub description: kept String,
        pub description_short: kept String,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
}

shape! {
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
    pub struct HotelContent {
        pub hotel: kept Hotel,
        pub transfer: kept Transfer,
        pub additional_hotels: kept Vec<Hotel>,
        pub additional_transfers: kept Vec<Transfer>,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
}

shape! {
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
    pub struct Hotel {
        pub name: String,
        pub checkin_date: String,
        pub checkout_date: String,
        pub image: kept String,
        pub address: kept String,
        pub googlemaps: kept String,
        pub info: kept String,
        pub calendar: kept String,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
}

shape! {
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
    pub struct Transfer {
        pub transfer_date: String,
        pub transfer_time: String,
        pub transfer_return_date: String,
        pub transfer_return_time: String,
        pub info: kept String,
        pub calendar: kept String,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
}

shape! {
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
    pub struct DayContent {
        pub events: kept Vec<DaySchedule>,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
}

shape! {
    /// The events of one day.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
    pub struct DaySchedule {
        pub date: String,
        pub events: kept Vec<DayEvent>,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
}

shape! {
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
    pub struct DayEvent {
        pub time: String,
        pub title: String,
        pub subtitle: kept String,
        pub description: kept String,
        pub calendar: kept String,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
}
