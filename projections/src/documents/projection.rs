//! Over 600 lines: one arm per document event, sharing the batch state.
//!
//! The "documents" projection: items, shares, unread marks, badges and external links from
//! `document_item` events, plus the live feed messages they cause.
//!
//! Feed messages (see `CONVENTIONS.md`):
//! - `shared_arrival` `{item}` to a recipient when something is shared with them;
//! - `shared_change` `{folder_id, change, item_id, item}` to every user who sees a shared
//!   folder when something in it is added, renamed, moved or removed (`folder_id` null: the
//!   root of their Shared with me);
//! - `badge` `{name: "shared", count}` whenever the number of unread items at the root of a
//!   user's Shared with me changes.
//!
//! Everything is derived from the events (times from `recorded_at`), so a rebuild equals live.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use async_trait::async_trait;
use events::documents::{FileFacts, ItemEvent, ItemRef, Kind, Space, ITEM_TYPE};
use serde_json::json;

use super::read::{self, in_subtree, path_ids, subtree_bounds, NodeRow, Viewer};
use super::temporal;
use crate::db::Tx;
use crate::feed;
use crate::on_tx;
use crate::projector::{Projection, ProjectionError, TableSpec};
use crate::stream::StoredEvent;

pub struct DocumentsProjection;

pub const NAME: &str = "documents";

const TABLES: &[TableSpec] = &[
    TableSpec {
        name: "doc_items",
        order_by: "id",
    },
    TableSpec {
        name: "doc_shares",
        order_by: "item_id, user_id",
    },
    TableSpec {
        name: "doc_unread",
        order_by: "user_id, item_id",
    },
    TableSpec {
        name: "doc_seen",
        order_by: "user_id, item_id",
    },
    TableSpec {
        name: "doc_badges",
        order_by: "user_id",
    },
    TableSpec {
        name: "doc_external_links",
        order_by: "token_hash",
    },
    TableSpec {
        name: "doc_item_versions",
        order_by: "item_id, valid_from, coalesce(valid_to, 9223372036854775807), title, parent_id",
    },
    TableSpec {
        name: "doc_share_versions",
        order_by: "item_id, user_id, valid_from, coalesce(valid_to, 9223372036854775807)",
    },
];

type Result<T> = std::result::Result<T, ProjectionError>;

#[async_trait]
impl Projection for DocumentsProjection {
    fn name(&self) -> &'static str {
        NAME
    }

    fn tables(&self) -> &'static [TableSpec] {
        TABLES
    }

    /// A documents read model missing an event would show wrong folders and rights.
    fn on_poison(&self) -> crate::PoisonPolicy {
        crate::PoisonPolicy::Stop
    }

    fn reads(&self, aggregate_type: &str) -> bool {
        aggregate_type == ITEM_TYPE
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> Result<()> {
        if event.aggregate_type != ITEM_TYPE {
            return Ok(());
        }
        let decoded: ItemEvent = event
            .decode()
            .map_err(|e| ProjectionError::bad_event(event, e))?;
        let id = event.aggregate_id.as_str();
        let at = event.recorded_at;
        match decoded {
            ItemEvent::FolderCreated {
                id: item_id,
                space,
                owner,
                parent,
                name,
                seed_key,
            } => {
                let row = NewItem {
                    id: &item_id,
                    kind: Kind::Folder,
                    space,
                    owner_id: owner.as_ref().map(|o| o.id.as_str()),
                    owner_name: owner.as_ref().map(|o| o.name.as_str()),
                    parent: parent.as_ref(),
                    title: &name,
                    file: None,
                    copied_from: None,
                    seed_key: seed_key.as_deref(),
                };
                insert_item(tx, row, at).await
            }
            ItemEvent::FileUploaded {
                id: item_id,
                space,
                owner,
                parent,
                file,
                seed_key,
            } => {
                let row = NewItem {
                    id: &item_id,
                    kind: Kind::File,
                    space,
                    owner_id: owner.as_ref().map(|o| o.id.as_str()),
                    owner_name: owner.as_ref().map(|o| o.name.as_str()),
                    parent: parent.as_ref(),
                    title: &file.title,
                    file: Some(&file),
                    copied_from: None,
                    seed_key: seed_key.as_deref(),
                };
                insert_item(tx, row, at).await
            }
            ItemEvent::Copied {
                id: item_id,
                kind,
                owner,
                parent,
                source,
                name,
                file,
                ..
            } => {
                let row = NewItem {
                    id: &item_id,
                    kind,
                    space: Space::My,
                    owner_id: Some(&owner.id),
                    owner_name: Some(&owner.name),
                    parent: parent.as_ref(),
                    title: &name,
                    file: file.as_ref(),
                    copied_from: Some(&source.id),
                    seed_key: None,
                };
                insert_item(tx, row, at).await
            }
            ItemEvent::Renamed { to, file_name, .. } => {
                renamed(tx, id, &to, file_name.as_deref(), at).await
            }
            ItemEvent::Moved { to, .. } => moved(tx, id, to.as_ref(), at).await,
            ItemEvent::FolderDeleted { .. } | ItemEvent::FileRemoved { .. } => {
                removed(tx, id, at).await
            }
            // Its folder's deletion already removed it.
            ItemEvent::DeletedWithFolder { .. } => Ok(()),
            ItemEvent::Shared { by, with, via } => {
                let via = match via {
                    events::documents::ShareVia::Internal => "internal",
                    events::documents::ShareVia::Storage => "storage",
                };
                shared(tx, id, &by.id, &with.id, via, at).await
            }
            ItemEvent::SharedExternally {
                by,
                email,
                token_hash,
                expires_at,
            } => {
                on_tx!(tx, c => sqlx::query(
                    "insert into doc_external_links (token_hash, item_id, email, created_by, created_at, expires_at)
                     values ($1, $2, $3, $4, $5, $6) on conflict (token_hash) do nothing")
                    .bind(&token_hash).bind(id).bind(&email).bind(&by).bind(at).bind(expires_at)
                    .execute(c).await.map(|r| r.rows_affected()))?;
                Ok(())
            }
            ItemEvent::SavedToMyDocs { .. } => Ok(()),
            ItemEvent::MovedToMyDocs { by, .. } => unshared(tx, id, &by, at).await,
            ItemEvent::Opened { by } | ItemEvent::Downloaded { by } => {
                opened(tx, id, &by, at).await
            }
        }
    }
}

struct NewItem<'a> {
    id: &'a str,
    kind: Kind,
    space: Space,
    owner_id: Option<&'a str>,
    owner_name: Option<&'a str>,
    parent: Option<&'a ItemRef>,
    title: &'a str,
    file: Option<&'a FileFacts>,
    copied_from: Option<&'a str>,
    seed_key: Option<&'a str>,
}

/// The item as `user` sees it, for a feed message (`None` once they no longer see it).
async fn view_for(tx: &mut Tx, id: &str, user: &str) -> Result<Option<serde_json::Value>> {
    let Some(row) = read::item(tx, user, id).await? else {
        return Ok(None);
    };
    let shares = read::shares_of(tx, user).await?;
    view_of(&row, user, &shares)
}

/// [`view_for`] with the item's row and the user's direct shares already at hand.
fn view_of(
    row: &read::ItemRow,
    user: &str,
    shares: &HashSet<String>,
) -> Result<Option<serde_json::Value>> {
    // Feeds are built from events only; the US certificate is not one, so it plays no part.
    let viewer = Viewer {
        id: user.to_string(),
        shows_us: false,
    };
    if !row.access(&viewer, shares).sees() {
        return Ok(None);
    }
    Ok(Some(
        serde_json::to_value(row.view(&viewer, shares))
            .map_err(|e| ProjectionError::Database(sqlx::Error::Encode(Box::new(e))))?,
    ))
}

/// Users who see the item at `path` through a share, each with whether they also see its
/// folder (otherwise it sits at the root of their Shared with me).
fn watchers(path: &str, shares: &BTreeSet<(String, String)>) -> BTreeMap<String, bool> {
    let own = path_ids(path).last().copied().unwrap_or_default();
    let mut out: BTreeMap<String, bool> = BTreeMap::new();
    for (user, item) in shares {
        let through_folder = item != own;
        let entry = out.entry(user.clone()).or_insert(false);
        *entry |= through_folder;
    }
    out
}

async fn shares_above_and_on(tx: &mut Tx, path: &str) -> Result<BTreeSet<(String, String)>> {
    let ids = path_ids(path);
    Ok(read::shares_on(tx, &ids).await?)
}

async fn push_change(
    tx: &mut Tx,
    user: &str,
    folder: Option<&str>,
    change: &str,
    item_id: &str,
    at: i64,
) -> Result<()> {
    let item = if change == "removed" {
        None
    } else {
        view_for(tx, item_id, user).await?
    };
    let payload =
        json!({ "folder_id": folder, "change": change, "item_id": item_id, "item": item });
    feed::push(tx, user, "shared_change", &payload, at).await?;
    Ok(())
}

/// Recounts the unread items at the root of `user`'s Shared with me; pushes a `badge` when the
/// count changed.
async fn refresh_badge(tx: &mut Tx, user: &str, at: i64) -> Result<()> {
    let count = read::shared_unread(tx, user).await?;
    // A user without a row has a count of 0. Each statement writes only when the count changed.
    let changed = if count == 0 {
        on_tx!(tx, c => sqlx::query(
            "update doc_badges set shared_unread = 0 where user_id = $1 and shared_unread <> 0")
            .bind(user).execute(c).await.map(|r| r.rows_affected()))?
    } else {
        on_tx!(tx, c => sqlx::query(
            "insert into doc_badges (user_id, shared_unread) values ($1, $2)
             on conflict (user_id) do update set shared_unread = excluded.shared_unread
             where doc_badges.shared_unread <> excluded.shared_unread")
            .bind(user).bind(count).execute(c).await.map(|r| r.rows_affected()))?
    };
    if changed == 0 {
        return Ok(());
    }
    feed::push(
        tx,
        user,
        "badge",
        &json!({ "name": "shared", "count": count }),
        at,
    )
    .await?;
    Ok(())
}

async fn mark_unread(tx: &mut Tx, user: &str, item: &str, at: i64) -> Result<()> {
    mark_unread_all(tx, user, &[item], at).await
}

/// Ids per multi-row statement of [`mark_unread_all`] and [`clear_unread_all`].
const IDS_PER_STATEMENT: usize = 400;

/// [`mark_unread`] for many items at once (a shared or moved folder's contents).
async fn mark_unread_all(tx: &mut Tx, user: &str, items: &[&str], at: i64) -> Result<()> {
    for chunk in items.chunks(IDS_PER_STATEMENT) {
        let rows: Vec<String> = (0..chunk.len())
            .map(|i| format!("($1, ${}, $2)", i + 3))
            .collect();
        let sql = format!(
            "insert into doc_unread (user_id, item_id, since) values {}
             on conflict (user_id, item_id) do nothing",
            rows.join(", ")
        );
        on_tx!(tx, c => {
            let mut q = sqlx::query(&sql).bind(user).bind(at);
            for id in chunk {
                q = q.bind(*id);
            }
            q.execute(c).await.map(|r| r.rows_affected())
        })?;
    }
    Ok(())
}

/// [`clear_unread`] for many items at once: how many marks it removed.
async fn clear_unread_all(tx: &mut Tx, user: &str, items: &[&str]) -> Result<u64> {
    let mut cleared = 0;
    for chunk in items.chunks(IDS_PER_STATEMENT) {
        let sql = format!(
            "delete from doc_unread where user_id = $1 and item_id in ({})",
            read::placeholders(2, chunk.len())
        );
        cleared += on_tx!(tx, c => {
            let mut q = sqlx::query(&sql).bind(user);
            for id in chunk {
                q = q.bind(*id);
            }
            q.execute(c).await.map(|r| r.rows_affected())
        })?;
    }
    Ok(cleared)
}

async fn clear_unread(tx: &mut Tx, user: &str, item: &str) -> Result<u64> {
    clear_unread_all(tx, user, &[item]).await
}

/// Whether `node` is reached through one of `shares` on it or a folder above it.
fn reached(node: &NodeRow, shares: &HashSet<String>) -> bool {
    path_ids(&node.path).iter().any(|id| shares.contains(*id))
}

/// The ids of `nodes` not reached through any of `shares`.
fn unreached<'a>(nodes: &'a [NodeRow], shares: &HashSet<String>) -> Vec<&'a str> {
    nodes
        .iter()
        .filter(|n| !reached(n, shares))
        .map(|n| n.id.as_str())
        .collect()
}

async fn insert_item(tx: &mut Tx, item: NewItem<'_>, at: i64) -> Result<()> {
    let (path, depth) = match item.parent {
        None => (format!("/{}/", item.id), 0),
        Some(parent) => {
            let Some(folder) = read::placed(tx, &parent.id).await? else {
                // The folder went before this item was placed (no such race passes the
                // server's per-tree lock); the item went with it.
                tracing::warn!(item = item.id, folder = %parent.id, "item created in a missing folder; skipped");
                return Ok(());
            };
            (format!("{}{}/", folder.path, item.id), folder.depth)
        }
    };
    let depth = if item.kind == Kind::Folder {
        depth + 1
    } else {
        depth
    };
    let labels = item.file.map(|f| f.labels).unwrap_or_default();
    let name = item.file.map_or(item.title, |f| f.name.as_str());
    let inserted = on_tx!(tx, c => sqlx::query(
        "insert into doc_items (id, kind, space, owner_id, owner_name, parent_id, path, depth, name, title,
            subtitle, languages_in_file, code_points, size, blob, content_type,
            for_internal_use, controlled_release, upon_request, external_release, copied_from, seed_key,
            created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $23)
         on conflict (id) do nothing")
        .bind(item.id).bind(item.kind.as_str()).bind(item.space.as_str())
        .bind(item.owner_id).bind(item.owner_name).bind(item.parent.map(|p| p.id.as_str()))
        .bind(&path).bind(depth).bind(name).bind(item.title)
        .bind(item.file.and_then(|f| f.subtitle.as_deref()))
        .bind(item.file.and_then(|f| f.languages_in_file.as_deref()))
        .bind(item.file.and_then(|f| f.code_points.as_deref()))
        .bind(item.file.map(|f| f.size)).bind(item.file.map(|f| f.blob.as_str()))
        .bind(item.file.map(|f| f.format.content_type()))
        .bind(labels.for_internal_use).bind(labels.controlled_release).bind(labels.upon_request)
        .bind(labels.external_release).bind(item.copied_from).bind(item.seed_key).bind(at)
        .execute(c).await.map(|r| r.rows_affected()))?;
    if inserted > 0 {
        temporal::item_changed(tx, item.id, at).await?;
    }

    // Everyone who sees the folder through a share gets the new item, unread.
    if let Some(parent) = item.parent {
        let parent_path = &path[..path.len() - item.id.len() - 1];
        let shares = shares_above_and_on(tx, parent_path).await?;
        for user in watchers(parent_path, &shares).into_keys() {
            mark_unread(tx, &user, item.id, at).await?;
            push_change(tx, &user, Some(&parent.id), "added", item.id, at).await?;
        }
    }
    Ok(())
}

async fn renamed(tx: &mut Tx, id: &str, to: &str, file_name: Option<&str>, at: i64) -> Result<()> {
    let changed = on_tx!(tx, c => sqlx::query(
        "update doc_items set title = $1, name = $2, updated_at = $3 where id = $4")
        .bind(to).bind(file_name.unwrap_or(to)).bind(at).bind(id)
        .execute(c).await.map(|r| r.rows_affected()))?;
    if changed > 0 {
        temporal::item_changed(tx, id, at).await?;
    }
    let Some(row) = read::placed(tx, id).await? else {
        return Ok(());
    };
    let shares = shares_above_and_on(tx, &row.path).await?;
    for (user, in_folder) in watchers(&row.path, &shares) {
        let folder = in_folder.then_some(row.parent_id.as_deref()).flatten();
        push_change(tx, &user, folder, "renamed", id, at).await?;
    }
    Ok(())
}

async fn moved(tx: &mut Tx, id: &str, to: Option<&ItemRef>, at: i64) -> Result<()> {
    let Some(row) = read::placed(tx, id).await? else {
        return Ok(());
    };
    let (prefix, base_depth) = match to {
        None => ("/".to_string(), 0),
        Some(folder) => match read::placed(tx, &folder.id).await? {
            Some(f) => (f.path, f.depth),
            None => {
                tracing::warn!(item = id, folder = %folder.id, "moved into a missing folder; skipped");
                return Ok(());
            }
        },
    };
    let old_path = row.path.clone();
    let new_path = format!("{prefix}{id}/");
    let new_depth = if row.kind == Kind::Folder.as_str() {
        base_depth + 1
    } else {
        base_depth
    };
    let before = shares_above_and_on(tx, &old_path).await?;
    let old_watchers = watchers(&old_path, &before);

    let old_len = i32::try_from(old_path.len()).unwrap_or(i32::MAX);
    let (lo, hi) = subtree_bounds(&old_path);
    let sql = format!(
        "update doc_items set path = $1 || substr(path, $2), depth = depth + $3 where {}",
        in_subtree(tx.kind(), "path", 4, 5)
    );
    on_tx!(tx, c => sqlx::query(&sql)
        .bind(&new_path).bind(old_len + 1).bind(new_depth - row.depth).bind(&lo).bind(&hi)
        .execute(c).await.map(|r| r.rows_affected()))?;
    on_tx!(tx, c => sqlx::query(
        "update doc_items set parent_id = $1, updated_at = $2 where id = $3")
        .bind(to.map(|f| f.id.as_str())).bind(at).bind(id)
        .execute(c).await.map(|r| r.rows_affected()))?;
    temporal::item_changed(tx, id, at).await?;

    let after = shares_above_and_on(tx, &new_path).await?;
    let new_watchers = watchers(&new_path, &after);

    // Who gained or lost the subtree through the folders above it: unread marks follow.
    let gained: Vec<&String> = new_watchers
        .keys()
        .filter(|u| !old_watchers.contains_key(*u))
        .collect();
    let lost: Vec<&String> = old_watchers
        .keys()
        .filter(|u| !new_watchers.contains_key(*u))
        .collect();
    if !gained.is_empty() || !lost.is_empty() {
        let nodes = read::subtree(tx, &new_path).await?;
        let inner = read::shares_in_subtree(tx, &new_path).await?;
        // What a user reaches through their own shares inside the subtree is not affected.
        let own = |user: &String| -> HashSet<String> {
            inner
                .iter()
                .filter(|(u, _)| u == user)
                .map(|(_, i)| i.clone())
                .collect()
        };
        for user in gained {
            mark_unread_all(tx, user, &unreached(&nodes, &own(user)), at).await?;
        }
        for user in lost {
            clear_unread_all(tx, user, &unreached(&nodes, &own(user))).await?;
        }
    }

    let from = row.parent_id.as_deref();
    for (user, saw_folder) in &old_watchers {
        if *saw_folder {
            push_change(tx, user, from, "moved", id, at).await?;
        }
    }
    for (user, sees_folder) in &new_watchers {
        if *sees_folder {
            push_change(tx, user, to.map(|f| f.id.as_str()), "moved", id, at).await?;
        }
    }
    Ok(())
}

async fn removed(tx: &mut Tx, id: &str, at: i64) -> Result<()> {
    let Some(row) = read::placed(tx, id).await? else {
        return Ok(());
    };
    let above = shares_above_and_on(tx, &row.path).await?;
    let inner = read::shares_in_subtree(tx, &row.path).await?;
    let mut told: BTreeSet<String> = BTreeSet::new();
    for (user, in_folder) in watchers(&row.path, &above) {
        let folder = in_folder.then_some(row.parent_id.as_deref()).flatten();
        push_change(tx, &user, folder, "removed", id, at).await?;
        told.insert(user);
    }
    // Items further down shared on their own leave those users' Shared with me too.
    for (user, item) in &inner {
        if !told.contains(user) {
            push_change(tx, user, None, "removed", item, at).await?;
        }
    }
    let (lo, hi) = subtree_bounds(&row.path);
    let versions_below = in_subtree(tx.kind(), "path", 2, 3);
    temporal::items_removed(tx, &versions_below, &lo, &hi, at).await?;
    let below = in_subtree(tx.kind(), "path", 1, 2);
    for table in ["doc_unread", "doc_seen", "doc_shares", "doc_external_links"] {
        let sql = format!(
            "delete from {table} where item_id in (select id from doc_items where {below})"
        );
        on_tx!(tx, c => sqlx::query(&sql).bind(&lo).bind(&hi)
            .execute(c).await.map(|r| r.rows_affected()))?;
    }
    let sql = format!("delete from doc_items where {below}");
    on_tx!(tx, c => sqlx::query(&sql).bind(&lo).bind(&hi)
        .execute(c).await.map(|r| r.rows_affected()))?;
    let affected: BTreeSet<String> = told
        .into_iter()
        .chain(inner.into_iter().map(|(u, _)| u))
        .collect();
    for user in affected {
        refresh_badge(tx, &user, at).await?;
    }
    Ok(())
}

async fn shared(tx: &mut Tx, id: &str, by: &str, with: &str, via: &str, at: i64) -> Result<()> {
    // The row as the recipient sees it (read once: sharing changes only their unread mark).
    let Some(mut row) = read::item(tx, with, id).await? else {
        return Ok(());
    };
    let before = read::shares_of(tx, with).await?;
    let inserted = on_tx!(tx, c => sqlx::query(
        "insert into doc_shares (item_id, user_id, shared_by, via, shared_at) values ($1, $2, $3, $4, $5)
         on conflict (item_id, user_id) do nothing")
        .bind(id).bind(with).bind(by).bind(via).bind(at)
        .execute(c).await.map(|r| r.rows_affected()))?;
    if inserted > 0 {
        temporal::share_began(tx, id, with, via, at).await?;
    }
    // The item arrives unread; what it holds is unread unless the user saw it already.
    let nodes = if row.kind == Kind::Folder.as_str() {
        read::subtree(tx, &row.path).await?
    } else {
        Vec::new()
    };
    let mut arrived = vec![id];
    arrived.extend(unreached(&nodes, &before).into_iter().filter(|n| *n != id));
    mark_unread_all(tx, with, &arrived, at).await?;
    row.unread_mark = true;
    let mut shares = before;
    shares.insert(id.to_string());
    if let Some(item) = view_of(&row, with, &shares)? {
        feed::push(tx, with, "shared_arrival", &json!({ "item": item }), at).await?;
    }
    refresh_badge(tx, with, at).await
}

/// `user` moved the item to their My Docs: it leaves their Shared with me.
async fn unshared(tx: &mut Tx, id: &str, user: &str, at: i64) -> Result<()> {
    on_tx!(tx, c => sqlx::query("delete from doc_shares where item_id = $1 and user_id = $2")
        .bind(id).bind(user).execute(c).await.map(|r| r.rows_affected()))?;
    temporal::share_ended(tx, id, user, at).await?;
    if let Some(row) = read::placed(tx, id).await? {
        let still = read::shares_of(tx, user).await?;
        let nodes = read::subtree(tx, &row.path).await?;
        clear_unread_all(tx, user, &unreached(&nodes, &still)).await?;
    }
    push_change(tx, user, None, "removed", id, at).await?;
    refresh_badge(tx, user, at).await
}

async fn opened(tx: &mut Tx, id: &str, user: &str, at: i64) -> Result<()> {
    let cleared = clear_unread(tx, user, id).await?;
    // A US item is marked seen (US items are unread for US users until opened).
    on_tx!(tx, c => sqlx::query(
        "insert into doc_seen (user_id, item_id, seen_at)
         select $1, id, $3 from doc_items where id = $2 and space = 'us'
         on conflict (user_id, item_id) do nothing")
        .bind(user).bind(id).bind(at).execute(c).await.map(|r| r.rows_affected()))?;
    if cleared > 0 {
        refresh_badge(tx, user, at).await?;
    }
    Ok(())
}
