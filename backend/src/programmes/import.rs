//! Imports congresses, their activities, sales training and medical-education courses from the
//! content folder into their tables.
//!
//! Every file is read and checked before anything is written; the first problem refuses the whole
//! import with the file, the field and the reason. The tables are then replaced in one transaction,
//! so running the import twice leaves the same rows (idempotent) and a refused import changes
//! nothing. Course registrations are events and are never touched here.
//!
//! What is stored is the item as the API serves it: document ids are replaced by the documents of
//! `documents/library.json` (each with the address of its served file, `/api/library/{id}/file`),
//! a venue's floor-plan path by the address of the library document with that file, activity ids
//! by the activities, and every "Save in calendar" place gets the address of its iCalendar file.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::Path;
use std::str::FromStr;

use chrono::{Datelike, NaiveDate, NaiveTime};
use projections::{on_db, Db};
use serde_json::{json, Map, Value};

use super::calendar::{calendar_url, parse_time_range};

/// Category classes of a course and their labels (spec 2.20).
pub const COURSE_CATEGORIES: [(&str, &str); 4] = [
    ("course", "Course"),
    ("online", "Online course"),
    ("third", "3rd-Party event"),
    ("other", "Other"),
];

/// How many rows an import wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ImportReport {
    pub congresses: usize,
    pub activities: usize,
    pub trainings: usize,
    pub courses: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// A content file is missing, is not JSON, or breaks a rule.
    #[error("{file}: {field}: {reason}")]
    Invalid {
        file: String,
        field: String,
        reason: String,
    },
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
}

/// True when no congress, training or course has been imported yet.
pub async fn is_empty(db: &Db) -> Result<bool, sqlx::Error> {
    let n: i64 = on_db!(db, pool => sqlx::query_scalar(
        "select (select count(*) from congresses) + (select count(*) from trainings) + (select count(*) from courses)")
        .fetch_one(pool).await)?;
    Ok(n == 0)
}

/// Reads `content_dir`, checks it and replaces the programme tables with it, in one transaction.
pub async fn import(db: &Db, content_dir: &Path) -> Result<ImportReport, ImportError> {
    let rows = read(content_dir)?;
    let report = ImportReport {
        congresses: rows.congresses.len(),
        activities: rows.activities.len(),
        trainings: rows.trainings.len(),
        courses: rows.courses.len(),
    };
    write(db, &rows).await?;
    Ok(report)
}

// ---------------------------------------------------------------------------------------------
// Rows
// ---------------------------------------------------------------------------------------------

struct CongressRow {
    id: i64,
    name: String,
    kind: String,
    start_date: String,
    end_date: String,
    year: i64,
    item: String,
    data: String,
}

struct ActivityRow {
    id: i64,
    congress_id: i64,
    data: String,
}

struct TrainingRow {
    id: i64,
    name: String,
    start_date: String,
    end_date: String,
    year: i64,
    item: String,
    data: String,
}

struct CourseRow {
    id: i64,
    title: String,
    start_date: String,
    end_date: String,
    year: i64,
    month: String,
    category: String,
    language: String,
    typology: String,
    show_register: bool,
    segments: BTreeSet<i64>,
    speakers: BTreeSet<String>,
    days: BTreeSet<String>,
    item: String,
    data: String,
}

struct Rows {
    congresses: Vec<CongressRow>,
    activities: Vec<ActivityRow>,
    trainings: Vec<TrainingRow>,
    courses: Vec<CourseRow>,
    filters: Vec<(&'static str, String)>,
}

async fn write(db: &Db, rows: &Rows) -> Result<(), sqlx::Error> {
    let _guard = db.write_guard().await;
    on_db!(db, pool => {
        let mut tx = pool.begin().await?;
        for table in ["course_days", "course_speakers", "course_segments", "courses", "congress_activities",
                      "congresses", "trainings", "programme_filters"] {
            sqlx::query(&format!("delete from {table}")).execute(&mut *tx).await?;
        }
        for c in &rows.congresses {
            sqlx::query("insert into congresses (id, name, type, start_date, end_date, year, item, data)
                         values ($1, $2, $3, $4, $5, $6, $7, $8)")
                .bind(c.id).bind(&c.name).bind(&c.kind).bind(&c.start_date).bind(&c.end_date)
                .bind(c.year).bind(&c.item).bind(&c.data)
                .execute(&mut *tx).await?;
        }
        for a in &rows.activities {
            sqlx::query("insert into congress_activities (id, congress_id, data) values ($1, $2, $3)")
                .bind(a.id).bind(a.congress_id).bind(&a.data)
                .execute(&mut *tx).await?;
        }
        for t in &rows.trainings {
            sqlx::query("insert into trainings (id, name, start_date, end_date, year, item, data)
                         values ($1, $2, $3, $4, $5, $6, $7)")
                .bind(t.id).bind(&t.name).bind(&t.start_date).bind(&t.end_date).bind(t.year)
                .bind(&t.item).bind(&t.data)
                .execute(&mut *tx).await?;
        }
        for c in &rows.courses {
            sqlx::query("insert into courses (id, title, start_date, end_date, year, month, category, language,
                         typology, show_register, item, data)
                         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)")
                .bind(c.id).bind(&c.title).bind(&c.start_date).bind(&c.end_date).bind(c.year)
                .bind(&c.month).bind(&c.category).bind(&c.language).bind(&c.typology)
                .bind(c.show_register).bind(&c.item).bind(&c.data)
                .execute(&mut *tx).await?;
            for s in &c.segments {
                sqlx::query("insert into course_segments (course_id, segment_id) values ($1, $2)")
                    .bind(c.id).bind(*s).execute(&mut *tx).await?;
            }
            for s in &c.speakers {
                sqlx::query("insert into course_speakers (course_id, name) values ($1, $2)")
                    .bind(c.id).bind(s).execute(&mut *tx).await?;
            }
            for d in &c.days {
                sqlx::query("insert into course_days (course_id, day) values ($1, $2)")
                    .bind(c.id).bind(d).execute(&mut *tx).await?;
            }
        }
        for (kind, data) in &rows.filters {
            sqlx::query("insert into programme_filters (kind, data) values ($1, $2)")
                .bind(*kind).bind(data).execute(&mut *tx).await?;
        }
        tx.commit().await
    })
}

// ---------------------------------------------------------------------------------------------
// Checking
// ---------------------------------------------------------------------------------------------

/// Checks values of one file and names the file and the field in each refusal.
struct Check<'a> {
    file: &'a str,
}

type Res<T> = Result<T, ImportError>;

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

impl<'a> Check<'a> {
    fn new(file: &'a str) -> Self {
        Check { file }
    }

    fn err(&self, field: impl Into<String>, reason: impl Into<String>) -> ImportError {
        ImportError::Invalid {
            file: self.file.to_string(),
            field: field.into(),
            reason: reason.into(),
        }
    }

    fn obj<'v>(&self, v: &'v Value, path: &str) -> Res<&'v Map<String, Value>> {
        v.as_object()
            .ok_or_else(|| self.err(path, "must be an object"))
    }

    fn array<'v>(&self, v: &'v Value, path: &str) -> Res<&'v Vec<Value>> {
        v.as_array().ok_or_else(|| self.err(path, "must be a list"))
    }

    fn field<'v>(&self, m: &'v Map<String, Value>, path: &str, key: &str) -> Res<&'v Value> {
        m.get(key)
            .ok_or_else(|| self.err(join(path, key), "missing"))
    }

    fn child<'v>(
        &self,
        m: &'v Map<String, Value>,
        path: &str,
        key: &str,
    ) -> Res<&'v Map<String, Value>> {
        self.obj(self.field(m, path, key)?, &join(path, key))
    }

    fn opt_child<'v>(
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
    fn opt_list<'v>(&self, m: &'v Map<String, Value>, path: &str, key: &str) -> Res<&'v [Value]> {
        match m.get(key) {
            None | Some(Value::Null) => Ok(&[]),
            Some(v) => self.array(v, &join(path, key)).map(Vec::as_slice),
        }
    }

    /// A non-blank string.
    fn string(&self, m: &Map<String, Value>, path: &str, key: &str) -> Res<String> {
        match self.field(m, path, key)? {
            Value::String(s) if !s.trim().is_empty() => Ok(s.clone()),
            Value::String(_) => Err(self.err(join(path, key), "must not be empty")),
            _ => Err(self.err(join(path, key), "must be a text")),
        }
    }

    /// A string that may be empty or absent (then empty).
    fn text(&self, m: &Map<String, Value>, path: &str, key: &str) -> Res<String> {
        match m.get(key) {
            None | Some(Value::Null) => Ok(String::new()),
            Some(Value::String(s)) => Ok(s.clone()),
            Some(_) => Err(self.err(join(path, key), "must be a text")),
        }
    }

    /// A non-blank string, or nothing.
    fn opt_string(&self, m: &Map<String, Value>, path: &str, key: &str) -> Res<Option<String>> {
        match m.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(self.err(join(path, key), "must be a text or null")),
        }
    }

    fn id(&self, v: &Value, path: &str) -> Res<i64> {
        match v.as_i64() {
            Some(n) if n > 0 => Ok(n),
            _ => Err(self.err(path, "must be a positive whole number")),
        }
    }

    fn int(&self, m: &Map<String, Value>, path: &str, key: &str) -> Res<i64> {
        self.id(self.field(m, path, key)?, &join(path, key))
    }

    fn boolean(&self, m: &Map<String, Value>, path: &str, key: &str) -> Res<bool> {
        match m.get(key) {
            None | Some(Value::Null) => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(self.err(join(path, key), "must be true or false")),
        }
    }

    fn date(&self, m: &Map<String, Value>, path: &str, key: &str) -> Res<NaiveDate> {
        let text = self.string(m, path, key)?;
        NaiveDate::parse_from_str(&text, "%Y-%m-%d")
            .ok()
            .filter(|_| text.len() == 10)
            .ok_or_else(|| {
                self.err(
                    join(path, key),
                    format!("'{text}' is not a date (yyyy-mm-dd)"),
                )
            })
    }

    fn time(&self, m: &Map<String, Value>, path: &str, key: &str) -> Res<NaiveTime> {
        let text = self.string(m, path, key)?;
        parse_hhmm(&text)
            .ok_or_else(|| self.err(join(path, key), format!("'{text}' is not a time (hh:mm)")))
    }

    fn opt_time(&self, m: &Map<String, Value>, path: &str, key: &str) -> Res<Option<NaiveTime>> {
        match self.opt_string(m, path, key)? {
            None => Ok(None),
            Some(_) => self.time(m, path, key).map(Some),
        }
    }

    fn timezone(&self, m: &Map<String, Value>, path: &str) -> Res<Option<String>> {
        let Some(tz) = self.opt_string(m, path, "timezone")? else {
            return Ok(None);
        };
        chrono_tz::Tz::from_str(&tz)
            .map_err(|_| self.err(join(path, "timezone"), format!("'{tz}' is not a time zone")))?;
        Ok(Some(tz))
    }

    fn ids(&self, m: &Map<String, Value>, path: &str, key: &str) -> Res<Vec<i64>> {
        self.opt_list(m, path, key)?
            .iter()
            .enumerate()
            .map(|(i, v)| self.id(v, &format!("{}[{i}]", join(path, key))))
            .collect()
    }

    /// The keys of each item's `tabs`, in the order the file writes them: the app shows
    /// congress and training tabs in that order (spec 2.18, 2.19), and a JSON object read into
    /// a `Value` does not keep it.
    fn tab_orders(&self, dir: &Path) -> Res<Vec<Vec<String>>> {
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

    fn json(&self, dir: &Path) -> Res<Value> {
        let path = dir.join(self.file);
        let text = std::fs::read_to_string(&path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                self.err("-", "file missing")
            } else {
                self.err("-", format!("cannot be read: {e}"))
            }
        })?;
        serde_json::from_str(&text)
            .map_err(|e| self.err(format!("line {}", e.line()), format!("invalid JSON: {e}")))
    }
}

/// The keys of a JSON object in the order they are written (values skipped).
#[derive(Default)]
struct KeyOrder(Vec<String>);

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

/// `hh:mm` with two-digit hours and minutes.
pub fn parse_hhmm(text: &str) -> Option<NaiveTime> {
    let t = text.trim();
    if t.len() != 5 {
        return None;
    }
    NaiveTime::parse_from_str(t, "%H:%M").ok()
}

fn set(target: &mut Value, key: &str, value: Value) {
    if let Some(m) = target.as_object_mut() {
        m.insert(key.to_string(), value);
    }
}

// ---------------------------------------------------------------------------------------------
// Reading the content folder
// ---------------------------------------------------------------------------------------------

fn read(dir: &Path) -> Res<Rows> {
    let library = read_library(dir)?;
    let (activities, activity_rows) = read_activities(dir, &library)?;
    let congresses = read_congresses(dir, &library, &activities)?;
    // Every activity must be listed by its own congress (checked against the congress file).
    let trainings = read_trainings(dir, &library)?;
    let courses = read_courses(dir, &library)?;
    let filters = vec![
        ("congresses", read_filters(dir, "congresses/filters.json")?),
        ("training", read_filters(dir, "training/filters.json")?),
        ("courses", read_filters(dir, "courses/filters.json")?),
    ];
    Ok(Rows {
        congresses,
        activities: activity_rows,
        trainings,
        courses,
        filters,
    })
}

/// The library documents that programmes refer to: by id (lists of files) and by content path
/// (a venue's floor plan), each as served.
struct Library {
    by_id: HashMap<i64, Value>,
    by_path: HashMap<String, i64>,
}

/// Where the signed-in app fetches a library document's file (checked and served by the
/// catalogue's library route, which needs the bearer token).
fn library_file_url(id: i64) -> String {
    format!("/api/library/{id}/file")
}

/// The documents of `documents/library.json` as programmes serve them: `type: file` and the
/// address of the served file instead of the raw content path, which no route serves.
fn read_library(dir: &Path) -> Res<Library> {
    let check = Check::new("documents/library.json");
    let docs = check.json(dir)?;
    let mut by_id = HashMap::new();
    let mut by_path = HashMap::new();
    for (i, d) in check.array(&docs, "-")?.iter().enumerate() {
        let m = check.obj(d, &format!("[{i}]"))?;
        let id = check.int(m, &format!("[{i}]"), "id")?;
        let path = format!("id {id}");
        check.string(m, &path, "title")?;
        let file = check.string(m, &path, "file")?;
        let mut doc = d.clone();
        set(&mut doc, "type", json!("file"));
        set(&mut doc, "url", json!(library_file_url(id)));
        if let Some(fields) = doc.as_object_mut() {
            fields.remove("file");
            fields.remove("category");
        }
        if by_id.insert(id, doc).is_some() {
            return Err(check.err(path, "duplicate id"));
        }
        by_path.insert(file, id);
    }
    Ok(Library { by_id, by_path })
}

/// A link to a content file (`/files/...`, e.g. a venue's floor plan) becomes the address of
/// the library document with that file; a path that names no library document is refused, so
/// the app never links to an address that answers with something else than the file.
fn document_link(
    check: &Check<'_>,
    library: &Library,
    m: &Map<String, Value>,
    path: &str,
    key: &str,
) -> Res<Option<String>> {
    let Some(link) = check.opt_string(m, path, key)? else {
        return Ok(None);
    };
    match library.by_path.get(&link) {
        Some(id) => Ok(Some(library_file_url(*id))),
        None => Err(check.err(
            join(path, key),
            format!("'{link}' is not the file of a document in documents/library.json"),
        )),
    }
}

fn documents(
    check: &Check<'_>,
    library: &Library,
    m: &Map<String, Value>,
    path: &str,
    key: &str,
) -> Res<Value> {
    let ids = check.ids(m, path, key)?;
    ids.iter()
        .map(|id| {
            library.by_id.get(id).cloned().ok_or_else(|| {
                check.err(
                    join(path, key),
                    format!("document {id} not in documents/library.json"),
                )
            })
        })
        .collect::<Res<Vec<_>>>()
        .map(Value::Array)
}

/// Start and end of a dated range, checked to be in order. `keys` are the start date, start time,
/// end date and end time fields; an empty time key means the range has no times.
fn checked_range(
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

fn read_activities(dir: &Path, library: &Library) -> Res<(HashMap<i64, Value>, Vec<ActivityRow>)> {
    let check = Check::new("congresses/activities.json");
    let all = check.json(dir)?;
    let mut served = HashMap::new();
    let mut rows = Vec::new();
    for (i, a) in check.array(&all, "-")?.iter().enumerate() {
        let m = check.obj(a, &format!("[{i}]"))?;
        let id = check.int(m, &format!("[{i}]"), "id")?;
        let path = &format!("[{i}] id {id}");
        check.string(m, path, "title")?;
        checked_range(
            &check,
            m,
            path,
            ["start_date", "start_date_time", "end_date", "end_date_time"],
        )?;
        let congress_id = check.int(m, path, "parent_id")?;
        check.string(m, path, "parent_name")?;
        for (j, e) in check.opt_list(m, path, "experts")?.iter().enumerate() {
            let em = check.obj(e, &format!("{path}.experts[{j}]"))?;
            check.string(em, &format!("{path}.experts[{j}]"), "name")?;
        }
        let mut data = a.clone();
        set(
            &mut data,
            "files",
            documents(&check, library, m, path, "files")?,
        );
        if check.boolean(m, path, "save_event")? {
            set(
                &mut data,
                "calendar",
                json!(calendar_url("activity", &id.to_string())),
            );
        }
        if served.insert(id, data.clone()).is_some() {
            return Err(check.err(path, "duplicate id"));
        }
        rows.push(ActivityRow {
            id,
            congress_id,
            data: data.to_string(),
        });
    }
    Ok((served, rows))
}

/// Who owns the tabs being read: the prefix of their calendar ids.
#[derive(Clone, Copy)]
struct Owner {
    kind: &'static str,
    id: i64,
}

impl Owner {
    fn calendar(&self, kind: &str, rest: &[usize]) -> Value {
        let mut id = format!("{}-{}", self.kind, self.id);
        for n in rest {
            id.push_str(&format!("-{n}"));
        }
        json!(calendar_url(kind, &id))
    }
}

/// Checks the tabs shared by congresses and training and adds their calendar links and documents.
/// `activities` holds the congress activities by id; training lists its activities inline.
fn read_tabs(
    check: &Check<'_>,
    library: &Library,
    owner: Owner,
    tabs_value: &Value,
    path: &str,
    activities: Option<&HashMap<i64, Value>>,
) -> Res<Value> {
    let tabs_path = join(path, "tabs");
    let tabs = check.obj(tabs_value, &tabs_path)?;
    if !tabs.contains_key("info") {
        return Err(check.err(join(&tabs_path, "info"), "missing"));
    }
    let mut out = Map::new();
    for (key, tab) in tabs {
        let tp = join(&tabs_path, key);
        let tm = check.obj(tab, &tp)?;
        check.string(tm, &tp, "title")?;
        let content = check.child(tm, &tp, "content")?;
        let cp = join(&tp, "content");
        let mut served = Value::Object(content.clone());
        match key.as_str() {
            "info" => {
                checked_range(
                    check,
                    content,
                    &cp,
                    [
                        "first_date",
                        "first_date_time",
                        "last_date",
                        "last_date_time",
                    ],
                )?;
                check.text(content, &cp, "description")?;
                if let Some(video) = check.opt_child(content, &cp, "intro_video")? {
                    check.string(video, &join(&cp, "intro_video"), "preview_image")?;
                }
                if check.boolean(content, &cp, "save_event")? {
                    let own = calendar_url(owner.kind, &owner.id.to_string());
                    set(&mut served, "calendar", json!(own));
                }
            }
            "details" => {
                if let Some(timing) = check.opt_child(content, &cp, "timing_dates")? {
                    let p = join(&cp, "timing_dates");
                    checked_range(
                        check,
                        timing,
                        &p,
                        ["from_date", "from_time", "to_date", "to_time"],
                    )?;
                    if check.boolean(timing, &p, "save_event")? {
                        if let Some(t) = served.get_mut("timing_dates") {
                            set(t, "calendar", owner.calendar("timing", &[]));
                        }
                    }
                }
                if let Some(venue) = check.opt_child(content, &cp, "congress_venue")? {
                    let p = join(&cp, "congress_venue");
                    check.opt_list(venue, &p, "gallery")?;
                    check.text(venue, &p, "description")?;
                    if let Some(url) = document_link(check, library, venue, &p, "link_download")? {
                        if let Some(v) = served.get_mut("congress_venue") {
                            set(v, "link_download", json!(url));
                        }
                    }
                }
            }
            "hotel" => {
                read_hotel_tab(check, owner, content, &cp, &mut served)?;
            }
            "day" => {
                for (d, day) in check.opt_list(content, &cp, "events")?.iter().enumerate() {
                    let dp = format!("{cp}.events[{d}]");
                    let dm = check.obj(day, &dp)?;
                    check.date(dm, &dp, "date")?;
                    for (e, event) in check.opt_list(dm, &dp, "events")?.iter().enumerate() {
                        let ep = format!("{dp}.events[{e}]");
                        let em = check.obj(event, &ep)?;
                        check.string(em, &ep, "title")?;
                        let time = check.string(em, &ep, "time")?;
                        if parse_time_range(&time).is_none() {
                            return Err(check.err(
                                join(&ep, "time"),
                                format!("'{time}' does not start with a time (hh:mm)"),
                            ));
                        }
                        if check.boolean(em, &ep, "save_event")? {
                            if let Some(target) = served
                                .get_mut("events")
                                .and_then(|v| v.get_mut(d))
                                .and_then(|v| v.get_mut("events"))
                                .and_then(|v| v.get_mut(e))
                            {
                                set(target, "calendar", owner.calendar("day-event", &[d, e]));
                            }
                        }
                    }
                }
            }
            "activities" => {
                let mut groups = Vec::new();
                for (g, group) in check
                    .opt_list(content, &cp, "activities")?
                    .iter()
                    .enumerate()
                {
                    let gp = format!("{cp}.activities[{g}]");
                    let gm = check.obj(group, &gp)?;
                    let label = check.string(gm, &gp, "label")?;
                    let mut events = Vec::new();
                    for (e, event) in check.opt_list(gm, &gp, "events")?.iter().enumerate() {
                        let ep = format!("{gp}.events[{e}]");
                        match activities {
                            Some(by_id) => {
                                let id = check.id(event, &ep)?;
                                let activity = by_id.get(&id).ok_or_else(|| {
                                    check.err(&ep, format!("activity {id} not found"))
                                })?;
                                if activity.get("parent_id").and_then(Value::as_i64)
                                    != Some(owner.id)
                                {
                                    return Err(check.err(
                                        &ep,
                                        format!("activity {id} belongs to another congress"),
                                    ));
                                }
                                events.push(activity.clone());
                            }
                            None => {
                                let em = check.obj(event, &ep)?;
                                check.int(em, &ep, "id")?;
                                check.string(em, &ep, "title")?;
                                check.text(em, &ep, "type")?;
                                checked_range(
                                    check,
                                    em,
                                    &ep,
                                    ["start_date", "start_date_time", "end_date", "end_date_time"],
                                )?;
                                events.push(event.clone());
                            }
                        }
                    }
                    groups.push(json!({ "label": label, "events": events }));
                }
                set(&mut served, "activities", Value::Array(groups));
            }
            "messages" | "key" => {
                for (n, message) in check.opt_list(content, &cp, "messages")?.iter().enumerate() {
                    let mp = format!("{cp}.messages[{n}]");
                    let mm = check.obj(message, &mp)?;
                    check.string(mm, &mp, "title")?;
                    check.opt_list(mm, &mp, "images")?;
                }
            }
            "media" => {
                for (n, acc) in check
                    .opt_list(content, &cp, "accordions")?
                    .iter()
                    .enumerate()
                {
                    let ap = format!("{cp}.accordions[{n}]");
                    let am = check.obj(acc, &ap)?;
                    check.string(am, &ap, "title")?;
                    check.opt_list(am, &ap, "images")?;
                    check.opt_list(am, &ap, "videos")?;
                }
                check.opt_list(content, &cp, "general_images")?;
                check.opt_list(content, &cp, "general_videos")?;
            }
            "downloads" | "download" => {
                set(
                    &mut served,
                    "files",
                    documents(check, library, content, &cp, "files")?,
                );
            }
            _ => {}
        }
        out.insert(
            key.clone(),
            json!({ "title": tm.get("title"), "content": served }),
        );
    }
    Ok(Value::Object(out))
}

fn read_hotel_tab(
    check: &Check<'_>,
    owner: Owner,
    content: &Map<String, Value>,
    cp: &str,
    served: &mut Value,
) -> Res<()> {
    let hotel_keys = ["checkin_date", "", "checkout_date", ""];
    let transfer_keys = [
        "transfer_date",
        "transfer_time",
        "transfer_return_date",
        "transfer_return_time",
    ];
    if let Some(hotel) = check.opt_child(content, cp, "hotel")? {
        let p = join(cp, "hotel");
        check.string(hotel, &p, "name")?;
        checked_range(check, hotel, &p, hotel_keys)?;
        if check.boolean(hotel, &p, "save_event")? {
            if let Some(t) = served.get_mut("hotel") {
                set(t, "calendar", owner.calendar("hotel", &[0]));
            }
        }
    }
    if let Some(transfer) = check.opt_child(content, cp, "transfer")? {
        let p = join(cp, "transfer");
        checked_range(check, transfer, &p, transfer_keys)?;
        if check.boolean(transfer, &p, "save_event")? {
            if let Some(t) = served.get_mut("transfer") {
                set(t, "calendar", owner.calendar("transfer", &[0]));
            }
        }
    }
    for (list, kind, keys) in [
        ("additional_hotels", "hotel", hotel_keys),
        ("additional_transfers", "transfer", transfer_keys),
    ] {
        for (n, entry) in check.opt_list(content, cp, list)?.iter().enumerate() {
            let p = format!("{cp}.{list}[{n}]");
            let m = check.obj(entry, &p)?;
            if kind == "hotel" {
                check.string(m, &p, "name")?;
            }
            checked_range(check, m, &p, keys)?;
            if check.boolean(m, &p, "save_event")? {
                if let Some(t) = served.get_mut(list).and_then(|v| v.get_mut(n)) {
                    set(t, "calendar", owner.calendar(kind, &[n + 1]));
                }
            }
        }
    }
    Ok(())
}

fn read_congresses(
    dir: &Path,
    library: &Library,
    activities: &HashMap<i64, Value>,
) -> Res<Vec<CongressRow>> {
    let check = Check::new("congresses/congresses.json");
    let all = check.json(dir)?;
    let tab_orders = check.tab_orders(dir)?;
    let mut rows = Vec::new();
    let mut seen = HashSet::new();
    let mut listed: HashSet<i64> = HashSet::new();
    for (i, c) in check.array(&all, "-")?.iter().enumerate() {
        let m = check.obj(c, &format!("[{i}]"))?;
        let id = check.int(m, &format!("[{i}]"), "id")?;
        let path = format!("[{i}] id {id}");
        if !seen.insert(id) {
            return Err(check.err(path, "duplicate id"));
        }
        let name = check.string(m, &path, "name")?;
        let kind = check.string(m, &path, "type")?;
        if kind != "event" && kind != "congress" {
            return Err(check.err(join(&path, "type"), "must be 'event' or 'congress'"));
        }
        check.string(m, &path, "dates")?;
        let date = check.date(m, &path, "date")?;
        check.timezone(m, &path)?;
        let tabs = read_tabs(
            &check,
            library,
            Owner {
                kind: "congress",
                id,
            },
            check.field(m, &path, "tabs")?,
            &path,
            Some(activities),
        )?;
        let info = check.child(
            check.child(check.child(m, &path, "tabs")?, &path, "info")?,
            &path,
            "content",
        )?;
        let end_date = check.date(info, &join(&path, "tabs.info.content"), "last_date")?;
        if check.date(info, &join(&path, "tabs.info.content"), "first_date")? != date {
            return Err(check.err(
                join(&path, "date"),
                "must equal tabs.info.content.first_date",
            ));
        }
        if let Some(groups) = tabs
            .pointer("/activities/content/activities")
            .and_then(Value::as_array)
        {
            for g in groups {
                for e in g
                    .get("events")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    if let Some(a) = e.get("id").and_then(Value::as_i64) {
                        listed.insert(a);
                    }
                }
            }
        }
        let item = json!({
            "id": id, "name": name, "subtitle": check.text(m, &path, "subtitle")?, "type": kind,
            "dates": m.get("dates"), "date": m.get("date"), "end_date": end_date.to_string(),
            "preview": m.get("preview"),
        });
        let mut data = c.clone();
        set(&mut data, "tabs", tabs);
        set(&mut data, "tab_order", json!(tab_orders.get(i)));
        set(&mut data, "end_date", json!(end_date.to_string()));
        rows.push(CongressRow {
            id,
            name,
            kind,
            start_date: date.to_string(),
            end_date: end_date.to_string(),
            year: i64::from(date.year()),
            item: item.to_string(),
            data: data.to_string(),
        });
    }
    let check = Check::new("congresses/activities.json");
    let mut orphans: Vec<_> = activities.keys().filter(|a| !listed.contains(a)).collect();
    orphans.sort();
    if let Some(a) = orphans.first() {
        return Err(check.err(
            format!("id {a}"),
            "not listed in its congress's activities tab",
        ));
    }
    Ok(rows)
}

fn read_trainings(dir: &Path, library: &Library) -> Res<Vec<TrainingRow>> {
    let check = Check::new("training/trainings.json");
    let all = check.json(dir)?;
    let tab_orders = check.tab_orders(dir)?;
    let mut rows = Vec::new();
    let mut seen = HashSet::new();
    let mut event_ids = HashSet::new();
    for (i, t) in check.array(&all, "-")?.iter().enumerate() {
        let m = check.obj(t, &format!("[{i}]"))?;
        let id = check.int(m, &format!("[{i}]"), "id")?;
        let path = format!("[{i}] id {id}");
        if !seen.insert(id) {
            return Err(check.err(path, "duplicate id"));
        }
        let name = check.string(m, &path, "name")?;
        check.string(m, &path, "dates")?;
        let (start, end) = checked_range(&check, m, &path, ["start_date", "", "end_date", ""])?;
        check.timezone(m, &path)?;
        let tabs = read_tabs(
            &check,
            library,
            Owner {
                kind: "training",
                id,
            },
            check.field(m, &path, "tabs")?,
            &path,
            None,
        )?;
        if let Some(groups) = tabs
            .pointer("/activities/content/activities")
            .and_then(Value::as_array)
        {
            for g in groups {
                for e in g
                    .get("events")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    let eid = e.get("id").and_then(Value::as_i64).unwrap_or_default();
                    if !event_ids.insert(eid) {
                        return Err(check.err(
                            join(&path, "tabs.activities"),
                            format!("duplicate activity event id {eid}"),
                        ));
                    }
                }
            }
        }
        let item = json!({
            "id": id, "name": name, "subtitle": check.text(m, &path, "subtitle")?, "dates": m.get("dates"),
            "start_date": start.to_string(), "end_date": end.to_string(), "preview": m.get("preview"),
        });
        let mut data = t.clone();
        set(&mut data, "tabs", tabs);
        set(&mut data, "tab_order", json!(tab_orders.get(i)));
        rows.push(TrainingRow {
            id,
            name,
            start_date: start.to_string(),
            end_date: end.to_string(),
            year: i64::from(start.year()),
            item: item.to_string(),
            data: data.to_string(),
        });
    }
    Ok(rows)
}

fn read_courses(dir: &Path, library: &Library) -> Res<Vec<CourseRow>> {
    let settings = read_course_settings(dir)?;
    let check = Check::new("courses/courses.json");
    let all = check.json(dir)?;
    let mut rows = Vec::new();
    let mut seen = HashSet::new();
    for (i, c) in check.array(&all, "-")?.iter().enumerate() {
        let m = check.obj(c, &format!("[{i}]"))?;
        let id = check.int(m, &format!("[{i}]"), "id")?;
        let path = format!("[{i}] id {id}");
        if !seen.insert(id) {
            return Err(check.err(path, "duplicate id"));
        }
        let title = check.string(m, &path, "title")?;
        let category = check.child(m, &path, "category")?;
        let class = check.string(category, &join(&path, "category"), "class")?;
        let label = check.string(category, &join(&path, "category"), "label")?;
        match COURSE_CATEGORIES.iter().find(|(c, _)| *c == class) {
            Some((_, expected)) if *expected == label => {}
            Some((_, expected)) => {
                return Err(check.err(
                    join(&path, "category.label"),
                    format!("must be '{expected}' for class '{class}'"),
                ))
            }
            None => {
                return Err(check.err(
                    join(&path, "category.class"),
                    "must be course, online, third or other",
                ))
            }
        }
        let (start, end) = checked_range(&check, m, &path, ["start_date", "", "end_date", ""])?;
        check.timezone(m, &path)?;
        let language = check.string(m, &path, "language")?;
        let typology = check.string(m, &path, "typology")?;
        let mut segments = BTreeSet::new();
        for (n, s) in check.opt_list(m, &path, "segment")?.iter().enumerate() {
            let sp = format!("{path}.segment[{n}]");
            segments.insert(check.int(check.obj(s, &sp)?, &sp, "id")?);
        }
        let mut speakers = BTreeSet::new();
        let mut speaker_items = Vec::new();
        for (n, s) in check.opt_list(m, &path, "speakers")?.iter().enumerate() {
            let sp = format!("{path}.speakers[{n}]");
            let sm = check.obj(s, &sp)?;
            let name = check.string(sm, &sp, "name")?;
            speaker_items.push(json!({ "name": name, "image": sm.get("preview") }));
            speakers.insert(name);
        }
        let mut days = BTreeSet::new();
        let mut served_days = Vec::new();
        for (n, d) in check.opt_list(m, &path, "days")?.iter().enumerate() {
            let dp = format!("{path}.days[{n}]");
            let dm = check.obj(d, &dp)?;
            let day = check.date(dm, &dp, "date_value")?;
            if day < start || day > end {
                return Err(check.err(
                    join(&dp, "date_value"),
                    format!("{day} is outside the course dates"),
                ));
            }
            if !days.insert(day.to_string()) {
                return Err(check.err(join(&dp, "date_value"), format!("{day} is listed twice")));
            }
            check.string(dm, &dp, "date_text")?;
            for (k, sp) in check.opt_list(dm, &dp, "speakers")?.iter().enumerate() {
                match sp.as_str() {
                    Some(name) if speakers.contains(name) => {}
                    _ => {
                        return Err(check.err(
                            format!("{dp}.speakers[{k}]"),
                            "is not one of the course's speakers",
                        ))
                    }
                }
            }
            let mut served = d.clone();
            set(
                &mut served,
                "files",
                documents(&check, library, dm, &dp, "files")?,
            );
            served_days.push(served);
        }
        let show_register = check.boolean(m, &path, "show_register")?;
        if show_register && days.is_empty() {
            return Err(check.err(
                join(&path, "days"),
                "a course open to registration needs days",
            ));
        }
        let show_learn_contact = check.boolean(m, &path, "show_learn_contact")?;
        check.opt_string(m, &path, "evenium")?;
        let mut data = c.clone();
        set(
            &mut data,
            "files",
            documents(&check, library, m, &path, "files")?,
        );
        set(&mut data, "days", Value::Array(served_days));
        if let Some(outlook) = check.opt_child(m, &path, "save_outlook")? {
            let op = join(&path, "save_outlook");
            let start = check.child(outlook, &op, "start_date")?;
            let end = check.child(outlook, &op, "end_date")?;
            let from = check
                .date(start, &join(&op, "start_date"), "date")?
                .and_time(check.time(start, &join(&op, "start_date"), "time")?);
            let to = check
                .date(end, &join(&op, "end_date"), "date")?
                .and_time(check.time(end, &join(&op, "end_date"), "time")?);
            if to < from {
                return Err(check.err(join(&op, "end_date"), "the end is before the start"));
            }
            let link = check
                .opt_string(outlook, &op, "link")?
                .map(|_| json!(calendar_url("course", &id.to_string())))
                .unwrap_or(Value::Null);
            if let Some(o) = data.get_mut("save_outlook") {
                set(o, "link", link);
            }
        }
        if show_learn_contact {
            set(&mut data, "learn_contact", settings.clone());
        }
        let item = json!({
            "id": id, "title": title, "subtitle": check.text(m, &path, "subtitle")?, "typology": typology,
            "print_date": m.get("print_date"), "start_date": start.to_string(), "end_date": end.to_string(),
            "language": language, "segment": m.get("segment"), "speakers": speaker_items,
            "category": { "class": class, "label": label }, "preview": m.get("preview"),
        });
        rows.push(CourseRow {
            id,
            title,
            start_date: start.to_string(),
            end_date: end.to_string(),
            year: i64::from(start.year()),
            month: format!("{:02}", start.month()),
            category: class,
            language,
            typology,
            show_register,
            segments,
            speakers,
            days,
            item: item.to_string(),
            data: data.to_string(),
        });
    }
    Ok(rows)
}

/// The learn team's mailbox for 'Ask for more information' (`courses/settings.json`).
fn read_course_settings(dir: &Path) -> Res<Value> {
    let check = Check::new("courses/settings.json");
    let settings = check.json(dir)?;
    let m = check.obj(&settings, "-")?;
    let contact = check.child(m, "", "learn_contact")?;
    let email = check.string(contact, "learn_contact", "email")?;
    if !events::course_registration::is_valid_email(&email) {
        return Err(check.err("learn_contact.email", "is not an e-mail address"));
    }
    Ok(json!({ "email": email, "subject": check.text(contact, "learn_contact", "subject")? }))
}

/// Filter options: `{kind: [{value, label}]}`; values are served as text.
fn read_filters(dir: &Path, file: &str) -> Res<String> {
    let check = Check::new(file);
    let filters = check.json(dir)?;
    let mut out = Map::new();
    for (kind, options) in check.obj(&filters, "-")? {
        let mut served = Vec::new();
        for (n, o) in check.array(options, kind)?.iter().enumerate() {
            let p = format!("{kind}[{n}]");
            let om = check.obj(o, &p)?;
            let value = match check.field(om, &p, "value")? {
                Value::String(s) if !s.is_empty() => s.clone(),
                Value::Number(n) => n.to_string(),
                _ => return Err(check.err(join(&p, "value"), "must be a text or a number")),
            };
            let label = check.string(om, &p, "label")?;
            served.push(json!({ "value": value, "label": label }));
        }
        out.insert(kind.clone(), Value::Array(served));
    }
    Ok(Value::Object(out).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn content_dir() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../content")
    }

    #[test]
    fn the_demo_content_is_accepted() {
        let rows = read(&content_dir()).expect("demo content imports");
        assert!(rows.congresses.len() >= 8);
        assert!(rows.trainings.len() >= 5);
        assert!(rows.courses.len() >= 12);
        assert!(!rows.activities.is_empty());
    }

    #[test]
    fn parse_hhmm_needs_two_digit_hours_and_minutes() {
        assert!(parse_hhmm("08:30").is_some());
        assert!(parse_hhmm("8:30").is_none());
        assert!(parse_hhmm("24:00").is_none());
        assert!(parse_hhmm("12:61").is_none());
    }
}
