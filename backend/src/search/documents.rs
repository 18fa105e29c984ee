//! Entries of the documents and folders, read from the documents read model, and which items a
//! run of document events touched.

use std::collections::BTreeSet;

use projections::documents::read::{in_subtree_of, path_ids, placeholders};
use projections::stream::{self, Position};
use projections::DbKind;
use projections::{on_db, Db};

use super::index::{Entry, IndexChange};
use super::kinds::Kind;

#[derive(sqlx::FromRow)]
struct ItemRow {
    id: String,
    space: String,
    owner_id: Option<String>,
    owner_name: Option<String>,
    path: String,
    name: String,
    title: String,
    subtitle: Option<String>,
    languages_in_file: Option<String>,
    code_points: Option<String>,
    updated_at: i64,
}

const SELECT: &str = "select id, space, owner_id, owner_name, path, name, title, subtitle,
    languages_in_file, code_points, updated_at from doc_items";

/// The `acl` key of an item and of everything below it.
pub fn node_key(id: &str) -> String {
    format!("node:{id}")
}

pub fn owner_key(user_id: &str) -> String {
    format!("owner:{user_id}")
}

pub const US_KEY: &str = "us";

/// The acl keys a reader holds: their own items, the items shared with them (each with
/// everything below it) and the US set when their account shows it.
pub async fn keys_of(db: &Db, user_id: &str, shows_us: bool) -> Result<Vec<String>, sqlx::Error> {
    let mut tx = projections::Tx::read(db).await?;
    let shares = projections::documents::read::shares_of(&mut tx, user_id).await?;
    tx.commit().await?;
    let mut keys = vec![owner_key(user_id)];
    if shows_us {
        keys.push(US_KEY.to_string());
    }
    keys.extend(shares.iter().map(|id| node_key(id)));
    Ok(keys)
}

fn entry_of(row: ItemRow) -> Entry {
    let mut acl: Vec<String> = path_ids(&row.path).into_iter().map(node_key).collect();
    match (row.space.as_str(), &row.owner_id) {
        ("us", _) => acl.push(US_KEY.to_string()),
        (_, Some(owner)) => acl.push(owner_key(owner)),
        _ => {}
    }
    let date = chrono::DateTime::from_timestamp_millis(row.updated_at)
        .map(|at| at.date_naive().format("%Y-%m-%d").to_string());
    let body = [
        Some(row.name),
        row.languages_in_file,
        row.code_points,
        row.owner_name,
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" ");
    Entry {
        kind: Kind::Documents,
        id: row.id,
        name: row.title,
        subtitle: row.subtitle,
        preview: None,
        date,
        body,
        acl,
    }
}

/// Every live document and folder.
pub async fn entries(db: &Db) -> Result<Vec<Entry>, sqlx::Error> {
    let rows: Vec<ItemRow> =
        on_db!(db, pool => sqlx::query_as::<_, ItemRow>(SELECT).fetch_all(pool).await)?;
    Ok(rows.into_iter().map(entry_of).collect())
}

/// Items whose subtrees one statement reads: well under either database's limit of parameters.
const REFRESH_CHUNK: usize = 500;

/// Brings the entries of `ids` up to date: each item is dropped with everything indexed below
/// it, then it and its current subtree are added back (a move changes the folders above every
/// item below; a deleted folder takes its contents with it). One statement reads the subtrees of
/// up to [`REFRESH_CHUNK`] items, each a range of the path index below the item's own path.
pub async fn refresh(db: &Db, ids: &BTreeSet<String>) -> Result<IndexChange, sqlx::Error> {
    let mut change = IndexChange::default();
    let mut seen = BTreeSet::new();
    change.delete_acl.extend(ids.iter().map(|id| node_key(id)));
    let ids: Vec<&String> = ids.iter().collect();
    for chunk in ids.chunks(REFRESH_CHUNK) {
        let sql = subtrees_of(db.kind(), chunk.len());
        let rows: Vec<ItemRow> = on_db!(db, pool => {
            let mut query = sqlx::query_as::<_, ItemRow>(&sql);
            for id in chunk {
                query = query.bind(id.as_str());
            }
            query.fetch_all(pool).await
        })?;
        for row in rows {
            if seen.insert(row.id.clone()) {
                change.upsert.push(entry_of(row));
            }
        }
    }
    Ok(change)
}

/// The entry columns of every item in the subtrees of `n` items given as parameters, each
/// subtree a range of the path index below its item's path.
fn subtrees_of(kind: DbKind, n: usize) -> String {
    format!(
        "select d.id, d.space, d.owner_id, d.owner_name, d.path, d.name, d.title, d.subtitle,
                d.languages_in_file, d.code_points, d.updated_at
         from doc_items t join doc_items d on {}
         where t.id in ({})",
        in_subtree_of(kind, "d.path", "t.path"),
        placeholders(1, n)
    )
}

/// The items touched by document events after `after`, up to `until` (the documents read
/// model's checkpoint), and where reading stopped. Reads at most `limit` events.
pub async fn touched(
    db: &Db,
    after: Position,
    until: Position,
    limit: i64,
) -> Result<(BTreeSet<String>, Position), stream::StreamError> {
    let mut ids = BTreeSet::new();
    let mut at = after;
    for event in stream::read_after(db, after, limit).await? {
        if event.at > until {
            break;
        }
        at = event.at;
        if event.aggregate_type == events::documents::ITEM_TYPE {
            ids.insert(event.aggregate_id);
        }
    }
    Ok((ids, at))
}
