//! Over 600 lines: one short operation per documents command and read, over one shared set of
//! checks.
//!
//! What users do with documents and folders, as operations the HTTP handlers, the demo seed,
//! the tests and the benchmark all call.
//!
//! Every change is a command on an item through the [`EventStore`]; every read comes from the
//! documents read model. Structural changes hold the owner's tree lock ([`TreeLocks`]), and
//! changes made of several commands (delete a folder, move a folder to My Docs) run in their own
//! task so a client that hangs up cannot stop them half-way.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use base64::Engine;
use events::documents::{
    CopyReason, Creator, HistoryScope, Item, ItemCommand, ItemEvent, ItemRef, Kind, ShareVia,
    Upload, UserRef, ITEM_TYPE,
};
use projections::documents::read::{self, ItemRow, ItemView, Viewer};
use projections::documents::temporal;
use projections::{now_ms, on_db, Db, ProjectorHandle, Tx};
use rand::RngCore;
use serde::Serialize;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use super::lock::TreeLocks;
use super::services::{full_name, full_name_of, DbServices};
use super::storage::{Storage, Stored};
use crate::auth::AuthUser;
use crate::auth::{Email, User};
use crate::config::Config;
use crate::error::{AppError, AppResult};
use crate::event_store::{EventStore, Metadata};
use projections::projector::{ReadBack, ReadBackRow};

/// The three lists of the documents screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListType {
    My,
    Shared,
    Us,
}

impl ListType {
    pub fn parse(raw: Option<&str>) -> AppResult<ListType> {
        match raw.map(str::trim) {
            Some("my") => Ok(ListType::My),
            Some("shared") => Ok(ListType::Shared),
            Some("us") => Ok(ListType::Us),
            _ => Err(AppError::bad_request("The type must be my, shared or us")),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ListType::My => "my",
            ListType::Shared => "shared",
            ListType::Us => "us",
        }
    }
}

/// The signed-in user, as the documents area needs them.
/// Events between two snapshots of an item: a command on an item opened 20,000 times reads its
/// latest snapshot and at most this many events, not its whole stream.
pub const ITEM_SNAPSHOT_EVERY: usize = 100;

#[derive(Debug, Clone)]
pub struct Actor {
    pub id: String,
    pub name: String,
    pub email: String,
    pub shows_us: bool,
    pub auditor: bool,
    /// Administrators may revoke anyone's external links.
    pub admin: bool,
}

impl Actor {
    /// The signed-in caller, from the account read with their session (its extractor answered
    /// 401 when the session or the account is gone).
    pub fn of_session(auth: &AuthUser) -> Actor {
        let account = &auth.account;
        Actor::with(
            &auth.id,
            auth.role,
            &account.email,
            (&account.first_name, &account.last_name),
            account.certificate.as_deref(),
        )
    }

    pub fn of(user: &User) -> Actor {
        Actor::with(
            &user.id,
            user.role,
            &user.email,
            (&user.first_name, &user.last_name),
            user.certificate.as_deref(),
        )
    }

    /// An account's facts as the documents area uses them (`admin` and `auditor` come from the
    /// role: one of user, admin, auditor).
    fn with(
        id: &str,
        role: crate::auth::Role,
        email: &str,
        (first_name, last_name): (&str, &str),
        certificate: Option<&str>,
    ) -> Actor {
        Actor {
            id: id.to_string(),
            name: full_name_of(first_name, last_name),
            email: email.to_string(),
            shows_us: crate::auth::certificate_shows_us(certificate),
            auditor: role == crate::auth::Role::Auditor,
            admin: role == crate::auth::Role::Admin,
        }
    }

    pub fn viewer(&self) -> Viewer {
        Viewer {
            id: self.id.clone(),
            shows_us: self.shows_us,
        }
    }

    fn user_ref(&self) -> UserRef {
        UserRef {
            id: self.id.clone(),
            name: self.name.clone(),
        }
    }

    pub(crate) fn metadata(&self) -> Metadata {
        Metadata {
            user_id: self.id.clone(),
            user_email: Some(self.email.clone()),
            request_id: None,
        }
    }
}

/// `{id, name}` of a folder (`back` of a folder's contents).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FolderRef {
    pub id: String,
    pub name: String,
}

/// A node of the move dialog's tree.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FolderNode {
    pub id: String,
    pub name: String,
    #[schema(no_recursion)]
    pub folders: Vec<FolderNode>,
}

/// A folder's contents as one user sees them.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FolderContents {
    pub list: Vec<ItemView>,
    /// The folder above, when the user sees it in the same list; `null` at the list's root.
    pub back: Option<FolderRef>,
    /// `my`, `shared` or `us`.
    #[serde(rename = "type")]
    pub kind: String,
    pub name: String,
}

/// What an external share answers.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ExternalShare {
    pub recipient: String,
    /// When the link stops working (ms since the epoch).
    pub expires_at: i64,
    /// The share's id (`GET /api/documents/{id}/shares`, `.../shares/{share_id}/revoke`).
    pub id: String,
}

/// The options of an external share; absent ones take their defaults.
#[derive(Debug, Clone, Default)]
pub struct ExternalShareOptions {
    /// 1 to `EXTERNAL_LINK_MAX_DAYS`; default `SHARED_LINK_TTL_HOURS` (7 days).
    pub expires_in_days: Option<i64>,
    /// Default true.
    pub allow_download: Option<bool>,
    /// 1 to 1000; default no limit.
    pub max_opens: Option<i64>,
}

/// Most opens a link may be limited to.
pub const MAX_OPENS_LIMIT: i64 = 1_000;

pub struct Documents {
    db: Db,
    store: EventStore<Item>,
    locks: TreeLocks,
    pub storage: Storage,
    pub upload_max_bytes: u64,
    link_ttl_ms: i64,
    /// External shares one user may make in 24 hours (they e-mail strangers).
    external_shares_per_day: u32,
    pub(super) public_url: String,
    /// Tracked external links: their engagement store, limits and settings.
    pub(super) tracking: super::tracking::Tracking,
    /// `USER_STORAGE_QUOTA_MB` and `MIN_FREE_DISK_MB` (see `usage`).
    pub(super) storage_quota_mb: u64,
    pub(super) min_free_disk_mb: u64,
}

/// A new item's or share's id: time-ordered (UUID version 7, 74 random bits), so the rows and
/// index entries a command adds land next to the last command's in every table keyed by it,
/// on pages already in memory, instead of one page at random per table and index.
pub(super) fn new_id() -> String {
    uuid::Uuid::now_v7().to_string()
}

/// Runs `work` in its own task: once started it finishes even if the caller goes away.
async fn detached<T: Send + 'static>(
    work: impl std::future::Future<Output = AppResult<T>> + Send + 'static,
) -> AppResult<T> {
    // The task keeps the request's id, which its events record.
    tokio::spawn(crate::request_context::carry(work))
        .await
        .map_err(|e| AppError::Internal(anyhow::anyhow!("documents task failed: {e}")))?
}

fn not_found() -> AppError {
    AppError::not_found("The folder or file was not found")
}

/// An item read with the actor's shares on its path, if the actor sees it; 404 otherwise.
fn seen_by(
    actor: &Actor,
    found: Option<(ItemRow, HashSet<String>)>,
) -> AppResult<(ItemRow, HashSet<String>)> {
    let (row, shares) = found.ok_or_else(not_found)?;
    if !row.access(&actor.viewer(), &shares).sees() {
        return Err(not_found());
    }
    Ok((row, shares))
}

impl Documents {
    pub fn new(db: &Db, config: &Config, projector: ProjectorHandle) -> anyhow::Result<Self> {
        let services = events::documents::ItemServices::new(DbServices {
            db: db.clone(),
            max_folder_depth: config.max_folder_depth,
        });
        Ok(Self {
            db: db.clone(),
            store: EventStore::with_snapshots(db, services, projector.clone(), ITEM_SNAPSHOT_EVERY),
            locks: TreeLocks::default(),
            storage: Storage::from_config(&config.data_dir, config.file_store_url.as_deref())?,
            upload_max_bytes: config.upload_max_bytes,
            link_ttl_ms: config.shared_link_ttl_hours.max(1) * 3_600_000,
            external_shares_per_day: config.external_shares_per_day,
            public_url: config.public_url(config.port),
            tracking: super::tracking::Tracking::new(db, config, projector.clone()),
            storage_quota_mb: config.user_storage_quota_mb,
            min_free_disk_mb: config.min_free_disk_mb,
        })
    }

    /// A new item's id: a UUID made here, so the store knows the item has no events yet and
    /// its first command reads nothing before it decides.
    fn new_item_id(&self) -> String {
        let id = new_id();
        self.store.is_new(&id);
        id
    }

    /// The database the documents live in.
    pub fn db(&self) -> &Db {
        &self.db
    }

    pub(crate) async fn run(
        &self,
        id: &str,
        command: ItemCommand,
        metadata: Metadata,
    ) -> AppResult<()> {
        self.store.execute(id, command, metadata).await.map(|_| ())
    }

    /// Runs `actor`'s `command` on item `id`, asking for the item as the actor then sees it to
    /// be read in the command's own transaction (see [`EventStore::execute_reading`]); hand
    /// what it returns to [`Documents::answer`].
    async fn run_reading(
        &self,
        actor: &Actor,
        id: &str,
        command: ItemCommand,
    ) -> AppResult<Option<ReadBackRow>> {
        let read_back = ReadBack::DocumentItem {
            viewer_id: actor.id.clone(),
            item_id: id.to_string(),
        };
        let (_, read) = self
            .store
            .execute_reading(id, command, actor.metadata(), Some(read_back))
            .await?;
        Ok(read)
    }

    /// The answer of a command run by [`Documents::run_reading`]: the item as the actor sees it,
    /// from the command's transaction, or read now when it was not read there.
    async fn answer(
        &self,
        actor: &Actor,
        id: &str,
        read: Option<ReadBackRow>,
    ) -> AppResult<ItemView> {
        match read {
            Some(ReadBackRow::DocumentItem(found)) => {
                let (row, shares) = seen_by(actor, found)?;
                Ok(row.view(&actor.viewer(), &shares))
            }
            None => self.view(actor, id).await,
        }
    }

    // ---- reads ----

    /// The item as `actor` sees it; 404 when they cannot.
    pub async fn view(&self, actor: &Actor, id: &str) -> AppResult<ItemView> {
        let (row, shares) = self.visible(actor, id).await?;
        Ok(row.view(&actor.viewer(), &shares))
    }

    /// The item's row and which items on its path are shared with the actor directly, when
    /// the actor sees the item.
    pub(super) async fn visible(
        &self,
        actor: &Actor,
        id: &str,
    ) -> AppResult<(ItemRow, HashSet<String>)> {
        let mut tx = Tx::read(&self.db).await?;
        seen_by(
            actor,
            read::item_and_path_shares(&mut tx, &actor.id, id).await?,
        )
    }

    /// Whether the actor may read the item's history (auditors read every item's).
    async fn may_audit(&self, actor: &Actor, id: &str) -> AppResult<()> {
        if actor.auditor {
            return Ok(());
        }
        self.visible(actor, id).await.map(|_| ())
    }

    /// The items of `ids` that `actor` sees, as their lists show them, each with the list it is
    /// in (`my`, `shared` or `us`); the others are left out. For search results.
    pub async fn visible_views(
        &self,
        actor: &Actor,
        ids: &[String],
    ) -> AppResult<Vec<(ItemView, ListType)>> {
        let mut tx = Tx::read(&self.db).await?;
        let shares = read::shares_of(&mut tx, &actor.id).await?;
        let viewer = actor.viewer();
        let mut views = Vec::with_capacity(ids.len());
        for id in ids {
            let Some(row) = read::item(&mut tx, &actor.id, id).await? else {
                continue;
            };
            let access = row.access(&viewer, &shares);
            // A withdrawn item is found only by the owner of a copy (in their My Docs).
            if !access.sees() || (row.is_withdrawn() && !access.owner) {
                continue;
            }
            let list = if access.owner {
                ListType::My
            } else if access.direct || access.inside {
                ListType::Shared
            } else {
                ListType::Us
            };
            views.push((row.view(&viewer, &shares), list));
        }
        Ok(views)
    }

    /// The root of one of the three lists.
    pub async fn list(&self, actor: &Actor, list: ListType) -> AppResult<Vec<ItemView>> {
        if list == ListType::Us && !actor.shows_us {
            return Err(AppError::forbidden(
                "The US documents are not available for your account",
            ));
        }
        let mut tx = Tx::read(&self.db).await?;
        let rows = match list {
            ListType::My => read::my_roots(&mut tx, &actor.id).await?,
            ListType::Shared => read::shared_roots(&mut tx, &actor.id).await?,
            ListType::Us => read::us_roots(&mut tx, &actor.id).await?,
        };
        let shares = read::shares_of(&mut tx, &actor.id).await?;
        let viewer = actor.viewer();
        Ok(rows
            .iter()
            .filter(|r| listed(r, list))
            .map(|r| r.view(&viewer, &shares))
            .collect())
    }

    /// A folder's contents in one of the lists; 404 unless the actor sees it in that list.
    pub async fn folder(
        &self,
        actor: &Actor,
        id: &str,
        list: ListType,
    ) -> AppResult<FolderContents> {
        let viewer = actor.viewer();
        let in_list = |row: &ItemRow, shares: &HashSet<String>| {
            let access = row.access(&viewer, shares);
            match list {
                ListType::My => access.owner,
                ListType::Shared => access.direct || access.inside,
                ListType::Us => access.us,
            }
        };
        let mut tx = Tx::read(&self.db).await?;
        let row = read::item(&mut tx, &actor.id, id)
            .await?
            .ok_or_else(not_found)?;
        let shares = read::shares_of(&mut tx, &actor.id).await?;
        if row.kind() != Kind::Folder || !in_list(&row, &shares) {
            return Err(not_found());
        }
        let back = match &row.parent_id {
            Some(parent) => read::item(&mut tx, &actor.id, parent)
                .await?
                .filter(|p| in_list(p, &shares))
                .map(|p| FolderRef {
                    id: p.id,
                    name: p.title,
                }),
            None => None,
        };
        let list_rows = read::children(&mut tx, &actor.id, id).await?;
        let contents = FolderContents {
            list: list_rows
                .iter()
                .filter(|r| listed(r, list))
                .map(|r| r.view(&viewer, &shares))
                .collect(),
            back,
            kind: list.as_str().to_string(),
            name: row.title.clone(),
        };
        drop(tx);
        // Opening a folder that reached the user unread clears its dot.
        if row.unread(&viewer) {
            self.run(
                id,
                ItemCommand::Open {
                    by: actor.id.clone(),
                    download: false,
                },
                actor.metadata(),
            )
            .await?;
        }
        Ok(contents)
    }

    /// The actor's My Docs folders as a tree (move dialog).
    pub async fn tree(&self, actor: &Actor) -> AppResult<Vec<FolderNode>> {
        let mut tx = Tx::read(&self.db).await?;
        let folders = read::my_folders(&mut tx, &actor.id).await?;
        let mut by_parent: HashMap<Option<String>, Vec<(String, String)>> = HashMap::new();
        for f in folders {
            by_parent
                .entry(f.parent_id)
                .or_default()
                .push((f.id, f.title));
        }
        fn build(
            parent: Option<String>,
            by_parent: &mut HashMap<Option<String>, Vec<(String, String)>>,
        ) -> Vec<FolderNode> {
            let children = by_parent.remove(&parent).unwrap_or_default();
            children
                .into_iter()
                .map(|(id, name)| FolderNode {
                    folders: build(Some(id.clone()), by_parent),
                    id,
                    name,
                })
                .collect()
        }
        Ok(build(None, &mut by_parent))
    }

    // ---- changes ----

    pub async fn create_folder(
        &self,
        actor: &Actor,
        parent: Option<String>,
        name: String,
    ) -> AppResult<ItemView> {
        let tree = self.locks.lock(&self.db, &actor.id).await?;
        let id = self.new_item_id();
        let read = self
            .run_reading(
                actor,
                &id,
                ItemCommand::CreateFolder {
                    id: id.clone(),
                    by: Creator::User(actor.user_ref()),
                    parent,
                    name,
                    seed_key: None,
                },
            )
            .await?;
        // The read models show the folder: the tree is free before the answer is read.
        drop(tree);
        self.answer(actor, &id, read).await
    }

    /// Records an uploaded file (already in storage) as a new item; the stored file is removed
    /// again when the upload is refused.
    pub async fn upload(
        &self,
        actor: &Actor,
        parent: Option<String>,
        title: String,
        original_name: String,
        stored: Stored,
    ) -> AppResult<ItemView> {
        let tree = self.locks.lock(&self.db, &actor.id).await?;
        let id = self.new_item_id();
        let blob = stored.blob.clone();
        // The quota is checked with the tree held: no other upload of the owner is recorded
        // in between. A refusal, like a failed command, drops the stored file.
        let result = async {
            self.check_fits(&actor.id, stored.size).await?;
            self.run_reading(
                actor,
                &id,
                ItemCommand::UploadFile {
                    id: id.clone(),
                    by: Creator::User(actor.user_ref()),
                    parent,
                    upload: Upload {
                        title,
                        file_name: None,
                        original_name,
                        sniffed: stored.sniffed,
                        blob: stored.blob,
                        size: stored.size,
                        sha256: Some(stored.sha256),
                        subtitle: None,
                        languages_in_file: None,
                        code_points: None,
                        labels: Default::default(),
                    },
                    seed_key: None,
                },
            )
            .await
        }
        .await;
        drop(tree);
        let read = match result {
            Ok(read) => read,
            Err(e) => {
                self.storage.discard(&blob).await;
                return Err(e);
            }
        };
        self.answer(actor, &id, read).await
    }

    pub async fn rename(&self, actor: &Actor, id: &str, name: String) -> AppResult<ItemView> {
        let read = self
            .run_reading(
                actor,
                id,
                ItemCommand::Rename {
                    by: actor.id.clone(),
                    name,
                },
            )
            .await?;
        self.answer(actor, id, read).await
    }

    /// Moves an item into one of the actor's folders, or to the root 'My docs' (`None`).
    pub async fn move_item(
        &self,
        actor: &Actor,
        id: &str,
        destination: Option<String>,
    ) -> AppResult<ItemView> {
        let tree = self.locks.lock(&self.db, &actor.id).await?;
        let read = self
            .run_reading(
                actor,
                id,
                ItemCommand::Move {
                    by: actor.id.clone(),
                    destination,
                },
            )
            .await?;
        drop(tree);
        self.answer(actor, id, read).await
    }

    /// Deletes a folder with its contents, or removes a file; returns the ids of the items
    /// that went with it.
    pub async fn delete(self: &Arc<Self>, actor: &Actor, id: &str) -> AppResult<Vec<String>> {
        let (this, actor, id) = (self.clone(), actor.clone(), id.to_string());
        detached(async move {
            let _tree = this.locks.lock(&this.db, &actor.id).await?;
            let name = this
                .visible(&actor, &id)
                .await
                .map(|(row, _)| row.title)
                .unwrap_or_default();
            this.run(
                &id,
                ItemCommand::Delete {
                    by: actor.id.clone(),
                },
                actor.metadata(),
            )
            .await?;
            let recorded = projections::stream::events_of(&this.db, ITEM_TYPE, &id)
                .await
                .map_err(|e| AppError::Internal(e.into()))?;
            let removed = match recorded.last().map(|e| e.decode::<ItemEvent>()) {
                Some(Ok(ItemEvent::FolderDeleted { removed, .. })) => removed,
                _ => Vec::new(),
            };
            // Each item inside records that it went with the folder.
            let folder = ItemRef {
                id: id.clone(),
                name,
            };
            for item in &removed {
                this.run(
                    item,
                    ItemCommand::DeleteWithFolder {
                        folder: folder.clone(),
                    },
                    actor.metadata(),
                )
                .await?;
            }
            // A deleted document's external links end with it.
            let mut ended = removed.clone();
            ended.push(id.clone());
            this.end_links_of_items(&ended, &actor.id).await?;
            Ok(removed)
        })
        .await
    }

    /// Shares an item with the colleague using `email` (`internal_share` or
    /// `storage_internal_share`); returns the recipient's e-mail and the item.
    pub async fn share(
        &self,
        actor: &Actor,
        id: &str,
        email: Option<String>,
        via: ShareVia,
    ) -> AppResult<(String, ItemView)> {
        let email = required_email(email)?;
        // An e-mail nobody uses is no recipient: the aggregate answers with the spec's "not
        // found" text, after its own checks of the item.
        let with = User::find_by_email(&self.db, &email)
            .await?
            .map(|user| UserRef {
                name: full_name(&user),
                id: user.id,
            });
        let read = self
            .run_reading(
                actor,
                id,
                ItemCommand::Share {
                    by: actor.user_ref(),
                    with,
                    via,
                },
            )
            .await?;
        Ok((email, self.answer(actor, id, read).await?))
    }

    /// Sends `email` an expiring link to the file. The message is queued in the outbox before
    /// the share is recorded and held until it is (see [`crate::outbox`]): it goes out if and
    /// only if the share's event exists. Without an SMTP server it stays queued.
    pub async fn share_externally(
        &self,
        actor: &Actor,
        id: &str,
        email: Option<String>,
        options: ExternalShareOptions,
    ) -> AppResult<ExternalShare> {
        let email = required_email(email)?;
        let max_days = self.tracking.max_days;
        let lasts_ms = match options.expires_in_days {
            Some(days) if !(1..=max_days).contains(&days) => {
                return Err(AppError::bad_request(format!(
                    "A link can last from 1 to {max_days} days"
                )))
            }
            Some(days) => days * 24 * 3_600_000,
            None => self.link_ttl_ms.min(max_days.max(1) * 24 * 3_600_000),
        };
        let max_opens = match options.max_opens {
            Some(n) if !(1..=MAX_OPENS_LIMIT).contains(&n) => {
                return Err(AppError::bad_request(format!(
                    "The number of opens must be between 1 and {MAX_OPENS_LIMIT}"
                )))
            }
            Some(n) => u32::try_from(n).ok(),
            None => None,
        };
        let allow_download = options.allow_download.unwrap_or(true);
        // One external share of a user at a time, on every node, until its link is in the read
        // model: parallel requests cannot all pass the count below.
        let _quota = self
            .locks
            .lock(&self.db, &format!("external-shares:{}", actor.id))
            .await?;
        self.check_external_share_quota(actor).await?;
        let mut raw = [0u8; 32];
        rand::thread_rng().fill_bytes(&mut raw);
        let token = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(raw);
        let hash = token_hash(&token);
        let expires_at = now_ms() + lasts_ms;
        let share = new_id();
        let title = self.view(actor, id).await?.title;
        let until = chrono::DateTime::from_timestamp_millis(expires_at)
            .map(|t| t.format("%-d %B %Y, %H:%M UTC").to_string())
            .unwrap_or_default();
        // The tracked viewer, never the raw file: opens and pages reach the sender.
        let link = format!("{}/s/{token}", self.public_url);
        let message = crate::outbox::send_with_link(
            &self.db,
            &email,
            &format!("{} shared a document with you", actor.name),
            &format!(
                "Hello,\n\n{} ({}) shared the document \"{title}\" with you.\n\nOpen it here: {link}\n\nThe link works until {until}.\n"
                , actor.name, actor.email
            ),
            &hash,
        )
        .await?;
        let shared = self
            .run(
                id,
                ItemCommand::ShareExternally {
                    by: actor.id.clone(),
                    email: email.clone(),
                    token_hash: hash,
                    expires_at,
                    share: share.clone(),
                    allow_download,
                    max_opens,
                },
                actor.metadata(),
            )
            .await;
        if let Err(refused) = shared {
            // Refused: the held message must never go out. (A stopped read model or an
            // unexpected failure may come after the share was recorded: the message then waits
            // for its link, and is purged if it never comes.)
            if !matches!(
                refused,
                AppError::ProjectionStopped(_)
                    | AppError::ProjectionsBehind(_)
                    | AppError::Internal(_)
            ) {
                crate::outbox::discard(&self.db, message).await?;
            }
            return Err(refused);
        }
        Ok(ExternalShare {
            recipient: email,
            expires_at,
            id: share,
        })
    }

    /// Refuses (429, with when to retry) a user's external share beyond
    /// `EXTERNAL_SHARES_PER_DAY` in the last 24 hours.
    async fn check_external_share_quota(&self, actor: &Actor) -> AppResult<()> {
        const DAY_MS: i64 = 24 * 3_600_000;
        let now = now_ms();
        let recent: Vec<i64> = on_db!(&self.db, pool => sqlx::query_scalar(
            "select created_at from doc_external_links where created_by = $1 and created_at > $2
             order by created_at desc limit $3")
            .bind(&actor.id).bind(now - DAY_MS).bind(i64::from(self.external_shares_per_day))
            .fetch_all(pool).await)?;
        if recent.len() < self.external_shares_per_day as usize {
            return Ok(());
        }
        metrics::counter!(crate::metrics::RATE_LIMIT_REFUSALS, "limit" => "external_shares")
            .increment(1);
        // Free again when the oldest share counted falls out of the 24 hours.
        let oldest = recent.last().copied().unwrap_or(now);
        let wait_ms = (oldest + DAY_MS - now).max(1000);
        Err(AppError::RateLimited {
            message: format!(
                "You can share at most {} documents outside the company in 24 hours. Try again later",
                self.external_shares_per_day
            ),
            retry_after_seconds: (wait_ms as u64).div_ceil(1000),
        })
    }

    /// Saves a copy of a shared or US file into the actor's My Docs (`folder`, or the root).
    pub async fn save_to_mydocs(
        self: &Arc<Self>,
        actor: &Actor,
        source: &str,
        folder: Option<String>,
    ) -> AppResult<ItemView> {
        let (this, actor, source) = (self.clone(), actor.clone(), source.to_string());
        detached(async move {
            let tree = this.locks.lock(&this.db, &actor.id).await?;
            let copy = this.new_item_id();
            this.copy(&actor, &copy, &source, folder, CopyReason::Save, None)
                .await?;
            this.record_copy(&actor, &source, &copy, CopyReason::Save)
                .await?;
            drop(tree);
            this.view(&actor, &copy).await
        })
        .await
    }

    /// Moves an item shared with the actor into their My Docs: a copy (of a folder, with all
    /// it holds) at the root, and the original leaves their Shared with me.
    pub async fn move_to_mydocs(
        self: &Arc<Self>,
        actor: &Actor,
        source: &str,
    ) -> AppResult<ItemView> {
        let (this, actor, source) = (self.clone(), actor.clone(), source.to_string());
        detached(async move {
            let tree = this.locks.lock(&this.db, &actor.id).await?;
            let root = this.new_item_id();
            this.copy(&actor, &root, &source, None, CopyReason::Move, None)
                .await?;
            let nodes = {
                let mut tx = Tx::read(&this.db).await?;
                read::subtree_of_item(&mut tx, &source).await?
            };
            let mut copies: HashMap<String, String> =
                HashMap::from([(source.clone(), root.clone())]);
            for node in nodes.into_iter().filter(|n| n.id != source) {
                let Some(parent) = node.parent_id.as_ref().and_then(|p| copies.get(p)).cloned()
                else {
                    continue;
                };
                let copy = this.new_item_id();
                this.copy(
                    &actor,
                    &copy,
                    &node.id,
                    Some(parent),
                    CopyReason::Move,
                    Some(source.clone()),
                )
                .await?;
                copies.insert(node.id, copy);
            }
            this.record_copy(&actor, &source, &root, CopyReason::Move)
                .await?;
            drop(tree);
            this.view(&actor, &root).await
        })
        .await
    }

    async fn copy(
        &self,
        actor: &Actor,
        id: &str,
        source: &str,
        parent: Option<String>,
        reason: CopyReason,
        part_of: Option<String>,
    ) -> AppResult<()> {
        self.run(
            id,
            ItemCommand::Copy {
                id: id.to_string(),
                by: actor.user_ref(),
                source: source.to_string(),
                parent,
                reason,
                part_of,
            },
            actor.metadata(),
        )
        .await
    }

    async fn record_copy(
        &self,
        actor: &Actor,
        source: &str,
        copy: &str,
        reason: CopyReason,
    ) -> AppResult<()> {
        self.run(
            source,
            ItemCommand::RecordCopy {
                by: actor.id.clone(),
                copy: copy.to_string(),
                reason,
            },
            actor.metadata(),
        )
        .await
    }

    /// Records that the actor opened (or downloaded) a file and returns its row.
    pub async fn open(&self, actor: &Actor, id: &str, download: bool) -> AppResult<ItemRow> {
        self.run(
            id,
            ItemCommand::Open {
                by: actor.id.clone(),
                download,
            },
            actor.metadata(),
        )
        .await?;
        let (row, _) = self.visible(actor, id).await?;
        if row.kind() != Kind::File {
            return Err(AppError::bad_request("Only files can be opened this way"));
        }
        Ok(row)
    }

    // ---- history ----

    /// The item a history is about and its reader: auditors read every item's history in full,
    /// the owner their own items' in full, others who see the item what [`HistoryScope`]
    /// leaves them; 404 for anyone else.
    pub async fn history_reader(
        &self,
        actor: &Actor,
        id: &str,
    ) -> AppResult<(super::history::HistoryItem, super::history::Reader)> {
        let access = match self.visible(actor, id).await {
            Ok((row, on_path)) => row.access(&actor.viewer(), &on_path),
            Err(_) if actor.auditor => Default::default(),
            Err(e) => return Err(e),
        };
        let scope = HistoryScope::of(actor.auditor, &access);
        let mut item = super::history::item_of(&self.db, id).await?;
        item.as_of = item.kind == Kind::Folder.as_str() && (actor.auditor || access.owner);
        let mut tx = Tx::read(&self.db).await?;
        // A reader told only their own part is asked about other folders the history names:
        // whether they see those takes every share. Owners and auditors are told it all.
        let shares = match scope {
            HistoryScope::Own => read::shares_of(&mut tx, &actor.id).await?,
            HistoryScope::Full => HashSet::new(),
        };
        let whose = (scope == HistoryScope::Own).then_some(actor.id.as_str());
        item.reads = projections::item_reads::counts(&mut tx, id, whose).await?;
        let reader = super::history::Reader::new(&self.db, id, actor.viewer(), shares, scope);
        Ok((item, reader))
    }

    /// One page of an item's history as the actor is told it, newest first.
    pub async fn history(
        &self,
        actor: &Actor,
        id: &str,
        before: Option<i64>,
        limit: i64,
    ) -> AppResult<super::history::History> {
        let (item, mut reader) = self.history_reader(actor, id).await?;
        let (entries, next) = reader.page(before, limit).await?;
        Ok(super::history::History {
            item,
            entries,
            next: next.map(super::history::cursor),
        })
    }

    /// A folder's contents as they were at `at_ms`, read from the temporal tables: auditors see
    /// any folder; others a folder they see now, and only as far as they could see it then (their
    /// own tree, the US set, or a share on it or a folder above it valid at that time).
    pub async fn folder_as_of(
        &self,
        actor: &Actor,
        id: &str,
        at_ms: i64,
    ) -> AppResult<(String, Vec<ItemView>)> {
        self.may_audit(actor, id).await?;
        let mut tx = Tx::read(&self.db).await?;
        let folder = temporal::item_as_of(&mut tx, id, at_ms)
            .await
            .map_err(|e| AppError::Internal(e.into()))?
            .filter(|row| row.kind() == Kind::Folder)
            .ok_or_else(|| AppError::not_found("The folder did not exist at that time"))?;
        if !actor.auditor {
            let shared_then = temporal::shared_with_as_of(&mut tx, id, at_ms)
                .await
                .map_err(|e| AppError::Internal(e.into()))?;
            let mut shares = HashSet::new();
            if shared_then.contains(&actor.id) {
                shares.insert(folder.id.clone());
            }
            if !folder.access(&actor.viewer(), &shares).sees() {
                return Err(AppError::forbidden(
                    "You could not see this folder at that time",
                ));
            }
        }
        let rows = temporal::children_as_of(&mut tx, id, at_ms)
            .await
            .map_err(|e| AppError::Internal(e.into()))?;
        Ok((
            folder.title,
            rows.iter()
                .map(|r| r.view_with(Vec::new(), false))
                .collect(),
        ))
    }

    /// Who could see `id` at `at_ms`, from the temporal tables: the item as it was then and the
    /// shares on it or on a folder above it valid then. For auditors, and the owner for their
    /// own items; 404 for an item the read model never held or that did not exist at `at_ms`.
    pub async fn access_as_of(
        &self,
        actor: &Actor,
        id: &str,
        at_ms: i64,
    ) -> AppResult<(ItemRow, Vec<temporal::ShareThen>)> {
        let internal = |e: projections::ProjectionError| AppError::Internal(e.into());
        let mut tx = Tx::read(&self.db).await?;
        let owner = temporal::owner_of(&mut tx, id)
            .await
            .map_err(internal)?
            .ok_or_else(not_found)?;
        if !actor.auditor && owner.as_deref() != Some(actor.id.as_str()) {
            return Err(AppError::forbidden(
                "Only auditors and the item's owner can see who could see it",
            ));
        }
        let item = temporal::item_as_of(&mut tx, id, at_ms)
            .await
            .map_err(internal)?
            .ok_or_else(|| AppError::not_found("The item did not exist at that time"))?;
        let shares = temporal::shares_as_of(&mut tx, id, at_ms)
            .await
            .map_err(internal)?;
        Ok((item, shares))
    }
}

/// Whether a row shows in `list`: a withdrawn item only in My Docs (a copy, marked withdrawn),
/// never in Shared with me or the US set.
fn listed(row: &ItemRow, list: ListType) -> bool {
    list == ListType::My || !row.is_withdrawn()
}

fn required_email(email: Option<String>) -> AppResult<String> {
    let email = String::from(Email::normalised(email.as_deref().unwrap_or_default()));
    if email.is_empty() {
        return Err(AppError::bad_request("The e-mail is required"));
    }
    Ok(email)
}

/// The SHA-256 of an external link's token: what the event store and the read model keep.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::new_id;

    #[test]
    fn new_ids_are_version_7_and_follow_one_another_in_byte_order() {
        let ids: Vec<String> = (0..1_000).map(|_| new_id()).collect();
        for pair in ids.windows(2) {
            assert!(pair[0] < pair[1], "{} then {}", pair[0], pair[1]);
        }
        for id in &ids {
            assert_eq!(uuid::Uuid::parse_str(id).unwrap().get_version_num(), 7);
        }
    }
}
