//! Paged lists walked newest first: the opaque `before` cursor a page hands out as `next`, and
//! the `limit` a caller may ask for. One cursor format for every paged list, each with its own
//! tag so a cursor of one list is refused by another.

use base64::Engine as _;

use crate::error::{AppError, AppResult};

/// `next` of a page: the position of its last (oldest) entry in the list tagged `tag`, opaque
/// to clients.
pub fn cursor(tag: &str, position: i64) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(format!("{tag}:{position}"))
}

/// The `before` of a query on the list tagged `tag`: a cursor this server gave it (400
/// otherwise).
pub fn parse_cursor(tag: &str, raw: &str) -> AppResult<i64> {
    let bad = || AppError::bad_request("'before' is not a cursor this server gave");
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(raw.trim())
        .map_err(|_| bad())?;
    let text = String::from_utf8(bytes).map_err(|_| bad())?;
    text.strip_prefix(tag)
        .and_then(|rest| rest.strip_prefix(':'))
        .and_then(|n| n.parse::<i64>().ok())
        .filter(|n| *n > 0)
        .ok_or_else(bad)
}

/// The `limit` of a query: 1 to `max`, `default` when absent (400 otherwise).
pub fn limit(raw: Option<i64>, default: i64, max: i64) -> AppResult<i64> {
    match raw {
        None => Ok(default),
        Some(n) if (1..=max).contains(&n) => Ok(n),
        Some(_) => Err(AppError::bad_request(format!(
            "'limit' must be between 1 and {max}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_refuse_anything_else() {
        assert_eq!(parse_cursor("h1", &cursor("h1", 42)).ok(), Some(42));
        for bad in ["42", "", "garbage", &cursor("h1", 0), &cursor("h1", -3)] {
            assert!(parse_cursor("h1", bad).is_err(), "{bad}");
        }
        // Another list's cursor, or a tag that only starts like this one's.
        assert!(parse_cursor("h1", &cursor("a1", 42)).is_err());
        assert!(parse_cursor("h1", &cursor("h12", 42)).is_err());
        let other = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode("h1:x");
        assert!(parse_cursor("h1", &other).is_err());
    }

    #[test]
    fn limits_are_one_to_the_maximum() {
        assert_eq!(limit(None, 50, 200).ok(), Some(50));
        assert_eq!(limit(Some(1), 50, 200).ok(), Some(1));
        assert_eq!(limit(Some(200), 50, 200).ok(), Some(200));
        assert!(limit(Some(0), 50, 200).is_err());
        assert!(limit(Some(201), 50, 200).is_err());
        assert!(limit(Some(-5), 50, 200).is_err());
    }
}
