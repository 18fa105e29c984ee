//! A course with its agenda, speakers, contacts and days.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

#[allow(unused_imports)]
use super::*;

shape! {
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
        pub subtitle: kept String,
        pub print_date: kept String,
        pub timezone: kept String,
        pub segment: kept Vec<SegmentIcon>,
        /// Absent or null for online courses.
        pub location: kept String,
        pub course_level: kept String,
        pub videos: kept Vec<CourseVideo>,
        pub images: kept Vec<String>,
        pub description: kept String,
        pub speakers: kept Vec<CourseSpeaker>,
        pub preview: kept String,
        pub files: Vec<LibraryDocument>,
        pub show_tabs: kept bool,
        pub show_register: kept bool,
        /// External registration link.
        pub evenium: kept String,
        pub show_learn_contact: kept bool,
        pub learn_contact: kept LearnContact,
        pub save_outlook: kept SaveOutlook,
        pub days: Vec<CourseDay>,
        /// True once the course's last day has ended where it takes place (set when served): the
        /// app offers no registration then.
        #[serde(default)]
        pub ended: bool,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
}

shape! {
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
    pub struct CourseVideo {
        pub preview: kept String,
        pub label: kept String,
        pub url: kept String,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
}

shape! {
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
    pub struct CourseSpeaker {
        pub name: String,
        pub preview: kept String,
        pub country: kept String,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
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

shape! {
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
    pub struct CourseDay {
        /// `yyyy-mm-dd`, what a registration sends.
        pub date_value: String,
        pub date_text: String,
        pub files: Vec<LibraryDocument>,
        pub time: kept String,
        pub title: kept String,
        pub speakers: kept Vec<String>,
        pub description: kept String,
        /// True once the day has ended where the course takes place (set when served): a
        /// registration to it is refused.
        #[serde(default)]
        pub ended: bool,
        /// Further fields of the content, passed through as written.
        #[serde(flatten)]
        pub more: Map<String, Value>,
    }
}
