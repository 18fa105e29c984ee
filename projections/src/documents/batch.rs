//! Over 600 lines: the batch's rows, their loading and their writing share one state.
//!
//! The documents projection's working set for one batch of events: the rows the batch reads,
//! loaded in a few statements, changed in memory event after event, and written back at the end
//! in multi-row statements (one per table, per few hundred rows). A batch of 500 events costs a
//! few dozen statements instead of several per event, which is what bounds a rebuild (each
//! statement is a round trip to PostgreSQL or a hand-over to SQLite's connection thread).
//!
//! Invariants the reads rely on:
//! - Nothing is written before [`Batch::flush`], so the database holds the state from before the
//!   batch; every row the batch changed is in memory with both its state from before (`db`) and
//!   its current one (`now`), and the in-memory state wins.
//! - An item whose path changed is in memory (a move loads the whole subtree first), so a
//!   subtree is the database's rows in the path range that are not in memory, plus the rows in
//!   memory whose current path is in the range.
//! - A share row is only created or removed after all shares of its item were loaded, so every
//!   share in memory knows whether it existed before.
//! - A mark that can count in a badge (the item shared with the user directly) changes only
//!   while the item's shares are in memory, or the user's share of it
//!   ([`Batch::shared_with_among`]): a badge is the count from before the batch, moved by the
//!   user's shares in memory ([`Batch::shared_unread`]), never a count of all their shares.
//!
//! Memory is bounded by the batch: the state is dropped after the flush.
//!
//! A rebuild into an empty database uses one resident batch instead ([`Batch::resident`]): it
//! lives for the whole rebuild, so it knows every row there is and never reads the database.
//! Rows that no later event can change (closed version rows) are written as it goes
//! ([`Batch::spill`]); the state is written once at the end. It writes no feed messages: the
//! feed is what was sent to people, kept by the live projection, and a rebuild only puts the
//! projection's own tables in place (see [`crate::swap`]).

use std::borrow::{Borrow, Cow};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::hash::Hash;
use std::sync::Arc;

// hashbrown's maps: a faster hash than std's SipHash, and look-ups by borrowed pairs ([`Pair`]),
// for maps a rebuild queries millions of times.
use hashbrown::{Equivalent, HashMap, HashSet};

use crate::db::{DbKind, Tx};
use crate::documents::key::Key;
use crate::documents::out::{table_of, Out, Value};
use crate::documents::read::{in_subtree, path_ids, subtree_bounds, ItemRow, NodeRow};
use crate::feed::FEED_WRITE_LOCK;
use crate::on_tx;
use crate::projector::ProjectionError;

type Result<T> = std::result::Result<T, ProjectionError>;

/// Parameters per statement at most (SQLite allows 32,766, PostgreSQL 65,535).
const PARAMS_PER_STATEMENT: usize = 8_000;

/// Rows turned into statement values at a time when writing (what a rebuild's end writes is
/// hundreds of thousands of rows).
const ROWS_IN_MEMORY: usize = 4_000;

/// About what an item version row and a share version row take in memory, besides their
/// strings' text (for [`Batch::settled_bytes`]).
const ITEM_VERSION_BYTES: usize = 640;
const SHARE_VERSION_BYTES: usize = 192;

/// A `doc_items` row. A rebuild holds every live item in memory, so the few words every item
/// shares (its kind, space and content type) are not copied per item when they come from an
/// event, and the columns only withdrawn documents fill are kept out of line.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub id: String,
    pub kind: Cow<'static, str>,
    pub space: Cow<'static, str>,
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
    pub content_type: Option<Cow<'static, str>>,
    pub for_internal_use: bool,
    pub controlled_release: bool,
    pub upon_request: bool,
    pub external_release: bool,
    pub copied_from: Option<String>,
    pub seed_key: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    /// Set once the company withdrew the document (or it expired).
    pub withdrawal: Option<Box<Withdrawal>>,
}

/// The withdrawal columns of a `doc_items` row.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Withdrawal {
    /// `withdrawn` or `expired`.
    pub withdrawn_state: Option<String>,
    pub withdrawn_reason: Option<String>,
    pub withdrawn_at: Option<i64>,
    pub replacement_id: Option<i64>,
    pub replacement_title: Option<String>,
    pub replacement_url: Option<String>,
}

impl Withdrawal {
    /// `None` when every column is empty, as for an item never withdrawn.
    pub fn boxed(self) -> Option<Box<Self>> {
        (self != Self::default()).then(|| Box::new(self))
    }
}

/// `Item` from a row of either database (by column name, as the derive would).
macro_rules! item_from_row {
    ($row:ty) => {
        impl<'r> sqlx::FromRow<'r, $row> for Item {
            fn from_row(row: &'r $row) -> std::result::Result<Self, sqlx::Error> {
                use sqlx::Row;
                let withdrawal = Withdrawal {
                    withdrawn_state: row.try_get("withdrawn_state")?,
                    withdrawn_reason: row.try_get("withdrawn_reason")?,
                    withdrawn_at: row.try_get("withdrawn_at")?,
                    replacement_id: row.try_get("replacement_id")?,
                    replacement_title: row.try_get("replacement_title")?,
                    replacement_url: row.try_get("replacement_url")?,
                };
                Ok(Item {
                    id: row.try_get("id")?,
                    kind: Cow::Owned(row.try_get("kind")?),
                    space: Cow::Owned(row.try_get("space")?),
                    owner_id: row.try_get("owner_id")?,
                    owner_name: row.try_get("owner_name")?,
                    parent_id: row.try_get("parent_id")?,
                    path: row.try_get("path")?,
                    depth: row.try_get("depth")?,
                    name: row.try_get("name")?,
                    title: row.try_get("title")?,
                    subtitle: row.try_get("subtitle")?,
                    languages_in_file: row.try_get("languages_in_file")?,
                    code_points: row.try_get("code_points")?,
                    size: row.try_get("size")?,
                    blob: row.try_get("blob")?,
                    content_type: row
                        .try_get::<Option<String>, _>("content_type")?
                        .map(Cow::Owned),
                    for_internal_use: row.try_get("for_internal_use")?,
                    controlled_release: row.try_get("controlled_release")?,
                    upon_request: row.try_get("upon_request")?,
                    external_release: row.try_get("external_release")?,
                    copied_from: row.try_get("copied_from")?,
                    seed_key: row.try_get("seed_key")?,
                    created_at: row.try_get("created_at")?,
                    updated_at: row.try_get("updated_at")?,
                    withdrawal: withdrawal.boxed(),
                })
            }
        }
    };
}
item_from_row!(sqlx::sqlite::SqliteRow);
item_from_row!(sqlx::postgres::PgRow);

const ITEM_COLUMNS: &str =
    "id, kind, space, owner_id, owner_name, parent_id, path, depth, name, title,
    subtitle, languages_in_file, code_points, size, blob, content_type,
    for_internal_use, controlled_release, upon_request, external_release, copied_from, seed_key,
    created_at, updated_at, withdrawn_state, withdrawn_reason, withdrawn_at, replacement_id,
    replacement_title, replacement_url";

impl NodeRow {
    fn of(item: &Item) -> Self {
        NodeRow {
            id: item.id.clone(),
            kind: item.kind.to_string(),
            parent_id: item.parent_id.clone(),
            path: item.path.clone(),
            depth: item.depth,
        }
    }
}

impl Item {
    pub fn is_folder(&self) -> bool {
        self.kind == "folder"
    }

    /// The row as the read side sees it for one viewer.
    pub fn row(&self, children: i64, unread_mark: bool) -> ItemRow {
        let w = self.withdrawal.as_deref();
        ItemRow {
            id: self.id.clone(),
            kind: self.kind.to_string(),
            space: self.space.to_string(),
            owner_id: self.owner_id.clone(),
            owner_name: self.owner_name.clone(),
            parent_id: self.parent_id.clone(),
            path: self.path.clone(),
            depth: self.depth,
            name: self.name.clone(),
            title: self.title.clone(),
            subtitle: self.subtitle.clone(),
            languages_in_file: self.languages_in_file.clone(),
            code_points: self.code_points.clone(),
            size: self.size,
            blob: self.blob.clone(),
            content_type: self.content_type.as_deref().map(str::to_string),
            for_internal_use: self.for_internal_use,
            controlled_release: self.controlled_release,
            upon_request: self.upon_request,
            external_release: self.external_release,
            copied_from: self.copied_from.clone(),
            created_at: self.created_at,
            updated_at: self.updated_at,
            withdrawn_state: w.and_then(|w| w.withdrawn_state.clone()),
            withdrawn_reason: w.and_then(|w| w.withdrawn_reason.clone()),
            withdrawn_at: w.and_then(|w| w.withdrawn_at),
            replacement_id: w.and_then(|w| w.replacement_id),
            replacement_title: w.and_then(|w| w.replacement_title.clone()),
            replacement_url: w.and_then(|w| w.replacement_url.clone()),
            children,
            unread_mark,
            // Feeds never show the US certificate's unread state (see `view_of`).
            seen: false,
        }
    }

    fn values(&self) -> Vec<Value<'_>> {
        use Value::{Bool, Int, Text};
        let w = self.withdrawal.as_deref();
        vec![
            Text(Some(&self.id)),
            Text(Some(&self.kind)),
            Text(Some(&self.space)),
            Text(self.owner_id.as_deref()),
            Text(self.owner_name.as_deref()),
            Text(self.parent_id.as_deref()),
            Text(Some(&self.path)),
            Int(Some(self.depth)),
            Text(Some(&self.name)),
            Text(Some(&self.title)),
            Text(self.subtitle.as_deref()),
            Text(self.languages_in_file.as_deref()),
            Text(self.code_points.as_deref()),
            Int(self.size),
            Text(self.blob.as_deref()),
            Text(self.content_type.as_deref()),
            Bool(self.for_internal_use),
            Bool(self.controlled_release),
            Bool(self.upon_request),
            Bool(self.external_release),
            Text(self.copied_from.as_deref()),
            Text(self.seed_key.as_deref()),
            Int(Some(self.created_at)),
            Int(Some(self.updated_at)),
            Text(w.and_then(|w| w.withdrawn_state.as_deref())),
            Text(w.and_then(|w| w.withdrawn_reason.as_deref())),
            Int(w.and_then(|w| w.withdrawn_at)),
            Int(w.and_then(|w| w.replacement_id)),
            Text(w.and_then(|w| w.replacement_title.as_deref())),
            Text(w.and_then(|w| w.replacement_url.as_deref())),
        ]
    }
}

/// A `(Key, Key)` key looked up by two borrowed strings, so that a look-up allocates
/// nothing: it hashes as the tuple does (field after field) and compares equal to it.
#[derive(Hash)]
struct Pair<'a>(&'a str, &'a str);

impl Equivalent<(Key, Key)> for Pair<'_> {
    fn equivalent(&self, key: &(Key, Key)) -> bool {
        self.0 == key.0.as_str() && self.1 == key.1.as_str()
    }
}

/// A row as it was before the batch and as it is now.
#[derive(Debug, Clone)]
struct Slot<T> {
    db: Option<T>,
    now: Option<T>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Share {
    pub shared_by: String,
    pub via: String,
    pub shared_at: i64,
}

/// An unread mark: whether it existed before the batch (`None`: not known, never read), whether
/// it exists now, since when, and whether it was removed at some point of the batch.
#[derive(Debug, Clone, Default)]
struct Unread {
    db: Option<bool>,
    now: Option<bool>,
    since: i64,
    cleared: bool,
}

/// One version row of `doc_item_versions` written by this batch.
struct ItemVersion {
    item: Arc<Item>,
    valid_from: i64,
    valid_to: Option<i64>,
}

struct ShareVersion {
    item_id: String,
    user_id: String,
    via: String,
    valid_from: i64,
    valid_to: Option<i64>,
}

pub struct FeedRow {
    pub user_id: String,
    pub kind: &'static str,
    pub payload: String,
    pub at: i64,
}

pub struct Link {
    pub token_hash: String,
    pub item_id: String,
    pub email: String,
    pub created_by: String,
    pub created_at: i64,
    pub expires_at: i64,
}

/// How many statements of each kind a batch ran (for tests and the benchmark's profile).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Statements {
    pub reads: u64,
    pub writes: u64,
}

#[derive(Default)]
pub struct Batch {
    /// Shared with the open version row that copied it: a row is copied only when it changes.
    items: HashMap<Key, Slot<Arc<Item>>>,
    /// Children per folder before the batch, read when a view needs them.
    db_children: HashMap<String, i64>,
    /// How the batch changed each folder's number of children (a resident batch counts its
    /// [`Batch::children_of`] index instead).
    child_delta: HashMap<String, i64>,
    /// Items removed by this batch (their dependent rows go with them).
    gone: HashSet<Key>,
    shares: HashMap<(Key, Key), Slot<Share>>,
    by_item: HashMap<Key, BTreeSet<String>>,
    by_user: HashMap<Key, BTreeSet<String>>,
    item_shares_loaded: HashSet<String>,
    /// Folders whose whole subtree is in memory.
    subtrees_loaded: HashSet<String>,
    /// Keyed by (user, item).
    unread: HashMap<(Key, Key), Unread>,
    badges: HashMap<Key, Slot<i64>>,
    feed_seq: HashMap<String, i64>,
    /// Messages to users' feeds; never in a resident batch (see [`Batch::keeps_feed`]).
    feed: Vec<FeedRow>,
    /// US items opened during the batch: item → user → when first (only the first time counts).
    /// Keyed by item, so forgetting an item's marks ([`Batch::unsee`]) does not scan them all.
    seen: HashMap<String, BTreeMap<String, i64>>,
    /// Items whose seen marks from before the batch are forgotten (a new version arrived).
    unseen: BTreeSet<String>,
    links: Vec<Link>,
    item_versions: Vec<ItemVersion>,
    open_item_version: HashMap<Key, usize>,
    /// Open version rows from before the batch that it closes, with the time.
    close_item_version: HashMap<Key, i64>,
    share_versions: Vec<ShareVersion>,
    /// How many of `item_versions` and `share_versions` are closed: what a spill would write.
    closed_versions: (usize, usize),
    open_share_version: HashMap<(Key, Key), usize>,
    close_share_version: HashMap<(Key, Key), i64>,
    /// Everything there is is in memory: the database was empty when the batch began, and only
    /// this batch writes to it (see [`Batch::resident`]).
    resident: bool,
    /// With `resident`: every live item's children by the folder's id, for subtrees. Walking
    /// down from a folder costs what its subtree holds; a map ordered by path cost a search
    /// through long shared prefixes at every item created, moved or removed.
    children_of: HashMap<Key, HashSet<Key>>,
    /// With `resident`: per user, how many items shared with them directly are unread (their
    /// badge), kept as shares and marks change instead of counted again at each change.
    unread_shared: HashMap<Key, i64>,
    /// Items made while this batch's knowledge lasts (in it, or in the batches it was kept
    /// from, see [`Batch::settle`]): every row naming them went through it, so a mark it does
    /// not hold is a mark that does not exist.
    born: HashSet<Key>,
    pub statements: Statements,
}

/// What a batch kept between live rounds may hold at most (items, shares, marks, badges and
/// children counts together); past that it is dropped and the next round reads what it needs
/// again. Small, because a batch's writes compare every row it holds with what it read (a
/// kept row was read long ago, and unchanged): thousands of rows cost tens of microseconds a
/// round, tens of thousands cost more than the reads they save.
const KEPT_ENTRIES: usize = 4_096;

impl Batch {
    /// A batch for a rebuild into a database with none of this projection's rows: it lives
    /// until the end of the rebuild and reads nothing.
    pub fn resident() -> Self {
        Self {
            resident: true,
            ..Self::default()
        }
    }

    /// Whether this is a rebuild's resident batch (see [`Batch::resident`]).
    pub fn is_resident(&self) -> bool {
        self.resident
    }

    /// Whether messages pushed to users' feeds are kept and written. A rebuild's are not: the
    /// feed is the record of what was sent, which the live projection keeps (a swap leaves it
    /// as it is and a comparison reads the projection's tables), so a rebuild's own messages,
    /// hundreds of thousands for a long history, would be made, written and indexed for no
    /// reader. Callers skip what they compute only for a message.
    pub fn keeps_feed(&self) -> bool {
        !self.resident
    }

    /// Whether `item` counts in `user`'s badge: shared with them directly and unread.
    fn counts_in_badge(&self, user: &str, item: &str) -> bool {
        self.shares
            .get(&Pair(item, user))
            .is_some_and(|s| s.now.is_some())
            && self
                .unread
                .get(&Pair(user, item))
                .is_some_and(|m| m.now == Some(true))
    }

    /// Keeps a resident batch's badge counts after a change of one (user, item) that counted
    /// `before` in the badge and `after` now.
    fn badge_moved(&mut self, user: &str, before: bool, after: bool) {
        if !self.resident || before == after {
            return;
        }
        let count = match self.unread_shared.get_mut(user) {
            Some(count) => count,
            None => self.unread_shared.entry(Key::from(user)).or_default(),
        };
        *count += if after { 1 } else { -1 };
    }

    // ---- loading -------------------------------------------------------------------------

    /// Loads the rows of `ids` not in memory yet (one statement per few thousand ids).
    pub async fn load_items(&mut self, tx: &mut Tx, ids: &[&str]) -> Result<()> {
        if self.resident {
            return Ok(());
        }
        let missing: Vec<&str> = unique(
            ids.iter()
                .copied()
                .filter(|id| !self.items.contains_key(*id)),
        );
        for chunk in missing.chunks(PARAMS_PER_STATEMENT) {
            let sql = format!(
                "select {ITEM_COLUMNS} from doc_items where id in ({})",
                placeholders(tx.kind(), chunk.len())
            );
            let rows: Vec<Item> = on_tx!(tx, c => {
                let mut q = sqlx::query_as::<_, Item>(&sql).persistent(crate::db::keep_prepared(chunk.len()));
                for id in chunk {
                    q = q.bind(*id);
                }
                q.fetch_all(c).await
            })?;
            self.statements.reads += 1;
            for id in chunk {
                self.items.entry(Key::from(*id)).or_insert(Slot {
                    db: None,
                    now: None,
                });
            }
            for row in rows {
                let slot = self.items.entry(Key::from(&row.id)).or_insert(Slot {
                    db: None,
                    now: None,
                });
                let row = Arc::new(row);
                slot.db = Some(row.clone());
                slot.now = Some(row);
            }
        }
        Ok(())
    }

    /// The item as it is now (loading it if needed).
    pub async fn item(&mut self, tx: &mut Tx, id: &str) -> Result<Option<Arc<Item>>> {
        if !self.resident && !self.items.contains_key(id) {
            self.load_items(tx, &[id]).await?;
        }
        Ok(self.items.get(id).and_then(|s| s.now.clone()))
    }

    /// Loads every share of `items` not loaded yet.
    pub async fn load_item_shares(&mut self, tx: &mut Tx, items: &[&str]) -> Result<()> {
        if self.resident {
            return Ok(());
        }
        let missing: Vec<&str> = unique(
            items
                .iter()
                .copied()
                .filter(|id| !self.item_shares_loaded.contains(*id)),
        );
        for chunk in missing.chunks(PARAMS_PER_STATEMENT) {
            let sql = format!(
                "select item_id, user_id, shared_by, via, shared_at from doc_shares where item_id in ({})",
                placeholders(tx.kind(), chunk.len())
            );
            let rows: Vec<(String, String, String, String, i64)> = on_tx!(tx, c => {
                let mut q = sqlx::query_as(&sql).persistent(crate::db::keep_prepared(chunk.len()));
                for id in chunk {
                    q = q.bind(*id);
                }
                q.fetch_all(c).await
            })?;
            self.statements.reads += 1;
            for (item, user, shared_by, via, shared_at) in rows {
                self.known_share(item, user, shared_by, via, shared_at);
            }
            self.item_shares_loaded
                .extend(chunk.iter().map(|id| id.to_string()));
        }
        Ok(())
    }

    fn known_share(
        &mut self,
        item: String,
        user: String,
        shared_by: String,
        via: String,
        shared_at: i64,
    ) {
        if self.shares.contains_key(&Pair(&item, &user)) {
            return;
        }
        let share = Share {
            shared_by,
            via,
            shared_at,
        };
        self.shares.insert(
            (Key::from(&item), Key::from(&user)),
            Slot {
                db: Some(share.clone()),
                now: Some(share),
            },
        );
        self.by_item
            .entry(Key::from(&item))
            .or_default()
            .insert(user.clone());
        self.by_user
            .entry(Key::from(user))
            .or_default()
            .insert(item);
    }

    /// Reads the shared-unread badge of each of `users` not read yet (a user without a row
    /// counts 0).
    pub async fn load_badges(&mut self, tx: &mut Tx, users: &[&str]) -> Result<()> {
        if self.resident {
            return Ok(());
        }
        let missing = absent_from(&self.badges, users);
        for chunk in missing.chunks(PARAMS_PER_STATEMENT) {
            self.read_around(
                tx,
                &Around {
                    badges: chunk,
                    ..Around::default()
                },
            )
            .await?;
        }
        Ok(())
    }

    /// The badges read for `asked` (a user without a row has none yet).
    fn record_badges(&mut self, asked: &[&str], rows: Vec<(String, i64)>) {
        for (user, count) in rows {
            self.badges.insert(
                Key::from(user),
                Slot {
                    db: Some(count),
                    now: Some(count),
                },
            );
        }
        for user in asked {
            self.badges.entry(Key::from(*user)).or_insert(Slot {
                db: None,
                now: None,
            });
        }
    }

    /// Reads the last feed number of each of `users` not known yet.
    pub async fn load_feed_seq(&mut self, tx: &mut Tx, users: &[&str]) -> Result<()> {
        if self.resident {
            return Ok(());
        }
        let missing = absent_from(&self.feed_seq, users);
        for chunk in missing.chunks(PARAMS_PER_STATEMENT) {
            self.read_around(
                tx,
                &Around {
                    feed: chunk,
                    ..Around::default()
                },
            )
            .await?;
        }
        Ok(())
    }

    /// Each user's last feed number read (`None`: no message yet).
    fn record_feed_seq(&mut self, rows: Vec<(String, Option<i64>)>) {
        self.feed_seq
            .extend(rows.into_iter().map(|(user, seq)| (user, seq.unwrap_or(0))));
    }

    /// Records that `id`, the aggregate of an item's first event, is not in the database: its
    /// row is made by that event (no read needed to learn it is absent).
    pub fn new_item_id(&mut self, id: &str) {
        if !self.resident {
            self.items.entry(Key::from(id)).or_insert(Slot {
                db: None,
                now: None,
            });
        }
    }

    /// Once the batch is written ([`Batch::flush`]): what it wrote becomes what it knows the
    /// database holds, and what it was to write is dropped, so that the next live batch can
    /// start from this one instead of reading the same rows again. Only a live batch is kept,
    /// and only one whose knowledge stays exact: none that removed items (their dependent rows
    /// went in statements the batch does not follow row by row), none past [`KEPT_ENTRIES`].
    /// The users' feed numbers are never kept: other projections number the same feeds.
    /// Returns whether the batch can be kept.
    pub fn settle(&mut self) -> bool {
        let entries = self.items.len()
            + self.shares.len()
            + self.unread.len()
            + self.badges.len()
            + self.db_children.len()
            + self.born.len();
        if self.resident || !self.gone.is_empty() || entries > KEPT_ENTRIES {
            return false;
        }
        for slot in self.items.values_mut() {
            slot.db.clone_from(&slot.now);
        }
        for (folder, delta) in self.child_delta.drain() {
            // A count not read stays unknown: the next batch reads it from the table.
            if let Some(count) = self.db_children.get_mut(folder.as_str()) {
                *count += delta;
            }
        }
        for slot in self.shares.values_mut() {
            slot.db.clone_from(&slot.now);
        }
        for mark in self.unread.values_mut() {
            if let Some(now) = mark.now.take() {
                mark.db = Some(now);
            }
            mark.cleared = false;
        }
        for slot in self.badges.values_mut() {
            slot.db = slot.now;
        }
        self.feed_seq.clear();
        self.feed.clear();
        self.seen.clear();
        self.unseen.clear();
        self.links.clear();
        self.item_versions.clear();
        self.open_item_version.clear();
        self.close_item_version.clear();
        self.share_versions.clear();
        self.closed_versions = (0, 0);
        self.open_share_version.clear();
        self.close_share_version.clear();
        self.statements = Statements::default();
        true
    }

    // ---- items -----------------------------------------------------------------------------

    /// Adds a new item; false when an item with this id already exists.
    pub fn insert_item(&mut self, item: Item) -> bool {
        let slot = self.items.entry(Key::from(&item.id)).or_insert(Slot {
            db: None,
            now: None,
        });
        if slot.now.is_some() {
            return false;
        }
        // Not in the database before: it has no shares, no children and no marks there, and
        // nothing below it (a resident batch never reads any, so it need not remember that).
        if slot.db.is_none() && !self.resident {
            self.item_shares_loaded.insert(item.id.clone());
            self.db_children.insert(item.id.clone(), 0);
            if item.is_folder() {
                self.subtrees_loaded.insert(item.id.clone());
            }
            self.born.insert(Key::from(&item.id));
        }
        if let Some(parent) = &item.parent_id {
            if self.resident {
                add_child(&mut self.children_of, parent, &item.id);
            } else {
                match self.child_delta.get_mut(parent.as_str()) {
                    Some(delta) => *delta += 1,
                    None => {
                        self.child_delta.insert(parent.clone(), 1);
                    }
                }
            }
        }
        slot.now = Some(Arc::new(item));
        true
    }

    /// Changes an item in memory; false when it is not there.
    pub fn update_item(&mut self, id: &str, change: impl FnOnce(&mut Item)) -> bool {
        let Some(item) = self.items.get_mut(id).and_then(|s| s.now.as_mut()) else {
            return false;
        };
        let item = Arc::make_mut(item);
        let parent_before = item.parent_id.clone();
        change(item);
        if item.parent_id != parent_before {
            if self.resident {
                if let Some(p) = &parent_before {
                    remove_child(&mut self.children_of, p, &item.id);
                }
                if let Some(p) = &item.parent_id {
                    add_child(&mut self.children_of, p, &item.id);
                }
            } else {
                if let Some(p) = parent_before {
                    *self.child_delta.entry(p).or_default() -= 1;
                }
                if let Some(p) = item.parent_id.clone() {
                    *self.child_delta.entry(p).or_default() += 1;
                }
            }
        }
        true
    }

    /// Removes items (already in memory) and their shares.
    pub fn remove_items(&mut self, ids: &[String]) {
        for id in ids {
            if let Some(item) = self.items.get_mut(id.as_str()).and_then(|s| s.now.take()) {
                if self.resident {
                    if let Some(p) = &item.parent_id {
                        remove_child(&mut self.children_of, p, id);
                    }
                    // Its own children are among `ids` (a folder goes with what it holds).
                    self.children_of.remove(id.as_str());
                } else if let Some(p) = &item.parent_id {
                    *self.child_delta.entry(p.clone()).or_default() -= 1;
                }
            }
            self.gone.insert(Key::from(id));
            let users: Vec<String> = self
                .by_item
                .get(id.as_str())
                .map(|u| u.iter().cloned().collect())
                .unwrap_or_default();
            for user in &users {
                let counted = self.counts_in_badge(user, id);
                if let Some(slot) = self.shares.get_mut(&Pair(id, user)) {
                    slot.now = None;
                }
                self.badge_moved(user, counted, false);
            }
            if self.resident {
                // Never written, never to be written: a rebuild's memory follows what exists.
                self.items.remove(id.as_str());
                for user in users {
                    self.shares.remove(&Pair(id, &user));
                    if let Some(items) = self.by_user.get_mut(user.as_str()) {
                        items.remove(id);
                    }
                }
                self.by_item.remove(id.as_str());
            }
        }
    }

    /// Reads the children counts of the folders among `ids` from before the batch (an item that
    /// was not in the database had none there).
    pub async fn load_children(&mut self, tx: &mut Tx, ids: &[&str]) -> Result<()> {
        if self.resident {
            return Ok(());
        }
        let folders = self.children_missing(ids);
        for chunk in folders.chunks(PARAMS_PER_STATEMENT) {
            self.read_around(
                tx,
                &Around {
                    folders: chunk,
                    ..Around::default()
                },
            )
            .await?;
        }
        Ok(())
    }

    /// The folders among `ids` that were in the database and whose children count is not known
    /// yet. An item that was not in the database is known to have had none there.
    fn children_missing<'i>(&mut self, ids: &[&'i str]) -> Vec<&'i str> {
        let mut folders = Vec::new();
        for id in unique(ids.iter().copied()) {
            if self.db_children.contains_key(id) {
                continue;
            }
            match self.items.get(id).map(|s| s.db.as_ref()) {
                Some(Some(item)) if item.is_folder() => folders.push(id),
                Some(None) => {
                    self.db_children.insert(id.to_string(), 0);
                }
                _ => {}
            }
        }
        folders
    }

    /// The children counts read for `asked` (a folder without a row has none).
    fn record_children(&mut self, asked: &[&str], rows: Vec<(String, i64)>) {
        for id in asked {
            self.db_children.insert(id.to_string(), 0);
        }
        self.db_children.extend(rows);
    }

    /// Reads whether each (user, item) of `pairs` not known yet was unread before the batch.
    pub async fn load_unread(&mut self, tx: &mut Tx, pairs: &[(&str, &str)]) -> Result<()> {
        if self.resident {
            return Ok(());
        }
        let missing = self.unread_missing(pairs);
        for chunk in missing.chunks(PARAMS_PER_STATEMENT / 2) {
            self.read_around(
                tx,
                &Around {
                    unread: chunk,
                    ..Around::default()
                },
            )
            .await?;
        }
        Ok(())
    }

    /// The (user, item) pairs of `pairs` whose mark from before the batch is not known yet,
    /// once each. An item [`Batch::born`] has no mark the batch does not hold.
    fn unread_missing<'p>(&self, pairs: &[(&'p str, &'p str)]) -> Vec<(&'p str, &'p str)> {
        let mut seen = HashSet::new();
        pairs
            .iter()
            .copied()
            .filter(|(user, item)| {
                let known = self.born.contains(*item)
                    || self
                        .unread
                        .get(&Pair(user, item))
                        .is_some_and(|m| m.db.is_some());
                !known && seen.insert((*user, *item))
            })
            .collect()
    }

    /// Whether each pair asked was unread before the batch: those `found` were.
    fn record_unread(&mut self, asked: &[(&str, &str)], found: HashSet<(Key, Key)>) {
        for (user, item) in asked {
            let unread = found.contains(&Pair(user, item));
            self.unread
                .entry((Key::from(*user), Key::from(*item)))
                .or_default()
                .db = Some(unread);
        }
    }

    /// What the batch's events need to know of the people and folders they touch, read
    /// together: the last feed number of `feed_users`, the badge of `badge_users`, the mark of
    /// each (user, item) of `pairs` and the children count of the folders among `ids`. On
    /// PostgreSQL that is one statement (one round trip inside the commands' group commit,
    /// instead of four); SQLite, which has no round trips, reads them one by one.
    pub async fn load_around(
        &mut self,
        tx: &mut Tx,
        feed_users: &[&str],
        badge_users: &[&str],
        pairs: &[(&str, &str)],
        ids: &[&str],
    ) -> Result<()> {
        if self.resident {
            return Ok(());
        }
        if tx.kind() == DbKind::Postgres {
            let feed = absent_from(&self.feed_seq, feed_users);
            let badges = absent_from(&self.badges, badge_users);
            let unread = self.unread_missing(pairs);
            let folders = self.children_missing(ids);
            let params = feed.len() + badges.len() + 2 * unread.len() + folders.len();
            if params == 0 {
                return Ok(());
            }
            // Past one statement's parameters (rare and large), each read in chunks of its own.
            if params <= PARAMS_PER_STATEMENT {
                let ask = Around {
                    feed: &feed,
                    badges: &badges,
                    unread: &unread,
                    folders: &folders,
                };
                return self.read_around(tx, &ask).await;
            }
        }
        self.load_feed_seq(tx, feed_users).await?;
        self.load_badges(tx, badge_users).await?;
        self.load_unread(tx, pairs).await?;
        self.load_children(tx, ids).await
    }

    /// One statement for what `ask` lists (each list already what is not known yet): each
    /// non-empty part is one read, the parts joined by `union all`. The lists are parameters
    /// written in the text, so the plan knows how many rows each part asks for and PostgreSQL
    /// keeps it once prepared (with arrays, not knowing their lengths, it went on planning
    /// every execution on a database of some size). Each row is (part, key, item, number): part
    /// 0 a user's last feed number, 1 a user's badge, 2 an unread (user, item) mark, 3 a
    /// folder's children count.
    async fn read_around(&mut self, tx: &mut Tx, ask: &Around<'_>) -> Result<()> {
        let kind = tx.kind();
        let mut n = 0;
        let mut next = || {
            n += 1;
            param(kind, n)
        };
        let mut parts = Vec::new();
        if !ask.feed.is_empty() {
            // One index probe per user (the last row of their feed): a `group by` over the
            // list would read every feed row of every user in it.
            let list: Vec<String> = ask.feed.iter().map(|_| format!("({})", next())).collect();
            parts.push(format!(
                "select cast(0 as bigint), v.column1, cast(null as text),
                        (select cast(max(f.seq) as bigint) from user_feed f where f.user_id = v.column1)
                   from (values {}) as v",
                list.join(", ")
            ));
        }
        if !ask.badges.is_empty() {
            let list: Vec<String> = ask.badges.iter().map(|_| next()).collect();
            parts.push(format!(
                "select cast(1 as bigint), user_id, cast(null as text), cast(shared_unread as bigint)
                   from doc_badges where user_id in ({})",
                list.join(", ")
            ));
        }
        if !ask.unread.is_empty() {
            let list: Vec<String> = ask
                .unread
                .iter()
                .map(|_| {
                    let user = next();
                    format!("({user}, {})", next())
                })
                .collect();
            // A join, not `(a, b) in (values ...)`, which SQLite answers with a full scan.
            parts.push(format!(
                "select cast(2 as bigint), u.user_id, u.item_id, cast(1 as bigint)
                   from (select column1 as a, column2 as b from (values {}) as v) as t
                   join doc_unread u on u.user_id = t.a and u.item_id = t.b",
                list.join(", ")
            ));
        }
        if !ask.folders.is_empty() {
            let list: Vec<String> = ask.folders.iter().map(|_| next()).collect();
            parts.push(format!(
                "select cast(3 as bigint), parent_id, cast(null as text), cast(count(*) as bigint)
                   from doc_items where parent_id in ({}) group by parent_id",
                list.join(", ")
            ));
        }
        if parts.is_empty() {
            return Ok(());
        }
        let sql = parts.join(" union all ");
        let longest = [
            ask.feed.len(),
            ask.badges.len(),
            ask.unread.len(),
            ask.folders.len(),
        ]
        .into_iter()
        .max()
        .unwrap_or(0);
        let rows: Vec<(i64, String, Option<String>, Option<i64>)> = on_tx!(tx, c => {
            let mut q = sqlx::query_as(&sql).persistent(crate::db::keep_prepared(longest));
            for id in ask.feed.iter().chain(ask.badges) {
                q = q.bind(*id);
            }
            for (user, item) in ask.unread {
                q = q.bind(*user).bind(*item);
            }
            for id in ask.folders {
                q = q.bind(*id);
            }
            q.fetch_all(c).await
        })?;
        self.statements.reads += 1;
        let (mut feed_rows, mut badge_rows, mut found, mut children) =
            (Vec::new(), Vec::new(), HashSet::new(), Vec::new());
        for (part, key, item, number) in rows {
            match (part, item, number) {
                (0, _, seq) => feed_rows.push((key, seq)),
                (1, _, Some(count)) => badge_rows.push((key, count)),
                (2, Some(item), Some(_)) => {
                    found.insert((Key::from(key), Key::from(item)));
                }
                (3, _, Some(count)) => children.push((key, count)),
                _ => {}
            }
        }
        self.record_feed_seq(feed_rows);
        self.record_badges(ask.badges, badge_rows);
        self.record_unread(ask.unread, found);
        self.record_children(ask.folders, children);
        Ok(())
    }

    /// How many children a folder has now.
    pub async fn children(&mut self, tx: &mut Tx, id: &str) -> Result<i64> {
        if self.resident {
            return Ok(self.children_of.get(id).map_or(0, |c| c.len() as i64));
        }
        let before = match self.db_children.get(id) {
            Some(n) => *n,
            None => {
                let n: i64 = on_tx!(tx, c => sqlx::query_scalar(
                    "select cast(count(*) as bigint) from doc_items where parent_id = $1")
                    .bind(id).fetch_one(c).await)?;
                self.statements.reads += 1;
                self.db_children.insert(id.to_string(), n);
                n
            }
        };
        Ok(before + self.child_delta.get(id).copied().unwrap_or(0))
    }

    /// Every item at or below `path` now, loaded into memory, ordered by depth of path then id.
    /// The database is asked only for a folder that was in it, once per batch: a file has
    /// nothing below it, a new folder had nothing below it in the database, and below a folder
    /// whose subtree is loaded (or one of its ancestors') everything is in memory already.
    pub async fn subtree(&mut self, tx: &mut Tx, path: &str) -> Result<Vec<NodeRow>> {
        let (lo, hi) = subtree_bounds(path);
        let walked = self.resident.then(|| self.resident_subtree(path)).flatten();
        if let Some(mut nodes) = walked {
            nodes.sort_by(|a, b| (a.path.len(), &a.id).cmp(&(b.path.len(), &b.id)));
            return Ok(nodes);
        }
        let ids = path_ids(path);
        let top = ids.last().copied().unwrap_or_default();
        let in_memory = self.resident
            || ids.iter().any(|id| self.subtrees_loaded.contains(*id))
            || self
                .items
                .get(top)
                .is_some_and(|s| s.db.as_ref().is_none_or(|item| !item.is_folder()));
        if !in_memory {
            self.load_subtree(tx, path).await?;
            self.subtrees_loaded.insert(top.to_string());
        }
        let mut nodes: Vec<NodeRow> = self
            .items
            .values()
            .filter_map(|s| s.now.as_deref())
            .filter(|i| i.path.as_str() >= lo.as_str() && i.path.as_str() < hi.as_str())
            .map(NodeRow::of)
            .collect();
        nodes.sort_by(|a, b| (a.path.len(), &a.id).cmp(&(b.path.len(), &b.id)));
        Ok(nodes)
    }

    /// A resident batch's subtree at `path`, walked down from the item there through
    /// [`Batch::children_of`]: the same items as the range of paths, since an item's path is its
    /// folder's path and its id. `None` when no live item is at `path` (the caller then
    /// compares every path in memory).
    fn resident_subtree(&self, path: &str) -> Option<Vec<NodeRow>> {
        let top = path_ids(path).last().copied()?;
        let item = self.items.get(top).and_then(|s| s.now.as_deref())?;
        if item.path != path {
            return None;
        }
        let mut nodes = vec![NodeRow::of(item)];
        let mut next = 0;
        while let Some(folder) = nodes.get(next).map(|n| n.id.clone()) {
            next += 1;
            for child in self.children_of.get(folder.as_str()).into_iter().flatten() {
                if let Some(item) = self.items.get(child).and_then(|s| s.now.as_deref()) {
                    nodes.push(NodeRow::of(item));
                }
            }
        }
        Some(nodes)
    }

    /// Loads the database's rows at or below `path` that are not in memory yet.
    async fn load_subtree(&mut self, tx: &mut Tx, path: &str) -> Result<()> {
        let (lo, hi) = subtree_bounds(path);
        let sql = format!(
            "select {ITEM_COLUMNS} from doc_items where {}",
            in_subtree(tx.kind(), "path", 1, 2)
        );
        let rows: Vec<Item> = on_tx!(tx, c => sqlx::query_as::<_, Item>(&sql).bind(&lo).bind(&hi).fetch_all(c).await)?;
        self.statements.reads += 1;
        for row in rows {
            let row = Arc::new(row);
            self.items.entry(Key::from(&row.id)).or_insert(Slot {
                db: Some(row.clone()),
                now: Some(row),
            });
        }
        Ok(())
    }

    // ---- shares ----------------------------------------------------------------------------

    /// (user, item) of every share on the items at `path` and above.
    pub async fn shares_above_and_on(
        &mut self,
        tx: &mut Tx,
        path: &str,
    ) -> Result<BTreeSet<(String, String)>> {
        let ids = path_ids(path);
        self.load_item_shares(tx, &ids).await?;
        Ok(self.shares_on(&ids))
    }

    /// (user, item) of every share on `items` (their shares loaded).
    pub fn shares_on(&self, items: &[&str]) -> BTreeSet<(String, String)> {
        let mut out = BTreeSet::new();
        for item in items {
            for user in self.by_item.get(*item).into_iter().flatten() {
                if self
                    .shares
                    .get(&Pair(item, user))
                    .is_some_and(|s| s.now.is_some())
                {
                    out.insert((user.clone(), item.to_string()));
                }
            }
        }
        out
    }

    /// Whether `item` is shared with `user` directly (its shares loaded): whether `user` is
    /// among [`Batch::shares_on`] of it, without copying them.
    pub fn is_shared_with(&self, item: &str, user: &str) -> bool {
        self.by_item
            .get(item)
            .is_some_and(|users| users.contains(user))
            && self
                .shares
                .get(&Pair(item, user))
                .is_some_and(|s| s.now.is_some())
    }

    /// Which of `items` are shared with `user` directly. Only the pairs not in memory are read
    /// (an item whose shares are all loaded, or a pair the batch knows, needs no read), so the
    /// cost follows `items`, not how many items are shared with the user.
    pub async fn shared_with_among<'i>(
        &mut self,
        tx: &mut Tx,
        user: &str,
        items: impl IntoIterator<Item = &'i str>,
    ) -> Result<std::collections::HashSet<String>> {
        let items = unique(items.into_iter());
        if !self.resident {
            let unknown: Vec<&str> = items
                .iter()
                .copied()
                .filter(|item| {
                    !self.item_shares_loaded.contains(*item)
                        && !self.shares.contains_key(&Pair(item, user))
                })
                .collect();
            for chunk in unknown.chunks(PARAMS_PER_STATEMENT - 1) {
                let sql = format!(
                    "select item_id, shared_by, via, shared_at from doc_shares
                     where user_id = {} and item_id in ({})",
                    param(tx.kind(), 1),
                    placeholders_from(tx.kind(), 2, chunk.len())
                );
                let rows: Vec<(String, String, String, i64)> = on_tx!(tx, c => {
                    let mut q = sqlx::query_as(&sql)
                        .persistent(crate::db::keep_prepared(chunk.len()))
                        .bind(user);
                    for id in chunk {
                        q = q.bind(*id);
                    }
                    q.fetch_all(c).await
                })?;
                self.statements.reads += 1;
                for (item, shared_by, via, shared_at) in rows {
                    self.known_share(item, user.to_string(), shared_by, via, shared_at);
                }
            }
        }
        Ok(items
            .into_iter()
            .filter(|item| {
                self.shares
                    .get(&Pair(item, user))
                    .is_some_and(|s| s.now.is_some())
            })
            .map(str::to_string)
            .collect())
    }

    /// Shares `item` with `user` unless it already is; true when the share is new.
    pub async fn share(
        &mut self,
        tx: &mut Tx,
        item: &str,
        user: &str,
        share: Share,
    ) -> Result<bool> {
        self.load_item_shares(tx, &[item]).await?;
        let key = (Key::from(item), Key::from(user));
        let slot = self.shares.entry(key).or_insert(Slot {
            db: None,
            now: None,
        });
        if slot.now.is_some() {
            return Ok(false);
        }
        slot.now = Some(share);
        let counted = self.counts_in_badge(user, item);
        self.badge_moved(user, false, counted);
        self.by_item
            .entry(Key::from(item))
            .or_default()
            .insert(user.to_string());
        self.by_user
            .entry(Key::from(user))
            .or_default()
            .insert(item.to_string());
        Ok(true)
    }

    /// Removes the share of `item` with `user`; true when there was one.
    pub async fn unshare(&mut self, tx: &mut Tx, item: &str, user: &str) -> Result<bool> {
        self.load_item_shares(tx, &[item]).await?;
        let counted = self.counts_in_badge(user, item);
        let removed = self
            .shares
            .get_mut(&Pair(item, user))
            .and_then(|s| s.now.take())
            .is_some();
        self.badge_moved(user, counted, false);
        Ok(removed)
    }

    // ---- unread marks, seen, badges ----------------------------------------------------------

    /// Whether `item` is unread for `user` now (read from the database if not known).
    pub async fn is_unread(&mut self, tx: &mut Tx, user: &str, item: &str) -> Result<bool> {
        if let Some(mark) = self.unread.get(&Pair(user, item)) {
            if let Some(now) = mark.now.or(mark.db) {
                return Ok(now);
            }
        }
        if self.resident || self.born.contains(item) {
            return Ok(false);
        }
        let found: Option<i64> = on_tx!(tx, c => sqlx::query_scalar(
            "select cast(1 as bigint) from doc_unread where user_id = $1 and item_id = $2")
            .bind(user).bind(item).fetch_optional(c).await)?;
        self.statements.reads += 1;
        self.unread
            .entry((Key::from(user), Key::from(item)))
            .or_default()
            .db = Some(found.is_some());
        Ok(found.is_some())
    }

    /// Marks `items` unread for `user` unless they already are.
    pub fn mark_unread(&mut self, user: &str, items: &[&str], at: i64) {
        for item in items {
            let mark = match self.unread.get_mut(&Pair(user, item)) {
                Some(mark) => mark,
                None => self
                    .unread
                    .entry((Key::from(user), Key::from(*item)))
                    .or_default(),
            };
            if mark.now.or(mark.db) == Some(true) {
                continue;
            }
            mark.now = Some(true);
            mark.since = at;
            let counted = self.counts_in_badge(user, item);
            self.badge_moved(user, false, counted);
        }
    }

    /// Clears the unread marks of `items` for `user`.
    pub fn clear_unread(&mut self, user: &str, items: &[&str]) {
        if self.resident {
            // Nothing written yet: no mark is the same as a cleared one.
            for item in items {
                let counted = self.counts_in_badge(user, item);
                self.unread.remove(&Pair(user, item));
                self.badge_moved(user, counted, false);
            }
            return;
        }
        for item in items {
            let mark = self
                .unread
                .entry((Key::from(user), Key::from(*item)))
                .or_default();
            mark.now = Some(false);
            mark.cleared = true;
        }
    }

    /// Marks a US item seen by `user`.
    pub fn seen(&mut self, user: &str, item: &str, at: i64) {
        let users = match self.seen.get_mut(item) {
            Some(users) => users,
            None => self.seen.entry(item.to_string()).or_default(),
        };
        if !users.contains_key(user) {
            users.insert(user.to_string(), at);
        }
    }

    /// Forgets who saw `item`: a new version of a US item is unread again for every US user.
    pub fn unsee(&mut self, item: &str) {
        self.seen.remove(item);
        self.unseen.insert(item.to_string());
    }

    /// The users who opened `item` as a US item (and have not been made to forget it since).
    pub async fn seen_by(&mut self, tx: &mut Tx, item: &str) -> Result<BTreeSet<String>> {
        let mut users = BTreeSet::new();
        if !self.resident && !self.unseen.contains(item) {
            let before: Vec<String> = on_tx!(tx, c => sqlx::query_scalar(
                "select user_id from doc_seen where item_id = $1")
                .bind(item).fetch_all(c).await)?;
            self.statements.reads += 1;
            users.extend(before);
        }
        users.extend(
            self.seen
                .get(item)
                .into_iter()
                .flatten()
                .map(|(u, _)| u.clone()),
        );
        Ok(users)
    }

    /// How many items shared with `user` directly are unread.
    pub async fn shared_unread(&mut self, tx: &mut Tx, user: &str) -> Result<i64> {
        if self.resident {
            // Every share and mark is in memory, and the count follows them.
            return Ok(self.unread_shared.get(user).copied().unwrap_or(0));
        }
        // The badge from before the batch, moved by the pairs of the user's shares in memory
        // whose share or mark the batch changed: every change of a share or of a mark that
        // counts is made with the item's shares in memory (see the module's notes).
        self.load_badges(tx, &[user]).await?;
        let items: Vec<String> = self
            .by_user
            .get(user)
            .into_iter()
            .flatten()
            .cloned()
            .collect();
        let unknown: Vec<(&str, &str)> = items
            .iter()
            .filter(|item| self.mark_before_needed(user, item))
            .map(|item| (user, item.as_str()))
            .collect();
        self.load_unread(tx, &unknown).await?;
        let before = self.badges.get(user).and_then(|s| s.db).unwrap_or(0);
        let moved: i64 = items
            .iter()
            .map(|item| {
                let (before, now) = self.counted_before_and_now(user, item);
                i64::from(now) - i64::from(before)
            })
            .sum();
        Ok(before + moved)
    }

    /// Whether the pair (`user`, `item`) counted in the badge before the batch and counts now:
    /// shared directly, and unread.
    fn counted_before_and_now(&self, user: &str, item: &str) -> (bool, bool) {
        let share = self.shares.get(&Pair(item, user));
        let mark = self.unread.get(&Pair(user, item));
        let mark_before = mark.and_then(|m| m.db);
        let mark_now = mark.and_then(|m| m.now.or(m.db));
        (
            share.is_some_and(|s| s.db.is_some()) && mark_before == Some(true),
            share.is_some_and(|s| s.now.is_some()) && mark_now == Some(true),
        )
    }

    /// Whether telling how the pair moved the badge needs its mark from before the batch,
    /// not read yet: its mark changed while it was shared before, or its share came or went
    /// while its mark stayed.
    fn mark_before_needed(&self, user: &str, item: &str) -> bool {
        let Some(share) = self.shares.get(&Pair(item, user)) else {
            return false;
        };
        let mark = self.unread.get(&Pair(user, item));
        if mark.is_some_and(|m| m.db.is_some()) {
            return false;
        }
        if mark.is_some_and(|m| m.now.is_some()) {
            share.db.is_some()
        } else {
            share.db.is_some() != share.now.is_some()
        }
    }

    /// Sets the badge of `user` (loaded) to `count`; true when it changed. A user without a row
    /// counts 0, and a count of 0 creates no row.
    pub fn set_badge(&mut self, user: &str, count: i64) -> bool {
        let slot = self.badges.entry(Key::from(user)).or_insert(Slot {
            db: None,
            now: None,
        });
        let before = slot.now.unwrap_or(0);
        if before == count {
            return false;
        }
        slot.now = Some(count);
        true
    }

    // ---- feed, links, versions ----------------------------------------------------------------

    pub async fn push_feed(
        &mut self,
        tx: &mut Tx,
        user: &str,
        kind: &'static str,
        payload: String,
        at: i64,
    ) -> Result<()> {
        if !self.keeps_feed() {
            return Ok(());
        }
        self.load_feed_seq(tx, &[user]).await?;
        self.feed.push(FeedRow {
            user_id: user.to_string(),
            kind,
            payload,
            at,
        });
        Ok(())
    }

    pub fn add_link(&mut self, link: Link) {
        self.links.push(link);
    }

    /// Closes the item's open version (if any) and opens one with its current row.
    pub fn item_changed(&mut self, id: &str, at: i64) {
        self.close_item_version(id, at);
        let Some(item) = self.items.get(id).and_then(|s| s.now.clone()) else {
            return;
        };
        self.open_item_version
            .insert(Key::from(id), self.item_versions.len());
        self.item_versions.push(ItemVersion {
            item,
            valid_from: at,
            valid_to: None,
        });
    }

    /// Closes the item's open version. One from before the batch is open exactly when the item
    /// existed before the batch.
    pub fn close_item_version(&mut self, id: &str, at: i64) {
        match self.open_item_version.remove(id) {
            Some(index) => {
                self.item_versions[index].valid_to = Some(at);
                self.closed_versions.0 += 1;
            }
            None => {
                if self.items.get(id).is_some_and(|s| s.db.is_some()) {
                    self.close_item_version.entry(Key::from(id)).or_insert(at);
                }
            }
        }
    }

    pub fn share_began(&mut self, item: &str, user: &str, via: &str, at: i64) {
        self.open_share_version.insert(
            (Key::from(item), Key::from(user)),
            self.share_versions.len(),
        );
        self.share_versions.push(ShareVersion {
            item_id: item.to_string(),
            user_id: user.to_string(),
            via: via.to_string(),
            valid_from: at,
            valid_to: None,
        });
    }

    /// Closes the open version of a share. One from before the batch is open exactly when the
    /// share existed before the batch.
    pub fn share_ended(&mut self, item: &str, user: &str, at: i64) {
        match self.open_share_version.remove(&Pair(item, user)) {
            Some(index) => {
                self.share_versions[index].valid_to = Some(at);
                self.closed_versions.1 += 1;
            }
            None => {
                if self
                    .shares
                    .get(&Pair(item, user))
                    .is_some_and(|s| s.db.is_some())
                {
                    self.close_share_version
                        .entry((Key::from(item), Key::from(user)))
                        .or_insert(at);
                }
            }
        }
    }

    /// Closes the versions of removed items and of all their shares (shares loaded).
    pub fn items_removed(&mut self, ids: &[String], at: i64) {
        for id in ids {
            self.close_item_version(id, at);
            let users: Vec<String> = self
                .by_item
                .get(id.as_str())
                .map(|u| u.iter().cloned().collect())
                .unwrap_or_default();
            for user in users {
                self.share_ended(id, &user, at);
            }
        }
    }

    // ---- writing --------------------------------------------------------------------------

    /// Writes everything the batch changed.
    pub async fn flush(&mut self, tx: &mut Tx) -> Result<()> {
        // A live batch's few rows go together ([`Out::together`]); a resident batch's
        // `COPY`s run one by one.
        let mut out = if self.resident {
            Out::direct(tx)
        } else {
            Out::together(tx)
        };
        let mut writes = self.write_tables(&mut out).await?;
        writes += self.write_versions(&mut out).await?;
        writes += self.write_feed(&mut out).await?;
        writes += out.finish().await?;
        self.statements.writes += writes;
        Ok(())
    }

    /// A resident batch's items, at its end ([`Batch::take_last_rows`] took its version rows),
    /// on `tx`; returns the statements run. [`Batch::write_resident_rest`] may write the rest
    /// on another connection at the same time.
    pub async fn write_resident_items(&self, tx: &mut Tx) -> Result<u64> {
        debug_assert!(self.resident && self.feed.is_empty() && self.item_versions.is_empty());
        self.write_items(&mut Out::direct(tx)).await
    }

    /// A resident batch's state besides its items (shares, marks, badges, links: the tables of
    /// [`Batch::RESIDENT_REST`]) on `tx`; returns the statements run. Nothing to delete: no
    /// row of a resident batch was in the database before it.
    pub async fn write_resident_rest(&self, tx: &mut Tx) -> Result<u64> {
        debug_assert!(self.resident);
        self.write_besides_items(&mut Out::direct(tx)).await
    }

    /// The tables [`Batch::write_resident_rest`] writes.
    pub const RESIDENT_REST: [&'static str; 5] = [
        "doc_shares",
        "doc_unread",
        "doc_seen",
        "doc_badges",
        "doc_external_links",
    ];

    /// Writes the changed rows of the items, shares, unread marks, seen marks, badges and links.
    async fn write_tables(&self, out: &mut Out<'_>) -> Result<u64> {
        // Removed items first: the rows written after them skip what is gone.
        let mut writes = self.delete_gone_items(out).await?;
        writes += self.write_items(out).await?;
        writes += self.write_besides_items(out).await?;
        Ok(writes)
    }

    /// Writes the changed rows of the shares, unread marks, seen marks, badges and links.
    async fn write_besides_items(&self, out: &mut Out<'_>) -> Result<u64> {
        let mut writes = self.write_shares(out).await?;
        writes += self.write_unread(out).await?;
        writes += self.write_seen(out).await?;
        writes += self.write_badges(out).await?;
        writes += self.write_links(out).await?;
        Ok(writes)
    }

    /// Whether the batch removed the item (its rows are deleted, nothing else is written for it).
    fn is_gone(&self, id: &str) -> bool {
        self.gone.contains(id)
    }

    /// Deletes the rows of the items the batch removed, in every table that names them.
    async fn delete_gone_items(&self, out: &mut Out<'_>) -> Result<u64> {
        let mut writes = 0;
        let gone: Vec<&str> = {
            let mut ids: Vec<&str> = self
                .gone
                .iter()
                .filter(|id| self.items.get(*id).is_some_and(|s| s.db.is_some()))
                .map(Key::as_str)
                .collect();
            ids.sort_unstable();
            ids
        };
        for table in [
            "doc_unread",
            "doc_seen",
            "doc_shares",
            "doc_external_links",
            "doc_items",
        ] {
            let column = if table == "doc_items" {
                "id"
            } else {
                "item_id"
            };
            let rows: Vec<Vec<Value<'_>>> =
                gone.iter().map(|id| vec![Value::Text(Some(id))]).collect();
            writes += write_rows(
                out,
                &format!("delete from {table} where {column} in ("),
                ")",
                "",
                &rows,
                RowShape::List,
            )
            .await?;
        }
        Ok(writes)
    }

    /// Inserts or updates the items whose row changed.
    async fn write_items(&self, out: &mut Out<'_>) -> Result<u64> {
        let mut writes = 0;
        let mut items: Vec<&Item> = self
            .items
            .values()
            .filter_map(|s| match (&s.db, &s.now) {
                // The same row (kept, or read and not changed) first, without comparing fields.
                (Some(db), Some(now)) if Arc::ptr_eq(db, now) => None,
                (db, Some(now)) if db.as_ref() != Some(now) => Some(&**now),
                _ => None,
            })
            .collect();
        items.sort_by(|a, b| a.id.cmp(&b.id));
        let update: Vec<String> = ITEM_COLUMNS
            .split(',')
            .map(str::trim)
            .filter(|c| *c != "id")
            .map(|c| format!("{c} = excluded.{c}"))
            .collect();
        // Rows made a slice at a time: all at once they would double a rebuild's memory.
        for slice in items.chunks(ROWS_IN_MEMORY) {
            let rows: Vec<Vec<Value<'_>>> = slice.iter().map(|i| i.values()).collect();
            writes += write_rows(
                out,
                &format!("insert into doc_items ({ITEM_COLUMNS}) values "),
                "",
                &format!(" on conflict (id) do update set {}", update.join(", ")),
                &rows,
                insert_shape(self.resident),
            )
            .await?;
        }
        Ok(writes)
    }

    /// Deletes the ended shares and writes the new ones.
    async fn write_shares(&self, out: &mut Out<'_>) -> Result<u64> {
        let mut writes = 0;
        // The changed shares only, then in key order: a kept batch holds many unchanged.
        let mut changed: Vec<(&(Key, Key), &Slot<Share>)> = self
            .shares
            .iter()
            .filter(|(key, slot)| slot.db != slot.now && !self.is_gone(&key.0))
            .collect();
        changed.sort_unstable_by(|a, b| a.0.cmp(b.0));
        let mut removed = Vec::new();
        let mut added = Vec::new();
        for (key, slot) in changed {
            match (&slot.db, &slot.now) {
                (Some(_), None) => {
                    removed.push(vec![Value::Text(Some(&key.0)), Value::Text(Some(&key.1))])
                }
                // New, or removed and given again (by someone else, at another time): the
                // filter above kept only shares that differ from their row.
                (_, Some(s)) => added.push(vec![
                    Value::Text(Some(&key.0)),
                    Value::Text(Some(&key.1)),
                    Value::Text(Some(&s.shared_by)),
                    Value::Text(Some(&s.via)),
                    Value::Int(Some(s.shared_at)),
                ]),
                (None, None) => {}
            }
        }
        let (head, tail) = delete_pairs_sql(out.kind(), "doc_shares", "item_id", "user_id");
        writes += write_rows(out, &head, "", &tail, &removed, RowShape::Tuples).await?;
        writes += write_rows(
            out,
            "insert into doc_shares (item_id, user_id, shared_by, via, shared_at) values ",
            "",
            " on conflict (item_id, user_id) do update set shared_by = excluded.shared_by,
              via = excluded.via, shared_at = excluded.shared_at",
            &added,
            insert_shape(self.resident),
        )
        .await?;
        Ok(writes)
    }

    /// Clears, keeps or restarts the unread marks.
    async fn write_unread(&self, out: &mut Out<'_>) -> Result<u64> {
        let mut writes = 0;
        // The marks this batch set or cleared only (`now`; a kept one has none), in key order.
        let mut changed: Vec<(&(Key, Key), &Unread)> = self
            .unread
            .iter()
            .filter(|(key, mark)| mark.now.is_some() && !self.is_gone(&key.1))
            .collect();
        changed.sort_unstable_by(|a, b| a.0.cmp(b.0));
        let (mut cleared, mut kept, mut reset) = (Vec::new(), Vec::new(), Vec::new());
        for (key, mark) in changed {
            let row = || {
                vec![
                    Value::Text(Some(&key.0)),
                    Value::Text(Some(&key.1)),
                    Value::Int(Some(mark.since)),
                ]
            };
            match mark.now {
                // A resident batch wrote no mark yet: nothing to delete.
                Some(false) if mark.db != Some(false) && !self.resident => {
                    cleared.push(vec![Value::Text(Some(&key.0)), Value::Text(Some(&key.1))])
                }
                // Removed and marked again: the mark starts anew.
                Some(true) if mark.cleared => reset.push(row()),
                Some(true) if mark.db != Some(true) => kept.push(row()),
                _ => {}
            }
        }
        let (head, tail) = delete_pairs_sql(out.kind(), "doc_unread", "user_id", "item_id");
        writes += write_rows(out, &head, "", &tail, &cleared, RowShape::Tuples).await?;
        writes += write_rows(
            out,
            "insert into doc_unread (user_id, item_id, since) values ",
            "",
            " on conflict (user_id, item_id) do nothing",
            &kept,
            insert_shape(self.resident),
        )
        .await?;
        writes += write_rows(
            out,
            "insert into doc_unread (user_id, item_id, since) values ",
            "",
            " on conflict (user_id, item_id) do update set since = excluded.since",
            &reset,
            insert_shape(self.resident),
        )
        .await?;
        Ok(writes)
    }

    /// Records the first time each user saw each item.
    async fn write_seen(&self, out: &mut Out<'_>) -> Result<u64> {
        let mut writes = 0;
        // Forgotten first: the batch's own marks after a new version are written below.
        let unseen: Vec<Vec<Value<'_>>> = self
            .unseen
            .iter()
            .filter(|i| !self.is_gone(i.as_str()))
            .map(|i| vec![Value::Text(Some(i))])
            .collect();
        writes += write_rows(
            out,
            "delete from doc_seen where item_id in (",
            ")",
            "",
            &unseen,
            RowShape::List,
        )
        .await?;
        // Only the first time is in `seen` ([`Batch::seen`]); one from before the batch stays
        // (do nothing on conflict).
        let rows: Vec<Vec<Value<'_>>> = self
            .seen
            .iter()
            .filter(|(item, _)| !self.is_gone(item))
            .flat_map(|(i, users)| {
                users.iter().map(move |(u, at)| {
                    vec![
                        Value::Text(Some(u)),
                        Value::Text(Some(i)),
                        Value::Int(Some(*at)),
                    ]
                })
            })
            .collect();
        writes += write_rows(
            out,
            "insert into doc_seen (user_id, item_id, seen_at) values ",
            "",
            " on conflict (user_id, item_id) do nothing",
            &rows,
            insert_shape(self.resident),
        )
        .await?;
        Ok(writes)
    }

    /// Writes the changed shared-unread badges.
    async fn write_badges(&self, out: &mut Out<'_>) -> Result<u64> {
        let mut writes = 0;
        let mut badges: Vec<(&Key, &Slot<i64>)> =
            self.badges.iter().filter(|(_, s)| s.db != s.now).collect();
        badges.sort_by(|a, b| a.0.cmp(b.0));
        let rows: Vec<Vec<Value<'_>>> = badges
            .iter()
            .map(|(user, s)| {
                vec![
                    Value::Text(Some(user)),
                    Value::Int(Some(s.now.unwrap_or(0))),
                ]
            })
            .collect();
        writes += write_rows(
            out,
            "insert into doc_badges (user_id, shared_unread) values ",
            "",
            " on conflict (user_id) do update set shared_unread = excluded.shared_unread",
            &rows,
            insert_shape(self.resident),
        )
        .await?;
        Ok(writes)
    }

    /// Writes the new external links.
    async fn write_links(&self, out: &mut Out<'_>) -> Result<u64> {
        let mut writes = 0;
        let mut firsts = HashSet::new();
        let rows: Vec<Vec<Value<'_>>> = self
            .links
            .iter()
            .filter(|l| !self.is_gone(&l.item_id) && firsts.insert(&l.token_hash))
            .map(|l| {
                vec![
                    Value::Text(Some(&l.token_hash)),
                    Value::Text(Some(&l.item_id)),
                    Value::Text(Some(&l.email)),
                    Value::Text(Some(&l.created_by)),
                    Value::Int(Some(l.created_at)),
                    Value::Int(Some(l.expires_at)),
                ]
            })
            .collect();
        writes += write_rows(
            out,
            "insert into doc_external_links (token_hash, item_id, email, created_by, created_at, expires_at) values ",
            "",
            " on conflict (token_hash) do nothing",
            &rows,
            insert_shape(self.resident),
        )
        .await?;
        Ok(writes)
    }

    async fn write_versions(&self, out: &mut Out<'_>) -> Result<u64> {
        let kind = out.kind();
        let mut writes = 0;
        // Close the rows from before the batch first: the batch's own open rows must stay open.
        let mut closes: Vec<(&Key, &i64)> = self.close_item_version.iter().collect();
        closes.sort();
        let rows: Vec<Vec<Value<'_>>> = closes
            .iter()
            .map(|(id, at)| vec![Value::Text(Some(id)), Value::Int(Some(**at))])
            .collect();
        let (head, tail) = close_sql(kind, "doc_item_versions", &["item_id"]);
        writes += write_rows(out, &head, "", &tail, &rows, RowShape::CastTuples).await?;

        let mut closes: Vec<(&(Key, Key), &i64)> = self.close_share_version.iter().collect();
        closes.sort();
        let rows: Vec<Vec<Value<'_>>> = closes
            .iter()
            .map(|((item, user), at)| {
                vec![
                    Value::Text(Some(item)),
                    Value::Text(Some(user)),
                    Value::Int(Some(**at)),
                ]
            })
            .collect();
        let (head, tail) = close_sql(kind, "doc_share_versions", &["item_id", "user_id"]);
        writes += write_rows(out, &head, "", &tail, &rows, RowShape::CastTuples).await?;

        let items: Vec<&ItemVersion> = self.item_versions.iter().collect();
        let shares: Vec<&ShareVersion> = self.share_versions.iter().collect();
        writes += write_item_versions(out, &items, self.resident).await?;
        writes += write_share_versions(out, &shares, self.resident).await?;
        Ok(writes)
    }

    /// How many bytes the rows that no later event changes take (about): what
    /// [`Batch::spill`] frees.
    pub fn settled_bytes(&self) -> usize {
        self.closed_versions.0 * ITEM_VERSION_BYTES + self.closed_versions.1 * SHARE_VERSION_BYTES
    }

    /// Writes what no later event can change and forgets it: the closed version rows. Only for
    /// a resident batch, whose open rows stay in memory.
    pub async fn spill(&mut self, tx: &mut Tx) -> Result<()> {
        let settled = self.take_settled();
        self.statements.writes += settled.write(tx).await?;
        Ok(())
    }

    /// Takes what no later event can change out of a resident batch, numbered and ready to be
    /// written (by [`Settled::write`], on this transaction or on a connection of its own).
    pub fn take_settled(&mut self) -> Settled {
        debug_assert!(self.resident, "only a resident batch spills");
        let (item_versions, moved) = take_closed(&mut self.item_versions, |v| v.valid_to.is_none());
        renumber(&mut self.open_item_version, &moved);
        let (share_versions, moved) =
            take_closed(&mut self.share_versions, |v| v.valid_to.is_none());
        // The open rows stay; their places move down. The maps keep their keys (a resident
        // rebuild holds every live item's: copying them at each spill cost more than the spill).
        renumber(&mut self.open_share_version, &moved);
        self.closed_versions = (0, 0);
        Settled {
            item_versions,
            share_versions,
        }
    }

    /// Takes every version row, open ones too, out of a resident batch at its end, ready to be
    /// written; [`Batch::write_resident_items`] and [`Batch::write_resident_rest`] then write
    /// the rest.
    pub fn take_last_rows(&mut self) -> Settled {
        debug_assert!(self.resident, "only a resident batch is written in parts");
        self.open_item_version.clear();
        self.open_share_version.clear();
        self.closed_versions = (0, 0);
        Settled {
            item_versions: std::mem::take(&mut self.item_versions),
            share_versions: std::mem::take(&mut self.share_versions),
        }
    }

    /// Counts statements a spill written elsewhere ran (see [`Batch::take_settled`]).
    pub fn count_writes(&mut self, writes: u64) {
        self.statements.writes += writes;
    }

    /// Each row's number in its user's feed, in the order the events caused them.
    fn number_feed(&mut self, feed: &[FeedRow]) -> Vec<i64> {
        feed.iter()
            .map(|row| {
                let seq = self.feed_seq.entry(row.user_id.clone()).or_insert(0);
                *seq += 1;
                *seq
            })
            .collect()
    }

    /// Numbers and writes the feed rows, in the order the events caused them (see `feed`).
    async fn write_feed(&mut self, out: &mut Out<'_>) -> Result<u64> {
        let feed = std::mem::take(&mut self.feed);
        let seqs = self.number_feed(&feed);
        let written = write_feed_rows(out, &feed, &seqs).await;
        self.feed = feed;
        written
    }
}

/// Rows of a resident batch no later event changes (see [`Batch::take_settled`]): owned, so
/// that they can be written while the batch goes on.
pub struct Settled {
    item_versions: Vec<ItemVersion>,
    share_versions: Vec<ShareVersion>,
}

impl Settled {
    /// The tables [`Settled::write`] writes.
    pub const TABLES: [&'static str; 2] = ["doc_item_versions", "doc_share_versions"];

    /// Writes the rows; returns how many statements ran.
    pub async fn write(&self, tx: &mut Tx) -> Result<u64> {
        let out = &mut Out::direct(tx);
        let items: Vec<&ItemVersion> = self.item_versions.iter().collect();
        let mut writes = write_item_versions(out, &items, true).await?;
        let shares: Vec<&ShareVersion> = self.share_versions.iter().collect();
        writes += write_share_versions(out, &shares, true).await?;
        Ok(writes)
    }
}

/// Writes feed rows numbered `seqs` (a live batch's: a resident one keeps none). On
/// PostgreSQL the feed writers take their turn: the statement takes the lock itself, before its
/// first row gets its `feed_position` (the lock's one row is joined with the rows, so no row
/// exists before it is taken).
async fn write_feed_rows(out: &mut Out<'_>, feed: &[FeedRow], seqs: &[i64]) -> Result<u64> {
    let mut writes = 0;
    if feed.is_empty() {
        return Ok(0);
    }
    crate::feed::note_written();
    let rows: Vec<Vec<Value<'_>>> = feed
        .iter()
        .zip(seqs)
        .map(|(row, seq)| {
            vec![
                Value::Text(Some(&row.user_id)),
                Value::Int(Some(*seq)),
                Value::Text(Some(row.kind)),
                Value::Text(Some(&row.payload)),
                Value::Int(Some(row.at)),
            ]
        })
        .collect();
    if out.kind() == DbKind::Postgres {
        let lock = [Value::Int(Some(FEED_WRITE_LOCK))];
        for chunk in rows.chunks(PARAMS_PER_STATEMENT / FEED_COLUMNS.len()) {
            let sql = feed_with_lock_sql(chunk.len());
            let keep = crate::db::keep_prepared(chunk.len());
            writes += out.statement("user_feed", &sql, &lock, chunk, keep).await?;
        }
        return Ok(writes);
    }
    writes += write_rows(
        out,
        "insert into user_feed (user_id, seq, kind, payload, created_at) values ",
        "",
        "",
        &rows,
        RowShape::Tuples,
    )
    .await?;
    Ok(writes)
}

/// The columns of a feed row as [`write_feed_rows`] binds them, with their types.
const FEED_COLUMNS: [&str; 5] = ["text", "bigint", "text", "text", "bigint"];

/// PostgreSQL: `rows` feed rows inserted by a statement that first takes the feed write lock
/// (parameter 1); the rows' values from parameter 2, typed (a `VALUES` list in `FROM` is not
/// typed by the table).
fn feed_with_lock_sql(rows: usize) -> String {
    let mut sql = String::from(
        "insert into user_feed (user_id, seq, kind, payload, created_at)
         select v.* from (select pg_advisory_xact_lock($1)) as l, (values ",
    );
    let mut n = 1;
    for r in 0..rows {
        sql.push_str(if r == 0 { "(" } else { ", (" });
        for (c, ty) in FEED_COLUMNS.iter().enumerate() {
            n += 1;
            if c > 0 {
                sql.push_str(", ");
            }
            let _ = write!(sql, "${n}::{ty}");
        }
        sql.push(')');
    }
    sql.push_str(") as v");
    sql
}

/// Takes the rows of `rows` that are not `open` out, in order, keeping the open ones in order;
/// returns the rows taken and each old place's new place (`usize::MAX` for a row taken).
fn take_closed<T>(rows: &mut Vec<T>, open: impl Fn(&T) -> bool) -> (Vec<T>, Vec<usize>) {
    let mut next = 0;
    let places = rows
        .iter()
        .map(|row| {
            if open(row) {
                next += 1;
                next - 1
            } else {
                usize::MAX
            }
        })
        .collect();
    // In place: the open rows are not copied into a second vector as large as the first.
    let taken = rows.extract_if(.., |row| !open(row)).collect();
    (taken, places)
}

/// Points each entry of `index` at its row's new place (see [`take_closed`]).
fn renumber<K>(index: &mut HashMap<K, usize>, places: &[usize]) {
    index.retain(|_, at| match places.get(*at) {
        Some(&to) if to != usize::MAX => {
            *at = to;
            true
        }
        _ => false,
    });
}

/// Writes `doc_item_versions` rows.
async fn write_item_versions(
    out: &mut Out<'_>,
    versions: &[&ItemVersion],
    resident: bool,
) -> Result<u64> {
    let mut writes = 0;
    let columns = ITEM_COLUMNS
        .replacen("id,", "item_id,", 1)
        .replace(" seed_key,", "");
    // Rows made a slice at a time: all at once they would double a rebuild's memory.
    for slice in versions.chunks(ROWS_IN_MEMORY) {
        let rows: Vec<Vec<Value<'_>>> = slice
            .iter()
            .map(|v| {
                let mut row = v.item.values();
                // `seed_key` is not versioned.
                row.remove(21);
                row.push(Value::Int(Some(v.valid_from)));
                row.push(Value::Int(v.valid_to));
                row
            })
            .collect();
        writes += write_rows(
            out,
            &format!("insert into doc_item_versions ({columns}, valid_from, valid_to) values "),
            "",
            "",
            &rows,
            insert_shape(resident),
        )
        .await?;
    }
    Ok(writes)
}

/// Writes `doc_share_versions` rows.
async fn write_share_versions(
    out: &mut Out<'_>,
    versions: &[&ShareVersion],
    resident: bool,
) -> Result<u64> {
    let mut writes = 0;
    let rows: Vec<Vec<Value<'_>>> = versions
        .iter()
        .map(|v| {
            vec![
                Value::Text(Some(&v.item_id)),
                Value::Text(Some(&v.user_id)),
                Value::Text(Some(&v.via)),
                Value::Int(Some(v.valid_from)),
                Value::Int(v.valid_to),
            ]
        })
        .collect();
    writes += write_rows(
        out,
        "insert into doc_share_versions (item_id, user_id, via, valid_from, valid_to) values ",
        "",
        "",
        &rows,
        insert_shape(resident),
    )
    .await?;
    Ok(writes)
}

/// The statement deleting the rows whose (`a`, `b`) is one of the `(a, b)` tuples put between
/// its head and its tail. A join on the table's key: `(a, b) in (values ...)` makes SQLite scan
/// the whole table.
fn delete_pairs_sql(kind: DbKind, table: &str, a: &str, b: &str) -> (String, String) {
    let pairs = "select column1 as a, column2 as b from (values ";
    match kind {
        DbKind::Postgres => (
            format!("delete from {table} x using ({pairs}"),
            format!(") as v) as t where x.{a} = t.a and x.{b} = t.b"),
        ),
        DbKind::Sqlite => (
            format!("delete from {table} where rowid in (select x.rowid from ({pairs}"),
            format!(") as v) as t join {table} x on x.{a} = t.a and x.{b} = t.b)"),
        ),
    }
}

/// The statement closing open version rows (`valid_to is null`) matched on `keys`, each with its
/// own time: the head before the rows (`(key..., at)` tuples) and the tail after them.
fn close_sql(kind: DbKind, table: &str, keys: &[&str]) -> (String, String) {
    let names: Vec<String> = (0..keys.len()).map(|i| format!("k{i}")).collect();
    let matched: Vec<String> = keys
        .iter()
        .zip(&names)
        .map(|(key, name)| format!("{table}.{key} = t.{name}"))
        .collect();
    let matched = matched.join(" and ");
    match kind {
        DbKind::Postgres => (
            format!("update {table} set valid_to = t.at from (values "),
            format!(
                ") as t({}, at) where {table}.valid_to is null and {matched}",
                names.join(", ")
            ),
        ),
        DbKind::Sqlite => {
            let columns: Vec<String> = names
                .iter()
                .enumerate()
                .map(|(i, n)| format!("column{} as {n}", i + 1))
                .collect();
            (
                format!(
                    "update {table} set valid_to = t.at from (select {}, column{} as at from (values ",
                    columns.join(", "),
                    keys.len() + 1
                ),
                format!(")) as t where {table}.valid_to is null and {matched}"),
            )
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum RowShape {
    /// Rows for a table that has none of them: `COPY` on PostgreSQL, [`RowShape::Tuples`] on
    /// SQLite (whose multi-row inserts in one transaction are already its fastest way in). The
    /// head must be `insert into TABLE (COLUMNS) values `; the conflict clause is not needed.
    Copy,
    /// `($1, $2), ($3, $4)` (`?` on SQLite)
    Tuples,
    /// Tuples whose last value is cast to bigint (a `values` list that does not type it).
    CastTuples,
    /// `$1, $2, $3` (one value per row)
    List,
}

/// Runs `head rows tail suffix` for `rows`, a few hundred rows per statement. Returns how many
/// statements ran.
async fn write_rows(
    out: &mut Out<'_>,
    head: &str,
    tail: &str,
    suffix: &str,
    rows: &[Vec<Value<'_>>],
    shape: RowShape,
) -> Result<u64> {
    let Some(width) = rows.first().map(Vec::len) else {
        return Ok(0);
    };
    let kind = out.kind();
    let after = format!("{tail}{suffix}");
    if shape == RowShape::Copy {
        match out.tx()? {
            Tx::Postgres(c) => return copy_rows(c, head, rows).await,
            Tx::PostgresReads(c) => return copy_rows(c, head, rows).await,
            Tx::Sqlite(c) => return insert_rows_sqlite(c, head, &after, rows).await,
        }
    }
    let table = table_of(head);
    let full = (PARAMS_PER_STATEMENT / width).max(1);
    let texts = ChunkTexts::new(rows.len(), full, |n| {
        statement_text(kind, shape, head, n, width, &after)
    });
    let mut statements = 0;
    for chunk in rows.chunks(full) {
        let (sql, _) = texts.of(chunk.len());
        // A live round's few rows stay prepared; a large statement is prepared once and
        // dropped, so a live connection keeps no statement of thousands of parameters.
        let keep = crate::db::keep_prepared(chunk.len());
        statements += out.statement(table, sql, &[], chunk, keep).await?;
    }
    Ok(statements)
}

/// The texts of a multi-row statement for rows cut into chunks of `full`: the full one and the
/// last chunk's.
struct ChunkTexts {
    full: usize,
    /// Only when a chunk fills it: a live batch's one or two rows would otherwise pay for
    /// writing out thousands of parameters at every command.
    full_text: Option<String>,
    tail_text: String,
}

impl ChunkTexts {
    /// For `rows` rows, `text(n)` being the statement of `n` rows.
    fn new(rows: usize, full: usize, text: impl Fn(usize) -> String) -> Self {
        Self {
            full,
            full_text: (rows >= full).then(|| text(full)),
            tail_text: text(rows % full),
        }
    }

    /// The text for a chunk of `len` rows, and whether it is the full statement.
    fn of(&self, len: usize) -> (&str, bool) {
        match &self.full_text {
            Some(text) if len == self.full => (text, true),
            _ => (&self.tail_text, false),
        }
    }
}

/// `head`, then `rows` rows of `width` parameters in `shape`, then `after`: the text of one
/// multi-row statement (parameters numbered from 1).
fn statement_text(
    kind: DbKind,
    shape: RowShape,
    head: &str,
    rows: usize,
    width: usize,
    after: &str,
) -> String {
    let mut sql = String::with_capacity(head.len() + rows * width * 6 + after.len());
    sql.push_str(head);
    let mut n = 0;
    for r in 0..rows {
        if r > 0 {
            sql.push_str(", ");
        }
        if shape != RowShape::List {
            sql.push('(');
        }
        for c in 0..width {
            if c > 0 {
                sql.push_str(", ");
            }
            n += 1;
            let cast = shape == RowShape::CastTuples && c == width - 1;
            if cast {
                sql.push_str("cast(");
            }
            push_param(&mut sql, kind, n);
            if cast {
                sql.push_str(" as bigint)");
            }
        }
        if shape != RowShape::List {
            sql.push(')');
        }
    }
    sql.push_str(after);
    sql
}

/// A rebuild's new rows on SQLite: multi-row `INSERT`s of up to [`PARAMS_PER_STATEMENT`]
/// parameters, `after` (a conflict clause) at the end. The full statement is sent hundreds of
/// times and kept prepared. Each statement's values are copied for SQLite's connection thread
/// while it still runs the statement before, so the two threads work at once. Returns how
/// many statements ran.
async fn insert_rows_sqlite(
    c: &mut sqlx::SqliteConnection,
    head: &str,
    after: &str,
    rows: &[Vec<Value<'_>>],
) -> Result<u64> {
    let Some(width) = rows.first().map(Vec::len) else {
        return Ok(0);
    };
    let full = (PARAMS_PER_STATEMENT / width).max(1);
    let texts = ChunkTexts::new(rows.len(), full, |n| {
        statement_text(DbKind::Sqlite, RowShape::Tuples, head, n, width, after)
    });
    // Owned values: what sqlx copies for its connection thread anyway, copied here instead.
    let statement = |chunk: &[Vec<Value<'_>>]| {
        let (sql, keep) = texts.of(chunk.len());
        let mut q = sqlx::query(sql).persistent(keep);
        for row in chunk {
            for value in row {
                q = match *value {
                    Value::Text(v) => q.bind(v.map(str::to_owned)),
                    Value::Int(v) => q.bind(v),
                    Value::Bool(v) => q.bind(v),
                };
            }
        }
        q
    };
    let mut chunks = rows.chunks(full);
    let mut next = chunks.next().map(statement);
    let mut statements = 0;
    while let Some(query) = next.take() {
        let mut running = std::pin::pin!(query.execute(&mut *c));
        // The first poll hands the statement to the connection's thread; the next one is
        // made while it runs.
        let first = std::future::poll_fn(|cx| {
            std::task::Poll::Ready(std::future::Future::poll(running.as_mut(), cx))
        })
        .await;
        next = chunks.next().map(statement);
        match first {
            std::task::Poll::Ready(done) => done?,
            std::task::Poll::Pending => running.await?,
        };
        statements += 1;
    }
    Ok(statements)
}

/// Bytes of rows a `COPY` message carries, about: the buffer is taken at twice this once per
/// `COPY` and sent each time it passes it (grown from empty for each slice of rows instead, by
/// doubling to a megabyte, it cost a rebuild's writer fresh pages for every slice).
const COPY_MESSAGE_BYTES: usize = 512 * 1024;

/// `COPY`s `rows` into the table and columns `head` names (`insert into TABLE (COLUMNS) values `),
/// in PostgreSQL's binary format: the database takes each value by its length, where the text
/// format has it split lines, undo escapes and parse numbers (a third to two fifths of its
/// time on these tables). Every integer column these rows go to is a `bigint`. Returns the
/// statements run (one).
async fn copy_rows(c: &mut sqlx::PgConnection, head: &str, rows: &[Vec<Value<'_>>]) -> Result<u64> {
    let target = head
        .strip_prefix("insert into ")
        .and_then(|h| h.trim_end().strip_suffix(" values"))
        .ok_or_else(|| {
            ProjectionError::Database(sqlx::Error::Protocol(format!("not a plain insert: {head}")))
        })?;
    let mut copy = c
        .copy_in_raw(&format!("copy {target} from stdin with (format binary)"))
        .await?;
    let mut buffer = Vec::with_capacity(2 * COPY_MESSAGE_BYTES);
    buffer.extend_from_slice(COPY_BINARY_HEADER);
    let sent = async {
        for row in rows {
            copy_binary_row(&mut buffer, row)?;
            if buffer.len() >= COPY_MESSAGE_BYTES {
                copy.send(buffer.as_slice()).await?;
                buffer.clear();
            }
        }
        buffer.extend_from_slice(&COPY_BINARY_TRAILER);
        copy.send(buffer.as_slice()).await?;
        Ok::<(), ProjectionError>(())
    }
    .await;
    if let Err(e) = sent {
        let _ = copy.abort("the rebuild's rows could not be sent").await;
        return Err(e);
    }
    copy.finish().await?;
    Ok(1)
}

/// The binary format's header: its signature, no flags, no extension.
const COPY_BINARY_HEADER: &[u8] = b"PGCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0";

/// The binary format's end: a row of -1 fields.
const COPY_BINARY_TRAILER: [u8; 2] = (-1i16).to_be_bytes();

/// One row in `COPY`'s binary format: its number of fields, then each field's length in bytes
/// (-1 for null) and its bytes: a `bigint` as 8 bytes, a `boolean` as 1, text as its UTF-8.
fn copy_binary_row(out: &mut Vec<u8>, row: &[Value<'_>]) -> Result<()> {
    let fields = i16::try_from(row.len()).map_err(|_| too_large("a row's fields"))?;
    out.extend_from_slice(&fields.to_be_bytes());
    for value in row {
        match *value {
            Value::Text(None) | Value::Int(None) => out.extend_from_slice(&(-1i32).to_be_bytes()),
            Value::Int(Some(n)) => {
                out.extend_from_slice(&8i32.to_be_bytes());
                out.extend_from_slice(&n.to_be_bytes());
            }
            Value::Bool(b) => {
                out.extend_from_slice(&1i32.to_be_bytes());
                out.push(u8::from(b));
            }
            Value::Text(Some(text)) => {
                let length = i32::try_from(text.len()).map_err(|_| too_large("a text"))?;
                out.extend_from_slice(&length.to_be_bytes());
                out.extend_from_slice(text.as_bytes());
            }
        }
    }
    Ok(())
}

fn too_large(what: &str) -> ProjectionError {
    ProjectionError::Database(sqlx::Error::Protocol(format!(
        "{what} is too large for COPY's binary format"
    )))
}

/// How a batch inserts new rows: a resident batch's are rows the table does not have yet.
fn insert_shape(resident: bool) -> RowShape {
    if resident {
        RowShape::Copy
    } else {
        RowShape::Tuples
    }
}

/// The `n`th parameter (from 1). SQLite gets anonymous `?` parameters: it finds a numbered one
/// by walking the list of names, which makes binding thousands of them quadratic.
fn param(kind: DbKind, n: usize) -> String {
    let mut p = String::new();
    push_param(&mut p, kind, n);
    p
}

/// Writes parameter `n` at the end of `sql`, with no string of its own.
fn push_param(sql: &mut String, kind: DbKind, n: usize) {
    match kind {
        DbKind::Sqlite => sql.push('?'),
        DbKind::Postgres => {
            use std::fmt::Write;
            // Writing to a `String` cannot fail.
            let _ = write!(sql, "${n}");
        }
    }
}

/// `n` parameters from the first, separated by commas.
fn placeholders(kind: DbKind, n: usize) -> String {
    placeholders_from(kind, 1, n)
}

/// `n` parameters from number `first`, separated by commas.
fn placeholders_from(kind: DbKind, first: usize, n: usize) -> String {
    (first..first + n)
        .map(|i| param(kind, i))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What one statement of [`Batch::read_around`] reads: for each list, what is not known yet.
#[derive(Default)]
struct Around<'a> {
    /// Users whose last feed number is read.
    feed: &'a [&'a str],
    /// Users whose badge is read.
    badges: &'a [&'a str],
    /// (user, item) pairs whose unread mark is read.
    unread: &'a [(&'a str, &'a str)],
    /// Folders whose children are counted.
    folders: &'a [&'a str],
}

/// Those of `users` that `known` has no entry for, once each.
fn absent_from<'u, K, V>(known: &HashMap<K, V>, users: &[&'u str]) -> Vec<&'u str>
where
    K: Borrow<str> + Hash + Eq,
{
    unique(users.iter().copied().filter(|u| !known.contains_key(*u)))
}

/// Puts `child` among `parent`'s children in a resident batch's [`Batch::children_of`] (the
/// parent's id copied only for its first child).
fn add_child(children_of: &mut HashMap<Key, HashSet<Key>>, parent: &str, child: &str) {
    match children_of.get_mut(parent) {
        Some(children) => {
            children.insert(Key::from(child));
        }
        None => {
            children_of.insert(Key::from(parent), HashSet::from_iter([Key::from(child)]));
        }
    }
}

/// Takes `child` from `parent`'s children in [`Batch::children_of`].
fn remove_child(children_of: &mut HashMap<Key, HashSet<Key>>, parent: &str, child: &str) {
    if let Some(children) = children_of.get_mut(parent) {
        children.remove(child);
    }
}

/// `ids` without repeats, in their first order.
fn unique<'a>(ids: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut seen = HashSet::new();
    ids.filter(|id| seen.insert(*id)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A live item `id` in folder `parent` (`None`: at the root).
    fn folder_item(id: &str, parent: Option<&Item>) -> Item {
        let (path, depth) = match parent {
            Some(p) => (format!("{}{id}/", p.path), p.depth + 1),
            None => (format!("/{id}/"), 0),
        };
        Item {
            id: id.to_string(),
            kind: Cow::Borrowed("folder"),
            space: Cow::Borrowed("my"),
            owner_id: None,
            owner_name: None,
            parent_id: parent.map(|p| p.id.clone()),
            path,
            depth,
            name: id.to_string(),
            title: id.to_string(),
            subtitle: None,
            languages_in_file: None,
            code_points: None,
            size: None,
            blob: None,
            content_type: None,
            for_internal_use: false,
            controlled_release: false,
            upon_request: false,
            external_release: false,
            copied_from: None,
            seed_key: None,
            created_at: 0,
            updated_at: 0,
            withdrawal: None,
        }
    }

    /// The subtree at `path` as the range of paths gives it, from every item in memory.
    fn by_paths(b: &Batch, path: &str) -> Vec<(String, String)> {
        let mut nodes: Vec<(String, String)> = b
            .items
            .values()
            .filter_map(|s| s.now.as_deref())
            .filter(|i| i.path.starts_with(path))
            .map(|i| (i.path.clone(), i.id.clone()))
            .collect();
        nodes.sort_by(|a, b| (a.0.len(), &a.1).cmp(&(b.0.len(), &b.1)));
        nodes
    }

    #[tokio::test]
    async fn a_resident_subtree_and_its_children_follow_moves_and_removals() {
        let dir = tempfile::tempdir().expect("temporary folder");
        let url = format!("sqlite://{}", dir.path().join("t.db").display());
        let db = crate::Db::connect(&url).await.expect("database");
        let mut tx = Tx::begin(&db).await.expect("transaction");
        let mut b = Batch::resident();
        let reads = b.statements.reads;
        // A fixed pseudo-random sequence: the same tree and operations on every run.
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let live = |b: &Batch| -> Vec<Item> {
            let mut all: Vec<Item> = b
                .items
                .values()
                .filter_map(|s| s.now.as_deref().cloned())
                .collect();
            all.sort_by(|a, b| a.id.cmp(&b.id));
            all
        };
        for n in 0..600 {
            let all = live(&b);
            match next(10) {
                // Mostly new items, under the root or any live item.
                0..=6 => {
                    let parent = (!all.is_empty() && next(8) > 0).then(|| &all[next(all.len())]);
                    assert!(b.insert_item(folder_item(&format!("i{n}"), parent)));
                }
                // A move to another folder not inside it, as the projection does one.
                7 | 8 if all.len() > 2 => {
                    let moved = &all[next(all.len())];
                    let to = &all[next(all.len())];
                    if to.path.starts_with(&moved.path) {
                        continue;
                    }
                    let new_path = format!("{}{}/", to.path, moved.id);
                    let depth_change = to.depth + 1 - moved.depth;
                    for node in b.subtree(&mut tx, &moved.path).await.expect("subtree") {
                        b.update_item(&node.id, |item| {
                            item.path = format!("{new_path}{}", &item.path[moved.path.len()..]);
                            item.depth += depth_change;
                        });
                    }
                    b.update_item(&moved.id, |item| item.parent_id = Some(to.id.clone()));
                }
                // A folder removed with everything in it.
                _ if !all.is_empty() => {
                    let gone = &all[next(all.len())];
                    let nodes = b.subtree(&mut tx, &gone.path).await.expect("subtree");
                    let ids: Vec<String> = nodes.into_iter().map(|n| n.id).collect();
                    b.remove_items(&ids);
                }
                _ => {}
            }
            let now = live(&b);
            for item in &now {
                let walked: Vec<(String, String)> = b
                    .subtree(&mut tx, &item.path)
                    .await
                    .expect("subtree")
                    .into_iter()
                    .map(|n| (n.path, n.id))
                    .collect();
                assert_eq!(walked, by_paths(&b, &item.path), "subtree of {}", item.path);
                let held = now
                    .iter()
                    .filter(|i| i.parent_id.as_ref() == Some(&item.id))
                    .count() as i64;
                let counted = b.children(&mut tx, &item.id).await.expect("children");
                assert_eq!(counted, held, "children of {}", item.path);
            }
        }
        assert!(live(&b).len() > 20, "the tree grew: {}", live(&b).len());
        // Nothing was read: a resident batch knows every row.
        assert_eq!(b.statements.reads, reads);
    }

    #[test]
    fn the_full_text_is_written_only_when_a_chunk_fills_it() {
        let few = ChunkTexts::new(2, 100, |n| format!("{n} rows"));
        assert!(few.full_text.is_none());
        assert_eq!(few.of(2), ("2 rows", false));
        let many = ChunkTexts::new(250, 100, |n| format!("{n} rows"));
        assert_eq!(many.of(100), ("100 rows", true));
        assert_eq!(many.of(50), ("50 rows", false));
        let exact = ChunkTexts::new(200, 100, |n| format!("{n} rows"));
        assert_eq!(exact.of(100), ("100 rows", true));
    }

    #[test]
    fn a_statement_text_numbers_its_parameters_row_after_row() {
        assert_eq!(
            statement_text(DbKind::Postgres, RowShape::CastTuples, "insert into t values ", 2, 3, " on conflict do nothing"),
            "insert into t values ($1, $2, cast($3 as bigint)), ($4, $5, cast($6 as bigint)) on conflict do nothing"
        );
        assert_eq!(
            statement_text(
                DbKind::Postgres,
                RowShape::List,
                "select 1 where x in (",
                3,
                1,
                ")"
            ),
            "select 1 where x in ($1, $2, $3)"
        );
        assert_eq!(
            statement_text(
                DbKind::Sqlite,
                RowShape::Tuples,
                "insert into t values ",
                2,
                2,
                ""
            ),
            "insert into t values (?, ?), (?, ?)"
        );
        assert_eq!(param(DbKind::Postgres, 8000), "$8000");
    }

    #[test]
    fn spilled_rows_leave_the_open_ones_found_at_their_new_places() {
        let mut rows = vec![
            ("a", true),
            ("b", false),
            ("c", true),
            ("d", false),
            ("e", true),
        ];
        let mut index: HashMap<&str, usize> = [("a", 0), ("c", 2), ("e", 4)].into_iter().collect();
        // An entry that points at a closed row (none should) is dropped, not kept pointing
        // at another row.
        index.insert("stale", 1);
        let (taken, moved) = take_closed(&mut rows, |r| r.1);
        renumber(&mut index, &moved);
        assert_eq!(rows, vec![("a", true), ("c", true), ("e", true)]);
        assert_eq!(taken, vec![("b", false), ("d", false)]);
        for (key, at) in &index {
            assert_eq!(rows[*at].0, *key);
        }
        assert_eq!(index.len(), 3);
    }

    #[test]
    fn copy_binary_rows_give_each_field_its_length_and_bytes() {
        let mut out = Vec::new();
        copy_binary_row(
            &mut out,
            &[
                Value::Text(Some("a\tb\n\\ é")),
                Value::Text(None),
                Value::Int(Some(-2)),
                Value::Int(None),
                Value::Bool(true),
                Value::Bool(false),
                Value::Text(Some("")),
            ],
        )
        .expect("encoded");
        let mut expected = vec![0, 7];
        expected.extend([0, 0, 0, 8]);
        expected.extend("a\tb\n\\ é".as_bytes());
        expected.extend([0xff; 4]);
        expected.extend([0, 0, 0, 8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe]);
        expected.extend([0xff; 4]);
        expected.extend([0, 0, 0, 1, 1]);
        expected.extend([0, 0, 0, 1, 0]);
        expected.extend([0, 0, 0, 0]);
        assert_eq!(out, expected);
        assert_eq!(COPY_BINARY_HEADER.len(), 19);
        assert_eq!(&COPY_BINARY_HEADER[..11], b"PGCOPY\n\xff\r\n\0");
    }
}
