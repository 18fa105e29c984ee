//! Course registration (spec sections 3 to 5): `POST /courses/{id}/register` runs the `Register`
//! command on the `CourseRegistration` aggregate (events crate) through the server's one command
//! path, [`crate::event_store::EventStore`], like every other command: optimistic concurrency
//! with retries, the request's id in the events' metadata, and an answer only once the
//! projections show the change (503 when they do not within `READ_YOUR_WRITE_SECONDS`). The
//! course team (admin accounts) lists and exports the `course_registrations` read model.
//!
//! The read model is written only by `projections::course_registrations` from the `Registered`
//! events, through the projector (so `companion replay` rebuilds and compares it): a server
//! killed between the event and the read model loses nothing, the projector applies the event
//! when it starts again, and the retried request is answered as a duplicate (409, "You are
//! already registered ...").

use std::sync::Arc;

use async_trait::async_trait;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use events::course_registration::{
    CourseCatalog, CourseForRegistration, CourseRegistration, RegistrationCommand,
    RegistrationError, RegistrationServices,
};
use events::lookup::LookupError;
use projections::{now_ms, on_db, Db, ProjectorHandle};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::course_time::{calendar_now_ms, is_past, CourseDates};
use super::Programmes;
use crate::auth::{AuthUser, Authorized, Role};
use crate::config::Config;
use crate::error::{AppError, AppJson, AppResult};
use crate::event_store::{EventStore, Metadata};
use crate::ids::CourseId;

/// The confirmation the app shows (spec section 8).
pub const REGISTERED_MESSAGE: &str = "You have been registered to the course";

const COURSE_NOT_FOUND: &str = CourseId::NOT_FOUND;

/// Reads courses for the aggregate from the `courses` and `course_days` tables, and which of
/// their days have taken place now (the calendar's clock, see [`super::course_time`]).
pub struct DbCourseCatalog {
    pub db: Db,
    pub config: Arc<Config>,
}

#[async_trait]
impl CourseCatalog for DbCourseCatalog {
    async fn course(&self, course_id: i64) -> Result<Option<CourseForRegistration>, LookupError> {
        let db = &self.db;
        let row: Option<(bool, String)> = on_db!(db, pool => sqlx::query_as(
            "select show_register, data from courses where id = $1")
            .bind(course_id).fetch_optional(pool).await)
        .map_err(LookupError::new)?;
        let Some((registration_open, data)) = row else {
            return Ok(None);
        };
        let dates: CourseDates = serde_json::from_str(&data).map_err(LookupError::new)?;
        let days: Vec<String> = on_db!(db, pool => sqlx::query_scalar(
            "select day from course_days where course_id = $1 order by day")
            .bind(course_id).fetch_all(pool).await)
        .map_err(LookupError::new)?;
        let zone = dates.timezone.as_deref();
        let now_ms = calendar_now_ms(&self.config);
        let past_days = days
            .iter()
            .filter(|d| is_past(d, zone, now_ms))
            .cloned()
            .collect();
        Ok(Some(CourseForRegistration {
            days,
            registration_open,
            past_days,
            ended: dates.ended(now_ms),
        }))
    }
}

/// The command side of course registrations, judging the course calendar at the time of each
/// command.
pub fn store(
    db: &Db,
    config: &Arc<Config>,
    projector: ProjectorHandle,
) -> EventStore<CourseRegistration> {
    let services = RegistrationServices::new(DbCourseCatalog {
        db: db.clone(),
        config: config.clone(),
    });
    EventStore::new(db, services, projector)
}

/// The registration form (spec section 3): chosen days, name, e-mail, hospital, category,
/// newsletter, the course id and the two consents.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct RegisterRequest {
    /// The course id; when given it must be the one of the address.
    pub id: Option<i64>,
    /// Chosen days (`date_value` of the course's days).
    #[serde(default)]
    pub days: Vec<String>,
    pub name: Option<String>,
    pub email: Option<String>,
    pub hospital: Option<String>,
    /// `surgeon` or `staff`.
    pub category: Option<String>,
    #[serde(default)]
    pub newsletter: bool,
    /// Consent to the privacy policy.
    #[serde(default)]
    pub privacy_consent: bool,
    /// Consent to the use of the data for the course (data protection).
    #[serde(default)]
    pub data_consent: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MessageResponse {
    pub message: String,
}

impl From<RegistrationError> for AppError {
    fn from(error: RegistrationError) -> Self {
        refusal(error)
    }
}

fn refusal(error: RegistrationError) -> AppError {
    use RegistrationError as E;
    match error {
        E::CourseNotFound => AppError::not_found(COURSE_NOT_FOUND),
        E::AlreadyRegistered(_) => AppError::Conflict(error.to_string()),
        E::Catalog(cause) => cause.into(),
        E::RegistrationClosed
        | E::NoDay
        | E::DayNotOfCourse(_)
        | E::CourseEnded
        | E::DayPast(_)
        | E::NameRequired
        | E::TooLong
        | E::InvalidEmail
        | E::ConsentsRequired
        | E::InvalidCategory
        | E::WrongCourse => AppError::bad_request(error.to_string()),
    }
}

async fn course_exists(db: &Db, id: i64) -> AppResult<bool> {
    let n: i64 = on_db!(db, pool => sqlx::query_scalar("select count(*) from courses where id = $1")
        .bind(id).fetch_one(pool).await)?;
    Ok(n > 0)
}

/// Registers the signed-in user to days of a course.
#[utoipa::path(post, path = "/courses/{id}/register", tag = "programmes",
    params(("id" = i64, Path, description = "Course id")),
    request_body = RegisterRequest,
    responses((status = 200, body = MessageResponse, description = "'You have been registered to the course'"),
        (status = 400, body = crate::error::ErrorBody, description = "A rule of the form is broken, or the course or a chosen day has already taken place"),
        (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
        (status = 409, body = crate::error::ErrorBody, description = "Already registered to a chosen day, or a concurrent change won")),
    security(("bearer" = [])))]
pub async fn register(
    State(state): State<Programmes>,
    user: AuthUser,
    CourseId(course_id): CourseId,
    AppJson(form): AppJson<RegisterRequest>,
) -> AppResult<AppJson<MessageResponse>> {
    if form.id.is_some_and(|given| given != course_id) {
        return Err(AppError::bad_request(
            "The course of the form is not the course of the address",
        ));
    }
    if !course_exists(&state.db, course_id).await? {
        return Err(AppError::not_found(COURSE_NOT_FOUND));
    }
    let aggregate_id = CourseRegistration::aggregate_id(course_id, &user.id);
    let registered_at = now_ms();
    let command = RegistrationCommand::Register {
        course_id,
        user_id: user.id.clone(),
        days: form.days,
        name: form.name.unwrap_or_default(),
        email: form.email.unwrap_or_default(),
        hospital: form.hospital,
        category: form.category,
        newsletter: form.newsletter,
        privacy_consent: form.privacy_consent,
        data_consent: form.data_consent,
        registered_at,
    };
    // The caller sees its own write: the projection has applied the event before the answer.
    state
        .registrations
        .execute(&aggregate_id, command, Metadata::by(&user.id))
        .await?;
    Ok(AppJson(MessageResponse {
        message: REGISTERED_MESSAGE.to_string(),
    }))
}

/// One registered day of one user.
#[derive(Debug, Serialize, ToSchema, sqlx::FromRow)]
pub struct RegistrationRow {
    pub day: String,
    pub user_id: String,
    pub name: String,
    pub email: String,
    pub hospital: Option<String>,
    pub category: Option<String>,
    pub newsletter: bool,
    /// Milliseconds since the epoch.
    pub registered_at: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CourseRegistrations {
    pub course_id: i64,
    pub title: String,
    /// One row per user and day, by day then time of registration.
    pub registrations: Vec<RegistrationRow>,
}

crate::auth::role_policy!(
    /// Who may see a course's registrations: the course team (administrators), answered
    /// first, whatever the id.
    pub CourseTeam: [Role::Admin],
    "Only the course team can see the registrations"
);

async fn registrations(state: &Programmes, id: &str) -> AppResult<CourseRegistrations> {
    let CourseId(course_id) = CourseId::parse(id)?;
    let title: Option<String> = on_db!(&state.db, pool => sqlx::query_scalar(
        "select title from courses where id = $1").bind(course_id).fetch_optional(pool).await)?;
    let title = title.ok_or_else(|| AppError::not_found(COURSE_NOT_FOUND))?;
    let rows: Vec<RegistrationRow> = on_db!(&state.db, pool => sqlx::query_as(
        "select day, user_id, name, email, hospital, category, newsletter, registered_at
           from course_registrations where course_id = $1
          order by day, registered_at, email")
        .bind(course_id).fetch_all(pool).await)?;
    Ok(CourseRegistrations {
        course_id,
        title,
        registrations: rows,
    })
}

/// The registrations of a course (course team only).
#[utoipa::path(get, path = "/courses/{id}/registrations", tag = "programmes",
    params(("id" = i64, Path, description = "Course id")),
    responses((status = 200, body = CourseRegistrations), (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)),
    security(("bearer" = [])))]
pub async fn list(
    State(state): State<Programmes>,
    _user: Authorized<CourseTeam>,
    Path(id): Path<String>,
) -> AppResult<AppJson<CourseRegistrations>> {
    registrations(&state, &id).await.map(AppJson)
}

/// A spreadsheet would run a cell starting with one of these as a formula; such cells are
/// prefixed with an apostrophe.
fn safe_cell(value: &str) -> String {
    if value.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{value}")
    } else {
        value.to_string()
    }
}

/// The CSV text of a course's registrations.
pub fn csv_of(data: &CourseRegistrations) -> anyhow::Result<String> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record([
        "course_id",
        "course",
        "day",
        "name",
        "email",
        "hospital",
        "category",
        "newsletter",
        "registered_at",
        "user_id",
    ])?;
    for r in &data.registrations {
        let registered_at = chrono::DateTime::from_timestamp_millis(r.registered_at)
            .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
            .unwrap_or_default();
        writer.write_record([
            data.course_id.to_string(),
            safe_cell(&data.title),
            r.day.clone(),
            safe_cell(&r.name),
            safe_cell(&r.email),
            safe_cell(r.hospital.as_deref().unwrap_or_default()),
            r.category.clone().unwrap_or_default(),
            if r.newsletter { "yes" } else { "no" }.to_string(),
            registered_at,
            r.user_id.clone(),
        ])?;
    }
    Ok(String::from_utf8(writer.into_inner()?)?)
}

/// The registrations of a course as a CSV file (course team only).
#[utoipa::path(get, path = "/courses/{id}/registrations.csv", tag = "programmes",
    params(("id" = i64, Path, description = "Course id")),
    responses((status = 200, description = "CSV with a header row", content_type = "text/csv"),
        (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody),
        (status = 404, body = crate::error::ErrorBody)),
    security(("bearer" = [])))]
pub async fn export_csv(
    State(state): State<Programmes>,
    _user: Authorized<CourseTeam>,
    Path(id): Path<String>,
) -> AppResult<Response> {
    let data = registrations(&state, &id).await?;
    let body = csv_of(&data).map_err(|e| AppError::Internal(e.context("writing the CSV")))?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!(
                    "attachment; filename=\"course-{}-registrations.csv\"",
                    data.course_id
                ),
            ),
            (header::CACHE_CONTROL, "no-store".to_string()),
        ],
        body,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_and_neutralises_formulas() {
        let data = CourseRegistrations {
            course_id: 1,
            title: "Course, \"advanced\"".into(),
            registrations: vec![RegistrationRow {
                day: "2026-03-19".into(),
                user_id: "u1".into(),
                name: "=HYPERLINK(\"x\")".into(),
                email: "a@example.com".into(),
                hospital: Some("Line\nbreak".into()),
                category: Some("surgeon".into()),
                newsletter: true,
                registered_at: 0,
            }],
        };
        let text = csv_of(&data).unwrap();
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let row = reader.records().next().unwrap().unwrap();
        assert_eq!(&row[1], "Course, \"advanced\"");
        assert_eq!(&row[3], "'=HYPERLINK(\"x\")");
        assert_eq!(&row[5], "Line\nbreak");
        assert_eq!(&row[7], "yes");
        assert_eq!(&row[8], "1970-01-01T00:00:00Z");
    }
}
