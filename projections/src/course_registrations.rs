//! Read model of the course registrations: one row per user and registered day, which the
//! course team lists and exports, and a `course_registered` message in the user's feed.

use async_trait::async_trait;
use cqrs_es::Aggregate;
use events::course_registration::{CourseRegistration, RegistrationEvent};

use crate::{on_tx, Projection, ProjectionError, StoredEvent, TableSpec, Tx};

/// Feed message kind telling the user a registration was recorded: `{course: {id, title}, days}`.
pub const REGISTERED_KIND: &str = "course_registered";

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
        let title: Option<String> = on_tx!(tx, conn => sqlx::query_scalar(
            "select title from courses where id = $1")
            .bind(course_id).fetch_optional(conn).await)?;
        let payload = serde_json::json!({
            "course": { "id": course_id, "title": title },
            "days": days,
        });
        crate::feed::push(tx, &user_id, REGISTERED_KIND, &payload, registered_at).await?;
        Ok(())
    }
}
