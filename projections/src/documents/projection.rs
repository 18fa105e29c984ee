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

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashSet};

use async_trait::async_trait;
use events::documents::{FileFacts, ItemEvent, ItemRef, Kind, Space, ITEM_TYPE};
use serde::ser::{Serialize, SerializeMap, Serializer};

use super::batch::{Batch, Item, Link, Share, Withdrawal};
use super::read::{self, path_ids, NodeRow, Viewer};
use crate::db::Tx;
use crate::projector::{
    BatchFailure, CheckpointState, Kept, Projection, ProjectionError, TableSpec,
};
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

/// The columns whose statistics a rebuild gathers, as `analyze`'s column list (empty: all).
/// For the two large tables, the ones queries find, join, order or range rows by; the wide
/// text only shown to people (titles, subtitles) would cost more than
/// half of the time and no plan reads it. A column list leaves the table's count of changes
/// as it was, so the database's own background statistics still cover every column later.
pub(super) fn analyzed_columns(table: &str) -> &'static str {
    match table {
        "doc_items" => {
            " (id, kind, space, owner_id, parent_id, path, depth, name, seed_key, copied_from, \
             created_at, updated_at, withdrawn_state)"
        }
        "doc_item_versions" => {
            " (item_id, kind, parent_id, path, name, copied_from, valid_from, valid_to)"
        }
        _ => "",
    }
}

#[async_trait]
impl Projection for DocumentsProjection {
    fn name(&self) -> &'static str {
        NAME
    }

    fn analyzed_columns(&self, table: &str) -> &'static str {
        analyzed_columns(table)
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
        self.apply_all(tx, &[event]).await.map_err(|f| f.error)
    }

    /// The whole batch in memory, written at the end (see [`Batch`]).
    async fn apply_all(
        &self,
        tx: &mut Tx,
        events: &[&StoredEvent],
    ) -> std::result::Result<(), BatchFailure> {
        apply_and_write(tx, &mut Batch::default(), events).await
    }

    fn rebuilder(
        &self,
        target: &crate::db::Db,
        spill_bytes: usize,
    ) -> Option<std::sync::Arc<dyn Projection>> {
        Some(std::sync::Arc::new(
            super::resident::ResidentDocumentsProjection::new(target, spill_bytes),
        ))
    }
}

/// [`DocumentsProjection`] as the live projector runs it: between the live rounds of group
/// commits it keeps what its last batch knew of the rows ([`Batch::settle`]), so the next one
/// reads only what that one did not hold. What is kept stands for the tables exactly as long
/// as the projection's checkpoint is where that batch left it, in the same generation (no
/// other projector, tool or swap wrote the tables since: each of them moves one or the
/// other), and it is used only once its transaction committed. Every other way of applying
/// events (the projector's own rounds, one event at a time, a rebuild) drops it.
#[derive(Default)]
pub struct LiveDocumentsProjection {
    kept: Kept<Box<Batch>>,
}

#[async_trait]
impl Projection for LiveDocumentsProjection {
    fn name(&self) -> &'static str {
        DocumentsProjection.name()
    }

    fn analyzed_columns(&self, table: &str) -> &'static str {
        DocumentsProjection.analyzed_columns(table)
    }

    fn tables(&self) -> &'static [TableSpec] {
        DocumentsProjection.tables()
    }

    fn on_poison(&self) -> crate::PoisonPolicy {
        DocumentsProjection.on_poison()
    }

    fn reads(&self, aggregate_type: &str) -> bool {
        DocumentsProjection.reads(aggregate_type)
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> Result<()> {
        self.kept.forget();
        DocumentsProjection.apply(tx, event).await
    }

    async fn apply_all(
        &self,
        tx: &mut Tx,
        events: &[&StoredEvent],
    ) -> std::result::Result<(), BatchFailure> {
        self.kept.forget();
        DocumentsProjection.apply_all(tx, events).await
    }

    fn keeps_rows(&self) -> bool {
        true
    }

    async fn apply_from(
        &self,
        tx: &mut Tx,
        from: CheckpointState,
        events: &[&StoredEvent],
    ) -> std::result::Result<(), BatchFailure> {
        let mut batch = self.kept.take_at(from).unwrap_or_default();
        apply_and_write(tx, &mut batch, events).await?;
        if batch.settle() {
            self.kept.hold(from.after(events), batch);
        }
        Ok(())
    }

    fn settled(&self, committed: bool) {
        self.kept.settled(committed);
    }

    fn rebuilder(
        &self,
        target: &crate::db::Db,
        spill_bytes: usize,
    ) -> Option<std::sync::Arc<dyn Projection>> {
        DocumentsProjection.rebuilder(target, spill_bytes)
    }
}

/// Applies the document events among `events` to `batch` (empty, or kept from the round
/// before) and writes what they changed.
async fn apply_and_write(
    tx: &mut Tx,
    batch: &mut Batch,
    events: &[&StoredEvent],
) -> std::result::Result<(), BatchFailure> {
    let decoded = decode_batch(events)?;
    let unplaced = |error| BatchFailure { index: None, error };
    apply_decoded(tx, batch, decoded).await.map_err(unplaced)?;
    batch.flush(tx).await.map_err(unplaced)?;
    count_statements(batch);
    Ok(())
}

/// The batch's document events, decoded; a poison event is named by its index.
pub(super) fn decode_batch<'e>(
    events: &[&'e StoredEvent],
) -> std::result::Result<Vec<(&'e StoredEvent, Box<ItemEvent>)>, BatchFailure> {
    decode_batch_with(events, |_| None)
}

/// [`decode_batch`], taking from `ahead` the events already decoded.
pub(super) fn decode_batch_with<'e>(
    events: &[&'e StoredEvent],
    mut ahead: impl FnMut(&StoredEvent) -> Option<Box<ItemEvent>>,
) -> std::result::Result<Vec<(&'e StoredEvent, Box<ItemEvent>)>, BatchFailure> {
    let mut decoded = Vec::with_capacity(events.len());
    for (index, event) in events.iter().enumerate() {
        if event.aggregate_type != ITEM_TYPE {
            continue;
        }
        let item = match ahead(event) {
            Some(item) => item,
            None => Box::new(event.decode().map_err(|e| BatchFailure {
                index: Some(index),
                error: ProjectionError::bad_event(event, e),
            })?),
        };
        decoded.push((*event, item));
    }
    Ok(decoded)
}

/// Applies decoded events to `batch` in order, after loading what they read.
pub(super) async fn apply_decoded(
    tx: &mut Tx,
    batch: &mut Batch,
    decoded: Vec<(&StoredEvent, Box<ItemEvent>)>,
) -> Result<()> {
    // A resident batch holds every row already: what prefetching gathers would be thrown away.
    if !batch.is_resident() {
        prefetch(tx, batch, &decoded).await?;
    }
    for (event, item) in decoded {
        apply_one(tx, batch, event, item).await?;
    }
    Ok(())
}

/// Adds a batch's statements to [`STATEMENTS_TOTAL`].
pub(super) fn count_statements(batch: &Batch) {
    let statements = &batch.statements;
    metrics::counter!(STATEMENTS_TOTAL, "kind" => "read").increment(statements.reads);
    metrics::counter!(STATEMENTS_TOTAL, "kind" => "write").increment(statements.writes);
}

/// Statements the documents projection ran, by kind (`read`, `write`).
pub const STATEMENTS_TOTAL: &str = "companion_documents_projection_statements_total";

/// Loads in a few statements what the batch's events will read: their items and the folders
/// they go into, the shares on those and on every folder above them, and the users concerned.
async fn prefetch(
    tx: &mut Tx,
    batch: &mut Batch,
    events: &[(&StoredEvent, Box<ItemEvent>)],
) -> Result<()> {
    let mut ids: Vec<&str> = Vec::new();
    let mut users: Vec<&str> = Vec::new();
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    for (event, item) in events {
        ids.push(event.aggregate_id.as_str());
        match &**item {
            // An item's first event makes its row: nothing to read for it.
            ItemEvent::FolderCreated { id, .. } | ItemEvent::FileUploaded { id, .. }
                if event.sequence == 1 && *id == event.aggregate_id =>
            {
                batch.new_item_id(id);
            }
            _ => {}
        }
        match &**item {
            ItemEvent::FolderCreated { id, parent, .. }
            | ItemEvent::FileUploaded { id, parent, .. }
            | ItemEvent::Copied { id, parent, .. } => {
                ids.push(id);
                ids.extend(parent.as_ref().map(|p| p.id.as_str()));
            }
            ItemEvent::Moved { to, .. } => ids.extend(to.as_ref().map(|p| p.id.as_str())),
            ItemEvent::Shared { with, .. } => {
                users.push(&with.id);
                pairs.push((&with.id, event.aggregate_id.as_str()));
            }
            ItemEvent::MovedToMyDocs { by, .. } => {
                users.push(by);
                pairs.push((by, event.aggregate_id.as_str()));
            }
            _ => {}
        }
    }
    batch.load_items(tx, &ids).await?;
    let mut paths: Vec<String> = Vec::new();
    for id in &ids {
        if let Some(item) = batch.item(tx, id).await? {
            paths.push(item.path.clone());
        }
    }
    let above: Vec<&str> = paths.iter().flat_map(|p| path_ids(p)).collect();
    batch.load_item_shares(tx, &above).await?;
    // Those who see these items through a share get feed messages (their feed numbers are
    // read); the users shares are given to or taken from get their badge read too.
    let watchers: Vec<String> = batch
        .shares_on(&above)
        .into_iter()
        .map(|(user, _)| user)
        .collect();
    // Those users need their feed numbers too: one statement for both.
    let feed_numbers_of: Vec<&str> = watchers
        .iter()
        .map(String::as_str)
        .chain(users.iter().copied())
        .collect();
    batch
        .load_around(tx, &feed_numbers_of, &users, &pairs, &ids)
        .await
}

async fn apply_one(
    tx: &mut Tx,
    b: &mut Batch,
    event: &StoredEvent,
    decoded: Box<ItemEvent>,
) -> Result<()> {
    let id = event.aggregate_id.as_str();
    let at = event.recorded_at;
    // Each arm moves the fields it uses out of the box, not the whole event.
    match *decoded {
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
            insert_item(tx, b, row, at).await
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
            insert_item(tx, b, row, at).await
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
            insert_item(tx, b, row, at).await
        }
        ItemEvent::Renamed { to, file_name, .. } => {
            renamed(tx, b, id, &to, file_name.as_deref(), at).await
        }
        ItemEvent::Moved { to, .. } => moved(tx, b, id, to.as_ref(), at).await,
        ItemEvent::FolderDeleted { .. } | ItemEvent::FileRemoved { .. } => {
            removed(tx, b, id, at).await
        }
        // Its folder's deletion already removed it.
        ItemEvent::DeletedWithFolder { .. } => Ok(()),
        ItemEvent::Shared { by, with, via } => {
            let via = match via {
                events::documents::ShareVia::Internal => "internal",
                events::documents::ShareVia::Storage => "storage",
            };
            shared(tx, b, id, &by.id, &with.id, via, at).await
        }
        ItemEvent::SharedExternally {
            by,
            email,
            token_hash,
            expires_at,
            ..
        } => {
            b.add_link(Link {
                token_hash,
                item_id: id.to_string(),
                email,
                created_by: by,
                created_at: at,
                expires_at,
            });
            Ok(())
        }
        ItemEvent::SavedToMyDocs { .. } => Ok(()),
        ItemEvent::MovedToMyDocs { by, .. } => unshared(tx, b, id, &by, at).await,
        ItemEvent::Opened { by } | ItemEvent::Downloaded { by } => opened(tx, b, id, &by, at).await,
        ItemEvent::FileReplaced { file, .. } => replaced(tx, b, id, &file, at).await,
        ItemEvent::Withdrawn {
            state,
            reason,
            at: since,
            replacement,
            ..
        } => {
            b.item(tx, id).await?;
            let changed = b.update_item(id, |item| {
                item.withdrawal = Withdrawal {
                    withdrawn_state: Some(state.as_str().to_string()),
                    withdrawn_reason: Some(reason),
                    withdrawn_at: Some(since),
                    replacement_id: replacement.as_ref().map(|r| r.id),
                    replacement_title: replacement.as_ref().map(|r| r.title.clone()),
                    replacement_url: replacement.map(|r| r.url),
                }
                .boxed();
                item.updated_at = at;
            });
            if changed {
                b.item_changed(id, at);
            }
            withdrawn(tx, b, id, at).await
        }
    }
}

/// Everyone who sees the item at `path` through a share (with whether through its folder), and
/// the users who opened it as a US item (`false`: they see it at a list's root): whom to
/// tell. Nobody when the batch keeps no feed.
async fn audience(
    tx: &mut Tx,
    b: &mut Batch,
    id: &str,
    path: &str,
) -> Result<BTreeMap<String, bool>> {
    if !b.keeps_feed() {
        return Ok(BTreeMap::new());
    }
    let shares = b.shares_above_and_on(tx, path).await?;
    let mut users = watchers(path, &shares);
    for user in b.seen_by(tx, id).await? {
        users.entry(user).or_insert(false);
    }
    Ok(users)
}

/// A new version of a company file: the row takes the new file in place (same id, so links and
/// shares stay) and is unread again for everyone who sees it; open apps refresh.
async fn replaced(tx: &mut Tx, b: &mut Batch, id: &str, file: &FileFacts, at: i64) -> Result<()> {
    let Some(row) = b.item(tx, id).await? else {
        return Ok(());
    };
    let told = audience(tx, b, id, &row.path).await?;
    b.update_item(id, |item| {
        item.title = file.title.clone();
        item.name = file.name.clone();
        item.blob = Some(file.blob.clone());
        item.size = Some(file.size);
        item.content_type = Some(Cow::Borrowed(file.format.content_type()));
        item.subtitle = file.subtitle.clone();
        item.languages_in_file = file.languages_in_file.clone();
        item.code_points = file.code_points.clone();
        item.for_internal_use = file.labels.for_internal_use;
        item.controlled_release = file.labels.controlled_release;
        item.upon_request = file.labels.upon_request;
        item.external_release = file.labels.external_release;
        item.updated_at = at;
    });
    b.item_changed(id, at);
    // US users see it unread until they open it again; share holders get their mark back.
    b.unsee(id);
    let shares = b.shares_above_and_on(tx, &row.path).await?;
    let holders: BTreeSet<String> = watchers(&row.path, &shares).into_keys().collect();
    for user in &holders {
        b.mark_unread(user, &[id], at);
    }
    for (user, in_folder) in &told {
        let folder = in_folder.then_some(row.parent_id.as_deref()).flatten();
        push_change(tx, b, user, folder, "replaced", id, at).await?;
    }
    for user in &holders {
        refresh_badge(tx, b, user, at).await?;
    }
    Ok(())
}

/// A withdrawn item leaves every Shared with me and the US set: its unread marks go, and
/// everyone who saw it is told it was removed.
async fn withdrawn(tx: &mut Tx, b: &mut Batch, id: &str, at: i64) -> Result<()> {
    let Some(row) = b.item(tx, id).await? else {
        return Ok(());
    };
    let told = audience(tx, b, id, &row.path).await?;
    let shares = b.shares_above_and_on(tx, &row.path).await?;
    let holders: BTreeSet<String> = watchers(&row.path, &shares).into_keys().collect();
    for user in &holders {
        b.clear_unread(user, &[id]);
    }
    for (user, in_folder) in &told {
        let folder = in_folder.then_some(row.parent_id.as_deref()).flatten();
        push_change(tx, b, user, folder, "removed", id, at).await?;
    }
    for user in &holders {
        refresh_badge(tx, b, user, at).await?;
    }
    Ok(())
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
async fn view_for(
    tx: &mut Tx,
    b: &mut Batch,
    id: &str,
    user: &str,
) -> Result<Option<read::ItemView>> {
    let Some(row) = row_for(tx, b, id, user).await? else {
        return Ok(None);
    };
    // What the user sees of an item depends only on their shares on it and above it: looked
    // up for this user alone, so a change told to every holder of a folder shared with many
    // costs each of them their own shares, not everyone's.
    let on_path = path_ids(&row.path);
    b.load_item_shares(tx, &on_path).await?;
    let shares: HashSet<String> = on_path
        .into_iter()
        .filter(|item| b.is_shared_with(item, user))
        .map(String::from)
        .collect();
    view_of(&row, user, &shares)
}

/// The item's row as `user` reads it (children and their unread mark).
async fn row_for(
    tx: &mut Tx,
    b: &mut Batch,
    id: &str,
    user: &str,
) -> Result<Option<read::ItemRow>> {
    let Some(item) = b.item(tx, id).await? else {
        return Ok(None);
    };
    // Views show `children` for folders only.
    let children = if item.is_folder() {
        b.children(tx, id).await?
    } else {
        0
    };
    let unread = b.is_unread(tx, user, id).await?;
    Ok(Some(item.row(children, unread)))
}

/// [`view_for`] with the item's row and the user's direct shares already at hand.
fn view_of(
    row: &read::ItemRow,
    user: &str,
    shares: &HashSet<String>,
) -> Result<Option<read::ItemView>> {
    // Feeds are built from events only; the US certificate is not one, so it plays no part.
    let viewer = Viewer {
        id: user.to_string(),
        shows_us: false,
    };
    if !row.access(&viewer, shares).sees() {
        return Ok(None);
    }
    Ok(Some(row.view(&viewer, shares)))
}

fn encode(payload: &impl Serialize) -> Result<String> {
    serde_json::to_string(payload)
        .map_err(|e| ProjectionError::Database(sqlx::Error::Encode(Box::new(e))))
}

// The feed's payloads, written straight to text with their keys in byte order: the text a
// `serde_json::Value` (a sorted map) gives, without building one per message. Messages already
// stored and rebuilt ones stay equal (`sorted_payloads_read_as_the_value_ones` checks it).

/// `{"change", "folder_id", "item", "item_id"}` of a `shared_change` message.
#[derive(serde::Serialize)]
struct ChangePayload<'a> {
    change: &'a str,
    folder_id: Option<&'a str>,
    item: Option<SortedView<'a>>,
    item_id: &'a str,
}

/// `{"count", "name"}` of a `badge` message.
#[derive(serde::Serialize)]
struct BadgePayload {
    count: i64,
    name: &'static str,
}

/// `{"item"}` of a `shared_arrival` message.
#[derive(serde::Serialize)]
struct ArrivalPayload<'a> {
    item: SortedView<'a>,
}

/// An [`read::ItemView`] with its keys in byte order (and its optional ones left out, as its own
/// `Serialize` does).
struct SortedView<'a>(&'a read::ItemView);

impl Serialize for SortedView<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        let v = self.0;
        let mut m = serializer.serialize_map(None)?;
        m.serialize_entry("actions", &v.actions)?;
        if let Some(children) = &v.children {
            m.serialize_entry("children", children)?;
        }
        if let Some(code_points) = &v.code_points {
            m.serialize_entry("code_points", code_points)?;
        }
        m.serialize_entry("controlled_release", &v.controlled_release)?;
        m.serialize_entry("for_internal_use", &v.for_internal_use)?;
        m.serialize_entry("id", &v.id)?;
        if let Some(label) = &v.label {
            m.serialize_entry("label", label)?;
        }
        if let Some(languages) = &v.languages_in_file {
            m.serialize_entry("languages_in_file", languages)?;
        }
        m.serialize_entry("name", &v.name)?;
        if let Some(owner) = &v.owner {
            m.serialize_entry("owner", owner)?;
        }
        if let Some(parent) = &v.parent {
            m.serialize_entry("parent", parent)?;
        }
        if let Some(size) = &v.size {
            m.serialize_entry("size", size)?;
        }
        if let Some(subtitle) = &v.subtitle {
            m.serialize_entry("subtitle", subtitle)?;
        }
        m.serialize_entry("title", &v.title)?;
        m.serialize_entry("type", &v.kind)?;
        m.serialize_entry("unread", &v.unread)?;
        m.serialize_entry("updated_at", &v.updated_at)?;
        m.serialize_entry("upon_request", &v.upon_request)?;
        if let Some(url) = &v.url {
            m.serialize_entry("url", url)?;
        }
        m.serialize_entry("withdrawn", &v.withdrawn.as_ref().map(SortedWithdrawal))?;
        m.end()
    }
}

/// An [`read::ItemWithdrawal`] with its keys in byte order (its replacement's already are).
struct SortedWithdrawal<'a>(&'a read::ItemWithdrawal);

impl Serialize for SortedWithdrawal<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        let w = self.0;
        let mut m = serializer.serialize_map(Some(4))?;
        m.serialize_entry("at", &w.at)?;
        m.serialize_entry("reason", &w.reason)?;
        m.serialize_entry("replacement", &w.replacement)?;
        m.serialize_entry("state", &w.state)?;
        m.end()
    }
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

async fn push_change(
    tx: &mut Tx,
    b: &mut Batch,
    user: &str,
    folder: Option<&str>,
    change: &str,
    item_id: &str,
    at: i64,
) -> Result<()> {
    if !b.keeps_feed() {
        return Ok(());
    }
    let item = if change == "removed" {
        None
    } else {
        view_for(tx, b, item_id, user).await?
    };
    let payload = ChangePayload {
        change,
        folder_id: folder,
        item: item.as_ref().map(SortedView),
        item_id,
    };
    b.push_feed(tx, user, "shared_change", encode(&payload)?, at)
        .await
}

/// Recounts the unread items at the root of `user`'s Shared with me; pushes a `badge` when the
/// count changed.
async fn refresh_badge(tx: &mut Tx, b: &mut Batch, user: &str, at: i64) -> Result<()> {
    let count = b.shared_unread(tx, user).await?;
    if !b.set_badge(user, count) || !b.keeps_feed() {
        return Ok(());
    }
    let payload = BadgePayload {
        count,
        name: "shared",
    };
    b.push_feed(tx, user, "badge", encode(&payload)?, at).await
}

/// Whether `node` is reached through one of `shares` on it or a folder above it.
fn reached(node: &NodeRow, shares: &HashSet<String>) -> bool {
    path_ids(&node.path).iter().any(|id| shares.contains(*id))
}

/// The ids on `path` and on the paths of `nodes`: the shares that can reach them.
fn on_paths<'a>(path: &'a str, nodes: &'a [NodeRow]) -> impl Iterator<Item = &'a str> {
    path_ids(path)
        .into_iter()
        .chain(nodes.iter().flat_map(|n| path_ids(&n.path)))
}

/// The ids of `nodes` not reached through any of `shares`.
fn unreached<'a>(nodes: &'a [NodeRow], shares: &HashSet<String>) -> Vec<&'a str> {
    nodes
        .iter()
        .filter(|n| !reached(n, shares))
        .map(|n| n.id.as_str())
        .collect()
}

async fn insert_item(tx: &mut Tx, b: &mut Batch, item: NewItem<'_>, at: i64) -> Result<()> {
    let (path, depth) = match item.parent {
        None => (format!("/{}/", item.id), 0),
        Some(parent) => {
            let Some(folder) = b.item(tx, &parent.id).await? else {
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
    let row = Item {
        id: item.id.to_string(),
        kind: Cow::Borrowed(item.kind.as_str()),
        space: Cow::Borrowed(item.space.as_str()),
        owner_id: item.owner_id.map(String::from),
        owner_name: item.owner_name.map(String::from),
        parent_id: item.parent.map(|p| p.id.clone()),
        path: path.clone(),
        depth,
        name: name.to_string(),
        title: item.title.to_string(),
        subtitle: item.file.and_then(|f| f.subtitle.clone()),
        languages_in_file: item.file.and_then(|f| f.languages_in_file.clone()),
        code_points: item.file.and_then(|f| f.code_points.clone()),
        size: item.file.map(|f| f.size),
        blob: item.file.map(|f| f.blob.clone()),
        content_type: item.file.map(|f| Cow::Borrowed(f.format.content_type())),
        for_internal_use: labels.for_internal_use,
        controlled_release: labels.controlled_release,
        upon_request: labels.upon_request,
        external_release: labels.external_release,
        copied_from: item.copied_from.map(String::from),
        seed_key: item.seed_key.map(String::from),
        created_at: at,
        updated_at: at,
        withdrawal: None,
    };
    if b.insert_item(row) {
        b.item_changed(item.id, at);
    }

    // Everyone who sees the folder through a share gets the new item, unread.
    if let Some(parent) = item.parent {
        let parent_path = &path[..path.len() - item.id.len() - 1];
        let shares = b.shares_above_and_on(tx, parent_path).await?;
        for user in watchers(parent_path, &shares).into_keys() {
            b.mark_unread(&user, &[item.id], at);
            push_change(tx, b, &user, Some(&parent.id), "added", item.id, at).await?;
        }
    }
    Ok(())
}

async fn renamed(
    tx: &mut Tx,
    b: &mut Batch,
    id: &str,
    to: &str,
    file_name: Option<&str>,
    at: i64,
) -> Result<()> {
    b.item(tx, id).await?;
    let changed = b.update_item(id, |item| {
        item.title = to.to_string();
        item.name = file_name.unwrap_or(to).to_string();
        item.updated_at = at;
    });
    if !changed {
        return Ok(());
    }
    b.item_changed(id, at);
    // Who sees it is asked only to tell them.
    if !b.keeps_feed() {
        return Ok(());
    }
    let Some(row) = b.item(tx, id).await? else {
        return Ok(());
    };
    let shares = b.shares_above_and_on(tx, &row.path).await?;
    for (user, in_folder) in watchers(&row.path, &shares) {
        let folder = in_folder.then_some(row.parent_id.as_deref()).flatten();
        push_change(tx, b, &user, folder, "renamed", id, at).await?;
    }
    Ok(())
}

async fn moved(tx: &mut Tx, b: &mut Batch, id: &str, to: Option<&ItemRef>, at: i64) -> Result<()> {
    let Some(row) = b.item(tx, id).await? else {
        return Ok(());
    };
    let (prefix, base_depth) = match to {
        None => ("/".to_string(), 0),
        Some(folder) => match b.item(tx, &folder.id).await? {
            Some(f) => (f.path.clone(), f.depth),
            None => {
                tracing::warn!(item = id, folder = %folder.id, "moved into a missing folder; skipped");
                return Ok(());
            }
        },
    };
    let old_path = row.path.clone();
    let new_path = format!("{prefix}{id}/");
    let new_depth = if row.is_folder() {
        base_depth + 1
    } else {
        base_depth
    };
    let before = b.shares_above_and_on(tx, &old_path).await?;
    let old_watchers = watchers(&old_path, &before);

    // The whole subtree takes the new path (all of it is in memory from here on).
    let depth_change = new_depth - row.depth;
    for node in b.subtree(tx, &old_path).await? {
        b.update_item(&node.id, |item| {
            item.path = format!("{new_path}{}", &item.path[old_path.len()..]);
            item.depth += depth_change;
        });
    }
    b.update_item(id, |item| {
        item.parent_id = to.map(|f| f.id.clone());
        item.updated_at = at;
    });
    b.item_changed(id, at);

    let after = b.shares_above_and_on(tx, &new_path).await?;
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
        let nodes = b.subtree(tx, &new_path).await?;
        let inner = shares_in_subtree(tx, b, &nodes).await?;
        // What a user reaches through their own shares inside the subtree is not affected.
        let own = |user: &String| -> HashSet<String> {
            inner
                .iter()
                .filter(|(u, _)| u == user)
                .map(|(_, i)| i.clone())
                .collect()
        };
        for user in gained {
            b.mark_unread(user, &unreached(&nodes, &own(user)), at);
        }
        for user in lost {
            b.clear_unread(user, &unreached(&nodes, &own(user)));
        }
    }

    let from = row.parent_id.as_deref();
    for (user, saw_folder) in &old_watchers {
        if *saw_folder {
            push_change(tx, b, user, from, "moved", id, at).await?;
        }
    }
    for (user, sees_folder) in &new_watchers {
        if *sees_folder {
            push_change(tx, b, user, to.map(|f| f.id.as_str()), "moved", id, at).await?;
        }
    }
    Ok(())
}

/// (user, item) of every share on `nodes`.
async fn shares_in_subtree(
    tx: &mut Tx,
    b: &mut Batch,
    nodes: &[NodeRow],
) -> Result<BTreeSet<(String, String)>> {
    let ids: Vec<&str> = nodes.iter().map(|n| n.id.as_str()).collect();
    b.load_item_shares(tx, &ids).await?;
    Ok(b.shares_on(&ids))
}

async fn removed(tx: &mut Tx, b: &mut Batch, id: &str, at: i64) -> Result<()> {
    let Some(row) = b.item(tx, id).await? else {
        return Ok(());
    };
    let above = b.shares_above_and_on(tx, &row.path).await?;
    let nodes = b.subtree(tx, &row.path).await?;
    let inner = shares_in_subtree(tx, b, &nodes).await?;
    let mut told: BTreeSet<String> = BTreeSet::new();
    for (user, in_folder) in watchers(&row.path, &above) {
        let folder = in_folder.then_some(row.parent_id.as_deref()).flatten();
        push_change(tx, b, &user, folder, "removed", id, at).await?;
        told.insert(user);
    }
    // Items further down shared on their own leave those users' Shared with me too.
    for (user, item) in &inner {
        if !told.contains(user) {
            push_change(tx, b, user, None, "removed", item, at).await?;
        }
    }
    let ids: Vec<String> = nodes.into_iter().map(|n| n.id).collect();
    b.items_removed(&ids, at);
    b.remove_items(&ids);
    let affected: BTreeSet<String> = told
        .into_iter()
        .chain(inner.into_iter().map(|(u, _)| u))
        .collect();
    for user in affected {
        refresh_badge(tx, b, &user, at).await?;
    }
    Ok(())
}

async fn shared(
    tx: &mut Tx,
    b: &mut Batch,
    id: &str,
    by: &str,
    with: &str,
    via: &str,
    at: i64,
) -> Result<()> {
    // The row as the recipient sees it (read once: sharing changes only their unread mark).
    let Some(mut row) = row_for(tx, b, id, with).await? else {
        return Ok(());
    };
    let nodes = if row.kind == Kind::Folder.as_str() {
        b.subtree(tx, &row.path).await?
    } else {
        Vec::new()
    };
    // Only the shares on the item's path and inside it decide what arrives unread and how the
    // item shows: those are all that is looked up, not every item shared with the user.
    let before = b
        .shared_with_among(tx, with, on_paths(&row.path, &nodes))
        .await?;
    let share = Share {
        shared_by: by.to_string(),
        via: via.to_string(),
        shared_at: at,
    };
    if b.share(tx, id, with, share).await? {
        b.share_began(id, with, via, at);
    }
    // The item arrives unread; what it holds is unread unless the user saw it already.
    let mut arrived = vec![id];
    arrived.extend(unreached(&nodes, &before).into_iter().filter(|n| *n != id));
    b.mark_unread(with, &arrived, at);
    row.unread_mark = true;
    let mut shares = before;
    shares.insert(id.to_string());
    if b.keeps_feed() {
        if let Some(item) = view_of(&row, with, &shares)? {
            let payload = ArrivalPayload {
                item: SortedView(&item),
            };
            b.push_feed(tx, with, "shared_arrival", encode(&payload)?, at)
                .await?;
        }
    }
    refresh_badge(tx, b, with, at).await
}

/// `user` moved the item to their My Docs: it leaves their Shared with me.
async fn unshared(tx: &mut Tx, b: &mut Batch, id: &str, user: &str, at: i64) -> Result<()> {
    b.unshare(tx, id, user).await?;
    b.share_ended(id, user, at);
    if let Some(row) = b.item(tx, id).await? {
        let nodes = b.subtree(tx, &row.path).await?;
        let still = b
            .shared_with_among(tx, user, on_paths(&row.path, &nodes))
            .await?;
        b.clear_unread(user, &unreached(&nodes, &still));
    }
    push_change(tx, b, user, None, "removed", id, at).await?;
    refresh_badge(tx, b, user, at).await
}

async fn opened(tx: &mut Tx, b: &mut Batch, id: &str, user: &str, at: i64) -> Result<()> {
    // Only an item shared with the user directly counts in their badge; the mark of any other
    // item can go without a recount.
    b.load_item_shares(tx, &[id]).await?;
    let direct = b.is_shared_with(id, user);
    let counted = direct && b.is_unread(tx, user, id).await?;
    b.clear_unread(user, &[id]);
    // A US item is marked seen (US items are unread for US users until opened).
    if b.item(tx, id)
        .await?
        .is_some_and(|i| i.space == Space::Us.as_str())
    {
        b.seen(user, id, at);
    }
    if counted {
        refresh_badge(tx, b, user, at).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::sync::Arc;

    use events::documents::{FileFormat, Labels, ShareVia, UserRef};
    use metrics_util::debugging::{DebugValue, DebuggingRecorder};

    use super::*;
    use crate::{on_db, Db, Projector};

    /// The same projection, one event per batch (the trait's default `apply_all`).
    struct OneByOne;

    #[async_trait]
    impl Projection for OneByOne {
        fn name(&self) -> &'static str {
            NAME
        }
        fn tables(&self) -> &'static [TableSpec] {
            TABLES
        }
        async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> Result<()> {
            DocumentsProjection.apply(tx, event).await
        }
    }

    fn user(id: &str) -> UserRef {
        UserRef {
            id: id.into(),
            name: format!("User {id}"),
        }
    }

    fn place(id: &str) -> Option<ItemRef> {
        Some(ItemRef {
            id: id.into(),
            name: id.into(),
        })
    }

    fn folder(id: &str, space: Space, parent: Option<&str>) -> (String, ItemEvent) {
        let owner = (space == Space::My).then(|| user("u0"));
        let event = ItemEvent::FolderCreated {
            id: id.into(),
            space,
            owner,
            parent: parent.and_then(place),
            name: format!("Folder {id}"),
            seed_key: None,
        };
        (id.into(), event)
    }

    fn file(id: &str, space: Space, parent: &str) -> (String, ItemEvent) {
        let owner = (space == Space::My).then(|| user("u0"));
        let event = ItemEvent::FileUploaded {
            id: id.into(),
            space,
            owner,
            parent: place(parent),
            file: FileFacts {
                title: format!("File {id}"),
                name: format!("{id}.pdf"),
                blob: format!("{id}.bin"),
                size: 1000,
                sha256: None,
                format: FileFormat::Pdf,
                subtitle: None,
                languages_in_file: None,
                code_points: None,
                labels: Labels::default(),
            },
            seed_key: None,
        };
        (id.into(), event)
    }

    fn share(id: &str, with: &str) -> (String, ItemEvent) {
        let event = ItemEvent::Shared {
            by: user("u0"),
            with: user(with),
            via: ShareVia::Internal,
        };
        (id.into(), event)
    }

    fn on(id: &str, event: ItemEvent) -> (String, ItemEvent) {
        (id.into(), event)
    }

    /// A history touching every kind of event: files arriving in shared folders, opens, a
    /// folder moved from one share to another, renames, an unshare, removals, a US file.
    fn workload(files: usize) -> Vec<(String, ItemEvent)> {
        let mut out = vec![
            folder("F", Space::My, None),
            folder("G", Space::My, Some("F")),
            folder("H", Space::My, None),
            folder("US", Space::Us, None),
            file("us-1", Space::Us, "US"),
            share("F", "u1"),
            share("H", "u2"),
        ];
        for i in 0..files {
            let id = format!("f{i}");
            out.push(file(&id, Space::My, ["F", "G", "H"][i % 3]));
            if i % 3 == 1 {
                let by = ["u1", "u2", "u0"][i % 3];
                out.push(on(&id, ItemEvent::Opened { by: by.into() }));
            }
        }
        let renamed = ItemEvent::Renamed {
            from: "Folder G".into(),
            to: "Folder G2".into(),
            file_name: None,
        };
        out.extend([
            share("f1", "u3"),
            share("G", "u3"),
            on("G", renamed),
            on(
                "G",
                ItemEvent::Moved {
                    from: place("F"),
                    to: place("H"),
                },
            ),
            on("f4", ItemEvent::Opened { by: "u2".into() }),
            on(
                "f0",
                ItemEvent::SharedExternally {
                    by: "u0".into(),
                    email: "guest@clinic.example".into(),
                    token_hash: "hash-0".into(),
                    expires_at: 4_102_444_800_000,
                    share: "share-0".into(),
                    allow_download: true,
                    max_opens: None,
                    title: "f0".into(),
                    owner: Some("u0".into()),
                },
            ),
            on("us-1", ItemEvent::Opened { by: "u1".into() }),
            on(
                "H",
                ItemEvent::MovedToMyDocs {
                    by: "u2".into(),
                    copy: "H-copy".into(),
                },
            ),
            share("H", "u2"),
            on("f3", ItemEvent::FileRemoved { by: "u0".into() }),
            on(
                "G",
                ItemEvent::FolderDeleted {
                    by: "u0".into(),
                    removed: Vec::new(),
                },
            ),
            share("F", "u1"),
            on("f0", ItemEvent::Downloaded { by: "u1".into() }),
        ]);
        out
    }

    async fn store(db: &Db, events: &[(String, ItemEvent)]) {
        let mut sequences: HashMap<&str, i64> = HashMap::new();
        for (n, (aggregate, event)) in events.iter().enumerate() {
            let sequence = sequences.entry(aggregate).or_default();
            *sequence += 1;
            let payload = serde_json::to_string(event).unwrap();
            let kind = cqrs_es::DomainEvent::event_type(event);
            on_db!(db, pool => sqlx::query(
                "insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata, recorded_at)
                 values ($1, $2, $3, $4, '1.0', $5, '{}', $6)")
                .bind(ITEM_TYPE).bind(aggregate).bind(*sequence).bind(&kind).bind(&payload)
                .bind(1_800_000_000_000 + n as i64 * 1000)
                .execute(pool).await.map(|_| ()))
            .unwrap();
        }
    }

    /// Every documents table and the feed, row by row.
    async fn read_model(db: &Db) -> Vec<Vec<String>> {
        let mut out = Vec::new();
        for table in TABLES {
            out.push(crate::replay::table_rows(db, table).await.unwrap());
        }
        let feed = TableSpec {
            name: "user_feed",
            order_by: "feed_position",
        };
        out.push(crate::replay::table_rows(db, &feed).await.unwrap());
        out
    }

    /// Builds the read model of `events` with `projection` in a fresh SQLite database; returns
    /// it with the statements the documents projection counted.
    fn project(
        events: &[(String, ItemEvent)],
        projection: Arc<dyn Projection>,
    ) -> (Vec<Vec<String>>, u64) {
        let (model, statements, _) = project_with(events, |_| projection, None);
        (model, statements)
    }

    /// The index definitions of a database, by name.
    async fn indexes(db: &Db) -> Vec<(String, String)> {
        on_db!(db, pool => sqlx::query_as(
            "select name, sql from sqlite_master where type = 'index' and sql is not null order by name")
            .fetch_all(pool).await)
        .unwrap()
    }

    /// [`project`], as a rebuild when `rebuild` gives its batch size: the projector stops at the
    /// last event and lets the projection write what it kept. The indexes must be as before.
    fn project_with(
        events: &[(String, ItemEvent)],
        projection: impl FnOnce(&Db) -> Arc<dyn Projection>,
        rebuild: Option<i64>,
    ) -> (Vec<Vec<String>>, u64, u64) {
        let recorder = DebuggingRecorder::new();
        let snapshotter = recorder.snapshotter();
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("d.db").display());
        let model = metrics::with_local_recorder(&recorder, || {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap()
                .block_on(async {
                    let db = Db::connect(&url).await.unwrap();
                    let indexes_before = indexes(&db).await;
                    store(&db, events).await;
                    // Another projection's messages already in the feed.
                    let mut tx = crate::Tx::begin(&db).await.unwrap();
                    for user in ["u1", "u2"] {
                        crate::feed::push(&mut tx, user, "other", &serde_json::json!({}), 1)
                            .await
                            .unwrap();
                    }
                    tx.commit().await.unwrap();
                    let projection = projection(&db);
                    let projector = match rebuild {
                        None => Projector::new(db.clone(), vec![projection]),
                        Some(size) => {
                            let head = crate::stream::head(&db).await.unwrap().unwrap();
                            Projector::rebuilding(
                                db.clone(),
                                db.clone(),
                                vec![projection],
                                Some(head),
                            )
                            .with_batch_size(size)
                        }
                    };
                    projector.run_to_end().await.unwrap();
                    assert_eq!(
                        indexes(&db).await,
                        indexes_before,
                        "the indexes are built again"
                    );
                    let model = read_model(&db).await;
                    db.close().await;
                    model
                })
        });
        let (mut statements, mut reads) = (0, 0);
        for (key, _, _, value) in snapshotter.snapshot().into_vec() {
            let DebugValue::Counter(n) = value else {
                continue;
            };
            if key.key().name() == STATEMENTS_TOTAL {
                statements += n;
                if key.key().labels().any(|l| l.value() == "read") {
                    reads += n;
                }
            }
        }
        (model, statements, reads)
    }

    #[test]
    fn a_batch_writes_what_its_events_one_by_one_write() {
        let events = workload(60);
        let (batched, _) = project(&events, Arc::new(DocumentsProjection));
        let (single, _) = project(&events, Arc::new(OneByOne));
        for (table, (b, s)) in batched.iter().zip(&single).enumerate() {
            assert_eq!(b, s, "table {table} differs");
        }
        // The workload reached every table.
        assert!(batched.iter().all(|rows| !rows.is_empty()), "{batched:?}");
    }

    /// The workload, then a new version of the US file (seen before, so forgotten) that is
    /// seen again, and a withdrawal.
    fn workload_with_versions(files: usize) -> Vec<(String, ItemEvent)> {
        let mut events = workload(files);
        let mut facts = match &file("us-1", Space::Us, "US").1 {
            ItemEvent::FileUploaded { file, .. } => file.clone(),
            _ => unreachable!(),
        };
        facts.title = "File us-1, second version".into();
        facts.blob = "us-1-v2.bin".into();
        events.extend([
            on(
                "us-1",
                ItemEvent::FileReplaced {
                    by: user("u0"),
                    file: facts,
                    version: 2,
                    note: None,
                },
            ),
            on("us-1", ItemEvent::Opened { by: "u2".into() }),
            on(
                "f1",
                ItemEvent::Withdrawn {
                    by: "approver".into(),
                    state: events::documents::WithdrawnState::Withdrawn,
                    reason: "Superseded".into(),
                    at: 1_800_000_900_000,
                    replacement: None,
                },
            ),
        ]);
        events
    }

    #[test]
    fn a_resident_rebuild_writes_what_the_live_projection_writes() {
        let events = workload_with_versions(60);
        let (live, _) = project(&events, Arc::new(OneByOne));
        // Written once at the end; and spilling settled rows after every batch of 7.
        for spill_bytes in [usize::MAX, 1] {
            let resident = |db: &Db| -> Arc<dyn Projection> {
                Arc::new(super::super::ResidentDocumentsProjection::new(
                    db,
                    spill_bytes,
                ))
            };
            let (rebuilt, ..) = project_with(&events, resident, Some(7));
            let (rebuilt_feed, rebuilt) = rebuilt.split_last().unwrap();
            let (live_feed, tables) = live.split_last().unwrap();
            for (table, (r, l)) in rebuilt.iter().zip(tables).enumerate() {
                assert_eq!(r, l, "table {table} differs (spill at {spill_bytes} bytes)");
            }
            // The feed holds the other projection's messages alone: a rebuild tells nobody.
            assert_eq!(rebuilt_feed.len(), 2, "{rebuilt_feed:?}");
            assert!(live_feed.len() > 2 + 10, "{live_feed:?}");
            assert!(live_feed.starts_with(rebuilt_feed), "{rebuilt_feed:?}");
        }
        assert!(live.iter().all(|rows| !rows.is_empty()), "{live:?}");
    }

    /// Views with every optional part set, none, and a withdrawal without replacement.
    fn sample_views() -> Vec<read::ItemView> {
        let full = read::ItemView {
            id: "7f0c\"quoted\"".into(),
            kind: "file".into(),
            title: "Knee \u{e9}tude \\ 2".into(),
            name: "knee.pdf".into(),
            label: Some("For internal use".into()),
            size: Some(1234),
            subtitle: Some("sub".into()),
            languages_in_file: Some("EN, DE".into()),
            code_points: Some("A-1".into()),
            url: Some("/api/documents/x/file".into()),
            actions: vec!["rename".into(), "delete".into()],
            children: Some(3),
            for_internal_use: true,
            controlled_release: false,
            upon_request: true,
            unread: true,
            owner: Some("Anna".into()),
            updated_at: -5,
            parent: Some("p-1".into()),
            withdrawn: Some(read::ItemWithdrawal {
                state: read::ItemWithdrawalState::Withdrawn,
                reason: "recall\nline".into(),
                at: 99,
                replacement: Some(read::ItemReplacement {
                    id: 4,
                    title: "New".into(),
                    url: "/library/4".into(),
                }),
            }),
        };
        let bare = read::ItemView {
            label: None,
            size: None,
            subtitle: None,
            languages_in_file: None,
            code_points: None,
            url: None,
            actions: Vec::new(),
            children: None,
            owner: None,
            parent: None,
            withdrawn: None,
            ..full.clone()
        };
        let expired = read::ItemView {
            withdrawn: Some(read::ItemWithdrawal {
                state: read::ItemWithdrawalState::Expired,
                reason: String::new(),
                at: 1,
                replacement: None,
            }),
            ..bare.clone()
        };
        vec![full, bare, expired]
    }

    #[test]
    fn sorted_payloads_read_as_the_value_ones() {
        use serde_json::json;
        for view in sample_views() {
            let value = serde_json::to_value(&view).unwrap();
            for folder in [Some("f-1"), None] {
                let sorted = ChangePayload {
                    change: "added",
                    folder_id: folder,
                    item: Some(SortedView(&view)),
                    item_id: "i-1",
                };
                let before = json!({ "folder_id": folder, "change": "added", "item_id": "i-1", "item": value });
                assert_eq!(encode(&sorted).unwrap(), encode(&before).unwrap());
            }
            let removed = ChangePayload {
                change: "removed",
                folder_id: None,
                item: None,
                item_id: "i-1",
            };
            let before =
                json!({ "folder_id": null, "change": "removed", "item_id": "i-1", "item": null });
            assert_eq!(encode(&removed).unwrap(), encode(&before).unwrap());
            let arrival = ArrivalPayload {
                item: SortedView(&view),
            };
            assert_eq!(
                encode(&arrival).unwrap(),
                encode(&json!({ "item": value })).unwrap()
            );
        }
        let badge = BadgePayload {
            count: 7,
            name: "shared",
        };
        assert_eq!(
            encode(&badge).unwrap(),
            encode(&json!({ "name": "shared", "count": 7 })).unwrap()
        );
    }

    #[test]
    fn a_resident_rebuild_never_reads_back_what_it_wrote() {
        let events = workload_with_versions(60);
        let resident = |db: &Db| -> Arc<dyn Projection> {
            Arc::new(super::super::ResidentDocumentsProjection::new(
                db,
                usize::MAX,
            ))
        };
        let (_, statements, reads) = project_with(&events, resident, Some(7));
        assert_eq!(reads, 0);
        assert!(statements > 0, "its writes are counted");
        // The same rebuild batch by batch reads.
        let (_, _, reads) = project_with(&events, |_| Arc::new(DocumentsProjection), Some(7));
        assert!(reads > 0);
    }

    #[test]
    fn a_batch_runs_a_bounded_number_of_statements_whatever_its_events() {
        let small = workload(60);
        let large = workload(360);
        assert!(large.len() <= 500, "one batch: {}", large.len());
        let (_, few) = project(&small, Arc::new(DocumentsProjection));
        let (_, many) = project(&large, Arc::new(DocumentsProjection));
        // Six times the events, the same statements give or take a chunk of rows (on SQLite a
        // batch's writes go as texts of statements, each of at most 8,000 parameters).
        assert!(
            few > 0 && many <= few + 4,
            "{} events: {few}; {} events: {many}",
            small.len(),
            large.len()
        );
        let (_, singly) = project(&large, Arc::new(OneByOne));
        assert!(singly > 10 * many, "one by one: {singly}, batched: {many}");
    }

    /// The events stored by [`store`], in stream order.
    async fn stored(db: &Db) -> Vec<StoredEvent> {
        crate::stream::read_after(db, crate::Position::default(), 100_000)
            .await
            .unwrap()
    }

    /// Applies `events` with `live` in rounds of `per_round` events, each in a transaction of
    /// its own that commits, as the group commits do; with `swapped`, each round finds the
    /// checkpoint in a new generation (nothing kept can be used). Another projection numbers
    /// messages in the same feeds between the rounds.
    async fn live_rounds(
        db: &Db,
        live: &LiveDocumentsProjection,
        events: &[StoredEvent],
        per_round: usize,
        swapped: bool,
    ) {
        let mut from = CheckpointState::default();
        for (round, chunk) in events.chunks(per_round).enumerate() {
            let refs: Vec<&StoredEvent> = chunk.iter().collect();
            let mut tx = Tx::begin(db).await.unwrap();
            if round % 4 == 3 {
                crate::feed::push(&mut tx, "u1", "other", &serde_json::json!({}), 1)
                    .await
                    .unwrap();
            }
            live.apply_from(&mut tx, from, &refs).await.unwrap();
            tx.commit().await.unwrap();
            live.settled(true);
            from = CheckpointState {
                position: chunk.last().unwrap().at,
                generation: from.generation + i64::from(swapped),
            };
        }
    }

    #[tokio::test]
    async fn rounds_that_keep_their_rows_write_what_rounds_that_read_them_write() {
        let events = workload_with_versions(30);
        for per_round in [1, 3] {
            let mut models = Vec::new();
            for swapped in [false, true] {
                let dir = tempfile::tempdir().unwrap();
                let db = Db::connect(&format!("sqlite://{}", dir.path().join("d.db").display()))
                    .await
                    .unwrap();
                store(&db, &events).await;
                let live = LiveDocumentsProjection::default();
                live_rounds(&db, &live, &stored(&db).await, per_round, swapped).await;
                models.push(read_model(&db).await);
                db.close().await;
            }
            for (table, (kept, read)) in models[0].iter().zip(&models[1]).enumerate() {
                assert_eq!(kept, read, "{per_round} a round: table {table} differs");
            }
            assert!(models[0].iter().all(|rows| !rows.is_empty()));
        }
    }

    /// Renames the folder `G` in the table behind the projection's back: a round that uses
    /// rows it kept writes them back over that name when it writes `G`'s row.
    async fn rename_behind(db: &Db, name: &str) {
        on_db!(db, pool => sqlx::query("update doc_items set name = $1 where id = 'G'")
            .bind(name).execute(pool).await.map(|_| ()))
        .unwrap();
    }

    async fn name_of_g(db: &Db) -> String {
        on_db!(db, pool => sqlx::query_scalar("select name from doc_items where id = 'G'")
            .fetch_one(pool).await)
        .unwrap()
    }

    #[tokio::test]
    async fn kept_rows_are_used_only_where_the_checkpoint_left_them_and_committed() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::connect(&format!("sqlite://{}", dir.path().join("d.db").display()))
            .await
            .unwrap();
        let moved = |to: &str| ItemEvent::Moved {
            from: None,
            to: place(to),
        };
        store(
            &db,
            &[
                folder("F", Space::My, None),
                folder("H", Space::My, None),
                folder("G", Space::My, None),
                on("G", moved("F")),
                on("G", moved("H")),
                on("G", moved("F")),
                on("G", moved("H")),
            ],
        )
        .await;
        let events = stored(&db).await;
        let live = LiveDocumentsProjection::default();
        let round = |from: CheckpointState, event: &StoredEvent, commit: bool| {
            let (db, live, event) = (db.clone(), &live, event.clone());
            async move {
                let mut tx = Tx::begin(&db).await.unwrap();
                live.apply_from(&mut tx, from, &[&event]).await.unwrap();
                if commit {
                    tx.commit().await.unwrap();
                } else {
                    tx.rollback().await.unwrap();
                }
                live.settled(commit);
                CheckpointState {
                    position: event.at,
                    generation: from.generation,
                }
            }
        };
        let refs: Vec<&StoredEvent> = events[..3].iter().collect();
        let mut tx = Tx::begin(&db).await.unwrap();
        live.apply_from(&mut tx, CheckpointState::default(), &refs)
            .await
            .unwrap();
        tx.commit().await.unwrap();
        live.settled(true);
        let at = CheckpointState {
            position: events[2].at,
            generation: 0,
        };

        // Where the checkpoint was left, in the same generation: the kept row is written.
        rename_behind(&db, "behind").await;
        let at = round(at, &events[3], true).await;
        assert_eq!(name_of_g(&db).await, "Folder G", "the kept row is used");

        // A swap moved the generation: the row is read again.
        rename_behind(&db, "behind").await;
        let swapped = CheckpointState {
            generation: 1,
            ..at
        };
        let at = round(swapped, &events[4], true).await;
        assert_eq!(
            name_of_g(&db).await,
            "behind",
            "nothing kept is used after a swap"
        );

        // A round undone leaves nothing the next one uses (its batch was taken from what was
        // kept, and stands for a checkpoint the rollback did not move to).
        round(at, &events[5], false).await;
        rename_behind(&db, "behind").await;
        let at = round(at, &events[5], true).await;
        assert_eq!(
            name_of_g(&db).await,
            "behind",
            "nothing kept after a rollback"
        );

        // Applied another way (the projector's own round): nothing kept either.
        let mut tx = Tx::begin(&db).await.unwrap();
        live.apply_all(&mut tx, &[&events[6]]).await.unwrap();
        tx.rollback().await.unwrap();
        let at = CheckpointState {
            position: events[5].at,
            ..at
        };
        // A name the rows kept before do not hold.
        rename_behind(&db, "behind again").await;
        round(at, &events[6], true).await;
        assert_eq!(
            name_of_g(&db).await,
            "behind again",
            "nothing kept after another way"
        );
    }
}
