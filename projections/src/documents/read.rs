//! Reading the documents read model: item rows, the item JSON of the API, and how a user
//! reaches each item.
//!
//! Every query runs inside a [`Tx`], so the projection (inside its batch transaction) and the
//! API (inside a short read transaction) share one set of queries.

use std::collections::{BTreeSet, HashSet};

use events::documents::{
    Access, FileFacts, FileFormat, ItemInfo, Kind, Labels, ReplacementRef, Space, WithdrawalFacts,
    WithdrawnState,
};
use serde::Serialize;

use crate::db::{DbKind, Tx};
use crate::on_tx;

/// Who is looking.
#[derive(Debug, Clone)]
pub struct Viewer {
    pub id: String,
    /// The user's certificate is US: the US set is theirs to see.
    pub shows_us: bool,
}

/// One row of `doc_items`, with what the viewer of the query needs.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ItemRow {
    pub id: String,
    pub kind: String,
    pub space: String,
    pub owner_id: Option<String>,
    pub owner_name: Option<String>,
    pub parent_id: Option<String>,
    pub path: String,
    pub depth: i64,
    pub name: String,
    pub title: String,
    pub subtitle: Option<String>,
    pub languages_in_file: Option<String>,
    pub code_points: Option<String>,
    pub size: Option<i64>,
    pub blob: Option<String>,
    pub content_type: Option<String>,
    pub for_internal_use: bool,
    pub controlled_release: bool,
    pub upon_request: bool,
    pub external_release: bool,
    pub copied_from: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    /// `withdrawn` or `expired`: the company withdrew the document (or it expired).
    pub withdrawn_state: Option<String>,
    pub withdrawn_reason: Option<String>,
    pub withdrawn_at: Option<i64>,
    pub replacement_id: Option<i64>,
    pub replacement_title: Option<String>,
    pub replacement_url: Option<String>,
    /// Folders: how many items are directly inside.
    pub children: i64,
    /// The viewer has an unread mark on the item (it reached them through a share).
    pub unread_mark: bool,
    /// The viewer has opened this US item.
    pub seen: bool,
}

/// Why an item is no longer available: the company withdrew the document, or it expired.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct ItemWithdrawal {
    pub state: ItemWithdrawalState,
    /// The reason the withdrawal gave (empty for an expiry).
    pub reason: String,
    /// Milliseconds since the epoch.
    pub at: i64,
    /// The library document that replaces it.
    pub replacement: Option<ItemReplacement>,
}

/// Whether the company withdrew the document or it expired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ItemWithdrawalState {
    Withdrawn,
    Expired,
}

/// The library document that replaces a withdrawn one.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct ItemReplacement {
    /// Its library id.
    pub id: i64,
    pub title: String,
    /// Where the signed-in app opens it.
    pub url: String,
}

/// A document or folder as the API shows it to one user (spec 3 "Document or folder item").
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct ItemView {
    /// UUID.
    pub id: String,
    /// `folder` or `file`.
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    /// Folders: the name; files: the file name.
    pub name: String,
    /// 'For internal use', 'Controlled release' or 'Upon request' (the first that applies).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Files: bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subtitle: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub languages_in_file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code_points: Option<String>,
    /// Files: where the content is (`/api/documents/{id}/file`, signed in).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Exactly what this user may do: a subset of rename, delete, move, internal_share,
    /// storage_internal_share, external_share, save_to_mydocs, move_to_mydocs.
    pub actions: Vec<String>,
    /// Folders: how many items they hold.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub children: Option<i64>,
    pub for_internal_use: bool,
    pub controlled_release: bool,
    pub upon_request: bool,
    /// The item reached this user (a share, the US set) and they have not opened it yet.
    pub unread: bool,
    /// The owner's name (none for the company's US set).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// Milliseconds since the epoch.
    pub updated_at: i64,
    /// The folder holding the item, for its owner only (none at the root, and never shown to
    /// others): the move dialog of a search result disables it and offers the root.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// Set when the company withdrew the document (or it expired): such an item is only listed
    /// in its owner's My Docs, with no actions, and its file answers 410.
    pub withdrawn: Option<ItemWithdrawal>,
}

impl ItemRow {
    pub fn kind(&self) -> Kind {
        if self.kind == "folder" {
            Kind::Folder
        } else {
            Kind::File
        }
    }

    pub fn space(&self) -> Space {
        if self.space == "us" {
            Space::Us
        } else {
            Space::My
        }
    }

    pub fn labels(&self) -> Labels {
        Labels {
            for_internal_use: self.for_internal_use,
            controlled_release: self.controlled_release,
            upon_request: self.upon_request,
            external_release: self.external_release,
        }
    }

    /// The folders above the item, root first.
    pub fn ancestors(&self) -> Vec<&str> {
        let mut ids = path_ids(&self.path);
        ids.pop();
        ids
    }

    /// How `viewer`, whose direct shares are `shares`, reaches this item.
    pub fn access(&self, viewer: &Viewer, shares: &HashSet<String>) -> Access {
        Access {
            owner: self.space() == Space::My && self.owner_id.as_deref() == Some(&viewer.id),
            direct: shares.contains(&self.id),
            inside: self.ancestors().iter().any(|a| shares.contains(*a)),
            us: self.space() == Space::Us && viewer.shows_us,
        }
    }

    /// Why the item is no longer available, when the company withdrew it (or it expired).
    pub fn withdrawal(&self) -> Option<WithdrawalFacts> {
        let state = WithdrawnState::parse(self.withdrawn_state.as_deref()?)?;
        let replacement = match (self.replacement_id, &self.replacement_title) {
            (Some(id), Some(title)) => Some(ReplacementRef {
                id,
                title: title.clone(),
                url: self.replacement_url.clone().unwrap_or_default(),
            }),
            _ => None,
        };
        Some(WithdrawalFacts {
            state,
            reason: self.withdrawn_reason.clone().unwrap_or_default(),
            at: self.withdrawn_at.unwrap_or_default(),
            replacement,
        })
    }

    pub fn is_withdrawn(&self) -> bool {
        self.withdrawn_state.is_some()
    }

    pub fn unread(&self, viewer: &Viewer) -> bool {
        !self.is_withdrawn() && self.unread_mark
            || (self.space() == Space::Us && viewer.shows_us && !self.seen)
    }

    /// The item JSON for `viewer`.
    pub fn view(&self, viewer: &Viewer, shares: &HashSet<String>) -> ItemView {
        let access = self.access(viewer, shares);
        // A withdrawn item allows nothing but its owner's delete, which lists do not offer.
        let actions = if self.is_withdrawn() {
            Vec::new()
        } else {
            access.actions(self.kind(), &self.labels())
        };
        let mut view = self.view_with(
            actions.iter().map(|a| a.as_str().to_string()).collect(),
            self.unread(viewer),
        );
        if access.owner {
            view.parent = self.parent_id.clone();
        }
        view
    }

    /// The item JSON with these actions and unread flag (auditors' past views have none).
    pub fn view_with(&self, actions: Vec<String>, unread: bool) -> ItemView {
        let file = self.kind() == Kind::File;
        ItemView {
            id: self.id.clone(),
            kind: self.kind.clone(),
            title: self.title.clone(),
            name: self.name.clone(),
            label: self.labels().label().map(String::from),
            size: if file { self.size } else { None },
            subtitle: self.subtitle.clone(),
            languages_in_file: self.languages_in_file.clone(),
            code_points: self.code_points.clone(),
            url: file.then(|| format!("/api/documents/{}/file", self.id)),
            actions,
            children: (!file).then_some(self.children),
            for_internal_use: self.for_internal_use,
            controlled_release: self.controlled_release,
            upon_request: self.upon_request,
            unread,
            owner: self.owner_name.clone(),
            updated_at: self.updated_at,
            parent: None,
            withdrawn: self.withdrawal().map(|w| ItemWithdrawal {
                state: match w.state {
                    WithdrawnState::Withdrawn => ItemWithdrawalState::Withdrawn,
                    WithdrawnState::Expired => ItemWithdrawalState::Expired,
                },
                reason: w.reason,
                at: w.at,
                replacement: w.replacement.map(|r| ItemReplacement {
                    id: r.id,
                    title: r.title,
                    url: r.url,
                }),
            }),
        }
    }

    /// The item as the aggregate's services describe it.
    pub fn info(&self) -> ItemInfo {
        ItemInfo {
            id: self.id.clone(),
            kind: self.kind(),
            name: self.title.clone(),
            space: self.space(),
            owner: self.owner_id.clone(),
            depth: u32::try_from(self.depth).unwrap_or(0),
            ancestors: self.ancestors().into_iter().map(String::from).collect(),
        }
    }

    /// What a copy of this file carries.
    pub fn file_facts(&self) -> Option<FileFacts> {
        if self.kind() != Kind::File {
            return None;
        }
        let format = match self.content_type.as_deref() {
            Some("application/vnd.ms-excel") => FileFormat::Xls,
            _ => FileFormat::Pdf,
        };
        Some(FileFacts {
            title: self.title.clone(),
            name: self.name.clone(),
            blob: self.blob.clone().unwrap_or_default(),
            size: self.size.unwrap_or(0),
            format,
            sha256: None,
            subtitle: self.subtitle.clone(),
            languages_in_file: self.languages_in_file.clone(),
            code_points: self.code_points.clone(),
            labels: self.labels(),
        })
    }
}

/// The bounds of the subtree at `path` (`/a/b/`): every path below it, and only those, lies in
/// `[path, /a/b0)` in byte order ('0' follows '/'). Bound as two parameters of [`in_subtree`].
pub fn subtree_bounds(path: &str) -> (String, String) {
    let stem = path.strip_suffix('/').unwrap_or(path);
    (path.to_string(), format!("{stem}0"))
}

/// The SQL condition "`column` is the subtree whose [`subtree_bounds`] are parameters `$lo` and
/// `$hi`": a range over the `doc_items_path` index rather than a scan of every item. PostgreSQL
/// compares in byte order only under the "C" collation, which that index is built with.
pub fn in_subtree(kind: DbKind, column: &str, lo: usize, hi: usize) -> String {
    match kind {
        DbKind::Sqlite => format!("{column} >= ${lo} and {column} < ${hi}"),
        DbKind::Postgres => {
            format!("{column} collate \"C\" >= ${lo} and {column} collate \"C\" < ${hi}")
        }
    }
}

/// [`in_subtree`] with the subtree's root path taken from the SQL expression `root` (another
/// row's path column, in a join) rather than bound: the same bounds as [`subtree_bounds`],
/// computed by the database.
pub fn in_subtree_of(kind: DbKind, column: &str, root: &str) -> String {
    let hi = format!("(rtrim({root}, '/') || '0')");
    match kind {
        DbKind::Sqlite => format!("{column} >= {root} and {column} < {hi}"),
        DbKind::Postgres => format!(
            "{column} collate \"C\" >= {root} collate \"C\" and {column} collate \"C\" < {hi} collate \"C\""
        ),
    }
}

/// The ids in a path `/a/b/c/`, root first, the item itself last.
pub fn path_ids(path: &str) -> Vec<&str> {
    path.split('/').filter(|s| !s.is_empty()).collect()
}

/// An item's own columns.
macro_rules! item_facts {
    () => {
        "select i.id, i.kind, i.space, i.owner_id, i.owner_name, i.parent_id, i.path, i.depth,
        i.name, i.title, i.subtitle, i.languages_in_file, i.code_points, i.size, i.blob, i.content_type,
        i.for_internal_use, i.controlled_release, i.upon_request, i.external_release, i.copied_from,
        i.created_at, i.updated_at, i.withdrawn_state, i.withdrawn_reason, i.withdrawn_at,
        i.replacement_id, i.replacement_title, i.replacement_url,"
    };
}

/// The columns of [`ItemRow`], `$1` (or the expression given) being the viewer: an item's own,
/// with what a reader is shown of it (how many items it holds, and the viewer's marks).
macro_rules! item_columns {
    () => {
        item_columns!("$1")
    };
    ($viewer:literal) => {
        concat!(
            item_facts!(),
            "
        (select count(*) from doc_items c where c.parent_id = i.id) as children,
        coalesce((select true from doc_unread u where u.user_id = ",
            $viewer,
            " and u.item_id = i.id), false) as unread_mark,
        coalesce((select true from doc_seen s where s.user_id = ",
            $viewer,
            " and s.item_id = i.id), false) as seen"
        )
    };
}

/// The viewer's shares among the items on `i`'s path, as a JSON list of ids (PostgreSQL). Each
/// item on the path is looked up by the shares' key (a scalar subquery is never turned into a
/// join): with `s.item_id = any(…)` PostgreSQL read every share of the viewer through
/// `doc_shares_user` and filtered them, a cost that grew with the viewer's shares.
macro_rules! path_shares_column {
    ($viewer:literal) => {
        concat!(
            ",\n        (select coalesce(json_agg(p.item_id) filter (where (select true from doc_shares s
            where s.item_id = p.item_id and s.user_id = ",
            $viewer,
            ")), '[]')::text
          from unnest(string_to_array(i.path, '/')) as p (item_id)) as path_shares"
        )
    };
}

const SELECT: &str = concat!(item_columns!(), "\n    from doc_items i");

/// Folders first, then by title.
const ORDER: &str = "order by case when i.kind = 'folder' then 0 else 1 end, lower(i.title), i.id";

/// The statement of [`item`]: `$1` the viewer, `$2` the item.
const ITEM: &str = concat!(item_columns!(), "\n    from doc_items i where i.id = $2");

/// The item `id`, with `viewer_id`'s unread marks ("" for none).
pub async fn item(tx: &mut Tx, viewer_id: &str, id: &str) -> Result<Option<ItemRow>, sqlx::Error> {
    on_tx!(tx, c => sqlx::query_as::<_, ItemRow>(ITEM).bind(viewer_id).bind(id).fetch_optional(c).await)
}

/// The item `id` for a command's checks (where it is, whose, what it is), without what only a
/// reader is shown: counting the items of a folder that holds thousands is most of the cost of
/// reading it. Its `children` is 0 and it carries no marks: never for an answer.
pub async fn item_for_checks(tx: &mut Tx, id: &str) -> Result<Option<ItemRow>, sqlx::Error> {
    const SQL: &str = concat!(
        item_facts!(),
        "
        cast(0 as bigint) as children, false as unread_mark, false as seen
    from doc_items i where i.id = $1"
    );
    on_tx!(tx, c => sqlx::query_as::<_, ItemRow>(SQL).bind(id).fetch_optional(c).await)
}

/// [`ItemRow`] with the viewer's shares on its path as a JSON list of ids.
#[derive(sqlx::FromRow)]
struct ItemRowAndShares {
    #[sqlx(flatten)]
    row: ItemRow,
    path_shares: String,
}

/// The PostgreSQL statement of [`item_and_path_shares`]: `$1` the viewer, `$2` the item (public
/// for checking its plan).
pub const ITEM_AND_PATH_SHARES_POSTGRES: &str = concat!(
    item_columns!(),
    path_shares_column!("$1"),
    "\n    from doc_items i where i.id = $2"
);

/// The item `id` as [`item`] reads it, and which of the items on its path (its folders and
/// itself) are shared with `viewer_id` directly: all [`ItemRow::access`] and
/// [`ItemRow::view`] need, found through the shares' key whatever the number of the viewer's
/// shares. One statement on PostgreSQL; on SQLite, the read of a group commit's answers
/// ([`items_and_path_shares_sqlite`]) for this one pair.
pub async fn item_and_path_shares(
    tx: &mut Tx,
    viewer_id: &str,
    id: &str,
) -> Result<Option<(ItemRow, HashSet<String>)>, sqlx::Error> {
    match tx.kind() {
        crate::db::DbKind::Postgres => {
            let found: Option<ItemRowAndShares> = on_tx!(tx, c => sqlx::query_as(ITEM_AND_PATH_SHARES_POSTGRES)
                .bind(viewer_id).bind(id).fetch_optional(c).await)?;
            found
                .map(|f| {
                    let shares: HashSet<String> = serde_json::from_str(&f.path_shares)
                        .map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
                    Ok((f.row, shares))
                })
                .transpose()
        }
        crate::db::DbKind::Sqlite => {
            let mut found = items_and_path_shares_sqlite(tx, &[(viewer_id, id)]).await?;
            Ok(found.pop().flatten())
        }
    }
}

/// What [`items_and_path_shares`] reads: for each pair, the item and its viewer's shares on
/// its path, `None` when there is no such item.
pub type ReadBacks = Vec<Option<(ItemRow, HashSet<String>)>>;

/// The most pairs an [`items_and_path_shares`] statement is kept prepared for (one per size).
pub const READ_BACK_PREPARED_UP_TO: usize = 16;

/// An item and its viewer's path shares as [`item_and_path_shares`] reads them, for the
/// commands of one group commit at once: `(viewer_id, item_id)` pairs, answered in their
/// order. One statement on either database ([`items_and_path_shares_sqlite`] on SQLite).
///
/// The pairs are a `values` list, one text per number of pairs, so that PostgreSQL's plan
/// for a size knows its rows and is made once per connection (an array's length is unknown to
/// a generic plan, and a plan made for each run cost more than the read). Each size up to
/// [`READ_BACK_PREPARED_UP_TO`] stays prepared: a group commit takes a command of each client
/// waiting, so these are the sizes it meets.
pub async fn items_and_path_shares(
    tx: &mut Tx,
    pairs: &[(&str, &str)],
) -> Result<ReadBacks, sqlx::Error> {
    #[derive(sqlx::FromRow)]
    struct Found {
        #[sqlx(flatten)]
        row: ItemRow,
        path_shares: String,
        n: i32,
    }
    let mut answers: ReadBacks = vec![None; pairs.len()];
    let conn: &mut sqlx::PgConnection = match tx {
        Tx::Postgres(t) => t,
        Tx::PostgresReads(c) => c,
        Tx::Sqlite(_) => return items_and_path_shares_sqlite(tx, pairs).await,
    };
    let sql = items_and_path_shares_postgres(pairs.len());
    let mut query =
        sqlx::query_as::<_, Found>(&sql).persistent(pairs.len() <= READ_BACK_PREPARED_UP_TO);
    for (viewer, item) in pairs {
        query = query.bind(*viewer).bind(*item);
    }
    for f in query.fetch_all(conn).await? {
        let shares: HashSet<String> =
            serde_json::from_str(&f.path_shares).map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
        if let Some(answer) = usize::try_from(f.n).ok().and_then(|i| answers.get_mut(i)) {
            *answer = Some((f.row, shares));
        }
    }
    Ok(answers)
}

/// The PostgreSQL statement of [`items_and_path_shares`] for `pairs` pairs: `$1`, `$2` the
/// first pair's viewer and item, and so on.
fn items_and_path_shares_postgres(pairs: usize) -> String {
    format!(
        "{}{}, v.n\n    from (values {}) as v (viewer_id, item_id, n)
          join doc_items i on i.id = v.item_id",
        item_columns!("v.viewer_id"),
        path_shares_column!("v.viewer_id"),
        numbered_pairs(pairs, |i| format!("cast(${i} as text)")),
    )
}

/// `n` rows of a `values` list, each two parameters (`param` writes the `i`th, from 1) and the
/// row's number from 0: `(a1, b2, 0), (a3, b4, 1), …`.
fn numbered_pairs(n: usize, param: impl Fn(usize) -> String) -> String {
    (0..n)
        .map(|i| format!("({}, {}, {i})", param(2 * i + 1), param(2 * i + 2)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// [`items_and_path_shares`] on SQLite, in one statement (each statement is a hand-over to the
/// connection's thread and back): the items of every pair, each with its viewer's shares among
/// the items on its path. SQLite has no arrays to split a path in, so a recursive subquery
/// splits it at its `/`s (as [`path_ids`] does; the empty pieces match no share), and each piece
/// is looked up by the shares' key.
async fn items_and_path_shares_sqlite(
    tx: &mut Tx,
    pairs: &[(&str, &str)],
) -> Result<ReadBacks, sqlx::Error> {
    #[derive(sqlx::FromRow)]
    struct Found {
        #[sqlx(flatten)]
        row: ItemRow,
        path_shares: String,
        n: i64,
    }
    let mut answers: ReadBacks = vec![None; pairs.len()];
    if pairs.is_empty() {
        return Ok(answers);
    }
    let sql = format!(
        "with v (viewer_id, item_id, n) as (values {})\n{}{}, v.n\n    from v join doc_items i on i.id = v.item_id",
        numbered_pairs(pairs.len(), |i| format!("${i}")),
        item_columns!("v.viewer_id"),
        SQLITE_PATH_SHARES_COLUMN,
    );
    let found: Vec<Found> = on_tx!(tx, c => {
        let mut q = sqlx::query_as::<_, Found>(&sql).persistent(pairs.len() <= READ_BACK_PREPARED_UP_TO);
        for (viewer, item) in pairs {
            q = q.bind(*viewer).bind(*item);
        }
        q.fetch_all(c).await
    })?;
    for f in found {
        let Some(answer) = usize::try_from(f.n).ok().and_then(|i| answers.get_mut(i)) else {
            continue;
        };
        let shares: HashSet<String> =
            serde_json::from_str(&f.path_shares).map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
        *answer = Some((f.row, shares));
    }
    Ok(answers)
}

/// The `path_shares` column of [`items_and_path_shares_sqlite`]: the ids of the items on
/// `i.path` shared with `v.viewer_id` directly, as a JSON array.
const SQLITE_PATH_SHARES_COLUMN: &str = ",
        (with recursive piece (rest, id) as (
            select i.path || '/', ''
            union all
            select substr(rest, instr(rest, '/') + 1), substr(rest, 1, instr(rest, '/') - 1)
              from piece where rest <> ''
        )
        select json_group_array(s.item_id) from piece p
          join doc_shares s on s.item_id = p.id and s.user_id = v.viewer_id) as path_shares";

/// The items directly inside `parent`.
pub async fn children(
    tx: &mut Tx,
    viewer_id: &str,
    parent: &str,
) -> Result<Vec<ItemRow>, sqlx::Error> {
    let sql = format!("{SELECT} where i.parent_id = $2 {ORDER}");
    on_tx!(tx, c => sqlx::query_as::<_, ItemRow>(&sql).bind(viewer_id).bind(parent).fetch_all(c).await)
}

/// The root of the user's My Docs.
pub async fn my_roots(tx: &mut Tx, viewer_id: &str) -> Result<Vec<ItemRow>, sqlx::Error> {
    let sql = format!(
        "{SELECT} where i.space = 'my' and i.owner_id = $1 and i.parent_id is null {ORDER}"
    );
    on_tx!(tx, c => sqlx::query_as::<_, ItemRow>(&sql).bind(viewer_id).fetch_all(c).await)
}

/// The root of the user's Shared with me: what was shared with them directly.
pub async fn shared_roots(tx: &mut Tx, viewer_id: &str) -> Result<Vec<ItemRow>, sqlx::Error> {
    let sql = format!(
        "{SELECT} where i.id in (select s.item_id from doc_shares s where s.user_id = $1)
         and i.withdrawn_state is null {ORDER}"
    );
    on_tx!(tx, c => sqlx::query_as::<_, ItemRow>(&sql).bind(viewer_id).fetch_all(c).await)
}

/// The root of the US set.
pub async fn us_roots(tx: &mut Tx, viewer_id: &str) -> Result<Vec<ItemRow>, sqlx::Error> {
    let sql = format!(
        "{SELECT} where i.space = 'us' and i.parent_id is null and i.withdrawn_state is null {ORDER}"
    );
    on_tx!(tx, c => sqlx::query_as::<_, ItemRow>(&sql).bind(viewer_id).fetch_all(c).await)
}

/// How many items shared with `user` directly (the root of their Shared with me) they have not
/// opened: the `shared` badge, both the one the projection pushes and `GET /badges`.
pub async fn shared_unread(tx: &mut Tx, user: &str) -> Result<i64, sqlx::Error> {
    on_tx!(tx, c => sqlx::query_scalar(
        "select cast(count(*) as bigint) from doc_shares s
         join doc_unread u on u.user_id = s.user_id and u.item_id = s.item_id
         where s.user_id = $1
           and not exists (select 1 from doc_items w where w.id = s.item_id and w.withdrawn_state is not null)")
        .bind(user).fetch_one(c).await)
}

/// The ids of the items shared with `user` directly.
pub async fn shares_of(tx: &mut Tx, user: &str) -> Result<HashSet<String>, sqlx::Error> {
    let ids: Vec<String> = on_tx!(tx, c => sqlx::query_scalar(
        "select item_id from doc_shares where user_id = $1")
        .bind(user).fetch_all(c).await)?;
    Ok(ids.into_iter().collect())
}

/// `$from, $from+1, …`: `n` numbered parameters, for an `in (...)` list.
pub fn placeholders(from: usize, n: usize) -> String {
    (from..from + n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Direct shares on any of `items`, as (user, item), in a stable order.
pub async fn shares_on(
    tx: &mut Tx,
    items: &[&str],
) -> Result<BTreeSet<(String, String)>, sqlx::Error> {
    if items.is_empty() {
        return Ok(BTreeSet::new());
    }
    let sql = format!(
        "select user_id, item_id from doc_shares where item_id in ({})",
        placeholders(1, items.len())
    );
    let rows: Vec<(String, String)> = on_tx!(tx, c => {
        let mut q = sqlx::query_as(&sql);
        for id in items {
            q = q.bind(*id);
        }
        q.fetch_all(c).await
    })?;
    Ok(rows.into_iter().collect())
}

/// A row of a subtree: enough to walk it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct NodeRow {
    pub id: String,
    pub kind: String,
    pub parent_id: Option<String>,
    pub path: String,
    pub depth: i64,
}

/// The item with path `path` and everything below it, parents before children.
pub async fn subtree(tx: &mut Tx, path: &str) -> Result<Vec<NodeRow>, sqlx::Error> {
    let (lo, hi) = subtree_bounds(path);
    let sql = format!(
        "select id, kind, parent_id, path, depth from doc_items where {} order by length(path), id",
        in_subtree(tx.kind(), "path", 1, 2)
    );
    on_tx!(tx, c => sqlx::query_as::<_, NodeRow>(&sql).bind(&lo).bind(&hi).fetch_all(c).await)
}

/// The item `id` and everything below it, as [`subtree`] lists them; none when it is gone.
/// One statement: the item's path is a scalar subquery, evaluated once before the range is
/// read, so the range is a scan of the path index whatever the planner knows of the table (in a
/// join, without statistics, PostgreSQL chose to scan every item for it).
pub async fn subtree_of_item(tx: &mut Tx, id: &str) -> Result<Vec<NodeRow>, sqlx::Error> {
    let sql = format!(
        "select id, kind, parent_id, path, depth from doc_items where {}
          order by length(path), id",
        in_subtree_of(
            tx.kind(),
            "path",
            "(select r.path from doc_items r where r.id = $1)"
        )
    );
    on_tx!(tx, c => sqlx::query_as::<_, NodeRow>(&sql).bind(id).fetch_all(c).await)
}

/// A folder of a user's My Docs, for the move dialog's tree.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct FolderRow {
    pub id: String,
    pub title: String,
    pub parent_id: Option<String>,
}

/// Every folder of `owner`'s My Docs, by name.
pub async fn my_folders(tx: &mut Tx, owner: &str) -> Result<Vec<FolderRow>, sqlx::Error> {
    on_tx!(tx, c => sqlx::query_as::<_, FolderRow>(
        "select id, title, parent_id from doc_items
         where space = 'my' and owner_id = $1 and kind = 'folder' order by lower(title), id")
        .bind(owner).fetch_all(c).await)
}

/// A live external link: the file it opens.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LinkRow {
    pub item_id: String,
    pub expires_at: i64,
}

pub async fn external_link(tx: &mut Tx, token_hash: &str) -> Result<Option<LinkRow>, sqlx::Error> {
    on_tx!(tx, c => sqlx::query_as::<_, LinkRow>(
        "select item_id, expires_at from doc_external_links where token_hash = $1")
        .bind(token_hash).fetch_optional(c).await)
}

/// Whether any document event was ever recorded (the demo seed runs only on an empty store).
pub async fn any_item_ever(tx: &mut Tx) -> Result<bool, sqlx::Error> {
    let n: i64 = on_tx!(tx, c => sqlx::query_scalar(
        "select count(*) from (select 1 from events where aggregate_type = $1 limit 1) e")
        .bind(events::documents::ITEM_TYPE).fetch_one(c).await)?;
    Ok(n > 0)
}

#[cfg(test)]
mod tests {
    use super::subtree_bounds;

    fn inside(path: &str, candidate: &str) -> bool {
        let (lo, hi) = subtree_bounds(path);
        candidate >= lo.as_str() && candidate < hi.as_str()
    }

    #[test]
    fn the_bounds_of_a_subtree_hold_exactly_the_paths_below_it() {
        let folder = "/5b1c-9f/a2e4-17/";
        assert!(inside(folder, folder));
        assert!(inside(folder, "/5b1c-9f/a2e4-17/0c3d/"));
        assert!(inside(folder, "/5b1c-9f/a2e4-17/ffff/0000/"));
        // Siblings whose ids extend this one's, sort next to it, or sort around it.
        assert!(!inside(folder, "/5b1c-9f/a2e4-170/"));
        assert!(!inside(folder, "/5b1c-9f/a2e4-17a/"));
        assert!(!inside(folder, "/5b1c-9f/a2e4-1/"));
        assert!(!inside(folder, "/5b1c-9f/a2e4-17-x/"));
        assert!(!inside(folder, "/5b1c-9f/"));
        assert!(!inside(folder, "/ffff/a2e4-17/"));
    }
}
