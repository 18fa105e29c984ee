//! 'Save in calendar': iCalendar (RFC 5545) files for congresses, activities, training, courses
//! and the parts of a programme that carry their own dates (timing, hotel, transfer, day events).
//!
//! `GET /api/calendar/{kind}/{id}.ics`, where `kind` and `id` are:
//! - `congress/{id}`, `activity/{id}`, `training/{id}`, `course/{id}`;
//! - `timing/{owner}-{id}` (Timing & Dates), `hotel/{owner}-{id}-{n}` and
//!   `transfer/{owner}-{id}-{n}` (`n` = 0 for the main hotel or transfer, 1.. for the additional
//!   ones), `day-event/{owner}-{id}-{day}-{event}` (Day by day), with `owner` = `congress` or
//!   `training`.
//!
//! The imported items carry these addresses wherever they show the button (`calendar`, or
//! `save_outlook.link` for courses). Local times are converted to UTC with the item's time zone;
//! an item without a time zone gets floating local times.

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Duration, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Utc};
use icalendar::{Calendar, CalendarDateTime, Component, Event, EventLike};
use serde_json::Value;

use super::Programmes;
use super::{load_data, Table};
use crate::auth::AuthUser;
use crate::content_folder::dates::{parse_hhmm, parse_time_range};
use crate::error::{AppError, AppResult};
use crate::html::plain_text;

/// Address of the iCalendar file of `kind`/`id`.
pub fn calendar_url(kind: &str, id: &str) -> String {
    format!("/api/calendar/{kind}/{id}.ics")
}

/// Domain part of the UIDs, so they are unique beyond this server.
const UID_DOMAIN: &str = "companion.meridian-ortho.example";

/// Length given to a timed entry that only has a start (a day event at "09:00", a transfer).
const DEFAULT_LENGTH_MINUTES: i64 = 60;

/// When an entry happens.
#[derive(Debug, Clone, PartialEq)]
pub enum When {
    /// Local start and end, in `tz` (IANA name) when known.
    Timed {
        start: NaiveDateTime,
        end: NaiveDateTime,
        tz: Option<String>,
    },
    /// Whole days, `last` included.
    Days { first: NaiveDate, last: NaiveDate },
}

/// One VEVENT.
#[derive(Debug, Clone)]
pub struct Entry {
    pub uid: String,
    pub summary: String,
    pub location: Option<String>,
    pub description: Option<String>,
    pub url: Option<String>,
    pub when: When,
}

fn at(tz: Option<&str>, local: NaiveDateTime) -> CalendarDateTime {
    let zone = tz.and_then(|t| t.parse::<chrono_tz::Tz>().ok());
    match zone {
        Some(zone) => {
            let resolved = zone.from_local_datetime(&local);
            // A time inside a DST gap has no local reading; take the one after the gap.
            match resolved.earliest().or_else(|| resolved.latest()) {
                Some(dt) => CalendarDateTime::Utc(dt.with_timezone(&Utc)),
                None => CalendarDateTime::Floating(local),
            }
        }
        None => CalendarDateTime::Floating(local),
    }
}

/// The iCalendar text of `entries`, stamped `now`.
pub fn ics(entries: &[Entry], now: DateTime<Utc>) -> String {
    let mut calendar = Calendar::new();
    calendar.name("Meridian Companion");
    for entry in entries {
        let mut event = Event::new();
        event.uid(&entry.uid).timestamp(now).summary(&entry.summary);
        match &entry.when {
            When::Timed { start, end, tz } => {
                event
                    .starts(at(tz.as_deref(), *start))
                    .ends(at(tz.as_deref(), *end));
            }
            When::Days { first, last } => {
                event.starts(*first).ends(*last + Duration::days(1));
            }
        }
        if let Some(location) = entry.location.as_deref().filter(|l| !l.is_empty()) {
            event.location(location);
        }
        if let Some(description) = entry.description.as_deref().filter(|d| !d.is_empty()) {
            event.description(description);
        }
        if let Some(url) = entry.url.as_deref().filter(|u| u.starts_with("http")) {
            event.url(url);
        }
        calendar.push(event.done());
    }
    calendar.done().to_string()
}

fn text(v: &Value, pointer: &str) -> Option<String> {
    v.pointer(pointer)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

fn date(v: &Value, pointer: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(&text(v, pointer)?, "%Y-%m-%d").ok()
}

fn time(v: &Value, pointer: &str) -> Option<NaiveTime> {
    parse_hhmm(&text(v, pointer)?)
}

/// A dated range: timed when both times are there, whole days otherwise.
fn range(v: &Value, keys: [&str; 4], tz: Option<String>) -> Option<When> {
    let first = date(v, keys[0])?;
    let last = date(v, keys[2])?;
    match (time(v, keys[1]), time(v, keys[3])) {
        (Some(from), Some(to)) => Some(When::Timed {
            start: first.and_time(from),
            end: last.and_time(to),
            tz,
        }),
        _ => Some(When::Days { first, last }),
    }
}

fn timed_from(
    day: NaiveDate,
    start: NaiveTime,
    end: Option<NaiveTime>,
    tz: Option<String>,
) -> When {
    let start = day.and_time(start);
    let end = end
        .map(|e| day.and_time(e))
        .filter(|e| *e > start)
        .unwrap_or(start + Duration::minutes(DEFAULT_LENGTH_MINUTES));
    When::Timed { start, end, tz }
}

/// Where a congress or training takes place: the venue's name, city and country when known.
fn venue(data: &Value) -> Option<String> {
    let name = text(data, "/tabs/contacts/content/congress_venue/name")
        .or_else(|| text(data, "/tabs/details/content/congress_venue/name"));
    let parts: Vec<String> = [name, text(data, "/city"), text(data, "/country")]
        .into_iter()
        .flatten()
        .collect();
    (!parts.is_empty()).then(|| parts.join(", "))
}

fn not_found() -> AppError {
    AppError::not_found("Calendar entry not found")
}

fn uid(kind: &str, id: &str) -> String {
    format!("{kind}-{id}@{UID_DOMAIN}")
}

/// `congress-3-1-2` -> (table of congresses, 3, [1, 2]).
fn owner(id: &str) -> Option<(Table, i64, Vec<usize>)> {
    let mut parts = id.split('-');
    let table = match parts.next()? {
        "congress" => Table::Congresses,
        "training" => Table::Trainings,
        _ => return None,
    };
    let owner_id = parts.next()?.parse().ok()?;
    let rest = parts
        .map(|p| p.parse().ok())
        .collect::<Option<Vec<usize>>>()?;
    Some((table, owner_id, rest))
}

/// The entries of the calendar file `kind`/`id`.
pub async fn entries(state: &Programmes, kind: &str, id: &str) -> AppResult<Vec<Entry>> {
    let simple_id = || {
        id.parse::<i64>()
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(not_found)
    };
    match kind {
        "congress" | "training" => {
            let table = if kind == "congress" {
                Table::Congresses
            } else {
                Table::Trainings
            };
            let data = load_data(&state.db, table, simple_id()?)
                .await?
                .ok_or_else(not_found)?;
            let tz = text(&data, "/timezone");
            let when = range(
                &data,
                [
                    "/tabs/info/content/first_date",
                    "/tabs/info/content/first_date_time",
                    "/tabs/info/content/last_date",
                    "/tabs/info/content/last_date_time",
                ],
                tz,
            )
            .ok_or_else(not_found)?;
            Ok(vec![Entry {
                uid: uid(kind, id),
                summary: text(&data, "/name").unwrap_or_default(),
                location: venue(&data),
                description: text(&data, "/tabs/info/content/description_short")
                    .or_else(|| text(&data, "/subtitle"))
                    .map(|d| plain_text(&d)),
                url: text(&data, "/tabs/info/content/link").or_else(|| text(&data, "/website")),
                when,
            }])
        }
        "activity" => {
            let data = load_data(&state.db, Table::Activities, simple_id()?)
                .await?
                .ok_or_else(not_found)?;
            let parent = data
                .get("parent_id")
                .and_then(Value::as_i64)
                .unwrap_or_default();
            let tz = load_data(&state.db, Table::Congresses, parent)
                .await?
                .and_then(|c| text(&c, "/timezone"));
            let when = range(
                &data,
                [
                    "/start_date",
                    "/start_date_time",
                    "/end_date",
                    "/end_date_time",
                ],
                tz,
            )
            .ok_or_else(not_found)?;
            Ok(vec![Entry {
                uid: uid(kind, id),
                summary: text(&data, "/title").unwrap_or_default(),
                location: text(&data, "/location"),
                description: text(&data, "/parent_name"),
                url: None,
                when,
            }])
        }
        "course" => {
            let data = load_data(&state.db, Table::Courses, simple_id()?)
                .await?
                .ok_or_else(not_found)?;
            // Only a course that offers 'Save in calendar' has a file.
            text(&data, "/save_outlook/link").ok_or_else(not_found)?;
            let tz = text(&data, "/timezone");
            let when = range(
                &data,
                [
                    "/save_outlook/start_date/date",
                    "/save_outlook/start_date/time",
                    "/save_outlook/end_date/date",
                    "/save_outlook/end_date/time",
                ],
                tz,
            )
            .ok_or_else(not_found)?;
            Ok(vec![Entry {
                uid: uid(kind, id),
                summary: text(&data, "/title").unwrap_or_default(),
                location: Some(text(&data, "/location").unwrap_or_else(|| "Online".into())),
                description: text(&data, "/subtitle"),
                url: text(&data, "/evenium"),
                when,
            }])
        }
        "timing" | "hotel" | "transfer" | "day-event" => {
            let (table, owner_id, rest) = owner(id).ok_or_else(not_found)?;
            let data = load_data(&state.db, table, owner_id)
                .await?
                .ok_or_else(not_found)?;
            let name = text(&data, "/name").unwrap_or_default();
            let tz = text(&data, "/timezone");
            part_entries(kind, id, &data, &name, tz, &rest).ok_or_else(not_found)
        }
        _ => Err(not_found()),
    }
}

/// Entries of a part of a congress or training (`rest` holds the part's indexes).
fn part_entries(
    kind: &str,
    id: &str,
    data: &Value,
    name: &str,
    tz: Option<String>,
    rest: &[usize],
) -> Option<Vec<Entry>> {
    match (kind, rest) {
        ("timing", []) => {
            let timing = data.pointer("/tabs/details/content/timing_dates")?;
            Some(vec![Entry {
                uid: uid(kind, id),
                summary: format!("{name}: Timing & Dates"),
                location: venue(data),
                description: text(timing, "/description").map(|d| plain_text(&d)),
                url: None,
                when: range(
                    timing,
                    ["/from_date", "/from_time", "/to_date", "/to_time"],
                    tz,
                )?,
            }])
        }
        ("hotel", [n]) => {
            let content = data.pointer("/tabs/hotel/content")?;
            let hotel = if *n == 0 {
                content.get("hotel")?
            } else {
                content.get("additional_hotels")?.get(n - 1)?
            };
            let hotel_name = text(hotel, "/name").unwrap_or_else(|| "Hotel".into());
            let address = text(hotel, "/address").map(|a| plain_text(&a));
            Some(vec![Entry {
                uid: uid(kind, id),
                summary: format!("{hotel_name} ({name})"),
                location: Some(
                    [Some(hotel_name), address]
                        .into_iter()
                        .flatten()
                        .collect::<Vec<_>>()
                        .join(", "),
                ),
                description: text(hotel, "/info").map(|d| plain_text(&d)),
                url: text(hotel, "/googlemaps"),
                when: range(hotel, ["/checkin_date", "", "/checkout_date", ""], None)?,
            }])
        }
        ("transfer", [n]) => {
            let content = data.pointer("/tabs/hotel/content")?;
            let transfer = if *n == 0 {
                content.get("transfer")?
            } else {
                content.get("additional_transfers")?.get(n - 1)?
            };
            let info = text(transfer, "/info").map(|d| plain_text(&d));
            let mut out = Vec::new();
            for (leg, date_key, time_key, title) in [
                ("out", "/transfer_date", "/transfer_time", "Transfer"),
                (
                    "return",
                    "/transfer_return_date",
                    "/transfer_return_time",
                    "Return transfer",
                ),
            ] {
                let (Some(day), Some(start)) = (date(transfer, date_key), time(transfer, time_key))
                else {
                    continue;
                };
                out.push(Entry {
                    uid: uid(kind, &format!("{id}-{leg}")),
                    summary: format!("{title}: {name}"),
                    location: None,
                    description: info.clone(),
                    url: None,
                    when: timed_from(day, start, None, tz.clone()),
                });
            }
            (!out.is_empty()).then_some(out)
        }
        ("day-event", [d, e]) => {
            let day = data.pointer("/tabs/day/content/events")?.get(*d)?;
            let event = day.get("events")?.get(*e)?;
            let (start, end) = parse_time_range(&text(event, "/time")?)?;
            Some(vec![Entry {
                uid: uid(kind, id),
                summary: text(event, "/title")?,
                location: text(event, "/subtitle"),
                description: text(event, "/description")
                    .map(|d| plain_text(&d))
                    .filter(|d| !d.is_empty())
                    .or_else(|| Some(name.to_string())),
                url: None,
                when: timed_from(date(day, "/date")?, start, end, tz),
            }])
        }
        _ => None,
    }
}

/// A name safe for a download: letters, digits and dashes.
fn file_name(summary: &str) -> String {
    let mut slug = String::new();
    for c in summary.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.ends_with('-') && !slug.is_empty() {
            slug.push('-');
        }
    }
    let slug = slug.trim_end_matches('-');
    let slug: String = slug.chars().take(60).collect();
    if slug.is_empty() {
        "event.ics".into()
    } else {
        format!("{slug}.ics")
    }
}

/// Downloads an iCalendar file ('Save in calendar').
#[utoipa::path(get, path = "/calendar/{kind}/{file}", tag = "programmes",
    params(("kind" = String, Path, description = "congress, activity, training, course, timing, hotel, transfer or day-event"),
           ("file" = String, Path, description = "`{id}.ics`; see the module documentation for the id of each kind")),
    responses((status = 200, description = "An iCalendar file", content_type = "text/calendar"),
        (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)),
    security(("bearer" = [])))]
pub async fn calendar_file(
    State(state): State<Programmes>,
    _user: AuthUser,
    Path((kind, file)): Path<(String, String)>,
) -> AppResult<Response> {
    let id = file.strip_suffix(".ics").ok_or_else(not_found)?;
    let entries = entries(&state, &kind, id).await?;
    let name = file_name(
        entries
            .first()
            .map(|e| e.summary.as_str())
            .unwrap_or_default(),
    );
    let body = ics(&entries, Utc::now());
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/calendar; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
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
    fn local_times_become_utc_in_the_item_time_zone() {
        let start = NaiveDate::from_ymd_opt(2026, 1, 22)
            .unwrap()
            .and_hms_opt(8, 0, 0)
            .unwrap();
        let end = NaiveDate::from_ymd_opt(2026, 1, 24)
            .unwrap()
            .and_hms_opt(17, 30, 0)
            .unwrap();
        let text = ics(
            &[Entry {
                uid: "congress-1@x".into(),
                summary: "Alpine Arthroplasty Meeting 2026".into(),
                location: Some("Innsbruck".into()),
                description: None,
                url: None,
                when: When::Timed {
                    start,
                    end,
                    tz: Some("Europe/Vienna".into()),
                },
            }],
            Utc::now(),
        );
        assert!(text.contains("DTSTART:20260122T070000Z"), "{text}");
        assert!(text.contains("DTEND:20260124T163000Z"), "{text}");
        assert!(text.contains("SUMMARY:Alpine Arthroplasty Meeting 2026"));
        assert!(text.contains("UID:congress-1@x"));
        assert!(text.contains("DTSTAMP:"));
    }

    #[test]
    fn whole_days_end_the_day_after_the_last() {
        let first = NaiveDate::from_ymd_opt(2026, 1, 21).unwrap();
        let last = NaiveDate::from_ymd_opt(2026, 1, 24).unwrap();
        let text = ics(
            &[Entry {
                uid: "hotel@x".into(),
                summary: "Hotel".into(),
                location: None,
                description: None,
                url: None,
                when: When::Days { first, last },
            }],
            Utc::now(),
        );
        assert!(text.contains("DTSTART;VALUE=DATE:20260121"), "{text}");
        assert!(text.contains("DTEND;VALUE=DATE:20260125"), "{text}");
    }

    #[test]
    fn file_names_are_slugs() {
        assert_eq!(file_name("Hip & Knee: Day 1"), "hip-knee-day-1.ics");
        assert_eq!(file_name("!!!"), "event.ics");
    }
}
