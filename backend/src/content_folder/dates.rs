//! Dates and times as content files write them, read the same way by every importer and by the
//! calendar files built from the imported items.

use chrono::{NaiveDate, NaiveTime};

/// A `yyyy-mm-dd` date, exactly ten characters (`2026-5-1` is refused).
pub fn parse_day(text: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .ok()
        .filter(|_| text.len() == 10)
}

/// `hh:mm` with two-digit hours and minutes.
pub fn parse_hhmm(text: &str) -> Option<NaiveTime> {
    let t = text.trim();
    if t.len() != 5 {
        return None;
    }
    NaiveTime::parse_from_str(t, "%H:%M").ok()
}

/// Reads the start and optional end of a free-text time such as `09:00`, `12:30–13:30` or
/// `08:30 - 17:30`.
pub fn parse_time_range(text: &str) -> Option<(NaiveTime, Option<NaiveTime>)> {
    let text = text.trim();
    let start = parse_hhmm(text.get(..5)?)?;
    let rest = text
        .get(5..)?
        .trim_start_matches(|c: char| c.is_whitespace() || matches!(c, '-' | '–' | '—'));
    let end = rest.get(..5).and_then(parse_hhmm);
    Some((start, end))
}

/// A date of a content file that is neither `yyyy-mm-dd` nor an RFC 3339 date-time.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("'{0}' is neither a date nor a date-time")]
pub struct NotADate(pub String);

/// `2026-04-20T09:00:00Z` or `2026-03-30` (midnight UTC), as milliseconds since the epoch.
pub fn parse_instant_ms(text: &str) -> Result<i64, NotADate> {
    if let Ok(at) = chrono::DateTime::parse_from_rfc3339(text) {
        return Ok(at.timestamp_millis());
    }
    NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .map(|day| day.and_time(NaiveTime::MIN).and_utc().timestamp_millis())
        .map_err(|_| NotADate(text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(h: u32, m: u32) -> NaiveTime {
        NaiveTime::from_hms_opt(h, m, 0).expect("time")
    }

    #[test]
    fn parse_hhmm_needs_two_digit_hours_and_minutes() {
        assert!(parse_hhmm("08:30").is_some());
        assert!(parse_hhmm("8:30").is_none());
        assert!(parse_hhmm("24:00").is_none());
        assert!(parse_hhmm("12:61").is_none());
    }

    #[test]
    fn a_time_range_reads_its_start_and_end() {
        assert_eq!(parse_time_range("09:00"), Some((t(9, 0), None)));
        assert_eq!(
            parse_time_range("12:30–13:30"),
            Some((t(12, 30), Some(t(13, 30))))
        );
        assert_eq!(
            parse_time_range("08:30 - 17:30"),
            Some((t(8, 30), Some(t(17, 30))))
        );
        assert_eq!(parse_time_range("All day"), None);
        assert_eq!(parse_time_range("9:00"), None);
    }

    #[test]
    fn a_day_is_ten_characters() {
        assert!(parse_day("2026-05-01").is_some());
        assert!(parse_day("2026-5-1").is_none());
        assert!(parse_day("2026-13-01").is_none());
    }

    #[test]
    fn an_instant_is_a_date_or_a_date_time() {
        assert_eq!(parse_instant_ms("1970-01-02"), Ok(86_400_000));
        assert_eq!(parse_instant_ms("1970-01-01T00:00:01Z"), Ok(1_000));
        assert!(parse_instant_ms("yesterday").is_err());
    }
}
