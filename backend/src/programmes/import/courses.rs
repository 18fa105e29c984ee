//! `courses/courses.json` and `courses/settings.json`.

use std::collections::{BTreeSet, HashSet};
use std::path::Path;

use chrono::Datelike;
use serde::Deserialize;
use serde_json::{json, Value};

use super::check::{checked_range, join, Check, Res};
use super::library::documents;
use super::{set, CourseRow};
use crate::content_folder::library::Library;
use crate::programmes::calendar::calendar_url;

/// Category classes of a course and their labels (spec 2.20).
pub const COURSE_CATEGORIES: [(&str, &str); 4] = [
    ("course", "Course"),
    ("online", "Online course"),
    ("third", "3rd-Party event"),
    ("other", "Other"),
];

pub(super) fn read_courses(dir: &Path, library: &Library) -> Res<Vec<CourseRow>> {
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SettingsIn {
    learn_contact: LearnContactIn,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LearnContactIn {
    email: String,
    #[serde(default)]
    subject: String,
}

/// The learn team's mailbox for 'Ask for more information' (`courses/settings.json`).
pub(super) fn read_course_settings(dir: &Path) -> Res<Value> {
    let check = Check::new("courses/settings.json");
    let settings: SettingsIn = check.typed(dir)?;
    let contact = settings.learn_contact;
    if !events::email::is_valid(&contact.email) {
        return Err(check.err("learn_contact.email", "is not an e-mail address"));
    }
    Ok(json!({ "email": contact.email, "subject": contact.subject }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(text: &str) -> Res<Value> {
        let dir = tempfile::tempdir().expect("dir");
        std::fs::create_dir_all(dir.path().join("courses")).unwrap();
        std::fs::write(dir.path().join("courses/settings.json"), text).unwrap();
        read_course_settings(dir.path())
    }

    #[test]
    fn the_learn_mailbox_is_read_and_checked() {
        let ok =
            settings(r#"{"learn_contact": {"email": "learn@example.com", "subject": "Info"}}"#)
                .expect("accepted");
        assert_eq!(ok, json!({"email": "learn@example.com", "subject": "Info"}));
        let err = |text: &str| settings(text).expect_err("refused").to_string();
        assert_eq!(
            err(r#"{"learn_contact": {"email": "learn at example"}}"#),
            "courses/settings.json: learn_contact.email: is not an e-mail address"
        );
        assert!(err(r#"{"learn_contact": {"mail": "learn@example.com"}}"#)
            .starts_with("courses/settings.json: learn_contact.mail: unknown field `mail`"));
        assert!(err(r#"{}"#).starts_with("courses/settings.json: -: missing field `learn_contact`"));
    }
}
