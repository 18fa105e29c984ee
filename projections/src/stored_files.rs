//! The stored files and who keeps them (projection "stored_files"), from `document_item`
//! events: each item that holds a file, each stored file with how many live items name it and
//! since when none does, and each user's usage (the files they keep in My Docs).
//!
//! The storage quota reads the usage; the retention of removed files and the orphan check read
//! the stored files a page at a time. Times are the events' own, so a rebuild equals live.

use async_trait::async_trait;
use events::documents::{ItemEvent, Space, ITEM_TYPE};
use events::library::{LibraryEvent, LIBRARY_TYPE};

use crate::{on_db, on_tx, Db, Projection, ProjectionError, StoredEvent, TableSpec, Tx};

pub struct StoredFilesProjection;

pub const NAME: &str = "stored_files";

const TABLES: &[TableSpec] = &[
    TableSpec {
        name: "stored_file_items",
        order_by: "item_id",
    },
    TableSpec {
        name: "stored_files",
        order_by: "blob",
    },
    TableSpec {
        name: "storage_usage",
        order_by: "user_id",
    },
];

/// The events that add or remove a file; the others (opens, shares...) are skipped undecoded.
const FILE_EVENTS: &[&str] = &[
    "FileUploaded",
    "Copied",
    "FileRemoved",
    "DeletedWithFolder",
    "FolderDeleted",
    "FileReplaced",
];

type Result<T> = std::result::Result<T, ProjectionError>;

#[async_trait]
impl Projection for StoredFilesProjection {
    fn name(&self) -> &'static str {
        NAME
    }

    fn tables(&self) -> &'static [TableSpec] {
        TABLES
    }

    /// Reads and writes its own tables only.
    fn rebuilds_alone(&self) -> bool {
        true
    }

    /// A skipped upload would leave its file looking like an orphan, which is then deleted.
    fn on_poison(&self) -> crate::PoisonPolicy {
        crate::PoisonPolicy::Stop
    }

    fn reads(&self, aggregate_type: &str) -> bool {
        aggregate_type == ITEM_TYPE || aggregate_type == LIBRARY_TYPE
    }

    fn applies_to(&self, event: &StoredEvent) -> bool {
        (event.aggregate_type == LIBRARY_TYPE && event.event_type == "VersionUploaded")
            || (event.aggregate_type == ITEM_TYPE
                && FILE_EVENTS.contains(&event.event_type.as_str()))
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> Result<()> {
        if !self.applies_to(event) {
            return Ok(());
        }
        if event.aggregate_type == LIBRARY_TYPE {
            return library_version(tx, event).await;
        }
        let item: ItemEvent = event
            .decode()
            .map_err(|e| ProjectionError::bad_event(event, e))?;
        match item {
            ItemEvent::FileUploaded {
                id,
                space,
                owner,
                file,
                ..
            } => {
                // Files of the company's US set count against nobody's quota.
                let owner = owner.filter(|_| space == Space::My).map(|o| o.id);
                add_item(tx, &id, &file.blob, file.size, owner.as_deref()).await
            }
            ItemEvent::Copied {
                id,
                owner,
                file: Some(file),
                ..
            } => add_item(tx, &id, &file.blob, file.size, Some(&owner.id)).await,
            ItemEvent::FileRemoved { .. } | ItemEvent::DeletedWithFolder { .. } => {
                remove_item(tx, &event.aggregate_id, event.recorded_at).await
            }
            ItemEvent::FolderDeleted { removed, .. } => {
                // Its files leave the owner's usage with the folder, before each one's own
                // `DeletedWithFolder` (which then finds them removed).
                for id in &removed {
                    remove_item(tx, id, event.recorded_at).await?;
                }
                Ok(())
            }
            ItemEvent::FileReplaced { file, .. } => {
                replace_file(
                    tx,
                    &event.aggregate_id,
                    &file.blob,
                    file.size,
                    event.recorded_at,
                )
                .await
            }
            _ => Ok(()),
        }
    }
}

/// A company item took a new version's file: the old file loses a live item (copies made
/// before may still name it), the new one gains it. Company items count against nobody's quota.
async fn replace_file(tx: &mut Tx, item_id: &str, blob: &str, size: i64, at: i64) -> Result<()> {
    let old: Option<String> = on_tx!(tx, c => sqlx::query_scalar(
        "select blob from stored_file_items where item_id = $1 and removed_at is null")
        .bind(item_id).fetch_optional(c).await)?;
    let Some(old) = old.filter(|old| old != blob) else {
        return Ok(());
    };
    on_tx!(tx, c => sqlx::query(
        "update stored_file_items set blob = $2, size = $3 where item_id = $1")
        .bind(item_id).bind(blob).bind(size).execute(c).await.map(|_| ()))?;
    on_tx!(tx, c => sqlx::query(
        "update stored_files set live_items = live_items - 1,
             released_at = case when live_items = 1 then $2 else released_at end
         where blob = $1")
        .bind(&old).bind(at).execute(c).await.map(|_| ()))?;
    on_tx!(tx, c => sqlx::query(
        "insert into stored_files (blob, live_items, released_at) values ($1, 1, null)
         on conflict (blob) do update set live_items = stored_files.live_items + 1, released_at = null")
        .bind(blob).execute(c).await.map(|_| ()))?;
    Ok(())
}

/// A library document's version keeps its stored file for good (the console and the audit read
/// every version); content-folder versions have no stored file.
async fn library_version(tx: &mut Tx, event: &StoredEvent) -> Result<()> {
    let LibraryEvent::VersionUploaded { version, file, .. } = event
        .decode()
        .map_err(|e| ProjectionError::bad_event(event, e))?
    else {
        return Ok(());
    };
    if file.blob.is_empty() {
        return Ok(());
    }
    let holder = format!("library:{}:{version}", event.aggregate_id);
    add_item(tx, &holder, &file.blob, file.size, None).await
}

async fn add_item(
    tx: &mut Tx,
    item_id: &str,
    blob: &str,
    size: i64,
    owner: Option<&str>,
) -> Result<()> {
    let sql = match tx {
        Tx::Sqlite(_) => ADD_ITEM_SQLITE,
        Tx::Postgres(_) | Tx::PostgresReads(_) => ADD_ITEM_POSTGRES,
    };
    on_tx!(tx, c => sqlx::query(sql)
        .bind(item_id).bind(blob).bind(size).bind(owner)
        .execute(c).await.map(|_| ()))?;
    Ok(())
}

/// [`add_item`]'s three writes as one PostgreSQL statement (one round trip): each later part
/// takes the row the first one added, so an item already held changes nothing.
const ADD_ITEM_POSTGRES: &str = "with added as (
        insert into stored_file_items (item_id, blob, size, owner_id) values ($1, $2, $3, $4)
        on conflict (item_id) do nothing
        returning blob, size, owner_id
     ), held as (
        insert into stored_files (blob, live_items, released_at) select blob, 1, null from added
        on conflict (blob) do update set live_items = stored_files.live_items + 1, released_at = null
     )
     insert into storage_usage (user_id, files, bytes)
     select owner_id, 1, size from added where owner_id is not null
     on conflict (user_id) do update set files = storage_usage.files + 1,
         bytes = storage_usage.bytes + excluded.bytes";

/// The same three writes on SQLite as one text of statements (one hand-over to the
/// connection's thread): each later one runs only if the one before it changed a row
/// (`changes()`), so an item already held changes nothing, as on PostgreSQL.
const ADD_ITEM_SQLITE: &str =
    "insert into stored_file_items (item_id, blob, size, owner_id) values ($1, $2, $3, $4)
     on conflict (item_id) do nothing;
     insert into stored_files (blob, live_items, released_at)
     select $2, 1, null where changes() > 0
     on conflict (blob) do update set live_items = stored_files.live_items + 1, released_at = null;
     insert into storage_usage (user_id, files, bytes)
     select $4, 1, $3 where changes() > 0 and $4 is not null
     on conflict (user_id) do update set files = storage_usage.files + 1,
         bytes = storage_usage.bytes + excluded.bytes";

/// Marks a live item removed; folders and items already removed are not in the table or are
/// left as they are.
async fn remove_item(tx: &mut Tx, item_id: &str, at: i64) -> Result<()> {
    let removed: Option<(String, i64, Option<String>)> = on_tx!(tx, c => sqlx::query_as(
        "update stored_file_items set removed_at = $2 where item_id = $1 and removed_at is null
         returning blob, size, owner_id")
        .bind(item_id).bind(at).fetch_optional(c).await)?;
    let Some((blob, size, owner)) = removed else {
        return Ok(());
    };
    on_tx!(tx, c => sqlx::query(
        "update stored_files set live_items = live_items - 1,
             released_at = case when live_items = 1 then $2 else released_at end
         where blob = $1")
        .bind(&blob).bind(at).execute(c).await.map(|_| ()))?;
    if let Some(owner) = owner {
        on_tx!(tx, c => sqlx::query(
            "update storage_usage set files = files - 1, bytes = bytes - $2 where user_id = $1")
            .bind(&owner).bind(size).execute(c).await.map(|_| ()))?;
    }
    Ok(())
}

/// What one user keeps in My Docs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    pub files: i64,
    pub bytes: i64,
}

/// The files `user_id` keeps and their bytes (none yet: zero).
pub async fn usage_of(db: &Db, user_id: &str) -> std::result::Result<Usage, sqlx::Error> {
    let row: Option<(i64, i64)> = on_db!(db, pool => sqlx::query_as(
        "select files, bytes from storage_usage where user_id = $1")
        .bind(user_id).fetch_optional(pool).await)?;
    Ok(row.map_or_else(Usage::default, |(files, bytes)| Usage { files, bytes }))
}

/// Every user who keeps files, largest usage first: `(user_id, usage)`.
pub async fn usage_by_user(db: &Db) -> std::result::Result<Vec<(String, Usage)>, sqlx::Error> {
    let rows: Vec<(String, i64, i64)> = on_db!(db, pool => sqlx::query_as(
        "select user_id, files, bytes from storage_usage where files > 0
         order by bytes desc, user_id")
        .fetch_all(pool).await)?;
    Ok(rows
        .into_iter()
        .map(|(user, files, bytes)| (user, Usage { files, bytes }))
        .collect())
}

/// A stored file as the retention sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredFile {
    pub blob: String,
    /// Live items that name it.
    pub live_items: i64,
    /// When the last item naming it was removed (ms); `None` while one is live.
    pub released_at: Option<i64>,
}

/// At most `limit` stored files whose names come after `after`, in name order.
pub async fn stored_files_after(
    db: &Db,
    after: &str,
    limit: i64,
) -> std::result::Result<Vec<StoredFile>, sqlx::Error> {
    let rows: Vec<(String, i64, Option<i64>)> = on_db!(db, pool => sqlx::query_as(
        "select blob, live_items, released_at from stored_files where blob > $1
         order by blob limit $2")
        .bind(after).bind(limit).fetch_all(pool).await)?;
    Ok(rows
        .into_iter()
        .map(|(blob, live_items, released_at)| StoredFile {
            blob,
            live_items,
            released_at,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn live_items(db: &Db, blob: &str) -> i64 {
        crate::on_db!(db, pool => sqlx::query_scalar(
            "select live_items from stored_files where blob = $1")
            .bind(blob).fetch_one(pool).await)
        .unwrap()
    }

    /// On SQLite the three writes of an added item are one text whose later statements run
    /// only if the one before changed a row: an item already held changes nothing.
    #[tokio::test]
    async fn an_item_added_again_changes_nothing_and_a_company_file_counts_for_nobody() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::connect(&format!("sqlite://{}", dir.path().join("s.db").display()))
            .await
            .unwrap();
        let mut tx = Tx::begin(&db).await.unwrap();
        add_item(&mut tx, "item-1", "blob-1", 10, Some("user-1"))
            .await
            .unwrap();
        add_item(&mut tx, "item-1", "blob-1", 10, Some("user-1"))
            .await
            .unwrap();
        add_item(&mut tx, "item-2", "blob-1", 10, Some("user-1"))
            .await
            .unwrap();
        add_item(&mut tx, "company-1", "blob-2", 99, None)
            .await
            .unwrap();
        tx.commit().await.unwrap();
        let usage = usage_of(&db, "user-1").await.unwrap();
        assert_eq!((usage.files, usage.bytes), (2, 20));
        assert_eq!(live_items(&db, "blob-1").await, 2);
        assert_eq!(live_items(&db, "blob-2").await, 1);
        assert!(usage_by_user(&db)
            .await
            .unwrap()
            .iter()
            .all(|(user, _)| user == "user-1"));
    }
}
