//! The documents read model in time: `doc_item_versions` keeps every version of an item's row
//! and `doc_share_versions` every period an item was shared with a user, each with `valid_from`
//! and `valid_to` (null while current), written by the projection in the same transaction as the
//! rows. "As of T" is `valid_from <= T and (valid_to is null or valid_to > T)` over indexes that
//! start with the parent folder (items) or the item (shares), so a folder as of T reads the
//! folder's own versions only, whatever the size of the rest of the history. The projection
//! writes them with the rest of its batch (`documents::batch`).

use super::read::ItemRow;
use crate::db::Tx;
use crate::on_tx;
use crate::projector::ProjectionError;

type Result<T> = std::result::Result<T, ProjectionError>;

/// The columns of [`ItemRow`] from a version `v` valid at `$1`; the viewer's marks are left out.
fn select_as_of() -> &'static str {
    "select v.item_id as id, v.kind, v.space, v.owner_id, v.owner_name, v.parent_id, v.path, v.depth,
            v.name, v.title, v.subtitle, v.languages_in_file, v.code_points, v.size, v.blob, v.content_type,
            v.for_internal_use, v.controlled_release, v.upon_request, v.external_release, v.copied_from,
            v.created_at, v.updated_at, v.withdrawn_state, v.withdrawn_reason, v.withdrawn_at,
            v.replacement_id, v.replacement_title, v.replacement_url,
            (select count(*) from doc_item_versions c
              where c.parent_id = v.item_id and c.valid_from <= $1 and (c.valid_to is null or c.valid_to > $1)) as children,
            false as unread_mark, false as seen
         from doc_item_versions v where v.valid_from <= $1 and (v.valid_to is null or v.valid_to > $1)"
}

/// The item `id` as it was at `at_ms`, or `None` when it did not exist then.
pub async fn item_as_of(tx: &mut Tx, id: &str, at_ms: i64) -> Result<Option<ItemRow>> {
    let sql = format!("{} and v.item_id = $2", select_as_of());
    Ok(
        on_tx!(tx, c => sqlx::query_as::<_, ItemRow>(&sql).bind(at_ms).bind(id).fetch_optional(c).await)?,
    )
}

/// The query of [`children_as_of`] (`$1` the time, `$2` the folder), for checking its plan.
pub fn children_as_of_sql() -> String {
    format!(
        "{} and v.parent_id = $2
         order by case when v.kind = 'folder' then 0 else 1 end, lower(v.title), v.item_id",
        select_as_of()
    )
}

/// The items directly in `folder` at `at_ms`, folders first, then by title.
pub async fn children_as_of(tx: &mut Tx, folder: &str, at_ms: i64) -> Result<Vec<ItemRow>> {
    let sql = children_as_of_sql();
    Ok(
        on_tx!(tx, c => sqlx::query_as::<_, ItemRow>(&sql).bind(at_ms).bind(folder).fetch_all(c).await)?,
    )
}

/// The users `id` was shared with at `at_ms`, directly or through a folder above it (the
/// folders above as they were then): who could see it through a share.
pub async fn shared_with_as_of(tx: &mut Tx, id: &str, at_ms: i64) -> Result<Vec<String>> {
    let mut users = std::collections::BTreeSet::new();
    let mut current = Some(id.to_string());
    // The chain of parents is at most the folder depth long; the bound guards a broken history.
    for _ in 0..256 {
        let Some(item) = current.take() else { break };
        let shared: Vec<String> = on_tx!(tx, c => sqlx::query_scalar(
            "select user_id from doc_share_versions
              where item_id = $2 and valid_from <= $1 and (valid_to is null or valid_to > $1)")
            .bind(at_ms).bind(&item).fetch_all(c).await)?;
        users.extend(shared);
        current = item_as_of(tx, &item, at_ms)
            .await?
            .and_then(|row| row.parent_id);
    }
    Ok(users.into_iter().collect())
}

/// How many version rows a folder as of a time reads: the folder's own row and its children's
/// (each child's count reads the child's children). For the test that the cost does not grow
/// with unrelated history.
pub async fn rows_read_as_of(tx: &mut Tx, folder: &str, at_ms: i64) -> Result<i64> {
    let n: i64 = on_tx!(tx, c => sqlx::query_scalar(
        "select count(*) from doc_item_versions where item_id = $1 or parent_id = $1
            or parent_id in (select item_id from doc_item_versions where parent_id = $1 and valid_from <= $2)")
        .bind(folder).bind(at_ms).fetch_one(c).await)?;
    Ok(n)
}

/// A share valid at some time: `user` saw the item through the share on `through` (the item
/// itself or a folder above it as the folders were then), given `via` (`internal` or `storage`).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ShareThen {
    pub user_id: String,
    pub through: String,
    pub via: String,
    pub since: i64,
}

/// The owner of `id` in its versions (`Some(None)` for the company's US set), or `None` when the
/// read model never held the item. Owners never change: a copy is a new item.
pub async fn owner_of(tx: &mut Tx, id: &str) -> Result<Option<Option<String>>> {
    let owner: Option<Option<String>> = on_tx!(tx, c => sqlx::query_scalar(
        "select owner_id from doc_item_versions where item_id = $1 order by valid_from limit 1")
        .bind(id).fetch_optional(c).await)?;
    Ok(owner)
}

/// The shares through which `id` could be seen at `at_ms`: those on the item and those on the
/// folders above it as they were then, nearest first, one per user (the nearest share). Reads
/// the item's chain of parents only (one version row and its shares per level).
pub async fn shares_as_of(tx: &mut Tx, id: &str, at_ms: i64) -> Result<Vec<ShareThen>> {
    let mut found: Vec<ShareThen> = Vec::new();
    let mut current = Some(id.to_string());
    // The chain of parents is at most the folder depth long; the bound guards a broken history.
    for _ in 0..256 {
        let Some(item) = current.take() else { break };
        let shares: Vec<ShareThen> = on_tx!(tx, c => sqlx::query_as::<_, ShareThen>(
            "select user_id, item_id as through, via, valid_from as since from doc_share_versions
              where item_id = $2 and valid_from <= $1 and (valid_to is null or valid_to > $1)
              order by user_id")
            .bind(at_ms).bind(&item).fetch_all(c).await)?;
        for share in shares {
            if !found.iter().any(|s| s.user_id == share.user_id) {
                found.push(share);
            }
        }
        current = item_as_of(tx, &item, at_ms)
            .await?
            .and_then(|row| row.parent_id);
    }
    Ok(found)
}
