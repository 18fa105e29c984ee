//! Entries of the library documents every rep may open: the content folder's and the released
//! console documents for everyone (`audience = all`). A `us` document is found through the US
//! set's item (see [`super::documents`]); an unreleased, withdrawn or expired one never is.

use std::collections::HashSet;

use projections::library::{self as model, StateRow};
use projections::{on_db, Db, Tx};
use serde_json::Value;

use super::index::{Entry, PUBLIC};
use super::kinds::Kind;

/// What changes when any document's lifecycle moves (count, releases, ends, edits): the index
/// reloads the library entries when it differs from the last one seen.
pub type Signature = (i64, i64, i64, i64);

pub async fn signature(db: &Db) -> Result<Signature, sqlx::Error> {
    on_db!(db, pool => sqlx::query_as::<_, Signature>(
        "select count(*), cast(coalesce(sum(updated_at), 0) as bigint),
                cast(coalesce(sum(released_version), 0) as bigint), count(ended_state)
           from library_state").fetch_one(pool).await)
}

fn date_of(at: Option<i64>) -> Option<String> {
    chrono::DateTime::from_timestamp_millis(at?)
        .map(|at| at.date_naive().format("%Y-%m-%d").to_string())
}

fn entry_of(row: &StateRow) -> Entry {
    let file_name = row.released_file().map(|f| f.file_name).unwrap_or_default();
    Entry {
        kind: Kind::Library,
        id: row.id.to_string(),
        name: row.title.clone(),
        subtitle: row.category.clone(),
        preview: None,
        date: date_of(row.released_at),
        body: file_name,
        acl: vec![PUBLIC.to_string()],
    }
}

/// Every library document reps may open now.
pub async fn entries(db: &Db) -> Result<Vec<Entry>, sqlx::Error> {
    let mut tx = Tx::read(db).await?;
    let hidden: HashSet<i64> = model::hidden_ids(&mut tx).await?.into_iter().collect();
    let released = model::visible(&mut tx).await?;
    tx.rollback().await?;
    // A document with a lifecycle is listed as its state says, whatever the folder holds.
    let with_lifecycle: HashSet<i64> = released.iter().map(|r| r.id).collect();
    let mut entries: Vec<Entry> = released
        .iter()
        .filter(|r| r.audience == "all")
        .map(entry_of)
        .collect();
    let folder: Vec<(i64, Option<String>, String, String)> = on_db!(db, pool => sqlx::query_as(
        "select id, category, item, file_name from library_documents order by id")
        .fetch_all(pool).await)?;
    for (id, category, item, file_name) in folder {
        if hidden.contains(&id) || with_lifecycle.contains(&id) {
            continue;
        }
        let item: Value = serde_json::from_str(&item).unwrap_or(Value::Null);
        let Some(title) = item
            .get("title")
            .and_then(Value::as_str)
            .filter(|t| !t.is_empty())
        else {
            continue;
        };
        let subtitle = item
            .get("subtitle")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .or(category);
        entries.push(Entry {
            kind: Kind::Library,
            id: id.to_string(),
            name: title.to_string(),
            subtitle,
            preview: None,
            date: None,
            body: file_name,
            acl: vec![PUBLIC.to_string()],
        });
    }
    Ok(entries)
}
