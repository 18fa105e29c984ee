//! `training/trainings.json`.

use std::collections::HashSet;
use std::path::Path;

use chrono::Datelike;
use serde_json::{json, Value};

use super::check::{checked_range, join, Check, Res};
use super::tabs::{read_tabs, Owner};
use super::{set, TrainingRow};
use crate::content_folder::library::Library;

pub(super) fn read_trainings(dir: &Path, library: &Library) -> Res<Vec<TrainingRow>> {
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
        let info_name = tabs.pointer("/info/content/name").and_then(Value::as_str);
        if info_name.is_some_and(|n| n != name) {
            return Err(check.err(
                join(&path, "tabs.info.content.name"),
                format!("must be '{name}', the training's name"),
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
