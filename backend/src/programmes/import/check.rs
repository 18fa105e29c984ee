//! Checks of untyped content values that name the file, the entry and the field of a refusal.

use std::path::Path;
use std::str::FromStr;

use chrono::{NaiveDate, NaiveTime};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::ImportError;
use crate::content_folder::dates::{parse_day, parse_hhmm};

// ---------------------------------------------------------------------------------------------
// Checking
// ---------------------------------------------------------------------------------------------

/// Checks values of one file and names the file and the field in each refusal.
pub(super) struct Check<'a> {
    file: &'a str,
}

pub(super) type Res<T> = Result<T, ImportError>;

pub(super) fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

impl<'a> Check<'a> {
    pub(super) fn new(file: &'a str) -> Self {
        Check { file }
    }

    pub(super) fn err(&self, field: impl Into<String>, reason: impl Into<String>) -> ImportError {
        ImportError::Invalid {
            file: self.file.to_string(),
            field: field.into(),
            reason: reason.into(),
        }
    }

    pub(super) fn obj<'v>(&self, v: &'v Value, path: &str) -> Res<&'v Map<String, Value>> {
        v.as_object()
            .ok_or_else(|| self.err(path, "must be an object"))
    }

    pub(super) fn array<'v>(&self, v: &'v Value, path: &str) -> Res<&'v Vec<Value>> {
        v.as_array().ok_or_else(|| self.err(path, "must be a list"))
    }

    pub(super) fn field<'v>(
        &self,
        m: &'v Map<String, Value>,
        path: &str,
        key: &str,
    ) -> Res<&'v Value> {
        m.get(key)
            .ok_or_else(|| self.err(join(path, key), "missing"))
    }

    pub(super) fn child<'v>(
        &self,
        m: &'v Map<String, Value>,
        path: &str,
        key: &str,
    ) -> Res<&'v Map<String, Value>> {
        self.obj(self.field(m, path, key)?, &join(path, key))
    }

    pub(super) fn opt_child<'v>(
        &self,
        m: &'v Map<String, Value>,
        path: &str,
        key: &str,
    ) -> Res<Option<&'v Map<String, Value>>> {
        match m.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => self.obj(v, &join(path, key)).map(Some),
        }
    }

    /// A list that may be absent (then empty).
    pub(super) fn opt_list<'v>(
        &self,
        m: &'v Map<String, Value>,
        path: &str,
        key: &str,
    ) -> Res<&'v [Value]> {
        match m.get(key) {
            None | Some(Value::Null) => Ok(&[]),
            Some(v) => self.array(v, &join(path, key)).map(Vec::as_slice),
        }
    }

    /// A non-blank string.
    pub(super) fn string(&self, m: &Map<String, Value>, path: &str, key: &str) -> Res<String> {
        match self.field(m, path, key)? {
            Value::String(s) if !s.trim().is_empty() => Ok(s.clone()),
            Value::String(_) => Err(self.err(join(path, key), "must not be empty")),
            _ => Err(self.err(join(path, key), "must be a text")),
        }
    }

    /// A string that may be empty or absent (then empty).
    pub(super) fn text(&self, m: &Map<String, Value>, path: &str, key: &str) -> Res<String> {
        match m.get(key) {
            None | Some(Value::Null) => Ok(String::new()),
            Some(Value::String(s)) => Ok(s.clone()),
            Some(_) => Err(self.err(join(path, key), "must be a text")),
        }
    }

    /// A non-blank string, or nothing.
    pub(super) fn opt_string(
        &self,
        m: &Map<String, Value>,
        path: &str,
        key: &str,
    ) -> Res<Option<String>> {
        match m.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(self.err(join(path, key), "must be a text or null")),
        }
    }

    pub(super) fn id(&self, v: &Value, path: &str) -> Res<i64> {
        match v.as_i64() {
            Some(n) if n > 0 => Ok(n),
            _ => Err(self.err(path, "must be a positive whole number")),
        }
    }

    pub(super) fn int(&self, m: &Map<String, Value>, path: &str, key: &str) -> Res<i64> {
        self.id(self.field(m, path, key)?, &join(path, key))
    }

    pub(super) fn boolean(&self, m: &Map<String, Value>, path: &str, key: &str) -> Res<bool> {
        match m.get(key) {
            None | Some(Value::Null) => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(self.err(join(path, key), "must be true or false")),
        }
    }

    pub(super) fn date(&self, m: &Map<String, Value>, path: &str, key: &str) -> Res<NaiveDate> {
        let text = self.string(m, path, key)?;
        parse_day(&text).ok_or_else(|| {
            self.err(
                join(path, key),
                format!("'{text}' is not a date (yyyy-mm-dd)"),
            )
        })
    }

    pub(super) fn time(&self, m: &Map<String, Value>, path: &str, key: &str) -> Res<NaiveTime> {
        let text = self.string(m, path, key)?;
        parse_hhmm(&text)
            .ok_or_else(|| self.err(join(path, key), format!("'{text}' is not a time (hh:mm)")))
    }

    pub(super) fn opt_time(
        &self,
        m: &Map<String, Value>,
        path: &str,
        key: &str,
    ) -> Res<Option<NaiveTime>> {
        match self.opt_string(m, path, key)? {
            None => Ok(None),
            Some(_) => self.time(m, path, key).map(Some),
        }
    }

    pub(super) fn timezone(&self, m: &Map<String, Value>, path: &str) -> Res<Option<String>> {
        let Some(tz) = self.opt_string(m, path, "timezone")? else {
            return Ok(None);
        };
        chrono_tz::Tz::from_str(&tz)
            .map_err(|_| self.err(join(path, "timezone"), format!("'{tz}' is not a time zone")))?;
        Ok(Some(tz))
    }

    pub(super) fn ids(&self, m: &Map<String, Value>, path: &str, key: &str) -> Res<Vec<i64>> {
        self.opt_list(m, path, key)?
            .iter()
            .enumerate()
            .map(|(i, v)| self.id(v, &format!("{}[{i}]", join(path, key))))
            .collect()
    }

    /// The keys of each item's `tabs`, in the order the file writes them: the app shows
    /// congress and training tabs in that order (spec 2.18, 2.19), and a JSON object read into
    /// a `Value` does not keep it.
    pub(super) fn tab_orders(&self, dir: &Path) -> Res<Vec<Vec<String>>> {
        #[derive(serde::Deserialize)]
        struct Item {
            #[serde(default)]
            tabs: KeyOrder,
        }
        let text = std::fs::read_to_string(dir.join(self.file))
            .map_err(|e| self.err("-", format!("cannot be read: {e}")))?;
        // A file that does not read this way is refused with a precise message by the checks of
        // its items; until then no order is known.
        let items: Vec<Item> = serde_json::from_str(&text).unwrap_or_default();
        Ok(items.into_iter().map(|i| i.tabs.0).collect())
    }

    fn text_of(&self, dir: &Path) -> Res<String> {
        std::fs::read_to_string(dir.join(self.file)).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                self.err("-", "file missing")
            } else {
                self.err("-", format!("cannot be read: {e}"))
            }
        })
    }

    pub(super) fn json(&self, dir: &Path) -> Res<Value> {
        let text = self.text_of(dir)?;
        serde_json::from_str(&text)
            .map_err(|e| self.err(format!("line {}", e.line()), format!("invalid JSON: {e}")))
    }

    /// Reads the file into its typed shape; a refusal names the field (`learn_contact.email`),
    /// or the line when the text is not JSON at all.
    pub(super) fn typed<T: DeserializeOwned>(&self, dir: &Path) -> Res<T> {
        let text = self.text_of(dir)?;
        if let Err(e) = serde_json::from_str::<serde::de::IgnoredAny>(&text) {
            return Err(self.err(format!("line {}", e.line()), format!("invalid JSON: {e}")));
        }
        let mut de = serde_json::Deserializer::from_str(&text);
        serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let path = e.path().to_string();
            let field = if path == "." { "-".to_string() } else { path };
            self.err(field, e.into_inner().to_string())
        })
    }
}

/// The keys of a JSON object in the order they are written (values skipped).
#[derive(Default)]
pub(super) struct KeyOrder(Vec<String>);

impl<'de> serde::Deserialize<'de> for KeyOrder {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Keys;
        impl<'de> serde::de::Visitor<'de> for Keys {
            type Value = KeyOrder;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<KeyOrder, A::Error> {
                let mut keys = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    map.next_value::<serde::de::IgnoredAny>()?;
                    keys.push(key);
                }
                Ok(KeyOrder(keys))
            }
            // Anything else is reported by the checks of the `Value` reading.
            fn visit_unit<E>(self) -> Result<KeyOrder, E> {
                Ok(KeyOrder::default())
            }
        }
        d.deserialize_any(Keys)
    }
}

/// Start and end of a dated range, checked to be in order. `keys` are the start date, start time,
/// end date and end time fields; an empty time key means the range has no times.
pub(super) fn checked_range(
    check: &Check<'_>,
    m: &Map<String, Value>,
    path: &str,
    keys: [&str; 4],
) -> Res<(NaiveDate, NaiveDate)> {
    let from = check.date(m, path, keys[0])?;
    let from_time = check.opt_time(m, path, keys[1])?;
    let to = check.date(m, path, keys[2])?;
    let to_time = check.opt_time(m, path, keys[3])?;
    let start = from.and_time(from_time.unwrap_or(NaiveTime::MIN));
    let end = to.and_time(to_time.unwrap_or(NaiveTime::MIN));
    if end < start {
        return Err(check.err(join(path, keys[2]), "the end is before the start"));
    }
    Ok((from, to))
}
