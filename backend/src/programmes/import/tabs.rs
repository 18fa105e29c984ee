//! The tabs congresses and training share (`info`, `details`, `hotel`, `day`, `activities`,
//! `messages`, `media`, `downloads`): checked, with their calendar links and documents added.

use std::collections::HashMap;

use serde_json::{json, Map, Value};

use super::check::{checked_range, join, Check, Res};
use super::library::{document_link, documents};
use super::set;
use crate::content_folder::dates::parse_time_range;
use crate::content_folder::library::Library;
use crate::programmes::calendar::calendar_url;

/// Who owns the tabs being read: the prefix of their calendar ids.
#[derive(Clone, Copy)]
pub(super) struct Owner {
    pub kind: &'static str,
    pub id: i64,
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
pub(super) fn read_tabs(
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

pub(super) fn read_hotel_tab(
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
