//! Medical-education courses (spec 2.20): the calendar list with server-given filters and the
//! course detail (Info and Agenda).

use axum::extract::State;
use projections::on_db;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::items::{CourseCard, CourseDetail};
use super::{filters, load_item, parse_rows, selected_year, Filters, Table};
use crate::auth::AuthUser;
use crate::error::{AppError, AppJson, AppQuery, AppResult};
use crate::ids::CourseId;
use crate::state::AppState;

/// Filters of the course list; an empty value means "all".
#[derive(Debug, Default, Deserialize, IntoParams)]
pub struct CourseQuery {
    /// Year of the first day; the current year when absent.
    pub year: Option<String>,
    /// Month of the first day, `01`..`12`.
    pub month: Option<String>,
    /// Category class: course, online, third or other.
    pub category: Option<String>,
    /// Product segment id.
    pub segment: Option<String>,
    pub language: Option<String>,
    pub typology: Option<String>,
    /// A speaker's name.
    pub speaker: Option<String>,
}

/// The filter values the list was made with.
#[derive(Debug, Default, Serialize, ToSchema)]
pub struct CourseSelection {
    pub year: String,
    pub month: Option<String>,
    pub category: Option<String>,
    pub segment: Option<String>,
    pub language: Option<String>,
    pub typology: Option<String>,
    pub speaker: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CourseList {
    pub list: Vec<CourseCard>,
    /// `{year, month, category, segment, language, typology, speaker: [{value, label}]}`.
    pub filters: Filters,
    pub selected: CourseSelection,
}

fn given(value: Option<String>) -> Option<String> {
    value
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

enum Bind {
    Int(i64),
    Text(String),
}

/// Lists the courses matching the filters, in date order.
#[utoipa::path(get, path = "/courses", params(CourseQuery), tag = "programmes",
    responses((status = 200, body = CourseList), (status = 400, body = crate::error::ErrorBody),
        (status = 401, body = crate::error::ErrorBody)),
    security(("bearer" = [])))]
pub async fn list(
    State(state): State<AppState>,
    _user: AuthUser,
    AppQuery(query): AppQuery<CourseQuery>,
) -> AppResult<AppJson<CourseList>> {
    let year = selected_year(query.year.as_deref())?;
    let month = given(query.month)
        .map(|m| {
            m.parse::<u32>()
                .ok()
                .filter(|m| (1..=12).contains(m))
                .map(|m| format!("{m:02}"))
                .ok_or_else(|| AppError::bad_request("The month must be a number from 01 to 12"))
        })
        .transpose()?;
    let segment = given(query.segment);
    let segment_id = segment
        .as_deref()
        .map(|s| {
            s.parse::<i64>()
                .map_err(|_| AppError::bad_request("The segment must be a segment id"))
        })
        .transpose()?;
    let selected = CourseSelection {
        year: year.to_string(),
        month,
        category: given(query.category),
        segment,
        language: given(query.language),
        typology: given(query.typology),
        speaker: given(query.speaker),
    };

    let mut sql = String::from("select c.item from courses c where c.year = $1");
    let mut binds = vec![Bind::Int(year)];
    let mut add = |condition: &str, bind: Bind| {
        binds.push(bind);
        sql.push_str(&format!(
            " and {}",
            condition.replace('?', &format!("${}", binds.len()))
        ));
    };
    if let Some(m) = &selected.month {
        add("c.month = ?", Bind::Text(m.clone()));
    }
    if let Some(c) = &selected.category {
        add("c.category = ?", Bind::Text(c.clone()));
    }
    if let Some(l) = &selected.language {
        add("c.language = ?", Bind::Text(l.clone()));
    }
    if let Some(t) = &selected.typology {
        add("c.typology = ?", Bind::Text(t.clone()));
    }
    if let Some(s) = segment_id {
        add(
            "exists (select 1 from course_segments s where s.course_id = c.id and s.segment_id = ?)",
            Bind::Int(s),
        );
    }
    if let Some(s) = &selected.speaker {
        add(
            "exists (select 1 from course_speakers s where s.course_id = c.id and s.name = ?)",
            Bind::Text(s.clone()),
        );
    }
    sql.push_str(" order by c.start_date, c.id");

    let rows: Vec<String> = on_db!(&state.db, pool => {
        let mut q = sqlx::query_scalar(&sql);
        for b in &binds {
            q = match b {
                Bind::Int(i) => q.bind(*i),
                Bind::Text(t) => q.bind(t.as_str()),
            };
        }
        q.fetch_all(pool).await
    })?;
    Ok(AppJson(CourseList {
        list: parse_rows(rows)?,
        filters: filters(&state.db, "courses", Table::Courses).await?,
        selected,
    }))
}

/// A course: title, category, segment, location (absent for online courses), language,
/// course_level, videos, images, description, speakers [{preview, name, country}], files,
/// show_tabs, show_register, evenium (external registration link), show_learn_contact and
/// learn_contact {email, subject}, save_outlook {start_date, end_date, link} (link = the iCalendar
/// address, or null) and days [{date_value, date_text, time, title, speakers, description, files}].
#[utoipa::path(get, path = "/courses/{id}", tag = "programmes",
    params(("id" = i64, Path, description = "Course id")),
    responses((status = 200, description = "The course", body = CourseDetail),
        (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)),
    security(("bearer" = [])))]
pub async fn detail(
    State(state): State<AppState>,
    _user: AuthUser,
    CourseId(id): CourseId,
) -> AppResult<AppJson<CourseDetail>> {
    load_item(&state.db, Table::Courses, id)
        .await?
        .map(AppJson)
        .ok_or_else(|| AppError::not_found(CourseId::NOT_FOUND))
}
