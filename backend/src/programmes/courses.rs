//! Medical-education courses (spec 2.20): the calendar list with server-given filters and the
//! course detail (Info and Agenda).

use axum::extract::State;
use projections::on_db;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::course_time::{calendar_now_ms, calendar_year, is_past, CourseDates};
use super::items::{CourseCard, CourseDetail};
use super::Programmes;
use super::{filters, load_item, parse_rows, selected_year, Filters, Table};
use crate::auth::AuthUser;
use crate::error::{AppError, AppJson, AppQuery, AppResult};
use crate::ids::CourseId;

/// Filters of the course list; an empty value means "all".
#[derive(Debug, Default, Deserialize, IntoParams)]
pub struct CourseQuery {
    /// Year of the first day; the current year of the calendar when absent.
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

/// Lists the courses matching the filters, in date order; each card says whether the course has
/// ended (`ended`).
#[utoipa::path(get, path = "/courses", params(CourseQuery), tag = "programmes",
    responses((status = 200, body = CourseList), (status = 400, body = crate::error::ErrorBody),
        (status = 401, body = crate::error::ErrorBody)),
    security(("bearer" = [])))]
pub async fn list(
    State(state): State<Programmes>,
    _user: AuthUser,
    AppQuery(query): AppQuery<CourseQuery>,
) -> AppResult<AppJson<CourseList>> {
    let now = calendar_now_ms(&state.config);
    let year = match query.year.as_deref().map(str::trim) {
        None | Some("") => calendar_year(&state.config),
        given => selected_year(given)?,
    };
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

    let mut sql = String::from("select c.item, c.data from courses c where c.year = $1");
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

    let rows: Vec<(String, String)> = on_db!(&state.db, pool => {
        let mut q = sqlx::query_as(&sql);
        for b in &binds {
            q = match b {
                Bind::Int(i) => q.bind(*i),
                Bind::Text(t) => q.bind(t.as_str()),
            };
        }
        q.fetch_all(pool).await
    })?;
    let (items, data): (Vec<String>, Vec<String>) = rows.into_iter().unzip();
    let dates: Vec<CourseDates> = parse_rows(data)?;
    let mut list: Vec<CourseCard> = parse_rows(items)?;
    for (card, dates) in list.iter_mut().zip(&dates) {
        card.ended = dates.ended(now);
    }
    Ok(AppJson(CourseList {
        list,
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
    State(state): State<Programmes>,
    _user: AuthUser,
    CourseId(id): CourseId,
) -> AppResult<AppJson<CourseDetail>> {
    let mut course: CourseDetail = load_item(&state, Table::Courses, id)
        .await?
        .ok_or_else(|| AppError::not_found(CourseId::NOT_FOUND))?;
    let now = calendar_now_ms(&state.config);
    let zone = course.timezone.clone().flatten();
    course.ended = is_past(&course.end_date, zone.as_deref(), now);
    for day in &mut course.days {
        day.ended = is_past(&day.date_value, zone.as_deref(), now);
    }
    Ok(AppJson(course))
}
