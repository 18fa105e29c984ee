//! Course registration (spec sections 3 to 5): `POST /courses/{id}/register` runs the `Register`
//! command on the `CourseRegistration` aggregate (events crate) through cqrs-es, which stores the
//! `Registered` event in the `events` table with optimistic concurrency. The course team (admin
//! accounts) lists and exports the `course_registrations` read model.
//!
//! The read model is written only by [`RegistrationsProjection`] from the `Registered` events,
//! through the projector (so `companion replay` rebuilds and compares it). The command waits for
//! the projection before answering, like the document commands: a server killed between the event
//! and the read model loses nothing, the projector applies the event when it starts again, and
//! the retried request is answered as a duplicate (409, "You are already registered ...").

use std::collections::HashMap;

use async_trait::async_trait;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use cqrs_es::persist::PersistedEventRepository;
use cqrs_es::{Aggregate, AggregateError};
use events::course_registration::{
    CourseCatalog, CourseForRegistration, CourseRegistration, RegistrationCommand,
    RegistrationError, RegistrationEvent, RegistrationServices,
};
use events::lookup::LookupError;
use postgres_es::{postgres_cqrs, PostgresCqrs, PostgresEventRepository};
use projections::stream::last_position_of;
use projections::{
    now_ms, on_db, on_tx, Db, Projection, ProjectionError, StoredEvent, TableSpec, Tx, WaitOutcome,
};
use serde::{Deserialize, Serialize};
use sqlite_es::{sqlite_cqrs, SqliteCqrs, SqliteEventRepository};
use utoipa::ToSchema;

use crate::auth::AuthUser;
use crate::error::{AppError, AppJson, AppResult};
use crate::event_store::stopped_message;
use crate::ids::CourseId;
use crate::state::AppState;

/// The confirmation the app shows (spec section 8).
pub const REGISTERED_MESSAGE: &str = "You have been registered to the course";

/// Attempts of a command that loses an optimistic-concurrency race before answering 409.
const MAX_ATTEMPTS: usize = 3;

const COURSE_NOT_FOUND: &str = CourseId::NOT_FOUND;

/// How long the answer waits for the projection (as document commands do).
const READ_YOUR_WRITE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Reads courses for the aggregate from the `courses` and `course_days` tables.
pub struct DbCourseCatalog {
    pub db: Db,
}

#[async_trait]
impl CourseCatalog for DbCourseCatalog {
    async fn course(&self, course_id: i64) -> Result<Option<CourseForRegistration>, LookupError> {
        let db = &self.db;
        let open: Option<bool> = on_db!(db, pool => sqlx::query_scalar(
            "select show_register from courses where id = $1")
            .bind(course_id).fetch_optional(pool).await)
        .map_err(LookupError::new)?;
        let Some(registration_open) = open else {
            return Ok(None);
        };
        let days: Vec<String> = on_db!(db, pool => sqlx::query_scalar(
            "select day from course_days where course_id = $1 order by day")
            .bind(course_id).fetch_all(pool).await)
        .map_err(LookupError::new)?;
        Ok(Some(CourseForRegistration {
            days,
            registration_open,
        }))
    }
}

/// cqrs-es over the database the server runs on.
pub enum RegistrationStore {
    Sqlite(SqliteCqrs<CourseRegistration>),
    Postgres(PostgresCqrs<CourseRegistration>),
}

impl RegistrationStore {
    pub fn new(db: &Db) -> Self {
        let services = RegistrationServices::new(DbCourseCatalog { db: db.clone() });
        match db {
            Db::Sqlite { pool, .. } => Self::Sqlite(sqlite_cqrs(pool.clone(), vec![], services)),
            Db::Postgres { pool } => Self::Postgres(postgres_cqrs(pool.clone(), vec![], services)),
        }
    }

    pub async fn execute(
        &self,
        aggregate_id: &str,
        command: RegistrationCommand,
        metadata: HashMap<String, String>,
    ) -> Result<(), AggregateError<RegistrationError>> {
        match self {
            Self::Sqlite(cqrs) => {
                cqrs.execute_with_metadata(aggregate_id, command, metadata)
                    .await
            }
            Self::Postgres(cqrs) => {
                cqrs.execute_with_metadata(aggregate_id, command, metadata)
                    .await
            }
        }
    }
}

/// Every event of one registration aggregate, oldest first.
pub async fn load_events(db: &Db, aggregate_id: &str) -> anyhow::Result<Vec<RegistrationEvent>> {
    let serialized = match db {
        Db::Sqlite { pool, .. } => {
            SqliteEventRepository::new(pool.clone())
                .get_events::<CourseRegistration>(aggregate_id)
                .await?
        }
        Db::Postgres { pool } => {
            PostgresEventRepository::new(pool.clone())
                .get_events::<CourseRegistration>(aggregate_id)
                .await?
        }
    };
    serialized
        .into_iter()
        .map(|e| Ok(serde_json::from_value(e.payload)?))
        .collect()
}

/// The name of the projection (its checkpoint key, and the name `companion replay` takes).
pub const PROJECTION_NAME: &str = "course_registrations";

const TABLES: &[TableSpec] = &[TableSpec {
    name: "course_registrations",
    order_by: "course_id, user_id, day",
}];

/// Writes the `course_registrations` read model from the `Registered` events. Idempotent: a day
/// already recorded for the user is left as it is, so a replay over existing rows changes nothing.
pub struct RegistrationsProjection;

#[async_trait]
impl Projection for RegistrationsProjection {
    fn name(&self) -> &'static str {
        PROJECTION_NAME
    }

    fn tables(&self) -> &'static [TableSpec] {
        TABLES
    }

    fn reads(&self, aggregate_type: &str) -> bool {
        aggregate_type == CourseRegistration::TYPE
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> Result<(), ProjectionError> {
        if event.aggregate_type != CourseRegistration::TYPE {
            return Ok(());
        }
        let RegistrationEvent::Registered {
            course_id,
            user_id,
            days,
            name,
            email,
            hospital,
            category,
            newsletter,
            registered_at,
        } = event
            .decode()
            .map_err(|e| ProjectionError::bad_event(event, e))?;
        for day in &days {
            on_tx!(tx, conn => sqlx::query(
                "insert into course_registrations
                   (course_id, user_id, day, name, email, hospital, category, newsletter, registered_at)
                 values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
                 on conflict (course_id, user_id, day) do nothing")
                .bind(course_id).bind(&user_id).bind(day).bind(&name).bind(&email)
                .bind(&hospital).bind(&category).bind(newsletter).bind(registered_at)
                .execute(conn).await.map(|r| r.rows_affected()))?;
        }
        Ok(())
    }
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

fn refusal(error: RegistrationError) -> AppError {
    use RegistrationError as E;
    match error {
        E::CourseNotFound => AppError::not_found(COURSE_NOT_FOUND),
        E::AlreadyRegistered(_) => AppError::Conflict(error.to_string()),
        E::Catalog(cause) => cause.into(),
        E::RegistrationClosed
        | E::NoDay
        | E::DayNotOfCourse(_)
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
        (status = 400, body = crate::error::ErrorBody, description = "A rule of the form is broken"),
        (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
        (status = 409, body = crate::error::ErrorBody, description = "Already registered to a chosen day, or a concurrent change won")),
    security(("bearer" = [])))]
pub async fn register(
    State(state): State<AppState>,
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
    let mut metadata = HashMap::from([
        ("user_id".to_string(), user.id.clone()),
        ("recorded_at".to_string(), registered_at.to_string()),
    ]);
    if let Some(execution) = crate::idempotency::current_execution() {
        metadata.insert(crate::idempotency::METADATA_ENTRY.to_string(), execution);
    }

    let store = RegistrationStore::new(&state.db);
    // SQLite takes one writer at a time; PostgreSQL relies on the optimistic check.
    let _guard = state.db.write_guard().await;
    let mut attempt = 0;
    loop {
        attempt += 1;
        match store
            .execute(&aggregate_id, command.clone(), metadata.clone())
            .await
        {
            Ok(()) => break,
            Err(AggregateError::UserError(error)) => return Err(refusal(error)),
            Err(AggregateError::AggregateConflict) if attempt < MAX_ATTEMPTS => {
                tracing::info!(%aggregate_id, attempt, "registration raced another write; retrying");
            }
            Err(AggregateError::AggregateConflict) => {
                return Err(AppError::Conflict(
                    "The registration was changed at the same time. Please try again".into(),
                ))
            }
            Err(other) => {
                return Err(AppError::Internal(
                    anyhow::anyhow!("{other}").context("storing the registration"),
                ))
            }
        }
    }
    drop(_guard);
    // The caller sees its own write: the projection has applied the event before the answer.
    let Some(position) = last_position_of(&state.db, CourseRegistration::TYPE, &aggregate_id)
        .await
        .map_err(|e| AppError::Internal(anyhow::anyhow!(e).context("locating the registration")))?
    else {
        return Err(AppError::Internal(anyhow::anyhow!(
            "the registration {aggregate_id} recorded no event"
        )));
    };
    match state
        .projector
        .wait_for_command(
            position,
            Some(CourseRegistration::TYPE),
            READ_YOUR_WRITE_TIMEOUT,
        )
        .await
    {
        WaitOutcome::Reached => {}
        WaitOutcome::TimedOut => {
            tracing::warn!(%aggregate_id, ?position, "course registrations projection did not catch up in time")
        }
        WaitOutcome::Stopped(_) => {
            return Err(AppError::ProjectionStopped(stopped_message(
                "course registrations",
            )))
        }
    }
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

async fn registrations(
    state: &AppState,
    user: &AuthUser,
    id: &str,
) -> AppResult<CourseRegistrations> {
    // Who may see them is answered first, whatever the id.
    if !user.is_admin() {
        return Err(AppError::forbidden(
            "Only the course team can see the registrations",
        ));
    }
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
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<String>,
) -> AppResult<AppJson<CourseRegistrations>> {
    registrations(&state, &user, &id).await.map(AppJson)
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
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<String>,
) -> AppResult<Response> {
    let data = registrations(&state, &user, &id).await?;
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
