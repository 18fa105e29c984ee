//! Courses in time: when a course day has taken place.
//!
//! A day is over once it has ended where the course takes place: at midnight after the day in
//! the course's time zone (`timezone` of the content). A course without a time zone is judged
//! as late as anywhere on Earth (UTC-12), so no one is told a day is over while it is still
//! under way somewhere. A course has ended when its last day (its `end_date`) has.
//!
//! The instant the calendar is read at is the server's clock, or `CALENDAR_NOW` when set
//! ([`calendar_now_ms`]), so the tests and demonstrations of dated content do not depend on
//! the day they run.

use chrono::{DateTime, Duration, FixedOffset, NaiveDate, TimeZone, Utc};
use serde::Deserialize;

use crate::config::Config;

/// The offset of the last place on Earth where a date is still under way.
const LATEST_OFFSET_SECONDS: i32 = -12 * 3600;

/// Milliseconds since the epoch at which `date` has ended in `timezone` (an IANA name).
pub fn day_end_ms(date: NaiveDate, timezone: Option<&str>) -> i64 {
    let next = date
        .succ_opt()
        .unwrap_or(date)
        .and_hms_opt(0, 0, 0)
        .unwrap_or_default();
    let zone = timezone.and_then(|t| t.parse::<chrono_tz::Tz>().ok());
    let end: Option<DateTime<Utc>> = match zone {
        // `earliest` settles a midnight that a clock change makes ambiguous; a midnight that
        // does not exist (a spring-forward at 00:00) falls back to an hour later.
        Some(zone) => zone
            .from_local_datetime(&next)
            .earliest()
            .or_else(|| {
                zone.from_local_datetime(&(next + Duration::hours(1)))
                    .earliest()
            })
            .map(|t| t.with_timezone(&Utc)),
        None => None,
    };
    let end = end.unwrap_or_else(|| {
        FixedOffset::east_opt(LATEST_OFFSET_SECONDS)
            .and_then(|o| o.from_local_datetime(&next).single())
            .map(|t| t.with_timezone(&Utc))
            .unwrap_or_else(|| Utc.from_utc_datetime(&next))
    });
    end.timestamp_millis()
}

/// Whether `date` (`yyyy-mm-dd`) has ended at `now_ms` in `timezone`. A text that is not a date
/// is never past.
pub fn is_past(date: &str, timezone: Option<&str>, now_ms: i64) -> bool {
    NaiveDate::parse_from_str(date.trim(), "%Y-%m-%d")
        .map(|d| day_end_ms(d, timezone) <= now_ms)
        .unwrap_or(false)
}

/// The instant the course calendar is read at, in milliseconds since the epoch.
pub fn calendar_now_ms(config: &Config) -> i64 {
    config
        .calendar_now
        .map(|t| t.timestamp_millis())
        .unwrap_or_else(projections::now_ms)
}

/// The current year of the course calendar.
pub fn calendar_year(config: &Config) -> i64 {
    use chrono::Datelike;
    let now = config.calendar_now.unwrap_or_else(Utc::now);
    i64::from(now.year())
}

/// The fields of a stored course that say when it takes place.
#[derive(Debug, Deserialize)]
pub struct CourseDates {
    pub end_date: String,
    #[serde(default)]
    pub timezone: Option<String>,
}

impl CourseDates {
    /// Whether the course's last day has ended at `now_ms`.
    pub fn ended(&self, now_ms: i64) -> bool {
        is_past(&self.end_date, self.timezone.as_deref(), now_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(text: &str) -> i64 {
        DateTime::parse_from_rfc3339(text)
            .unwrap()
            .timestamp_millis()
    }

    #[test]
    fn a_day_ends_at_midnight_where_the_course_takes_place() {
        // Rome is UTC+1 in March: 20 March ends at 23:00 UTC.
        assert_eq!(
            day_end_ms(
                NaiveDate::from_ymd_opt(2026, 3, 20).unwrap(),
                Some("Europe/Rome")
            ),
            ms("2026-03-20T23:00:00Z")
        );
        assert!(!is_past(
            "2026-03-20",
            Some("Europe/Rome"),
            ms("2026-03-20T22:59:59Z")
        ));
        assert!(is_past(
            "2026-03-20",
            Some("Europe/Rome"),
            ms("2026-03-20T23:00:00Z")
        ));
        // Summer time: UTC+2.
        assert!(is_past(
            "2026-07-08",
            Some("Europe/Rome"),
            ms("2026-07-08T22:00:00Z")
        ));
        assert!(!is_past(
            "2026-07-08",
            Some("Europe/Rome"),
            ms("2026-07-08T21:59:00Z")
        ));
    }

    #[test]
    fn without_a_time_zone_a_day_lasts_until_it_has_ended_everywhere() {
        assert!(!is_past("2026-03-20", None, ms("2026-03-21T11:59:00Z")));
        assert!(is_past("2026-03-20", None, ms("2026-03-21T12:00:00Z")));
        assert!(!is_past(
            "2026-03-20",
            Some("Not/AZone"),
            ms("2026-03-21T11:00:00Z")
        ));
    }

    #[test]
    fn a_text_that_is_not_a_date_is_never_past() {
        assert!(!is_past("soon", Some("Europe/Rome"), i64::MAX));
    }

    #[test]
    fn a_course_has_ended_with_its_last_day() {
        let course = CourseDates {
            end_date: "2026-03-20".into(),
            timezone: Some("Europe/Rome".into()),
        };
        assert!(!course.ended(ms("2026-03-20T12:00:00Z")));
        assert!(course.ended(ms("2026-03-21T00:00:00Z")));
    }
}
