//! `congresses/congresses.json` and `congresses/activities.json`.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use chrono::Datelike;
use serde_json::{json, Value};

use super::check::{checked_range, join, Check, Res};
use super::library::documents;
use super::tabs::{read_tabs, Owner};
use super::{set, ActivityRow, CongressRow};
use crate::content_folder::library::Library;
use crate::programmes::calendar::calendar_url;

pub(super) fn read_activities(
    dir: &Path,
    library: &Library,
) -> Res<(HashMap<i64, Value>, Vec<ActivityRow>)> {
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

pub(super) fn read_congresses(
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
    let mut by_id: Vec<_> = activities.iter().collect();
    by_id.sort_by_key(|(id, _)| **id);
    for (id, activity) in by_id {
        let parent = activity.get("parent_id").and_then(Value::as_i64);
        let written = activity.get("parent_name").and_then(Value::as_str);
        let congress = rows.iter().find(|c| Some(c.id) == parent);
        if let (Some(congress), Some(written)) = (congress, written) {
            if congress.name != written {
                return Err(check.err(
                    format!("id {id}.parent_name"),
                    format!(
                        "must be '{}', the name of congress {}",
                        congress.name, congress.id
                    ),
                ));
            }
        }
    }
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
