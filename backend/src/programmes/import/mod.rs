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
//!
//! One module per file family: [`library`] (`documents/library.json`), [`congresses`]
//! (`congresses/{congresses,activities}.json`), [`training`] (`training/trainings.json`),
//! [`courses`] (`courses/{courses,settings}.json`) and [`filters`] (`*/filters.json`); the tabs
//! congresses and training share are read by [`tabs`], and [`check`] holds the checks that name
//! the file, the entry and the field of every refusal (e.g.
//! `courses/courses.json: [1] id 2.category.class: must be course, online, third or other`).

mod check;
mod congresses;
mod courses;
mod filters;
mod library;
mod tabs;
mod training;

use std::collections::BTreeSet;
use std::path::Path;

use projections::{on_db, Db};
use serde_json::Value;

use crate::content_folder::library::Library;
use check::Res;
pub use courses::COURSE_CATEGORIES;

/// How many rows an import wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct ImportReport {
    pub congresses: usize,
    pub activities: usize,
    pub trainings: usize,
    pub courses: usize,
}

/// Why the content was refused: the same error as the catalogue's import (file, field, reason).
pub type ImportError = crate::content_folder::file::ContentError;

/// True when no congress, training or course has been imported yet.
pub async fn is_empty(db: &Db) -> Result<bool, sqlx::Error> {
    let n: i64 = on_db!(db, pool => sqlx::query_scalar(
        "select (select count(*) from congresses) + (select count(*) from trainings) + (select count(*) from courses)")
        .fetch_one(pool).await)?;
    Ok(n == 0)
}

/// Reads `content_dir`, checks it and replaces the programme tables with it, in one transaction.
pub async fn import(db: &Db, content_dir: &Path) -> Result<ImportReport, ImportError> {
    // The programmes store no document file: the catalogue's import stores them.
    let library = crate::content_folder::library::read_entries(content_dir)?;
    let rows = read(content_dir, &library)?;
    write(db, &rows).await?;
    Ok(rows.report())
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

/// The checked rows of every programme table, ready to be written.
pub struct Rows {
    congresses: Vec<CongressRow>,
    activities: Vec<ActivityRow>,
    trainings: Vec<TrainingRow>,
    courses: Vec<CourseRow>,
    filters: Vec<(&'static str, String)>,
}

impl Rows {
    /// The ids of the congresses, trainings and courses, for the links other content makes.
    pub fn ids(&self) -> [std::collections::HashSet<i64>; 3] {
        [
            self.congresses.iter().map(|c| c.id).collect(),
            self.trainings.iter().map(|t| t.id).collect(),
            self.courses.iter().map(|c| c.id).collect(),
        ]
    }

    /// Every course's segments are segments of the catalogue (`segments`, their ids).
    pub fn check_segments(&self, segments: &std::collections::HashSet<i64>) -> Res<()> {
        for c in &self.courses {
            if let Some(s) = c.segments.iter().find(|s| !segments.contains(s)) {
                return Err(check::Check::new("courses/courses.json").err(
                    format!("id {}.segment", c.id),
                    format!("segment {s} does not exist in catalogue/segments.json"),
                ));
            }
        }
        Ok(())
    }

    /// Every programme entity as the content's events record it: kind, key and fields (the
    /// columns of its row; a course's segments, speakers and days as lists).
    pub fn entities(&self) -> Vec<(&'static str, String, serde_json::Map<String, Value>)> {
        use serde_json::json;
        let obj = |v: Value| v.as_object().cloned().unwrap_or_default();
        let mut out = Vec::new();
        for c in &self.congresses {
            out.push((
                "congresses",
                c.id.to_string(),
                obj(json!({"id": c.id, "name": c.name,
                "type": c.kind, "start_date": c.start_date, "end_date": c.end_date, "year": c.year,
                "item": c.item, "data": c.data})),
            ));
        }
        for a in &self.activities {
            out.push((
                "activities",
                a.id.to_string(),
                obj(json!({"id": a.id,
                "congress_id": a.congress_id, "data": a.data})),
            ));
        }
        for t in &self.trainings {
            out.push((
                "trainings",
                t.id.to_string(),
                obj(json!({"id": t.id, "name": t.name,
                "start_date": t.start_date, "end_date": t.end_date, "year": t.year,
                "item": t.item, "data": t.data})),
            ));
        }
        for c in &self.courses {
            out.push((
                "courses",
                c.id.to_string(),
                obj(json!({"id": c.id, "title": c.title,
                "start_date": c.start_date, "end_date": c.end_date, "year": c.year,
                "month": c.month, "category": c.category, "language": c.language,
                "typology": c.typology, "show_register": c.show_register, "item": c.item,
                "data": c.data, "segments": c.segments, "speakers": c.speakers, "days": c.days})),
            ));
        }
        for (kind, data) in &self.filters {
            out.push((
                "filters",
                kind.to_string(),
                obj(json!({"kind": kind, "data": data})),
            ));
        }
        out
    }

    /// How many rows writing these makes.
    pub fn report(&self) -> ImportReport {
        ImportReport {
            congresses: self.congresses.len(),
            activities: self.activities.len(),
            trainings: self.trainings.len(),
            courses: self.courses.len(),
        }
    }
}

/// Replaces the programme tables with `rows`, in one transaction.
pub async fn write(db: &Db, rows: &Rows) -> Result<(), sqlx::Error> {
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

fn set(target: &mut Value, key: &str, value: Value) {
    if let Some(m) = target.as_object_mut() {
        m.insert(key.to_string(), value);
    }
}

// ---------------------------------------------------------------------------------------------
// Reading the content folder
// ---------------------------------------------------------------------------------------------

/// Reads and checks every programme file; `library` is `documents/library.json`, read and
/// checked once for every feature.
pub fn read(dir: &Path, library: &Library) -> Res<Rows> {
    use congresses::{read_activities, read_congresses};
    use courses::read_courses;
    use filters::read_filters;
    use training::read_trainings;

    let (activities, activity_rows) = read_activities(dir, library)?;
    let congresses = read_congresses(dir, library, &activities)?;
    // Every activity must be listed by its own congress (checked against the congress file).
    let trainings = read_trainings(dir, library)?;
    let courses = read_courses(dir, library)?;
    let filters = vec![
        ("congresses", read_filters(dir, "congresses/filters.json")?),
        ("training", read_filters(dir, "training/filters.json")?),
        ("courses", read_filters(dir, "courses/filters.json")?),
    ];
    served_shapes(&congresses, &activity_rows, &trainings, &courses)?;
    Ok(Rows {
        congresses,
        activities: activity_rows,
        trainings,
        courses,
        filters,
    })
}

/// Every row as stored parses as the shape the API serves it in (`programmes::items`), so a
/// field of the wrong type is refused here, naming the file, the entry and the field, rather than
/// answered 500 by the detail call later.
fn served_shapes(
    congresses: &[CongressRow],
    activities: &[ActivityRow],
    trainings: &[TrainingRow],
    courses: &[CourseRow],
) -> Res<()> {
    use crate::programmes::items;
    fn shape<T: serde::de::DeserializeOwned>(file: &str, id: i64, json: &str) -> Res<()> {
        serde_json::from_str::<T>(json).map(|_| ()).map_err(|e| {
            check::Check::new(file).err(format!("id {id}"), format!("not a valid entry: {e}"))
        })
    }
    for c in congresses {
        shape::<items::CongressRow>("congresses/congresses.json", c.id, &c.item)?;
        shape::<items::CongressDetail>("congresses/congresses.json", c.id, &c.data)?;
    }
    for a in activities {
        shape::<items::Activity>("congresses/activities.json", a.id, &a.data)?;
    }
    for t in trainings {
        shape::<items::TrainingRow>("training/trainings.json", t.id, &t.item)?;
        shape::<items::TrainingDetail>("training/trainings.json", t.id, &t.data)?;
    }
    for c in courses {
        shape::<items::CourseCard>("courses/courses.json", c.id, &c.item)?;
        shape::<items::CourseDetail>("courses/courses.json", c.id, &c.data)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn content_dir() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../content")
    }

    #[test]
    fn the_demo_content_is_accepted() {
        let library = crate::content_folder::library::read(&content_dir()).expect("library");
        let rows = read(&content_dir(), &library).expect("demo content imports");
        assert!(rows.congresses.len() >= 8);
        assert!(rows.trainings.len() >= 5);
        assert!(rows.courses.len() >= 12);
        assert!(!rows.activities.is_empty());
    }

    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).expect("folder");
        for entry in std::fs::read_dir(from).expect("content") {
            let entry = entry.expect("entry");
            let target = to.join(entry.file_name());
            if entry.path().is_dir() {
                copy(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), target).expect("copy");
            }
        }
    }

    #[test]
    fn a_field_of_the_wrong_type_is_refused_naming_file_entry_and_field() {
        let dir = tempfile::tempdir().expect("temp dir");
        copy(&content_dir(), dir.path());
        let file = dir.path().join("training/trainings.json");
        let mut trainings: Value =
            serde_json::from_str(&std::fs::read_to_string(&file).expect("read")).expect("json");
        let first = &mut trainings[0];
        let id = first["id"].as_i64().expect("id");
        // Served as text: a number is not a valid preview image.
        first["preview"] = serde_json::json!(42);
        std::fs::write(&file, trainings.to_string()).expect("write");

        let library = crate::content_folder::library::read(dir.path()).expect("library");
        let refusal = read(dir.path(), &library)
            .err()
            .expect("refused")
            .to_string();
        assert!(refusal.contains("training/trainings.json"), "{refusal}");
        assert!(refusal.contains(&format!("id {id}")), "{refusal}");
        assert!(refusal.contains("invalid type: integer `42`"), "{refusal}");
    }
}
