//! Course registration (spec sections 3, 4 and 5): one aggregate per course and user.
//!
//! A user registers to one or more days of a medical-education course. The form's rules are
//! checked again here, whatever the client did: a course that has not yet ended, at least one
//! day, every day one of the course's days and none of them already past, a name, a valid e-mail, both consents, a category of `surgeon` or `staff` when given, and
//! no day registered twice. The course's days come from outside through [`CourseCatalog`].
//!
//! Aggregate id: [`CourseRegistration::aggregate_id`] (`course-{id}:user-{uuid}`).

use std::collections::BTreeSet;

use async_trait::async_trait;
use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};

use crate::lookup::LookupError;

/// What the aggregate needs to know about a course.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CourseForRegistration {
    /// The course's days, as `yyyy-mm-dd` (the `date_value` of each agenda day).
    pub days: Vec<String>,
    /// False when the course is not open to registration in the app (`show_register` unset).
    pub registration_open: bool,
    /// The days that have already taken place when the command is handled (the catalog reads
    /// the calendar's clock and the course's time zone).
    pub past_days: BTreeSet<String>,
    /// True when the whole course has taken place (its last day has ended).
    pub ended: bool,
}

/// Looks courses up for the aggregate; the server reads its course table, tests use a map.
#[async_trait]
pub trait CourseCatalog: Send + Sync {
    /// The course with this id, `None` when there is none. `Err` is a lookup failure.
    async fn course(&self, course_id: i64) -> Result<Option<CourseForRegistration>, LookupError>;
}

/// The services of [`CourseRegistration`].
pub struct RegistrationServices {
    pub catalog: Box<dyn CourseCatalog>,
}

impl RegistrationServices {
    pub fn new(catalog: impl CourseCatalog + 'static) -> Self {
        Self {
            catalog: Box::new(catalog),
        }
    }
}

/// Registration categories (spec section 6).
pub const CATEGORIES: [&str; 2] = ["surgeon", "staff"];

/// Longest name or hospital accepted.
pub const MAX_TEXT_LEN: usize = 200;

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub enum RegistrationCommand {
    /// Registers the user to the chosen days of the course.
    Register {
        course_id: i64,
        user_id: String,
        /// Chosen days (`date_value`s); duplicates count once.
        days: Vec<String>,
        name: String,
        email: String,
        hospital: Option<String>,
        /// `surgeon` or `staff`, or none.
        category: Option<String>,
        newsletter: bool,
        /// Consent to the privacy policy.
        privacy_consent: bool,
        /// Consent to the use of the data for the course (data protection).
        data_consent: bool,
        /// When the request arrived, in milliseconds since the epoch.
        registered_at: i64,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum RegistrationEvent {
    /// The user was registered to these days. Carries the whole registration, so read models need
    /// nothing else.
    Registered {
        course_id: i64,
        user_id: String,
        /// The days of this registration, sorted, none of them registered before.
        days: Vec<String>,
        name: String,
        email: String,
        hospital: Option<String>,
        category: Option<String>,
        newsletter: bool,
        registered_at: i64,
    },
}

impl DomainEvent for RegistrationEvent {
    fn event_type(&self) -> String {
        match self {
            RegistrationEvent::Registered { .. } => "Registered".to_string(),
        }
    }

    fn event_version(&self) -> String {
        "1.0".to_string()
    }
}

/// Why a registration is refused. Each message is shown to the user as is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegistrationError {
    #[error("The course was not found")]
    CourseNotFound,
    #[error("Registration to this course is not open in the app")]
    RegistrationClosed,
    #[error("Choose at least one day")]
    NoDay,
    #[error("The day {0} is not a day of this course")]
    DayNotOfCourse(String),
    #[error("This course has already taken place: registration is closed")]
    CourseEnded,
    #[error("The day {0} has already taken place: choose a day still to come")]
    DayPast(String),
    #[error("The name is required")]
    NameRequired,
    #[error("The name and the hospital must be at most 200 characters")]
    TooLong,
    #[error("Enter a valid e-mail address")]
    InvalidEmail,
    #[error("Accept the privacy policy and the use of your data to register")]
    ConsentsRequired,
    #[error("The category must be surgeon or staff")]
    InvalidCategory,
    #[error("You are already registered to this course day ({0})")]
    AlreadyRegistered(String),
    #[error("This registration belongs to another course")]
    WrongCourse,
    #[error("The course could not be read: {0}")]
    Catalog(LookupError),
}

/// A user's registration to one course: the days registered so far.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CourseRegistration {
    pub course_id: Option<i64>,
    pub user_id: Option<String>,
    pub days: BTreeSet<String>,
}

impl CourseRegistration {
    /// The aggregate id of `user_id`'s registration to course `course_id`.
    pub fn aggregate_id(course_id: i64, user_id: &str) -> String {
        format!("course-{course_id}:user-{user_id}")
    }
}

fn optional(text: Option<String>) -> Option<String> {
    text.map(|t| t.trim().to_string()).filter(|t| !t.is_empty())
}

impl Aggregate for CourseRegistration {
    const TYPE: &'static str = "CourseRegistration";
    type Command = RegistrationCommand;
    type Event = RegistrationEvent;
    type Error = RegistrationError;
    type Services = RegistrationServices;

    async fn handle(
        &mut self,
        command: Self::Command,
        services: &Self::Services,
        sink: &cqrs_es::event_sink::EventSink<Self>,
    ) -> Result<(), Self::Error> {
        let RegistrationCommand::Register {
            course_id,
            user_id,
            days,
            name,
            email,
            hospital,
            category,
            newsletter,
            privacy_consent,
            data_consent,
            registered_at,
        } = command;

        if self.course_id.is_some_and(|c| c != course_id)
            || self.user_id.as_ref().is_some_and(|u| *u != user_id)
        {
            return Err(RegistrationError::WrongCourse);
        }
        let course = services
            .catalog
            .course(course_id)
            .await
            .map_err(RegistrationError::Catalog)?
            .ok_or(RegistrationError::CourseNotFound)?;
        if !course.registration_open {
            return Err(RegistrationError::RegistrationClosed);
        }
        if course.ended {
            return Err(RegistrationError::CourseEnded);
        }

        let days: BTreeSet<String> = days.into_iter().map(|d| d.trim().to_string()).collect();
        if days.is_empty() {
            return Err(RegistrationError::NoDay);
        }
        if let Some(day) = days.iter().find(|d| !course.days.contains(d)) {
            return Err(RegistrationError::DayNotOfCourse(day.clone()));
        }
        if let Some(day) = days.iter().find(|d| course.past_days.contains(*d)) {
            return Err(RegistrationError::DayPast(day.clone()));
        }

        let name = name.trim().to_string();
        if name.is_empty() {
            return Err(RegistrationError::NameRequired);
        }
        let hospital = optional(hospital);
        if name.chars().count() > MAX_TEXT_LEN
            || hospital
                .as_ref()
                .is_some_and(|h| h.chars().count() > MAX_TEXT_LEN)
        {
            return Err(RegistrationError::TooLong);
        }
        let email = email.trim().to_string();
        if !crate::email::is_valid(&email) {
            return Err(RegistrationError::InvalidEmail);
        }
        if !(privacy_consent && data_consent) {
            return Err(RegistrationError::ConsentsRequired);
        }
        let category = optional(category).map(|c| c.to_lowercase());
        if category
            .as_deref()
            .is_some_and(|c| !CATEGORIES.contains(&c))
        {
            return Err(RegistrationError::InvalidCategory);
        }
        if let Some(day) = days.iter().find(|d| self.days.contains(*d)) {
            return Err(RegistrationError::AlreadyRegistered(day.clone()));
        }

        let event = RegistrationEvent::Registered {
            course_id,
            user_id,
            days: days.into_iter().collect(),
            name,
            email,
            hospital,
            category,
            newsletter,
            registered_at,
        };
        sink.write(event, self).await;
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            RegistrationEvent::Registered {
                course_id,
                user_id,
                days,
                ..
            } => {
                self.course_id = Some(course_id);
                self.user_id = Some(user_id);
                self.days.extend(days);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use cqrs_es::test::TestFramework;

    use super::*;

    const COURSE: i64 = 1;
    const USER: &str = "0b6f7c1e-0000-4000-8000-000000000001";
    const AT: i64 = 1_790_000_000_000;

    struct FakeCatalog(HashMap<i64, CourseForRegistration>);

    #[async_trait]
    impl CourseCatalog for FakeCatalog {
        async fn course(
            &self,
            course_id: i64,
        ) -> Result<Option<CourseForRegistration>, LookupError> {
            Ok(self.0.get(&course_id).cloned())
        }
    }

    struct BrokenCatalog;

    #[async_trait]
    impl CourseCatalog for BrokenCatalog {
        async fn course(&self, _: i64) -> Result<Option<CourseForRegistration>, LookupError> {
            Err("database unavailable".into())
        }
    }

    fn services() -> RegistrationServices {
        let mut courses = HashMap::new();
        courses.insert(
            COURSE,
            CourseForRegistration {
                days: vec!["2026-03-19".into(), "2026-03-20".into()],
                registration_open: true,
                past_days: BTreeSet::new(),
                ended: false,
            },
        );
        courses.insert(
            2,
            CourseForRegistration {
                days: vec!["2026-06-03".into()],
                registration_open: false,
                past_days: BTreeSet::new(),
                ended: false,
            },
        );
        // The first day is over, the second still to come.
        courses.insert(
            3,
            CourseForRegistration {
                days: vec!["2026-04-23".into(), "2026-04-24".into()],
                registration_open: true,
                past_days: BTreeSet::from(["2026-04-23".to_string()]),
                ended: false,
            },
        );
        // Every day is over.
        courses.insert(
            4,
            CourseForRegistration {
                days: vec!["2026-02-25".into()],
                registration_open: true,
                past_days: BTreeSet::from(["2026-02-25".to_string()]),
                ended: true,
            },
        );
        RegistrationServices::new(FakeCatalog(courses))
    }

    fn framework() -> TestFramework<CourseRegistration> {
        TestFramework::with(services())
    }

    fn register(days: &[&str]) -> RegistrationCommand {
        RegistrationCommand::Register {
            course_id: COURSE,
            user_id: USER.into(),
            days: days.iter().map(|d| d.to_string()).collect(),
            name: "Anna Rossi".into(),
            email: "anna.rossi@example.com".into(),
            hospital: Some("Ospedale Nord".into()),
            category: Some("surgeon".into()),
            newsletter: true,
            privacy_consent: true,
            data_consent: true,
            registered_at: AT,
        }
    }

    fn registered(days: &[&str]) -> RegistrationEvent {
        RegistrationEvent::Registered {
            course_id: COURSE,
            user_id: USER.into(),
            days: days.iter().map(|d| d.to_string()).collect(),
            name: "Anna Rossi".into(),
            email: "anna.rossi@example.com".into(),
            hospital: Some("Ospedale Nord".into()),
            category: Some("surgeon".into()),
            newsletter: true,
            registered_at: AT,
        }
    }

    /// Changes one field of the standard command.
    fn register_with(change: impl FnOnce(&mut RegistrationCommand)) -> RegistrationCommand {
        let mut command = register(&["2026-03-19"]);
        change(&mut command);
        command
    }

    #[tokio::test]
    async fn registers_to_chosen_days_sorted_and_once() {
        framework()
            .given_no_previous_events()
            .when_async(register(&["2026-03-20", "2026-03-19", "2026-03-20"]))
            .await
            .then_expect_events(vec![registered(&["2026-03-19", "2026-03-20"])]);
    }

    #[tokio::test]
    async fn registers_to_another_day_later() {
        framework()
            .given(vec![registered(&["2026-03-19"])])
            .when_async(register(&["2026-03-20"]))
            .await
            .then_expect_events(vec![registered(&["2026-03-20"])]);
    }

    #[tokio::test]
    async fn refuses_the_same_day_twice() {
        framework()
            .given(vec![registered(&["2026-03-19"])])
            .when_async(register(&["2026-03-19"]))
            .await
            .then_expect_error(RegistrationError::AlreadyRegistered("2026-03-19".into()));
    }

    #[tokio::test]
    async fn refuses_when_any_chosen_day_is_already_registered() {
        framework()
            .given(vec![registered(&["2026-03-20"])])
            .when_async(register(&["2026-03-19", "2026-03-20"]))
            .await
            .then_expect_error(RegistrationError::AlreadyRegistered("2026-03-20".into()));
    }

    #[tokio::test]
    async fn refuses_no_day() {
        framework()
            .given_no_previous_events()
            .when_async(register(&[]))
            .await
            .then_expect_error(RegistrationError::NoDay);
    }

    #[tokio::test]
    async fn refuses_a_day_of_another_course() {
        framework()
            .given_no_previous_events()
            .when_async(register(&["2026-03-19", "2026-06-03"]))
            .await
            .then_expect_error(RegistrationError::DayNotOfCourse("2026-06-03".into()));
    }

    #[tokio::test]
    async fn refuses_an_unknown_course() {
        framework()
            .given_no_previous_events()
            .when_async(register_with(
                |RegistrationCommand::Register { course_id, .. }| *course_id = 99,
            ))
            .await
            .then_expect_error(RegistrationError::CourseNotFound);
    }

    #[tokio::test]
    async fn refuses_a_course_not_open_to_registration() {
        framework()
            .given_no_previous_events()
            .when_async(register_with(
                |RegistrationCommand::Register {
                     course_id, days, ..
                 }| {
                    *course_id = 2;
                    *days = vec!["2026-06-03".into()];
                },
            ))
            .await
            .then_expect_error(RegistrationError::RegistrationClosed);
    }

    fn register_to(course: i64, chosen: &[&str]) -> RegistrationCommand {
        register_with(
            |RegistrationCommand::Register {
                 course_id, days, ..
             }| {
                *course_id = course;
                *days = chosen.iter().map(|d| d.to_string()).collect();
            },
        )
    }

    #[tokio::test]
    async fn refuses_a_day_that_has_taken_place() {
        framework()
            .given_no_previous_events()
            .when_async(register_to(3, &["2026-04-23", "2026-04-24"]))
            .await
            .then_expect_error(RegistrationError::DayPast("2026-04-23".into()));
    }

    #[tokio::test]
    async fn registers_to_a_day_still_to_come_of_a_course_under_way() {
        let mut expected = registered(&["2026-04-24"]);
        let RegistrationEvent::Registered { course_id, .. } = &mut expected;
        *course_id = 3;
        framework()
            .given_no_previous_events()
            .when_async(register_to(3, &["2026-04-24"]))
            .await
            .then_expect_events(vec![expected]);
    }

    #[tokio::test]
    async fn refuses_a_course_that_has_taken_place() {
        framework()
            .given_no_previous_events()
            .when_async(register_to(4, &["2026-02-25"]))
            .await
            .then_expect_error(RegistrationError::CourseEnded);
        // Whatever the form holds.
        framework()
            .given_no_previous_events()
            .when_async(register_to(4, &[]))
            .await
            .then_expect_error(RegistrationError::CourseEnded);
    }

    #[tokio::test]
    async fn refuses_a_blank_name() {
        framework()
            .given_no_previous_events()
            .when_async(register_with(
                |RegistrationCommand::Register { name, .. }| *name = "   ".into(),
            ))
            .await
            .then_expect_error(RegistrationError::NameRequired);
    }

    #[tokio::test]
    async fn refuses_an_overlong_name_or_hospital() {
        framework()
            .given_no_previous_events()
            .when_async(register_with(
                |RegistrationCommand::Register { name, .. }| *name = "a".repeat(201),
            ))
            .await
            .then_expect_error(RegistrationError::TooLong);
        framework()
            .given_no_previous_events()
            .when_async(register_with(
                |RegistrationCommand::Register { hospital, .. }| *hospital = Some("h".repeat(201)),
            ))
            .await
            .then_expect_error(RegistrationError::TooLong);
    }

    #[tokio::test]
    async fn refuses_invalid_emails() {
        for bad in [
            "",
            "anna",
            "anna@",
            "@example.com",
            "anna@example",
            "anna rossi@example.com",
            "anna@@example.com",
            "anna@example..com",
        ] {
            framework()
                .given_no_previous_events()
                .when_async(register_with(
                    |RegistrationCommand::Register { email, .. }| *email = bad.into(),
                ))
                .await
                .then_expect_error(RegistrationError::InvalidEmail);
        }
    }

    #[tokio::test]
    async fn refuses_without_both_consents() {
        for (privacy, data) in [(false, true), (true, false), (false, false)] {
            framework()
                .given_no_previous_events()
                .when_async(register_with(
                    |RegistrationCommand::Register {
                         privacy_consent,
                         data_consent,
                         ..
                     }| {
                        *privacy_consent = privacy;
                        *data_consent = data;
                    },
                ))
                .await
                .then_expect_error(RegistrationError::ConsentsRequired);
        }
    }

    #[tokio::test]
    async fn refuses_a_category_other_than_surgeon_or_staff() {
        framework()
            .given_no_previous_events()
            .when_async(register_with(
                |RegistrationCommand::Register { category, .. }| *category = Some("nurse".into()),
            ))
            .await
            .then_expect_error(RegistrationError::InvalidCategory);
    }

    #[tokio::test]
    async fn hospital_and_category_are_optional() {
        let mut expected = registered(&["2026-03-19"]);
        let RegistrationEvent::Registered {
            hospital, category, ..
        } = &mut expected;
        *hospital = None;
        *category = None;
        framework()
            .given_no_previous_events()
            .when_async(register_with(
                |RegistrationCommand::Register {
                     hospital, category, ..
                 }| {
                    *hospital = Some("  ".into());
                    *category = None;
                },
            ))
            .await
            .then_expect_events(vec![expected]);
    }

    #[tokio::test]
    async fn refuses_a_command_for_another_course_or_user() {
        framework()
            .given(vec![registered(&["2026-03-19"])])
            .when_async(register_with(
                |RegistrationCommand::Register { user_id, .. }| *user_id = "someone-else".into(),
            ))
            .await
            .then_expect_error(RegistrationError::WrongCourse);
    }

    #[tokio::test]
    async fn reports_a_catalog_failure() {
        TestFramework::<CourseRegistration>::with(RegistrationServices::new(BrokenCatalog))
            .given_no_previous_events()
            .when_async(register(&["2026-03-19"]))
            .await
            .then_expect_error(RegistrationError::Catalog("database unavailable".into()));
    }

    #[test]
    fn event_type_and_version_are_fixed() {
        let event = registered(&["2026-03-19"]);
        assert_eq!(event.event_type(), "Registered");
        assert_eq!(event.event_version(), "1.0");
    }

    #[test]
    fn aggregate_id_names_course_and_user() {
        assert_eq!(
            CourseRegistration::aggregate_id(7, "u-1"),
            "course-7:user-u-1"
        );
    }
}
