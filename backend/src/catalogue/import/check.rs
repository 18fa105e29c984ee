//! Checks shared by the catalogue's content files.

use std::collections::HashSet;
use std::path::Path;

use crate::content_folder::file::{safe_relative, ContentError, ContentFile};

/// Checks media paths (`/media/...`) against the content folder.
pub(super) struct Media<'a> {
    pub dir: &'a Path,
}

impl Media<'_> {
    pub fn check(&self, file: &ContentFile, field: &str, path: &str) -> Result<(), ContentError> {
        let rel = path
            .strip_prefix("/media/")
            .filter(|r| safe_relative(r))
            .ok_or_else(|| file.invalid(field, format!("'{path}' must be a path under /media/")))?;
        if !self.dir.join("media").join(rel).is_file() {
            return Err(file.invalid(field, format!("image {path} does not exist")));
        }
        Ok(())
    }
}

/// Ids are positive and unique within a file.
pub(super) fn unique<T>(
    file: &ContentFile,
    items: &[T],
    id: impl Fn(&T) -> i64,
) -> Result<(), ContentError> {
    let mut seen = HashSet::new();
    for (i, item) in items.iter().enumerate() {
        let v = id(item);
        if v <= 0 {
            return Err(file.invalid(format!("[{i}].id"), format!("id {v} must be positive")));
        }
        if !seen.insert(v) {
            return Err(file.invalid(format!("[{i}].id"), format!("duplicate id {v}")));
        }
    }
    Ok(())
}

pub(super) fn not_blank(
    file: &ContentFile,
    field: String,
    value: &str,
) -> Result<(), ContentError> {
    if value.trim().is_empty() {
        return Err(file.invalid(field, "must not be empty"));
    }
    Ok(())
}

/// A `YYYY-MM-DD` date; returns its year.
pub(super) fn date(file: &ContentFile, field: String, value: &str) -> Result<i32, ContentError> {
    use chrono::Datelike;
    chrono::NaiveDate::parse_from_str(value, "%Y-%m-%d")
        .map(|d| d.year())
        .map_err(|_| file.invalid(field, format!("'{value}' is not a date (YYYY-MM-DD)")))
}

pub(super) fn json<T: serde::Serialize>(value: &T) -> String {
    // Serialising our own plain structs cannot fail.
    serde_json::to_string(value).unwrap_or_else(|_| "null".into())
}

pub(super) fn non_empty(s: Option<String>) -> Option<String> {
    s.map(|v| v.trim().to_string()).filter(|v| !v.is_empty())
}

#[cfg(test)]
pub(super) use crate::content_folder::file::TestContent;
