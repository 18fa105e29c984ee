//! Entries of the reference content: read from the tables the content import fills, where each
//! row keeps the JSON the API answers with.

use projections::{on_db, Db};
use serde_json::Value;

use super::index::{Entry, PUBLIC};
use super::kinds::Kind;
use crate::html::plain_text;

/// At most this much text of one item is indexed (long programmes, product descriptions).
const MAX_BODY_CHARS: usize = 16 * 1024;

#[derive(sqlx::FromRow)]
struct Row {
    id: i64,
    date: Option<String>,
    item: String,
    details: Option<String>,
}

async fn rows(db: &Db, sql: &str) -> Result<Vec<Row>, sqlx::Error> {
    on_db!(db, pool => sqlx::query_as::<_, Row>(sql).fetch_all(pool).await)
}

/// Every entry of the reference content.
pub async fn entries(db: &Db) -> Result<Vec<Entry>, sqlx::Error> {
    let mut entries = Vec::new();
    let sources: [(Kind, &str); 7] = [
        (
            Kind::Products,
            "select id, release_date as date, item, details from catalogue_products",
        ),
        (
            Kind::Components,
            "select id, null as date, details as item, null as details from catalogue_components",
        ),
        (Kind::News, "select id, date, item, details from news"),
        (
            Kind::Congresses,
            "select id, start_date as date, item, data as details from congresses",
        ),
        (
            Kind::Activities,
            "select id, null as date, data as item, null as details from congress_activities",
        ),
        (
            Kind::Training,
            "select id, start_date as date, item, data as details from trainings",
        ),
        (
            Kind::Learn,
            "select id, start_date as date, item, data as details from courses",
        ),
    ];
    for (kind, sql) in sources {
        for row in rows(db, sql).await? {
            if let Some(entry) = entry_of(kind, &row) {
                entries.push(entry);
            }
        }
    }
    entries.extend(contacts(db).await?);
    entries.extend(links(db).await?);
    Ok(entries)
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

fn entry_of(kind: Kind, row: &Row) -> Option<Entry> {
    let item = parse(&row.item);
    let details = row.details.as_deref().map(parse).unwrap_or(Value::Null);
    let name = first_text(&item, &["name", "title"])?;
    let subtitle = first_text(&item, &["subtitle", "subtitle1", "parent_name", "category"])
        .or_else(|| first_text(&details, &["subtitle", "parent_name"]));
    let preview = preview_of(&item).or_else(|| preview_of(&details));
    let date = row
        .date
        .clone()
        .or_else(|| first_text(&item, &["date", "start_date", "release_date"]))
        .map(|d| d.chars().take(10).collect());
    let mut body = String::new();
    collect_words(&item, &mut body);
    collect_words(&details, &mut body);
    Some(Entry {
        kind,
        id: row.id.to_string(),
        name,
        subtitle,
        preview,
        date,
        body,
        acl: vec![PUBLIC.to_string()],
    })
}

#[derive(sqlx::FromRow)]
struct DataRow {
    id: i64,
    data: String,
}

/// The contacts' voices (id, title, subtitle), found also by their office's address.
async fn contacts(db: &Db) -> Result<Vec<Entry>, sqlx::Error> {
    let sections: Vec<DataRow> = on_db!(db, pool => sqlx::query_as::<_, DataRow>(
        "select id, data from contact_sections order by position").fetch_all(pool).await)?;
    let offices: Vec<DataRow> = on_db!(db, pool => sqlx::query_as::<_, DataRow>(
        "select id, data from contact_subsidiaries").fetch_all(pool).await)?;
    let mut entries = Vec::new();
    for section in sections {
        let section = parse(&section.data);
        let tab = first_text(&section, &["tab"]).unwrap_or_default();
        for voice in section
            .get("voices")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let Some(id) = voice.get("id").and_then(Value::as_i64) else {
                continue;
            };
            let Some(name) = first_text(voice, &["title", "name"]) else {
                continue;
            };
            let mut body = tab.clone();
            if let Some(office) = offices.iter().find(|o| o.id == id) {
                collect_words(&parse(&office.data), &mut body);
            }
            entries.push(Entry {
                kind: Kind::Contacts,
                id: id.to_string(),
                name,
                subtitle: first_text(voice, &["subtitle"]),
                preview: None,
                date: None,
                body,
                acl: vec![PUBLIC.to_string()],
            });
        }
    }
    Ok(entries)
}

async fn links(db: &Db) -> Result<Vec<Entry>, sqlx::Error> {
    let rows: Vec<DataRow> = on_db!(db, pool => sqlx::query_as::<_, DataRow>(
        "select id, data from useful_links order by position").fetch_all(pool).await)?;
    Ok(rows
        .into_iter()
        .filter_map(|row| {
            let link = parse(&row.data);
            Some(Entry {
                kind: Kind::Links,
                id: row.id.to_string(),
                name: first_text(&link, &["title", "name"])?,
                subtitle: first_text(&link, &["link"]),
                preview: first_text(&link, &["image", "preview"]),
                date: None,
                body: String::new(),
                acl: vec![PUBLIC.to_string()],
            })
        })
        .collect())
}

fn first_text(value: &Value, keys: &[&str]) -> Option<String> {
    keys.iter().find_map(|key| match value.get(key) {
        Some(Value::String(s)) if !s.trim().is_empty() => Some(plain_text(s)),
        // A category object: its label.
        Some(Value::Object(o)) => o
            .get("label")
            .and_then(Value::as_str)
            .filter(|s| !s.trim().is_empty())
            .map(plain_text),
        _ => None,
    })
}

fn preview_of(value: &Value) -> Option<String> {
    first_text(value, &["preview", "image"]).or_else(|| {
        value
            .get("gallery")
            .and_then(Value::as_array)
            .and_then(|g| g.first())
            .and_then(|first| first_text(first, &["big", "image", "preview"]))
    })
}

/// Appends the words of every text in `value` (HTML reduced to its text), skipping addresses.
fn collect_words(value: &Value, out: &mut String) {
    if out.len() >= MAX_BODY_CHARS {
        return;
    }
    match value {
        Value::String(s) => {
            let s = s.trim();
            let is_address =
                s.starts_with('/') || s.starts_with("http") || s.starts_with("mailto:");
            if !s.is_empty() && !is_address {
                out.push(' ');
                out.push_str(&plain_text(s));
                if out.len() > MAX_BODY_CHARS {
                    let mut end = MAX_BODY_CHARS;
                    while !out.is_char_boundary(end) {
                        end -= 1;
                    }
                    out.truncate(end);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_words(v, out)),
        Value::Object(map) => map.values().for_each(|v| collect_words(v, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_give_name_subtitle_preview_date_and_words() {
        let row = Row {
            id: 7,
            date: None,
            item: r#"{"title":"Course A","subtitle":"<b>Planning</b>","start_date":"2026-03-19",
                      "gallery":[{"big":"/media/a.svg"}],"link":"https://x.example"}"#
                .into(),
            details: Some(r#"{"description":"<p>Glenoid exposure</p>"}"#.into()),
        };
        let entry = entry_of(Kind::Learn, &row).expect("entry");
        assert_eq!(entry.name, "Course A");
        assert_eq!(entry.subtitle.as_deref(), Some("Planning"));
        assert_eq!(entry.preview.as_deref(), Some("/media/a.svg"));
        assert_eq!(entry.date.as_deref(), Some("2026-03-19"));
        assert!(entry.body.contains("Glenoid exposure"));
        assert!(!entry.body.contains("x.example"));
    }
}
